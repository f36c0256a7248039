// Native diffs over read-only virtual documents: the right URIs and contents, the raw patch when a patch does not
// apply, two attempts against each other, the test patch at a test, and a missing clone.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SpecWeaveApi } from '../../../src/vscode/extension';
import { activeTabInput, api, closeAllEditors, openDataset, tinyDatasetWithClone, until } from './helpers';

async function text(uri: vscode.Uri): Promise<string> {
  return (await vscode.workspace.openTextDocument(uri)).getText();
}

describe('diffs', () => {
  let a: SpecWeaveApi;
  let root: string;

  before(async () => {
    a = await api();
    root = tinyDatasetWithClone().root;
    // An attempt whose patch does not fit the base file.
    const a3 = path.join(root, 'tasks/t1/attempts/a3');
    fs.mkdirSync(a3);
    fs.writeFileSync(path.join(a3, 'attempt.json'), '{ "model": "drifted", "agent": "x" }\n');
    fs.writeFileSync(
      path.join(a3, 'patch.diff'),
      'diff --git a/hello.py b/hello.py\n--- a/hello.py\n+++ b/hello.py\n@@ -1,2 +1,2 @@\n """Salutations."""\n-x = 1\n+x = 2\n',
    );
    await openDataset(a, root);
  });

  afterEach(closeAllEditors);

  it('opens base vs patched file in the diff editor on specweave: documents', async () => {
    const r = await vscode.commands.executeCommand('specweave.diff.open', { taskId: 't1', column: 'a1', path: 'hello.py' });
    assert.deepEqual(r, { opened: 'diff' });
    const input = await until('a diff tab', () => {
      const i = activeTabInput();
      return i instanceof vscode.TabInputTextDiff ? i : undefined;
    });
    assert.equal(input.original.scheme, 'specweave');
    assert.equal(input.original.path, '/t1/@base/hello.py');
    assert.equal(input.original.query, 'kind=base');
    assert.equal(input.modified.path, '/t1/a1/hello.py');
    assert.equal(input.modified.query, 'kind=version');
    assert.equal(await text(input.original), '"""Greetings."""\n');
    assert.equal(await text(input.modified), '"""Greetings."""\n\ndef greet(name):\n    return f"Hello, {name}!"\n');
    assert.match(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '', /hello\.py \(base ↔ a1\)/);
    assert.equal((await vscode.workspace.openTextDocument(input.modified)).languageId, 'python');
  });

  it('opens the diff of a file named as a trajectory names it (absolute, in the workdir)', async () => {
    const r = await vscode.commands.executeCommand('specweave.diff.open', { taskId: 't1', column: 'a1', path: '/repo/hello.py' });
    assert.deepEqual(r, { opened: 'diff' });
    const input = await until('a diff tab', () => {
      const i = activeTabInput();
      return i instanceof vscode.TabInputTextDiff ? i : undefined;
    });
    assert.equal(input.modified.path, '/t1/a1/hello.py');
  });

  it('opens the raw patch of the file, with a message, when the patch does not apply', async () => {
    const r = await vscode.commands.executeCommand<{ opened: string; message?: string }>('specweave.diff.open', { taskId: 't1', column: 'a3', path: 'hello.py' });
    assert.equal(r.opened, 'patch');
    assert.match(r.message ?? '', /does not apply to the base file/);
    const input = await until('a text tab', () => {
      const i = activeTabInput();
      return i instanceof vscode.TabInputText ? i : undefined;
    });
    assert.equal(input.uri.scheme, 'specweave');
    assert.equal(input.uri.query, 'kind=filepatch');
    const doc = await vscode.workspace.openTextDocument(input.uri);
    assert.equal(doc.languageId, 'diff');
    assert.match(doc.getText(), /^diff --git a\/hello\.py b\/hello\.py\n/);
    assert.match(doc.getText(), /\+x = 2\n$/);
  });

  it('compares two attempts\' versions of the same file', async () => {
    const r = await vscode.commands.executeCommand('specweave.diff.compareAttempts', { taskId: 't1', column: 'gold', path: 'hello.py' }, 'a2');
    assert.deepEqual(r, { opened: true });
    const input = await until('a diff tab', () => {
      const i = activeTabInput();
      return i instanceof vscode.TabInputTextDiff ? i : undefined;
    });
    assert.equal(input.original.path, '/t1/gold/hello.py');
    assert.equal(input.modified.path, '/t1/a2/hello.py');
    assert.equal(await text(input.original), await text(input.modified));
  });

  it('opens the test patch at a test\'s source', async () => {
    const r = await vscode.commands.executeCommand('specweave.tests.openPatch', { taskId: 't1', testId: 'T1' });
    assert.deepEqual(r, { opened: true });
    const editor = await until('the test patch', () => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.fsPath.endsWith(path.join('tasks', 't1', 'tests.patch')) ? e : undefined;
    });
    assert.equal(editor.document.lineAt(editor.selection.active.line).text, '+def test_greet():');
  });

  it('shows the patch, saying why, when the clone is missing; the task view says so too', async () => {
    fs.renameSync(path.join(root, 'repos/hello'), path.join(root, 'repos/hello-moved'));
    try {
      const r = await vscode.commands.executeCommand<{ opened: string; message?: string }>('specweave.diff.open', { taskId: 't1', column: 'a1', path: 'hello.py' });
      assert.equal(r.opened, 'patch');
      assert.match(r.message ?? '', /clone repos\/hello is missing/);
      const model = a.panels.model('t1', new Map());
      assert.ok(model.notices.some((n) => /clone repos\/hello is missing: diffs against the base files are disabled/.test(n)), model.notices.join('\n'));
      assert.deepEqual(model.columns.find((c) => c.id === 'a1')?.files.map((f) => f.path), ['hello.py'], 'the patch still shows');
    } finally {
      fs.renameSync(path.join(root, 'repos/hello-moved'), path.join(root, 'repos/hello'));
    }
  });
});
