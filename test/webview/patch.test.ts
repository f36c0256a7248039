// Regions that patch (issue 11, item 5), in Chromium: every region of the task view is a lit-html template, so an
// update that does not change a region touches none of its nodes, and one that changes a spec touches that spec
// only. What the curator notices: a text selection in the request, the trajectory's scroll position, an opened
// test source and a collapsed spec category survive a label being recorded and a push that changes one spec.
// Nodes added and removed are counted with a MutationObserver over the whole page, per region.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { standardFixture } from './harness/fixtures';
import { probe, startBrowserHarness, waitUntil, type Harness } from './harness/page';

let h: Harness;

before(async () => {
  h = await startBrowserHarness('patch');
});

after(async () => {
  await h?.close();
});

const tid = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);

interface Mutations {
  /** Nodes added + removed (each with its subtree) per region (`region-request`, ...; `other` outside them). */
  byRegion: Record<string, number>;
  /** Nodes removed (each with its subtree) per region: a patch removes none where nothing went away. */
  removedByRegion: Record<string, number>;
  /** Of those in the specs region, per spec id whose element they are inside (`-` outside every spec). */
  bySpec: Record<string, number>;
}

/** Starts counting the nodes every update adds and removes, per region, until `takeMutations`. */
async function watchMutations(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    const w = window;
    w.__mut = { byRegion: {}, removedByRegion: {}, bySpec: {} };
    const size = (n) => { let k = 1; for (const c of n.childNodes) k += size(c); return k; };
    const where = (t) => {
      const e = t instanceof Element ? t : t.parentElement;
      const region = e ? e.closest('[data-testid^="region-"]') : null;
      const spec = e ? e.closest('[data-testid="spec"]') : null;
      return { region: region ? region.dataset.testid : 'other', spec: spec ? spec.dataset.spec : '-' };
    };
    w.__mo?.disconnect();
    w.__moCount = (records) => {
      for (const r of records) for (const list of [r.addedNodes, r.removedNodes]) for (const n of list) {
        const k = size(n);
        const at = where(r.target);
        w.__mut.byRegion[at.region] = (w.__mut.byRegion[at.region] || 0) + k;
        if (list === r.removedNodes) w.__mut.removedByRegion[at.region] = (w.__mut.removedByRegion[at.region] || 0) + k;
        if (at.region === 'region-specs') w.__mut.bySpec[at.spec] = (w.__mut.bySpec[at.spec] || 0) + k;
      }
    };
    w.__mo = new MutationObserver(w.__moCount);
    w.__mo.observe(document.body, { childList: true, subtree: true });
  })()`);
}

async function takeMutations(page: Page): Promise<Mutations> {
  // Renders queued in the same turn and the observer's own microtask land before the records are read.
  await page.evaluate(`new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))`);
  return (await page.evaluate(`(() => { const w = window; w.__moCount(w.__mo.takeRecords()); w.__mo.disconnect(); return w.__mut; })()`)) as Mutations;
}

/** Waits until the page's DOM stopped changing: three animation frames in a row without a mutation. */
async function quiet(page: Page): Promise<void> {
  await page.evaluate(`new Promise((resolve) => {
    let calm = 0;
    const mo = new MutationObserver(() => (calm = 0));
    mo.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
    const tick = () => {
      if (++calm >= 3) { mo.disconnect(); resolve(true); } else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })`);
}

/** Selects the text of the request's first paragraph; returns it. */
async function selectRequestText(page: Page): Promise<string> {
  return (await page.evaluate(`(() => {
    const p = document.querySelector('[data-testid="request"] p');
    const range = document.createRange();
    range.selectNodeContents(p);
    const sel = getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    return sel.toString();
  })()`)) as string;
}

/** The current selection's text, and whether it still lies inside the request. */
const selection = (page: Page) =>
  page.evaluate(`(() => {
    const sel = getSelection();
    const node = sel.anchorNode;
    return { text: sel.toString(), inRequest: !!node && node.isConnected && !!(node instanceof Element ? node : node.parentElement).closest('[data-testid="request"]') };
  })()`) as Promise<{ text: string; inRequest: boolean }>;

/** Scrolls the trajectory list and waits until the rows at the new offset are drawn; returns the offset. */
async function scrollTrajectory(page: Page, top: number): Promise<number> {
  await page.evaluate(`document.querySelector('[data-testid="trajectory-list"]').scrollTop = ${top}`);
  await waitUntil(page, `(() => { const l = document.querySelector('[data-testid="trajectory-list"]'); return document.querySelector('[data-testid="step-row"][data-step="' + Math.floor(l.scrollTop / 22) + '"]') !== null; })()`);
  return (await page.evaluate(`document.querySelector('[data-testid="trajectory-list"]').scrollTop`)) as number;
}
/** Marks the step rows on screen, to tell later whether they are the same nodes showing the same steps. */
async function markRows(page: Page): Promise<void> {
  await page.evaluate(`window.__rows = [...document.querySelectorAll('[data-testid="step-row"]:not([hidden])')].map((r) => ({ node: r, text: r.textContent, step: r.dataset.step }))`);
}
const rowsKept = (page: Page) =>
  page.evaluate(`(() => { const rows = window.__rows; return { kept: rows.every((r) => r.node.isConnected && !r.node.hidden && r.node.textContent === r.text && r.node.dataset.step === r.step), rows: rows.length }; })()`) as Promise<{ kept: boolean; rows: number }>;
const trajectoryTop = (page: Page) => page.evaluate(`document.querySelector('[data-testid="trajectory-list"]').scrollTop`) as Promise<number>;

test('recording a label replaces no node outside the review: a selection in the request and the trajectory scroll survive it', async () => {
  const page = await h.open({ query: 'review=real&ds=story', height: 1100 });
  await probe(page, (g) => g.__fakeHost.resetState());
  const top = await scrollTrajectory(page, 22 * 300);
  assert.ok(top > 0, 'the trajectory scrolled');
  await tid(page, 'specs-tab-review').click();
  await tid(page, 'review-grid').waitFor();
  const selected = await selectRequestText(page);
  assert.ok(selected.length > 10);
  const cell = page.locator('[data-testid="review-cell"].focused');
  const [attempt, spec] = [await cell.getAttribute('data-attempt'), await cell.getAttribute('data-spec')];
  await quiet(page);
  await markRows(page);
  await watchMutations(page);
  // The key goes to the page (the grid's keys work wherever the focus is outside a text field).
  await page.evaluate(`document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 's', bubbles: true, cancelable: true }))`);
  await page.locator(`[data-testid="review-cell"][data-attempt="${attempt}"][data-spec="${spec}"][data-mine="satisfied"]`).waitFor();
  await waitUntil(page, (g) => g.__fakeHost.idle());
  const m = await takeMutations(page);
  for (const region of ['region-request', 'region-attempts']) assert.equal(m.byRegion[region] ?? 0, 0, `${region}: ${JSON.stringify(m)}`);
  // The review bar may change height with what it says, so the trajectory's list may show a row more or less; the
  // rows it showed stay the same nodes with the same text, and nothing in it is replaced.
  assert.equal(m.removedByRegion['region-trajectory'] ?? 0, 0, JSON.stringify(m));
  const rows = await rowsKept(page);
  assert.ok(rows.rows > 5, `${rows.rows} rows on screen`);
  assert.equal(rows.kept, true, 'the rows on screen are the same nodes showing the same steps');
  assert.deepEqual(await selection(page), { text: selected, inRequest: true }, 'the selection in the request is intact');
  assert.equal(await trajectoryTop(page), top, 'the trajectory stays where it was scrolled to');
  assert.deepEqual(h.errors, []);
  await page.close();
});

test('a push that changes one spec patches that spec only; the selection, the scroll, an open source and a collapsed category stay', async () => {
  const page = await h.open({ height: 1100 });
  await probe(page, (g) => g.__fakeHost.resetState());
  const top = await scrollTrajectory(page, 22 * 500);
  const selected = await selectRequestText(page);
  // Collapse the error-handling category (S2): a rebuild would open it again.
  const errors = page.locator('[data-testid="spec-category"][data-category="error-handling"]');
  await errors.evaluate((c) => ((c as unknown as { open: boolean }).open = false));
  const specNode = page.locator('[data-testid="spec"][data-spec="S4"]');
  const handles = await page.evaluate(`(() => { window.__s1 = document.querySelector('[data-testid="spec"][data-spec="S1"]'); window.__s4 = document.querySelector('[data-testid="spec"][data-spec="S4"]'); return 1; })()`);
  assert.equal(handles, 1);

  const specs = standardFixture().model.specs.map((s) => (s.id === 'S4' ? { ...s, text: 'Whitespace around commas and brackets is ignored.' } : s));
  await quiet(page);
  await watchMutations(page);
  await page.evaluate(`window.__fakeHost.update({ specs: ${JSON.stringify(specs)} })`);
  await specNode.locator('.spec-text').filter({ hasText: /^Whitespace around commas and brackets is ignored\.$/ }).waitFor();
  const m = await takeMutations(page);

  const replacedOutside = Object.entries(m.bySpec).filter(([spec, n]) => spec !== 'S4' && n > 0);
  assert.deepEqual(replacedOutside, [], `only S4's nodes may change in the specs region: ${JSON.stringify(m.bySpec)}`);
  for (const region of ['region-request', 'region-attempts', 'region-trajectory']) assert.equal(m.byRegion[region] ?? 0, 0, `${region}: ${JSON.stringify(m)}`);
  assert.equal(await page.evaluate(`window.__s1 === document.querySelector('[data-testid="spec"][data-spec="S1"]') && window.__s4 === document.querySelector('[data-testid="spec"][data-spec="S4"]')`), true, 'the spec elements are the same nodes, patched');
  assert.deepEqual(await selection(page), { text: selected, inRequest: true }, 'the selection in the request is intact');
  assert.equal(await trajectoryTop(page), top, 'the trajectory stays where it was scrolled to');
  assert.equal(await errors.evaluate((c) => (c as unknown as { open: boolean }).open), false, 'the collapsed category stays collapsed');
  assert.deepEqual(h.errors, []);
  await page.close();
});

test('a push patches the open tests tab: an opened test source stays open, and "show more" stays shown', async () => {
  const page = await h.open({ fixture: 'scale', query: 'attempts=2&steps=50&chars=50&specs=10&tests=120', height: 1100 });
  await probe(page, (g) => g.__fakeHost.resetState());
  await tid(page, 'specs-tab-tests').click();
  await tid(page, 'tests-show-more').click();
  await waitUntil(page, `document.querySelectorAll('[data-testid="test"]').length === 100`);
  const first = page.locator('[data-testid="test"]').first();
  await first.locator('summary').click();
  assert.equal(await first.locator('details').evaluate((d) => (d as unknown as { open: boolean }).open), true);
  await quiet(page);
  await watchMutations(page);
  await page.evaluate(`window.__fakeHost.update({ title: 'Renamed while the tests are open' })`);
  await tid(page, 'task-title').filter({ hasText: /^Renamed while the tests are open$/ }).waitFor();
  const m = await takeMutations(page);
  assert.equal(m.byRegion['region-specs'] ?? 0, 0, JSON.stringify(m.byRegion));
  assert.equal(await page.locator('[data-testid="test"]').count(), 100, '"show more" is remembered');
  assert.equal(await first.locator('details').evaluate((d) => (d as unknown as { open: boolean }).open), true, 'the opened source stays open');
  assert.deepEqual(h.errors, []);
  await page.close();
});

test('a push with a repeated spec id shows both specs (keyed lists take hostile ids), and a later push patches them', async () => {
  const page = await h.open();
  const base = standardFixture().model.specs;
  const twice = [...base, { ...base[0]!, text: 'A second spec that reuses the id S1.' }];
  await page.evaluate(`window.__fakeHost.update({ specs: ${JSON.stringify(twice)} })`);
  await page.locator('[data-testid="spec"][data-spec="S1"] .spec-text').filter({ hasText: /^A second spec that reuses the id S1\.$/ }).waitFor();
  assert.equal(await page.locator('[data-testid="spec"][data-spec="S1"]').count(), 2);
  const changed = twice.map((s, i) => (i === twice.length - 1 ? { ...s, text: 'The second S1, changed.' } : s));
  await quiet(page);
  await watchMutations(page);
  await page.evaluate(`window.__fakeHost.update({ specs: ${JSON.stringify(changed)} })`);
  await page.locator('[data-testid="spec"][data-spec="S1"] .spec-text').filter({ hasText: /^The second S1, changed\.$/ }).waitFor();
  const m = await takeMutations(page);
  assert.equal(m.byRegion['region-specs'] ?? 0, 0, JSON.stringify(m));
  assert.equal(await page.locator('[data-testid="spec"][data-spec="S1"]').count(), 2);
  assert.deepEqual(h.errors, []);
  await page.close();
});
