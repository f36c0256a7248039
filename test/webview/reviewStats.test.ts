// The statistics and adjudication panels in Chromium (dist/stats.js, the production CSP), against a stand-in host:
// the breakdown table and chart, the funnel, defect rates, agreement with its items, throughput; a refresh when the
// figures change; disagreements side by side and a decision recorded with its note; hostile text inert.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startBrowserHarness, waitUntil, type Harness } from './harness/page';

let h: Harness;

before(async () => {
  h = await startBrowserHarness('review-stats');
});

after(async () => {
  await h?.close();
});

interface StatsHostProbe {
  log: Array<{ method: string; params: Record<string, unknown> }>;
  invalid: string[];
  violations: string[];
}

async function open(query: string): Promise<Page> {
  const page = await h.browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('pageerror', (e) => h.errors.push(`pageerror: ${e.message}`));
  await page.goto(`${h.server.url}/stats?${query}`);
  return page;
}

const hostProbe = (page: Page) => page.evaluate('window.__statsHost') as Promise<StatsHostProbe>;
const tid = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);

/** Elements and attributes data must never create (the charts' own <svg> are made by the app, not from data). */
const MARKUP = `(() => {
  const out = [];
  for (const e of Array.from(document.querySelectorAll('body *'))) {
    const tag = e.tagName.toLowerCase();
    if (['img', 'iframe', 'object', 'embed', 'a', 'form', 'style', 'link'].includes(tag)) out.push(tag);
    // The page's own scripts are children of <body>: the stand-in host (linked) and the app (inline, a module).
    const own = e.parentElement === document.body && (/\\/harness\\/statsHost\\.js$/.test(e.getAttribute('src') || '') || (!e.hasAttribute('src') && e.getAttribute('type') === 'module'));
    if (tag === 'script' && !own) out.push('script');
    for (const a of Array.from(e.attributes)) if (/^on/i.test(a.name)) out.push(tag + '[' + a.name + ']');
    if (tag === 'svg' && !e.matches('[data-testid="breakdown-chart"], [data-testid="throughput-chart"]')) out.push('svg from data');
  }
  return out;
})()`;

test('the statistics: the breakdown the field reports, the funnel, defect rates, agreement with its items, throughput', async () => {
  const page = await open('view=stats');
  await tid(page, 'stats').waitFor();
  const table = (await tid(page, 'breakdown-table').innerText()).replace(/\s+/g, ' ');
  assert.match(table, /false positives only 2 25%/);
  assert.match(table, /false negatives only 1 13%/);
  assert.match(table, /both 1 13%/);
  assert.match(table, /none 4 50%/);
  assert.match(table, /reviewed 8 100%/);
  assert.equal(await page.locator('[data-testid="breakdown-chart"] rect').count(), 4, 'one segment per non-empty share');
  assert.equal(await tid(page, 'card-fp').getAttribute('data-value'), '3', 'tasks with a false positive: only + both');
  assert.equal(await tid(page, 'card-fn').getAttribute('data-value'), '2');
  assert.equal(await tid(page, 'funnel-imported').getAttribute('data-value'), '20');
  assert.equal(await tid(page, 'funnel-approved').getAttribute('data-value'), '3');
  assert.match((await tid(page, 'funnel-approved').innerText()).replace(/\s+/g, ' '), /approved 3 \(15%\)/);
  const fill = await page.locator('[data-testid="funnel-reviewed"] .bar-fill').evaluate((e) => (e as unknown as { style: { width: string } }).style.width);
  assert.equal(fill, '40%', 'bars sized through CSSOM (no inline style attribute in markup)');
  assert.match((await tid(page, 'rates-category').innerText()).replace(/\s+/g, ' '), /computation-algorithms 3 9 2 \(22%\) 0 \(0%\)/);
  assert.match((await tid(page, 'rates-solver').innerText()).replace(/\s+/g, ' '), /claude-sonnet-4-5-20250929 3 \(FP in 0, FN in 1\) 16 0 \(0%\) 2 \(13%\)/);
  const agreement = (await tid(page, 'agreement-table').innerText()).replace(/\s+/g, ' ');
  assert.match(agreement, /verdict nominal 2 0\.743 \(12 items, 24 values\) 0\.400 \(12 items\)/);
  assert.match(agreement, /fnSeverity ordinal 3 0\.815 \(5 items, 14 values\) n\/a \(not exactly two curators\)/);
  assert.match(agreement, /difficulty ordinal 1 n\/a \(0 items, 0 values\)/);
  assert.equal(await page.locator('[data-testid="curator-row"]').count(), 2);
  assert.equal(await page.locator('[data-testid="throughput-chart"] rect').count(), 4, 'one bar per curator and day');
  await h.shot(page, 'stats');
  await page.close();
});

test('a row or bar of the statistics filters the Candidates list to its tasks', async () => {
  const page = await open('view=stats');
  await tid(page, 'stats').waitFor();
  const asked = () => page.evaluate(`window.__statsHost.log.filter((l) => l.method === 'filterCandidates').map((l) => l.params)`);
  await tid(page, 'filter-approved').click();
  await page.locator('[data-testid="filter-category"]', { hasText: 'computation-algorithms' }).click();
  const status = page.locator('[data-testid^="filter-status-"]').first();
  const which = ((await status.getAttribute('data-testid')) ?? '').replace('filter-status-', '');
  await status.focus();
  await page.keyboard.press('Enter');
  await waitUntil(page, `window.__statsHost.log.filter((l) => l.method === 'filterCandidates').length === 3`);
  assert.deepEqual(await asked(), [{ statuses: ['approved'] }, { categories: ['computation-algorithms'] }, { statuses: [which] }]);
  await tid(page, 'panel-status').filter({ hasText: /Candidates list shows these tasks/ }).waitFor();
  await page.close();
});

test('the statistics refresh when the figures change', async () => {
  const page = await open('view=stats');
  await tid(page, 'stats').waitFor();
  await page.evaluate('window.__statsHost.update({ funnel: { imported: 20, reviewed: 9, approved: 4, rejected: 1 } })');
  await page.locator('[data-testid="funnel-approved"][data-value="4"]').waitFor();
  assert.equal(await tid(page, 'card-approved').getAttribute('data-value'), '4');
  await page.close();
});

test('the adjudication view shows each disagreement side by side and records the final decision with a note', async () => {
  const page = await open('view=adjudication');
  await tid(page, 'adjudication').waitFor();
  assert.match((await tid(page, 'adjudication-summary').textContent()) ?? '', /2 open · 1 settled/);
  const rows = page.locator('[data-testid="disagreement"]');
  assert.equal(await rows.count(), 2, 'open ones only at first');
  const first = rows.first();
  assert.equal(await first.getAttribute('data-task'), 'format-precision');
  assert.deepEqual(await first.locator('.side').evaluateAll((els) => els.map((e) => (e as unknown as { innerText: string }).innerText.replace(/\s+/g, ' '))), ['alice violated', 'bob satisfied']);
  assert.match((await first.innerText()).replace(/\s+/g, ' '), /sweagent-gpt-4o × A2 · verifier pass/);
  await first.locator('[data-testid="adjudication-note"]').fill('150 s must print 3m: violated');
  await first.locator('[data-testid="adjudicate-violated"]').click();
  await waitUntil(page, `window.__statsHost.log.some((l) => l.method === 'adjudicate')`);
  const log = (await hostProbe(page)).log;
  assert.deepEqual(log.find((l) => l.method === 'adjudicate')?.params, { taskId: 'format-precision', target: 'label', attempt: 'sweagent-gpt-4o', spec: 'A2', verdict: 'violated', note: '150 s must print 3m: violated' });
  await page.locator('[data-testid="disagreement"]').nth(1).waitFor({ state: 'detached' });
  assert.equal(await rows.count(), 1, 'the settled one leaves the open list');
  const score = rows.first();
  assert.equal(await score.getAttribute('data-field'), 'fnSeverity');
  await score.locator('[data-testid="adjudicate-3"]').click();
  await waitUntil(page, `window.__statsHost.log.filter((l) => l.method === 'adjudicate').length === 2`);
  assert.deepEqual((await hostProbe(page)).log.filter((l) => l.method === 'adjudicate')[1]?.params, { taskId: 'total-command', target: 'score', field: 'fnSeverity', value: 3 });
  await tid(page, 'show-settled').click();
  await page.locator('[data-testid="disagreement"]').nth(2).waitFor();
  assert.match((await page.locator('[data-testid="disagreement-state"]').nth(2).textContent()) ?? '', /settled: flaky \(adjudicated\)/);
  await tid(page, 'disagreement-task').first().click();
  await waitUntil(page, `window.__statsHost.log.some((l) => l.method === 'openTask')`);
  assert.deepEqual((await hostProbe(page)).invalid, []);
  await h.shot(page, 'adjudication');
  await page.close();
});

test('hostile names, categories, models and spec texts render as inert text in both panels', async () => {
  for (const view of ['stats', 'adjudication']) {
    const page = await open(`view=${view}&hostile=1`);
    await tid(page, view === 'stats' ? 'stats' : 'adjudication').waitFor();
    assert.match(await page.locator('body').innerText(), /<script>window\.__pwned=1<\/script>/);
    assert.deepEqual(await page.evaluate(MARKUP), []);
    assert.equal(await page.evaluate('window.__pwned'), undefined);
    assert.deepEqual((await hostProbe(page)).violations, []);
    await h.shot(page, `hostile-${view}`);
    await page.close();
  }
  assert.deepEqual(h.errors, []);
});
