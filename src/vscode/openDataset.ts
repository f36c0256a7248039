// The one owner of the open dataset's state in the extension host: the task map (the dataset service's), the one
// curation store (review log and review state), the one run index (stored runs and current patch bytes per task),
// the curator identity, and one typed change event. It is built first in `activate`; the verifier, repair and
// curation features receive it and read from it. Changes come from the dataset service's one file watcher (task
// folders, runs/, the review log) and from a poll of the log for writers the watcher misses; a changed task folder
// updates only that task in the store, never the whole dataset.
//
// Type-only `vscode` imports: the logic runs (and is unit-tested, and benchmarked) without VS Code.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CandidateTask, DatasetManifest } from '../core/model';
import type { ConsensusPolicy } from '../core/review/consensus';
import type { CuratorSource } from '../core/review/curator';
import type { CurrentPatches } from '../core/review/fromRuns';
import type { VerifierRunRecord } from '../core/verify/runResult';
import { CURATION_DIR, LOG_FILE } from '../adapters/fs/reviewLog';
import type { RunSource } from '../app/curationStore';
import { CurationStore, diskRunSource, resolveCurator } from '../app/curationStore';
import type { DatasetChange } from './datasetService';
import type { Disposable } from './emitter';
import { Emitter } from './emitter';
import { errorText } from '../core/errorText';

/** The setting a curator name comes from in VS Code; every refusal names it. */
export const CURATOR_SETTING = 'specweave.curator.name';

export type CuratorName = { ok: true; name: string; source: CuratorSource } | { ok: false; message: string };

/** What changed: these tasks' folders (`all` after open/close), the review log, these tasks' stored runs. */
export interface OpenDatasetChange {
  tasks?: readonly string[] | 'all';
  log?: true;
  runs?: readonly string[] | 'all';
  /** The curator identity or the consensus policy changed (settings). */
  settings?: true;
}


/** What the owner needs of the dataset service (the task map, its loading state and its one watcher's events). */
export interface TaskSource {
  readonly root: string | undefined;
  readonly manifest: DatasetManifest | undefined;
  readonly loading: boolean;
  readonly tasks: readonly CandidateTask[];
  task(id: string): CandidateTask | undefined;
  onDidChange(listener: (c: DatasetChange) => void): Disposable;
  /** Resolves when the current load has finished. */
  whenLoaded(): Promise<void>;
  /** Reads these tasks' folders again now and fires one `tasks` change. */
  refreshTasks(taskIds: readonly string[]): void;
}

export interface OwnerSettings {
  /** `specweave.curator.name`, as typed; empty: git's user.name, then the login name. */
  curatorName: string;
  policy: ConsensusPolicy;
}

export interface OpenDatasetDeps {
  tasks: TaskSource;
  settings: () => OwnerSettings;
  log: { info(m: string): void; warn(m: string): void; error(m: string): void };
  /** Shown to the user (a notification in VS Code). */
  notify?: (level: 'warning' | 'error', message: string) => void;
  /** Resolves the curator (default: the setting, else git, else the login name); tests inject one. */
  resolveCurator?: typeof resolveCurator;
  /** Where runs and patches are read from (default: the dataset's files); tests and benchmarks inject one. */
  runSource?: (root: string) => RunSource;
  /** How often the log file is checked for appends the file watcher may miss (default 2 s; 0: never). */
  pollMs?: number;
}

/** Runs listed and patch bytes read once per change of a task, shared by the verifier's results and the store. */
export class RunIndex implements RunSource {
  private readonly runsByTask = new Map<string, Map<string, VerifierRunRecord[]>>();
  private readonly patchesByTask = new Map<string, { task: CandidateTask; patches: CurrentPatches }>();
  /** Disk reads done (for tests and benchmarks). */
  reads = 0;

  constructor(private readonly disk: RunSource) {}

  runs(taskId: string): Map<string, VerifierRunRecord[]> {
    let r = this.runsByTask.get(taskId);
    if (!r) {
      this.reads++;
      r = this.disk.runs(taskId);
      this.runsByTask.set(taskId, r);
    }
    return r;
  }

  currentPatches(task: CandidateTask): CurrentPatches {
    const c = this.patchesByTask.get(task.id);
    // A task object is replaced when its folder is read again: a different object means other patches.
    if (c && c.task === task) return c.patches;
    this.reads++;
    const patches = this.disk.currentPatches(task);
    this.patchesByTask.set(task.id, { task, patches });
    return patches;
  }

  /** Forgets one task's runs (new runs stored), or everything. */
  invalidateRuns(taskId?: string): void {
    if (taskId === undefined) this.runsByTask.clear();
    else this.runsByTask.delete(taskId);
  }

  /** Forgets one task's patch bytes (its folder changed). */
  invalidatePatches(taskId: string): void {
    this.patchesByTask.delete(taskId);
  }

  clear(): void {
    this.runsByTask.clear();
    this.patchesByTask.clear();
  }
}

export class OpenDataset implements Disposable {
  private readonly emitter = new Emitter<OpenDatasetChange>();
  /** One typed change event for everything the owner holds. */
  readonly onDidChange = this.emitter.event;
  private storeValue: CurationStore | undefined;
  private runIndexValue: RunIndex | undefined;
  private curatorValue: CuratorName = { ok: false, message: 'no dataset is open' };
  private settingsValue: OwnerSettings;
  private readonly sub: Disposable;
  private poll: NodeJS.Timeout | undefined;
  private logStamp = '';
  /** Store open failures, for the problems view and tests. */
  lastError: string | undefined;

  constructor(private readonly d: OpenDatasetDeps) {
    this.settingsValue = d.settings();
    this.sub = d.tasks.onDidChange((c) => this.onTasks(c));
    if (d.tasks.root && !d.tasks.loading) this.openStore();
  }

  /** The task map (the dataset service). */
  get tasks(): TaskSource {
    return this.d.tasks;
  }
  get root(): string | undefined {
    return this.d.tasks.root;
  }
  /** The curation store of the open dataset, once it has loaded. */
  get store(): CurationStore | undefined {
    return this.storeValue;
  }
  /** Stored runs and current patches; undefined while no dataset is loaded. */
  get runs(): RunIndex | undefined {
    return this.runIndexValue;
  }
  get settings(): OwnerSettings {
    return this.settingsValue;
  }
  /** The curator the review log records, resolved once per dataset and settings change. */
  get curator(): CuratorName {
    return this.curatorValue;
  }

  /** The curator's name, or an Error naming the setting (every feature that records refuses the same way). */
  requireCurator(): string {
    const c = this.curatorValue;
    if (!c.ok) throw new CuratorRefusedError(c.message);
    return c.name;
  }

  /** Re-reads the settings (curator name, policy); fires `settings` when something changed. */
  applySettings(): { curatorBefore: CuratorName; curatorAfter: CuratorName; changed: boolean } {
    const before = this.settingsValue;
    const curatorBefore = this.curatorValue;
    this.settingsValue = this.d.settings();
    if (this.storeValue) this.storeValue.policy = this.settingsValue.policy;
    this.resolveCuratorName();
    const changed = before.policy !== this.settingsValue.policy || JSON.stringify(curatorBefore) !== JSON.stringify(this.curatorValue);
    if (changed) this.emitter.fire({ settings: true });
    return { curatorBefore, curatorAfter: this.curatorValue, changed };
  }

  /** Reads these tasks' folders again (after repair wrote a revision): only they change, in the map and the store. */
  refreshTasks(taskIds: readonly string[]): void {
    this.d.tasks.refreshTasks(taskIds);
  }

  /** Reads what other writers appended to the review log; true when the review state changed. */
  refreshLog(): boolean {
    const store = this.storeValue;
    if (!store) return false;
    this.logStamp = stampOf(path.join(store.root, CURATION_DIR, LOG_FILE));
    let changed: boolean;
    try {
      changed = store.refresh();
    } catch (e) {
      this.d.log.error(`reading the review log failed: ${errorText(e)}`);
      return false;
    }
    if (changed) this.emitter.fire({ log: true });
    return changed;
  }

  /** The review log was written through the store (a label, an accept): tell every view. */
  logWritten(): void {
    const root = this.storeValue?.root;
    if (root) this.logStamp = stampOf(path.join(root, CURATION_DIR, LOG_FILE));
    this.emitter.fire({ log: true });
  }

  /** New runs were stored for these tasks (by this window's queue, or seen by the watcher). */
  runsChanged(taskIds: readonly string[]): void {
    for (const id of taskIds) {
      this.runIndexValue?.invalidateRuns(id);
      this.storeValue?.invalidateRuns(id);
    }
    this.emitter.fire({ runs: taskIds });
  }

  dispose(): void {
    this.closeStore(false);
    this.sub.dispose();
    this.emitter.dispose();
  }

  private onTasks(c: DatasetChange): void {
    switch (c.kind) {
      case 'opened':
      case 'closed':
        this.closeStore(true);
        return;
      case 'loaded':
        this.openStore();
        return;
      case 'tasks': {
        // Only these tasks: the map has read their folders; the store takes the new task objects as they are.
        for (const id of c.taskIds) this.runIndexValue?.invalidatePatches(id);
        this.storeValue?.updateTasks(c.taskIds, (id) => this.d.tasks.task(id));
        this.emitter.fire({ tasks: c.taskIds });
        return;
      }
      case 'runs':
        this.runsChanged(c.taskIds);
        return;
      case 'log':
        this.refreshLog();
        return;
      case 'progress':
      case 'probes':
        return;
    }
  }

  private resolveCuratorName(): void {
    const resolve = this.d.resolveCurator ?? resolveCurator;
    const setting = this.settingsValue.curatorName;
    const r = resolve({ setting, ...(this.d.tasks.root ? { cwd: this.d.tasks.root } : {}) });
    this.curatorValue = r.ok
      ? { ok: true, name: r.name, source: r.source }
      : {
          ok: false,
          message:
            setting !== ''
              ? `the curator name in ${CURATOR_SETTING} is refused: ${r.message}; set a valid one in ${CURATOR_SETTING} (SpecWeave: Set Curator Name)`
              : `${r.message}; or set ${CURATOR_SETTING} (SpecWeave: Set Curator Name)`,
        };
  }

  private openStore(): void {
    const root = this.d.tasks.root;
    const manifest = this.d.tasks.manifest;
    if (!root || !manifest) return;
    this.closeStore(false);
    const t0 = performance.now();
    this.resolveCuratorName();
    const runs = new RunIndex((this.d.runSource ?? diskRunSource)(root));
    this.runIndexValue = runs;
    try {
      this.storeValue = CurationStore.forDataset({ root, manifest, tasks: [...this.d.tasks.tasks], problems: [] }, { policy: this.settingsValue.policy, runIndex: runs });
      this.lastError = undefined;
    } catch (e) {
      this.lastError = errorText(e);
      this.d.log.error(`the review log of ${root} could not be opened: ${this.lastError}`);
      this.d.notify?.('error', `SpecWeave: the review log could not be opened: ${this.lastError}`);
      this.emitter.fire({ tasks: 'all', log: true, runs: 'all' });
      return;
    }
    const store = this.storeValue;
    const problems = store.problems();
    const c = this.curatorValue;
    this.d.log.info(
      `review log ${path.join(root, CURATION_DIR, LOG_FILE)}: ${store.state.events.length} events in ${(performance.now() - t0).toFixed(0)} ms; curator ${c.ok ? `${c.name} (${c.source})` : `unset: ${c.message}`}`,
    );
    for (const p of problems.slice(0, 20)) this.d.log.warn(`${p.file}: ${p.message}`);
    if (problems.some((p) => p.severity === 'error' || /set aside|rejected|checksum|torn|malformed|symlink/i.test(p.message))) {
      // Reading writes nothing: bad lines stay where they are until the next decision is recorded, which copies them aside.
      this.d.notify?.(
        'warning',
        `SpecWeave: ${problems.length} problem(s) in the review log; bad lines are ignored (the next decision you record copies them into curation/events.rejected.jsonl). See the SpecWeave output.`,
      );
    }
    this.logStamp = stampOf(path.join(root, CURATION_DIR, LOG_FILE));
    const pollMs = this.d.pollMs ?? 2000;
    if (pollMs > 0) {
      this.poll = setInterval(() => {
        if (stampOf(path.join(root, CURATION_DIR, LOG_FILE)) !== this.logStamp) this.refreshLog();
      }, pollMs);
      this.poll.unref?.();
    }
    this.emitter.fire({ tasks: 'all', log: true, runs: 'all' });
  }

  private closeStore(fire: boolean): void {
    clearInterval(this.poll);
    this.poll = undefined;
    const had = this.storeValue !== undefined || this.runIndexValue !== undefined;
    this.storeValue = undefined;
    this.runIndexValue = undefined;
    this.curatorValue = { ok: false, message: 'no dataset is open' };
    if (had && fire) this.emitter.fire({ tasks: 'all', log: true, runs: 'all' });
  }
}

/** Recording was refused because the curator name is not usable; the message names the setting. */
export class CuratorRefusedError extends Error {}

function stampOf(file: string): string {
  try {
    const st = fs.statSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return 'missing';
  }
}
