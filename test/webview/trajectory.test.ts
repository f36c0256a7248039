// The trajectories region: a 10,000-step list that stays small in the DOM, paging within the protocol's limits,
// step-kind filters, folded long steps, the regex search with counts and jump-to-hit, keyboard commands, and UI
// state that survives a reload.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { MAX_STEP_PAGE, MAX_TEXT_SLICE } from '../../src/protocol/messages';
import { dataOf, hostSettled, pageTimersPassed, probe, startBrowserHarness, stepRow, waitForStatus, waitUntil, type Harness } from './harness/page';

let h: Harness;
let page: Page;

before(async () => {
  h = await startBrowserHarness('trajectory');
  page = await h.open({ height: 1100 });
});

after(async () => {
  await h?.close();
});

const tid = (id: string) => page.locator(`[data-testid="${id}"]`);
const list = () => tid('trajectory-list');
const listHeight = () => page.evaluate(`document.querySelector('[data-testid="trajectory-list"]').scrollHeight`);
const scrollListTo = (top: number) => page.evaluate(`document.querySelector('[data-testid="trajectory-list"]').scrollTop = ${top}`);
/** Waits until the list stopped scrolling (the same offset two frames apart) and the row at its top is drawn. */
async function scrollSettled(): Promise<void> {
  for (const end = Date.now() + 10_000; ; ) {
    const settled = await page.evaluate(`new Promise((resolve) => {
      const list = document.querySelector('[data-testid="trajectory-list"]');
      const top = list.scrollTop;
      requestAnimationFrame(() => requestAnimationFrame(() => {
        const row = document.querySelector('[data-testid="step-row"][data-step="' + Math.floor(list.scrollTop / 22) + '"]');
        resolve(list.scrollTop === top && row !== null);
      }));
    })`);
    if (settled) return;
    if (Date.now() > end) throw new Error('the step list did not settle');
  }
}
const elements = () => probe(page, (g) => g.__fakeHost.countElements());
const requests = (method: string) => probe(page, (g) => g.__fakeHost.log).then((l) => l.filter((x) => x.method === method).map((x) => x.params));
const activeTab = async () => (await dataOf(page.locator('vscode-tab-header[data-testid^="trajectory-tab-"][active]'), 'tab'))[0];
const counter = () => tid('hit-counter').textContent();

async function search(pattern: string): Promise<void> {
  const box = page.locator('[data-testid="search-box"] input');
  await box.fill(pattern);
}

async function waitForCounter(re: RegExp): Promise<void> {
  try {
    await tid('hit-counter').filter({ hasText: re }).waitFor({ timeout: 15_000 });
  } catch (e) {
    await h.shot(page, 'failed-counter');
    throw new Error(`hit counter says ${JSON.stringify(await counter())}, status ${JSON.stringify(await tid('status-line').textContent())}; wanted ${re}`, { cause: e });
  }
}

test('scrolling a 10,000-step trajectory keeps the DOM under 2,000 elements and pages within the limit', async () => {
  await stepRow(page, 0).waitFor();
  assert.equal(await activeTab(), 'a1');
  const height = await listHeight();
  assert.equal(height, 10_000 * 22, 'the list is as tall as all its rows');
  let most = await elements();
  for (const step of [150, 2_345, 5_000, 7_777, 9_990, 4_200]) {
    await scrollListTo(step * 22);
    await stepRow(page, step).waitFor({ timeout: 10_000 });
    most = Math.max(most, await elements());
  }
  // A real wheel scroll, too.
  await list().hover();
  for (let i = 0; i < 10; i++) await page.mouse.wheel(0, 1500);
  await scrollSettled();
  most = Math.max(most, await elements());
  await scrollListTo(10_000 * 22);
  await stepRow(page, 9_999).waitFor();
  most = Math.max(most, await elements());
  assert.ok(most < 2_000, `at most ${most} elements (shadow roots included)`);
  const rendered = await page.locator('[data-testid="step-row"]:not([hidden])').count();
  assert.ok(rendered < 120, `${rendered} rows rendered`);
  const pages = await requests('getSteps');
  assert.ok(pages.length >= 6 && pages.length < 60, `${pages.length} pages fetched`);
  for (const p of pages) assert.ok((p.count as number) <= MAX_STEP_PAGE);
  await h.shot(page, 'scrolled-to-end');
  await scrollListTo(0);
  await stepRow(page, 0).waitFor();
});

test('a trajectory whose step count has not arrived yet still lists its steps (the first page tells the count)', async () => {
  // A task view that starts over while a trial writes its trajectory gets the model before the step counts.
  const fresh = await h.open({ height: 1100, query: 'summaries=0' });
  try {
    await stepRow(fresh, 0).waitFor({ timeout: 15_000 });
    assert.equal(await fresh.evaluate(`document.querySelector('[data-testid="trajectory-list"]').scrollHeight`), 10_000 * 22, 'the list is as tall as the count the page gave');
  } finally {
    await fresh.close();
  }
});

test('rows show step number, kind, preview, tool calls and cost', async () => {
  const row = stepRow(page, 3);
  assert.equal(await row.locator('.step-num').textContent(), '3');
  assert.equal(await row.locator('.step-kind').textContent(), 'action');
  assert.equal(await row.locator('.step-preview').textContent(), 'edit src/pkg/parser.py');
  const meta = (await row.locator('.step-meta').textContent()) ?? '';
  assert.match(meta, /⚙ str_replace_editor/);
  assert.match(meta, /✎1/);
  assert.match(meta, /\$0\.0023/);
  // Nothing to cite for without a review of the task: no row offers it.
  assert.equal(await row.locator('[data-testid="step-row-cite"]').count(), 0);
});

test('a step that edited a file jumps to that file\'s diff', async () => {
  await stepRow(page, 3).click();
  await tid('step-detail-header').filter({ hasText: /Step 3/ }).waitFor();
  assert.equal(await page.locator('[data-testid="tool-call"] .tool-name').textContent(), '⚙ str_replace_editor');
  // The edit call reads as a small diff, and its JSON arguments are indented.
  assert.deepEqual(await page.locator('[data-testid="tool-edit"] > div').allTextContents(), ['src/pkg/parser.py', '- a,', '+ a']);
  assert.equal(await tid('tool-args').textContent(), JSON.stringify({ path: 'src/pkg/parser.py', old: 'a,', new: 'a' }, null, 2));
  await page.locator('[data-testid="step-edit"]').click();
  await waitForStatus(page, /Opened the diff of src\/pkg\/parser\.py/);
  assert.deepEqual((await requests('openDiff')).at(-1), { column: 'a1', path: 'src/pkg/parser.py' });
});

test('the step-kind filter shows only the chosen kinds and asks the host for them', async () => {
  await tid('kind-thought').click();
  await tid('kind-observation').click();
  await waitUntil(page, `!document.querySelector('[data-testid="trajectory-list"] .step-row.kind-thought:not([hidden])')`);
  await stepRow(page, 6).waitFor();
  const kinds = new Set(await page.locator('[data-testid="step-row"]:not([hidden]) .step-kind').allTextContents());
  assert.deepEqual([...kinds].sort(), ['action', 'system', 'user']);
  const last = (await requests('getSteps')).at(-1)!;
  assert.deepEqual(last.kinds, ['system', 'user', 'action', 'tool_call', 'tool_result', 'submission']);
  // Filters are offered for the kinds the trajectory has (with their counts), not for every kind there is.
  assert.deepEqual(await page.locator('[data-testid="kind-filters"] [data-testid^="kind-"]').evaluateAll((n) => n.map((x) => x.getAttribute('data-testid'))), ['kind-system', 'kind-user', 'kind-thought', 'kind-action', 'kind-observation']);
  const height = await listHeight();
  assert.equal(height, (2 + 3333) * 22, 'the list shrinks to the filtered length');
  await h.shot(page, 'filtered-actions');
  await tid('kind-thought').click();
  await tid('kind-observation').click();
  await stepRow(page, 4).waitFor();
});

test('a folded long step unfolds in slices fetched from the host', async () => {
  await tid('trajectory-tab-a2').click();
  assert.equal(await activeTab(), 'a2');
  await stepRow(page, 7).waitFor();
  assert.match((await stepRow(page, 7).locator('.step-meta').textContent()) ?? '', /▸ 6\d\dK/);
  await stepRow(page, 7).click();
  const status = tid('fold-status');
  await status.filter({ hasText: /Showing 2\.0K of 6\d\dK characters/ }).waitFor();
  assert.equal(((await tid('step-text').textContent()) ?? '').length, 2000);
  await tid('step-expand').click();
  await status.filter({ hasText: /Showing 262K of/ }).waitFor();
  await tid('step-expand').click();
  await status.filter({ hasText: /Showing 524K of/ }).waitFor();
  const slices = (await requests('getStepText')).slice(-2);
  assert.deepEqual(slices, [
    { column: 'a2', step: 7, offset: 0, length: MAX_TEXT_SLICE },
    { column: 'a2', step: 7, offset: MAX_TEXT_SLICE, length: MAX_TEXT_SLICE },
  ]);
  await h.shot(page, 'long-step-unfolded');
  await tid('step-expand').click();
  await waitUntil(page, `!document.querySelector('[data-testid="fold-status"]')`);
  const text = (await tid('step-text').textContent()) ?? '';
  assert.ok(text.includes('line 5000: ') && text.includes('DEEPNEEDLE') && text.endsWith('line 5999: ' + 'lorem ipsum '.repeat(8)));
  // Enter on the list unfolds too (nothing left here; the keyboard path is tested on a fresh step).
});

test('search: counts per attempt and in total, next/previous jump to the step and mark the match', async () => {
  await tid('trajectory-tab-a1').click();
  const expected = await probe(page, (g) => g.__fakeHost.expectedCounts('Traceback', false, false));
  const total = Object.values(expected).reduce((a, b) => a + b, 0);
  assert.ok(expected.a1! > 20 && expected.a2! > 0, JSON.stringify(expected));
  await search('Traceback');
  await waitForCounter(new RegExp(`^${total}$`));
  assert.equal(await tid('trajectory-tab-badge-a1').textContent(), String(expected.a1));
  assert.equal(await tid('trajectory-tab-badge-a2').textContent(), String(expected.a2));
  assert.equal(await tid('trajectory-tab-badge-gold').textContent(), '0');
  await h.shot(page, 'search-counts');

  await tid('next-hit').click();
  await waitForCounter(new RegExp(`^1 of ${total}$`));
  const first = stepRow(page, 97);
  await first.and(page.locator('.current-hit')).waitFor();
  assert.equal(await page.locator('[data-testid="hit-mark"]').textContent(), 'Traceback');
  await tid('step-detail-header').filter({ hasText: /Step 97/ }).waitFor();

  await tid('next-hit').click();
  await waitForCounter(new RegExp(`^2 of ${total}$`));
  await stepRow(page, 388).and(page.locator('.current-hit')).waitFor();

  await tid('prev-hit').click();
  await waitForCounter(new RegExp(`^1 of ${total}$`));
  await stepRow(page, 97).and(page.locator('.current-hit')).waitFor();

  // Wrapping back from the first hit lands on the last one, in the last attempt that has hits.
  await tid('prev-hit').click();
  await waitForCounter(new RegExp(`^${total} of ${total}$`));
  assert.equal(await activeTab(), 'a2');
  await page.locator('[data-testid="step-row"].current-hit').waitFor();
  await h.shot(page, 'jumped-to-last-hit');
  const lastStep = Number(await page.locator('[data-testid="step-row"].current-hit').getAttribute('data-step'));
  assert.equal(await probe(page, (g) => g.__fakeHost.stepKind('a2', 0)), 'system');
  assert.ok(lastStep > 300 && lastStep % 97 === 0, `last hit at ${lastStep}`);
  const box = await page.locator('[data-testid="step-row"].current-hit').boundingBox();
  const view = await list().boundingBox();
  assert.ok(box && view && box.y >= view.y && box.y + box.height <= view.y + view.height, 'the hit row is scrolled into view');
});

test('a hit in a tool call\'s arguments is marked there, with its text, and scrolled into view', async () => {
  await search('CALLNEEDLE');
  await waitForCounter(/^1$/);
  await tid('next-hit').click();
  await waitForCounter(/^1 of 1$/);
  await tid('step-detail-header').filter({ hasText: /Step 9\b/ }).waitFor();
  const mark = page.locator('[data-testid="tool-args"] [data-testid="hit-mark"]');
  await mark.waitFor();
  assert.equal(await mark.textContent(), 'CALLNEEDLE');
  assert.equal(await page.locator('[data-testid="hit-mark"]').count(), 1, 'one mark, in the arguments');
  // The arguments box and the detail pane both show the mark (each scrolled only as far as needed).
  await waitUntil(
    page,
    `(() => {
      const m = document.querySelector('[data-testid="tool-args"] [data-testid="hit-mark"]').getBoundingClientRect();
      const inside = (box) => { const b = box.getBoundingClientRect(); return m.width > 0 && m.top >= b.top - 1 && m.bottom <= b.bottom + 1; };
      return inside(document.querySelector('[data-testid="tool-args"]')) && inside(document.querySelector('.detail-pane'));
    })()`,
  );
  await h.shot(page, 'hit-in-tool-call');
  await search('');
});

test('regex and case toggles; an invalid regex is refused before it reaches the host', async () => {
  await tid('search-regex').click();
  await search('bad comma \\d{3}$');
  const expected = await probe(page, (g) => g.__fakeHost.expectedCounts('bad comma \\d{3}$', true, false));
  const total = Object.values(expected).reduce((a, b) => a + b, 0);
  await waitForCounter(new RegExp(`^${total}$`));
  await tid('search-case').click();
  await search('TRACEBACK');
  await waitForCounter(/^No results$/);
  await tid('search-case').click();
  const any = await probe(page, (g) => g.__fakeHost.expectedCounts('TRACEBACK', false, false));
  await waitForCounter(new RegExp(`^${Object.values(any).reduce((a, b) => a + b, 0)}$`));
  const before = (await requests('search')).length;
  await search('unclosed(');
  // The status is set where the search would have been sent: the decision is made once it shows.
  await tid('search-status').filter({ hasText: /Invalid regular expression/ }).waitFor();
  await hostSettled(page);
  assert.equal((await requests('search')).length, before, 'no search request for an invalid pattern');
  assert.equal(await tid('hit-counter').textContent(), '');
  await h.shot(page, 'invalid-regex');
  await tid('search-regex').click();
  // Regex off, "unclosed(" is a valid literal query and is searched: that search must be over before the next test,
  // whose held search would otherwise be this one when its request came in late (ci20 failed that way).
  const literal = await probe(page, (g) => g.__fakeHost.expectedCounts('unclosed(', false, false));
  const hits = Object.values(literal).reduce((a, b) => a + b, 0);
  await waitUntil(page, (g) => g.__fakeHost.log.some((x) => x.method === 'search' && (x.params as { pattern?: string }).pattern === 'unclosed('));
  await waitForCounter(hits > 0 ? new RegExp(`^${hits}$`) : /^No results$/);
  await hostSettled(page);
});

test('changing the query cancels the running search and ignores its late hits', async () => {
  // The host answers the first batch of the first search and holds the rest, so that search is still running
  // whatever the machine's speed when the new query's typing pause ends.
  await probe(page, (g) => g.__fakeHost.holdNextSearch());
  await search('module');
  await waitUntil(page, (g) => g.__fakeHost.heldSearches() > 0);
  const slow = (await requests('search')).at(-1)!;
  assert.equal(slow.pattern, 'module');
  await search('ValueError');
  const expected = await probe(page, (g) => g.__fakeHost.expectedCounts('ValueError', false, false));
  const total = Object.values(expected).reduce((a, b) => a + b, 0);
  await waitForCounter(new RegExp(`^${total}$`));
  const cancels = await requests('cancelSearch');
  assert.ok(cancels.some((c) => c.searchId === slow.searchId), 'the first search was cancelled');
  // The held batch of the cancelled search now arrives, late, with its hits; then everything else the host had.
  await probe(page, (g) => g.__fakeHost.releaseSearches());
  await hostSettled(page);
  assert.equal(await counter(), String(total), 'late hits of the cancelled search do not count');
});

test('Enter in the search box starts the search at once, without waiting for the typing pause', async () => {
  const box = page.locator('[data-testid="search-box"] input');
  await box.fill('');
  await waitUntil(page, `document.querySelector('[data-testid="hit-counter"]').textContent === '' && document.querySelector('[data-testid="search-status"]').textContent === ''`);
  await box.fill('parser');
  await box.press('Enter');
  // Read at once: the typing pause (120 ms) has not run out yet, so only Enter can have started the search.
  const state = await page.evaluate(`[document.querySelector('[data-testid="search-status"]').textContent, document.querySelector('[data-testid="hit-counter"]').textContent]`);
  const [status, count] = state as [string, string];
  assert.ok(status.startsWith('Searching') || /\d/.test(count), `search started by Enter (status ${JSON.stringify(status)}, counter ${JSON.stringify(count)})`);
  const expected = await probe(page, (g) => g.__fakeHost.expectedCounts('parser', false, false));
  await waitForCounter(new RegExp(`^${Object.values(expected).reduce((a, b) => a + b, 0)}$`));
  // One search for one query: the typing pause (120 ms) does not send it again once it has run out.
  await pageTimersPassed(page, 200);
  assert.equal((await requests('search')).filter((x) => x.pattern === 'parser').length, 1);
});

test('keyboard: host commands and the same keys in the webview; one press acts once', async () => {
  await search('Traceback');
  const expected = await probe(page, (g) => g.__fakeHost.expectedCounts('Traceback', false, false));
  const total = Object.values(expected).reduce((a, b) => a + b, 0);
  await waitForCounter(new RegExp(`^${total}$`));

  await tid('trajectory-tab-a1').click();
  await tid('task-title').click();
  await probe(page, (g) => g.__fakeHost.command('nextAttempt'));
  await waitUntil(page, `document.querySelector('[data-testid="column-a2"]').classList.contains('active')`);
  assert.equal(await activeTab(), 'a2');
  await probe(page, (g) => g.__fakeHost.command('previousAttempt'));
  await waitUntil(page, `document.querySelector('[data-testid="column-a1"]').classList.contains('active')`);
  await page.keyboard.press(']');
  await waitUntil(page, `document.querySelector('[data-testid="column-a2"]').classList.contains('active')`);
  await page.keyboard.press('[');
  await waitUntil(page, `document.querySelector('[data-testid="column-a1"]').classList.contains('active')`);

  // Without a current hit, "next" starts from the selected step.
  await scrollListTo(0);
  await stepRow(page, 1).click();
  await probe(page, (g) => g.__fakeHost.command('nextHit'));
  await waitForCounter(new RegExp(`^1 of ${total}$`));
  await page.keyboard.press('F3');
  await waitForCounter(new RegExp(`^2 of ${total}$`));
  // VS Code forwards the key to the workbench, which may send the same command back: it must not act twice.
  await page.keyboard.press('F3');
  await probe(page, (g) => g.__fakeHost.command('nextHit'));
  await hostSettled(page);
  assert.equal(await counter(), `3 of ${total}`);
  await page.keyboard.press('Shift+F3');
  await waitForCounter(new RegExp(`^2 of ${total}$`));
  // Later than an echo could be (the webview pairs them within 500 ms of the page's clock): a command of its own.
  await pageTimersPassed(page, 650);
  await probe(page, (g) => g.__fakeHost.command('previousHit'));
  await waitForCounter(new RegExp(`^1 of ${total}$`));

  await probe(page, (g) => g.__fakeHost.command('focusSearch'));
  await waitUntil(page, `document.activeElement?.dataset?.testid === 'search-box'`);
  await page.keyboard.press('Enter');
  await waitForCounter(new RegExp(`^2 of ${total}$`));
  await page.keyboard.press('Shift+Enter');
  await waitForCounter(new RegExp(`^1 of ${total}$`));
  // Focusing the search selects the query, so typing replaces it; keys typed there are text, not commands.
  await page.keyboard.type('d]');
  await pageTimersPassed(page, 200);
  assert.equal(await activeTab(), 'a1');
  assert.equal(await page.locator('[data-testid="search-box"] input').inputValue(), 'd]');
  await search('Traceback');

  await tid('task-title').click();
  await page.keyboard.press('Control+f');
  await waitUntil(page, `document.activeElement?.dataset?.testid === 'search-box'`);

  const before = (await requests('openDiff')).length;
  await tid('task-title').click();
  await probe(page, (g) => g.__fakeHost.command('openDiff'));
  await waitUntil(page, (g) => g.__fakeHost.log.filter((l) => l.method === 'openDiff').length > 0);
  await page.keyboard.press('d');
  await waitUntil(page, `window.__fakeHost.log.filter((l) => l.method === 'openDiff').length >= ${before + 2}`);
  // Then until the host has answered everything: one press must not have opened a second diff.
  await hostSettled(page);
  const diffs = (await requests('openDiff')).slice(before);
  assert.deepEqual(diffs, [
    { column: 'a1', path: 'src/pkg/parser.py' },
    { column: 'a1', path: 'src/pkg/parser.py' },
  ]);
  // Keyboard in the list: arrows move the selection, Enter unfolds.
  await tid('trajectory-tab-a2').click();
  await scrollListTo(0);
  await stepRow(page, 5).click();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await tid('step-detail-header').filter({ hasText: /Step 7/ }).waitFor();
  await page.keyboard.press('Enter');
  await tid('fold-status').filter({ hasText: /Showing 262K of/ }).waitFor();
  await h.shot(page, 'keyboard');
});

test('UI state is saved for the host and survives a reload', async () => {
  await tid('kind-system').click();
  await search('ValueError');
  await waitUntil(page, (g) => g.__fakeHost.uiStates.at(-1)?.search === 'ValueError' && !((g.__fakeHost.uiStates.at(-1)?.stepKinds ?? []) as string[]).includes('system'));
  const shared = await probe(page, (g) => g.__fakeHost.uiStates.at(-1));
  assert.equal(shared?.taskId, 'demo__parser-1234');
  assert.equal(shared?.activeColumn, 'a2');
  assert.equal(shared?.search, 'ValueError');
  assert.deepEqual(shared?.stepKinds, ['user', 'thought', 'action', 'observation', 'tool_call', 'tool_result', 'submission']);
  assert.ok((await probe(page, (g) => g.__fakeHost.setStateCalls)) > 0);

  await page.reload();
  await page.locator('[data-testid="task-title"]').waitFor();
  assert.equal(await activeTab(), 'a2');
  assert.equal(await page.locator('[data-testid="search-box"] input').inputValue(), 'ValueError');
  assert.equal(await page.evaluate(`document.querySelector('[data-testid="kind-system"]').checked`), false);
  const expected = await probe(page, (g) => g.__fakeHost.expectedCounts('ValueError', false, false, ['user', 'thought', 'action', 'observation', 'tool_call', 'tool_result', 'submission']));
  await waitForCounter(new RegExp(`^${Object.values(expected).reduce((a, b) => a + b, 0)}$`));
  await tid('step-detail-header').filter({ hasText: /Step 7/ }).waitFor({ timeout: 10_000 });
  await h.shot(page, 'restored-after-reload');
  const r = await probe(page, (g) => ({ v: g.__fakeHost.violations, i: g.__fakeHost.invalid }));
  assert.deepEqual(r, { v: [], i: [] });
  assert.deepEqual(h.errors, []);
});

test('a restarted session (the task changed on disk) keeps the list where it was scrolled and the selected step', async () => {
  // The page opened before the step counts arrived (the usual order: the host reads a trajectory after the first paint).
  const fresh = await h.open({ height: 1100, query: 'summaries=0' });
  try {
    const list = fresh.locator('[data-testid="trajectory-list"]');
    await stepRow(fresh, 0).waitFor({ timeout: 15_000 });
    await list.evaluate((n) => (n.scrollTop = 22 * 4000));
    await stepRow(fresh, 4005).click();
    await fresh.locator('[data-testid="step-detail-header"]').filter({ hasText: /Step 4005\b/ }).waitFor();
    const top = await list.evaluate((n) => n.scrollTop);
    assert.ok(top >= 22 * 3990, `scrolled to ${top}`);
    await hostSettled(fresh);
    await probe(fresh, (g) => g.__fakeHost.restart());
    await hostSettled(fresh);
    await stepRow(fresh, 4005).and(fresh.locator('.selected')).waitFor();
    assert.equal(await list.evaluate((n) => n.scrollTop), top, 'the list stays where it was');
    assert.equal(await list.evaluate((n) => n.scrollHeight), 10_000 * 22);
    assert.match((await fresh.locator('[data-testid="step-detail-header"]').textContent()) ?? '', /Step 4005\b/);
  } finally {
    await fresh.close();
  }
});
