// Issue 10 item 2: the standard run layouts. Reports are paired with attempts by run folder and instance id, runs
// are named after their folder (or their metadata), run-level summaries are reports, and gold-validation verdicts
// go to the gold probe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importSwebench } from '../../../src/app/importSwebench';
import type { ImportDeps, ImportOptions } from '../../../src/app/importSwebench';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import { listTrajectoryInstances } from '../../../src/adapters/fs/trajectoryReader';
import type { ImportSummary } from '../../../src/core/import/summary';
import type { CandidateTask, Dataset } from '../../../src/core/model';
import { tmpDir } from '../helpers/tmp';

const FX = path.resolve(__dirname, '../../fixtures/import');
const L = path.join(FX, 'layouts');
const ROWS = path.join(FX, 'instances-crlf-bom.jsonl');
const deps: ImportDeps = { listTrajectoryInstances: (p) => listTrajectoryInstances(p) };

async function run(opts: Omit<ImportOptions, 'out'>): Promise<{ summary: ImportSummary; dataset: Dataset; out: string }> {
  const out = path.join(tmpDir(), 'out');
  const summary = await importSwebench({ ...opts, out }, deps);
  const dataset = loadDataset(out, { deep: true });
  assert.deepEqual(dataset.problems.filter((p) => p.severity === 'error'), []);
  return { summary, dataset, out };
}

const task = (d: Dataset, id: string): CandidateTask => {
  const t = d.tasks.find((x) => x.id === id);
  assert.ok(t, `task ${id}`);
  return t;
};
const verdicts = (t: CandidateTask) => t.attempts.map((a) => [a.id, a.recordedResults.map((r) => `${r.source}:${r.status}`)]);
const reportsUnmatched = (s: ImportSummary) => s.unmatched.filter((u) => u.kind === 'report');

const MINI = path.join(L, 'mini-trajs-logs', '20251118_demo-model-74pct');

test('mini-swe-agent trajs/ beside logs/: the run is the folder above, and each report finds its attempt', async () => {
  const { summary, dataset } = await run({ instances: [ROWS], trajectories: [path.join(MINI, 'trajs')], reports: [path.join(MINI, 'logs')] });
  assert.deepEqual(reportsUnmatched(summary), []);
  const w = task(dataset, 'acme__widgets-1');
  assert.deepEqual(w.attempts.map((a) => [a.id, a.model, a.run, a.agent]), [['20251118-demo-model-74pct', 'google/demo-model-preview', '20251118_demo-model-74pct', 'mini-swe-agent']]);
  assert.deepEqual(verdicts(w), [['20251118-demo-model-74pct', ['swebench-report:resolved']]]);
  assert.deepEqual(verdicts(task(dataset, 'acme__gadgets-2')), [['20251118-demo-model-74pct', ['swebench-report:unresolved']]]);
});

test("mini-swe-agent's run folder given whole: its own results_summary.json is a run-level report", async () => {
  const { summary, dataset } = await run({ instances: [ROWS], trajectories: [MINI], reports: [MINI] });
  assert.deepEqual(reportsUnmatched(summary), []);
  assert.deepEqual(verdicts(task(dataset, 'acme__widgets-1')), [['20251118-demo-model-74pct', ['swebench-report:resolved', 'results-summary:resolved']]]);
  assert.deepEqual(verdicts(task(dataset, 'acme__gadgets-2')), [['20251118-demo-model-74pct', ['swebench-report:unresolved', 'results-summary:unresolved']]]);
  // The run folder's trajectories are not read again as reports, and its other files are listed.
  const why = Object.fromEntries(summary.ignored.map((i) => [path.relative(MINI, i.file), i.reason]));
  assert.deepEqual(Object.keys(why).sort(), ['RESULTS.md', 'results_summary.csv']);
});

const EXP = path.join(L, 'experiments', 'evaluation', 'verified');
const EXP_RUN = path.join(EXP, '20260101_demo-agent_demo-model');

test('SWE-bench experiments folder: all_preds + trajs + logs + results, named after the folder, model from metadata.yaml', async () => {
  const { summary, dataset } = await run({ instances: [ROWS], trajectories: [EXP], reports: [EXP] });
  assert.deepEqual(reportsUnmatched(summary), []);
  assert.deepEqual(summary.problems.filter((p) => p.severity === 'error' && !/instances-crlf-bom/.test(p.file)), []);
  const w = task(dataset, 'acme__widgets-1');
  // The trajectory names its model; the other instance has no trajectory, so metadata.yaml's tags.model names it.
  assert.deepEqual(w.attempts.map((a) => [a.id, a.model, a.run]), [['20260101-demo-agent-demo-model', 'demo/demo-model-2026-01-01', '20260101_demo-agent_demo-model']]);
  assert.ok(w.attempts[0]?.trajectoryFile, 'its trajectory under trajs/ is attached');
  assert.deepEqual(verdicts(w), [['20260101-demo-agent-demo-model', ['swebench-report:resolved', 'swebench-run-report:resolved']]]);
  const g = task(dataset, 'acme__gadgets-2');
  assert.deepEqual(g.attempts.map((a) => [a.model, a.run]), [['demo-model-2026-01-01', '20260101_demo-agent_demo-model']]);
  // results.json lists only resolved ids: an unlisted instance has no verdict from it.
  assert.deepEqual(verdicts(g), [['20260101-demo-agent-demo-model', ['swebench-report:unresolved']]]);
  const why = Object.fromEntries(summary.ignored.map((i) => [path.relative(EXP_RUN, i.file), i.reason]));
  assert.match(why['results/resolved_by_repo.json'] ?? '', /counts per repository/);
  assert.match(why['results/resolved_by_time.json'] ?? '', /counts per year/);
  assert.match(why['trajs/acme__gadgets-2.md'] ?? '', /text file, not a trajectory/);
  assert.match(why['logs/acme__widgets-1/test_output.txt'] ?? '', /test output/);
  assert.equal(why['metadata.yaml'], undefined, 'metadata.yaml is read');
  assert.equal(why['all_preds.jsonl'], undefined);
});

const SMITH = path.join(L, 'swe-smith');
const A = 'acme__widgets.1a2b3c4d.func_pm_op_swap__x1y2';
const B = 'acme__widgets.1a2b3c4d.lm_rewrite__q9w8';

test('SWE-smith run_evaluation: per-instance reports (resolved though "not applied", timed out) and the run summary', async () => {
  const { summary, dataset } = await run({
    instances: [path.join(SMITH, 'rows.json')],
    predictions: [path.join(SMITH, 'preds.jsonl')],
    reports: [path.join(SMITH, 'logs', 'run_evaluation')],
  });
  assert.deepEqual(reportsUnmatched(summary), []);
  const a = task(dataset, A).attempts;
  assert.deepEqual(verdicts(task(dataset, A)), [['swesmith-agent-32b', ['swesmith-report:resolved', 'swesmith-run-report:resolved']]]);
  assert.equal(a[0]?.recordedResults[0]?.patchApplied, undefined, 'SWE-smith never sets patch_successfully_applied: not read as "did not apply"');
  assert.deepEqual(a[0]?.recordedResults[0]?.failToPass, { success: ['tests/test_calc.py::test_add'], failure: [] });
  const b = task(dataset, B).attempts[0]?.recordedResults ?? [];
  assert.deepEqual(b.map((r) => [r.source, r.status, r.detail]), [['swesmith-report', 'error', 'timed out after 60 s'], ['swesmith-run-report', 'unresolved', undefined]]);
});

test('SWE-smith reports alone make their attempts from the patch beside them, named by the model inside', async () => {
  const { dataset } = await run({ instances: [path.join(SMITH, 'rows.json')], reports: [path.join(SMITH, 'logs', 'run_evaluation')] });
  assert.deepEqual(task(dataset, A).attempts.map((a) => [a.id, a.model]), [['swesmith-agent-32b', 'swesmith-agent-32b']]);
  assert.deepEqual(verdicts(task(dataset, A))[0]?.[1], ['swesmith-report:resolved', 'swesmith-run-report:resolved']);
});

test('gold validation verdicts go to the gold probe: SWE-smith run_validation and a SWE-bench gold run', async () => {
  const smith = await run({ instances: [path.join(SMITH, 'rows.json')], reports: [path.join(SMITH, 'logs', 'run_validation')] });
  assert.deepEqual(reportsUnmatched(smith.summary), []);
  const goldOf = (s: ImportSummary, id: string) => s.tasks.find((t) => t.id === id)?.gold?.recordedResults.map((r) => [r.source, r.status]);
  assert.deepEqual(goldOf(smith.summary, A), [['swesmith-validation', 'resolved']]);
  assert.deepEqual(goldOf(smith.summary, B), [['swesmith-validation', 'unresolved']]);
  const source = task(smith.dataset, B).source as { goldResults?: Array<{ detail?: string }> };
  assert.match(source.goldResults?.[0]?.detail ?? '', /no test fails with the bug and passes without it/);
  assert.equal(task(smith.dataset, A).attempts.length, 0, 'the validation patch (the bug) is no attempt');

  const sb = await run({ instances: [ROWS], reports: [path.join(L, 'swebench-gold')] });
  assert.deepEqual(reportsUnmatched(sb.summary), []);
  assert.deepEqual(goldOf(sb.summary, 'acme__widgets-1'), [['swebench-report', 'resolved'], ['swebench-run-report', 'resolved']]);
  assert.deepEqual(goldOf(sb.summary, 'acme__gadgets-2'), [['swebench-run-report', 'unresolved']]);
  const w = task(sb.dataset, 'acme__widgets-1');
  assert.equal(w.attempts.length, 0);
  assert.deepEqual((w.source as { goldResults?: Array<{ passToPass?: unknown }> }).goldResults?.[0]?.passToPass, { success: ['tests/test_w.py::test_old'], failure: ['tests/test_w.py::test_param[a b'] });
  assert.ok(w.notes.some((n) => /gold patch: 2 recorded result\(s\).*source\.goldResults/.test(n)));
});

test("SWE-agent run folders: the model from args.yaml (0.x) and run_batch.config.yaml (1.x), the run from the folder", async () => {
  const { summary, dataset } = await run({ instances: [ROWS], trajectories: [path.join(L, 'swe-agent-0x', 'trajectories'), path.join(L, 'swe-agent-1x', 'trajectories')] });
  const run0 = 'gpt4__swe-bench-dev-easy_first_only__default__t-0.00__p-0.95__c-3.00__install-1';
  const run1 = 'default__openai--gpt-4o__t-0.00__p-1.00__c-2.00___swe_bench_lite_dev';
  assert.deepEqual(task(dataset, 'acme__widgets-1').attempts.map((a) => [a.model, a.run, a.agent]), [['gpt4', run0, 'swe-agent']]);
  assert.deepEqual(task(dataset, 'acme__gadgets-2').attempts.map((a) => [a.model, a.run]), [['openai/gpt-4o', run1]]);
  const ignored = summary.ignored.map((i) => path.basename(i.file));
  assert.ok(!ignored.includes('args.yaml') && !ignored.includes('run_batch.config.yaml'), 'the run metadata is read');
  assert.ok(summary.ignored.some((i) => /patches\/acme__widgets-1\.patch$/.test(i.file) && /predictions and trajectories carry the patches/.test(i.reason)));
  assert.ok(summary.ignored.some((i) => /acme__gadgets-2\.config\.yaml$/.test(i.file) && /per-instance configuration/.test(i.reason)));
  // `sweagent run` (one instance) writes no run_batch.config.yaml: the per-instance <id>.config.yaml names the model.
  const single = path.join(tmpDir(), run1);
  fs.cpSync(path.join(L, 'swe-agent-1x', 'trajectories', 'demo', run1), single, { recursive: true });
  fs.rmSync(path.join(single, 'run_batch.config.yaml'));
  const one = await run({ instances: [ROWS], trajectories: [single] });
  assert.deepEqual(task(one.dataset, 'acme__gadgets-2').attempts.map((a) => [a.model, a.run]), [['openai/gpt-4o', run1]]);
  assert.ok(!one.summary.ignored.some((i) => /\.config\.yaml$/.test(i.file)));
});

test('run metadata the YAML reader refuses is a warning naming its line; the model then comes from elsewhere', async () => {
  const dir = tmpDir();
  const runDir = path.join(dir, '20260101_other');
  fs.cpSync(EXP_RUN, runDir, { recursive: true });
  fs.writeFileSync(path.join(runDir, 'metadata.yaml'), 'tags:\n  model: &m\n  - x\n');
  const { summary, dataset } = await run({ instances: [ROWS], trajectories: [runDir] });
  const p = summary.problems.find((x) => /metadata\.yaml$/.test(x.file));
  assert.deepEqual([p?.severity, p?.line], ['warning', 2]);
  assert.match(p?.message ?? '', /anchors, aliases and tags.*its model names are not used/);
  assert.deepEqual(task(dataset, 'acme__gadgets-2').attempts.map((a) => [a.model, a.run]), [['demo-agent_demo-model', '20260101_other']]);
});

test('a report that names no solver goes to the only attempt of its instance, with a warning; with two it is listed', async () => {
  const dir = tmpDir();
  const reports = path.join(dir, 'graded', 'acme__widgets-1');
  fs.mkdirSync(reports, { recursive: true });
  fs.copyFileSync(path.join(MINI, 'logs', 'acme__widgets-1', 'report.json'), path.join(reports, 'report.json'));
  const one = await run({ instances: [ROWS], trajectories: [path.join(MINI, 'trajs')], reports: [path.join(dir, 'graded')] });
  assert.deepEqual(verdicts(task(one.dataset, 'acme__widgets-1')), [['20251118-demo-model-74pct', ['swebench-report:resolved']]]);
  assert.ok(one.summary.problems.some((p) => p.severity === 'warning' && /report\.json$/.test(p.file) && /names no solver; its verdict went to the only attempt of acme__widgets-1 \(20251118_demo-model-74pct\)/.test(p.message)));
  const two = await run({ instances: [ROWS], trajectories: [path.join(MINI, 'trajs'), path.join(FX, 'runs', 'mini-run-a')], reports: [path.join(dir, 'graded')] });
  assert.ok(task(two.dataset, 'acme__widgets-1').attempts.every((a) => a.recordedResults.length === 0));
  assert.match(reportsUnmatched(two.summary)[0]?.reason ?? '', /^no attempt by its solver for acme__widgets-1/);
});
