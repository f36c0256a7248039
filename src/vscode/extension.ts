// Composition root of the extension: builds every service by hand and registers it. (Filled in by the workbench work.)
import type * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {
  // Intentionally empty until the workbench lands.
}

export function deactivate(): void {}
