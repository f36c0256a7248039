// Issue 15's scheduling figures, side by side in one run on the machine's own three-node setup
// (scripts/cluster-up.sh --swarm, started and removed by this bench):
//   - the cost per run of a quick container (`echo ok`) run directly on the host's engine, through the engine pool
//     (EnginePool over the three node engines) and as a Swarm job (SwarmJobRunner), one at a time: the pool's and
//     Swarm's overhead against the local run;
//   - throughput of the pool with one node against three, 12 runs at a capacity of 2 per node. On two cores the
//     three "nodes" share the same CPUs, so this measures the pool's scheduling and the engines' parallelism, not
//     more hardware.
// Rounds alternate the modes (ABCCBA) so that a load change hits all of them alike.
//   sudo node --import tsx bench/cluster.bench.ts [--runs 6] [--rounds 2]
import { execFileSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../src/adapters/docker/engine';
import { EnginePool, parsePoolMembers } from '../src/adapters/docker/enginePool';
import { SwarmJobRunner } from '../src/adapters/docker/swarmJobs';

const IMAGE = 'specweave-base:bookworm';
const NAME = 'swb';
const arg = (k: string, d: number) => {
  const i = process.argv.indexOf(`--${k}`);
  return i > 0 ? Number(process.argv[i + 1]) : d;
};
const RUNS = arg('runs', 6);
const ROUNDS = arg('rounds', 2);
const ROOT = path.resolve(__dirname, '..');
const script = (name: string, ...a: string[]) => execFileSync('bash', [path.join(ROOT, 'scripts', name), '--name', NAME, ...a], { encoding: 'utf8' });

async function containerRun(engine: Engine): Promise<void> {
  const docker = await engine.docker();
  const c = await docker.createContainer({ Image: IMAGE, Cmd: ['sh', '-c', 'echo ok'], HostConfig: { NetworkMode: 'none', Memory: 128 * 1024 * 1024 } });
  try {
    await c.start();
    await c.wait();
  } finally {
    await c.remove({ force: true });
  }
}

async function timeEach(n: number, one: () => Promise<void>): Promise<number> {
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await one();
  return Number(process.hrtime.bigint() - t) / 1e6 / n;
}

async function main(): Promise<void> {
  script('cluster-down.sh');
  const sockets = script('cluster-up.sh', '--nodes', '3', '--swarm').trim().split('\n').map((l) => l.split(' ')[1] as string);
  try {
    const local = new Engine();
    const pool3 = new EnginePool(parsePoolMembers(sockets.map((s) => `${s},capacity=2`), 'bench'));
    const pool1 = new EnginePool(parsePoolMembers([`${sockets[0]},capacity=2`], 'bench'));
    await pool3.check();
    await pool1.check();
    const swarm = new SwarmJobRunner(new Engine({ host: sockets[0] }), { watchMs: 200 });
    const swarmRun = async () => {
      const r = await swarm.run({ name: 'bench', image: IMAGE, command: 'echo ok', workdir: '/tmp', limits: { memoryBytes: 128 * 1024 * 1024, nanoCpus: 1_000_000_000 }, timeoutMs: 60_000 });
      if (r.status !== 'exited' || r.exitCode !== 0) throw new Error(`swarm run: ${r.status} ${r.reason ?? ''}`);
    };
    // Warm-up: one of each.
    await containerRun(local);
    await pool3.run((e) => containerRun(e));
    await swarmRun();

    const seq: Record<string, number[]> = { local: [], pool: [], swarm: [] };
    const thr: Record<string, number[]> = { one: [], three: [] };
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? ['local', 'pool', 'swarm'] : ['swarm', 'pool', 'local'];
      for (const m of order) {
        const ms = await timeEach(RUNS, m === 'local' ? () => containerRun(local) : m === 'pool' ? async () => void (await pool3.run((e) => containerRun(e))) : swarmRun);
        seq[m]?.push(ms);
      }
      for (const m of r % 2 === 0 ? ['one', 'three'] : ['three', 'one']) {
        const pool = m === 'one' ? pool1 : pool3;
        const n = 12;
        const t = process.hrtime.bigint();
        await Promise.all(Array.from({ length: n }, () => pool.run((e) => containerRun(e))));
        thr[m]?.push(n / (Number(process.hrtime.bigint() - t) / 1e9));
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const f = (x: number) => x.toFixed(1);
    console.log(`cluster bench: ${RUNS} quick runs per mode and round, ${ROUNDS} rounds (ABCCBA), 12 runs for throughput`);
    console.log(`machine: ${os.cpus().length} cores, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    console.log(`  local engine, one at a time   ${f(mean(seq.local!))} ms per run  (rounds ${seq.local!.map(f).join(', ')})`);
    console.log(`  engine pool (3 nodes)         ${f(mean(seq.pool!))} ms per run  (rounds ${seq.pool!.map(f).join(', ')}); ratio to local ${(mean(seq.pool!) / mean(seq.local!)).toFixed(2)}`);
    console.log(`  swarm job                     ${f(mean(seq.swarm!))} ms per run  (rounds ${seq.swarm!.map(f).join(', ')}); ratio to local ${(mean(seq.swarm!) / mean(seq.local!)).toFixed(2)}`);
    console.log(`  pool throughput, 1 node x2    ${mean(thr.one!).toFixed(2)} runs/s  (rounds ${thr.one!.map((x) => x.toFixed(2)).join(', ')})`);
    console.log(`  pool throughput, 3 nodes x2   ${mean(thr.three!).toFixed(2)} runs/s  (rounds ${thr.three!.map((x) => x.toFixed(2)).join(', ')}); ratio ${(mean(thr.three!) / mean(thr.one!)).toFixed(2)}`);
  } finally {
    script('cluster-down.sh');
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
