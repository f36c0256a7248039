// Run Fresh Trials in Restricted Mode: refused with the reason before anything else (no key read, no engine, no
// model), and the command is disabled in the manifest.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { UNTRUSTED_REASON } from '../../../../src/vscode/trust';

const extensionId = 'specweave.specweave-curator';

describe('fresh solver trials (restricted workspace)', () => {
  before(async () => {
    await vscode.extensions.getExtension(extensionId)?.activate();
  });

  it('refuses to run trials, saying why, and the command is disabled', async () => {
    assert.deepEqual(await vscode.commands.executeCommand('specweave.solver.runTrials', 't1'), { state: 'untrusted', results: [], message: UNTRUSTED_REASON });
    const pkg = vscode.extensions.getExtension(extensionId)?.packageJSON as { contributes: { commands: Array<{ command: string; enablement?: string }> } };
    assert.equal(pkg.contributes.commands.find((x) => x.command === 'specweave.solver.runTrials')?.enablement, 'isWorkspaceTrusted');
  });
});
