// The verifier's side of a label: what the verifier said per attempt and spec (from persisted runs or, before any
// run, from imported results), and the outcome of setting a curator's verdict against it.
import type { Attempt, CandidateTask, CuratorVerdict, LabelOutcome, RecordedResult, SpecVerdict } from '../model';
import type { OracleFlagKind } from '../verify/oracle';
import type { RunStatus } from '../verify/runResult';

/** A run's status, or an imported result's (`recorded:` and the status the import gave: resolved, unresolved...). */
export type VerifierStatus = RunStatus | `recorded:${string}`;

/** What the verifier said about one attempt (or the gold / empty probe) of a task. */
export interface AttemptVerifierResult {
  /** `run`: a persisted verifier run; `recorded`: an imported result (e.g. a SWE-bench report.json). */
  source: 'run' | 'recorded';
  /** Id of the persisted run; for recorded results, the file they came from. */
  runId: string;
  /** Run status (passed, failed, timeout, oom, apply_failed, invalid, infra_error) or the recorded status. */
  status: VerifierStatus;
  resolved?: boolean;
  /** Spec id to the verifier's verdict through the spec-test map. */
  specs: Record<string, SpecVerdict>;
  /** Test name to its status in that run. */
  tests: Record<string, string>;
  /** The task revision the result is about. */
  revision: number;
  /** The task or the patch changed since: shown, used for outcomes until a fresh run replaces it. */
  stale?: boolean;
  staleReasons?: string[];
  imageId?: string;
  startedAt?: string;
}

/** An oracle-probe flag: a finding the curator confirms or dismisses, never a label. */
export interface VerifierFlag {
  /** Stable across re-runs of the same finding, so a dismissal sticks: `kind:attempt:test-or-spec`. */
  id: string;
  kind: OracleFlagKind;
  message: string;
  test?: string;
  spec?: string;
  attempt?: string;
}

export interface TaskVerifierResults {
  /** By attempt id; the probes under `gold` and `empty`. */
  attempts: Record<string, AttemptVerifierResult>;
  flags: VerifierFlag[];
}

/** Verifier results of a dataset by task id. */
export type VerifierVerdicts = Record<string, TaskVerifierResults>;

/** Flag kinds that suggest a false positive / a false negative once a curator confirms them. */
/**
 * Run flags saying an attempt's patch touches what grades it (its tests, conftest.py and plugins, pytest
 * configuration) or exits the test process: its passing run may be the patch's doing (a makereport hook rewrites
 * what pytest itself reports), so a curator decides each before approval.
 */
export const TAMPER_FLAG_KINDS: readonly string[] = ['attempt_edits_tests', 'attempt_edits_test_plugins', 'attempt_edits_test_config', 'attempt_exits_test_process'];
export const FP_FLAG_KINDS: readonly string[] = ['empty_passes_fail_to_pass', 'attempt_suspect_false_positive', ...TAMPER_FLAG_KINDS];
export const FN_FLAG_KINDS: readonly string[] = ['gold_fails_test', 'attempt_suspect_false_negative'];

export function flagId(f: { kind: string; attempt?: string; attemptId?: string; test?: string; spec?: string }): string {
  return `${f.kind}:${f.attempt ?? f.attemptId ?? ''}:${f.test ?? f.spec ?? ''}`;
}

/** The curator's verdict set against the verifier's. */
export function deriveOutcome(curator: CuratorVerdict | undefined, verifier: SpecVerdict): LabelOutcome {
  if (curator === undefined || curator === 'unsure' || verifier === 'unknown') return 'undecided';
  if (verifier === 'pass') return curator === 'satisfied' ? 'true_pass' : 'false_positive';
  return curator === 'violated' ? 'true_fail' : 'false_negative';
}

/** Test names covering each spec through the spec-test map. */
export function testsBySpec(task: Pick<CandidateTask, 'specs' | 'tests'>): Map<string, string[]> {
  const out = new Map<string, string[]>(task.specs.map((s) => [s.id, []]));
  for (const t of task.tests) for (const s of t.specs) out.get(s)?.push(t.name);
  return out;
}

const SUCCESS = new Set(['PASSED', 'XFAIL']);
const FAILURE = new Set(['FAILED', 'ERROR', 'XPASS', 'MISSING']);

/**
 * The verifier side from an attempt's imported results, before any run of ours. With per-test statuses a spec passes
 * when all its covering tests passed and fails when one failed. With only `resolved`: SWE-bench resolves an instance
 * only when every FAIL_TO_PASS and PASS_TO_PASS test passed, so every covered spec passes; an unresolved verdict
 * without test lists says nothing about any one spec, which stays unknown.
 */
export function recordedVerifierResult(task: CandidateTask, attempt: Attempt): AttemptVerifierResult | undefined {
  const rs = attempt.recordedResults;
  if (rs.length === 0) return undefined;
  const withTests = rs.find((r) => r.tests !== undefined || r.failToPass !== undefined || r.passToPass !== undefined);
  const r = withTests ?? rs.find((x) => x.resolved !== undefined) ?? (rs[0] as RecordedResult);
  const tests: Record<string, string> = {};
  if (r.tests) Object.assign(tests, r.tests);
  for (const sf of [r.failToPass, r.passToPass]) {
    if (!sf) continue;
    for (const n of sf.success) tests[n] ??= 'PASSED';
    for (const n of sf.failure) tests[n] ??= 'FAILED';
    for (const n of sf.missing ?? []) tests[n] ??= 'MISSING';
  }
  const hasTests = Object.keys(tests).length > 0;
  const specs: Record<string, SpecVerdict> = {};
  for (const [spec, names] of testsBySpec(task)) {
    if (names.length === 0) specs[spec] = 'unknown';
    else if (hasTests) {
      const st = names.map((n) => tests[n]);
      specs[spec] = st.some((s) => s !== undefined && FAILURE.has(s)) ? 'fail' : st.every((s) => s !== undefined && SUCCESS.has(s)) ? 'pass' : 'unknown';
    } else specs[spec] = r.resolved === true && r.status !== 'error' ? 'pass' : 'unknown';
  }
  const status = r.status ?? (r.resolved === true ? 'resolved' : r.resolved === false ? 'unresolved' : 'unknown');
  return {
    source: 'recorded',
    runId: r.file,
    status: `recorded:${status}`,
    ...(r.resolved !== undefined ? { resolved: r.resolved } : {}),
    specs,
    tests,
    // Imported results were graded against the tests as imported: revision 1.
    revision: 1,
    ...(task.revision > 1 ? { stale: true, staleReasons: ['the task was revised after the import'] } : {}),
  };
}

/** Fills in recorded results for attempts that have no run of ours. */
export function withRecordedFallback(task: CandidateTask, results: TaskVerifierResults | undefined): TaskVerifierResults {
  if (results && task.attempts.every((a) => results.attempts[a.id] !== undefined)) return results;
  const attempts: Record<string, AttemptVerifierResult> = { ...(results?.attempts ?? {}) };
  for (const a of task.attempts) {
    if (attempts[a.id]) continue;
    const rec = recordedVerifierResult(task, a);
    if (rec) attempts[a.id] = rec;
  }
  return { attempts, flags: results?.flags ?? [] };
}
