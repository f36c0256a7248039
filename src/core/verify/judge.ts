// From what a run produced to its status, per-test and per-spec results. The trust checks live here: a run whose
// output cannot be believed is `invalid`, never a pass.
import type { CandidateTask, TestStatus } from '../model';
import { gradeTests } from './grading';
import { parseDjango } from './parseDjango';
import { parseJunit } from './parseJunit';
import { parsePytest } from './parsePytest';
import type { Grade, PatchApplication, RunStatus, VerifierRunRecord } from './runResult';
import { specVerdicts } from './specVerdicts';

/** What the engine adapter observed; texts are the kept bytes decoded as UTF-8. */
export interface ExecutionOutcome {
  /** Set when the run could not be carried out (engine, image, archive...): nothing else is meaningful. */
  infraError?: string;
  apply: { test: PatchApplication; attempt: PatchApplication };
  exitCode: number | null;
  timedOut: boolean;
  oomKilled: boolean;
  stdoutText: string;
  stderrText: string;
  /** The JUnit report's text when the verifier's parser is `junit` and the file existed. */
  junitXml?: string;
  /**
   * The run wrote more than its bounded writable space allows (a full size-limited tmpfs, or the container's
   * written size over the limit): the status is `disk_limit` whatever the output says.
   */
  diskLimitExceeded?: boolean;
  /**
   * Set when the harness asked the test runner for a report at a path it owns outside the repository (for pytest, a
   * JUnit XML through `PYTEST_ADDOPTS=--junitxml=...`): `xml` is that report's text, undefined when the runner never
   * wrote it (a test process that exited itself, a plugin that swallowed it). Compared with the log by the judge.
   */
  harnessReport?: { format: 'junit'; xml?: string };
}

export type LogFormat = 'pytest' | 'junit' | 'django' | 'exitcode';

export type Judgement = Pick<VerifierRunRecord, 'status' | 'reason' | 'resolved' | 'testsFrom' | 'reported' | 'grade' | 'specs'>;

type JudgedTask = Pick<CandidateTask, 'tests' | 'specs'> & { verifier: { parser: string } };

/** Parses per-test statuses from a run's output in the given format. */
export function parseTestOutput(
  format: LogFormat,
  text: string,
  junitXml?: string,
): { from: Judgement['testsFrom']; tests: Record<string, TestStatus>; note?: string } {
  if (format === 'junit') {
    if (junitXml !== undefined) {
      const j = parseJunit(junitXml);
      if (Object.keys(j.tests).length > 0) return { from: 'junit', tests: j.tests, note: j.error };
    }
    const p = parsePytest(text);
    return { from: Object.keys(p).length > 0 ? 'pytest' : 'none', tests: p, note: 'no usable JUnit report; read the text output' };
  }
  if (format === 'django') {
    const d = parseDjango(text);
    return { from: Object.keys(d).length > 0 ? 'django' : 'none', tests: d };
  }
  if (format === 'exitcode') return { from: 'exitcode', tests: {} };
  const p = parsePytest(text);
  return { from: Object.keys(p).length > 0 ? 'pytest' : 'none', tests: p };
}

function emptyGrade(task: JudgedTask): Grade {
  return gradeTests(task.tests, {});
}

function notGraded(task: JudgedTask, status: RunStatus, reason: string, reported: Record<string, TestStatus> = {}): Judgement {
  const grade = Object.keys(reported).length > 0 ? gradeTests(task.tests, reported) : emptyGrade(task);
  return {
    status,
    reason,
    resolved: false,
    testsFrom: 'none',
    reported,
    grade: { ...grade, resolved: false },
    specs: specVerdicts(task.specs, task.tests, grade.tests, false),
  };
}

function shorten(s: string | undefined, n = 300): string {
  if (!s) return '';
  const one = s.trim().replace(/\s+/g, ' ');
  return one.length > n ? `${one.slice(0, n)}...` : one;
}

export function judgeRun(task: JudgedTask, o: ExecutionOutcome): Judgement {
  if (o.infraError) return notGraded(task, 'infra_error', o.infraError);
  // The attempt's patch is applied first, then the test patch (the SWE-bench order); a failure says which.
  for (const which of ['attempt', 'test'] as const) {
    const a = o.apply[which];
    if (a.method === 'failed') {
      return notGraded(task, 'apply_failed', `the ${which} patch did not apply with git apply nor patch --fuzz=3: ${shorten(a.detail)}`);
    }
  }
  for (const which of ['attempt', 'test'] as const) {
    if (o.apply[which].method === 'not-run') return notGraded(task, 'invalid', `the ${which} patch was never applied (the driver stopped early)`);
  }
  if (o.oomKilled) return notGraded(task, 'oom', 'the container ran out of memory (killed by the memory limit)');
  if (o.timedOut) return notGraded(task, 'timeout', 'the verifier did not finish within its deadline and was killed');
  if (o.exitCode === null) return notGraded(task, 'infra_error', 'the container ended without an exit code');

  const format = task.verifier.parser as LogFormat;
  const text = `${o.stdoutText}\n${o.stderrText}`;
  const parsed = parseTestOutput(format, text, o.junitXml);
  const reported = parsed.tests;

  if (parsed.from === 'exitcode') {
    const status: TestStatus = o.exitCode === 0 ? 'PASSED' : 'FAILED';
    const all = Object.fromEntries(task.tests.map((t) => [t.name, status]));
    const grade = gradeTests(task.tests, all);
    const resolved = o.exitCode === 0;
    return {
      status: resolved ? 'passed' : 'failed',
      reason: `exit code ${o.exitCode} (the verifier reports no per-test results; every test takes the exit code's verdict)`,
      resolved,
      testsFrom: 'exitcode',
      reported: {},
      grade: { ...grade, resolved },
      specs: specVerdicts(task.specs, task.tests, grade.tests, true),
    };
  }
  if (parsed.from === 'none') {
    return notGraded(task, 'invalid', `the test suite never ran: no test result found in the output (exit code ${o.exitCode})`);
  }
  const anyFailure = Object.values(reported).some((s) => s === 'FAILED' || s === 'ERROR');
  if (o.exitCode !== 0 && !anyFailure) {
    return notGraded(
      task,
      'invalid',
      `the tests exited with code ${o.exitCode} but no test was reported failing: the output cannot be trusted`,
      reported,
    );
  }
  const grade = gradeTests(task.tests, reported);
  // Exit 0 is required too when the task lists no tests, so a run that crashed after printing nothing bad fails.
  const resolved = grade.resolved && (task.tests.length > 0 || o.exitCode === 0);
  const parts: string[] = [];
  const f2p = grade.failToPass;
  const p2p = grade.passToPass;
  parts.push(`FAIL_TO_PASS ${f2p.success.length}/${task.tests.filter((t) => t.kind === 'fail_to_pass').length}`);
  parts.push(`PASS_TO_PASS ${p2p.success.length}/${task.tests.filter((t) => t.kind === 'pass_to_pass').length}`);
  const missing = [...f2p.missing, ...p2p.missing];
  if (missing.length > 0) parts.push(`${missing.length} missing from the output`);
  if (grade.looseMatches.length > 0) parts.push(`${grade.looseMatches.length} matched by ${[...new Set(grade.looseMatches.map((m) => m.how))].join('/')}`);
  if (parsed.note) parts.push(parsed.note);
  return {
    status: resolved ? 'passed' : 'failed',
    reason: parts.join('; '),
    resolved,
    testsFrom: parsed.from,
    reported,
    grade: { ...grade, resolved },
    specs: specVerdicts(task.specs, task.tests, grade.tests, true),
  };
}
