// The Kubernetes objects of one run (issue 15, item 5), pure: a ConfigMap with the run's files, a Job that copies
// them into the workdir in an init step and runs the command, and a NetworkPolicy that denies the pod every ingress
// and egress (where the cluster's network plugin enforces policies). The Job never retries (`backoffLimit: 0`,
// `restartPolicy: Never`), has a deadline (`activeDeadlineSeconds`), requests and limits, no service account token,
// no host namespaces, an unprivileged user and no privilege escalation. docs/cluster.md.

export interface KubernetesRun {
  /** A name for the objects (made a DNS label and unique by `id`). */
  name: string;
  /** Lowercase letters and digits; makes the names unique (a run id's hash). */
  id: string;
  namespace: string;
  image: string;
  /** Run by `sh -c` in `workdir`, as `uid`. */
  command: string;
  workdir: string;
  uid?: number;
  /** Files put in the workdir (relative paths) before the command runs. ConfigMaps hold at most 1 MiB in all. */
  files: Array<{ path: string; content: string }>;
  limits: { memoryBytes: number; milliCpus: number; ephemeralBytes?: number };
  timeoutSec: number;
  labels?: Record<string, string>;
}

export const RUN_LABEL = 'specweave.io/run';
export const OWNED_LABEL = 'specweave.io/owned';
const MAX_CONFIGMAP_BYTES = 1024 * 1024;

export class ManifestError extends Error {}

/** `name` as a DNS-1123 label: lowercase alphanumerics and dashes, at most 63 characters with the id. */
export function objectName(run: Pick<KubernetesRun, 'name' | 'id'>): string {
  const id = run.id.toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 12);
  if (id === '') throw new ManifestError('the run id has no letter or digit to name its objects with');
  const base = run.name.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63 - id.length - 1) || 'run';
  return `${base.replace(/-+$/, '')}-${id}`;
}

function fileKey(i: number): string {
  return `f${i}`;
}

function checkPath(p: string): string {
  if (p === '' || p.startsWith('/') || p.split('/').some((s) => s === '..' || s === '') || p.includes('\\') || p.includes('\0')) {
    throw new ManifestError(`file path ${JSON.stringify(p.slice(0, 200))} must be relative, inside the workdir, without ".." or empty parts`);
  }
  return p;
}

const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export interface KubernetesObjects {
  configMap: Record<string, unknown>;
  job: Record<string, unknown>;
  networkPolicy: Record<string, unknown>;
}

export function buildRunObjects(run: KubernetesRun): KubernetesObjects {
  const name = objectName(run);
  const labels = { [OWNED_LABEL]: 'true', [RUN_LABEL]: name, ...(run.labels ?? {}) };
  const bytes = run.files.reduce((n, f) => n + Buffer.byteLength(f.content), 0) + Buffer.byteLength(run.command);
  if (bytes > MAX_CONFIGMAP_BYTES) throw new ManifestError(`the run's files are ${bytes} bytes; a ConfigMap holds at most ${MAX_CONFIGMAP_BYTES}`);
  const data: Record<string, string> = { command: run.command };
  run.files.forEach((f, i) => (data[fileKey(i)] = f.content));
  const copy = run.files.map((f, i) => {
    const p = checkPath(f.path);
    const dir = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '';
    return `${dir ? `mkdir -p ${shq(`/work/${dir}`)} && ` : ''}cp /input/${fileKey(i)} ${shq(`/work/${p}`)}`;
  });
  const uid = run.uid ?? 1000;
  const security = { runAsUser: uid, runAsGroup: uid, runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } };
  const resources = {
    requests: { memory: String(run.limits.memoryBytes), cpu: `${run.limits.milliCpus}m`, ...(run.limits.ephemeralBytes ? { 'ephemeral-storage': String(run.limits.ephemeralBytes) } : {}) },
    limits: { memory: String(run.limits.memoryBytes), cpu: `${run.limits.milliCpus}m`, ...(run.limits.ephemeralBytes ? { 'ephemeral-storage': String(run.limits.ephemeralBytes) } : {}) },
  };
  return {
    configMap: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: run.namespace, labels }, data },
    networkPolicy: {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name, namespace: run.namespace, labels },
      spec: { podSelector: { matchLabels: { [RUN_LABEL]: name } }, policyTypes: ['Ingress', 'Egress'], ingress: [], egress: [] },
    },
    job: {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name, namespace: run.namespace, labels },
      spec: {
        backoffLimit: 0,
        activeDeadlineSeconds: run.timeoutSec,
        ttlSecondsAfterFinished: 600,
        template: {
          metadata: { labels },
          spec: {
            restartPolicy: 'Never',
            automountServiceAccountToken: false,
            enableServiceLinks: false,
            hostNetwork: false,
            hostPID: false,
            hostIPC: false,
            securityContext: { runAsUser: uid, runAsGroup: uid, fsGroup: uid, runAsNonRoot: true },
            initContainers: [
              {
                name: 'inputs',
                image: run.image,
                command: ['sh', '-c', copy.length > 0 ? ['set -e', ...copy].join('\n') : 'true'],
                securityContext: security,
                resources,
                volumeMounts: [
                  { name: 'input', mountPath: '/input', readOnly: true },
                  { name: 'work', mountPath: '/work' },
                ],
              },
            ],
            containers: [
              {
                name: 'run',
                image: run.image,
                workingDir: run.workdir,
                command: ['sh', '/input/command'],
                securityContext: security,
                resources,
                volumeMounts: [
                  { name: 'input', mountPath: '/input', readOnly: true },
                  { name: 'work', mountPath: run.workdir },
                ],
              },
            ],
            volumes: [
              { name: 'input', configMap: { name, defaultMode: 0o444 } },
              { name: 'work', emptyDir: run.limits.ephemeralBytes ? { sizeLimit: String(run.limits.ephemeralBytes) } : {} },
            ],
          },
        },
      },
    },
  };
}
