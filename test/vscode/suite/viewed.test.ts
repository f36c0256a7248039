// Viewed marks in a real extension host: a file marked viewed from the task view is a ticked checkbox on its row in
// the Candidates tree and in the page's model; ticking the attempt's row marks the attempt; rewriting the patch on
// disk (a repair, a re-import) takes the marks it covered away.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SpecWeaveApi } from '../../../src/vscode/extension';
import type { CandidateNode } from '../../../src/vscode/candidatesTree';
import { closeAllEditors, openDataset, api, tinyDatasetWithClone, until } from './helpers';

describe('viewed marks', () => {
  let a: SpecWeaveApi;
  let root: string;

  before(async () => {
    a = await api();
    root = tinyDatasetWithClone().root;
    await openDataset(a, root);
    await vscode.commands.executeCommand('specweave.task.open', 't1');
    await until('the webview handshake', () => (a.panels.sessionOf('t1')?.largestMessage ?? 0) > 0, 30_000);
  });

  after(closeAllEditors);

  const fileNode = (): CandidateNode => ({ kind: 'changedFile', taskId: 't1', column: 'a1', path: 'hello.py', change: { path: 'hello.py', status: 'modified', additions: 3, deletions: 0 } });
  const box = (n: CandidateNode) => (a.tree.getTreeItem(n) as vscode.TreeItem).checkboxState as { state: vscode.TreeItemCheckboxState } | undefined;

  it('a file marked viewed from the task view is ticked in the tree and in the model, until its patch changes', async () => {
    assert.equal(box(fileNode())?.state, vscode.TreeItemCheckboxState.Unchecked);
    const session = a.panels.sessionOf('t1')!;
    await session.receive({ type: 'request', id: 9001, method: 'setViewed', params: { column: 'a1', path: 'hello.py', viewed: true } });
    assert.equal(a.viewed.isViewed('t1', 'a1', 'hello.py'), true);
    assert.equal(box(fileNode())?.state, vscode.TreeItemCheckboxState.Checked);
    assert.deepEqual(a.panels.model('t1', new Map()).viewed, { columns: [], files: [{ column: 'a1', path: 'hello.py' }] });
    assert.equal(a.viewed.isViewed('t1', 'a1'), false, 'a file is not the whole attempt');

    // The attempt's row ticked in the tree marks the attempt as a whole.
    assert.deepEqual(await a.viewed.set('t1', 'a1', undefined, true), { ok: true });
    assert.equal(box({ kind: 'attempt', taskId: 't1', column: 'a1' })?.state, vscode.TreeItemCheckboxState.Checked);

    // The patch rewritten on disk: what was viewed is not what is there now.
    const patch = path.join(root, 'tasks/t1/attempts/a1/patch.diff');
    fs.writeFileSync(patch, fs.readFileSync(patch, 'utf8').replace('Hello, {name}!', 'Hi, {name}!'));
    await until('the marks to go with the old patch', () => !a.viewed.isViewed('t1', 'a1', 'hello.py') && !a.viewed.isViewed('t1', 'a1'), 20_000);
    assert.equal(box(fileNode())?.state, vscode.TreeItemCheckboxState.Unchecked);
    assert.equal(a.panels.model('t1', new Map()).viewed, undefined);
  });

  it('a file the attempt does not change cannot be marked', async () => {
    const r = await a.viewed.set('t1', 'a1', 'nope.py', true);
    assert.equal(r.ok, false);
    assert.match(r.message ?? '', /a1 does not change nope\.py/);
  });
});
