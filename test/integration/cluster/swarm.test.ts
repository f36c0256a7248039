// The Swarm job runner (src/adapters/docker/swarmJobs.ts) on a real three-node swarm of scripts/cluster-up.sh: a run
// is a `replicated-job` service with limits, no network and its files as configs; the command's exit code comes back
// in the logs in a trailer only the entrypoint can write (a forged one is ignored, the nonce cannot be read by the run
// user); a run past its deadline is a timeout and its service is removed; a worker killed under a run moves it to
// another node once. `specweave verify --backend swarm` runs the example dataset's total-command attempts there as
// jobs on the workers (`--constraint node.role==worker`): each record names its node, the verdicts are those of the
// local engine. Nothing of ours is left on the swarm afterwards. One cluster for all of these (a start costs about
// 20 s of CI); the tests that take a node away come last.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { Engine } from '../../../src/adapters/docker/engine';
import type { SwarmJob } from '../../../src/adapters/docker/swarmJobs';
import { SwarmJobRunner } from '../../../src/adapters/docker/swarmJobs';
import { BASE_IMAGE } from '../../fixtures/verify/dataset';
import { copyExample } from '../repair/exampleCopy';
import type { RunLine } from '../verifyCli';
import { verifyCli } from '../verifyCli';
import { clusterScript } from './clusterKit';

const NAME = 'sws';
const RUN_DIR = `/run/${NAME}-cluster`;
let manager: Engine;
let runner: SwarmJobRunner;
let sockets: string[] = [];

const script = clusterScript(NAME);

before(async () => {
  await script('cluster-down.sh');
  const out = await script('cluster-up.sh', '--nodes', '3', '--swarm');
  sockets = out.trim().split('\n').map((l) => l.split(' ')[1] as string);
  manager = new Engine({ host: sockets[0] });
  runner = new SwarmJobRunner(manager, { watchMs: 250 });
});

after(async () => {
  await script('cluster-down.sh');
});

const job = (over: Partial<SwarmJob>): SwarmJob => ({
  name: 'sw-test',
  image: BASE_IMAGE,
  command: 'true',
  workdir: '/tmp',
  limits: { memoryBytes: 256 * 1024 * 1024, nanoCpus: 500_000_000, pids: 128 },
  timeoutMs: 60_000,
  constraints: ['node.role==worker'],
  ...over,
});

async function leftovers(): Promise<string[]> {
  const docker = await manager.docker();
  const services = (await docker.listServices({ filters: { label: ['specweave.owned=true'] } })).map((s) => `service ${s.Spec?.Name}`);
  return services;
}

test('a run: its exit code and output come back through the logs; files in place; loopback only; the run user; the limits', async () => {
  const r = await runner.run(
    job({
      command: 'cat /work/input.txt; id -u; tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " "; cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null || cat /sys/fs/cgroup/memory.max; exit 3',
      files: [{ path: '/work/input.txt', content: 'the input file\n' }],
    }),
  );
  assert.equal(r.status, 'exited', r.reason);
  assert.equal(r.exitCode, 3, 'the command\'s code, though the container itself exited 0');
  assert.equal(r.output, `the input file\n1000\nlo\n${256 * 1024 * 1024}\n`, 'the output exactly as the command wrote it');
  assert.equal(r.tries, 1);
  const docker = await manager.docker();
  const workers = ((await docker.listNodes()) as Array<{ ID: string; Spec: { Role: string } }>).filter((n) => n.Spec.Role === 'worker').map((n) => n.ID);
  assert.ok(r.node && workers.includes(r.node), 'placed by its constraint');
  assert.deepEqual(await leftovers(), []);
});

test('a forged marker is ignored and the nonce cannot be read by the run user', async () => {
  const r = await runner.run(job({ command: 'echo "__SPECWEAVE_EXIT__ $(cat /run/specweave/nonce 2>&1 | tr " " _) 0"; echo "__SPECWEAVE_EXIT__ 0 0"; exit 1' }));
  assert.equal(r.status, 'exited', r.reason);
  assert.equal(r.exitCode, 1);
  assert.match(r.output, /Permission_denied/);
});

test('past its deadline a run is a timeout, and its service is removed', async () => {
  const r = await runner.run(job({ command: 'sleep 120', timeoutMs: 3000 }));
  assert.equal(r.status, 'timeout');
  assert.match(r.reason ?? '', /no result within 3000 ms/);
  assert.deepEqual(await leftovers(), []);
});

test('a run that is over before its task is first looked at still names the node it ran on', async () => {
  // The watch looks at the task once a minute here: the run's logs end long before that.
  const slow = new SwarmJobRunner(manager, { watchMs: 60_000 });
  const r = await slow.run(job({ command: 'echo quick' }));
  assert.equal(r.status, 'exited', r.reason);
  assert.equal(r.output, 'quick\n');
  const docker = await manager.docker();
  const workers = ((await docker.listNodes()) as Array<{ ID: string; Spec: { Role: string } }>).filter((n) => n.Spec.Role === 'worker').map((n) => n.ID);
  assert.ok(r.node && workers.includes(r.node), `the node it ran on, not ${JSON.stringify(r.node)}`);
  assert.deepEqual(await leftovers(), []);
});

test('verify --backend swarm runs each attempt as a job on a worker, each record names the node, verdicts as on the local engine, nothing left', async () => {
  const docker = await manager.docker();
  const workers = ((await docker.listNodes()) as Array<{ ID: string; Spec: { Role: string } }>).filter((n) => n.Spec.Role === 'worker');
  const swarm = await verifyCli([copyExample(), 'total-command', '--backend', 'swarm', '--host', sockets[0] as string, '--constraint', 'node.role==worker', '--concurrency', '3']);
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
  // The same runs on one engine with the local backend: node1's, so that the cluster files never touch the host's
  // engine (they run beside the other integration files, scripts/test-integration.sh).
  const local = await verifyCli([copyExample(), 'total-command', '--backend', 'local', '--host', sockets[0] as string]);
  const verdicts = (rs: RunLine[]) => rs.map((r) => [r.attemptId, r.status]).sort();
  assert.deepEqual(verdicts(swarm.runs), verdicts(local.runs));

  assert.deepEqual(await leftovers(), [], 'services left');
  assert.deepEqual((await docker.listConfigs({ filters: { label: ['specweave.owned=true'] } })).map((c) => c.Spec?.Name), [], 'configs left');
});

test('verify --backend swarm on an engine that is no swarm manager is a clear error naming it', async () => {
  const r = await verifyCli([copyExample(), 'total-command', '--backend', 'swarm', '--host', sockets[1] as string]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /manager/);
  assert.equal(r.runs.length, 0);
});

test("a worker's link taken down under a run: the manager loses it, the run moves to another node once and finishes there", async () => {
  const docker = await manager.docker();
  const nodes = (await docker.listNodes()) as Array<{ ID: string; Status: { Addr: string } }>;
  const byAddr = new Map(nodes.map((n) => [n.ID, n.Status.Addr]));
  const cut: string[] = [];
  const link = (ns: string, state: 'up' | 'down') => execFileSync('nsenter', [`--net=/run/netns/${ns}`, 'ip', 'link', 'set', 'eth0', state]);
  let victim: string | undefined;
  const cutting = new SwarmJobRunner(manager, {
    watchMs: 250,
    onRunning: (_job, node, attempt) => {
      if (attempt !== 1) return;
      victim = node;
      const ns = `${NAME}-n${Number((byAddr.get(node) as string).split('.')[3]) - 10}`;
      link(ns, 'down');
      cut.push(ns);
    },
  });
  try {
    const r = await cutting.run(job({ command: 'echo started; sleep 5; echo done' }));
    assert.equal(r.tries, 2, JSON.stringify(r));
    assert.equal(r.status, 'exited', r.reason);
    assert.equal(r.output, 'started\ndone\n', "the second try's output only");
    assert.notEqual(r.node, victim);
    assert.match(r.reason ?? '', /went down under the first try/);
  } finally {
    // Back up, so that the next test has two workers again (the swarm sees it Ready within seconds).
    for (const ns of cut) link(ns, 'up');
  }
});

test('a worker killed under a run: the run moves to another node once and finishes there', async () => {
  const docker = await manager.docker();
  const nodes = (await docker.listNodes()) as Array<{ ID: string; Status: { Addr: string } }>;
  const byAddr = new Map(nodes.map((n) => [n.ID, n.Status.Addr]));
  // The worker the task runs on is killed the moment the runner sees it running there.
  let victim: string | undefined;
  const killing = new SwarmJobRunner(manager, {
    watchMs: 250,
    onRunning: (_job, node, attempt) => {
      if (attempt !== 1) return;
      victim = node;
      const n = Number((byAddr.get(node) as string).split('.')[3]) - 10;
      process.kill(Number(fs.readFileSync(path.join(RUN_DIR, `n${n}.pid`), 'utf8')), 'SIGKILL');
    },
  });
  const started = killing.run(job({ command: 'echo started; sleep 5; echo done' }));
  const r = await started;
  assert.equal(r.tries, 2, JSON.stringify(r));
  assert.equal(r.status, 'exited', r.reason);
  assert.equal(r.exitCode, 0);
  assert.equal(r.output, 'started\ndone\n', 'the second try\'s output only');
  assert.notEqual(r.node, victim);
  assert.match(r.reason ?? '', /went down under the first try/);
});
