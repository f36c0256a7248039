// A fork storm in a verifier container (the `forks` fixture: `add` forks for ever, limits.pids 64, timeout 5 s):
// how long the host takes to start a process during the storm against the same measure just before it, measured in
// one run, and how soon after the task's timeout the container is gone. The integration test
// (test/integration/verify/verify.test.ts) asserts the behaviour (the host keeps starting processes, the run times
// out, its container is removed); the times are here.
//   node --import tsx bench/forkStorm.bench.ts [--samples N] [--storms N]
// Needs the engine and the base image (scripts/setup-docker.sh). Prints a Markdown section for docs/benchmarks.md.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { VerifierService } from '../src/adapters/docker/verifyService';
import { loadDataset } from '../src/adapters/fs/datasetLoader';
import { FORK_CALC, buildDataset } from '../test/fixtures/verify/dataset';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}
const SAMPLES = arg('samples', 40);
const STORMS = arg('storms', 3);
const TIMEOUT_SEC = 5;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
}

function spawnMs(): number {
  const t0 = performance.now();
  const r = spawnSync('true');
  if (r.status !== 0) throw new Error(`the host could not start a process: ${String(r.error)}`);
  return performance.now() - t0;
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-bench-forks-'));
  buildDataset(root, [{ id: 'forks', timeoutSec: TIMEOUT_SEC, limits: { pids: 64 }, attempts: [{ id: 'bomb', files: { 'calc.py': FORK_CALC } }] }]);
  const task = loadDataset(root).tasks.find((t) => t.id === 'forks');
  if (!task) throw new Error('fixture task missing');
  const service = new VerifierService({ datasetRoot: root, concurrency: 1 });
  const idle: number[] = [];
  const storm: number[] = [];
  const afterTimeout: number[] = [];
  for (let s = 0; s < STORMS; s++) {
    // The same number of samples, at the same cadence, before the storm and during it.
    for (let i = 0; i < SAMPLES; i++) {
      idle.push(spawnMs());
      await new Promise((r) => setTimeout(r, 50));
    }
    const run = service.verify({ task, attemptId: 'bomb', force: true });
    let done = false;
    void run.finally(() => (done = true));
    // Let the storm reach its process limit before sampling.
    await new Promise((r) => setTimeout(r, 1500));
    for (let i = 0; i < SAMPLES && !done; i++) {
      storm.push(spawnMs());
      await Promise.race([run, new Promise((r) => setTimeout(r, 50))]);
    }
    const r = await run;
    if (r.status !== 'timeout') throw new Error(`the storm ended as ${r.status}: ${r.reason}`);
    if (r.timings.startToRemovedMs !== undefined) afterTimeout.push(r.timings.startToRemovedMs - TIMEOUT_SEC * 1000);
  }
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const lines = [
    '## Fork storm: the host during a storm in a verifier container',
    '',
    `Measured by \`node --import tsx bench/forkStorm.bench.ts\` on ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)} at the end`,
    `(${new Date().toISOString().slice(0, 10)}). ${STORMS} storms (limits.pids 64, timeout ${TIMEOUT_SEC} s); ${SAMPLES} host process starts`,
    '(`spawnSync("true")`) just before each storm and up to as many during it, at the same cadence.',
    '',
    '| host process start | median | p95 | max |',
    '| --- | --- | --- | --- |',
    `| before the storm | ${ms(quantile(idle, 0.5))} | ${ms(quantile(idle, 0.95))} | ${ms(Math.max(...idle))} |`,
    `| during the storm | ${ms(quantile(storm, 0.5))} | ${ms(quantile(storm, 0.95))} | ${ms(Math.max(...storm))} |`,
    '',
    `**Ratio during / before (medians): ${(quantile(storm, 0.5) / quantile(idle, 0.5)).toFixed(2)}**; p95: ${(quantile(storm, 0.95) / quantile(idle, 0.95)).toFixed(2)}.`,
    '',
    afterTimeout.length > 0
      ? `From the task's timeout to the container's removal: median ${ms(quantile(afterTimeout, 0.5))}, max ${ms(Math.max(...afterTimeout))} (${afterTimeout.length} storms).`
      : 'The runs recorded no removal time.',
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  fs.rmSync(root, { recursive: true, force: true });
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
