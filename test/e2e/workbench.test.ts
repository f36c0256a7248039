// The review workbench clicked in a real workbench, on the packaged .vsix: open the example dataset from the welcome
// view, open a task, read its request, specs and attempts, open an attempt's diff, search the trajectories and jump
// to a hit; then a dataset full of HTML, script, escapes and binary bytes, in Restricted Mode, renders as inert text.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import { projectRoot } from '../vscode/harness/codeServer';
import { pickFolder } from './folderPicker';
import { attemptColumn, attemptShown, openActivity, openWorkbench, quickInput, runCommand, treeRows, webviewFrame } from './harness';
import type { Workbench } from './harness';

/** A copy of examples/ (dataset, repository sources and build script) with the repository built in it. */
function exampleCopy(): string {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'sw-e2e-ex-')), 'examples');
  cpSync(path.join(projectRoot, 'examples'), dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}repos${path.sep}`) });
  execFileSync('sh', [path.join(dir, 'build-repos.sh')], { stdio: 'pipe' });
  return dir;
}

/** Adds attempt a2 to the hostile dataset's task: a trajectory with a 10 MB observation (too big to commit). */
function addHugeAttempt(dataset: string): void {
  const dir = path.join(dataset, 'tasks/evil/attempts/a2');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'attempt.json'), JSON.stringify({ model: 'huge-model', agent: 'swe-agent', trajectory: 'huge.traj' }));
  writeFileSync(path.join(dir, 'patch.diff'), 'diff --git a/evil.py b/evil.py\n--- a/evil.py\n+++ b/evil.py\n@@ -1 +1 @@\n-x\n+y\n');
  const big = `<script>window.__specweavePwned='huge'</script>\u001b[31m${'Z'.repeat(10 * 1024 * 1024)} needle-huge-end`;
  writeFileSync(path.join(dir, 'huge.traj'), JSON.stringify({ trajectory: [{ thought: 'read a huge file', action: 'cat huge.log', observation: big }], history: [], info: {} }));
}

async function shot(wb: Workbench, name: string): Promise<void> {
  await wb.screenshot(name);
}

function editorTab(page: Page, text: string | RegExp) {
  return page.locator('.tabs-container .tab', { hasText: text }).first();
}

/**
 * Elements and attributes that would mean hostile text became markup, counted through open shadow roots, and the
 * global the hostile scripts would set. A string, not a function: the test transpiler would add helpers to a function
 * that do not exist in the page.
 */
const MARKUP_PROBE = `(() => {
  const tags = {};
  const handlers = [];
  const walk = (root) => {
    for (const el of Array.from(root.querySelectorAll('*'))) {
      const tag = el.tagName.toLowerCase();
      if (['img', 'script', 'iframe', 'svg', 'object', 'embed', 'a', 'form', 'style', 'link'].includes(tag)) tags[tag] = (tags[tag] || 0) + 1;
      for (const a of Array.from(el.attributes)) if (/^on/i.test(a.name)) handlers.push(tag + '[' + a.name + ']');
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  const scripts = Array.from(document.scripts).map((x) => (x.src ? 'src:' + x.src.replace(/^.*\\/(dist\\/[^/?#]+).*$/, '$1') : 'inline:' + x.textContent.length + ':' + x.textContent.slice(0, 60)));
  return { tags, handlers, scripts, pwned: window.__specweavePwned, nodes: document.querySelectorAll('*').length };
})()`;

interface Probe {
  tags: Record<string, number>;
  handlers: string[];
  /** Each script element: `src:dist/...` for a linked bundle, else `inline:`, its length, `:` and its first characters. */
  scripts: string[];
  pwned: unknown;
  nodes: number;
}

/**
 * The only scripts are the bundle (linked, or carried inline with the nonce: exactly the installed dist/webview.js),
 * the page's first script when it has one (exactly dist/firstPaint.js), and the one VS Code itself puts in every
 * webview (acquireVsCodeApi).
 */
function assertOnlyOwnScripts(p: Probe, wb: Workbench): void {
  const inline = (text: string) => `inline:${text.length}:${text.slice(0, 60)}`;
  const bundle = inline(installedFile(wb, 'dist/webview.js'));
  const first = inline(installedFile(wb, 'dist/firstPaint.js'));
  const isBundle = (sc: string): boolean => sc === 'src:dist/webview.js' || sc === bundle;
  const foreign = p.scripts.filter((sc) => !isBundle(sc) && sc !== first && !/^inline:\d+:\s*globalThis\.acquireVsCodeApi = /.test(sc));
  assert.deepEqual(foreign, [], 'no script but the bundle, the first script and VS Code\'s own');
  assert.equal(p.scripts.filter(isBundle).length, 1, `the bundle once: ${p.scripts.map((sc) => sc.slice(0, 80)).join(' | ')}`);
  assert.ok(p.scripts.filter((sc) => sc === first).length <= 1, 'the first script at most once');
}

/** A file of the extension as installed into the workbench (e.g. dist/webview.js). */
function installedFile(wb: Workbench, file: string): string {
  const dirs = readdirSync(wb.extensionsDir).filter((d) => existsSync(path.join(wb.extensionsDir, d, file)));
  assert.equal(dirs.length, 1, `one installed extension with ${file} in ${wb.extensionsDir}: ${dirs.join(', ')}`);
  return readFileSync(path.join(wb.extensionsDir, dirs[0]!, file), 'utf8');
}

async function markupFound(frame: FrameLocator): Promise<Probe> {
  const f = await frame.locator('body').elementHandle();
  const ownerFrame = await f?.ownerFrame();
  if (!ownerFrame) throw new Error('no webview frame');
  return (await ownerFrame.evaluate(MARKUP_PROBE)) as Probe;
}

describe('review workbench on the example dataset', { timeout: 300_000 }, () => {
  let wb: Workbench | undefined;
  let examples = '';

  before(async () => {
    examples = exampleCopy();
    wb = await openWorkbench({ testName: 'workbench' });
  });

  after(async () => {
    await wb?.close();
    if (examples) rmSync(path.dirname(examples), { recursive: true, force: true });
  });

  it('opens the example dataset from the welcome view', async () => {
    assert.ok(wb);
    const { page } = wb;
    await openActivity(page, 'SpecWeave');
    const open = page.locator('.welcome-view-content .monaco-button', { hasText: 'Open Dataset' });
    await open.waitFor({ timeout: 30_000 });
    await shot(wb, 'welcome');
    await open.click();
    // code-server's own folder picker: a quick input holding a path.
    await pickFolder(page, path.join(examples, 'dataset'));
    try {
      for (const id of ['format-precision', 'fractional-units', 'total-command']) await treeRows(page, id).first().waitFor({ timeout: 30_000 });
    } catch (e) {
      // Say what the window shows instead: a notification, or the welcome view still asking for a dataset.
      await shot(wb, 'no-rows');
      const notes = await page.locator('.notification-list-item-message').allInnerTexts().catch(() => []);
      const welcome = await page.locator('.welcome-view-content').allInnerTexts().catch(() => []);
      throw new Error(`no task rows after picking the dataset; notifications: ${JSON.stringify(notes)}; welcome view: ${JSON.stringify(welcome)}; ${String(e)}`);
    }
    const row = treeRows(page, 'format-precision').first();
    assert.match(await row.innerText(), /candidate · \d+ specs · \d+ tests · 3 attempts/);
    await shot(wb, 'candidates');
  });

  it('opens a task and shows its request, specs and attempts side by side', async () => {
    assert.ok(wb);
    const { page } = wb;
    await treeRows(page, 'format-precision').first().click();
    const view = webviewFrame(page, 'panel');
    const request = view.locator('[data-testid="region-request"]');
    await request.waitFor({ timeout: 30_000 });
    await view.getByText('Round formatted durations to a coarser unit', { exact: false }).first().waitFor();
    assert.match(await request.innerText(), /In our weekly reports/);
    const specs = view.locator('[data-testid="spec"]');
    assert.ok((await specs.count()) >= 5, 'specs listed');
    assert.match(await view.locator('[data-testid="region-specs"]').innerText(), /A1[\s\S]*format_duration\(seconds, precision="m"\)/);
    for (const c of ['gold', 'sweagent-gpt-4o', 'mini-gpt-5-mini', 'openhands-claude-3-5-sonnet']) {
      await attemptShown(view, c).first().waitFor();
    }
    await shot(wb, 'task-view');
  });

  it('opens an attempt\'s diff in the native diff editor', async () => {
    assert.ok(wb);
    const { page } = wb;
    const view = webviewFrame(page, 'panel');
    const column = await attemptColumn(view, 'sweagent-gpt-4o');
    await column.locator('[data-testid="file-row"]', { hasText: 'format.py' }).first().click();
    const tab = editorTab(page, /format\.py \(base ↔ sweagent-gpt-4o\)/);
    await tab.waitFor({ timeout: 20_000 });
    const diff = page.locator('.monaco-diff-editor').first();
    await diff.waitFor();
    await page.locator('.monaco-diff-editor .modified .view-line', { hasText: 'precision' }).first().waitFor({ timeout: 15_000 });
    await shot(wb, 'attempt-diff');
  });

  it('searches all trajectories and jumps to a hit', async () => {
    assert.ok(wb);
    const { page } = wb;
    await editorTab(page, 'format-precision').click();
    const view = webviewFrame(page, 'panel');
    const box = view.locator('[data-testid="search-box"] input');
    await box.waitFor({ timeout: 20_000 });
    await box.fill('pytest');
    const counter = view.locator('[data-testid="hit-counter"]');
    await counter.filter({ hasText: /[1-9]/ }).waitFor({ timeout: 30_000 });
    await shot(wb, 'search-hits');
    await view.locator('[data-testid="next-hit"]').click();
    const mark = view.locator('[data-testid="step-detail"] [data-testid="hit-mark"]').first();
    await mark.waitFor({ timeout: 20_000 });
    assert.match(await mark.innerText(), /pytest/i);
    assert.ok((await view.locator('[data-testid="step-row"].selected').count()) === 1, 'the hit\'s step is selected in the list');
    await shot(wb, 'jumped-to-hit');
  });
  it('searches every task\'s trajectories from the command palette and opens a hit at its step', async () => {
    assert.ok(wb);
    const { page } = wb;
    await runCommand(page, 'SpecWeave: Search Trajectories in Dataset');
    await quickInput(page).fill('precision');
    const hit = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: /step \d+ · \w+/ });
    await hit.first().waitFor({ timeout: 30_000 });
    // The title counts the matches and says every trajectory was searched.
    await page.locator('.quick-input-widget', { hasText: /\d+ match(es)?( \(\d+ listed\))? in \d+ tasks? · (\d+) of \3 trajectories/ }).waitFor({ timeout: 30_000 });
    await shot(wb, 'dataset-search');
    const text = await hit.first().innerText();
    const step = /step (\d+) ·/.exec(text)?.[1];
    assert.ok(step, text);
    await hit.first().click();
    const view = webviewFrame(page, 'panel');
    await view.locator('[data-testid="step-detail-header"]', { hasText: new RegExp(`Step ${step}\\b`) }).waitFor({ timeout: 30_000 });
    await view.locator(`[data-testid="step-row"][data-step="${step}"].selected`).waitFor();
    await shot(wb, 'dataset-search-opened');
  });

  it('moves to the next and previous task in the same panel', async () => {
    assert.ok(wb);
    const { page } = wb;
    const view = webviewFrame(page, 'panel');
    await view.locator('[data-testid="next-task"]').click();
    await view.locator('[data-testid="task-id"]', { hasText: 'fractional-units' }).waitFor({ timeout: 20_000 });
    await attemptShown(view, 'mini-gpt-5').first().waitFor();
    assert.equal(await attemptShown(view, 'sweagent-gpt-4o').count(), 0, 'nothing of the previous task is left');
    await editorTab(page, 'fractional-units').waitFor();
    await shot(wb, 'next-task');
    await view.locator('[data-testid="prev-task"]').click();
    await view.locator('[data-testid="task-id"]', { hasText: 'format-precision' }).waitFor({ timeout: 20_000 });
    await attemptShown(view, 'sweagent-gpt-4o').first().waitFor();
  });

  it('comes back after a window reload: the task panel and the Candidates filter', async () => {
    assert.ok(wb);
    const { page } = wb;
    await runCommand(page, 'SpecWeave: Filter Candidates by Text');
    const box = page.locator('.quick-input-widget input');
    await box.waitFor();
    await box.fill('precision');
    await box.press('Enter');
    await treeRows(page, 'total-command').first().waitFor({ state: 'detached' });
    await runCommand(page, 'Developer: Reload Window');
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    const view = webviewFrame(page, 'panel');
    try {
      await view.locator('[data-testid="task-title"]', { hasText: 'Round formatted durations' }).waitFor({ timeout: 60_000 });
    } catch (e) {
      await shot(wb, 'no-panel-after-reload');
      const notes = await page.locator('.notification-list-item-message').allInnerTexts().catch(() => []);
      const tabs = await page.locator('.tabs-container .tab').allInnerTexts().catch(() => []);
      throw new Error(`the task panel did not come back after the reload; tabs: ${JSON.stringify(tabs)}; notifications: ${JSON.stringify(notes)}; ${String(e)}`);
    }
    await attemptShown(view, 'sweagent-gpt-4o').first().waitFor();
    await openActivity(page, 'SpecWeave');
    await treeRows(page, 'format-precision').first().waitFor({ timeout: 30_000 });
    assert.equal(await treeRows(page, 'total-command').count(), 0, 'the text filter is still on');
    await shot(wb, 'after-reload');
    await runCommand(page, 'SpecWeave: Clear Candidate Filters');
    await treeRows(page, 'total-command').first().waitFor();
  });

  it('pops the specs area out into a tab of its own beside the task, and a window reload brings it back as it was', async () => {
    assert.ok(wb);
    const { page } = wb;
    await editorTab(page, 'format-precision').click();
    const view = webviewFrame(page, 'panel');
    await view.locator('[data-testid="specs-tab-tests"]').click();
    await view.locator('[data-testid="popout-specs"]').click();
    const tab = editorTab(page, 'format-precision · Tests');
    await tab.waitFor({ timeout: 30_000 });
    await poppedOut(page, 'specs');
    await shot(wb, 'specs-popped-out');
    await runCommand(page, 'Developer: Reload Window');
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await editorTab(page, 'format-precision · Tests').waitFor({ timeout: 60_000 });
    await editorTab(page, 'format-precision · Tests').click();
    const frame = await poppedOut(page, 'specs');
    // Back on the tab it showed, alone in its page.
    await frame.locator('[data-testid="tests"]', { hasText: 'test_precision_rounds_half_up' }).first().waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator('.region-maximize').count(), 0);
    await shot(wb, 'specs-popped-out-after-reload');
  });
});

/** The frame of a popped-out region's page (its #app says which region it shows), once it has painted. */
async function poppedOut(page: Page, region: string): Promise<Frame> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    for (const f of page.frames()) {
      const found = await f.evaluate(`!!document.querySelector('#app[data-popout="${region}"] [data-testid="task-title"]')`).catch(() => false);
      if (found) return f;
    }
    if (Date.now() > deadline) throw new Error(`no popped-out ${region} page among ${page.frames().length} frames`);
    await page.waitForFunction('true', undefined, { polling: 'raf' }).catch(() => undefined);
  }
}

describe('hostile dataset in Restricted Mode renders as text', { timeout: 300_000 }, () => {
  let wb: Workbench | undefined;

  before(async () => {
    wb = await openWorkbench({
      testName: 'workbench-hostile',
      workspace: path.join(projectRoot, 'test/fixtures/datasets/hostile'),
      trusted: false,
      prepareWorkspace: addHugeAttempt,
    });
  });

  after(async () => {
    await wb?.close();
  });

  it('shows the task with every trick as inert text, and says why running code is off', async () => {
    assert.ok(wb);
    const { page } = wb;
    await openActivity(page, 'SpecWeave');
    const row = treeRows(page, 'evil').first();
    await row.waitFor({ timeout: 30_000 });
    await shot(wb, 'hostile-candidates');
    await row.click();
    const view = webviewFrame(page, 'panel');
    const request = view.locator('[data-testid="region-request"]');
    await request.waitFor({ timeout: 30_000 });
    await view.locator('[data-testid="untrusted-banner"]').waitFor();
    assert.match(await view.locator('[data-testid="untrusted-banner"]').innerText(), /Restricted Mode/);
    const text = await request.innerText();
    assert.ok(text.includes("<script>window.__specweavePwned='request'</script>"), 'script shown as text');
    assert.ok(text.includes(`<img src=x onerror="window.__specweavePwned='img'">`), 'img shown as text');
    assert.ok(text.includes('<iframe'), 'iframe shown as text');
    assert.ok(!text.includes(String.fromCharCode(27)), "no escape character");
    assert.match(await view.locator('[data-testid="task-title"]').innerText(), /Evil <img src=x onerror=/);
    await view.locator('[data-testid="notice"]', { hasText: 'clone repos/evil is missing' }).waitFor();
    const found = await markupFound(view);
    assert.equal(found.pwned, undefined, 'no hostile script ran');
    assert.deepEqual(found.handlers, [], 'no inline event handler attribute anywhere');
    assert.equal(found.tags.img ?? 0, 0);
    assert.equal(found.tags.iframe ?? 0, 0);
    assertOnlyOwnScripts(found, wb);
    assert.equal(found.tags.a ?? 0, 0, 'links are never anchors');
    await shot(wb, 'hostile-task');
  });

  it('shows hostile trajectory steps, a 10 MB step and a 100,000-character line as text, and finds text in them', async () => {
    assert.ok(wb);
    const { page } = wb;
    const view = webviewFrame(page, 'panel');
    const box = view.locator('[data-testid="search-box"] input');
    await box.fill('needle-hostile');
    await view.locator('[data-testid="hit-counter"]').filter({ hasText: /[1-9]/ }).waitFor({ timeout: 30_000 });
    await view.locator('[data-testid="next-hit"]').click();
    const detail = view.locator('[data-testid="step-detail"]');
    await detail.locator('[data-testid="hit-mark"]').first().waitFor({ timeout: 20_000 });
    const detailText = await detail.innerText();
    assert.ok(!detailText.includes(String.fromCharCode(27)) && !detailText.includes("[1;34m"), "ANSI escapes removed");
    await shot(wb, 'hostile-hit');
    // Clear first, so the counter cannot still show the last search's hit when we jump.
    await box.fill('');
    await view.locator('[data-testid="hit-counter"]').filter({ hasText: /[1-9]/ }).waitFor({ state: 'detached', timeout: 10_000 });
    await box.fill('needle-huge-end');
    await view.locator('[data-testid="hit-counter"]').filter({ hasText: /[1-9]/ }).waitFor({ timeout: 30_000 });
    await view.locator('[data-testid="next-hit"]').click();
    // The hit is 10 MB into the observation of attempt a2: the view fetches a slice around it and marks it.
    await detail.locator('[data-testid="hit-mark"]', { hasText: 'needle-huge-end' }).waitFor({ timeout: 30_000 });
    assert.match(await detail.locator('[data-testid="step-detail-header"]').innerText(), /observation[\s\S]*Step 2/);
    await shot(wb, 'huge-step');
    const found = await markupFound(view);
    assert.equal(found.pwned, undefined);
    assert.equal(found.tags.img ?? 0, 0);
    assertOnlyOwnScripts(found, wb);
    assert.deepEqual(found.handlers, []);
    assert.ok(found.nodes < 5000, `${found.nodes} DOM nodes`);
  });
});

