// Imports every SWE-bench sample under ../shared/samples (instances in both encodings, every predictions file, the
// harness logs, the run reports, the trajectories) and checks the written dataset the way a curator would see it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importSwebench } from '../../../src/app/importSwebench';
import type { ImportDeps } from '../../../src/app/importSwebench';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import { listTrajectoryInstances } from '../../../src/adapters/fs/trajectoryReader';
import type { ImportSummary } from '../../../src/core/import/summary';
import type { CandidateTask, Dataset } from '../../../src/core/model';
import { tmpDir } from '../helpers/tmp';

const SAMPLES = path.resolve(__dirname, '../../../../shared/samples');
const SWE = path.join(SAMPLES, 'swebench');
const deps: ImportDeps = { listTrajectoryInstances: (p) => listTrajectoryInstances(p) };

const INSTANCE_FILES = [
  'instances/swebench-verified_rows.string-encoded.jsonl',
  'instances/swebench-lite_rows.string-encoded.jsonl',
  'instances/swe-agent_swe-bench-lite-test.list-encoded.json',
].map((f) => path.join(SWE, f));
const PREDICTION_FILES = fs.readdirSync(path.join(SWE, 'predictions')).sort().map((f) => path.join(SWE, 'predictions', f));

interface Row {
  instance_id: string;
  FAIL_TO_PASS: string | string[];
  PASS_TO_PASS: string | string[];
}
const rowsOf = (file: string): Row[] => {
  const text = fs.readFileSync(file, 'utf8');
  return text.trimStart().startsWith('[') ? (JSON.parse(text) as Row[]) : text.split(/\r?\n/).filter((l) => l.trim()).map((l) => JSON.parse(l) as Row);
};
const list = (v: string | string[]) => (typeof v === 'string' ? (JSON.parse(v) as string[]) : v);
const predictionLines = (file: string) =>
  fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as { instance_id: string; model_name_or_path: string; model_patch: string });

let cached: { out: string; summary: ImportSummary; dataset: Dataset } | undefined;
async function importAll() {
  if (cached) return cached;
  const out = path.join(tmpDir('sw-import-'), 'dataset');
  const summary = await importSwebench(
    {
      instances: INSTANCE_FILES,
      predictions: PREDICTION_FILES,
      trajectories: [path.join(SAMPLES, 'trajectories')],
      reports: [path.join(SWE, 'harness_logs'), path.join(SWE, 'run_reports')],
      out,
    },
    deps,
  );
  cached = { out, summary, dataset: loadDataset(out, { deep: true }) };
  return cached;
}

const task = (d: Dataset, id: string): CandidateTask => {
  const t = d.tasks.find((x) => x.id === id);
  assert.ok(t, `task ${id} is in the dataset`);
  return t;
};
const attemptByModel = (t: CandidateTask, model: string) => {
  const found = t.attempts.filter((a) => a.model === model);
  assert.equal(found.length, 1, `${t.id} has one attempt by ${model} (has: ${t.attempts.map((a) => a.model).join(', ')})`);
  return found[0] as CandidateTask['attempts'][number];
};

test('every sample imports without errors and the written dataset loads clean', async () => {
  const { summary, dataset } = await importAll();
  assert.deepEqual(summary.problems.filter((p) => p.severity === 'error'), []);
  assert.deepEqual(dataset.problems.filter((p) => p.severity === 'error'), []);
  assert.deepEqual(
    dataset.tasks.map((t) => t.id),
    [
      'astropy__astropy-12907', 'django__django-11099', 'django__django-11119', 'django__django-15781', 'django__django-16255',
      'mwaskom__seaborn-3069', 'pytest-dev__pytest-11143', 'scikit-learn__scikit-learn-13584', 'sympy__sympy-13031',
    ],
  );
  assert.deepEqual(
    summary.instanceFiles.map((f) => [path.basename(f.file), f.shape, f.rows]),
    [
      ['swebench-verified_rows.string-encoded.jsonl', 'jsonl', 2],
      ['swebench-lite_rows.string-encoded.jsonl', 'jsonl', 4],
      ['swe-agent_swe-bench-lite-test.list-encoded.json', 'array', 5],
    ],
  );
  assert.deepEqual(
    summary.predictionFiles.map((f) => [path.basename(f.file), f.shape, f.predictions]),
    [
      ['blacksmith_predictions_swebench_v1.1.0.jsonl', 'jsonl', 15],
      ['multi-solver.assembled.jsonl', 'jsonl', 11],
      ['swe-agent_preds.dict-keyed.json', 'keyed', 1],
      ['swe-agent_pylint-dev__astroid-1978.pred', 'single', 1],
      ['swe-bench_preds_sbl.gold.json', 'array', 300],
    ],
  );
});

test('FAIL_TO_PASS and PASS_TO_PASS become tests T1.. with the ids as the runner reports them', async () => {
  const { dataset } = await importAll();
  const counts = (id: string) => {
    const t = task(dataset, id);
    return [t.tests.filter((x) => x.kind === 'fail_to_pass').length, t.tests.filter((x) => x.kind === 'pass_to_pass').length];
  };
  assert.deepEqual(counts('django__django-11119'), [1, 7]);
  assert.deepEqual(counts('mwaskom__seaborn-3069'), [2, 94]);
  // Every task against its first source row (string- and list-encoded alike), as sets and in order.
  const seen = new Set<string>();
  for (const file of INSTANCE_FILES) {
    for (const row of rowsOf(file)) {
      if (seen.has(row.instance_id)) continue;
      seen.add(row.instance_id);
      const t = task(dataset, row.instance_id);
      const names = [...list(row.FAIL_TO_PASS), ...list(row.PASS_TO_PASS)];
      assert.deepEqual(t.tests.map((x) => x.name), names, row.instance_id);
      assert.deepEqual(t.tests.map((x) => x.id), names.map((_, i) => `T${i + 1}`));
      assert.deepEqual(t.specs, []);
      assert.match(t.notes[0] ?? '', /no specs/);
    }
  }
  // Django docstring ids and ids cut inside a parametrized id are kept as given.
  assert.ok(task(dataset, 'django__django-16255').tests.some((x) => x.name === 'A simple sitemap index can be rendered with a custom template'));
  const pytest = task(dataset, 'pytest-dev__pytest-11143');
  assert.ok(pytest.tests.some((x) => x.name === 'testing/test_assertrewrite.py::test_get_assertion_exprs[assert'));
  assert.ok(pytest.notes.some((n) => /parametrized id/.test(n)));
});

test('the same instance in two files imports once; a different order of PASS_TO_PASS is no difference', async () => {
  const { summary, dataset } = await importAll();
  const t = task(dataset, 'django__django-16255');
  assert.equal((t.source as { file: string }).file, INSTANCE_FILES[1]);
  assert.deepEqual((t.source as { also_in: string[] }).also_in, [`${INSTANCE_FILES[2]}:1`]);
  assert.equal(summary.problems.filter((p) => /also in/.test(p.message)).length, 0);
});

test('request, test patch, gold patch and provenance come from the row', async () => {
  const { out, dataset } = await importAll();
  const t = task(dataset, 'django__django-11119');
  const row = JSON.parse(fs.readFileSync(INSTANCE_FILES[0] as string, 'utf8').split('\n')[0] as string) as Record<string, string>;
  const read = (rel: string) => fs.readFileSync(path.join(out, rel), 'utf8');
  assert.equal(read(t.files.testPatch), row.test_patch);
  assert.equal(read(t.files.goldPatch as string), row.patch);
  const request = read(t.files.request);
  assert.ok(request.startsWith((row.problem_statement as string).trimEnd()));
  assert.match(request, /\n## Hints\n\nI'd like to reserve this/);
  assert.equal(t.title, 'Engine.render_to_string() should honor the autoescape attribute');
  assert.deepEqual(t.repo, { name: 'django/django', kind: 'image', baseCommit: 'd4df5e1b0b1c643fe0fc521add0236764ec8e92a' });
  assert.equal(t.verifier.command, './tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1 template_tests.test_engine');
  assert.equal(task(dataset, 'mwaskom__seaborn-3069').verifier.command, 'pytest -rA tests/_core/test_plot.py');
  assert.deepEqual(t.source, {
    importer: 'swebench',
    file: INSTANCE_FILES[0],
    line: 1,
    instance_id: 'django__django-11119',
    repo: 'django/django',
    base_commit: 'd4df5e1b0b1c643fe0fc521add0236764ec8e92a',
    version: '3.0',
    created_at: '2019-03-24T21:17:05Z',
    environment_setup_commit: '419a78300f7cd27611196e1e464d50fd0385ff27',
    difficulty: '<15 min fix',
  });
  // CRLF rows: the problem statement's \r\n become \n in request.md, the patches stay byte for byte.
  const astropy = task(dataset, 'astropy__astropy-12907');
  assert.ok(!read(astropy.files.request).includes('\r'));
});

test('attempts per task carry the right models, and their patches are byte-identical to their sources', async () => {
  const { out, dataset } = await importAll();
  const models = (id: string) => task(dataset, id).attempts.map((a) => a.model).sort();
  assert.deepEqual(models('django__django-11119'), [
    'anthropic/claude-haiku-4-5', 'anthropic/claude-sonnet-4-6', 'gemini/gemini-3.1-pro-preview', 'google/gemini-3-pro-preview', 'openai/gpt-5-mini',
  ]);
  assert.deepEqual(models('mwaskom__seaborn-3069'), ['anthropic/claude-haiku-4-5', 'anthropic/claude-sonnet-4-6', 'gemini/gemini-3.1-pro-preview', 'openai/gpt-5-mini']);
  assert.deepEqual(models('astropy__astropy-12907'), ['claude-code/opus', 'composio']);
  assert.deepEqual(models('django__django-11099'), ['blacksmith-ai-engine-v1.1.0']);
  for (const id of ['django__django-16255', 'sympy__sympy-13031', 'pytest-dev__pytest-11143', 'scikit-learn__scikit-learn-13584', 'django__django-15781']) {
    assert.deepEqual(models(id), [], `${id}: its only prediction is gold, equal to the row's patch`);
  }
  const bytes = (rel: string) => fs.readFileSync(path.join(out, rel));
  for (const p of [...predictionLines(path.join(SWE, 'predictions/multi-solver.assembled.jsonl')), ...predictionLines(path.join(SWE, 'predictions/blacksmith_predictions_swebench_v1.1.0.jsonl'))]) {
    const t = dataset.tasks.find((x) => x.id === p.instance_id);
    if (!t) continue;
    const a = attemptByModel(t, p.model_name_or_path);
    assert.ok(bytes(a.patchFile as string).equals(Buffer.from(p.model_patch, 'utf8')), `${p.instance_id} ${p.model_name_or_path}`);
  }
  // The harness copies agree with the predictions (the README checked gpt-5-mini; the others are the same bytes).
  const t11119 = task(dataset, 'django__django-11119');
  const haiku = attemptByModel(t11119, 'anthropic/claude-haiku-4-5');
  assert.ok(bytes(haiku.patchFile as string).equals(fs.readFileSync(path.join(SWE, 'harness_logs/django__django-11119/claude-haiku-4-5/patch.diff'))));
});

test('mini-swe-agent trajectories pair with their predictions: two formats, two models on django-11119', async () => {
  const { out, dataset } = await importAll();
  const t = task(dataset, 'django__django-11119');
  const traj = (dir: string) => path.join(SAMPLES, 'trajectories/mini-swe-agent', dir, 'django__django-11119/django__django-11119.traj.json');
  for (const [model, dir, cost] of [
    ['openai/gpt-5-mini', 'v2.2.4_gpt-5-mini', 0.01050775],
    ['google/gemini-3-pro-preview', 'v1.15.0_gemini-3-pro-preview', 0.31486879999999995],
  ] as const) {
    const a = attemptByModel(t, model);
    assert.equal(a.agent, 'mini-swe-agent');
    assert.equal(a.costUsd, cost);
    assert.equal(a.claimed?.status, 'Submitted');
    assert.ok(a.trajectoryFile, `${model} has a trajectory`);
    assert.ok(fs.readFileSync(path.join(out, a.trajectoryFile)).equals(fs.readFileSync(traj(dir))), `${model}: trajectory copied byte for byte`);
  }
  // Attempts without a trajectory stay attempts of their own.
  assert.equal(attemptByModel(t, 'anthropic/claude-haiku-4-5').trajectoryFile, undefined);
});

test('recorded results carry the verdicts of the harness logs and run reports', async () => {
  const { dataset } = await importAll();
  const results = (id: string, model: string) => attemptByModel(task(dataset, id), model).recordedResults;
  const bySource = (id: string, model: string, source: string) => {
    const r = results(id, model).filter((x) => x.source === source);
    assert.equal(r.length, 1, `${id} ${model}: one ${source} result (has ${results(id, model).map((x) => x.source).join(', ')})`);
    return r[0] as CandidateTask['attempts'][number]['recordedResults'][number];
  };
  for (const r of dataset.tasks.flatMap((t) => t.attempts.flatMap((a) => a.recordedResults))) assert.equal(r.imported, true);

  // seaborn, gpt-5-mini: no report.json; the log says the patch did not apply.
  const gpt = bySource('mwaskom__seaborn-3069', 'openai/gpt-5-mini', 'swebench-harness-log');
  assert.equal(gpt.status, 'error');
  assert.equal(gpt.patchApplied, false);
  assert.equal(gpt.resolved, false);
  assert.match(gpt.file, /mwaskom__seaborn-3069\/gpt-5-mini\/run_instance\.log$/);
  assert.equal(results('mwaskom__seaborn-3069', 'openai/gpt-5-mini').length, 1);

  // seaborn, gemini-3.1: unresolved, F2P 0/2, in its report.json and in its run report.
  const gem = bySource('mwaskom__seaborn-3069', 'gemini/gemini-3.1-pro-preview', 'swebench-report');
  assert.equal(gem.status, 'unresolved');
  assert.deepEqual([gem.failToPass?.success.length, gem.failToPass?.failure.length], [0, 2]);
  assert.equal(gem.passToPass?.success.length, 94);
  assert.equal(bySource('mwaskom__seaborn-3069', 'gemini/gemini-3.1-pro-preview', 'swebench-run-report').status, 'unresolved');

  // haiku and sonnet resolved both tasks, in both kinds of report.
  for (const model of ['anthropic/claude-haiku-4-5', 'anthropic/claude-sonnet-4-6']) {
    for (const id of ['django__django-11119', 'mwaskom__seaborn-3069']) {
      assert.equal(bySource(id, model, 'swebench-report').status, 'resolved');
      assert.equal(bySource(id, model, 'swebench-run-report').status, 'resolved');
    }
  }
  // django-11119: all five resolved; the unwrapped mini-swe-agent report found its attempt by folder name.
  for (const a of task(dataset, 'django__django-11119').attempts) {
    assert.ok(a.recordedResults.length > 0, `${a.model} has a recorded result`);
    for (const r of a.recordedResults) assert.equal(r.status, 'resolved', `${a.model} ${r.source}`);
  }
  assert.match(bySource('django__django-11119', 'google/gemini-3-pro-preview', 'swebench-report').file, /mini-swe-agent-gemini-3-pro-preview\/report\.json$/);

  // astropy: composio unresolved (F2P 0/2, P2P 6 pass 7 fail) in its report and in the older list-keyed run report.
  const comp = bySource('astropy__astropy-12907', 'composio', 'swebench-report');
  assert.equal(comp.status, 'unresolved');
  assert.deepEqual([comp.failToPass?.success.length, comp.failToPass?.failure.length], [0, 2]);
  assert.deepEqual([comp.passToPass?.success.length, comp.passToPass?.failure.length], [6, 7]);
  const compRun = bySource('astropy__astropy-12907', 'composio', 'swebench-run-report');
  assert.deepEqual([compRun.status, compRun.patchApplied], ['unresolved', true]);

  // astropy: Claude Code opus resolved by the custom (non-SWE-bench) harness, whose patches file adds cost and tokens.
  const cc = attemptByModel(task(dataset, 'astropy__astropy-12907'), 'claude-code/opus');
  const ccEval = bySource('astropy__astropy-12907', 'claude-code/opus', 'custom-eval');
  assert.equal(ccEval.status, 'resolved');
  assert.deepEqual([ccEval.failToPass?.success.length, ccEval.passToPass?.success.length], [2, 13]);
  assert.equal(cc.agent, 'claude-code');
  assert.equal(cc.costUsd, 0.3855549999999999);
  assert.deepEqual(cc.tokens, { input: 334689, output: 4193 });
  assert.ok(cc.trajectoryFile, 'the truncated stream-json raw_output is kept as its trajectory');
});

test('what matched nothing is listed with the reason', async () => {
  const { summary } = await importAll();
  const u = (pred: (x: ImportSummary['unmatched'][number]) => boolean) => summary.unmatched.filter(pred);
  for (const id of ['requests__requests-3362', 'requests__requests-1142']) {
    const [p] = u((x) => x.kind === 'prediction' && x.instanceId === id);
    assert.ok(p, `${id} is unmatched`);
    assert.equal(p.model, 'blacksmith-ai-engine-v1.1.0');
    assert.match(p.file, /blacksmith_predictions_swebench_v1\.1\.0\.jsonl$/);
    assert.ok(p.line !== undefined && p.line > 1);
    assert.match(p.reason, /no instance row/);
  }
  assert.equal(u((x) => x.kind === 'prediction' && x.model === 'gold').length, 293);
  assert.ok(u((x) => x.instanceId === 'sqlfluff__sqlfluff-1625').length === 1);
  assert.ok(u((x) => x.instanceId === 'pylint-dev__astroid-1978').length === 1);
  // OpenHands output.jsonl: three ponyc instances without a SWE-bench row.
  assert.deepEqual(
    u((x) => x.kind === 'trajectory' && /output\.jsonl$/.test(x.file)).map((x) => x.instanceId).sort(),
    ['ponylang__ponyc-4588', 'ponylang__ponyc-4593', 'ponylang__ponyc-4595'],
  );
  // The OpenHands CodeAct verdict for astropy has no attempt and no patch beside it.
  const [oh] = u((x) => x.kind === 'report' && /openhands-codeact/.test(x.file));
  assert.ok(oh);
  assert.equal(oh.instanceId, 'astropy__astropy-12907');
  assert.equal(oh.model, 'litellm_proxy/claude-3-5-sonnet-20241022');
  assert.match(oh.reason, /no patch beside/);
  // A run report's verdict for an imported instance that this solver never attempted.
  assert.ok(u((x) => x.kind === 'report' && x.instanceId === 'sympy__sympy-13031' && x.model === 'anthropic/claude-haiku-4-5' && /empty_patch/.test(x.reason)).length === 1);
  // Without --repos every instance is listed: no repository clone.
  const noRepo = u((x) => x.kind === 'instance');
  assert.equal(noRepo.length, 9);
  assert.ok(noRepo.some((x) => x.reason.startsWith('no repository clone for django/django')));
  // Gold predictions equal to the row's patch are skipped, not attempts.
  assert.equal(summary.skipped.length, 7);
  assert.ok(summary.skipped.every((s) => s.model === 'gold'));
});

test("patches with malformed hunks, stray files or test edits are kept and reported", async () => {
  const { summary, dataset } = await importAll();
  const flags = (id: string, model: string) => {
    const t = summary.tasks.find((x) => x.id === id);
    return t?.attempts.find((a) => a.model === model)?.flags ?? [];
  };
  assert.ok(flags('django__django-11099', 'blacksmith-ai-engine-v1.1.0').some((f) => /malformed hunk/.test(f)));
  assert.ok(flags('django__django-11119', 'openai/gpt-5-mini').some((f) => /adds test_render\.py/.test(f)));
  assert.ok(flags('django__django-11119', 'gemini/gemini-3.1-pro-preview').some((f) => /test_engine_autoescape\.py/.test(f)));
  assert.ok(flags('astropy__astropy-12907', 'composio').some((f) => /edits astropy\/modeling\/tests\/test_separable\.py, which the test patch also changes/.test(f)));
  assert.deepEqual(flags('django__django-11119', 'anthropic/claude-haiku-4-5'), []);
  assert.ok(summary.problems.some((p) => p.severity === 'warning' && /blacksmith/.test(p.file) && /malformed hunk/.test(p.message)));
  // The run folder of the mini-swe-agent trajectory names the attempt that the loose gpt-5-mini prediction joined.
  assert.ok(task(dataset, 'django__django-11119').notes.some((n) => /v2\.2\.4-gpt-5-mini \(openai\/gpt-5-mini\).*test_render\.py/.test(n)));
});

test('attempt ids are unique, valid and the same on a second import', async () => {
  const { dataset, summary } = await importAll();
  for (const t of dataset.tasks) {
    const ids = t.attempts.map((a) => a.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.match(id, /^[a-z0-9][a-z0-9._-]*$/);
  }
  const again = await importSwebench(
    {
      instances: INSTANCE_FILES,
      predictions: PREDICTION_FILES,
      trajectories: [path.join(SAMPLES, 'trajectories')],
      reports: [path.join(SWE, 'harness_logs'), path.join(SWE, 'run_reports')],
      out: path.join(tmpDir(), 'again'),
    },
    deps,
  );
  const ids = (s: ImportSummary) => s.tasks.map((t) => [t.id, t.attempts.map((a) => a.id)]);
  assert.deepEqual(ids(again), ids(summary));
});

test('trajectories alone make attempts; their patch is the submission and their run is the folder', async () => {
  const out = path.join(tmpDir(), 'traj-only');
  const s = await importSwebench(
    { instances: [INSTANCE_FILES[0] as string], trajectories: [path.join(SAMPLES, 'trajectories/mini-swe-agent')], out },
    deps,
  );
  assert.equal(s.counts.errors, 0);
  const d = loadDataset(out, { deep: true });
  assert.deepEqual(d.problems.filter((p) => p.severity === 'error'), []);
  const t = task(d, 'django__django-11119');
  assert.deepEqual(t.attempts.map((a) => [a.id, a.model, a.run]), [
    ['v1.15.0-gemini-3-pro-preview', 'google/gemini-3-pro-preview', 'v1.15.0_gemini-3-pro-preview'],
    ['v2.2.4-gpt-5-mini', 'openai/gpt-5-mini', 'v2.2.4_gpt-5-mini'],
  ]);
  const sub = (dir: string) =>
    (JSON.parse(fs.readFileSync(path.join(SAMPLES, 'trajectories/mini-swe-agent', dir, 'django__django-11119/django__django-11119.traj.json'), 'utf8')) as { info: { submission: string } }).info.submission;
  assert.equal(fs.readFileSync(path.join(out, t.attempts[1]?.patchFile as string), 'utf8'), sub('v2.2.4_gpt-5-mini'));
  assert.equal(fs.readFileSync(path.join(out, t.attempts[0]?.patchFile as string), 'utf8'), sub('v1.15.0_gemini-3-pro-preview'));
});

test('an OpenHands output.jsonl line becomes an attempt when a row exists for it, copied out by its byte range', async () => {
  const dir = tmpDir();
  const outputJsonl = path.join(SAMPLES, 'trajectories/openhands/multi-swe-bench_CodeActAgent_llama-4-maverick/output.jsonl');
  const lines = fs.readFileSync(outputJsonl, 'utf8').split('\n').filter((l) => l.trim());
  const second = JSON.parse(lines[1] as string) as { instance_id: string; instance: Record<string, unknown>; test_result: { git_patch: string } };
  // A row for one of the three instances, from the instance record OpenHands embeds.
  const rows = path.join(dir, 'ponyc.jsonl');
  fs.writeFileSync(rows, JSON.stringify({ ...second.instance, test_patch: '', patch: '' }) + '\n');
  const out = path.join(dir, 'out');
  const s = await importSwebench({ instances: [rows], trajectories: [path.dirname(outputJsonl)], out }, deps);
  assert.equal(s.counts.errors, 0);
  const d = loadDataset(out, { deep: true });
  assert.deepEqual(d.problems.filter((p) => p.severity === 'error'), []);
  const t = task(d, second.instance_id);
  assert.equal(t.attempts.length, 1);
  const a = t.attempts[0] as CandidateTask['attempts'][number];
  assert.equal(a.agent, 'openhands');
  assert.equal(fs.readFileSync(path.join(out, a.patchFile as string), 'utf8'), second.test_result.git_patch);
  assert.equal(fs.readFileSync(path.join(out, a.trajectoryFile as string), 'utf8'), lines[1]);
  assert.deepEqual(
    s.unmatched.filter((x) => x.kind === 'trajectory').map((x) => x.instanceId).sort(),
    ['ponylang__ponyc-4588', 'ponylang__ponyc-4595'],
  );
});
