// The bundled example dataset (examples/) loads cleanly, has the shape every later feature relies on, and its
// ground truth is consistent with it. That every patch really does what the ground truth says is checked by running
// them: test/integration/exampleDataset.test.ts (host python3 -m pytest, and the specweave-base image).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadDataset } from '../../src/adapters/fs/datasetLoader';
import { readTrajectory } from '../../src/adapters/fs/trajectoryReader';
import { KNOWN_SPEC_CATEGORIES } from '../../src/core/model';
import type { Dataset } from '../../src/core/model';
import { DATASET, EXAMPLES, buildExampleRepo, readGroundTruth } from './helpers/exampleRuns';

const load = (): Dataset => loadDataset(DATASET, { deep: true });
const truth = readGroundTruth();

test('the example dataset loads with no problem: 3 tasks, 6-12 specs and 2-4 attempts each', () => {
  const d = load();
  assert.deepEqual(d.problems, []);
  assert.equal(d.manifest.guidelines, 'GUIDELINES.md');
  assert.ok(fs.existsSync(path.join(DATASET, 'GUIDELINES.md')));
  assert.deepEqual(d.tasks.map((t) => t.id), ['format-precision', 'fractional-units', 'total-command']);
  for (const t of d.tasks) {
    assert.ok(t.specs.length >= 6 && t.specs.length <= 12, `${t.id}: ${t.specs.length} specs`);
    assert.ok(t.attempts.length >= 2 && t.attempts.length <= 4, `${t.id}: ${t.attempts.length} attempts`);
    assert.equal(t.environment.image, 'specweave-base:bookworm');
    assert.equal(t.environment.workdir, '/repo');
    assert.equal(t.environment.timeoutSec, 120);
    assert.equal(t.repo.kind, 'git');
    assert.equal(t.repo.baseCommit, truth.repository.baseCommit);
    assert.match(t.verifier.command, /^python3 -m pytest -rA /);
    assert.ok(t.files.goldPatch, `${t.id} has a gold patch`);
    for (const s of t.specs) assert.ok((KNOWN_SPEC_CATEGORIES as readonly string[]).includes(s.category), `${t.id}/${s.id}: ${s.category}`);
    assert.ok(t.specs.some((s) => s.dependsOn.length > 0), `${t.id}: specs interact through dependsOn`);
    for (const a of t.attempts) {
      assert.ok(a.model && a.agent && a.costUsd !== undefined && a.tokens?.input && a.tokens.output && a.claimed?.status, `${t.id}/${a.id} metadata`);
      assert.ok(a.trajectoryFile && fs.existsSync(path.join(DATASET, a.trajectoryFile)), `${t.id}/${a.id} trajectory`);
    }
  }
  const categories = new Set(d.tasks.flatMap((t) => t.specs.map((s) => s.category)));
  assert.ok(categories.size >= 7, `specs span the taxonomy: ${[...categories].join(', ')}`);
});

test('each request states its specs in prose, and spec ids are explained where the UI can find them', () => {
  for (const t of load().tasks) {
    const request = fs.readFileSync(path.join(DATASET, t.files.request), 'utf8');
    const flat = (s: string) => s.replace(/[`*]/g, '').replace(/\s+/g, ' ').toLowerCase();
    for (const s of t.specs) {
      // Every spec's text comes from the request, so a view can highlight where it is asked for.
      const firstWords = flat(s.text).split(' ').slice(0, 5).join(' ');
      assert.ok(flat(request).includes(firstWords), `${t.id}/${s.id}: "${firstWords}" is in request.md`);
    }
  }
});

test('tests map to specs many-to-many, and exactly one spec in the dataset has no covering test', () => {
  const uncovered: string[] = [];
  for (const t of load().tasks) {
    assert.ok(t.tests.some((x) => x.kind === 'fail_to_pass') && t.tests.some((x) => x.kind === 'pass_to_pass'));
    assert.ok(t.tests.some((x) => x.specs.length >= 2), `${t.id}: a test covers several specs`);
    const coverage = new Map(t.specs.map((s) => [s.id, t.tests.filter((x) => x.specs.includes(s.id)).length]));
    assert.ok([...coverage.values()].some((n) => n >= 2), `${t.id}: a spec is covered by several tests`);
    for (const [id, n] of coverage) if (n === 0) uncovered.push(`${t.id}/${id}`);
  }
  assert.deepEqual(uncovered, ['fractional-units/C7']);
  assert.deepEqual(truth.uncoveredSpecs, [{ task: 'fractional-units', spec: 'C7' }]);
});

test('trajectories come in at least three formats, each one read by the trajectory adapters, and tell the attempt', async () => {
  const formats = new Set<string>();
  for (const t of load().tasks) {
    for (const a of t.attempts) {
      const file = path.join(DATASET, a.trajectoryFile as string);
      const r = await readTrajectory(file, { fileLabel: a.trajectoryFile as string });
      assert.ok(r.ok, `${a.trajectoryFile}: ${r.ok ? '' : r.problem.message}`);
      assert.deepEqual(r.problems, [], `${a.trajectoryFile} reads without problems`);
      const { summary, steps } = r.trajectory;
      formats.add(summary.format);
      assert.equal(summary.format, truth.tasks[t.id]!.attempts[a.id]!.format);
      const patch = fs.readFileSync(path.join(DATASET, a.patchFile as string), 'utf8');
      // The attempt's patch is what the agent submitted: in the submission where the format records one, else the
      // output of the agent's final `git diff`.
      if (summary.submission !== undefined) assert.equal(summary.submission, patch, `${a.id}: submission is patch.diff`);
      else assert.ok(steps.some((s) => s.kind === 'tool_result' && s.text.trim() === patch.trim()), `${a.id}: a git diff step shows patch.diff`);
      // The story: files were read, edited (derivably, for each file the patch touches), tests were run.
      const touched = [...patch.matchAll(/^\+\+\+ b\/(.+)$/gm)].map((m) => m[1]!);
      const edited = new Set(steps.flatMap((s) => (s.edits ?? []).map((e) => e.path.replace(/^\/repo\//, ''))));
      assert.ok(touched.some((f) => edited.has(f)), `${a.id}: an edit of ${touched.join(', ')} is derivable (got ${[...edited].join(', ')})`);
      assert.ok(steps.some((s) => /pytest/.test(s.text) || (s.toolCalls ?? []).some((c) => c.arguments.includes('pytest'))), `${a.id}: runs the tests`);
      assert.ok(steps.filter((s) => s.kind === 'tool_call').length >= 4, `${a.id}: several tool calls`);
    }
  }
  assert.ok(formats.size >= 3, `formats: ${[...formats].join(', ')}`);
  assert.deepEqual([...formats].sort(), ['claude-code', 'mini-swe-agent', 'openhands-eval', 'openhands-events', 'swe-agent']);
});

test('ground-truth.json refers only to tasks, attempts, specs and tests that exist, and names one FP and one FN', () => {
  const d = load();
  const runsOf = (id: string) => new Set(['gold', 'empty', ...d.tasks.find((t) => t.id === id)!.attempts.map((a) => a.id)]);
  assert.deepEqual(Object.keys(truth.tasks).sort(), d.tasks.map((t) => t.id));
  for (const t of d.tasks) {
    const gt = truth.tasks[t.id]!;
    const specIds = new Set(t.specs.map((s) => s.id));
    const testIds = new Set(t.tests.map((x) => x.id));
    assert.deepEqual(Object.keys(gt.runs).sort(), [...runsOf(t.id)].sort(), `${t.id}: a run for gold, empty and each attempt`);
    for (const [run, r] of Object.entries(gt.runs)) for (const x of r.failingTests) assert.ok(testIds.has(x), `${t.id}/${run}: test ${x}`);
    assert.deepEqual(Object.keys(gt.attempts).sort(), t.attempts.map((a) => a.id));
    for (const [aid, a] of Object.entries(gt.attempts)) {
      assert.deepEqual(Object.keys(a.specs).sort(), [...specIds].sort(), `${t.id}/${aid}: a verdict for every spec`);
      for (const x of a.responsibleTests) assert.ok(testIds.has(x), `${t.id}/${aid}: responsible test ${x}`);
      assert.equal(a.resolved, gt.runs[aid]!.failingTests.length === 0);
    }
    for (const p of gt.probes) {
      assert.ok(specIds.has(p.spec), `${t.id}: probe spec ${p.spec}`);
      for (const r of [...p.passes, ...p.fails]) assert.ok(runsOf(t.id).has(r), `${t.id}: probe run ${r}`);
    }
    // The F2P tests the empty patch passes are exactly the weak tests the ground truth names.
    const f2p = t.tests.filter((x) => x.kind === 'fail_to_pass').map((x) => x.id);
    const weak = truth.weakTests.filter((w) => w.task === t.id).map((w) => w.test);
    assert.deepEqual(f2p.filter((x) => !gt.runs.empty!.failingTests.includes(x)).sort(), weak.sort(), `${t.id}: weak tests`);
    assert.deepEqual(gt.runs.gold!.failingTests, [], `${t.id}: gold passes`);
  }
  assert.deepEqual(truth.falsePositives.map((x) => [x.task, x.attempt, x.specs, x.tests]), [['format-precision', 'sweagent-gpt-4o', ['A2'], ['TA1']]]);
  assert.deepEqual(truth.falseNegatives.map((x) => [x.task, x.attempt, x.specs, x.tests]), [['total-command', 'claude-code-sonnet-4-5', ['B4', 'B5'], ['TB3']]]);
  assert.deepEqual(truth.weakTests.map((w) => [w.task, w.test]), [['format-precision', 'TA7']]);
  // Attempt-level: the FP is resolved with a violated spec, the FN unresolved with none; every other attempt is
  // what it looks like.
  for (const [tid, gt] of Object.entries(truth.tasks)) {
    for (const [aid, a] of Object.entries(gt.attempts)) {
      const violated = Object.values(a.specs).some((s) => s.truth === 'violated');
      const expected = a.resolved ? (violated ? 'false_positive' : 'true_pass') : violated ? 'true_fail' : 'false_negative';
      assert.equal(a.outcome, expected, `${tid}/${aid}`);
      for (const [sid, s] of Object.entries(a.specs)) {
        assert.ok(s.outcome !== 'false_negative' || a.outcome === 'false_negative', `${tid}/${aid}/${sid}: no stray false negative`);
        assert.ok(s.outcome !== 'false_positive' || a.outcome === 'false_positive', `${tid}/${aid}/${sid}: no stray false positive`);
      }
    }
  }
});

test('the repository builds deterministically at the recorded base commit, and the build is idempotent', () => {
  const repo = buildExampleRepo();
  const head = fs.readFileSync(path.join(repo, '.git', 'HEAD'), 'utf8');
  assert.match(head, /refs\/heads\/main/);
  const again = buildExampleRepo();
  assert.equal(again, repo);
  assert.ok(fs.readFileSync(path.join(EXAMPLES, 'build-repos.sh'), 'utf8').includes('GIT_COMMITTER_DATE'));
});
