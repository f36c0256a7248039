// The review part of the task view in Chromium against the harness host built from the real thing (`review=real`):
// the extension's ReviewActions over a real CurationStore on a copy of test/fixtures/review/ds (task t1: a1 passes
// every test, a2 fails T2), so what the page shows after a key is what the extension's store decided and wrote to
// curation/events.jsonl, not what a stand-in thinks it would.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { probe, startBrowserHarness, waitForStatus, type Harness } from './harness/page';

let h: Harness;

before(async () => {
  h = await startBrowserHarness('review-real');
});

after(async () => {
  await h?.close();
});

const tid = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const cellOf = (page: Page, attempt: string, spec: string) => page.locator(`[data-testid="review-cell"][data-attempt="${attempt}"][data-spec="${spec}"]`);

async function openReal(): Promise<Page> {
  const page = await h.open({ query: 'review=real' });
  await probe(page, (g) => g.__fakeHost.resetState());
  await tid(page, 'specs-tab-review').click();
  await tid(page, 'review-grid').waitFor();
  return page;
}

test('a verdict key goes through the real store: the event is in the log, the cell shows the store’s outcome', async () => {
  const page = await openReal();
  const real = h.realReview(page)!;
  assert.deepEqual(
    await page.locator('[data-testid="review-cell"]').evaluateAll((cs) => cs.map((c) => `${c.getAttribute("data-attempt")} ${c.getAttribute("data-spec")}`)),
    ['a1 S1', 'a2 S1', 'a1 S2', 'a2 S2'],
    'the grid is the real review view of t1',
  );
  await cellOf(page, 'a1', 'S2').click();
  await page.locator('[data-testid="review-cell"].focused[data-attempt="a1"][data-spec="S2"]').waitFor();
  await page.keyboard.press('v');
  await page.locator('[data-testid="review-cell"][data-attempt="a1"][data-spec="S2"][data-mine="violated"]').waitFor();
  const events = real.events();
  assert.equal(events.length, 1);
  assert.equal(events[0]!.kind, 'label');
  assert.equal(events[0]!.curator, 'alice');
  assert.deepEqual(events[0]!.payload, { attempt: 'a1', spec: 'S2', verdict: 'violated', evidence: [] });
  // a1 passes every test, so its verifier verdict on S2 is pass: "violated" makes it a false positive.
  assert.equal(await cellOf(page, 'a1', 'S2').getAttribute('data-outcome'), 'false_positive');
  await waitForStatus(page, /^Recorded: a1 × S2: violated\.$/);
  assert.deepEqual(h.errors, []);
  await page.close();
});

test('a full disk records nothing: the note stays as typed and keeps its focus, the pair stays unlabelled', async () => {
  const page = await openReal();
  const real = h.realReview(page)!;
  await cellOf(page, 'a2', 'S1').click();
  await page.locator('[data-testid="review-pair"][data-attempt="a2"][data-spec="S1"]').waitFor();
  const note = tid(page, 'review-note');
  await note.click();
  await note.pressSequentially('the greeting is right');
  real.diskFull = true;
  await tid(page, 'verdict-satisfied').click();
  await waitForStatus(page, /^Not recorded: /);
  assert.equal(real.events().length, 0, 'nothing reached the log');
  assert.equal(await note.inputValue(), 'the greeting is right');
  assert.equal(await cellOf(page, 'a2', 'S1').getAttribute('data-mine'), '');
  // Typed on after the failure: the text goes on where the caret was.
  await note.click();
  await page.keyboard.press('End');
  await page.keyboard.type('!');
  assert.equal(await note.inputValue(), 'the greeting is right!');
  // The retry is recorded, with the note.
  await tid(page, 'verdict-satisfied').click();
  await page.locator('[data-testid="review-cell"][data-attempt="a2"][data-spec="S1"][data-mine="satisfied"]').waitFor();
  assert.deepEqual(real.events().map((e) => (e.payload as { note?: string }).note), ['the greeting is right!']);
  assert.deepEqual(h.errors, []);
  await page.close();
});

test('z undoes through the real log: an undo event is appended and the label is gone', async () => {
  const page = await openReal();
  const real = h.realReview(page)!;
  await cellOf(page, 'a2', 'S2').click();
  await page.locator('[data-testid="review-cell"].focused[data-attempt="a2"][data-spec="S2"]').waitFor();
  await page.keyboard.press('s');
  await page.locator('[data-testid="review-cell"][data-attempt="a2"][data-spec="S2"][data-mine="satisfied"]').waitFor();
  // a2 fails T2, which covers S2: "satisfied" makes it a false negative.
  assert.equal(await cellOf(page, 'a2', 'S2').getAttribute('data-outcome'), 'false_negative');
  await tid(page, 'task-title').click();
  await page.keyboard.press('z');
  await page.locator('[data-testid="review-cell"][data-attempt="a2"][data-spec="S2"][data-mine=""]').waitFor();
  assert.deepEqual(
    real.events().map((e) => e.kind),
    ['label', 'undo'],
  );
  assert.deepEqual(h.errors, []);
  await page.close();
});
