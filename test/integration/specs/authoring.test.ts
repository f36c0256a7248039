// Spec authoring on real files: the example dataset copied to a temp folder, revisions written through the same
// all-or-nothing path as a repair accept, the review log's events, staleness of labels, undo, the race between two
// curators, and a disk or log that fails on the way.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RevisionFs } from '../../../src/adapters/fs/taskRevision';
import { writeRevision } from '../../../src/adapters/fs/taskRevision';
import type { LogFs } from '../../../src/adapters/fs/reviewLog';
import { CurationStore } from '../../../src/app/curationStore';
import { SpecAuthoringError, applySpecEdit, undoSpecEdit } from '../../../src/app/specAuthoring';
import { describeEvent } from '../../../src/core/review/describe';
import { cellKey, taskState } from '../../../src/core/review/reducer';
import { FN_ATTEMPT, FN_TASK, copyExample } from '../repair/exampleCopy';

const TB2_NAME = 'tests/test_cli.py::test_total_reads_standard_input';

function taskFiles(root: string): Record<string, string> {
  const dir = path.join(root, 'tasks', FN_TASK);
  return Object.fromEntries(['task.json', 'request.md', 'tests.patch'].map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
}

function taskJson(root: string, revision?: number): { revision?: number; specs: Array<{ id: string; text: string; category: string }>; tests: Array<{ id: string; specs?: string[] }> } {
  const p = revision === undefined ? path.join(root, 'tasks', FN_TASK, 'task.json') : path.join(root, 'tasks', FN_TASK, 'revisions', String(revision), 'task.json');
  return JSON.parse(fs.readFileSync(p, 'utf8'));
}

function labelOf(store: CurationStore, spec: string) {
  return taskState(store.state, FN_TASK).labels.get('alice')?.get(cellKey(FN_ATTEMPT, spec));
}

function specEditEvents(root: string) {
  return CurationStore.open(root).state.events.filter((e) => e.kind === 'specs.edit');
}

async function refused(p: Promise<unknown>, code: string, message: RegExp): Promise<SpecAuthoringError> {
  let caught: unknown;
  await assert.rejects(p, (e: unknown) => ((caught = e), true));
  assert.ok(caught instanceof SpecAuthoringError, `expected a SpecAuthoringError, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  assert.match(caught.message, message);
  return caught;
}

describe('spec authoring on the example dataset', () => {
  it('add, map two tests, label, edit -> stale, undo -> a new revision, delete keeps the label in history', async () => {
    const root = copyExample();
    const original = taskFiles(root);
    const store = CurationStore.open(root);
    const add = await applySpecEdit({ root, taskId: FN_TASK, expectedRevision: 1, curator: 'alice', store, op: { op: 'add', text: 'A total of zero durations prints 0s.', category: 'data-transformation', tests: ['TB1', TB2_NAME] } });
    assert.deepEqual([add.from, add.to, add.created, add.changedSpecs], [1, 2, ['B9'], ['B9']]);
    const now = taskJson(root);
    assert.equal(now.revision, 2);
    assert.deepEqual(now.specs.at(-1), { id: 'B9', category: 'data-transformation', text: 'A total of zero durations prints 0s.' });
    assert.deepEqual(now.tests.filter((t) => t.specs?.includes('B9')).map((t) => t.id), ['TB1', 'TB2']);
    assert.equal(fs.readFileSync(path.join(root, 'tasks', FN_TASK, 'revisions', '1', 'task.json'), 'utf8'), original['task.json'], 'revision 1 is archived byte for byte');
    assert.equal(taskFiles(root)['tests.patch'], original['tests.patch']);
    assert.equal(store.task(FN_TASK)?.revision, 2, 'the store sees the new revision at once');
    assert.deepEqual(add.events.map((e) => e.kind), ['revision', 'specs.edit']);

    const label = await store.act(FN_TASK, 'alice', { kind: 'label', attempt: FN_ATTEMPT, spec: 'B9', verdict: 'satisfied', evidence: [] });
    assert.ok(label.ok, JSON.stringify(label));
    assert.equal(labelOf(store, 'B9')?.stale, false);
    const other = await store.act(FN_TASK, 'alice', { kind: 'label', attempt: FN_ATTEMPT, spec: 'B1', verdict: 'satisfied', evidence: [] });
    assert.ok(other.ok);

    const edit = await applySpecEdit({ root, taskId: FN_TASK, expectedRevision: 2, curator: 'alice', store, op: { op: 'edit', spec: 'B9', text: 'A file without durations totals 0s.' } });
    assert.deepEqual([edit.to, edit.changedSpecs], [3, ['B9']]);
    assert.equal(labelOf(store, 'B9')?.stale, true, 'the label on the edited spec is stale, not dropped');
    assert.equal(labelOf(store, 'B1')?.stale, false, 'a label on another spec is not');
    assert.equal(labelOf(CurationStore.open(root), 'B9')?.stale, true, 'and so it is for the next reader of the log');

    const undo = await undoSpecEdit({ root, taskId: FN_TASK, expectedRevision: 3, curator: 'alice', store });
    assert.deepEqual([undo.from, undo.to, undo.changedSpecs], [3, 4, ['B9']]);
    assert.equal(taskJson(root).revision, 4);
    assert.deepEqual(taskJson(root).specs, taskJson(root, 2).specs, 'the specs of revision 2 are back');
    assert.equal(labelOf(store, 'B9')?.stale, false, 'the spec the label was given on is the current one again: not stale');
    assert.equal(labelOf(CurationStore.open(root), 'B9')?.stale, false);
    assert.equal(taskJson(root, 3).specs.at(-1)?.text, 'A file without durations totals 0s.', 'the undone edit stays readable as revision 3');
    // Undo again takes back the add (the edit before); a third has nothing left.
    const undo2 = await undoSpecEdit({ root, taskId: FN_TASK, curator: 'alice', store });
    assert.deepEqual([undo2.to, undo2.deleted], [5, ['B9']]);
    assert.deepEqual(taskJson(root).specs, taskJson(root, 1).specs);
    await refused(undoSpecEdit({ root, taskId: FN_TASK, curator: 'alice', store }), 'nothing_to_undo', /no spec edit to undo/);
    // The task view model still carries the deleted spec's label (as an orphan label, stale).
    const orphan = store.review(FN_TASK)?.orphanLabels.find((l) => l.spec === 'B9');
    assert.deepEqual([orphan?.verdict, orphan?.stale], ['satisfied', true]);

    // The deleted spec's label stays in the history, with a note on where the spec went.
    const st = taskState(CurationStore.open(root).state, FN_TASK);
    assert.equal(st.labels.get('alice')?.get(cellKey(FN_ATTEMPT, 'B9'))?.verdict, 'satisfied');
    assert.equal(st.deletedSpecs.get('B9'), 5);
    const lines = st.events.map(describeEvent);
    assert.ok(lines.some((l) => /^label claude-code-sonnet-4-5 × B9: satisfied/.test(l)), lines.join('\n'));
    assert.ok(lines.some((l) => /^specs undo add a spec \(data-transformation\) .*: revision 4 -> 5 .*deleted B9 in revision 5/.test(l)), lines.join('\n'));
    assert.deepEqual(specEditEvents(root).map((e) => (e.kind === 'specs.edit' ? e.payload.op : '')), ['add', 'edit', 'undo', 'undo']);
  });

  it('a second curator editing from the same revision is refused naming the revision it raced; nothing is lost', async () => {
    const root = copyExample();
    const a = CurationStore.open(root);
    const b = CurationStore.open(root);
    await applySpecEdit({ root, taskId: FN_TASK, expectedRevision: 1, curator: 'alice', store: a, op: { op: 'edit', spec: 'B8', text: 'An empty file totals 0s.' } });
    const after = taskFiles(root);
    const e = await refused(applySpecEdit({ root, taskId: FN_TASK, expectedRevision: 1, curator: 'bob', store: b, op: { op: 'edit', spec: 'B7', text: 'An unreadable file exits 2.' } }), 'revision_raced', /at revision 2, not 1/);
    assert.equal(e.currentRevision, 2);
    assert.deepEqual(taskFiles(root), after, "alice's edit is there, bob's wrote nothing");
    // Both edits at once, in one process: exactly one wins, the other is refused, and the winner is on disk.
    const root2 = copyExample();
    const results = await Promise.allSettled([
      applySpecEdit({ root: root2, taskId: FN_TASK, expectedRevision: 1, curator: 'alice', store: CurationStore.open(root2), op: { op: 'edit', spec: 'B8', text: 'Alice: an empty file totals 0s.' } }),
      applySpecEdit({ root: root2, taskId: FN_TASK, expectedRevision: 1, curator: 'bob', store: CurationStore.open(root2), op: { op: 'edit', spec: 'B8', text: 'Bob: an empty file totals 0s.' } }),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(won.length, 1);
    assert.equal((lost[0]?.reason as SpecAuthoringError).code, 'revision_raced');
    assert.equal(specEditEvents(root2).length, 1);
    assert.match(taskJson(root2).specs.find((s) => s.id === 'B8')?.text ?? '', /^(Alice|Bob):/);
  });

  it('bad edits and decided tasks are refused with the reason and write nothing', async () => {
    const root = copyExample();
    const before = taskFiles(root);
    const store = CurationStore.open(root);
    const bad = await refused(applySpecEdit({ root, taskId: FN_TASK, curator: 'alice', store, op: { op: 'depends', spec: 'B1', dependsOn: ['B5'] } }), 'invalid_edit', /cycle: |cycle/);
    assert.match(bad.message, /B1 -> B5 -> B2 -> B1|B1 -> B5 -> B4 -> B1/);
    await refused(applySpecEdit({ root, taskId: FN_TASK, curator: 'alice', store, op: { op: 'map', spec: 'B1', mode: 'add', tests: ['tests/test_cli.py::nope'] } }), 'invalid_edit', /no test "tests\/test_cli.py::nope"/);
    await refused(applySpecEdit({ root, taskId: 'no-such-task', curator: 'alice', store, op: { op: 'delete', spec: 'B1' } }), 'unknown_task', /no readable task "no-such-task"/);
    const rej = await store.act(FN_TASK, 'alice', { kind: 'reject', reason: 'tests pin stderr' });
    assert.ok(rej.ok);
    await refused(applySpecEdit({ root, taskId: FN_TASK, curator: 'alice', store, op: { op: 'delete', spec: 'B1' } }), 'task_decided', /is rejected; reopen it first/);
    assert.deepEqual(taskFiles(root), before);
    assert.equal(specEditEvents(root).length, 0);
    const reopen = await store.act(FN_TASK, 'alice', { kind: 'status', to: 'in_review' });
    assert.ok(reopen.ok);
    const r = await applySpecEdit({ root, taskId: FN_TASK, curator: 'alice', store, op: { op: 'delete', spec: 'B6' } });
    assert.equal(r.to, 2);
  });

  it('a disk that fails at any step of the write, or a log that cannot take the events, leaves the task unchanged', async () => {
    const root = copyExample();
    const before = taskFiles(root);
    const op = { op: 'edit', spec: 'B8', text: 'An empty file totals 0s.' } as const;
    let calls = 0;
    const probe = copyExample();
    await applySpecEdit({ root: probe, taskId: FN_TASK, curator: 'alice', op, fs: wrapFs(() => (calls++, false)) });
    assert.ok(calls > 10, `only ${calls} calls`);
    for (let n = 1; n <= calls; n++) {
      let k = 0;
      await refused(applySpecEdit({ root, taskId: FN_TASK, curator: 'alice', op, fs: wrapFs(() => ++k === n) }), 'write_failed', /unchanged|nothing was written/);
      assert.deepEqual(taskFiles(root), before, `task files after a failure at call ${n}`);
      noLeftovers(root);
    }
    // A crash between the write and the log: the log fails once task.json (the commit point) has been swapped in.
    let committed = false;
    const commitWatch: RevisionFs = { ...wrapFs(() => false), renameSync: ((from: string, to: string) => { nodeFs.renameSync(from, to); if (path.basename(to) === 'task.json') committed = true; }) as RevisionFs['renameSync'] };
    const full = { ...nodeFs, writeSync: ((...a: Parameters<typeof nodeFs.writeSync>) => { if (committed) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }); return (nodeFs.writeSync as (...x: unknown[]) => number)(...a); }) } as unknown as LogFs;
    await refused(applySpecEdit({ root, taskId: FN_TASK, curator: 'alice', op, fs: commitWatch, store: CurationStore.open(root, { log: { fs: full } }) }), 'log_failed', /taken back and the task is unchanged at revision 1/);
    assert.ok(committed, 'the fault came after the new task.json was in place');
    assert.deepEqual(taskFiles(root), before);
    noLeftovers(root);
    assert.equal(specEditEvents(root).length, 0);
    const ok = await applySpecEdit({ root, taskId: FN_TASK, curator: 'alice', op });
    assert.equal(ok.to, 2);
  });
});

describe('a revision the review log never heard of', () => {
  it('a process that died after writing a revision and before logging it: the next edit records it, and its labels go stale', async () => {
    const root = copyExample();
    const store = CurationStore.open(root);
    assert.ok((await store.act(FN_TASK, 'alice', { kind: 'label', attempt: FN_ATTEMPT, spec: 'B8', verdict: 'violated', evidence: [] })).ok);
    // What a killed `specweave specs edit` leaves: revision 2 on disk, nothing in the log.
    const files = taskFiles(root);
    const raw = JSON.parse(files['task.json'] as string) as { specs: Array<{ id: string; text: string }> };
    (raw.specs.find((s) => s.id === 'B8') as { text: string }).text = 'Changed by a process that died.';
    writeRevision(root, FN_TASK, 2, { taskJson: JSON.stringify({ ...raw, revision: 2 }, null, 2), request: files['request.md'] as string, testPatch: files['tests.patch'] as string });
    await refused(undoSpecEdit({ root, taskId: FN_TASK, curator: 'bob', store }), 'nothing_to_undo', /no spec edit to undo/);
    const late = CurationStore.open(root).state.events.filter((e) => e.kind === 'revision');
    assert.deepEqual(late.map((e) => [e.revision, e.kind === 'revision' ? e.payload.changedSpecs : []]), [[2, ['B8']]], 'the refusal still recorded the revision it found');
    assert.match(describeEvent(late[0]!), /recorded late by bob: revision 2 was written by an interrupted write/);
    assert.equal(labelOf(CurationStore.open(root), 'B8')?.stale, true);
    const r = await applySpecEdit({ root, taskId: FN_TASK, curator: 'bob', store, op: { op: 'edit', spec: 'B7', text: 'An unreadable file exits 2.' } });
    assert.deepEqual([r.from, r.to, r.events.map((e) => e.kind)], [2, 3, ['revision', 'specs.edit']]);
    assert.equal(CurationStore.open(root).state.events.filter((e) => e.kind === 'revision').length, 2, 'recorded once');
  });
});

function noLeftovers(root: string): void {
  const dir = path.join(root, 'tasks', FN_TASK);
  assert.deepEqual(fs.readdirSync(dir).filter((n) => n.startsWith('.')), [], 'no staging folder or temporary file left');
  assert.ok(!fs.existsSync(path.join(dir, 'revisions')) || fs.readdirSync(path.join(dir, 'revisions')).length === 0, 'no archived revision left');
}

/** node:fs with every write-side call going through `shouldFail` first (ENOSPC when it says so). */
function wrapFs(shouldFail: () => boolean): RevisionFs {
  const guard =
    <A extends unknown[], R>(f: (...a: A) => R) =>
    (...a: A): R => {
      if (shouldFail()) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      return f(...a);
    };
  return {
    mkdirSync: guard(nodeFs.mkdirSync) as RevisionFs['mkdirSync'],
    writeFileSync: guard(nodeFs.writeFileSync) as RevisionFs['writeFileSync'],
    renameSync: guard(nodeFs.renameSync) as RevisionFs['renameSync'],
    openSync: guard(nodeFs.openSync) as RevisionFs['openSync'],
    fsyncSync: guard(nodeFs.fsyncSync) as RevisionFs['fsyncSync'],
    rmSync: nodeFs.rmSync,
    closeSync: nodeFs.closeSync,
    readFileSync: nodeFs.readFileSync,
    existsSync: nodeFs.existsSync,
    readdirSync: nodeFs.readdirSync,
  };
}
