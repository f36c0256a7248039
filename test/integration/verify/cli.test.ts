// `specweave verify` from a terminal: JSON lines, oracle flags for suspect verdicts, reuse, repeats, exit codes.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../../src/adapters/docker/engine';
import { listOwned } from '../../../src/adapters/docker/sweep';
import type { RunSummary } from '../../../src/core/verify/summary';
import { ADD_TEST_FILE, FIXED_CALC, buildDataset } from '../../fixtures/verify/dataset';
import { watchContainers } from './engineEvents';
import { assertNoOwnedContainers, requireEngine } from './engineGuard';
import { cliArgs } from '../../unit/helpers/cli';

const ROOT = path.resolve(__dirname, '../../..');

function cli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  started?: (p: ChildProcess) => void,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; ms: number }> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...cliArgs(), 'verify', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('error', reject);
    p.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, ms: Date.now() - t0 }));
    started?.(p);
  });
}

const lines = (s: string): RunSummary[] => s.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as RunSummary);

let engine: Engine;
let root: string;

before(async () => {
  engine = await requireEngine();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-verify-cli-'));
  buildDataset(root, [
    {
      id: 'plain',
      attempts: [
        { id: 'good', files: { 'calc.py': FIXED_CALC } },
        { id: 'wrong', files: { 'calc.py': FIXED_CALC.replace('a + b', 'a * b') } },
      ],
    },
    {
      // Its FAIL_TO_PASS test already passes before any fix: it cannot tell a fix from no fix.
      id: 'blind',
      testFiles: { 'tests/test_calc.py': `${ADD_TEST_FILE}\n\ndef test_add_zero():\n    assert add(0, 0) == 0\n` },
      tests: [
        { id: 'T1', name: 'tests/test_calc.py::test_add_zero', kind: 'fail_to_pass', specs: ['S1'] },
        { id: 'T2', name: 'tests/test_calc.py::test_mul', kind: 'pass_to_pass', specs: ['S2'] },
      ],
      specs: [
        { id: 'S1', text: 'add(a, b) returns the sum.', category: 'computation-algorithms' },
        { id: 'S2', text: 'mul keeps working.', category: 'computation-algorithms' },
      ],
      attempts: [{ id: 'readme-only', files: { 'README.md': 'Changed the README, fixed nothing.\n' } }],
    },
    {
      // Its FAIL_TO_PASS test demands exact float equality: even the gold patch fails it.
      id: 'overfit',
      testFiles: { 'tests/test_calc.py': `${ADD_TEST_FILE}\n\ndef test_add_float():\n    assert add(0.1, 0.2) == 0.3\n` },
      tests: [
        { id: 'T1', name: 'tests/test_calc.py::test_add', kind: 'fail_to_pass', specs: ['S1'] },
        { id: 'T2', name: 'tests/test_calc.py::test_add_float', kind: 'fail_to_pass', specs: ['S1'] },
        { id: 'T3', name: 'tests/test_calc.py::test_mul', kind: 'pass_to_pass', specs: ['S2'] },
      ],
      specs: [
        { id: 'S1', text: 'add(a, b) returns the sum.', category: 'computation-algorithms' },
        { id: 'S2', text: 'mul keeps working.', category: 'computation-algorithms' },
      ],
      attempts: [{ id: 'correct', files: { 'calc.py': FIXED_CALC } }],
    },
    {
      // An attempt whose add() never returns: its run lasts until it is cancelled (or the 300 s timeout).
      id: 'forever',
      timeoutSec: 300,
      attempts: [{ id: 'loop', files: { 'calc.py': FIXED_CALC.replace('return a + b', 'while True:\n        pass') } }],
    },
  ]);
});

after(async () => {
  if (engine) await assertNoOwnedContainers(engine);
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

test('--json: one object per run with the documented fields; exit 0 whatever the tests said', async () => {
  const r = await cli([root, 'plain', '--json', '--concurrency', '2']);
  assert.equal(r.code, 0, r.stderr);
  const runs = lines(r.stdout);
  assert.deepEqual(runs.map((x) => x.attemptId).sort(), ['empty', 'gold', 'good', 'wrong']);
  const good = runs.find((x) => x.attemptId === 'good') as RunSummary;
  for (const k of ['taskId', 'attemptId', 'status', 'resolved', 'applyMethod', 'tests', 'failToPass', 'passToPass', 'specs', 'imageId', 'durationMs']) {
    assert.ok(k in good, `missing ${k}`);
  }
  assert.equal(good.status, 'passed');
  assert.equal(good.applyMethod, 'git-apply');
  assert.deepEqual(good.failToPass, { success: ['tests/test_calc.py::test_add'], failure: [], missing: [], skipped: [] });
  assert.deepEqual(good.specs, { S1: 'pass', S2: 'pass', S3: 'unknown' });
  const wrong = runs.find((x) => x.attemptId === 'wrong') as RunSummary;
  assert.equal(wrong.status, 'failed');
  assert.equal(wrong.resolved, false);
  assert.equal(runs.find((x) => x.attemptId === 'empty')?.applyMethod, 'empty');
  assert.ok(fs.existsSync(path.join(root, 'runs/plain/good')));

  const again = await cli([root, 'plain', '--json', '--attempt', 'good']);
  assert.equal(again.code, 0, again.stderr);
  assert.ok(lines(again.stdout).every((x) => x.reused), 'unchanged inputs: every run reused');
});

test('oracle probes expose a suspect false positive and a suspect false negative', async () => {
  const r = await cli([root, 'blind', 'overfit', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const runs = lines(r.stdout);
  const fp = runs.find((x) => x.taskId === 'blind' && x.attemptId === 'readme-only') as RunSummary;
  assert.equal(fp.status, 'passed', 'the tests call it resolved...');
  assert.deepEqual(fp.flags.map((f) => f.kind), ['attempt_suspect_false_positive'], '...the probes say suspect');
  const blindEmpty = runs.find((x) => x.taskId === 'blind' && x.attemptId === 'empty') as RunSummary;
  assert.ok(blindEmpty.flags.some((f) => f.kind === 'empty_passes_fail_to_pass' && f.test === 'tests/test_calc.py::test_add_zero'));

  const fn = runs.find((x) => x.taskId === 'overfit' && x.attemptId === 'correct') as RunSummary;
  assert.equal(fn.status, 'failed');
  assert.deepEqual(fn.flags.map((f) => f.kind), ['attempt_suspect_false_negative']);
  const gold = runs.find((x) => x.taskId === 'overfit' && x.attemptId === 'gold') as RunSummary;
  assert.ok(gold.flags.some((f) => f.kind === 'gold_fails_test' && f.test === 'tests/test_calc.py::test_add_float'));
});

test('--repeat N runs each selection N times; --force runs again; --timeout overrides the task', async () => {
  const r = await cli([root, 'plain', '--attempt', 'good', '--repeat', '2', '--force', '--timeout', '30', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const runs = lines(r.stdout).filter((x) => x.attemptId === 'good');
  assert.deepEqual(runs.map((x) => x.repeat), [1, 2]);
  assert.ok(runs.every((x) => !x.reused && x.status === 'passed' && x.flags.length === 0));
});

test('human output: one line per run and the task flags', async () => {
  const r = await cli([root, 'blind']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /blind {2}readme-only {2}PASSED {2}F2P 1\/1 {2}P2P 1\/1 {2}apply=git-apply/);
  assert.match(r.stdout, /! attempt_suspect_false_positive: resolved, but 1 FAIL_TO_PASS test\(s\) also pass without any patch/);
  assert.match(r.stdout, /blind ! empty_passes_fail_to_pass/);
});

test('usage errors exit 2; no engine exits 1 with what to do', async () => {
  const bad = await cli([root, 'nope']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /no task "nope"/);
  const noEngine = await cli([root, 'plain'], { DOCKER_HOST: 'unix:///nonexistent' });
  assert.equal(noEngine.code, 1);
  assert.match(noEngine.stderr, /No container engine: \/nonexistent does not exist .*scripts\/setup-docker\.sh/);
  assert.equal(noEngine.stdout, '');
});

/** A read-only view of `dir`: a read-only bind mount as root (who ignores permission bits), else chmod a-w. */
function readOnlyView(dir: string): { path: string; release: () => void } {
  if (process.getuid?.() !== 0) {
    spawnSync('chmod', ['-R', 'a-w', dir]);
    return { path: dir, release: () => void spawnSync('chmod', ['-R', 'u+w', dir]) };
  }
  const mnt = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-ro-'));
  const run = (args: string[]) => {
    const r = spawnSync('mount', args, { encoding: 'utf8' });
    assert.equal(r.status, 0, `mount ${args.join(' ')}: ${r.stderr} (the read-only dataset test needs a bind mount as root)`);
  };
  run(['--bind', dir, mnt]);
  run(['-o', 'remount,bind,ro', mnt]);
  return {
    path: mnt,
    release: () => {
      spawnSync('umount', [mnt]);
      fs.rmdirSync(mnt);
    },
  };
}

test('a read-only dataset: refused before any container runs, naming the runs folder', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-verify-ro-'));
  const taskId = `readonly-${process.pid}`;
  buildDataset(dir, [{ id: taskId, attempts: [{ id: 'good', files: { 'calc.py': FIXED_CALC } }] }]);
  const view = readOnlyView(dir);
  try {
    const docker = await engine.docker();
    const since = Math.floor(Date.now() / 1000) - 1;
    const r = await cli([view.path, taskId, '--attempt', 'good']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`the runs folder ${path.join(view.path, 'runs').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be written`));
    assert.match(r.stderr, /read-only file system|permission denied/i);
    assert.equal(r.stdout, '', 'no run was reported');
    // No container of this task was ever created (the engine's event log, bounded to the test's time).
    const until = Math.floor(Date.now() / 1000) + 1;
    const events = (await docker.getEvents({
      since,
      until,
      filters: { type: ['container'], event: ['create'], label: [`specweave.task=${taskId}`] },
    })) as unknown as NodeJS.ReadableStream;
    let text = '';
    for await (const c of events) text += (c as Buffer).toString();
    assert.equal(text, '', 'no container was created for the read-only dataset');
  } finally {
    view.release();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('Ctrl-C during a run cancels it: its container is removed and the CLI exits 130', async (t) => {
  const ofTask = async () => (await listOwned(engine)).filter((c) => c.labels['specweave.task'] === 'forever');
  // Interrupted once its container has started (the engine's start event of a container of this CLI's), as a
  // curator's Ctrl-C would be.
  const events = await watchContainers(engine, ['specweave.task=forever']);
  t.after(() => events.close());
  const r = await cli([root, 'forever', '--attempt', 'loop', '--force'], {}, (p) => {
    // Without a start (the CLI ended first, or nothing within the bound) the CLI is ended and the assertions below say why.
    void events.next('a container of the run to start', 120_000, (e) => e.action === 'start' && e.attributes['specweave.pid'] === String(p.pid)).then(
      () => void p.kill('SIGINT'),
      () => void p.kill('SIGKILL'),
    );
  });
  assert.equal(r.signal, null, `the CLI handled the interrupt itself (stderr: ${r.stderr})`);
  assert.equal(r.code, 130, r.stderr);
  assert.match(r.stderr, /cancelling: removing running containers/);
  assert.deepEqual(await ofTask(), [], 'no container of the cancelled run is left');
});
