// Smoke for restricted mode: the extension declares limited support for untrusted workspaces, so it must still
// load and activate when the workspace is not trusted.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const extensionId = 'specweave.specweave-curator';

describe('extension (restricted workspace)', () => {
  it('opens the workspace untrusted', () => {
    assert.equal(vscode.workspace.isTrusted, false);
  });

  it('activates in restricted mode', async () => {
    const ext = vscode.extensions.getExtension(extensionId);
    assert.ok(ext, `${extensionId} is not loaded`);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });
});
