// Read-only virtual documents for the native diff editor: a task's base file (git show from its clone), a column's
// version of a file (its patch applied to the base), and one file's part of a patch. Anything that cannot be shown
// as a diff opens as the raw patch with a message saying why.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { notify } from './notify';
import { gitShow, isGitClone } from '../adapters/fs/git';
import type { GitShowResult } from '../adapters/fs/git';
import { readDatasetText, repoPath, resolveDatasetPath } from '../adapters/fs/datasetLoader';
import type { CandidateTask } from '../core/model';
import { applyFilePatch, filePath, parsePatch } from '../core/patch';
import type { FilePatch } from '../core/patch';
import { GOLD_PROBE } from '../core/model';
import { findFile } from '../core/view/patchFiles';
import { findTestSource, parseTestName } from '../core/testSource';
import { DOC_SCHEME } from './commandIds';
import type { DatasetService } from './datasetService';
import { errorText } from '../core/errorText';

export type DocKind = 'base' | 'version' | 'filepatch';
const BASE = '@base';

export interface DocRef {
  kind: DocKind;
  taskId: string;
  /** Column id (`gold` or an attempt id); `@base` for the base file. */
  column: string;
  /** Path of the file in the repository. */
  path: string;
}

export function docUri(ref: DocRef): vscode.Uri {
  const column = ref.kind === 'base' ? BASE : ref.column;
  const suffix = ref.kind === 'filepatch' ? '.diff' : '';
  return vscode.Uri.from({ scheme: DOC_SCHEME, path: `/${ref.taskId}/${column}/${ref.path}${suffix}`, query: `kind=${ref.kind}` });
}

export function parseDocUri(uri: vscode.Uri): DocRef | undefined {
  if (uri.scheme !== DOC_SCHEME) return undefined;
  const kind = /(?:^|&)kind=(base|version|filepatch)(?:&|$)/.exec(uri.query)?.[1] as DocKind | undefined;
  const m = /^\/([^/]+)\/([^/]+)\/(.+)$/.exec(uri.path);
  if (!kind || !m) return undefined;
  const p = kind === 'filepatch' ? (m[3] as string).replace(/\.diff$/, '') : (m[3] as string);
  return { kind, taskId: m[1] as string, column: m[2] as string, path: p };
}

export type OpenOutcome = { opened: 'diff' | 'patch'; message?: string };

type VersionResult = { ok: true; text: string } | { ok: false; reason: string; patchOnly: boolean };

export class DiffDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private readonly baseCache = new Map<string, Promise<GitShowResult>>();
  private readonly sub: vscode.Disposable;

  constructor(
    private readonly dataset: DatasetService,
    private readonly gitPath: () => string,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.sub = dataset.onDidChange((c) => {
      this.baseCache.clear();
      const ids = c.kind === 'tasks' ? new Set(c.taskIds) : undefined;
      for (const doc of vscode.workspace.textDocuments) {
        const ref = parseDocUri(doc.uri);
        if (ref && (!ids || ids.has(ref.taskId))) this.emitter.fire(doc.uri);
      }
    });
  }

  dispose(): void {
    this.sub.dispose();
    this.emitter.dispose();
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ref = parseDocUri(uri);
    if (!ref) return `Not a SpecWeave document: ${uri.toString()}`;
    const task = this.dataset.task(ref.taskId);
    if (!task) return `Task ${ref.taskId} is not in the open dataset.`;
    if (ref.kind === 'filepatch') {
      const fp = this.filePatch(task, ref.column, ref.path);
      return 'error' in fp ? fp.error : fp.text;
    }
    const r = ref.kind === 'base' ? await this.base(task, ref.path, true) : await this.version(task, ref.column, ref.path);
    return r.ok ? r.text : `(${r.reason})`;
  }

  /** Whether base files can be read for the task, and why not. */
  baseAvailability(task: CandidateTask): { ok: true } | { ok: false; reason: string } {
    const root = this.dataset.root;
    if (task.repo.kind !== 'git') {
      return { ok: false, reason: `the repository of ${task.id} lives in the image ${task.environment.image || '(none)'}; there is no local clone to read base files from` };
    }
    if (!root) return { ok: false, reason: 'no dataset is open' };
    const dir = repoPath(root, task.repo);
    if (!isGitClone(dir)) {
      return { ok: false, reason: `the repository clone ${path.relative(root, dir) || dir} is missing (build or clone it at commit ${task.repo.baseCommit.slice(0, 12)})` };
    }
    return { ok: true };
  }

  /** Opens base vs the column's version of `filePath`; falls back to that file's raw patch, with the reason. */
  async openDiff(taskId: string, column: string, file: string, viewColumn = vscode.ViewColumn.Active): Promise<OpenOutcome> {
    const task = this.dataset.task(taskId);
    if (!task) return this.fail(`Task ${taskId} is not in the open dataset.`);
    const found = this.filePatch(task, column, file);
    if ('error' in found) return this.fail(found.error);
    // The path as the patch names it (a trajectory's edit may name /repo/src/x.py for src/x.py).
    file = filePath(found.file);
    const fp = found;
    const version = await this.version(task, column, file);
    if (!version.ok) return this.openRawPatch(task, column, file, `Showing the patch of ${file} instead of a diff: ${version.reason}.`, viewColumn);
    const basePath = fp.file.oldPath ?? file;
    const left = docUri({ kind: 'base', taskId, column: BASE, path: basePath });
    const right = docUri({ kind: 'version', taskId, column, path: file });
    const title = `${path.posix.basename(file)} (base ↔ ${columnLabel(column)}) · ${taskId}`;
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true, viewColumn });
    return { opened: 'diff' };
  }

  /** Opens two columns' versions of the same file against each other. */
  async compare(taskId: string, leftColumn: string, rightColumn: string, file: string, viewColumn = vscode.ViewColumn.Active): Promise<{ opened: boolean; message?: string }> {
    const task = this.dataset.task(taskId);
    if (!task) return { opened: false, message: this.warn(`Task ${taskId} is not in the open dataset.`) };
    for (const c of [leftColumn, rightColumn]) {
      const r = await this.version(task, c, file);
      if (!r.ok) return { opened: false, message: this.warn(`Cannot compare ${file} of ${columnLabel(leftColumn)} and ${columnLabel(rightColumn)}: ${columnLabel(c)}: ${r.reason}.`) };
    }
    const title = `${path.posix.basename(file)} (${columnLabel(leftColumn)} ↔ ${columnLabel(rightColumn)}) · ${taskId}`;
    await vscode.commands.executeCommand(
      'vscode.diff',
      docUri({ kind: 'version', taskId, column: leftColumn, path: file }),
      docUri({ kind: 'version', taskId, column: rightColumn, path: file }),
      title,
      { preview: true, viewColumn },
    );
    return { opened: true };
  }

  /** Opens the test patch at the test's source (or at its top, saying the test is not in it). */
  async openTest(taskId: string, testId: string, viewColumn = vscode.ViewColumn.Active): Promise<{ opened: boolean; message?: string }> {
    const task = this.dataset.task(taskId);
    const root = this.dataset.root;
    const test = task?.tests.find((t) => t.id === testId);
    if (!task || !root || !test) return { opened: false, message: this.warn(`Test ${testId} is not in task ${taskId}.`) };
    let line = 1;
    let message: string | undefined;
    try {
      const src = findTestSource(parsePatch(readDatasetText(root, task.files.testPatch)), parseTestName(test.name));
      if (src) line = src.patchLine;
      else message = `${test.name} is not added by the test patch (it may be an existing test); showing the test patch.`;
      const uri = vscode.Uri.file(resolveDatasetPath(root, task.files.testPatch));
      const pos = new vscode.Position(line - 1, 0);
      await vscode.window.showTextDocument(uri, { selection: new vscode.Range(pos, pos), preview: true, viewColumn });
    } catch (e) {
      return { opened: false, message: this.warn(`Cannot open the test patch of ${taskId}: ${errorText(e)}`) };
    }
    if (message) void notify.info(message);
    return { opened: true, ...(message ? { message } : {}) };
  }

  /** Opens a column's whole patch file. */
  async openPatchFile(taskId: string, column: string, viewColumn = vscode.ViewColumn.Active): Promise<{ opened: boolean; message?: string }> {
    const task = this.dataset.task(taskId);
    const root = this.dataset.root;
    const rel = task && patchFileOf(task, column);
    if (!task || !root || !rel) return { opened: false, message: this.warn(`${columnLabel(column)} of ${taskId} has no patch file.`) };
    try {
      await vscode.window.showTextDocument(vscode.Uri.file(resolveDatasetPath(root, rel)), { preview: true, viewColumn });
      return { opened: true };
    } catch (e) {
      return { opened: false, message: this.warn(`Cannot open ${rel}: ${errorText(e)}`) };
    }
  }

  private async openRawPatch(task: CandidateTask, column: string, file: string, message: string, viewColumn: vscode.ViewColumn): Promise<OpenOutcome> {
    const doc = await vscode.workspace.openTextDocument(docUri({ kind: 'filepatch', taskId: task.id, column, path: file }));
    await vscode.window.showTextDocument(doc, { preview: true, viewColumn });
    void notify.info(message);
    this.log.info(message);
    return { opened: 'patch', message };
  }

  private fail(message: string): OpenOutcome {
    // The caller's request fails; the webview shows the reason next to the file.
    throw new Error(this.warn(message));
  }

  private warn(message: string): string {
    void notify.warn(message);
    this.log.warn(message);
    return message;
  }

  /** The part of the column's patch about `file`, with its parsed hunks. */
  private filePatch(task: CandidateTask, column: string, file: string): { file: FilePatch; text: string } | { error: string } {
    const root = this.dataset.root;
    const rel = patchFileOf(task, column);
    if (!root || !rel) return { error: `${columnLabel(column)} of ${task.id} has no patch.` };
    let text: string;
    try {
      text = readDatasetText(root, rel);
    } catch (e) {
      return { error: `Cannot read ${rel}: ${errorText(e)}` };
    }
    const parsed = parsePatch(text, rel);
    const i = findFile(parsed.files, file, task.environment.workdir);
    const fp = parsed.files[i];
    if (!fp) return { error: `${columnLabel(column)} does not change ${file}.` };
    const lines = text.split('\n');
    const next = parsed.files[i + 1];
    const end = next ? next.patchLine - 1 : lines.length;
    return { file: fp, text: lines.slice(fp.patchLine - 1, end).join('\n').replace(/\n*$/, '\n') };
  }

  private base(task: CandidateTask, file: string, missingIsEmpty: boolean): Promise<VersionResult> {
    const avail = this.baseAvailability(task);
    if (!avail.ok) return Promise.resolve({ ok: false, reason: avail.reason, patchOnly: true });
    const root = this.dataset.root as string;
    const repo = task.repo as { path: string; baseCommit: string };
    const dir = repoPath(root, repo);
    const key = `${dir}\u0000${repo.baseCommit}\u0000${file}`;
    let p = this.baseCache.get(key);
    if (!p) {
      p = gitShow(dir, repo.baseCommit, file, { gitPath: this.gitPath() });
      this.baseCache.set(key, p);
    }
    return p.then((r): VersionResult => {
      if (r.ok) return { ok: true, text: r.text };
      if (r.kind === 'no-path' && missingIsEmpty) return { ok: true, text: '' };
      return { ok: false, reason: r.message, patchOnly: true };
    });
  }

  /** The column's version of a file: its patch applied to the base, or the base when the patch leaves it alone. */
  private async version(task: CandidateTask, column: string, file: string): Promise<VersionResult> {
    const fp = this.filePatch(task, column, file);
    if ('error' in fp) {
      // Not touched by this column: its version is the base file.
      return this.base(task, file, false);
    }
    if (fp.file.status === 'binary') return { ok: false, reason: `${file} is a binary change`, patchOnly: true };
    const basePath = fp.file.oldPath ?? file;
    const base = fp.file.status === 'added' ? { ok: true as const, text: '' } : await this.base(task, basePath, false);
    if (!base.ok) return base;
    const applied = applyFilePatch(base.text, fp.file);
    if (!applied.ok) return { ok: false, reason: `the patch does not apply to the base file (${applied.reason})`, patchOnly: true };
    return { ok: true, text: applied.text };
  }
}

export function patchFileOf(task: CandidateTask, column: string): string | undefined {
  return column === GOLD_PROBE ? task.files.goldPatch : task.attempts.find((a) => a.id === column)?.patchFile;
}

function columnLabel(column: string): string {
  return column === GOLD_PROBE ? 'gold patch' : column === BASE ? 'base' : column;
}
