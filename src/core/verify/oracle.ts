// Oracle probes: what the gold patch and the empty patch reveal about a task's tests, what that implies for each
// attempt's verdict, and which tests change outcome between repeated runs.
import type { CandidateTask } from '../model';
import { EMPTY_PROBE, GOLD_PROBE, isProbeId } from '../model';
import { isFailure, isSuccess } from './grading';
import type { GradedTestStatus, RunFlag, RunFlagKind, RunStatus } from './runResult';
import { isGradedStatus } from './runResult';
import { coveringTests } from './specVerdicts';

export type OracleFlagKind =
  /** The gold patch fails a test: the test may reject correct fixes (suspect false negative). */
  | 'gold_fails_test'
  /** A test fails with and without the gold patch: the environment (or the test) is broken. */
  | 'environment_defect'
  /** The empty patch passes a FAIL_TO_PASS test: that test cannot detect the fix (suspect false positive). */
  | 'empty_passes_fail_to_pass'
  /** No test covers this spec: nothing checks it. */
  | 'spec_without_test'
  /** The gold run gave no graded result (did not apply, timed out...): the task itself needs a look. */
  | 'gold_unusable'
  /** A test's outcome changed between repeats of the same inputs. */
  | 'flaky_test'
  /** This attempt is resolved, but through tests the empty patch also passes. */
  | 'attempt_suspect_false_positive'
  /** This attempt fails only tests the gold patch fails too. */
  | 'attempt_suspect_false_negative'
  /** Flags of one run itself (a skipped listed test, a patch touching the tests...), see `RunFlagKind`. */
  | RunFlagKind;

export interface OracleFlag {
  kind: OracleFlagKind;
  test?: string;
  spec?: string;
  attemptId?: string;
  message: string;
}

/** The part of a run the oracle logic reads. */
export interface RunView {
  attemptId: string;
  status: RunStatus;
  resolved: boolean;
  reason?: string;
  grade: { tests: Record<string, GradedTestStatus> };
  /** The run's own flags (absent in records made before they existed). */
  flags?: RunFlag[];
}

/** A run's own flags, named after its attempt (or probe). */
export function runFlags(run: RunView): OracleFlag[] {
  return (run.flags ?? []).map((f) => ({ kind: f.kind, message: f.message, ...(f.test ? { test: f.test } : {}), attemptId: run.attemptId }));
}

type OracleTask = Pick<CandidateTask, 'tests' | 'specs'>;

const ok = (st: GradedTestStatus | undefined) => isSuccess(st);
const bad = (st: GradedTestStatus | undefined) => st === undefined || st === 'MISSING' || isFailure(st);

/** Flags about the task itself, from its spec-test map and the gold and empty probe runs (either may be absent). */
export function taskFlags(task: OracleTask, probes: { gold?: RunView; empty?: RunView }): OracleFlag[] {
  const flags: OracleFlag[] = [];
  for (const probe of [probes.gold, probes.empty]) if (probe) flags.push(...runFlags(probe));
  for (const [spec, tests] of coveringTests(task.specs, task.tests)) {
    if (tests.length === 0) flags.push({ kind: 'spec_without_test', spec, message: `spec ${spec} is covered by no test` });
  }
  const gold = probes.gold && isGradedStatus(probes.gold.status) ? probes.gold : undefined;
  const empty = probes.empty && isGradedStatus(probes.empty.status) ? probes.empty : undefined;
  if (probes.gold && !gold) {
    flags.push({
      kind: 'gold_unusable',
      message: `the gold patch run ended ${probes.gold.status}${probes.gold.reason ? `: ${probes.gold.reason}` : ''}`,
    });
  }
  for (const t of task.tests) {
    const g = gold?.grade.tests[t.name];
    const e = empty?.grade.tests[t.name];
    if (gold && bad(g)) {
      // A PASS_TO_PASS test failing with and without the fix was broken before it; a FAIL_TO_PASS test is expected to
      // fail without the fix, so only an error both times (not an assertion) points at the environment.
      const both = empty !== undefined && bad(e);
      const envDefect = t.kind === 'pass_to_pass' ? both : both && g === 'ERROR' && e === 'ERROR';
      flags.push(
        envDefect
          ? { kind: 'environment_defect', test: t.name, message: `${t.name} fails with the gold patch (${shown(g)}) and without any patch (${shown(e)}): environment or test defect` }
          : { kind: 'gold_fails_test', test: t.name, message: `${t.name} fails with the gold patch (${shown(g)}): suspect false negative` },
      );
    }
    if (empty && t.kind === 'fail_to_pass' && ok(e)) {
      flags.push({
        kind: 'empty_passes_fail_to_pass',
        test: t.name,
        message: `FAIL_TO_PASS test ${t.name} passes without any patch: it cannot detect the fix (suspect false positive)`,
      });
    }
  }
  return flags;
}

/** Flags about one attempt's run given the task's probe flags. */
export function attemptFlags(task: OracleTask, run: RunView, flagsOfTask: OracleFlag[]): OracleFlag[] {
  const out: OracleFlag[] = runFlags(run);
  if (!isGradedStatus(run.status)) return out;
  const blind = new Set(flagsOfTask.filter((f) => f.kind === 'empty_passes_fail_to_pass').map((f) => f.test));
  const goldBad = new Set(
    flagsOfTask.filter((f) => f.kind === 'gold_fails_test' || f.kind === 'environment_defect').map((f) => f.test),
  );
  if (run.resolved) {
    const through = task.tests.filter((t) => t.kind === 'fail_to_pass' && blind.has(t.name)).map((t) => t.name);
    if (through.length > 0) {
      out.push({
        kind: 'attempt_suspect_false_positive',
        attemptId: run.attemptId,
        message: `resolved, but ${through.length} FAIL_TO_PASS test(s) also pass without any patch (${through.join(', ')}): suspect false positive`,
      });
    }
  } else {
    // The tests that keep it unresolved: a FAIL_TO_PASS test that did not succeed, a PASS_TO_PASS test that failed
    // or is missing (a skipped PASS_TO_PASS test does not block).
    const blocks = (t: OracleTask['tests'][number]) => {
      const st = run.grade.tests[t.name];
      return t.kind === 'fail_to_pass' ? !ok(st) : bad(st);
    };
    const failing = task.tests.filter(blocks).map((t) => t.name);
    if (failing.length > 0 && failing.every((n) => goldBad.has(n))) {
      out.push({
        kind: 'attempt_suspect_false_negative',
        attemptId: run.attemptId,
        message: `unresolved only through test(s) the gold patch fails too (${failing.join(', ')}): suspect false negative`,
      });
    }
  }
  return out;
}

/** A test's outcome in a flag's message; a test the run's report does not name says so. */
const shown = (st: GradedTestStatus | undefined): string => st ?? 'missing from its report';

function outcomeClass(s: GradedTestStatus | undefined): string {
  if (s === undefined || s === 'MISSING') return 'missing';
  if (isSuccess(s)) return 'success';
  if (isFailure(s)) return 'failure';
  return 'skipped';
}

/** Tests whose outcome (success, failure, skipped, missing) differs among graded repeats of the same inputs. */
export function flakyTests(repeats: RunView[]): string[] {
  const graded = repeats.filter((r) => isGradedStatus(r.status));
  if (graded.length < 2) return [];
  const names = new Set(graded.flatMap((r) => Object.keys(r.grade.tests)));
  return [...names].filter((n) => new Set(graded.map((r) => outcomeClass(r.grade.tests[n]))).size > 1).sort();
}

export function flakyFlags(attemptId: string, repeats: RunView[]): OracleFlag[] {
  const out: OracleFlag[] = flakyTests(repeats).map((test) => ({
    kind: 'flaky_test' as const,
    test,
    attemptId,
    message: `${test} changed outcome across ${repeats.length} repeats`,
  }));
  return out;
}

export interface TaskReport {
  /** Flags about the task (probes, coverage, flaky tests). */
  task: OracleFlag[];
  /** Flags about each attempt's verdict, by attempt id. */
  attempts: Record<string, OracleFlag[]>;
}

/** All flags of a task from all its runs (probes, attempts, repeats); the first repeat of each attempt is its verdict. */
export function taskReport(task: OracleTask, runs: (RunView & { repeat?: number })[]): TaskReport {
  const byAttempt = new Map<string, (RunView & { repeat?: number })[]>();
  for (const r of runs) byAttempt.set(r.attemptId, [...(byAttempt.get(r.attemptId) ?? []), r]);
  const first = (id: string) => [...(byAttempt.get(id) ?? [])].sort((a, b) => (a.repeat ?? 1) - (b.repeat ?? 1))[0];
  const flags = taskFlags(task, { gold: first(GOLD_PROBE), empty: first(EMPTY_PROBE) });
  for (const [id, rs] of byAttempt) flags.push(...flakyFlags(id, rs));
  const attempts: Record<string, OracleFlag[]> = {};
  for (const id of byAttempt.keys()) {
    if (isProbeId(id)) continue;
    attempts[id] = attemptFlags(task, first(id) as RunView, flags);
  }
  return { task: flags, attempts };
}
