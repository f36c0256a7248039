// Restricted Mode: browsing works (tree, task view, diffs), settings that name programs are ignored from the
// workspace, the task view model says why running code is off, and the trust check refuses.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SpecWeaveApi } from '../../../../src/vscode/extension';
import { activeTabInput, api, closeAllEditors, openDataset, tinyDatasetWithClone, until } from '../helpers';

describe('restricted mode', () => {
  let a: SpecWeaveApi;

  before(async () => {
    a = await api();
    await openDataset(a, tinyDatasetWithClone().root);
  });

  after(closeAllEditors);

  it('still browses: the tree lists the tasks and a task panel opens', async () => {
    assert.deepEqual(a.tree.visibleTaskIds(), ['t1']);
    await vscode.commands.executeCommand('specweave.task.open', 't1');
    const session = await until('the panel', () => a.panels.sessionOf('t1'));
    await until('the webview handshake', () => session.largestMessage > 0, 20_000);
  });

  it('tells the webview that code cannot run, and why', () => {
    const m = a.panels.model('t1', new Map());
    assert.equal(m.trusted, false);
    assert.match(m.untrustedReason ?? '', /Restricted Mode.*running verifiers and the repair agent.*trusted workspace/s);
  });

  it('refuses what would run code through requireTrust', async () => {
    assert.equal(await a.requireTrust('Running the verifier'), false);
  });

  it('ignores a workspace value of a setting that names a program, and diffs still open', async () => {
    const ws = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(ws);
    fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
    fs.writeFileSync(
      path.join(ws, '.vscode/settings.json'),
      JSON.stringify({ 'specweave.git.path': '/nonexistent/evil-git', 'specweave.candidates.persistFilters': false }),
    );
    // The unrestricted setting next to it proves the file was read.
    await until('the workspace settings to be read', () => vscode.workspace.getConfiguration('specweave').get('candidates.persistFilters') === false, 15_000);
    assert.equal(vscode.workspace.getConfiguration('specweave').get('git.path'), '');
    const r = await vscode.commands.executeCommand('specweave.diff.open', { taskId: 't1', column: 'a1', path: 'hello.py' });
    assert.deepEqual(r, { opened: 'diff' });
    assert.ok(activeTabInput() instanceof vscode.TabInputTextDiff);
  });
});
