// The open dataset's owner over a real dataset folder, without VS Code: a task source made of the host's own task
// map and a plain emitter (what the dataset service is, minus its watcher and chunked load), and a counter of full
// dataset loads (listings of tasks/: a load of given folders does not list it).
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { LoadOptions } from '../../../src/adapters/fs/datasetLoader';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import type { DatasetChange } from '../../../src/vscode/datasetService';
import { Emitter } from '../../../src/vscode/emitter';
import type { OpenDatasetDeps, TaskSource } from '../../../src/vscode/openDataset';
import { OpenDataset } from '../../../src/vscode/openDataset';
import { TaskMap, folderOf } from '../../../src/vscode/taskMap';

export class MemoryTaskSource implements TaskSource {
  readonly map: TaskMap;
  readonly changes = new Emitter<DatasetChange>();
  readonly onDidChange = this.changes.event;
  root: string | undefined;
  loading = false;
  /** Loads through the task map: `only` loads are folder refreshes, the rest are full loads. */
  readonly loads: LoadOptions[] = [];

  constructor() {
    this.map = new TaskMap((root, opts) => {
      this.loads.push(opts);
      return loadDataset(root, opts);
    });
  }
  get manifest() {
    return this.map.manifest;
  }
  get tasks() {
    return this.map.tasks;
  }
  task(id: string) {
    return this.map.task(id);
  }
  whenLoaded(): Promise<void> {
    return Promise.resolve();
  }
  /** Opens and loads the whole dataset, as the dataset service does (then `loaded`). */
  open(root: string): void {
    this.root = root;
    this.map.clear();
    this.changes.fire({ kind: 'opened' });
    const names = fs.readdirSync(path.join(root, 'tasks')).filter((n) => !n.startsWith('.')).sort();
    this.map.loadFolders(root, names, true);
    this.changes.fire({ kind: 'loaded' });
  }
  refreshTasks(taskIds: readonly string[]): void {
    if (!this.root) return;
    const folders = taskIds.map((id) => {
      const t = this.map.task(id);
      return t ? folderOf(t) : id;
    });
    this.changes.fire({ kind: 'tasks', taskIds: this.map.loadFolders(this.root, folders, false) });
  }
}

/** Counts full listings of `<root>/tasks` (what a whole-dataset load does first) while `fn` runs. */
export async function countFullLoads<T>(root: string, fn: () => Promise<T> | T): Promise<{ value: T; fullLoads: number }> {
  const tasksDir = path.join(root, 'tasks');
  // The module object itself (an `import * as` namespace only has getters over it).
  const nodeFs = createRequire(__filename)('node:fs') as { readdirSync: unknown };
  const real = nodeFs.readdirSync;
  let n = 0;
  nodeFs.readdirSync = function (this: unknown, p: fs.PathLike, ...rest: unknown[]) {
    if (path.resolve(String(p)) === tasksDir) n++;
    return (real as (...a: unknown[]) => unknown).call(this, p, ...rest);
  };
  try {
    const value = await fn();
    return { value, fullLoads: n };
  } finally {
    nodeFs.readdirSync = real;
  }
}

export function ownerOver(root: string, over: Partial<OpenDatasetDeps> = {}): { owner: OpenDataset; source: MemoryTaskSource; logs: string[] } {
  const source = new MemoryTaskSource();
  const logs: string[] = [];
  const owner = new OpenDataset({
    tasks: source,
    settings: () => ({ curatorName: 'alice', policy: 'adjudicate' }),
    log: { info: (m) => logs.push(m), warn: (m) => logs.push(m), error: (m) => logs.push(m) },
    pollMs: 0,
    ...over,
  });
  source.open(root);
  return { owner, source, logs };
}
