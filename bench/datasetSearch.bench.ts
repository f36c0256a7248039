// The dataset-wide trajectory search (src/app/datasetSearch.ts) over 15,000 generated tasks' trajectories, 50 MB in
// all, side by side with the same search run on the calling thread (read, prepare, search each file with the task
// view's time-sliced search, as an extension host would without the worker). Per round and per way: time to the
// first hits, time to all hits, and the longest the calling thread's event loop was blocked (monitorEventLoopDelay).
// Then a pathological regular expression: how long from cancel() to the search's end (the worker is terminated),
// against how long the calling thread stays blocked when it runs that expression itself.
//
//   node --import tsx bench/datasetSearch.bench.ts [--tasks 15000] [--rounds 3]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { readTrajectory } from '../src/adapters/fs/trajectoryReader';
import { DatasetSearcher, type SearchFile } from '../src/app/datasetSearch';
import { compileSearch, runSearch } from '../src/core/view/search';
import { prepareStep } from '../src/core/view/steps';
import { ensureCli, ROOT } from '../test/unit/helpers/cli';

const { values: args } = parseArgs({ options: { tasks: { type: 'string' }, rounds: { type: 'string' } } });
const TASKS = Number(args.tasks ?? 15_000);
const ROUNDS = Number(args.rounds ?? 3);
const PATTERN = 'RARE_NEEDLE_\\d+';

function trajectoryText(i: number): string {
  const messages: unknown[] = [
    { role: 'system', content: 'You are a helpful assistant that can interact with a computer.' },
    { role: 'user', content: `<pr_description>Task ${i}: the parser drops trailing commas in nested lists.</pr_description>` },
  ];
  for (let t = 0; t < 6; t++) {
    const rare = i % 97 === 5 && t === 3 ? ` RARE_NEEDLE_${i}` : '';
    messages.push(
      { role: 'assistant', content: `THOUGHT: step ${t}: I should read src/pkg/module_${t}.py and check how commas are handled.${rare}\n\`\`\`bash\nsed -n '1,40p' src/pkg/module_${t}.py\n\`\`\`` },
      { role: 'user', content: `<returncode>0</returncode>\n<output>\n${Array.from({ length: 6 }, (_, k) => `${k + 1}\tdef f_${i}_${t}_${k}(x):  # ordinary output line`).join('\n')}\n</output>` },
    );
  }
  return JSON.stringify({ info: { exit_status: 'Submitted' }, messages });
}

const ms = (t0: number): number => performance.now() - t0;
const fmt = (x: number): string => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

async function measured<T>(run: (firstHit: () => void) => Promise<T>): Promise<{ first: number; all: number; block: number; out: T }> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const t0 = performance.now();
  let first = -1;
  const out = await run(() => {
    if (first < 0) first = ms(t0);
  });
  const all = ms(t0);
  h.disable();
  return { first, all, block: h.max / 1e6, out };
}

async function inThread(files: readonly SearchFile[], pattern: string): Promise<number> {
  const q = compileSearch({ pattern, regex: true, caseSensitive: true });
  if (!q.ok) throw new Error(q.error);
  let total = 0;
  for (const f of files) {
    const r = await readTrajectory(f.abs, { fileLabel: f.label, datasetRoot: f.datasetRoot });
    if (!r.ok) continue;
    const steps = r.trajectory.steps.map(prepareStep);
    const o = await runSearch({ columns: [f.attempt], load: async () => steps }, q.re, { signal: new AbortController().signal, onHits: (h) => h.length > 0 && hit() });
    total += o.total;
  }
  return total;
  function hit(): void {
    onHit?.();
  }
}
let onHit: (() => void) | undefined;

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-bench-dsearch-'));
  try {
    let bytes = 0;
    const files: SearchFile[] = [];
    for (let i = 0; i < TASKS; i++) {
      const rel = `tasks/task-${String(i).padStart(5, '0')}/trajectory.traj.json`;
      fs.mkdirSync(path.join(root, path.dirname(rel)), { recursive: true });
      const text = trajectoryText(i);
      fs.writeFileSync(path.join(root, rel), text);
      bytes += text.length;
      files.push({ taskId: `task-${i}`, attempt: 'a1', abs: path.join(root, rel), label: rel, datasetRoot: root });
    }
    // The worker as installed: the bundle beside the CLI (built from the current sources if older).
    ensureCli();
    const workerScript = path.join(ROOT, 'dist', 'datasetSearchWorker.js');
    console.log(`${TASKS} trajectories, ${(bytes / 1e6).toFixed(1)} MB; pattern /${PATTERN}/; ${ROUNDS} rounds, ways alternated`);
    const expected = Math.floor((TASKS - 6) / 97) + 1;
    const rows: Record<string, Array<{ first: number; all: number; block: number }>> = { 'worker, cold': [], 'worker, warm': [], 'calling thread': [] };
    for (let round = 0; round < ROUNDS; round++) {
      const searcher = new DatasetSearcher({ workerScript });
      for (const way of round % 2 === 0 ? ['worker', 'thread'] : ['thread', 'worker']) {
        if (way === 'worker') {
          for (const label of ['worker, cold', 'worker, warm']) {
            const m = await measured(async (first) => (await searcher.search({ pattern: PATTERN, regex: true, caseSensitive: true }, files, { onHits: (h) => h.length > 0 && first() }).done).total);
            if (m.out !== expected) throw new Error(`${label}: ${m.out} hits, expected ${expected}`);
            rows[label]!.push(m);
          }
        } else {
          const m = await measured(async (first) => {
            onHit = first;
            return inThread(files, PATTERN);
          });
          if (m.out !== expected) throw new Error(`calling thread: ${m.out} hits, expected ${expected}`);
          rows['calling thread']!.push(m);
        }
      }
      searcher.dispose();
    }
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const base = rows['calling thread']!;
    console.log('\n| Search | First hits (ms) | All hits (ms) | Longest block of the calling thread (ms) | First hits vs calling thread | Block vs calling thread |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const [label, ms_] of Object.entries(rows)) {
      const f = median(ms_.map((x) => x.first));
      const a = median(ms_.map((x) => x.all));
      const b = Math.max(...ms_.map((x) => x.block));
      console.log(`| ${label} | ${fmt(f)} | ${fmt(a)} | ${fmt(b)} | ${(f / median(base.map((x) => x.first))).toFixed(2)}x | ${(b / Math.max(...base.map((x) => x.block))).toFixed(2)}x |`);
    }

    // A pathological expression: catastrophic backtracking on every step of one file.
    const evil = path.join(root, 'evil.traj.json');
    fs.writeFileSync(evil, JSON.stringify({ messages: [{ role: 'system', content: 'x' }, ...Array.from({ length: 20 }, () => ({ role: 'user', content: `${'a'.repeat(27)}!` }))] }));
    const evilFiles: SearchFile[] = [{ taskId: 'evil', attempt: 'a1', abs: evil, label: 'evil.traj.json', datasetRoot: root }, ...files];
    const searcher = new DatasetSearcher({ workerScript });
    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    const s = searcher.search({ pattern: '(a+)+$', regex: true, caseSensitive: false }, evilFiles);
    await new Promise((r) => setTimeout(r, 200));
    const c0 = performance.now();
    s.cancel();
    const o = await s.done;
    const cancelMs = ms(c0);
    h.disable();
    searcher.dispose();
    if (!o.terminated) throw new Error('the stuck search ended without terminating its worker');
    // The same expression on the calling thread, on one step of the file (shorter, so the bench ends): it blocks.
    const one = `${'a'.repeat(24)}!`;
    const t0 = performance.now();
    /(a+)+$/i.exec(one);
    const blocked = ms(t0);
    console.log(`\nPathological /(a+)+$/ (27 a's then !, 20 steps): cancel() to the search's end ${fmt(cancelMs)} ms (worker terminated), the calling thread blocked at most ${fmt(h.max / 1e6)} ms meanwhile;`);
    console.log(`the same expression on the calling thread on one 24-a step blocks it ${fmt(blocked)} ms (27 a's: about 8x that, per step).`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
