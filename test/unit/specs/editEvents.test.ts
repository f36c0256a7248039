// The review log's `specs.edit` event: its payload check, its reduction (history, deleted specs), and that the
// generic `undo` cannot withdraw it (a spec edit is taken back by a new revision).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatEventLine, isUndoable, parseEventLine } from '../../../src/core/review/events';
import { describeEvent } from '../../../src/core/review/describe';
import { cellKey, reduceLog, taskState } from '../../../src/core/review/reducer';
import { lastSpecEdit } from '../../../src/app/specAuthoring';
import { ev, label } from '../review/helpers';

test('a specs.edit line round-trips; a bad op or revision is refused naming the field', () => {
  const e = ev('specs.edit', { op: 'delete', from: 1, to: 2, changedSpecs: ['S2'], deleted: ['S2'], summary: 'delete S2' }, { revision: 2 });
  const back = parseEventLine(formatEventLine(e));
  assert.ok(back.ok);
  assert.deepEqual(back.event, e);
  const bad = (payload: Record<string, unknown>) => {
    const r = parseEventLine(formatEventLine({ ...e, payload } as never));
    return r.ok ? 'accepted' : r.message;
  };
  assert.match(bad({ ...e.payload, op: 'explode' }), /payload\.op: expected one of add, edit, split/);
  assert.match(bad({ ...e.payload, to: 1 }), /payload\.to: 1 is out of range/);
  assert.match(bad({ op: 'add', from: 1, to: 2 }), /payload\.changedSpecs: is required/);
  assert.equal(isUndoable('specs.edit'), false);
});

test('the reducer keeps a deleted spec\'s labels, marks them stale, and knows where the spec went', () => {
  const events = [
    label('a1', 'S2', 'satisfied', { at: 1 }),
    ev('revision', { from: 1, changedSpecs: ['S2'] }, { at: 2, revision: 2 }),
    ev('specs.edit', { op: 'delete', from: 1, to: 2, changedSpecs: ['S2'], deleted: ['S2'], summary: 'delete S2' }, { at: 3, revision: 2 }),
  ];
  const st = taskState(reduceLog(events), 't1');
  const l = st.labels.get('alice')?.get(cellKey('a1', 'S2'));
  assert.deepEqual([l?.verdict, l?.stale], ['satisfied', true]);
  assert.equal(st.deletedSpecs.get('S2'), 2);
  assert.deepEqual(st.specEdits.map((x) => [x.op, x.from, x.to, x.deleted]), [['delete', 1, 2, ['S2']]]);
  assert.equal(describeEvent(events[2]!), 'specs delete S2: revision 1 -> 2 (changed specs: S2); deleted S2 in revision 2');
  // An undo brings it back: no longer listed as deleted, and the undone edit is off the undo stack.
  const undo = ev('specs.edit', { op: 'undo', from: 2, to: 3, changedSpecs: ['S2'], created: ['S2'], undoes: events[2]!.id }, { at: 4, revision: 3 });
  const st2 = reduceLog([...events, undo]);
  assert.equal(taskState(st2, 't1').deletedSpecs.has('S2'), false);
  assert.equal(lastSpecEdit(st2, 't1'), undefined);
  assert.equal(lastSpecEdit(reduceLog(events), 't1')?.event, events[2]!.id);
});
