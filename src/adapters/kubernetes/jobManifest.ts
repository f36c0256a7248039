// The Kubernetes objects of one run (issue 15, item 5), pure: ConfigMaps holding the run's control files (the command
// and a nonce) and its archive in parts, a Job whose init step assembles the archive from the parts into the pod's
// scratch volume, whose run container unpacks it at `/` and runs the command as the run user through the shared job
// entrypoint (../docker/jobEntrypoint.ts: the command's exit code, OOM kills, stderr and report files come back in a
// nonce-framed trailer of the log), and a NetworkPolicy denying the pod every ingress and egress (where the cluster's
// network plugin enforces policies). The Job never retries (`backoffLimit: 0`, `restartPolicy: Never`), has a
// deadline (`activeDeadlineSeconds`), requests equal to its limits, no service account token, no host namespaces.
//
// Why the run container starts as root: the archive is unpacked over the image's own folders exactly as a local run's
// upload is (an emptyDir mounted on the repository would hide what the image built there), then the command runs as
// the run user under `setpriv` with no capabilities and no new privileges. The container itself keeps only the
// capabilities that unpacking and dropping need; the namespace must admit the Pod Security Standard "baseline".
import { entrypoint } from '../docker/jobEntrypoint';

export interface KubernetesRun {
  /** A name for the objects (made a DNS label and unique by `id`). */
  name: string;
  /** Lowercase letters and digits; makes the names unique (a run id's hash). */
  id: string;
  namespace: string;
  image: string;
  /** The script run by `sh` as `user`, in `workdir`, after the archive is unpacked. */
  command: string;
  workdir: string;
  /** `uid:gid`, `uid`, a user name, or '' for root (still without capabilities) (default 1000:1000). */
  user?: string;
  /** `NAME=value` entries. */
  env?: string[];
  /** A tar archive unpacked at `/` before the command runs (the repository, the patches, the driver). */
  archive?: Buffer;
  /** Absolute paths read back after the command (regular files only), each cut at `maxBytes`. */
  readBack?: Array<{ path: string; maxBytes: number }>;
  limits: { memoryBytes: number; milliCpus: number; ephemeralBytes?: number };
  /** The Job's `activeDeadlineSeconds`: from its start, scheduling and image pull included. */
  timeoutSec: number;
  /** Frames the trailer; only the entrypoint can read it (a root-only file). */
  nonce: string;
  labels?: Record<string, string>;
}

export const RUN_LABEL = 'specweave.io/run';
export const OWNED_LABEL = 'specweave.io/owned';
/** Bytes of archive per ConfigMap: base64 makes it about 930 KiB, under the 1 MiB a ConfigMap may hold. */
export const PART_BYTES = 700 * 1024;
/** The most an archive may take in ConfigMaps (the cluster's store holds them all until the run ends). */
export const MAX_ARCHIVE_BYTES = 64 * 1024 * 1024;
/** Where the run container's stderr goes (the log mixes the two streams); read back in the trailer. */
export const STDERR_FILE = '/run/specweave/in/stderr';
export const MAX_STDERR_BYTES = 8 * 1024 * 1024;

const CTL_DIR = '/run/specweave/ctl';
const IN_DIR = '/run/specweave/in';
const PARTS_DIR = '/run/specweave/parts';
const ARCHIVE_FILE = `${IN_DIR}/archive.tar`;
/** What unpacking the archive and dropping to the run user need; everything else is dropped. */
const RUN_CAPS = ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'SETUID', 'SETGID', 'SETPCAP', 'KILL'];

export class ManifestError extends Error {}

/** `name` as a DNS-1123 label: lowercase alphanumerics and dashes, at most 63 characters with the id. */
export function objectName(run: Pick<KubernetesRun, 'name' | 'id'>): string {
  const id = run.id.toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 12);
  if (id === '') throw new ManifestError('the run id has no letter or digit to name its objects with');
  const base = run.name.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63 - id.length - 1) || 'run';
  return `${base.replace(/-+$/, '')}-${id}`;
}

const partName = (name: string, i: number) => `${name}-p${String(i).padStart(4, '0')}`;

export interface KubernetesObjects {
  /** The control ConfigMap first, then the archive's parts in order. */
  configMaps: Array<Record<string, unknown>>;
  job: Record<string, unknown>;
  networkPolicy: Record<string, unknown>;
}

/** The readBack list the entrypoint is given: the run's own, then the stderr file (always last). */
export function entrypointReadBack(run: Pick<KubernetesRun, 'readBack'>): Array<{ path: string; maxBytes: number }> {
  return [...(run.readBack ?? []), { path: STDERR_FILE, maxBytes: MAX_STDERR_BYTES }];
}

export function buildRunObjects(run: KubernetesRun): KubernetesObjects {
  const name = objectName(run);
  // Ours last: the run label is what the NetworkPolicy selects the pod by, and no label of the caller may change it.
  const labels = { ...(run.labels ?? {}), [OWNED_LABEL]: 'true', [RUN_LABEL]: name };
  const archive = run.archive ?? Buffer.alloc(0);
  if (archive.length > MAX_ARCHIVE_BYTES) {
    throw new ManifestError(`the run's archive is ${archive.length} bytes, over the ${MAX_ARCHIVE_BYTES} the kubernetes backend delivers in ConfigMaps: give the task an image that holds its repository`);
  }
  if (!/^[A-Za-z0-9]{8,64}$/.test(run.nonce)) throw new ManifestError('the nonce must be 8 to 64 letters or digits');
  const parts: Buffer[] = [];
  for (let at = 0; at < archive.length; at += PART_BYTES) parts.push(archive.subarray(at, at + PART_BYTES));

  const control = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: run.namespace, labels }, data: { command: run.command, nonce: run.nonce } };
  const partMaps = parts.map((p, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: partName(name, i), namespace: run.namespace, labels }, binaryData: { part: p.toString('base64') } }));

  const partDirs = parts.map((_, i) => `${PARTS_DIR}/${String(i).padStart(4, '0')}`);
  const assemble = parts.length === 0
    ? 'true'
    : ['set -e', `cat ${partDirs.map((d) => `${d}/part`).join(' ')} > ${ARCHIVE_FILE}`, `test "$(wc -c < ${ARCHIVE_FILE})" -eq ${archive.length} || { echo "the archive arrived with $(wc -c < ${ARCHIVE_FILE}) of its ${archive.length} bytes" >&2; exit 1; }`].join('\n');
  const script = entrypoint(
    { workdir: run.workdir, ...(run.user !== undefined ? { user: run.user } : {}), readBack: entrypointReadBack(run) },
    { nonce: `${CTL_DIR}/nonce`, command: `${CTL_DIR}/command.sh`, archive: parts.length > 0 ? [ARCHIVE_FILE] : [], stderrFile: STDERR_FILE },
  );
  // Scratch for the assembled archive and the stderr file, plus what the unpacked archive and the run write.
  const ephemeral = (run.limits.ephemeralBytes ?? 0) + 2 * archive.length + MAX_STDERR_BYTES;
  const quantities = { memory: String(run.limits.memoryBytes), cpu: `${run.limits.milliCpus}m`, ...(run.limits.ephemeralBytes ? { 'ephemeral-storage': String(ephemeral) } : {}) };
  const resources = { requests: quantities, limits: quantities };
  const rootNoCaps = { runAsUser: 0, runAsGroup: 0, runAsNonRoot: false, allowPrivilegeEscalation: false, privileged: false };
  const env = (run.env ?? []).map((e) => {
    const i = e.indexOf('=');
    return i < 0 ? { name: e, value: '' } : { name: e.slice(0, i), value: e.slice(i + 1) };
  });
  return {
    configMaps: [control, ...partMaps],
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
            shareProcessNamespace: false,
            initContainers: [
              {
                name: 'inputs',
                image: run.image,
                command: ['sh', '-c', assemble],
                securityContext: { ...rootNoCaps, capabilities: { drop: ['ALL'] } },
                resources,
                volumeMounts: [...partDirs.map((d, i) => ({ name: `p${i}`, mountPath: d, readOnly: true })), { name: 'in', mountPath: IN_DIR }],
              },
            ],
            containers: [
              {
                name: 'run',
                image: run.image,
                command: script,
                env,
                securityContext: { ...rootNoCaps, capabilities: { drop: ['ALL'], add: RUN_CAPS } },
                resources,
                volumeMounts: [
                  { name: 'ctl', mountPath: CTL_DIR, readOnly: true },
                  { name: 'in', mountPath: IN_DIR },
                ],
              },
            ],
            volumes: [
              { name: 'ctl', configMap: { name, defaultMode: 0o400, items: [{ key: 'command', path: 'command.sh', mode: 0o444 }, { key: 'nonce', path: 'nonce', mode: 0o400 }] } },
              ...parts.map((_, i) => ({ name: `p${i}`, configMap: { name: partName(name, i), defaultMode: 0o400 } })),
              { name: 'in', emptyDir: { sizeLimit: String(2 * archive.length + MAX_STDERR_BYTES + 1024 * 1024) } },
            ],
          },
        },
      },
    },
  };
}
