// Contract tests of the Kubernetes Job runner (src/adapters/kubernetes/): no Kubernetes control plane can be
// installed on these machines, so the runner talks, through the real @kubernetes/client-node and a kubeconfig found
// the usual way (KUBECONFIG), to a loopback server of the tests that serves the API paths and objects it uses
// (fakeApiServer.ts). They check what the runner sends (the Job, ConfigMap and NetworkPolicy), how it reads each
// ending the API reports (an exit code with its log, a passed deadline, an evicted pod, a refusal) and that it deletes
// what it made. They are not cluster tests: docs/cluster.md gives the recipe for a real cluster.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { END, MARKER } from '../../../src/adapters/docker/jobEntrypoint';
import type { KubernetesRun } from '../../../src/adapters/kubernetes/jobManifest';
import { MAX_ARCHIVE_BYTES, PART_BYTES } from '../../../src/adapters/kubernetes/jobManifest';
import { defaultKubeConfig, KubernetesJobRunner } from '../../../src/adapters/kubernetes/jobRunner';
import { KubernetesExecutor } from '../../../src/adapters/kubernetes/kubernetesExecutor';
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

const NONCE = 'n0nce5eed1234567';

const run = (over: Partial<KubernetesRun> = {}): KubernetesRun => ({
  name: 'verify format-precision/a1',
  id: 'a1b2c3d4e5f6',
  namespace: 'audits',
  image: 'specweave-base:bookworm',
  command: 'python -m pytest -q tests/test_format.py; echo done',
  workdir: '/repo',
  archive: Buffer.alloc(PART_BYTES + 10, 7),
  readBack: [{ path: '/repo/report.xml', maxBytes: 1024 }],
  limits: { memoryBytes: 512 * 1024 * 1024, milliCpus: 1000, ephemeralBytes: 1024 * 1024 * 1024 },
  timeoutSec: 300,
  nonce: NONCE,
  ...over,
});

/** A log as the entrypoint writes it: the command's stdout, then the trailer with the files asked back. */
function entrypointLog(stdout: string, code: number, files: Array<string | undefined>, nonce = NONCE): string {
  const back = files.map((f, i) => (f === undefined ? `file ${i} -` : `file ${i}\n${Buffer.from(f).toString('base64')}\nend`));
  return `${stdout}\n${MARKER} ${nonce} ${code}\noom 0\ntook 10.25 11.5\n${back.join('\n')}\n${END} ${nonce}\n`;
}

test('contract: a run creates a locked-down Job, reads its exit code, stdout, stderr and files from the log, and deletes what it made', async () => {
  api.endings = [{ kind: 'exit', code: 0, log: entrypointLog('1 failed\n', 3, ['<testsuite/>', 'a warning\n']), node: 'worker-7' }];
  const r = await runner.run(run());
  assert.equal(r.status, 'exited');
  assert.equal(r.exitCode, 3, 'the command\'s code from the trailer, though the container exited 0');
  assert.equal(r.output, '1 failed\n');
  assert.equal(r.stderr.toString(), 'a warning\n');
  assert.equal(r.files['/repo/report.xml']?.toString(), '<testsuite/>');
  assert.equal(r.commandMs, 1250);
  assert.equal(r.oomKills, 0);
  assert.equal(r.node, 'worker-7');
  assert.equal(r.tries, 1);
  assert.deepEqual(r.notes, []);

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
  assert.deepEqual([pod.hostNetwork, pod.hostPID, pod.hostIPC, pod.shareProcessNamespace], [false, false, false, false]);
  const main = pod.containers[0];
  assert.equal(main.name, 'run');
  // Root only to unpack and drop: no escalation, the few capabilities that takes; the command runs as the run user.
  assert.deepEqual(main.securityContext, { runAsUser: 0, runAsGroup: 0, runAsNonRoot: false, allowPrivilegeEscalation: false, privileged: false, capabilities: { drop: ['ALL'], add: ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'SETUID', 'SETGID', 'SETPCAP', 'KILL'] } });
  assert.match(main.command[2], /setpriv --reuid=1000 --regid=1000 --clear-groups --no-new-privs --inh-caps=-all --bounding-set=-all sh '\/run\/specweave\/ctl\/command\.sh' <\/dev\/null 2>'\/run\/specweave\/in\/stderr'/);
  assert.equal(main.resources.limits.memory, String(512 * 1024 * 1024));
  assert.equal(main.resources.limits.cpu, '1000m');
  assert.deepEqual(main.resources.requests, main.resources.limits);
  // The init step assembles the archive from its parts and checks its size; the parts are ConfigMaps of the run.
  const init = pod.initContainers[0];
  assert.equal(init.securityContext.capabilities.drop[0], 'ALL');
  assert.equal(init.securityContext.capabilities.add, undefined);
  assert.match(init.command[2], /cat \/run\/specweave\/parts\/0000\/part \/run\/specweave\/parts\/0001\/part > \/run\/specweave\/in\/archive\.tar/);
  assert.match(init.command[2], new RegExp(`-eq ${PART_BYTES + 10} `));
  const maps = api.created('configmaps');
  assert.deepEqual(maps.map((m) => m.metadata.name), [name, `${name}-p0000`, `${name}-p0001`]);
  assert.equal(maps[0]?.data.command, run().command);
  assert.equal(maps[0]?.data.nonce, NONCE);
  assert.equal(Buffer.from(maps[1]?.binaryData.part, 'base64').length, PART_BYTES);
  assert.equal(Buffer.from(maps[2]?.binaryData.part, 'base64').length, 10);
  // The nonce is a root-only file; the command readable by the run user.
  const ctl = pod.volumes.find((v: { name: string }) => v.name === 'ctl');
  assert.deepEqual(ctl.configMap.items, [{ key: 'command', path: 'command.sh', mode: 0o444 }, { key: 'nonce', path: 'nonce', mode: 0o400 }]);
  // Every ingress and egress of the run's pod denied.
  const [np] = api.created('networkpolicies');
  assert.deepEqual(np?.spec, { podSelector: { matchLabels: { 'specweave.io/run': name } }, policyTypes: ['Ingress', 'Egress'], ingress: [], egress: [] });
  assert.equal(job.spec.template.metadata.labels['specweave.io/run'], name);

  // Deleted afterwards: the Job with its pods (propagation Background), the policy, every ConfigMap.
  assert.deepEqual(api.deleted('jobs').map((d) => [d.name, d.query.get('propagationPolicy')]), [[name, 'Background']]);
  assert.deepEqual(api.deleted('networkpolicies').map((d) => d.name), [name]);
  assert.deepEqual(api.deleted('configmaps').map((d) => d.name), [name, `${name}-p0000`, `${name}-p0001`]);
  assert.equal(api.objects.size, 0);
});

test('contract: a marker printed by the command without the nonce is output, not a result; a log with no trailer is a failure', async () => {
  api.endings = [{ kind: 'exit', code: 0, log: entrypointLog(`fake\n${MARKER} 0000000000000000 0\n${END} 0000000000000000\n`, 1, [undefined, '']) }];
  const r = await runner.run(run({ id: 'forged01' }));
  assert.equal(r.exitCode, 1);
  assert.match(r.output, /^fake\n__SPECWEAVE_EXIT__ 0000000000000000 0\n/);
  api.reset();
  api.endings = [{ kind: 'exit', code: 0, log: 'no trailer here\n' }];
  const lost = await runner.run(run({ id: 'notrailer01' }));
  assert.equal(lost.status, 'failed');
  assert.match(lost.reason ?? '', /its log has no result trailer \(the run container exited 0\)/);
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
  api.endings = [{ kind: 'evict' }, { kind: 'exit', code: 0, log: entrypointLog('ok\n', 0, [undefined, '']) }];
  const r = await runner.run(run({ id: 'evict0001' }));
  assert.equal(r.status, 'exited');
  assert.equal(r.exitCode, 0);
  assert.equal(r.tries, 2);
  assert.equal(r.output, 'ok\n');
  assert.match(r.reason ?? '', /the first pod was evicted \(evicted: The node was low on resource: memory\.\)/);
  const names = api.created('jobs').map((j) => j.metadata.name as string);
  assert.equal(names.length, 2);
  assert.notEqual(names[0], names[1]);
  assert.deepEqual(api.deleted('jobs').map((d) => d.name), names);
  assert.equal(api.objects.size, 0);
});

test('contract: a cluster without the NetworkPolicy API still runs, and the result says the network is not restricted by it', async () => {
  api.noNetworkPolicies = true;
  api.endings = [{ kind: 'exit', code: 0, log: entrypointLog('', 0, [undefined, '']) }];
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
  assert.equal(api.deleted('configmaps').length, 3);
  assert.equal(api.deleted('networkpolicies').length, 1);
  assert.equal(api.objects.size, 0);
});

test('contract: an archive over what ConfigMaps may carry is refused before anything is sent, saying what to do', async () => {
  const r = await runner.run(run({ id: 'huge01', archive: Buffer.alloc(MAX_ARCHIVE_BYTES + 1) }));
  assert.equal(r.status, 'failed');
  assert.match(r.reason ?? '', /archive is \d+ bytes, over the \d+ the kubernetes backend delivers in ConfigMaps: give the task an image that holds its repository/);
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

test('contract: the sweep deletes the Jobs, policies and ConfigMaps a dead process of ours left, and nothing a live one runs', async () => {
  const host = os.hostname();
  const labels = (pid: number) => ({ 'specweave.io/owned': 'true', 'specweave.io/pid': String(pid), 'specweave.io/host': host, 'specweave.io/created': String(Date.now()) });
  const dead = 2 ** 22 + 17; // above the kernel's pid range: no process has it
  for (const [kind, name, pid] of [['jobs', 'left-1', dead], ['networkpolicies', 'left-1', dead], ['configmaps', 'left-1', dead], ['configmaps', 'left-1-p0000', dead], ['jobs', 'live-1', process.pid], ['configmaps', 'live-1', process.pid]] as const) {
    api.objects.set(`${kind}/audits/${name}`, { metadata: { name, namespace: 'audits', labels: labels(pid) } });
  }
  api.objects.set('configmaps/audits/not-ours', { metadata: { name: 'not-ours', namespace: 'audits', labels: { app: 'x' } } });
  const executor = new KubernetesExecutor({ kubeConfig: defaultKubeConfig() });
  assert.equal(executor.namespace, 'audits', "the kubeconfig context's namespace");
  const gone = await executor.sweep();
  assert.deepEqual(gone.sort(), ['configmap/left-1', 'configmap/left-1-p0000', 'job/left-1', 'networkpolicy/left-1']);
  assert.deepEqual([...api.objects.keys()].sort(), ['configmaps/audits/live-1', 'configmaps/audits/not-ours', 'jobs/audits/live-1']);
  api.objects.clear();
});
