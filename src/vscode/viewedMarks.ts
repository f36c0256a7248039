// Viewed marks, as a pull request's viewed files: the curator ticks an attempt, or a file of its patch, as viewed in
// the task view or the Candidates tree; the mark holds while what it covers is unchanged (core/view/viewed.ts), so a
// patch rewritten since (a repair, a re-import) shows as not viewed again. Kept in the workspace state of this window
// (a curator's own reading progress, not a judgment: the review log does not hold it).
//
// Owns: the marks. The task view gets them through its section (`viewed`), the tree asks `isViewed`.
import type * as vscode from 'vscode';
import { readDatasetText } from '../adapters/fs/datasetLoader';
import type { CandidateTask } from '../core/model';
import { viewedFingerprint } from '../core/view/viewed';
import type { ViewedView } from '../protocol/messages';
import { patchFileOf } from './diffDocuments';
import { Emitter } from './emitter';
import type { TaskViewSection } from './taskSections';

const KEY = 'specweave.viewed.v1';
/** Most marks kept; the oldest go first. */
export const MAX_VIEWED_MARKS = 50_000;

export interface ViewedDeps {
  memento: vscode.Memento;
  dataset: { readonly root: string | undefined; task(id: string): CandidateTask | undefined };
}

export class ViewedMarks implements vscode.Disposable {
  private readonly changes = new Emitter<readonly string[] | undefined>();
  /** Fires with the tasks whose marks changed. */
  readonly onDidChange = this.changes.event;
  /** Fingerprints by (dataset, task, column, path) of the current dataset's tasks, computed once per text seen. */
  private readonly prints = new Map<string, string | undefined>();
  readonly section: TaskViewSection;

  constructor(private readonly d: ViewedDeps) {
    this.section = {
      name: 'viewed marks',
      onDidChange: this.onDidChange,
      contribute: (taskId) => {
        const v = this.view(taskId);
        return v ? { viewed: v } : undefined;
      },
    };
  }

  dispose(): void {
    this.changes.dispose();
  }

  /** Forgets computed fingerprints (a task's files changed on disk): marks are checked against the new text. */
  forget(taskIds?: readonly string[]): void {
    if (!taskIds) this.prints.clear();
    else for (const k of [...this.prints.keys()]) if (taskIds.includes((JSON.parse(k) as string[])[1] as string)) this.prints.delete(k);
    this.changes.fire(taskIds);
  }

  /** Whether the column (or its file `path`) is marked viewed and unchanged since. */
  isViewed(taskId: string, column: string, path?: string): boolean {
    const k = this.key(taskId, column, path);
    if (!k) return false;
    const mark = this.marks()[k];
    return mark !== undefined && mark === this.fingerprint(k, taskId, column, path);
  }

  /** The task's marks that still hold, or undefined when it has none. */
  view(taskId: string): ViewedView | undefined {
    const root = this.d.dataset.root;
    const task = this.d.dataset.task(taskId);
    if (!root || !task) return undefined;
    const out: ViewedView = { columns: [], files: [] };
    for (const [k, mark] of Object.entries(this.marks())) {
      const [r, t, column, path] = JSON.parse(k) as [string, string, string, string];
      if (r !== root || t !== taskId) continue;
      if (mark !== this.fingerprint(k, taskId, column, path || undefined)) continue;
      if (path) out.files.push({ column, path });
      else out.columns.push(column);
    }
    return out.columns.length + out.files.length > 0 ? out : undefined;
  }

  async set(taskId: string, column: string, path: string | undefined, viewed: boolean): Promise<{ ok: boolean; message?: string }> {
    const k = this.key(taskId, column, path);
    if (!k) return { ok: false, message: `Task ${taskId} is not in the open dataset.` };
    const all = { ...this.marks() };
    delete all[k];
    if (viewed) {
      const print = this.fingerprint(k, taskId, column, path);
      if (print === undefined) return { ok: false, message: path ? `${column} does not change ${path}.` : `${column} has no patch to mark.` };
      all[k] = print;
      const keys = Object.keys(all);
      for (const old of keys.slice(0, Math.max(0, keys.length - MAX_VIEWED_MARKS))) delete all[old];
    }
    await this.d.memento.update(KEY, all);
    this.changes.fire([taskId]);
    return { ok: true };
  }

  private marks(): Record<string, string> {
    return this.d.memento.get<Record<string, string>>(KEY) ?? {};
  }

  private key(taskId: string, column: string, path: string | undefined): string | undefined {
    const root = this.d.dataset.root;
    if (!root || !this.d.dataset.task(taskId)) return undefined;
    return JSON.stringify([root, taskId, column, path ?? '']);
  }

  private fingerprint(k: string, taskId: string, column: string, path: string | undefined): string | undefined {
    if (this.prints.has(k)) return this.prints.get(k);
    const root = this.d.dataset.root;
    const task = this.d.dataset.task(taskId);
    const rel = task && patchFileOf(task, column);
    let print: string | undefined;
    if (root && task && rel) {
      try {
        print = viewedFingerprint(readDatasetText(root, rel), path, task.environment.workdir);
      } catch {
        // An unreadable patch holds no mark; the task view says why it cannot show the patch.
        print = undefined;
      }
    }
    if (this.prints.size > 20_000) this.prints.clear();
    this.prints.set(k, print);
    return print;
  }
}
