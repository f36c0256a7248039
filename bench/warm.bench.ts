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
import { FIXED_CALC, addTask, buildDataset, makeCalcRepo } from '../test/fixtures/verify/dataset';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}
const ROUNDS = arg('rounds', 3);
const CONCURRENCY = arg('concurrency', 2);
/** With N > 0: instead of the example dataset, the calc task with N MiB of extra repository files (a bigger upload). */
const REPO_MB = arg('repo-mb', 0);

/** The calc fixture with `mb` files of 1 MiB each in its repository; 12 runs a round (good, gold, empty x 4). */
function bigRepoDataset(): { root: string; top: string } {
  const top = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-bench-warm-'));
  const ds = buildDataset(top, []);
  const files: Record<string, string> = {};
  for (let i = 0; i < REPO_MB; i++) files[`data/blob${i}.txt`] = `${i}`.repeat(1).padEnd(1024 * 1024, `line ${i}\n`);
  const repo = path.join(top, 'repos', 'big');
  const commit = makeCalcRepo(repo, { files });
  addTask(ds, { id: 'big', repoPath: 'repos/big', baseCommit: commit, command: 'python3 -m pytest -rA tests', attempts: [{ id: 'good', files: { 'calc.py': FIXED_CALC } }] });
  return { root: top, top };
}

async function round(service: VerifierService, requests: VerifyRequest[]): Promise<{ ms: number; statuses: string[]; warm: number; testsMs: number; afterMs: number; beforeMs: number }> {
  const t0 = performance.now();
  const ids = requests.map((r) => service.enqueue(r));
  const out = await Promise.all(ids.map((id) => service.queue.result(id)));
  const ms = performance.now() - t0;
  const statuses = out.map((o) => (o.state === 'done' ? o.value.status : o.state));
  const warm = out.filter((o) => o.state === 'done' && o.value.warm === true).length;
  // Per run: the tests (container start to exit), what follows (removal, or the reset), what precedes them.
  const t = out.flatMap((o) => (o.state === 'done' ? [o.value.timings] : []));
  const sum = (f: (x: (typeof t)[number]) => number) => t.reduce((a, x) => a + f(x), 0);
  const testsMs = sum((x) => x.containerMs ?? 0);
  const afterMs = sum((x) => x.removeMs ?? 0);
  const beforeMs = sum((x) => (x.createMs ?? 0) + (x.uploadMs ?? 0) + (x.archiveMs ?? 0) + (x.imageMs ?? 0));
  return { ms, statuses, warm, testsMs, afterMs, beforeMs };
}

async function main(): Promise<void> {
  const root = REPO_MB > 0 ? bigRepoDataset().root : copyExample();
  const dataset = loadDataset(root);
  const per = REPO_MB > 0 ? 4 : 1;
  const requests: VerifyRequest[] = dataset.tasks.flatMap((task) =>
    [...task.attempts.map((a) => a.id), GOLD_PROBE, EMPTY_PROBE].flatMap((attemptId) => Array.from({ length: per }, (_, i) => ({ task, attemptId, repeat: i + 1, force: true }))),
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
  const phase = { fresh: { tests: 0, after: 0, before: 0 }, warm: { tests: 0, after: 0, before: 0 } };
  for (let i = 0; i < ROUNDS; i++) {
    const f = await round(fresh, requests);
    const w = await round(warm, requests);
    freshMs += f.ms;
    warmMs += w.ms;
    warmRuns += w.warm;
    for (const [k, r] of [['fresh', f], ['warm', w]] as const) {
      phase[k].tests += r.testsMs;
      phase[k].after += r.afterMs;
      phase[k].before += r.beforeMs;
    }
    mismatches += f.statuses.filter((s, j) => s !== w.statuses[j] || s !== warmup.statuses[j]).length;
  }
  const load1 = os.loadavg()[0] ?? 0;
  const stats = (warm.executor as { warm?: { stats: object } }).warm?.stats;
  await warm.close();
  const n = requests.length * ROUNDS;
  const freshRate = n / (freshMs / 1000);
  const warmRate = n / (warmMs / 1000);
  const lines = [
    `### ${REPO_MB > 0 ? `calc with ${REPO_MB} MiB of repository files` : 'the example dataset'}`,
    '',
    `\`node --import tsx bench/warm.bench.ts --rounds ${ROUNDS} --concurrency ${CONCURRENCY}${REPO_MB > 0 ? ` --repo-mb ${REPO_MB}` : ''}\`: ${REPO_MB > 0 ? `${requests.length} runs of one task (good, gold, empty x 4)` : `the example dataset's ${requests.length} runs (every attempt, gold and empty)`} x ${ROUNDS} rounds, fresh and warm rounds interleaved, concurrency ${CONCURRENCY}, ${os.cpus().length} cores, load average ${load0.toFixed(1)} -> ${load1.toFixed(1)}.`,
    '',
    '| | runs | runs/s | per run: before the tests (create, upload) | the tests (start to exit) | after (remove / reset) |',
    '|---|---:|---:|---:|---:|---:|',
    `| fresh containers | ${n} | ${freshRate.toFixed(2)} | ${(phase.fresh.before / n).toFixed(0)} ms | ${(phase.fresh.tests / n).toFixed(0)} ms | ${(phase.fresh.after / n).toFixed(0)} ms |`,
    `| warm containers | ${n} (${warmRuns} warm) | ${warmRate.toFixed(2)} | ${(phase.warm.before / n).toFixed(0)} ms | ${(phase.warm.tests / n).toFixed(0)} ms | ${(phase.warm.after / n).toFixed(0)} ms |`,
    '',
    `Warm / fresh throughput: **${(warmRate / freshRate).toFixed(2)}x**. Verdicts differing from the fresh ones: ${mismatches}. Warm containers: ${JSON.stringify(stats)}.`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  fs.rmSync(REPO_MB > 0 ? root : path.dirname(root), { recursive: true, force: true });
}

void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
