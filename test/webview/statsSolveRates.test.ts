// The statistics panel's solve rates in Chromium (dist/stats.js, the production CSP): the funnel imported -> with
// attempt verdicts -> in the band -> reviewed -> approved, the tasks by solve rate, the histogram and the rates per
// model, computed by the real core and store over the review fixture with stored runs and an imported result, pushed
// as an update through the stand-in host; a band the setting could not give said in a banner; figures of the wrong
// shape left out with a notice; a hostile model name inert.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { CurationStore } from '../../src/app/curationStore';
import { bandFromSetting } from '../../src/core/solver/difficulty';
import { buildSolveRatesView } from '../../src/core/view/solveRatesView';
import type { SolveRatesView } from '../../src/protocol/messages';
import { startBrowserHarness, waitUntil, type Harness } from './harness/page';
import { reviewDataset, writeRun } from '../unit/review/helpers';

let h: Harness;
const EVIL = 'solver <img src=x onerror=alert(1)><script>alert(2)</script>';

before(async () => {
  h = await startBrowserHarness('stats-solve-rates');
});

after(async () => {
  await h?.close();
});

const tid = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const text = async (page: Page, id: string) => (await tid(page, id).innerText()).replace(/\s+/g, ' ');

/** t1: a1 passes, a2 fails (mixed); t2: b1 (the hostile model) fails (never); t3: c1 imported as resolved (always). */
function fixtureRates(setting?: string): SolveRatesView {
  const ds = reviewDataset();
  const b1 = path.join(ds, 'tasks/t2/attempts/b1/attempt.json');
  fs.writeFileSync(b1, JSON.stringify({ model: EVIL, agent: 'swe-agent' }));
  writeRun(ds, 't1', 'a1', { 'tests/test_hello.py::test_greet_type': 'PASSED', 'tests/test_hello.py::test_greet_text': 'PASSED', 'tests/test_hello.py::test_existing': 'PASSED' });
  writeRun(ds, 't1', 'a2', { 'tests/test_hello.py::test_greet_type': 'FAILED', 'tests/test_hello.py::test_greet_text': 'PASSED', 'tests/test_hello.py::test_existing': 'PASSED' });
  writeRun(ds, 't2', 'b1', { 'tests/test_size.py::test_negative': 'FAILED' });
  const band = bandFromSetting(setting, 'specweave.difficulty.band');
  return buildSolveRatesView(CurationStore.open(ds).datasetDifficulty(band.band), band.problem);
}

async function open(): Promise<Page> {
  const page = await h.browser.newPage({ viewport: { width: 1400, height: 1600 } });
  page.on('pageerror', (e) => h.errors.push(`pageerror: ${e.message}`));
  await page.goto(`${h.server.url}/stats?view=stats`);
  await tid(page, 'stats').waitFor();
  return page;
}

const push = (page: Page, solveRates: unknown) => page.evaluate((s) => (globalThis as unknown as { __statsHost: { update(p: unknown): void } }).__statsHost.update({ solveRates: s }), solveRates);
const value = async (page: Page, id: string) => tid(page, id).getAttribute('data-value');

test('the solve-rate section shows the funnel, the tasks by solve rate, the histogram and each model with its counts', async () => {
  const page = await open();
  assert.match(await text(page, 'solve-rates-missing'), /not available/);
  await push(page, fixtureRates());
  await tid(page, 'solve-models').waitFor();
  assert.deepEqual(
    await Promise.all(['imported', 'measured', 'in-band', 'reviewed', 'approved'].map((s) => value(page, `solve-funnel-${s}`))),
    ['3', '3', '1', '0', '0'],
    'three imported, all with verdicts, one in the band 0..1, none reviewed yet',
  );
  assert.match(await text(page, 'solve-funnel-in-band'), /in the band 0\.\.1 1 \(33%\)/);
  assert.match(await text(page, 'solve-buckets'), /never solved 1 in the band 0\.\.1 1 always solved 1 no attempt verdict yet 0/);
  const bins = await tid(page, 'solve-histogram').locator('rect').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-count')));
  assert.deepEqual(bins, ['1', '0', '0', '0', '0', '1', '0', '0', '0', '1']);
  const models = await text(page, 'solve-models');
  // gpt-test: a1 passes on t1, c1 (imported) on t3: always solved on both; the hostile model fails t2; other-model fails t1.
  assert.match(models, /gpt-test 2 100% \(2\/2\) 0 0 2/);
  assert.match(models, /solver <img src=x onerror=alert\(1\)><script>alert\(2\)<\/script> 1 0% \(0\/1\) 1 0 0/);
  assert.match(models, /other-model 1 0% \(0\/1\) 1 0 0/);
  assert.equal(await page.locator('[data-testid="stats-solve-rates"] img, [data-testid="stats-solve-rates"] script').count(), 0, 'the model name is text');
  assert.equal(await tid(page, 'solve-rates-band-problem').count(), 0);
  await h.shot(page, 'solve-rates');
  await page.close();
});

test('an inclusive band from the setting moves the always-solved task into it; a bad setting is said; a view of the wrong shape is left out', async () => {
  const page = await open();
  await push(page, fixtureRates('[0.5,1]'));
  await tid(page, 'solve-models').waitFor();
  assert.equal(await value(page, 'solve-funnel-in-band'), '2');
  assert.match(await text(page, 'solve-buckets'), /never solved 1 in the band \[0\.5,1\] 2 always solved 0/);
  await push(page, fixtureRates('0.9..0.1'));
  await tid(page, 'solve-rates-band-problem').waitFor();
  assert.match(await text(page, 'solve-rates-band-problem'), /specweave\.difficulty\.band "0\.9\.\.0\.1": LOW and HIGH must be shares from 0 to 1 with LOW <= HIGH; using the default 0\.\.1/);
  assert.equal(await value(page, 'solve-funnel-in-band'), '1');
  const good = fixtureRates();
  await push(page, { ...good, funnel: { ...good.funnel, inBand: 'many' } });
  await tid(page, 'solve-rates-missing').waitFor();
  assert.equal(await tid(page, 'solve-models').count(), 0);
  assert.deepEqual(h.errors, []);
  await page.close();
});

test("a solver model's row and the band's row filter the Candidates list: to that model's tasks, to the tasks in the band", async () => {
  const page = await open();
  await push(page, fixtureRates());
  await tid(page, 'solve-models').waitFor();
  await page.locator('[data-testid^="filter-model-"]', { hasText: 'other-model' }).click();
  // The hostile name is a filter like any other, and stays text.
  const evil = page.locator('[data-testid^="filter-model-"]', { hasText: 'solver <img' });
  await evil.focus();
  await page.keyboard.press('Enter');
  await tid(page, 'filter-in-band').click();
  await waitUntil(page, `window.__statsHost.log.filter((l) => l.method === 'filterCandidates').length === 3`);
  const asked = await page.evaluate(`window.__statsHost.log.filter((l) => l.method === 'filterCandidates').map((l) => l.params)`);
  assert.deepEqual(asked, [{ models: ['other-model'] }, { models: [EVIL] }, { mixedSuccess: true }]);
  await tid(page, 'panel-status').filter({ hasText: /Candidates list shows these tasks/ }).waitFor();
  await page.close();
});
