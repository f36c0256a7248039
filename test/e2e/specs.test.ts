// Issue 12's workbench test, on the packaged .vsix in code-server: the example dataset (a copy), the task
// total-command opened from the SpecWeave tree, and in its task view a spec added (text + category) from the Specs
// tab, two tests mapped to it by two clicks in the spec x test matrix, an attempt labelled on it in the review grid,
// the spec's text changed (the label shows as stale, on the spec and in the grid) and the change undone (the label is
// current again: the spec it was given on is the current one). Each step is checked on the page and in the files
// written: the task's revision (task.json, revisions/<n>/) and the review log (curation/events.jsonl).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { projectRoot } from '../vscode/harness/codeServer';
import { openActivity, openWorkbench, treeRows, webviewFrame } from './harness';
import type { Workbench } from './harness';

const CURATOR = 'Ada Curator';
const TASK = 'total-command';
const ATTEMPT = 'claude-code-sonnet-4-5';
const SPEC = 'B9';
const TEXT = 'A total of zero durations prints 0s.';
const CHANGED = 'A file without any durations totals 0s, also when it only holds comments.';

interface TaskFile {
  revision?: number;
  specs: Array<{ id: string; text: string; category: string; dependsOn?: string[] }>;
  tests: Array<{ id: string; specs?: string[] }>;
}

interface LogLine {
  kind: string;
  revision: number;
  curator: string;
  payload: Record<string, unknown>;
}

describe('spec authoring in the workbench', { timeout: 600_000 }, () => {
  let wb: Workbench | undefined;
  let top = '';
  let dataset = '';

  const taskJson = (revision?: number): TaskFile =>
    JSON.parse(fs.readFileSync(revision === undefined ? path.join(dataset, 'tasks', TASK, 'task.json') : path.join(dataset, 'tasks', TASK, 'revisions', String(revision), 'task.json'), 'utf8')) as TaskFile;
  const log = (): LogLine[] => {
    const file = path.join(dataset, 'curation', 'events.jsonl');
    if (!fs.existsSync(file)) return [];
    return fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as LogLine);
  };
  const frame = (): FrameLocator => webviewFrame(wb!.page, 'panel');
  const tid = (id: string) => frame().locator(`[data-testid="${id}"]`);
  const spec = (id: string) => frame().locator(`[data-testid="spec"][data-spec="${id}"]`);
  const matrixCell = (test: string, on?: 0 | 1) => frame().locator(`[data-testid="matrix-cell"][data-spec="${SPEC}"][data-test="${test}"]${on === undefined ? '' : `[data-on="${on}"]`}`);
  const reviewCell = (extra = '') => frame().locator(`[data-testid="review-cell"][data-attempt="${ATTEMPT}"][data-spec="${SPEC}"]${extra}`);

  before(async () => {
    top = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-e2e-specs-'));
    dataset = path.join(top, 'dataset');
    // The example dataset as it is in git: no verifier runs, no review log (labels need neither).
    fs.cpSync(path.join(projectRoot, 'examples', 'dataset'), dataset, {
      recursive: true,
      filter: (src) => !/[\\/](runs|curation)([\\/]|$)/.test(path.relative(path.join(projectRoot, 'examples', 'dataset'), src)),
    });
    wb = await openWorkbench({ testName: 'specs', workspace: top, inPlace: true, settings: { 'specweave.curator.name': CURATOR } });
  });

  after(async () => {
    await wb?.close();
    if (top) fs.rmSync(top, { recursive: true, force: true });
  });

  it('opens the task and adds a spec with a category from the Specs tab', async () => {
    assert.ok(wb);
    const { page } = wb;
    await openActivity(page, 'SpecWeave');
    await treeRows(page, TASK).first().waitFor({ timeout: 60_000 });
    await treeRows(page, TASK).first().click();
    await tid('task-id').filter({ hasText: TASK }).waitFor({ timeout: 60_000 });
    assert.equal(taskJson().revision ?? 1, 1);
    await tid('specs-tab-specs').click();
    await tid('spec-authoring').waitFor({ timeout: 15_000 });
    await tid('spec-add').click();
    await tid('spec-add-text').fill(TEXT);
    await tid('spec-add-category').selectOption('data-transformation');
    await tid('spec-add-save').click();
    await spec(SPEC).waitFor({ timeout: 30_000 });
    await tid('spec-add-form').waitFor({ state: 'detached', timeout: 15_000 });
    assert.match((await spec(SPEC).textContent()) ?? '', /A total of zero durations prints 0s\./);
    const disk = taskJson();
    assert.equal(disk.revision, 2);
    assert.deepEqual(disk.specs.find((s) => s.id === SPEC), { id: SPEC, category: 'data-transformation', text: TEXT });
    assert.equal(taskJson(1).specs.some((s) => s.id === SPEC), false, 'revision 1 is archived as it was');
    const edits = log().filter((e) => e.kind === 'specs.edit');
    assert.deepEqual(edits.map((e) => [e.payload.op, e.payload.from, e.payload.to, e.curator]), [['add', 1, 2, CURATOR]]);
    await wb.screenshot('spec-added');
  });

  it('maps two tests to it by clicking two matrix cells', async () => {
    assert.ok(wb);
    await tid('specs-tab-matrix').click();
    await matrixCell('TB1', 0).waitFor({ timeout: 15_000 });
    await matrixCell('TB1').click();
    await matrixCell('TB1', 1).waitFor({ timeout: 30_000 });
    await matrixCell('TB2').click();
    await matrixCell('TB2', 1).waitFor({ timeout: 30_000 });
    const disk = taskJson();
    assert.equal(disk.revision, 4, 'one revision per click');
    assert.deepEqual(disk.tests.filter((t) => t.specs?.includes(SPEC)).map((t) => t.id), ['TB1', 'TB2']);
    assert.deepEqual(log().filter((e) => e.kind === 'specs.edit').map((e) => e.payload.op), ['add', 'toggle', 'toggle']);
    await wb.screenshot('tests-mapped');
  });

  it('labels an attempt on the new spec in the review grid', async () => {
    assert.ok(wb);
    await tid('specs-tab-review').click();
    await reviewCell().click();
    await reviewCell('.focused').waitFor({ timeout: 15_000 });
    await reviewCell('.focused').press('v');
    await reviewCell('[data-mine="violated"]').waitFor({ timeout: 30_000 });
    const labels = log().filter((e) => e.kind === 'label');
    assert.deepEqual(labels.map((e) => [e.payload.attempt, e.payload.spec, e.payload.verdict, e.revision, e.curator]), [[ATTEMPT, SPEC, 'violated', 4, CURATOR]]);
    await wb.screenshot('labelled');
  });

  it("changes the spec's text: the label is marked stale, on the spec and in the grid", async () => {
    assert.ok(wb);
    await tid('specs-tab-specs').click();
    await spec(SPEC).waitFor({ timeout: 15_000 });
    assert.equal(await spec(SPEC).locator('[data-testid="spec-stale"]').count(), 0, 'no stale label before the change');
    await spec(SPEC).locator('[data-testid="spec-edit"]').click();
    const text = spec(SPEC).locator('[data-testid="spec-edit-text"]');
    await text.waitFor({ timeout: 15_000 });
    assert.equal(await text.inputValue(), TEXT);
    await text.fill(CHANGED);
    await spec(SPEC).locator('[data-testid="spec-edit-save"]').click();
    await spec(SPEC).locator('[data-testid="spec-stale"]').filter({ hasText: /^1 stale label$/ }).waitFor({ timeout: 30_000 });
    assert.match((await spec(SPEC).locator('.spec-text').textContent()) ?? '', /also when it only holds comments/);
    const disk = taskJson();
    assert.equal(disk.revision, 5);
    assert.equal(disk.specs.find((s) => s.id === SPEC)?.text, CHANGED);
    const rev = log().filter((e) => e.kind === 'revision').at(-1);
    assert.equal(rev?.revision, 5);
    const hashes = (rev?.payload.specHashes as Record<string, { before?: string; after?: string }> | undefined)?.[SPEC];
    assert.ok(hashes?.before && hashes.after && hashes.before !== hashes.after, `the revision event carries ${SPEC}'s content before and after: ${JSON.stringify(rev?.payload)}`);
    await wb.screenshot('label-stale-on-spec');
    // In the grid the label no longer counts as the curator's verdict; it is listed as made on an older revision.
    await tid('specs-tab-review').click();
    await reviewCell('[data-mine=""]').waitFor({ timeout: 15_000 });
    await reviewCell().click();
    await frame().locator('[data-testid="stale-label"]').first().waitFor({ timeout: 15_000 });
    await wb.screenshot('label-stale-in-grid');
  });

  it('undoes the change: the old text is back as a new revision and the label is not stale', async () => {
    assert.ok(wb);
    await tid('specs-tab-specs').click();
    await tid('spec-undo').click();
    await spec(SPEC).locator('.spec-text').filter({ hasText: /^A total of zero durations prints 0s\.$/ }).waitFor({ timeout: 30_000 });
    await spec(SPEC).locator('[data-testid="spec-stale"]').waitFor({ state: 'detached', timeout: 15_000 });
    const disk = taskJson();
    assert.equal(disk.revision, 6, 'undo writes a new revision; history is kept');
    assert.equal(disk.specs.find((s) => s.id === SPEC)?.text, TEXT);
    assert.equal(taskJson(5).specs.find((s) => s.id === SPEC)?.text, CHANGED, 'the undone edit stays readable as revision 5');
    assert.deepEqual(log().filter((e) => e.kind === 'specs.edit').map((e) => e.payload.op), ['add', 'toggle', 'toggle', 'edit', 'undo']);
    const rev = log().filter((e) => e.kind === 'revision').at(-1);
    const hashes = (rev?.payload.specHashes as Record<string, { before?: string; after?: string }> | undefined)?.[SPEC];
    const edit = (log().filter((e) => e.kind === 'revision').at(-2)?.payload.specHashes as Record<string, { before?: string; after?: string }> | undefined)?.[SPEC];
    assert.equal(hashes?.after, edit?.before, 'the undo brings back the content the label was given on');
    await wb.screenshot('undone-on-spec');
    // The grid counts the label again.
    await tid('specs-tab-review').click();
    await reviewCell('[data-mine="violated"]').waitFor({ timeout: 15_000 });
    await reviewCell().click();
    await frame().locator(`[data-testid="review-pair"][data-attempt="${ATTEMPT}"][data-spec="${SPEC}"]`).waitFor({ timeout: 15_000 });
    assert.equal(await frame().locator('[data-testid="stale-label"]').count(), 0, 'no label listed as made on an older revision');
    await wb.screenshot('undone-in-grid');
  });
});
