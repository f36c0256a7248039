// Skipped tests follow SWE-bench's current rules (issue 9, item 22): a skipped FAIL_TO_PASS test is a failure, a
// skipped PASS_TO_PASS test does not block resolution; every skipped listed test is flagged in the run record, the
// CLI's verify lines and the task view's results.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatRun, runFlags } from '../../../src/cli/verify';
import type { CandidateTask, TestCase } from '../../../src/core/model';
import { verifierResultsFromRuns } from '../../../src/core/review/fromRuns';
import { resultsView } from '../../../src/core/view/results';
import { gradeTests } from '../../../src/core/verify/grading';
import type { ExecutionOutcome } from '../../../src/core/verify/judge';
import { judgeRun } from '../../../src/core/verify/judge';
import { taskReport } from '../../../src/core/verify/oracle';
import { runSummary } from '../../../src/core/verify/summary';
import { pytestOutput } from './pytestOutput';
import { recordOf } from './records';

const F2P = 'tests/test_x.py::test_fix';
const P2P = 'tests/test_x.py::test_keep';
const tests: TestCase[] = [
  { id: 'T1', name: F2P, kind: 'fail_to_pass', specs: ['S1'] },
  { id: 'T2', name: P2P, kind: 'pass_to_pass', specs: ['S2'] },
];
const task = {
  tests,
  specs: ['S1', 'S2'].map((id) => ({ id, text: id, category: 'other', dependsOn: [] })),
  verifier: { parser: 'pytest' },
};
const run = (stdoutText: string): ExecutionOutcome => ({
  apply: { test: { method: 'git-apply' }, attempt: { method: 'git-apply' } },
  exitCode: 0,
  timedOut: false,
  oomKilled: false,
  stdoutText,
  stderrText: '',
});

test('grading: a skipped FAIL_TO_PASS test is a failure; a skipped PASS_TO_PASS test does not block resolution', () => {
  const f = gradeTests(tests, { [F2P]: 'SKIPPED', [P2P]: 'PASSED' });
  assert.equal(f.resolved, false);
  assert.deepEqual(f.failToPass.skipped, [F2P]);
  const p = gradeTests(tests, { [F2P]: 'PASSED', [P2P]: 'SKIPPED' });
  assert.equal(p.resolved, true);
  assert.deepEqual(p.passToPass.skipped, [P2P]);
});

test('judge: a skipped PASS_TO_PASS test resolves and is flagged; a skipped FAIL_TO_PASS test fails and is flagged', () => {
  const p = judgeRun(task, run(pytestOutput([{ id: F2P, status: 'PASSED' }, { id: P2P, status: 'SKIPPED', message: 'needs a GPU' }], { verbose: true })));
  assert.equal(p.status, 'passed', p.reason);
  assert.deepEqual(p.flags, [
    { kind: 'skipped_test', test: P2P, message: `PASS_TO_PASS test ${P2P} was skipped: it does not block resolution (SWE-bench's rule)` },
  ]);
  assert.deepEqual(p.specs, { S1: 'pass', S2: 'unknown' });
  const f = judgeRun(task, run(pytestOutput([{ id: F2P, status: 'SKIPPED' }, { id: P2P, status: 'PASSED' }], { verbose: true })));
  assert.equal(f.status, 'failed', f.reason);
  assert.match(f.reason, /1 skipped/);
  assert.deepEqual(f.flags?.map((x) => [x.kind, x.test, /counted as a failure/.test(x.message)]), [['skipped_test', F2P, true]]);
});

const fullTask: CandidateTask = {
  id: 't1',
  title: 't',
  revision: 1,
  repo: { name: 'r', kind: 'git', path: 'repos/r', baseCommit: 'abc1234' },
  environment: { image: 'img', workdir: '/repo', limits: { memoryMb: 512, cpus: 1, pids: 64 }, timeoutSec: 60 },
  specs: task.specs,
  tests,
  verifier: { command: 'pytest -rA -v', parser: 'pytest' },
  notes: [],
  dir: 'tasks/t1',
  files: { task: 'tasks/t1/task.json', request: 'tasks/t1/request.md', testPatch: 'tasks/t1/tests.patch' },
  attempts: [{ id: 'a1', model: 'm', agent: 'x', dir: 'tasks/t1/attempts/a1', patchFile: 'tasks/t1/attempts/a1/patch.diff', recordedResults: [] }],
};

test('the flag shows in the CLI verify line, the JSON line and the task view, for attempts and probes', () => {
  const out = pytestOutput([{ id: F2P, status: 'PASSED' }, { id: P2P, status: 'SKIPPED', message: 'no network' }], { verbose: true });
  const a1 = recordOf(fullTask, 'a1', judgeRun(fullTask, run(out)));
  const empty = recordOf(fullTask, 'empty', judgeRun(fullTask, run(pytestOutput([{ id: F2P, status: 'FAILED' }, { id: P2P, status: 'SKIPPED' }], { verbose: true }))));
  const report = taskReport(fullTask, [a1, empty]);
  const text = formatRun(a1, report);
  assert.match(text, /^t1 {2}a1 {2}PASSED {2}F2P 1\/1 {2}P2P 0\/1 \(1 skipped\)/);
  assert.match(text, /\n {4}! skipped_test: PASS_TO_PASS test tests\/test_x\.py::test_keep was skipped/);
  assert.match(formatRun(empty, report), /! skipped_test: PASS_TO_PASS test tests\/test_x\.py::test_keep was skipped/);
  assert.deepEqual(runSummary(a1, runFlags(a1, report)).flags.filter((f) => f.kind === 'skipped_test').map((f) => f.test), [P2P]);
  assert.deepEqual(runSummary(empty, runFlags(empty, report)).flags.filter((f) => f.kind === 'skipped_test').map((f) => f.test), [P2P]);
  const view = resultsView(fullTask, verifierResultsFromRuns(fullTask, new Map([['a1', [a1]], ['empty', [empty]]])));
  assert.deepEqual(
    view?.flags.filter((f) => f.kind === 'skipped_test').map((f) => [f.column, f.testId]),
    [
      ['empty', 'T2'],
      ['a1', 'T2'],
    ],
  );
  assert.equal(view?.tests.T2?.a1, 'SKIPPED');
});
