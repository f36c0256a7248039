// The example dataset through the real verifier: every run's failing tests and every spec verdict match the
// hand-written ground truth, and its false positive, false negative, weak test and uncovered spec show up.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../../src/adapters/docker/engine';
import type { TaskVerification, VerifyRequest } from '../../../src/adapters/docker/verifyService';
import { VerifierService } from '../../../src/adapters/docker/verifyService';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import { isFailure, isSuccess } from '../../../src/core/verify/grading';
import type { VerifierRunRecord } from '../../../src/core/verify/runResult';
import { assertNoOwnedContainers, requireEngine } from './engineGuard';

const EXAMPLES = path.resolve(__dirname, '../../../examples');

interface Truth {
  tasks: Record<
    string,
    {
      runs: Record<string, { failingTests: string[] }>;
      attempts: Record<string, { outcome: string; resolved: boolean; specs: Record<string, { verifier: string }> }>;
    }
  >;
  falsePositives: { task: string; attempt: string; specs: string[] }[];
  falseNegatives: { task: string; attempt: string; specs: string[] }[];
  uncoveredSpecs: { task: string; spec: string }[];
  weakTests: { task: string; test: string }[];
}

let engine: Engine;
let truth: Truth;
let results: Map<string, TaskVerification>;
let tmp: string | undefined;

before(async () => {
  engine = await requireEngine();
  execFileSync('sh', [path.join(EXAMPLES, 'build-repos.sh')], { stdio: 'ignore' });
  truth = JSON.parse(fs.readFileSync(path.join(EXAMPLES, 'ground-truth.json'), 'utf8')) as Truth;
  // A copy, so the runs are not stored in the repository; its tasks point at the example clone.
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-example-'));
  const root = path.join(tmp, 'dataset');
  fs.cpSync(path.join(EXAMPLES, 'dataset'), root, { recursive: true });
  const repo = path.join(EXAMPLES, 'repos', 'durations');
  for (const t of fs.readdirSync(path.join(root, 'tasks'))) {
    const f = path.join(root, 'tasks', t, 'task.json');
    const json = JSON.parse(fs.readFileSync(f, 'utf8')) as { repo: { path: string } };
    json.repo.path = repo;
    fs.writeFileSync(f, JSON.stringify(json));
  }
  const dataset = loadDataset(root);
  assert.deepEqual(dataset.problems.filter((p) => p.severity === 'error'), []);
  const requests: VerifyRequest[] = dataset.tasks.flatMap((task) =>
    [...task.attempts.map((a) => a.id), 'gold', 'empty'].map((attemptId) => ({ task, attemptId, force: true })),
  );
  const service = new VerifierService({ datasetRoot: root, engine, concurrency: 2 });
  const out = await service.verifyAll(requests);
  assert.deepEqual(out.skipped, []);
  results = new Map(out.tasks.map((t) => [t.task.id, t]));
});

after(async () => {
  if (engine) await assertNoOwnedContainers(engine);
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test('every run fails exactly the tests the ground truth says', () => {
  for (const [taskId, t] of Object.entries(truth.tasks)) {
    const tv: TaskVerification | undefined = results.get(taskId);
    assert.ok(tv, `no results for ${taskId}`);
    for (const [attemptId, expected] of Object.entries(t.runs)) {
      const run: VerifierRunRecord | undefined = tv.runs.find((r) => r.attemptId === attemptId);
      assert.ok(run, `no run ${taskId}/${attemptId}`);
      assert.ok(run.status === 'passed' || run.status === 'failed', `${taskId}/${attemptId}: ${run.status} ${run.reason}`);
      const failing: string[] = tv.task.tests.filter((x) => !isSuccess(run.grade.tests[x.name])).map((x) => x.id);
      assert.deepEqual(failing.sort(), [...expected.failingTests].sort(), `${taskId}/${attemptId}`);
      assert.ok(tv.task.tests.every((x) => isSuccess(run.grade.tests[x.name]) || isFailure(run.grade.tests[x.name])), 'nothing missing');
    }
  }
});

test('every spec verdict matches the ground truth, false positive and false negative included', () => {
  for (const [taskId, t] of Object.entries(truth.tasks)) {
    const tv = results.get(taskId) as TaskVerification;
    for (const [attemptId, a] of Object.entries(t.attempts)) {
      const run = tv.runs.find((r) => r.attemptId === attemptId);
      assert.ok(run);
      assert.equal(run.resolved, a.resolved, `${taskId}/${attemptId} resolved`);
      const expected = Object.fromEntries(Object.entries(a.specs).map(([s, v]) => [s, v.verifier]));
      assert.deepEqual(run.specs, expected, `${taskId}/${attemptId} spec verdicts`);
    }
  }
  // The false positive: the verifier says resolved, and passes the violated spec.
  for (const fp of truth.falsePositives) {
    const run = results.get(fp.task)?.runs.find((r) => r.attemptId === fp.attempt);
    assert.equal(run?.status, 'passed');
    for (const s of fp.specs) assert.equal(run?.specs[s], 'pass');
  }
  // The false negative: the verifier fails the attempt on specs it satisfies, while the gold patch passes.
  for (const fn of truth.falseNegatives) {
    const tv = results.get(fn.task) as TaskVerification;
    assert.equal(tv.runs.find((r) => r.attemptId === fn.attempt)?.status, 'failed');
    for (const s of fn.specs) assert.equal(tv.runs.find((r) => r.attemptId === fn.attempt)?.specs[s], 'fail');
    assert.equal(tv.runs.find((r) => r.attemptId === 'gold')?.status, 'passed');
  }
});

test('the oracle probes flag the weak test and the uncovered spec', () => {
  for (const w of truth.weakTests) {
    const tv = results.get(w.task) as TaskVerification;
    const name = tv.task.tests.find((x) => x.id === w.test)?.name;
    assert.ok(tv.report.task.some((f) => f.kind === 'empty_passes_fail_to_pass' && f.test === name), `weak test ${w.test} not flagged`);
  }
  for (const u of truth.uncoveredSpecs) {
    assert.ok(results.get(u.task)?.report.task.some((f) => f.kind === 'spec_without_test' && f.spec === u.spec));
  }
  // Resolved attempts of the task with the weak test are suspect: their verdict leans on a test that sees nothing.
  const fp = truth.falsePositives[0] as { task: string; attempt: string };
  assert.ok(results.get(fp.task)?.report.attempts[fp.attempt]?.some((f) => f.kind === 'attempt_suspect_false_positive'));
});
