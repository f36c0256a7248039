// Warm against fresh containers: every run of the example dataset (each task's attempts, the gold and empty
// probes) N rounds, fresh rounds and warm rounds interleaved in one process (same machine, same load), verdicts
// compared run for run. Prints the throughput ratio (goal 1.8x or more) and the load average.
//   node --import tsx bench/warm.bench.ts [--rounds N] [--concurrency N]
// Needs the engine and the base image (scripts/setup-docker.sh). Prints a Markdown section for docs/benchmarks.md.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { VerifyRequest } from '../src/adapters/docker/verifyService';
import { VerifierService } from '../src/adapters/docker/verifyService';
import { loadDataset } from '../src/adapters/fs/datasetLoader';
import { EMPTY_PROBE, GOLD_PROBE } from '../src/core/model';
import { copyExample } from '../test/integration/repair/exampleCopy';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}
const ROUNDS = arg('rounds', 3);
const CONCURRENCY = arg('concurrency', 2);

async function round(service: VerifierService, requests: VerifyRequest[]): Promise<{ ms: number; statuses: string[]; warm: number }> {
  const t0 = performance.now();
  const ids = requests.map((r) => service.enqueue(r));
  const out = await Promise.all(ids.map((id) => service.queue.result(id)));
  const ms = performance.now() - t0;
  const statuses = out.map((o) => (o.state === 'done' ? o.value.status : o.state));
  const warm = out.filter((o) => o.state === 'done' && o.value.warm === true).length;
  return { ms, statuses, warm };
}

async function main(): Promise<void> {
  const root = copyExample();
  const dataset = loadDataset(root);
  const requests: VerifyRequest[] = dataset.tasks.flatMap((task) =>
    [...task.attempts.map((a) => a.id), GOLD_PROBE, EMPTY_PROBE].map((attemptId) => ({ task, attemptId, force: true })),
  );
  const fresh = new VerifierService({ datasetRoot: root, concurrency: CONCURRENCY, persist: false });
  const warm = new VerifierService({ datasetRoot: root, concurrency: CONCURRENCY, persist: false, warm: true });
  // One untimed round each: the image check, the repository archives and the first warm containers.
  const warmup = await round(fresh, requests);
  await round(warm, requests);
  const load0 = os.loadavg()[0] ?? 0;
  let freshMs = 0;
  let warmMs = 0;
  let warmRuns = 0;
  let mismatches = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const f = await round(fresh, requests);
    const w = await round(warm, requests);
    freshMs += f.ms;
    warmMs += w.ms;
    warmRuns += w.warm;
    mismatches += f.statuses.filter((s, j) => s !== w.statuses[j] || s !== warmup.statuses[j]).length;
  }
  const load1 = os.loadavg()[0] ?? 0;
  const stats = (warm.executor as { warm?: { stats: object } }).warm?.stats;
  await warm.close();
  const n = requests.length * ROUNDS;
  const freshRate = n / (freshMs / 1000);
  const warmRate = n / (warmMs / 1000);
  const lines = [
    `## Warm containers (issue 15): warm against fresh throughput`,
    '',
    `\`node --import tsx bench/warm.bench.ts --rounds ${ROUNDS} --concurrency ${CONCURRENCY}\`: the example dataset's ${requests.length} runs (every attempt, gold and empty) x ${ROUNDS} rounds, fresh and warm rounds interleaved, concurrency ${CONCURRENCY}, ${os.cpus().length} cores, load average ${load0.toFixed(1)} -> ${load1.toFixed(1)}.`,
    '',
    '| | runs | runs/s |',
    '|---|---:|---:|',
    `| fresh containers | ${n} | ${freshRate.toFixed(2)} |`,
    `| warm containers | ${n} (${warmRuns} warm) | ${warmRate.toFixed(2)} |`,
    '',
    `Warm / fresh throughput: **${(warmRate / freshRate).toFixed(2)}x**. Verdicts differing from the fresh ones: ${mismatches}. Warm containers: ${JSON.stringify(stats)}.`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  fs.rmSync(path.dirname(root), { recursive: true, force: true });
}

void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
