// The statistics panel's Specs section in Chromium (dist/stats.js, the production CSP): the figures computed by the
// real core over the review fixture dataset (docs/coupling.md), pushed as an update through the stand-in host: the
// table with intervals by source, the specs-per-task histogram, the coupling distribution and by category; figures
// of the wrong shape left out with a notice; hostile names inert.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { CurationStore } from '../../src/app/curationStore';
import { specStats } from '../../src/core/specs/stats';
import { buildSpecStatsView } from '../../src/core/view/specStatsView';
import type { SpecStatsView } from '../../src/protocol/messages';
import { HOSTILE_HTML } from './harness/fixtures';
import { startBrowserHarness, type Harness } from './harness/page';
import { copyFixture } from '../unit/helpers/tmp';

let h: Harness;

before(async () => {
  h = await startBrowserHarness('stats-specs');
});

after(async () => {
  await h?.close();
});

const tid = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const text = async (page: Page, id: string) => (await tid(page, id).innerText()).replace(/\s+/g, ' ');

/**
 * The spec figures of the review fixture (t1: SWE-bench, S2 dependsOn S1; t2: hand-written, two independent specs;
 * t3: one spec), t3's source naming a hostile flavor.
 */
function fixtureSpecs(): SpecStatsView {
  const ds = copyFixture('review/ds');
  const file = path.join(ds, 'tasks', 't3', 'task.json');
  const task = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  task.source = { importer: 'swebench', flavor: `zz ${HOSTILE_HTML}` };
  fs.writeFileSync(file, JSON.stringify(task));
  const store = CurationStore.open(ds);
  return buildSpecStatsView(specStats({ tasks: store.dataset.tasks, state: store.state, verdicts: store.verdicts(), policy: store.policy }));
}

async function open(): Promise<Page> {
  const page = await h.browser.newPage({ viewport: { width: 1400, height: 1400 } });
  page.on('pageerror', (e) => h.errors.push(`pageerror: ${e.message}`));
  await page.goto(`${h.server.url}/stats?view=stats`);
  await tid(page, 'stats').waitFor();
  return page;
}

const push = (page: Page, specs: unknown) => page.evaluate((s) => (globalThis as unknown as { __statsHost: { update(p: unknown): void } }).__statsHost.update({ specs: s }), specs);

test('the Specs section shows mean specs and categories per task with intervals by source, the histogram and the coupling', async () => {
  const page = await open();
  // The stand-in host's first model has no spec figures: the section says so.
  assert.match(await text(page, 'specs-missing'), /not available/);
  await push(page, fixtureSpecs());
  await tid(page, 'specs-table').waitFor();
  const table = await text(page, 'specs-table');
  assert.match(table, /all 3 3 1\.67 \[1\.\d\d, 2\.00\] 1\.67 \[1\.\d\d, 2\.00\] 0\.50 \[0\.25, 0\.75\] \(2\)/);
  assert.match(table, /hand-written 1 1 2\.00 \[2\.00, 2\.00\] 2\.00 \[2\.00, 2\.00\] 0\.00 \[0\.00, 0\.00\] \(1\)/);
  assert.match(table, /zz <script>.* 1 1 1\.00 \[1\.00, 1\.00\] 1\.00 \[1\.00, 1\.00\] – \(0\)/);
  assert.match(table, /swe-bench 1 1 2\.00 \[2\.00, 2\.00\] 2\.00 \[2\.00, 2\.00\] 1\.00 \[1\.00, 1\.00\] \(1\)/);
  // Specs per task: one task with 1 spec, two with 2.
  const bins = await page.locator('[data-testid="specs-histogram"] rect').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-count')));
  assert.deepEqual(bins, ['1', '2']);
  assert.deepEqual(await page.locator('[data-testid="specs-histogram"] text').evaluateAll((ts) => ts.map((t) => t.textContent)), ['1', '2']);
  // Coupling per task: t2 in the first bin (0), t1 in the last (1).
  const coupling = await page.locator('[data-testid="coupling-histogram"] rect').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-count')));
  assert.deepEqual(coupling, ['1', '0', '0', '0', '0', '0', '0', '0', '0', '1']);
  const cats = await text(page, 'coupling-category');
  assert.match(cats, /data-transformation 1 1\.00 \[1\.00, 1\.00\] 1\.00/);
  assert.match(cats, /compatibility 1 0\.00 \[0\.00, 0\.00\] 0\.00/);
  assert.match(await text(page, 'coupling-evidence'), /2 spec pairs, 1 coupled: shared tests 0, declared 1, co-flip 0/);
  // The hostile source name is text: no markup made from it.
  assert.ok(table.includes('<script>'), 'the markup is shown as text');
  assert.equal(await page.locator('[data-testid="stats-specs"] img, [data-testid="stats-specs"] script, [data-testid="stats-specs"] a').count(), 0);
  await h.shot(page, 'specs');
  await page.close();
});

test('spec figures of the wrong shape are left out with a notice; the rest of the panel stays', async () => {
  const page = await open();
  const good = fixtureSpecs();
  await push(page, good);
  await tid(page, 'specs-table').waitFor();
  await push(page, { ...good, all: { ...good.all, specsPerTask: { mean: 'x' } } });
  await tid(page, 'specs-missing').waitFor();
  assert.equal(await tid(page, 'specs-table').count(), 0);
  assert.ok((await text(page, 'breakdown-table')).includes('reviewed 8'), 'the curation figures still show');
  assert.deepEqual(h.errors, []);
  await page.close();
});
