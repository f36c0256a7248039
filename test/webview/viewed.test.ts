// Viewed marks in the task view, as a pull request's viewed files: a file's tick and an attempt's "Viewed" ask the
// host to keep the mark; the page shows what the host's model says (a viewed file's row dimmed, the count of viewed
// files on the attempt), and a file's tick does not open its diff.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { probe, startBrowserHarness, waitForStatus, waitUntil, type Harness } from './harness/page';

let h: Harness;
let page: Page;

before(async () => {
  h = await startBrowserHarness('viewed');
  page = await h.open();
});

after(async () => {
  await h?.close();
});

const row = (column: string, path: string) => page.locator(`[data-testid="file-row"][data-column="${column}"][data-path="${path}"]`);
const requests = async (method: string) => (await probe(page, (g) => g.__fakeHost.log)).filter((l) => l.method === method).map((l) => l.params);

test("a file's tick marks it viewed (the host keeps it) without opening its diff; the attempt counts its viewed files", async () => {
  const lexer = row('a1', 'src/pkg/lexer.py');
  assert.equal(await lexer.getAttribute('data-viewed'), 'false');
  await lexer.locator('[data-testid="file-viewed"]').click();
  await waitUntil(page, `document.querySelector('[data-testid="file-row"][data-column="a1"][data-path="src/pkg/lexer.py"]').dataset.viewed === 'true'`);
  assert.deepEqual(await requests('setViewed'), [{ column: 'a1', path: 'src/pkg/lexer.py', viewed: true }]);
  assert.deepEqual(await requests('openDiff'), [], 'the tick is not a click on the row');
  assert.match((await lexer.getAttribute('class')) ?? '', /\bviewed\b/);
  assert.equal(await lexer.locator('[data-testid="file-viewed"]').isChecked(), true);
  await waitUntil(page, `(document.querySelector('[data-testid="column-a1"] [data-testid="column-viewed"]')?.label ?? '').includes('1/4 files')`);
  assert.equal(await page.evaluate(`document.querySelector('[data-testid="column-a1"] [data-testid="column-viewed"]').checked`), false);
  await waitForStatus(page, /src\/pkg\/lexer\.py marked viewed/);

  // Unticked, the mark goes.
  await lexer.locator('[data-testid="file-viewed"]').click();
  await waitUntil(page, `document.querySelector('[data-testid="file-row"][data-column="a1"][data-path="src/pkg/lexer.py"]').dataset.viewed === 'false'`);
  assert.deepEqual((await requests('setViewed')).at(-1), { column: 'a1', path: 'src/pkg/lexer.py', viewed: false });
});

test('an attempt is marked viewed as a whole; a mark the host no longer sends (its patch changed) is gone', async () => {
  await page.locator('[data-testid="column-a2"] [data-testid="column-viewed"]').click();
  await waitUntil(page, `document.querySelector('[data-testid="column-a2"] [data-testid="column-viewed"]').checked === true`);
  // The box ticks at the click; the request reaches the host after it (ci47 read the log before it had).
  await waitUntil(page, `JSON.stringify(window.__fakeHost.log.filter((l) => l.method === 'setViewed').at(-1)?.params) === ${JSON.stringify(JSON.stringify({ column: 'a2', viewed: true }))}`);
  assert.deepEqual((await requests('setViewed')).at(-1), { column: 'a2', viewed: true });
  // The host's next model has no mark on a2 (say, a repair rewrote its patch): the page shows it unticked.
  await probe(page, (g) => g.__fakeHost.update({ viewed: { columns: [], files: [] } }));
  await waitUntil(page, `document.querySelector('[data-testid="column-a2"] [data-testid="column-viewed"]').checked === false`);
});
