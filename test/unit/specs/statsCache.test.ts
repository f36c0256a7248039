// The per-task cache of the spec statistics (stats.ts): the statistics panel recomputes on every change, and a change
// of one task must give what a computation from nothing gives. "From nothing" is the same tasks as new objects, which
// the cache cannot know.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CandidateTask } from '../../../src/core/model';
import type { ReviewEvent } from '../../../src/core/review/events';
import { addEvents, reduceLog } from '../../../src/core/review/reducer';
import type { ReviewState } from '../../../src/core/review/reducer';
import type { VerifierVerdicts } from '../../../src/core/review/verdicts';
import type { SpecStatsInput } from '../../../src/core/specs/stats';
import { specStats } from '../../../src/core/specs/stats';
import { goldenDataset } from './goldenDataset';

/** Labels by `curator` on spec `spec` of every attempt of `task`: `verdict(i)` on attempt i. */
function labels(task: CandidateTask, curator: string, specs: string[], verdict: (i: number) => string, from: number): ReviewEvent[] {
  const out: ReviewEvent[] = [];
  task.attempts.forEach((a, i) => {
    for (const spec of specs) {
      const n = from + out.length;
      out.push({
        id: `X${curator}${String(n).padStart(6, '0')}`,
        time: new Date(Date.UTC(2027, 0, 1) + n * 1000).toISOString(),
        curator,
        task: task.id,
        revision: 1,
        kind: 'label',
        payload: { attempt: a.id, spec, verdict: verdict(i), evidence: [] },
      } as ReviewEvent);
    }
  });
  return out;
}

const fromNothing = (input: SpecStatsInput) => specStats({ ...input, tasks: input.tasks.map((t) => ({ ...t })) });

function setup(): { tasks: CandidateTask[]; state: ReviewState; verdicts: VerifierVerdicts; task: CandidateTask } {
  const d = goldenDataset(200, 5);
  // A task with specs, several attempts and verifier results on every one of them.
  const task = d.tasks.find((t) => t.specs.length >= 4 && t.attempts.length >= 6 && t.attempts.every((a) => d.verdicts[t.id]?.attempts[a.id])) as CandidateTask;
  assert.ok(task);
  return { tasks: d.tasks, state: reduceLog(d.events), verdicts: d.verdicts, task };
}

describe('spec statistics after a change of one task', () => {
  it('labels on one task: the figures a computation from nothing gives, and not the ones before', () => {
    const { tasks, state, verdicts, task } = setup();
    const before = specStats({ tasks, state, verdicts });
    // Every attempt of the task: S1 and S2 violated together on odd attempts, satisfied on even ones (a co-flip).
    const events = labels(task, 'dora', [task.specs[0]?.id as string, task.specs[1]?.id as string], (i) => (i % 2 ? 'violated' : 'satisfied'), 0);
    const after = addEvents(state, events);
    const now = specStats({ tasks, state: after, verdicts });
    assert.deepEqual(now, fromNothing({ tasks, state: after, verdicts }));
    assert.notDeepEqual(now.evidence, before.evidence);
    // And back: the old state gives the old figures again.
    assert.deepEqual(specStats({ tasks, state, verdicts }), before);
  });

  it('new verifier results for one task, a new revision of another, another policy and options: each as from nothing', () => {
    const { tasks, state, verdicts, task } = setup();
    const before = specStats({ tasks, state, verdicts });
    const results = verdicts[task.id] as VerifierVerdicts[string];
    const flipped: VerifierVerdicts[string] = { ...results, attempts: {} };
    for (const [id, a] of Object.entries(results.attempts)) {
      flipped.attempts[id] = { ...a, specs: Object.fromEntries(Object.entries(a.specs).map(([s, v], k) => [s, k % 2 ? v : v === 'pass' ? 'fail' : 'pass'])) };
    }
    const runs = { ...verdicts, [task.id]: flipped };
    const withRuns = specStats({ tasks, state, verdicts: runs });
    assert.deepEqual(withRuns, fromNothing({ tasks, state, verdicts: runs }));
    assert.notDeepEqual(withRuns.evidence, before.evidence);

    // A spec edit: the task at a new revision, a new object, its last spec gone and a link added.
    const i = tasks.indexOf(task);
    const edited: CandidateTask = {
      ...task,
      revision: 2,
      specs: task.specs.slice(0, -1).map((s, k) => (k === 1 ? { ...s, dependsOn: [task.specs[0]?.id as string] } : s)),
    };
    const revised = tasks.map((t, k) => (k === i ? edited : t));
    const afterEdit = specStats({ tasks: revised, state, verdicts });
    assert.deepEqual(afterEdit, fromNothing({ tasks: revised, state, verdicts }));
    assert.notDeepEqual(afterEdit.all.histogram, before.all.histogram);

    // Two curators who disagree on every attempt of two specs: the policy decides what the co-flip reads.
    const specs = [task.specs[0]?.id as string, task.specs[1]?.id as string];
    const split = addEvents(state, [...labels(task, 'dora', specs, (i) => (i % 2 ? 'violated' : 'satisfied'), 0), ...labels(task, 'erin', specs, () => 'violated', 500)]);
    const adjudicate = specStats({ tasks, state: split, verdicts });
    const severity: SpecStatsInput = { tasks, state: split, verdicts, policy: 'highest-severity' };
    assert.deepEqual(specStats(severity), fromNothing(severity));
    assert.notDeepEqual(specStats(severity).evidence, adjudicate.evidence);
    const variants: SpecStatsInput[] = [
      { tasks, state, verdicts, coupling: { minAttempts: 2 } },
      { tasks, state, verdicts, coupling: { coFlipPhi: 0.3 } },
    ];
    for (const v of variants) {
      // The cache filled with the default options first: the variant must not be read from it.
      specStats({ tasks, state, verdicts });
      const s = specStats(v);
      assert.deepEqual(s, fromNothing(v), JSON.stringify(v.policy ?? v.coupling));
      assert.notDeepEqual(s.evidence, before.evidence, JSON.stringify(v.policy ?? v.coupling));
    }
    assert.deepEqual(specStats({ tasks, state, verdicts }), before);
  });
});
