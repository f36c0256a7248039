// Runs the example dataset's patches for real and compares what happens with examples/ground-truth.json.
// Shared by the host check (test/unit/exampleDataset.test.ts) and the container check (test/integration).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tmpDir } from './tmp';

export const EXAMPLES = path.resolve(__dirname, '../../../examples');
export const DATASET = path.join(EXAMPLES, 'dataset');

export interface Probe {
  spec: string;
  what: string;
  command: string;
  passes: string[];
  fails: string[];
}

export interface SpecTruth {
  truth: 'satisfied' | 'violated';
  verifier: 'pass' | 'fail' | 'unknown';
  outcome: string;
  why?: string;
}

export interface GroundTruth {
  repository: { name: string; path: string; baseCommit: string };
  falsePositives: Array<{ task: string; attempt: string; specs: string[]; tests: string[] }>;
  falseNegatives: Array<{ task: string; attempt: string; specs: string[]; tests: string[] }>;
  uncoveredSpecs: Array<{ task: string; spec: string }>;
  weakTests: Array<{ task: string; test: string }>;
  tasks: Record<
    string,
    {
      runs: Record<string, { failingTests: string[] }>;
      attempts: Record<string, { format: string; outcome: string; resolved: boolean; responsibleTests: string[]; specs: Record<string, SpecTruth> }>;
      probes: Probe[];
      repair?: { test: string; repairedTestsPatch: string; afterRepair: Record<string, string[]> };
    }
  >;
}

export function readGroundTruth(): GroundTruth {
  return JSON.parse(fs.readFileSync(path.join(EXAMPLES, 'ground-truth.json'), 'utf8')) as GroundTruth;
}

/** Runs a shell command in a folder that holds the repository; where it runs (host or container) is its business. */
export interface Runner {
  run(dir: string, command: string): Promise<{ code: number; output: string }>;
}

function spawnCollect(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, output: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

/** Runs the command in a throwaway container of `image` with the folder mounted at /work and no network. */
export function containerRunner(image: string): Runner {
  return {
    run: (dir, command) =>
      spawnCollect('docker', ['run', '--rm', '--network', 'none', '-v', `${dir}:/work`, '-w', '/work', '-e', 'PYTHONDONTWRITEBYTECODE=1', image, 'sh', '-c', command], {}),
  };
}

/** Runs `jobs` with at most `limit` at a time, keeping their order in the result. */
export async function pool<T>(jobs: Array<() => Promise<T>>, limit: number): Promise<T[]> {
  const out: T[] = new Array<T>(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, jobs.length)) }, worker));
  return out;
}

export function buildExampleRepo(): string {
  execFileSync('sh', [path.join(EXAMPLES, 'build-repos.sh')], { stdio: 'pipe' });
  return path.join(EXAMPLES, 'repos', 'durations');
}

const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

/** A fresh clone at the base commit with the given patch files applied by `git apply`, in order. */
export function worktree(repo: string, baseCommit: string, patches: string[]): string {
  const dir = path.join(tmpDir('sw-example-'), 'repo');
  execFileSync('git', ['clone', '-q', repo, dir], { env: gitEnv, stdio: 'pipe' });
  execFileSync('git', ['-C', dir, 'checkout', '-q', baseCommit], { env: gitEnv, stdio: 'pipe' });
  for (const p of patches) {
    if (fs.readFileSync(p, 'utf8').trim() === '') continue;
    const r = spawnSync('git', ['-C', dir, 'apply', '--whitespace=nowarn', p], { env: gitEnv, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git apply ${p} failed: ${r.stderr}`);
  }
  return dir;
}

/** Test statuses from pytest's `-rA` short summary ("PASSED tests/x.py::test_y", "FAILED ... - reason"). */
export function parsePytestSummary(output: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of output.split('\n')) {
    const m = /^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (\S+)/.exec(line);
    if (m) out.set(m[2]!, m[1]!);
  }
  return out;
}

export interface TaskFile {
  id: string;
  verifier: { command: string };
  specs: Array<{ id: string; dependsOn?: string[] }>;
  tests: Array<{ id: string; name: string; kind: string; specs?: string[] }>;
}

export function readTask(id: string): TaskFile {
  return JSON.parse(fs.readFileSync(path.join(DATASET, 'tasks', id, 'task.json'), 'utf8')) as TaskFile;
}

/** The patch file of a run id: gold, empty (none), or an attempt. */
export function patchOf(taskId: string, run: string): string[] {
  const dir = path.join(DATASET, 'tasks', taskId);
  if (run === 'empty') return [];
  if (run === 'gold') return [path.join(dir, 'gold.patch')];
  return [path.join(dir, 'attempts', run, 'patch.diff')];
}

/** Why `image` cannot be used, or undefined when it is there. */
export function imageMissing(image: string): string | undefined {
  const r = spawnSync('docker', ['image', 'inspect', '--format', '{{.Id}}', image], { encoding: 'utf8' });
  if (r.status === 0) return undefined;
  return `the image ${image} is not available (${(r.stderr || r.error?.message || '').trim()}): run scripts/setup-docker.sh, which builds it offline`;
}

/**
 * Every check that runs code, one worktree and one runner call per (task, run): the verifier command, then each
 * probe that names this run, their outputs and exit statuses written next to the repository (the runner may be a
 * container). Returns one line per mismatch with the ground truth; empty when the example is what it claims.
 */
export async function checkExample(runner: Runner, concurrency: number): Promise<string[]> {
  const truth = readGroundTruth();
  const repo = buildExampleRepo();
  const base = truth.repository.baseCommit;
  const jobs: Array<() => Promise<string[]>> = [];
  for (const [tid, gt] of Object.entries(truth.tasks)) {
    const task = readTask(tid);
    const testsPatch = path.join(DATASET, 'tasks', tid, 'tests.patch');
    const check = (patchFile: string, run: string, failing: string[], label: string, probes: Array<[Probe, boolean]>) =>
      jobs.push(async () => {
        const dir = worktree(repo, base, [patchFile, ...patchOf(tid, run)]);
        const out = path.join(path.dirname(dir), 'out');
        fs.mkdirSync(out);
        fs.chmodSync(out, 0o777);
        const script = [
          `(${task.verifier.command}) > ../out/verifier.txt 2>&1`,
          ...probes.map(([p], i) => `(${p.command}) > ../out/probe${i}.txt 2>&1; echo $? > ../out/probe${i}.rc`),
        ].join('\n');
        await runner.run(path.dirname(dir), `cd repo && ${script}`);
        const output = fs.readFileSync(path.join(out, 'verifier.txt'), 'utf8');
        const statuses = parsePytestSummary(output);
        const seen = task.tests.filter((t) => statuses.has(t.name) && statuses.get(t.name) !== 'PASSED').map((t) => t.id).sort();
        const notReported = task.tests.filter((t) => !statuses.has(t.name)).map((t) => t.name);
        const want = [...failing].sort();
        const problems: string[] = [];
        if (notReported.length > 0) problems.push(`${label}: not reported by pytest: ${notReported.join(', ')}\n${output}`);
        else if (JSON.stringify(seen) !== JSON.stringify(want)) {
          problems.push(`${label}: failing tests ${JSON.stringify(seen)}, ground truth says ${JSON.stringify(want)}\n${output}`);
        }
        probes.forEach(([p, ok], i) => {
          const code = Number(fs.readFileSync(path.join(out, `probe${i}.rc`), 'utf8').trim());
          if ((code === 0) !== ok) {
            const text = fs.readFileSync(path.join(out, `probe${i}.txt`), 'utf8');
            problems.push(`${label} should ${ok ? 'satisfy' : 'violate'} ${p.spec} (${p.what}); probe exit ${code}\n${text}`);
          }
        });
        return problems;
      });
    for (const [run, r] of Object.entries(gt.runs)) {
      const probes = gt.probes.flatMap((p): Array<[Probe, boolean]> => (p.passes.includes(run) ? [[p, true]] : p.fails.includes(run) ? [[p, false]] : []));
      check(testsPatch, run, r.failingTests, `${tid}/${run}`, probes);
    }
    if (gt.repair) {
      const repaired = path.join(EXAMPLES, '..', gt.repair.repairedTestsPatch);
      for (const [run, failing] of Object.entries(gt.repair.afterRepair)) check(repaired, run, failing, `${tid}/${run} after the repair`, []);
    }
  }
  return (await pool(jobs, concurrency)).flat();
}
