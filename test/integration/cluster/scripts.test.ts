// scripts/cluster-up.sh and cluster-down.sh, the three-node setup of the pool and Swarm backends (docs/cluster.md):
// three real `dockerd`, each in a network namespace of its own with its own data, exec-root and socket, joined by a
// bridge in a hub namespace; a real swarm of the three. What a backend relies on is checked: the engines are
// separate (a container on one is not on another), each has the base image, the swarm has three ready nodes, a
// `replicated-job` service runs with no network but loopback and its output comes back in the service's logs; and
// cluster-down leaves no engine, namespace, mount or folder behind.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import Docker from 'dockerode';
import { BASE_IMAGE } from '../../fixtures/verify/dataset';
import { clusterScript, demux } from './clusterKit';

const run = promisify(execFile);
const NAME = 'swt';
const RUN_DIR = `/run/${NAME}-cluster`;
let nodes: Array<{ name: string; socket: string; address: string; docker: Docker }> = [];
let upOutput = '';

const script = clusterScript(NAME);

before(async () => {
  // A cluster left by an interrupted run of this test goes first.
  await script('cluster-down.sh');
  upOutput = await script('cluster-up.sh', '--nodes', '3', '--swarm');
  nodes = upOutput
    .trim()
    .split('\n')
    .map((line) => {
      const [name, address, ip] = line.split(' ') as [string, string, string];
      const socket = address.replace(/^unix:\/\//, '');
      return { name, socket, address: ip, docker: new Docker({ socketPath: socket }) };
    });
});

after(async () => {
  await script('cluster-down.sh');
});

test('three engines answer on their own sockets, each with its own data and the base image', async () => {
  assert.deepEqual(
    nodes.map((n) => [n.name, n.address]),
    [
      ['node1', '10.231.0.11'],
      ['node2', '10.231.0.12'],
      ['node3', '10.231.0.13'],
    ],
  );
  assert.equal(fs.readFileSync(path.join(RUN_DIR, 'nodes'), 'utf8'), upOutput);
  // (The engines share /etc/docker/key.json, so `info().ID` is the same on all three; the data folder tells them apart.)
  const infos = await Promise.all(nodes.map((n) => n.docker.info() as Promise<{ DockerRootDir: string }>));
  assert.deepEqual(
    infos.map((i) => i.DockerRootDir),
    ['/var/lib/swt-cluster/n1', '/var/lib/swt-cluster/n2', '/var/lib/swt-cluster/n3'],
  );
  for (const n of nodes) await n.docker.getImage(BASE_IMAGE).inspect();
  // Separate engines: a container made on node1 is not on node2.
  const c = await nodes[0]!.docker.createContainer({ Image: BASE_IMAGE, Cmd: ['true'], Labels: { 'specweave.cluster-test': '1' }, HostConfig: { NetworkMode: 'none' } });
  try {
    const on = async (d: Docker) => (await d.listContainers({ all: true, filters: { label: ['specweave.cluster-test'] } })).map((x) => x.Id);
    assert.deepEqual(await on(nodes[0]!.docker), [c.id]);
    assert.deepEqual(await on(nodes[1]!.docker), []);
  } finally {
    await c.remove({ force: true });
  }
});

test('the swarm has three ready nodes, and a replicated-job service runs with loopback only, its output in its logs', async () => {
  const manager = nodes[0]!.docker;
  const list = (await manager.listNodes()) as Array<{ Status: { State: string; Addr: string }; Spec: { Role: string } }>;
  assert.deepEqual(list.map((n) => [n.Status.State, n.Status.Addr, n.Spec.Role]).sort(), [
    ['ready', '10.231.0.11', 'manager'],
    ['ready', '10.231.0.12', 'worker'],
    ['ready', '10.231.0.13', 'worker'],
  ]);
  // Placed on a worker, so the manager's scheduling and the worker's engine both take part. The logs are followed
  // until the job's last line: what the test asserts is waited for, not a time.
  const worker = nodes[1]!.docker;
  const workerId = ((await worker.info()) as { Swarm: { NodeID: string } }).Swarm.NodeID;
  const service = await manager.createService({
    Name: 'swt-job',
    Mode: { ReplicatedJob: { MaxConcurrent: 1, TotalCompletions: 1 } },
    TaskTemplate: {
      ContainerSpec: { Image: BASE_IMAGE, Command: ['sh', '-c', 'echo "job on $(cat /etc/hostname)"; tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " "; echo END'] },
      Resources: { Limits: { MemoryBytes: 256 * 1024 * 1024, NanoCPUs: 500_000_000 } },
      RestartPolicy: { Condition: 'none' },
      Placement: { Constraints: [`node.id==${workerId}`] },
    },
  } as unknown as Docker.CreateServiceOptions);
  try {
    const stream = (await manager.getService(service.id).logs({ stdout: true, stderr: true, follow: true })) as unknown as NodeJS.ReadableStream & { destroy(): void };
    const text = await new Promise<string>((resolve, reject) => {
      let buf = Buffer.alloc(0);
      stream.on('data', (chunk: Buffer) => {
        buf = Buffer.concat([buf, chunk]);
        const t = demux(buf);
        if (/^END$/m.test(t)) resolve(t);
      });
      stream.on('error', reject);
      stream.on('end', () => reject(new Error(`the logs ended before END: ${JSON.stringify(demux(buf))}`)));
    }).finally(() => stream.destroy());
    assert.match(text, /^job on [0-9a-f]{12}$/m);
    assert.deepEqual(
      text.split('\n').filter((l) => l !== '' && !l.startsWith('job on') && l !== 'END'),
      ['lo'],
      'no network interface but loopback',
    );
    const tasks = (await manager.listTasks({ filters: { service: [service.id] } })) as Array<{ NodeID: string }>;
    assert.deepEqual(tasks.map((t) => t.NodeID), [workerId], 'it ran where it was placed');
  } finally {
    await manager.getService(service.id).remove();
  }
});

test('cluster-down leaves no engine, namespace or folder behind, and the host engine is untouched', async () => {
  const hostBefore = (await new Docker().info()) as { ID: string };
  await script('cluster-down.sh');
  const { stdout } = await run('ip', ['netns', 'list']);
  assert.deepEqual(stdout.split('\n').filter((l) => l.startsWith(`${NAME}-`)), []);
  assert.equal(fs.existsSync(RUN_DIR), false);
  assert.equal(fs.existsSync(`/var/lib/${NAME}-cluster`), false);
  assert.equal(fs.readFileSync('/proc/self/mounts', 'utf8').includes(`${NAME}-cluster`), false);
  for (const n of nodes) await assert.rejects(n.docker.ping(), `${n.name} still answers`);
  assert.equal(((await new Docker().info()) as { ID: string }).ID, hostBefore.ID);
});
