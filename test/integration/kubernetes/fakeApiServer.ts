// A loopback HTTP server of the tests that serves the Kubernetes API paths and objects the Job runner uses (no
// control plane can be installed here), for the contract tests. It stores what is created, answers reads from that,
// and ends each Job the way the test scripts it: an exit code and a log, a passed deadline, an eviction, or never.
// Every request is recorded (method, path, query, the Authorization header, the body).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PodEnding } from './dockerKubelet';

export type JobEnding =
  | { kind: 'exit'; code: number; log: string; node?: string; initCode?: number; oomKilled?: boolean }
  | { kind: 'deadline'; log?: string }
  | { kind: 'evict' }
  | { kind: 'never' }
  /** The kubelet is still running the pod. */
  | { kind: 'running' };

/** Runs a Job's pod somewhere real (dockerKubelet.ts) with the ConfigMaps it names; resolves with how it ended. */
export type Kubelet = (job: Record<string, unknown>, configMaps: Map<string, Record<string, unknown>>) => Promise<PodEnding>;

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization?: string;
  body?: Record<string, unknown>;
}

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export class FakeKubeApi {
  readonly requests: Recorded[] = [];
  readonly objects = new Map<string, Obj>();
  /** How each new Job ends, by creation order; the last one repeats. */
  endings: JobEnding[] = [{ kind: 'exit', code: 0, log: '' }];
  /** Serve no networking.k8s.io API (404), as a cluster without it. */
  noNetworkPolicies = false;
  /** Refuse Job creation with this status. */
  refuseJobs?: number;
  /** Run each Job's pod with this (its ending then comes from the run, not from `endings`). */
  kubelet?: Kubelet;
  /** Every pod log served, in order. */
  readonly logs: string[] = [];
  /** The kubelet's runs still going. */
  readonly pods: Array<Promise<void>> = [];
  private jobs = 0;
  private readonly reads = new Map<string, number>();
  private server?: http.Server;

  /** Forgets the requests and the Jobs made, so that `endings` counts from the next Job. */
  reset(): void {
    this.requests.length = 0;
    this.jobs = 0;
    this.reads.clear();
  }

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  created(kind: string): Obj[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path.endsWith(`/${kind}`)).map((r) => r.body as Obj);
  }

  deleted(kind: string): Array<{ name: string; query: URLSearchParams }> {
    return this.requests.filter((r) => r.method === 'DELETE' && r.path.includes(`/${kind}/`)).map((r) => ({ name: r.path.split('/').at(-1) as string, query: r.query }));
  }

  private send(res: http.ServerResponse, status: number, body: unknown, type = 'application/json'): void {
    res.writeHead(status, { 'content-type': type });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  }

  private status(res: http.ServerResponse, code: number, reason: string, message: string): void {
    this.send(res, code, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, message, code });
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = raw ? (JSON.parse(raw) as Obj) : undefined;
    this.requests.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}), ...(body ? { body } : {}) });
    const m = /^\/(?:api\/v1|apis\/([a-z0-9.]+)\/v1)\/namespaces\/([^/]+)\/([a-z]+)(?:\/([^/]+))?(?:\/(log))?$/.exec(url.pathname);
    if (!m) return this.status(res, 404, 'NotFound', `the fake API server does not serve ${url.pathname}`);
    const [, group = '', ns, kind, name, sub] = m as unknown as [string, string | undefined, string, string, string | undefined, string | undefined];
    if (group === 'networking.k8s.io' && this.noNetworkPolicies) return this.status(res, 404, 'NotFound', 'the server could not find the requested resource');
    const key = (n: string) => `${kind}/${ns}/${n}`;
    if (req.method === 'POST' && !name && body) {
      if (kind === 'jobs' && this.refuseJobs) return this.status(res, this.refuseJobs, 'Forbidden', 'jobs.batch is forbidden: User "u" cannot create resource "jobs"');
      const n = (body.metadata as Obj).name as string;
      if (this.objects.has(key(n))) return this.status(res, 409, 'AlreadyExists', `${kind} "${n}" already exists`);
      this.objects.set(key(n), body);
      if (kind === 'jobs' && this.kubelet) {
        const maps = new Map([...this.objects.entries()].filter(([k]) => k.startsWith(`configmaps/${ns}/`)).map(([k, v]) => [k.split('/')[2] as string, v]));
        const pod: Obj = { apiVersion: 'v1', kind: 'Pod', metadata: { name: `${n}-pod`, namespace: ns, labels: { 'job-name': n } }, spec: { nodeName: 'docker-kubelet' }, status: { phase: 'Running' }, ending: { kind: 'running' } };
        this.objects.set(`pods/${ns}/${n}-pod`, pod);
        this.pods.push(
          this.kubelet(body, maps).then(
            (e) => {
              pod.ending = e.deadline ? { kind: 'deadline', log: e.log } : { kind: 'exit', code: e.code ?? 1, log: e.log, node: 'docker-kubelet', ...(e.initCode !== undefined ? { initCode: e.initCode } : {}), ...(e.oomKilled ? { oomKilled: true } : {}) };
            },
            (err: unknown) => {
              pod.ending = { kind: 'exit', code: 1, initCode: 1, log: `the fake kubelet could not run the pod: ${String(err)}` };
            },
          ),
        );
      } else if (kind === 'jobs') {
        const ending = this.endings[Math.min(this.jobs, this.endings.length - 1)] as JobEnding;
        this.jobs++;
        this.objects.set(`pods/${ns}/${n}-pod`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: `${n}-pod`, namespace: ns, labels: { 'job-name': n } }, spec: { nodeName: ending.kind === 'exit' ? (ending.node ?? 'node-a') : 'node-a' }, status: { phase: 'Running' }, ending });
      }
      return this.send(res, 201, body);
    }
    if (req.method === 'GET' && kind === 'jobs' && name) {
      const job = this.objects.get(key(name));
      if (!job) return this.status(res, 404, 'NotFound', `jobs.batch "${name}" not found`);
      // The first read finds it running; from the second on it has ended as scripted.
      const reads = (this.reads.get(name) ?? 0) + 1;
      this.reads.set(name, reads);
      const pod = this.objects.get(`pods/${ns}/${name}-pod`) as Obj;
      const ending = pod.ending as JobEnding;
      if (reads < 2 || ending.kind === 'never' || ending.kind === 'running') return this.send(res, 200, { ...job, status: { active: 1 } });
      if (ending.kind === 'exit' && ending.initCode !== undefined) {
        pod.status = { phase: 'Failed', initContainerStatuses: [{ name: 'inputs', state: { terminated: { exitCode: ending.initCode, reason: 'Error' } } }], containerStatuses: [{ name: 'run', state: { waiting: { reason: 'PodInitializing' } } }] };
        return this.send(res, 200, { ...job, status: { failed: 1, conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' }] } });
      }
      if (ending.kind === 'exit') {
        pod.status = { phase: ending.code === 0 ? 'Succeeded' : 'Failed', containerStatuses: [{ name: 'run', state: { terminated: { exitCode: ending.code, reason: ending.oomKilled ? 'OOMKilled' : ending.code === 0 ? 'Completed' : 'Error' } } }] };
        return this.send(res, 200, { ...job, status: ending.code === 0 ? { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] } : { failed: 1, conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' }] } });
      }
      if (ending.kind === 'deadline') {
        pod.status = { phase: 'Failed', reason: 'DeadlineExceeded' };
        return this.send(res, 200, { ...job, status: { failed: 1, conditions: [{ type: 'Failed', status: 'True', reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' }] } });
      }
      pod.status = { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' };
      return this.send(res, 200, { ...job, status: { failed: 1, conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' }] } });
    }
    if (req.method === 'GET' && kind === 'pods' && !name) {
      const sel = url.searchParams.get('labelSelector') ?? '';
      const want = /^job-name=(.+)$/.exec(sel)?.[1];
      const items = [...this.objects.entries()].filter(([k, v]) => k.startsWith(`pods/${ns}/`) && (v.metadata as Obj).labels['job-name'] === want).map(([, v]) => {
        const { ending: _e, ...pod } = v;
        return pod;
      });
      return this.send(res, 200, { apiVersion: 'v1', kind: 'PodList', metadata: {}, items });
    }
    if (req.method === 'GET' && !name) {
      // A list by `key=value` selectors, as the sweep asks.
      const sel = (url.searchParams.get('labelSelector') ?? '').split(',').filter(Boolean).map((p) => p.split('=') as [string, string]);
      const items = [...this.objects.entries()].filter(([k, v]) => k.startsWith(`${kind}/${ns}/`) && sel.every(([lk, lv]) => (v.metadata as Obj).labels?.[lk] === lv)).map(([, v]) => v);
      return this.send(res, 200, { apiVersion: 'v1', kind: 'List', metadata: {}, items });
    }
    if (req.method === 'GET' && kind === 'pods' && name && sub === 'log') {
      const pod = this.objects.get(`pods/${ns}/${name}`);
      if (!pod) return this.status(res, 404, 'NotFound', `pods "${name}" not found`);
      const ending = pod.ending as JobEnding;
      const log = ending.kind === 'exit' ? ending.log : ending.kind === 'deadline' ? (ending.log ?? '') : '';
      this.logs.push(log);
      return this.send(res, 200, log, 'text/plain');
    }
    if (req.method === 'DELETE' && name) {
      if (!this.objects.delete(key(name))) return this.status(res, 404, 'NotFound', `${kind} "${name}" not found`);
      if (kind === 'jobs') this.objects.delete(`pods/${ns}/${name}-pod`);
      return this.send(res, 200, { kind: 'Status', apiVersion: 'v1', status: 'Success' });
    }
    return this.status(res, 405, 'MethodNotAllowed', `${req.method} ${url.pathname} is not served by the fake`);
  }
}
