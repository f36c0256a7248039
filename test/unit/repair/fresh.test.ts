// Fresh trials in a revalidation: the matrix keeps them apart from the re-run attempts (nothing before them, not
// counted as appeared), the stored record's `fresh` is checked on load with errors naming the file and field, a
// record from before fresh trials loads as it did, and only trials that could not run leave a revalidation incomplete.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { RevalidationRecord } from '../../../src/adapters/fs/repairStore';
import { RepairStoreError, loadRevalidation, saveRevalidation } from '../../../src/adapters/fs/repairStore';
import { writeFileAtomicIn } from '../../../src/adapters/fs/datasetPaths';
import { freshTrialIncomplete, parseFreshTrials } from '../../../src/core/repair/fresh';
import { formatMatrix, repairMatrix } from '../../../src/core/repair/matrix';
import { reduceTask } from '../../../src/core/review/reducer';
import { tmpDir } from '../helpers/tmp';
import { ev, task, verifier } from './fixtures';

/** The task with a fresh trial `f1` (as matrixBetween sees it: today's attempts on both sides). */
function withTrial(revision: number) {
  const t = task({ revision });
  return { ...t, attempts: [...t.attempts, { id: 'f1', model: 'gpt-4o-mini', agent: 'specweave-solver', dir: 'tasks/t1/attempts/f1', patchFile: 'tasks/t1/attempts/f1/patch.diff', recordedResults: [] }] };
}

function matrix(fresh = true) {
  const rev = ev('revision', { from: 1, changedSpecs: [] }, { revision: 2 });
  // The curator says f1 violates S1 although the verifier passes it: a false positive of the fresh trial.
  const label = ev('label', { attempt: 'f1', spec: 'S1', verdict: 'violated', evidence: [] }, { revision: 2 });
  const v2 = verifier(2, 'PASSED');
  v2.attempts.f1 = { ...v2.attempts.a2!, runId: 'run-f1-2' };
  return repairMatrix({
    before: { task: withTrial(1), verifier: verifier(1) },
    after: { task: withTrial(2), verifier: v2 },
    state: reduceTask('t1', [rev, label]),
    revisionEvent: rev.id,
    ...(fresh ? { fresh: [{ attempt: 'f1', model: 'gpt-4o-mini', exitStatus: 'Submitted', verdict: 'passed', runId: 'run-f1-2' }, { model: 'gpt-4o-mini', error: 'cancelled before it started' }] } : {}),
  });
}

describe('the before/after matrix with fresh trials', () => {
  it('keeps a fresh trial out of the comparison: its own rows, nothing before, its false positive not "appeared"', () => {
    const m = matrix();
    assert.deepEqual(m.attempts, ['a1', 'a2']);
    assert.ok(!m.cells.some((c) => c.attempt === 'f1'));
    assert.deepEqual(m.introduced, { falsePositives: [], falseNegatives: [] });
    assert.deepEqual(m.counts.after, { falsePositives: 0, falseNegatives: 0 });
    const f = m.fresh;
    assert.ok(f);
    assert.deepEqual(f.attempts, ['f1']);
    assert.equal(f.trials.length, 2, 'the trial that never started is listed too');
    assert.deepEqual(f.attemptStatus, { f1: { after: 'passed' } });
    const s1 = f.cells.find((c) => c.spec === 'S1');
    assert.deepEqual([s1?.before.verifier, s1?.before.outcome, s1?.after.verifier, s1?.after.outcome], ['absent', 'absent', 'pass', 'false_positive']);
    assert.deepEqual(f.counts, { falsePositives: 1, falseNegatives: 0 });
  });

  it('prints the fresh rows marked "fresh", with — before, and the trial that did not run', () => {
    const text = formatMatrix(matrix());
    assert.match(text, /fresh trials on revision 2 \(not run before\): 2, false positives 1, false negatives 0/);
    assert.match(text, /fresh f1 +—>pass\/FP/);
    assert.match(text, /\(no attempt\) · gpt-4o-mini: error: cancelled before it started/);
  });

  it('has no fresh part without fresh trials (the shape of a matrix before them)', () => {
    const m = matrix(false);
    assert.equal('fresh' in m, false);
    assert.ok(m.attempts.includes('f1'), 'without the list, every attempt is compared as before');
    assert.doesNotMatch(formatMatrix(m), /fresh/);
  });
});

describe('which fresh trials leave a revalidation incomplete', () => {
  it('a trial that fails the verifier or gives up is information; one that could not run is not', () => {
    assert.equal(freshTrialIncomplete({ attempt: 'x', model: 'm', exitStatus: 'Submitted', verdict: 'failed' }), false);
    assert.equal(freshTrialIncomplete({ attempt: 'x', model: 'm', exitStatus: 'FormatError', verdict: 'no patch' }), false);
    assert.equal(freshTrialIncomplete({ attempt: 'x', model: 'm', exitStatus: 'LimitsExceeded', verdict: 'apply_failed' }), false);
    assert.equal(freshTrialIncomplete({ attempt: 'x', model: 'm', exitStatus: 'ModelError', verdict: 'no patch' }), true);
    assert.equal(freshTrialIncomplete({ attempt: 'x', model: 'm', exitStatus: 'ContainerError', verdict: 'no patch' }), true);
    assert.equal(freshTrialIncomplete({ attempt: 'x', model: 'm', exitStatus: 'Submitted', verdict: 'infra_error' }), true);
    assert.equal(freshTrialIncomplete({ attempt: 'x', model: 'm', exitStatus: 'Submitted', verdict: 'failed to run' }), true);
    assert.equal(freshTrialIncomplete({ model: 'm', error: 'cancelled before it started' }), true);
  });
});

describe('the stored record', () => {
  const record = (over: Record<string, unknown> = {}): RevalidationRecord =>
    ({ format: 1, suggestion: 's1', task: 't1', fromRevision: 1, toRevision: 2, finishedAt: '2026-12-02T06:00:00.000Z', runs: [{ attempt: 'gold', status: 'passed' }], matrix: matrix(false), ...over }) as RevalidationRecord;

  it('loads a record without fresh trials as before, and one with them whole', () => {
    const root = tmpDir();
    saveRevalidation(root, record());
    const old = loadRevalidation(root, 't1', 's1');
    assert.equal(old?.fresh, undefined);
    assert.deepEqual(old?.runs, [{ attempt: 'gold', status: 'passed' }]);
    const fresh = [{ attempt: 'f1', model: 'gpt-4o-mini', exitStatus: 'Submitted', verdict: 'passed', runId: 'r', steps: 2, costUsd: 0.0001 }];
    saveRevalidation(root, record({ fresh, matrix: matrix() }));
    const now = loadRevalidation(root, 't1', 's1');
    assert.deepEqual(now?.fresh, fresh);
    assert.deepEqual(now?.matrix.fresh?.attempts, ['f1']);
  });

  it('refuses a malformed fresh field, naming the file and the field', () => {
    const root = tmpDir();
    const file = path.join(root, 'curation/suggestions/t1/s1/revalidation.json');
    const write = (o: unknown) => writeFileAtomicIn(root, 'curation/suggestions/t1/s1/revalidation.json', JSON.stringify(o));
    const refused = (o: unknown, field: string) => {
      write(o);
      assert.throws(
        () => loadRevalidation(root, 't1', 's1'),
        (e: unknown) => e instanceof RepairStoreError && e.message.includes(file) && e.message.includes(`field "${field}"`),
        field,
      );
    };
    refused(record({ fresh: 'one' }), 'fresh');
    refused(record({ fresh: [{ attempt: 'f1', model: 'm', verdict: 7 }] }), 'fresh[0].verdict');
    refused(record({ fresh: [{ attempt: 'f1', model: 'm' }, { attempt: 'f2' }] }), 'fresh[1].model');
    refused(record({ fresh: [{ model: 'm', steps: 'two' }] }), 'fresh[0].steps');
    refused(record({ matrix: { ...matrix(false), fresh: { trials: [{ model: 1 }], attempts: [], cells: [] } } }), 'matrix.fresh.trials[0].model');
    refused(record({ matrix: { ...matrix(false), fresh: { trials: [], attempts: [3], cells: [] } } }), 'matrix.fresh.attempts');
  });

  it('parses an absent field as none', () => {
    assert.deepEqual(parseFreshTrials(undefined, 'f.json'), { ok: true, value: undefined });
  });
});
