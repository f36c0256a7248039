// Backends and warm mode without an engine: the backend choice and its refusals, where a stored run ran (records
// older than backends included), the warm driver, and what the layer's change list says about a run.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { driverScript } from '../../../src/adapters/docker/driver';
import type { ListedEntry } from '../../../src/adapters/docker/warm';
import { judgeListing, parseListing, topMost } from '../../../src/adapters/docker/warm';
import { listRuns, saveRun } from '../../../src/adapters/fs/runStore';
import { parseArgs } from '../../../src/cli/args';
import { executionFlags, executionOptions } from '../../../src/cli/containerRun';
import { parseBackend, runPlace } from '../../../src/core/verify/backend';
import type { VerifierRunRecord } from '../../../src/core/verify/runResult';

test('the four backends parse; an unknown one is refused naming the setting or flag; --host reads as the backend needs', () => {
  assert.deepEqual(parseBackend(undefined, 'specweave.verifier.backend'), { ok: true, backend: 'local' });
  assert.deepEqual(parseBackend('local', '--backend'), { ok: true, backend: 'local' });
  assert.deepEqual(parseBackend('pool', '--backend'), { ok: true, backend: 'pool' });
  assert.deepEqual(parseBackend('swarm', '--backend'), { ok: true, backend: 'swarm' });
  assert.deepEqual(parseBackend('kubernetes', 'specweave.verifier.backend'), { ok: true, backend: 'kubernetes' });
  assert.match((parseBackend('mesos', '--backend') as { message: string }).message, /^--backend: unknown backend "mesos"; one of local, pool, swarm, kubernetes/);
  const flags = { ...executionFlags };
  assert.deepEqual(executionOptions(parseArgs(['--backend', 'local', '--warm'], flags)), { backend: 'local', warm: true, engine: {} });
  assert.deepEqual(executionOptions(parseArgs(['--host', 'unix:///a.sock'], flags)), { backend: 'local', warm: false, engine: { host: 'unix:///a.sock' } });
  // Kubernetes: the namespace checked; no warm containers; solver trials stay local; --host still names the image engine.
  assert.deepEqual(executionOptions(parseArgs(['--backend', 'kubernetes', '--namespace', 'audits'], flags)), { backend: 'kubernetes', warm: false, engine: {}, namespace: 'audits' });
  assert.throws(() => executionOptions(parseArgs(['--backend', 'kubernetes', '--namespace', 'Audits_1'], flags)), /--namespace "Audits_1": a namespace is a DNS label/);
  assert.throws(() => executionOptions(parseArgs(['--backend', 'kubernetes', '--warm'], flags)), /--warm: warm containers are for the local and pool backends; a Kubernetes run/);
  assert.throws(() => executionOptions(parseArgs(['--namespace', 'audits'], flags)), /--namespace is for --backend kubernetes/);
  assert.throws(() => executionOptions(parseArgs(['--backend', 'kubernetes'], flags), { pool: false, command: 'specweave solve' }), /--backend kubernetes: specweave solve runs on one engine/);
  // The pool: one --host per engine, with its capacity; a bad entry or no engine is a usage error naming --host.
  assert.deepEqual(executionOptions(parseArgs(['--backend', 'pool', '--host', 'unix:///a.sock,capacity=2', '--host', 'tcp://h:2376'], flags)), {
    backend: 'pool',
    warm: false,
    engine: {},
    pool: [
      { host: 'unix:///a.sock', capacity: 2 },
      { host: 'tcp://h:2376', capacity: 1 },
    ],
  });
  assert.throws(() => executionOptions(parseArgs(['--backend', 'pool'], flags)), /--host: a pool needs at least one engine address/);
  assert.throws(() => executionOptions(parseArgs(['--backend', 'pool', '--host', 'a.sock'], flags)), /--host entry 1 \("a\.sock"\): the address must start with unix:\/\//);
  assert.throws(() => executionOptions(parseArgs(['--host', 'unix:///a', '--host', 'unix:///b'], flags)), /--host is given 2 times; several engines need --backend pool/);
  assert.throws(() => executionOptions(parseArgs(['--backend', 'pool', '--host', 'unix:///a'], flags), { pool: false, command: 'specweave solve' }), /--backend pool: specweave solve runs on one engine/);
  // The swarm: its manager from --host, placement constraints checked; no warm containers; solver trials stay local.
  assert.deepEqual(executionOptions(parseArgs(['--backend', 'swarm', '--host', 'unix:///m.sock', '--constraint', 'node.role==worker'], flags)), {
    backend: 'swarm',
    warm: false,
    engine: { host: 'unix:///m.sock' },
    swarmConstraints: ['node.role==worker'],
  });
  assert.throws(() => executionOptions(parseArgs(['--backend', 'swarm', '--warm'], flags)), /--warm: warm containers are for the local and pool backends/);
  assert.throws(() => executionOptions(parseArgs(['--backend', 'swarm', '--constraint', 'role worker'], flags)), /--constraint "role worker": a placement constraint reads KEY==VALUE/);
  assert.throws(() => executionOptions(parseArgs(['--constraint', 'node.role==worker'], flags)), /--constraint is for --backend swarm/);
  assert.throws(() => executionOptions(parseArgs(['--backend', 'swarm'], flags), { pool: false, command: 'specweave solve' }), /--backend swarm: specweave solve runs on one engine/);
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

test('the listing of the places a run can change: added paths are deleted, a changed or gone entry is dirty', () => {
  const e = (type: string, mtime = '1.0', ctime = '1.0', size = '4096'): ListedEntry => ({ type, mode: '1777', uid: '0', gid: '0', size, mtime, ctime });
  const listing = (entries: Record<string, ListedEntry>) =>
    parseListing(`noise\n@@SPECWEAVE warm-list\n${Object.entries(entries).map(([p, x]) => `${x.type} ${x.mode} ${x.uid} ${x.gid} ${x.size} ${x.mtime} ${x.ctime} ${p}\0`).join('')}`) as Map<string, ListedEntry>;
  const base = listing({ '/tmp': e('d'), '/home/runner': e('d'), '/home/runner/.bashrc': e('f', '2.0', '2.0', '220'), '/tmp/a b': e('f') });
  assert.equal(base.size, 4);
  assert.ok(base.has('/tmp/a b'), 'a path with a space');
  const after = listing({
    '/tmp': e('d', '9.0', '9.0'),
    '/tmp/a b': e('f'),
    '/tmp/planted': e('f', '9.0', '9.0'),
    '/home/runner': e('d', '9.0', '9.0'),
    '/home/runner/.bashrc': e('f', '2.0', '2.0', '220'),
    '/home/runner/.local': e('d', '9.0', '9.0'),
    '/home/runner/.local/lib/x.pth': e('f', '9.0', '9.0'),
  });
  assert.deepEqual(judgeListing(base, after), { added: ['/tmp/planted', '/home/runner/.local'] });
  // An edit put back to the same bytes and mtime still moved the ctime.
  const edited = new Map(base).set('/home/runner/.bashrc', e('f', '2.0', '9.0', '220'));
  assert.match(judgeListing(base, edited).dirty ?? '', /\.bashrc was changed/);
  const gone = new Map(base);
  gone.delete('/tmp/a b');
  assert.match(judgeListing(base, gone).dirty ?? '', /a b is gone/);
  assert.deepEqual(topMost(['/tmp', '/tmp/x', '/home/runner', '/home/runner/.cache', '/var/tmp']), ['/tmp', '/home/runner', '/var/tmp']);
});
