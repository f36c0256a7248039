// Turns as cards: the rows of one assistant turn (thought, action, observation) are one card in the step list, the
// detail of a step shows its whole turn with that step highlighted, and the detail can take the region's full height.
// The standard fixture's a1 is system, user, then thought/action/observation cycles: turn 1 is steps 2-4, turn 2 5-7.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { dataOf, probe, startBrowserHarness, stepRow, waitUntil, type Harness } from './harness/page';

let h: Harness;
let page: Page;

before(async () => {
  h = await startBrowserHarness('turns');
  page = await h.open({ height: 1100 });
});

after(async () => {
  await h?.close();
});

const tid = (id: string) => page.locator(`[data-testid="${id}"]`);
const classes = async (step: number) => ((await stepRow(page, step).getAttribute('class')) ?? '').split(/\s+/);
const box = async (selector: string) => {
  const b = await page.locator(selector).first().boundingBox();
  assert.ok(b, `${selector} is on screen`);
  return b;
};

test('the rows of one turn share a card: one turn number, first and last rows closing it, a gap between cards', async () => {
  await stepRow(page, 7).waitFor({ timeout: 5_000 });
  await page.mouse.move(0, 0);
  assert.deepEqual(await dataOf(page.locator('[data-testid="step-row"][data-step="2"], [data-testid="step-row"][data-step="3"], [data-testid="step-row"][data-step="4"]'), 'turn'), ['1', '1', '1']);
  assert.equal(await stepRow(page, 5).getAttribute('data-turn'), '2');
  // The system prompt and the task stand alone: no card.
  for (const s of [0, 1]) {
    assert.equal(await stepRow(page, s).getAttribute('data-turn'), null);
    assert.ok(!(await classes(s)).includes('turn-card'), `step ${s} is no card`);
  }
  const [c2, c3, c4, c5] = [await classes(2), await classes(3), await classes(4), await classes(5)];
  assert.ok(c2.includes('turn-card') && c2.includes('turn-first') && !c2.includes('turn-last'), c2.join(' '));
  assert.ok(c3.includes('turn-card') && !c3.includes('turn-first') && !c3.includes('turn-last'), c3.join(' '));
  assert.ok(c4.includes('turn-card') && c4.includes('turn-last') && !c4.includes('turn-first'), c4.join(' '));
  assert.ok(c5.includes('turn-first'), c5.join(' '));
  // The turn number is drawn on the first row only (a ::before from data-turn-label: no element per row).
  const label = (s: number) => page.evaluate(`getComputedStyle(document.querySelector('[data-testid="step-row"][data-step="${s}"]'), '::before').content`);
  assert.equal(await label(2), '"T1"', 'the turn number is on the first row');
  assert.equal(await label(3), '""');
  // What the eye sees: one background for the card's rows, rounded top and bottom, and a gap before the next card.
  const looks = (await page.evaluate(`[2, 3, 4, 0].map((s) => {
    const c = getComputedStyle(document.querySelector('[data-testid="step-row"][data-step="' + s + '"]'));
    return { bg: c.backgroundColor, top: c.borderTopLeftRadius, bottom: c.borderBottomLeftRadius };
  })`)) as Array<{ bg: string; top: string; bottom: string }>;
  assert.equal(new Set(looks.slice(0, 3).map((l) => l.bg)).size, 1, `one card background: ${JSON.stringify(looks)}`);
  assert.notEqual(looks[0]!.bg, looks[3]!.bg, 'a card is set off from a row standing alone');
  assert.ok(parseFloat(looks[0]!.top) > 0 && parseFloat(looks[2]!.bottom) > 0 && parseFloat(looks[1]!.top) === 0, JSON.stringify(looks));
  const end4 = (await box('[data-testid="step-row"][data-step="4"]')).y + (await box('[data-testid="step-row"][data-step="4"]')).height;
  const top5 = (await box('[data-testid="step-row"][data-step="5"]')).y;
  assert.ok(top5 - end4 >= 2, `a gap between turns (${top5 - end4}px)`);
  await h.shot(page, 'turn-cards');

  // Under a kind filter the card is the turn's listed rows: without thoughts, turn 1's card is the action and observation.
  await tid('kind-thought').click();
  await waitUntil(page, `!document.querySelector('[data-testid="trajectory-list"] .step-row.kind-thought:not([hidden])')`);
  await waitUntil(page, `(document.querySelector('[data-testid="step-row"][data-step="3"]')?.className ?? '').includes('turn-first')`, 5_000);
  assert.ok((await classes(4)).includes('turn-last'));
  assert.equal(await stepRow(page, 3).getAttribute('data-turn-label'), 'T1');
  await tid('kind-thought').click();
  await stepRow(page, 2).waitFor();
});

test('the detail of a selected observation shows its turn: the thought and the action above it, the observation highlighted', async () => {
  await stepRow(page, 4).click();
  await tid('step-detail-header').filter({ hasText: /Step 4\b/ }).waitFor();
  const sections = page.locator('[data-testid="turn-step"]');
  await waitUntil(page, `document.querySelectorAll('[data-testid="turn-step"]').length === 3`, 5_000);
  assert.deepEqual(await dataOf(sections, 'step'), ['2', '3', '4']);
  assert.deepEqual(await dataOf(page.locator('[data-testid="turn-step"].selected'), 'step'), ['4'], 'only the observation is highlighted');
  assert.match((await sections.nth(0).textContent()) ?? '', /thought.*Step 2 of a1: I should read src\/pkg\/module_2\.py/s);
  assert.match((await sections.nth(1).locator('[data-testid="turn-tool-call"]').textContent()) ?? '', /str_replace_editor.*src\/pkg\/parser\.py/s);
  assert.match((await tid('detail-turn').textContent()) ?? '', /Turn 1 · steps 2–4/);
  // The highlighted section is in view in the detail's scrolling body.
  const sel = await box('[data-testid="turn-step"].selected');
  const body = await box('[data-testid="turn-body"]');
  assert.ok(sel.y >= body.y - 1 && sel.y < body.y + body.height, 'the selected step is scrolled into view');
  // Its card in the list is outlined as the selected turn.
  assert.ok((await classes(2)).includes('turn-selected') && !(await classes(5)).includes('turn-selected'));
  await h.shot(page, 'turn-detail');

  // Another step of the turn is chosen from the detail: the list follows.
  await sections.nth(0).locator('[data-testid="turn-step-pick"]').click();
  await tid('step-detail-header').filter({ hasText: /Step 2\b/ }).waitFor();
  await stepRow(page, 2).and(page.locator('.selected')).waitFor();
  await waitUntil(page, `document.querySelector('[data-testid="turn-step"].selected')?.dataset.step === '2' && document.querySelectorAll('[data-testid="turn-step"]').length === 3`, 5_000);
});

test('with only observations listed, the detail still fetches the thought and action of the turn from the host', async () => {
  await tid('kind-thought').click();
  await tid('kind-action').click();
  await waitUntil(page, `!document.querySelector('[data-testid="trajectory-list"] .step-row.kind-action:not([hidden])')`);
  await stepRow(page, 7).click();
  await tid('step-detail-header').filter({ hasText: /Step 7\b/ }).waitFor();
  await waitUntil(page, `document.querySelectorAll('[data-testid="turn-step"]').length === 3`, 5_000);
  assert.deepEqual(await dataOf(page.locator('[data-testid="turn-step"]'), 'step'), ['5', '6', '7']);
  const log = await probe(page, (g) => g.__fakeHost.log);
  assert.ok(log.some((l) => l.method === 'getSteps' && l.params.kinds === undefined && (l.params.start as number) <= 5), 'an unfiltered page around the step');
  await tid('kind-thought').click();
  await tid('kind-action').click();
  await stepRow(page, 6).waitFor();
});

test('the full-height button gives the detail the whole region, and the button or Escape brings the list back', async () => {
  await stepRow(page, 4).click();
  await tid('step-detail-header').filter({ hasText: /Step 4\b/ }).waitFor();
  const region = await box('[data-testid="trajectory"]');
  const before = await box('[data-testid="detail-pane"]');
  assert.ok(before.height < region.height * 0.7, `the detail shares the region with the list (${before.height} of ${region.height})`);
  const scrolled = await page.evaluate(`document.querySelector('[data-testid="trajectory-list"]').scrollTop = 220`);
  assert.equal(scrolled, 220);

  await tid('detail-full').click();
  await tid('trajectory-list').waitFor({ state: 'hidden', timeout: 5_000 });
  await waitUntil(page, `(() => {
    const r = document.querySelector('[data-testid="trajectory"]').getBoundingClientRect();
    const d = document.querySelector('[data-testid="detail-pane"]').getBoundingClientRect();
    return d.height >= r.height - 12 && d.top <= r.top + 6;
  })()`, 5_000);
  assert.equal(await tid('detail-full').getAttribute('aria-pressed'), 'true');
  assert.equal(await tid('search-box').isVisible(), false, 'the controls above the list wait hidden too');
  assert.deepEqual(await dataOf(page.locator('[data-testid="turn-step"]'), 'step'), ['2', '3', '4'], 'the same turn, taller');
  await h.shot(page, 'detail-full-height');

  await tid('detail-full').click();
  await tid('trajectory-list').waitFor({ state: 'visible', timeout: 5_000 });
  const back = await box('[data-testid="detail-pane"]');
  assert.ok(Math.abs(back.height - before.height) <= 2, `the detail is back to its share (${back.height} against ${before.height})`);
  assert.equal(await page.evaluate(`document.querySelector('[data-testid="trajectory-list"]').scrollTop`), 220, 'the list is where it was');
  await stepRow(page, 10).waitFor();

  await tid('detail-full').click();
  await tid('trajectory-list').waitFor({ state: 'hidden', timeout: 5_000 });
  await page.keyboard.press('Escape');
  await tid('trajectory-list').waitFor({ state: 'visible', timeout: 5_000 });
  assert.equal(await tid('detail-full').getAttribute('aria-pressed'), 'false');
});

test('no page error and no CSP violation', async () => {
  const r = await probe(page, (g) => ({ v: g.__fakeHost.violations, i: g.__fakeHost.invalid }));
  assert.deepEqual(r, { v: [], i: [] });
  assert.deepEqual(h.errors, []);
});
