// One queue for every verifier run, from the UI and the CLI: a concurrency limit, cancellation of one job or all,
// and progress with an ETA. Pure scheduling; the work itself is an async executor given an AbortSignal.

export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export type JobOutcome<R> = { state: 'done'; value: R } | { state: 'failed'; error: unknown } | { state: 'cancelled' };

export interface QueueProgress {
  total: number;
  done: number;
  failed: number;
  cancelled: number;
  running: number;
  queued: number;
  /** Estimated time to finish what is queued and running, from the mean duration of finished jobs. */
  etaMs?: number;
}

export interface QueueOptions<J, R> {
  concurrency: number;
  execute: (job: J, signal: AbortSignal) => Promise<R>;
  now?: () => number;
  onProgress?: (p: QueueProgress) => void;
  onSettled?: (id: string, job: J, outcome: JobOutcome<R>) => void;
}

interface Entry<J, R> {
  id: string;
  job: J;
  state: JobState;
  controller: AbortController;
  startedAt?: number;
  settle: (o: JobOutcome<R>) => void;
  outcome: Promise<JobOutcome<R>>;
}

/** Default concurrency: the number of cores, capped so every run's memory limit fits in 3/4 of the machine's memory. */
export function defaultConcurrency(cores: number, totalMemMb: number, perRunMemMb: number): number {
  const byMem = Math.floor((totalMemMb * 0.75) / Math.max(1, perRunMemMb));
  return Math.max(1, Math.min(Math.max(1, Math.floor(cores)), byMem));
}

export class RunQueue<J, R> {
  private readonly entries: Entry<J, R>[] = [];
  private readonly durations: number[] = [];
  private concurrency: number;
  private counter = 0;
  private idleWaiters: (() => void)[] = [];
  private readonly now: () => number;

  constructor(private readonly opts: QueueOptions<J, R>) {
    this.concurrency = Math.max(1, Math.floor(opts.concurrency));
    this.now = opts.now ?? (() => Date.now());
  }

  /** Queues a job; returns its id. */
  add(job: J): string {
    const id = `job-${++this.counter}`;
    let settle!: (o: JobOutcome<R>) => void;
    const outcome = new Promise<JobOutcome<R>>((resolve) => (settle = resolve));
    this.entries.push({ id, job, state: 'queued', controller: new AbortController(), settle, outcome });
    this.pump();
    this.emit();
    return id;
  }

  /** Resolves when the job settles; never rejects. */
  result(id: string): Promise<JobOutcome<R>> {
    const e = this.find(id);
    if (!e) return Promise.reject(new Error(`no job ${id}`));
    return e.outcome;
  }

  state(id: string): JobState | undefined {
    return this.find(id)?.state;
  }

  jobs(): { id: string; job: J; state: JobState }[] {
    return this.entries.map((e) => ({ id: e.id, job: e.job, state: e.state }));
  }

  /** Cancels a queued job at once, or aborts a running one (its slot frees when its executor returns). */
  cancel(id: string): boolean {
    const e = this.find(id);
    if (!e || (e.state !== 'queued' && e.state !== 'running')) return false;
    if (e.state === 'queued') {
      e.state = 'cancelled';
      e.settle({ state: 'cancelled' });
      this.opts.onSettled?.(e.id, e.job, { state: 'cancelled' });
      this.emit();
      this.checkIdle();
    } else {
      e.controller.abort(new Error('cancelled'));
    }
    return true;
  }

  cancelAll(): void {
    // Queued first, so no queued job starts in a slot a cancelled running job frees.
    for (const e of this.entries.filter((x) => x.state === 'queued')) this.cancel(e.id);
    for (const e of this.entries.filter((x) => x.state === 'running')) this.cancel(e.id);
  }

  /** Forgets settled jobs (a long-lived queue would otherwise keep every job it ever ran). */
  clearSettled(): void {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const st = (this.entries[i] as Entry<J, R>).state;
      if (st !== 'queued' && st !== 'running') this.entries.splice(i, 1);
    }
    this.emit();
  }

  setConcurrency(n: number): void {
    this.concurrency = Math.max(1, Math.floor(n));
    this.pump();
  }

  /** Resolves when nothing is queued or running. */
  idle(): Promise<void> {
    if (!this.entries.some((e) => e.state === 'queued' || e.state === 'running')) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  progress(): QueueProgress {
    const count = (s: JobState) => this.entries.filter((e) => e.state === s).length;
    const p: QueueProgress = {
      total: this.entries.length,
      done: count('done'),
      failed: count('failed'),
      cancelled: count('cancelled'),
      running: count('running'),
      queued: count('queued'),
    };
    if (this.durations.length > 0 && p.running + p.queued > 0) {
      const mean = this.durations.reduce((a, b) => a + b, 0) / this.durations.length;
      const t = this.now();
      const runningLeft = this.entries
        .filter((e) => e.state === 'running')
        .reduce((sum, e) => sum + Math.max(0, mean - (t - (e.startedAt ?? t))), 0);
      p.etaMs = Math.round((runningLeft + p.queued * mean) / this.concurrency);
    }
    return p;
  }

  private find(id: string): Entry<J, R> | undefined {
    return this.entries.find((e) => e.id === id);
  }

  private emit(): void {
    this.opts.onProgress?.(this.progress());
  }

  private checkIdle(): void {
    if (this.entries.some((e) => e.state === 'queued' || e.state === 'running')) return;
    const ws = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of ws) w();
  }

  private pump(): void {
    let running = this.entries.filter((e) => e.state === 'running').length;
    for (const e of this.entries) {
      if (running >= this.concurrency) break;
      if (e.state !== 'queued') continue;
      running++;
      this.start(e);
    }
  }

  private start(e: Entry<J, R>): void {
    e.state = 'running';
    e.startedAt = this.now();
    let p: Promise<R>;
    try {
      p = this.opts.execute(e.job, e.controller.signal);
    } catch (err) {
      p = Promise.reject(err);
    }
    p.then(
      (value) => this.finish(e, e.controller.signal.aborted ? { state: 'cancelled' } : { state: 'done', value }),
      (error: unknown) => this.finish(e, e.controller.signal.aborted ? { state: 'cancelled' } : { state: 'failed', error }),
    );
  }

  private finish(e: Entry<J, R>, outcome: JobOutcome<R>): void {
    e.state = outcome.state;
    if (outcome.state !== 'cancelled') this.durations.push(this.now() - (e.startedAt ?? this.now()));
    e.settle(outcome);
    this.opts.onSettled?.(e.id, e.job, outcome);
    this.pump();
    this.emit();
    this.checkIdle();
  }
}
