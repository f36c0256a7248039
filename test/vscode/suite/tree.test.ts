// The Candidates tree over a real dataset: rows, counts, attempts, changed files, filters that persist, and refresh
// of what changed on disk.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CandidateNode } from '../../../src/vscode/candidatesTree';
import type { SpecWeaveApi } from '../../../src/vscode/extension';
import { api, openDataset, tinyDatasetWithClone, until } from './helpers';

describe('Candidates tree', () => {
  let a: SpecWeaveApi;
  let root: string;

  before(async () => {
    a = await api();
    root = tinyDatasetWithClone().root;
    await openDataset(a, root);
  });

  after(async () => {
    await vscode.commands.executeCommand('specweave.candidates.clearFilter');
  });

  const children = (n?: CandidateNode): CandidateNode[] => a.tree.getChildren(n);

  it('shows the dataset, its tasks with counts and status, attempts and changed files', () => {
    const [dsNode] = children();
    assert.ok(dsNode && dsNode.kind === 'dataset');
    assert.equal(a.tree.getTreeItem(dsNode).label, 'tiny');
    const tasks = children(dsNode);
    assert.deepEqual(tasks.map((t) => (t.kind === 'task' ? t.taskId : '')), ['t1']);
    const item = a.tree.getTreeItem(tasks[0] as CandidateNode);
    assert.equal(item.contextValue, 'task');
    assert.equal(item.description, 'candidate · 2 specs · 2 tests · 2 attempts · Add a greeting');
    assert.equal(item.command?.command, 'specweave.task.open');
    const attempts = children(tasks[0]);
    assert.deepEqual(attempts.map((n) => (n.kind === 'attempt' ? n.column : '')), ['gold', 'a1', 'a2']);
    assert.deepEqual(attempts.map((n) => a.tree.getTreeItem(n).contextValue), ['gold', 'attempt', 'attempt']);
    const files = children(attempts[1]);
    assert.equal(files.length, 1);
    const f = a.tree.getTreeItem(files[0] as CandidateNode);
    assert.equal(f.contextValue, 'changedFile');
    assert.equal(f.label, 'hello.py');
    assert.equal(f.description, '+3 −0');
    assert.equal(f.command?.command, 'specweave.diff.open');
  });

  it('filters by outcome, status, category and text', async () => {
    assert.equal(await vscode.commands.executeCommand('specweave.candidates.filter', { outcomes: ['passed'] }), 0);
    assert.equal(a.tree.getChildren(a.tree.getChildren()[0]).length, 0);
    assert.equal(await vscode.commands.executeCommand('specweave.candidates.filter', { outcomes: ['notRun'] }), 1);
    assert.equal(await vscode.commands.executeCommand('specweave.candidates.filter', { statuses: ['approved'] }), 0);
    await vscode.commands.executeCommand('specweave.candidates.clearFilter');
    assert.equal(await vscode.commands.executeCommand('specweave.candidates.filter', { categories: ['data-transformation'] }), 1);
    assert.equal(await vscode.commands.executeCommand('specweave.candidates.filterText', 'greeting'), 1);
    assert.equal(await vscode.commands.executeCommand('specweave.candidates.filterText', 'nothing-like-this'), 0);
    assert.equal(a.tree.filter.text, 'nothing-like-this');
    assert.deepEqual(a.tree.filter.categories, ['data-transformation']);
    assert.equal(await vscode.commands.executeCommand('specweave.candidates.clearFilter'), 1);
  });

  it('refreshes only what changed on disk: a new task folder appears, an edited title updates', async () => {
    const t2 = path.join(root, 'tasks/t2');
    fs.cpSync(path.join(root, 'tasks/t1'), t2, { recursive: true });
    const taskJson = path.join(t2, 'task.json');
    fs.writeFileSync(taskJson, fs.readFileSync(taskJson, 'utf8').replace('"id": "t1"', '"id": "t2"').replace('Add a greeting', 'Second task'));
    await until('t2 in the tree', () => a.tree.visibleTaskIds().includes('t2'), 15_000);
    assert.deepEqual(a.tree.visibleTaskIds(), ['t1', 't2']);
    const t1json = path.join(root, 'tasks/t1/task.json');
    fs.writeFileSync(t1json, fs.readFileSync(t1json, 'utf8').replace('Add a greeting', 'Add a warm greeting'));
    await until('the new title', () => a.dataset.task('t1')?.title === 'Add a warm greeting', 15_000);
    fs.rmSync(t2, { recursive: true });
    await until('t2 gone', () => !a.tree.visibleTaskIds().includes('t2'), 15_000);
  });

  it('sorts, and next/previous task follow the visible order', async () => {
    await vscode.commands.executeCommand('specweave.candidates.sort', 'title');
    assert.equal(a.tree.sort, 'title');
    assert.equal(a.tree.neighbor(undefined, 1), 't1');
    await vscode.commands.executeCommand('specweave.candidates.sort', 'id');
  });
});

describe('Candidates tree over many tasks', () => {
  let a: SpecWeaveApi;

  before(async () => {
    a = await api();
    const root = tinyDatasetWithClone().root;
    const t1 = path.join(root, 'tasks/t1');
    const json = fs.readFileSync(path.join(t1, 'task.json'), 'utf8');
    for (let i = 0; i < 620; i++) {
      const id = `m${String(i).padStart(4, '0')}`;
      fs.cpSync(t1, path.join(root, 'tasks', id), { recursive: true });
      fs.writeFileSync(path.join(root, 'tasks', id, 'task.json'), json.replace('"id": "t1"', `"id": "${id}"`));
    }
    await openDataset(a, root);
  });

  it('shows the rows in pages, with a row that shows more', async () => {
    const [dsNode] = a.tree.getChildren();
    const first = a.tree.getChildren(dsNode);
    assert.equal(first.length, 501);
    const more = first[500] as CandidateNode;
    assert.equal(more.kind, 'more');
    const item = a.tree.getTreeItem(more);
    assert.equal(item.label, 'Show 121 more…');
    assert.equal(item.command?.command, 'specweave.candidates.showMore');
    assert.equal(await vscode.commands.executeCommand('specweave.candidates.showMore'), 621);
    assert.equal(a.tree.getChildren(dsNode).length, 621);
    // A filter starts over at the first page; navigation still sees every row.
    assert.equal(await vscode.commands.executeCommand('specweave.candidates.filterText', 'm0'), 620);
    assert.equal(a.tree.getChildren(dsNode).length, 501);
    assert.equal(a.tree.neighbor('m0599', 1), 'm0600');
    await vscode.commands.executeCommand('specweave.candidates.clearFilter');
  });
});
