// Contract tests of the Kubernetes Job runner (src/adapters/kubernetes/): no Kubernetes control plane can be
// installed on these machines, so the runner talks, through the real @kubernetes/client-node and a kubeconfig found
// the usual way (KUBECONFIG), to a loopback server of the tests that serves the API paths and objects it uses
// (fakeApiServer.ts). They check what the runner sends (the Job, ConfigMap and NetworkPolicy), how it reads each
// ending the API reports (an exit code with its log, a passed deadline, an evicted pod, a refusal) and that it deletes
// what it made. They are not cluster tests: docs/cluster.md gives the recipe for a real cluster.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import type { KubernetesRun } from '../../../src/adapters/kubernetes/jobManifest';
import { defaultKubeConfig, KubernetesJobRunner } from '../../../src/adapters/kubernetes/jobRunner';
import { tmpDir } from '../../unit/helpers/tmp';
import { FakeKubeApi } from './fakeApiServer';

const TOKEN = 'contract-test-token-7f1c';
let api: FakeKubeApi;
let runner: KubernetesJobRunner;
const savedEnv = process.env.KUBECONFIG;

before(async () => {
  api = new FakeKubeApi();
  const server = await api.start();
  const file = path.join(tmpDir('sw-kube-'), 'config');
  fs.writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: loopback',
      '  cluster:',
      `    server: ${server}`,
      '    insecure-skip-tls-verify: true',
      'users:',
      '- name: curator',
      '  user:',
      `    token: ${TOKEN}`,
      'contexts:',
      '- name: ctx',
      '  context: { cluster: loopback, user: curator, namespace: audits }',
      'current-context: ctx',
      '',
    ].join('\n'),
  );
  process.env.KUBECONFIG = file;
  runner = new KubernetesJobRunner({ kubeConfig: defaultKubeConfig(), pollMs: 20 });
});

after(async () => {
  if (savedEnv === undefined) delete process.env.KUBECONFIG;
  else process.env.KUBECONFIG = savedEnv;
  await api.stop();
});

beforeEach(() => {
  api.reset();
  api.noNetworkPolicies = false;
  delete api.refuseJobs;
});

const run = (over: Partial<KubernetesRun> = {}): KubernetesRun => ({
  name: 'verify format-precision/a1',
  id: 'a1b2c3d4e5f6',
  namespace: 'audits',
  image: 'specweave-base:bookworm',
  command: 'python -m pytest -q tests/test_format.py; echo done',
  workdir: '/repo',
  files: [
    { path: 'tests/test_format.py', content: 'def test_x():\n    assert True\n' },
    { path: 'attempt.patch', content: 'diff --git a/x b/x\n' },
  ],
  limits: { memoryBytes: 512 * 1024 * 1024, milliCpus: 1000, ephemeralBytes: 1024 * 1024 * 1024 },
  timeoutSec: 300,
  ...over,
});

test('contract: a run creates a locked-down Job, reads its exit code and log, and deletes what it made', async () => {
  api.endings = [{ kind: 'exit', code: 3, log: '1 failed\n', node: 'worker-7' }];
  const r = await runner.run(run());
  assert.deepEqual(r, { status: 'exited', exitCode: 3, output: '1 failed\n', node: 'worker-7', tries: 1, notes: [] });

  // The kubeconfig's token went in every request's header.
  assert.ok(api.requests.every((q) => q.authorization === `Bearer ${TOKEN}`));
  const [job] = api.created('jobs');
  assert.ok(job);
  const name = 'verify-format-precision-a1-a1b2c3d4e5f6';
  assert.equal(job.metadata.name, name);
  assert.equal(job.metadata.namespace, 'audits');
  assert.equal(job.spec.backoffLimit, 0);
  assert.equal(job.spec.activeDeadlineSeconds, 300);
  const pod = job.spec.template.spec;
  assert.equal(pod.restartPolicy, 'Never');
  assert.equal(pod.automountServiceAccountToken, false);
  assert.deepEqual([pod.hostNetwork, pod.hostPID, pod.hostIPC], [false, false, false]);
  assert.equal(pod.securityContext.runAsNonRoot, true);
  const main = pod.containers[0];
  assert.equal(main.name, 'run');
  assert.equal(main.workingDir, '/repo');
  assert.deepEqual(main.securityContext, { runAsUser: 1000, runAsGroup: 1000, runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
  assert.deepEqual(main.resources, {
    requests: { memory: String(512 * 1024 * 1024), cpu: '1000m', 'ephemeral-storage': String(1024 * 1024 * 1024) },
    limits: { memory: String(512 * 1024 * 1024), cpu: '1000m', 'ephemeral-storage': String(1024 * 1024 * 1024) },
  });
  // The init step puts the run's files in the workdir's volume from the ConfigMap.
  const init = pod.initContainers[0];
  assert.match(init.command[2], /cp \/input\/f0 '\/work\/tests\/test_format\.py'/);
  assert.match(init.command[2], /mkdir -p '\/work\/tests'/);
  const [cm] = api.created('configmaps');
  assert.equal(cm?.data.f0, 'def test_x():\n    assert True\n');
  assert.equal(cm?.data.command, run().command);
  // Every ingress and egress of the run's pod denied.
  const [np] = api.created('networkpolicies');
  assert.deepEqual(np?.spec, { podSelector: { matchLabels: { 'specweave.io/run': name } }, policyTypes: ['Ingress', 'Egress'], ingress: [], egress: [] });
  assert.equal(job.spec.template.metadata.labels['specweave.io/run'], name);

  // Deleted afterwards: the Job with its pods (propagation Background), the policy, the ConfigMap.
  assert.deepEqual(api.deleted('jobs').map((d) => [d.name, d.query.get('propagationPolicy')]), [[name, 'Background']]);
  assert.deepEqual(api.deleted('networkpolicies').map((d) => d.name), [name]);
  assert.deepEqual(api.deleted('configmaps').map((d) => d.name), [name]);
  assert.equal(api.objects.size, 0);
});

test('contract: a Job past its activeDeadlineSeconds is a timeout, and is deleted', async () => {
  api.endings = [{ kind: 'deadline', log: 'collecting ...\n' }];
  const r = await runner.run(run({ id: 'deadline01', timeoutSec: 5 }));
  assert.equal(r.status, 'timeout');
  assert.match(r.reason ?? '', /passed its deadline \(Job was active longer than specified deadline\)/);
  assert.equal(r.output, 'collecting ...\n');
  assert.equal(api.created('jobs')[0]?.spec.activeDeadlineSeconds, 5);
  assert.equal(api.deleted('jobs').length, 1);
  assert.equal(api.objects.size, 0);
});

test('contract: an evicted pod moves the run to a new Job once; both are deleted', async () => {
  api.endings = [{ kind: 'evict' }, { kind: 'exit', code: 0, log: 'ok\n' }];
  const r = await runner.run(run({ id: 'evict0001' }));
  assert.equal(r.status, 'exited');
  assert.equal(r.exitCode, 0);
  assert.equal(r.tries, 2);
  assert.match(r.reason ?? '', /the first pod was evicted \(evicted: The node was low on resource: memory\.\)/);
  const names = api.created('jobs').map((j) => j.metadata.name as string);
  assert.equal(names.length, 2);
  assert.notEqual(names[0], names[1]);
  assert.deepEqual(api.deleted('jobs').map((d) => d.name), names);
  assert.equal(api.objects.size, 0);
});

test('contract: a cluster without the NetworkPolicy API still runs, and the result says the network is not restricted by it', async () => {
  api.noNetworkPolicies = true;
  api.endings = [{ kind: 'exit', code: 0, log: '' }];
  const r = await runner.run(run({ id: 'nopolicy01' }));
  assert.equal(r.status, 'exited');
  assert.deepEqual(r.notes, ["no NetworkPolicy API on this cluster: the pod's network is not restricted by the cluster"]);
  assert.equal(api.objects.size, 0);
});

test('contract: a refused Job is a failure naming the refusal; the ConfigMap and policy made before it are deleted', async () => {
  api.refuseJobs = 403;
  const r = await runner.run(run({ id: 'refused01' }));
  assert.equal(r.status, 'failed');
  assert.match(r.reason ?? '', /403|forbidden/i);
  assert.equal(api.deleted('configmaps').length, 1);
  assert.equal(api.deleted('networkpolicies').length, 1);
  assert.equal(api.objects.size, 0);
});

test('contract: a file path out of the workdir is refused before anything is sent', async () => {
  const r = await runner.run(run({ id: 'badpath01', files: [{ path: '../etc/passwd', content: 'x' }] }));
  assert.equal(r.status, 'failed');
  assert.match(r.reason ?? '', /file path "\.\.\/etc\/passwd" must be relative, inside the workdir/);
  assert.equal(api.requests.length, 0);
});

test('contract: a kubeconfig that cannot be read, or none anywhere, is a clear error saying where it looked', () => {
  const was = process.env.KUBECONFIG;
  const home = process.env.HOME;
  const missing = path.join(tmpDir('sw-kube-none-'), 'missing');
  try {
    process.env.KUBECONFIG = missing;
    assert.throws(() => defaultKubeConfig(), (e: unknown) => e instanceof Error && e.message.startsWith(`Cannot read the kubeconfig KUBECONFIG names (${missing}): `) && /ENOENT/.test(e.message));
    delete process.env.KUBECONFIG;
    process.env.HOME = tmpDir('sw-kube-home-');
    assert.throws(() => defaultKubeConfig(), /No Kubernetes cluster configured: set KUBECONFIG, or write ~\/\.kube\/config/);
  } finally {
    process.env.KUBECONFIG = was;
    process.env.HOME = home;
  }
});
