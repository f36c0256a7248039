// The `kubernetes` backend (issue 15, item 5): each run one Job (jobManifest.ts, jobRunner.ts) in the namespace of
// the kubeconfig's current context (or the one given), the kubeconfig found the usual way. The run's archive (the
// repository and the run's inputs, as a local run uploads them) goes in ConfigMaps and is assembled by the Job's init
// step; the driver is the same script a local run executes, with no stdin watchdog (no client is attached to a pod);
// its stdout comes back in the pod's log, its stderr and the reports the judge reads in the entrypoint's trailer. The
// judge grades what comes back exactly as it grades a local run's output (../docker/jobExecution.ts).
//
// What a pod cannot do that a local container does: no per-file size limit (`fsize`) and no pids limit (both are the
// kubelet's, not the pod's), no swap limit; the disk is bounded by the ephemeral-storage limit instead; the image
// must be pullable by the cluster's nodes under the same reference; the log is text (bytes that are not UTF-8 arrive
// replaced) and a kubelet rotating a very long log keeps only its end.
import { randomBytes } from 'node:crypto';
import type * as k8s from '@kubernetes/client-node';
import { errorText } from '../../core/errorText';
import { CancelledError } from '../docker/executor';
import type { ExecuteOptions } from '../docker/executor';
import { executionOf, jobBase, jobCaptures } from '../docker/jobExecution';
import type { RunDescription } from '../docker/runSpec';
import { LABELS } from '../docker/runSpec';
import { isOrphan } from '../docker/sweep';
import type { RunExecution, RunExecutor, RunHooks, RunJob } from '../docker/runExecutor';
import type { KubernetesRun } from './jobManifest';
import { KubernetesJobRunner } from './jobRunner';

/** Scheduling and pulling the image may take this long before the command's own deadline starts to count. */
export const START_SLACK_SEC = 120;

export interface KubernetesExecutorOptions {
  /** Default: the namespace of the kubeconfig's current context, else `default`. */
  namespace?: string;
  kubeConfig?: k8s.KubeConfig;
  /** How often a Job is looked at (default 1 s). */
  pollMs?: number;
  log?: (line: string) => void;
}

/**
 * The run description's labels as Kubernetes labels: `specweave.pid` as `specweave.io/pid`, values cut to what a label
 * value may hold. The ownership and run labels are the manifest's own; the run id goes as `specweave.io/run-id`.
 */
export function kubernetesLabels(labels: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(labels)) {
    const key = k === LABELS.run ? 'specweave.io/run-id' : k.replace(/^specweave\./, 'specweave.io/');
    if (k === LABELS.owned || !/^specweave\.io\/[a-z0-9-]{1,40}$/.test(key)) continue;
    out[key] = v.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 63).replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
  }
  return out;
}

/** The owner's labels back under the names the sweep reads (`specweave.io/pid` as `specweave.pid`). */
export function fromKubernetesLabels(labels: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [LABELS.pid, LABELS.host, LABELS.created]) {
    const v = labels[k.replace(/^specweave\./, 'specweave.io/')];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** The Kubernetes run of a run description (pure): the same image, user, workdir, driver, limits and reports. */
export function kubernetesRunOf(d: RunDescription, archive: Buffer, namespace: string, id: string, nonce: string): KubernetesRun {
  return {
    ...jobBase(d, archive),
    id,
    namespace,
    limits: { memoryBytes: d.hostConfig.Memory, milliCpus: Math.max(1, Math.round(d.hostConfig.NanoCpus / 1e6)), ephemeralBytes: d.diskLimitBytes },
    timeoutSec: Math.ceil(d.clientDeadlineMs / 1000) + START_SLACK_SEC,
    nonce,
    labels: kubernetesLabels(d.labels),
  };
}

export class KubernetesExecutor implements RunExecutor {
  readonly backend = 'kubernetes' as const;
  readonly namespace: string;
  private readonly made: KubernetesJobRunner | Error;

  constructor(private readonly o: KubernetesExecutorOptions = {}) {
    // A kubeconfig that cannot be found or read is said by ready(), as an engine that does not answer is.
    let made: KubernetesJobRunner | Error;
    try {
      made = new KubernetesJobRunner({ ...(o.kubeConfig ? { kubeConfig: o.kubeConfig } : {}), ...(o.pollMs !== undefined ? { pollMs: o.pollMs } : {}) });
    } catch (e) {
      made = e instanceof Error ? e : new Error(String(e));
    }
    this.made = made;
    this.namespace = o.namespace ?? (made instanceof Error ? 'default' : made.contextNamespace());
  }

  private get runner(): KubernetesJobRunner {
    if (this.made instanceof Error) throw this.made;
    return this.made;
  }

  node(): Promise<string> {
    return Promise.resolve('');
  }

  /** Throws, naming the server and namespace, when the API does not answer there. */
  async ready(): Promise<void> {
    await this.runner.ready(this.namespace);
  }

  async run(job: RunJob, o: ExecuteOptions & RunHooks): Promise<RunExecution> {
    if (o.signal?.aborted) throw new CancelledError();
    const d = job.description;
    const archive = await job.archive(d, true);
    const kr = kubernetesRunOf(d, archive, this.namespace, randomBytes(6).toString('hex'), randomBytes(16).toString('hex'));
    const r = await this.runner.run(kr, {
      ...(o.signal ? { signal: o.signal } : {}),
      onRunning: (node, attempt) => {
        if (attempt === 2) o.onRetry?.('its first pod was evicted');
        o.onNode?.(`${node} kubernetes node`);
      },
    });
    if (o.signal?.aborted) throw new CancelledError();
    for (const n of r.notes) this.o.log?.(`kubernetes: ${n}`);
    if (r.status === 'failed') throw new Error(`kubernetes: ${r.reason ?? 'the run failed'}`);
    // The log comes whole at the end: the captures see it as a local run's would have, in one piece.
    const cap = jobCaptures(o.keepBytes, o.onOutput);
    cap.stdout.write(r.stdout);
    cap.stderr.write(r.stderr);
    if (r.stderr.length > 0) o.onOutput?.('stderr', r.stderr);
    return executionOf(d, cap, {
      status: r.status,
      ...(r.exitCode !== undefined ? { exitCode: r.exitCode } : {}),
      ...(r.oomKills !== undefined ? { oomKills: r.oomKills } : {}),
      ...(r.commandMs !== undefined ? { commandMs: r.commandMs } : {}),
      files: r.files,
      timings: r.timings,
      ...(r.node ? { node: `${r.node} kubernetes node` } : {}),
      ...(r.tries === 2 ? { movedFrom: r.reason ?? 'its first pod was evicted' } : {}),
    });
  }

  /** Deletes the Jobs, policies and ConfigMaps a dead process of ours left in the namespace (the sweep's rule). */
  async sweep(): Promise<string[]> {
    try {
      return await this.runner.sweep(this.namespace, (l) => isOrphan(fromKubernetesLabels(l), {}));
    } catch (e) {
      // An account that may create and delete but not list still runs; it just cannot clean up after a crash.
      this.o.log?.(`kubernetes: could not look for what an earlier batch left in namespace ${this.namespace}: ${errorText(e)}`);
      return [];
    }
  }

  async close(): Promise<void> {
    // Nothing is kept between runs: every Job, ConfigMap and policy is deleted when its run ends.
  }
}
