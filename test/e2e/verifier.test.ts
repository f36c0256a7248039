// The verifier clicked in a real workbench, on the packaged .vsix, against the real engine: the example's
// false-positive task (format-precision) opened, "Run Verifier on All Attempts" from the Candidates tree's context
// menu, the progress notification and the status bar item while the queue runs, the result matrices appearing in the
// open task view (the empty patch passing the weak test TA7, the oracle flags), a result cell opening the run's log at
// the test, and the live log in the "SpecWeave Verifier" output channel.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { projectRoot } from '../vscode/harness/codeServer';
import { attemptColumn, notifications, openActivity, openWorkbench, runCommand, treeRows, webviewFrame } from './harness';
import type { Workbench } from './harness';

const TASK = 'format-precision';
const FP_ATTEMPT = 'sweagent-gpt-4o';
const TA1 = 'tests/test_format.py::test_precision_rounds_half_up';

/** A copy of examples/ (dataset, repository sources, build script) with the repository built in it. */
function exampleCopy(top: string): string {
  const dir = path.join(top, 'examples');
  fs.cpSync(path.join(projectRoot, 'examples'), dir, {
    recursive: true,
    filter: (src) => !/[\\/](repos|runs|curation)([\\/]|$)/.test(path.relative(projectRoot, src)),
  });
  execFileSync('sh', [path.join(dir, 'build-repos.sh')], { stdio: 'pipe' });
  return dir;
}

function statusItem(page: Page) {
  return page.locator('.statusbar-item', { hasText: /Verifier/ }).first();
}

describe('verifier in the workbench', { timeout: 600_000 }, () => {
  let wb: Workbench | undefined;
  let top = '';
  let examples = '';

  before(async () => {
    top = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-e2e-verifier-'));
    examples = exampleCopy(top);
    wb = await openWorkbench({ testName: 'verifier', workspace: examples, inPlace: true });
  });

  after(async () => {
    await wb?.close();
    if (top) fs.rmSync(top, { recursive: true, force: true });
  });

  it('runs the verifier on every attempt of the false-positive task from the Candidates tree, with progress and a queue status', async () => {
    assert.ok(wb);
    const { page } = wb;
    await openActivity(page, 'SpecWeave');
    const row = treeRows(page, TASK).first();
    await row.waitFor({ timeout: 60_000 });
    await row.click();
    const view = webviewFrame(page, 'panel');
    await view.locator('[data-testid="region-specs"]').waitFor({ timeout: 30_000 });
    assert.equal(await view.locator('[data-testid="specs-tab-results"]').count(), 0, 'no results before a run');
    await wb.screenshot('task-before-run');

    await row.click({ button: 'right' });
    const item = page.locator('.monaco-menu .action-item', { hasText: 'Run Verifier on All Attempts' }).first();
    await item.waitFor({ timeout: 15_000 });
    await wb.screenshot('context-menu');
    await item.click();

    // The progress toast: the one with a Cancel button (a finished batch's toast names the task too).
    const toast = notifications(page, `Verifier: ${TASK}`).filter({ has: page.locator('.monaco-button', { hasText: 'Cancel' }) }).first();
    await toast.waitFor({ timeout: 15_000 });
    const bar = statusItem(page);
    await bar.waitFor({ timeout: 15_000 });
    // Catch the queue at work (five runs of a few seconds each) if the machine is not too quick for it.
    await bar.filter({ hasText: /running|queued/ }).waitFor({ timeout: 10_000 }).catch(() => undefined);
    await wb.screenshot('running');
    await bar.filter({ hasText: /Verifier: 5 done/ }).waitFor({ timeout: 240_000 });
    await notifications(page, /Verifier: format-precision: .*passed/).first().waitFor({ timeout: 30_000 });
    await wb.screenshot('finished');
    assert.match(await bar.innerText(), /Verifier: 5 done/);
  });

  it('shows the test x attempt and spec x attempt matrices with the oracle flags in the task view', async () => {
    assert.ok(wb);
    const { page } = wb;
    const view = webviewFrame(page, 'panel');
    const tab = view.locator('[data-testid="specs-tab-results"]');
    await tab.waitFor({ timeout: 30_000 });
    await tab.click();
    const tests = view.locator('[data-testid="results-tests"]');
    await tests.waitFor();
    const cell = (row: string, column: string) => tests.locator(`[data-testid="result-cell"][data-row="${row}"][data-column="${column}"]`);
    assert.equal(await cell('TA1', 'empty').innerText(), 'FAILED');
    assert.equal(await cell('TA1', 'gold').innerText(), 'PASSED');
    assert.equal(await cell('TA1', FP_ATTEMPT).innerText(), 'PASSED', 'the false positive passes the one rounding test');
    assert.equal(await cell('TA7', 'empty').innerText(), 'PASSED', 'the weak test passes without any patch');
    assert.equal(await cell('TA6', 'openhands-claude-3-5-sonnet').innerText(), 'FAILED');
    const specs = view.locator('[data-testid="results-specs"]');
    assert.equal(await specs.locator(`[data-testid="result-cell"][data-row="A2"][data-column="${FP_ATTEMPT}"]`).innerText(), 'pass');
    const flags = await view.locator('[data-testid="result-flags"]').innerText();
    assert.match(flags, /empty_passes_fail_to_pass: FAIL_TO_PASS test tests\/test_cli\.py::test_invalid_precision_is_usage_error passes without any patch/);
    assert.match(flags, new RegExp(`${FP_ATTEMPT}: attempt_suspect_false_positive`));
    assert.equal(await view.locator('[data-testid="result-stale"]').count(), 0);
    assert.match(await (await attemptColumn(view, FP_ATTEMPT)).locator('[data-testid="column-verdict"]').innerText(), /resolved \(verifier\)/);
    await wb.screenshot('results');
  });

  it('opens the run log at the test when a result cell is clicked', async () => {
    assert.ok(wb);
    const { page } = wb;
    const view = webviewFrame(page, 'panel');
    await view.locator(`[data-testid="results-tests"] [data-testid="result-cell"][data-row="TA1"][data-column="${FP_ATTEMPT}"]`).click();
    const status = view.locator('[data-testid="status-line"]');
    await status.filter({ hasText: `Opened the log of ${FP_ATTEMPT} at ${TA1}` }).waitFor({ timeout: 20_000 });
    const line = Number(/\(line (\d+)\)/.exec(await status.innerText())?.[1]);
    assert.ok(line > 1, `revealed at line ${line}`);
    await page.locator('.tabs-container .tab', { hasText: `${FP_ATTEMPT}.log` }).first().waitFor({ timeout: 20_000 });
    const editor = page.locator('.editor-instance .monaco-editor').filter({ has: page.locator('.view-line', { hasText: `PASSED ${TA1}` }) }).first();
    await editor.waitFor({ timeout: 20_000 });
    // The cursor sits on the test's result line.
    await page.locator('.statusbar-item', { hasText: new RegExp(`Ln ${line},`) }).first().waitFor({ timeout: 10_000 });
    await wb.screenshot('run-log-at-test');
  });

  it('keeps a live log of the runs in the "SpecWeave Verifier" output channel', async () => {
    assert.ok(wb);
    const { page } = wb;
    await runCommand(page, 'SpecWeave: Show Verifier Log');
    const out = page.locator('.part.panel .monaco-editor').first();
    await out.waitFor({ timeout: 20_000 });
    const lines = out.locator('.view-lines');
    await out.click();
    await page.keyboard.press('Control+End');
    await lines.filter({ hasText: `Verifier: ${TASK}: ` }).waitFor({ timeout: 20_000 });
    await wb.screenshot('verifier-log-end');
    await page.keyboard.press('Control+Home');
    await lines.filter({ hasText: 'run(s) queued on unix:///var/run/docker.sock' }).waitFor({ timeout: 10_000 });
    const top = (await lines.innerText()).replace(/\u00a0/g, " ");
    assert.match(top, new RegExp(`▶ ${TASK} gold patch: started`));
    assert.match(top, new RegExp(`${TASK}/(gold|empty) \\| `), "the tests' output as it arrives");
    await wb.screenshot('verifier-log');
  });

  it('cancels the runs of a batch from its progress notification', async () => {
    assert.ok(wb);
    const { page } = wb;
    // Runs that last until they are cancelled, so the batch is still running when Cancel is clicked however slow the
    // machine: the task's verifier now sleeps before its tests (a curator's edit of task.json). The edit also makes
    // the stored runs stale, so nothing is reused; the open task view marks them stale once the extension has read
    // the new definition, and only then is the batch started.
    const file = path.join(examples, 'dataset', 'tasks', TASK, 'task.json');
    const task = JSON.parse(fs.readFileSync(file, 'utf8')) as { verifier: { command: string } };
    task.verifier.command = `sleep 240; ${task.verifier.command}`;
    fs.writeFileSync(file, `${JSON.stringify(task, null, 2)}\n`);
    const view = webviewFrame(page, 'panel');
    await view.locator('[data-testid="result-stale"]').first().waitFor({ timeout: 30_000 });
    // The earlier runs' notifications would stack over the progress toast and its Cancel button.
    await runCommand(page, 'Notifications: Clear All Notifications');
    await page.locator('.tabs-container .tab', { hasText: TASK }).first().click();
    await runCommand(page, 'SpecWeave: Run Verifier on All Attempts');
    // The progress toast: the one with a Cancel button (a finished batch's toast names the task too).
    const toast = notifications(page, `Verifier: ${TASK}`).filter({ has: page.locator('.monaco-button', { hasText: 'Cancel' }) }).first();
    await toast.waitFor({ timeout: 15_000 });
    await statusItem(page).filter({ hasText: /running/ }).waitFor({ timeout: 20_000 });
    await wb.screenshot('before-cancel');
    await toast.locator('.monaco-button', { hasText: 'Cancel' }).click();
    await statusItem(page).filter({ hasText: /cancelled/ }).waitFor({ timeout: 30_000 });
    await notifications(page, /Verifier: format-precision: .*cancelled/).first().waitFor({ timeout: 30_000 });
    await wb.screenshot('cancelled');
  });
});
