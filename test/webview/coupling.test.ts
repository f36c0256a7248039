// The task view's Coupling tab in Chromium (dist/webview.js, the production CSP): the coupling part of a hand-made
// task's model, computed by the real core (core/view/taskView.ts buildCouplingView), pushed through the stand-in host;
// the tab shows the figure with its meaning, the evidence counts, the parts and the edges heaviest first with their
// evidence; hostile spec ids and test names render as the literal text they are.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { CandidateTask, SpecVerdict } from '../../src/core/model';
import type { TaskVerifierResults } from '../../src/core/review/verdicts';
import { buildCouplingView } from '../../src/core/view/taskView';
import type { SpecView, TestView } from '../../src/protocol/messages';
import { HOSTILE_HTML, PWN } from './harness/fixtures';
import { probe, startBrowserHarness, type Harness } from './harness/page';

let h: Harness;

before(async () => {
  h = await startBrowserHarness('coupling');
});

after(async () => {
  await h?.close();
});

const tid = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const text = async (page: Page, id: string) => (await tid(page, id).innerText()).replace(/\s+/g, ' ').trim();

/** S1 and S2 share T1; S3 and the hostile spec flip together over four attempts; S5 on its own. */
const EVIL = `"><svg onload=${PWN}>`;
const EVIL_TEST = `test_${HOSTILE_HTML}`;

function handMade(): { specs: SpecView[]; tests: TestView[]; coupling: ReturnType<typeof buildCouplingView> } {
  const ids = ['S1', 'S2', 'S3', EVIL, 'S5'];
  const testMap: Array<[string, string, string[]]> = [
    ['T1', EVIL_TEST, ['S1', 'S2']],
    ['T2', 'test_two', ['S2']],
    ['T3', 'test_three', ['S3']],
    ['T4', 'test_four', [EVIL]],
    ['T5', 'test_five', ['S5']],
  ];
  const task = {
    id: 't1',
    specs: ids.map((id) => ({ id, text: `spec ${id}`, category: 'behavior', dependsOn: [] })),
    tests: testMap.map(([id, name, specs]) => ({ id, name, kind: 'fail_to_pass', specs })),
    attempts: ['a1', 'a2', 'a3', 'a4'].map((id) => ({ id, model: 'm', agent: '', dir: id, recordedResults: [] })),
  } as unknown as CandidateTask;
  const flips: SpecVerdict[] = ['pass', 'pass', 'fail', 'fail'];
  const other: SpecVerdict[] = ['pass', 'fail', 'pass', 'fail'];
  const verifier: TaskVerifierResults = {
    attempts: Object.fromEntries(
      task.attempts.map((a, i) => [a.id, { source: 'run' as const, runId: 'r', status: 'passed' as const, revision: 1, tests: {}, specs: { S1: 'pass', S2: 'pass', S3: flips[i] as SpecVerdict, [EVIL]: flips[i] as SpecVerdict, S5: other[i] as SpecVerdict } }]),
    ),
    flags: [],
  };
  return {
    specs: ids.map((id) => ({ id, text: `spec ${id}`, category: 'behavior', dependsOn: [], tests: testMap.filter((t) => t[2].includes(id)).map((t) => t[0]), uncovered: false, stated: false })),
    tests: testMap.map(([id, name, specs]) => ({ id, name, kind: 'fail_to_pass', specs, unmapped: false })),
    coupling: buildCouplingView(task, { verifier }),
  };
}

test('the Coupling tab shows the figure, the evidence, the parts and the edges of a hand-made task, hostile ids inert', async () => {
  const page = await h.open({ fixture: 'standard' });
  // The stand-in host's model has no coupling part: no tab.
  assert.equal(await tid(page, 'specs-tab-coupling').count(), 0);
  await page.evaluate((patch) => (globalThis as unknown as { __fakeHost: { update(p: unknown): void } }).__fakeHost.update(patch), handMade());
  await tid(page, 'specs-tab-coupling').click();
  await tid(page, 'coupling').waitFor();

  assert.equal(await text(page, 'coupling-figure'), 'Coupling 0.50');
  assert.match(await text(page, 'coupling-meaning'), /^1 = no independent parts visible; 0 = every spec independent\.$/);
  assert.equal(
    await text(page, 'coupling-evidence'),
    '5 specs in 3 parts; 10 spec pairs, 2 coupled: shared tests 1, dependsOn 0, co-flip 1. Co-flip measurable on 10 of 10 pairs over 4 attempts.',
  );
  const groups = await page.locator('[data-testid="coupling-group"]').allInnerTexts();
  assert.deepEqual(groups.map((g) => g.replace(/\s+/g, ' ').trim()), ['S1, S2', `S3, ${EVIL}`, 'S5 (independent)']);
  const rows = await page.locator('[data-testid="coupling-edge"]').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').replace(/\s+/g, ' ').trim())));
  assert.equal(rows.length, 2);
  assert.deepEqual(rows[0], ['S3', EVIL, '1.00', 'co-flip: phi 1.00 over 4 attempts']);
  assert.deepEqual(rows[1]?.slice(0, 3), ['S1', 'S2', '0.50']);
  assert.ok(rows[1]?.[3]?.startsWith('shared tests (Jaccard 0.50): test_<script>'), rows[1]?.[3]);
  assert.deepEqual(await page.locator('[data-testid="coupling-edges"] th').allInnerTexts(), ['Spec', 'Spec', 'Weight', 'Evidence']);

  // Inert: nothing made from the ids and names, no script ran, the CSP was not tripped.
  const r = await probe(page, (g) => ({ pwned: g.__pwned, dangerous: g.__fakeHost.dangerous(), violations: g.__fakeHost.violations }));
  assert.equal(r.pwned, undefined);
  assert.deepEqual(r.dangerous, []);
  assert.deepEqual(r.violations, []);
  assert.equal(await page.evaluate(`document.querySelectorAll('#app svg, #app script, #app img, #app iframe').length`), 0);
  assert.deepEqual(h.errors, []);
  await h.shot(page, 'coupling');
  await page.close();
});

test('a task whose specs are not coupled says so; the cut edges are counted', async () => {
  const page = await h.open({ fixture: 'standard' });
  const m = handMade();
  const none = { ...m.coupling, figure: 0, coupledPairs: 0, byEvidence: { sharedTests: 0, declared: 0, coFlip: 0 }, groupCount: 5, groups: m.specs.map((s) => ({ specs: [s.id], more: 0 })), edges: [] };
  await page.evaluate((patch) => (globalThis as unknown as { __fakeHost: { update(p: unknown): void } }).__fakeHost.update(patch), { ...m, coupling: none });
  await tid(page, 'specs-tab-coupling').click();
  await tid(page, 'coupling-no-edges').waitFor();
  assert.equal(await text(page, 'coupling-figure'), 'Coupling 0.00');
  assert.equal(await page.locator('[data-testid="coupling-group"]').count(), 5);
  // A bounded part: the edges beyond the cap are counted, not shown.
  await page.evaluate((patch) => (globalThis as unknown as { __fakeHost: { update(p: unknown): void } }).__fakeHost.update(patch), { coupling: { ...m.coupling, edgesOmitted: 1234 } });
  await tid(page, 'coupling-edges-more').waitFor();
  assert.equal(await text(page, 'coupling-edges-more'), '1.2K weaker pairs not shown.');
  await page.close();
});
