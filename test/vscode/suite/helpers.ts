// Shared by the in-host tests: the extension's API, a copy of the tiny dataset with a real git clone, and polling.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SpecWeaveApi } from '../../../src/vscode/extension';

export const extensionId = 'specweave.specweave-curator';

export async function api(): Promise<SpecWeaveApi> {
  const ext = vscode.extensions.getExtension<SpecWeaveApi>(extensionId);
  if (!ext) throw new Error(`${extensionId} is not loaded`);
  return ext.activate();
}

/** The project root (the extension under development). */
export function projectRoot(): string {
  const ext = vscode.extensions.getExtension(extensionId);
  if (!ext) throw new Error(`${extensionId} is not loaded`);
  return ext.extensionPath;
}

const gitEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
  GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8' }).trim();
}

/**
 * A copy of test/fixtures/datasets/tiny in a fresh temp folder, with the clone its task names (repos/hello) made by
 * git at a commit the test creates, and task.json pointing at that commit.
 */
export function tinyDatasetWithClone(): { root: string; commit: string } {
  const root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sw-inhost-')), 'tiny');
  fs.cpSync(path.join(projectRoot(), 'test/fixtures/datasets/tiny'), root, { recursive: true });
  const repo = path.join(root, 'repos/hello');
  fs.mkdirSync(path.join(repo, 'tests'), { recursive: true });
  fs.writeFileSync(path.join(repo, 'hello.py'), '"""Greetings."""\n');
  fs.writeFileSync(path.join(repo, 'tests/test_hello.py'), 'def test_existing():\n    assert True\n');
  git(repo, 'init', '-q');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'base');
  const commit = git(repo, 'rev-parse', 'HEAD');
  const taskFile = path.join(root, 'tasks/t1/task.json');
  fs.writeFileSync(taskFile, fs.readFileSync(taskFile, 'utf8').replace(/0123456789abcdef0123456789abcdef01234567/, commit));
  return { root, commit };
}

export async function until<T>(what: string, fn: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Waits for the statistics page to say `ready` and get its first model. The bound covers the page-load watchdog's
 * whole recovery (up to three loads of 8 s of visible time each, when VS Code's webview fails to start), so a slow
 * but recovering load passes; the message says where the load stood.
 */
export async function statsHandshake(a: SpecWeaveApi, timeoutMs = 60_000): Promise<void> {
  const p = a.curation.curationPanels;
  try {
    await until('the statistics webview handshake', () => p.posted.stats > 0, timeoutMs);
  } catch (e) {
    throw new Error(`${e instanceof Error ? e.message : String(e)} (panel: ${JSON.stringify(p.loadState('stats'))})`);
  }
}

/** Opens `root` through the command and waits until every task is loaded. */
export async function openDataset(a: SpecWeaveApi, root: string): Promise<void> {
  const ok = await vscode.commands.executeCommand<boolean>('specweave.dataset.open', root);
  if (!ok) throw new Error(`specweave.dataset.open ${root} failed`);
  await a.dataset.whenLoaded();
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

export function activeTabInput(): unknown {
  return vscode.window.tabGroups.activeTabGroup.activeTab?.input;
}

/**
 * The curation suites' set-up: `curator` as the curator name, a new tiny dataset (with its clone) open and its curation
 * store ready. `curatorDatasetDone` is the matching tear-down.
 */
export async function openCuratorDataset(curator: string): Promise<{ a: SpecWeaveApi; root: string }> {
  const a = await api();
  await vscode.workspace.getConfiguration('specweave').update('curator.name', curator, vscode.ConfigurationTarget.Global);
  const root = tinyDatasetWithClone().root;
  await openDataset(a, root);
  await until('the curation store', () => a.curation.store?.root === root, 10_000);
  return { a, root };
}

/** Undoes `openCuratorDataset`'s curator name and closes the editors it left open. */
export async function curatorDatasetDone(): Promise<void> {
  await vscode.workspace.getConfiguration('specweave').update('curator.name', undefined, vscode.ConfigurationTarget.Global);
  await closeAllEditors();
}
