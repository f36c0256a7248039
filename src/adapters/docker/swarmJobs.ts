// One run as a Docker Swarm `replicated-job` service (issue 15, item 4): resource limits, no network (a task attached
// to no network has loopback only), placement constraints, files delivered as Swarm configs. Swarm restarts a job
// task whose container fails, so the entrypoint always exits 0 and the command's exit code comes back in the logs, on
// a line only the entrypoint can write: it runs as root, reads a nonce from a root-only config, runs the command as
// the unprivileged run user (who cannot read the nonce), then prints `__SPECWEAVE_EXIT__ <nonce> <code>`. A command
// that prints a marker of its own cannot know the nonce. The output is collected from the service's logs; a node that
// goes down under the run moves it to another node once; the service and its configs are removed afterwards.
import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { errorText } from '../../core/errorText';
import type { Engine } from './engine';

export interface SwarmJob {
  /** A name for the service (made safe and unique). */
  name: string;
  image: string;
  /** Run by `sh -c` as `user`, in `workdir`. */
  command: string;
  workdir: string;
  /** `uid:gid` of the unprivileged run user (default 1000:1000). */
  user?: string;
  env?: string[];
  /** Files put in place before the command runs (Swarm configs: at most 500 KB each). */
  files?: Array<{ path: string; content: string; mode?: number }>;
  limits: { memoryBytes: number; nanoCpus: number; pids?: number };
  timeoutMs: number;
  labels?: Record<string, string>;
  /** Swarm placement constraints (`node.role==worker`...). */
  constraints?: string[];
}

export interface SwarmJobResult {
  status: 'exited' | 'timeout' | 'failed';
  exitCode?: number;
  /** The command's output (stdout and stderr as the service logs give them), without the entrypoint's marker line. */
  output: string;
  /** The swarm node id the run finished (or ended) on. */
  node?: string;
  /** 2 when the first node went down under the run and it ran again on another. */
  tries: 1 | 2;
  /** Why a try was lost or failed. */
  reason?: string;
}

export interface SwarmOptions {
  /** How often the task and its node are looked at while the logs are followed (default 1 s). */
  watchMs?: number;
  /** Called once per try when its task is seen running, with the swarm node id (the queue view shows it). */
  onRunning?: (job: SwarmJob, node: string, attempt: 1 | 2) => void;
}

const MARKER = '__SPECWEAVE_EXIT__';
const NONCE_FILE = '/run/specweave/nonce';
const COMMAND_FILE = '/run/specweave/command.sh';
const MAX_CONFIG_BYTES = 500 * 1024;

function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The entrypoint: as root, read the nonce, run the command as the run user, print the marker, always exit 0. */
export function entrypoint(job: Pick<SwarmJob, 'workdir' | 'user'>): string[] {
  const [uid = '1000', gid = '1000'] = (job.user ?? '1000:1000').split(':');
  return [
    'sh',
    '-c',
    [
      `n="$(cat ${NONCE_FILE})"`,
      `cd ${shQuote(job.workdir)} || { echo; echo "${MARKER} $n 127"; exit 0; }`,
      `setpriv --reuid=${uid} --regid=${gid} --clear-groups sh ${COMMAND_FILE}`,
      'c=$?',
      'echo',
      `echo "${MARKER} $n $c"`,
      'exit 0',
    ].join('\n'),
  ];
}

/** The exit code on the last marker line carrying `nonce`, and the output before it; undefined while it has not come. */
export function readMarker(text: string, nonce: string): { exitCode: number; output: string } | undefined {
  const re = new RegExp(`(?:^|\\n)${MARKER} ${nonce} (\\d{1,3})\\n?$`);
  const m = re.exec(text);
  if (!m) return undefined;
  const output = text.slice(0, m.index).replace(/\n$/, '');
  return { exitCode: Number(m[1]), output };
}

/** The service logs' stream without its 8-byte frame headers (a service's logs are multiplexed). */
function demux(buf: Buffer): { text: string; rest: Buffer } {
  let text = '';
  let i = 0;
  while (i + 8 <= buf.length) {
    const len = buf.readUInt32BE(i + 4);
    if (i + 8 + len > buf.length) break;
    text += buf.subarray(i + 8, i + 8 + len).toString('utf8');
    i += 8 + len;
  }
  return { text, rest: buf.subarray(i) };
}

export class SwarmJobRunner {
  constructor(
    private readonly manager: Engine,
    private readonly o: SwarmOptions = {},
  ) {}

  /** Runs the job; a node lost under it moves it once (excluding that node). Never throws for the job's own outcome. */
  async run(job: SwarmJob, signal?: AbortSignal): Promise<SwarmJobResult> {
    const first = await this.once(job, 1, [], signal);
    if (first.lostNode === undefined) return { ...first.result, tries: 1 };
    const second = await this.once(job, 2, [`node.id!=${first.lostNode}`], signal);
    return { ...second.result, tries: 2, reason: `node ${first.lostNode} went down under the first try${second.result.reason ? `; ${second.result.reason}` : ''}` };
  }

  private async once(job: SwarmJob, attempt: 1 | 2, extra: string[], signal?: AbortSignal): Promise<{ result: Omit<SwarmJobResult, 'tries'>; lostNode?: string }> {
    const docker = await this.manager.docker();
    const nonce = randomBytes(16).toString('hex');
    const id = `${job.name.toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(0, 40)}-${randomBytes(4).toString('hex')}`;
    const files = [
      { path: NONCE_FILE, content: nonce, mode: 0o400, uid: '0' },
      { path: COMMAND_FILE, content: job.command, mode: 0o444, uid: '0' },
      ...(job.files ?? []).map((f) => ({ path: f.path, content: f.content, mode: f.mode ?? 0o444, uid: '0' })),
    ];
    const configs: Array<{ id: string; name: string; file: string; mode: number; uid: string }> = [];
    let service: Docker.Service | undefined;
    try {
      for (const [i, f] of files.entries()) {
        if (Buffer.byteLength(f.content) > MAX_CONFIG_BYTES) throw new Error(`file ${f.path} is over ${MAX_CONFIG_BYTES} bytes, the most a Swarm config holds`);
        const name = `${id}-f${i}`;
        const c = (await docker.createConfig({ Name: name, Data: Buffer.from(f.content).toString('base64'), Labels: { 'specweave.owned': 'true' } })) as unknown as { id: string };
        configs.push({ id: c.id, name, file: f.path, mode: f.mode, uid: f.uid });
      }
      service = await docker.createService({
        Name: id,
        Labels: { 'specweave.owned': 'true', ...(job.labels ?? {}) },
        Mode: { ReplicatedJob: { MaxConcurrent: 1, TotalCompletions: 1 } },
        TaskTemplate: {
          ContainerSpec: {
            Image: job.image,
            Command: entrypoint(job),
            User: '0:0',
            Env: job.env ?? [],
            Labels: { 'specweave.owned': 'true', ...(job.labels ?? {}) },
            Configs: configs.map((c) => ({ File: { Name: c.file, UID: c.uid, GID: '0', Mode: c.mode }, ConfigID: c.id, ConfigName: c.name })),
          },
          Resources: { Limits: { MemoryBytes: job.limits.memoryBytes, NanoCPUs: job.limits.nanoCpus, ...(job.limits.pids ? { Pids: job.limits.pids } : {}) } },
          RestartPolicy: { Condition: 'none', MaxAttempts: 0 },
          Placement: { Constraints: [...(job.constraints ?? []), ...extra] },
        },
      } as unknown as Docker.CreateServiceOptions);
      return await this.follow(docker, service, nonce, job.timeoutMs, signal, (node) => this.o.onRunning?.(job, node, attempt));
    } catch (e) {
      return { result: { status: 'failed', output: '', reason: errorText(e) } };
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

  private async follow(docker: Docker, service: Docker.Service, nonce: string, timeoutMs: number, signal: AbortSignal | undefined, onRunning: (node: string) => void): Promise<{ result: Omit<SwarmJobResult, 'tries'>; lostNode?: string }> {
    const stream = (await service.logs({ stdout: true, stderr: true, follow: true })) as unknown as NodeJS.ReadableStream & { destroy(): void };
    let buf: Buffer = Buffer.alloc(0);
    let text = '';
    let node: string | undefined;
    let told = false;
    return new Promise((resolve) => {
      let settled = false;
      const finish = (r: { result: Omit<SwarmJobResult, 'tries'>; lostNode?: string }) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        clearInterval(watch);
        signal?.removeEventListener('abort', onAbort);
        stream.destroy();
        resolve(r);
      };
      const onAbort = () => finish({ result: { status: 'failed', output: text, ...(node ? { node } : {}), reason: 'cancelled' } });
      signal?.addEventListener('abort', onAbort, { once: true });
      const deadline = setTimeout(() => finish({ result: { status: 'timeout', output: text, ...(node ? { node } : {}), reason: `no result within ${timeoutMs} ms` } }), timeoutMs);
      stream.on('data', (chunk: Buffer) => {
        const d = demux(Buffer.concat([buf, chunk]));
        buf = d.rest;
        text += d.text;
        const m = readMarker(text, nonce);
        if (m) finish({ result: { status: 'exited', exitCode: m.exitCode, output: m.output, ...(node ? { node } : {}) } });
      });
      stream.on('error', () => undefined);
      // The task and its node: where it runs, and whether that node went down (its logs then never end).
      const watch = setInterval(() => {
        void (async () => {
          const tasks = (await docker.listTasks({ filters: { service: [service.id] } })) as Array<{ NodeID?: string; Status?: { State?: string; Err?: string } }>;
          const t = tasks[0];
          if (t?.NodeID) node = t.NodeID;
          if (node && !told && t?.Status?.State === 'running') {
            told = true;
            onRunning(node);
          }
          if (t?.Status?.State === 'rejected' || t?.Status?.State === 'failed') {
            finish({ result: { status: 'failed', output: text, ...(node ? { node } : {}), reason: `the task was ${t.Status.State}: ${t.Status.Err ?? ''}` } });
            return;
          }
          if (node) {
            const n = (await docker.getNode(node).inspect()) as { Status?: { State?: string } };
            if (n.Status?.State === 'down') finish({ result: { status: 'failed', output: text, node, reason: 'its node went down' }, lostNode: node });
          }
        })().catch(() => undefined); // a failed look is tried again at the next tick
      }, this.o.watchMs ?? 1000);
    });
  }
}
