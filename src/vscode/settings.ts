// Typed access to the `specweave.*` settings.
import * as vscode from 'vscode';

export interface Settings {
  /** Dataset folder to open at start, relative to the first workspace folder or absolute. */
  datasetPath: string;
  curatorName: string;
  dockerHost: string;
  gitPath: string;
  persistFilters: boolean;
}

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration('specweave');
  return {
    datasetPath: c.get<string>('dataset.path', '').trim(),
    curatorName: c.get<string>('curator.name', ''),
    dockerHost: c.get<string>('docker.host', '').trim(),
    gitPath: c.get<string>('git.path', '').trim() || 'git',
    persistFilters: c.get<boolean>('candidates.persistFilters', true),
  };
}
