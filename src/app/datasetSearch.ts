// Searching the trajectories of every task of a dataset, shared by the CLI (`specweave search`) and the workbench
// ("SpecWeave: Search Trajectories in Dataset"). The work runs in a worker thread (src/adapters/fs/datasetSearchWorker.ts):
// this side lists the files (each path checked to stay inside the dataset), starts one search at a time, streams its
// hits grouped by task and attempt, and cancels. A search told to stop that does not answer soon (a regular
// expression stuck in one `exec`, which no flag can interrupt) is ended by terminating the worker; the next search
// starts a new one.
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { resolveDatasetPath } from '../adapters/fs/datasetLoader';
import type { DatasetHit, FromWorker, SearchFile, ToWorker } from '../adapters/fs/datasetSearchWorker';
import { errorText } from '../core/errorText';
import type { CandidateTask } from '../core/model';
import { compileSearch } from '../core/view/search';
import type { StepKindView } from '../protocol/messages';

export type { DatasetHit, SearchFile } from '../adapters/fs/datasetSearchWorker';

export interface DatasetQuery {
  pattern: string;
  regex: boolean;
  caseSensitive: boolean;
  kinds?: StepKindView[];
  /** Hits kept and sent; matches beyond it are only counted (default 5,000). */
  maxHits?: number;
}

export interface DatasetSearchOutcome {
  total: number;
  kept: number;
  /** Trajectory files read (or found unreadable) of `files`. */
  scanned: number;
  /** Of those, the files read from disk for this search; the others were searched as the worker had them prepared (unchanged since). */
  read: number;
  files: number;
  cancelled: boolean;
  capped: boolean;
  /** The worker was terminated because it did not stop when told (its cache is gone). */
  terminated: boolean;
  /** Files that could not be read, with why. */
  unreadable: Array<{ taskId: string; attempt: string; label: string; error: string }>;
  /** Files refused before the search (a path leading out of the dataset). */
  refused: Array<{ taskId: string; attempt: string; label: string; error: string }>;
}

export interface RunningSearch {
  readonly done: Promise<DatasetSearchOutcome>;
  cancel(): void;
}

export interface SearchCallbacks {
  /** Hits in batches, in dataset order (task, then attempt, then step); `scanned` files of `files` so far. */
  onHits?(hits: DatasetHit[], progress: { scanned: number; files: number; total: number }): void;
}

/** The attempts with a trajectory, in the dataset's order, each path resolved inside the dataset or refused. */
export function trajectoryFiles(root: string, tasks: readonly CandidateTask[]): { files: SearchFile[]; refused: DatasetSearchOutcome['refused'] } {
  const files: SearchFile[] = [];
  const refused: DatasetSearchOutcome['refused'] = [];
  for (const t of tasks) {
    for (const a of t.attempts) {
      if (!a.trajectoryFile) continue;
      try {
        files.push({ taskId: t.id, attempt: a.id, abs: resolveDatasetPath(root, a.trajectoryFile), label: a.trajectoryFile, datasetRoot: root });
      } catch (e) {
        refused.push({ taskId: t.id, attempt: a.id, label: a.trajectoryFile, error: errorText(e) });
      }
    }
  }
  return { files, refused };
}

/** The worker's script: the bundle's sibling file, or the TypeScript source when run from sources (tests, tsx). */
function workerScript(): string {
  return __filename.endsWith('.ts') ? path.join(__dirname, '..', 'adapters', 'fs', 'datasetSearchWorker.ts') : path.join(__dirname, 'datasetSearchWorker.js');
}

export interface DatasetSearcherOptions {
  /** How long a cancelled search may take to stop before its worker is terminated (default 250 ms). */
  stopGraceMs?: number;
  workerScript?: string;
}

/** One worker, one search at a time: a new search cancels the one running. */
export class DatasetSearcher {
  private worker: Worker | undefined;
  private readonly cancelBuf = new SharedArrayBuffer(4);
  private readonly cancelFlag = new Int32Array(this.cancelBuf);
  private seq = 0;
  private current: { id: number; finish(o: Partial<DatasetSearchOutcome> & { cancelled: boolean }): void; done: Promise<DatasetSearchOutcome> } | undefined;
  private disposed = false;

  constructor(private readonly o: DatasetSearcherOptions = {}) {}

  /** Starts a search of `files`; an invalid pattern throws before anything starts (the message says why). */
  search(q: DatasetQuery, files: readonly SearchFile[], cb: SearchCallbacks = {}, refused: DatasetSearchOutcome['refused'] = []): RunningSearch {
    if (this.disposed) throw new Error('the dataset search was closed');
    const compiled = compileSearch(q);
    if (!compiled.ok) throw new Error(compiled.error);
    // The search running is told to stop; this one starts once it has (or once its worker was ended).
    const previous = this.current;
    previous?.finish({ cancelled: true });
    const id = ++this.seq;
    const unreadable: DatasetSearchOutcome['unreadable'] = [];
    let settled = false;
    let graceTimer: NodeJS.Timeout | undefined;
    let worker: Worker | undefined;
    let resolveDone!: (o: DatasetSearchOutcome) => void;
    const done = new Promise<DatasetSearchOutcome>((r) => (resolveDone = r));
    let last: DatasetSearchOutcome = { total: 0, kept: 0, scanned: 0, read: 0, files: files.length, cancelled: false, capped: false, terminated: false, unreadable, refused: [...refused] };
    const finish = (o: Partial<DatasetSearchOutcome> & { cancelled: boolean }): void => {
      if (settled) return;
      if (o.cancelled && !('scanned' in o)) {
        if (!worker) {
          settle({ ...last, cancelled: true });
          return;
        }
        // Told to stop: the worker answers with `done` at its next file; if it does not, it is stuck in one match.
        Atomics.store(this.cancelFlag, 0, id);
        graceTimer ??= setTimeout(() => {
          if (settled) return;
          this.terminate();
          settle({ ...last, cancelled: true, terminated: true });
        }, this.o.stopGraceMs ?? 250);
        return;
      }
      settle({ ...last, ...o });
    };
    const settle = (o: DatasetSearchOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(graceTimer);
      if (worker) {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        // An idle worker never keeps a CLI process alive.
        worker.unref();
      }
      if (this.current?.id === id) this.current = undefined;
      resolveDone(o);
    };
    const onMessage = (m: FromWorker): void => {
      if (m.id !== id || settled) return;
      if (m.type === 'hits') {
        last = { ...last, total: m.total, scanned: m.scanned };
        cb.onHits?.(m.hits, { scanned: m.scanned, files: files.length, total: m.total });
      } else if (m.type === 'fileError') unreadable.push({ taskId: m.taskId, attempt: m.attempt, label: m.label, error: m.error });
      else {
        if (m.error) unreadable.push({ taskId: '', attempt: '', label: '', error: m.error });
        finish({ total: m.total, kept: m.kept, scanned: m.scanned, read: m.read, files: m.files, cancelled: m.cancelled, capped: m.capped });
      }
    };
    const onError = (e: Error): void => {
      unreadable.push({ taskId: '', attempt: '', label: '', error: `the search worker failed: ${errorText(e)}` });
      if (this.worker === worker) this.worker = undefined;
      settle({ ...last, cancelled: false });
    };
    const onExit = (): void => {
      if (this.worker === worker) this.worker = undefined;
      settle({ ...last, cancelled: true, terminated: true });
    };
    this.current = { id, finish, done };
    const start = (): void => {
      if (settled || this.disposed) return;
      const w = this.ensureWorker();
      worker = w;
      w.ref();
      w.on('message', onMessage);
      w.on('error', onError);
      w.on('exit', onExit);
      const msg: ToWorker = {
        type: 'search',
        id,
        source: compiled.re.source,
        flags: compiled.re.flags,
        ...(q.kinds && q.kinds.length > 0 ? { kinds: q.kinds } : {}),
        files: [...files],
        maxHits: q.maxHits ?? 5000,
        cancel: this.cancelBuf,
      };
      w.postMessage(msg);
    };
    if (previous) void previous.done.then(start);
    else start();
    return { done, cancel: () => finish({ cancelled: true }) };
  }

  /** Starts the worker ahead of the first search (the pick does when it opens, while the curator types). */
  prepare(): void {
    if (!this.disposed) this.ensureWorker();
  }

  /** Drops the worker's cache of prepared steps (the dataset changed). */
  forget(): void {
    this.worker?.postMessage({ type: 'forget' } satisfies ToWorker);
  }

  dispose(): void {
    this.disposed = true;
    this.current?.finish({ cancelled: true });
    this.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const script = this.o.workerScript ?? workerScript();
    // From sources (tests run through tsx) the worker registers tsx itself: a worker does not take the parent's loader.
    const w = script.endsWith('.ts') ? new Worker(`require('tsx/cjs/api').register(); require(${JSON.stringify(script)});`, { eval: true }) : new Worker(script);
    // Referenced only while a search runs (a CLI process waits for its search, never for an idle worker).
    w.unref();
    this.worker = w;
    return w;
  }

  private terminate(): void {
    const w = this.worker;
    this.worker = undefined;
    void w?.terminate();
  }
}

/** Hits grouped by task, then attempt, in the order they came. */
export function groupHits(hits: readonly DatasetHit[]): Array<{ taskId: string; attempts: Array<{ attempt: string; hits: DatasetHit[] }> }> {
  const out: Array<{ taskId: string; attempts: Array<{ attempt: string; hits: DatasetHit[] }> }> = [];
  for (const h of hits) {
    let t = out.at(-1);
    if (!t || t.taskId !== h.taskId) out.push((t = { taskId: h.taskId, attempts: [] }));
    let a = t.attempts.at(-1);
    if (!a || a.attempt !== h.attempt) t.attempts.push((a = { attempt: h.attempt, hits: [] }));
    a.hits.push(h);
  }
  return out;
}
