// From the runs of a task's exploits to its cheat report: each exploit stopped (not resolved, or resolved but
// flagged as tampering), passed (a verifier defect named by the exploit), did not apply, timed out, or an error.
import type { CandidateTask } from '../model';
import type { RunFlag, VerifierRunRecord } from '../verify/runResult';
import type { Exploit, ExploitId, SkippedExploit } from './cheats';

export const CHEAT_OUTCOMES = ['stopped', 'passed', 'did_not_apply', 'timed_out', 'error'] as const;
export type CheatOutcome = (typeof CHEAT_OUTCOMES)[number];

/** What stopped an exploit: the grading (failed, invalid) or only a tampering flag on a run that resolved. */
export type StoppedBy = 'grading' | 'flags';

const TAMPERING: ReadonlySet<string> = new Set(['attempt_edits_tests', 'attempt_edits_test_plugins', 'attempt_edits_test_config', 'attempt_exits_test_process']);

export interface ExploitResult {
  id: ExploitId;
  title: string;
  files: string[];
  outcome: CheatOutcome;
  stoppedBy?: StoppedBy;
  /** The run's status and reason, as the verifier gave them. */
  status: string;
  reason: string;
  /** The run's flags (tampering flags included). */
  flags: RunFlag[];
  /** Listed tests that did not pass (task test names). */
  failingTests: string[];
  /** The exploit's patch; kept for a passed exploit (the defect's evidence). */
  patch?: string;
}

export interface CheatReport {
  format: 1;
  taskId: string;
  taskRevision: number;
  createdAt: string;
  /** How the gold patch did in the same verifier (a verifier that fails gold tells little by stopping exploits). */
  gold: { status: string; reason: string };
  counts: Record<CheatOutcome, number>;
  /** Ids of the exploits that passed: the verifier defects. */
  defects: ExploitId[];
  exploits: ExploitResult[];
  skipped: SkippedExploit[];
}

export interface ExploitRun {
  exploit: Exploit;
  run?: Pick<VerifierRunRecord, 'status' | 'reason' | 'resolved' | 'apply' | 'grade' | 'flags'>;
  error?: string;
}

/** The outcome of one exploit's run. */
export function cheatOutcome(run: NonNullable<ExploitRun['run']>): { outcome: CheatOutcome; stoppedBy?: StoppedBy } {
  switch (run.status) {
    case 'passed':
      if (!run.resolved) return { outcome: 'stopped', stoppedBy: 'grading' };
      return (run.flags ?? []).some((f) => TAMPERING.has(f.kind)) ? { outcome: 'stopped', stoppedBy: 'flags' } : { outcome: 'passed' };
    case 'failed':
    case 'invalid':
      return { outcome: 'stopped', stoppedBy: 'grading' };
    case 'apply_failed':
      return { outcome: run.apply.attempt.method === 'failed' ? 'did_not_apply' : 'error' };
    case 'timeout':
      return { outcome: 'timed_out' };
    default:
      return { outcome: 'error' };
  }
}

export function cheatReport(
  task: Pick<CandidateTask, 'id' | 'revision'>,
  gold: { status: string; reason: string },
  skipped: SkippedExploit[],
  runs: ExploitRun[],
  now: Date,
): CheatReport {
  const counts = Object.fromEntries(CHEAT_OUTCOMES.map((o) => [o, 0])) as Record<CheatOutcome, number>;
  const exploits = runs.map(({ exploit: e, run, error }): ExploitResult => {
    const o = run ? cheatOutcome(run) : { outcome: 'error' as const };
    counts[o.outcome]++;
    const g = run?.grade;
    const failing = g ? [...g.failToPass.failure, ...g.failToPass.missing, ...g.failToPass.skipped, ...g.passToPass.failure, ...g.passToPass.missing] : [];
    return {
      id: e.id,
      title: e.title,
      files: e.files,
      outcome: o.outcome,
      ...(o.stoppedBy ? { stoppedBy: o.stoppedBy } : {}),
      status: run?.status ?? 'error',
      reason: run?.reason ?? error ?? '',
      flags: run?.flags ?? [],
      failingTests: failing,
      ...(o.outcome === 'passed' ? { patch: e.patch } : {}),
    };
  });
  return {
    format: 1,
    taskId: task.id,
    taskRevision: task.revision,
    createdAt: now.toISOString(),
    gold,
    counts,
    defects: exploits.filter((x) => x.outcome === 'passed').map((x) => x.id),
    exploits,
    skipped,
  };
}
