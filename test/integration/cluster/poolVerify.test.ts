// `specweave verify --backend pool` on the three engines of scripts/cluster-up.sh: the example dataset's
// total-command attempts run spread over the engines given with --host (each run record says which), with the same
// verdicts as the same runs on the local engine; nothing of ours is left on any engine.
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as os from 'node:os';
import Docker from 'dockerode';
import { BASE_IMAGE } from '../../fixtures/verify/dataset';
import { copyExample } from '../repair/exampleCopy';
import { verifyCli } from '../verifyCli';
import { clusterScript } from './clusterKit';

const script = clusterScript('swv');
let sockets: string[] = [];

before(async () => {
  await script('cluster-down.sh');
  sockets = (await script('cluster-up.sh', '--nodes', '3')).trim().split('\n').map((l) => l.split(' ')[1] as string);
});

after(async () => {
  await script('cluster-down.sh');
});

const verify = verifyCli;

test('verify --backend pool spreads the runs over the engines given with --host, each record says where, verdicts as on the local engine', async () => {
  // What a crashed earlier batch left on the second and third engines (its process is gone): swept before the runs.
  const dead = 2 ** 22 + 17; // above the kernel's pid range: no process has it
  const left: string[] = [];
  for (const s of sockets.slice(1)) {
    const docker = new Docker({ socketPath: s.replace(/^unix:\/\//, '') });
    const c = await docker.createContainer({ Image: BASE_IMAGE, Cmd: ['true'], Labels: { 'specweave.owned': '1', 'specweave.pid': String(dead), 'specweave.host': os.hostname(), 'specweave.created': String(Date.now()) } });
    left.push(c.id);
  }
  const root = copyExample();
  const pool = await verify([root, 'total-command', '--backend', 'pool', '--host', sockets[0] as string, '--host', sockets[1] as string, '--host', sockets[2] as string, '--concurrency', '3']);
  assert.equal(pool.code === 0 || pool.code === 1, true, pool.stderr);
  assert.ok(pool.runs.length >= 3, pool.stderr);
  assert.ok(pool.runs.every((r) => r.backend === 'pool'), JSON.stringify(pool.runs));
  const names = sockets.map((s, i) => `node${i + 1} ${s}`);
  assert.ok(pool.runs.every((r) => names.includes(r.node)), JSON.stringify(pool.runs.map((r) => r.node)));
  assert.ok(new Set(pool.runs.map((r) => r.node)).size >= 2, 'the runs went to more than one engine');

  // Real verdicts, not the same failure twice: the gold patch resolves, the empty one does not.
  assert.ok(pool.runs.every((r) => r.status !== 'infra_error'), JSON.stringify(pool.runs));
  assert.ok(new Set(pool.runs.map((r) => r.status)).size >= 2, JSON.stringify(pool.runs.map((r) => r.status)));
  const local = await verify([copyExample(), 'total-command', '--backend', 'local']);
  const verdicts = (rs: typeof pool.runs) => rs.map((r) => [r.attemptId, r.status]).sort();
  assert.deepEqual(verdicts(pool.runs), verdicts(local.runs));
  assert.ok(local.runs.every((r) => r.backend === 'local'));

  for (const s of sockets) {
    const remaining = await new Docker({ socketPath: s.replace(/^unix:\/\//, '') }).listContainers({ all: true, filters: { label: ['specweave.owned'] } });
    assert.deepEqual(remaining.map((c) => c.Id), [], `containers left on ${s} (the crashed batch's: ${left.join(', ')})`);
  }
});

test('verify --backend pool with an engine that does not answer: the others take the runs; none answering is a clear error', async () => {
  const root = copyExample();
  const r = await verify([root, 'total-command', '--backend', 'pool', '--host', sockets[0] as string, '--host', 'unix:///run/swv-cluster/nothing.sock']);
  assert.ok(r.runs.length >= 3, r.stderr);
  assert.ok(r.runs.every((x) => x.node === `node1 ${sockets[0]}`));
  const none = await verify([root, 'total-command', '--backend', 'pool', '--host', 'unix:///run/swv-cluster/nothing.sock']);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /nothing\.sock/);
});
