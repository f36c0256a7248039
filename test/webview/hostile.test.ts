// Hostile input renders as inert text, quickly: markup and script in every field of the model and in trajectory
// steps (HTML, <script>, <img onerror>, javascript: links, ANSI escapes, binary bytes, a 100,000-character line, a
// 10 MB step). Nothing it contains may become an element, run, load a resource or trip the CSP.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { dataOf, probe, startBrowserHarness, stepRow, waitForStatus, type Harness } from './harness/page';

let h: Harness;
let page: Page;

before(async () => {
  h = await startBrowserHarness('hostile');
  page = await h.open({ fixture: 'hostile' });
});

after(async () => {
  await h?.close();
});

const tid = (id: string) => page.locator(`[data-testid="${id}"]`);
const PWN = 'window.__pwned=1';

/** Everything the page may have asked the server for: the harness and the bundles, nothing named by data. */
const EXPECTED_PATHS = /^\/(\?fixture=hostile&theme=dark|harness\/fakeHost\.js|harness\/theme-dark\.css|dist\/webview\.(js|css)(\.map)?|favicon\.ico)$/;

async function assertInert(where: string): Promise<void> {
  const r = await probe(page, (g) => ({ pwned: g.__pwned, dangerous: g.__fakeHost.dangerous(), violations: g.__fakeHost.violations, invalid: g.__fakeHost.invalid }));
  assert.equal(r.pwned, undefined, `${where}: injected script ran`);
  assert.deepEqual(r.dangerous, [], `${where}: elements or handlers created from data`);
  assert.deepEqual(r.violations, [], `${where}: CSP violations`);
  assert.deepEqual(r.invalid, [], `${where}: messages the host refuses`);
  // Light DOM of the app: no SVG either (the components' own icons live in their shadow roots; Playwright's
  // locators would pierce those, querySelectorAll does not).
  assert.equal(await page.evaluate(`document.querySelectorAll('#app svg').length`), 0, `${where}: svg from data`);
  assert.deepEqual(h.server.requests.filter((p) => !EXPECTED_PATHS.test(p)), [], `${where}: requests named by data`);
  assert.deepEqual(h.errors, [], `${where}: page errors`);
}

test('every field of a hostile model renders as the literal text it is', async () => {
  assert.equal(await tid('task-title').textContent(), `<img src=x onerror="${PWN}">Hostile task`);
  assert.equal(await tid('task-status').textContent(), '<script>status</script>');
  assert.match((await tid('untrusted-banner').textContent()) ?? '', /Restricted mode: .*<b>untrusted<\/b> <script>window\.__pwned=1<\/script>/);
  assert.deepEqual(await page.locator('[data-testid="notice"]').allTextContents(), [`<script>${PWN}</script> notice`, `<img src=x onerror=${PWN}>`]);
  const request = (await tid('request').textContent()) ?? '';
  assert.ok(request.includes(`<script>${PWN}</script>`));
  assert.ok(request.includes('<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>'));
  assert.ok(!request.includes('\u001b'), 'ANSI escapes are stripped');
  assert.equal(await tid('request').locator('h6').count(), 1, 'a heading level of 99 is clamped');
  const link = tid('request').locator('.link').first();
  assert.equal(await link.textContent(), `click me ‹javascript:${PWN}›`);
  assert.deepEqual(await dataOf(page.locator('[data-testid="spec"]'), 'spec'), [`"><svg onload=${PWN}>`]);
  assert.equal(await page.locator('[data-testid="spec-category"]').getAttribute('data-category'), `<script>${PWN}</script>`);
  const path = page.locator('[data-testid="file-row"][data-column="gold"]');
  assert.equal(await path.getAttribute('data-path'), `<img src=x onerror=${PWN}>.py`);
  assert.equal(await path.locator('.file-path').textContent(), `<img src=x onerror=${PWN}>.py`);
  assert.equal(await page.locator('[data-testid="column-gold"] [data-testid="patch-error"]').textContent(), `<script>${PWN}</script>`);
  await h.shot(page, 'hostile-model');
  // Hover over everything: no handler attribute may exist to fire.
  for (const sel of ['[data-testid="task-title"]', '[data-testid="column-h1"] .column-head', '.md .stated', '[data-testid="spec"]']) await page.locator(sel).first().hover();
  await assertInert('model');
});

test('hostile tests, matrix and sources render as text', async () => {
  await tid('specs-tab-tests').click();
  await page.locator('[data-testid="test"] summary').click();
  assert.equal(await tid('test-source').textContent(), `</pre><script>${PWN}</script>`);
  await tid('specs-tab-matrix').click();
  assert.equal(await page.locator('[data-testid="matrix-test"]').getAttribute('title'), `<img src=x onerror=${PWN}>::test`);
  await h.shot(page, 'hostile-tests');
  await assertInert('tests');
});

test('hostile trajectory steps: markup, ANSI, binary bytes and a 100,000-character line stay text inside their box', async (t) => {
  await stepRow(page, 0).waitFor();
  assert.ok(((await stepRow(page, 0).locator('.step-preview').textContent()) ?? '').startsWith(`Looks like HTML: <script>${PWN}</script> <img src=x onerror="${PWN}">`));
  assert.equal(await stepRow(page, 1).locator('.step-preview').textContent(), 'RED bold green after-osc cleared?');
  const binary = (await stepRow(page, 2).locator('.step-preview').textContent()) ?? '';
  assert.ok(binary.startsWith('\u2400\u2401\u2402'), 'C0 controls are shown as symbols');
  // eslint-disable-next-line no-control-regex -- looking for exactly those characters
  assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/.test(binary), 'no raw control or bidi-override character reaches the DOM');

  const t0 = Date.now();
  await stepRow(page, 3).click();
  await tid('step-detail-header').filter({ hasText: /Step 3/ }).waitFor();
  await tid('step-expand').click();
  await page.locator('[data-testid="step-text"]').filter({ hasText: 'END-OF-LONG-LINE' }).waitFor();
  t.diagnostic(`the long line took ${Date.now() - t0} ms`);
  const box = await page.evaluate(`(() => { const p = document.querySelector('[data-testid="step-text"]'); return { sw: p.scrollWidth, cw: p.clientWidth }; })()`) as { sw: number; cw: number };
  assert.ok(box.sw <= box.cw + 1, `the 100,000-character line wraps inside its box (${box.sw} > ${box.cw})`);
  await h.shot(page, 'long-line');

  await stepRow(page, 5).click();
  assert.equal(await page.locator('[data-testid="tool-call"] .tool-name').textContent(), `⚙ <img src=x onerror=${PWN}>`);
  // Indented (it is JSON), and still text: the markup in it is shown, never parsed.
  assert.equal(await page.locator('[data-testid="tool-call"] pre').textContent(), JSON.stringify({ cmd: `<script>${PWN}</script>` }, null, 2));
  await page.locator('[data-testid="step-edit"]').click();
  await waitForStatus(page, /Opened the diff/);
  const opened = (await probe(page, (g) => g.__fakeHost.log)).filter((l) => l.method === 'openDiff').at(-1)?.params;
  assert.deepEqual(opened, { column: 'h1', path: `<img src=x onerror=${PWN}>.py` }, 'the path goes back to the host unchanged');
  await assertInert('steps');
});

test('a 10 MB step shows its preview and unfolds slice by slice', async (t) => {
  const meta = (await stepRow(page, 4).locator('.step-meta').textContent()) ?? '';
  assert.match(meta, /▸ 1\d\.\dM/, 'folded, with its length');
  const t0 = Date.now();
  await stepRow(page, 4).click();
  await tid('fold-status').filter({ hasText: /Showing 2\.0K of 1\d\.\dM characters/ }).waitFor();
  const preview = Date.now() - t0;
  const t1 = Date.now();
  for (let i = 1; i <= 3; i++) {
    await tid('step-expand').click();
    await tid('fold-status').filter({ hasText: new RegExp(`Showing ${['262K', '524K', '786K'][i - 1]} of`) }).waitFor();
  }
  const unfold = Date.now() - t1;
  // The times are figures for bench/trajectory.bench.ts; here, what the curator sees.
  t.diagnostic(`preview in ${preview} ms, three slices in ${unfold} ms`);
  const text = (await tid('step-text').textContent()) ?? '';
  assert.equal(text.length, 3 * 262_144);
  assert.ok(text.startsWith(`<script>${PWN}</script> <img src=x onerror="${PWN}">`));
  const n = await probe(page, (g) => g.__fakeHost.countElements());
  assert.ok(n < 2000, `${n} elements with 768K characters shown`);
  await h.shot(page, 'huge-step');
  await assertInert('huge step');
});

test('search hits inside hostile text are marked as text', async () => {
  await page.locator('[data-testid="search-box"] input').fill('onerror');
  await tid('hit-counter').filter({ hasText: /^\d+$/ }).waitFor({ timeout: 20_000 });
  await tid('next-hit').click();
  await tid('hit-mark').waitFor();
  assert.equal(await tid('hit-mark').textContent(), 'onerror');
  const around = (await tid('step-text').textContent()) ?? '';
  assert.ok(around.includes('<img src=x onerror='), around.slice(0, 200));
  await h.shot(page, 'hostile-hit');
  await assertInert('search');
});
