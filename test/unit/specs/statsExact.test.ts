// The shortcuts the spec statistics take on a cold computation (stats.ts, coupling.ts) must give the figures the plain
// method gives, also where the golden datasets do not reach: distributions counted per (m, x) slot against
// `distribution` of the listed values (tasks of 64 specs and more have no slot; more categories than there are
// counted tallies), and the co-flip decided by squares against phi itself at thresholds equal to a pair's |phi|.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CandidateTask, SpecVerdict } from '../../../src/core/model';
import type { VerifierVerdicts } from '../../../src/core/review/verdicts';
import { taskCoupling } from '../../../src/core/specs/coupling';
import { distribution, specStats } from '../../../src/core/specs/stats';
import { goldenDataset } from './goldenDataset';

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A task's fields the figures do not read. */
const BASE = goldenDataset(1, 1).tasks[0] as CandidateTask;

/** `count` tasks with `specs(t)` specs, categories from `cats` distinct ones, some shared tests and links, verdicts. */
function dataset(count: number, specs: (t: number) => number, cats: number, attempts: number, seed: number): { tasks: CandidateTask[]; verdicts: VerifierVerdicts } {
  const rand = lcg(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const tasks: CandidateTask[] = [];
  const verdicts: VerifierVerdicts = {};
  for (let t = 0; t < count; t++) {
    const id = `t${t}`;
    const n = specs(t);
    const list = Array.from({ length: n }, (_, i) => ({ id: `S${i + 1}`, text: '', category: `c${int(0, cats - 1)}`, dependsOn: i > 0 && rand() < 0.1 ? [`S${int(1, i)}`] : [] }));
    const tests = Array.from({ length: n }, (_, i) => ({ id: `T${i + 1}`, name: `t${i + 1}`, kind: 'fail_to_pass' as const, specs: rand() < 0.1 ? [`S${i + 1}`, `S${int(1, n)}`] : [`S${i + 1}`] }));
    const runs = Array.from({ length: attempts }, (_, i) => ({ id: `a${i + 1}`, model: 'm', agent: '', dir: '', recordedResults: [] }));
    tasks.push({ ...BASE, id, title: id, dir: `tasks/${id}`, specs: list, tests, attempts: runs });
    // Each attempt passes a spec with its own chance (so verdicts flip together across attempts), 5% unknown.
    const records = runs.map((a) => {
      const skill = rand();
      const verdictOf = () => (rand() < 0.05 ? 'unknown' : rand() < skill ? 'pass' : 'fail') as SpecVerdict;
      return [a.id, { source: 'run' as const, runId: `r-${a.id}`, status: 'failed' as const, specs: Object.fromEntries(list.map((sp) => [sp.id, verdictOf()])), tests: {}, revision: 1 }];
    });
    verdicts[id] = { attempts: Object.fromEntries(records) as VerifierVerdicts[string]['attempts'], flags: [] };
  }
  return { tasks, verdicts };
}

/** The rows `taskCoupling` reads for a task without labels: the verifier's verdicts per attempt. */
const rows = (t: CandidateTask, verdicts: VerifierVerdicts) => t.attempts.map((a) => verdicts[t.id]?.attempts[a.id]?.specs ?? {});

/** Every task's coupling figure, and the spec shares by the spec's category, from the graph of each task. */
function graphFigures(tasks: CandidateTask[], verdicts: VerifierVerdicts): { couplings: number[]; shares: Map<string, number[]> } {
  const couplings: number[] = [];
  const shares = new Map<string, number[]>();
  for (const t of tasks) {
    const c = taskCoupling({ specs: t.specs, tests: t.tests, verdicts: rows(t, verdicts) });
    couplings.push(c.coupling);
    // The ids are distinct: spec i is the i-th distinct id.
    c.specShare.forEach((x, i) => {
      const cat = (t.specs[i] as CandidateTask['specs'][number]).category;
      let list = shares.get(cat);
      if (!list) shares.set(cat, (list = []));
      list.push(x.share);
    });
  }
  return { couplings, shares };
}

describe('spec statistics: the counted distributions', () => {
  it('equal distribution() of the graphs’ figures, with tasks of 2-90 specs and 90 categories (slotless values, uncounted tallies)', () => {
    const { tasks, verdicts } = dataset(160, (t) => (t % 8 === 0 ? 64 + (t % 27) : 2 + (t % 20)), 90, 6, 4);
    const s = specStats({ tasks, verdicts, resamples: 50 });
    const { couplings, shares } = graphFigures(tasks, verdicts);
    assert.deepEqual(s.all.coupling, distribution(couplings));
    assert.equal(s.couplingByCategory.length, 90);
    for (const c of s.couplingByCategory) assert.deepEqual(c.share, distribution(shares.get(c.category) as number[]), c.category);
  });

  it('equal distribution() with every task under 64 specs (every value counted, the mean summed in sorted order)', () => {
    const { tasks, verdicts } = dataset(3000, (t) => 2 + (t % 13), 8, 8, 11);
    const s = specStats({ tasks, verdicts, resamples: 50 });
    const { couplings, shares } = graphFigures(tasks, verdicts);
    assert.deepEqual(s.all.coupling, distribution(couplings));
    assert.ok(s.all.coupling.count === 3000 && (s.all.coupling.q1 as number) < (s.all.coupling.q3 as number));
    assert.equal(s.couplingByCategory.length, 8);
    for (const c of s.couplingByCategory) assert.deepEqual(c.share, distribution(shares.get(c.category) as number[]), c.category);
  });
});

describe('spec statistics: the co-flip without the square root', () => {
  it('counts the co-flips the graph counts at thresholds equal to a pair’s |phi| and just either side of it', () => {
    const { tasks, verdicts } = dataset(60, (t) => 3 + (t % 6), 4, 9, 23);
    const phis = new Set<number>();
    for (const t of tasks) {
      for (const e of taskCoupling({ specs: t.specs, tests: t.tests, verdicts: rows(t, verdicts) }, { coFlipPhi: 0 }).edges) {
        if (e.evidence.coFlip) phis.add(Math.abs(e.evidence.coFlip.phi));
      }
    }
    assert.ok(phis.size > 20, `${phis.size} distinct |phi|`);
    const thresholds = [...phis].flatMap((p) => [p, p * (1 - 2 ** -52), p * (1 + 2 ** -52), p - 1e-12]).concat([0.5, 1, 0, -1, 1e-300, 1e300, Infinity]);
    for (const coFlipPhi of thresholds) {
      for (const t of tasks) {
        const input = { specs: t.specs, tests: t.tests, verdicts: rows(t, verdicts) };
        const withGraph = taskCoupling(input, { coFlipPhi });
        const figures = taskCoupling(input, { coFlipPhi, graph: false });
        assert.deepEqual(figures.byEvidence, withGraph.byEvidence, `${t.id} at ${coFlipPhi}`);
        assert.equal(figures.coupling, withGraph.coupling);
      }
    }
  });
});
