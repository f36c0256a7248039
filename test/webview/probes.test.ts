// The task view's Probes tab in Chromium (dist/webview.js, the production CSP): the probe part of a hand-made task's
// model, built by the real core (core/view/probesView.ts) from report texts of the shapes `specweave probe` writes,
// pushed through the stand-in host. The tab shows the score and each survivor (operator, file:line, before/after,
// the tests it got past), the passing exploit with its flags and the stopped ones counted, the rejected alternative
// with its failing tests and the test beyond the specs, the surviving variant with its spec, the breaks; each opens
// its diff through `openProbeDiff`; a missing report shows the CLI line, a malformed one its file and field; a
// report that changes on disk (a new model pushed) updates the tab; hostile report text renders as literal text.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { buildProbesView } from '../../src/core/view/probesView';
import type { ProbeReportName, ProbeReportText } from '../../src/core/view/probesView';
import { PROBE_TASK, TASK_ID, alternativesReport, cheatsReport, fullSuiteReport, mutantsReport, variantsReport } from '../unit/probes/probeReportFixtures';
import { PWN } from './harness/fixtures';
import { nextRequest, probe, startBrowserHarness, waitForStatus, type Harness } from './harness/page';

let h: Harness;

before(async () => {
  h = await startBrowserHarness('probes');
});

after(async () => {
  await h?.close();
});

const EVIL = `<img src=x onerror="${PWN}"><script>${PWN}</script>`;
const tid = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const text = async (page: Page, sel: string) => (await page.locator(sel).innerText()).replace(/\s+/g, ' ').trim();
const file = (name: string) => `probes/${TASK_ID}/${name}`;

function probes(over: Partial<Record<ProbeReportName, ProbeReportText>> = {}) {
  const json = (o: object) => JSON.stringify(o, null, 2);
  return buildProbesView(PROBE_TASK, {
    mutants: { file: file('mutants.json'), text: json(mutantsReport(EVIL)) },
    cheats: { file: file('cheats.json'), text: json(cheatsReport(EVIL)) },
    alternatives: { file: file('alternatives.json'), text: json(alternativesReport(EVIL)) },
    variants: { file: file('variants.json'), text: json(variantsReport(EVIL)) },
    fullSuite: { file: file('full-suite.json'), text: json(fullSuiteReport(EVIL)) },
    ...over,
  });
}

const push = (page: Page, patch: unknown) => page.evaluate((p) => (globalThis as unknown as { __fakeHost: { update(p: unknown): void } }).__fakeHost.update(p), patch);

test('the Probes tab shows what each report says, opens each piece of evidence as a diff, and keeps hostile text inert', async () => {
  const page = await h.open({ fixture: 'standard' });
  // The stand-in host's model has no probes part: no tab.
  assert.equal(await tid(page, 'specs-tab-probes').count(), 0);
  await push(page, { probes: probes() });
  await tid(page, 'specs-tab-probes').click();
  await tid(page, 'probes').waitFor();

  assert.equal(await text(page, '[data-testid="probe-mutants"] [data-testid="probe-score"]'), 'Mutation score 50%: 1 killed, 1 survived, 1 timed out.');
  const survivor = page.locator('[data-testid="probe-survivor"]');
  assert.equal(await survivor.count(), 1);
  assert.equal(await text(page, '[data-testid="probe-survivor"] [data-testid="probe-location"]'), `fmt${EVIL}.py:12`);
  assert.equal(await text(page, '[data-testid="probe-survivor"] [data-testid="probe-before"]'), `- if size < step: break${EVIL}`);
  assert.equal(await text(page, '[data-testid="probe-survivor"] [data-testid="probe-after"]'), '+ if False: break');
  assert.deepEqual(
    (await survivor.locator('[data-testid="probe-test"]').allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim()),
    ['tests/test_fmt.py::test_minutes (A1, A2)', 'tests/test_fmt.py::test_default (A1)', 'tests/test_parse.py::test_units (no spec)'],
  );
  assert.deepEqual(await page.locator('[data-testid="probe-spec-row"]').allInnerTexts().then((r) => r.map((s) => s.replace(/\s+/g, ' ').trim())), ['A1 1 0', 'A2 0 1']);

  assert.equal(await text(page, '[data-testid="probe-cheat-counts"]'), '2 exploits stopped; 2 stopped, 1 passed.');
  assert.match(await text(page, '[data-testid="probe-exploit"]'), /^Verifier defect: fake-passed-from-library Open diff/);
  assert.equal(await text(page, '[data-testid="probe-exploit"] [data-testid="probe-flags"]'), 'flags: attempt_edits_tests');

  const rejected = page.locator('[data-testid="probe-rejected"]');
  assert.deepEqual(
    (await rejected.locator('[data-testid="probe-test"]').allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim()),
    ['tests/test_fmt.py::test_minutes FAILED (A1, A2)', `tests/test_fmt.py::test_extra${EVIL} FAILED (no spec)`],
  );
  assert.equal(await text(page, '[data-testid="probe-beyond"]'), `Test beyond the specs: tests/test_fmt.py::test_extra${EVIL}`);
  assert.match(await text(page, '[data-testid="probe-variant"]'), new RegExp(`^Survived, meant to violate A2: var-A2-0000000002 Open diff rounds halves to even`));
  assert.deepEqual(
    (await page.locator('[data-testid="probe-variant"] [data-testid="probe-test"]').allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim()),
    ['tests/test_fmt.py::test_minutes (A1, A2)'],
  );
  assert.deepEqual(
    (await page.locator('[data-testid="probe-breaks"]').allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim()),
    [`a1 breaks 1: tests/test_parse.py::test_single_units${EVIL}`, 'a2 not graded (error: infrastructure)'],
  );

  // Each piece of evidence opens its diff through the typed request (the host opens the native diff editor).
  for (const [sel, report, id] of [
    ['probe-survivor', 'mutants', 'guard-drop-0000000002'],
    ['probe-exploit', 'cheats', 'fake-passed-from-library'],
    ['probe-rejected', 'alternatives', 'alt-0000000001'],
    ['probe-variant', 'variants', 'var-A2-0000000002'],
  ] as const) {
    const params = await nextRequest(page, 'openProbeDiff', () => page.locator(`[data-testid="${sel}"] [data-testid="probe-open-diff"]`).click());
    assert.deepEqual(params, { report, id });
  }
  await waitForStatus(page, /Opened the diff of var-A2-0000000002/);

  const r = await probe(page, (g) => ({ pwned: g.__pwned, dangerous: g.__fakeHost.dangerous(), violations: g.__fakeHost.violations }));
  assert.equal(r.pwned, undefined, 'injected script ran');
  assert.deepEqual(r.dangerous, [], 'elements or handlers created from report text');
  assert.deepEqual(r.violations, [], 'CSP violations');
  assert.equal(await page.evaluate(`document.querySelectorAll('#app .probes img, #app .probes script').length`), 0);
  assert.deepEqual(h.errors, [], 'page errors');
});

test('a missing report shows the CLI line to run, a malformed one names its file and field; a report written later replaces it', async () => {
  const page = await h.open({ fixture: 'standard' });
  const bad = mutantsReport() as unknown as { mutants: Array<Record<string, unknown>> };
  delete bad.mutants[1]!.line;
  await push(page, { probes: probes({ mutants: { file: file('mutants.json'), text: JSON.stringify(bad) }, cheats: { file: file('cheats.json') } }) });
  await tid(page, 'specs-tab-probes').click();
  await tid(page, 'probes').waitFor();
  assert.equal(await page.locator('[data-testid="probe-mutants"]').getAttribute('data-state'), 'error');
  assert.equal(await text(page, '[data-testid="probe-mutants"] [data-testid="probe-error"]'), `probes/${TASK_ID}/mutants.json: field mutants[1].line is missing (expected a number)`);
  assert.equal(await page.locator('[data-testid="probe-cheats"]').getAttribute('data-state'), 'missing');
  assert.match(await text(page, '[data-testid="probe-cheats"] [data-testid="probe-missing"]'), /^Not probed yet \(probes\/format-precision\/cheats\.json is not there\)/);
  assert.equal(await text(page, '[data-testid="probe-cheats"] [data-testid="probe-command"]'), `specweave probe DATASET ${TASK_ID} --cheat`);
  // The other reports still show.
  assert.equal(await page.locator('[data-testid="probe-rejected"]').count(), 1);

  // The CLI probe run writes the reports: the host pushes the new part, the tab updates in place.
  await push(page, { probes: probes() });
  await page.locator('[data-testid="probe-cheats"][data-state="ok"]').waitFor();
  await page.locator('[data-testid="probe-mutants"][data-state="ok"]').waitFor();
  assert.equal(await page.locator('[data-testid="probe-survivor"]').count(), 1);
  assert.equal(await tid(page, 'probe-error').count(), 0);
  assert.deepEqual(h.errors, [], 'page errors');
});
