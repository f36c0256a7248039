import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CandidateTask } from '../../../src/core/model';
import { reduceLog } from '../../../src/core/review/reducer';
import { curationStats } from '../../../src/core/review/stats';
import type { VerifierVerdicts } from '../../../src/core/review/verdicts';
import { ev, label } from './helpers';

/** A task with attempts a (model m1) and b (model m2) and specs S1 (category parse), S2 (category errors). */
function mk(id: string): CandidateTask {
  return {
    id,
    title: id,
    revision: 1,
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
    attempts: [
      { id: 'a', model: 'm1', agent: '', dir: '', recordedResults: [] },
      { id: 'b', model: 'm2', agent: '', dir: '', recordedResults: [] },
    ],
  };
}

const tasks = ['fp', 'fn', 'both', 'none', 'open', 'untouched'].map(mk);
// Verifier: attempt a passes everything, attempt b fails everything.
const verdicts: VerifierVerdicts = Object.fromEntries(
  tasks.map((t) => [
    t.id,
    {
      attempts: {
        a: { source: 'run', runId: 'ra', status: 'passed', resolved: true, specs: { S1: 'pass', S2: 'pass' }, tests: {}, revision: 1 },
        b: { source: 'run', runId: 'rb', status: 'failed', resolved: false, specs: { S1: 'fail', S2: 'fail' }, tests: {}, revision: 1 },
      },
      flags: [],
    },
  ]),
);

const day1 = (h: number) => ({ time: `2026-12-01T${String(h).padStart(2, '0')}:00:00.000Z` });
const day2 = (h: number) => ({ time: `2026-12-02T${String(h).padStart(2, '0')}:00:00.000Z` });

const events = [
  // fp: a violates S2 though it passed -> false positive
  label('a', 'S1', 'satisfied', { task: 'fp', ...day1(1) }),
  label('a', 'S2', 'violated', { task: 'fp', ...day1(2) }),
  label('b', 'S1', 'violated', { task: 'fp', ...day1(3) }),
  ev('submit', {}, { task: 'fp', ...day1(4) }),
  // fn: b satisfies S1 though it failed -> false negative
  label('b', 'S1', 'satisfied', { task: 'fn', ...day1(5) }),
  ev('submit', {}, { task: 'fn', ...day1(6) }),
  // both
  label('a', 'S1', 'violated', { task: 'both', ...day2(1) }),
  label('b', 'S2', 'satisfied', { task: 'both', ...day2(2) }),
  ev('status', { from: 'in_review', to: 'flagged' }, { task: 'both', ...day2(3) }),
  // none: reviewed and approved
  label('a', 'S1', 'satisfied', { task: 'none', ...day2(4) }),
  ev('approve', { waivers: [], runs: [] }, { task: 'none', ...day2(5) }),
  // open: in review, not submitted -> not counted as reviewed, though it has a false positive
  label('a', 'S2', 'violated', { task: 'open', ...day2(6) }),
  // bob on fp: agrees on a×S1, disagrees on a×S2, agrees on b×S1
  label('a', 'S1', 'satisfied', { task: 'fp', curator: 'bob', ...day2(7) }),
  label('a', 'S2', 'satisfied', { task: 'fp', curator: 'bob', ...day2(8) }),
  label('b', 'S1', 'violated', { task: 'fp', curator: 'bob', ...day2(9) }),
];

describe('curationStats', () => {
  // Adjudication leaves fp's a×S2 open once bob disagrees; the Verified policy keeps it a false positive.
  const s = curationStats({ tasks, state: reduceLog(events), verdicts, policy: 'highest-severity' });

  it('breaks reviewed tasks down into FP only / FN only / both / none', () => {
    assert.deepEqual(
      { ...s.breakdown, shares: undefined },
      { reviewed: 4, falsePositivesOnly: 1, falseNegativesOnly: 1, both: 1, none: 1, shares: undefined },
    );
    assert.equal(s.breakdown.shares?.both, 0.25);
  });

  it('counts the funnel and the statuses', () => {
    assert.deepEqual(s.funnel, { imported: 6, reviewed: 4, approved: 1, rejected: 0 });
    assert.equal(s.byStatus.candidate, 1);
    assert.equal(s.byStatus.flagged, 1);
    assert.equal(s.byStatus.in_review, 3);
  });

  it('gives defect rates by spec category and by solver model over decided pairs', () => {
    const parse = s.byCategory.find((c) => c.category === 'parse');
    const errors = s.byCategory.find((c) => c.category === 'errors');
    // S1 decided: fp a (tp), fp b (tf), fn b (FN), both a (FP), none a (tp) = 5, with 1 FP and 1 FN.
    assert.deepEqual([parse?.decided, parse?.falsePositives, parse?.falseNegatives, parse?.specs], [5, 1, 1, 6]);
    // S2 decided: fp a (FP), both b (FN), open a (FP) = 3.
    assert.deepEqual([errors?.decided, errors?.falsePositives, errors?.falseNegatives], [3, 2, 1]);
    assert.equal(errors?.fpRate, 2 / 3);
    const m1 = s.bySolver.find((m) => m.model === 'm1');
    const m2 = s.bySolver.find((m) => m.model === 'm2');
    assert.deepEqual([m1?.attempts, m1?.decided, m1?.falsePositives, m1?.attemptsWithFalsePositive], [6, 5, 3, 3]);
    assert.deepEqual([m2?.decided, m2?.falseNegatives, m2?.attemptsWithFalseNegative], [3, 2, 2]);
  });

  it('measures agreement on verdicts with the items behind it', () => {
    const v = s.agreement.find((a) => a.kind === 'verdict');
    assert.equal(v?.curators, 2);
    assert.equal(v?.items, 3);
    assert.equal(v?.kappaItems, 3);
    // alice: s v v; bob: s s v. p_o = 2/3; alice s 1/3 v 2/3; bob s 2/3 v 1/3; p_e = 4/9; kappa = 0.4.
    assert.equal(v?.kappa?.toFixed(6), '0.400000');
    assert.equal(s.disagreements.settled, 1);
  });

  it('counts events per curator per day', () => {
    assert.deepEqual(s.throughput, [
      { curator: 'alice', day: '2026-12-01', events: 6 },
      { curator: 'alice', day: '2026-12-02', events: 6 },
      { curator: 'bob', day: '2026-12-02', events: 3 },
    ]);
    assert.deepEqual(s.curators.map((c) => [c.curator, c.events, c.labels, c.tasks]), [['alice', 12, 8, 5], ['bob', 3, 3, 1]]);
  });

  it('leaves a disagreement open under adjudication (the pair is then undecided)', () => {
    const adj = curationStats({ tasks, state: reduceLog(events), verdicts });
    assert.equal(adj.disagreements.open, 1);
    // fp's only defect was a×S2, now undecided: fp falls to "none".
    assert.deepEqual([adj.breakdown.falsePositivesOnly, adj.breakdown.none], [0, 2]);
  });
});
