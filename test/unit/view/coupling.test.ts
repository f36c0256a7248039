// The coupling part of the task view model (core/view/taskView.ts buildCouplingView): the figure, its evidence, the
// groups and the edges heaviest first for a task whose answer is known, in the base model and with the verifier's
// verdicts; the graph bounded.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CandidateTask, SpecVerdict } from '../../../src/core/model';
import type { TaskVerifierResults } from '../../../src/core/review/verdicts';
import { buildCouplingView, buildTaskViewModel } from '../../../src/core/view/taskView';
import { COUPLING_VIEW_LIMITS } from '../../../src/protocol/messages';

const P = 'pass';
const F = 'fail';

/** Five specs: S1 and S2 share T1 (S2 also has T2), S3 and S4 flip together over four attempts, S5 on its own. */
function task(): CandidateTask {
  const spec = (id: string, dependsOn: string[] = []) => ({ id, text: `spec ${id}`, category: 'behavior', dependsOn });
  return {
    id: 't1',
    title: 'Known coupling',
    revision: 1,
    dir: 'tasks/t1',
    repo: { name: 'r' },
    environment: { image: 'img' },
    files: { request: 'request.md', testPatch: 'test.patch' },
    specs: [spec('S1'), spec('S2'), spec('S3'), spec('S4'), spec('S5')],
    tests: [
      { id: 'T1', name: 'test_one', kind: 'fail_to_pass', specs: ['S1', 'S2'] },
      { id: 'T2', name: 'test_two', kind: 'fail_to_pass', specs: ['S2'] },
      { id: 'T3', name: 'test_three', kind: 'fail_to_pass', specs: ['S3'] },
      { id: 'T4', name: 'test_four', kind: 'fail_to_pass', specs: ['S4'] },
      { id: 'T5', name: 'test_five', kind: 'pass_to_pass', specs: ['S5'] },
    ],
    attempts: ['a1', 'a2', 'a3', 'a4'].map((id) => ({ id, model: 'm', agent: '', dir: `attempts/${id}`, recordedResults: [] })),
  } as unknown as CandidateTask;
}

function verifier(): TaskVerifierResults {
  const run = (specs: Record<string, SpecVerdict>) => ({ source: 'run' as const, runId: 'r', status: 'passed' as const, specs, tests: {}, revision: 1 });
  const s3: SpecVerdict[] = [P, P, F, F];
  const s5: SpecVerdict[] = [P, F, P, F];
  return {
    attempts: Object.fromEntries(['a1', 'a2', 'a3', 'a4'].map((a, i) => [a, run({ S1: P, S2: P, S3: s3[i] as SpecVerdict, S4: s3[i] as SpecVerdict, S5: s5[i] as SpecVerdict })])),
    flags: [],
  };
}

describe('coupling in the task view model', () => {
  it('with the verifier verdicts: figure 1 - 2/4, three groups, the co-flip edge before the shared-test edge', () => {
    const v = buildCouplingView(task(), { verifier: verifier() });
    assert.equal(v.figure, 0.5);
    assert.equal(v.specs, 5);
    assert.equal(v.pairs, 10);
    assert.equal(v.coupledPairs, 2);
    assert.deepEqual(v.byEvidence, { sharedTests: 1, declared: 0, coFlip: 1 });
    assert.equal(v.attempts, 4);
    assert.equal(v.measuredPairs, 10);
    assert.equal(v.groupCount, 3);
    assert.deepEqual(v.groups, [{ specs: ['S1', 'S2'], more: 0 }, { specs: ['S3', 'S4'], more: 0 }, { specs: ['S5'], more: 0 }]);
    assert.deepEqual(v.edges, [
      { a: 'S3', b: 'S4', weight: 1, coFlip: { phi: 1, attempts: 4 } },
      { a: 'S1', b: 'S2', weight: 0.5, sharedTests: { tests: ['T1'], more: 0, jaccard: 0.5 } },
    ]);
    assert.equal(v.edgesOmitted, 0);
    assert.deepEqual(v.nodes.map((n) => [n.id, n.group, n.degree, n.tests]), [['S1', 0, 1, 1], ['S2', 0, 1, 2], ['S3', 1, 1, 1], ['S4', 1, 1, 1], ['S5', 2, 0, 1]]);
  });

  it('the base model (no verdicts measured): only the shared test and a declared link couple', () => {
    const t = task();
    (t.specs[4] as { dependsOn: string[] }).dependsOn = ['S1'];
    const model = buildTaskViewModel({ task: t, status: 'candidate', trusted: true, request: { text: 'Do it.' }, testPatch: { error: 'missing' }, attemptPatches: new Map() });
    const v = model.coupling;
    assert.ok(v);
    assert.equal(v.figure, 1 - 2 / 4);
    assert.deepEqual(v.groups.map((g) => g.specs), [['S1', 'S2', 'S5'], ['S3'], ['S4']]);
    assert.deepEqual(v.edges.map((e) => [e.a, e.b, e.weight, e.declared ?? null]), [['S1', 'S5', 1, 'b->a'], ['S1', 'S2', 0.5, null]]);
    assert.equal(v.measuredPairs, 0);
  });

  it('a task with fewer than two specs has figure 0 and no edges', () => {
    const t = task();
    t.specs.splice(1);
    const v = buildCouplingView(t);
    assert.deepEqual([v.figure, v.pairs, v.edges.length, v.groupCount], [0, 0, 0, 1]);
  });

  it('the graph is bounded: edges, shared test ids and nodes cut with counts of the rest', () => {
    const n = 40;
    const t = task();
    t.specs.splice(0, t.specs.length, ...Array.from({ length: n }, (_, i) => ({ id: `S${i}`, text: '', category: 'c', dependsOn: [] })));
    const all = t.specs.map((s) => s.id);
    t.tests.splice(0, t.tests.length, ...Array.from({ length: 30 }, (_, i) => ({ id: `T${i}`, name: `t${i}`, kind: 'fail_to_pass' as const, specs: all })));
    const v = buildCouplingView(t);
    assert.equal(v.figure, 1);
    assert.equal(v.coupledPairs, (n * (n - 1)) / 2);
    assert.equal(v.edges.length, COUPLING_VIEW_LIMITS.edges);
    assert.equal(v.edgesOmitted, (n * (n - 1)) / 2 - COUPLING_VIEW_LIMITS.edges);
    assert.equal(v.edges[0]?.sharedTests?.tests.length, COUPLING_VIEW_LIMITS.tests);
    assert.equal(v.edges[0]?.sharedTests?.more, 30 - COUPLING_VIEW_LIMITS.tests);
    assert.ok(JSON.stringify(v).length < 200_000, 'the part stays small');
  });

  it('hostile long ids: cut for display and the whole part stays far below the message limit, the rest counted', () => {
    const long = (p: string, i: number) => `${p}${i}-${'<script>x</script>'.repeat(300)}`;
    const t = task();
    t.specs.splice(0, t.specs.length, ...Array.from({ length: 60 }, (_, i) => ({ id: long('S', i), text: '', category: 'c', dependsOn: [] })));
    const all = t.specs.map((s) => s.id);
    t.tests.splice(0, t.tests.length, ...Array.from({ length: 30 }, (_, i) => ({ id: long('T', i), name: `t${i}`, kind: 'fail_to_pass' as const, specs: all })));
    const v = buildCouplingView(t);
    const bytes = Buffer.byteLength(JSON.stringify(v));
    assert.ok(bytes < 500_000, `${bytes} bytes`);
    assert.equal(v.coupledPairs, (60 * 59) / 2);
    assert.ok(v.edges.length > 0 && v.edges.length < COUPLING_VIEW_LIMITS.edges);
    assert.equal(v.edges.length + v.edgesOmitted, v.coupledPairs);
    assert.ok(v.edges.every((e) => e.a.length <= COUPLING_VIEW_LIMITS.idChars && e.b.length <= COUPLING_VIEW_LIMITS.idChars));
    assert.equal(v.groups.length, 1);
    assert.equal((v.groups[0]?.specs.length ?? 0) + (v.groups[0]?.more ?? 0), 60);
    assert.ok(v.groups[0]?.specs[0]?.startsWith('S0-<script>'));
  });
});
