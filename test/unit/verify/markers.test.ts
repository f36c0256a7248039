// SWE-bench's `>>>>> Start Test Output` / `>>>>> End Test Output` markers (issue 9, item 18): the results between
// them count, and the whole log when they hold none, as SWE-bench does. Its eval scripts run under `set -x`, so
// the markers are traced on stderr while pytest writes its results on stdout.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestCase } from '../../../src/core/model';
import type { ExecutionOutcome } from '../../../src/core/verify/judge';
import { judgeRun } from '../../../src/core/verify/judge';
import { parsePytest } from '../../../src/core/verify/parsePytest';

const tests: TestCase[] = [
  { id: 'T1', name: 'tests/test_calc.py::test_add', kind: 'fail_to_pass', specs: [] },
  { id: 'T2', name: 'tests/test_calc.py::test_mul', kind: 'pass_to_pass', specs: [] },
];
const task = { tests, specs: [], verifier: { parser: 'pytest' } };

const PYTEST_STDOUT = [
  '============================= test session starts ==============================',
  'platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0+repack',
  'rootdir: /testbed',
  'collected 2 items',
  '',
  'tests/test_calc.py ..                                                    [100%]',
  '',
  '==================================== PASSES ====================================',
  '=========================== short test summary info ============================',
  'PASSED tests/test_calc.py::test_mul',
  'PASSED tests/test_calc.py::test_add',
  '============================== 2 passed in 0.01s ===============================',
  '',
].join('\n');

// What `bash -x eval.sh` traces on stderr around the test command.
const SET_X_STDERR = [
  "+ : '>>>>> Start Test Output'",
  '+ pytest -rA tests/test_calc.py',
  "+ : '>>>>> End Test Output'",
  '+ git checkout 0123abc tests/test_calc.py',
  'Updated 1 path from 9bbb09d',
  '',
].join('\n');

test('results outside the markers (markers traced on stderr, results on stdout) are graded, not invalid', () => {
  const o: ExecutionOutcome = {
    apply: { test: { method: 'git-apply' }, attempt: { method: 'git-apply' } },
    exitCode: 0,
    timedOut: false,
    oomKilled: false,
    stdoutText: PYTEST_STDOUT,
    stderrText: SET_X_STDERR,
  };
  const j = judgeRun(task, o);
  assert.equal(j.status, 'passed', j.reason);
  assert.equal(j.resolved, true);
  assert.match(j.reason, /markers held no result: the whole output was read/);
});

test('a marked section with results still excludes what is printed outside it', () => {
  const log = `PASSED tests/test_calc.py::test_fake\n>>>>> Start Test Output\n${PYTEST_STDOUT}>>>>> End Test Output\nFAILED tests/test_calc.py::test_add\n`;
  assert.deepEqual(parsePytest(log), { 'tests/test_calc.py::test_mul': 'PASSED', 'tests/test_calc.py::test_add': 'PASSED' });
  // SWE-bench's fallback: empty between the markers, the results before them count.
  assert.deepEqual(parsePytest('PASSED tests/test_a.py::test_outside\n>>>>> Start Test Output\n>>>>> End Test Output\n'), {
    'tests/test_a.py::test_outside': 'PASSED',
  });
});
