import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CandidateTask } from '../../../src/core/model';
import { specStats } from '../../../src/core/specs/stats';
import { buildSpecStatsView } from '../../../src/core/view/specStatsView';
import { MAX_SPEC_HISTOGRAM, MAX_SPEC_ROWS } from '../../../src/protocol/messages';
import { isSpecStatsView, specStatsViewProblem } from '../../../src/protocol/validate';

function mk(id: string, specs: number, flavor: string, category = 'c'): CandidateTask {
  return {
    id,
    title: id,
    revision: 1,
    repo: { name: 'x/y', kind: 'image' },
    environment: { image: 'i', workdir: '/repo', limits: { memoryMb: 1, cpus: 1, pids: 1 }, timeoutSec: 1 },
    specs: Array.from({ length: specs }, (_, i) => ({ id: `S${i}`, text: '', category: i === 0 ? category : 'c', dependsOn: [] })),
    tests: [],
    verifier: { command: 'true', parser: 'pytest' },
    notes: [],
    source: { importer: 'swebench', flavor },
    dir: `tasks/${id}`,
    files: { task: '', request: '', testPatch: '' },
    attempts: [],
  };
}

describe('spec statistics for the panel', () => {
  it('a small dataset: the view is what the statistics say, and it validates', () => {
    const v = buildSpecStatsView(specStats({ tasks: [mk('a', 2, 'swe-gym'), mk('b', 3, 'swe-gym'), mk('c', 0, 'r2e-gym')] }));
    assert.equal(specStatsViewProblem(v), undefined);
    assert.deepEqual(
      v.bySource.map((g) => [g.source, g.tasks, g.specsPerTask?.mean]),
      [
        ['swe-gym', 2, 2.5],
        ['r2e-gym', 1, 0],
      ],
    );
    assert.deepEqual([v.moreSources, v.moreCategories], [0, 0]);
  });

  it('thousands of sources, categories and spec counts (hostile) still make one bounded message: the rest counted, not listed', () => {
    const tasks = Array.from({ length: 300 }, (_, i) => mk(`t${i}`, i % 150, `src-${i}-${'x'.repeat(400)}`, `cat-${i}`));
    const v = buildSpecStatsView(specStats({ tasks, resamples: 50 }));
    assert.equal(v.bySource.length, MAX_SPEC_ROWS);
    assert.equal(v.moreSources, 300 - MAX_SPEC_ROWS);
    assert.equal(v.couplingByCategory.length, MAX_SPEC_ROWS);
    assert.ok(v.moreCategories > 0);
    assert.equal(v.all.histogram.length, MAX_SPEC_HISTOGRAM);
    const last = v.all.histogram[MAX_SPEC_HISTOGRAM - 1];
    assert.equal(last?.orMore, true);
    assert.equal(last?.specs, MAX_SPEC_HISTOGRAM - 1);
    assert.equal(
      v.all.histogram.reduce((n, h) => n + h.tasks, 0),
      300,
      'every task is in the histogram',
    );
    assert.ok(v.bySource.every((g) => g.source.length <= 200));
    assert.equal(specStatsViewProblem(v), undefined);
    assert.ok(JSON.stringify(v).length < 200_000);
  });

  it('the page refuses figures of the wrong shape', () => {
    const good = buildSpecStatsView(specStats({ tasks: [mk('a', 2, 'swe-gym')] }));
    assert.ok(isSpecStatsView(good));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test writes wrong shapes on purpose
    type Loose = Record<string, any>;
    const bad = (f: (v: Loose) => void) => {
      const v = structuredClone(good) as unknown as Loose;
      f(v);
      return specStatsViewProblem(v);
    };
    assert.match(bad((v) => (v.all.specsPerTask.mean = NaN)) ?? '', /specs.all/);
    assert.match(bad((v) => (v.all.coupling.median = 3)) ?? '', /specs.all/);
    assert.match(bad((v) => (v.bySource = 'x')) ?? '', /bySource/);
    assert.match(bad((v) => (v.bySource = Array.from({ length: 41 }, () => good.all))) ?? '', /at most 40/);
    assert.match(bad((v) => delete v.evidence.coFlip) ?? '', /evidence/);
    assert.match(bad((v) => (v.couplingByCategory = [{ category: 7 }])) ?? '', /couplingByCategory/);
    assert.match(specStatsViewProblem(null) ?? '', /not an object/);
  });
});
