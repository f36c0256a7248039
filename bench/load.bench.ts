// Loading a 15,000-task dataset (10 specs, 20 tests, 4 attempts each; trajectories not parsed) vs the floor:
// reading and JSON.parse of the same files (the manifest, every task.json and attempt.json, found by listing
// tasks/ and each attempts/) in a plain loop that keeps the parsed values, as a loader must. The two alternate
// round by round so both see the same machine; the ratio is the median of the per-round ratios.
//   node --import tsx bench/load.bench.ts          (TASKS=15000 ROUNDS=11; DATASET=dir reuses a generated one)
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadDataset } from '../src/adapters/fs/datasetLoader';
import { generateDataset } from './generate';

const N = Number(process.env.TASKS ?? 15000);
const ROUNDS = Number(process.env.ROUNDS ?? 11);

function floor(root: string, keep: boolean): number {
  const kept: unknown[] = [];
  const parse = (file: string) => {
    const v: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (keep) kept.push(v);
  };
  parse(path.join(root, 'specweave.json'));
  const tasksDir = path.join(root, 'tasks');
  let n = 0;
  for (const t of fs.readdirSync(tasksDir)) {
    const dir = path.join(tasksDir, t);
    parse(path.join(dir, 'task.json'));
    for (const a of fs.readdirSync(path.join(dir, 'attempts'))) parse(path.join(dir, 'attempts', a, 'attempt.json'));
    n++;
  }
  return n;
}

function time(fn: () => void): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

function main() {
  const given = process.env.DATASET;
  const root = given ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sw-bench-load-'));
  try {
    if (!given || !fs.existsSync(path.join(root, 'specweave.json'))) {
      const t0 = Date.now();
      const files = generateDataset(root, { tasks: N, specs: 10, tests: 20, attempts: 4 });
      console.log(`generated ${N} tasks (${files} files) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
    // Warm the page cache and the schema compiler once.
    floor(root, true);
    loadDataset(root);
    const keepMs: number[] = [];
    const dropMs: number[] = [];
    const loadMs: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      keepMs.push(time(() => floor(root, true)));
      dropMs.push(time(() => floor(root, false)));
      loadMs.push(
        time(() => {
          const d = loadDataset(root);
          if (d.tasks.length !== N || d.problems.length !== 0) throw new Error(`loaded ${d.tasks.length} tasks, ${d.problems.length} problems`);
        }),
      );
    }
    const lm = median(loadMs);
    const ratios = loadMs.map((l, i) => l / (keepMs[i] as number));
    const ratiosDrop = loadMs.map((l, i) => l / (dropMs[i] as number));
    console.log(`${ROUNDS} rounds, medians:`);
    console.log(`  floor, values kept:      ${median(keepMs).toFixed(0)} ms`);
    console.log(`  floor, values dropped:   ${median(dropMs).toFixed(0)} ms`);
    console.log(`  loadDataset:             ${lm.toFixed(0)} ms  (${(N / (lm / 1000)).toFixed(0)} tasks/s)`);
    console.log(`ratio to the floor (values kept):    ${median(ratios).toFixed(2)}  (goal < 1.5)`);
    console.log(`ratio to the floor (values dropped): ${median(ratiosDrop).toFixed(2)}`);
    console.log(`absolute: ${lm.toFixed(0)} ms (goal < 2000 ms)`);
  } finally {
    if (!given) fs.rmSync(root, { recursive: true, force: true });
  }
}

main();
