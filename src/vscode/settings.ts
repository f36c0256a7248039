// Typed access to the `specweave.*` settings. The curator name and the consensus policy are the curation feature's
// (readCurationSettings), read by the open dataset's owner only.
import * as vscode from 'vscode';

export interface Settings {
  /** Dataset folder to open at start, relative to the first workspace folder or absolute. */
  datasetPath: string;
  dockerHost: string;
  gitPath: string;
  persistFilters: boolean;
}

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration('specweave');
  return {
    datasetPath: c.get<string>('dataset.path', '').trim(),
    dockerHost: c.get<string>('docker.host', '').trim(),
    gitPath: c.get<string>('git.path', '').trim() || 'git',
    persistFilters: c.get<boolean>('candidates.persistFilters', true),
  };
}
