// The open dataset: found in the workspace or picked by the user, loaded in chunks so the first rows show at once and
// the extension host stays responsive, and refreshed folder by folder when files change on disk.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { MANIFEST_FILE, TASKS_DIR } from '../core/dataset';
import type { CandidateTask, DatasetManifest, Problem } from '../core/model';
import { CURATION_DIR, LOG_FILE } from '../adapters/fs/reviewLog';
import { RUNS_DIR } from '../adapters/fs/runStore';
import { PROBES_DIR } from '../app/probes';
import type { DatasetLoader } from './taskMap';
import { TaskMap, folderOf } from './taskMap';
import { errorText } from '../core/errorText';

export { folderOf };

export type DatasetChange =
  | { kind: 'opened' | 'closed' | 'loaded' | 'progress' }
  /** Only these tasks changed (ids before and after the change). */
  | { kind: 'tasks'; taskIds: string[] }
  /** Stored verifier runs of these tasks changed on disk (runs/<task>/…). */
  | { kind: 'runs'; taskIds: string[] }
  /** Stored probe reports of these tasks (all: the probes/ folder itself) changed on disk (probes/<task>/*.json). */
  | { kind: 'probes'; taskIds: string[] | 'all' }
  /** The review log changed on disk (curation/events.jsonl): another writer may have appended. */
  | { kind: 'log' };

/** Tasks in the first chunk: small, so rows appear at once. */
const FIRST_CHUNK = 200;
/**
 * Each later chunk is sized to take about this long, with a pause between chunks: the extension host must keep
 * answering the workbench (tree refreshes, commands) while a large dataset loads, and its messages only go out
 * between chunks.
 */
const SLICE_MS = 100;
const PAUSE_MS = 15;
/** After the first chunk, time for the tree to fetch and show the first rows before loading goes on. */
const FIRST_PAUSE_MS = 150;
/** Tree refreshes while loading, at most one per this many milliseconds. */
const PROGRESS_MS = 3000;
/** Quiet time after the last file event before the changed task folders are reloaded. */
const WATCH_DEBOUNCE_MS = 250;
/** Quiet time after the last event under runs/ before the task views show the new runs. */
const RUNS_DEBOUNCE_MS = 100;

const LAST_ROOT_KEY = 'specweave.dataset.lastRoot';

export class DatasetService implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<DatasetChange>();
  readonly onDidChange = this.emitter.event;
  private rootPath: string | undefined;
  private readonly map: TaskMap;
  private runsDirty = new Set<string>();
  private runsDebounce: NodeJS.Timeout | undefined;
  private probesDirty = new Set<string>();
  private probesDebounce: NodeJS.Timeout | undefined;
  private generation = 0;
  private loadingNow = false;
  private expected = 0;
  private watcher: vscode.FileSystemWatcher | undefined;
  private dirty = new Set<string>();
  private manifestDirty = false;
  private debounce: NodeJS.Timeout | undefined;
  /** Resolves when the current load has finished (tests and benchmarks wait on it). */
  private loadedPromise: Promise<void> = Promise.resolve();
  /** Milliseconds from `open` to the first rows and to the whole dataset, for the benchmark. */
  timings = { firstRowsMs: 0, loadedMs: 0 };

  constructor(
    private readonly memento: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
    loader?: DatasetLoader,
  ) {
    this.map = new TaskMap(loader);
  }

  get root(): string | undefined {
    return this.rootPath;
  }
  get manifest(): DatasetManifest | undefined {
    return this.map.manifest;
  }
  get loading(): boolean {
    return this.loadingNow;
  }
  /** Tasks found on disk (what the progress counts against). */
  get expectedTasks(): number {
    return this.expected;
  }
  get problems(): readonly Problem[] {
    return this.map.problems;
  }
  get taskCount(): number {
    return this.map.size;
  }

  /** Tasks sorted by id. */
  get tasks(): readonly CandidateTask[] {
    return this.map.tasks;
  }

  task(id: string): CandidateTask | undefined {
    return this.map.task(id);
  }

  /**
   * Reads these tasks' folders again now (e.g. after repair wrote a new revision), without waiting for the watcher,
   * and fires one `tasks` change. Only those folders are read.
   */
  refreshTasks(taskIds: readonly string[]): void {
    const root = this.rootPath;
    if (!root) return;
    const folders = [...new Set(taskIds.map((id) => { const t = this.map.task(id); return t ? folderOf(t) : id; }))];
    for (const f of folders) this.dirty.delete(f);
    const changed = this.loadFolders(root, folders, false);
    this.emitter.fire({ kind: 'tasks', taskIds: changed });
  }

  whenLoaded(): Promise<void> {
    return this.loadedPromise;
  }

  /** Finds a dataset to open: the `specweave.dataset.path` setting, the workspace, or the one opened last time. */
  async detect(settingPath: string): Promise<string | undefined> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (settingPath) {
      const base = folders[0]?.uri.fsPath ?? process.cwd();
      const p = path.resolve(base, settingPath);
      if (fs.existsSync(path.join(p, MANIFEST_FILE))) return p;
      this.log.warn(`specweave.dataset.path is ${settingPath}, but ${p} holds no ${MANIFEST_FILE}`);
    }
    for (const f of folders) {
      if (f.uri.scheme === 'file' && fs.existsSync(path.join(f.uri.fsPath, MANIFEST_FILE))) return f.uri.fsPath;
    }
    if (folders.length > 0) {
      const found = await vscode.workspace.findFiles(`**/${MANIFEST_FILE}`, '{**/node_modules/**,**/.git/**}', 20);
      const dirs = found.filter((u) => u.scheme === 'file').map((u) => path.dirname(u.fsPath));
      dirs.sort((a, b) => a.split(path.sep).length - b.split(path.sep).length || (a < b ? -1 : 1));
      if (dirs[0]) return dirs[0];
    }
    const last = this.memento.get<string>(LAST_ROOT_KEY);
    if (last && fs.existsSync(path.join(last, MANIFEST_FILE))) return last;
    return undefined;
  }

  /** Opens the dataset at `root`; resolves when the first rows are loaded (the rest keeps loading). */
  async open(root: string): Promise<{ ok: true } | { ok: false; message: string }> {
    const abs = path.resolve(root);
    if (!fs.existsSync(path.join(abs, MANIFEST_FILE))) {
      return { ok: false, message: `${abs} is not a SpecWeave dataset: it has no ${MANIFEST_FILE}.` };
    }
    const t0 = performance.now();
    this.reset();
    const gen = this.generation;
    this.rootPath = abs;
    void this.memento.update(LAST_ROOT_KEY, abs);
    this.loadingNow = true;
    this.watch(abs);
    this.emitter.fire({ kind: 'opened' });
    const names = listTaskFolders(abs);
    this.expected = names.length;
    let resolveLoaded: () => void = () => undefined;
    this.loadedPromise = new Promise((r) => (resolveLoaded = r));
    let lastProgress = performance.now();
    const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
    this.loadFolders(abs, names.slice(0, FIRST_CHUNK), true);
    this.timings.firstRowsMs = performance.now() - t0;
    this.emitter.fire({ kind: 'progress' });
    // The rest loads in the background, in time slices, so the host stays responsive.
    void (async () => {
      try {
        let size = FIRST_CHUNK;
        if (names.length > FIRST_CHUNK) await sleep(FIRST_PAUSE_MS);
        for (let from = FIRST_CHUNK; from < names.length; ) {
          if (gen !== this.generation) return;
          const s0 = performance.now();
          this.loadFolders(abs, names.slice(from, from + size), false);
          from += size;
          const took = performance.now() - s0;
          size = Math.max(20, Math.min(2000, Math.round((size * SLICE_MS) / Math.max(took, 1))));
          if (performance.now() - lastProgress > PROGRESS_MS) {
            lastProgress = performance.now();
            this.emitter.fire({ kind: 'progress' });
          }
          await sleep(PAUSE_MS);
        }
        if (gen !== this.generation) return;
        this.loadingNow = false;
        this.timings.loadedMs = performance.now() - t0;
        this.log.info(
          `loaded ${this.map.size} tasks from ${abs}: first rows in ${this.timings.firstRowsMs.toFixed(0)} ms, all in ${this.timings.loadedMs.toFixed(0)} ms (${this.map.problems.length} problems)`,
        );
        this.emitter.fire({ kind: 'loaded' });
      } catch (e) {
        this.loadingNow = false;
        this.log.error(`loading ${abs} failed: ${errorText(e)}`);
        this.emitter.fire({ kind: 'loaded' });
      } finally {
        resolveLoaded();
      }
    })();
    return { ok: true };
  }

  async reload(): Promise<void> {
    if (this.rootPath) await this.open(this.rootPath);
  }

  close(): void {
    if (!this.rootPath) return;
    this.reset();
    void this.memento.update(LAST_ROOT_KEY, undefined);
    this.emitter.fire({ kind: 'closed' });
  }

  dispose(): void {
    this.reset();
    this.emitter.dispose();
  }

  private reset(): void {
    this.generation++;
    this.watcher?.dispose();
    this.watcher = undefined;
    clearTimeout(this.debounce);
    this.dirty.clear();
    this.manifestDirty = false;
    clearTimeout(this.runsDebounce);
    this.runsDirty.clear();
    clearTimeout(this.probesDebounce);
    this.probesDirty.clear();
    this.rootPath = undefined;
    this.map.clear();
    this.loadingNow = false;
    this.expected = 0;
  }

  /** Loads the given task folders, replacing what was known of them; returns the ids that changed. */
  private loadFolders(root: string, folders: readonly string[], withManifest: boolean): string[] {
    return this.map.loadFolders(root, folders, withManifest);
  }

  private watch(root: string): void {
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), '**/*'));
    const onEvent = (uri: vscode.Uri): void => {
      const rel = path.relative(root, uri.fsPath).split(path.sep);
      if (rel.length === 1 && rel[0] === MANIFEST_FILE) this.manifestDirty = true;
      else if (rel[0] === TASKS_DIR && rel[1] && !rel[1].startsWith('.')) this.dirty.add(rel[1]);
      else if (rel[0] === RUNS_DIR && rel[1] && rel.length > 2 && uri.fsPath.endsWith('.json')) {
        this.runsDirty.add(rel[1]);
        clearTimeout(this.runsDebounce);
        this.runsDebounce = setTimeout(() => this.flushRuns(), RUNS_DEBOUNCE_MS);
        return;
      } else if (rel[0] === PROBES_DIR && rel.length <= 3) {
        // A new folder can arrive as one event for the folder (the watcher coalesces what was written inside it).
        if (rel.length === 3 && !uri.fsPath.endsWith('.json')) return;
        this.probesDirty.add(rel[1] ?? '');
        clearTimeout(this.probesDebounce);
        this.probesDebounce = setTimeout(() => this.flushProbes(), RUNS_DEBOUNCE_MS);
        return;
      } else if (rel.length === 2 && rel[0] === CURATION_DIR && rel[1] === LOG_FILE) {
        this.emitter.fire({ kind: 'log' });
        return;
      } else return;
      clearTimeout(this.debounce);
      this.debounce = setTimeout(() => this.flushChanges(), WATCH_DEBOUNCE_MS);
    };
    w.onDidCreate(onEvent);
    w.onDidChange(onEvent);
    w.onDidDelete(onEvent);
    this.watcher = w;
  }

  private flushRuns(): void {
    const ids = [...this.runsDirty];
    this.runsDirty.clear();
    if (ids.length > 0 && this.rootPath) this.emitter.fire({ kind: 'runs', taskIds: ids });
  }

  private flushProbes(): void {
    const ids = [...this.probesDirty];
    this.probesDirty.clear();
    if (ids.length > 0 && this.rootPath) this.emitter.fire({ kind: 'probes', taskIds: ids.includes('') ? 'all' : ids });
  }

  private flushChanges(): void {
    const root = this.rootPath;
    if (!root) return;
    if (this.manifestDirty) {
      this.manifestDirty = false;
      this.dirty.clear();
      this.log.info(`${MANIFEST_FILE} changed: reloading the dataset`);
      void this.reload();
      return;
    }
    if (this.loadingNow) {
      // Still loading: the chunks not loaded yet will read the new files anyway; retry the rest afterwards.
      this.debounce = setTimeout(() => this.flushChanges(), WATCH_DEBOUNCE_MS);
      return;
    }
    const folders = [...this.dirty];
    this.dirty.clear();
    if (folders.length === 0) return;
    try {
      const changed = this.loadFolders(root, folders, false);
      this.log.info(`reloaded ${folders.length} changed task folder(s): ${folders.slice(0, 10).join(', ')}${folders.length > 10 ? ', …' : ''}`);
      this.emitter.fire({ kind: 'tasks', taskIds: changed });
    } catch (e) {
      this.log.error(`reloading ${folders.join(', ')} failed: ${errorText(e)}`);
    }
  }
}

function listTaskFolders(root: string): string[] {
  try {
    return fs
      .readdirSync(path.join(root, TASKS_DIR), { withFileTypes: true })
      .filter((d) => !d.name.startsWith('.') && (d.isDirectory() || d.isSymbolicLink()))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}
