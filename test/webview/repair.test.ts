// The Repair tab of the task view: the latest suggestion's state (requested, accepted, rejected; revision n -> n+1)
// and, once revalidated, the before/after matrix of outcomes per attempt and spec with the false positives and
// negatives that disappeared and appeared marked in their cells and counted; the buttons that run the host's repair
// commands; the switch to the tab when a revalidation finishes; hostile text; the DOM budget on a big matrix.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { standardFixture } from './harness/fixtures';
import { dataOf, hostSettled, nextRequest, probe, startBrowserHarness, waitForStatus, waitUntil, type Harness } from './harness/page';
import { repairFixture } from './harness/repairFixtures';

let h: Harness;

before(async () => {
  h = await startBrowserHarness('repair');
});

after(async () => {
  await h?.close();
});

const tid = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const cellAt = (page: Page, attempt: string, spec: string) => page.locator(`[data-testid="repair-cell"][data-attempt="${attempt}"][data-spec="${spec}"]`);

async function openRepair(query: string, o: { fixture?: 'standard' | 'hostile' | 'scale'; theme?: 'dark' | 'light' | 'hc' } = {}): Promise<Page> {
  const page = await h.open({ query, ...o });
  await tid(page, 'specs-tab-repair').click();
  await tid(page, 'repair').waitFor();
  return page;
}

test('a revalidated repair: accepted, revision n -> n+1, the counts, and the before/after matrix with its marks', async () => {
  const page = await openRepair('repair=revalidated');
  assert.equal(await tid(page, 'repair-state').textContent(), 'accepted');
  assert.equal(await tid(page, 'repair-state').getAttribute('data-status'), 'revalidated');
  assert.equal(await tid(page, 'repair-revision').textContent(), 'revision 2 → 3');
  assert.match((await tid(page, 'repair-detail').textContent()) ?? '', /revision 3 revalidated/);
  assert.match((await tid(page, 'repair-suggestion').textContent()) ?? '', /20261129T134201123Z-a1b2c3 · target tests · accepted by alice, 2026-11-29 13:45:00/);
  assert.equal(await tid(page, 'repair-summary').textContent(), 'Loosen TB3: match the location, not the exact wording');
  assert.match((await tid(page, 'repair-note').textContent()) ?? '', /^Note: Accepted with a comment line added\.$/);

  // The counts: false negatives 2 -> 0 (better), false positives 1 -> 1 (one gone, one appeared).
  assert.equal(await tid(page, 'repair-count-fn').textContent(), 'false negatives 2 → 0');
  assert.equal(await tid(page, 'repair-count-fn').getAttribute('data-trend'), 'better');
  assert.equal(await tid(page, 'repair-count-fp').textContent(), 'false positives 1 → 1');
  assert.equal(await tid(page, 'repair-count-fp').getAttribute('data-trend'), 'same');
  const refs = async (which: string) => {
    const loc = page.locator(`[data-testid="repair-${which}"] [data-testid="repair-ref"]`);
    const [a, s, k] = await Promise.all([dataOf(loc, 'attempt'), dataOf(loc, 'spec'), dataOf(loc, 'kind')]);
    return a.map((x, i) => `${k[i]}:${x}×${s[i]}`);
  };
  assert.deepEqual(await refs('gone'), ['fp:a2×S1', 'fn:a1×S2', 'fn:a2×S2']);
  assert.deepEqual(await refs('appeared'), ['fp:a2×S4']);
  assert.match((await tid(page, 'repair-gone').textContent()) ?? '', /Disappeared: false positives \(1\): Attempt 2 × S1; false negatives \(2\): Attempt 1 × S2, Attempt 2 × S2/);
  assert.match((await tid(page, 'repair-appeared').textContent()) ?? '', /Appeared: false positives \(1\): Attempt 2 × S4/);

  // The matrix: attempts x specs, each cell "before -> after" with the verdicts under it.
  assert.deepEqual(await dataOf(page.locator('[data-testid="repair-row"]'), 'attempt'), ['a1', 'a2', 'a3']);
  assert.deepEqual(await dataOf(page.locator('[data-testid="repair-spec"]'), 'spec'), ['S1', 'S2', 'S3', 'S4', 'S5', 'S6']);
  assert.equal(await page.locator('[data-testid="repair-cell"]').count(), 18);
  const outcomes = async (a: string, s: string) => cellAt(page, a, s).locator('[data-testid="repair-outcomes"]').textContent();
  assert.equal(await outcomes('a1', 'S2'), 'FN → TP');
  assert.equal(await outcomes('a2', 'S1'), 'FP → TF');
  assert.equal(await outcomes('a2', 'S4'), 'TP → FP');
  assert.equal(await outcomes('a3', 'S3'), 'TF → ?');
  assert.equal(await outcomes('a1', 'S6'), '— → TP');
  assert.equal(await outcomes('a1', 'S1'), 'TP → TP');
  assert.equal(await cellAt(page, 'a1', 'S2').locator('.repair-verdicts').textContent(), 'fail → pass');
  assert.equal(await cellAt(page, 'a1', 'S2').getAttribute('data-before'), 'false_negative');
  assert.equal(await cellAt(page, 'a1', 'S2').getAttribute('data-after'), 'true_pass');
  assert.match((await cellAt(page, 'a1', 'S2').getAttribute('title')) ?? '', /before false negative \(verifier fail\), after true pass \(verifier pass\) — FN gone/);
  // Marks: in exactly the cells whose false positive or negative disappeared or appeared.
  const marks = page.locator('[data-testid="repair-mark"]');
  assert.equal(await marks.count(), 4);
  assert.deepEqual(await page.locator('[data-testid="repair-mark"][data-which="gone"]').allTextContents(), ['✓ FN gone', '✓ FP gone', '✓ FN gone']);
  assert.deepEqual(await page.locator('[data-testid="repair-mark"][data-which="appeared"]').allTextContents(), ['✗ FP appeared']);
  assert.equal(await cellAt(page, 'a2', 'S4').locator('[data-testid="repair-mark"]').textContent(), '✗ FP appeared');
  assert.equal(await cellAt(page, 'a2', 'S1').locator('[data-testid="repair-mark"]').textContent(), '✓ FP gone');
  assert.equal(await cellAt(page, 'a3', 'S3').locator('[data-testid="repair-mark"]').count(), 0, 'a verdict that changed is no false positive or negative');
  assert.ok(((await cellAt(page, 'a3', 'S3').getAttribute('class')) ?? '').includes('repair-cell-changed'));
  assert.ok(((await cellAt(page, 'a2', 'S4').getAttribute('class')) ?? '').includes('has-appeared'));
  assert.ok(((await cellAt(page, 'a1', 'S2').getAttribute('class')) ?? '').includes('has-gone'));
  assert.deepEqual(await page.locator('[data-testid="repair-attempt-status"]').allTextContents(), ['failed → passed', 'failed → failed', 'failed → not run']);
  assert.equal(await tid(page, 'repair-action-accept').count(), 0, 'no accept once accepted');
  await h.shot(page, 'revalidated-dark');

  const matrixRequest = await nextRequest(page, 'showRepairMatrix', () => tid(page, 'repair-action-matrix').click());
  assert.deepEqual(matrixRequest, { suggestion: '20261129T134201123Z-a1b2c3' });
  await waitForStatus(page, /before\/after matrix as a document/);
  // A spec header shows the spec; a row header activates the attempt's column.
  await page.locator('[data-testid="repair-row"][data-attempt="a2"] th').click();
  assert.ok(((await page.locator('[data-testid="column-a2"]').getAttribute('class')) ?? '').includes('active'));
  await page.locator('[data-testid="repair-spec"][data-spec="S2"]').click();
  await page.locator('[data-testid="spec"][data-spec="S2"]').waitFor();
  assert.equal(await tid(page, 'specs-tab-specs').getAttribute('active'), '');
  assert.deepEqual(h.errors, []);
  await page.close();
});

test('the matrix reads in the light and high-contrast themes', async () => {
  for (const theme of ['light', 'hc'] as const) {
    const page = await openRepair('repair=revalidated', { theme });
    await tid(page, 'repair-matrix').waitFor();
    await h.shot(page, `revalidated-${theme}`);
    await page.close();
  }
  assert.deepEqual(h.errors, []);
});

test('a suggestion ready for review: requested, what accepting makes, and the buttons run the repair commands', async () => {
  const page = await openRepair('repair=ready');
  assert.equal(await tid(page, 'repair-state').textContent(), 'requested');
  assert.match((await tid(page, 'repair-detail').textContent()) ?? '', /accept \(makes revision 4\) or reject/);
  assert.equal(await tid(page, 'repair-revision').count(), 0);
  assert.equal(await tid(page, 'repair-matrix').count(), 0);
  await tid(page, 'repair-rationale').locator('summary').click();
  assert.equal(await tid(page, 'repair-rationale-text').textContent(), repairFixture('ready', standardFixture().model)?.rationale);
  await h.shot(page, 'ready');
  for (const [button, method] of [
    ['repair-action-review', 'reviewRepair'],
    ['repair-action-accept', 'acceptRepair'],
    ['repair-action-reject', 'rejectRepair'],
    ['repair-action-prompt', 'showRepairPrompt'],
  ] as const) {
    assert.deepEqual(await nextRequest(page, method, () => tid(page, button).click()), { suggestion: '20261129T134201123Z-a1b2c3' }, button);
  }
  assert.equal(await tid(page, 'repair-action-request').count(), 0, 'no new request while one waits for a decision');
  await page.close();
});

test('what a button said it was doing goes when the host has answered', async () => {
  const page = await openRepair('repair=ready');
  await tid(page, 'repair-action-accept').click();
  await hostSettled(page);
  // The answer is in: "Accepting: writing the new revision…" must not stay until a timer takes it away.
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => r(undefined)))');
  assert.equal((await tid(page, 'status-line').textContent())?.trim(), '');
  await page.close();
});

test('revalidating, rejected and failed suggestions say so', async () => {
  let page = await openRepair('repair=revalidating');
  assert.equal(await tid(page, 'repair-state').textContent(), 'accepted');
  assert.equal(await tid(page, 'repair-revision').textContent(), 'revision 2 → 3');
  assert.match((await tid(page, 'repair-detail').textContent()) ?? '', /revalidating revision 3: the gold patch, the empty patch and every attempt/);
  assert.match((await tid(page, 'repair-pending').textContent()) ?? '', /appears here when the runs have finished/);
  await h.shot(page, 'revalidating');
  await page.close();

  page = await openRepair('repair=rejected');
  assert.equal(await tid(page, 'repair-state').textContent(), 'rejected');
  assert.equal(await tid(page, 'repair-note').textContent(), 'Reason: The tests were right; the request is the problem.');
  assert.match((await tid(page, 'repair-suggestion').textContent()) ?? '', /rejected by alice/);
  assert.equal(await tid(page, 'repair-matrix').count(), 0);
  assert.deepEqual(await nextRequest(page, 'requestRepair', () => tid(page, 'repair-action-request').click()), {});
  await page.close();

  page = await openRepair('repair=failed');
  assert.equal(await tid(page, 'repair-state').textContent(), 'requested');
  assert.match((await tid(page, 'repair-detail').textContent()) ?? '', /the request failed/);
  assert.match((await tid(page, 'repair-message').textContent()) ?? '', /refused the API key \(401\); run "SpecWeave: Set API Key"/);
  await h.shot(page, 'failed');
  await page.close();
  assert.deepEqual(h.errors, []);
});

test('when the revalidation finishes, the view switches to the Repair tab and shows the matrix', async () => {
  const page = await h.open({ query: 'repair=revalidating' });
  await tid(page, 'specs-tab-specs').click();
  await tid(page, 'specs').waitFor();
  // The host's update after the runs: the same task, its new revision, the repair with its matrix.
  const model = standardFixture().model;
  const done = repairFixture('revalidated', { ...model, revision: model.revision + 1 });
  await page.evaluate(`window.__fakeHost.update(${JSON.stringify({ repair: done })})`);
  await tid(page, 'repair-matrix').waitFor({ timeout: 5_000 });
  assert.equal(await tid(page, 'specs-tab-repair').getAttribute('active'), '');
  assert.equal(await tid(page, 'repair-count-fn').textContent(), 'false negatives 2 → 0');
  assert.equal(await tid(page, 'repair-revision').textContent(), 'revision 3 → 4');
  // A later update of the same task (e.g. a label) leaves the tab where the curator put it.
  await tid(page, 'specs-tab-tests').click();
  await tid(page, 'tests').waitFor();
  // The update is rendered once its notice shows; only then can the tab be checked.
  await page.evaluate(`window.__fakeHost.update({ notices: ['a label was recorded'] })`);
  await tid(page, 'notice').filter({ hasText: 'a label was recorded' }).waitFor({ timeout: 5_000 });
  assert.equal(await tid(page, 'specs-tab-tests').getAttribute('active'), '');
  await page.close();
  assert.deepEqual(h.errors, []);
});

test('a revalidation the panel has not shown opens the Repair tab once; after that the curator\'s tab stands', async () => {
  const page = await h.open({ query: 'repair=revalidated' });
  await tid(page, 'repair-matrix').waitFor();
  assert.equal(await tid(page, 'specs-tab-repair').getAttribute('active'), '');
  await tid(page, 'specs-tab-tests').click();
  await tid(page, 'tests').waitFor();
  // A hidden panel comes back as a fresh page with its saved state: the same repair does not take the tab again.
  // Reload once the page has saved the tab and the repair it has shown.
  await waitUntil(
    page,
    `(() => { const s = JSON.parse(sessionStorage.getItem('harness.webviewState') ?? '{}'); return s.specsTab === 'tests' && s.repairSeen !== undefined; })()`,
  );
  await page.reload();
  await tid(page, 'tests').waitFor({ timeout: 10_000 });
  assert.equal(await tid(page, 'specs-tab-tests').getAttribute('active'), '');
  assert.equal(await tid(page, 'repair').count(), 0);
  await page.close();
  assert.deepEqual(h.errors, []);
});

test('hostile text in the summary, rationale, note, ids and verdicts renders inert', async () => {
  const PWN = 'window.__pwned=1';
  const page = await openRepair('repair=hostile', { fixture: 'hostile' });
  await tid(page, 'repair-rationale').locator('summary').click();
  const rationale = (await tid(page, 'repair-rationale-text').textContent()) ?? '';
  assert.ok(rationale.startsWith(`<script>${PWN}</script>`), 'markup stays text, ANSI escapes are stripped');
  assert.ok(rationale.includes('<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>'));
  assert.ok(!rationale.includes('\u001b') && !rationale.includes('\u202e'), 'no escapes, no bidi override');
  assert.match((await tid(page, 'repair-summary').textContent()) ?? '', /^<b>bold<\/b> <script>window\.__pwned=1<\/script> <img src=x onerror=/);
  assert.match((await tid(page, 'repair-note').textContent()) ?? '', /^Note: <a href="javascript:window\.__pwned=1">reason<\/a>/);
  assert.match((await tid(page, 'repair-suggestion').textContent()) ?? '', /^Suggestion <script>window\.__pwned=1<\/script> · target <svg onload=window\.__pwned=1> · accepted by <img src=x onerror=window\.__pwned=1>$/);
  assert.deepEqual(await dataOf(page.locator('[data-testid="repair-row"]'), 'attempt'), ['h1', `"><img src=x onerror=${PWN}>`]);
  assert.deepEqual(await dataOf(page.locator('[data-testid="repair-spec"]'), 'spec'), [`"><svg onload=${PWN}>`, `<script>${PWN}</script>`]);
  assert.deepEqual(await page.locator('[data-testid="repair-spec"]').allTextContents(), ['"><svg onload=window.__pwned=…', '<script>window.__pwned=1</scr…'], 'long ids are cut, as text');
  // A verdict or outcome the webview does not know shows as unknown, never as the text it came with.
  const odd = cellAt(page, 'h1', `<script>${PWN}</script>`);
  assert.equal(await odd.locator('[data-testid="repair-outcomes"]').textContent(), '? → FP');
  assert.equal(await odd.locator('.repair-verdicts').textContent(), '? → pass');
  assert.equal(await odd.getAttribute('data-change'), '<i>window.__pwned=1…', 'an unknown change is cut, as text');
  assert.equal(await tid(page, 'repair-count-fp').textContent(), 'false positives 0 → 1');
  assert.equal(await tid(page, 'repair-count-fn').textContent(), 'false negatives 1 → 1');
  assert.deepEqual(await page.locator('[data-testid="repair-attempt-status"]').allTextContents(), ['<script>window.__pwned=1</scr… → passed']);
  await h.shot(page, 'hostile');
  for (const sel of ['[data-testid="repair-summary"]', '[data-testid="repair-cell"]', '[data-testid="repair-spec"]', '[data-testid="repair-ref"]']) await page.locator(sel).first().hover();
  const r = await probe(page, (g) => ({ pwned: g.__pwned, dangerous: g.__fakeHost.dangerous(), violations: g.__fakeHost.violations, invalid: g.__fakeHost.invalid }));
  assert.equal(r.pwned, undefined, 'injected script ran');
  assert.deepEqual(r.dangerous, [], 'elements or handlers created from data');
  assert.deepEqual(r.violations, [], 'CSP violations');
  assert.deepEqual(r.invalid, []);
  assert.equal(await page.evaluate(`document.querySelectorAll('#app svg, #app img, #app iframe, #app a, #app b').length`), 0);
  assert.deepEqual(
    h.server.requests.filter((p) => !/^\/(\?fixture=\w+&theme=\w+(&[\w=&.]+)?|harness\/fakeHost\.js|harness\/theme-(dark|light|hc)\.css|dist\/webview\.(js|css)(\.map)?|favicon\.ico)$/.test(p)),
    [],
    'requests named by data',
  );
  await page.close();
  assert.deepEqual(h.errors, []);
});

test('a big matrix (10 attempts x 40 specs) stays within the DOM budget until "show all"', async () => {
  const page = await openRepair('attempts=10&steps=200&specs=40&tests=60&repair=sized', { fixture: 'scale' });
  const n = await probe(page, (g) => g.__fakeHost.countElements());
  assert.ok(n < 2000, `${n} elements`);
  assert.equal(await page.locator('[data-testid="repair-row"]').count(), 4, 'four rows of 40 cells first');
  assert.equal(await tid(page, 'repair-count-fn').textContent(), 'false negatives 200 → 0', 'counted over every cell, shown or not');
  await h.shot(page, 'big');
  await tid(page, 'repair-show-all').click();
  assert.equal(await page.locator('[data-testid="repair-row"]').count(), 10);
  assert.equal(await page.locator('[data-testid="repair-cell"]').count(), 400);
  await page.close();
  assert.deepEqual(h.errors, []);
});

test('fresh trials: rows of their own marked "fresh", nothing before them, counted apart, their text inert', async () => {
  const PWN = 'window.__pwned=1';
  const page = await openRepair('repair=fresh');
  const fresh = page.locator('[data-testid="repair-row"][data-fresh="true"]');
  await fresh.first().waitFor();
  const evil = `trial-"><img src=x onerror=${PWN}>`;
  const first = 'trial-gpt-4o-mini-20261202T061500-ab12cd';
  // The re-run attempts first, then the fresh trials, each with its badge.
  assert.deepEqual(await dataOf(page.locator('[data-testid="repair-row"]'), 'attempt'), ['a1', 'a2', 'a3', first, evil]);
  assert.deepEqual(await dataOf(fresh, 'attempt'), [first, evil]);
  assert.deepEqual(await fresh.locator('[data-testid="repair-fresh-badge"]').allTextContents(), ['fresh', 'fresh']);
  assert.equal(await page.locator('[data-testid="repair-row"]:not([data-fresh]) [data-testid="repair-fresh-badge"]').count(), 0);
  // Verdict after, "—" before; no gone/appeared marks in a fresh row.
  const fp = cellAt(page, first, 'S4');
  assert.equal(await fp.locator('[data-testid="repair-outcomes"]').textContent(), '— → FP');
  assert.equal(await fp.locator('.repair-verdicts').textContent(), '— → pass');
  assert.equal(await fresh.locator('[data-testid="repair-mark"]').count(), 0);
  assert.equal(await cellAt(page, first, 'S1').locator('[data-testid="repair-outcomes"]').textContent(), '— → TP');
  assert.deepEqual(await fresh.locator('[data-testid="repair-attempt-status"]').allTextContents(), ['— → passed', '— → <script>window.__pwned=1</scr…']);
  // The comparison is of the re-run attempts only: the fresh false positive is not "appeared".
  assert.equal(await tid(page, 'repair-count-fp').textContent(), 'false positives 1 → 1');
  assert.deepEqual(await dataOf(page.locator('[data-testid="repair-appeared"] [data-testid="repair-ref"]'), 'attempt'), ['a2']);
  const summary = tid(page, 'repair-fresh');
  assert.match((await summary.textContent()) ?? '', /^\s*Fresh trials: 3 on the new revision \(not run before, not counted above\): 1 passed the verifier; false positives 1, false negatives 0/);
  assert.deepEqual(await page.locator('[data-testid="repair-fresh-trial"]').allTextContents(), [
    `${first} · gpt-4o-mini · Submitted · verifier passed`,
    `${evil} · <svg onload=${PWN}> · LimitsExceeded · verifier failed`,
    `(no attempt) · gpt-4o-mini · the endpoint said <img src=x onerror=${PWN}>`,
  ]);
  assert.match((await tid(page, 'repair-fresh-missing').textContent()) ?? '', /^1 trial\(s\) did not land as an attempt$/);
  await h.shot(page, 'fresh');
  await page.locator('[data-testid="repair-row"][data-fresh="true"] th').last().hover();
  const r = await probe(page, (g) => ({ pwned: g.__pwned, dangerous: g.__fakeHost.dangerous(), violations: g.__fakeHost.violations }));
  assert.equal(r.pwned, undefined, 'injected script ran');
  assert.deepEqual(r.dangerous, [], 'elements or handlers created from data');
  assert.deepEqual(r.violations, [], 'CSP violations');
  assert.equal(await page.evaluate(`document.querySelectorAll('#app svg, #app img, #app script').length`), 0);
  await page.close();
  assert.deepEqual(h.errors, []);
});
