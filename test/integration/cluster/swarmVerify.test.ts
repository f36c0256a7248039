// `specweave verify --backend swarm` on the swarm of scripts/cluster-up.sh --swarm: the example dataset's
// total-command attempts run as swarm jobs on the workers (`--constraint node.role==worker`), each run record names
// the node, the verdicts are those of the same runs on the local engine, and no service or config of ours is left.
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Docker from 'dockerode';
import { copyExample } from '../repair/exampleCopy';
import type { RunLine } from '../verifyCli';
import { verifyCli } from '../verifyCli';
import { clusterScript } from './clusterKit';

const script = clusterScript('swj');
let sockets: string[] = [];

before(async () => {
  await script('cluster-down.sh');
  sockets = (await script('cluster-up.sh', '--nodes', '3', '--swarm')).trim().split('\n').map((l) => l.split(' ')[1] as string);
});

after(async () => {
  await script('cluster-down.sh');
});


const verify = verifyCli;

test('verify --backend swarm runs each attempt as a job on a worker, each record names the node, verdicts as on the local engine, nothing left', async () => {
  const manager = sockets[0] as string;
  const docker = new Docker({ socketPath: manager.replace(/^unix:\/\//, '') });
  const workers = ((await docker.listNodes()) as Array<{ ID: string; Spec: { Role: string }; Description: { Hostname: string } }>).filter((n) => n.Spec.Role === 'worker');
  const swarm = await verify([copyExample(), 'total-command', '--backend', 'swarm', '--host', manager, '--constraint', 'node.role==worker', '--concurrency', '3']);
  assert.equal(swarm.code === 0 || swarm.code === 1, true, swarm.stderr);
  assert.ok(swarm.runs.length >= 3, swarm.stderr);
  assert.ok(swarm.runs.every((r) => r.backend === 'swarm'), JSON.stringify(swarm.runs));
  const names = workers.map((w) => w.ID.slice(0, 8));
  assert.ok(
    swarm.runs.every((r) => / swarm node /.test(r.node) && names.some((id) => r.node.includes(id))),
    `every run on a worker: ${JSON.stringify(swarm.runs.map((r) => r.node))}`,
  );

  // Real verdicts, not the same failure twice: the gold patch resolves, the empty one does not.
  assert.ok(swarm.runs.every((r) => r.status !== 'infra_error'), JSON.stringify(swarm.runs));
  assert.ok(new Set(swarm.runs.map((r) => r.status)).size >= 2, JSON.stringify(swarm.runs.map((r) => r.status)));
  const local = await verify([copyExample(), 'total-command', '--backend', 'local']);
  const verdicts = (rs: RunLine[]) => rs.map((r) => [r.attemptId, r.status]).sort();
  assert.deepEqual(verdicts(swarm.runs), verdicts(local.runs));

  assert.deepEqual((await docker.listServices({ filters: { label: ['specweave.owned=true'] } })).map((s) => s.Spec?.Name), [], 'services left');
  assert.deepEqual((await docker.listConfigs({ filters: { label: ['specweave.owned=true'] } })).map((c) => c.Spec?.Name), [], 'configs left');
});

test('verify --backend swarm on an engine that is no swarm manager is a clear error naming it', async () => {
  const r = await verify([copyExample(), 'total-command', '--backend', 'swarm', '--host', sockets[1] as string]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /manager/);
  assert.equal(r.runs.length, 0);
});
