// Regions that fit: every attempt stays in view however many there are (compact cards), the task view holds in a
// 540 px editor group (the sides stack, nothing overlaps, what does not fit scrolls), and the matrix's rotated test
// names are read whole.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startBrowserHarness, waitUntil, type Harness } from './harness/page';

let h: Harness;

before(async () => {
  h = await startBrowserHarness('layout');
});

after(async () => {
  await h?.close();
});

interface Box {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

const overlap = (a: Box, b: Box): boolean => a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5;
const inside = (a: Box, outer: Box): boolean => a.x >= outer.x - 0.5 && a.y >= outer.y - 0.5 && a.x + a.w <= outer.x + outer.w + 0.5 && a.y + a.h <= outer.y + outer.h + 0.5;

/** Boxes of the elements `selector` matches, named by `data-<key>` (or `data-testid`). */
async function boxes(page: Page, selector: string, key = 'testid'): Promise<Box[]> {
  return (await page.evaluate(`[...document.querySelectorAll(${JSON.stringify(selector)})].map((e) => { const r = e.getBoundingClientRect(); return { id: e.dataset[${JSON.stringify(key)}] ?? '', x: r.x, y: r.y, w: r.width, h: r.height }; })`)) as Box[];
}

/**
 * The card that stands for each column in the attempts region: its compact card when there is one, else its full card.
 * Boxes of what a user can see: clipped to the region's scrolled body.
 */
async function attemptCards(page: Page): Promise<{ cards: Box[]; body: Box; sideways: boolean }> {
  return (await page.evaluate(`(() => {
    const body = document.querySelector('[data-testid="region-attempts"] .region-body');
    const b = body.getBoundingClientRect();
    const seen = new Map();
    for (const e of body.querySelectorAll('.attempt-card, .column')) if (!seen.has(e.dataset.column)) seen.set(e.dataset.column, e);
    const cards = [...seen].map(([id, e]) => { const r = e.getBoundingClientRect(); return { id, x: r.x, y: r.y, w: r.width, h: r.height }; });
    const scrollers = [body, ...body.querySelectorAll('.columns, .attempt-cards')];
    return { cards, body: { id: 'body', x: b.x, y: b.y, w: b.width, h: b.height }, sideways: scrollers.some((s) => s.scrollWidth > s.clientWidth + 1) };
  })()`)) as { cards: Box[]; body: Box; sideways: boolean };
}

async function assertEveryAttemptInView(page: Page, attempts: number, where: string): Promise<void> {
  await page.locator('[data-testid="region-attempts"]').scrollIntoViewIfNeeded();
  const viewport = page.viewportSize()!;
  const screen: Box = { id: 'viewport', x: 0, y: 0, w: viewport.width, h: viewport.height };
  const { cards, body, sideways } = await attemptCards(page);
  assert.equal(cards.length, attempts + 1, `${where}: a card for the gold patch and each attempt`);
  for (const c of cards) {
    assert.ok(inside(c, body), `${where}: ${c.id}'s card ${JSON.stringify(c)} is inside the attempts region ${JSON.stringify(body)}`);
    assert.ok(inside(c, screen), `${where}: ${c.id}'s card ${JSON.stringify(c)} is on screen ${JSON.stringify(screen)}`);
  }
  for (const [i, a] of cards.entries()) for (const b of cards.slice(i + 1)) assert.ok(!overlap(a, b), `${where}: ${a.id} and ${b.id} do not overlap`);
  assert.equal(sideways, false, `${where}: no sideways scrolling needed to find a card`);
}

test('sixteen attempts in a 540 px editor group: every card is in view in the attempts region, none overlap, none needs sideways scrolling', async () => {
  const page = await h.open({ fixture: 'many', query: 'attempts=16', width: 540, height: 900 });
  await page.locator('[data-testid="attempts"][data-compact="true"]').waitFor({ timeout: 10_000 }).catch(() => undefined);
  await h.shot(page, 'sixteen-540');
  await assertEveryAttemptInView(page, 16, '16 attempts at 540 px');
  // The compact card says the verdict and the change counts; the whole verdict is on hover.
  const a1 = page.locator('[data-testid="attempt-card"][data-column="a1"]');
  assert.equal(await a1.locator('[data-testid="attempt-card-verdict"]').textContent(), 'unresolved');
  assert.match((await a1.getAttribute('title')) ?? '', /unresolved \(imported\)\n2 files \+/);
  assert.match((await a1.textContent()) ?? '', /Attempt 1\s*unresolved\s*\+\d+\s*−\d+/);
  await page.close();
});

test('four and sixteen attempts in a wide view, four in a narrow one: every card stays in view', async () => {
  for (const [attempts, width] of [
    [4, 1600],
    [16, 1600],
    [4, 540],
  ] as const) {
    const page = await h.open({ fixture: 'many', query: `attempts=${attempts}`, width, height: 900 });
    await waitUntil(page, `(() => { const b = document.querySelector('[data-testid="region-attempts"] .region-body'); return [...b.querySelectorAll('.attempt-card, .column')].every((c) => c.getBoundingClientRect().right <= b.getBoundingClientRect().right + 0.5); })()`, 5_000).catch(() => undefined);
    await assertEveryAttemptInView(page, attempts, `${attempts} attempts at ${width} px`);
    await page.close();
  }
});

test('compact cards on demand: the toggle makes them compact, a card makes its attempt active with its files below, and the choice survives a reload', async () => {
  const page = await h.open({ width: 1600, height: 1000 });
  const attempts = page.locator('[data-testid="attempts"]');
  assert.equal(await attempts.getAttribute('data-compact'), 'false', 'four cards that fit are full cards');
  assert.equal(await page.locator('[data-testid="compact-toggle"]').textContent(), 'Compact: auto');
  await page.locator('[data-testid="compact-toggle"]').click();
  await page.locator('[data-testid="attempts"][data-compact="true"]').waitFor();
  assert.equal(await page.locator('[data-testid="compact-toggle"]').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.locator('[data-testid="attempt-card"]').count(), 4);
  assert.equal(await page.locator('[data-testid="attempt-card"][data-column="a3"] .attempt-card-verdict').textContent(), 'error', 'a broken attempt says so');
  // The active attempt's full card, with its files, under the compact ones.
  assert.equal(await page.locator('[data-testid="columns"] [data-testid="column-a1"] [data-testid="file-row"]').count(), 4);
  await page.locator('[data-testid="attempt-card"][data-column="a2"]').click();
  await page.locator('[data-testid="attempt-card"][data-column="a2"].active').waitFor();
  await page.locator('[data-testid="column-a2"] [data-testid="file-row"]').waitFor();
  assert.equal(await page.locator('[data-testid="column-a1"]').count(), 0, 'only the active attempt is shown in full');
  await h.shot(page, 'compact-on');
  // Saved in the webview's own state (harness/fakeHost.ts keeps it in sessionStorage), as the split positions are.
  await waitUntil(page, `JSON.parse(sessionStorage.getItem('harness.webviewState') ?? '{}').compactAttempts === 'on'`);
  await page.reload();
  await page.locator('[data-testid="attempts"][data-compact="true"]').waitFor();
  await page.locator('[data-testid="compact-toggle"]').click();
  await page.locator('[data-testid="attempts"][data-compact="false"]').waitFor();
  assert.equal(await page.locator('[data-testid="attempt-card"]').count(), 0);
  await page.close();
});

test('a 540 px editor group: the sides stack, no region overlaps another or the header, and what does not fit scrolls', async () => {
  const page = await h.open({ width: 540, height: 900 });
  const regions = ['region-request', 'region-specs', 'region-attempts', 'region-trajectory'];
  await waitUntil(page, `document.querySelector('[data-testid="region-request"]').getBoundingClientRect().width > 480`, 5_000).catch(() => undefined);
  await h.shot(page, 'narrow-540');
  const boxesNow = await boxes(page, regions.map((r) => `[data-testid="${r}"]`).join(', '));
  assert.equal(boxesNow.length, 4);
  const [header] = await boxes(page, '[data-testid="task-header"]');
  for (const r of boxesNow) {
    assert.ok(r.x >= -0.5 && r.x + r.w <= 540.5, `${r.id} ${JSON.stringify(r)} is inside the view's width`);
    assert.ok(r.w >= 480, `${r.id} is as wide as the view (stacked), not a ${Math.round(r.w)} px strip`);
    assert.ok(r.h >= 150, `${r.id} keeps a height it can be read in: ${Math.round(r.h)} px`);
    assert.ok(!overlap(r, header!), `${r.id} does not overlap the header`);
  }
  for (const [i, a] of boxesNow.entries()) for (const b of boxesNow.slice(i + 1)) assert.ok(!overlap(a, b), `${a.id} ${JSON.stringify(a)} and ${b.id} ${JSON.stringify(b)} do not overlap`);
  // Taller than the view: the regions scroll as one page, down to the last region's bottom.
  const scroll = (await page.evaluate(`(() => { const r = document.querySelector('[data-testid="regions"]'); return { sh: r.scrollHeight, ch: r.clientHeight, oy: getComputedStyle(r).overflowY }; })()`)) as { sh: number; ch: number; oy: string };
  if (scroll.sh > scroll.ch + 1) assert.ok(['auto', 'scroll'].includes(scroll.oy), `the regions scroll (${JSON.stringify(scroll)})`);
  await page.locator('[data-testid="region-trajectory"]').scrollIntoViewIfNeeded();
  const [traj] = await boxes(page, '[data-testid="region-trajectory"]');
  assert.ok(traj!.y + traj!.h <= 900.5, `the trajectories can be scrolled into view: ${JSON.stringify(traj)}`);
  // Nothing spills sideways out of a region.
  const spill = (await page.evaluate(`[...document.querySelectorAll('.region-body')].filter((b) => b.closest('[data-testid="region-specs"], [data-testid="region-request"]')).map((b) => b.scrollWidth - b.clientWidth)`)) as number[];
  assert.deepEqual(spill.filter((d) => d > 1), [], 'the request and specs regions need no sideways scrolling');
  // Wide again: side by side again.
  await page.setViewportSize({ width: 1400, height: 900 });
  await waitUntil(page, `(() => { const a = document.querySelector('[data-testid="region-request"]').getBoundingClientRect(); const b = document.querySelector('[data-testid="region-attempts"]').getBoundingClientRect(); return b.x >= a.right - 2 && Math.abs(a.y - b.y) < 2; })()`);
  await page.close();
});

test('a 540 px editor group: the stacked sides\' handle dragged to the bottom leaves the attempt cards on the first screen, and the side-by-side layout keeps its own position', async () => {
  const page = await h.open({ fixture: 'many', query: 'attempts=8', width: 540, height: 900 });
  await page.locator('[data-testid="split-main"].stacked').waitFor();
  await page.locator('[data-testid="attempt-card"]').first().waitFor();
  const handle = (await page.evaluate(`(() => { const r = document.querySelector('[data-testid="split-main"]').shadowRoot.querySelector('.handle').getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()`)) as { x: number; y: number };
  await page.mouse.move(handle.x, handle.y);
  await page.mouse.down();
  // Down to the screen's last row: the request and specs would fill the whole first screen.
  await page.mouse.move(handle.x, handle.y + 200, { steps: 4 });
  await page.mouse.move(handle.x, 899, { steps: 4 });
  await page.mouse.up();
  // The drag is over once the page has saved where it ended (under either name: which one is asserted below).
  await waitUntil(page, `(() => { const s = JSON.parse(sessionStorage.getItem('harness.webviewState') ?? '{}').splits ?? {}; return s.main !== undefined || s.mainStacked !== undefined; })()`);
  await h.shot(page, 'stacked-dragged-540');
  const seen = (await page.evaluate(`(() => {
    const regions = document.querySelector('[data-testid="regions"]');
    const card = document.querySelector('[data-testid="attempt-card"]').getBoundingClientRect();
    return { scrollTop: regions.scrollTop, bottom: regions.getBoundingClientRect().bottom, card: { y: card.y, h: card.height } };
  })()`)) as { scrollTop: number; bottom: number; card: { y: number; h: number } };
  assert.equal(seen.scrollTop, 0, 'nothing scrolled');
  assert.ok(seen.card.y + seen.card.h <= seen.bottom + 0.5, `the first attempt card ${JSON.stringify(seen.card)} is on the first screen (its bottom at ${seen.bottom})`);
  const state = (await page.evaluate(`JSON.parse(sessionStorage.getItem('harness.webviewState')).splits`)) as Record<string, number>;
  assert.equal(state.main, undefined, `the side-by-side position is not the stacked drag's: ${JSON.stringify(state)}`);
  assert.ok(state.mainStacked! < 80, `the stacked position kept is the one the bound allowed: ${JSON.stringify(state)}`);
  // Wide again: side by side at the side-by-side position (40 %), not the stacked one.
  await page.setViewportSize({ width: 1400, height: 900 });
  await waitUntil(page, `!document.querySelector('[data-testid="split-main"]').classList.contains('stacked')`);
  await waitUntil(page, `(() => { const a = document.querySelector('[data-testid="region-attempts"]').getBoundingClientRect(); return Math.abs(a.x / 1400 - 0.4) < 0.03; })()`);
  await page.close();
});

test('the matrix\'s rotated test names are not cut: each whole inside its header cell, the full name on hover', async () => {
  for (const width of [1600, 540]) {
    const page = await h.open({ width, height: 900 });
    await page.locator('[data-testid="specs-tab-matrix"]').click();
    await page.locator('[data-testid="matrix-test"]').first().waitFor();
    if (width === 540) await h.shot(page, 'matrix-540');
    const names = (await page.evaluate(`[...document.querySelectorAll('[data-testid="matrix-test"]')].map((th) => {
      const label = th.querySelector('.vertical');
      const l = label.getBoundingClientRect();
      const t = th.getBoundingClientRect();
      const row = th.closest('tr').getBoundingClientRect();
      return { test: th.dataset.test, text: label.textContent, title: label.getAttribute('title') ?? '', sh: label.scrollHeight, ch: label.clientHeight, sw: label.scrollWidth, cw: label.clientWidth,
        label: { id: 'label', x: l.x, y: l.y, w: l.width, h: l.height }, cell: { id: 'cell', x: t.x, y: t.y, w: t.width, h: t.height }, row: { id: 'row', x: row.x, y: row.y, w: row.width, h: row.height } };
    })`)) as Array<{ test: string; text: string; title: string; sh: number; ch: number; sw: number; cw: number; label: Box; cell: Box; row: Box }>;
    const full: Record<string, string> = { T1: 'tests/test_parser.py::TestNested::test_trailing_comma', T2: 'tests/test_parser.py::TestNested::test_spaces', T3: 'tests/test_errors.py::test_unclosed', T4: 'tests/test_parser.py::test_flat_list' };
    assert.equal(names.length, 4);
    for (const n of names) {
      assert.ok(n.sh <= n.ch + 1 && n.sw <= n.cw + 1, `${width} px: ${n.test}'s name "${n.text}" is not clipped (${n.sw}x${n.sh} in ${n.cw}x${n.ch})`);
      assert.ok(full[n.test]!.endsWith(n.text.replace(/\u2026$/, '')) || full[n.test]!.includes(n.text.replace(/\u2026$/, '')), `${n.test} shows part of its name: ${n.text}`);
      assert.ok(!n.text.endsWith('\u2026'), `${n.test}'s short name is shown whole: ${n.text}`);
      assert.ok(n.title.includes(full[n.test]!), `${n.test}'s label carries the full name on hover: ${n.title}`);
      assert.ok(inside(n.label, n.cell) && inside(n.label, n.row), `${n.test}'s name ${JSON.stringify(n.label)} is inside its header cell ${JSON.stringify(n.cell)}`);
    }
    await page.close();
  }
});
