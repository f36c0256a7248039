// From what a run produced to its status, per-test and per-spec results. The trust checks live here: a run whose
// output cannot be believed is `invalid`, never a pass.
import type { CandidateTask, TestStatus } from '../model';
import { gradeTests, testMatcher } from './grading';
import type { TestLog } from './markedLog';
import { parseJunit } from './parseJunit';
import { readReward } from './parseReward';
import { outcomeClass } from './parsePytest';
import type { LogFormat } from './testOutput';
import { parseTestText } from './testOutput';
import type { Grade, PatchApplication, RunFlag, RunStatus, VerifierRunRecord } from './runResult';
import { specVerdicts } from './specVerdicts';
import { tamperingFlags } from './tampering';

/** What the engine adapter observed; texts are the kept bytes decoded as UTF-8. */
export interface ExecutionOutcome {
  /** Set when the run could not be carried out (engine, image, archive...): nothing else is meaningful. */
  infraError?: string;
  apply: { test: PatchApplication; attempt: PatchApplication };
  exitCode: number | null;
  timedOut: boolean;
  oomKilled: boolean;
  /** The kept head and tail of each stream (for display; grading reads `testLog` when the adapter parsed the stream). */
  stdoutText: string;
  stderrText: string;
  /**
   * The whole output (stdout and stderr in the order written) parsed as it arrived, by `TestOutputStream` for the
   * verifier's parser; without it the kept texts are parsed (stdout, then stderr).
   */
  testLog?: TestLog;
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
  /**
   * Files read from the container after the run, by absolute path (undefined: not there), for verifiers graded by a
   * file the tests write (`reward`: Harbor's /logs/verifier/reward.txt or reward.json).
   */
  outputFiles?: Record<string, string | undefined>;
}

export type { LogFormat } from './testOutput';

export type Judgement = Pick<VerifierRunRecord, 'status' | 'reason' | 'resolved' | 'testsFrom' | 'reported' | 'grade' | 'specs'> & {
  flags: RunFlag[];
};

type JudgedTask = Pick<CandidateTask, 'tests' | 'specs'> & { verifier: { parser: string } };

/** Per-test statuses from a run's output in the given format, and what the log itself says about them. */
export interface ParsedOutput {
  from: Judgement['testsFrom'];
  tests: Record<string, TestStatus>;
  note?: string;
  /** The text log as parsed (absent for the exit-code format and when a JUnit report was used). */
  log?: TestLog;
}

/** Parses per-test statuses from a run's output (`text`, or the stream already parsed as it arrived). */
export function parseTestOutput(format: LogFormat, text: string | TestLog, junitXml?: string): ParsedOutput {
  const textLog = () => (typeof text === 'string' ? parseTestText(format, text) : text);
  if (format === 'junit') {
    if (junitXml !== undefined) {
      const j = parseJunit(junitXml);
      if (Object.keys(j.tests).length > 0) return { from: 'junit', tests: j.tests, note: j.error };
    }
    const p = textLog();
    return { from: Object.keys(p.tests).length > 0 ? 'pytest' : 'none', tests: p.tests, note: 'no usable JUnit report; read the text output', log: p };
  }
  if (format === 'exitcode') return { from: 'exitcode', tests: {} };
  if (format === 'reward') return { from: 'reward', tests: {} };
  const p = textLog();
  return { from: Object.keys(p.tests).length > 0 ? format : 'none', tests: p.tests, log: p };
}

/** What a log says about itself that a reader of the verdict should know (conflicting lines, cut lines...). */
function logNotes(log: TestLog | undefined): string[] {
  if (!log) return [];
  const out: string[] = [];
  if (log.conflictCount > 0) {
    const shown = log.conflicts.slice(0, 3).map((c) => `${c.test}: ${c.seen.join(', then ')}, settled ${c.settled}`);
    out.push(`conflicting status lines for ${log.conflictCount} test(s), settled as pytest does (${shown.join('; ')}${log.conflictCount > shown.length ? '; ...' : ''})`);
  }
  if (log.note) out.push(log.note);
  if (log.scope === 'whole-fallback') out.push('the SWE-bench markers held no result: the whole output was read');
  if (log.longLines > 0) out.push(`${log.longLines} line(s) longer than 64 KiB were not read as results`);
  if (log.droppedNames > 0) out.push(`${log.droppedNames} result(s) beyond the first 200,000 distinct tests were not kept`);
  return out;
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
    flags: [],
  };
}

/** A flag per skipped listed test, saying how it counted. */
function skipFlags(task: JudgedTask, grade: Grade): RunFlag[] {
  const out: RunFlag[] = [];
  for (const t of task.tests) {
    if (grade.tests[t.name] !== 'SKIPPED') continue;
    const message =
      t.kind === 'fail_to_pass'
        ? `FAIL_TO_PASS test ${t.name} was skipped: counted as a failure (SWE-bench's rule)`
        : `PASS_TO_PASS test ${t.name} was skipped: it does not block resolution (SWE-bench's rule)`;
    out.push({ kind: 'skipped_test', test: t.name, message });
  }
  return out;
}

/** A flag per listed test whose status lines conflicted in the log. */
function conflictFlags(task: JudgedTask, grade: Grade, log: TestLog | undefined): RunFlag[] {
  if (!log || log.conflicts.length === 0) return [];
  const byReported = new Map(log.conflicts.map((c) => [c.test, c]));
  const out: RunFlag[] = [];
  for (const t of task.tests) {
    const loose = grade.looseMatches.find((m) => m.test === t.name && m.how !== 'ambiguous');
    const c = byReported.get(t.name) ?? (loose ? byReported.get(loose.reported[0] as string) : undefined);
    if (!c) continue;
    out.push({ kind: 'conflicting_status', test: t.name, message: `${t.name}: the log holds ${c.seen.join(', then ')} lines; settled ${c.settled} as pytest does` });
  }
  return out;
}

/**
 * Compares the log's statuses of the listed tests with the harness's report: a test the log reports that the report
 * lacks, or one they give different outcomes (success, failure, skipped), is a disagreement; a listed test only the
 * report has is taken from it. `fromReport` holds the report's status of every listed test it has, by task name.
 */
function compareWithReport(
  task: JudgedTask,
  log: Record<string, TestStatus>,
  report: Record<string, TestStatus>,
): { disagreement?: string; fromReport: Record<string, TestStatus>; agreed: number } {
  const names = task.tests.map((t) => t.name);
  const inLog = testMatcher(log, names);
  const inReport = testMatcher(report, names);
  const fromReport: Record<string, TestStatus> = {};
  let agreed = 0;
  for (const name of names) {
    const l = inLog.match(name).status;
    const r = inReport.match(name).status;
    if (r === 'MISSING') {
      if (l !== 'MISSING') return { disagreement: `${name} is ${l} in the log but absent from the harness's report`, fromReport, agreed };
      continue;
    }
    if (l !== 'MISSING') {
      if (outcomeClass(l) !== outcomeClass(r)) return { disagreement: `${name}: the log says ${l}, the harness's report says ${r}`, fromReport, agreed };
      agreed++;
    }
    fromReport[name] = r;
  }
  return { fromReport, agreed };
}

function shorten(s: string | undefined, n = 300): string {
  if (!s) return '';
  const one = s.trim().replace(/\s+/g, ' ');
  return one.length > n ? `${one.slice(0, n)}...` : one;
}

/** The patches a run applied, as text: the attempt's is checked for touching what grades it (`tamperingFlags`). */
export interface RunPatches {
  testPatch: string;
  attemptPatch: string;
}

/**
 * Judges one run: its status and why, its per-test and per-spec results, and its flags. With `patches`, the
 * attempt's patch is also checked for touching its own grading (tests, conftest.py, plugins, configuration, exits);
 * those flags are set whatever the status.
 */
export function judgeRun(task: JudgedTask, o: ExecutionOutcome, patches?: RunPatches): Judgement {
  const j = judgeOutcome(task, o);
  if (!patches) return j;
  return { ...j, flags: [...tamperingFlags(patches.attemptPatch, { testPatch: patches.testPatch, tests: task.tests }), ...j.flags] };
}

function judgeOutcome(task: JudgedTask, o: ExecutionOutcome): Judgement {
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
  if (o.diskLimitExceeded) {
    return notGraded(task, 'disk_limit', 'the run wrote more than its bounded writable space allows (the disk limit): its output cannot be graded');
  }
  if (o.timedOut) return notGraded(task, 'timeout', 'the verifier did not finish within its deadline and was killed');
  if (o.exitCode === null) return notGraded(task, 'infra_error', 'the container ended without an exit code');

  const format = task.verifier.parser as LogFormat;
  const parsed = parseTestOutput(format, o.testLog ?? `${o.stdoutText}\n${o.stderrText}`, o.junitXml);
  let reported = parsed.tests;
  let testsFrom = parsed.from;
  const notes: string[] = [];

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
      flags: [],
    };
  }

  if (parsed.from === 'reward') return judgeReward(task, o);

  // The report the harness asked pytest to write outside the repository, when it asked for one.
  let harness: Record<string, TestStatus> | undefined;
  if (o.harnessReport) {
    if (o.harnessReport.xml === undefined) {
      return notGraded(
        task,
        'invalid',
        "the harness's own JUnit report (asked of pytest, written outside the repository) is missing: the test process " +
          'ended before pytest finished, or something stopped pytest writing it; the output cannot be trusted',
        reported,
      );
    }
    const rep = parseJunit(o.harnessReport.xml);
    if (rep.error) return notGraded(task, 'invalid', `the harness's JUnit report cannot be read (${rep.error}): the output cannot be trusted`, reported);
    harness = rep.tests;
  }

  if (testsFrom === 'none') {
    if (!harness || Object.keys(harness).length === 0) {
      return notGraded(task, 'invalid', `the test suite never ran: no test result found in the output (exit code ${o.exitCode})`);
    }
    reported = harness;
    testsFrom = 'junit';
    harness = undefined;
    notes.push("the log names no test: per-test results from the harness's JUnit report");
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
  // The log against itself: every pytest session that reported results closed, and its counts agree with them.
  if (parsed.log && testsFrom !== 'junit') {
    if (parsed.log.unclosed) return notGraded(task, 'invalid', `${parsed.log.unclosed}; the output cannot be trusted`, reported);
    if (parsed.log.countMismatch) {
      return notGraded(task, 'invalid', `the per-test results disagree with ${format === 'pytest' || format === 'junit' ? "pytest's" : "the test runner's"} own counts (${parsed.log.countMismatch}): the output cannot be trusted`, reported);
    }
  }
  if (harness) {
    const cmp = compareWithReport(task, reported, harness);
    if (cmp.disagreement) {
      return notGraded(task, 'invalid', `the log and the harness's JUnit report disagree (${cmp.disagreement}): the output cannot be trusted`, reported);
    }
    // The task's own JUnit report already gave the results (its names): the harness's copy only confirms them.
    if (testsFrom !== 'junit') reported = { ...reported, ...cmp.fromReport };
    testsFrom = 'junit';
    notes.push(`per-test results from the harness's JUnit report (it agrees with the log on ${cmp.agreed} listed test(s))`);
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
  const skipped = [...f2p.skipped, ...p2p.skipped];
  if (skipped.length > 0) {
    parts.push(`${skipped.length} skipped (${f2p.skipped.length} FAIL_TO_PASS, counted as failures; ${p2p.skipped.length} PASS_TO_PASS, not blocking)`);
  }
  const matched = grade.looseMatches.filter((m) => m.how !== 'ambiguous');
  if (matched.length > 0) parts.push(`${matched.length} matched by ${[...new Set(matched.map((m) => m.how))].join('/')}`);
  const ambiguous = grade.looseMatches.filter((m) => m.how === 'ambiguous');
  if (ambiguous.length > 0) {
    parts.push(`${ambiguous.length} not matched because the name is ambiguous (first: ${ambiguous[0]?.test} could be ${ambiguous[0]?.reported.slice(0, 3).join(', ')})`);
  }
  if (parsed.note && parsed.from !== 'none') parts.push(parsed.note);
  parts.push(...notes, ...logNotes(parsed.log));
  return {
    status: resolved ? 'passed' : 'failed',
    reason: parts.join('; '),
    resolved,
    testsFrom,
    reported,
    grade: { ...grade, resolved },
    specs: specVerdicts(task.specs, task.tests, grade.tests, true),
    flags: [...skipFlags(task, grade), ...conflictFlags(task, grade, parsed.log)],
  };
}

/**
 * Harbor's grading: the reward the tests wrote decides (1 or more: resolved), whatever the exit code. A listed test
 * named like a reward key takes that reward's verdict; every other listed test takes the deciding reward's.
 */
function judgeReward(task: JudgedTask, o: ExecutionOutcome): Judgement {
  const r = readReward(o.outputFiles ?? {});
  if (!r.ok) return notGraded(task, 'invalid', `${r.reason} (exit code ${o.exitCode})`);
  const verdict = (v: number): TestStatus => (v >= 1 ? 'PASSED' : 'FAILED');
  const reported: Record<string, TestStatus> = {};
  for (const [k, v] of Object.entries(r.rewards)) Object.defineProperty(reported, k, { value: verdict(v), enumerable: true, writable: true, configurable: true });
  const all: Record<string, TestStatus> = {};
  for (const t of task.tests) all[t.name] = Object.prototype.hasOwnProperty.call(reported, t.name) ? (reported[t.name] as TestStatus) : verdict(r.reward);
  const grade = gradeTests(task.tests, all);
  const resolved = r.reward >= 1;
  const others = Object.entries(r.rewards).filter(([k]) => k !== 'reward');
  const parts = [
    `reward ${r.reward} from ${r.from}${others.length > 0 ? ` (also ${others.slice(0, 5).map(([k, v]) => `${k} ${v}`).join(', ')})` : ''}`,
    `the tests exited with code ${o.exitCode}`,
    "every listed test takes the reward's verdict",
    ...r.notes,
  ];
  return {
    status: resolved ? 'passed' : 'failed',
    reason: parts.join('; '),
    resolved,
    testsFrom: 'reward',
    reported,
    grade: { ...grade, resolved },
    specs: specVerdicts(task.specs, task.tests, grade.tests, true),
    flags: [],
  };
}
