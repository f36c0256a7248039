// The full-suite probe's pure parts: the derived command (pytest tasks only, and said so), and the comparison of the
// gold patch's and each attempt's whole-suite runs: breaks beyond the listed tests, gold's failures as noise, nothing
// compared when a run was not graded; and the CLI's lines with hostile names made inert.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatFullSuiteReport } from '../../../src/cli/probeFullSuite';
import type { TestStatus } from '../../../src/core/model';
import type { FullSuiteRun } from '../../../src/core/probes/fullSuite';
import { fullSuiteCommand, fullSuiteReport } from '../../../src/core/probes/fullSuite';
import type { RunStatus } from '../../../src/core/verify/runResult';

test('the whole-suite command is derived for pytest tasks (python3 unless the task uses python) and refused for the rest', () => {
  const d = fullSuiteCommand({ command: 'python3 -m pytest -rA tests/test_a.py', parser: 'pytest' });
  assert.ok('command' in d);
  assert.equal(d.command, 'python3 -m pytest -rA -p no:cacheprovider');
  assert.match(d.note, /names no full-suite command: derived/);
  const p = fullSuiteCommand({ command: 'python -m pytest tests', parser: 'junit' });
  assert.ok('command' in p && p.command.startsWith('python -m pytest'));
  assert.ok('refused' in fullSuiteCommand({ command: 'go test ./...', parser: 'gotest' }));
  assert.ok('refused' in fullSuiteCommand({ command: 'bash /tests/test.sh', parser: 'reward', unpackTo: '/' }));
});

const run = (attemptId: string, status: RunStatus, reported: Record<string, TestStatus>): FullSuiteRun => ({ attemptId, run: { status, reason: `r ${status}`, reported } });
const cmd = { command: 'python3 -m pytest -rA -p no:cacheprovider', derived: true, note: 'derived' };
const task = { id: 't', revision: 1, tests: [{ id: 'T1', name: 'tests/a.py::test_listed', kind: 'fail_to_pass' as const, specs: [] }] };

test('breaks: beyond the listed tests, passing with gold and failing or missing with the attempt; gold failures are noise', () => {
  const gold = run('gold', 'passed', { 'tests/a.py::test_listed': 'PASSED', 'tests/b.py::test_other': 'PASSED', 'tests/b.py::test_gone': 'PASSED', 'tests/b.py::test_skip': 'PASSED', 'tests/n.py::test_noise': 'FAILED' });
  const r = fullSuiteReport(task, cmd, gold, [
    run('a1', 'failed', { 'tests/a.py::test_listed': 'FAILED', 'tests/b.py::test_other': 'ERROR', 'tests/b.py::test_skip': 'SKIPPED', 'tests/n.py::test_noise': 'FAILED' }),
    run('a2', 'passed', { 'tests/a.py::test_listed': 'PASSED', 'tests/b.py::test_other': 'PASSED', 'tests/b.py::test_gone': 'XPASS', 'tests/b.py::test_skip': 'PASSED' }),
    run('a3', 'invalid', {}),
    { attemptId: 'a4', error: 'refused' },
  ], new Date(0));
  assert.deepEqual(r.noise, ['tests/n.py::test_noise']);
  assert.deepEqual(r.attempts.map((a) => a.breaks), [['tests/b.py::test_gone', 'tests/b.py::test_other'], [], null, null]);
  assert.equal(r.attempts[3]?.reason, 'refused');
  assert.deepEqual(r.gold.failing, ['tests/n.py::test_noise']);
  const ungraded = fullSuiteReport(task, cmd, run('gold', 'timeout', {}), [run('a1', 'passed', {})], new Date(0));
  assert.deepEqual(ungraded.attempts.map((a) => a.breaks), [null]);
  assert.deepEqual(ungraded.noise, []);
});

test('the CLI lines: breaks named, uncompared attempts with their status, hostile names inert', () => {
  const gold = run('gold', 'passed', { 'tests/b.py::test_\x1b[2Jx': 'PASSED' });
  const r = fullSuiteReport({ ...task, id: 't\x1b]0;t\x07' }, cmd, gold, [run('a\r1', 'failed', {}), run('a2', 'invalid', {})], new Date(0));
  const text = formatFullSuiteReport(r, 'probes/t/full-suite.json');
  assert.ok(![...text].some((c) => c === '\x1b' || c === '\x07' || c === '\r'), JSON.stringify(text));
  assert.match(text, /BREAKS 1 other test\(s\) that pass with gold: tests\/b\.py::test_\\x1b\[2Jx/);
  assert.match(text, /a2: not compared \(invalid: r invalid\)/);
  assert.match(text, /\(derived: the task names no full-suite command\)/);
  assert.match(text, /report: probes\/t\/full-suite\.json/);
});
