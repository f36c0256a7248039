// Verifier runs: the per-run overhead of our verify of one attempt against a raw `docker run` of the same command
// in the same image (measured interleaved, side by side), and throughput at concurrency 1 and 2 on 20 runs.
//   node --import tsx bench/verify.bench.ts [--pairs N] [--batch N]
// Needs the engine and the base image (scripts/setup-docker.sh). Prints a Markdown section for docs/benchmarks.md.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { VerifierService } from '../src/adapters/docker/verifyService';
import { loadDataset } from '../src/adapters/fs/datasetLoader';
import { BASE_IMAGE, FIXED_CALC, buildDataset } from '../test/fixtures/verify/dataset';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}
const PAIRS = arg('pairs', 15);
const BATCH = arg('batch', 20);
const COMMAND = 'python3 -m pytest -rA tests';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

function rawRun(tree: string): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const p = spawn('docker', ['run', '--rm', '--network', 'none', '-v', `${tree}:/repo`, '-w', '/repo', BASE_IMAGE, 'sh', '-c', COMMAND], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('error', reject);
    p.on('close', (code) => {
      if (code !== 0 || !/2 passed/.test(out)) reject(new Error(`raw docker run failed (${code}): ${out}`));
      else resolve(performance.now() - t0);
    });
  });
}

async function pool<T>(n: number, concurrency: number, job: (i: number) => Promise<T>): Promise<number> {
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await job(next++);
    }),
  );
  return performance.now() - t0;
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-bench-verify-'));
  const ds = buildDataset(root, [{ id: 'calc', command: COMMAND, attempts: [{ id: 'good', files: { 'calc.py': FIXED_CALC } }] }]);
  const task = loadDataset(root).tasks.find((t) => t.id === 'calc');
  if (!task) throw new Error('fixture task missing');
  // The raw run gets the repository with both patches already applied, bind-mounted: the least work possible.
  const tree = path.join(root, 'raw-tree');
  execFileSync('git', ['clone', '-q', ds.repo, tree]);
  execFileSync('git', ['-C', tree, 'apply', path.join(root, 'tasks/calc/tests.patch')]);
  execFileSync('git', ['-C', tree, 'apply', path.join(root, 'tasks/calc/attempts/good/patch.diff')]);

  const service = new VerifierService({ datasetRoot: root, concurrency: 1 });
  const ours = async () => {
    const t0 = performance.now();
    const r = await service.verify({ task, attemptId: 'good', force: true });
    if (r.status !== 'passed') throw new Error(`verify did not pass: ${r.status} ${r.reason}`);
    return performance.now() - t0;
  };
  // Warm both paths (image cache, sweep, repository archive cache, node JIT).
  await rawRun(tree);
  await ours();

  const raw: number[] = [];
  const mine: number[] = [];
  for (let i = 0; i < PAIRS; i++) {
    // Alternate the order so drift on a noisy machine hits both sides alike.
    if (i % 2 === 0) {
      raw.push(await rawRun(tree));
      mine.push(await ours());
    } else {
      mine.push(await ours());
      raw.push(await rawRun(tree));
    }
  }
  const ratio = median(mine) / median(raw);

  const throughput: Record<number, { ms: number; rps: number }> = {};
  for (const c of [1, 2]) {
    service.queue.setConcurrency(c);
    const t0 = performance.now();
    const reqs = Array.from({ length: BATCH }, (_, i) => ({ task, attemptId: 'good', force: true, repeat: i + 1 }));
    const { tasks, skipped } = await service.verifyAll(reqs);
    const ms = performance.now() - t0;
    const runs = tasks.flatMap((t) => t.runs);
    if (skipped.length > 0 || runs.length !== BATCH || runs.some((r) => r.status !== 'passed')) throw new Error('a batch run did not pass');
    throughput[c] = { ms, rps: (BATCH * 1000) / ms };
  }
  const rawThroughput: Record<number, number> = {};
  for (const c of [1, 2]) rawThroughput[c] = (BATCH * 1000) / (await pool(BATCH, c, () => rawRun(tree)));

  const f = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const t1 = throughput[1] as { ms: number; rps: number };
  const t2 = throughput[2] as { ms: number; rps: number };
  const lines = [
    '## Verifier runs',
    '',
    `Measured by \`node --import tsx bench/verify.bench.ts\` on ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)} at the end`,
    `(${new Date().toISOString().slice(0, 10)}). Task: the \`calc\` fixture (2 pytest tests), image \`${BASE_IMAGE}\`.`,
    '',
    `Per-run overhead, ${PAIRS} interleaved pairs (medians):`,
    '',
    '| | median | min | max |',
    '| --- | --- | --- | --- |',
    `| raw \`docker run --rm --network none -v TREE:/repo IMAGE sh -c '${COMMAND}'\` (patches pre-applied) | ${f(median(raw))} | ${f(Math.min(...raw))} | ${f(Math.max(...raw))} |`,
    `| our verify of one attempt (archive + upload, both patches applied in the container, hardened, captured, graded, stored) | ${f(median(mine))} | ${f(Math.min(...mine))} | ${f(Math.max(...mine))} |`,
    '',
    `**Ratio ours / raw: ${ratio.toFixed(2)}** (goal: under 1.15).`,
    '',
    `Throughput on a batch of ${BATCH} runs (fresh container each):`,
    '',
    '| concurrency | our verify | runs/s | raw docker run, runs/s |',
    '| --- | --- | --- | --- |',
    `| 1 | ${f(t1.ms)} | ${t1.rps.toFixed(2)} | ${(rawThroughput[1] as number).toFixed(2)} |`,
    `| 2 | ${f(t2.ms)} | ${t2.rps.toFixed(2)} | ${(rawThroughput[2] as number).toFixed(2)} |`,
    '',
    `Speed-up from concurrency 1 to 2: **${(t2.rps / t1.rps).toFixed(2)}x** (raw docker run: ${((rawThroughput[2] as number) / (rawThroughput[1] as number)).toFixed(2)}x).`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stderr.write(`raw: ${raw.map((x) => x.toFixed(0)).join(' ')}\nours: ${mine.map((x) => x.toFixed(0)).join(' ')}\n`);
  fs.rmSync(root, { recursive: true, force: true });
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
