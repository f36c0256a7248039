// The kubelet of the contract tests' loopback API server: it runs a Job's pod on the real local Docker engine, as
// a node would, so that a whole batch can go through the kubernetes backend and be graded. It does what the backend's
// pods need and no more: the init containers then the run container, in order, each a container with no network,
// the pod's memory and CPU limits, its user, capabilities and no-new-privileges; configMap volumes written into the
// container before it starts (root-owned, with the items' modes); emptyDir volumes as Docker volumes shared by the
// containers; `activeDeadlineSeconds` enforced. The run container's log is stdout and stderr mixed, as a pod's log is.
// It is a stand-in for a node in contract tests, not a cluster: docs/cluster.md.
import * as crypto from 'node:crypto';
import type Docker from 'dockerode';
import * as tar from 'tar-stream';
import { demux } from '../cluster/clusterKit';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface PodEnding {
  /** The init step's code when it failed (the run container then never starts). */
  initCode?: number;
  code?: number;
  oomKilled?: boolean;
  deadline?: boolean;
  log: string;
}

function quantityBytes(q: string | undefined): number {
  if (!q) return 0;
  const m = /^(\d+)(Ki|Mi|Gi)?$/.exec(q);
  if (!m) throw new Error(`the fake kubelet reads byte quantities as plain numbers or Ki/Mi/Gi, not ${q}`);
  return Number(m[1]) * ({ Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 }[m[2] as 'Ki'] ?? 1);
}

function quantityNanoCpus(q: string | undefined): number {
  if (!q) return 0;
  const m = /^(\d+)(m)?$/.exec(q);
  if (!m) throw new Error(`the fake kubelet reads CPU quantities as N or Nm, not ${q}`);
  return m[2] ? Number(m[1]) * 1e6 : Number(m[1]) * 1e9;
}

/** The files a configMap volume shows: its items (or every key), at their paths, with their modes. */
function configMapFiles(vol: Obj, maps: Map<string, Obj>): Array<{ path: string; content: Buffer; mode: number }> {
  const cm = maps.get(vol.configMap.name as string);
  if (!cm) throw new Error(`configmap "${vol.configMap.name}" not found`);
  const value = (key: string): Buffer => {
    if (cm.data?.[key] !== undefined) return Buffer.from(cm.data[key] as string, 'utf8');
    if (cm.binaryData?.[key] !== undefined) return Buffer.from(cm.binaryData[key] as string, 'base64');
    throw new Error(`configmap "${vol.configMap.name}" has no key ${key}`);
  };
  const mode = (vol.configMap.defaultMode as number | undefined) ?? 0o644;
  const items = (vol.configMap.items as Array<{ key: string; path: string; mode?: number }> | undefined) ?? [...Object.keys(cm.data ?? {}), ...Object.keys(cm.binaryData ?? {})].map((key) => ({ key, path: key, mode: undefined as number | undefined }));
  return items.map((it) => ({ path: it.path, content: value(it.key), mode: it.mode ?? mode }));
}

function tarOf(dir: string, files: Array<{ path: string; content: Buffer; mode: number }>): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c: unknown) => chunks.push(c as Buffer));
  const done = new Promise<Buffer>((r) => pack.on('end', () => r(Buffer.concat(chunks))));
  const rel = dir.replace(/^\/+/, '');
  const parts = rel.split('/');
  for (let i = 1; i <= parts.length; i++) pack.entry({ name: `${parts.slice(0, i).join('/')}/`, type: 'directory', mode: 0o755, uid: 0, gid: 0 });
  for (const f of files) pack.entry({ name: `${rel}/${f.path}`, mode: f.mode, uid: 0, gid: 0 }, f.content);
  pack.finalize();
  return done;
}

/** Runs the pod of `job` on `docker`; resolves with how it ended. Everything it made is removed. */
export async function runPod(docker: Docker, job: Obj, maps: Map<string, Obj>): Promise<PodEnding> {
  const pod = job.spec.template.spec as Obj;
  const deadline = Date.now() + (job.spec.activeDeadlineSeconds as number) * 1000;
  const tag = crypto.randomBytes(4).toString('hex');
  const volumes = new Map<string, Obj>((pod.volumes as Obj[]).map((v) => [v.name as string, v]));
  const dockerVolumes = new Map<string, string>();
  const containers: Docker.Container[] = [];
  try {
    for (const v of volumes.values()) {
      if (v.emptyDir) {
        const name = `sw-kubelet-${tag}-${v.name}`;
        await docker.createVolume({ Name: name, Labels: { 'specweave.test': 'kubelet' } });
        dockerVolumes.set(v.name as string, name);
      }
    }
    const runOne = async (c: Obj): Promise<{ code: number; oomKilled: boolean; deadline: boolean; log: string }> => {
      const sc = (c.securityContext ?? {}) as Obj;
      const mounts = (c.volumeMounts as Obj[]).filter((m) => dockerVolumes.has(m.name as string)).map((m) => ({ Type: 'volume' as const, Source: dockerVolumes.get(m.name as string) as string, Target: m.mountPath as string }));
      const container = await docker.createContainer({
        Image: c.image as string,
        Entrypoint: c.command as string[],
        Cmd: (c.args as string[] | undefined) ?? [],
        ...(c.workingDir ? { WorkingDir: c.workingDir as string } : {}),
        Env: ((c.env as Array<{ name: string; value: string }> | undefined) ?? []).map((e) => `${e.name}=${e.value}`),
        User: `${sc.runAsUser ?? 0}:${sc.runAsGroup ?? 0}`,
        Labels: { 'specweave.test': 'kubelet' },
        HostConfig: {
          NetworkMode: 'none',
          Memory: quantityBytes(c.resources?.limits?.memory as string | undefined),
          MemorySwap: quantityBytes(c.resources?.limits?.memory as string | undefined),
          NanoCpus: quantityNanoCpus(c.resources?.limits?.cpu as string | undefined),
          CapDrop: (sc.capabilities?.drop as string[] | undefined) ?? [],
          CapAdd: (sc.capabilities?.add as string[] | undefined) ?? [],
          SecurityOpt: sc.allowPrivilegeEscalation === false ? ['no-new-privileges'] : [],
          Privileged: false,
          Mounts: mounts,
        },
      });
      containers.push(container);
      for (const m of c.volumeMounts as Obj[]) {
        const v = volumes.get(m.name as string);
        if (v?.configMap) await container.putArchive(await tarOf(m.mountPath as string, configMapFiles(v, maps)), { path: '/' });
      }
      await container.start();
      const left = deadline - Date.now();
      let timer: NodeJS.Timeout | undefined;
      const passed = await Promise.race([
        container.wait().then(() => false),
        new Promise<boolean>((r) => (timer = setTimeout(() => r(true), Math.max(0, left)))),
      ]);
      clearTimeout(timer);
      if (passed) await container.kill().catch(() => undefined);
      const state = (await container.inspect()).State;
      const log = demux((await container.logs({ stdout: true, stderr: true, follow: false })) as unknown as Buffer);
      return { code: state.ExitCode, oomKilled: state.OOMKilled, deadline: passed, log };
    };
    for (const c of (pod.initContainers as Obj[] | undefined) ?? []) {
      const r = await runOne(c);
      if (r.deadline) return { deadline: true, log: '' };
      if (r.code !== 0) return { initCode: r.code, log: '' };
    }
    const r = await runOne((pod.containers as Obj[])[0] as Obj);
    return r.deadline ? { deadline: true, log: r.log } : { code: r.code, oomKilled: r.oomKilled, log: r.log };
  } finally {
    for (const c of containers) await c.remove({ force: true }).catch(() => undefined);
    for (const v of dockerVolumes.values()) await docker.getVolume(v).remove().catch(() => undefined);
  }
}
