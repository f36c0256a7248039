// The importer on small hand-made inputs: a row file with BOM, CRLF, a bad line and no final newline; run folders
// in the SWE-agent and mini-swe-agent layouts (two runs of the same model); SWE-bench's log layout; an OpenHands log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importSwebench } from '../../../src/app/importSwebench';
import type { ImportDeps, ImportOptions } from '../../../src/app/importSwebench';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import { listTrajectoryInstances } from '../../../src/adapters/fs/trajectoryReader';
import type { CandidateTask } from '../../../src/core/model';
import { tmpDir } from '../helpers/tmp';

const FX = path.resolve(__dirname, '../../fixtures/import');
const ROWS = path.join(FX, 'instances-crlf-bom.jsonl');
const deps: ImportDeps = { listTrajectoryInstances: (p) => listTrajectoryInstances(p) };

async function run(opts: Omit<ImportOptions, 'out'> & { out?: string }, d: ImportDeps = deps) {
  const out = opts.out ?? path.join(tmpDir(), 'out');
  const summary = await importSwebench({ ...opts, out }, d);
  return { out, summary, dataset: loadDataset(out, { deep: true }) };
}

const task = (tasks: CandidateTask[], id: string) => {
  const t = tasks.find((x) => x.id === id);
  assert.ok(t, `task ${id}`);
  return t;
};

test('a bad JSONL row is reported with its line and skipped; BOM, CRLF and a missing final newline are fine', async () => {
  const { summary, dataset } = await run({ instances: [ROWS] });
  const errors = summary.problems.filter((p) => p.severity === 'error');
  assert.equal(errors.length, 1);
  assert.deepEqual([errors[0]?.file, errors[0]?.line], [ROWS, 2]);
  assert.match(errors[0]?.message ?? '', /malformed JSON.*skipped/);
  assert.deepEqual(dataset.tasks.map((t) => t.id), ['acme__gadgets-2', 'acme__widgets-1']);
  assert.deepEqual(dataset.problems.filter((p) => p.severity === 'error'), []);
  // The BOM is not part of the first row; its list-encoded and the second row's string-encoded tests both read.
  const w = task(dataset.tasks, 'acme__widgets-1');
  assert.deepEqual(w.tests.map((t) => [t.id, t.name, t.kind]), [
    ['T1', 'tests/test_w.py::test_new', 'fail_to_pass'],
    ['T2', 'tests/test_w.py::test_old', 'pass_to_pass'],
    ['T3', 'tests/test_w.py::test_param[a b', 'pass_to_pass'],
  ]);
  assert.deepEqual(task(dataset.tasks, 'acme__gadgets-2').tests.map((t) => t.name), ['tests/test_g.py::test_g']);
  assert.equal(summary.tasks.find((t) => t.id === 'acme__gadgets-2')?.from.line, 3);
  assert.equal(fs.readFileSync(path.join(path.dirname(dataset.root), 'out', w.files.request), 'utf8'), 'Widgets break\nwhen x is 1.\n\n## Hints\n\nLook at core.py\n');
});

test('run folders pair predictions with trajectories; two runs of one model stay two attempts', async () => {
  const { summary, dataset, out } = await run({ instances: [ROWS], trajectories: [path.join(FX, 'runs')] });
  assert.equal(summary.counts.errors, 1); // the bad row only
  const w = task(dataset.tasks, 'acme__widgets-1');
  assert.deepEqual(
    w.attempts.map((a) => [a.id, a.model, a.agent, a.run]),
    // Each run is named after its folder; the model comes from the trajectory (or, for SWE-agent, model_name_or_path).
    [
      ['mini-run-a', 'openai/gpt-x', 'mini-swe-agent', 'mini-run-a'],
      ['mini-run-b', 'openai/gpt-x', 'mini-swe-agent', 'mini-run-b'],
      ['swe-agent-run', 'default__gpt-z__t-0.00', 'swe-agent', 'swe-agent-run'],
    ],
  );
  const read = (rel: string | undefined) => fs.readFileSync(path.join(out, rel as string), 'utf8');
  assert.match(read(w.attempts[0]?.patchFile), /\+x = 2/);
  assert.match(read(w.attempts[1]?.patchFile), /\+x = 3/);
  // SWE-agent: preds.json and <id>.pred say the same; one attempt, its trajectory found by file name.
  const swe = w.attempts[2] as CandidateTask['attempts'][number];
  assert.equal(swe.costUsd, 0.75);
  assert.deepEqual(swe.tokens, { input: 1000, output: 50 });
  assert.equal(swe.claimed?.status, 'submitted');
  assert.ok(fs.readFileSync(path.join(out, swe.trajectoryFile as string)).equals(fs.readFileSync(path.join(FX, 'runs/swe-agent-run/acme__widgets-1/acme__widgets-1.traj'))));
  assert.equal(path.basename(swe.trajectoryFile as string), 'trajectory.traj');
  // A trajectory without a prediction: its patch is the submission, its run the folder name.
  const g = task(dataset.tasks, 'acme__gadgets-2');
  assert.deepEqual(g.attempts.map((a) => [a.id, a.model, a.run]), [['mini-run-c', 'openai/gpt-y', 'mini-run-c']]);
  assert.match(read(g.attempts[0]?.patchFile), /y = 2 {2}# fixed/);
  assert.ok(summary.tasks[0]?.attempts.some((a) => a.flags.some((f) => /adds scratch\.py/.test(f))));
});

test('a prediction file alone makes attempts; gold predictions equal to the row patch are skipped', async () => {
  const dir = tmpDir();
  const rows = fs.readFileSync(ROWS, 'utf8').replace(/^\ufeff/, '').split(/\r\n/);
  const widgets = JSON.parse(rows[0] as string) as { patch: string };
  const preds = path.join(dir, 'preds.jsonl');
  fs.writeFileSync(
    preds,
    [
      { instance_id: 'acme__widgets-1', model_name_or_path: 'gold', model_patch: widgets.patch },
      { instance_id: 'acme__widgets-1', model_name_or_path: 'm/one', model_patch: 'diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1 +1 @@\n-a\n+b\n' },
      { instance_id: 'acme__widgets-1', model_name_or_path: 'm/two', model_patch: null },
      { instance_id: 'nobody__nothing-1', model_name_or_path: 'm/one', model_patch: '' },
    ].map((x) => JSON.stringify(x)).join('\n'),
  );
  const { summary, dataset } = await run({ instances: [ROWS], predictions: [preds] });
  const w = task(dataset.tasks, 'acme__widgets-1');
  assert.deepEqual(w.attempts.map((a) => [a.id, a.model]), [['m-one', 'm/one'], ['m-two', 'm/two']]);
  assert.deepEqual(summary.skipped.map((s) => [s.instanceId, s.model, s.line]), [['acme__widgets-1', 'gold', 1]]);
  assert.deepEqual(summary.unmatched.filter((u) => u.kind === 'prediction').map((u) => [u.instanceId, u.line]), [['nobody__nothing-1', 4]]);
  assert.ok(summary.tasks[0]?.attempts.find((a) => a.model === 'm/two')?.flags.includes('the patch is empty'));
});

test('reports find their attempts by model folder, patch, log and metadata; the rest is listed', async () => {
  const { summary, dataset } = await run({ instances: [ROWS], trajectories: [path.join(FX, 'runs')], reports: [path.join(FX, 'reports')] });
  const w = task(dataset.tasks, 'acme__widgets-1');
  const rr = (id: string) => w.attempts.find((a) => a.id === id)?.recordedResults ?? [];
  // Two runs of openai/gpt-x: the report's patch.diff says which one it graded.
  assert.deepEqual(rr('mini-run-a'), []);
  assert.deepEqual(rr('mini-run-b').map((r) => [r.source, r.status]), [['swebench-report', 'resolved']]);
  // No report.json, and the log says the patch did not apply.
  assert.deepEqual(rr('swe-agent-run').map((r) => [r.source, r.status, r.patchApplied]), [['swebench-harness-log', 'error', false]]);
  // A report of a solver with no attempt, with its patch.diff beside it, makes an attempt of its own.
  const made = w.attempts.find((a) => a.model === 'someone/else');
  assert.ok(made);
  assert.equal(made.id, 'someone-else');
  assert.deepEqual(made.recordedResults.map((r) => [r.source, r.status]), [['swebench-report', 'unresolved']]);
  // The Python-repr report of an OpenHands log, found by the model its metadata.json names.
  const g = task(dataset.tasks, 'acme__gadgets-2');
  assert.deepEqual(g.attempts[0]?.recordedResults.map((r) => [r.source, r.status, r.failToPass?.success]), [['openhands-log', 'resolved', ['tests/test_g.py::test_g']]]);
  // A run report for a model with two runs cannot say which: listed, not guessed.
  const amb = summary.unmatched.find((u) => u.kind === 'report' && /old_run/.test(u.file) && u.instanceId === 'acme__widgets-1');
  assert.match(amb?.reason ?? '', /ambiguous/);
  assert.deepEqual(summary.unmatched.find((u) => u.kind === 'report' && u.instanceIds)?.instanceIds, ['other__repo-9']);
  assert.ok(summary.ignored.some((i) => /notes\.json$/.test(i.file)));
  assert.ok(summary.problems.some((p) => /run_instance\.log$/.test(p.file) && /Hunk #1 FAILED/.test(p.message)));
  assert.deepEqual(dataset.problems.filter((p) => p.severity === 'error'), []);
});

test('--repos finds clones in the three layouts; repo.path is relative inside the dataset, absolute outside', async () => {
  const dir = tmpDir();
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'pipe', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } }).toString().trim();
  const clone = (p: string) => {
    fs.mkdirSync(p, { recursive: true });
    git(p, 'init', '-q');
    fs.writeFileSync(path.join(p, 'f'), 'x');
    git(p, 'add', 'f');
    git(p, 'commit', '-q', '-m', 'c');
    return git(p, 'rev-parse', 'HEAD');
  };
  const out = path.join(dir, 'ds');
  const head = clone(path.join(out, 'repos', 'acme__widgets')); // inside the dataset: relative path
  const rows = path.join(dir, 'rows.jsonl');
  const row = (id: string, repo: string, base: string) =>
    JSON.stringify({ instance_id: id, repo, base_commit: base, problem_statement: 'p', FAIL_TO_PASS: ['t'], PASS_TO_PASS: [], test_patch: '', patch: '' });
  const outside = path.join(dir, 'clones');
  const head2 = clone(path.join(outside, 'acme', 'gadgets'));
  clone(path.join(outside, 'tools'));
  fs.mkdirSync(path.join(out, 'repos', 'nothing'), { recursive: true });
  fs.writeFileSync(
    rows,
    [row('acme__widgets-1', 'acme/widgets', head), row('acme__gadgets-2', 'acme/gadgets', head2), row('acme__tools-3', 'acme/tools', '0'.repeat(40)), row('acme__none-4', 'acme/none', head)].join('\n'),
  );
  // The dataset folder exists (it holds the clone) but has no manifest yet: --out must be new, empty or a dataset.
  const refused = await run({ instances: [rows], out });
  assert.match(refused.summary.problems[0]?.message ?? '', /neither empty nor a SpecWeave dataset/);
  fs.writeFileSync(path.join(out, 'specweave.json'), JSON.stringify({ format: 1, name: 'mine', defaults: { workdir: '/w' } }));

  const s1 = await importSwebench({ instances: [rows], repos: path.join(out, 'repos'), out }, deps);
  const s2 = await importSwebench({ instances: [rows], repos: outside, out, replace: true }, deps);
  const d = loadDataset(out, { deep: true });
  assert.equal(d.manifest.name, 'mine', 'an existing manifest is kept');
  assert.deepEqual(s1.tasks.find((t) => t.id === 'acme__widgets-1')?.repo, { name: 'acme/widgets', kind: 'git', path: 'repos/acme__widgets', baseCommit: head });
  assert.deepEqual(s2.tasks.find((t) => t.id === 'acme__gadgets-2')?.repo, { name: 'acme/gadgets', kind: 'git', path: path.join(outside, 'acme', 'gadgets'), baseCommit: head2 });
  // DIR/<name>, and a base commit the clone does not have: imported, with a warning.
  assert.equal(s2.tasks.find((t) => t.id === 'acme__tools-3')?.repo.path, path.join(outside, 'tools'));
  assert.ok(s2.problems.some((p) => /acme__tools-3: the clone .* lacks base commit 0{40}/.test(p.message)));
  const none = s2.unmatched.find((u) => u.instanceId === 'acme__none-4');
  assert.match(none?.reason ?? '', /^no repository clone for acme\/none \(looked for acme__none, acme\/none, none under /);
  assert.deepEqual(task(d.tasks, 'acme__none-4').repo, { name: 'acme/none', kind: 'image', baseCommit: head });
  // The second import replaced the first (--replace); without it an existing task folder is kept.
  assert.deepEqual(s2.tasks.map((t) => t.status), ['replaced', 'replaced', 'replaced', 'replaced']);
  const s3 = await importSwebench({ instances: [rows], out }, deps);
  assert.deepEqual(s3.tasks.map((t) => t.status), ['kept', 'kept', 'kept', 'kept']);
  assert.equal(task(loadDataset(out).tasks, 'acme__gadgets-2').repo.kind, 'git', 'kept as it was');
  assert.deepEqual(d.problems.filter((p) => p.severity === 'error'), []);
});

test('--image placeholders, SWE-smith image_name, --test-cmd with {tests} and SWE-rebench test_cmd', async () => {
  const dir = tmpDir();
  const tp = 'diff --git a/tests/test_a.py b/tests/test_a.py\n--- a/tests/test_a.py\n+++ b/tests/test_a.py\n@@ -1 +1,2 @@\n x\n+y\n';
  const rows = path.join(dir, 'rows.json');
  fs.writeFileSync(
    rows,
    JSON.stringify([
      { instance_id: 'acme__w-1', repo: 'acme/w', base_commit: 'abc1234', problem_statement: 'p', test_patch: tp, patch: '', FAIL_TO_PASS: ['tests/test_a.py::t'], PASS_TO_PASS: [] },
      {
        instance_id: 'acme__w.abc123.func_pm__x1',
        repo: 'swesmith/acme__w.abc123',
        patch: 'diff --git a/w.py b/w.py\n--- a/w.py\n+++ b/w.py\n@@ -1 +1 @@\n-good\n+bad\n',
        FAIL_TO_PASS: ['tests/test_a.py::t'],
        PASS_TO_PASS: ['tests/test_a.py::u'],
        image_name: 'jyangballin/swesmith.x86_64.acme_1776_w.abc123',
        problem_statement: 'w is bad',
      },
      {
        instance_id: 'acme__r-2', repo: 'acme/r', base_commit: 'abc1234', problem_statement: 'p', test_patch: tp, patch: '',
        FAIL_TO_PASS: '["tests/test_a.py::t"]', PASS_TO_PASS: '[]', install_config: { python: '3.11', test_cmd: 'pytest --no-header -rA -p no:cacheprovider' },
      },
    ]),
  );
  const a = await run({ instances: [rows], image: 'reg.example/{swebench_id}:{owner}-{name}' });
  const t = (id: string) => task(a.dataset.tasks, id);
  assert.equal(t('acme__w-1').environment.image, 'reg.example/acme_1776_w-1:acme-w');
  assert.equal(t('acme__w-1').verifier.command, 'pytest -rA tests/test_a.py');
  assert.equal(t('acme__r-2').verifier.command, 'pytest --no-header -rA -p no:cacheprovider tests/test_a.py');
  const smith = t('acme__w.abc123.func_pm__x1');
  assert.equal(smith.files.goldPatch, undefined, "SWE-smith's patch introduces the bug: it is no gold patch");
  assert.match((smith.source as { bug_patch: string }).bug_patch, /\+bad/);
  assert.deepEqual(smith.repo, { name: 'swesmith/acme__w.abc123', kind: 'image', baseCommit: 'acme__w.abc123.func_pm__x1' });
  const b = await run({ instances: [rows], testCmd: 'python -m pytest -x {tests} -q' });
  assert.equal(task(b.dataset.tasks, 'acme__w-1').verifier.command, 'python -m pytest -x tests/test_a.py -q');
  assert.equal(task(b.dataset.tasks, 'acme__w.abc123.func_pm__x1').environment.image, 'jyangballin/swesmith.x86_64.acme_1776_w.abc123');
  assert.deepEqual(b.dataset.problems.filter((p) => p.severity === 'error'), []);
});

test('unreadable or unknown inputs are errors naming the file; nothing is written without rows', async () => {
  const dir = tmpDir();
  const out = path.join(dir, 'out');
  const yaml = path.join(FX, 'not-json.yaml');
  const none = await importSwebench({ instances: [yaml, path.join(dir, 'missing.jsonl')], out }, deps);
  assert.ok(none.problems.some((p) => p.file === yaml && /unknown file shape/.test(p.message)));
  assert.ok(none.problems.some((p) => /missing\.jsonl$/.test(p.file) && /cannot read/.test(p.message)));
  assert.ok(none.problems.some((p) => /no instance row could be read; nothing was written/.test(p.message)));
  assert.equal(fs.existsSync(out), false);
  const bad = await importSwebench({ instances: [ROWS], predictions: [yaml], trajectories: [path.join(dir, 'nope')], out }, deps);
  assert.ok(bad.problems.some((p) => p.file === yaml && p.severity === 'error' && /unknown file shape/.test(p.message)));
  assert.ok(bad.problems.some((p) => /nope$/.test(p.file) && /no such file or folder/.test(p.message)));
  assert.equal(bad.counts.tasks, 2, 'the good inputs are still imported');
});
