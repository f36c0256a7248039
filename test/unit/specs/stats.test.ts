import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CandidateTask } from '../../../src/core/model';
import { sourceDataset } from '../../../src/core/specs/source';
import { binomial, bootstrapMeans, distribution, quantile, specStats } from '../../../src/core/specs/stats';

/** A task with `cats.length` specs S1.., spec i of category cats[i], each on its own test, S(i+1) depending on Si when `chain`. */
function mk(id: string, cats: string[], source?: Record<string, unknown>, chain = false): CandidateTask {
  return {
    id,
    title: id,
    revision: 1,
    repo: { name: 'x/y', kind: 'image' },
    environment: { image: 'i', workdir: '/repo', limits: { memoryMb: 1, cpus: 1, pids: 1 }, timeoutSec: 1 },
    specs: cats.map((category, i) => ({ id: `S${i + 1}`, text: '', category, dependsOn: chain && i > 0 ? [`S${i}`] : [] })),
    tests: cats.map((_, i) => ({ id: `T${i + 1}`, name: `t${i + 1}`, kind: 'fail_to_pass', specs: [`S${i + 1}`] })),
    verifier: { command: 'true', parser: 'pytest' },
    notes: [],
    ...(source ? { source } : {}),
    dir: `tasks/${id}`,
    files: { task: '', request: '', testPatch: '' },
    attempts: [],
  };
}

describe('source dataset', () => {
  it('flavor first, then the importer (swebench -> swe-bench), else hand-written', () => {
    assert.equal(sourceDataset({ source: { importer: 'swebench', flavor: 'swe-smith' } }), 'swe-smith');
    assert.equal(sourceDataset({ source: { importer: 'swebench', flavor: 'R2E-Gym ' } }), 'r2e-gym');
    assert.equal(sourceDataset({ source: { importer: 'swebench' } }), 'swe-bench');
    assert.equal(sourceDataset({ source: { importer: 'harbor', dir: 'x' } }), 'harbor');
    assert.equal(sourceDataset({ source: { importer: 'my-tool' } }), 'my-tool');
    assert.equal(sourceDataset({}), 'hand-written');
    assert.equal(sourceDataset({ source: { file: 'x.jsonl' } }), 'hand-written');
    assert.equal(sourceDataset({ source: { importer: 3, flavor: ['x'] } }), 'hand-written');
    assert.equal(sourceDataset({ source: { importer: '   ' } }), 'hand-written');
    assert.equal(sourceDataset({ source: { importer: 'constructor' } }), 'constructor');
    assert.equal(sourceDataset({ source: { flavor: 'x'.repeat(500) } }).length, 64);
  });
});

describe('bootstrap', () => {
  it('a constant sample has a zero-width interval at its mean', () => {
    const [m] = bootstrapMeans([[3, 3, 3, 3, 3]], 2000, 1);
    assert.deepEqual(m, { mean: 3, low: 3, high: 3 });
  });

  it('a known small sample: the mean exactly, the interval inside the range and around the mean', () => {
    const [m] = bootstrapMeans([[1, 2, 3, 4, 10]], 2000, 7);
    assert.ok(m);
    assert.equal(m.mean, 4);
    assert.ok(m.low >= 1 && m.low < 4 && m.high > 4 && m.high <= 10, JSON.stringify(m));
  });

  it('the same seed gives the same interval; another seed another one; an empty sample none', () => {
    const xs = Array.from({ length: 200 }, (_, i) => (i * 7919) % 13);
    const a = bootstrapMeans([xs], 2000, 42);
    const b = bootstrapMeans([xs], 2000, 42);
    const c = bootstrapMeans([xs], 2000, 43);
    assert.deepEqual(a, b);
    assert.notDeepEqual(a, c);
    assert.deepEqual(bootstrapMeans([[]], 2000, 1), [undefined]);
  });

  it('wider with fewer values: the interval of 20 values contains that of 2,000 values drawn the same way', () => {
    const gen = (n: number) => Array.from({ length: n }, (_, i) => i % 5);
    const [small] = bootstrapMeans([gen(20)], 2000, 1);
    const [large] = bootstrapMeans([gen(2000)], 2000, 1);
    assert.ok(small && large);
    assert.ok(small.high - small.low > 3 * (large.high - large.low), `${JSON.stringify(small)} ${JSON.stringify(large)}`);
    assert.ok(large.low <= 2 && large.high >= 2);
  });

  it('large samples of few values (drawn as counts) get the normal-theory width, whatever the order of the values', () => {
    // 3,000 values 0..4 evenly: mean 2, sd sqrt(2), so the 95% interval is about 2 ± 1.96 * sqrt(2 / 3000).
    const xs = Array.from({ length: 3000 }, (_, i) => i % 5);
    const [m] = bootstrapMeans([xs], 2000, 3);
    assert.ok(m);
    const half = 1.96 * Math.sqrt(2 / 3000);
    assert.ok(Math.abs((m.high - m.low) / 2 - half) < 0.15 * half, JSON.stringify(m));
    assert.ok(Math.abs((m.high + m.low) / 2 - 2) < 0.2 * half, JSON.stringify(m));
    const shuffled = xs.map((x, i) => ({ x, k: (i * 7919) % 3001 })).sort((a, b) => a.k - b.k).map((v) => v.x);
    assert.deepEqual(bootstrapMeans([shuffled], 2000, 3), [m]);
  });

  it('binomial draws have the binomial mean and variance, and stay in 0..trials', () => {
    const logFact = new Float64Array(101);
    for (let i = 2; i <= 100; i++) logFact[i] = (logFact[i - 1] as number) + Math.log(i);
    let u = 1;
    const draws = Array.from({ length: 20000 }, () => {
      u = (u * 16807) % 2147483647;
      return binomial(100, 0.3, u / 2147483647, logFact);
    });
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    const variance = draws.reduce((a, b) => a + (b - mean) ** 2, 0) / draws.length;
    assert.ok(Math.abs(mean - 30) < 0.2, String(mean));
    assert.ok(Math.abs(variance - 21) < 1.5, String(variance));
    assert.ok(draws.every((d) => Number.isInteger(d) && d >= 0 && d <= 100));
    assert.equal(binomial(10, 0, 0.5, logFact), 0);
    assert.equal(binomial(10, 1, 0.5, logFact), 10);
    assert.equal(binomial(0, 0.5, 0.5, logFact), 0);
    assert.equal(binomial(100, 0.3, 0.999999999999, logFact) <= 100, true);
  });

  it('quantiles are type 7; distributions bin [0, 0.1) ... [0.9, 1]', () => {
    assert.equal(quantile([1, 2, 3, 4], 0.5), 2.5);
    assert.equal(quantile([1, 2, 3, 4], 0.25), 1.75);
    assert.equal(quantile([5], 0.975), 5);
    const d = distribution([0, 0.05, 0.1, 1 - 0.9, 0.5, 1]);
    assert.deepEqual(d.histogram, [2, 2, 0, 0, 0, 1, 0, 0, 0, 1]);
    assert.equal(d.count, 6);
    assert.equal(d.min, 0);
    assert.equal(d.max, 1);
    assert.deepEqual(distribution([]), { count: 0, histogram: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0] });
  });
});

describe('spec statistics', () => {
  const tasks = [
    // swe-bench: 2, 4 and 0 specs; 1, 2 and 0 categories.
    mk('a', ['x', 'x'], { importer: 'swebench' }),
    mk('b', ['x', 'y', 'y', 'x'], { importer: 'swebench' }, true),
    mk('c', [], { importer: 'swebench' }),
    // swe-smith: two tasks with 3 specs of 3 categories each.
    mk('d', ['x', 'y', 'z'], { importer: 'swebench', flavor: 'swe-smith' }),
    mk('e', ['x', 'y', 'z'], { importer: 'swebench', flavor: 'swe-smith' }, true),
    // hand-written: one spec.
    mk('f', ['z']),
  ];
  const s = specStats({ tasks });

  it('counts tasks, means and histograms per source dataset, most tasks first', () => {
    assert.deepEqual(
      s.bySource.map((g) => [g.source, g.tasks, g.specs, g.tasksWithSpecs]),
      [
        ['swe-bench', 3, 6, 2],
        ['swe-smith', 2, 6, 2],
        ['hand-written', 1, 1, 1],
      ],
    );
    const bench = s.bySource[0];
    assert.equal(bench?.specsPerTask?.mean, 2);
    assert.equal(bench?.categoriesPerTask?.mean, 1);
    assert.deepEqual(bench?.histogram, [
      { specs: 0, tasks: 1 },
      { specs: 2, tasks: 1 },
      { specs: 4, tasks: 1 },
    ]);
    // swe-smith is constant (3 specs, 3 categories): zero-width intervals.
    assert.deepEqual(s.bySource[1]?.specsPerTask, { mean: 3, low: 3, high: 3 });
    assert.deepEqual(s.bySource[1]?.categoriesPerTask, { mean: 3, low: 3, high: 3 });
    assert.equal(s.all.tasks, 6);
    assert.equal(s.all.specsPerTask?.mean, 13 / 6);
    assert.ok((s.all.specsPerTask?.low ?? 9) <= 13 / 6 && (s.all.specsPerTask?.high ?? 0) >= 13 / 6);
    assert.deepEqual([s.resamples, s.confidence], [2000, 0.95]);
  });

  it("the coupling distribution by source counts tasks with two specs or more; by category each spec's share", () => {
    // swe-bench: a (independent, 0) and b (chain, 1); c has no spec. swe-smith: d 0, e 1. hand-written: none.
    assert.deepEqual(s.bySource[0]?.coupling.histogram, [1, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    assert.equal(s.bySource[0]?.coupling.median, 0.5);
    assert.equal(s.bySource[2]?.coupling.count, 0);
    assert.equal(s.all.coupling.count, 4);
    assert.equal(s.all.coupling.mean, 0.5);
    const z = s.couplingByCategory.find((c) => c.category === 'z');
    // z: d's S3 (0) and e's S3 (coupled to S2 only: 1/2); f's spec is alone in its task.
    assert.equal(z?.specs, 2);
    assert.deepEqual([z?.share.min, z?.share.max], [0, 0.5]);
    assert.deepEqual(
      s.couplingByCategory.map((c) => c.category),
      ['x', 'y', 'z'],
    );
    assert.deepEqual(s.evidence, { pairs: 1 + 6 + 3 + 3, coupledPairs: 3 + 2, sharedTests: 0, declared: 5, coFlip: 0, measuredPairs: 0 });
  });

  it('is deterministic with the seed, and an empty dataset has no intervals', () => {
    assert.deepEqual(specStats({ tasks }), s);
    assert.equal(specStats({ tasks, seed: 99 }).seed, 99);
    const empty = specStats({ tasks: [] });
    assert.equal(empty.all.tasks, 0);
    assert.equal(empty.all.specsPerTask, undefined);
    assert.deepEqual(empty.bySource, []);
  });

  it("a source's interval does not depend on the other sources in the dataset", () => {
    const alone = specStats({ tasks: tasks.filter((t) => t.source?.flavor === undefined && t.source?.importer === 'swebench') });
    assert.deepEqual(alone.bySource[0]?.specsPerTask, s.bySource[0]?.specsPerTask);
  });
});
