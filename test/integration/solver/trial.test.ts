// A fresh trial end to end against the real engine, with a scripted model: the solver that fixes the calc bug with
// sed and submits lands an attempt whose patch the verifier passes; the solver that looks for the answer sees no
// test patch, no later commit and no network in its recorded observations; a cancelled trial leaves a readable
// partial attempt. No container is left behind.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../../src/adapters/docker/engine';
import { VerifierService } from '../../../src/adapters/docker/verifyService';
import { loadDataset, readDatasetText } from '../../../src/adapters/fs/datasetLoader';
import type { TrialModel } from '../../../src/app/solverTrial';
import { runTrial } from '../../../src/app/solverTrial';
import type { CandidateTask } from '../../../src/core/model';
import type { ModelReply } from '../../../src/core/solver/agent';
import { SUBMIT_SENTINEL, trajectoryDocument } from '../../../src/core/solver/agent';
import { normalizeTrajectoryText } from '../../../src/core/trajectory/normalize';
import type { BuiltDataset } from '../../fixtures/verify/dataset';
import { buildDataset } from '../../fixtures/verify/dataset';
import { assertNoOwnedContainers, requireEngine } from '../verify/engineGuard';

let engine: Engine;
let ds: BuiltDataset;

before(async () => {
  engine = await requireEngine();
  ds = buildDataset(fs.mkdtempSync(path.join(os.tmpdir(), 'sw-trial-')), [{ id: 'calc' }]);
});

after(async () => {
  if (engine) await assertNoOwnedContainers(engine);
  if (ds) fs.rmSync(ds.root, { recursive: true, force: true });
});

const call = (command: string, n: number): ModelReply => ({ text: `THOUGHT: step ${n}.`, toolCalls: [{ id: `call_${n}`, name: 'bash', arguments: JSON.stringify({ command }) }], costUsd: 0.001, promptTokens: 50, completionTokens: 10 });

/** A model that answers with these commands in order, and records the observations it was shown. */
function scripted(commands: string[]): { model: TrialModel; seen: string[] } {
  const seen: string[] = [];
  let i = 0;
  const model: TrialModel = async (messages) => {
    const last = messages[messages.length - 1];
    if (last && (last.role === 'tool' || (last.role === 'user' && i > 0))) seen.push(last.content ?? '');
    const c = commands[i++];
    if (c === undefined) throw new Error('the script ran out');
    return call(c, i);
  };
  return { model, seen };
}

const calcTask = (): CandidateTask => loadDataset(ds.root).tasks.find((t) => t.id === 'calc') as CandidateTask;

test('a solver that fixes the bug with sed and submits lands an attempt the verifier passes', async () => {
  const { model } = scripted(['grep -n "return a" calc.py', "sed -i 's/return a - b/return a + b/' calc.py", `echo ${SUBMIT_SENTINEL}`]);
  const out = await runTrial({ root: ds.root, task: calcTask(), engine, model, modelName: 'scripted/fixer', attemptId: 'trial-fixer' });
  assert.equal(out.exitStatus, 'Submitted', out.message);
  assert.equal(out.steps, 3);
  assert.ok(out.patchBytes > 0);
  const task = calcTask();
  const attempt = task.attempts.find((a) => a.id === 'trial-fixer');
  assert.ok(attempt, 'the trial is an attempt of the task');
  assert.equal(attempt.model, 'scripted/fixer');
  assert.equal(attempt.claimed?.status, 'Submitted');
  const patch = readDatasetText(ds.root, attempt.patchFile as string);
  assert.match(patch, /^\+\s+return a \+ b/m);
  const traj = normalizeTrajectoryText(readDatasetText(ds.root, `${task.dir}/attempts/trial-fixer/trajectory.traj.json`), 'trajectory.traj.json');
  assert.ok(traj.ok);
  assert.equal(traj.trajectory.summary.format, 'mini-swe-agent');
  const run = await new VerifierService({ datasetRoot: ds.root, engine }).verify({ task, attemptId: 'trial-fixer', force: true });
  assert.equal(run.status, 'passed', run.reason);
});

test('a solver looking for the answer sees no test patch, no later commit and no network', async () => {
  const { model, seen } = scripted([
    'grep -rl "def test_add" . | wc -l',
    'git log --all --oneline | wc -l',
    'python3 -c "import socket; socket.create_connection((\'10.1.2.3\', 80), timeout=3)" 2>&1 | tail -1',
    `echo ${SUBMIT_SENTINEL}`,
  ]);
  const out = await runTrial({ root: ds.root, task: calcTask(), engine, model, modelName: 'scripted/snoop', attemptId: 'trial-snoop' });
  assert.equal(out.exitStatus, 'Submitted', out.message);
  assert.match(seen[0] ?? '', /<output>\n0\n/, `the test the test patch adds is not there:\n${seen[0]}`);
  assert.match(seen[1] ?? '', /<output>\n1\n/, `one commit:\n${seen[1]}`);
  assert.match(seen[2] ?? '', /Network is unreachable|OSError|timed out/i, `no network:\n${seen[2]}`);
  assert.equal(out.patchBytes, 0, 'it changed nothing');
});

test('a cancelled trial ends Cancelled, keeps its partial trajectory readable, and leaves no container', async () => {
  const ctl = new AbortController();
  let asked = 0;
  const model: TrialModel = async () => {
    asked++;
    if (asked === 2) ctl.abort();
    return call('echo working', asked);
  };
  const out = await runTrial({ root: ds.root, task: calcTask(), engine, model, modelName: 'scripted/cancel', attemptId: 'trial-cancel', signal: ctl.signal });
  assert.equal(out.exitStatus, 'Cancelled');
  const task = calcTask();
  assert.equal(task.attempts.find((a) => a.id === 'trial-cancel')?.claimed?.status, 'Cancelled');
  const traj = normalizeTrajectoryText(readDatasetText(ds.root, `${task.dir}/attempts/trial-cancel/trajectory.traj.json`), 't.traj.json');
  assert.ok(traj.ok);
  assert.ok(traj.trajectory.steps.some((s) => s.text.includes('working')), 'the first step is there');
});

test('after every step the trajectory file is the whole document of the history so far', async () => {
  const { model } = scripted(['ls', 'cat calc.py', "printf '%9000s' '' | tr ' ' x", `echo ${SUBMIT_SENTINEL}`]);
  const file = () => path.join(ds.root, calcTask().dir, 'attempts', 'trial-steps', 'trajectory.traj.json');
  const seen: string[] = [];
  const out = await runTrial({
    root: ds.root,
    task: calcTask(),
    engine,
    model,
    modelName: 'scripted/steps',
    attemptId: 'trial-steps',
    onStep: (run) => {
      const text = fs.readFileSync(file(), 'utf8');
      // The last call follows the final write, whose submission is the patch (empty: nothing changed).
      const doc = JSON.stringify(trajectoryDocument(run, { model: 'scripted/steps', submission: '' }));
      // Between steps only what changed is written: a tail that came out shorter leaves trailing spaces.
      assert.ok(text.startsWith(doc) && /^ *\n$/.test(text.slice(doc.length)), `after ${run.messages.length} messages:\n${text.slice(-300)}`);
      seen.push(text);
    },
  });
  assert.equal(out.exitStatus, 'Submitted', out.message);
  assert.equal(seen.length, 9, 'four replies, four commands, the end');
  assert.ok(normalizeTrajectoryText(seen[seen.length - 1] as string, 't.traj.json').ok);
});

test('kill -9 mid-trial: the container stops and is swept, and the partial trajectory opens in the viewer', { timeout: 180_000 }, async () => {
  const { spawn } = await import('node:child_process');
  const { sweepOrphans } = await import('../../../src/adapters/docker/sweep');
  const { listOwned } = await import('../../../src/adapters/docker/sweep');
  const { LABELS } = await import('../../../src/adapters/docker/runSpec');
  const attemptId = 'trial-killed';
  const p = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'trialKilled.ts'), ds.root, attemptId], { cwd: path.resolve(__dirname, '../../..'), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  p.stderr.on('data', (d: Buffer) => (err += d.toString()));
  // The second command's step is written (the child says so after the write): then the model hangs, and the kill comes.
  await new Promise<void>((resolve, reject) => {
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (/^STEP 2$/m.test(out)) resolve();
    });
    p.on('close', (code) => reject(new Error(`the trial's process ended first (${code}): ${err}`)));
  });
  const mine = async () => (await listOwned(engine)).filter((c) => c.labels[LABELS.run] === `solve-${attemptId}`);
  const running = await mine();
  assert.equal(running.length, 1, `one trial container while it runs: ${JSON.stringify(running.map((c) => c.labels))}`);
  const closed = new Promise((r) => p.once('close', r));
  p.kill('SIGKILL');
  await closed;
  // The engine's wait answers when the orphan stops by itself (its owner is gone): the event, bounded by the test's timeout.
  const docker = await engine.docker();
  await docker.getContainer((running[0] as { id: string }).id).wait();
  await sweepOrphans(engine);
  assert.deepEqual(await mine(), [], 'no container is left after the sweep');
  const task = calcTask();
  const attempt = task.attempts.find((a) => a.id === attemptId);
  assert.ok(attempt, 'the killed trial is an attempt of the task');
  assert.equal(attempt.claimed?.status, 'started');
  const traj = normalizeTrajectoryText(readDatasetText(ds.root, `${task.dir}/attempts/${attemptId}/trajectory.traj.json`), 'trajectory.traj.json');
  assert.ok(traj.ok, traj.ok ? '' : JSON.stringify(traj));
  assert.ok(traj.trajectory.steps.some((s) => s.text.includes('killed-trial-step-2')), 'the last step before the kill is there');
});
