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
import { sweepOrphans } from './sweep';
import type { PoolMemberSpec } from './enginePool';
import { EnginePool } from './enginePool';

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
  /** Where this run ran, when the executor has several engines (`node2 unix:///...`); else `node()`. */
  node?: string;
  /** The engine that died under the run's first try, and why (a pool moved it once). */
  movedFrom?: string;
}

/** What the queue is told while a run executes: where it runs (again after a move), and a fresh start. */
export interface RunHooks {
  /** `onRetry`: the output so far is void, the run starts again in a fresh container. */
  onRetry?: (why: string) => void;
  /** The engine the run was given (`node2 unix:///...`, or the local engine's name); called again when it moves. */
  onNode?: (node: string) => void;
}

export interface RunExecutor {
  readonly backend: Backend;
  /** Where runs execute (the engine's host name), for the run records. */
  node(): Promise<string>;
  run(job: RunJob, o: ExecuteOptions & RunHooks): Promise<RunExecution>;
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

  async run(job: RunJob, o: ExecuteOptions & RunHooks): Promise<RunExecution> {
    if (o.onNode) {
      const told = o.onNode;
      void this.node().then((n) => told(n));
    }
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

/**
 * The `pool` backend: runs spread over several engines by free capacity (enginePool.ts), each engine's runs through
 * its own LocalExecutor (so warm containers stay per engine). The image of a run is checked on every healthy engine
 * before its first run there and loaded from one local save of the image engine's copy where missing. A run whose
 * engine dies under it runs once more on another engine; its first try is dropped.
 */
export class PoolExecutor implements RunExecutor {
  readonly backend = 'pool' as const;
  readonly pool: EnginePool;
  private readonly locals = new Map<string, LocalExecutor>();
  private readonly images = new Map<string, Promise<void>>();
  private checked?: Promise<void>;

  constructor(
    members: readonly PoolMemberSpec[],
    private readonly o: { imageEngine: Engine; saveDir: string; warm?: boolean; log?: (line: string) => void; engine?: (host: string) => Engine },
  ) {
    this.pool = new EnginePool(members, { ...(o.log ? { log: o.log } : {}), ...(o.engine ? { engine: o.engine } : {}) });
  }

  /** Pings every engine once; throws when none answers, naming each and why. */
  ready(): Promise<void> {
    this.checked ??= this.pool.check().then(
      (states) => {
        if (!states.some((s) => s.healthy)) {
          this.checked = undefined;
          throw new Error(`no engine of the pool answers: ${states.map((s) => `${s.name} ${s.address}: ${s.problem ?? ''}`).join('; ')}`);
        }
      },
      (e: unknown) => {
        this.checked = undefined;
        throw e;
      },
    );
    return this.checked;
  }

  node(): Promise<string> {
    return Promise.resolve('');
  }

  private image(ref: string): Promise<void> {
    let p = this.images.get(ref);
    if (!p) {
      p = this.pool.ensureImage(ref, this.o.saveDir, this.o.imageEngine).then(
        (r) => this.o.log?.(`pool: image ${ref}: ${Object.entries(r).map(([n, w]) => `${n} ${w}`).join(', ')}`),
        (e: unknown) => {
          this.images.delete(ref);
          throw e;
        },
      );
      this.images.set(ref, p);
    }
    return p;
  }

  async run(job: RunJob, o: ExecuteOptions & RunHooks): Promise<RunExecution> {
    await this.ready();
    await this.image(job.description.image);
    const r = await this.pool.run(async (engine, ctx) => {
      let local = this.locals.get(ctx.node);
      if (!local) {
        local = new LocalExecutor(engine, { ...(this.o.warm ? { warm: true } : {}), ...(this.o.log ? { log: this.o.log } : {}) });
        this.locals.set(ctx.node, local);
      }
      o.onNode?.(this.where(ctx.node));
      const { onNode: _n, ...rest } = o;
      return local.run(job, rest);
    }, o.signal);
    return { ...r.value, node: this.where(r.node), ...(r.movedFrom ? { movedFrom: `${r.movedFrom.node}: ${r.movedFrom.reason}` } : {}) };
  }

  /**
   * Removes the containers an earlier crash left on every engine of the pool that answers (the local sweep's rule);
   * returns their ids. The image engine is swept by the service as the local engine is.
   */
  async sweep(except: Engine): Promise<string[]> {
    // An engine that does not answer is not swept; a pool with none answering fails its runs, saying why.
    await this.ready().catch(() => undefined);
    const engines = this.pool.healthyEngines().filter((e) => e.engine !== except);
    const lists = await Promise.all(engines.map((e) => sweepOrphans(e.engine).catch(() => [] as string[])));
    return lists.flat();
  }

  /** A pool member as run records and the queue view name it: `node2 unix:///...`. */
  private where(name: string): string {
    const at = this.pool.state().find((s) => s.name === name);
    return `${name} ${at?.address ?? ''}`.trim();
  }

  async close(): Promise<void> {
    await Promise.all([...this.locals.values()].map((l) => l.close()));
  }
}
