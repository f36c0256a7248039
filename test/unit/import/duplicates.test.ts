// Issue 10 item 1: the same solver output reached twice makes one attempt, and the summary says what was merged.
// Files are identified by their real path, predictions by (instance, model, patch bytes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importSwebench } from '../../../src/app/importSwebench';
import type { ImportDeps, ImportOptions } from '../../../src/app/importSwebench';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import { listTrajectoryInstances } from '../../../src/adapters/fs/trajectoryReader';
import { renderSummary } from '../../../src/cli/import';
import type { ImportSummary } from '../../../src/core/import/summary';
import { tmpDir } from '../helpers/tmp';

const FX = path.resolve(__dirname, '../../fixtures/import');
const DUP = path.join(FX, 'duplicates');
const ROWS = path.join(FX, 'instances-crlf-bom.jsonl');
const AGENTLESS = path.join(DUP, 'agentless_run');
const SWE_RUN = path.join(DUP, 'swe-agent-1x', 'default__claude-3-5-sonnet-20241022__t-0.00__p-1.00__c-2.00___swe_bench_lite_dev');
const deps: ImportDeps = { listTrajectoryInstances: (p) => listTrajectoryInstances(p) };

async function run(opts: Omit<ImportOptions, 'out' | 'instances'>) {
  const out = path.join(tmpDir(), 'out');
  const summary = await importSwebench({ instances: [ROWS], ...opts, out }, deps);
  const dataset = loadDataset(out, { deep: true });
  assert.deepEqual(dataset.problems.filter((p) => p.severity === 'error'), []);
  return { summary, dataset };
}

const attemptIds = (s: ImportSummary) => Object.fromEntries(s.tasks.map((t) => [t.instanceId, t.attempts.map((a) => a.id)]));

test('a predictions file named with --predictions and found under --trajectories is read once, as part of its run', async () => {
  const { summary } = await run({ predictions: [path.join(AGENTLESS, 'all_preds.jsonl')], trajectories: [AGENTLESS] });
  // One attempt per prediction: no "agentless-2", also not for the empty patch.
  assert.deepEqual(attemptIds(summary), { 'acme__widgets-1': ['agentless-run'], 'acme__gadgets-2': ['agentless-run'] });
  assert.deepEqual(summary.tasks[0]?.attempts.map((a) => [a.model, a.run]), [['agentless', 'agentless_run']]);
  assert.deepEqual(
    summary.merged.files.map((f) => [path.relative(DUP, f.file), path.relative(DUP, f.sameAs)]),
    [['agentless_run/all_preds.jsonl', 'agentless_run/all_preds.jsonl']],
  );
  assert.match(summary.merged.files[0]?.why ?? '', /also under --trajectories/);
  // preds.json beside all_preds.jsonl holds the same two predictions (SWE-bench experiments folders keep both).
  assert.deepEqual(
    summary.merged.predictions.map((m) => [m.instanceId, path.basename(m.dropped), path.basename(m.kept)]).sort(),
    [['acme__gadgets-2', 'preds.json:7', 'all_preds.jsonl:2'], ['acme__widgets-1', 'preds.json:2', 'all_preds.jsonl:1']],
  );
  assert.equal(summary.counts.merged, 3);
  const text = renderSummary(summary);
  assert.match(text, /Merged 3 duplicate\(s\):/);
  assert.match(text, /agentless_run\/all_preds\.jsonl: also under --trajectories .*agentless_run: read once, as part of its run folder/);
  assert.match(text, /2 prediction\(s\) in .*preds\.json are the same \(instance, model, patch\) as in .*all_preds\.jsonl: one attempt each/);
});

test('two spellings of one path and a symlink to it are one file', async () => {
  const dir = tmpDir();
  const link = path.join(dir, 'linked_preds.jsonl');
  fs.symlinkSync(path.join(AGENTLESS, 'all_preds.jsonl'), link);
  const spelled = `${AGENTLESS}//all_preds.jsonl`;
  const { summary } = await run({ predictions: [spelled, path.join(AGENTLESS, 'all_preds.jsonl'), link] });
  assert.deepEqual(attemptIds(summary), { 'acme__widgets-1': ['agentless'], 'acme__gadgets-2': ['agentless'] });
  assert.deepEqual(summary.predictionFiles.map((f) => f.file), [spelled]);
  assert.deepEqual(summary.merged.files.map((f) => [f.file, f.sameAs]), [[path.join(AGENTLESS, 'all_preds.jsonl'), spelled], [link, spelled]]);
  assert.ok(summary.merged.files.every((f) => /the same file/.test(f.why)));
});

test("SWE-agent's <id>.pred (null patch) and preds.json (\"\") are one prediction", async () => {
  const { summary, dataset } = await run({ trajectories: [path.dirname(SWE_RUN)] });
  const id = 'default-claude-3-5-sonnet-20241022-t-0.00-p-1.00-c-2.00-swe-bench-lite-dev';
  assert.deepEqual(attemptIds(summary), { 'acme__widgets-1': [id], 'acme__gadgets-2': [id] });
  assert.deepEqual(
    summary.merged.predictions.map((m) => [m.instanceId, path.basename(m.dropped)]).sort(),
    [['acme__gadgets-2', 'acme__gadgets-2.pred:1'], ['acme__widgets-1', 'acme__widgets-1.pred:1']],
  );
  const g = dataset.tasks.find((t) => t.id === 'acme__gadgets-2');
  assert.equal(g?.attempts.length, 1);
});

test('an empty patch by one model in two files is one attempt', async () => {
  const first = path.join(DUP, 'loose', 'preds_first.jsonl');
  const second = path.join(DUP, 'loose', 'preds_second.jsonl');
  const { summary } = await run({ predictions: [first, second] });
  assert.deepEqual(attemptIds(summary), { 'acme__widgets-1': [], 'acme__gadgets-2': ['openai-gpt-x'] });
  assert.deepEqual(summary.merged.predictions.map((m) => [m.instanceId, m.model, m.kept, m.dropped]), [['acme__gadgets-2', 'openai/gpt-x', `${first}:1`, `${second}:1`]]);
  assert.deepEqual(summary.tasks[1]?.attempts[0]?.flags, ['the patch is empty']);
});

test('the same trajectory folder given twice (a run and its parent) is read once', async () => {
  const runs = path.join(FX, 'runs');
  const once = await run({ trajectories: [runs] });
  const twice = await run({ trajectories: [runs, path.join(runs, 'mini-run-a')] });
  assert.deepEqual(attemptIds(twice.summary), attemptIds(once.summary));
  assert.ok(twice.summary.merged.files.some((f) => /mini-run-a\/preds\.json$/.test(f.file) && /the same file/.test(f.why)));
  assert.ok(twice.summary.merged.files.some((f) => /acme__widgets-1\.traj\.json$/.test(f.file)));
});
