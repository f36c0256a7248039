// Staleness follows content: a label is stale iff its spec's content (text, category, dependsOn) at the label's
// revision differs from the spec's content now, as the `revision` events' `specHashes` tell. Old events without
// hashes keep the old rule (any later revision naming the spec makes the label stale).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatEventLine, parseEventLine } from '../../../src/core/review/events';
import { cellKey, reduceLog, taskState } from '../../../src/core/review/reducer';
import type { ReviewEvent } from '../../../src/core/review/events';
import { specContentHash, specHashesBetween } from '../../../src/core/review/specHash';
import { CurationStore } from '../../../src/app/curationStore';
import { applySpecEdit, undoSpecEdit } from '../../../src/app/specAuthoring';
import { ev, label } from './helpers';
import { tmpDir } from '../helpers/tmp';

const A = specContentHash({ text: 'Prints the sum.', category: 'output-format', dependsOn: [] });
const B = specContentHash({ text: 'Prints the total.', category: 'output-format', dependsOn: [] });

const staleOf = (events: ReviewEvent[], spec = 'S1') => taskState(reduceLog(events), 't1').labels.get('alice')?.get(cellKey('a1', spec))?.stale;

describe('the content hash of a spec', () => {
  it('is the same for the same text, category and dependsOn set; differs when any of them changes', () => {
    const s = { text: 'x', category: 'c', dependsOn: ['S2', 'S3'] };
    assert.equal(specContentHash(s), specContentHash({ ...s, dependsOn: ['S3', 'S2'] }));
    assert.notEqual(specContentHash(s), specContentHash({ ...s, text: 'y' }));
    assert.notEqual(specContentHash(s), specContentHash({ ...s, category: 'd' }));
    assert.notEqual(specContentHash(s), specContentHash({ ...s, dependsOn: ['S2'] }));
    assert.match(specContentHash(s), /^[0-9a-f]{16}$/);
  });

  it('specHashesBetween: before and after per changed spec, absent for a created or deleted one, and a hostile id stays a plain key', () => {
    const one = { id: 'S1', text: 'a', category: 'c', dependsOn: [] };
    const h = specHashesBetween([one, { id: '__proto__', text: 'b', category: 'c', dependsOn: [] }], [{ ...one, text: 'b' }, { id: 'S9', text: 'n', category: 'c', dependsOn: [] }], ['S1', '__proto__', 'S9']);
    assert.deepEqual(Object.keys(h), ['S1', '__proto__', 'S9']);
    assert.deepEqual(h.S1, { before: specContentHash(one), after: specContentHash({ ...one, text: 'b' }) });
    assert.equal(Object.getPrototypeOf(h), Object.prototype, 'the prototype was not replaced');
    assert.deepEqual(Object.getOwnPropertyDescriptor(h, '__proto__')?.value, { before: specContentHash({ text: 'b', category: 'c', dependsOn: [] }) });
    assert.deepEqual(h.S9, { after: specContentHash({ text: 'n', category: 'c', dependsOn: [] }) });
  });
});

describe('staleness follows content', () => {
  const edit = (from: number, before: string | undefined, after: string | undefined, at: number, spec = 'S1') =>
    ev('revision', { from, changedSpecs: [spec], specHashes: { [spec]: { ...(before ? { before } : {}), ...(after ? { after } : {}) } } }, { at, revision: from + 1 });

  it('edit -> stale', () => {
    assert.equal(staleOf([label('a1', 'S1', 'satisfied', { at: 1 }), edit(1, A, B, 2)]), true);
  });

  it('undo (the content of the label\'s revision is back) -> not stale', () => {
    assert.equal(staleOf([label('a1', 'S1', 'satisfied', { at: 1 }), edit(1, A, B, 2), edit(2, B, A, 3)]), false);
  });

  it('a repair revision that changes a spec and a later one that changes it back -> not stale; a third change -> stale again', () => {
    const events = [label('a1', 'S1', 'violated', { at: 1 }), edit(1, A, B, 2), edit(2, B, A, 3)];
    assert.equal(staleOf(events), false);
    assert.equal(staleOf([...events, edit(3, A, B, 4)]), true);
  });

  it('a label given on the changed text is current, and goes stale when the text goes back', () => {
    const events = [edit(1, A, B, 1), label('a1', 'S1', 'satisfied', { at: 2, revision: 2 }), edit(2, B, A, 3)];
    assert.equal(staleOf(events.slice(0, 2)), false);
    assert.equal(staleOf(events), true);
  });

  it('delete -> stale and the label stays readable; brought back unchanged -> not stale', () => {
    const events = [label('a1', 'S1', 'satisfied', { at: 1 }), edit(1, A, undefined, 2)];
    const l = taskState(reduceLog(events), 't1').labels.get('alice')?.get(cellKey('a1', 'S1'));
    assert.deepEqual([l?.verdict, l?.stale], ['satisfied', true]);
    assert.equal(staleOf([...events, edit(2, undefined, A, 3)]), false);
  });

  it('a mapping change alone (same hash before and after) leaves the label current', () => {
    assert.equal(staleOf([label('a1', 'S1', 'satisfied', { at: 1 }), edit(1, A, A, 2)]), false);
  });

  it('old events without hashes keep the old rule: any later revision naming the spec makes it stale', () => {
    const old = (from: number, at: number) => ev('revision', { from, changedSpecs: ['S1'] }, { at, revision: from + 1 });
    assert.equal(staleOf([label('a1', 'S1', 'satisfied', { at: 1 }), old(1, 2), old(2, 3)]), true);
    // One old revision among hashed ones: the content in between is unknown, so stale is the safe side.
    assert.equal(staleOf([label('a1', 'S1', 'satisfied', { at: 1 }), old(1, 2), edit(2, B, A, 3)]), true);
    // Hashes that name other specs only do not vouch for S1.
    const other = ev('revision', { from: 1, changedSpecs: ['S1'], specHashes: { S2: { before: A, after: B } } }, { at: 2, revision: 2 });
    assert.equal(staleOf([label('a1', 'S1', 'satisfied', { at: 1 }), other]), true);
  });

  it('the field round-trips through the log line; a bad hash or shape is refused naming the field', () => {
    const e = edit(1, A, B, 2);
    const back = parseEventLine(formatEventLine(e));
    assert.ok(back.ok);
    assert.deepEqual(back.event, e);
    const bad = (specHashes: unknown) => {
      const r = parseEventLine(formatEventLine({ ...e, payload: { ...e.payload, specHashes } } as never));
      return r.ok ? 'accepted' : r.message;
    };
    assert.match(bad([]), /payload\.specHashes: expected an object/);
    assert.match(bad({ S1: 'abc' }), /payload\.specHashes\.S1: expected an object/);
    assert.match(bad({ S1: { before: 'not hex!' } }), /payload\.specHashes\.S1\.before: .*hex/);
    assert.match(bad({ '': { before: A } }), /payload\.specHashes: .*spec id/);
    // A spec id "__proto__" is a plain key through the writer, the line and the reducer.
    const proto = ev('revision', { from: 1, changedSpecs: ['__proto__'], specHashes: specHashesBetween([{ id: '__proto__', text: 'a', category: 'c' }], [{ id: '__proto__', text: 'a', category: 'c' }], ['__proto__']) }, { at: 3, revision: 2 });
    const line = parseEventLine(formatEventLine(proto));
    assert.ok(line.ok, line.ok ? '' : line.message);
    assert.equal(staleOf([label('a1', '__proto__', 'satisfied', { at: 1 }), line.event], '__proto__'), false, 'same content before and after: current');
    // An old line (no specHashes) still loads.
    const old = ev('revision', { from: 1, changedSpecs: ['S1'] }, { revision: 2 });
    assert.ok(parseEventLine(formatEventLine(old)).ok);
  });
});

describe('the spec authoring writer records the hashes (the example dataset, real files)', () => {
  const TASK = 'total-command';
  const ATTEMPT = 'claude-code-sonnet-4-5';
  const copy = () => {
    const root = path.join(tmpDir('sw-stale-'), 'ds');
    fs.cpSync(path.resolve(__dirname, '../../../examples/dataset'), root, { recursive: true });
    return root;
  };
  const labelOf = (store: CurationStore, spec: string) => taskState(store.state, TASK).labels.get('alice')?.get(cellKey(ATTEMPT, spec));

  it('label, edit -> stale, undo -> not stale (also for the next reader of the log)', async () => {
    const root = copy();
    const store = CurationStore.open(root);
    assert.ok((await store.act(TASK, 'alice', { kind: 'label', attempt: ATTEMPT, spec: 'B8', verdict: 'satisfied', evidence: [] })).ok);
    const edit = await applySpecEdit({ root, taskId: TASK, expectedRevision: 1, curator: 'alice', store, op: { op: 'edit', spec: 'B8', text: 'An empty file totals 0s.' } });
    const hashes = (edit.events.find((e) => e.kind === 'revision')?.payload as { specHashes?: Record<string, { before?: string; after?: string }> } | undefined)?.specHashes;
    assert.ok(hashes?.B8?.before && hashes.B8.after && hashes.B8.before !== hashes.B8.after, JSON.stringify(hashes));
    assert.equal(labelOf(store, 'B8')?.stale, true);
    await undoSpecEdit({ root, taskId: TASK, expectedRevision: 2, curator: 'alice', store });
    assert.equal(labelOf(store, 'B8')?.stale, false, 'the spec the label was given on is the current one again');
    assert.equal(labelOf(CurationStore.open(root), 'B8')?.stale, false);
  });

  it('edit to new text and back by hand -> not stale; mapping a test alone leaves the label current; delete -> stale', async () => {
    const root = copy();
    const store = CurationStore.open(root);
    assert.ok((await store.act(TASK, 'alice', { kind: 'label', attempt: ATTEMPT, spec: 'B7', verdict: 'violated', evidence: [] })).ok);
    const original = store.dataset.tasks.find((t) => t.id === TASK)?.specs.find((s) => s.id === 'B7')?.text as string;
    await applySpecEdit({ root, taskId: TASK, curator: 'alice', store, op: { op: 'edit', spec: 'B7', text: 'Something else.' } });
    assert.equal(labelOf(store, 'B7')?.stale, true);
    await applySpecEdit({ root, taskId: TASK, curator: 'alice', store, op: { op: 'edit', spec: 'B7', text: original } });
    assert.equal(labelOf(store, 'B7')?.stale, false);
    await applySpecEdit({ root, taskId: TASK, curator: 'alice', store, op: { op: 'map', spec: 'B7', mode: 'add', tests: ['PB1'] } });
    assert.equal(labelOf(store, 'B7')?.stale, false, 'a mapping change alone does not change what was judged');
    await applySpecEdit({ root, taskId: TASK, curator: 'alice', store, op: { op: 'delete', spec: 'B7' } });
    const l = labelOf(store, 'B7');
    assert.deepEqual([l?.verdict, l?.stale], ['violated', true]);
  });
});
