// Calibration of the review agent against curators on a scripted set with hand-computed answers: precision, recall
// and Cohen's kappa of its false-positive and false-negative findings, the counts behind them, what is left out
// (unlabelled pairs, stale labels, superseded findings), and seeded bootstrap intervals that contain the point and
// narrow with more data.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Confusion } from '../../../src/core/findings/calibration';
import { calibrate, calibrationStats, tableFigures } from '../../../src/core/findings/calibration';
import type { FindingJudgment, FindingsPayload } from '../../../src/core/findings/model';
import type { CandidateTask, SpecVerdict } from '../../../src/core/model';
import { cohensKappa } from '../../../src/core/review/agreement';
import type { ReviewEvent } from '../../../src/core/review/events';
import { reduceLog } from '../../../src/core/review/reducer';
import type { VerifierVerdicts } from '../../../src/core/review/verdicts';
import { ev, label } from '../review/helpers';

const ATTEMPTS = Array.from({ length: 10 }, (_, i) => `a${i}`);

function mk(id = 't1', revision = 1): CandidateTask {
  return {
    id,
    title: id,
    revision,
    repo: { name: 'x/y', kind: 'image' },
    environment: { image: 'i', workdir: '/repo', limits: { memoryMb: 1, cpus: 1, pids: 1 }, timeoutSec: 1 },
    specs: [
      { id: 'S1', text: '', category: 'parse', dependsOn: [] },
      { id: 'S2', text: '', category: 'errors', dependsOn: [] },
    ],
    tests: [
      { id: 'T1', name: 't1', kind: 'fail_to_pass', specs: ['S1'] },
      { id: 'T2', name: 't2', kind: 'fail_to_pass', specs: ['S2'] },
    ],
    verifier: { command: 'true', parser: 'pytest' },
    notes: [],
    dir: `tasks/${id}`,
    files: { task: '', request: '', testPatch: '', goldPatch: 'g' },
    attempts: ATTEMPTS.map((a) => ({ id: a, model: 'solver', agent: '', dir: '', recordedResults: [] })),
  };
}

/** a0..a5 pass both specs, a6..a9 fail both. */
function verdictsFor(task: CandidateTask): VerifierVerdicts {
  const attempts = Object.fromEntries(
    ATTEMPTS.map((a, i) => {
      const v: SpecVerdict = i < 6 ? 'pass' : 'fail';
      return [a, { source: 'run' as const, runId: `r-${a}`, status: i < 6 ? ('passed' as const) : ('failed' as const), resolved: i < 6, specs: { S1: v, S2: v }, tests: {}, revision: task.revision }];
    }),
  );
  return { [task.id]: { attempts, flags: [] } };
}

const HASH = 'ab'.repeat(32);

function findings(attempt: string, judgments: Record<string, FindingJudgment>, opts: { model?: string; promptVersion?: string; patchHash?: string } = {}): FindingsPayload {
  return {
    attempt,
    patchHash: opts.patchHash ?? HASH,
    model: opts.model ?? 'judge-1',
    promptVersion: opts.promptVersion ?? 'review-1',
    promptHash: 'cd'.repeat(32),
    findings: Object.entries(judgments).map(([spec, judgment]) => ({ spec, judgment, confidence: 0.7, rationale: 'r', citations: [] })),
    dropped: [],
  };
}

const agent = (attempt: string, judgments: Record<string, FindingJudgment>, opts: Parameters<typeof findings>[2] & { at?: number; revision?: number } = {}) =>
  ev('review.findings', findings(attempt, judgments, opts), { curator: 'agent:judge-1', ...(opts.at !== undefined ? { at: opts.at } : {}), ...(opts.revision !== undefined ? { revision: opts.revision } : {}) });

/**
 * The scripted set on S1 (hand-computed):
 *   FP pairs (verifier passes): a0, a1 TP; a2 agent-only; a3 curator-only; a4, a5 neither.
 *     precision 2/3, recall 2/3, kappa: p_o = 4/6, p_e = (3·3 + 3·3)/36 = 1/2, kappa = 1/3.
 *   FN pairs (verifier fails): a6 TP; a7 agent-only; a8 neither; a9 curator-only (the agent was unsure).
 *     precision 1/2, recall 1/2, p_o = 1/2, p_e = (2·2 + 2·2)/16 = 1/2, kappa = 0.
 *   Plus S2 of a0 judged by the agent with no curator label: unlabelled, in no denominator.
 */
function scriptedEvents(): ReviewEvent[] {
  const agentS1: Record<string, FindingJudgment> = { a0: 'violated', a1: 'violated', a2: 'violated', a3: 'satisfied', a4: 'satisfied', a5: 'satisfied', a6: 'satisfied', a7: 'satisfied', a8: 'violated', a9: 'unsure' };
  const curatorS1: Record<string, 'satisfied' | 'violated'> = { a0: 'violated', a1: 'violated', a2: 'satisfied', a3: 'violated', a4: 'satisfied', a5: 'satisfied', a6: 'satisfied', a7: 'violated', a8: 'violated', a9: 'satisfied' };
  const events: ReviewEvent[] = [];
  for (const a of ATTEMPTS) {
    events.push(agent(a, a === 'a0' ? { S1: agentS1[a] as FindingJudgment, S2: 'violated' } : { S1: agentS1[a] as FindingJudgment }));
    events.push(label(a, 'S1', curatorS1[a] as 'satisfied' | 'violated'));
  }
  return events;
}

describe('calibration of the review agent against curators', () => {
  it('gives the hand-computed precision, recall and kappa with the counts behind them', () => {
    const task = mk();
    const c = calibrationStats({ tasks: [task], state: reduceLog(scriptedEvents()), verdicts: verdictsFor(task), resamples: 500 });
    assert.equal(c.groups.length, 1);
    const g = c.groups[0];
    assert.ok(g);
    assert.deepEqual([g.promptVersion, g.model, g.findings, g.unlabelled, g.undecided, g.agentUnsure], ['review-1', 'judge-1', 11, 1, 0, 1]);
    const fp = g.falsePositive;
    assert.deepEqual([fp.tp, fp.fp, fp.fn, fp.tn, fp.pairs], [2, 1, 1, 2, 6]);
    assert.deepEqual([fp.precision.numerator, fp.precision.denominator, fp.recall.numerator, fp.recall.denominator], [2, 3, 2, 3]);
    assert.ok(Math.abs((fp.precision.value as number) - 2 / 3) < 1e-12);
    assert.ok(Math.abs((fp.recall.value as number) - 2 / 3) < 1e-12);
    assert.ok(Math.abs((fp.kappa.value as number) - 1 / 3) < 1e-12);
    const fn = g.falseNegative;
    assert.deepEqual([fn.tp, fn.fp, fn.fn, fn.tn, fn.pairs], [1, 1, 1, 1, 4]);
    assert.equal(fn.precision.value, 0.5);
    assert.equal(fn.recall.value, 0.5);
    assert.ok(Math.abs(fn.kappa.value as number) < 1e-12);
  });

  it("kappa agrees with the curators' agreement module on the same table", () => {
    const t: Confusion = { tp: 7, fp: 3, fn: 2, tn: 11 };
    const pairs: Array<[string, string]> = [];
    for (let i = 0; i < t.tp; i++) pairs.push(['y', 'y']);
    for (let i = 0; i < t.fp; i++) pairs.push(['y', 'n']);
    for (let i = 0; i < t.fn; i++) pairs.push(['n', 'y']);
    for (let i = 0; i < t.tn; i++) pairs.push(['n', 'n']);
    assert.ok(Math.abs((tableFigures(t).kappa as number) - (cohensKappa(pairs).kappa as number)) < 1e-12);
  });

  it('uses the adjudicated verdict over a disagreement, and counts an open disagreement as undecided', () => {
    const task = mk();
    const events = [
      agent('a0', { S1: 'violated' }),
      label('a0', 'S1', 'violated', { curator: 'alice' }),
      label('a0', 'S1', 'satisfied', { curator: 'bob' }),
      agent('a1', { S1: 'violated' }),
      label('a1', 'S1', 'violated', { curator: 'alice' }),
      label('a1', 'S1', 'satisfied', { curator: 'bob' }),
      ev('adjudicate', { target: 'label', attempt: 'a1', spec: 'S1', verdict: 'satisfied' }, { curator: 'carol' }),
    ];
    const g = calibrationStats({ tasks: [task], state: reduceLog(events), verdicts: verdictsFor(task), resamples: 50 }).groups[0];
    assert.ok(g);
    assert.equal(g.undecided, 1, 'a0: alice and bob differ, nobody adjudicated');
    // a1: adjudicated "satisfied" on a passing pair, the agent said violated: an agent-only FP.
    assert.deepEqual([g.falsePositive.tp, g.falsePositive.fp, g.falsePositive.fn, g.falsePositive.tn], [0, 1, 0, 0]);
    assert.equal(g.falsePositive.precision.value, 0);
    assert.equal(g.falsePositive.recall.value, undefined, 'no curator FP: recall is 0/0');
  });

  it('leaves out stale labels (the pair counts as unlabelled)', () => {
    const task = mk('t1', 2);
    const events = [
      agent('a0', { S1: 'violated' }, { revision: 2 }),
      label('a0', 'S1', 'violated'),
      ev('revision', { from: 1, changedSpecs: ['S1'] }, { revision: 2 }),
    ];
    const state = reduceLog(events);
    assert.equal([...(state.tasks.get('t1')?.labels.get('alice')?.values() ?? [])][0]?.stale, true);
    const g = calibrationStats({ tasks: [task], state, verdicts: verdictsFor(task), resamples: 50 }).groups[0];
    assert.ok(g);
    assert.deepEqual([g.findings, g.unlabelled, g.falsePositive.pairs], [1, 1, 0]);
  });

  it('counts only the latest findings per revision, attempt, patch, prompt version and model, and splits groups by version and model', () => {
    const task = mk();
    const events = [
      agent('a0', { S1: 'satisfied' }, { at: 1 }),
      agent('a0', { S1: 'violated' }, { at: 2 }), // supersedes the first
      agent('a0', { S1: 'satisfied' }, { at: 3, promptVersion: 'review-2' }),
      agent('a0', { S1: 'violated' }, { at: 4, model: 'judge-2' }),
      agent('a0', { S1: 'satisfied' }, { at: 5, model: 'judge-3', patchHash: 'ef'.repeat(32) }), // on another patch
      label('a0', 'S1', 'violated', { at: 6 }),
    ];
    const c = calibrationStats({ tasks: [task], state: reduceLog(events), verdicts: verdictsFor(task), patchHashes: { t1: { a0: HASH } }, resamples: 50 });
    assert.deepEqual(
      c.groups.map((g) => [g.promptVersion, g.model, g.falsePositive.tp, g.falsePositive.fn]),
      [
        ['review-1', 'judge-1', 1, 0],
        ['review-1', 'judge-2', 1, 0],
        ['review-2', 'judge-1', 0, 1],
      ],
    );
    assert.equal(c.notCurrent, 2, 'the superseded event and the one on another patch');
  });

  it('findings on attempts or specs the task does not have are counted, not judged', () => {
    const task = mk();
    const c = calibrationStats({ tasks: [task], state: reduceLog([agent('a0', { S9: 'violated' }), agent('zz', { S1: 'violated' })]), verdicts: verdictsFor(task), resamples: 50 });
    assert.equal(c.unknownPairs, 2);
    assert.equal(c.groups[0]?.findings, 0);
  });
});

describe('bootstrap intervals of the calibration figures', () => {
  const base: Confusion = { tp: 8, fp: 2, fn: 4, tn: 6 };
  const times = (c: Confusion, k: number): Confusion => ({ tp: c.tp * k, fp: c.fp * k, fn: c.fn * k, tn: c.tn * k });
  const width = (f: { low?: number; high?: number }) => (f.high as number) - (f.low as number);

  it('contain the point estimate and narrow with more data', () => {
    const small = calibrate(base, 2000, 12);
    const large = calibrate(times(base, 10), 2000, 12);
    for (const r of [small, large]) {
      for (const f of [r.precision, r.recall, r.kappa]) {
        assert.ok(f.value !== undefined && f.low !== undefined && f.high !== undefined);
        assert.ok(f.low <= f.value && f.value <= f.high, `${f.low} <= ${f.value} <= ${f.high}`);
      }
    }
    assert.equal(large.precision.value, small.precision.value);
    assert.ok(width(large.precision) < width(small.precision) / 2);
    assert.ok(width(large.recall) < width(small.recall) / 2);
    assert.ok(width(large.kappa) < width(small.kappa) / 2);
  });

  it('are deterministic for a seed and change with it', () => {
    assert.deepEqual(calibrate(base, 500, 7), calibrate(base, 500, 7));
    assert.notDeepEqual(calibrate(base, 500, 7).kappa, calibrate(base, 500, 8).kappa);
  });

  it('an empty table has no figures and no intervals', () => {
    const r = calibrate({ tp: 0, fp: 0, fn: 0, tn: 0 }, 100, 1);
    assert.deepEqual([r.precision, r.recall, r.kappa, r.pairs], [{}, {}, {}, 0]);
  });
});
