// The page's first paint from the model its HTML carries (src/vscode/webviewHtml.ts `first`): the task shows as soon
// as the script runs, before the page's `ready` is answered; the host's `init` and later pushes still land; a hostile
// model carried in the page stays inert data (no `</script>` of it ends the block).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { pageTimersPassed, probe, startBrowserHarness, waitUntil, type Harness } from './harness/page';

let h: Harness;

before(async () => {
  h = await startBrowserHarness('first-paint');
});

after(async () => {
  await h?.close();
});

test('the task paints from the model the page carries while the host has not answered, and the page keeps asking', async () => {
  const page = await h.open({ query: 'first=1&dropReady=1000', waitForTask: false });
  await page.locator('[data-testid="task-title"]').waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('[data-testid="task-title"]').textContent(), 'Keep trailing commas in nested lists');
  assert.equal(await page.locator('[data-testid="loading"]').count(), 0, 'no loading line over a painted task');
  assert.ok((await page.locator('[data-testid="region-request"]').innerText()).length > 0, 'the request is there');
  // Painted from the page's own copy: the host's `init` has not come, so the page still says `ready`.
  await waitUntil(page, (g) => g.__fakeHost.readies >= 2, 10_000);
  assert.equal(await page.evaluate(`document.getElementById('specweave-first')`), null, 'the data block is gone once read');
  await h.shot(page, 'painted-before-answer');
  await page.close();
});

test('the first region paints before the rest of the page\'s code runs: the browser paints the title and request, then the app starts and takes their place', async () => {
  const page = await h.open({ query: 'first=1' });
  await page.locator('[data-testid="region-request"]').waitFor();
  const t = (await page.evaluate(`(() => {
    const at = (name) => performance.getEntriesByName(name)[0]?.startTime;
    return { firstRegion: at('specweave.firstRegion'), contentfulPaint: at('first-contentful-paint'), boot: at('specweave.boot'), painted: at('specweave.firstPaint') };
  })()`)) as Record<string, number | undefined>;
  for (const k of ['firstRegion', 'contentfulPaint', 'boot', 'painted']) assert.equal(typeof t[k], 'number', `${k} in ${JSON.stringify(t)}`);
  assert.ok(t.firstRegion! <= t.contentfulPaint!, `the first region was there when the browser first painted: ${JSON.stringify(t)}`);
  assert.ok(t.contentfulPaint! <= t.boot!, `the browser painted before the app bundle started: ${JSON.stringify(t)}`);
  assert.ok(t.boot! <= t.painted!, JSON.stringify(t));
  // The app's view took the first region's place: one title, one request.
  assert.equal(await page.locator('[data-testid="first-paint"]').count(), 0);
  assert.equal(await page.locator('.task-title').count(), 1);
  assert.equal(await page.locator('[data-testid="region-request"]').count(), 1);
  assert.equal(await page.evaluate(`document.getElementById('specweave-bundle')`), null, 'the bundle block is gone once started');
  assert.deepEqual(h.errors, []);
  await page.close();
});

test('a first model the first script cannot draw still starts the app, which shows the task', async () => {
  const page = await h.open({ query: 'first=broken' });
  await page.locator('[data-testid="region-request"]').waitFor();
  assert.equal(await page.locator('[data-testid="first-paint"]').count(), 0);
  assert.equal(await page.evaluate(`performance.getEntriesByName('specweave.firstRegion').length`), 0, 'nothing was drawn before the app');
  assert.deepEqual(h.errors, []);
  await page.close();
});

test('a page loaded hidden (it paints nothing) still starts the app once its bundle block is parsed', async () => {
  const page = await h.browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.on('pageerror', (e) => h.errors.push(`pageerror: ${e.message}`));
  // As a webview loaded behind another editor reports it.
  await page.addInitScript(`Object.defineProperty(Document.prototype, 'visibilityState', { get: () => 'hidden' })`);
  await page.goto(`${h.server.url}/?fixture=standard&theme=dark&first=1`);
  // Before: the first script started the bundle as the page was parsed, before the parser reached the bundle's block,
  // and the app never ran.
  await page.locator('[data-testid="region-request"]').waitFor({ timeout: 10_000 });
  assert.equal(await page.evaluate(`document.visibilityState`), 'hidden');
  assert.deepEqual(h.errors, []);
  await page.close();
});

test('after the first paint the host\'s init and its pushes land as ever', async () => {
  const page = await h.open({ query: 'first=1' });
  await waitUntil(page, (g) => g.__fakeHost.readies === 1);
  await probe(page, (g) => g.__fakeHost.update({ title: 'A title the host pushed later' }));
  await page.locator('[data-testid="task-title"]', { hasText: 'A title the host pushed later' }).waitFor();
  // Answered: the page asks no more (its next `ready` was due within 2 s).
  await pageTimersPassed(page, 2500);
  assert.equal(await probe(page, (g) => g.__fakeHost.readies), 1);
  assert.deepEqual(h.errors, []);
  await page.close();
});

test('a hostile model carried in the page renders as the literal text it is, and nothing of it runs', async () => {
  const page = await h.open({ fixture: 'hostile', query: 'first=1&dropReady=1000', waitForTask: false });
  await page.locator('[data-testid="task-title"]').waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('[data-testid="task-title"]').textContent(), '<img src=x onerror="window.__pwned=1">Hostile task');
  assert.ok(((await page.locator('[data-testid="request"]').textContent()) ?? '').includes('<script>window.__pwned=1</script>'));
  const r = await probe(page, (g) => ({ pwned: g.__pwned, dangerous: g.__fakeHost.dangerous(), violations: g.__fakeHost.violations }));
  assert.deepEqual(r, { pwned: undefined, dangerous: [], violations: [] });
  // The page holds no data block once read, and two scripts of ours: its first script and the app bundle it started
  // (no longer an inert block). Nothing of the model became one.
  assert.deepEqual(await page.evaluate(`[...document.querySelectorAll('script:not([src])')].map((s) => s.type)`), ['', 'module']);
  assert.deepEqual(h.errors, []);
  await page.close();
});
