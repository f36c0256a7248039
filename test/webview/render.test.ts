// The task view renders a model: header, request with spec highlights, specs by category with flags, the matrix,
// the tests with their source, the results, the attempts with per-file counts, and the actions they send.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { dataOf, probe, startBrowserHarness, waitForStatus, waitUntil, type Harness } from './harness/page';

let h: Harness;
let page: Page;

before(async () => {
  h = await startBrowserHarness('render');
  page = await h.open();
});

after(async () => {
  await h?.close();
});

const tid = (id: string) => page.locator(`[data-testid="${id}"]`);
const lastRequest = async (method: string) => (await probe(page, (g) => g.__fakeHost.log)).filter((l) => l.method === method).at(-1)?.params;

test('header, notices and position come from the model', async () => {
  assert.equal(await tid('task-title').textContent(), 'Keep trailing commas in nested lists');
  assert.equal(await tid('task-status').textContent(), 'in_review');
  assert.match((await tid('task-id').textContent()) ?? '', /demo__parser-1234 · rev 3/);
  assert.equal(await tid('task-position').textContent(), 'Task 3 of 15');
  assert.match((await tid('notice').textContent()) ?? '', /repository clone is missing/);
  assert.equal(await tid('untrusted-banner').count(), 0, 'a trusted workspace has no restricted banner');
  await h.shot(page, 'initial-dark');
});

test('the request renders its blocks as elements, marks the runs that state specs, and never makes a link', async () => {
  const req = tid('request');
  assert.equal(await req.locator('h1').textContent(), 'Trailing commas in nested lists are dropped');
  assert.equal(await req.locator('pre code').textContent(), 'parse("[1, [2, 3,], 4]")  # -> [1, [2, 3], 4]');
  assert.equal(await req.locator('ul > li').count(), 2);
  assert.equal(await req.locator('blockquote').count(), 1);
  assert.equal(await req.locator('table td').count(), 2);
  assert.equal(await req.locator('.stated').count(), 4);
  assert.equal(await req.locator('a').count(), 0);
  const link = req.locator('.link');
  assert.match((await link.textContent()) ?? '', /the grammar ‹https:\/\/example\.invalid\/grammar›/);
  assert.match((await link.getAttribute('title')) ?? '', /not followed/);
});

test('hovering a spec lights its statements in the request, and hovering a statement lights the spec', async () => {
  await page.locator('[data-testid="spec"][data-spec="S2"] .spec-text').hover();
  const lit = await tid('request').locator('.hl').allTextContents();
  assert.deepEqual(lit, ['report an error with the line number for an unclosed bracket']);
  await tid('request').locator('.stated', { hasText: 'Empty lists stay empty' }).hover();
  assert.deepEqual(await dataOf(page.locator('[data-testid="spec"].hl'), 'spec'), ['S3']);
  await h.shot(page, 'spec-hover');
  await tid('task-title').hover();
  assert.equal(await page.locator('.hl').count(), 0, 'leaving clears the highlight');
});

test('specs are grouped by category; specs without a test and tests without a spec are flagged', async () => {
  const cats = await dataOf(page.locator('[data-testid="spec-category"]'), 'category');
  assert.deepEqual(cats, ['parsing-representation', 'error-handling', 'computation-algorithms']);
  const flagged = await dataOf(page.locator('[data-testid="spec"].uncovered'), 'spec');
  assert.deepEqual(flagged, ['S3', 'S5']);
  assert.equal(await page.locator('[data-testid="spec"][data-spec="S5"] [data-testid="flag-unstated"]').count(), 1);
  assert.deepEqual(await dataOf(page.locator('[data-testid="unmapped-test"]'), 'test'), ['T4']);
  assert.match((await tid('specs-summary').textContent()) ?? '', /5 specs · 4 tests.*2 without a test.*1 tests without a spec/);
  const s1Tests = await dataOf(page.locator('[data-testid="spec"][data-spec="S1"] [data-testid="spec-test"]'), 'test');
  assert.deepEqual(s1Tests, ['T1', 'T2']);
});

test('the spec x test matrix marks coverage and flags empty rows and columns', async () => {
  await tid('specs-tab-matrix').click();
  const m = tid('matrix');
  await m.waitFor();
  assert.equal(await m.locator('[data-testid="matrix-row"]').count(), 5);
  assert.equal(await m.locator('td.on').count(), 4, 'S1-T1, S1-T2, S2-T3, S4-T2');
  assert.deepEqual(await dataOf(m.locator('[data-testid="matrix-row"].flagged'), 'spec'), ['S3', 'S5']);
  assert.deepEqual(await dataOf(m.locator('[data-testid="matrix-test"].flagged'), 'test'), ['T4']);
  const row = m.locator('[data-testid="matrix-row"][data-spec="S1"] td');
  assert.deepEqual(await row.allTextContents(), ['●', '●', '', '']);
  await h.shot(page, 'matrix');
});

test('the tests show kind, specs, flags and source, and jump to the test patch', async () => {
  await tid('specs-tab-tests').click();
  const tests = page.locator('[data-testid="test"]');
  assert.equal(await tests.count(), 4);
  const t4 = page.locator('[data-testid="test"][data-test="T4"]');
  assert.equal(await t4.locator('[data-testid="flag-unmapped"]').count(), 1);
  assert.equal(await t4.locator('[data-testid="test-kind"]').textContent(), 'pass→pass');
  const t1 = page.locator('[data-testid="test"][data-test="T1"]');
  await t1.locator('summary').click();
  assert.equal(await t1.locator('[data-testid="test-source"]').textContent(), 'def test_trailing_comma():\n    assert parse("[1, [2,],]") == [1, [2]]\n');
  await t1.locator('[data-testid="open-test"]').click();
  await waitUntil(page, (g) => g.__fakeHost.log.some((l) => l.method === 'openTest'));
  assert.deepEqual(await lastRequest('openTest'), { testId: 'T1' });
  await waitForStatus(page, /^Opened the test patch\.$/);
  await h.shot(page, 'tests');
});

test('a test chip on a spec shows that test in the tests tab', async () => {
  await tid('specs-tab-specs').click();
  await page.locator('[data-testid="spec"][data-spec="S2"] [data-testid="spec-test"]').click();
  const focused = page.locator('[data-testid="test"].focused');
  await focused.waitFor();
  assert.equal(await focused.getAttribute('data-test'), 'T3');
});

test('attempts: a column per attempt and gold, per-file counts, patch problems shown', async () => {
  const cols = await dataOf(page.locator('[data-testid="columns"] > .column'), 'testid');
  assert.deepEqual(cols, ['column-gold', 'column-a1', 'column-a2', 'column-a3']);
  const a1Files = page.locator('[data-testid="column-a1"] [data-testid="file-row"]');
  assert.equal(await a1Files.count(), 4);
  const lexer = page.locator('[data-testid="file-row"][data-column="a1"][data-path="src/pkg/lexer.py"]');
  assert.equal(await lexer.locator('.adds').textContent(), '+30');
  assert.equal(await lexer.locator('.dels').textContent(), '−12');
  assert.match((await page.locator('[data-testid="column-a1"] [data-testid="column-totals"]').textContent()) ?? '', /4 files \+86 −15/);
  assert.match((await page.locator('[data-testid="column-a3"] [data-testid="patch-error"]').textContent()) ?? '', /not a unified diff/);
  assert.match((await page.locator('[data-testid="column-a3"] [data-testid="trajectory-error"]').textContent()) ?? '', /unexpected end of JSON/);
  assert.equal(await page.locator('[data-testid="column-a1"]').getAttribute('class'), 'column active', 'the first attempt with a trajectory starts active');
});

test('a file opens the native diff; a patch that does not apply says so; compare opens two columns', async () => {
  await page.locator('[data-testid="file-row"][data-column="a1"][data-path="src/pkg/lexer.py"]').click();
  await waitForStatus(page, /Opened the diff of src\/pkg\/lexer\.py/);
  assert.deepEqual(await lastRequest('openDiff'), { column: 'a1', path: 'src/pkg/lexer.py' });

  await page.locator('[data-testid="file-row"][data-column="a2"]').click();
  await waitForStatus(page, /does not apply/);

  await page.locator('[data-testid="file-row"][data-column="a1"][data-path="src/pkg/parser.py"] [data-testid="compare-file"]').click();
  await waitForStatus(page, /Comparing src\/pkg\/parser\.py/);
  assert.deepEqual(await lastRequest('compareColumns'), { left: 'gold', right: 'a1', path: 'src/pkg/parser.py' });
  assert.equal(await page.locator('[data-testid="column-gold"] [data-testid="compare-file"]').count(), 0, 'no compare against itself');

  await page.locator('[data-testid="column-a2"] [data-testid="open-patch"]').click();
  await waitForStatus(page, /^Opened the patch\.$/);
  assert.deepEqual(await lastRequest('openPatch'), { column: 'a2' });
});

test('verifier results: test x column and spec x column matrices; a cell activates its column and opens the run log at the test; a row header shows the row', async () => {
  await tid('specs-tab-results').click();
  await tid('results-tests').waitFor();
  assert.equal(await page.locator('[data-testid="results-tests"] [data-testid="result-cell"]').count(), 9);
  assert.equal(await page.locator('[data-testid="results-specs"] [data-testid="result-cell"]').count(), 6);
  assert.match((await tid('result-flags').textContent()) ?? '', /attempt_suspect_false_positive: Attempt 1 claims resolved but T3 fails/);
  const failed = page.locator('[data-testid="results-tests"] [data-testid="result-cell"][data-row="T1"][data-column="a2"]');
  assert.equal(await failed.textContent(), 'FAILED');
  assert.match((await failed.getAttribute('class')) ?? '', /bad/);
  await h.shot(page, 'results');
  await failed.click();
  await waitForStatus(page, /Opened the log of a2 at T1/);
  assert.deepEqual(await lastRequest('openRunLog'), { column: 'a2', testId: 'T1' });
  assert.match((await page.locator('[data-testid="column-a2"]').getAttribute('class')) ?? '', /active/);
  assert.equal(await page.locator('[data-testid="trajectory-tab-a2"]').getAttribute('active'), '');
  await page.locator('[data-testid="results-tests"] th[data-row="T1"]').click();
  await page.locator('[data-testid="test"].focused[data-test="T1"]').waitFor();
});

test('themes: light and high contrast take their colours from the VS Code variables', async () => {
  for (const theme of ['light', 'hc'] as const) {
    const p = await h.open({ theme });
    const bg = await p.evaluate('getComputedStyle(document.body).backgroundColor');
    assert.equal(bg, theme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(0, 0, 0)');
    await h.shot(p, `initial-${theme}`);
    await p.close();
  }
});

test('an update of the same task re-renders in place; an update to another task starts afresh', async () => {
  await tid('specs-tab-matrix').click();
  await probe(page, (g) => g.__fakeHost.update({ title: 'Renamed by the host', notices: [] }));
  await tid('task-title').filter({ hasText: /^Renamed by the host$/ }).waitFor();
  assert.equal(await tid('notice').count(), 0);
  assert.match((await tid('task-id').textContent()) ?? '', /rev 4/);
  assert.equal(await page.locator('vscode-tab-header[data-testid="specs-tab-matrix"]').getAttribute('active'), '', 'the open tab stays open');
  assert.match((await page.locator('[data-testid="column-a2"]').getAttribute('class')) ?? '', /active/, 'the active column stays');

  const before = (await probe(page, (g) => g.__fakeHost.log)).filter((l) => l.method === 'getSteps').length;
  await probe(page, (g) => g.__fakeHost.update({ taskId: 'other__task-9', title: 'Another task' }));
  await tid('task-title').filter({ hasText: /^Another task$/ }).waitFor();
  await page.locator('[data-testid="step-row"][data-step="0"]').waitFor();
  assert.match((await page.locator('[data-testid="column-a1"]').getAttribute('class')) ?? '', /active/, 'positions do not carry over to another task');
  const after = (await probe(page, (g) => g.__fakeHost.log)).filter((l) => l.method === 'getSteps').length;
  assert.ok(after > before, 'steps are fetched again for the other task');
  await waitUntil(page, (g) => g.__fakeHost.uiStates.at(-1)?.taskId === 'other__task-9');
});

test('no CSP violation, no invalid message, no page error, and a small DOM', async () => {
  const r = await probe(page, (g) => ({ v: g.__fakeHost.violations, i: g.__fakeHost.invalid, n: g.__fakeHost.countElements() }));
  assert.deepEqual(r.v, []);
  assert.deepEqual(r.i, []);
  assert.ok(r.n < 2000, `${r.n} elements`);
  assert.deepEqual(h.errors, []);
});

test('the results matrix reads: FAIL_TO_PASS first and apart, rows that agree hidden until asked for, the full test id on hover, a header that stays', async () => {
  await probe(page, (g) => g.__fakeHost.update({
    results: {
      ...g.__fakeHost.model().results!,
      tests: { T4: { gold: 'PASSED', a1: 'PASSED', a2: 'PASSED' }, T2: { gold: 'PASSED', a1: 'PASSED', a2: 'PASSED' }, T1: { gold: 'PASSED', a1: 'PASSED', a2: 'FAILED' } },
      // A row every column agrees on that a flag names is still one to look at.
      flags: [{ kind: 'empty_passes_fail_to_pass', message: 'T4 passes without any patch', testId: 'T4' }],
    },
  }));
  await tid('specs-tab-results').click();
  await page.locator('[data-testid="results-tests"] [data-testid="result-row"] th[data-row="T1"]').waitFor();
  const rows = () => page.locator('[data-testid="results-tests"] [data-testid="result-row"] th').evaluateAll((n) => n.map((x) => x.getAttribute('data-row')));
  assert.deepEqual(await rows(), ['T1', 'T4'], 'only the row that differs, and the one a flag names');
  assert.match((await tid('results-tests-differing').getAttribute('label')) ?? (await tid('results-tests-differing').evaluate((n) => (n as unknown as { label: string }).label)), /Only rows that differ or are flagged \(2 of 3; 1 the same in every column hidden\)/);
  await tid('results-tests-differing').click();
  await page.locator('[data-testid="results-tests"] th[data-row="T4"]').waitFor();
  assert.deepEqual(await rows(), ['T1', 'T2', 'T4'], 'FAIL_TO_PASS first (the row that differs first), then PASS_TO_PASS');
  assert.deepEqual(await page.locator('[data-testid="results-tests"] [data-testid="results-group"]').evaluateAll((n) => n.map((x) => x.getAttribute('data-group'))), ['FAIL_TO_PASS', 'PASS_TO_PASS']);
  assert.equal(await page.locator('[data-testid="results-tests"] th[data-row="T1"]').getAttribute('title'), 'tests/test_parser.py::TestNested::test_trailing_comma (T1)');
  assert.equal(await page.evaluate(`getComputedStyle(document.querySelector('[data-testid="results-tests"] thead th')).position`), 'sticky');
  await h.shot(page, 'results-grouped');
});

test('a region can be shown alone in the task view and brought back to the curator\'s layout', async () => {
  const box = async (id: string) => (await tid(id).boundingBox())!;
  const all = await box('regions');
  const before = { specs: await box('region-specs'), request: await box('region-request') };
  await tid('maximize-specs').click();
  await waitUntil(page, `(() => { const r = document.querySelector('[data-testid="region-specs"]').getBoundingClientRect(); const a = document.querySelector('[data-testid="regions"]').getBoundingClientRect(); return r.width > a.width * 0.9 && r.height > a.height * 0.9; })()`);
  const request = await box('region-request');
  assert.ok(request.height < 20 || request.width < 20, `the request gives way: ${JSON.stringify(request)} in ${JSON.stringify(all)}`);
  assert.equal(await tid('maximize-specs').getAttribute('aria-pressed'), 'true');
  await h.shot(page, 'specs-maximized');
  // The same button brings every region back; then another region alone.
  await tid('maximize-specs').click();
  await waitUntil(page, `Math.abs(document.querySelector('[data-testid="region-specs"]').getBoundingClientRect().width - ${before.specs.width}) < 2`);
  await tid('maximize-trajectory').click();
  await waitUntil(page, `(() => { const r = document.querySelector('[data-testid="region-trajectory"]').getBoundingClientRect(); const a = document.querySelector('[data-testid="regions"]').getBoundingClientRect(); return r.width > a.width * 0.9 && r.height > a.height * 0.9; })()`);
  await tid('maximize-trajectory').click();
  await waitUntil(page, `Math.abs(document.querySelector('[data-testid="region-specs"]').getBoundingClientRect().width - ${before.specs.width}) < 2 && Math.abs(document.querySelector('[data-testid="region-request"]').getBoundingClientRect().height - ${before.request.height}) < 2`);
  assert.equal(await tid('maximize-trajectory').getAttribute('aria-pressed'), 'false');
});
