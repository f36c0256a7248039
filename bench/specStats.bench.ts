// Coupling and spec statistics over 15,000 tasks (issue 12's goal: under 300 ms): tasks generated in memory with a
// fixed seed (~10 specs, 4-16 attempts, a spec-test map with shared tests, dependsOn chains, verifier verdicts per
// attempt correlated within an attempt, curators' labels on a fifth of the tasks, five source datasets).
//
//   node --import tsx bench/specStats.bench.ts [--tasks 15000] [--runs 5] [--before d54aef5|dc3f8bd]
//
// Measured side by side in each round, before (bench/baseline/specStats, the code as of d54aef5; with --before
// dc3f8bd bench/baseline/specStatsR8, the code as round 8 found it) and after, the two in alternating order: the
// coupling graph of every task alone (what the task view draws, one task at a time), the spec statistics cold (new
// task objects and a new seed: nothing cached, the first computation of a dataset) and after a label (one new label
// event in the log, as the statistics panel sees it: one task's review state is new), and, as a reference, the
// curation statistics the panel computes beside them. Before and after must give the same JSON (checked each round).
import { loadavg } from 'node:os';
import type { CandidateTask, SpecVerdict } from '../src/core/model';
import { addEvents, reduceLog } from '../src/core/review/reducer';
import type { ReviewEvent } from '../src/core/review/events';
import { curationStats } from '../src/core/review/stats';
import type { VerifierVerdicts } from '../src/core/review/verdicts';
import { measuredVerdicts, taskCoupling } from '../src/core/specs/coupling';
import { specStats } from '../src/core/specs/stats';
import { withRecordedFallback } from '../src/core/review/verdicts';
import * as couplingD54 from './baseline/specStats/coupling';
import * as statsD54 from './baseline/specStats/stats';
import * as couplingR8 from './baseline/specStatsR8/coupling';
import * as statsR8 from './baseline/specStatsR8/stats';

const args = process.argv.slice(2);
const arg = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const TASKS = arg('--tasks', 15_000);
const RUNS = arg('--runs', 5);
const BEFORE = args.includes('--before') ? String(args[args.indexOf('--before') + 1]) : 'd54aef5';
if (BEFORE !== 'd54aef5' && BEFORE !== 'dc3f8bd') throw new Error(`--before: d54aef5 or dc3f8bd, not ${BEFORE}`);
const r8 = BEFORE === 'dc3f8bd';
const measuredVerdictsBefore = r8 ? couplingR8.measuredVerdicts : couplingD54.measuredVerdicts;
const taskCouplingBefore = r8 ? couplingR8.taskCoupling : couplingD54.taskCoupling;
const specStatsBefore = r8 ? statsR8.specStats : statsD54.specStats;

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const rand = lcg(7);
const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
const CATS = ['data-transformation', 'parsing-representation', 'computation-algorithms', 'domain-protocol-rules', 'interface-io-contracts', 'control-flow-ordering', 'error-handling', 'compatibility'];
const SOURCES: Array<Record<string, unknown> | undefined> = [{ importer: 'swebench' }, { importer: 'swebench', flavor: 'swe-smith' }, { importer: 'swebench', flavor: 'r2e-gym' }, { importer: 'harbor' }, undefined];

function generate(): { tasks: CandidateTask[]; verdicts: VerifierVerdicts; events: ReviewEvent[] } {
  const tasks: CandidateTask[] = [];
  const verdicts: VerifierVerdicts = {};
  const events: ReviewEvent[] = [];
  for (let t = 0; t < TASKS; t++) {
    const id = `task-${String(t).padStart(5, '0')}`;
    const nSpecs = int(7, 13);
    const nTests = int(nSpecs, nSpecs * 2);
    const specs = Array.from({ length: nSpecs }, (_, i) => ({
      id: `S${i + 1}`,
      text: '',
      category: CATS[int(0, CATS.length - 1)] as string,
      dependsOn: i > 0 && rand() < 0.2 ? [`S${int(1, i)}`] : [],
    }));
    const tests = Array.from({ length: nTests }, (_, i) => ({
      id: `T${i + 1}`,
      name: `tests/test_m.py::t${i + 1}`,
      kind: 'fail_to_pass' as const,
      specs: rand() < 0.15 ? [`S${(i % nSpecs) + 1}`, `S${int(1, nSpecs)}`] : [`S${(i % nSpecs) + 1}`],
    }));
    const nAttempts = int(4, 16);
    const attempts = Array.from({ length: nAttempts }, (_, i) => ({ id: `a${i + 1}`, model: `m${i % 4}`, agent: '', dir: '', recordedResults: [] }));
    const source = SOURCES[t % SOURCES.length];
    tasks.push({
      id,
      title: id,
      revision: 1,
      repo: { name: 'x/y', kind: 'image' },
      environment: { image: 'i', workdir: '/repo', limits: { memoryMb: 1, cpus: 1, pids: 1 }, timeoutSec: 1 },
      specs,
      tests,
      verifier: { command: 'true', parser: 'pytest' },
      notes: [],
      ...(source ? { source } : {}),
      dir: `tasks/${id}`,
      files: { task: '', request: '', testPatch: '' },
      attempts,
    });
    const perAttempt: VerifierVerdicts[string]['attempts'] = {};
    for (const a of attempts) {
      const skill = rand();
      const sv: Record<string, SpecVerdict> = {};
      for (const s of specs) sv[s.id] = rand() < 0.05 ? 'unknown' : rand() < skill ? 'pass' : 'fail';
      perAttempt[a.id] = { source: 'run', runId: `r-${a.id}`, status: 'failed', specs: sv, tests: {}, revision: 1 };
    }
    verdicts[id] = { attempts: perAttempt, flags: [] };
    if (t % 5 === 0) {
      for (const s of specs.slice(0, 4)) {
        const n = events.length;
        events.push({
          id: `E${String(n).padStart(9, '0')}`,
          time: new Date(Date.UTC(2026, 11, 1) + n * 1000).toISOString(),
          curator: 'alice',
          task: id,
          revision: 1,
          kind: 'label',
          payload: { attempt: 'a1', spec: s.id, verdict: rand() < 0.5 ? 'satisfied' : 'violated', evidence: [] },
        } as ReviewEvent);
      }
    }
  }
  return { tasks, verdicts, events };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? (s[(s.length - 1) / 2] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};
let lastCpu = 0;
const time = (f: () => void) => {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  f();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  lastCpu = (c.user + c.system) / 1000;
  return ms;
};

const { tasks, verdicts, events } = generate();
let state = reduceLog(events);
const specsTotal = tasks.reduce((n, t) => n + t.specs.length, 0);
const attemptsTotal = tasks.reduce((n, t) => n + t.attempts.length, 0);

const rows: Record<string, { wall: number[]; cpu: number[] }> = {};
const record = (name: string, f: () => void) => {
  const r = (rows[name] ??= { wall: [], cpu: [] });
  r.wall.push(time(f));
  r.cpu.push(lastCpu);
};
let sink = 0;
let identical = true;
let labels = 0;
/** One more label in the log, on a task picked by the round: a new review state for that task only. */
const label = (r: number) => {
  const t = tasks[(r * 7919) % tasks.length] as CandidateTask;
  const n = events.length + labels++;
  const e = {
    id: `E${String(n).padStart(9, '0')}`,
    time: new Date(Date.UTC(2026, 11, 2) + n * 1000).toISOString(),
    curator: 'bob',
    task: t.id,
    revision: 1,
    kind: 'label',
    payload: { attempt: 'a2', spec: 'S1', verdict: r % 2 ? 'satisfied' : 'violated', evidence: [] },
  } as ReviewEvent;
  state = addEvents(state, [e]);
};
/** Before and after, in turn first (the second pays more of the first's garbage). */
const inTurn = (r: number, before: () => void, after: () => void) => {
  if (r % 2) {
    after();
    before();
  } else {
    before();
    after();
  }
};
for (let r = 0; r < RUNS + 1; r++) {
  record('before: coupling graphs of every task (task view)', () => {
    for (const t of tasks) {
      const v = measuredVerdictsBefore(t, state.tasks.get(t.id), withRecordedFallback(t, verdicts[t.id]));
      sink += taskCouplingBefore({ specs: t.specs, tests: t.tests, verdicts: v }).edges.length;
    }
  });
  record('after: coupling graphs of every task (task view)', () => {
    for (const t of tasks) {
      const v = measuredVerdicts(t, state.tasks.get(t.id), withRecordedFallback(t, verdicts[t.id]));
      sink += taskCoupling({ specs: t.specs, tests: t.tests, verdicts: v }).edges.length;
    }
  });
  // A new seed per round empties the bootstrap cache, new task objects the per-task cache: the first computation.
  const fresh = tasks.map((t) => ({ ...t }));
  let before: unknown;
  let after: unknown;
  const freshBefore = r8 ? tasks.map((t) => ({ ...t })) : tasks;
  const coldBefore = () => record('before: spec statistics, cold', () => void (before = specStatsBefore({ tasks: freshBefore, state, verdicts, seed: 1000 + r })));
  const coldAfter = () => record('after: spec statistics, cold', () => void (after = specStats({ tasks: fresh, state, verdicts, seed: 1000 + r })));
  inTurn(r, coldBefore, coldAfter);
  identical &&= JSON.stringify(before) === JSON.stringify(after);
  label(r);
  const labelBefore = () => record('before: spec statistics after a label', () => void (before = specStatsBefore({ tasks: freshBefore, state, verdicts, seed: 1000 + r })));
  const labelAfter = () => record('after: spec statistics after a label', () => void (after = specStats({ tasks: fresh, state, verdicts, seed: 1000 + r })));
  inTurn(r, labelBefore, labelAfter);
  identical &&= JSON.stringify(before) === JSON.stringify(after);
  record('curation statistics (reference)', () => void (sink += curationStats({ tasks, state, verdicts }).funnel.imported));
}
// The first round warms the JIT and is left out.
const med = (name: string, k: 'wall' | 'cpu') => median((rows[name] as { wall: number[]; cpu: number[] })[k].slice(1));
const out = Object.entries(rows).map(([name, r]) => ({ name, medianMs: median(r.wall.slice(1)).toFixed(1), cpuMs: median(r.cpu.slice(1)).toFixed(1), firstMs: (r.wall[0] as number).toFixed(1) }));
const ratio = (what: string) => ({
  wall: (med(`before: ${what}`, 'wall') / med(`after: ${what}`, 'wall')).toFixed(1),
  cpu: (med(`before: ${what}`, 'cpu') / med(`after: ${what}`, 'cpu')).toFixed(1),
});
const s = specStats({ tasks, state, verdicts });
process.stdout.write(
  JSON.stringify(
    {
      before: BEFORE,
      loadAverage: loadavg().map((x) => Number(x.toFixed(2))),
      tasks: TASKS,
      specs: specsTotal,
      attempts: attemptsTotal,
      labels: events.length + labels,
      goalMs: 300,
      results: out,
      speedup: { couplingGraphs: ratio('coupling graphs of every task (task view)'), cold: ratio('spec statistics, cold'), afterLabel: ratio('spec statistics after a label') },
      underGoal: { cold: med('after: spec statistics, cold', 'wall') < 300, afterLabel: med('after: spec statistics after a label', 'wall') < 300 },
      identical,
      meanSpecs: s.all.specsPerTask,
      coupling: { median: s.all.coupling.median, q1: s.all.coupling.q1, q3: s.all.coupling.q3 },
      evidence: s.evidence,
      sink,
    },
    null,
    2,
  ) + '\n',
);
