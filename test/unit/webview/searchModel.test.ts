import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SearchHit } from '../../../src/protocol/messages';
import { SearchResults } from '../../../webview/src/searchModel';

const hit = (column: string, step: number, start = 0): SearchHit => ({ column, step, start, length: 3, excerpt: 'abc', excerptStart: 0 });

test('hits from batches are navigated in column order, then step, then offset, wrapping around', () => {
  const s = new SearchResults(['gold', 'a1', 'a2']);
  s.begin(7);
  assert.ok(s.addHits(7, [hit('a2', 1), hit('a1', 9, 5)], { a1: 1, a2: 1 }));
  assert.ok(s.addHits(7, [hit('a1', 9, 2), hit('a1', 3)], { a1: 3, a2: 1 }));
  const order = [s.next(), s.next(), s.next(), s.next(), s.next()].map((h) => h && `${h.column}:${h.step}:${h.start}`);
  assert.deepEqual(order, ['a1:3:0', 'a1:9:2', 'a1:9:5', 'a2:1:0', 'a1:3:0']);
  assert.equal(s.currentIndex(), 0);
  assert.equal(s.previous()?.column, 'a2');
  assert.equal(s.currentIndex(), 3);
});

test('hits arriving after navigation keep the current hit', () => {
  const s = new SearchResults(['a1']);
  s.begin(1);
  s.addHits(1, [hit('a1', 10)], { a1: 1 });
  assert.equal(s.next()?.step, 10);
  s.addHits(1, [hit('a1', 2), hit('a1', 5)], { a1: 3 });
  assert.equal(s.currentIndex(), 2);
  assert.equal(s.next()?.step, 2, 'wraps to the earliest');
});

test('without a current hit, next starts from the given step and previous goes before it', () => {
  const s = new SearchResults(['a1', 'a2']);
  s.begin(1);
  s.addHits(1, [hit('a1', 2), hit('a1', 50), hit('a2', 4)], {});
  assert.equal(s.next({ column: 'a1', step: 10 })?.step, 50);
  s.begin(2);
  s.addHits(2, [hit('a1', 2), hit('a1', 50), hit('a2', 4)], {});
  assert.equal(s.previous({ column: 'a1', step: 10 })?.step, 2);
  s.begin(3);
  s.addHits(3, [hit('a1', 2)], {});
  assert.equal(s.next({ column: 'a2', step: 99 })?.step, 2, 'past the last hit wraps to the first');
});

test('stale notifications of an earlier search are dropped', () => {
  const s = new SearchResults(['a1']);
  s.begin(1);
  s.begin(2);
  assert.equal(s.addHits(1, [hit('a1', 1)], { a1: 1 }), false);
  assert.equal(s.finish(1, { a1: 1 }, false, false), false);
  assert.equal(s.total, 0);
  assert.equal(s.status, 'running');
  assert.ok(s.finish(2, {}, false, false));
  assert.equal(s.addHits(2, [hit('a1', 1)], { a1: 1 }), false, 'nothing after done');
});

test('counts: the host running totals, per column and per step; capped searches still count everything', () => {
  const s = new SearchResults(['a1', 'a2']);
  s.begin(4);
  s.addHits(4, [hit('a1', 1), hit('a1', 1, 9), hit('a2', 3)], { a1: 2, a2: 1 });
  assert.equal(s.hitsInStep('a1', 1), 2);
  assert.equal(s.hitsInStep('a1', 2), 0);
  s.finish(4, { a1: 5000, a2: 7 }, false, true);
  assert.equal(s.total, 5007);
  assert.equal(s.navigable, 3);
  assert.equal(s.countFor('a1'), 5000);
  assert.ok(s.capped);
  assert.equal(s.status, 'done');
});

test('no hits: navigation does nothing', () => {
  const s = new SearchResults(['a1']);
  s.begin(1);
  assert.equal(s.next(), undefined);
  assert.equal(s.previous(), undefined);
  assert.equal(s.currentIndex(), -1);
});
