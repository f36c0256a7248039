// Contract test of `specweave verify --backend kubernetes` from end to end: the CLI, through the real
// @kubernetes/client-node and a kubeconfig found the usual way (KUBECONFIG), talks to the tests' loopback API server
// (fakeApiServer.ts), whose kubelet (dockerKubelet.ts) runs each Job's pod on the real local Docker engine. The
// example dataset's total-command attempts go through it and get the verdicts the same runs get on the local engine;
// every Job, ConfigMap and policy is deleted afterwards. No control plane runs here: this is a contract test of what
// the backend sends and reads, with real pods standing in for a node; docs/cluster.md gives the real-cluster recipe.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { Engine } from '../../../src/adapters/docker/engine';
import { END } from '../../../src/adapters/docker/jobEntrypoint';
import { defaultKubeConfig, KubernetesJobRunner } from '../../../src/adapters/kubernetes/jobRunner';
import { BASE_IMAGE } from '../../fixtures/verify/dataset';
import { tmpDir } from '../../unit/helpers/tmp';
import { copyExample } from '../repair/exampleCopy';
import type { RunLine } from '../verifyCli';
import { verifyCli } from '../verifyCli';
import { runPod } from './dockerKubelet';
import { FakeKubeApi } from './fakeApiServer';

let api: FakeKubeApi;
const savedEnv = process.env.KUBECONFIG;

before(async () => {
  api = new FakeKubeApi();
  const docker = await new Engine({}).docker();
  api.kubelet = (job, maps) => runPod(docker, job, maps);
  const server = await api.start();
  const file = path.join(tmpDir('sw-kube-verify-'), 'config');
  fs.writeFileSync(
    file,
    ['apiVersion: v1', 'kind: Config', 'clusters:', '- name: loopback', '  cluster:', `    server: ${server}`, '    insecure-skip-tls-verify: true', 'users:', '- name: curator', '  user:', '    token: t0ken', 'contexts:', '- name: ctx', '  context: { cluster: loopback, user: curator, namespace: audits }', 'current-context: ctx', ''].join('\n'),
  );
  process.env.KUBECONFIG = file;
});

after(async () => {
  await Promise.all(api.pods);
  if (savedEnv === undefined) delete process.env.KUBECONFIG;
  else process.env.KUBECONFIG = savedEnv;
  await api.stop();
});


const verify = verifyCli;

test('contract: verify --backend kubernetes runs each attempt as a Job, grades its log as a local run, names the node, deletes everything', async () => {
  const k8s = await verify([copyExample(), 'total-command', '--backend', 'kubernetes', '--concurrency', '2']);
  assert.equal(k8s.code === 0 || k8s.code === 1, true, k8s.stderr);
  assert.ok(k8s.runs.length >= 3, k8s.stderr);
  assert.ok(k8s.runs.every((r) => r.backend === 'kubernetes' && r.node === 'docker-kubelet kubernetes node'), JSON.stringify(k8s.runs));
  // Real verdicts, not the same failure twice: the gold patch resolves, the empty one does not.
  assert.ok(k8s.runs.every((r) => r.status !== 'infra_error'), JSON.stringify(k8s.runs));
  assert.ok(new Set(k8s.runs.map((r) => r.status)).size >= 2, JSON.stringify(k8s.runs.map((r) => r.status)));

  const local = await verify([copyExample(), 'total-command', '--backend', 'local']);
  const verdicts = (rs: RunLine[]) => rs.map((r) => [r.attemptId, r.status]).sort();
  assert.deepEqual(verdicts(k8s.runs), verdicts(local.runs));

  // Every object the backend made is deleted; every Job went to the namespace of the kubeconfig's context.
  assert.deepEqual([...api.objects.keys()], []);
  const jobs = api.created('jobs');
  assert.equal(jobs.length, k8s.runs.length);
  assert.ok(jobs.every((j) => j.metadata.namespace === 'audits'));
  // Each pod is selected by its own deny-all policy (the run description's labels cannot displace the run label),
  // and carries the owner's labels the sweep reads.
  const policies = api.created('networkpolicies');
  for (const j of jobs) {
    const podLabels = j.spec.template.metadata.labels as Record<string, string>;
    assert.equal(podLabels['specweave.io/run'], j.metadata.name);
    assert.ok(policies.some((p) => p.spec.podSelector.matchLabels['specweave.io/run'] === j.metadata.name), `no policy selects ${j.metadata.name}`);
    assert.equal(podLabels['specweave.io/owned'], 'true');
    assert.equal(podLabels['specweave.io/pid'], String(process.pid));
    assert.match(podLabels['specweave.io/run-id'] ?? '', /^\d{8}T\d+Z-[a-z0-9]+$/);
  }
});

test('contract: verify --backend kubernetes with no cluster configured is a clear error naming where it looked', async () => {
  const was = process.env.KUBECONFIG;
  process.env.KUBECONFIG = path.join(tmpDir('sw-kube-none-'), 'missing');
  try {
    const r = await verify([copyExample(), 'total-command', '--backend', 'kubernetes']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /kubernetes: Cannot read the kubeconfig KUBECONFIG names \(.*missing\)/);
    assert.equal(r.runs.length, 0);
  } finally {
    process.env.KUBECONFIG = was;
  }
});

test('contract: in a pod the command runs as the run user, cannot read the nonce, has loopback only; its stderr comes apart; a Job past its deadline is a timeout', async () => {
  const runner = new KubernetesJobRunner({ kubeConfig: defaultKubeConfig(), pollMs: 100 });
  const base = {
    name: 'pod-check',
    namespace: 'audits',
    image: BASE_IMAGE,
    workdir: '/tmp',
    limits: { memoryBytes: 256 * 1024 * 1024, milliCpus: 500 },
    nonce: 'abcdef0123456789abcdef',
  };
  const r = await runner.run({ ...base, id: 'podcheck1', command: 'id -u; cat /run/specweave/ctl/nonce 2>&1 | tr " " _; tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " "; echo to-stderr >&2; exit 4', timeoutSec: 60 });
  assert.equal(r.status, 'exited', r.reason);
  assert.equal(r.exitCode, 4);
  assert.match(r.output, /^1000\n.*Permission_denied\nlo\n$/);
  assert.equal(r.stderr.toString(), 'to-stderr\n');
  // The pod's log mixes the streams in whatever order the runtime reads them: nothing but stdout may reach it (a
  // second end line on stderr once landed inside a report's base64 and corrupted it).
  const served = api.logs.at(-1) ?? '';
  assert.equal(served.split(`${END} ${base.nonce}`).length, 2, served);
  assert.ok(served.endsWith(`${END} ${base.nonce}\n`));
  const late = await runner.run({ ...base, id: 'podcheck2', command: 'sleep 60', timeoutSec: 2 });
  assert.equal(late.status, 'timeout');
  assert.match(late.reason ?? '', /passed its deadline/);
  await Promise.all(api.pods);
  assert.deepEqual([...api.objects.keys()], []);
});
