import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pagesFor, revealScrollTop, visibleRange } from '../../../webview/src/virtual';
import { PagedCache } from '../../../webview/src/stepPages';

test('visible range covers the viewport plus overscan and stays inside the list', () => {
  assert.deepEqual(visibleRange(0, 220, 22, 10_000, 5), { start: 0, end: 15 });
  assert.deepEqual(visibleRange(22 * 100, 220, 22, 10_000, 5), { start: 95, end: 115 });
  assert.deepEqual(visibleRange(22 * 9_995, 220, 22, 10_000, 5), { start: 9_990, end: 10_000 });
  assert.deepEqual(visibleRange(0, 220, 22, 0, 5), { start: 0, end: 0 });
  assert.deepEqual(visibleRange(-50, 220, 22, 3, 5), { start: 0, end: 3 });
  // A scrollTop beyond the end (list shrank under a filter) still yields rows at the end, not an empty window.
  const r = visibleRange(22 * 5_000, 220, 22, 40, 5);
  assert.ok(r.start < r.end && r.end === 40);
});

test('rendered rows stay bounded however long the list is', () => {
  for (const total of [10, 10_000, 1_000_000]) {
    for (const top of [0, 12_345, 22 * total]) {
      const r = visibleRange(top, 800, 22, total, 8);
      assert.ok(r.end - r.start <= Math.ceil(800 / 22) + 1 + 16, `${total} at ${top}: ${r.end - r.start} rows`);
    }
  }
});

test('pages for a range', () => {
  assert.deepEqual(pagesFor({ start: 0, end: 1 }, 100), [0]);
  assert.deepEqual(pagesFor({ start: 95, end: 215 }, 100), [0, 1, 2]);
  assert.deepEqual(pagesFor({ start: 100, end: 200 }, 100), [1]);
  assert.deepEqual(pagesFor({ start: 5, end: 5 }, 100), []);
});

test('reveal keeps a visible row in place and scrolls a hidden one into view', () => {
  // viewport shows rows 10..19 (220px / 22px)
  assert.equal(revealScrollTop(12, 22, 220, 220, 1000, 'nearest'), 220);
  assert.equal(revealScrollTop(30, 22, 220, 220, 1000, 'nearest'), 31 * 22 - 220);
  assert.equal(revealScrollTop(3, 22, 220, 220, 1000, 'nearest'), 66);
  assert.equal(revealScrollTop(500, 22, 220, 0, 1000, 'center'), 500 * 22 - 99);
  assert.equal(revealScrollTop(0, 22, 220, 500, 1000, 'center'), 0);
  assert.equal(revealScrollTop(999, 22, 220, 0, 1000, 'center'), 1000 * 22 - 220);
});

test('page cache: claims each missing page once, forgets old pages, releases failures', () => {
  const c = new PagedCache<number>(100, 3);
  assert.deepEqual(c.claim([0, 1]), [0, 1]);
  assert.deepEqual(c.claim([0, 1, 2]), [2], 'in-flight pages are not claimed twice');
  c.put(0, Array.from({ length: 100 }, (_, i) => i), 1000);
  c.put(1, Array.from({ length: 100 }, (_, i) => 100 + i), 1000);
  c.release(2);
  assert.equal(c.get(150), 150);
  assert.equal(c.get(250), undefined);
  assert.deepEqual(c.claim([2]), [2], 'a failed page can be asked for again');
  assert.deepEqual(c.claim([10]), [], 'pages past the end are never asked for');
  c.put(2, [200], 1000);
  c.put(5, [500], 1000, [2]);
  assert.equal(c.cachedPages, 3);
  assert.equal(c.get(0), undefined, 'the least recently used page went first');
  assert.equal(c.get(200), 200, 'a kept page stays');
});
