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
  private sorted: CandidateTask[] | undefined;
  private problemList: Problem[] = [];
  private manifestValue: DatasetManifest | undefined;

  constructor(private readonly loader: DatasetLoader = loadDataset) {}

  get manifest(): DatasetManifest | undefined {
    return this.manifestValue;
  }
  get problems(): readonly Problem[] {
    return this.problemList;
  }
  get size(): number {
    return this.byId.size;
  }
  /** Tasks sorted by id. */
  get tasks(): readonly CandidateTask[] {
    this.sorted ??= [...this.byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return this.sorted;
  }
  task(id: string): CandidateTask | undefined {
    return this.byId.get(id);
  }

  clear(): void {
    this.byId = new Map();
    this.sorted = undefined;
    this.problemList = [];
    this.manifestValue = undefined;
  }

  /** Loads the given task folders, replacing what was known of them; returns the ids that changed (before and after). */
  loadFolders(root: string, folders: readonly string[], withManifest: boolean): string[] {
    const ds = this.loader(root, { only: [...folders] });
    const set = new Set(folders);
    const changed = new Set<string>();
    for (const [id, t] of this.byId) {
      if (set.has(folderOf(t))) {
        this.byId.delete(id);
        changed.add(id);
      }
    }
    for (const t of ds.tasks) {
      this.byId.set(t.id, t);
      changed.add(t.id);
    }
    const folderOfProblem = (p: Problem): string | undefined => {
      const parts = p.file.split('/');
      return parts[0] === TASKS_DIR ? parts[1] : undefined;
    };
    const inFolders = (p: Problem): boolean => set.has(folderOfProblem(p) ?? '');
    // Whole-dataset problems (manifest, guidelines) come with every load: take them from the first chunk only.
    const datasetLevel = (p: Problem): boolean => folderOfProblem(p) === undefined;
    this.problemList = [
      ...this.problemList.filter((p) => !inFolders(p) && !(withManifest && datasetLevel(p))),
      ...(withManifest ? ds.problems.filter(datasetLevel) : []),
      ...ds.problems.filter(inFolders),
    ];
    if (withManifest) this.manifestValue = ds.manifest;
    this.sorted = undefined;
    return [...changed];
  }
}

/** The folder name of a task under tasks/. */
export function folderOf(t: CandidateTask): string {
  return t.dir.split('/')[1] ?? t.id;
}
