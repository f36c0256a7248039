// The full-suite probe (pure parts): the repository's whole test command, derived for pytest tasks, and the report
// comparing what the gold patch and each attempt make of every test it runs: tests beyond the listed ones that pass
// with gold and fail with an attempt (the attempt breaks other tests), and those that fail with gold too (noise).
import type { CandidateTask, TestStatus } from '../model';
import type { VerifierRunRecord } from '../verify/runResult';

export interface FullSuiteCommand {
  command: string;
  /** Always true so far: the task format has no full-suite command, so one is derived. */
  derived: boolean;
  note: string;
}

/**
 * The whole-suite command of a pytest task (`python3 -m pytest -rA -p no:cacheprovider` at the repository root,
 * `python` when the task's command uses that); undefined with the reason for a task whose tests are not pytest's.
 */
export function fullSuiteCommand(verifier: Pick<CandidateTask['verifier'], 'command' | 'parser' | 'unpackTo'>): FullSuiteCommand | { refused: string } {
  if (verifier.unpackTo !== undefined) return { refused: 'a task whose tests are unpacked outside the repository (Harbor) has no repository suite to run' };
  const pytestTask = (verifier.parser === 'pytest' || verifier.parser === 'junit' || verifier.parser === undefined) && /\bpytest\b/.test(verifier.command);
  if (!pytestTask) return { refused: `no full-suite command can be derived for a task graded by "${verifier.parser ?? 'pytest'}" whose command does not run pytest` };
  const python = /\bpython3\b/.test(verifier.command) || !/\bpython\b/.test(verifier.command) ? 'python3' : 'python';
  const command = `${python} -m pytest -rA -p no:cacheprovider`;
  return { command, derived: true, note: `the task names no full-suite command: derived "${command}" at the repository root` };
}

const SUCCESS: ReadonlySet<string> = new Set(['PASSED', 'XFAIL', 'XPASS']);
const FAILURE: ReadonlySet<string> = new Set(['FAILED', 'ERROR']);

export interface FullSuiteRun {
  attemptId: string;
  run?: Pick<VerifierRunRecord, 'status' | 'reason' | 'reported'>;
  error?: string;
}

export interface FullSuiteColumn {
  attemptId: string;
  status: string;
  reason: string;
  /** Tests the runner reported in this run. */
  reported: number;
  /** Reported tests that failed (FAILED, ERROR). */
  failing: string[];
}

export interface FullSuiteAttempt extends FullSuiteColumn {
  /**
   * Tests beyond the listed ones that passed with the gold patch and fail (or are not reported) with this attempt;
   * null when either run was not graded (its status says why).
   */
  breaks: string[] | null;
}

export interface FullSuiteReport {
  format: 1;
  taskId: string;
  taskRevision: number;
  createdAt: string;
  command: string;
  derived: boolean;
  note: string;
  gold: FullSuiteColumn;
  /** Tests beyond the listed ones that fail with the gold patch too: environment noise, never counted against an attempt. */
  noise: string[];
  attempts: FullSuiteAttempt[];
}

const graded = (r: FullSuiteRun['run']) => r !== undefined && (r.status === 'passed' || r.status === 'failed');

function column(r: FullSuiteRun): FullSuiteColumn {
  const reported = r.run?.reported ?? {};
  return {
    attemptId: r.attemptId,
    status: r.run?.status ?? 'error',
    reason: r.run?.reason ?? r.error ?? '',
    reported: Object.keys(reported).length,
    failing: Object.entries(reported)
      .filter(([, s]) => FAILURE.has(s))
      .map(([n]) => n)
      .sort(),
  };
}

export function fullSuiteReport(
  task: Pick<CandidateTask, 'id' | 'revision' | 'tests'>,
  cmd: FullSuiteCommand,
  gold: FullSuiteRun,
  attempts: FullSuiteRun[],
  now: Date,
): FullSuiteReport {
  const listed = new Set(task.tests.map((t) => t.name));
  const goldTests: Record<string, TestStatus> = gold.run?.reported ?? {};
  const beyond = (n: string) => !listed.has(n);
  const noise = graded(gold.run) ? column(gold).failing.filter(beyond) : [];
  const goldPasses = Object.entries(goldTests)
    .filter(([n, s]) => beyond(n) && SUCCESS.has(s))
    .map(([n]) => n)
    .sort();
  return {
    format: 1,
    taskId: task.id,
    taskRevision: task.revision,
    createdAt: now.toISOString(),
    command: cmd.command,
    derived: cmd.derived,
    note: cmd.note,
    gold: column(gold),
    noise,
    attempts: attempts.map((a) => {
      const rep = a.run?.reported ?? {};
      const breaks = graded(gold.run) && graded(a.run) ? goldPasses.filter((n) => rep[n] === undefined || FAILURE.has(rep[n] as string)) : null;
      return { ...column(a), breaks };
    }),
  };
}
