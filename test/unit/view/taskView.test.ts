import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { loadDataset, readDatasetText } from '../../../src/adapters/fs/datasetLoader';
import { buildTaskViewModel, claimText, fileChanges, recordedVerdict, trajectoryInfo } from '../../../src/core/view/taskView';
import type { TextOrError } from '../../../src/core/view/taskView';
import type { CandidateTask } from '../../../src/core/model';

const tinyRoot = path.resolve(__dirname, '../../fixtures/datasets/tiny');

function tiny(): { task: CandidateTask; read: (rel: string) => TextOrError } {
  const ds = loadDataset(tinyRoot);
  const task = ds.tasks[0];
  assert.ok(task);
  return { task, read: (rel) => ({ text: readDatasetText(tinyRoot, rel) }) };
}

test('builds the task view model of the tiny fixture', () => {
  const { task, read } = tiny();
  const model = buildTaskViewModel({
    task,
    status: 'candidate',
    trusted: true,
    request: read(task.files.request),
    testPatch: read(task.files.testPatch),
    ...(task.files.goldPatch ? { gold: read(task.files.goldPatch) } : {}),
    attemptPatches: new Map(task.attempts.map((a) => [a.id, read(a.patchFile as string)])),
    trajectories: new Map([['a1', trajectoryInfo({ format: 'swe-agent', steps: 12, byKind: { action: 6, observation: 6 }, costUsd: 0.2 })]]),
    position: { index: 0, total: 1 },
  });
  assert.equal(model.taskId, 't1');
  assert.equal(model.status, 'candidate');
  assert.equal(model.baseCommit, '0123456789abcdef0123456789abcdef01234567');
  assert.deepEqual(model.columns.map((c) => c.id), ['gold', 'a1', 'a2']);
  assert.deepEqual(model.columns[1]?.files, [{ path: 'hello.py', status: 'modified', additions: 3, deletions: 0, hunks: ['@@ -1,1 +1,4 @@'] }]);
  assert.deepEqual(model.columns[1]?.trajectory, { format: 'swe-agent', steps: 12, byKind: { action: 6, observation: 6 }, costUsd: 0.2 });
  assert.equal(model.columns[2]?.model, 'other-model');
  const s1 = model.specs.find((s) => s.id === 'S1');
  assert.deepEqual(s1?.tests, ['T1']);
  assert.equal(s1?.uncovered, false);
  const t1 = model.tests.find((t) => t.id === 'T1');
  assert.equal(t1?.source?.file, 'tests/test_hello.py');
  assert.match(t1?.source?.text ?? '', /^def test_greet\(\):\n {4}from hello import greet/);
  const t2 = model.tests.find((t) => t.id === 'T2');
  assert.equal(t2?.unmapped, true);
  assert.equal(t2?.source?.text, 'def test_existing():\n    assert True', 'context lines count as source too');
  assert.ok(model.request.length > 0);
  assert.deepEqual(model.notices, []);
});

test('a patch that is not a patch shows its reason in the column, a missing request becomes a notice', () => {
  const { task, read } = tiny();
  const model = buildTaskViewModel({
    task,
    status: 'candidate',
    trusted: false,
    untrustedReason: 'restricted',
    request: { error: 'file is missing' },
    testPatch: read(task.files.testPatch),
    attemptPatches: new Map([['a1', { text: 'just some words\n' }], ['a2', { error: 'file is missing' }]]),
    trajectories: new Map([['a1', { error: 'unreadable trajectory' }]]),
  });
  assert.deepEqual(model.columns.map((c) => c.id), ['a1', 'a2']);
  assert.match(model.columns[0]?.patchError ?? '', /not a patch/);
  assert.equal(model.columns[0]?.trajectoryError, 'unreadable trajectory');
  assert.equal(model.columns[1]?.patchError, 'file is missing');
  assert.deepEqual(model.notices, ['Request: file is missing']);
  assert.equal(model.trusted, false);
  assert.equal(model.untrustedReason, 'restricted');
});

test('change counts per file and recorded verdicts', () => {
  const c = fileChanges('diff --git a/x b/x\nnew file mode 100644\n--- /dev/null\n+++ b/x\n@@ -0,0 +1,2 @@\n+a\n+b\n', 'p');
  assert.ok('files' in c);
  assert.deepEqual(c.files, [{ path: 'x', status: 'added', additions: 2, deletions: 0, hunks: ['@@ -0,0 +1,2 @@'] }]);
  assert.equal(recordedVerdict([{ imported: true, source: 's', file: 'f', resolved: true }]), 'resolved (imported)');
  assert.equal(recordedVerdict([{ imported: true, source: 's', file: 'f', status: 'empty_patch' }]), 'empty patch (imported)');
  assert.equal(recordedVerdict([]), undefined);
});

test('a path from a trajectory finds the patch file it means', async () => {
  const { findFile } = await import('../../../src/core/view/patchFiles');
  const { parsePatch } = await import('../../../src/core/patch');
  const files = parsePatch(
    'diff --git a/durations/format.py b/durations/format.py\n--- a/durations/format.py\n+++ b/durations/format.py\n@@ -1 +1 @@\n-a\n+b\n' +
      'diff --git a/old.py b/new.py\nsimilarity index 90%\nrename from old.py\nrename to new.py\n',
  ).files;
  assert.equal(findFile(files, 'durations/format.py', '/repo'), 0);
  assert.equal(findFile(files, '/repo/durations/format.py', '/repo'), 0);
  assert.equal(findFile(files, './durations/format.py', '/repo'), 0);
  assert.equal(findFile(files, '/testbed/durations/format.py', '/repo'), 0, 'another workdir: by suffix');
  assert.equal(findFile(files, 'old.py', '/repo'), 1);
  assert.equal(findFile(files, '/tmp/log.txt', '/repo'), -1);
  assert.equal(findFile(files, '/repo/format.py', '/repo'), -1, 'a suffix must end at a folder boundary');
});

test('an attempt\'s claim says its status and summary once when they are the same (mini-swe-agent\'s "Submitted")', () => {
  assert.equal(claimText({ status: 'Submitted', summary: 'Submitted' }), 'Submitted');
  assert.equal(claimText({ status: 'Submitted', summary: 'submitted.' }), 'Submitted');
  assert.equal(claimText({ status: 'success', summary: 'Fixed the rounding in format()' }), 'success: Fixed the rounding in format()');
  assert.equal(claimText({ summary: 'only a summary' }), 'only a summary');
  assert.equal(claimText({ status: 'LimitsExceeded' }), 'LimitsExceeded');
  const { task, read } = tiny();
  const claimed = { ...task, attempts: task.attempts.map((a) => ({ ...a, claimed: { status: 'Submitted', summary: 'Submitted' } })) };
  const m = buildTaskViewModel({
    task: claimed,
    status: 'candidate',
    trusted: true,
    request: read(task.files.request),
    testPatch: read(task.files.testPatch),
    attemptPatches: new Map(task.attempts.map((a) => [a.id, read(a.patchFile as string)])),
  });
  assert.ok(m.columns.filter((c) => c.claimed !== undefined).every((c) => c.claimed === 'Submitted'), JSON.stringify(m.columns.map((c) => c.claimed)));
  assert.ok(m.columns.some((c) => c.claimed === 'Submitted'));
});
