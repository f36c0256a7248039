// The VS Code side of the page-load watchdog (pageWatchdog.ts): reloads a panel's page that never said `ready`, and
// after the last try offers to reload the window, which is what clears a broken webview service worker.
import * as vscode from 'vscode';
import { PageWatchdog } from './pageWatchdog';

export function panelWatchdog(panel: vscode.WebviewPanel, label: () => string, reload: () => void, log: vscode.LogOutputChannel): PageWatchdog {
  return new PageWatchdog({
    panel,
    reload,
    label,
    log,
    onGiveUp: () => {
      void vscode.window
        .showWarningMessage(`SpecWeave: the ${label()} did not load (VS Code's webview did not start). Reloading the window usually fixes it.`, 'Reload Window')
        .then((pick) => {
          if (pick === 'Reload Window') void vscode.commands.executeCommand('workbench.action.reloadWindow');
        });
    },
  });
}
