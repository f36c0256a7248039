// Solve rates (issue 14, item 4) over 15,000 tasks in memory (no disk: the rates come from each attempt's imported
// result, as they do before any run of ours): what the Candidates tree's mixed-success filter and solve-rate sort cost
// next to the filters the tree already had, cold (every rate computed) and warm (the tree's per-task cache), and what
// the statistics panel's solve-rate section costs to compute; and the filter after a review event, when the tree has
// forgotten its rates and the store's memo answers. Ratios against the tree's existing facet filter (status + category +
// outcome, sorted by title) of the same run; the text filter is printed too (a few milliseconds: too small to divide by).
//
//   node --import tsx bench/solveRates.bench.ts [--tasks 15000]
import * as os from 'node:os';
import { parseArgs } from 'node:util';
import type { Attempt, CandidateTask } from '../src/core/model';
import type { TaskDifficulty } from '../src/core/solver/difficulty';
import { datasetDifficulty, taskDifficulty } from '../src/core/solver/difficulty';
import { EMPTY_FILTER, filterAndSort, taskRow } from '../src/core/view/candidates';
import type { TaskRow } from '../src/core/view/candidates';
import { buildSolveRatesView } from '../src/core/view/solveRatesView';

const { values: args } = parseArgs({ options: { tasks: { type: 'string' } } });
const TASKS = Number(args.tasks ?? 15_000);
const MODELS = ['gpt-5-mini', 'claude-sonnet-4-5', 'qwen3-coder', 'devstral'];

/** Eight attempts per task, two per model; resolved pseudo-randomly (a fixed LCG, so each run has the same data). */
function tasks(): CandidateTask[] {
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: TASKS }, (_, i) => {
    const id = `task-${String(i).padStart(5, '0')}`;
    const p = next();
    const attempts: Attempt[] = Array.from({ length: 8 }, (_, k) => ({
      id: `a${k}`,
      model: MODELS[k % MODELS.length] as string,
      agent: 'mini-swe-agent',
      dir: `tasks/${id}/attempts/a${k}`,
      recordedResults: k === 7 && i % 5 === 0 ? [] : [{ imported: true, source: 'swebench-report', file: 'r.json', resolved: next() < p }],
    }));
    return {
      id,
      title: `Task ${i}`,
      revision: 1,
      repo: { name: 'org/repo', kind: 'git', path: 'repos/r', baseCommit: 'a'.repeat(40) },
      environment: { image: 'img', workdir: '/repo', limits: { memoryMb: 1, cpus: 1, pids: 1 }, timeoutSec: 1 },
      specs: [{ id: 'S1', text: 'x', category: i % 3 ? 'error-handling' : 'parsing', dependsOn: [] }],
      tests: [{ id: 'T1', name: 't', kind: 'fail_to_pass', specs: ['S1'] }],
      verifier: { command: 'pytest', parser: 'pytest' },
      notes: [],
      dir: `tasks/${id}`,
      files: { task: 't', request: 'r', testPatch: 'p' },
      attempts,
    } as CandidateTask;
  });
}

const median = (fn: () => unknown, n = 9): number => {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn();
    xs.push(performance.now() - t0);
  }
  return xs.sort((a, b) => a - b)[Math.floor(n / 2)] as number;
};

const ts = tasks();
const byId = new Map(ts.map((t) => [t.id, t]));
const rows: TaskRow[] = ts.map((t) => taskRow(t, 'candidate'));
const band = { low: 0, high: 1 };
const cold = { band, of: (r: TaskRow) => taskDifficulty(byId.get(r.id) as CandidateTask, undefined) };
const cache = new Map<string, TaskDifficulty>();
const warm = { band, of: (r: TaskRow) => cache.get(r.id) ?? (cache.set(r.id, cold.of(r)), cache.get(r.id)) };
for (const r of rows) warm.of(r);
// After a review event the tree forgets its rates and asks the store again: the store keeps each task's rates with the
// verifier results they come from (CurationStore.difficulty), here the same memo over results made once per task.
const results = new Map(ts.map((t) => [t.id, { attempts: {}, flags: [] }]));
const memo = new WeakMap<object, TaskDifficulty>();
const store = (id: string): TaskDifficulty => {
  const r = results.get(id) as { attempts: Record<string, never>; flags: never[] };
  let d = memo.get(r);
  if (!d) memo.set(r, (d = taskDifficulty(byId.get(id) as CandidateTask, r)));
  return d;
};
for (const t of ts) store(t.id);
const afterEvent = { band, of: (r: TaskRow) => store(r.id) };

const base = median(() => filterAndSort(rows, { statuses: ['candidate'], categories: ['error-handling'], outcomes: ['passed'], text: '' }, 'title'));
const lines: Array<[string, number]> = [
  ['status + category + outcome, sorted by title (base)', base],
  ['text filter', median(() => filterAndSort(rows, { ...EMPTY_FILTER, text: 'task 149' }, 'id'))],
  ['mixed success, cold (every rate computed)', median(() => filterAndSort(rows, { ...EMPTY_FILTER, mixedSuccess: true }, 'id', cold))],
  ['mixed success, warm (the tree\'s cache)', median(() => filterAndSort(rows, { ...EMPTY_FILTER, mixedSuccess: true }, 'id', warm))],
  ['mixed success after a review event (store memo)', median(() => filterAndSort(rows, { ...EMPTY_FILTER, mixedSuccess: true }, 'id', afterEvent))],
  ['sort by solve rate, warm', median(() => filterAndSort(rows, EMPTY_FILTER, 'solveRate', warm))],
  ['statistics: solve rates + funnel + view, cold', median(() => buildSolveRatesView(datasetDifficulty(ts, (t) => taskDifficulty(t, undefined), () => false, () => false)), 5)],
];
const shown = filterAndSort(rows, { ...EMPTY_FILTER, mixedSuccess: true }, 'id', warm).length;
console.log(`${TASKS.toLocaleString('en-US')} tasks x 8 attempts; ${shown.toLocaleString('en-US')} in the band 0..1; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
for (const [what, ms] of lines) console.log(`${what.padEnd(50)} ${ms.toFixed(1).padStart(7)} ms  ${(ms / base).toFixed(1).padStart(6)}x the base`);
