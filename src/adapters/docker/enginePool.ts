// A pool of Docker engines (issue 15, item 3): several engines, each with a capacity, chosen per job by free capacity;
// health checked by a ping with a deadline; an image checked per engine and loaded from a local save when one lacks
// it; a job whose engine dies under it moved to another engine once, and its first try never counted. The pool runs
// any job given an engine (the verifier's executor is one); it knows nothing of tasks or verdicts. See docs/cluster.md.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { errnoCode, errorText } from '../../core/errorText';
import { withDeadline } from './deadline';
import { Engine, EngineUnavailableError } from './engine';

export interface PoolMemberSpec {
  /** An engine address as `--host` takes it: `unix:///path`, `tcp://host:2376`, `ssh://user@host`. */
  host: string;
  /** Jobs at once on this engine (default 1). */
  capacity: number;
}

/** An entry of `--host` or the setting that cannot be a pool member; the message names where it came from. */
export class PoolConfigError extends Error {}

/** No engine of the pool can take a job; the message lists each engine and why. */
export class PoolUnavailableError extends Error {}

/**
 * Parses pool members: each entry `ADDRESS` or `ADDRESS,capacity=N` (1 to 64). `where` names the source in errors
 * (`--host`, `the specweave.verifier.pool setting`). The same address twice is an error: it would be counted twice.
 */
export function parsePoolMembers(entries: readonly string[], where: string): PoolMemberSpec[] {
  if (entries.length === 0) throw new PoolConfigError(`${where}: a pool needs at least one engine address`);
  const seen = new Set<string>();
  return entries.map((raw, i) => {
    const [host = '', ...opts] = raw.split(',').map((s) => s.trim());
    const at = `${where} entry ${i + 1} (${JSON.stringify(raw.slice(0, 200))})`;
    if (!/^(unix|tcp|ssh):\/\/\S+$/.test(host)) throw new PoolConfigError(`${at}: the address must start with unix://, tcp:// or ssh://`);
    let capacity = 1;
    for (const o of opts) {
      const m = /^capacity=(\d{1,2})$/.exec(o);
      if (!m || Number(m[1]) < 1 || Number(m[1]) > 64) throw new PoolConfigError(`${at}: ${JSON.stringify(o.slice(0, 80))} is not capacity=N with N from 1 to 64`);
      capacity = Number(m[1]);
    }
    if (seen.has(host)) throw new PoolConfigError(`${at}: ${host} is listed twice`);
    seen.add(host);
    return { host, capacity };
  });
}

export interface PoolNodeState {
  /** `node1`, `node2`... in the order given: what run records and the status bar show. */
  name: string;
  address: string;
  capacity: number;
  running: number;
  healthy: boolean;
  /** Why the engine is not healthy (the last failed ping or the failure that took it out). */
  problem?: string;
  /** Jobs finished on this engine (moved jobs count where they finished). */
  done: number;
}

interface Node extends PoolNodeState {
  engine: Engine;
}

export interface PoolOptions {
  /** Builds the engine of an address (tests; default `new Engine({ host })`). */
  engine?: (host: string) => Engine;
  /** Deadline of a health ping (default 2 s). */
  pingTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface PoolJobResult<T> {
  value: T;
  /** The engine it finished on. */
  node: string;
  /** Set when the job's first engine died under it and it was run again here. */
  movedFrom?: { node: string; reason: string };
}

export interface PoolJobContext {
  node: string;
  /** 1 for the first try, 2 for the try on another engine after the first engine died. */
  attempt: 1 | 2;
}

/** Whether an error means the engine itself is gone (its socket refused, reset or closed), not the job's own failure. */
export function isEngineLoss(e: unknown): boolean {
  if (e instanceof EngineUnavailableError) return true;
  const code = errnoCode(e);
  if (code && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOENT', 'EHOSTUNREACH', 'ETIMEDOUT'].includes(code)) return true;
  return /socket hang up|ECONNRESET|ECONNREFUSED|connect ENOENT/.test(errorText(e));
}

export class EnginePool {
  private readonly nodes: Node[];
  private readonly waiters: Array<() => void> = [];

  constructor(
    members: readonly PoolMemberSpec[],
    private readonly o: PoolOptions = {},
  ) {
    const make = o.engine ?? ((host: string) => new Engine({ host, pingTimeoutMs: o.pingTimeoutMs ?? 2000 }));
    this.nodes = members.map((m, i) => ({ name: `node${i + 1}`, address: m.host, capacity: m.capacity, running: 0, healthy: false, problem: 'not checked yet', done: 0, engine: make(m.host) }));
  }

  /** Each engine's state now (copies). */
  state(): PoolNodeState[] {
    return this.nodes.map(({ engine: _e, ...n }) => ({ ...n }));
  }

  /** Pings every engine (a healthy one too: it may have died); resolves with the states. */
  /** The engines that answered at the last check, by name. */
  healthyEngines(): Array<{ name: string; engine: Engine }> {
    return this.nodes.filter((n) => n.healthy).map((n) => ({ name: n.name, engine: n.engine }));
  }

  async check(): Promise<PoolNodeState[]> {
    await Promise.all(this.nodes.map((n) => this.ping(n)));
    this.wake();
    return this.state();
  }

  private async ping(n: Node): Promise<boolean> {
    try {
      const docker = await n.engine.docker();
      await withDeadline('ping', this.o.pingTimeoutMs ?? 2000, () => docker.ping());
      n.healthy = true;
      delete n.problem;
    } catch (e) {
      n.healthy = false;
      n.problem = errorText(e);
    }
    return n.healthy;
  }

  /**
   * Makes sure every healthy engine has `image`. An engine without it gets it from a local save: `source` (the local
   * engine, or any pool engine that has it) is saved once to `saveDir`, and that file is loaded where it is missing.
   * Resolves with what each engine did; an engine the load fails on is taken out of the pool with the reason.
   */
  async ensureImage(image: string, saveDir: string, source?: Engine): Promise<Record<string, 'present' | 'loaded' | 'failed'>> {
    const out: Record<string, 'present' | 'loaded' | 'failed'> = {};
    const missing: Node[] = [];
    const having: Engine[] = source ? [source] : [];
    for (const n of this.nodes.filter((x) => x.healthy)) {
      try {
        await (await n.engine.docker()).getImage(image).inspect();
        out[n.name] = 'present';
        having.push(n.engine);
      } catch (e) {
        if ((e as { statusCode?: number }).statusCode !== 404) {
          this.takeOut(n, `image check failed: ${errorText(e)}`);
          out[n.name] = 'failed';
        } else missing.push(n);
      }
    }
    if (missing.length === 0) return out;
    const from = having[0];
    if (!from) throw new PoolUnavailableError(`No engine of the pool has ${image}, and no local engine to save it from: build it (scripts/setup-docker.sh) on one of them.`);
    fs.mkdirSync(saveDir, { recursive: true });
    // Named by the image's id too: a save of an older build of the same tag is never loaded.
    const id = ((await (await from.docker()).getImage(image).inspect()) as { Id: string }).Id.replace(/^sha256:/, '').slice(0, 16);
    const file = path.join(saveDir, `${image.replace(/[^A-Za-z0-9._-]/g, '_')}-${id}.tar`);
    if (!fs.existsSync(file)) {
      const tmp = `${file}.${process.pid}.tmp`;
      const stream = (await (await from.docker()).getImage(image).get()) as NodeJS.ReadableStream;
      await pipeline(stream, fs.createWriteStream(tmp, { mode: 0o600 }));
      fs.renameSync(tmp, file);
      this.o.log?.(`pool: saved ${image} to ${file}`);
    }
    await Promise.all(
      missing.map(async (n) => {
        try {
          const docker = await n.engine.docker();
          const res = (await docker.loadImage(fs.createReadStream(file), { quiet: true })) as NodeJS.ReadableStream;
          await new Promise<void>((resolve, reject) => docker.modem.followProgress(res, (err: Error | null) => (err ? reject(err) : resolve())));
          await docker.getImage(image).inspect();
          out[n.name] = 'loaded';
          this.o.log?.(`pool: loaded ${image} into ${n.name} (${n.address})`);
        } catch (e) {
          this.takeOut(n, `loading ${image} failed: ${errorText(e)}`);
          out[n.name] = 'failed';
        }
      }),
    );
    return out;
  }

  /**
   * Runs `job` on the healthy engine with the most free capacity, waiting while every one is full. When the engine
   * dies under the job (`isEngineLoss`, and a ping then fails), the engine is taken out and the job runs once more on
   * another engine; the first try's outcome is dropped, so a job is counted once. A job's own failure is thrown as is.
   */
  async run<T>(job: (engine: Engine, ctx: PoolJobContext) => Promise<T>, signal?: AbortSignal): Promise<PoolJobResult<T>> {
    const first = await this.acquire(undefined, signal);
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      first.running--;
      this.wake();
    };
    try {
      const value = await job(first.engine, { node: first.name, attempt: 1 });
      first.done++;
      return { value, node: first.name };
    } catch (e) {
      if (!isEngineLoss(e) || (await this.ping(first))) throw e;
      const reason = `the engine died under the job: ${errorText(e)}`;
      this.takeOut(first, reason);
      this.o.log?.(`pool: ${first.name} (${first.address}) is out: ${reason}; its job moves to another engine`);
      release();
      const second = await this.acquire(first, signal);
      try {
        const value = await job(second.engine, { node: second.name, attempt: 2 });
        second.done++;
        return { value, node: second.name, movedFrom: { node: first.name, reason } };
      } finally {
        second.running--;
        this.wake();
      }
    } finally {
      release();
    }
  }

  private takeOut(n: Node, reason: string): void {
    n.healthy = false;
    n.problem = reason;
  }

  private pick(exclude?: Node): Node | undefined {
    let best: Node | undefined;
    for (const n of this.nodes) {
      if (!n.healthy || n === exclude || n.running >= n.capacity) continue;
      if (!best || n.capacity - n.running > best.capacity - best.running) best = n;
    }
    return best;
  }

  private async acquire(exclude: Node | undefined, signal?: AbortSignal): Promise<Node> {
    for (;;) {
      signal?.throwIfAborted();
      const n = this.pick(exclude);
      if (n) {
        n.running++;
        return n;
      }
      const usable = this.nodes.filter((x) => x.healthy && x !== exclude);
      if (usable.length === 0) {
        throw new PoolUnavailableError(`No engine of the pool can take the job: ${this.nodes.map((x) => `${x.name} ${x.address}: ${x === exclude ? 'the engine the job was moved from' : (x.problem ?? 'healthy')}`).join('; ')}`);
      }
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(signal?.reason instanceof Error ? signal.reason : new Error('cancelled'));
        signal?.addEventListener('abort', onAbort, { once: true });
        this.waiters.push(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}
