// Finding the container engine: the `specweave.docker.host` setting (passed in as `host`), else DOCKER_HOST, else
// the default socket. Nothing contacts the engine until a run asks for it; the first contact is a ping with a short
// deadline so that "no engine" is a clear message within a second rather than a hang.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Docker from 'dockerode';
import { DeadlineError, withDeadline } from './deadline';
import { errnoCode, errorText } from '../../core/errorText';

export const DEFAULT_SOCKET = '/var/run/docker.sock';

export interface EngineOptions {
  /** An engine address: `unix:///path`, `tcp://host:port`, `ssh://user@host`, `npipe://...` or a socket path. */
  host?: string;
  /** Environment to read DOCKER_HOST, DOCKER_TLS_VERIFY, DOCKER_CERT_PATH from (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Deadline of the first ping (default 800 ms; 5 s over ssh, whose handshake alone can take a second). */
  pingTimeoutMs?: number;
}

export type EngineTransport = 'unix' | 'npipe' | 'tcp' | 'ssh';

export interface EngineTarget {
  transport: EngineTransport;
  /** What the user would recognise: `unix:///var/run/docker.sock`, `tcp://host:2376`... */
  address: string;
  /** Where the address came from. */
  source: 'setting' | 'DOCKER_HOST' | 'default';
  socketPath?: string;
  host?: string;
  port?: number;
  username?: string;
  tls: boolean;
}

export type EngineProblem = 'bad_address' | 'no_engine' | 'engine_down' | 'permission_denied' | 'no_answer' | 'error';

/** The engine cannot be used; `message` says what happened and what to do. */
export class EngineUnavailableError extends Error {
  constructor(
    readonly problem: EngineProblem,
    readonly target: EngineTarget | undefined,
    message: string,
  ) {
    super(message);
  }
}

const WHAT_TO_DO =
  'Start the engine (e.g. `sudo systemctl start docker`, or `scripts/setup-docker.sh` on a fresh Debian machine), ' +
  'or point the `specweave.docker.host` setting (CLI: --host) or DOCKER_HOST at a running engine.';

/** Parses an engine address into a target; pure. Throws EngineUnavailableError('bad_address') when unreadable. */
export function resolveEngineTarget(opts: EngineOptions = {}): EngineTarget {
  const env = opts.env ?? process.env;
  const fromSetting = opts.host?.trim();
  const fromEnv = env.DOCKER_HOST?.trim();
  const raw = fromSetting || fromEnv || `unix://${DEFAULT_SOCKET}`;
  const source: EngineTarget['source'] = fromSetting ? 'setting' : fromEnv ? 'DOCKER_HOST' : 'default';
  const tlsEnv = env.DOCKER_TLS_VERIFY === '1';
  if (raw.startsWith('/')) return { transport: 'unix', address: `unix://${raw}`, source, socketPath: raw, tls: false };
  if (raw.startsWith('unix://')) {
    const p = raw.slice('unix://'.length) || DEFAULT_SOCKET;
    return { transport: 'unix', address: `unix://${p}`, source, socketPath: p, tls: false };
  }
  if (raw.startsWith('npipe://')) {
    const p = raw.slice('npipe://'.length) || '//./pipe/docker_engine';
    return { transport: 'npipe', address: raw, source, socketPath: p, tls: false };
  }
  let url: URL;
  try {
    url = new URL(raw.includes('://') ? raw : `tcp://${raw}`);
  } catch {
    throw new EngineUnavailableError('bad_address', undefined, `The engine address "${raw}" (${source}) is not a URL. ${WHAT_TO_DO}`);
  }
  if (url.protocol === 'ssh:') {
    return {
      transport: 'ssh',
      address: raw,
      source,
      host: url.hostname,
      port: url.port ? Number(url.port) : 22,
      username: url.username || undefined,
      tls: false,
    };
  }
  if (url.protocol === 'tcp:' || url.protocol === 'http:' || url.protocol === 'https:') {
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 2376 : 2375;
    return {
      transport: 'tcp',
      address: `tcp://${url.hostname}:${port}`,
      source,
      host: url.hostname,
      port,
      tls: url.protocol === 'https:' || tlsEnv || port === 2376,
    };
  }
  throw new EngineUnavailableError(
    'bad_address',
    undefined,
    `The engine address "${raw}" (${source}) uses an unknown scheme "${url.protocol}"; use unix://, tcp:// or ssh://. ${WHAT_TO_DO}`,
  );
}

/** dockerode options for a target. Every key is set, so DOCKER_HOST in the environment cannot override a setting. */
export function dockerodeOptions(t: EngineTarget, env: NodeJS.ProcessEnv = process.env): Docker.DockerOptions {
  const o: Docker.DockerOptions = {
    socketPath: undefined,
    host: undefined,
    port: undefined,
    protocol: undefined,
    ca: undefined,
    cert: undefined,
    key: undefined,
    username: undefined,
  };
  if (t.transport === 'unix' || t.transport === 'npipe') return { ...o, socketPath: t.socketPath };
  if (t.transport === 'ssh') {
    return { ...o, protocol: 'ssh', host: t.host, port: t.port, username: t.username, sshOptions: { agent: env.SSH_AUTH_SOCK } };
  }
  const out: Docker.DockerOptions = { ...o, protocol: t.tls ? 'https' : 'http', host: t.host, port: t.port };
  const certDir = env.DOCKER_CERT_PATH;
  if (t.tls && certDir) {
    out.ca = fs.readFileSync(path.join(certDir, 'ca.pem'));
    out.cert = fs.readFileSync(path.join(certDir, 'cert.pem'));
    out.key = fs.readFileSync(path.join(certDir, 'key.pem'));
  }
  return out;
}


/** Turns a failed first contact into a message saying what happened and what to do. */
export function explainEngineError(t: EngineTarget, e: unknown): EngineUnavailableError {
  const at = `${t.address} (from ${t.source === 'setting' ? 'the specweave.docker.host setting' : t.source === 'DOCKER_HOST' ? 'DOCKER_HOST' : 'the default socket'})`;
  if (e instanceof EngineUnavailableError) return e;
  if (e instanceof DeadlineError) {
    return new EngineUnavailableError('no_answer', t, `No container engine answered at ${at} within ${e.ms} ms. ${WHAT_TO_DO}`);
  }
  const code = errnoCode(e);
  if (code === 'ENOENT') {
    return new EngineUnavailableError('no_engine', t, `No container engine: ${t.socketPath ?? t.address} does not exist at ${at}. ${WHAT_TO_DO}`);
  }
  if (code === 'ECONNREFUSED') {
    return new EngineUnavailableError('engine_down', t, `The container engine is not running: nothing accepts connections at ${at}. ${WHAT_TO_DO}`);
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new EngineUnavailableError(
      'permission_denied',
      t,
      `Permission denied on ${at}: this user may not use the engine. Add the user to the docker group ` +
        '(`sudo usermod -aG docker $USER`, then log in again), or set specweave.docker.host to an engine this user may use.',
    );
  }
  if (code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ETIMEDOUT' || code === 'ECONNRESET') {
    return new EngineUnavailableError('engine_down', t, `Cannot reach the container engine at ${at} (${code}). ${WHAT_TO_DO}`);
  }
  const msg = errorText(e);
  return new EngineUnavailableError('error', t, `The container engine at ${at} failed to answer: ${msg}. ${WHAT_TO_DO}`);
}

/** A lazily connected engine: construction never touches the network or the socket. */
export class Engine {
  private client?: Docker;
  private connecting?: Promise<Docker>;
  private target?: EngineTarget;
  /**
   * Whether the engine's storage driver takes a per-container quota (`StorageOpt size`: overlay2 on xfs with pquota,
   * btrfs, zfs...): undefined until the first create finds out.
   */
  storageQuota?: boolean;

  constructor(private readonly opts: EngineOptions = {}) {}

  /** The target this engine will use; resolves the address without contacting anything. */
  describe(): EngineTarget {
    this.target ??= resolveEngineTarget(this.opts);
    return this.target;
  }

  /** The dockerode client, after one successful ping; a failed ping is retried on the next call. */
  async docker(): Promise<Docker> {
    if (this.client) return this.client;
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async connect(): Promise<Docker> {
    const target = this.describe();
    const env = this.opts.env ?? process.env;
    let client: Docker;
    try {
      client = new Docker(dockerodeOptions(target, env));
    } catch (e) {
      throw explainEngineError(target, e);
    }
    // A missing socket file needs no round trip: say so at once.
    if (target.transport === 'unix' && target.socketPath && !fs.existsSync(target.socketPath)) {
      throw explainEngineError(target, Object.assign(new Error('missing socket'), { code: 'ENOENT' }));
    }
    const ms = this.opts.pingTimeoutMs ?? (target.transport === 'ssh' ? 5000 : 800);
    try {
      // dockerode's ping takes an abortSignal at run time; its type definitions do not say so.
      const ping = client.ping.bind(client) as unknown as (o: { abortSignal: AbortSignal }) => Promise<unknown>;
      await withDeadline('ping', ms, (signal) => ping({ abortSignal: signal }));
    } catch (e) {
      throw explainEngineError(target, e);
    }
    this.client = client;
    return client;
  }
}
