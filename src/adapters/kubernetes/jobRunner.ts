// One run as a Kubernetes Job (issue 15, item 5), through @kubernetes/client-node with the kubeconfig found the usual
// way (KUBECONFIG, ~/.kube/config, or the in-cluster service account): the objects of jobManifest.ts created, the Job
// watched until it completes, fails or passes its deadline, the pod's exit code and logs read for grading, and every
// object deleted afterwards, whatever the ending. A pod evicted under the run moves it to a new Job once. Tested
// against a loopback API server of the tests (contract tests: no control plane can be installed here). docs/cluster.md.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { errorText } from '../../core/errorText';
import type { KubernetesRun } from './jobManifest';
import { buildRunObjects, objectName } from './jobManifest';

export interface KubernetesRunResult {
  status: 'exited' | 'timeout' | 'failed';
  exitCode?: number;
  /** The run container's log. */
  output: string;
  /** The node the pod ran on, when the API said. */
  node?: string;
  tries: 1 | 2;
  reason?: string;
  /** Notes on what the cluster could not do (no NetworkPolicy API: the pod's network is not restricted). */
  notes: string[];
}

export interface KubernetesOptions {
  /** A loaded kubeconfig (default: `loadFromDefault()`). */
  kubeConfig?: k8s.KubeConfig;
  /** How often the Job is looked at (default 1 s). */
  pollMs?: number;
}

/** The kubeconfig found the usual way, or an error saying where it looked. */
export function defaultKubeConfig(): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  // With nothing to load, the client would fall back to http://localhost:8080: say so instead.
  const home = process.env.HOME ?? os.homedir();
  if (!process.env.KUBECONFIG && !fs.existsSync(path.join(home, '.kube', 'config')) && !process.env.KUBERNETES_SERVICE_HOST) {
    throw new Error('No Kubernetes cluster configured: set KUBECONFIG, or write ~/.kube/config (kubectl config), or run inside a pod with a service account.');
  }
  try {
    kc.loadFromDefault();
  } catch (e) {
    const from = process.env.KUBECONFIG ? `the kubeconfig KUBECONFIG names (${process.env.KUBECONFIG})` : 'the kubeconfig (~/.kube/config)';
    throw new Error(`Cannot read ${from}: ${errorText(e)}`);
  }
  if (!kc.getCurrentCluster()) throw new Error('No Kubernetes cluster configured: set KUBECONFIG, or write ~/.kube/config (kubectl config), or run inside a pod with a service account.');
  return kc;
}

const statusOf = (e: unknown): number | undefined => {
  const c = (e as { code?: unknown; statusCode?: unknown }).code ?? (e as { statusCode?: unknown }).statusCode;
  return typeof c === 'number' ? c : undefined;
};

type Try = { result: Omit<KubernetesRunResult, 'tries' | 'notes'>; evicted?: boolean };

export class KubernetesJobRunner {
  private readonly kc: k8s.KubeConfig;
  private readonly core: k8s.CoreV1Api;
  private readonly batch: k8s.BatchV1Api;
  private readonly net: k8s.NetworkingV1Api;

  constructor(private readonly o: KubernetesOptions = {}) {
    this.kc = o.kubeConfig ?? defaultKubeConfig();
    this.core = this.kc.makeApiClient(k8s.CoreV1Api);
    this.batch = this.kc.makeApiClient(k8s.BatchV1Api);
    this.net = this.kc.makeApiClient(k8s.NetworkingV1Api);
  }

  async run(run: KubernetesRun, signal?: AbortSignal): Promise<KubernetesRunResult> {
    const notes: string[] = [];
    const first = await this.once(run, notes, signal);
    if (!first.evicted) return { ...first.result, tries: 1, notes };
    const second = await this.once({ ...run, id: `${run.id}r2` }, notes, signal);
    return { ...second.result, tries: 2, reason: `the first pod was evicted (${first.result.reason ?? ''})${second.result.reason ? `; ${second.result.reason}` : ''}`, notes };
  }

  private async once(run: KubernetesRun, notes: string[], signal?: AbortSignal): Promise<Try> {
    let objs: ReturnType<typeof buildRunObjects>;
    let name: string;
    try {
      objs = buildRunObjects(run);
      name = objectName(run);
    } catch (e) {
      return { result: { status: 'failed', output: '', reason: errorText(e) } };
    }
    const namespace = run.namespace;
    const made = { cm: false, np: false, job: false };
    try {
      await this.core.createNamespacedConfigMap({ namespace, body: objs.configMap as k8s.V1ConfigMap });
      made.cm = true;
      try {
        await this.net.createNamespacedNetworkPolicy({ namespace, body: objs.networkPolicy as k8s.V1NetworkPolicy });
        made.np = true;
      } catch (e) {
        if (statusOf(e) !== 404) throw e;
        if (!notes.some((n) => n.startsWith('no NetworkPolicy'))) notes.push('no NetworkPolicy API on this cluster: the pod\'s network is not restricted by the cluster');
      }
      await this.batch.createNamespacedJob({ namespace, body: objs.job as k8s.V1Job });
      made.job = true;
      return await this.watch(name, namespace, run.timeoutSec, signal);
    } catch (e) {
      return { result: { status: 'failed', output: '', reason: errorText(e) } };
    } finally {
      const quiet = (p: Promise<unknown>) => p.catch(() => undefined);
      if (made.job) await quiet(this.batch.deleteNamespacedJob({ name, namespace, propagationPolicy: 'Background' }));
      if (made.np) await quiet(this.net.deleteNamespacedNetworkPolicy({ name, namespace }));
      if (made.cm) await quiet(this.core.deleteNamespacedConfigMap({ name, namespace }));
    }
  }

  private async watch(name: string, namespace: string, timeoutSec: number, signal?: AbortSignal): Promise<Try> {
    // The Job's own deadline ends it; this one (a little later) covers a cluster that does not enforce it.
    const end = Date.now() + (timeoutSec + 30) * 1000;
    for (;;) {
      if (signal?.aborted) return { result: { status: 'failed', output: '', reason: 'cancelled' } };
      const job = await this.batch.readNamespacedJob({ name, namespace });
      const cond = (job.status?.conditions ?? []).find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
      if (cond) return this.ended(name, namespace, cond);
      if (Date.now() > end) return { result: { status: 'timeout', output: '', reason: `the Job did not end within its deadline of ${timeoutSec} s (the cluster did not stop it)` } };
      await new Promise((r) => setTimeout(r, this.o.pollMs ?? 1000));
    }
  }

  private async ended(name: string, namespace: string, cond: k8s.V1JobCondition): Promise<Try> {
    const pods = await this.core.listNamespacedPod({ namespace, labelSelector: `job-name=${name}` });
    const pod = pods.items[0];
    const node = pod?.spec?.nodeName;
    const at = node ? { node } : {};
    if (cond.type === 'Failed' && cond.reason === 'DeadlineExceeded') {
      return { result: { status: 'timeout', output: await this.log(pod, namespace), ...at, reason: `the Job passed its deadline (${cond.message ?? 'DeadlineExceeded'})` } };
    }
    if (pod?.status?.reason === 'Evicted') return { result: { status: 'failed', output: '', ...at, reason: `evicted: ${pod.status.message ?? ''}` }, evicted: true };
    const term = pod?.status?.containerStatuses?.find((c) => c.name === 'run')?.state?.terminated;
    if (!pod || !term) return { result: { status: 'failed', output: '', ...at, reason: `the Job ${cond.type === 'Complete' ? 'completed' : 'failed'} (${cond.reason ?? ''}) but its run container has no exit code` } };
    return { result: { status: 'exited', exitCode: term.exitCode, output: await this.log(pod, namespace), ...at, ...(term.reason === 'OOMKilled' ? { reason: 'OOMKilled' } : {}) } };
  }

  private async log(pod: k8s.V1Pod | undefined, namespace: string): Promise<string> {
    const name = pod?.metadata?.name;
    if (!name) return '';
    try {
      return await this.core.readNamespacedPodLog({ name, namespace, container: 'run' });
    } catch {
      return '';
    }
  }
}
