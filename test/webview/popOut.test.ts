// Regions popped out: each region's ⧉ asks the host to open it in an editor tab of its own (the specs area on the
// tab it shows), and a popped-out page shows that one region alone, filling the view, on its tab, with nothing to
// put it back into a layout it does not have; it says what it shows in its saved state (restored after a reload).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { nextRequest, probe, startBrowserHarness, waitForStatus, waitUntil, type Harness } from './harness/page';

let h: Harness;

before(async () => {
  h = await startBrowserHarness('pop-out');
});

after(async () => {
  await h?.close();
});

const tid = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const fills = (id: string) =>
  `(() => { const r = document.querySelector('[data-testid="${id}"]').getBoundingClientRect(); const a = document.querySelector('[data-testid="regions"]').getBoundingClientRect(); return r.width > a.width * 0.9 && r.height > a.height * 0.9; })()`;

test('each region\'s pop-out asks the host for a tab of its own; the specs area names the tab it shows', async () => {
  const page = await h.open();
  await tid(page, 'specs-tab-results').click();
  await page.locator('[data-testid="results-tests"]').waitFor();
  assert.deepEqual(await nextRequest(page, 'popOut', () => tid(page, 'popout-specs').click()), { region: 'specs', tab: 'results' });
  await waitForStatus(page, /Opened the specs, results, review and repair area in a tab of its own/);
  assert.deepEqual(await nextRequest(page, 'popOut', () => tid(page, 'popout-trajectory').click()), { region: 'trajectory' });
  assert.deepEqual(await nextRequest(page, 'popOut', () => tid(page, 'popout-attempts').click()), { region: 'attempts' });
  // Another task in the same page: each region still has one pop-out and one maximize button.
  await probe(page, (g) => g.__fakeHost.update({ taskId: 'another-task', title: 'Another task' }));
  await page.locator('[data-testid="task-title"]', { hasText: 'Another task' }).waitFor();
  for (const region of ['request', 'specs', 'attempts', 'trajectory']) {
    assert.equal(await tid(page, `popout-${region}`).count(), 1, region);
    assert.equal(await tid(page, `maximize-${region}`).count(), 1, region);
  }
  await page.close();
});

test('a popped-out specs area fills its page on the Results tab, the other regions give way, and nothing puts a layout back', async () => {
  const page = await h.open({ query: 'region=specs&tab=results' });
  await page.locator('[data-testid="results-tests"]').waitFor();
  await waitUntil(page, fills('region-specs'));
  const request = (await tid(page, 'region-request').boundingBox())!;
  assert.ok(request.height < 20 || request.width < 20, `the request gives way: ${JSON.stringify(request)}`);
  assert.equal(await page.locator('.region-maximize').count(), 0, 'no maximize or pop-out button in a popped-out page');
  assert.equal(await page.locator('#app').getAttribute('data-popout'), 'specs');
  // Its saved state says what it shows, for the window's reload to bring it back as a popped-out region.
  await tid(page, 'specs-tab-tests').click();
  await waitUntil(page, `(() => { const s = JSON.parse(sessionStorage.getItem('harness.webviewState') ?? 'null'); return s !== null && s.popOut === 'specs' && s.tab === 'tests'; })()`);
  await h.shot(page, 'specs-popped-out');
  await page.close();
});

test('a popped-out trajectory fills its page with the step list', async () => {
  const page = await h.open({ query: 'region=trajectory' });
  await waitUntil(page, fills('region-trajectory'));
  await page.locator('[data-testid="step-row"]').first().waitFor();
  assert.equal(await page.locator('#app').getAttribute('data-popout'), 'trajectory');
  await page.close();
});
