// Golden outputs of the coupling and spec statistics on seeded datasets (goldenDataset.ts), pinned before the
// performance work of issue 12 so that every later change of method must give the same bytes: the whole JSON of
// `specStats` (the bootstrap included: same seed, same intervals) and a digest of every task's coupling graph and
// measured verdicts. Regenerate only on purpose: GOLDEN_UPDATE=1 node --import tsx --test test/unit/specs/statsGolden.test.ts
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { reduceLog } from '../../../src/core/review/reducer';
import { withRecordedFallback } from '../../../src/core/review/verdicts';
import { measuredVerdicts, taskCoupling } from '../../../src/core/specs/coupling';
import { specStats } from '../../../src/core/specs/stats';
import { goldenDataset } from './goldenDataset';

const FILE = join(__dirname, 'statsGolden.json');
const update = process.env.GOLDEN_UPDATE === '1';

function outputs(): Record<string, unknown> {
  const a = goldenDataset(200, 5);
  const state = reduceLog(a.events);
  const b = goldenDataset(3000, 9, true);
  const bState = reduceLog(b.events);
  const graphs = (policy: 'adjudicate' | 'highest-severity', options: { minAttempts?: number; coFlipPhi?: number }) =>
    a.tasks.map((t) => {
      const verdicts = measuredVerdicts(t, state.tasks.get(t.id), withRecordedFallback(t, a.verdicts[t.id]), policy);
      return { task: t.id, verdicts, coupling: taskCoupling({ specs: t.specs, tests: t.tests, verdicts }, options) };
    });
  const digest = (x: unknown) => createHash('sha256').update(JSON.stringify(x)).digest('hex');
  const w = goldenDataset(40, 13, false, true);
  const wState = reduceLog(w.events);
  const gw = w.tasks.map((t) => {
    const verdicts = measuredVerdicts(t, wState.tasks.get(t.id), withRecordedFallback(t, w.verdicts[t.id]));
    return { task: t.id, verdicts, coupling: taskCoupling({ specs: t.specs, tests: t.tests, verdicts }) };
  });
  const g1 = graphs('adjudicate', {});
  const g2 = graphs('highest-severity', { minAttempts: 2, coFlipPhi: 0.3 });
  return {
    stats: specStats({ tasks: a.tasks, state, verdicts: a.verdicts }),
    statsOptions: specStats({ tasks: a.tasks, state, verdicts: a.verdicts, policy: 'highest-severity', resamples: 500, seed: 3, coupling: { minAttempts: 2, coFlipPhi: 0.3 } }),
    statsRecordedOnly: specStats({ tasks: a.tasks }),
    statsLarge: specStats({ tasks: b.tasks, state: bState, verdicts: b.verdicts }),
    graphsDigest: digest(g1),
    graphsOptionsDigest: digest(g2),
    // A few graphs in full, so a difference can be read and not only detected.
    graphsSample: g1.filter((_, i) => i % 40 === 3 || i === 23),
    // 17 to 40 specs a task (pinned on d54aef5's code too, kept in bench/baseline/specStats).
    statsWide: specStats({ tasks: w.tasks, state: wState, verdicts: w.verdicts }),
    graphsWideDigest: digest(gw),
  };
}

describe('golden outputs of the coupling and spec statistics', () => {
  it('specStats and every task coupling graph give the pinned bytes on the seeded datasets', () => {
    const now = JSON.parse(JSON.stringify(outputs())) as Record<string, unknown>;
    if (update) writeFileSync(FILE, JSON.stringify(now, null, 1) + '\n');
    const pinned = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>;
    for (const k of Object.keys(pinned)) assert.deepEqual(now[k], pinned[k], k);
    assert.deepEqual(Object.keys(now), Object.keys(pinned));
  });

  it('the dataset reaches the paths it is meant to: both bootstrap methods, labels, several verdict words', () => {
    const a = goldenDataset(200, 5);
    const st = reduceLog(a.events);
    assert.ok(a.tasks.some((t) => t.attempts.length > 32));
    assert.ok(a.tasks.some((t) => t.specs.length === 0) && a.tasks.some((t) => t.specs.length === 1));
    assert.ok(a.tasks.some((t) => new Set(t.specs.map((s) => s.id)).size < t.specs.length));
    const labelled = [...st.tasks.values()];
    assert.ok(labelled.filter((s) => s.labels.size > 1).length > 5);
    assert.ok(labelled.some((s) => [...s.labels.values()].some((m) => [...m.values()].some((l) => l.stale))));
    assert.ok(labelled.some((s) => s.adjudications.size > 0));
    assert.ok(labelled.some((s) => s.undone.size > 0));
    // The large dataset: few distinct (specs, categories) pairs, so its whole-dataset interval is drawn as counts
    // (50 tasks or more per distinct pair) and its per-source ones (500 tasks) task by task.
    const b = goldenDataset(3000, 9, true);
    const pairs = new Set(b.tasks.map((t) => `${t.specs.length},${new Set(t.specs.map((s) => s.category)).size}`));
    assert.ok(pairs.size * 50 <= 3000 && pairs.size * 50 > 500, String(pairs.size));
  });
});
