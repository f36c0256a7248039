// The executor interface behind the one queue: an engine-neutral run description goes in, the captured output and
// its facts (exit, deadline, limits, reports) come out; the judge grades that output whatever executed it. `local`
// is the machine's own engine, fresh containers or warm ones (warm.ts).
import type { Backend } from '../../core/verify/backend';
import { errorText } from '../../core/errorText';
import { withDeadline } from './deadline';
import type { Engine } from './engine';
import type { ExecuteOptions, ExecuteResult } from './executor';
import { CancelledError, executeRun } from './executor';
import type { RunDescription } from './runSpec';
import { WarmPool, WarmUnusableError } from './warm';

export interface RunJob {
  /** The run in a fresh container. */
  description: RunDescription;
  /** The same run described for a warm container, and the key of the containers it may reuse; absent: fresh only. */
  warm?: { key: string; description: RunDescription };
  /** The upload for a description: `true` with the repository, `false` the run's inputs alone (a warm container has the repository). */
  archive: (d: RunDescription, withRepo: boolean) => Promise<Buffer>;
}

export interface RunExecution extends ExecuteResult {
  /** Ran in a warm container. */
  warm: boolean;
}

export interface RunExecutor {
  readonly backend: Backend;
  /** Where runs execute (the engine's host name), for the run records. */
  node(): Promise<string>;
  /** `onRetry`: the output so far is void, the run starts again in a fresh container. */
  run(job: RunJob, o: ExecuteOptions & { onRetry?: (why: string) => void }): Promise<RunExecution>;
  /** Removes what the executor keeps between runs (warm containers). */
  close(): Promise<void>;
}

export class LocalExecutor implements RunExecutor {
  readonly backend = 'local' as const;
  readonly warm?: WarmPool;
  private nodeName?: Promise<string>;

  constructor(
    private readonly engine: Engine,
    o: { warm?: boolean; log?: (line: string) => void } = {},
  ) {
    if (o.warm) this.warm = new WarmPool(engine, o.log);
  }

  node(): Promise<string> {
    this.nodeName ??= this.engine
      .docker()
      .then((d) => withDeadline('asking the engine its name', 10_000, () => d.info() as Promise<{ Name?: string }>))
      .then((i) => i.Name ?? '')
      .catch(() => {
        this.nodeName = undefined;
        return '';
      });
    return this.nodeName;
  }

  async run(job: RunJob, o: ExecuteOptions & { onRetry?: (why: string) => void }): Promise<RunExecution> {
    if (this.warm && job.warm) {
      try {
        return { ...(await this.warm.run(job.warm.key, job.warm.description, (withRepo) => job.archive((job.warm as NonNullable<RunJob['warm']>).description, withRepo), o)), warm: true };
      } catch (e) {
        if (!(e instanceof WarmUnusableError)) throw e;
        if (o.signal?.aborted) throw new CancelledError();
        // Never graded from a container whose state is in doubt: the run starts again in a fresh one.
        o.onRetry?.(errorText(e));
      }
    }
    return { ...(await executeRun(this.engine, job.description, await job.archive(job.description, true), o)), warm: false };
  }

  async close(): Promise<void> {
    await this.warm?.close();
  }
}
