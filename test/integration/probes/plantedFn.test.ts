// The planted-defect suite's false negative against real containers and a real HTTP server speaking chat-completions
// (a scripted reply): format-precision's copy gets a planted over-strict assertion (`match=` pinned to the gold's
// wording of the unknown-precision error). An alternative solution that words that error otherwise keeps every spec:
// the original's tests accept it, the copy's planted test rejects it. The recall function, from the reports stored on
// disk, scores the planted false negative as caught by the alternative-solutions probe. Four container runs (the gold
// and the alternative on each of the two tasks).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../../src/adapters/docker/engine';
import { VerifierService } from '../../../src/adapters/docker/verifyService';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import { EndpointMemory, LlmClient } from '../../../src/adapters/llm/client';
import type { LlmSettings } from '../../../src/adapters/llm/client';
import { Redactor } from '../../../src/adapters/llm/redact';
import { ProbeOutputs, probeWithLlm } from '../../../src/app/llmProbes';
import { plantDataset, plantedCopyId, scorePlantedDataset } from '../../../src/app/plantedSuite';
import type { CandidateTask } from '../../../src/core/model';
import type { AlternativesReport } from '../../../src/core/probes/llmPatches';
import type { PlantedTruth } from '../../../src/core/probes/plant';
import { otherPrecisionMessage, patchOf, replyWith } from '../../unit/probes/llmPatchesFixtures';
import { tmpDir } from '../../unit/helpers/tmp';
import { copyExample } from '../repair/exampleCopy';
import { FakeOpenAI } from '../repair/fakeOpenAI';
import { assertNoOwnedContainers, requireEngine } from '../verify/engineGuard';

const KEY = 'sk-test-SPECWEAVE-FAKE-KEY-planted-fn-9d2e4b17';
const TASK = 'format-precision';
const COPY = plantedCopyId(TASK, 'false_negative');
const UNKNOWN_UNIT = 'tests/test_format.py::test_precision_unknown_unit';
let engine: Engine;
let fake: FakeOpenAI;
let out: string;
let truth: PlantedTruth;
const reports = new Map<string, AlternativesReport>();

before(async () => {
  engine = await requireEngine();
  fake = new FakeOpenAI();
  const base = await fake.start();
  const root = copyExample();
  out = path.join(tmpDir('sw-planted-fn-'), 'planted');
  truth = plantDataset(root, out, { tasks: [TASK], kinds: ['false_negative'] });
  const ds = loadDataset(out);
  const settings: LlmSettings = { baseUrl: base, model: 'gpt-4o-mini', temperature: 0, maxTokens: 32000, timeoutSec: 5 };
  for (const id of [TASK, COPY]) {
    const task = ds.tasks.find((t) => t.id === id) as CandidateTask;
    assert.ok(task, `no task ${id} in the planted dataset`);
    fake.push({ kind: 'answer', usage: { prompt_tokens: 3000, completion_tokens: 900 }, content: replyWith(patchOf(otherPrecisionMessage(), { summary: 'refuse an unknown precision in other words' })) });
    const outputs = new ProbeOutputs();
    const service = new VerifierService({ datasetRoot: out, engine, concurrency: 2, onOutput: outputs.onOutput });
    const client = new LlmClient({ settings, apiKey: KEY, redactor: new Redactor([KEY]), retry: { backoffMs: 20 }, memory: new EndpointMemory() });
    const r = await probeWithLlm(task, 'alternatives', 1, { service, datasetRoot: out, settings, apiKey: KEY, client, outputs });
    assert.equal(r.status, 'done', JSON.stringify(r));
    if (r.status === 'done') reports.set(id, r.report as AlternativesReport);
  }
});

after(async () => {
  await fake?.stop();
  if (engine) await assertNoOwnedContainers(engine);
});

test('the planted test rejects an alternative the original accepts, tied to the pinned wording', () => {
  const planted = truth.planted[0];
  assert.ok(planted && planted.kind === 'false_negative' && planted.copy === COPY);
  assert.equal(planted.test, UNKNOWN_UNIT);
  const base = reports.get(TASK);
  const copy = reports.get(COPY);
  assert.ok(base && copy);
  assert.equal(base.gold.status, 'passed', base.gold.reason);
  assert.equal(copy.gold.status, 'passed', `the gold passes the planted test too: ${copy.gold.reason}`);
  assert.deepEqual(base.alternatives.map((a) => a.outcome), ['accepted'], JSON.stringify(base.alternatives.map((a) => [a.status, a.reason])));
  const rejected = copy.alternatives[0];
  assert.equal(rejected?.outcome, 'rejected', JSON.stringify(copy.alternatives.map((a) => [a.status, a.reason])));
  assert.equal(rejected.id, base.alternatives[0]?.id, 'the same patch has the same id on both tasks');
  assert.deepEqual(rejected.failingTests.map((f) => f.name), [UNKNOWN_UNIT]);
  assert.deepEqual(rejected.specs, planted.specs);
  const log = rejected.failingTests[0]?.log.map((l) => l.text).join('\n') ?? '';
  assert.match(log, /precision must be one of/, 'the failure shows the pinned wording');
});

test('the recall function scores the planted FN as caught by the alternative solutions, from the stored reports', () => {
  const { score } = scorePlantedDataset(out);
  const altId = reports.get(COPY)?.alternatives[0]?.id;
  assert.deepEqual(score.detections.map((d) => [d.copy, d.probes, d.rejections, d.agent]), [[COPY, 'caught', [altId], 'not_run']]);
  assert.deepEqual(score.probes.false_negative, { caught: 1, missed: 0, notRun: 0, recall: 1 });
});
