// Spec authoring in the task view (Chromium) against the harness host built from the real thing
// (`review=real&ds=story&authoring=1`): each "Add spec", "Save", "Delete", "Undo last spec edit" and matrix click is a
// `specs.edit` / `specs.undo` request answered by the extension's SpecAuthoring (src/vscode/specs/authoring.ts), which
// writes a new revision of tasks/demo__parser-1234 through applySpecEdit on a real CurationStore. So what the page shows
// after a click is the revision on disk, and the review part (stale labels) is what the store made of it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { hostSettled, probe, startBrowserHarness, waitForStatus, type Harness } from './harness/page';
import { HOSTILE_HTML } from './harness/fixtures';
import { STORY_TASK, type RealReviewHost } from './harness/realReview';

let h: Harness;

before(async () => {
  h = await startBrowserHarness('spec-authoring');
});

after(async () => {
  await h?.close();
});

const tid = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const specOf = (page: Page, id: string) => page.locator(`[data-testid="spec"][data-spec="${id}"]`);
const cellOf = (page: Page, spec: string, test: string) => page.locator(`[data-testid="matrix-cell"][data-spec="${spec}"][data-test="${test}"]`);

interface TaskFile {
  revision?: number;
  specs: Array<{ id: string; text: string; category: string; dependsOn?: string[] }>;
  tests: Array<{ id: string; specs?: string[] }>;
}
function onDisk(real: RealReviewHost): TaskFile {
  return JSON.parse(fs.readFileSync(path.join(real.root, 'tasks', STORY_TASK, 'task.json'), 'utf8')) as TaskFile;
}

async function openAuthoring(): Promise<{ page: Page; real: RealReviewHost }> {
  const page = await h.open({ query: 'review=real&ds=story&authoring=1' });
  await probe(page, (g) => g.__fakeHost.resetState());
  await tid(page, 'specs-tab-specs').click();
  await tid(page, 'spec-authoring').waitFor();
  return { page, real: h.realReview(page)! };
}

test('add a spec, map two tests in the matrix, change a labelled spec’s text and see the label stale, undo', async () => {
  const { page, real } = await openAuthoring();
  const r0 = onDisk(real).revision ?? 1;
  // Add.
  await tid(page, 'spec-add').click();
  await tid(page, 'spec-add-text').fill('Nested lists parse to nested lists, at any depth.');
  await tid(page, 'spec-add-category').selectOption('parsing-representation');
  await tid(page, 'spec-add-save').click();
  await specOf(page, 'S6').waitFor();
  await waitForStatus(page, new RegExp(`^Revision ${r0 + 1} written`));
  assert.equal(await tid(page, 'spec-add-form').count(), 0, 'the form closes once written');
  let disk = onDisk(real);
  assert.equal(disk.revision, r0 + 1);
  assert.deepEqual(disk.specs.find((s) => s.id === 'S6'), { id: 'S6', category: 'parsing-representation', text: 'Nested lists parse to nested lists, at any depth.' });
  assert.match((await specOf(page, 'S6').textContent()) ?? '', /Nested lists parse to nested lists/);
  // Map two tests from the matrix.
  await tid(page, 'specs-tab-matrix').click();
  await cellOf(page, 'S6', 'T1').click();
  await page.locator('[data-testid="matrix-cell"][data-spec="S6"][data-test="T1"][data-on="1"]').waitFor();
  await cellOf(page, 'S6', 'T2').click();
  await page.locator('[data-testid="matrix-cell"][data-spec="S6"][data-test="T2"][data-on="1"]').waitFor();
  disk = onDisk(real);
  assert.equal(disk.revision, r0 + 3);
  assert.deepEqual(disk.tests.filter((t) => t.specs?.includes('S6')).map((t) => t.id), ['T1', 'T2']);
  // Label a1 × S1 (alice), then change S1's text: her label (and bob's) become stale, shown on the spec.
  await tid(page, 'specs-tab-review').click();
  await page.locator('[data-testid="review-cell"][data-attempt="a1"][data-spec="S1"]').click();
  await page.locator('[data-testid="review-cell"].focused[data-attempt="a1"][data-spec="S1"]').waitFor();
  await page.keyboard.press('v');
  await page.locator('[data-testid="review-cell"][data-attempt="a1"][data-spec="S1"][data-mine="violated"]').waitFor();
  await tid(page, 'specs-tab-specs').click();
  assert.equal(await specOf(page, 'S1').locator('[data-testid="spec-stale"]').count(), 0, 'no stale label before the change');
  await specOf(page, 'S1').locator('[data-testid="spec-edit"]').click();
  const text = specOf(page, 'S1').locator('[data-testid="spec-edit-text"]');
  assert.equal(await text.inputValue(), 'A trailing comma inside a nested list is kept as a separator, not an element.');
  await text.fill('A trailing comma inside a nested list of any depth is a separator, not an element.');
  await specOf(page, 'S1').locator('[data-testid="spec-edit-save"]').click();
  await specOf(page, 'S1').locator('[data-testid="spec-stale"]').waitFor();
  assert.match((await specOf(page, 'S1').locator('[data-testid="spec-stale"]').textContent()) ?? '', /^2 stale labels$/);
  assert.match((await specOf(page, 'S1').locator('.spec-text').textContent()) ?? '', /of any depth/);
  assert.equal(onDisk(real).revision, r0 + 4);
  // In the review grid the label is no longer hers for the new text, and it is listed as made on an older revision.
  await tid(page, 'specs-tab-review').click();
  await page.locator('[data-testid="review-cell"][data-attempt="a1"][data-spec="S1"][data-mine=""]').waitFor();
  await page.locator('[data-testid="review-cell"][data-attempt="a1"][data-spec="S1"]').click();
  await page.locator('[data-testid="stale-label"]').first().waitFor();
  // Undo: the old text is back, as a new revision.
  await tid(page, 'specs-tab-specs').click();
  await tid(page, 'spec-undo').click();
  await specOf(page, 'S1').locator('.spec-text').filter({ hasText: /^A trailing comma inside a nested list is kept as a separator, not an element\.$/ }).waitFor();
  disk = onDisk(real);
  assert.equal(disk.revision, r0 + 5);
  assert.equal(disk.specs.find((s) => s.id === 'S1')?.text, 'A trailing comma inside a nested list is kept as a separator, not an element.');
  const kinds = real.mine().map((e) => e.kind);
  assert.deepEqual(kinds.filter((k) => k === 'specs.edit').length, 5, 'add, two toggles, edit, undo: five spec edits in the log');
  assert.deepEqual(h.errors, []);
  await page.close();
});

test('a refused edit (duplicate text) shows what was wrong and keeps the typed text; nothing is written', async () => {
  const { page, real } = await openAuthoring();
  const before = fs.readFileSync(path.join(real.root, 'tasks', STORY_TASK, 'task.json'), 'utf8');
  await specOf(page, 'S3').locator('[data-testid="spec-edit"]').click();
  const text = specOf(page, 'S3').locator('[data-testid="spec-edit-text"]');
  await text.fill('Whitespace around  commas is IGNORED.');
  await specOf(page, 'S3').locator('[data-testid="spec-edit-save"]').click();
  const error = specOf(page, 'S3').locator('[data-testid="spec-edit-error"]');
  await error.waitFor();
  assert.match((await error.textContent()) ?? '', /S4/, 'the message names the spec it duplicates');
  assert.equal(await text.inputValue(), 'Whitespace around  commas is IGNORED.', 'the typed text stays');
  await waitForStatus(page, /^Not written: /);
  assert.equal(fs.readFileSync(path.join(real.root, 'tasks', STORY_TASK, 'task.json'), 'utf8'), before, 'task.json is unchanged');
  assert.equal(real.mine().filter((e) => e.kind === 'specs.edit').length, 0);
  // Fixed and saved: the error goes, the form closes.
  await text.fill('An empty list parses to an empty list, also with spaces inside.');
  await specOf(page, 'S3').locator('[data-testid="spec-edit-save"]').click();
  await specOf(page, 'S3').locator('.spec-text').filter({ hasText: /also with spaces inside/ }).waitFor();
  assert.equal(await specOf(page, 'S3').locator('[data-testid="spec-edit-error"]').count(), 0);
  // Delete asks first; "Keep" leaves the spec.
  await specOf(page, 'S5').locator('[data-testid="spec-delete"]').click();
  await specOf(page, 'S5').locator('[data-testid="spec-delete-no"]').click();
  await hostSettled(page);
  assert.ok(onDisk(real).specs.some((s) => s.id === 'S5'));
  await specOf(page, 'S5').locator('[data-testid="spec-delete"]').click();
  await specOf(page, 'S5').locator('[data-testid="spec-delete-yes"]').click();
  await specOf(page, 'S5').waitFor({ state: 'detached' });
  assert.ok(!onDisk(real).specs.some((s) => s.id === 'S5'));
  assert.deepEqual(h.errors, []);
  await page.close();
});

test('shift-click in a matrix row maps the range from the last clicked cell in one revision, and unmaps a range again', async () => {
  const { page, real } = await openAuthoring();
  const r0 = onDisk(real).revision ?? 1;
  await tid(page, 'specs-tab-matrix').click();
  // S5 covers nothing; T1, T2, T3 are the first three columns (tests that cover something come first).
  await cellOf(page, 'S5', 'T1').click();
  await page.locator('[data-testid="matrix-cell"][data-spec="S5"][data-test="T1"][data-on="1"]').waitFor();
  await cellOf(page, 'S5', 'T3').click({ modifiers: ['Shift'] });
  await page.locator('[data-testid="matrix-cell"][data-spec="S5"][data-test="T3"][data-on="1"]').waitFor();
  assert.equal(await cellOf(page, 'S5', 'T2').getAttribute('data-on'), '1');
  let disk = onDisk(real);
  assert.equal(disk.revision, r0 + 2, 'one toggle, then one map of the range');
  assert.deepEqual(disk.tests.filter((t) => t.specs?.includes('S5')).map((t) => t.id), ['T1', 'T2', 'T3']);
  // The range takes the state of the cell clicked first: T3 clicked off, then shift-click on T2 unmaps T2..T3.
  await cellOf(page, 'S5', 'T3').click();
  await page.locator('[data-testid="matrix-cell"][data-spec="S5"][data-test="T3"][data-on="0"]').waitFor();
  await cellOf(page, 'S5', 'T2').click({ modifiers: ['Shift'] });
  await page.locator('[data-testid="matrix-cell"][data-spec="S5"][data-test="T2"][data-on="0"]').waitFor();
  disk = onDisk(real);
  assert.equal(disk.revision, r0 + 4);
  assert.deepEqual(disk.tests.filter((t) => t.specs?.includes('S5')).map((t) => t.id), ['T1']);
  assert.deepEqual(h.errors, []);
  await page.close();
});

test('a restricted workspace refuses a spec edit: the reason shows, the draft stays', async () => {
  const { page, real } = await openAuthoring();
  real.trusted = false;
  await tid(page, 'spec-add').click();
  // Typed key by key: the page's shortcuts (v, s, u, j, k, /...) do not take letters typed into the form.
  await tid(page, 'spec-add-text').click();
  await tid(page, 'spec-add-text').pressSequentially('Deeply nested input does not overflow the stack (v/s/u/j/k).');
  await tid(page, 'spec-add-save').click();
  await tid(page, 'spec-add-error').filter({ hasText: /trust this workspace/ }).waitFor();
  assert.equal(await tid(page, 'spec-add-text').inputValue(), 'Deeply nested input does not overflow the stack (v/s/u/j/k).');
  assert.equal(onDisk(real).specs.length, 5);
  // A refused matrix toggle says why above the table.
  await tid(page, 'specs-tab-matrix').click();
  await cellOf(page, 'S3', 'T4').click();
  await tid(page, 'matrix-error').filter({ hasText: /trust this workspace/ }).waitFor();
  assert.equal(await cellOf(page, 'S3', 'T4').getAttribute('data-on'), '0');
  assert.deepEqual(h.errors, []);
  await page.close();
});

test('hostile spec text typed by a curator is written as it is and shown as inert text', async () => {
  const { page, real } = await openAuthoring();
  await tid(page, 'spec-add').click();
  await tid(page, 'spec-add-text').fill(HOSTILE_HTML);
  await tid(page, 'spec-add-save').click();
  await specOf(page, 'S6').waitFor();
  assert.equal(onDisk(real).specs.find((s) => s.id === 'S6')?.text, HOSTILE_HTML);
  assert.ok(((await specOf(page, 'S6').locator('.spec-text').textContent()) ?? '').includes('<script>'), 'the markup shows as text');
  await specOf(page, 'S6').locator('[data-testid="spec-edit"]').click();
  assert.equal(await specOf(page, 'S6').locator('[data-testid="spec-edit-text"]').inputValue(), HOSTILE_HTML);
  const r = await probe(page, (g) => ({ pwned: g.__pwned, dangerous: g.__fakeHost.dangerous(), violations: g.__fakeHost.violations, invalid: g.__fakeHost.invalid }));
  assert.equal(r.pwned, undefined, 'injected script ran');
  assert.deepEqual(r.dangerous, [], 'elements or handlers created from data');
  assert.deepEqual(r.violations, [], 'CSP violations');
  assert.deepEqual(r.invalid, [], 'messages the host refuses');
  assert.deepEqual(h.errors, []);
  await page.close();
});
