import * as assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, it } from 'node:test';
import { canonicalJson } from '../../../src/core/review/events';
import type { ReviewEvent } from '../../../src/core/review/events';
import { checkTransition } from '../../../src/core/review/lifecycle';
import { addEvents, cellKey, reduceLog } from '../../../src/core/review/reducer';
import type { ReviewState } from '../../../src/core/review/reducer';
import { ev, label } from './helpers';

function summary(s: ReviewState): string {
  const tasks = [...s.tasks.values()].sort((a, b) => (a.task < b.task ? -1 : 1));
  return canonicalJson(
    tasks.map((t) => ({
      task: t.task,
      status: t.status,
      labels: [...t.labels].map(([c, m]) => [c, [...m.values()].map((l) => [l.attempt, l.spec, l.verdict, l.stale])]),
      scores: [...t.scores].map(([c, r]) => [c, r.score]),
      undone: [...t.undone].sort(),
      transitions: t.transitions.map((x) => [x.from, x.to, x.implicit]),
      issues: t.issues.length,
    })),
  );
}

function shuffled<T>(xs: readonly T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = randomInt(0, i + 1);
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}

describe('reduceLog', () => {
  const log: ReviewEvent[] = [
    label('a1', 'S1', 'satisfied'),
    label('a1', 'S2', 'violated'),
    label('a1', 'S2', 'satisfied', { curator: 'bob' }),
    ev('status', { from: 'in_review', to: 'flagged' }),
    label('a1', 'S1', 'violated'),
    ev('score', { underspecified: 1, fnSeverity: 0, fpSeverity: 2, envDefects: [] }),
    label('b1', 'S1', 'satisfied', { task: 't2' }),
  ];

  it('a task nobody touched is a candidate; the first review act puts it in review', () => {
    const s = reduceLog(log);
    assert.equal(s.tasks.get('t3'), undefined);
    const t1 = s.tasks.get('t1');
    assert.equal(t1?.status, 'flagged');
    assert.deepEqual(t1?.transitions.map((t) => [t.from, t.to, t.implicit]), [['candidate', 'in_review', true], ['in_review', 'flagged', false]]);
    assert.equal(s.tasks.get('t2')?.status, 'in_review');
  });

  it('keeps the latest label per curator and cell', () => {
    const t1 = reduceLog(log).tasks.get('t1');
    assert.equal(t1?.labels.get('alice')?.get(cellKey('a1', 'S1'))?.verdict, 'violated');
    assert.equal(t1?.labels.get('bob')?.get(cellKey('a1', 'S2'))?.verdict, 'satisfied');
  });

  it('does not depend on the order of the lines (a merged log reduces the same everywhere)', () => {
    const expected = summary(reduceLog(log));
    for (let i = 0; i < 20; i++) assert.equal(summary(reduceLog(shuffled(log))), expected);
  });

  it('gives the same state incrementally as at once', () => {
    let s = reduceLog([]);
    for (const e of log) s = addEvents(s, [e]);
    assert.equal(summary(s), summary(reduceLog(log)));
    // ... and when a late event (older time) arrives after newer ones.
    const late = label('a2', 'S1', 'unsure', { at: 0 });
    assert.equal(summary(addEvents(reduceLog(log), [late])), summary(reduceLog([...log, late])));
  });

  it('undo withdraws an event; undoing the undo restores it', () => {
    const l = label('a1', 'S1', 'violated');
    const u1 = ev('undo', { event: l.id });
    const u2 = ev('undo', { event: u1.id });
    let s = reduceLog([l, u1]);
    assert.equal(s.tasks.get('t1')?.labels.get('alice')?.get(cellKey('a1', 'S1')), undefined);
    assert.ok(s.tasks.get('t1')?.undone.has(l.id));
    s = reduceLog([l, u1, u2]);
    assert.equal(s.tasks.get('t1')?.labels.get('alice')?.get(cellKey('a1', 'S1'))?.verdict, 'violated');
  });

  it('undo of a later label brings back the earlier one', () => {
    const first = label('a1', 'S1', 'satisfied');
    const second = label('a1', 'S1', 'violated');
    const s = reduceLog([first, second, ev('undo', { event: second.id })]);
    assert.equal(s.tasks.get('t1')?.labels.get('alice')?.get(cellKey('a1', 'S1'))?.verdict, 'satisfied');
  });

  it('undo of an approval puts the task back where it was', () => {
    const a = ev('approve', { waivers: [], runs: [] });
    const s = reduceLog([label('a1', 'S1', 'satisfied'), a, ev('undo', { event: a.id })]);
    assert.equal(s.tasks.get('t1')?.status, 'in_review');
    assert.equal(s.tasks.get('t1')?.approval, undefined);
  });

  it('reports, and ignores, a transition that is not allowed on replay (e.g. from a merge)', () => {
    const s = reduceLog([ev('status', { from: 'candidate', to: 'repaired' })]);
    const t = s.tasks.get('t1');
    assert.equal(t?.status, 'candidate');
    assert.equal(t?.issues.length, 1);
    assert.match(t?.issues[0]?.message ?? '', /cannot go from candidate to repaired/);
    const viaStatus = reduceLog([label('a1', 'S1', 'satisfied'), ev('status', { from: 'in_review', to: 'approved' })]);
    assert.match(viaStatus.tasks.get('t1')?.issues[0]?.message ?? '', /only approve/);
  });

  it('drops an exact duplicate line silently and reports a different event reusing an id', () => {
    const a = label('a1', 'S1', 'satisfied');
    const s = reduceLog([a, { ...a }]);
    assert.equal(s.events.length, 1);
    assert.equal(s.issues.length, 0);
    const clash = reduceLog([a, { ...a, payload: { ...a.payload, verdict: 'violated' } } as ReviewEvent]);
    assert.equal(clash.events.length, 1);
    assert.match(clash.issues[0]?.message ?? '', /share the id/);
  });

  it('an undo naming an event of another task does nothing but is reported', () => {
    const other = label('b1', 'S1', 'satisfied', { task: 't2' });
    const s = reduceLog([other, ev('undo', { event: other.id }, { task: 't1' })]);
    assert.equal(s.tasks.get('t2')?.labels.get('alice')?.size, 1);
    assert.match(s.tasks.get('t1')?.issues[0]?.message ?? '', /not an event of task t1/);
  });

  it('marks labels on specs changed by a later revision as stale, and keeps the others', () => {
    const s = reduceLog([label('a1', 'S1', 'violated'), label('a1', 'S2', 'violated'), ev('revision', { from: 1, changedSpecs: ['S2'] }, { revision: 2 })]);
    const mine = s.tasks.get('t1')?.labels.get('alice');
    assert.equal(mine?.get(cellKey('a1', 'S1'))?.stale, false);
    assert.equal(mine?.get(cellKey('a1', 'S2'))?.stale, true);
  });

  it('counts events of unknown kinds without reducing them', () => {
    const future = { ...label('a1', 'S1', 'satisfied'), kind: 'repair.requested', payload: {}, unknownKind: true } as unknown as ReviewEvent;
    const s = reduceLog([future]);
    assert.equal(s.tasks.get('t1')?.unknownKinds, 1);
    assert.equal(s.tasks.get('t1')?.status, 'candidate');
  });
});

describe('life cycle', () => {
  it('allows the documented transitions and refuses the rest with the allowed ones named', () => {
    assert.deepEqual(checkTransition('in_review', 'flagged'), { ok: true, implicitReview: false });
    assert.deepEqual(checkTransition('candidate', 'approved'), { ok: true, implicitReview: true });
    assert.equal(checkTransition('needs_repair', 'repaired').ok, true);
    assert.equal(checkTransition('repaired', 'revalidated').ok, true);
    assert.equal(checkTransition('revalidated', 'approved').ok, true);
    assert.equal(checkTransition('approved', 'in_review').ok, true);
    const bad = checkTransition('approved', 'rejected');
    assert.ok(!bad.ok && /from approved: in_review/.test(bad.message));
    const same = checkTransition('flagged', 'flagged');
    assert.ok(!same.ok && /already flagged/.test(same.message));
    assert.equal(checkTransition('needs_repair', 'approved').ok, false);
  });
});
