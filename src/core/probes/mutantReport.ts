// From the runs of a task's gold mutants to its mutation report: each mutant's outcome (killed, survived, did not
// apply, timed out, out of memory, error), the task's mutation score and, per spec, how many mutants its tests killed.
import type { CandidateTask } from '../model';
import type { VerifierRunRecord } from '../verify/runResult';
import type { Mutant, SkippedMutation } from './mutants';

export const MUTANT_OUTCOMES = ['killed', 'survived', 'did_not_apply', 'timed_out', 'out_of_memory', 'error'] as const;
/**
 * `killed`: a listed test failed; `survived`: every FAIL_TO_PASS and PASS_TO_PASS test passed (the run resolved);
 * the rest say why there is no verdict and never count as killed.
 */
export type MutantOutcome = (typeof MUTANT_OUTCOMES)[number];

/** A mutant as run: what it is (a `Mutant` without its patch, kept for survivors only), and how it did. */
export interface MutantResult extends Omit<Mutant, 'patch'> {
  outcome: MutantOutcome;
  /** The run's status and reason, as the verifier gave them. */
  status: string;
  reason: string;
  /** Listed tests that failed (task test names); empty unless killed. */
  failingTests: string[];
  /** Specs with a mapped test among `failingTests`: the mutant is killed "for" them. */
  killedForSpecs: string[];
  /** The mutated gold patch; kept for survivors only (the evidence a curator reads). */
  patch?: string;
}

export interface SpecMutationCount {
  spec: string;
  /** Graded mutants (killed or survived) a test mapped to this spec failed on. */
  killed: number;
  /** Graded mutants none of this spec's tests failed on. */
  survived: number;
  /** The spec has no mapped test: nothing can kill a mutant for it. */
  untested: boolean;
}

export interface MutationReport {
  format: 1;
  taskId: string;
  taskRevision: number;
  createdAt: string;
  /** How the gold patch itself did in the same verifier: a score only means something when it passed. */
  gold: { status: string; reason: string };
  /** Mutants generated before the cap, and how many ran. */
  generated: number;
  ran: number;
  counts: Record<MutantOutcome, number>;
  /** killed / (killed + survived); null when no mutant was graded. */
  score: number | null;
  specs: SpecMutationCount[];
  mutants: MutantResult[];
  skipped: SkippedMutation[];
  unsupportedFiles: string[];
}

/** The outcome of one mutant's run, from its status. */
export function mutantOutcome(run: Pick<VerifierRunRecord, 'status' | 'apply'>): MutantOutcome {
  switch (run.status) {
    case 'passed':
      return 'survived';
    case 'failed':
      return 'killed';
    case 'apply_failed':
      return run.apply.attempt.method === 'failed' ? 'did_not_apply' : 'error';
    case 'timeout':
      return 'timed_out';
    case 'oom':
      return 'out_of_memory';
    default:
      return 'error';
  }
}

/** The listed tests a run failed: FAIL_TO_PASS not passing (skipped counts as failing), PASS_TO_PASS failing or missing. */
export function failingTests(run: Pick<VerifierRunRecord, 'grade'>): string[] {
  const f = run.grade.failToPass;
  const p = run.grade.passToPass;
  return [...f.failure, ...f.missing, ...f.skipped, ...p.failure, ...p.missing];
}

export interface MutantRun {
  mutant: Mutant;
  /** The run, or the error that kept it from running (a request the verifier refused). */
  run?: Pick<VerifierRunRecord, 'status' | 'reason' | 'apply' | 'grade'>;
  error?: string;
}

export function mutationReport(
  task: Pick<CandidateTask, 'id' | 'revision' | 'specs' | 'tests'>,
  gold: { status: string; reason: string },
  set: { generated: number; skipped: SkippedMutation[]; unsupportedFiles: string[] },
  runs: MutantRun[],
  now: Date,
): MutationReport {
  const counts = Object.fromEntries(MUTANT_OUTCOMES.map((o) => [o, 0])) as Record<MutantOutcome, number>;
  const specsOf = new Map(task.tests.map((t) => [t.name, t.specs]));
  const mutants: MutantResult[] = runs.map(({ mutant: m, run, error }) => {
    const outcome: MutantOutcome = run ? mutantOutcome(run) : 'error';
    counts[outcome]++;
    const failing = outcome === 'killed' && run ? failingTests(run) : [];
    const killedFor = [...new Set(failing.flatMap((t) => specsOf.get(t) ?? []))].sort();
    return {
      id: m.id,
      operator: m.operator,
      file: m.file,
      line: m.line,
      column: m.column,
      before: m.before,
      after: m.after,
      outcome,
      status: run?.status ?? 'error',
      reason: run?.reason ?? error ?? '',
      failingTests: failing,
      killedForSpecs: killedFor,
      ...(outcome === 'survived' ? { patch: m.patch } : {}),
    };
  });
  const graded = mutants.filter((m) => m.outcome === 'killed' || m.outcome === 'survived');
  const tested = new Set(task.tests.flatMap((t) => t.specs));
  const specs = task.specs.map((s) => {
    const killed = graded.filter((m) => m.killedForSpecs.includes(s.id)).length;
    return { spec: s.id, killed, survived: graded.length - killed, untested: !tested.has(s.id) };
  });
  const denom = counts.killed + counts.survived;
  return {
    format: 1,
    taskId: task.id,
    taskRevision: task.revision,
    createdAt: now.toISOString(),
    gold,
    generated: set.generated,
    ran: runs.length,
    counts,
    score: denom === 0 ? null : counts.killed / denom,
    specs,
    mutants,
    skipped: set.skipped,
    unsupportedFiles: set.unsupportedFiles,
  };
}
