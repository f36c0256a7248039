import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CandidateTask, SpecVerdict } from '../../../src/core/model';
import { reduceLog } from '../../../src/core/review/reducer';
import type { TaskVerifierResults } from '../../../src/core/review/verdicts';
import type { CouplingInput } from '../../../src/core/specs/coupling';
import { couplingFigure, measuredVerdicts, taskCoupling } from '../../../src/core/specs/coupling';
import { label } from '../review/helpers';

const P = 'pass';
const F = 'fail';

/** Specs S1..Sn, each with its own test T1..Tn unless `tests` says otherwise, verdict columns per spec. */
function mk(o: { specs: number; deps?: Record<string, string[]>; tests?: Record<string, string[]>; columns?: Record<string, Array<SpecVerdict | undefined>> }): CouplingInput {
  const ids = Array.from({ length: o.specs }, (_, i) => `S${i + 1}`);
  const tests = o.tests
    ? Object.entries(o.tests).map(([id, specs]) => ({ id, specs }))
    : ids.map((s, i) => ({ id: `T${i + 1}`, specs: [s] }));
  const cols = o.columns ?? {};
  const rows = Math.max(0, ...Object.values(cols).map((c) => c.length));
  const verdicts = Array.from({ length: rows }, (_, r) => Object.fromEntries(Object.entries(cols).map(([s, c]) => [s, c[r]])));
  return { specs: ids.map((id) => ({ id, dependsOn: o.deps?.[id] ?? [] })), tests, verdicts };
}

describe('coupling figure', () => {
  it('independent specs: own tests, no links, verdicts that do not move together -> 0, one group per spec', () => {
    const c = taskCoupling(
      mk({
        specs: 3,
        columns: { S1: [P, P, F, F], S2: [P, F, P, F], S3: [P, P, P, P] },
      }),
    );
    assert.equal(c.coupling, 0);
    assert.equal(c.groupCount, 3);
    assert.equal(c.pairs, 3);
    assert.equal(c.coupledPairs, 0);
    assert.equal(c.pairShare, 0);
    assert.deepEqual(c.edges, []);
    assert.deepEqual(c.groups, [['S1'], ['S2'], ['S3']]);
    // S1 and S2 were measured (phi 0); S3 never changes, but the pair had 4 attempts: measured, no evidence.
    assert.equal(c.measuredPairs, 3);
    assert.deepEqual(
      c.specShare.map((s) => s.share),
      [0, 0, 0],
    );
  });

  it('a chain of dependsOn over all specs -> 1; two chains of two over four specs -> 1 - 1/3', () => {
    const chain = taskCoupling(mk({ specs: 4, deps: { S2: ['S1'], S3: ['S2'], S4: ['S3'] } }));
    assert.equal(chain.coupling, 1);
    assert.equal(chain.groupCount, 1);
    assert.equal(chain.coupledPairs, 3);
    assert.equal(chain.pairShare, 3 / 6);
    assert.deepEqual(
      chain.edges.map((e) => [e.a, e.b, e.evidence.declared, e.weight]),
      [
        ['S1', 'S2', 'b->a', 1],
        ['S2', 'S3', 'b->a', 1],
        ['S3', 'S4', 'b->a', 1],
      ],
    );
    assert.deepEqual(
      chain.specShare.map((s) => s.share),
      [1 / 3, 2 / 3, 2 / 3, 1 / 3],
    );
    const two = taskCoupling(mk({ specs: 4, deps: { S2: ['S1'], S4: ['S3'] } }));
    assert.equal(two.groupCount, 2);
    assert.ok(Math.abs(two.coupling - 2 / 3) < 1e-12, String(two.coupling));
    assert.deepEqual(two.groups, [
      ['S1', 'S2'],
      ['S3', 'S4'],
    ]);
    // A link written on both sides is one edge, `both`.
    const mutual = taskCoupling(mk({ specs: 2, deps: { S1: ['S2'], S2: ['S1'] } }));
    assert.equal(mutual.edges.length, 1);
    assert.equal(mutual.edges[0]?.evidence.declared, 'both');
  });

  it('two specs whose verdicts always flip together are coupled (phi 1); opposed flips too (phi -1)', () => {
    const together = taskCoupling(mk({ specs: 3, columns: { S1: [P, F, P, F, F], S2: [P, F, P, F, F], S3: [P, P, F, F, P] } }));
    const e = together.edges.find((x) => x.a === 'S1' && x.b === 'S2');
    assert.ok(e, 'S1-S2 coupled');
    assert.deepEqual(e.evidence, { coFlip: { phi: 1, attempts: 5 } });
    assert.equal(e.weight, 1);
    assert.equal(together.edges.length, 1, 'S3 moves on its own');
    assert.equal(together.byEvidence.coFlip, 1);
    assert.ok(Math.abs(together.coupling - 0.5) < 1e-12);

    const opposed = taskCoupling(mk({ specs: 2, columns: { S1: [P, F, P, F], S2: [F, P, F, P] } }));
    assert.equal(opposed.coupling, 1);
    assert.equal(opposed.edges[0]?.evidence.coFlip?.phi, -1);
  });

  it('a co-flip needs minAttempts attempts with both verdicts; unknown verdicts do not count', () => {
    // Two attempts only: too few to say anything.
    const few = taskCoupling(mk({ specs: 2, columns: { S1: [P, F], S2: [P, F] } }));
    assert.equal(few.coupling, 0);
    assert.equal(few.measuredPairs, 0);
    // Five attempts, but S2 has a verdict in only two of them.
    const gaps = taskCoupling(mk({ specs: 2, columns: { S1: [P, F, P, F, P], S2: [P, F, undefined, 'unknown', undefined] } }));
    assert.equal(gaps.coupling, 0);
    assert.equal(gaps.measuredPairs, 0);
    // With minAttempts 2 the two attempts are enough.
    assert.equal(taskCoupling(mk({ specs: 2, columns: { S1: [P, F], S2: [P, F] } }), { minAttempts: 2 }).coupling, 1);
    // A weak correlation under the threshold is no evidence: phi of this table is 1/3.
    const weak = taskCoupling(mk({ specs: 2, columns: { S1: [P, P, F, F, P, F], S2: [P, P, F, P, F, F] } }));
    assert.equal(weak.coupling, 0);
    assert.ok(Math.abs((taskCoupling(mk({ specs: 2, columns: { S1: [P, P, F, F, P, F], S2: [P, P, F, P, F, F] } }), { coFlipPhi: 0.3 }).edges[0]?.evidence.coFlip?.phi ?? 0) - 1 / 3) < 1e-12);
  });

  it('specs sharing tests are coupled with the Jaccard index of their test sets', () => {
    const c = taskCoupling(mk({ specs: 3, tests: { T1: ['S1'], T2: ['S1', 'S2'], T3: ['S2'], T4: ['S3'] } }));
    assert.deepEqual(c.edges, [{ a: 'S1', b: 'S2', weight: 1 / 3, evidence: { sharedTests: { tests: ['T2'], jaccard: 1 / 3 } } }]);
    assert.equal(c.byEvidence.sharedTests, 1);
    assert.equal(c.coupling, 0.5);
    assert.deepEqual(
      c.nodes.map((n) => [n.id, n.group, n.degree, n.tests]),
      [
        ['S1', 0, 1, 2],
        ['S2', 0, 1, 2],
        ['S3', 1, 0, 1],
      ],
    );
    // The same tests on both: Jaccard 1.
    assert.equal(taskCoupling(mk({ specs: 2, tests: { T1: ['S1', 'S2'] } })).edges[0]?.weight, 1);
  });

  it('several kinds of evidence on one pair are all named, the weight is the strongest', () => {
    const c = taskCoupling(mk({ specs: 2, deps: { S1: ['S2'] }, tests: { T1: ['S1', 'S2'], T2: ['S1'] }, columns: { S1: [P, F, P], S2: [P, F, P] } }));
    assert.equal(c.edges.length, 1);
    assert.deepEqual(c.edges[0]?.evidence, { sharedTests: { tests: ['T1'], jaccard: 0.5 }, declared: 'a->b', coFlip: { phi: 1, attempts: 3 } });
    assert.equal(c.edges[0]?.weight, 1);
    assert.deepEqual(c.byEvidence, { sharedTests: 1, declared: 1, coFlip: 1 });
    assert.equal(c.coupledPairs, 1);
  });

  it('is well defined for 0, 1 and 2 specs', () => {
    const none = taskCoupling({ specs: [], tests: [], verdicts: [] });
    assert.deepEqual([none.specs, none.coupling, none.groupCount, none.pairs, none.pairShare], [0, 0, 0, 0, 0]);
    const one = taskCoupling(mk({ specs: 1, columns: { S1: [P, F, P] } }));
    assert.deepEqual([one.specs, one.coupling, one.groupCount, one.pairs, one.pairShare], [1, 0, 1, 0, 0]);
    assert.deepEqual(one.specShare, [{ id: 'S1', share: 0 }]);
    assert.equal(taskCoupling(mk({ specs: 2 })).coupling, 0);
    assert.equal(taskCoupling(mk({ specs: 2, deps: { S2: ['S1'] } })).coupling, 1);
    assert.equal(couplingFigure(0, 0), 0);
    assert.equal(couplingFigure(1, 1), 0);
    assert.equal(couplingFigure(5, 1), 1);
    assert.equal(couplingFigure(5, 5), 0);
  });

  it('ignores what does not name a spec of the task: unknown and self dependsOn, repeated ids, unknown specs in the map', () => {
    const c = taskCoupling({
      specs: [
        { id: 'S1', dependsOn: ['S1', 'nope', '__proto__'] },
        { id: 'S2', dependsOn: [] },
        { id: 'S1', dependsOn: [] },
      ],
      tests: [
        { id: 'T1', specs: ['S1', 'S1', 'ghost'] },
        { id: 'T2', specs: ['S2', 'constructor'] },
      ],
      verdicts: [{ S1: 'pass', ghost: 'fail' }],
    });
    assert.equal(c.specs, 2);
    assert.equal(c.coupling, 0);
    assert.deepEqual(c.edges, []);
    assert.deepEqual(
      c.nodes.map((n) => n.tests),
      [1, 1],
    );
  });

  it('statistics mode (graph: false) gives the same figures without the graph', () => {
    const input = mk({ specs: 4, deps: { S2: ['S1'] }, tests: { T1: ['S3', 'S4'] } });
    const full = taskCoupling(input);
    const lean = taskCoupling(input, { graph: false });
    assert.equal(lean.coupling, full.coupling);
    assert.equal(lean.groupCount, full.groupCount);
    assert.deepEqual(lean.specShare, full.specShare);
    assert.deepEqual([lean.edges, lean.nodes, lean.groups], [[], [], []]);
    assert.equal(full.coupling, 1 - 1 / 3);
  });
});

describe('measured verdicts', () => {
  const task = {
    id: 't1',
    specs: [
      { id: 'S1', text: '', category: 'c', dependsOn: [] },
      { id: 'S2', text: '', category: 'c', dependsOn: [] },
    ],
    tests: [],
    attempts: [
      { id: 'a1', model: 'm', agent: '', dir: '', recordedResults: [] },
      { id: 'a2', model: 'm', agent: '', dir: '', recordedResults: [] },
      { id: 'a3', model: 'm', agent: '', dir: '', recordedResults: [] },
    ],
  } as unknown as CandidateTask;
  const run = (specs: Record<string, SpecVerdict>) => ({ source: 'run' as const, runId: 'r', status: 'passed' as const, specs, tests: {}, revision: 1 });
  const verifier: TaskVerifierResults = {
    attempts: { a1: run({ S1: 'pass', S2: 'pass' }), a2: run({ S1: 'fail', S2: 'unknown' }), gold: run({ S1: 'pass', S2: 'pass' }) },
    flags: [],
  };

  it('without labels: the verifier verdicts per solver attempt (probes left out, missing runs empty)', () => {
    assert.deepEqual(measuredVerdicts(task, undefined, verifier), [{ S1: 'pass', S2: 'pass' }, { S1: 'fail', S2: 'unknown' }, {}]);
  });

  it("the curators' settled verdict wins over the verifier's; unsure and unknown give none", () => {
    const state = reduceLog([label('a1', 'S2', 'violated'), label('a2', 'S2', 'satisfied'), label('a3', 'S1', 'satisfied'), label('a1', 'S1', 'unsure')]);
    const st = state.tasks.get('t1');
    assert.deepEqual(measuredVerdicts(task, st, verifier), [{ S1: 'pass', S2: 'fail' }, { S1: 'fail', S2: 'pass' }, { S1: 'pass' }]);
  });
});
