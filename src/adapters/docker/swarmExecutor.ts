// The `swarm` backend (issue 15, item 4): each run a Swarm job (swarmJobs.ts) on the swarm of the engine it is given
// (a manager). The run's archive (the repository and the run's inputs, as a local run uploads them) goes in configs
// and is unpacked by the task's entrypoint; the driver is the same script a local run executes, with no stdin
// watchdog (no client is attached to a task); its output comes back through the service's logs, stdout and stderr
// apart, and the reports the judge reads (JUnit, reward files) come back in the entrypoint's trailer. The judge grades
// what comes back exactly as it grades a local run's output.
//
// What a Swarm task cannot do that a local container does: no swap limit (Swarm has no MemorySwap), no total-size
// watch of the writable layer (each file is still capped by `fsize`), and the image must be on every node the run
// may go to (no registry here: `docker save | docker load` on each, as scripts/cluster-up.sh does).
import type Docker from 'dockerode';
import type { Engine } from './engine';
import { executionOf, jobBase, jobCaptures } from './jobExecution';
import type { ExecuteOptions } from './executor';
import { CancelledError } from './executor';
import type { RunDescription } from './runSpec';
import type { RunExecution, RunExecutor, RunHooks, RunJob } from './runExecutor';
import type { SwarmJob } from './swarmJobs';
import { SwarmJobRunner } from './swarmJobs';
import { sweepSwarmOrphans } from './sweep';


export interface SwarmExecutorOptions {
  /** Placement constraints every run gets (`node.role==worker`, `node.labels.verifier==yes`). */
  constraints?: string[];
  /** How often a run's task and node are looked at (default 1 s). */
  watchMs?: number;
  log?: (line: string) => void;
}

/** The Swarm job of a run description (pure): the same image, user, workdir, driver and limits as a local run. */
export function swarmJobOf(d: RunDescription, archive: Buffer, constraints: readonly string[] = []): SwarmJob {
  return {
    ...jobBase(d, archive),
    limits: { memoryBytes: d.hostConfig.Memory, nanoCpus: d.hostConfig.NanoCpus, pids: d.hostConfig.PidsLimit },
    ulimits: d.hostConfig.Ulimits,
    timeoutMs: d.clientDeadlineMs,
    labels: d.labels,
    constraints: [...constraints],
  };
}

export class SwarmExecutor implements RunExecutor {
  readonly backend = 'swarm' as const;
  private readonly runner: SwarmJobRunner;
  private names?: Promise<Map<string, string>>;

  constructor(
    private readonly manager: Engine,
    private readonly o: SwarmExecutorOptions = {},
  ) {
    this.runner = new SwarmJobRunner(manager, { ...(o.watchMs !== undefined ? { watchMs: o.watchMs } : {}) });
  }

  node(): Promise<string> {
    return Promise.resolve('');
  }

  /** Refuses an engine that is not a swarm manager, saying what to do. */
  async ready(): Promise<void> {
    const docker = await this.manager.docker();
    const info = (await docker.info()) as { Swarm?: { LocalNodeState?: string; ControlAvailable?: boolean } };
    if (info.Swarm?.LocalNodeState !== 'active' || info.Swarm.ControlAvailable !== true) {
      throw new Error(`the engine at ${this.manager.describe().address} is not a swarm manager (state ${info.Swarm?.LocalNodeState ?? 'unknown'}): give a manager's address with --host, or run "docker swarm init" there`);
    }
  }

  /** A swarm node as run records and the queue view name it: its host name (with its id where names repeat), then its id. */
  private async where(id: string): Promise<string> {
    const read = async () => {
      const docker: Docker = await this.manager.docker();
      const nodes = (await docker.listNodes()) as Array<{ ID: string; Description?: { Hostname?: string } }>;
      const count = new Map<string, number>();
      for (const n of nodes) count.set(n.Description?.Hostname ?? '', (count.get(n.Description?.Hostname ?? '') ?? 0) + 1);
      return new Map(nodes.map((n) => {
        const host = n.Description?.Hostname || 'node';
        return [n.ID, (count.get(host) ?? 0) > 1 ? `${host}.${n.ID.slice(0, 8)}` : host];
      }));
    };
    let names = await (this.names ??= read().catch(() => new Map<string, string>()));
    if (!names.has(id)) {
      this.names = read().catch(() => new Map<string, string>());
      names = await this.names;
    }
    return `${names.get(id) ?? id.slice(0, 12)} swarm node ${id}`;
  }

  async run(job: RunJob, o: ExecuteOptions & RunHooks): Promise<RunExecution> {
    if (o.signal?.aborted) throw new CancelledError();
    const d = job.description;
    let cap = jobCaptures(o.keepBytes, o.onOutput);
    const archive = await job.archive(d, true);
    const sj = swarmJobOf(d, archive, this.o.constraints);
    let placed = Promise.resolve();
    const r = await this.runner.run(sj, {
      ...(o.signal ? { signal: o.signal } : {}),
      onOutput: (s, c) => {
        if (s === 'stdout') cap.stdout.write(c);
        else {
          cap.stderr.write(c);
          o.onOutput?.('stderr', c);
        }
      },
      onRetry: (why) => {
        cap = jobCaptures(o.keepBytes, o.onOutput);
        o.onRetry?.(why);
      },
      onRunning: (id) => {
        placed = this.where(id).then((w) => o.onNode?.(w));
      },
    });
    await placed;
    if (o.signal?.aborted) throw new CancelledError();
    if (r.status === 'failed') throw new Error(`swarm: ${r.reason ?? 'the run failed'}`);
    const node = r.node ? await this.where(r.node) : undefined;
    return executionOf(d, cap, {
      status: r.status,
      ...(r.exitCode !== undefined ? { exitCode: r.exitCode } : {}),
      ...(r.oomKills !== undefined ? { oomKills: r.oomKills } : {}),
      ...(r.commandMs !== undefined ? { commandMs: r.commandMs } : {}),
      files: r.files,
      timings: r.timings,
      ...(node ? { node } : {}),
      ...(r.tries === 2 ? { movedFrom: r.reason ?? 'its first node went down' } : {}),
    });
  }

  /** Removes the services and configs an earlier crash left on the swarm. */
  async sweep(): Promise<string[]> {
    return sweepSwarmOrphans(this.manager);
  }

  async close(): Promise<void> {
    // Nothing is kept between runs: every service and config is removed when its run ends.
  }
}
