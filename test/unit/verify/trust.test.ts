// The judge's trust checks against exploits (issue 9, item 1, judge side), on outputs shaped like the real ones:
// a conftest.py printing PASSED lines and then leaving with os._exit(0); a pytest_runtest_makereport hook turning
// failures into passes; tests printing fake summary lines. A run whose per-test results disagree with pytest's own
// counts, or with the report the harness asked pytest to write outside the repository, is `invalid`, never `passed`.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CandidateTask, TestCase } from '../../../src/core/model';
import { verifierResultsFromRuns } from '../../../src/core/review/fromRuns';
import { resultsView } from '../../../src/core/view/results';
import type { ExecutionOutcome } from '../../../src/core/verify/judge';
import { judgeRun } from '../../../src/core/verify/judge';
import { pytestOutput } from './pytestOutput';
import { recordOf } from './records';

const ADD = 'tests/test_calc.py::test_add';
const MUL = 'tests/test_calc.py::test_mul';
const tests: TestCase[] = [
  { id: 'T1', name: ADD, kind: 'fail_to_pass', specs: ['S1'] },
  { id: 'T2', name: MUL, kind: 'pass_to_pass', specs: ['S2'] },
];
const specs = ['S1', 'S2'].map((id) => ({ id, text: id, category: 'other', dependsOn: [] }));
const task = { tests, specs, verifier: { parser: 'pytest' } };
const outcome = (stdoutText: string, extra: Partial<ExecutionOutcome> = {}): ExecutionOutcome => ({
  apply: { test: { method: 'git-apply' }, attempt: { method: 'git-apply' } },
  exitCode: 0,
  timedOut: false,
  oomKilled: false,
  stdoutText,
  stderrText: '',
  ...extra,
});
const HEADER = [
  '============================= test session starts ==============================',
  'platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0+repack',
  'rootdir: /repo',
  'collected 2 items',
].join('\n');

const FAKE_CONFTEST_PATCH = `diff --git a/conftest.py b/conftest.py
new file mode 100644
--- /dev/null
+++ b/conftest.py
@@ -0,0 +1,7 @@
+import os, sys
+
+
+def pytest_runtestloop(session):
+    sys.stdout.write("PASSED ${ADD}\\nPASSED ${MUL}\\n")
+    sys.stdout.flush()
+    os._exit(0)
`;

test('a conftest printing PASSED lines for the FAIL_TO_PASS test, then os._exit(0): invalid, and flagged', () => {
  // What pytest prints before the hook takes over, then the hook's lines; exit status 0, no closing line.
  const out = `${HEADER}\nPASSED ${ADD}\nPASSED ${MUL}\n`;
  const j = judgeRun(task, outcome(out), { testPatch: '', attemptPatch: FAKE_CONFTEST_PATCH });
  assert.equal(j.status, 'invalid', j.reason);
  assert.equal(j.resolved, false);
  assert.match(j.reason, /never printed its closing line/);
  assert.deepEqual(j.flags.map((f) => f.kind), ['attempt_edits_test_plugins', 'attempt_exits_test_process']);
  assert.deepEqual(j.specs, { S1: 'unknown', S2: 'unknown' });
});

test('the same conftest also faking the closing line: the flags say it; the harness report, when asked for, is missing', () => {
  const out = `PASSED ${ADD}\nPASSED ${MUL}\n============================== 2 passed in 0.01s ===============================\n`;
  const flagged = judgeRun(task, outcome(out), { testPatch: '', attemptPatch: FAKE_CONFTEST_PATCH });
  assert.equal(flagged.status, 'passed', 'a complete forgery of the log cannot be told from a run by the log alone');
  assert.deepEqual(flagged.flags.map((f) => f.kind), ['attempt_edits_test_plugins', 'attempt_exits_test_process']);
  const j = judgeRun(task, outcome(out, { harnessReport: { format: 'junit' } }), { testPatch: '', attemptPatch: FAKE_CONFTEST_PATCH });
  assert.equal(j.status, 'invalid');
  assert.match(j.reason, /harness's own JUnit report .* is missing/);
});

test('a test printing extra PASSED lines (with -s) for a test that never ran: the counts disagree, invalid', () => {
  const printed = 'PASSED tests/test_calc.py::test_new';
  const t2 = { ...task, tests: [...tests, { id: 'T3', name: 'tests/test_calc.py::test_new', kind: 'fail_to_pass' as const, specs: [] }] };
  const out = pytestOutput([{ id: ADD, status: 'PASSED' }, { id: MUL, status: 'PASSED' }], { captured: [printed] });
  const j = judgeRun(t2, outcome(out));
  assert.equal(j.status, 'invalid', j.reason);
  assert.match(j.reason, /the log names 3 test\(s\) PASSED but pytest's closing line \("2 passed in 0\.42s"\) counts 2 passed/);
});

test('a fake short summary printed by a test is overridden by pytest\'s own, printed last', () => {
  const fake = ['=========================== short test summary info ============================', `PASSED ${ADD}`];
  const out = pytestOutput([{ id: MUL, status: 'PASSED' }, { id: ADD, status: 'FAILED', message: 'assert -1 == 5' }], { captured: fake });
  const j = judgeRun(task, outcome(out, { exitCode: 1 }));
  assert.equal(j.status, 'failed', j.reason);
  assert.equal(j.grade.tests[ADD], 'FAILED');
});

test('a closing line counting more tests than pytest collected is invalid', () => {
  const out = pytestOutput([{ id: ADD, status: 'PASSED' }, { id: MUL, status: 'PASSED' }], { collected: 1 });
  const j = judgeRun(task, outcome(out));
  assert.equal(j.status, 'invalid', j.reason);
  assert.match(j.reason, /counts 2 tests run, but pytest collected 1/);
});

const junit = (cases: [string, string, string?][]) =>
  `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="${cases.length}">${cases
    .map(([cls, name, child]) => `<testcase classname="${cls}" name="${name}" time="0.001"${child ? `>${child}</testcase>` : ' />'}`)
    .join('')}</testsuite></testsuites>`;

test('a makereport hook: the log says PASSED everywhere; the harness report that disagrees makes the run invalid', () => {
  const hookPatch = `diff --git a/conftest.py b/conftest.py
new file mode 100644
--- /dev/null
+++ b/conftest.py
@@ -0,0 +1,6 @@
+import pytest
+@pytest.hookimpl(hookwrapper=True)
+def pytest_runtest_makereport(item, call):
+    rep = (yield).get_result()
+    if rep.failed:
+        rep.outcome = "passed"
`;
  const out = pytestOutput([{ id: ADD, status: 'PASSED' }, { id: MUL, status: 'PASSED' }]);
  const patches = { testPatch: '', attemptPatch: hookPatch };
  const alone = judgeRun(task, outcome(out), patches);
  assert.equal(alone.status, 'passed');
  assert.deepEqual(alone.flags.map((f) => f.kind), ['attempt_edits_test_plugins'], 'the flag is what catches it');
  const report = junit([['tests.test_calc', 'test_add', '<failure message="assert -1 == 5">E assert -1 == 5</failure>'], ['tests.test_calc', 'test_mul']]);
  const j = judgeRun(task, outcome(out, { harnessReport: { format: 'junit', xml: report } }), patches);
  assert.equal(j.status, 'invalid');
  assert.match(j.reason, /tests\/test_calc\.py::test_add: the log says PASSED, the harness's report says FAILED/);
  assert.deepEqual(j.flags.map((f) => f.kind), ['attempt_edits_test_plugins']);
});

test('the harness report: agreeing, its results are used; a test only it has is taken from it; one only the log has is invalid', () => {
  const out = pytestOutput([{ id: ADD, status: 'PASSED' }, { id: MUL, status: 'PASSED' }]);
  const both = junit([['tests.test_calc', 'test_add'], ['tests.test_calc', 'test_mul']]);
  const ok = judgeRun(task, outcome(out, { harnessReport: { format: 'junit', xml: both } }));
  assert.equal(ok.status, 'passed', ok.reason);
  assert.equal(ok.testsFrom, 'junit');
  assert.deepEqual(ok.grade.tests, { [ADD]: 'PASSED', [MUL]: 'PASSED' });
  assert.deepEqual(ok.grade.looseMatches, [], 'the report is aligned to the listed names');
  assert.match(ok.reason, /per-test results from the harness's JUnit report \(it agrees with the log on 2 listed test\(s\)\)/);
  // -q without -rA: the log names only failures; the report fills in the passes.
  const quiet = `${HEADER}\n..\n2 passed in 0.01s\n`;
  const filled = judgeRun(task, outcome(quiet, { harnessReport: { format: 'junit', xml: both } }));
  assert.equal(filled.status, 'passed', filled.reason);
  const one = junit([['tests.test_calc', 'test_mul']]);
  const bad = judgeRun(task, outcome(out, { harnessReport: { format: 'junit', xml: one } }));
  assert.equal(bad.status, 'invalid');
  assert.match(bad.reason, /tests\/test_calc\.py::test_add is PASSED in the log but absent from the harness's report/);
  const broken = judgeRun(task, outcome(out, { harnessReport: { format: 'junit', xml: '<testsuite><testcase classname="tests.test_calc" name="test_add"' } }));
  assert.equal(broken.status, 'invalid');
  assert.match(broken.reason, /harness's JUnit report cannot be read/);
});

test('disk limit: disk_limit, judged right after oom', () => {
  const out = pytestOutput([{ id: ADD, status: 'PASSED' }, { id: MUL, status: 'PASSED' }]);
  const d = judgeRun(task, outcome(out, { diskLimitExceeded: true }));
  assert.equal(d.status, 'disk_limit');
  assert.equal(d.resolved, false);
  assert.match(d.reason, /writable space/);
  assert.equal(judgeRun(task, outcome(out, { diskLimitExceeded: true, oomKilled: true, exitCode: 137 })).status, 'oom');
  assert.equal(judgeRun(task, outcome(out, { diskLimitExceeded: true, timedOut: true })).status, 'disk_limit');
});

test('the exploit\'s flags and status show in the task view\'s results', () => {
  const full: CandidateTask = {
    id: 'calc',
    title: 'calc',
    revision: 1,
    repo: { name: 'r', kind: 'git', path: 'repos/r', baseCommit: 'abc1234' },
    environment: { image: 'img', workdir: '/repo', limits: { memoryMb: 512, cpus: 1, pids: 64 }, timeoutSec: 60 },
    specs,
    tests,
    verifier: { command: 'pytest -rA', parser: 'pytest' },
    notes: [],
    dir: 'tasks/calc',
    files: { task: 'tasks/calc/task.json', request: 'tasks/calc/request.md', testPatch: 'tasks/calc/tests.patch' },
    attempts: [{ id: 'fake', model: 'm', agent: 'x', dir: 'tasks/calc/attempts/fake', patchFile: 'tasks/calc/attempts/fake/patch.diff', recordedResults: [] }],
  };
  const r = recordOf(full, 'fake', judgeRun(full, outcome(`${HEADER}\nPASSED ${ADD}\nPASSED ${MUL}\n`), { testPatch: '', attemptPatch: FAKE_CONFTEST_PATCH }));
  const view = resultsView(full, verifierResultsFromRuns(full, new Map([['fake', [r]]])));
  assert.deepEqual(view?.runs.fake?.status, 'invalid');
  assert.deepEqual(view?.tests.T1, { fake: 'invalid' });
  assert.deepEqual(
    view?.flags.map((f) => [f.kind, f.column]),
    [
      ['attempt_edits_test_plugins', 'fake'],
      ['attempt_exits_test_process', 'fake'],
    ],
  );
});

test('results printed before pytest\'s session began are not pytest\'s: invalid; a log with no session at all (-qq) is read as is', () => {
  const real = pytestOutput([{ id: MUL, status: 'PASSED' }, { id: ADD, status: 'FAILED', message: 'assert -1 == 5' }]);
  const j = judgeRun({ ...task, tests: [...tests, { id: 'T3', name: 'tests/test_calc.py::test_gone', kind: 'fail_to_pass', specs: [] }] }, outcome(`PASSED tests/test_calc.py::test_gone\n${real}`, { exitCode: 1 }));
  assert.equal(j.status, 'invalid', j.reason);
  assert.match(j.reason, /1 result line\(s\) were printed before pytest's session began/);
  // `pytest -qq -rA` prints no header, no `collected` line and no closing line: nothing to check it against.
  const qq = `..\n=========================== short test summary info ============================\nPASSED ${ADD}\nPASSED ${MUL}\n`;
  assert.equal(judgeRun(task, outcome(qq)).status, 'passed');
});

test('a fake session header printed before fake PASSED lines does not switch the checks off', () => {
  // Inside pytest's session a conftest prints a header (read as a nested session that never closes), then lies.
  const out = `${HEADER}\n============================= test session starts ==============================\nPASSED ${ADD}\nPASSED ${MUL}\n`;
  const j = judgeRun(task, outcome(out), { testPatch: '', attemptPatch: FAKE_CONFTEST_PATCH });
  assert.equal(j.status, 'invalid', j.reason);
  assert.match(j.reason, /result lines follow pytest's last closing line/);
});
