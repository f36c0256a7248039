// Backends and warm mode without an engine: the backend choice and its refusals, where a stored run ran (records
// older than backends included), the warm driver, and what the layer's change list says about a run.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { driverScript } from '../../../src/adapters/docker/driver';
import { judgeChanges } from '../../../src/adapters/docker/warm';
import { listRuns, saveRun } from '../../../src/adapters/fs/runStore';
import { parseArgs } from '../../../src/cli/args';
import { executionFlags, executionOptions } from '../../../src/cli/containerRun';
import { parseBackend, runPlace } from '../../../src/core/verify/backend';
import type { VerifierRunRecord } from '../../../src/core/verify/runResult';

test('only the local backend runs; the others are refused naming the setting or flag they came from', () => {
  assert.deepEqual(parseBackend(undefined, 'specweave.verifier.backend'), { ok: true, backend: 'local' });
  assert.deepEqual(parseBackend('local', '--backend'), { ok: true, backend: 'local' });
  const pool = parseBackend('pool', 'specweave.verifier.backend');
  assert.equal(pool.ok, false);
  assert.match((pool as { message: string }).message, /^specweave\.verifier\.backend: the "pool" backend is not built yet/);
  assert.match((parseBackend('mesos', '--backend') as { message: string }).message, /^--backend: unknown backend "mesos"; one of local, pool, swarm, kubernetes/);
  const flags = { ...executionFlags };
  assert.deepEqual(executionOptions(parseArgs(['--backend', 'local', '--warm'], flags)), { backend: 'local', warm: true });
  assert.deepEqual(executionOptions(parseArgs([], flags)), { backend: 'local', warm: false });
  assert.throws(() => executionOptions(parseArgs(['--backend', 'kubernetes'], flags)), /--backend: the "kubernetes" backend is not built yet/);
});

test('a run record written before backends existed still loads, read as a local run on an unknown node', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-backend-'));
  try {
    const old = {
      format: 1,
      runId: '20250101T000000000Z-oldold',
      taskId: 't1',
      taskRevision: 1,
      attemptId: 'a1',
      repeat: 1,
      status: 'passed',
      reason: 'r',
      resolved: true,
      image: 'img',
      imageId: 'i',
      apply: { test: { method: 'git-apply' }, attempt: { method: 'git-apply' } },
      driverReport: '',
      exitCode: 0,
      oomKilled: false,
      timedOut: false,
      timeoutSec: 60,
      testsFrom: 'pytest',
      reported: {},
      grade: { failToPass: { passed: 0, total: 0 }, passToPass: { passed: 0, total: 0 }, tests: {} },
      specs: {},
      stdout: { totalBytes: 0, headBytes: 0, tailBytes: 0, cutBytes: 0 },
      stderr: { totalBytes: 0, headBytes: 0, tailBytes: 0, cutBytes: 0 },
      inputs: { key: 'k' },
      timings: { startedAt: '2025-01-01T00:00:00.000Z', totalMs: 1 },
    };
    const dir = path.join(root, 'runs', 't1', 'a1');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${old.runId}.json`), JSON.stringify(old));
    const [loaded] = listRuns(root, 't1', 'a1');
    assert.ok(loaded, 'the old record loads');
    assert.deepEqual(runPlace(loaded), { backend: 'local', node: '', warm: false });

    const now = { ...(old as unknown as VerifierRunRecord), runId: '20260101T000000000Z-newnew', backend: 'local', node: 'box-1', warm: true };
    const empty = { head: Buffer.alloc(0), tail: Buffer.alloc(0) };
    await saveRun(root, now, { stdout: empty, stderr: empty });
    const [latest] = listRuns(root, 't1', 'a1');
    assert.deepEqual(runPlace(latest as VerifierRunRecord), { backend: 'local', node: 'box-1', warm: true });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('the warm driver waits for the tests and kills what they left running; the fresh one execs them', () => {
  const base = { workdir: '/repo', timeoutSec: 5, killAfterSec: 1 };
  const warm = driverScript({ ...base, warm: true });
  assert.match(warm, /timeout -k 1 5 "\$SH" "\$RUN_IN"; else/);
  assert.match(warm, /^kill -9 -1 2>\/dev\/null\nexit \$rc$/m);
  assert.doesNotMatch(warm, /exec timeout|cat <&3/);
  const fresh = driverScript({ ...base, watchdog: true });
  assert.match(fresh, /exec timeout -k 1 5/);
  assert.doesNotMatch(fresh, /kill -9 -1 2>\/dev\/null\nexit/);
});

test("the layer's change list: added paths are deleted, changed folders kept, a changed or deleted image file is dirty", () => {
  const w = { workdir: '/repo', baseline: new Set(['/.specweave', '/.specweave/run.sh']), dirs: new Set<string>() };
  const r = judgeChanges(
    [
      { Path: '/repo/x.pyc', Kind: 1 },
      { Path: '/.specweave', Kind: 0 },
      { Path: '/.specweave/warm/git/ORIG_HEAD', Kind: 1 },
      { Path: '/tmp', Kind: 0 },
      { Path: '/tmp/planted', Kind: 1 },
      { Path: '/home/runner', Kind: 0 },
      { Path: '/home/runner/.local', Kind: 1 },
      { Path: '/home/runner/.local/lib/x.pth', Kind: 1 },
    ],
    w,
  );
  assert.deepEqual(r, { remove: ['/tmp/planted', '/home/runner/.local'], dirs: ['/tmp', '/home/runner'] });
  assert.match(judgeChanges([{ Path: '/usr/lib/python3/dist-packages/six.py', Kind: 0 }], w).dirty ?? '', /six\.py \(a file of the image\) was changed/);
  assert.match(judgeChanges([{ Path: '/etc/hosts.allow', Kind: 2 }], w).dirty ?? '', /was deleted/);
});
