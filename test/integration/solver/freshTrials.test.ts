// A batch of fresh trials (src/app/freshTrials.ts, shared by `specweave solve`, the workbench and the revalidation
// after a repair) against the real engine: two models' trials run side by side, each lands and is verified through
// the verifier's queue; a job whose model cannot be made is that job's error and the others go on; a cancelled
// batch starts no more trials. No container is left behind.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../../src/adapters/docker/engine';
import { VerifierService } from '../../../src/adapters/docker/verifyService';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import type { TrialEvent } from '../../../src/app/freshTrials';
import { queueVerifier, runFreshTrials, trialJobs } from '../../../src/app/freshTrials';
import type { TrialModel } from '../../../src/app/solverTrial';
import type { CandidateTask } from '../../../src/core/model';
import { SUBMIT_SENTINEL } from '../../../src/core/solver/agent';
import type { BuiltDataset } from '../../fixtures/verify/dataset';
import { buildDataset } from '../../fixtures/verify/dataset';
import { assertNoOwnedContainers, requireEngine } from '../verify/engineGuard';

let engine: Engine;
let ds: BuiltDataset;

before(async () => {
  engine = await requireEngine();
  ds = buildDataset(fs.mkdtempSync(path.join(os.tmpdir(), 'sw-fresh-trials-')), [{ id: 'calc' }]);
});

after(async () => {
  if (engine) await assertNoOwnedContainers(engine);
  if (ds) fs.rmSync(ds.root, { recursive: true, force: true });
});

/** A model that runs these commands in order (a new script per trial). */
function scripted(commands: string[]): TrialModel {
  let i = 0;
  return async () => {
    const c = commands[i++];
    if (c === undefined) throw new Error('the script ran out');
    return { text: `THOUGHT: step ${i}.`, toolCalls: [{ id: `call_${i}`, name: 'bash', arguments: JSON.stringify({ command: c }) }], costUsd: 0.001, promptTokens: 40, completionTokens: 8 };
  };
}

const fixer = () => scripted(["sed -i 's/return a - b/return a + b/' calc.py", `echo ${SUBMIT_SENTINEL}`]);
const breaker = () => scripted(["sed -i 's/return a - b/return a * b/' calc.py", `echo ${SUBMIT_SENTINEL}`]);
const reload = (id: string): CandidateTask | undefined => loadDataset(ds.root).tasks.find((t) => t.id === id);

test('two models side by side: each trial lands as an attempt and gets its own verdict from the queue', async () => {
  const service = new VerifierService({ datasetRoot: ds.root, engine, concurrency: 2 });
  const events: TrialEvent[] = [];
  const task = reload('calc') as CandidateTask;
  const results = await runFreshTrials({
    root: ds.root,
    jobs: trialJobs([task, task], ['scripted/fixer', 'scripted/breaker'], 1),
    engine,
    modelFor: (m) => (m === 'scripted/fixer' ? fixer() : breaker()),
    concurrency: 2,
    reloadTask: reload,
    verify: queueVerifier(service),
    onEvent: (e) => events.push(e),
  });
  assert.equal(results.length, 2, 'the task given twice is tried once per model');
  const byModel = new Map(results.map((r) => [r.model, r]));
  assert.equal(byModel.get('scripted/fixer')?.verdict, 'passed', JSON.stringify(results));
  assert.equal(byModel.get('scripted/breaker')?.verdict, 'failed', JSON.stringify(results));
  for (const r of results) {
    assert.equal(r.exitStatus, 'Submitted');
    assert.ok(r.runId, 'a verified trial names its run');
    assert.ok(reload('calc')?.attempts.some((a) => a.id === r.attemptId), `attempt ${r.attemptId} is in the task`);
  }
  assert.deepEqual(
    events.filter((e) => e.kind === 'done').map((e) => (e.kind === 'done' ? e.finished : 0)),
    [1, 2],
  );
  assert.ok(events.some((e) => e.kind === 'step' && e.attemptId.startsWith('trial-scripted-fixer-')), 'steps name the attempt they belong to');
});

test('a job whose model cannot be made is its own error; the next job still runs and lands', async () => {
  const task = reload('calc') as CandidateTask;
  const results = await runFreshTrials({
    root: ds.root,
    jobs: trialJobs([task], ['no/such-model', 'scripted/fixer'], 1),
    engine,
    modelFor: (m) => {
      if (m === 'no/such-model') throw new Error('no client for no/such-model');
      return fixer();
    },
    concurrency: 1,
    reloadTask: reload,
  });
  assert.equal(results.length, 2);
  assert.match(results[0]?.error ?? '', /no client for no\/such-model/);
  assert.equal(results[1]?.exitStatus, 'Submitted');
  assert.equal(results[1]?.verdict, undefined, 'no verifier given: the attempt lands unverified');
});

test('a batch cancelled after its first trial starts no more trials', async () => {
  const task = reload('calc') as CandidateTask;
  const before = task.attempts.length;
  const ac = new AbortController();
  const results = await runFreshTrials({
    root: ds.root,
    jobs: trialJobs([task], ['scripted/fixer'], 3),
    engine,
    modelFor: () => fixer(),
    concurrency: 1,
    signal: ac.signal,
    reloadTask: reload,
    onEvent: (e) => {
      if (e.kind === 'done') ac.abort();
    },
  });
  assert.equal(results.length, 1, 'one trial ran, the two after the cancel did not start');
  assert.equal((reload('calc') as CandidateTask).attempts.length, before + 1);
});
