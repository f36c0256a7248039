// The engine pool (src/adapters/docker/enginePool.ts) against three real engines of scripts/cluster-up.sh: the base
// image checked on each and loaded from one local save where missing; jobs spread by free capacity, never more at
// once on an engine than its capacity; an engine killed (SIGKILL) under a running job: the job runs again on another
// engine, once, and every job of the batch is counted exactly once; the dead engine is out of the pool with the
// reason, and no later job goes to it. `specweave verify --backend pool` on the same engines: the example dataset's
// total-command attempts spread over the engines given with --host (each run record says which), the verdicts of the
// local engine, nothing of ours left on any engine. One cluster for all of these; the engine is killed last.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { Engine } from '../../../src/adapters/docker/engine';
import type { PoolJobContext } from '../../../src/adapters/docker/enginePool';
import { EnginePool, parsePoolMembers, PoolConfigError } from '../../../src/adapters/docker/enginePool';
import Docker from 'dockerode';
import { BASE_IMAGE } from '../../fixtures/verify/dataset';
import { copyExample } from '../repair/exampleCopy';
import { verifyCli } from '../verifyCli';
import { clusterScript, demux } from './clusterKit';
import { tmpDir } from '../../unit/helpers/tmp';

const NAME = 'swp';
const RUN_DIR = `/run/${NAME}-cluster`;
let sockets: string[] = [];
let pool: EnginePool;
const saveDir = tmpDir('sw-pool-save-');

const script = clusterScript(NAME);

before(async () => {
  await script('cluster-down.sh');
  // No image on the nodes: the pool brings it.
  const out = await script('cluster-up.sh', '--nodes', '3', '--no-image');
  sockets = out.trim().split('\n').map((l) => l.split(' ')[1] as string);
  pool = new EnginePool(parsePoolMembers([`${sockets[0]},capacity=2`, sockets[1] as string, sockets[2] as string], '--host'));
});

after(async () => {
  await script('cluster-down.sh');
});

/** One container run on the job's engine: create, start, wait; its exit code and output. */
async function containerJob(engine: Engine, cmd: string, onStarted?: () => void): Promise<{ exit: number; out: string }> {
  const docker = await engine.docker();
  const c = await docker.createContainer({ Image: BASE_IMAGE, Cmd: ['sh', '-c', cmd], Labels: { 'specweave.pool-test': '1' }, HostConfig: { NetworkMode: 'none', Memory: 128 * 1024 * 1024 } });
  try {
    await c.start();
    onStarted?.();
    const r = (await c.wait()) as { StatusCode: number };
    const logs = (await c.logs({ stdout: true, stderr: false })) as Buffer;
    return { exit: r.StatusCode, out: demux(logs).trim() };
  } finally {
    await c.remove({ force: true }).catch(() => undefined);
  }
}

test('addresses and capacities are read as given; a bad entry names its source and entry', () => {
  assert.deepEqual(parsePoolMembers(['unix:///a.sock,capacity=3', 'tcp://h:2376'], '--host'), [
    { host: 'unix:///a.sock', capacity: 3 },
    { host: 'tcp://h:2376', capacity: 1 },
  ]);
  assert.throws(() => parsePoolMembers(['/a.sock'], '--host'), (e: unknown) => e instanceof PoolConfigError && /--host entry 1 \("\/a\.sock"\): the address must start with unix:\/\//.test(e.message));
  assert.throws(() => parsePoolMembers(['unix:///a.sock,capacity=0'], 'the specweave.verifier.pool setting'), /setting entry 1 .*"capacity=0" is not capacity=N with N from 1 to 64/);
  assert.throws(() => parsePoolMembers(['unix:///a.sock', 'unix:///a.sock'], '--host'), /entry 2 .*listed twice/);
  assert.throws(() => parsePoolMembers([], '--host'), /at least one engine/);
});

test('the health check finds three engines; the image is loaded into each from one local save', async () => {
  const states = await pool.check();
  assert.deepEqual(states.map((s) => [s.name, s.address, s.capacity, s.healthy]), [
    ['node1', sockets[0], 2, true],
    ['node2', sockets[1], 1, true],
    ['node3', sockets[2], 1, true],
  ]);
  const logs: string[] = [];
  const withLog = new EnginePool(parsePoolMembers(sockets, '--host'), { log: (l) => logs.push(l) });
  await withLog.check();
  assert.deepEqual(await withLog.ensureImage(BASE_IMAGE, saveDir, new Engine()), { node1: 'loaded', node2: 'loaded', node3: 'loaded' });
  assert.equal(logs.filter((l) => l.startsWith('pool: saved')).length, 1, 'saved once for the three loads');
  const base = ((await new Engine().docker().then((d) => d.getImage(BASE_IMAGE).inspect())) as { Id: string }).Id.slice(7, 23);
  assert.deepEqual(fs.readdirSync(saveDir), [`specweave-base_bookworm-${base}.tar`], 'named by the image id');
  // Checked again: present everywhere, nothing loaded.
  assert.deepEqual(await pool.ensureImage(BASE_IMAGE, saveDir), { node1: 'present', node2: 'present', node3: 'present' });
});

test('jobs spread by free capacity and never exceed an engine capacity', async () => {
  const now = new Map<string, number>();
  const peak = new Map<string, number>();
  const job = async (engine: Engine, ctx: PoolJobContext) => {
    now.set(ctx.node, (now.get(ctx.node) ?? 0) + 1);
    peak.set(ctx.node, Math.max(peak.get(ctx.node) ?? 0, now.get(ctx.node) as number));
    try {
      return await containerJob(engine, 'echo ran');
    } finally {
      now.set(ctx.node, (now.get(ctx.node) ?? 0) - 1);
    }
  };
  const results = await Promise.all(Array.from({ length: 8 }, () => pool.run(job)));
  assert.ok(results.every((r) => r.value.exit === 0 && r.value.out === 'ran' && !r.movedFrom));
  // The first four jobs fill node1's two slots and one each of node2 and node3.
  assert.deepEqual([...new Set(results.map((r) => r.node))].sort(), ['node1', 'node2', 'node3']);
  assert.ok((peak.get('node1') ?? 0) <= 2 && (peak.get('node2') ?? 0) <= 1 && (peak.get('node3') ?? 0) <= 1, JSON.stringify([...peak]));
  assert.equal(pool.state().reduce((n, s) => n + s.done, 0), 8);
  assert.ok(pool.state().every((s) => s.running === 0));
});

test('verify --backend pool spreads the runs over the engines given with --host, each record says where, verdicts as on the local engine', async () => {
  // What a crashed earlier batch left on the second and third engines (its process is gone): swept before the runs.
  const dead = 2 ** 22 + 17; // above the kernel's pid range: no process has it
  await pool.ensureImage(BASE_IMAGE, saveDir, new Engine());
  const left: string[] = [];
  for (const s of sockets.slice(1)) {
    const docker = new Docker({ socketPath: s.replace(/^unix:\/\//, '') });
    const c = await docker.createContainer({ Image: BASE_IMAGE, Cmd: ['true'], Labels: { 'specweave.owned': '1', 'specweave.pid': String(dead), 'specweave.host': os.hostname(), 'specweave.created': String(Date.now()) } });
    left.push(c.id);
  }
  const root = copyExample();
  const batch = await verifyCli([root, 'total-command', '--backend', 'pool', '--host', sockets[0] as string, '--host', sockets[1] as string, '--host', sockets[2] as string, '--concurrency', '3']);
  assert.equal(batch.code === 0 || batch.code === 1, true, batch.stderr);
  assert.ok(batch.runs.length >= 3, batch.stderr);
  assert.ok(batch.runs.every((r) => r.backend === 'pool'), JSON.stringify(batch.runs));
  const names = sockets.map((s, i) => `node${i + 1} ${s}`);
  assert.ok(batch.runs.every((r) => names.includes(r.node)), JSON.stringify(batch.runs.map((r) => r.node)));
  assert.ok(new Set(batch.runs.map((r) => r.node)).size >= 2, 'the runs went to more than one engine');

  // Real verdicts, not the same failure twice: the gold patch resolves, the empty one does not.
  assert.ok(batch.runs.every((r) => r.status !== 'infra_error'), JSON.stringify(batch.runs));
  assert.ok(new Set(batch.runs.map((r) => r.status)).size >= 2, JSON.stringify(batch.runs.map((r) => r.status)));
  // The same runs on one engine with the local backend: node1's, so that the cluster files never touch the host's
  // engine (they run beside the other integration files, scripts/test-integration.sh).
  const local = await verifyCli([copyExample(), 'total-command', '--backend', 'local', '--host', sockets[0] as string]);
  const verdicts = (rs: typeof batch.runs) => rs.map((r) => [r.attemptId, r.status]).sort();
  assert.deepEqual(verdicts(batch.runs), verdicts(local.runs));
  assert.ok(local.runs.every((r) => r.backend === 'local'));

  for (const s of sockets) {
    const remaining = await new Docker({ socketPath: s.replace(/^unix:\/\//, '') }).listContainers({ all: true, filters: { label: ['specweave.owned'] } });
    assert.deepEqual(remaining.map((c) => c.Id), [], `containers left on ${s} (the crashed batch's: ${left.join(', ')})`);
  }
});

test('verify --backend pool with an engine that does not answer: the others take the runs; none answering is a clear error', async () => {
  const root = copyExample();
  const r = await verifyCli([root, 'total-command', '--backend', 'pool', '--host', sockets[0] as string, '--host', `unix://${RUN_DIR}/nothing.sock`]);
  assert.ok(r.runs.length >= 3, r.stderr);
  assert.ok(r.runs.every((x) => x.node === `node1 ${sockets[0]}`));
  const none = await verifyCli([root, 'total-command', '--backend', 'pool', '--host', `unix://${RUN_DIR}/nothing.sock`]);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /nothing\.sock/);
});

test('an engine killed under a running job: the job runs again elsewhere once, every job is counted once, the engine is out', async () => {
  const doneBefore = pool.state().reduce((n, s) => n + s.done, 0);
  let killed!: () => void;
  const wasKilled = new Promise<void>((r) => (killed = r));
  const tries: Array<[number, string, number]> = [];
  const job = (id: number) => async (engine: Engine, ctx: PoolJobContext) => {
    tries.push([id, ctx.node, ctx.attempt]);
    // Job 0's first try sleeps on node2 until its engine is killed under it; every other try is quick.
    if (ctx.node === 'node2' && ctx.attempt === 1) {
      return containerJob(engine, 'sleep 20; echo late', () => {
        const pid = Number(fs.readFileSync(path.join(RUN_DIR, 'n2.pid'), 'utf8'));
        process.kill(pid, 'SIGKILL');
        killed();
      });
    }
    return containerJob(engine, `echo job ${id}`);
  };
  // Fill every slot: node1 takes two jobs, node2 one (it is killed under it), node3 one; two more queue.
  const results = await Promise.all(Array.from({ length: 6 }, (_, i) => pool.run(job(i))));
  await wasKilled;
  const moved = results.filter((r) => r.movedFrom);
  assert.equal(moved.length, 1, JSON.stringify(results.map((r) => [r.node, r.movedFrom])));
  assert.equal(moved[0]?.movedFrom?.node, 'node2');
  assert.match(moved[0]?.movedFrom?.reason ?? '', /the engine died under the job/);
  assert.notEqual(moved[0]?.node, 'node2');
  // Each job's result once, each from a finished try; none came from node2.
  assert.deepEqual(results.map((r) => r.value.out), [0, 1, 2, 3, 4, 5].map((i) => `job ${i}`));
  assert.ok(results.every((r) => r.node !== 'node2'));
  assert.equal(tries.filter(([, node]) => node === 'node2').length, 1, 'one try went to node2, none after it died');
  const states = pool.state();
  assert.equal(states.reduce((n, s) => n + s.done, 0) - doneBefore, 6, 'six jobs, six counted');
  const n2 = states.find((s) => s.name === 'node2');
  assert.equal(n2?.healthy, false);
  assert.match(n2?.problem ?? '', /the engine died under the job/);
  // A later job goes to the others; the health check keeps node2 out while it is down.
  assert.notEqual((await pool.run(job(6))).node, 'node2');
  assert.equal((await pool.check()).find((s) => s.name === 'node2')?.healthy, false);
});
