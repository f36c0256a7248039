// Smoke: the extension under development is the one loaded, and it activates in a trusted workspace.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const extensionId = 'specweave.specweave-curator';

describe('extension (trusted workspace)', () => {
  it('is loaded from the development path and activates', async () => {
    const ext = vscode.extensions.getExtension(extensionId);
    assert.ok(ext, `${extensionId} is not among ${vscode.extensions.all.length} loaded extensions`);
    assert.equal(ext.packageJSON.name, 'specweave-curator');
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('runs in a trusted workspace', () => {
    assert.equal(vscode.workspace.isTrusted, true);
  });
});
