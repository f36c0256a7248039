// One run as a Kubernetes Job (issue 15, item 5), through @kubernetes/client-node with the kubeconfig found the usual
// way (KUBECONFIG, ~/.kube/config, or the in-cluster service account): the objects of jobManifest.ts created, the Job
// watched until it completes, fails or passes its deadline (its node reported once the pod has one), the pod's log
// split at the entrypoint's nonce-framed trailer (../docker/jobEntrypoint.ts: the command's exit code, stderr and
// report files), and every object deleted afterwards, whatever the ending. A pod evicted under the run moves it to a new Job once. Tested
// against a loopback API server of the tests (contract tests: no control plane can be installed here). docs/cluster.md.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { errorText } from '../../core/errorText';
import type { KubernetesRun } from './jobManifest';
import type { Trailer } from '../docker/jobEntrypoint';
import { MARKER, readTrailer } from '../docker/jobEntrypoint';
import { buildRunObjects, entrypointReadBack, objectName, OWNED_LABEL } from './jobManifest';

export interface KubernetesRunResult {
  status: 'exited' | 'timeout' | 'failed';
  exitCode?: number;
  /** The command's stdout as text, without the entrypoint's trailer. */
  output: string;
  /** The command's stdout and stderr (read back from its file), as bytes. */
  stdout: Buffer;
  stderr: Buffer;
  /** The run's `readBack` files by path: undefined when not a regular file. */
  files: Record<string, Buffer | undefined>;
  /** The OOM kills in the pod's memory cgroup (undefined when the image's kernel interface does not say). */
  oomKills?: number;
  /** How long the command ran, measured inside the pod. */
  commandMs?: number;
  /** The node the pod ran on, when the API said. */
  node?: string;
  tries: 1 | 2;
  reason?: string;
  /** Notes on what the cluster could not do (no NetworkPolicy API: the pod's network is not restricted). */
  notes: string[];
  /** From the Job's creation to its pod seen running (or ended), and from then to the end. */
  timings: { startMs: number; runMs: number };
}

export interface KubernetesRunOptions {
  signal?: AbortSignal;
  /** The try's pod is on this node (the queue view shows it). */
  onRunning?: (node: string, attempt: 1 | 2) => void;
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

type Ended = Omit<KubernetesRunResult, 'tries' | 'notes' | 'timings'>;
type Try = { result: Ended; evicted?: boolean; timings: KubernetesRunResult['timings'] };

const empty = (): Pick<KubernetesRunResult, 'output' | 'stdout' | 'stderr' | 'files'> => ({ output: '', stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), files: {} });

/** The log split at the entrypoint's trailer: the command's stdout, then what the trailer says (undefined: no trailer). */
export function splitLog(log: string, run: Pick<KubernetesRun, 'nonce' | 'readBack'>): { stdout: Buffer; trailer?: Trailer; files: Record<string, Buffer | undefined>; stderr: Buffer } {
  const needle = `\n${MARKER} ${run.nonce} `;
  const at = log.indexOf(needle);
  if (at < 0) return { stdout: Buffer.from(log, 'utf8'), files: {}, stderr: Buffer.alloc(0) };
  const trailer = readTrailer(log.slice(at + needle.length), run.nonce);
  const back = entrypointReadBack(run);
  const files: Record<string, Buffer | undefined> = {};
  back.slice(0, -1).forEach((f, i) => (files[f.path] = trailer?.files[i]));
  return { stdout: Buffer.from(log.slice(0, at), 'utf8'), ...(trailer ? { trailer } : {}), files, stderr: trailer?.files[back.length - 1] ?? Buffer.alloc(0) };
}
export class KubernetesJobRunner {
  readonly kc: k8s.KubeConfig;
  private readonly core: k8s.CoreV1Api;
  private readonly batch: k8s.BatchV1Api;
  private readonly net: k8s.NetworkingV1Api;

  constructor(private readonly o: KubernetesOptions = {}) {
    this.kc = o.kubeConfig ?? defaultKubeConfig();
    this.core = this.kc.makeApiClient(k8s.CoreV1Api);
    this.batch = this.kc.makeApiClient(k8s.BatchV1Api);
    this.net = this.kc.makeApiClient(k8s.NetworkingV1Api);
  }

  /** The namespace of the kubeconfig's current context (default `default`). */
  contextNamespace(): string {
    return this.kc.getContextObject(this.kc.getCurrentContext())?.namespace ?? 'default';
  }

  /** Throws, saying which server and namespace, when the API does not answer a list of pods there. */
  async ready(namespace: string): Promise<void> {
    try {
      await this.core.listNamespacedPod({ namespace, limit: 1 });
    } catch (e) {
      throw new Error(`the Kubernetes API at ${this.kc.getCurrentCluster()?.server ?? '(no server)'} did not list pods in namespace ${namespace}: ${errorText(e)}`);
    }
  }

  /**
   * Deletes the Jobs, policies and ConfigMaps of ours in `namespace` that `orphan` says nobody runs any more (their
   * process is gone); returns what it deleted, as `kind/name`.
   */
  async sweep(namespace: string, orphan: (labels: Record<string, string>) => boolean): Promise<string[]> {
    const labelSelector = `${OWNED_LABEL}=true`;
    const gone: string[] = [];
    const quiet = async (what: string, p: Promise<unknown>) => {
      try {
        await p;
        gone.push(what);
      } catch (e) {
        if (statusOf(e) !== 404) throw e;
      }
    };
    for (const j of (await this.batch.listNamespacedJob({ namespace, labelSelector })).items) {
      const name = j.metadata?.name;
      if (name && orphan(j.metadata?.labels ?? {})) await quiet(`job/${name}`, this.batch.deleteNamespacedJob({ name, namespace, propagationPolicy: 'Background' }));
    }
    try {
      for (const n of (await this.net.listNamespacedNetworkPolicy({ namespace, labelSelector })).items) {
        const name = n.metadata?.name;
        if (name && orphan(n.metadata?.labels ?? {})) await quiet(`networkpolicy/${name}`, this.net.deleteNamespacedNetworkPolicy({ name, namespace }));
      }
    } catch (e) {
      if (statusOf(e) !== 404) throw e;
    }
    for (const c of (await this.core.listNamespacedConfigMap({ namespace, labelSelector })).items) {
      const name = c.metadata?.name;
      if (name && orphan(c.metadata?.labels ?? {})) await quiet(`configmap/${name}`, this.core.deleteNamespacedConfigMap({ name, namespace }));
    }
    return gone;
  }

  async run(run: KubernetesRun, ro: KubernetesRunOptions = {}): Promise<KubernetesRunResult> {
    const notes: string[] = [];
    const first = await this.once(run, notes, 1, ro);
    if (!first.evicted) return { ...first.result, tries: 1, notes, timings: first.timings };
    const second = await this.once({ ...run, id: `${run.id}r2` }, notes, 2, ro);
    return {
      ...second.result,
      tries: 2,
      reason: `the first pod was evicted (${first.result.reason ?? ''})${second.result.reason ? `; ${second.result.reason}` : ''}`,
      notes,
      timings: { startMs: first.timings.startMs + first.timings.runMs + second.timings.startMs, runMs: second.timings.runMs },
    };
  }

  private async once(run: KubernetesRun, notes: string[], attempt: 1 | 2, ro: KubernetesRunOptions): Promise<Try> {
    const t0 = Date.now();
    const failed = (e: unknown): Try => ({ result: { status: 'failed', ...empty(), reason: errorText(e) }, timings: { startMs: Date.now() - t0, runMs: 0 } });
    let objs: ReturnType<typeof buildRunObjects>;
    let name: string;
    try {
      objs = buildRunObjects(run);
      name = objectName(run);
    } catch (e) {
      return failed(e);
    }
    const namespace = run.namespace;
    const maps: string[] = [];
    const made = { np: false, job: false };
    try {
      for (const cm of objs.configMaps) {
        await this.core.createNamespacedConfigMap({ namespace, body: cm as k8s.V1ConfigMap });
        maps.push((cm.metadata as { name: string }).name);
      }
      try {
        await this.net.createNamespacedNetworkPolicy({ namespace, body: objs.networkPolicy as k8s.V1NetworkPolicy });
        made.np = true;
      } catch (e) {
        if (statusOf(e) !== 404) throw e;
        if (!notes.some((n) => n.startsWith('no NetworkPolicy'))) notes.push('no NetworkPolicy API on this cluster: the pod\'s network is not restricted by the cluster');
      }
      await this.batch.createNamespacedJob({ namespace, body: objs.job as k8s.V1Job });
      made.job = true;
      return await this.watch(run, name, t0, (node) => ro.onRunning?.(node, attempt), ro.signal);
    } catch (e) {
      return failed(e);
    } finally {
      const quiet = (p: Promise<unknown>) => p.catch(() => undefined);
      if (made.job) await quiet(this.batch.deleteNamespacedJob({ name, namespace, propagationPolicy: 'Background' }));
      if (made.np) await quiet(this.net.deleteNamespacedNetworkPolicy({ name, namespace }));
      for (const m of maps) await quiet(this.core.deleteNamespacedConfigMap({ name: m, namespace }));
    }
  }

  private async watch(run: KubernetesRun, name: string, t0: number, onRunning: (node: string) => void, signal?: AbortSignal): Promise<Try> {
    const namespace = run.namespace;
    // The Job's own deadline ends it; this one (a little later) covers a cluster that does not enforce it.
    const end = t0 + (run.timeoutSec + 30) * 1000;
    let running: number | undefined;
    let node: string | undefined;
    const timings = () => (running === undefined ? { startMs: Date.now() - t0, runMs: 0 } : { startMs: running - t0, runMs: Date.now() - running });
    for (;;) {
      if (signal?.aborted) return { result: { status: 'failed', ...empty(), reason: 'cancelled' }, timings: timings() };
      const job = await this.batch.readNamespacedJob({ name, namespace });
      const cond = (job.status?.conditions ?? []).find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
      if (cond) {
        const r = await this.ended(run, name, cond);
        return { ...r, timings: timings() };
      }
      if (node === undefined && (job.status?.active ?? 0) > 0) {
        const pod = (await this.core.listNamespacedPod({ namespace, labelSelector: `job-name=${name}` })).items[0];
        if (pod?.spec?.nodeName) {
          node = pod.spec.nodeName;
          running = Date.now();
          onRunning(node);
        }
      }
      if (Date.now() > end) return { result: { status: 'timeout', ...empty(), reason: `the Job did not end within its deadline of ${run.timeoutSec} s (the cluster did not stop it)` }, timings: timings() };
      await new Promise((r) => setTimeout(r, this.o.pollMs ?? 1000));
    }
  }

  private async ended(run: KubernetesRun, name: string, cond: k8s.V1JobCondition): Promise<Omit<Try, 'timings'>> {
    const namespace = run.namespace;
    const pods = await this.core.listNamespacedPod({ namespace, labelSelector: `job-name=${name}` });
    const pod = pods.items[0];
    const node = pod?.spec?.nodeName;
    const at = node ? { node } : {};
    const read = async () => {
      const s = splitLog(await this.log(pod, namespace), run);
      return { output: s.stdout.toString('utf8'), stdout: s.stdout, stderr: s.stderr, files: s.files, trailer: s.trailer };
    };
    if (cond.type === 'Failed' && cond.reason === 'DeadlineExceeded') {
      const { trailer: _t, ...got } = await read();
      return { result: { status: 'timeout', ...got, ...at, reason: `the Job passed its deadline (${cond.message ?? 'DeadlineExceeded'})` } };
    }
    if (pod?.status?.reason === 'Evicted') return { result: { status: 'failed', ...empty(), ...at, reason: `evicted: ${pod.status.message ?? ''}` }, evicted: true };
    const init = pod?.status?.initContainerStatuses?.find((c) => c.name === 'inputs')?.state?.terminated;
    if (init && init.exitCode !== 0) return { result: { status: 'failed', ...empty(), ...at, reason: `the init step that delivers the run's archive failed (exit ${init.exitCode}${init.message ? `: ${init.message}` : ''})` } };
    const term = pod?.status?.containerStatuses?.find((c) => c.name === 'run')?.state?.terminated;
    if (term?.reason === 'OOMKilled' && term.exitCode !== 0) {
      // The entrypoint itself was killed: no trailer, but an out-of-memory run is a verdict of its own.
      const { trailer: _t, ...got } = await read();
      return { result: { status: 'exited', exitCode: 137, oomKills: 1, ...got, ...at, reason: 'OOMKilled' } };
    }
    const { trailer, ...got } = await read();
    if (!trailer) {
      return { result: { status: 'failed', ...got, ...at, reason: `the Job ${cond.type === 'Complete' ? 'completed' : 'failed'}${cond.reason ? ` (${cond.reason})` : ''} but its log has no result trailer${term ? ` (the run container exited ${term.exitCode})` : ''}` } };
    }
    if (trailer.error) return { result: { status: 'failed', ...got, ...at, reason: trailer.error } };
    return {
      result: {
        status: 'exited',
        exitCode: trailer.exitCode,
        ...got,
        ...at,
        ...(trailer.oomKills !== undefined ? { oomKills: trailer.oomKills } : {}),
        ...(trailer.commandMs !== undefined ? { commandMs: trailer.commandMs } : {}),
      },
    };
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
