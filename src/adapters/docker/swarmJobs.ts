// One run as a Docker Swarm `replicated-job` service (issue 15, item 4): resource limits, no network (a task attached
// to no network has loopback only), placement constraints, the nonce, the command and the run's archive delivered as
// Swarm configs. Swarm restarts a job task whose container fails, so the task runs the job entrypoint shared with the
// Kubernetes backend (jobEntrypoint.ts): it always exits 0 and the command's exit code, OOM kills, run time and the
// files asked back come in a nonce-framed trailer of its logs. The output is collected from the service's logs,
// stdout and stderr apart; a node that goes down under the run moves it to another node once; the service and its
// configs are removed afterwards.
import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { errorText } from '../../core/errorText';
import type { Engine } from './engine';
import { END, entrypoint, MARKER, NeedleSplit, readTrailer } from './jobEntrypoint';

export interface SwarmJob {
  /** A name for the service (made safe and unique). */
  name: string;
  image: string;
  /** Run by `sh` as `user`, in `workdir`. */
  command: string;
  workdir: string;
  /** `uid:gid`, `uid`, a user name, or '' for root (still without capabilities) (default 1000:1000). */
  user?: string;
  env?: string[];
  /** Files put in place before the command runs (Swarm configs: at most 500 KB each). */
  files?: Array<{ path: string; content: string; mode?: number }>;
  /** A tar archive unpacked at `/` by root before the command runs, delivered in configs of 500 KB each. */
  archive?: Buffer;
  /** Absolute paths read back after the command: a regular file only (not a link), its first `maxBytes`. */
  readBack?: Array<{ path: string; maxBytes: number }>;
  limits: { memoryBytes: number; nanoCpus: number; pids?: number };
  ulimits?: Array<{ Name: string; Soft: number; Hard: number }>;
  /** How long the command may take once the task is seen running. */
  timeoutMs: number;
  /** How long the task may take to start running (scheduling, the archive's configs) (default 120 s). */
  startTimeoutMs?: number;
  labels?: Record<string, string>;
  /** Swarm placement constraints (`node.role==worker`...). */
  constraints?: string[];
}

export interface SwarmJobResult {
  status: 'exited' | 'timeout' | 'failed';
  exitCode?: number;
  /** The command's stdout as text, without the entrypoint's trailer. */
  output: string;
  /** The command's stdout and stderr bytes, without the entrypoint's lines. */
  stdout: Buffer;
  stderr: Buffer;
  /** `readBack`'s files by path: undefined when not a regular file. */
  files: Record<string, Buffer | undefined>;
  /** The OOM kills in the task's memory cgroup (undefined when the image's kernel interface does not say). */
  oomKills?: number;
  /** How long the command ran, measured inside the task. */
  commandMs?: number;
  /** The swarm node id the run finished (or ended) on. */
  node?: string;
  /** 2 when the first node went down under the run and it ran again on another. */
  tries: 1 | 2;
  /** Why a try was lost or failed. */
  reason?: string;
  /** From the service's creation to its task seen running, and from then to the trailer. */
  timings: { startMs: number; runMs: number };
}

export interface SwarmOptions {
  /** How often the task and its node are looked at while the logs are followed (default 1 s). */
  watchMs?: number;
  /** Called once per try when its task is seen running, with the swarm node id (the queue view shows it). */
  onRunning?: (job: SwarmJob, node: string, attempt: 1 | 2) => void;
}

export interface SwarmRunOptions {
  signal?: AbortSignal;
  /** The command's output as it arrives (the entrypoint's lines held back). */
  onOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void;
  /** The first try's node went down: what it printed is void, the run starts again elsewhere. */
  onRetry?: (why: string) => void;
  /** The try's task is running on this swarm node. */
  onRunning?: (node: string, attempt: 1 | 2) => void;
}

const RUN_DIR = '/run/specweave';
const NONCE_FILE = `${RUN_DIR}/nonce`;
const COMMAND_FILE = `${RUN_DIR}/command.sh`;
export const MAX_CONFIG_BYTES = 500 * 1024;
/** The most an archive may take in configs (the swarm's store holds every config until the run ends). */
export const MAX_ARCHIVE_BYTES = 64 * 1024 * 1024;

const archivePart = (i: number) => `${RUN_DIR}/archive.${String(i).padStart(4, '0')}`;

/** The Swarm task's layout: the nonce, the command and the archive's parts as configs under /run/specweave. */
export function swarmLayout(job: Pick<SwarmJob, 'archive'>): { nonce: string; command: string; archive: string[] } {
  const parts = job.archive ? Math.ceil(job.archive.length / MAX_CONFIG_BYTES) : 0;
  return { nonce: NONCE_FILE, command: COMMAND_FILE, archive: Array.from({ length: parts }, (_, i) => archivePart(i)) };
}

interface Try {
  result: Omit<SwarmJobResult, 'tries'>;
  lostNode?: string;
}

export class SwarmJobRunner {
  constructor(
    private readonly manager: Engine,
    private readonly o: SwarmOptions = {},
  ) {}

  /** Runs the job; a node lost under it moves it once (excluding that node). Never throws for the job's own outcome. */
  async run(job: SwarmJob, r: SwarmRunOptions = {}): Promise<SwarmJobResult> {
    if (job.archive && job.archive.length > MAX_ARCHIVE_BYTES) {
      return { ...empty(), status: 'failed', tries: 1, reason: `the run's archive is ${mb(job.archive.length)}, over the ${mb(MAX_ARCHIVE_BYTES)} the swarm backend delivers in configs: give the task an image that holds its repository (repo kind "image")` };
    }
    const first = await this.once(job, 1, [], r);
    if (first.lostNode === undefined) return { ...first.result, tries: 1 };
    const why = `node ${first.lostNode} went down under the first try`;
    r.onRetry?.(why);
    const second = await this.once(job, 2, [`node.id!=${first.lostNode}`], r);
    return { ...second.result, tries: 2, reason: `${why}${second.result.reason ? `; ${second.result.reason}` : ''}` };
  }

  private async once(job: SwarmJob, attempt: 1 | 2, extra: string[], ro: SwarmRunOptions): Promise<Try> {
    const t0 = Date.now();
    const docker = await this.manager.docker();
    const nonce = randomBytes(16).toString('hex');
    const id = `${job.name.toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(0, 40)}-${randomBytes(4).toString('hex')}`;
    const files: Array<{ path: string; content: Buffer; mode: number }> = [
      { path: NONCE_FILE, content: Buffer.from(nonce), mode: 0o400 },
      { path: COMMAND_FILE, content: Buffer.from(job.command), mode: 0o444 },
      ...(job.files ?? []).map((f) => ({ path: f.path, content: Buffer.from(f.content), mode: f.mode ?? 0o444 })),
    ];
    for (let i = 0, at = 0; job.archive && at < job.archive.length; i++, at += MAX_CONFIG_BYTES) {
      files.push({ path: archivePart(i), content: job.archive.subarray(at, at + MAX_CONFIG_BYTES), mode: 0o400 });
    }
    const configs: Array<{ id: string; name: string; file: string; mode: number }> = [];
    let service: Docker.Service | undefined;
    try {
      for (const [i, f] of files.entries()) {
        if (f.content.length > MAX_CONFIG_BYTES) throw new Error(`file ${f.path} is over ${MAX_CONFIG_BYTES} bytes, the most a Swarm config holds`);
        const name = `${id}-f${i}`;
        const c = (await docker.createConfig({ Name: name, Data: f.content.toString('base64'), Labels: { ...(job.labels ?? {}), 'specweave.owned': 'true' } })) as unknown as { id: string };
        configs.push({ id: c.id, name, file: f.path, mode: f.mode });
      }
      service = await docker.createService(serviceSpec(job, id, configs, extra) as unknown as Docker.CreateServiceOptions);
      return await this.follow(docker, service, nonce, job, t0, (node) => {
        this.o.onRunning?.(job, node, attempt);
        ro.onRunning?.(node, attempt);
      }, ro);
    } catch (e) {
      return { result: { ...empty(), status: 'failed', reason: errorText(e), timings: { startMs: Date.now() - t0, runMs: 0 } } };
    } finally {
      if (service) await service.remove().catch(() => undefined);
      for (const c of configs) await this.removeConfig(docker, c.id);
    }
  }

  /** A config stays in use until the service's task is gone: retried for a while, then left to the sweep. */
  private async removeConfig(docker: Docker, id: string): Promise<void> {
    for (let i = 0; i < 50; i++) {
      try {
        await docker.getConfig(id).remove();
        return;
      } catch (e) {
        if ((e as { statusCode?: number }).statusCode === 404) return;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  private async follow(docker: Docker, service: Docker.Service, nonce: string, job: SwarmJob, t0: number, onRunning: (node: string) => void, ro: SwarmRunOptions): Promise<Try> {
    const stream = (await service.logs({ stdout: true, stderr: true, follow: true })) as unknown as NodeJS.ReadableStream & { destroy(): void };
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const stdout = new NeedleSplit(Buffer.from(`\n${MARKER} ${nonce} `), (c) => {
      out.push(c);
      ro.onOutput?.('stdout', c);
    });
    const stderr = new NeedleSplit(Buffer.from(`\n${END} ${nonce}\n`), (c) => {
      err.push(c);
      ro.onOutput?.('stderr', c);
    });
    let frames: Buffer = Buffer.alloc(0);
    let node: string | undefined;
    let runningAt: number | undefined;
    const signal = ro.signal;
    const taskOf = async () => ((await docker.listTasks({ filters: { service: [service.id] } })) as Array<{ NodeID?: string; Status?: { State?: string; Err?: string } }>)[0];
    return new Promise((resolve) => {
      let settled = false;
      const finish = (r: Omit<Try['result'], 'stdout' | 'stderr' | 'output' | 'files' | 'timings'> & Partial<Pick<Try['result'], 'files'>>, lostNode?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        clearInterval(watch);
        signal?.removeEventListener('abort', onAbort);
        stream.destroy();
        if (!r.files) {
          stdout.flush();
          stderr.flush();
        }
        const o = Buffer.concat(out);
        const now = Date.now();
        resolve({
          result: {
            files: {},
            ...r,
            stdout: o,
            stderr: Buffer.concat(err),
            output: o.toString('utf8'),
            ...(node ? { node } : {}),
            timings: { startMs: (runningAt ?? now) - t0, runMs: runningAt ? now - runningAt : 0 },
          },
          ...(lostNode ? { lostNode } : {}),
        });
      };
      const onAbort = () => finish({ status: 'failed', reason: 'cancelled' });
      signal?.addEventListener('abort', onAbort, { once: true });
      const startMs = job.startTimeoutMs ?? 120_000;
      let deadline = setTimeout(() => finish({ status: 'timeout', reason: `the task did not start running within ${startMs} ms` }), startMs);
      // A run can be over before the watch first looks at its task: its node is then looked up once before the
      // result is given, so that every record says where it ran.
      let ending = false;
      const finishWithNode: typeof finish = (r) => {
        if (ending) return;
        ending = true;
        if (node) {
          finish(r);
          return;
        }
        void taskOf()
          .then((t) => {
            if (t?.NodeID) node = t.NodeID;
          })
          .catch(() => undefined)
          .finally(() => finish(r));
      };
      const done = () => {
        const tail = stdout.tail();
        if (!tail || !stderr.tail()) return;
        const t = readTrailer(tail.toString('latin1'), nonce);
        if (!t) return;
        if (t.error) {
          finishWithNode({ status: 'failed', exitCode: t.exitCode, reason: t.error });
          return;
        }
        const byPath: Record<string, Buffer | undefined> = {};
        for (const [i, f] of (job.readBack ?? []).entries()) byPath[f.path] = t.files[i];
        finishWithNode({ status: 'exited', exitCode: t.exitCode, files: byPath, ...(t.oomKills !== undefined ? { oomKills: t.oomKills } : {}), ...(t.commandMs !== undefined ? { commandMs: t.commandMs } : {}) });
      };
      stream.on('data', (chunk: Buffer) => {
        frames = Buffer.concat([frames, chunk]);
        let i = 0;
        while (i + 8 <= frames.length) {
          const len = frames.readUInt32BE(i + 4);
          if (i + 8 + len > frames.length) break;
          const body = frames.subarray(i + 8, i + 8 + len);
          if (frames[i] === 2) stderr.write(body);
          else stdout.write(body);
          i += 8 + len;
        }
        frames = frames.subarray(i);
        done();
      });
      stream.on('error', () => undefined);
      // The task and its node: where it runs, and whether that node went down (its logs then never end).
      const watch = setInterval(() => {
        void (async () => {
          const t = await taskOf();
          if (t?.NodeID) node = t.NodeID;
          if (node && runningAt === undefined && (t?.Status?.State === 'running' || t?.Status?.State === 'complete')) {
            runningAt = Date.now();
            clearTimeout(deadline);
            deadline = setTimeout(() => finish({ status: 'timeout', reason: `no result within ${job.timeoutMs} ms` }), job.timeoutMs);
            onRunning(node);
          }
          if (t?.Status?.State === 'rejected' || t?.Status?.State === 'failed') {
            finish({ status: 'failed', reason: `the task was ${t.Status.State}: ${t.Status.Err ?? ''}` });
            return;
          }
          if (node) {
            const n = (await docker.getNode(node).inspect()) as { Status?: { State?: string } };
            if (n.Status?.State === 'down') finish({ status: 'failed', reason: 'its node went down' }, node);
          }
        })().catch(() => undefined); // a failed look is tried again at the next tick
      }, this.o.watchMs ?? 1000);
    });
  }
}

/** The service of one try: a replicated job of one task, root entrypoint with only the capabilities it needs. */
export function serviceSpec(job: SwarmJob, id: string, configs: Array<{ id: string; name: string; file: string; mode: number }>, extraConstraints: string[] = []): Record<string, unknown> {
  return {
    Name: id,
    Labels: { ...(job.labels ?? {}), 'specweave.owned': 'true' },
    Mode: { ReplicatedJob: { MaxConcurrent: 1, TotalCompletions: 1 } },
    TaskTemplate: {
      ContainerSpec: {
        Image: job.image,
        Command: entrypoint(job, swarmLayout(job)),
        User: '0:0',
        Env: job.env ?? [],
        Labels: { ...(job.labels ?? {}), 'specweave.owned': 'true' },
        // The entrypoint unpacks as root and drops to the run user; the command itself gets none of these.
        CapabilityDrop: ['ALL'],
        CapabilityAdd: ['CAP_CHOWN', 'CAP_DAC_OVERRIDE', 'CAP_FOWNER', 'CAP_SETUID', 'CAP_SETGID', 'CAP_SETPCAP', 'CAP_KILL'],
        ...(job.ulimits ? { Ulimits: job.ulimits } : {}),
        Configs: configs.map((c) => ({ File: { Name: c.file, UID: '0', GID: '0', Mode: c.mode }, ConfigID: c.id, ConfigName: c.name })),
      },
      Resources: { Limits: { MemoryBytes: job.limits.memoryBytes, NanoCPUs: job.limits.nanoCpus, ...(job.limits.pids ? { Pids: job.limits.pids } : {}) } },
      RestartPolicy: { Condition: 'none', MaxAttempts: 0 },
      Placement: { Constraints: [...(job.constraints ?? []), ...extraConstraints] },
    },
  };
}

function empty(): Omit<SwarmJobResult, 'status' | 'tries'> {
  return { output: '', stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), files: {}, timings: { startMs: 0, runMs: 0 } };
}

function mb(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}
