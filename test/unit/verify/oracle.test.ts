// Oracle probes: what the gold and empty patches say about the tests and the attempts' verdicts; flaky tests.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestCase } from '../../../src/core/model';
import type { RunView } from '../../../src/core/verify/oracle';
import { attemptFlags, flakyTests, taskFlags, taskReport } from '../../../src/core/verify/oracle';
import type { GradedTestStatus } from '../../../src/core/verify/runResult';

const t = (name: string, kind: TestCase['kind'], specs: string[] = []): TestCase => ({ id: name, name, kind, specs });
const task = {
  tests: [t('f1', 'fail_to_pass', ['S1']), t('f2', 'fail_to_pass', ['S1']), t('p1', 'pass_to_pass', ['S2'])],
  specs: ['S1', 'S2', 'S3'].map((id) => ({ id, text: id, category: 'other', dependsOn: [] })),
};
const run = (attemptId: string, tests: Record<string, GradedTestStatus>, status: RunView['status'] = 'failed', repeat = 1) => ({
  attemptId,
  status,
  resolved: status === 'passed',
  grade: { tests },
  repeat,
});

test('a spec no test covers is flagged even without any run', () => {
  assert.deepEqual(taskFlags(task, {}).map((f) => [f.kind, f.spec]), [['spec_without_test', 'S3']]);
});

test('gold failing a test: suspect false negative; failing with and without the patch: environment defect', () => {
  const gold = run('gold', { f1: 'PASSED', f2: 'FAILED', p1: 'FAILED' });
  const empty = run('empty', { f1: 'FAILED', f2: 'FAILED', p1: 'ERROR' });
  const kinds = taskFlags(task, { gold, empty }).filter((f) => f.test).map((f) => [f.kind, f.test]);
  assert.deepEqual(kinds, [
    ['gold_fails_test', 'f2'],
    ['environment_defect', 'p1'],
  ]);
  // A FAIL_TO_PASS test erroring both ways points at the environment too.
  const goldE = run('gold', { f1: 'PASSED', f2: 'ERROR', p1: 'PASSED' });
  const emptyE = run('empty', { f1: 'FAILED', f2: 'ERROR', p1: 'PASSED' });
  assert.deepEqual(taskFlags(task, { gold: goldE, empty: emptyE }).filter((f) => f.test).map((f) => f.kind), ['environment_defect']);
  // Missing with the gold patch counts as failing.
  assert.deepEqual(taskFlags(task, { gold: run('gold', { f1: 'PASSED', f2: 'PASSED' }, 'failed') }).filter((f) => f.test).map((f) => f.kind), ['gold_fails_test']);
});

test('a test the gold run did not report reads "missing" in the flag, never "(undefined)"', () => {
  const gold = run('gold', { f1: 'PASSED', f2: 'PASSED' });
  const [flag] = taskFlags(task, { gold }).filter((f) => f.test);
  assert.equal(flag?.message, 'p1 fails with the gold patch (missing from its report): suspect false negative');
  const [env] = taskFlags(task, { gold, empty: run('empty', { f1: 'FAILED', f2: 'FAILED' }) }).filter((f) => f.test);
  assert.equal(env?.message, 'p1 fails with the gold patch (missing from its report) and without any patch (missing from its report): environment or test defect');
  assert.doesNotMatch(JSON.stringify(taskFlags(task, { gold, empty: run('empty', {}) })), /undefined/);
});

test('the empty patch passing a FAIL_TO_PASS test: that test cannot detect the fix', () => {
  const flags = taskFlags(task, { empty: run('empty', { f1: 'PASSED', f2: 'FAILED', p1: 'PASSED' }) });
  assert.deepEqual(flags.filter((f) => f.test).map((f) => [f.kind, f.test]), [['empty_passes_fail_to_pass', 'f1']]);
});

test('a gold run without a graded result is flagged as unusable', () => {
  const flags = taskFlags(task, { gold: { ...run('gold', {}, 'apply_failed'), reason: 'the attempt patch did not apply' } });
  assert.ok(flags.some((f) => f.kind === 'gold_unusable' && /did not apply/.test(f.message)));
});

test('attempt flags: resolved through blind tests = suspect false positive; failing only where gold fails = suspect false negative', () => {
  const tf = taskFlags(task, {
    gold: run('gold', { f1: 'PASSED', f2: 'FAILED', p1: 'PASSED' }, 'failed'),
    empty: run('empty', { f1: 'PASSED', f2: 'FAILED', p1: 'PASSED' }, 'failed'),
  });
  const fp = attemptFlags(task, run('a1', { f1: 'PASSED', f2: 'PASSED', p1: 'PASSED' }, 'passed'), tf);
  assert.deepEqual(fp.map((f) => f.kind), ['attempt_suspect_false_positive']);
  const fn = attemptFlags(task, run('a2', { f1: 'PASSED', f2: 'FAILED', p1: 'PASSED' }), tf);
  assert.deepEqual(fn.map((f) => f.kind), ['attempt_suspect_false_negative']);
  // Failing a test the gold patch passes is a plain failure.
  assert.deepEqual(attemptFlags(task, run('a3', { f1: 'FAILED', f2: 'FAILED', p1: 'PASSED' }), tf), []);
  // Ungraded runs get no verdict flags.
  assert.deepEqual(attemptFlags(task, run('a4', {}, 'timeout'), tf), []);
});

test('flaky: a test whose outcome changes between repeats; ungraded repeats are ignored', () => {
  const rs = [
    run('a', { f1: 'PASSED', f2: 'FAILED', p1: 'PASSED' }, 'failed', 1),
    run('a', { f1: 'PASSED', f2: 'PASSED', p1: 'XFAIL' }, 'passed', 2),
    run('a', {}, 'timeout', 3),
  ];
  assert.deepEqual(flakyTests(rs), ['f2']);
  assert.deepEqual(flakyTests([rs[0] as RunView]), []);
  const report = taskReport(task, [...rs, run('gold', { f1: 'PASSED', f2: 'PASSED', p1: 'PASSED' }, 'passed')]);
  assert.ok(report.task.some((f) => f.kind === 'flaky_test' && f.test === 'f2' && f.attemptId === 'a'));
  assert.deepEqual(Object.keys(report.attempts), ['a']);
});
