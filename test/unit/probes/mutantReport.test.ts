// The mutation report from runs: outcomes by status (did not apply, timed out, out of memory and errors never count
// as killed), the score over graded mutants only, per-spec counts through the spec-test map, survivors' diffs kept.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MutantRun } from '../../../src/core/probes/mutantReport';
import { mutantOutcome, mutationReport } from '../../../src/core/probes/mutantReport';
import type { Mutant } from '../../../src/core/probes/mutants';
import type { GradeLists, RunStatus, VerifierRunRecord } from '../../../src/core/verify/runResult';

const TASK = {
  id: 't1',
  revision: 2,
  specs: [
    { id: 'S1', text: '', category: 'other', dependsOn: [] },
    { id: 'S2', text: '', category: 'other', dependsOn: [] },
    { id: 'S3', text: '', category: 'other', dependsOn: [] },
  ],
  tests: [
    { id: 'T1', name: 't::a', kind: 'fail_to_pass' as const, specs: ['S1'] },
    { id: 'T2', name: 't::b', kind: 'fail_to_pass' as const, specs: ['S1', 'S2'] },
    { id: 'P1', name: 't::c', kind: 'pass_to_pass' as const, specs: [] },
  ],
};

const lists = (o: Partial<GradeLists> = {}): GradeLists => ({ success: [], failure: [], missing: [], skipped: [], ...o });

function run(status: RunStatus, o: { f2pFail?: string[]; p2pFail?: string[]; applyAttempt?: 'failed' | 'git-apply' } = {}): NonNullable<MutantRun['run']> {
  return {
    status,
    reason: `because ${status}`,
    apply: { attempt: { method: o.applyAttempt ?? 'git-apply' }, test: { method: 'git-apply' } },
    grade: { failToPass: lists({ failure: o.f2pFail ?? [] }), passToPass: lists({ failure: o.p2pFail ?? [] }), resolved: status === 'passed', tests: {}, looseMatches: [] },
  } as Pick<VerifierRunRecord, 'status' | 'reason' | 'apply' | 'grade'>;
}

function mutant(n: number): Mutant {
  return { id: `comparison-${String(n).padStart(10, '0')}`, operator: 'comparison', file: 'm.py', line: n, column: 1, before: 'a < b', after: 'a <= b', patch: `patch ${n}` };
}

test('each run status becomes an outcome; only a graded failure is a kill', () => {
  assert.equal(mutantOutcome(run('passed')), 'survived');
  assert.equal(mutantOutcome(run('failed')), 'killed');
  assert.equal(mutantOutcome(run('apply_failed', { applyAttempt: 'failed' })), 'did_not_apply');
  // The test patch failing to apply is not the mutant's doing.
  assert.equal(mutantOutcome(run('apply_failed')), 'error');
  assert.equal(mutantOutcome(run('timeout')), 'timed_out');
  assert.equal(mutantOutcome(run('oom')), 'out_of_memory');
  for (const s of ['invalid', 'infra_error', 'disk_limit'] as const) assert.equal(mutantOutcome(run(s)), 'error');
});

test('score, per-spec counts and survivors: killed for S when a test mapped to S fails', () => {
  const runs: MutantRun[] = [
    { mutant: mutant(1), run: run('failed', { f2pFail: ['t::a'] }) },
    { mutant: mutant(2), run: run('failed', { f2pFail: ['t::b'] }) },
    { mutant: mutant(3), run: run('failed', { p2pFail: ['t::c'] }) },
    { mutant: mutant(4), run: run('passed') },
    { mutant: mutant(5), run: run('apply_failed', { applyAttempt: 'failed' }) },
    { mutant: mutant(6), run: run('timeout') },
    { mutant: mutant(7), error: 'the verifier refused it' },
  ];
  const r = mutationReport(TASK, { status: 'passed', reason: 'ok' }, { generated: 9, skipped: [], unsupportedFiles: [] }, runs, new Date(0));
  assert.deepEqual(r.counts, { killed: 3, survived: 1, did_not_apply: 1, timed_out: 1, out_of_memory: 0, error: 1 });
  assert.equal(r.score, 3 / 4);
  assert.equal(r.generated, 9);
  assert.equal(r.ran, 7);
  assert.deepEqual(r.specs, [
    { spec: 'S1', killed: 2, survived: 2, untested: false },
    { spec: 'S2', killed: 1, survived: 3, untested: false },
    { spec: 'S3', killed: 0, survived: 4, untested: true },
  ]);
  const byId = new Map(r.mutants.map((m) => [m.line, m]));
  assert.deepEqual(byId.get(2)?.killedForSpecs, ['S1', 'S2']);
  assert.deepEqual(byId.get(3)?.killedForSpecs, []);
  assert.deepEqual(byId.get(3)?.failingTests, ['t::c']);
  assert.equal(byId.get(4)?.patch, 'patch 4', "a survivor's diff is kept");
  assert.equal(byId.get(1)?.patch, undefined, 'a killed one needs none');
  assert.equal(byId.get(7)?.reason, 'the verifier refused it');
  assert.equal(byId.get(6)?.reason, 'because timeout');
});

test('no graded mutant: no score rather than a made-up one', () => {
  const r = mutationReport(TASK, { status: 'passed', reason: '' }, { generated: 1, skipped: [], unsupportedFiles: [] }, [{ mutant: mutant(1), run: run('timeout') }], new Date(0));
  assert.equal(r.score, null);
  assert.ok(r.specs.every((s) => s.killed === 0 && s.survived === 0));
});
