// The rest of spec authoring in the task view (Chromium), over the harness host built from the real thing
// (`review=real&ds=story&authoring=1`, see specAuthoring.test.ts): "Move up"/"Move down", "Split", "Merge selected"
// and the matrix's shift-click range. Each is one `specs.edit` request answered by the extension's SpecAuthoring,
// which writes a new revision of tasks/demo__parser-1234 through applySpecEdit; every test asserts on the page and on
// task.json on disk. The story's specs: S1, S3, S4 (parsing-representation), S2 (error-handling), S5
// (computation-algorithms); T1 covers S1, T2 covers S1 and S4, T3 covers S2, T4 covers nothing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { hostSettled, probe, startBrowserHarness, waitForStatus, waitUntil, type Harness } from './harness/page';
import { HOSTILE_HTML } from './harness/fixtures';
import { cellOf, onDisk, openAuthoring, shownSpecs, specOf, taskJson, testsOf, tid } from './harness/authoring';

let h: Harness;

before(async () => {
  h = await startBrowserHarness('spec-ops');
});

after(async () => {
  await h?.close();
});

/** The spec the focused element is in, and the focused element's test id. */
async function focused(page: Page): Promise<{ spec: string | null; testid: string | null }> {
  return page.evaluate(`(() => {
    const a = document.activeElement;
    return { spec: a?.closest('[data-testid="spec"]')?.getAttribute('data-spec') ?? null, testid: a?.getAttribute('data-testid') ?? null };
  })()`);
}

async function waitForOrder(page: Page, order: string[]): Promise<void> {
  await waitUntil(page, `JSON.stringify([...document.querySelectorAll('[data-testid="spec"]')].map((e) => e.getAttribute('data-spec'))) === ${JSON.stringify(JSON.stringify(order))}`);
}

test('"Move up" and "Move down" reorder a spec inside its category, by mouse and by keyboard, one revision each', async () => {
  const { page, real } = await openAuthoring(h);
  const r0 = onDisk(real).revision ?? 1;
  assert.deepEqual(await shownSpecs(page), ['S1', 'S3', 'S4', 'S2', 'S5']);
  // The move buttons show on the spec hovered or focused (one spec at a time: few elements for many specs).
  assert.equal(await page.locator('[data-testid="spec-move-up"]').count(), 0);
  await specOf(page, 'S1').hover();
  assert.ok(await specOf(page, 'S1').locator('[data-testid="spec-move-up"]').isDisabled(), 'the first of its category cannot move up');
  assert.equal(await page.locator('[data-testid="spec-move-up"]').count(), 1);
  await specOf(page, 'S2').hover();
  assert.ok(await specOf(page, 'S2').locator('[data-testid="spec-move-up"]').isDisabled(), 'alone in its category');
  const edit = specOf(page, 'S4').locator('[data-testid="spec-edit"]');
  const at = await edit.boundingBox();
  await specOf(page, 'S4').hover();
  assert.ok(await specOf(page, 'S4').locator('[data-testid="spec-move-down"]').isDisabled(), 'the last of its category cannot move down');
  assert.deepEqual(await edit.boundingBox(), at, '"Edit" does not move under the pointer when the buttons appear');
  assert.equal(await page.locator('[data-testid="spec-move-up"]').count(), 1);
  await specOf(page, 'S4').locator('[data-testid="spec-move-up"]').click();
  await waitForOrder(page, ['S1', 'S4', 'S3', 'S2', 'S5']);
  let disk = onDisk(real);
  assert.equal(disk.revision, r0 + 1);
  assert.deepEqual(
    disk.specs.map((s) => s.id),
    ['S1', 'S2', 'S4', 'S3', 'S5'],
    'S4 now comes before S3 in task.json',
  );
  assert.deepEqual(await focused(page), { spec: 'S4', testid: 'spec-move-up' }, 'the focus stays on the moved spec’s button');
  // By keyboard: Enter on the focused button moves it again; at the top of its category the focus goes to "Move down".
  await page.keyboard.press('Enter');
  await waitForOrder(page, ['S4', 'S1', 'S3', 'S2', 'S5']);
  assert.deepEqual(await focused(page), { spec: 'S4', testid: 'spec-move-down' });
  await page.keyboard.press('Enter');
  await waitForOrder(page, ['S1', 'S4', 'S3', 'S2', 'S5']);
  disk = onDisk(real);
  assert.equal(disk.revision, r0 + 3);
  assert.deepEqual(
    disk.specs.map((s) => s.id),
    ['S1', 'S4', 'S2', 'S3', 'S5'],
    'moved down: right after S1',
  );
  // While the host writes: "Writing…" on the spec, every move button disabled, a second click sends nothing.
  const before = real.specRequests;
  const held = real.holdNextSpecRequest();
  // By keyboard to the spec (it takes the focus), then its button.
  await specOf(page, 'S3').focus();
  await specOf(page, 'S3').locator('[data-testid="spec-move-up"]').click();
  await held.reached;
  await specOf(page, 'S3').locator('[data-testid="spec-busy"]').filter({ hasText: 'Writing…' }).waitFor();
  assert.ok(await specOf(page, 'S3').locator('[data-testid="spec-move-up"]').isDisabled());
  assert.ok(await specOf(page, 'S3').locator('[data-testid="spec-move-down"]').isDisabled());
  assert.ok(await tid(page, 'spec-undo').isDisabled(), 'every write control waits');
  await specOf(page, 'S3').locator('[data-testid="spec-move-up"]').dispatchEvent('click');
  held.release();
  await waitForOrder(page, ['S1', 'S3', 'S4', 'S2', 'S5']);
  await specOf(page, 'S3').locator('[data-testid="spec-busy"]').waitFor({ state: 'detached' });
  await hostSettled(page);
  assert.equal(real.specRequests, before + 1, 'one request for two clicks');
  disk = onDisk(real);
  assert.equal(disk.revision, r0 + 4);
  assert.deepEqual(
    disk.specs.map((s) => s.id),
    ['S1', 'S3', 'S4', 'S2', 'S5'],
  );
  assert.deepEqual(h.errors, []);
  await page.close();
});

test('"Split" makes two specs with the tests chosen per part; a refused split shows why and keeps the typed parts', async () => {
  const { page, real } = await openAuthoring(h);
  const r0 = onDisk(real).revision ?? 1;
  const before = taskJson(real);
  const s1 = specOf(page, 'S1');
  await s1.hover();
  await s1.locator('[data-testid="spec-split"]').click();
  const form = s1.locator('[data-testid="spec-split-form"]');
  await form.waitFor();
  const part = (i: number) => form.locator(`[data-testid="spec-split-part"][data-part="${i}"]`);
  const box = (i: number, t: string) => part(i).locator(`[data-testid="spec-split-test"][data-test="${t}"]`);
  assert.equal(await form.locator('[data-testid="spec-split-part"]').count(), 2);
  assert.equal(await part(0).locator('[data-testid="spec-split-text"]').inputValue(), 'A trailing comma inside a nested list is kept as a separator, not an element.');
  assert.equal(await part(1).locator('[data-testid="spec-split-text"]').inputValue(), '');
  assert.deepEqual([await box(0, 'T1').isChecked(), await box(0, 'T2').isChecked(), await box(1, 'T1').isChecked(), await box(1, 'T2').isChecked()], [true, true, false, false]);
  // The second part left empty: refused, named, the typed first part kept, nothing written.
  await part(0).locator('[data-testid="spec-split-text"]').fill('A trailing comma inside a nested list is kept as a separator.');
  await box(0, 'T2').uncheck();
  await box(1, 'T2').check();
  await form.locator('[data-testid="spec-split-save"]').click();
  const error = form.locator('[data-testid="spec-split-error"]');
  await error.waitFor();
  assert.match((await error.textContent()) ?? '', /empty/);
  await waitForStatus(page, /^Not written: /);
  assert.equal(await part(0).locator('[data-testid="spec-split-text"]').inputValue(), 'A trailing comma inside a nested list is kept as a separator.');
  assert.equal(await box(1, 'T2').isChecked(), true, 'the test choices stay');
  assert.equal(taskJson(real), before, 'task.json is unchanged');
  // "Add part" adds a third, "Remove" takes it away again; the typed parts stay.
  await form.locator('[data-testid="spec-split-add-part"]').click();
  assert.equal(await form.locator('[data-testid="spec-split-part"]').count(), 3);
  await part(2).locator('[data-testid="spec-split-remove-part"]').click();
  assert.equal(await form.locator('[data-testid="spec-split-part"]').count(), 2);
  assert.equal(await part(0).locator('[data-testid="spec-split-text"]').inputValue(), 'A trailing comma inside a nested list is kept as a separator.');
  // Fixed and sent.
  await part(1).locator('[data-testid="spec-split-text"]').fill('The trailing comma is never parsed as an element.');
  await part(1).locator('[data-testid="spec-split-category"]').selectOption('data-transformation');
  await form.locator('[data-testid="spec-split-save"]').click();
  await specOf(page, 'S6').waitFor();
  await form.waitFor({ state: 'detached' });
  const disk = onDisk(real);
  assert.equal(disk.revision, r0 + 1, 'one revision');
  assert.deepEqual(
    disk.specs.map((s) => s.id),
    ['S1', 'S6', 'S2', 'S3', 'S4', 'S5'],
    'the new part comes right after the spec split',
  );
  assert.equal(disk.specs.find((s) => s.id === 'S1')?.text, 'A trailing comma inside a nested list is kept as a separator.');
  assert.deepEqual(disk.specs.find((s) => s.id === 'S6'), { id: 'S6', category: 'data-transformation', text: 'The trailing comma is never parsed as an element.' });
  assert.deepEqual(testsOf(disk, 'S1'), ['T1']);
  assert.deepEqual(testsOf(disk, 'S6'), ['T2']);
  assert.deepEqual(testsOf(disk, 'S4'), ['T2'], 'other specs keep their tests');
  // On the page: each part with its tests.
  assert.deepEqual(await s1.locator('[data-testid="spec-test"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-test'))), ['T1']);
  assert.deepEqual(await specOf(page, 'S6').locator('[data-testid="spec-test"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-test'))), ['T2']);
  assert.match((await s1.locator('.spec-text').textContent()) ?? '', /^A trailing comma inside a nested list is kept as a separator\.$/);
  assert.equal(real.mine().filter((e) => e.kind === 'specs.edit').length, 1);
  assert.deepEqual(h.errors, []);
  await page.close();
});

test('"Merge selected" merges the checked specs into the first: one spec, its tests, one revision; a refused merge keeps the text', async () => {
  const { page, real } = await openAuthoring(h);
  const r0 = onDisk(real).revision ?? 1;
  const merge = tid(page, 'spec-merge');
  assert.ok(await merge.isDisabled(), 'nothing selected');
  await specOf(page, 'S4').locator('[data-testid="spec-select"]').check();
  assert.ok(await merge.isDisabled(), 'one selected');
  await specOf(page, 'S3').locator('[data-testid="spec-select"]').check();
  assert.ok(await merge.isEnabled(), 'two selected');
  assert.match((await merge.textContent()) ?? '', /Merge selected \(2\)/);
  await merge.click();
  const form = tid(page, 'spec-merge-form');
  await form.waitFor();
  assert.match((await form.textContent()) ?? '', /S3, S4 into S3/);
  const text = tid(page, 'spec-merge-text');
  assert.equal(await text.inputValue(), 'An empty list parses to an empty list. Whitespace around commas is ignored.', 'the texts joined, in task order');
  // The text of another spec: refused, named, kept.
  const before = taskJson(real);
  await text.fill('Parsing is linear in the input length.');
  await tid(page, 'spec-merge-save').click();
  await tid(page, 'spec-merge-error').filter({ hasText: /S5/ }).waitFor();
  assert.equal(await text.inputValue(), 'Parsing is linear in the input length.');
  assert.equal(taskJson(real), before);
  await text.fill('Empty lists and whitespace around commas parse as if absent.');
  await tid(page, 'spec-merge-save').click();
  await specOf(page, 'S4').waitFor({ state: 'detached' });
  await form.waitFor({ state: 'detached' });
  const disk = onDisk(real);
  assert.equal(disk.revision, r0 + 1);
  assert.deepEqual(
    disk.specs.map((s) => s.id),
    ['S1', 'S2', 'S3', 'S5'],
  );
  assert.equal(disk.specs.find((s) => s.id === 'S3')?.text, 'Empty lists and whitespace around commas parse as if absent.');
  assert.deepEqual(testsOf(disk, 'S3'), ['T2'], 'S4’s test now covers S3');
  assert.match((await specOf(page, 'S3').locator('.spec-text').textContent()) ?? '', /parse as if absent/);
  assert.deepEqual(await specOf(page, 'S3').locator('[data-testid="spec-test"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-test'))), ['T2']);
  assert.ok(await merge.isDisabled(), 'the selection is cleared');
  assert.equal(await page.locator('[data-testid="spec-select"]:checked').count(), 0);
  assert.deepEqual(h.errors, []);
  await page.close();
});

test('shift-click maps the range in a matrix row in one revision, undo takes all of it back; the range takes the first cell’s new state', async () => {
  const { page, real } = await openAuthoring(h);
  const r0 = onDisk(real).revision ?? 1;
  await tid(page, 'specs-tab-matrix').click();
  // S5 covers nothing; the columns are T1, T2, T3, then T4 (it covers nothing).
  await cellOf(page, 'S5', 'T1').click();
  await cellOf(page, 'S5', 'T1', true).waitFor();
  await cellOf(page, 'S5', 'T4').click({ modifiers: ['Shift'] });
  await cellOf(page, 'S5', 'T4', true).waitFor();
  for (const t of ['T2', 'T3']) assert.equal(await cellOf(page, 'S5', t).getAttribute('data-on'), '1', `${t} is in the range`);
  let disk = onDisk(real);
  assert.equal(disk.revision, r0 + 2, 'a toggle, then the range in one revision');
  assert.deepEqual(testsOf(disk, 'S5'), ['T1', 'T2', 'T3', 'T4']);
  await waitForStatus(page, /S5: 3 tests mapped/);
  // Undo takes back the three the range mapped, and only them.
  await tid(page, 'specs-tab-specs').click();
  await tid(page, 'spec-undo').click();
  await waitForStatus(page, new RegExp(`^Revision ${r0 + 3} written`));
  await tid(page, 'specs-tab-matrix').click();
  await cellOf(page, 'S5', 'T4', false).waitFor();
  for (const t of ['T2', 'T3']) assert.equal(await cellOf(page, 'S5', t).getAttribute('data-on'), '0');
  assert.equal(await cellOf(page, 'S5', 'T1').getAttribute('data-on'), '1');
  disk = onDisk(real);
  assert.equal(disk.revision, r0 + 3);
  assert.deepEqual(testsOf(disk, 'S5'), ['T1']);
  // Unmapping: S1 × T1 clicked off, then Shift+Enter on S1 × T4 (which is off too): the range T1..T4 is unmapped.
  await cellOf(page, 'S1', 'T1').click();
  await cellOf(page, 'S1', 'T1', false).waitFor();
  await cellOf(page, 'S1', 'T4').focus();
  await page.keyboard.press('Shift+Enter');
  await cellOf(page, 'S1', 'T2', false).waitFor();
  disk = onDisk(real);
  assert.equal(disk.revision, r0 + 5);
  assert.deepEqual(testsOf(disk, 'S1'), []);
  assert.deepEqual(testsOf(disk, 'S4'), ['T2'], 'the other spec of T2 keeps it');
  assert.equal(await cellOf(page, 'S1', 'T4').getAttribute('data-on'), '0');
  // While the host writes: "Writing…" above the table and a second click sends nothing.
  const before = real.specRequests;
  const held = real.holdNextSpecRequest();
  await cellOf(page, 'S3', 'T3').click();
  await held.reached;
  await tid(page, 'matrix-busy').filter({ hasText: 'Writing…' }).waitFor();
  await cellOf(page, 'S3', 'T4').click();
  held.release();
  await cellOf(page, 'S3', 'T3', true).waitFor();
  await tid(page, 'matrix-busy').waitFor({ state: 'detached' });
  await hostSettled(page);
  assert.equal(real.specRequests, before + 1);
  assert.equal(await cellOf(page, 'S3', 'T4').getAttribute('data-on'), '0');
  assert.deepEqual(h.errors, []);
  await page.close();
});

test('hostile text in the split and merge forms (a test name, a spec text) is shown and sent as inert text', async () => {
  const page = await h.open({ query: 'review=real&ds=hostile&authoring=1' });
  await probe(page, (g) => g.__fakeHost.resetState());
  await tid(page, 'specs-tab-specs').click();
  await tid(page, 'spec-authoring').waitFor();
  const real = h.realReview(page)!;
  // S2 is covered by T3, whose parametrized name carries markup: the split form's checkbox shows it as text.
  await specOf(page, 'S2').hover();
  await specOf(page, 'S2').locator('[data-testid="spec-split"]').click();
  const label = specOf(page, 'S2').locator('[data-testid="spec-split-part"][data-part="0"] label').filter({ has: page.locator('[data-testid="spec-split-test"][data-test="T3"]') });
  assert.ok(((await label.textContent()) ?? '').includes('<'), 'the markup of the test name shows as text');
  await specOf(page, 'S2').locator('[data-testid="spec-split-cancel"]').click();
  // A spec whose text is markup, merged with S5: the prefilled text holds it as it is, and it is written as it is.
  await tid(page, 'spec-add').click();
  await tid(page, 'spec-add-text').fill(HOSTILE_HTML);
  await tid(page, 'spec-add-save').click();
  await specOf(page, 'S6').waitFor();
  await specOf(page, 'S5').locator('[data-testid="spec-select"]').check();
  await specOf(page, 'S6').locator('[data-testid="spec-select"]').check();
  await tid(page, 'spec-merge').click();
  assert.equal(await tid(page, 'spec-merge-text').inputValue(), `Parsing is linear in the input length. ${HOSTILE_HTML.trim()}`);
  await tid(page, 'spec-merge-save').click();
  await specOf(page, 'S6').waitFor({ state: 'detached' });
  assert.equal(onDisk(real).specs.find((s) => s.id === 'S5')?.text, `Parsing is linear in the input length. ${HOSTILE_HTML.trim()}`);
  assert.ok(((await specOf(page, 'S5').locator('.spec-text').textContent()) ?? '').includes('<script>'));
  const r = await probe(page, (g) => ({ pwned: g.__pwned, dangerous: g.__fakeHost.dangerous(), violations: g.__fakeHost.violations, invalid: g.__fakeHost.invalid }));
  assert.equal(r.pwned, undefined, 'injected script ran');
  assert.deepEqual(r.dangerous, [], 'elements or handlers created from data');
  assert.deepEqual(r.violations, [], 'CSP violations');
  assert.deepEqual(r.invalid, [], 'messages the host refuses');
  assert.deepEqual(h.errors, []);
  await page.close();
});
