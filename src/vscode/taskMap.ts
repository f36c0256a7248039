// The tasks of the open dataset in memory: by id, sorted on demand, with their load problems, replaced folder by
// folder. No `vscode` here: the dataset service (datasetService.ts) drives it from its chunked load and its watcher,
// and the unit tests and benchmarks drive it directly.
import type { LoadOptions } from '../adapters/fs/datasetLoader';
import { loadDataset } from '../adapters/fs/datasetLoader';
import { TASKS_DIR } from '../core/dataset';
import type { CandidateTask, Dataset, DatasetManifest, Problem } from '../core/model';

/** Loads task folders of a dataset (all of them without `only`). Injected by tests that count loads. */
export type DatasetLoader = (root: string, opts: LoadOptions) => Dataset;

export class TaskMap {
  private byId = new Map<string, CandidateTask>();
  /** Task ids by folder name (a folder may claim another id). */
  private byFolder = new Map<string, Set<string>>();
  private sorted: CandidateTask[] | undefined;
  /** Whole-dataset problems (manifest, guidelines), then each folder's, in load order. */
  private datasetProblems: Problem[] = [];
  private folderProblems = new Map<string, Problem[]>();
  private problemCache: Problem[] | undefined;
  private manifestValue: DatasetManifest | undefined;

  constructor(private readonly loader: DatasetLoader = loadDataset) {}

  get manifest(): DatasetManifest | undefined {
    return this.manifestValue;
  }
  get problems(): readonly Problem[] {
    this.problemCache ??= [...this.datasetProblems, ...[...this.folderProblems.values()].flat()];
    return this.problemCache;
  }
  get size(): number {
    return this.byId.size;
  }
  /** Tasks sorted by id. */
  get tasks(): readonly CandidateTask[] {
    this.sorted ??= [...this.byId.values()].sort(byId);
    return this.sorted;
  }
  task(id: string): CandidateTask | undefined {
    return this.byId.get(id);
  }

  clear(): void {
    this.byId = new Map();
    this.byFolder = new Map();
    this.sorted = undefined;
    this.datasetProblems = [];
    this.folderProblems = new Map();
    this.problemCache = undefined;
    this.manifestValue = undefined;
  }

  /**
   * Loads the given task folders, replacing what was known of them; returns the ids that changed (before and after).
   * The work is proportional to the folders read, not to the dataset: one folder of 15,000 costs one folder.
   */
  loadFolders(root: string, folders: readonly string[], withManifest: boolean): string[] {
    const ds = this.loader(root, { only: [...folders] });
    const set = new Set(folders);
    const before = new Set<string>();
    for (const f of set) {
      for (const id of this.byFolder.get(f) ?? []) {
        before.add(id);
        this.byId.delete(id);
      }
      this.byFolder.delete(f);
      this.folderProblems.delete(f);
    }
    const after = new Set<string>();
    for (const t of ds.tasks) {
      this.byId.set(t.id, t);
      after.add(t.id);
      const f = folderOf(t);
      let ids = this.byFolder.get(f);
      if (!ids) this.byFolder.set(f, (ids = new Set()));
      ids.add(t.id);
    }
    const datasetLevel: Problem[] = [];
    for (const p of ds.problems) {
      const f = folderOfProblem(p);
      if (f === undefined) datasetLevel.push(p);
      else if (set.has(f)) {
        let list = this.folderProblems.get(f);
        if (!list) this.folderProblems.set(f, (list = []));
        list.push(p);
      }
    }
    // Whole-dataset problems come with every load: take them from the first chunk only.
    if (withManifest) {
      this.datasetProblems = datasetLevel;
      this.manifestValue = ds.manifest;
    }
    this.problemCache = undefined;
    // The same ids before and after (an edited folder): patch the sorted list in place instead of sorting again.
    if (this.sorted && before.size === after.size && [...after].every((id) => before.has(id))) {
      // A new array (readers may hold the old one), without sorting 15,000 tasks again.
      this.sorted = this.sorted.slice();
      for (const id of after) {
        const i = indexById(this.sorted, id);
        if (i >= 0) this.sorted[i] = this.byId.get(id) as CandidateTask;
        else this.sorted = undefined;
        if (!this.sorted) break;
      }
    } else this.sorted = undefined;
    return [...new Set([...before, ...after])];
  }
}

const byId = (a: CandidateTask, b: CandidateTask): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function indexById(sorted: readonly CandidateTask[], id: string): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const m = (sorted[mid] as CandidateTask).id;
    if (m === id) return mid;
    if (m < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function folderOfProblem(p: Problem): string | undefined {
  const parts = p.file.split('/');
  return parts[0] === TASKS_DIR ? parts[1] : undefined;
}

/** The folder name of a task under tasks/. */
export function folderOf(t: CandidateTask): string {
  return t.dir.split('/')[1] ?? t.id;
}
