// "Run Fresh Trials" inside a real extension host, against the fake OpenAI server and the real engine, on a copy of
// the example dataset: no key for the default endpoint gives the repair agent's message; a scripted solver that applies
// the fix and submits lands a new attempt (model, agent, tokens, cost, exit status) that the verifier's one queue
// passes, shown in the task view's results; a trial cancelled while the model is thinking leaves a readable partial
// attempt, which the open task view showed while it ran, and no container.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SUBMIT_SENTINEL } from '../../../src/core/solver/agent';
import type { TrialEvent } from '../../../src/app/freshTrials';
import type { SpecWeaveApi } from '../../../src/vscode/extension';
import type { TrialsCommandResult } from '../../../src/vscode/solver/solverController';
import { FakeOpenAI } from '../../integration/repair/fakeOpenAI';
import { exampleDataset } from '../../integration/repair/prepare';
import { api, closeAllEditors, openDataset, projectRoot, until } from './helpers';

const TASK = 'format-precision';
const KEY = 'sk-test-SPECWEAVE-FAKE-KEY-solver-9b3f27';
const MODEL = 'gpt-4o-mini';

const tool = (n: number, command: string) => ({ kind: 'answer' as const, content: `THOUGHT: step ${n}`, toolCalls: [{ id: `call_${n}`, name: 'bash', arguments: JSON.stringify({ command }) }], usage: { prompt_tokens: 300, completion_tokens: 30 } });

/** The containers of this task's trials (docker's CLI: the bundled suite cannot load the engine adapter's natives). */
function trialContainers(attemptId: string): string {
  return execFileSync('docker', ['ps', '-aq', '--filter', `label=specweave.run=solve-${attemptId}`], { encoding: 'utf8' }).trim();
}

async function setting(section: string, key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Global);
}

describe('fresh solver trials (trusted workspace)', function () {
  this.timeout(400_000);
  let a: SpecWeaveApi;
  let root: string;
  let fake: FakeOpenAI;
  let base = '';

  before(async () => {
    a = await api();
    root = exampleDataset(projectRoot());
    fake = new FakeOpenAI();
    base = await fake.start();
    await setting('specweave.repair', 'timeoutSec', 60);
    await setting('specweave.solver', 'models', [MODEL]);
    await setting('specweave.solver', 'trials', 1);
    await openDataset(a, root);
  });

  after(async () => {
    await closeAllEditors();
    await fake.stop();
    for (const k of ['baseUrl', 'model', 'timeoutSec']) await setting('specweave.repair', k, undefined);
    for (const k of ['models', 'trials']) await setting('specweave.solver', k, undefined);
    await vscode.commands.executeCommand('specweave.repair.clearApiKey');
    fs.rmSync(path.dirname(path.dirname(root)), { recursive: true, force: true });
  });

  it('says there is no API key for the default endpoint, as the repair agent does, and runs nothing', async () => {
    await vscode.commands.executeCommand('specweave.repair.clearApiKey');
    await setting('specweave.repair', 'baseUrl', undefined);
    const before = a.dataset.task(TASK)?.attempts.length;
    const r = await vscode.commands.executeCommand<TrialsCommandResult>('specweave.solver.runTrials', TASK);
    assert.equal(r.state, 'no-key');
    assert.equal(a.dataset.task(TASK)?.attempts.length, before, 'no attempt was started');
    assert.equal(fake.requests.length, 0);
  });

  it('lands a trial that fixes the task as a new attempt, verified passed through the shared queue', async () => {
    await setting('specweave.repair', 'baseUrl', base);
    assert.equal(await vscode.commands.executeCommand('specweave.repair.setApiKey', KEY), true);
    const gold = fs.readFileSync(path.join(root, 'tasks', TASK, 'gold.patch')).toString('base64');
    fake.push(tool(1, `echo ${gold} | base64 -d | git apply && git status --short`), tool(2, `echo ${SUBMIT_SENTINEL}`));
    const r = await vscode.commands.executeCommand<TrialsCommandResult>('specweave.solver.runTrials', { taskId: TASK });
    assert.equal(r.state, 'done', r.message);
    assert.equal(r.results.length, 1);
    const t = r.results[0];
    assert.ok(t?.attemptId, JSON.stringify(r.results));
    assert.equal(t.exitStatus, 'Submitted', JSON.stringify(t));
    assert.equal(t.verdict, 'passed', JSON.stringify(t));
    assert.equal(fake.requests.at(-1)?.authorization, `Bearer ${KEY}`);
    // The owner holds the new attempt, with what the trial recorded.
    const attempt = a.dataset.task(TASK)?.attempts.find((x) => x.id === t.attemptId);
    assert.ok(attempt, 'the attempt is in the open dataset');
    assert.equal(attempt.model, MODEL);
    assert.ok(attempt.costUsd !== undefined && attempt.costUsd > 0, 'the cost is recorded');
    // The verifier's one queue ran it, and the task view shows its verdict where the other results are.
    assert.equal(a.verifier.sharedService(), a.verifier.service);
    const res = await until('the new attempt in the results', () => {
      const m = a.panels.model(TASK, new Map()).results;
      return m?.columns.includes(t.attemptId ?? '') && m;
    }, 30_000);
    assert.equal(res.runs[t.attemptId]?.status, 'passed');
    const col = a.panels.model(TASK, new Map()).columns.find((c) => c.id === t.attemptId);
    assert.equal(col?.verdict, 'resolved (verifier)');
    assert.equal(trialContainers(t.attemptId), '', 'no container is left');
  });

  it('cancel ends the trial under way: a readable partial attempt, shown live in the task view, and no container', async () => {
    await vscode.commands.executeCommand('specweave.task.open', TASK);
    const first = await until('the task view', () => a.panels.sessionOf(TASK));
    fake.push(tool(1, 'echo first step'), { kind: 'hang' });
    const requests = fake.requests.length;
    let attemptId = '';
    const stepped = new Promise<void>((resolve) => {
      const sub = a.solver.onDidEvent((e: TrialEvent) => {
        if (e.kind === 'step' && e.run.stats.steps >= 1) {
          attemptId = e.attemptId;
          sub.dispose();
          resolve();
        }
      });
    });
    const running = vscode.commands.executeCommand<TrialsCommandResult>('specweave.solver.runTrials', TASK);
    await stepped;
    // The model is asked for step 2 and never answers: the trial is under way.
    await fake.whenRequests(requests + 2);
    // The open task view shows the attempt while it runs (the folder was read again after its step).
    const col = await until('the running attempt in the task view', () => a.panels.model(TASK, new Map()).columns.find((c) => c.id === attemptId), 30_000);
    assert.equal(col.hasTrajectory, true);
    assert.match(col.claimed ?? '', /^started: /);
    assert.notEqual(a.panels.sessionOf(TASK), first, 'the task view started over with the new files');
    assert.equal(a.solver.cancelAll(), 1);
    const r = await running;
    assert.equal(r.state, 'cancelled');
    assert.equal(r.results[0]?.exitStatus, 'Cancelled', JSON.stringify(r.results));
    const dir = path.join(root, 'tasks', TASK, 'attempts', attemptId);
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'attempt.json'), 'utf8')) as { claimed: { status: string }; model: string };
    assert.equal(meta.claimed.status, 'Cancelled');
    assert.equal(meta.model, MODEL);
    const traj = JSON.parse(fs.readFileSync(path.join(dir, 'trajectory.traj.json'), 'utf8')) as { messages: Array<{ content?: unknown }> };
    assert.ok(JSON.stringify(traj.messages).includes('first step'), 'the partial trajectory keeps the step it took');
    assert.equal(trialContainers(attemptId), '', 'no container is left');
    const landed = await until('the cancelled attempt in the task view', () => a.panels.model(TASK, new Map()).columns.find((c) => c.id === attemptId && c.claimed?.startsWith('Cancelled')), 30_000);
    assert.equal(landed.model, MODEL);
  });
});
