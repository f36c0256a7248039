// The statistics panel's calibration section in Chromium (dist/stats.js, the production CSP): the review agent's
// figures computed by the real core and store over the review fixture with findings in its log (docs/calibration.md),
// pushed as an update through the stand-in host; figures of the wrong shape left out with a notice; a hostile model
// name inert.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { ReviewLog } from '../../src/adapters/fs/reviewLog';
import { CurationStore } from '../../src/app/curationStore';
import type { FindingJudgment, FindingsPayload } from '../../src/core/findings/model';
import type { EventDraft } from '../../src/core/review/events';
import { buildCalibrationView } from '../../src/core/view/calibrationView';
import type { CalibrationView } from '../../src/protocol/messages';
import { startBrowserHarness, type Harness } from './harness/page';
import { reviewDataset, writeT1Runs } from '../unit/review/helpers';

let h: Harness;
/** A model name with markup (the log keeps names of at most 300 characters). */
const EVIL = 'judge <img src=x onerror=alert(1)><script>alert(2)</script>';

before(async () => {
  h = await startBrowserHarness('stats-calibration');
});

after(async () => {
  await h?.close();
});

const tid = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const text = async (page: Page, id: string) => (await tid(page, id).innerText()).replace(/\s+/g, ' ');

function findings(attempt: string, patchHash: string, judgments: Record<string, FindingJudgment>, model: string): EventDraft {
  const payload: FindingsPayload = {
    attempt,
    patchHash,
    model,
    promptVersion: 'review-1',
    promptHash: 'cd'.repeat(32),
    findings: Object.entries(judgments).map(([spec, judgment]) => ({ spec, judgment, confidence: 0.9, rationale: 'r', citations: [] })),
    dropped: [],
  };
  return { kind: 'review.findings', task: 't1', revision: 1, curator: 'agent', payload };
}
const lbl = (attempt: string, spec: string, verdict: 'satisfied' | 'violated'): EventDraft => ({ kind: 'label', task: 't1', revision: 1, curator: 'alice', payload: { attempt, spec, verdict, evidence: [] } });

/** t1: a1 passes S1 and S2, a2 fails S2; the curators call a1 × S2 a false positive and a2 × S2 a false negative. */
async function fixtureCalibration(): Promise<CalibrationView> {
  const ds = reviewDataset();
  writeT1Runs(ds);
  const sha = (rel: string) => createHash('sha256').update(fs.readFileSync(path.join(ds, rel))).digest('hex');
  await ReviewLog.forDataset(ds).append([
    lbl('a1', 'S1', 'satisfied'),
    lbl('a1', 'S2', 'violated'),
    lbl('a2', 'S2', 'satisfied'),
    findings('a1', sha('tasks/t1/attempts/a1/patch.diff'), { S1: 'violated', S2: 'violated' }, EVIL),
    findings('a2', sha('tasks/t1/attempts/a2/patch.diff'), { S2: 'satisfied' }, EVIL),
  ]);
  return buildCalibrationView(CurationStore.open(ds).calibration());
}

async function open(): Promise<Page> {
  const page = await h.browser.newPage({ viewport: { width: 1400, height: 1400 } });
  page.on('pageerror', (e) => h.errors.push(`pageerror: ${e.message}`));
  await page.goto(`${h.server.url}/stats?view=stats`);
  await tid(page, 'stats').waitFor();
  return page;
}

const push = (page: Page, calibration: unknown) => page.evaluate((c) => (globalThis as unknown as { __statsHost: { update(p: unknown): void } }).__statsHost.update({ calibration: c }), calibration);

test('the calibration section shows precision, recall and kappa with counts and intervals per prompt version and model', async () => {
  const page = await open();
  assert.match(await text(page, 'calibration-missing'), /not available/);
  const c = await fixtureCalibration();
  await push(page, c);
  await tid(page, 'calibration-table').waitFor();
  const table = await text(page, 'calibration-table');
  // FP table: a1 × S1 (agent only) and a1 × S2 (both): precision 1/2, recall 1/1, kappa 0.
  assert.match(table, /review-1 judge <img src=x onerror=alert\(1\)><script>alert\(2\)<\/script> false positive 2 1\/1\/0\/0 0\.50 \(1\/2\) \[\d\.\d\d, \d\.\d\d\] 1\.00 \(1\/1\) \[1\.00, 1\.00\] 0\.00/);
  assert.match(table, /false negative 1 1\/0\/0\/0 1\.00 \(1\/1\) \[1\.00, 1\.00\] 1\.00 \(1\/1\) \[1\.00, 1\.00\] –/);
  assert.match(await text(page, 'calibration-counts'), /3 findings, 0 on unlabelled pairs, 0 undecided, 0 unsure/);
  assert.ok(table.includes('<script>'), 'the hostile model name is shown as text');
  assert.equal(await page.locator('[data-testid="stats-calibration"] img, [data-testid="stats-calibration"] script, [data-testid="stats-calibration"] a').count(), 0);
  await h.shot(page, 'calibration');
  await page.close();
});

test('calibration figures of the wrong shape are left out with a notice; no findings says so', async () => {
  const page = await open();
  const good = await fixtureCalibration();
  await push(page, good);
  await tid(page, 'calibration-table').waitFor();
  await push(page, { ...good, groups: [{ ...good.groups[0], falsePositive: { tp: 'x' } }] });
  await tid(page, 'calibration-missing').waitFor();
  assert.equal(await tid(page, 'calibration-table').count(), 0);
  await push(page, { ...good, groups: [] });
  await tid(page, 'calibration-none').waitFor();
  assert.deepEqual(h.errors, []);
  await page.close();
});
