// The task view's verifier results: the matrices from stored runs and imported results, and where a test's result
// appears in a run's log.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Attempt, CandidateTask } from '../../../src/core/model';
import type { TaskVerifierResults } from '../../../src/core/review/verdicts';
import { withRecordedFallback } from '../../../src/core/review/verdicts';
import { findTestLine, resultsView, runLogDocument, runVerdict } from '../../../src/core/view/results';
import type { VerifierRunRecord } from '../../../src/core/verify/runResult';
import type { VerifierStatus } from '../../../src/core/review/verdicts';

function attempt(id: string, extra: Partial<Attempt> = {}): Attempt {
  return { id, dir: `tasks/t/attempts/${id}`, model: 'm', patchFile: `tasks/t/attempts/${id}/patch.diff`, recordedResults: [], ...extra } as Attempt;
}

function task(over: Partial<CandidateTask> = {}): CandidateTask {
  return {
    id: 't',
    dir: 'tasks/t',
    title: 'T',
    revision: 1,
    specs: [
      { id: 'S1', text: 'one', category: 'c', dependsOn: [] },
      { id: 'S2', text: 'two', category: 'c', dependsOn: [] },
    ],
    tests: [
      { id: 'T1', name: 'tests/test_a.py::test_one', kind: 'fail_to_pass', specs: ['S1'] },
      { id: 'T2', name: 'tests/test_a.py::test_two', kind: 'pass_to_pass', specs: ['S2'] },
    ],
    attempts: [attempt('a1'), attempt('a2')],
    files: { task: 'tasks/t/task.json', request: 'tasks/t/request.md', testPatch: 'tasks/t/tests.patch', goldPatch: 'tasks/t/gold.patch' },
    ...over,
  } as CandidateTask;
}

const run = (status: VerifierStatus, tests: Record<string, string>, specs: Record<string, 'pass' | 'fail' | 'unknown'>, extra = {}) => ({
  source: 'run' as const,
  runId: `r-${status}`,
  status,
  resolved: status === 'passed',
  tests,
  specs,
  revision: 1,
  ...extra,
});

test('results: gold, empty and every attempt are columns; rows by test id; stale and flags carried over', () => {
  const t = task();
  const results: TaskVerifierResults = {
    attempts: {
      gold: run('passed', { 'tests/test_a.py::test_one': 'PASSED', 'tests/test_a.py::test_two': 'PASSED' }, { S1: 'pass', S2: 'pass' }),
      empty: run('failed', { 'tests/test_a.py::test_one': 'FAILED', 'tests/test_a.py::test_two': 'PASSED' }, { S1: 'fail', S2: 'pass' }),
      a1: run('passed', { 'tests/test_a.py::test_one': 'PASSED', 'tests/test_a.py::test_two': 'PASSED' }, { S1: 'pass', S2: 'pass' }, { stale: true, staleReasons: ['attempt patch changed'] }),
    },
    flags: [
      { id: 'x', kind: 'empty_passes_fail_to_pass', message: 'm', test: 'tests/test_a.py::test_one' },
      { id: 'y', kind: 'attempt_suspect_false_positive', message: 'n', attempt: 'a1' },
      { id: 'z', kind: 'spec_without_test', message: 'o', spec: 'S2' },
    ],
  };
  const v = resultsView(t, results);
  assert.ok(v);
  assert.deepEqual(v.columns, ['gold', 'empty', 'a1', 'a2']);
  assert.deepEqual(v.tests.T1, { gold: 'PASSED', empty: 'FAILED', a1: 'PASSED' });
  assert.deepEqual(v.specs.S1, { gold: 'pass', empty: 'fail', a1: 'pass' });
  assert.equal(v.runs.a1?.stale, true);
  assert.deepEqual(v.runs.a1?.staleReasons, ['attempt patch changed']);
  assert.equal(v.runs.gold?.stale, false);
  assert.equal(v.runs.a2, undefined, 'an attempt never run has an empty column');
  assert.deepEqual(v.flags, [
    { kind: 'empty_passes_fail_to_pass', message: 'm', testId: 'T1' },
    { kind: 'attempt_suspect_false_positive', message: 'n', column: 'a1' },
    { kind: 'spec_without_test', message: 'o', specId: 'S2' },
  ]);
});

test('results: a run that never got graded says why in its cells; a task without a gold patch has no gold column', () => {
  const t = task({ files: { task: 'x', request: 'x', testPatch: 'x' } as CandidateTask['files'] });
  const v = resultsView(t, { attempts: { a2: run('apply_failed', { 'tests/test_a.py::test_one': 'MISSING' }, { S1: 'unknown', S2: 'unknown' }) }, flags: [] });
  assert.ok(v);
  assert.deepEqual(v.columns, ['empty', 'a1', 'a2']);
  assert.equal(v.tests.T1?.a2, 'apply_failed');
  assert.equal(v.tests.T2?.a2, 'apply_failed');
  assert.equal(runVerdict(v.runs.a2 && { ...run('apply_failed', {}, {}) }), 'apply failed (verifier)');
});

test('results: nothing verified and nothing imported means no results at all', () => {
  assert.equal(resultsView(task(), { attempts: {}, flags: [] }), undefined);
});

test('results: imported results show for attempts never run here, marked as imported', () => {
  const t = task({
    attempts: [
      attempt('a1', { recordedResults: [{ imported: true, source: 'swebench-report', file: 'reports/a1.json', resolved: true, tests: { 'tests/test_a.py::test_one': 'PASSED', 'tests/test_a.py::test_two': 'FAILED' } }] }),
      attempt('a2'),
    ],
  });
  const ours: TaskVerifierResults = { attempts: { gold: run('passed', { 'tests/test_a.py::test_one': 'PASSED', 'tests/test_a.py::test_two': 'PASSED' }, { S1: 'pass', S2: 'pass' }) }, flags: [] };
  const v = resultsView(t, withRecordedFallback(t, ours));
  assert.ok(v);
  assert.equal(v.runs.a1?.source, 'recorded');
  assert.equal(v.runs.gold?.source, 'run');
  assert.deepEqual(v.tests.T2, { gold: 'PASSED', a1: 'FAILED' });
  assert.equal(runVerdict({ ...run('passed', {}, {}), source: 'recorded' }), undefined, 'imported verdicts already show in the column');
});

// A real pytest -rA log of the example dataset (one failure), with colours as a terminal would add them.
const LOG = [
  '============================= test session starts ==============================',
  'collected 16 items',
  '',
  'tests/test_format.py .........                                           [ 56%]',
  'tests/test_cli.py .....F.                                                [100%]',
  '',
  '=================================== FAILURES ===================================',
  '___________________ test_sum_rounds_the_total_not_each_item ____________________',
  '',
  '    def test_sum_rounds_the_total_not_each_item():',
  '>       assert (proc.returncode, proc.stdout) == (0, "1m\\n")',
  'tests/test_cli.py:51: AssertionError',
  '____________________________ TestUnits.test_hours _____________________________',
  '=========================== short test summary info ============================',
  '\u001b[32mPASSED\u001b[0m tests/test_format.py::test_format_basic',
  'PASSED tests/test_format.py::test_format_basic_more',
  'PASSED tests/test_cli.py::test_fmt_and_sum_accept_precision',
  'FAILED tests/test_cli.py::test_sum_rounds_the_total_not_each_item - Assertion...',
  'FAILED tests/test_units.py::TestUnits::test_hours - x',
  '========================= 1 failed, 15 passed in 1.61s =========================',
].join('\r\n');

test('log line: a passing test at its summary line, not at a longer name that starts the same', () => {
  assert.deepEqual(findTestLine(LOG, 'tests/test_format.py::test_format_basic'), { line: 14, how: 'result' });
  assert.deepEqual(findTestLine(LOG, 'tests/test_cli.py::test_fmt_and_sum_accept_precision'), { line: 16, how: 'result' });
});

test('log line: a failing test at the header of its failure report; in a class by Class.test', () => {
  assert.deepEqual(findTestLine(LOG, 'tests/test_cli.py::test_sum_rounds_the_total_not_each_item', { failing: true }), { line: 7, how: 'failure' });
  assert.deepEqual(findTestLine(LOG, 'tests/test_cli.py::test_sum_rounds_the_total_not_each_item'), { line: 17, how: 'result' });
  assert.deepEqual(findTestLine(LOG, 'tests/test_units.py::TestUnits::test_hours', { failing: true }), { line: 12, how: 'failure' });
});

test('log line: the verbose form, a mere mention, nothing, and a start line', () => {
  assert.deepEqual(findTestLine('x\ntests/a.py::test_b PASSED [ 50%]\n', 'tests/a.py::test_b'), { line: 1, how: 'result' });
  assert.deepEqual(findTestLine('x\nsomething about test_lonely here\n', 'tests/a.py::test_lonely'), { line: 1, how: 'mention' });
  assert.equal(findTestLine(LOG, 'tests/test_cli.py::test_absent'), undefined);
  assert.equal(findTestLine('PASSED tests/a.py::test_b\nheader', 'tests/a.py::test_b', { fromLine: 1 }), undefined);
  // Regex characters in parametrized ids are taken literally.
  assert.deepEqual(findTestLine('PASSED tests/a.py::test_p[1.5-(x)]\n', 'tests/a.py::test_p[1.5-(x)]'), { line: 0, how: 'result' });
});

test('log document: a header, the driver report, stdout from stdoutLine, then stderr', () => {
  const r = {
    runId: '20260101T000000000Z-abcdef',
    taskId: 't',
    taskRevision: 2,
    attemptId: 'a1',
    repeat: 1,
    status: 'failed',
    reason: 'FAIL_TO_PASS 0/1',
    resolved: false,
    image: 'img',
    imageId: 'sha256:0123456789abcdef0123',
    exitCode: 1,
    apply: { test: { method: 'git-apply' }, attempt: { method: 'patch-fuzz' } },
    driverReport: '@@SPECWEAVE apply test git-apply\n@@SPECWEAVE apply attempt patch-fuzz\n',
    stdout: { totalBytes: 10, headBytes: 10, tailBytes: 0, cutBytes: 0 },
    stderr: { totalBytes: 0, headBytes: 0, tailBytes: 0, cutBytes: 0 },
    timings: { startedAt: '2026-01-01T00:00:00.000Z', totalMs: 1234 },
  } as unknown as VerifierRunRecord;
  const d = runLogDocument(r, 'first\nPASSED tests/a.py::test_b\n', '');
  const lines = d.text.split('\n');
  assert.equal(lines[d.stdoutLine], 'first');
  assert.equal(lines[d.stdoutLine - 1], '---- stdout ----');
  assert.match(d.text, /status failed: FAIL_TO_PASS 0\/1/);
  assert.match(d.text, /attempt patch-fuzz/);
  assert.match(d.text, /---- stderr ----\n\(empty\)\n$/);
  assert.deepEqual(findTestLine(d.text, 'tests/a.py::test_b', { fromLine: d.stdoutLine }), { line: d.stdoutLine + 1, how: 'result' });
  // Where each stream's lines are, for citations on them: two stdout lines, no stderr.
  assert.equal(d.stdoutLines, 2);
  assert.equal(d.stderrLine, undefined);
  // With stderr: it starts after stdout, a blank line and its heading.
  const e = runLogDocument(r, 'one\ntwo\nthree\n', 'warn 1\nwarn 2\n');
  const el = e.text.split('\n');
  assert.equal(e.stdoutLines, 3);
  assert.equal(el[e.stdoutLine + 2], 'three');
  assert.equal(e.stderrLines, 2);
  assert.equal(el[e.stderrLine!], 'warn 1');
  assert.equal(el[e.stderrLine! + 1], 'warn 2');
  assert.equal(el[e.stderrLine! - 1], '---- stderr ----');
  // An empty stdout has no line to cite, and stderr still lands right.
  const n = runLogDocument(r, '', 'only\n');
  assert.equal(n.stdoutLines, 0);
  assert.equal(n.text.split('\n')[n.stderrLine!], 'only');
});
