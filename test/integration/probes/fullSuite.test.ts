// The full-suite probe in real containers, on a copy of format-precision with two additions: the test patch also
// adds a test that fails whatever the patch (environment noise), and an attempt that is the gold patch plus a
// change breaking parse_duration (tests/test_parse.py, not listed by the task). The derived whole-suite command runs
// every test of the repository: the attempt breaks the parse tests, the noise test is reported as noise for gold and
// never counted against an attempt.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../../src/adapters/docker/engine';
import { setOutput } from '../../../src/cli/output';
import { runCli } from '../../../src/cli/run';
import type { FullSuiteReport } from '../../../src/core/probes/fullSuite';
import { unifiedDiff } from '../../../src/core/textDiff';
import { fullSuiteReportPath } from '../../../src/app/fullSuite';
import { copyExample } from '../repair/exampleCopy';
import { assertNoOwnedContainers, requireEngine } from '../verify/engineGuard';

const TASK = 'format-precision';
let engine: Engine;
let root: string;
let report: FullSuiteReport & { file: string };
let code: number;
let stderr = '';

before(async () => {
  engine = await requireEngine();
  root = copyExample();
  const dir = path.join(root, 'tasks', TASK);
  const noise = unifiedDiff(undefined, 'tests/test_noise.py', '', 'def test_environment_noise():\n    assert False, "fails with any patch"\n');
  fs.appendFileSync(path.join(dir, 'tests.patch'), noise);
  const task = JSON.parse(fs.readFileSync(path.join(dir, 'task.json'), 'utf8')) as { repo: { baseCommit: string } };
  const parse = execFileSync('git', ['-C', path.join(root, '..', 'repos', 'durations'), 'show', `${task.repo.baseCommit}:durations/parse.py`], { encoding: 'utf8' });
  const broken = `${parse}\n\ndef parse_duration(text):  # breaks every caller\n    raise ValueError("broken")\n`;
  const attempt = path.join(dir, 'attempts', 'breaks-parse');
  fs.mkdirSync(attempt);
  fs.writeFileSync(path.join(attempt, 'patch.diff'), fs.readFileSync(path.join(dir, 'gold.patch'), 'utf8') + unifiedDiff('durations/parse.py', 'durations/parse.py', parse, broken));
  fs.writeFileSync(path.join(attempt, 'attempt.json'), JSON.stringify({ model: 'm', agent: 'a', patch: 'patch.diff' }));
  let stdout = '';
  setOutput({ stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  try {
    code = await runCli(['probe', root, TASK, '--full-suite', '--attempt', 'breaks-parse', '--attempt', 'mini-gpt-5-mini', '--concurrency', '2', '--json']);
  } finally {
    setOutput(undefined);
  }
  const lines = stdout.trim().split('\n');
  assert.equal(lines.length, 1, `${stdout}\n${stderr}`);
  report = JSON.parse(lines[0] as string) as FullSuiteReport & { file: string };
});

after(async () => {
  if (engine) await assertNoOwnedContainers(engine);
});

test('the whole suite is derived for a pytest task and runs for gold: the unlisted parse tests pass, the noise test is noise', () => {
  assert.equal(code, 0, stderr);
  assert.equal(report.command, 'python3 -m pytest -rA -p no:cacheprovider');
  assert.equal(report.derived, true);
  assert.equal(report.gold.status, 'passed', report.gold.reason);
  assert.ok(report.gold.reported > 16, `only ${report.gold.reported} tests reported`);
  assert.deepEqual(report.noise, ['tests/test_noise.py::test_environment_noise']);
});

test('an attempt that breaks tests beyond the listed ones is reported with them; the noise test is never counted against it', () => {
  const byId = new Map(report.attempts.map((a) => [a.attemptId, a]));
  const bad = byId.get('breaks-parse');
  assert.ok(bad?.breaks, JSON.stringify(report.attempts));
  assert.ok(bad.breaks.includes('tests/test_parse.py::test_parse_single_units'), bad.breaks.join(', '));
  assert.ok(bad.breaks.every((t) => !t.startsWith('tests/test_format.py') || !t.includes('precision')), 'listed tests are the verdict, not breaks');
  assert.ok(!bad.breaks.includes('tests/test_noise.py::test_environment_noise'));
  const mini = byId.get('mini-gpt-5-mini');
  assert.deepEqual(mini?.breaks, [], JSON.stringify(mini));
  assert.equal(report.file, fullSuiteReportPath(TASK));
  const stored = JSON.parse(fs.readFileSync(path.join(root, report.file), 'utf8')) as FullSuiteReport;
  assert.deepEqual(stored.attempts.map((a) => a.breaks), report.attempts.map((a) => a.breaks));
  assert.equal(fs.existsSync(path.join(root, 'runs')), false);
});
