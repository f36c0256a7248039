// SWE-bench-style grading, the matching of task test names to reported ones, spec verdicts and the trust checks.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Spec, TestCase } from '../../../src/core/model';
import { gradeTests, normalizeTestName, testMatcher } from '../../../src/core/verify/grading';
import type { ExecutionOutcome } from '../../../src/core/verify/judge';
import { judgeRun } from '../../../src/core/verify/judge';
import { specVerdicts } from '../../../src/core/verify/specVerdicts';

const t = (name: string, kind: TestCase['kind'], specs: string[] = []): TestCase => ({ id: name, name, kind, specs });

test('F2P/P2P lists: success, failure, missing and skipped are kept apart; resolved needs all successes', () => {
  const tests = [t('a', 'fail_to_pass'), t('b', 'fail_to_pass'), t('c', 'pass_to_pass'), t('d', 'pass_to_pass'), t('e', 'pass_to_pass')];
  const g = gradeTests(tests, { a: 'PASSED', b: 'FAILED', c: 'XFAIL', d: 'SKIPPED', other: 'PASSED' });
  assert.deepEqual(g.failToPass, { success: ['a'], failure: ['b'], missing: [], skipped: [] });
  assert.deepEqual(g.passToPass, { success: ['c'], failure: [], missing: ['e'], skipped: ['d'] });
  assert.equal(g.resolved, false);
  assert.deepEqual(g.tests, { a: 'PASSED', b: 'FAILED', c: 'XFAIL', d: 'SKIPPED', e: 'MISSING' });
  assert.equal(gradeTests([t('a', 'fail_to_pass')], { a: 'XPASS' }).resolved, true);
});

test('a missing test is never counted as a pass', () => {
  const g = gradeTests([t('a', 'fail_to_pass'), t('b', 'pass_to_pass')], { a: 'PASSED' });
  assert.equal(g.resolved, false);
  assert.deepEqual(g.passToPass.missing, ['b']);
});

test('prefix match only for visibly cut ids, and it is reported', () => {
  const m = testMatcher({ 't.py::test_p[a b]': 'PASSED', 't.py::test_ab': 'FAILED', 't.py::test_long_na...': 'PASSED' });
  // SWE-bench's whitespace split leaves `test_p[a` in datasets.
  assert.deepEqual(m.match('t.py::test_p[a'), { status: 'PASSED', loose: { test: 't.py::test_p[a', reported: ['t.py::test_p[a b]'], how: 'prefix' } });
  // A complete name is not a prefix of a longer one.
  assert.deepEqual(m.match('t.py::test_a'), { status: 'MISSING' });
  // A reported name cut with "..." by a narrow terminal.
  assert.equal(m.match('t.py::test_long_name').loose?.how, 'prefix');
  const g = gradeTests([t('t.py::test_p[a', 'fail_to_pass')], { 't.py::test_p[a b]': 'PASSED', 't.py::test_p[a c]': 'FAILED' });
  assert.deepEqual(g.failToPass.missing, ['t.py::test_p[a'], 'several matches: ambiguous, so missing (issue 9, item 21)');
  assert.deepEqual(g.looseMatches[0], { test: 't.py::test_p[a', reported: ['t.py::test_p[a b]', 't.py::test_p[a c]'], how: 'ambiguous' });
});

test('JUnit-style names match node ids after normalisation, and say so', () => {
  assert.equal(normalizeTestName('tests/test_a.py::K::t[x/y]'), 'tests.test_a.K.t[x/y]');
  const g = gradeTests([t('tests/test_a.py::K::t', 'fail_to_pass')], { 'tests.test_a.K.t': 'PASSED' });
  assert.equal(g.resolved, true);
  assert.equal(g.looseMatches[0]?.how, 'normalized');
});

test('a task without tests is resolved only when nothing failed', () => {
  assert.equal(gradeTests([], { a: 'PASSED' }).resolved, true);
  assert.equal(gradeTests([], { a: 'ERROR' }).resolved, false);
});

test('spec verdicts through the spec-test map', () => {
  const specs: Spec[] = ['S1', 'S2', 'S3', 'S4'].map((id) => ({ id, text: id, category: 'other', dependsOn: [] }));
  const tests = [t('a', 'fail_to_pass', ['S1', 'S2']), t('b', 'pass_to_pass', ['S2']), t('c', 'pass_to_pass', ['S3'])];
  assert.deepEqual(specVerdicts(specs, tests, { a: 'PASSED', b: 'FAILED', c: 'MISSING' }, true), {
    S1: 'pass',
    S2: 'fail',
    S3: 'unknown',
    S4: 'unknown',
  });
  assert.deepEqual(specVerdicts(specs, tests, { a: 'PASSED', b: 'PASSED', c: 'PASSED' }, false), {
    S1: 'unknown',
    S2: 'unknown',
    S3: 'unknown',
    S4: 'unknown',
  });
});

const task = {
  tests: [t('t.py::a', 'fail_to_pass', ['S1']), t('t.py::b', 'pass_to_pass', ['S1'])],
  specs: [{ id: 'S1', text: 's', category: 'other', dependsOn: [] }],
  verifier: { parser: 'pytest' },
};
const ok = (o: Partial<ExecutionOutcome>): ExecutionOutcome => ({
  apply: { test: { method: 'git-apply' }, attempt: { method: 'git-apply' } },
  exitCode: 0,
  timedOut: false,
  oomKilled: false,
  stdoutText: 'PASSED t.py::a\nPASSED t.py::b\n==== 2 passed in 0.01s ====\n',
  stderrText: '',
  ...o,
});

test('judge: a passing run, then a failing one', () => {
  const p = judgeRun(task, ok({}));
  assert.equal(p.status, 'passed');
  assert.equal(p.resolved, true);
  assert.deepEqual(p.specs, { S1: 'pass' });
  const f = judgeRun(task, ok({ exitCode: 1, stdoutText: 'FAILED t.py::a - boom\nPASSED t.py::b\n==== 1 failed, 1 passed in 0.01s ====\n' }));
  assert.equal(f.status, 'failed');
  assert.deepEqual(f.specs, { S1: 'fail' });
});

test('judge: fake PASSED lines with a non-zero exit are invalid, not a pass', () => {
  const j = judgeRun(task, ok({ exitCode: 1 }));
  assert.equal(j.status, 'invalid');
  assert.equal(j.resolved, false);
  assert.match(j.reason, /exited with code 1 but no test was reported failing/);
  assert.deepEqual(j.specs, { S1: 'unknown' });
});

test('judge: a suite that never ran is invalid', () => {
  const j = judgeRun(task, ok({ exitCode: 4, stdoutText: 'ERROR: file or directory not found: tests\n' }));
  assert.equal(j.status, 'invalid');
  assert.match(j.reason, /never ran/);
  assert.equal(judgeRun(task, ok({ exitCode: 0, stdoutText: '' })).status, 'invalid');
});

test('judge: apply failures, OOM, timeouts and infra errors come before any parsing', () => {
  const failed = judgeRun(task, ok({ apply: { test: { method: 'git-apply' }, attempt: { method: 'failed', detail: 'error: patch failed: calc.py:1' } } }));
  assert.equal(failed.status, 'apply_failed');
  assert.match(failed.reason, /attempt patch did not apply.*calc\.py:1/);
  assert.equal(judgeRun(task, ok({ apply: { test: { method: 'failed' }, attempt: { method: 'not-run' } } })).status, 'apply_failed');
  assert.equal(judgeRun(task, ok({ oomKilled: true, exitCode: 137 })).status, 'oom');
  assert.equal(judgeRun(task, ok({ timedOut: true, exitCode: 137 })).status, 'timeout');
  assert.equal(judgeRun(task, ok({ infraError: 'engine gone' })).status, 'infra_error');
  assert.equal(judgeRun(task, ok({ exitCode: null })).status, 'infra_error');
});

test('judge: missing tests make a run failed, listed as missing', () => {
  const j = judgeRun(task, ok({ stdoutText: 'PASSED t.py::a\n==== 1 passed in 0.01s ====\n' }));
  assert.equal(j.status, 'failed');
  assert.deepEqual(j.grade.passToPass.missing, ['t.py::b']);
  assert.match(j.reason, /1 missing/);
});

test('judge: the exit code as the last resort, only when the verifier says so', () => {
  const e = { ...task, verifier: { parser: 'exitcode' } };
  assert.equal(judgeRun(e, ok({ exitCode: 0, stdoutText: 'whatever' })).status, 'passed');
  const f = judgeRun(e, ok({ exitCode: 2, stdoutText: 'PASSED t.py::a\nPASSED t.py::b' }));
  assert.equal(f.status, 'failed');
  assert.equal(f.testsFrom, 'exitcode');
});

test('judge: JUnit report first, pytest text when the report is missing', () => {
  const j = { ...task, verifier: { parser: 'junit' } };
  const xml = '<testsuite><testcase classname="t" name="a" file="t.py"/><testcase classname="t" name="b" file="t.py"/></testsuite>';
  const a = judgeRun(j, ok({ stdoutText: 'nothing', junitXml: xml }));
  assert.equal(a.testsFrom, 'junit');
  assert.equal(a.status, 'passed');
  const b = judgeRun(j, ok({}));
  assert.equal(b.testsFrom, 'pytest');
  assert.match(b.reason, /no usable JUnit report/);
});
