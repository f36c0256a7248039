// The dataset-wide trajectory search in the workbench, and links to a task's step: the command searches every
// attempt's trajectory of the open dataset (in the search's worker) and groups the hits by task and attempt; opening
// a hit, or a link, opens the task view with that attempt active; a link names the task, attempt and step.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SpecWeaveApi } from '../../../src/vscode/extension';
import type { DatasetSearchResult } from '../../../src/vscode/datasetSearchPick';
import { api, closeAllEditors, extensionId, openDataset, projectRoot, until } from './helpers';

describe('dataset search and links', function () {
  this.timeout(120_000);
  let a: SpecWeaveApi;
  let root: string;

  before(async () => {
    a = await api();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-inhost-dsearch-'));
    fs.cpSync(path.join(projectRoot(), 'examples', 'dataset'), root, { recursive: true });
    await openDataset(a, root);
  });

  after(async () => {
    await closeAllEditors();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('searches every trajectory of the dataset, hits grouped by task and attempt', async () => {
    const r = await vscode.commands.executeCommand<DatasetSearchResult>('specweave.dataset.search', { pattern: 'def ' });
    const withTrajectory = a.dataset.tasks.flatMap((t) => t.attempts.filter((x) => x.trajectoryFile)).length;
    assert.equal(r.outcome.files, withTrajectory);
    assert.equal(r.outcome.scanned, withTrajectory);
    assert.deepEqual(r.outcome.unreadable, []);
    assert.ok(r.groups.length > 1, `hits in ${r.groups.length} task(s)`);
    assert.deepEqual(
      r.groups.map((g) => g.taskId),
      a.dataset.tasks.map((t) => t.id).filter((id) => r.groups.some((g) => g.taskId === id)),
      'tasks in the dataset\'s order',
    );
    const steps = r.groups[0]!.attempts[0]!.steps;
    assert.deepEqual([...steps].sort((x, y) => x - y), steps, 'steps in order within an attempt');
  });

  it('a task reloaded keeps what the search prepared; a trajectory touched is read again; the dataset opened again drops it all', async () => {
    const first = await vscode.commands.executeCommand<DatasetSearchResult>('specweave.dataset.search', { pattern: 'def ' });
    assert.deepEqual(first.outcome.unreadable, []);
    // A task read again, as after a label, a run or a repair (refreshTasks fires its change event before it returns).
    const changes: string[] = [];
    const sub = a.dataset.onDidChange((c) => changes.push(c.kind));
    try {
      a.dataset.refreshTasks([a.dataset.tasks[0]!.id]);
      assert.deepEqual(changes, ['tasks']);
    } finally {
      sub.dispose();
    }
    const kept = await vscode.commands.executeCommand<DatasetSearchResult>('specweave.dataset.search', { pattern: 'def ' });
    assert.equal(kept.outcome.scanned, first.outcome.scanned);
    assert.equal(kept.outcome.read, 0, 'every trajectory came prepared from the worker (before the fix, every change dropped them)');
    assert.equal(kept.outcome.total, first.outcome.total);
    // One trajectory's modification time moved: that one file is read again.
    const one = a.dataset.tasks.flatMap((t) => t.attempts.filter((x) => x.trajectoryFile).map((x) => path.join(root, x.trajectoryFile!)))[0]!;
    const later = new Date(fs.statSync(one).mtimeMs + 5_000);
    fs.utimesSync(one, later, later);
    const touched = await vscode.commands.executeCommand<DatasetSearchResult>('specweave.dataset.search', { pattern: 'def ' });
    assert.equal(touched.outcome.read, 1);
    // The dataset opened again: what was prepared is dropped, every trajectory read afresh.
    await openDataset(a, root);
    const fresh = await vscode.commands.executeCommand<DatasetSearchResult>('specweave.dataset.search', { pattern: 'def ' });
    assert.equal(fresh.outcome.read, first.outcome.scanned);
  });

  it('opening a hit shows its task with the attempt active; a copied link names the step and opens it the same way', async () => {
    const r = await vscode.commands.executeCommand<DatasetSearchResult>('specweave.dataset.search', { pattern: 'def ' });
    // An attempt the page would not show first on its own (not the task's first attempt with a trajectory).
    const firstShown = (taskId: string) => a.dataset.task(taskId)?.attempts.find((x) => x.trajectoryFile)?.id;
    const g = r.groups.find((x) => x.attempts.some((y) => y.attempt !== firstShown(x.taskId)))!;
    assert.ok(g, 'some task has hits in an attempt other than its first');
    const at = g.attempts.find((y) => y.attempt !== firstShown(g.taskId))!;
    assert.equal(await vscode.commands.executeCommand('specweave.task.openAt', g.taskId, at.attempt, at.steps[0]), true);
    await until('the task view', () => a.panels.sessionOf(g.taskId));
    // The page activated the attempt it was told to reveal, and says so to the host (the session asked each time: the
    // task read again, by the watcher after a write there, gives the page a new one).
    await until(`${at.attempt} active in the page`, () => a.panels.sessionOf(g.taskId)?.uiState?.activeColumn === at.attempt, 30_000);

    const link = await vscode.commands.executeCommand<string>('specweave.task.copyLink', g.taskId, at.attempt, at.steps[0]);
    assert.equal(link, `${vscode.env.uriScheme}://${extensionId}/open?task=${encodeURIComponent(g.taskId)}&attempt=${encodeURIComponent(at.attempt)}&step=${at.steps[0]}`);
    assert.equal(await vscode.env.clipboard.readText(), link);
    assert.equal(await vscode.commands.executeCommand('specweave.task.openAt', 'no-such-task'), false);
  });

  it('a link opened while its task is read again still shows its step: the reveal survives the task view\'s restart', async () => {
    const r = await vscode.commands.executeCommand<DatasetSearchResult>('specweave.dataset.search', { pattern: 'def ' });
    const firstShown = (taskId: string) => a.dataset.task(taskId)?.attempts.find((x) => x.trajectoryFile)?.id;
    const g = r.groups.find((x) => x.attempts.some((y) => y.attempt !== firstShown(x.taskId)))!;
    const at = g.attempts.find((y) => y.attempt !== firstShown(g.taskId))!;
    // The task view last showed another attempt (the page restores it when it opens again): only the reveal can make
    // this attempt the active one.
    const other = firstShown(g.taskId)!;
    assert.equal(await vscode.commands.executeCommand('specweave.task.openAt', g.taskId, other, 0), true);
    await until(`${other} active in the page`, () => a.panels.sessionOf(g.taskId)?.uiState?.activeColumn === other, 30_000);
    await closeAllEditors();
    await until('the task view closed', () => (a.panels.sessionOf(g.taskId) ? undefined : true));
    assert.equal(await vscode.commands.executeCommand('specweave.task.openAt', g.taskId, at.attempt, at.steps[0]), true);
    // Before the page has said `ready` (this runs in the same turn as the open), the task's folder is read again, as
    // the watcher does when a run, a label or a repair writes there: its task view starts a new session.
    const before = a.panels.sessionOf(g.taskId);
    a.dataset.refreshTasks([g.taskId]);
    assert.notEqual(a.panels.sessionOf(g.taskId), before, 'the task view has a new session');
    await until(`${at.attempt} active in the page`, () => a.panels.sessionOf(g.taskId)?.uiState?.activeColumn === at.attempt, 30_000);
  });
});
