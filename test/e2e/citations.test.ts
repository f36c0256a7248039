// A curator's pass over one example task with evidence cited where it lives, in a real workbench on the packaged
// .vsix: the attempt's diff opened from the task view, a gutter comment on a changed line with the curator's words
// and Cite, the thread saying which pair it joined, the task view's draft holding the hunk and the words, the verdict
// recorded with them (in curation/events.jsonl), the recorded citation shown back on the diff line; then a step of
// the trajectory cited from its detail, and the viewed mark on the file. Screenshots of every step are kept.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { projectRoot } from '../vscode/harness/codeServer';
import { attemptColumn, openActivity, runCommand, treeRows, webviewFrame } from './harness';
import type { Workbench } from './harness';
import { openWorkbench } from './harness';

const CURATOR = 'Cite Curator';
const TASK = 'format-precision';
const ATTEMPT = 'sweagent-gpt-4o';

function exampleCopy(top: string): string {
  const dir = path.join(top, 'examples');
  fs.cpSync(path.join(projectRoot, 'examples'), dir, { recursive: true, filter: (src) => !/[\\/](repos|runs|curation)([\\/]|$)/.test(path.relative(projectRoot, src)) });
  execFileSync('sh', [path.join(dir, 'build-repos.sh')], { stdio: 'pipe' });
  return dir;
}

interface LoggedEvent {
  kind: string;
  curator: string;
  task: string;
  payload: { attempt?: string; spec?: string; verdict?: string; note?: string; evidence?: unknown[] };
}

function labels(dataset: string): LoggedEvent[] {
  const f = path.join(dataset, 'curation/events.jsonl');
  if (!fs.existsSync(f)) return [];
  return fs
    .readFileSync(f, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as LoggedEvent)
    .filter((e) => e.kind === 'label');
}

describe('citing evidence where it lives', { timeout: 300_000 }, () => {
  let wb: Workbench | undefined;
  let top = '';
  let dataset = '';
  let view: FrameLocator;

  before(async () => {
    top = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-e2e-cite-'));
    const examples = exampleCopy(top);
    dataset = path.join(examples, 'dataset');
    wb = await openWorkbench({ testName: 'citations', workspace: examples, inPlace: true, settings: { 'specweave.curator.name': CURATOR } });
  });

  after(async () => {
    await wb?.close();
    if (top) fs.rmSync(top, { recursive: true, force: true });
  });

  it("opens the task's review and the attempt's diff beside it", async () => {
    assert.ok(wb);
    const { page } = wb;
    await openActivity(page, 'SpecWeave');
    await treeRows(page, TASK).first().click({ timeout: 60_000 });
    view = webviewFrame(page, 'panel');
    await view.locator('[data-testid="specs-tab-review"]').click({ timeout: 30_000 });
    await view.locator('[data-testid="review-grid"]').waitFor();
    // The pair to cite on: the attempt's first spec.
    await view.locator(`[data-testid="review-cell"][data-attempt="${ATTEMPT}"]`).first().click();
    await view.locator(`[data-testid="review-pair"][data-attempt="${ATTEMPT}"]`).waitFor();
    await (await attemptColumn(view, ATTEMPT)).locator('[data-testid="file-row"]', { hasText: 'format.py' }).first().click();
    await page.locator('.tabs-container .tab', { hasText: new RegExp(`format\\.py \\(base ↔ ${ATTEMPT}\\)`) }).first().waitFor({ timeout: 20_000 });
    await page.locator('.monaco-diff-editor .modified .view-line', { hasText: 'precision' }).first().waitFor({ timeout: 15_000 });
    await wb.screenshot('diff-beside-review');
  });

  it("comments on a changed line and cites it: the thread names the pair, the draft holds the hunk and the words", async () => {
    assert.ok(wb);
    const { page } = wb;
    // The cursor on a changed line of the attempt's side, then the workbench's own Add Comment.
    await page.locator('.monaco-diff-editor .modified .view-line', { hasText: 'precision' }).first().click();
    await runCommand(page, 'Comments: Add Comment on Current Selection');
    const widget = page.locator('.review-widget').last();
    await widget.waitFor({ timeout: 15_000 });
    // A new thread opens with its input focused, the controller's prompt as the placeholder.
    await widget.locator('.comment-form .monaco-editor.focused').waitFor({ timeout: 10_000 });
    await page.keyboard.type('rounds instead of truncating');
    await wb.screenshot('comment-typed');
    await page.locator('.monaco-button', { hasText: /^Cite$/ }).first().click();
    const label = page.locator('.review-widget', { hasText: new RegExp(`Cited on ${ATTEMPT} × `) }).first();
    await label.waitFor({ timeout: 20_000 });
    const spec = new RegExp(`Cited on ${ATTEMPT} × (\\S+):`).exec((await label.textContent()) ?? '')?.[1];
    assert.ok(spec, 'the thread names the spec');
    await label.getByText('rounds instead of truncating').first().waitFor();
    await wb.screenshot('gutter-cited');

    const draft = view.locator('[data-testid="evidence-editor"] [data-testid="evidence-link"]', { hasText: new RegExp(`hunk \\d+ of \\S*format\\.py \\(${ATTEMPT}\\)`) });
    await draft.first().waitFor({ timeout: 15_000 });
    assert.match(await view.locator('[data-testid="review-note"]').inputValue(), /rounds instead of truncating/);
    await wb.screenshot('draft-in-task-view');
  });

  it('records the verdict with the hunk and the words, and shows the recorded citation on the line', async () => {
    assert.ok(wb);
    const { page } = wb;
    await view.locator('[data-testid="verdict-violated"]').click();
    // The label is on disk once the grid shows it as yours; then the log has it.
    await view.locator(`[data-testid="review-cell"][data-attempt="${ATTEMPT}"][data-mine="violated"]`).first().waitFor({ timeout: 20_000 });
    const label = labels(dataset).find((e) => e.payload.attempt === ATTEMPT && e.payload.verdict === 'violated');
    assert.ok(label, 'a label in curation/events.jsonl');
    assert.equal(label.curator, CURATOR);
    assert.equal(label.payload.note, 'rounds instead of truncating');
    assert.ok(
      (label.payload.evidence ?? []).some((e) => (e as { kind: string; attempt?: string; file?: string }).kind === 'diff_hunk' && (e as { attempt?: string }).attempt === ATTEMPT && /format\.py$/.test((e as { file: string }).file)),
      JSON.stringify(label.payload.evidence),
    );
    await page.locator('.review-widget', { hasText: 'Cited by 1 label' }).first().waitFor({ timeout: 20_000 });
    await wb.screenshot('recorded-citation-on-diff');
  });

  it("cites a trajectory step from its detail, and marks the file viewed", async () => {
    assert.ok(wb);
    const row = view.locator('[data-testid="step-row"]').nth(1);
    await row.click({ timeout: 20_000 });
    await view.locator('[data-testid="step-cite"]').click();
    await view.locator('[data-testid="evidence-editor"] [data-testid="evidence-link"]', { hasText: new RegExp(`step \\d+ of ${ATTEMPT}`) }).first().waitFor({ timeout: 15_000 });
    const column = await attemptColumn(view, ATTEMPT);
    const file = column.locator('[data-testid="file-row"]', { hasText: 'format.py' }).first();
    await file.locator('[data-testid="file-viewed"]').click();
    await column.locator('[data-testid="file-row"][data-viewed="true"]').first().waitFor({ timeout: 15_000 });
    await wb.screenshot('step-cited-file-viewed');
  });
});
