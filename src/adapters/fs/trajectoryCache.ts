// The trajectories of one open task, loaded on first use (a page of steps or a search) and kept while its panel
// lives. Steps are cleaned once on load so previews, text slices and search offsets agree.
import type { Problem, TrajectorySummary } from '../../core/model';
import { prepareStep, StepIndex } from '../../core/view/steps';
import type { ReadTrajectoryOptions, TrajectoryResult } from './trajectoryReader';
import { errorText } from '../../core/errorText';

export type TrajectoryReadFn = (absPath: string, opts: ReadTrajectoryOptions) => Promise<TrajectoryResult>;

export interface LoadedTrajectory {
  index: StepIndex;
  summary: TrajectorySummary;
  problems: Problem[];
  /** Milliseconds spent reading and preparing. */
  loadMs: number;
}

export type CacheEntry = LoadedTrajectory | { error: string };

export type TrajectoryLocation =
  | {
      abs: string;
      /** How problems name the file (dataset-relative). */
      label: string;
      /** The dataset it is in: continuations are followed only inside it. */
      datasetRoot?: string;
    }
  /** The file cannot be read (e.g. a symlink out of the dataset): the column shows this. */
  | { error: string; label: string };

export class TrajectoryCache {
  private readonly loads = new Map<string, Promise<CacheEntry>>();
  private readonly done = new Map<string, CacheEntry>();
  private readonly abort = new AbortController();

  constructor(
    private readonly read: TrajectoryReadFn,
    /** Where a column's trajectory file is; undefined when the column has none. */
    private readonly locate: (column: string) => TrajectoryLocation | undefined,
    private readonly onLoaded?: (column: string, entry: CacheEntry) => void,
  ) {}

  /** The column's trajectory, loading it once; concurrent callers share one load. */
  get(column: string): Promise<CacheEntry> {
    const known = this.loads.get(column);
    if (known) return known;
    const p = this.load(column);
    this.loads.set(column, p);
    return p;
  }

  /** The column's trajectory if it is loaded already. */
  peek(column: string): CacheEntry | undefined {
    return this.done.get(column);
  }

  get disposed(): boolean {
    return this.abort.signal.aborted;
  }

  /** Stops loads in flight and lets go of every trajectory. */
  dispose(): void {
    this.abort.abort();
    this.loads.clear();
    this.done.clear();
  }

  private async load(column: string): Promise<CacheEntry> {
    const where = this.locate(column);
    if (!where) return { error: `${column} has no trajectory` };
    if ('error' in where) return { error: where.error };
    const t0 = performance.now();
    let entry: CacheEntry;
    try {
      const r = await this.read(where.abs, { signal: this.abort.signal, fileLabel: where.label, ...(where.datasetRoot !== undefined ? { datasetRoot: where.datasetRoot } : {}) });
      if (!r.ok) entry = { error: `${r.problem.file}${r.problem.line ? `:${r.problem.line}` : ''}: ${r.problem.message}` };
      else {
        const steps = r.trajectory.steps.map(prepareStep);
        entry = { index: new StepIndex(steps), summary: r.trajectory.summary, problems: r.problems, loadMs: performance.now() - t0 };
      }
    } catch (e) {
      if (this.abort.signal.aborted) return { error: 'the panel was closed' };
      entry = { error: `${where.label}: ${errorText(e)}` };
    }
    if (this.abort.signal.aborted) return entry;
    this.done.set(column, entry);
    this.onLoaded?.(column, entry);
    return entry;
  }
}
