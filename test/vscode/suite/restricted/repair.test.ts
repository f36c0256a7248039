// The repair agent in Restricted Mode: asking the model or accepting (which runs containers) is refused with the
// reason, and the endpoint settings are among the restricted ones (a workspace cannot redirect task data).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const extensionId = 'specweave.specweave-curator';

describe('repair (restricted workspace)', () => {
  before(async () => {
    await vscode.extensions.getExtension(extensionId)?.activate();
  });

  it('refuses to request a suggestion or accept one, saying why', async () => {
    assert.deepEqual(await vscode.commands.executeCommand('specweave.repair.request', 't1', 'tests', ''), { status: 'untrusted', message: 'Restricted Mode' });
    assert.deepEqual(await vscode.commands.executeCommand('specweave.repair.accept', 't1', 's1'), { accepted: false, message: 'Restricted Mode' });
  });

  it('declares the endpoint settings restricted and the model-calling commands disabled', () => {
    const pkg = vscode.extensions.getExtension(extensionId)?.packageJSON as {
      capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
      contributes: { commands: Array<{ command: string; enablement?: string }> };
    };
    for (const k of ['baseUrl', 'model', 'temperature', 'maxTokens', 'timeoutSec', 'maxReplyBytes', 'freshTrials']) assert.ok(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations.includes(`specweave.repair.${k}`), k);
    for (const c of ['specweave.repair.request', 'specweave.repair.accept']) assert.equal(pkg.contributes.commands.find((x) => x.command === c)?.enablement, 'isWorkspaceTrusted');
  });
});
