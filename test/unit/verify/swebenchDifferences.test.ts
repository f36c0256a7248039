// Where SWE-bench's current grading (swebench/harness/log_parsers/python.py `parse_log_pytest`, grading.py) gives
// the wrong answer and this project keeps its own (docs/verifier.md, "Known differences from SWE-bench"). Each test
// states SWE-bench's answer on the same log, as checked by running its code beside ours, and asserts ours.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestCase } from '../../../src/core/model';
import type { ExecutionOutcome } from '../../../src/core/verify/judge';
import { judgeRun } from '../../../src/core/verify/judge';
import { parsePytest } from '../../../src/core/verify/parsePytest';
import { pytestOutput } from './pytestOutput';

const only = (name: string, kind: TestCase['kind'] = 'fail_to_pass') => ({
  tests: [{ id: 'T1', name, kind, specs: [] }],
  specs: [],
  verifier: { parser: 'pytest' },
});
const run = (stdoutText: string, exitCode = 0): ExecutionOutcome => ({
  apply: { test: { method: 'git-apply' }, attempt: { method: 'git-apply' } },
  exitCode,
  timedOut: false,
  oomKilled: false,
  stdoutText,
  stderrText: '',
});

test('ids are not split at whitespace: a parametrized id with a space passes by its full name', () => {
  // SWE-bench splits the line at whitespace: its key is `tests/t.py::test_p[a`, so the full id is not found (a failure).
  const out = pytestOutput([{ id: 'tests/t.py::test_p[a b]', status: 'PASSED' }, { id: 'tests/t.py::test_p[a c]', status: 'FAILED', message: 'assert 0' }]);
  assert.equal(judgeRun(only('tests/t.py::test_p[a b]'), run(out, 1)).grade.tests['tests/t.py::test_p[a b]'], 'PASSED');
  // A dataset id SWE-bench's own split produced stands for both parametrizations: it takes the last line's status
  // (FAILED here, PASSED had the order been the other way); to us it is ambiguous, so MISSING.
  const cut = judgeRun(only('tests/t.py::test_p[a'), run(out, 1));
  assert.equal(cut.grade.tests['tests/t.py::test_p[a'], 'MISSING');
  assert.match(cut.reason, /ambiguous/);
});

test('XPASS is a success (SWE-bench has no XPASS status: the line is ignored and the test is a failure)', () => {
  const out = pytestOutput([{ id: 'tests/t.py::test_lucky', status: 'XPASS' }]);
  const j = judgeRun(only('tests/t.py::test_lucky'), run(out));
  assert.equal(j.status, 'passed', j.reason);
});

test('colour codes are stripped: a printed plain PASSED line does not resolve a task whose FAIL_TO_PASS test failed', () => {
  // pytest --color=yes (9.x shape): SWE-bench's parser sees no line starting with FAILED, only the test's own
  // printed `PASSED ...` in its captured output, and resolves the task.
  const log = [
    '\x1b[1m============================= test session starts ==============================\x1b[0m',
    'collected 1 item',
    '',
    'tests/test_c.py \x1b[31mF\x1b[0m\x1b[31m                                                        [100%]\x1b[0m',
    '',
    '=================================== FAILURES ===================================',
    '\x1b[31m\x1b[1m___________________________________ test_fix ___________________________________\x1b[0m',
    '\x1b[1m\x1b[31mE       assert 1 == 2\x1b[0m',
    '----------------------------- Captured stdout call -----------------------------',
    'PASSED tests/test_c.py::test_fix',
    '\x1b[36m\x1b[1m=========================== short test summary info ============================\x1b[0m',
    '\x1b[31mFAILED\x1b[0m tests/test_c.py::\x1b[1mtest_fix\x1b[0m - assert 1 == 2',
    '\x1b[31m============================== \x1b[31m\x1b[1m1 failed\x1b[0m\x1b[31m in 1.22s\x1b[0m\x1b[31m ===============================\x1b[0m',
    '',
  ].join('\n');
  const j = judgeRun(only('tests/test_c.py::test_fix'), run(log, 1));
  assert.equal(j.status, 'failed', j.reason);
  assert.equal(j.resolved, false);
  assert.equal(j.grade.tests['tests/test_c.py::test_fix'], 'FAILED');
});

test('verbose lines count (SWE-bench ignores `path::test PASSED [ 50%]`: the test is a failure)', () => {
  const out = pytestOutput([{ id: 'tests/t.py::test_x', status: 'PASSED' }], { verbose: true }).replace(/^PASSED tests\/t\.py::test_x\n/m, '');
  assert.doesNotMatch(out, /^PASSED /m, 'no -rA line left: only the verbose line names the test');
  assert.equal(judgeRun(only('tests/t.py::test_x'), run(out)).status, 'passed');
});

test('pytest-xdist lines count (SWE-bench ignores `[gw0] [ 50%] PASSED path::test`: the test is a failure)', () => {
  const log = [
    '============================= test session starts ==============================',
    'created: 2/2 workers',
    '2 workers [2 items]',
    '',
    '[gw1] [ 50%] PASSED tests/t.py::test_b ',
    '[gw0] [100%] PASSED tests/t.py::test_a ',
    '',
    '============================== 2 passed in 0.61s ===============================',
  ].join('\n');
  assert.deepEqual(parsePytest(log), { 'tests/t.py::test_a': 'PASSED', 'tests/t.py::test_b': 'PASSED' });
  assert.equal(judgeRun(only('tests/t.py::test_a'), run(log)).status, 'passed');
});
