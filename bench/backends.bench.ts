// Issue 15's scheduling figure through the verifier itself: the example dataset's total-command attempts (the same
// real verifier runs: the patch applied, the tests run, the verdict judged and stored) verified by `specweave
// verify` on each backend, side by side in one run, modes alternated each round (ABCD DCBA):
//   - local: the host's engine;
//   - pool: the three node engines of scripts/cluster-up.sh (started and removed by this bench, name swk);
//   - swarm: jobs on that swarm's workers;
//   - kubernetes: Jobs through the tests' loopback API server whose kubelet runs each pod on the host's engine
//     (test/integration/kubernetes/): the backend's own cost (objects, polling, log, deletion), not a cluster's.
// Each mode's time per run is the batch's wall time over its runs, at concurrency 2; verdicts are checked to agree.
//   sudo node --import tsx bench/backends.bench.ts [--rounds 2]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../src/adapters/docker/engine';
import { setOutput } from '../src/cli/output';
import { runCli } from '../src/cli/run';
import { runPod } from '../test/integration/kubernetes/dockerKubelet';
import { FakeKubeApi } from '../test/integration/kubernetes/fakeApiServer';
import { copyExample } from '../test/integration/repair/exampleCopy';

const NAME = 'swk';
const i = process.argv.indexOf('--rounds');
const ROUNDS = i > 0 ? Number(process.argv[i + 1]) : 2;
const ROOT = path.resolve(__dirname, '..');
const script = (name: string, ...a: string[]) => execFileSync('bash', [path.join(ROOT, 'scripts', name), '--name', NAME, ...a], { encoding: 'utf8' });

async function verify(args: string[]): Promise<{ ms: number; verdicts: string[]; reasons: string[] }> {
  let stdout = '';
  let stderr = '';
  setOutput({ stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  const t = process.hrtime.bigint();
  let code: number;
  try {
    code = await runCli(['verify', copyExample(), 'total-command', ...args, '--json', '--force', '--concurrency', '2']);
  } finally {
    setOutput(undefined);
  }
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  const runs = stdout.trim().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { attemptId: string; status: string; reason: string });
  if ((code !== 0 && code !== 1) || runs.length === 0 || runs.some((r) => r.status === 'infra_error')) throw new Error(`verify ${args.join(' ')}: code ${code}\n${stderr}`);
  return { ms: ms / runs.length, verdicts: runs.map((r) => `${r.attemptId} ${r.status}`).sort(), reasons: runs.map((r) => `${r.attemptId} ${r.status}: ${r.reason}`).sort() };
}

async function main(): Promise<void> {
  script('cluster-down.sh');
  const sockets = script('cluster-up.sh', '--nodes', '3', '--swarm').trim().split('\n').map((l) => l.split(' ')[1] as string);
  const api = new FakeKubeApi();
  const docker = await new Engine({}).docker();
  api.kubelet = (job, maps) => runPod(docker, job, maps);
  const server = await api.start();
  const kubeconfig = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sw-bench-kube-')), 'config');
  fs.writeFileSync(kubeconfig, ['apiVersion: v1', 'kind: Config', 'clusters:', '- name: loopback', '  cluster:', `    server: ${server}`, '    insecure-skip-tls-verify: true', 'users:', '- name: bench', '  user:', '    token: t', 'contexts:', '- name: ctx', '  context: { cluster: loopback, user: bench, namespace: bench }', 'current-context: ctx', ''].join('\n'));
  process.env.KUBECONFIG = kubeconfig;
  const modes: Record<string, string[]> = {
    local: ['--backend', 'local'],
    pool: ['--backend', 'pool', ...sockets.flatMap((s) => ['--host', s])],
    swarm: ['--backend', 'swarm', '--host', sockets[0] as string, '--constraint', 'node.role==worker'],
    kubernetes: ['--backend', 'kubernetes'],
  };
  try {
    const names = Object.keys(modes);
    const reference = (await verify(modes.local as string[])).verdicts; // warm-up: the image, the repository archive
    for (const m of names) await verify(modes[m] as string[]);
    const per: Record<string, number[]> = Object.fromEntries(names.map((m) => [m, []]));
    for (let r = 0; r < ROUNDS; r++) {
      for (const m of r % 2 === 0 ? names : [...names].reverse()) {
        const got = await verify(modes[m] as string[]);
        if (got.verdicts.join('\n') !== reference.join('\n')) throw new Error(`${m}: verdicts differ from local:\n${got.reasons.join('\n')}`);
        per[m]?.push(got.ms);
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const base = mean(per.local as number[]);
    console.log(`backends bench: the example's total-command (${reference.length} verifier runs) per mode and round, ${ROUNDS} rounds, concurrency 2; verdicts agree in every round`);
    console.log(`machine: ${os.cpus().length} cores, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    for (const m of names) {
      const xs = per[m] as number[];
      console.log(`  ${m.padEnd(11)} ${mean(xs).toFixed(0).padStart(6)} ms per run  (rounds ${xs.map((x) => x.toFixed(0)).join(', ')}); ratio to local ${(mean(xs) / base).toFixed(2)}`);
    }
  } finally {
    await Promise.all(api.pods);
    await api.stop();
    script('cluster-down.sh');
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
