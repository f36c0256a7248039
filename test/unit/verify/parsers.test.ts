// Per-test statuses from pytest, JUnit XML and Django output, including the variants real logs contain.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDjango } from '../../../src/core/verify/parseDjango';
import { junitTestName, parseJunit } from '../../../src/core/verify/parseJunit';
import { nodeIdOf, parsePytest } from '../../../src/core/verify/parsePytest';

test('pytest -rA short summary: statuses, messages dropped, parametrized ids with spaces kept whole', () => {
  const log = [
    '=========================== short test summary info ============================',
    'PASSED tests/test_a.py::test_one',
    'PASSED tests/test_a.py::test_param[a b]',
    'FAILED tests/test_a.py::test_two - AssertionError: assert 1 == 2',
    'FAILED tests/test_a.py::test_param[x - y] - ValueError: boom',
    'ERROR tests/test_a.py::test_fixture - RuntimeError: setup failed',
    'XFAIL tests/test_a.py::test_known - reason: not yet',
    'XPASS tests/test_a.py::test_lucky too lucky',
    'SKIPPED [1] tests/test_a.py:40: needs a GPU',
    'ERROR tests/test_broken.py - ImportError: no module named x',
    '==================== 2 failed, 2 passed, 1 error in 0.12s =====================',
  ].join('\n');
  assert.deepEqual(parsePytest(log), {
    'tests/test_a.py::test_one': 'PASSED',
    'tests/test_a.py::test_param[a b]': 'PASSED',
    'tests/test_a.py::test_two': 'FAILED',
    'tests/test_a.py::test_param[x - y]': 'FAILED',
    'tests/test_a.py::test_fixture': 'ERROR',
    'tests/test_a.py::test_known': 'XFAIL',
    'tests/test_a.py::test_lucky': 'XPASS',
    'tests/test_broken.py': 'ERROR',
  });
});

test('pytest: inside one short test summary a failure is not overridden, whatever the order (teardown errors)', () => {
  const section = (...lines: string[]) => ['==== short test summary info ====', ...lines, '==== 1 passed, 1 error in 0.01s ===='].join('\n');
  assert.deepEqual(parsePytest(section('ERROR t.py::a - teardown', 'PASSED t.py::a')), { 't.py::a': 'ERROR' });
  assert.deepEqual(parsePytest(section('PASSED t.py::a', 'ERROR t.py::a - teardown')), { 't.py::a': 'ERROR' });
  // Outside a summary section the last status line counts (issue 9, item 17: a rerun that passes is a pass).
  assert.deepEqual(parsePytest('ERROR t.py::a - first run\nPASSED t.py::a\n'), { 't.py::a': 'PASSED' });
});

test('pytest: verbose and xdist lines, ANSI colours and CRLF', () => {
  const log = [
    'tests/t.py::test_a PASSED                                                 [ 50%]',
    'tests/t.py::test_b[1 2] FAILED                                            [100%]',
    '[gw1] [ 33%] PASSED tests/t.py::test_c',
    '\x1b[32mPASSED\x1b[0m tests/t.py::test_d\r',
    'tests/t.py::test_e SKIPPED (no reason)                                    [ 75%]',
  ].join('\n');
  assert.deepEqual(parsePytest(log), {
    'tests/t.py::test_a': 'PASSED',
    'tests/t.py::test_b[1 2]': 'FAILED',
    'tests/t.py::test_c': 'PASSED',
    'tests/t.py::test_d': 'PASSED',
    'tests/t.py::test_e': 'SKIPPED',
  });
});

test('pytest: the short test summary wins over the verbose lines of its session; without one the last line counts', () => {
  const summary = '==== short test summary info ====\nFAILED t.py::a - x\n==== 1 failed in 0.01s ====\n';
  assert.deepEqual(parsePytest(`t.py::a PASSED [50%]\n${summary}`), { 't.py::a': 'FAILED' });
  assert.deepEqual(parsePytest(`t.py::a FAILED [50%]\nPASSED t.py::a\n${summary}`), { 't.py::a': 'FAILED' });
  assert.deepEqual(parsePytest('t.py::a FAILED [50%]\nPASSED t.py::a\n'), { 't.py::a': 'PASSED' });
});

test('pytest: SWE-bench markers slice the log; outside them nothing counts', () => {
  const log = 'PASSED fake::outside\n>>>>> Start Test Output\nFAILED t.py::a - x\n>>>>> End Test Output\nPASSED fake::after\n';
  assert.deepEqual(parsePytest(log), { 't.py::a': 'FAILED' });
});

test('pytest: nothing that looks like a test yields nothing', () => {
  assert.deepEqual(parsePytest('ERROR: file or directory not found: tests\n\nno tests ran in 0.01s\n'), {});
  assert.deepEqual(parsePytest(''), {});
});

test('nodeIdOf: bracket-aware, falls back on unbalanced brackets', () => {
  assert.equal(nodeIdOf('t.py::x[a b] - msg'), 't.py::x[a b]');
  assert.equal(nodeIdOf('t.py::x[a[b] - msg'), 't.py::x[a[b]');
  assert.equal(nodeIdOf('t.py::x'), 't.py::x');
});

test('JUnit: pytest reports with file attributes become node ids; failure, error, skip and xfail', () => {
  const xml = `<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" errors="1" failures="1" skipped="2" tests="5">
<testcase classname="tests.test_a" name="test_ok" file="tests/test_a.py" line="3" time="0.001" />
<testcase classname="tests.test_a.TestK" name="test_fail[x&amp;y]" file="tests/test_a.py" time="0.01"><failure message="assert 1 == 2">trace &lt;here&gt;</failure></testcase>
<testcase classname="tests.test_a" name="test_err" file="tests/test_a.py"><error message="boom"/></testcase>
<testcase classname="tests.test_a" name="test_skip" file="tests/test_a.py"><skipped message="no" type="pytest.skip"/></testcase>
<testcase classname="tests.test_a" name="test_xf" file="tests/test_a.py"><skipped type="pytest.xfail" message="known"/></testcase>
</testsuite></testsuites>`;
  assert.deepEqual(parseJunit(xml), {
    tests: {
      'tests/test_a.py::test_ok': 'PASSED',
      'tests/test_a.py::TestK::test_fail[x&y]': 'FAILED',
      'tests/test_a.py::test_err': 'ERROR',
      'tests/test_a.py::test_skip': 'SKIPPED',
      'tests/test_a.py::test_xf': 'XFAIL',
    },
  });
});

test('JUnit: CDATA and comments holding XML-looking text cannot forge results', () => {
  const xml = `<testsuite><testcase classname="m" name="real"><failure/><system-out><![CDATA[
<testcase classname="m" name="fake"/></testcase><testcase classname="m" name="real"/>]]></system-out></testcase>
<!-- <testcase classname="m" name="commented"/> --></testsuite>`;
  assert.deepEqual(parseJunit(xml), { tests: { 'm.real': 'FAILED' } });
});

test('JUnit: a truncated report keeps what was read and says so', () => {
  const r = parseJunit('<testsuite><testcase classname="m" name="a"/><testcase classname="m" name="b"><failure');
  assert.deepEqual(r.tests, { 'm.a': 'PASSED' });
  assert.match(r.error ?? '', /unterminated tag/);
  assert.equal(junitTestName({ classname: '', name: 'solo' }), 'solo');
});

test('Django: verbosity-2 lines, docstring names, outcome on a later line, FAIL/ERROR headers', () => {
  const log = [
    'test_ok (app.tests.T) ... ok',
    'test_fail (app.tests.T) ... FAIL',
    'test_err (app.tests.T) ... ERROR',
    'test_skip (app.tests.T) ... skipped "no db"',
    'test_xf (app.tests.T) ... expected failure',
    'test_doc (app.tests.T)',
    'A sitemap index can be rendered ... ok',
    'test_noisy (app.tests.T) ... some printed output',
    'ok',
    '======================================================================',
    'FAIL: test_other (app.tests.U)',
  ].join('\n');
  assert.deepEqual(parseDjango(log), {
    'test_ok (app.tests.T)': 'PASSED',
    'test_fail (app.tests.T)': 'FAILED',
    'test_err (app.tests.T)': 'ERROR',
    'test_skip (app.tests.T)': 'SKIPPED',
    'test_xf (app.tests.T)': 'XFAIL',
    'A sitemap index can be rendered': 'PASSED',
    'test_noisy (app.tests.T)': 'PASSED',
    'test_other (app.tests.U)': 'FAILED',
  });
});
