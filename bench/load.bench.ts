// Loading a 15,000-task dataset vs the floor: reading and JSON.parse of the same files in a plain loop.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadDataset } from '../src/adapters/fs/datasetLoader';
import { generateDataset } from './generate';

const N = Number(process.env.TASKS ?? 15000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);

function floor(root: string): number {
  let n = 0;
  JSON.parse(fs.readFileSync(path.join(root, 'specweave.json'), 'utf8'));
  const tasksDir = path.join(root, 'tasks');
  for (const t of fs.readdirSync(tasksDir)) {
    const dir = path.join(tasksDir, t);
    JSON.parse(fs.readFileSync(path.join(dir, 'task.json'), 'utf8'));
    for (const a of fs.readdirSync(path.join(dir, 'attempts'))) {
      JSON.parse(fs.readFileSync(path.join(dir, 'attempts', a, 'attempt.json'), 'utf8'));
    }
    n++;
  }
  return n;
}

function time(fn: () => number): { ms: number; n: number } {
  const t0 = process.hrtime.bigint();
  const n = fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, n };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

function main() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-bench-load-'));
  try {
    const t0 = Date.now();
    const files = generateDataset(root, { tasks: N, specs: 10, tests: 20, attempts: 4 });
    console.log(`generated ${N} tasks (${files} files) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    // Warm the page cache and the schema compiler once, then alternate the two so both see the same machine state.
    floor(root);
    loadDataset(root);
    const f: number[] = [];
    const l: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      f.push(time(() => floor(root)).ms);
      l.push(
        time(() => {
          const d = loadDataset(root);
          if (d.tasks.length !== N || d.problems.length !== 0) throw new Error(`loaded ${d.tasks.length} tasks, ${d.problems.length} problems`);
          return d.tasks.length;
        }).ms,
      );
    }
    const fm = median(f);
    const lm = median(l);
    console.log(`floor (read + JSON.parse): median ${fm.toFixed(0)} ms`);
    console.log(`loadDataset:               median ${lm.toFixed(0)} ms  (${(N / (lm / 1000)).toFixed(0)} tasks/s)`);
    console.log(`ratio to floor: ${(lm / fm).toFixed(2)}  (goal < 1.5; absolute goal < 2000 ms)`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main();
