// The whole webview stays under 2,000 elements (shadow roots counted) on a big task: ten attempts of 10,000 steps,
// 200 changed files per attempt, 40 specs, 400 tests and their results, in every tab and while scrolling.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { probe, startBrowserHarness, stepRow, type Harness } from './harness/page';

const BUDGET = 2000;
let h: Harness;
let page: Page;

before(async () => {
  h = await startBrowserHarness('budget');
  page = await h.open({ fixture: 'scale', query: 'attempts=10&steps=10000&files=200&specs=40&tests=400' });
  await stepRow(page, 0).waitFor();
});

after(async () => {
  await h?.close();
});

const elements = () => probe(page, (g) => g.__fakeHost.countElements());

test('every tab of the specs area and the attempts region stay within the budget', async () => {
  for (const tab of ['specs', 'matrix', 'tests', 'results']) {
    await page.locator(`[data-testid="specs-tab-${tab}"]`).click();
    await page.locator(`[data-testid="${tab}"]`).waitFor();
    const n = await elements();
    assert.ok(n < BUDGET, `${tab} tab open: ${n} elements`);
    await h.shot(page, `big-${tab}`);
    if (tab === 'tests') assert.equal(await page.locator('[data-testid="test"]').count(), 50, 'tests come 50 at a time');
    if (tab === 'results') {
      const rows = await page.locator('[data-testid="results-tests"] tbody tr').count();
      assert.ok(rows >= 10 && rows < 400, `${rows} result rows before "show all"`);
      await page.locator('[data-testid="results-tests-show-all"]').click();
      assert.equal(await page.locator('[data-testid="results-tests"] tbody tr').count(), 400, 'all on request');
    }
  }
  assert.equal(await page.locator('[data-testid="column-a1"] [data-testid="file-row"]').count(), 8, 'files beyond the first 8 wait for "show all"');
  await page.locator('[data-testid="column-a1"] [data-testid="files-show-all"]').click();
  assert.equal(await page.locator('[data-testid="column-a1"] [data-testid="file-row"]').count(), 200, 'all on request');
});

test('scrolling every attempt of the big task stays within the budget', async () => {
  // A fresh page: "show all" above asked for more on purpose.
  await page.close();
  page = await h.open({ fixture: 'scale', query: 'attempts=10&steps=10000&files=200&specs=40&tests=400' });
  let most = 0;
  for (const a of [1, 5, 10]) {
    await page.locator(`[data-testid="trajectory-tab-a${a}"]`).click();
    for (const step of [0, 3_000, 9_999]) {
      await page.evaluate(`document.querySelector('[data-testid="trajectory-list"]').scrollTop = ${step * 22}`);
      await stepRow(page, step).waitFor();
      most = Math.max(most, await elements());
    }
  }
  assert.ok(most < BUDGET, `${most} elements`);
  assert.deepEqual(await probe(page, (g) => g.__fakeHost.violations), []);
  assert.deepEqual(h.errors, []);
});
