// What the CLI's container commands (`verify`, `probe`) share: the engine checked before anything runs, and Ctrl-C
// cancelling the queue (its running containers are removed) instead of killing the process with them left behind.
import { EngineUnavailableError } from '../adapters/docker/engine';
import type { PoolMemberSpec } from '../adapters/docker/enginePool';
import { parsePoolMembers, PoolConfigError } from '../adapters/docker/enginePool';
import type { Backend } from '../core/verify/backend';
import { constraintProblem, namespaceProblem, parseBackend } from '../core/verify/backend';
import type { FlagSpec, ParsedArgs } from './args';
import { UsageError } from './args';
import type { VerifierService } from '../adapters/docker/verifyService';
import { err, one } from './output';

/** True when the service's engine answers; else prints why (naming `command`) and returns false. */
export async function engineAnswers(service: VerifierService, command: string): Promise<boolean> {
  try {
    await service.checkEngine();
    return true;
  } catch (e) {
    if (e instanceof EngineUnavailableError) {
      err(`specweave ${command}: ${one(e.message)}\n`);
      return false;
    }
    throw e;
  }
}

/** Until `dispose`, the first SIGINT cancels every job of the service's queue; `interrupted` says whether it came. */
export function cancelOnSigint(service: VerifierService): { readonly interrupted: boolean; dispose(): void } {
  let interrupted = false;
  const onSigint = (): void => {
    interrupted = true;
    err('\ncancelling: removing running containers...\n');
    service.queue.cancelAll();
  };
  process.once('SIGINT', onSigint);
  return {
    get interrupted() {
      return interrupted;
    },
    dispose: () => void process.removeListener('SIGINT', onSigint),
  };
}

/** The flags of every command that runs verifier containers: where they run, and warm containers. */
export const executionFlags = {
  host: { type: 'list', help: 'container engine address (unix://, tcp://, ssh://); default DOCKER_HOST, then the local socket. With --backend pool, one per engine, each ADDRESS[,capacity=N]' },
  backend: { type: 'string', help: 'where runs execute: local (the default), pool (the engines given with --host), swarm (jobs on the swarm whose manager --host gives), or kubernetes (Jobs on the cluster of the kubeconfig, KUBECONFIG or ~/.kube/config)' },
  namespace: { type: 'string', help: 'with --backend kubernetes, the namespace the Jobs go to (default: the kubeconfig context\'s, else default)' },
  constraint: { type: 'list', help: 'with --backend swarm, a placement constraint every run gets (node.role==worker), repeatable' },
  warm: { type: 'boolean', help: 'reuse a container for the runs of one task revision, reset between runs (not for final verdicts)' },
} as const satisfies Record<string, FlagSpec>;

export interface ExecutionChoice {
  backend: Backend;
  warm: boolean;
  engine: { host?: string };
  pool?: PoolMemberSpec[];
  /** The swarm backend's placement constraints. */
  swarmConstraints?: string[];
  /** The kubernetes backend's namespace. */
  namespace?: string;
}

/**
 * The `--backend`, `--host` and `--warm` choice. A backend that is not built, several `--host` without `--backend
 * pool`, or a pool entry that cannot be read is a usage error naming the flag. `pool: false` for a command whose runs
 * cannot go to a pool.
 */
export function executionOptions(a: ParsedArgs, o: { pool?: boolean; command?: string } = {}): ExecutionChoice {
  const b = parseBackend(a.strings.backend, '--backend');
  if (!b.ok) throw new UsageError(b.message);
  const hosts = a.lists.host ?? [];
  const warm = a.booleans.warm === true;
  if (b.backend === 'pool') {
    if (o.pool === false) throw new UsageError(`--backend pool: ${o.command ?? 'this command'} runs on one engine (give it with --host)`);
    try {
      return { backend: 'pool', warm, engine: {}, pool: parsePoolMembers(hosts, '--host') };
    } catch (e) {
      if (e instanceof PoolConfigError) throw new UsageError(e.message);
      throw e;
    }
  }
  if (hosts.length > 1) throw new UsageError(`--host is given ${hosts.length} times; several engines need --backend pool`);
  const constraints = a.lists.constraint ?? [];
  if (b.backend === 'swarm') {
    if (o.pool === false) throw new UsageError(`--backend swarm: ${o.command ?? 'this command'} runs on one engine (give it with --host)`);
    if (warm) throw new UsageError('--warm: warm containers are for the local and pool backends; a swarm run is a task of its own');
    const bad = constraints.map((c) => constraintProblem(c, '--constraint')).find((m) => m !== undefined);
    if (bad !== undefined) throw new UsageError(bad);
    return { backend: 'swarm', warm, engine: hosts[0] !== undefined ? { host: hosts[0] } : {}, ...(constraints.length ? { swarmConstraints: constraints } : {}) };
  }
  if (constraints.length > 0) throw new UsageError('--constraint is for --backend swarm');
  const namespace = a.strings.namespace;
  if (b.backend === 'kubernetes') {
    if (o.pool === false) throw new UsageError(`--backend kubernetes: ${o.command ?? 'this command'} runs on one engine (give it with --host)`);
    if (warm) throw new UsageError('--warm: warm containers are for the local and pool backends; a Kubernetes run is a Job of its own');
    const badNs = namespace !== undefined ? namespaceProblem(namespace, '--namespace') : undefined;
    if (badNs !== undefined) throw new UsageError(badNs);
    // --host still names the engine that resolves and builds images here; the cluster pulls them by the same name.
    return { backend: 'kubernetes', warm, engine: hosts[0] !== undefined ? { host: hosts[0] } : {}, ...(namespace ? { namespace } : {}) };
  }
  if (namespace !== undefined) throw new UsageError('--namespace is for --backend kubernetes');
  return { backend: b.backend, warm, engine: hosts[0] !== undefined ? { host: hosts[0] } : {} };
}
