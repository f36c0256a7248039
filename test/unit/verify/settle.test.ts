// Settling each test's status the way pytest does (issue 9, items 17 and 19): the last short test summary of a
// session decides, a later session (a rerun) overrides an earlier one, otherwise the last status line counts; a
// teardown ERROR after PASSED stays an error; a bare carriage return does not hide a status. The logs are in the
// shapes real pytest runs print (pytest 7.2 in the base image, pytest 9 on a workstation).
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestCase } from '../../../src/core/model';
import type { ExecutionOutcome } from '../../../src/core/verify/judge';
import { judgeRun } from '../../../src/core/verify/judge';
import { parsePytest } from '../../../src/core/verify/parsePytest';

const t = (name: string, kind: TestCase['kind']): TestCase => ({ id: name, name, kind, specs: [] });
const task = (tests: TestCase[]) => ({ tests, specs: [], verifier: { parser: 'pytest' } });
const outcome = (stdoutText: string, exitCode = 0): ExecutionOutcome => ({
  apply: { test: { method: 'git-apply' }, attempt: { method: 'git-apply' } },
  exitCode,
  timedOut: false,
  oomKilled: false,
  stdoutText,
  stderrText: '',
});

const HEADER = [
  '============================= test session starts ==============================',
  'platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0+repack',
  'rootdir: /repo',
];

// A passing test that prints a line looking like its own failure: -rA shows it in the PASSES section, before the
// short test summary that reports it PASSED.
const PRINTS_OWN_FAILURE = [
  ...HEADER,
  'collected 2 items',
  '',
  'tests/test_a.py ..                                                       [100%]',
  '',
  '==================================== PASSES ====================================',
  '_________________________________ test_prints __________________________________',
  '----------------------------- Captured stdout call -----------------------------',
  'FAILED tests/test_a.py::test_prints - AssertionError: printed by the test',
  '=========================== short test summary info ============================',
  'PASSED tests/test_a.py::test_ok',
  'PASSED tests/test_a.py::test_prints',
  '============================== 2 passed in 0.02s ===============================',
  '',
].join('\n');

test('a test printing "FAILED <its own id>" that pytest reports PASSED is a pass, and the conflict is named', () => {
  assert.deepEqual(parsePytest(PRINTS_OWN_FAILURE), { 'tests/test_a.py::test_ok': 'PASSED', 'tests/test_a.py::test_prints': 'PASSED' });
  const j = judgeRun(task([t('tests/test_a.py::test_prints', 'fail_to_pass'), t('tests/test_a.py::test_ok', 'pass_to_pass')]), outcome(PRINTS_OWN_FAILURE));
  assert.equal(j.status, 'passed', j.reason);
  assert.match(j.reason, /conflicting status lines for 1 test.*tests\/test_a\.py::test_prints: FAILED, then PASSED/);
});

// `pytest ... || pytest ...`: the first session fails the flaky test, the rerun passes it, the command exits 0.
const RERUN_SESSIONS = [
  ...HEADER,
  'collected 1 item',
  '',
  'tests/test_b.py F                                                        [100%]',
  '',
  '=================================== FAILURES ===================================',
  '__________________________________ test_flaky __________________________________',
  '',
  '    def test_flaky():',
  '>       assert False, "first time"',
  'E       AssertionError: first time',
  '',
  'tests/test_b.py:5: AssertionError',
  '=========================== short test summary info ============================',
  'FAILED tests/test_b.py::test_flaky - AssertionError: first time',
  '============================== 1 failed in 0.03s ===============================',
  ...HEADER,
  'collected 1 item',
  '',
  'tests/test_b.py .                                                        [100%]',
  '',
  '==================================== PASSES ====================================',
  '=========================== short test summary info ============================',
  'PASSED tests/test_b.py::test_flaky',
  '============================== 1 passed in 0.01s ===============================',
  '',
].join('\n');

test('a test that fails and then passes on a rerun (exit 0) is a pass', () => {
  assert.deepEqual(parsePytest(RERUN_SESSIONS), { 'tests/test_b.py::test_flaky': 'PASSED' });
  const j = judgeRun(task([t('tests/test_b.py::test_flaky', 'fail_to_pass')]), outcome(RERUN_SESSIONS));
  assert.equal(j.status, 'passed', j.reason);
  assert.match(j.reason, /conflicting status lines.*FAILED, then PASSED/);
});

// pytest-rerunfailures: verbose RERUN lines, then the final result; -rA lists the final PASSED.
test('pytest-rerunfailures: a RERUN followed by PASSED is a pass', () => {
  const log = [
    ...HEADER,
    'plugins: rerunfailures-12.0',
    'collecting ... collected 1 item',
    '',
    'tests/test_b.py::test_flaky RERUN                                        [100%]',
    'tests/test_b.py::test_flaky PASSED                                       [100%]',
    '',
    '=========================== short test summary info ============================',
    'PASSED tests/test_b.py::test_flaky',
    '========================== 1 passed, 1 rerun in 0.02s ==========================',
  ].join('\n');
  assert.deepEqual(parsePytest(log), { 'tests/test_b.py::test_flaky': 'PASSED' });
});

// Without -rA and without a failure pytest prints no short summary: the verbose lines are all there is.
test('verbose lines only: the last status line of a test counts (a rerun in a second session)', () => {
  const log = [
    'tests/t.py::test_x FAILED                                                [100%]',
    '=========================== short test summary info ============================',
    'FAILED tests/t.py::test_x - assert 0',
    '============================== 1 failed in 0.01s ===============================',
    ...HEADER,
    'collecting ... collected 1 item',
    'tests/t.py::test_x PASSED                                                [100%]',
    '============================== 1 passed in 0.01s ===============================',
  ].join('\n');
  assert.deepEqual(parsePytest(log), { 'tests/t.py::test_x': 'PASSED' });
});

// pytest's -rA order is PASSED, SKIPPED, XFAIL, XPASS, ERROR, FAILED: a teardown error comes after the PASSED line
// of the same test, and is its real outcome. The verbose form prints the PASSED line, then the ERROR line.
const TEARDOWN = [
  ...HEADER,
  'collected 3 items',
  '',
  'tests/test_x.py .E.F                                                     [100%]',
  '',
  '==================================== ERRORS ====================================',
  '_____________________ ERROR at teardown of test_teardown ______________________',
  'E       RuntimeError: teardown boom',
  '=================================== FAILURES ===================================',
  '__________________________________ test_fail ___________________________________',
  'E       assert 1 == 2',
  '=========================== short test summary info ============================',
  'PASSED tests/test_x.py::test_pass',
  'PASSED tests/test_x.py::test_teardown',
  'ERROR tests/test_x.py::test_teardown - RuntimeError: teardown boom',
  'FAILED tests/test_x.py::test_fail - assert 1 == 2',
  '=================== 1 failed, 2 passed, 1 error in 0.05s ====================',
].join('\n');

test('teardown errors stay errors: -rA PASSED then ERROR, verbose PASSED then ERROR; neither is a conflict', () => {
  assert.deepEqual(parsePytest(TEARDOWN), {
    'tests/test_x.py::test_pass': 'PASSED',
    'tests/test_x.py::test_teardown': 'ERROR',
    'tests/test_x.py::test_fail': 'FAILED',
  });
  const verbose = [
    'tests/test_x.py::test_teardown PASSED                                    [ 50%]',
    'tests/test_x.py::test_teardown ERROR                                     [ 50%]',
    'tests/test_x.py::test_pass PASSED                                        [100%]',
    '=========================== short test summary info ============================',
    'ERROR tests/test_x.py::test_teardown - RuntimeError: teardown boom',
    '===================== 2 passed, 1 error in 0.05s ======================',
  ].join('\n');
  assert.deepEqual(parsePytest(verbose), { 'tests/test_x.py::test_teardown': 'ERROR', 'tests/test_x.py::test_pass': 'PASSED' });
  const j = judgeRun(task([t('tests/test_x.py::test_teardown', 'pass_to_pass')]), outcome(TEARDOWN, 1));
  assert.equal(j.status, 'failed');
  assert.doesNotMatch(j.reason, /conflicting/);
});

test('a printed PASSED line cannot override the summary that reports the test FAILED', () => {
  const log = [
    ...HEADER,
    'collected 1 item',
    'tests/t.py F                                                             [100%]',
    '=================================== FAILURES ===================================',
    '____________________________________ test_x ____________________________________',
    '----------------------------- Captured stdout call -----------------------------',
    'PASSED tests/t.py::test_x',
    '=========================== short test summary info ============================',
    'FAILED tests/t.py::test_x - assert 0',
    '============================== 1 failed in 0.01s ===============================',
  ].join('\n');
  assert.deepEqual(parsePytest(log), { 'tests/t.py::test_x': 'FAILED' });
  // Printed after the summary (an atexit hook): the session is over, the summary still decides.
  assert.deepEqual(parsePytest(`${log}\nPASSED tests/t.py::test_x\n`), { 'tests/t.py::test_x': 'FAILED' });
});

test('a bare carriage return inside a line does not hide the status: what follows the last \\r counts', () => {
  const log = [
    ...HEADER,
    'collected 2 items',
    '=========================== short test summary info ============================',
    'progress 50%\rPASSED tests/t.py::test_a',
    'downloading...\rdone\rPASSED tests/t.py::test_b\r',
    '============================== 2 passed in 0.01s ===============================',
  ].join('\n');
  assert.deepEqual(parsePytest(log), { 'tests/t.py::test_a': 'PASSED', 'tests/t.py::test_b': 'PASSED' });
  assert.deepEqual(parsePytest('tests/t.py::test_c PASSED [100%]\r\n\r\n'), { 'tests/t.py::test_c': 'PASSED' });
});

// pytest's own suite (pytester): a test runs pytest inside itself and the inner run's whole output is re-printed as
// the test's captured stdout, header, short summary and closing line included (pytest 9.0.3, trimmed).
const NESTED = [
  '============================= test session starts ==============================',
  'platform linux -- Python 3.11.7, pytest-9.0.3, pluggy-1.6.0',
  'rootdir: /tmp/pyt',
  'collected 3 items',
  '',
  'tests/test_outer.py ...                                                  [100%]',
  '',
  '==================================== PASSES ====================================',
  '________________________________ test_inner_ok _________________________________',
  '----------------------------- Captured stdout call -----------------------------',
  '============================= test session starts ==============================',
  'platform linux -- Python 3.11.7, pytest-9.0.3, pluggy-1.6.0',
  'rootdir: /tmp/pytest-of-root/pytest-1/test_inner_ok0',
  'collected 2 items',
  '',
  'test_inner_ok.py .F                                                      [100%]',
  '',
  '=================================== FAILURES ===================================',
  '____________________________________ test_b ____________________________________',
  'E   assert 0',
  '==================================== PASSES ====================================',
  '=========================== short test summary info ============================',
  'PASSED test_inner_ok.py::test_a',
  'FAILED test_inner_ok.py::test_b - assert 0',
  '========================= 1 failed, 1 passed in 4.03s ==========================',
  '__________________________ test_inner_internal_error ___________________________',
  '----------------------------- Captured stdout call -----------------------------',
  '============================= test session starts ==============================',
  'rootdir: /tmp/pytest-of-root/pytest-1/test_inner_internal_error0',
  'INTERNALERROR> ValueError: boom',
  '',
  '============================ no tests ran in 0.05s =============================',
  '=========================== short test summary info ============================',
  'PASSED tests/test_outer.py::test_inner_ok',
  'PASSED tests/test_outer.py::test_inner_internal_error',
  'PASSED tests/test_outer.py::test_plain',
  '============================== 3 passed in 7.85s ===============================',
  '',
].join('\n');

test('a pytest run printed inside a test (pytester) is not a session of its own: the outer summary decides', () => {
  assert.deepEqual(parsePytest(NESTED), {
    'tests/test_outer.py::test_inner_ok': 'PASSED',
    'tests/test_outer.py::test_inner_internal_error': 'PASSED',
    'tests/test_outer.py::test_plain': 'PASSED',
  });
  const j = judgeRun(task([t('tests/test_outer.py::test_inner_ok', 'fail_to_pass'), t('tests/test_outer.py::test_plain', 'pass_to_pass')]), outcome(NESTED));
  assert.equal(j.status, 'passed', j.reason);
});

test('a nested session that never closes: the log is read as one sequence of lines, and the reason says so', () => {
  // The inner run's closing line is missing (a test printing the start of a pytest output).
  const cut = NESTED.replace('============================ no tests ran in 0.05s =============================\n', '');
  assert.deepEqual(parsePytest(cut)['tests/test_outer.py::test_plain'], 'PASSED');
  const j = judgeRun(task([t('tests/test_outer.py::test_plain', 'fail_to_pass')]), outcome(cut));
  assert.equal(j.status, 'passed', j.reason);
  assert.match(j.reason, /a pytest session printed inside the output never closed/);
});
