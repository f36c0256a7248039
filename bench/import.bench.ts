// `specweave import swebench` on 2,000 rows with 16 predictions each and their trajectories (16 mini-swe-agent run
// folders: preds.json + <id>/<id>.traj.json), against the floor: reading and JSON.parse of the same files (the rows
// line by line, every preds.json, every trajectory) in a plain loop. The import also pairs, checks the patches,
// writes 2,000 task folders with 32,000 attempts (attempt.json, patch.diff, the trajectory copied) and reads back
// what it wrote. The two alternate round by round; the ratio is the median of the per-round ratios.
//   node --import tsx bench/import.bench.ts        (ROWS=2000 RUNS=16 ROUNDS=3; INPUT=dir reuses generated inputs)
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { importSwebench } from '../src/app/importSwebench';
import { listTrajectoryInstances } from '../src/adapters/fs/trajectoryReader';
import { TrajectoryBuilder } from '../src/core/trajectory/normalize';

const ROWS = Number(process.env.ROWS ?? 2000);
const RUNS = Number(process.env.RUNS ?? 16);
const ROUNDS = Number(process.env.ROUNDS ?? 3);

const idOf = (i: number) => `acme__widgets-${i + 1}`;

function patchFor(i: number, run: number): string {
  return (
    `diff --git a/widgets/mod${i % 50}.py b/widgets/mod${i % 50}.py\n--- a/widgets/mod${i % 50}.py\n+++ b/widgets/mod${i % 50}.py\n` +
    `@@ -10,7 +10,7 @@ def compute(x):\n     a = x + 1\n     b = a * 2\n     c = b - 3\n-    return c\n+    return c + ${run}\n     # done\n     pass\n     pass\n`
  );
}

/** Writes the rows file and the run folders; returns the number of files. */
function generate(dir: string): number {
  const rows: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    const id = idOf(i);
    const testFile = `tests/test_mod${i % 50}.py`;
    rows.push(
      JSON.stringify({
        repo: 'acme/widgets',
        instance_id: id,
        base_commit: 'a'.repeat(40),
        patch: patchFor(i, 0),
        test_patch: `diff --git a/${testFile} b/${testFile}\n--- a/${testFile}\n+++ b/${testFile}\n@@ -1,2 +1,4 @@\n import widgets\n def test_old():\n+    assert widgets.compute(1) == 1\n+def test_new(): pass\n`,
        problem_statement: `compute() is off by one for input ${i}.\n\n`.repeat(8),
        hints_text: '',
        created_at: '2024-01-01T00:00:00Z',
        version: '1.0',
        FAIL_TO_PASS: JSON.stringify([`${testFile}::test_new`]),
        PASS_TO_PASS: JSON.stringify(Array.from({ length: 8 }, (_, k) => `${testFile}::test_old_${k}`)),
        environment_setup_commit: 'b'.repeat(40),
      }),
    );
  }
  fs.writeFileSync(path.join(dir, 'rows.jsonl'), rows.join('\n') + '\n');
  let files = 1;
  for (let r = 0; r < RUNS; r++) {
    const run = path.join(dir, 'runs', `run-${String(r).padStart(2, '0')}`);
    fs.mkdirSync(run, { recursive: true });
    const model = `provider/model-${r}`;
    const preds: Record<string, unknown> = {};
    for (let i = 0; i < ROWS; i++) {
      const id = idOf(i);
      const patch = patchFor(i, r + 1);
      preds[id] = { model_name_or_path: model, instance_id: id, model_patch: patch };
      const messages: Array<{ role: string; content: string }> = [
        { role: 'system', content: 'You are a helpful assistant that can interact with a computer.' },
        { role: 'user', content: `<pr_description>\ncompute() is off by one for input ${i}.\n</pr_description>\n` + 'Follow these steps. '.repeat(20) },
      ];
      for (let k = 0; k < 4; k++) {
        messages.push({ role: 'assistant', content: `THOUGHT: look at widgets/mod${i % 50}.py, step ${k}.\n\n\`\`\`bash\nnl -ba widgets/mod${i % 50}.py | sed -n 1,40p\n\`\`\`` });
        messages.push({ role: 'user', content: `<returncode>0</returncode>\n<output>\n${'     1\tdef compute(x):\n'.repeat(12)}</output>` });
      }
      const traj = {
        info: {
          model_stats: { instance_cost: 0.01 * (k(i, r) % 7), api_calls: 5 },
          config: { agent: { step_limit: 250 }, model: { model_name: model }, environment: { cwd: '/testbed' } },
          mini_version: '1.15.0',
          exit_status: 'Submitted',
          submission: patch,
        },
        messages,
        trajectory_format: 'mini-swe-agent-1',
        instance_id: id,
      };
      fs.mkdirSync(path.join(run, id));
      fs.writeFileSync(path.join(run, id, `${id}.traj.json`), JSON.stringify(traj, null, 2));
      files++;
    }
    fs.writeFileSync(path.join(run, 'preds.json'), JSON.stringify(preds, null, 2));
    files++;
  }
  return files;
}

const k = (i: number, r: number) => i * 31 + r;

/** The floor: read and JSON.parse every input file the import reads. */
function floor(dir: string): number {
  let n = 0;
  for (const line of fs.readFileSync(path.join(dir, 'rows.jsonl'), 'utf8').split('\n')) {
    if (!line) continue;
    JSON.parse(line);
    n++;
  }
  const runs = path.join(dir, 'runs');
  for (const run of fs.readdirSync(runs).sort()) {
    JSON.parse(fs.readFileSync(path.join(runs, run, 'preds.json'), 'utf8'));
    for (const e of fs.readdirSync(path.join(runs, run), { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      JSON.parse(fs.readFileSync(path.join(runs, run, e.name, `${e.name}.traj.json`), 'utf8'));
      n++;
    }
  }
  return n;
}

/**
 * The second floor: the first, plus writing what any import must write for the same inputs (per row a folder with
 * task.json, request.md, tests.patch, gold.patch; per prediction a folder with attempt.json, patch.diff and a copy
 * of its trajectory), with plain fs calls and no checks.
 */
async function writeFloor(dir: string, out: string): Promise<number> {
  let n = 0;
  const rows = fs.readFileSync(path.join(dir, 'rows.jsonl'), 'utf8').split('\n').filter((l) => l).map((l) => JSON.parse(l) as Record<string, string>);
  const runs = path.join(dir, 'runs');
  const preds = fs.readdirSync(runs).sort().map((run) => ({ run, preds: JSON.parse(fs.readFileSync(path.join(runs, run, 'preds.json'), 'utf8')) as Record<string, { model_patch: string; model_name_or_path: string }> }));
  for (const row of rows) {
    const id = row.instance_id as string;
    const t = path.join(out, 'tasks', id);
    fs.mkdirSync(t, { recursive: true });
    fs.writeFileSync(path.join(t, 'task.json'), JSON.stringify({ id, repo: row.repo, tests: [row.FAIL_TO_PASS, row.PASS_TO_PASS] }, null, 2));
    fs.writeFileSync(path.join(t, 'request.md'), row.problem_statement as string);
    fs.writeFileSync(path.join(t, 'tests.patch'), row.test_patch as string);
    fs.writeFileSync(path.join(t, 'gold.patch'), row.patch as string);
    for (const { run, preds: p } of preds) {
      const traj = path.join(runs, run, id, `${id}.traj.json`);
      JSON.parse(fs.readFileSync(traj, 'utf8'));
      const a = path.join(t, 'attempts', run);
      fs.mkdirSync(a, { recursive: true });
      fs.writeFileSync(path.join(a, 'attempt.json'), JSON.stringify({ model: p[id]?.model_name_or_path, run }, null, 2));
      fs.writeFileSync(path.join(a, 'patch.diff'), p[id]?.model_patch ?? '');
      await fs.promises.copyFile(traj, path.join(a, 'trajectory.traj.json'));
      n++;
    }
  }
  return n;
}

function trajectoryFiles(dir: string): string[] {
  const runs = path.join(dir, 'runs');
  const out: string[] = [];
  for (const run of fs.readdirSync(runs).sort()) {
    for (const e of fs.readdirSync(path.join(runs, run), { withFileTypes: true })) if (e.isDirectory()) out.push(path.join(runs, run, e.name, `${e.name}.traj.json`));
  }
  return out;
}

/** For attribution: the trajectory reader alone over every trajectory, as many at a time as the import reads them. */
async function readerAlone(files: string[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < files.length) await listTrajectoryInstances(files[next++] as string);
    }),
  );
}

/** The same builder fed each file read whole and synchronously: what the reader's streams cost for small files. */
function builderOnBuffers(files: string[]): void {
  for (const f of files) {
    const b = new TrajectoryBuilder({ fileLabel: f, keepText: false, allInstances: true });
    b.push(fs.readFileSync(f));
    b.end();
  }
}

async function time(fn: () => unknown): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function main() {
  const given = process.env.INPUT;
  const dir = given ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sw-bench-import-'));
  // OUT_BASE puts the written datasets elsewhere (e.g. /dev/shm, to see the import without the disk).
  const outs = fs.mkdtempSync(path.join(process.env.OUT_BASE ?? os.tmpdir(), 'sw-bench-import-out-'));
  try {
    if (!given || !fs.existsSync(path.join(dir, 'rows.jsonl'))) {
      const t0 = Date.now();
      const files = generate(dir);
      console.log(`generated ${ROWS} rows, ${RUNS} runs (${files} files) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
    const deps = { listTrajectoryInstances: (p: string) => listTrajectoryInstances(p) };
    const importOnce = async (round: number) => {
      const out = path.join(outs, `out-${round}`);
      const s = await importSwebench({ instances: [path.join(dir, 'rows.jsonl')], trajectories: [path.join(dir, 'runs')], out }, deps);
      const errors = s.problems.filter((p) => p.severity === 'error');
      if (s.counts.tasks !== ROWS || s.counts.attempts !== ROWS * RUNS || errors.length > 0) {
        throw new Error(`imported ${s.counts.tasks} tasks, ${s.counts.attempts} attempts, ${errors.length} errors: ${errors[0]?.message ?? ''}`);
      }
      return out;
    };
    // Warm the page cache and the code once (not timed).
    floor(dir);
    fs.rmSync(await importOnce(-1), { recursive: true, force: true });
    const floorMs: number[] = [];
    const writeMs: number[] = [];
    const importMs: number[] = [];
    const readerMs: number[] = [];
    const bufferMs: number[] = [];
    const trajs = trajectoryFiles(dir);
    for (let r = 0; r < ROUNDS; r++) {
      floorMs.push(await time(() => floor(dir)));
      readerMs.push(await time(() => readerAlone(trajs)));
      bufferMs.push(await time(() => builderOnBuffers(trajs)));
      const w = path.join(outs, `floor-${r}`);
      writeMs.push(await time(() => writeFloor(dir, w)));
      fs.rmSync(w, { recursive: true, force: true });
      let out = '';
      importMs.push(await time(async () => (out = await importOnce(r))));
      fs.rmSync(out, { recursive: true, force: true });
    }
    const ratios = importMs.map((m, i) => m / (floorMs[i] as number));
    const writeRatios = importMs.map((m, i) => m / (writeMs[i] as number));
    console.log(`${ROUNDS} rounds, medians (load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; output under ${outs}):`);
    console.log(`  floor: read + JSON.parse of the rows, preds.json files and trajectories: ${median(floorMs).toFixed(0)} ms`);
    console.log(`  floor + writing the same task and attempt files (plain fs, no checks): ${median(writeMs).toFixed(0)} ms`);
    console.log(`  import (pair, check, write ${ROWS} tasks / ${ROWS * RUNS} attempts, read back): ${median(importMs).toFixed(0)} ms`);
    console.log(`  of which (measured alone) the trajectory reader, 8 files at a time: ${median(readerMs).toFixed(0)} ms; the same builder on each file read whole: ${median(bufferMs).toFixed(0)} ms`);
    console.log(`ratio import / read floor:  ${median(ratios).toFixed(2)}  (goal < 2)   per round: ${ratios.map((x) => x.toFixed(2)).join(' ')}`);
    console.log(`ratio import / write floor: ${median(writeRatios).toFixed(2)}               per round: ${writeRatios.map((x) => x.toFixed(2)).join(' ')}`);
  } finally {
    if (!given) fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(outs, { recursive: true, force: true });
  }
}

void main();
