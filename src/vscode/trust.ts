// Workspace trust: browsing works everywhere; anything that would run code from the dataset (verifiers, the repair
// agent) asks `requireTrust` first, which explains why it refuses in Restricted Mode.
import * as vscode from 'vscode';

export const UNTRUSTED_REASON =
  'This workspace is in Restricted Mode. Browsing tasks, patches and trajectories works; running verifiers and the repair agent executes code from the dataset and needs a trusted workspace.';

/**
 * True when the workspace is trusted. Otherwise shows why `action` is unavailable (with a way to manage trust) and
 * returns false; the caller stops.
 */
export async function requireTrust(action: string): Promise<boolean> {
  if (vscode.workspace.isTrusted) return true;
  const manage = 'Manage Workspace Trust';
  void vscode.window
    .showWarningMessage(`${action} is disabled in Restricted Mode: it would run code from this dataset. Trust the workspace to enable it.`, manage)
    .then((pick) => {
      if (pick === manage) void vscode.commands.executeCommand('workbench.trust.manage');
    });
  return false;
}
