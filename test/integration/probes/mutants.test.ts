// Gold mutants of the example dataset's known false positive (format-precision: an attempt rounding halves to even
// passes its tests) run in the verifier's real hardened containers: some survive, each survivor's diff is in the
// stored report, a mutant that does not apply is counted as such (never as killed), and the report has per-spec
// counts. Nothing is stored under runs/: a mutant is never an attempt.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../../src/adapters/docker/engine';
import { VerifierService } from '../../../src/adapters/docker/verifyService';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import type { TaskProbeResult } from '../../../src/app/probes';
import { readProbePatch, readProbesView } from '../../../src/app/probeReports';
import { generateMutants, mutantsReportPath, runMutants } from '../../../src/app/probes';
import type { CandidateTask } from '../../../src/core/model';
import type { MutationReport } from '../../../src/core/probes/mutantReport';
import type { Mutant } from '../../../src/core/probes/mutants';
import { setOutput } from '../../../src/cli/output';
import { runCli } from '../../../src/cli/run';
import { copyExample } from '../repair/exampleCopy';
import { assertNoOwnedContainers, requireEngine } from '../verify/engineGuard';

const TASK = 'format-precision';
let engine: Engine;
let root: string;
let task: CandidateTask;
let generated: Mutant[];
let result: TaskProbeResult;
let broken: Mutant;

before(async () => {
  engine = await requireEngine();
  root = copyExample();
  const dataset = loadDataset(root);
  task = dataset.tasks.find((t) => t.id === TASK) as CandidateTask;
  assert.ok(task, `no task ${TASK}`);
  const set = await generateMutants(root, task, 100);
  generated = set.mutants;
  // A mutant written against other code (it removes an import line the base does not have): it cannot apply.
  const first = generated[0] as Mutant;
  assert.ok(first.patch.includes('-from .parse import parse_duration\n'));
  broken = { ...first, id: 'handmade-0000000000', patch: first.patch.replace('-from .parse import parse_duration\n', '-from .parse import parse_seconds\n') };
  const service = new VerifierService({ datasetRoot: root, engine, concurrency: 2 });
  result = await runMutants(task, set, [...generated, broken], { service, datasetRoot: root });
});

after(async () => {
  if (engine) await assertNoOwnedContainers(engine);
});

test('the gold patch passes, and every generated mutant of it got a verdict (killed or survived)', () => {
  const r = result.report;
  assert.equal(r.gold.status, 'passed', r.gold.reason);
  assert.equal(r.ran, generated.length + 1);
  assert.ok(generated.length >= 10, `only ${generated.length} mutants`);
  const bad = r.mutants.filter((m) => m.id !== broken.id && m.outcome !== 'killed' && m.outcome !== 'survived');
  assert.deepEqual(bad.map((m) => `${m.id} ${m.outcome} ${m.status}: ${m.reason}`), []);
  assert.equal(r.counts.killed + r.counts.survived, generated.length);
  assert.equal(r.score, r.counts.killed / generated.length);
});

test('at least one gold mutant survives, and its diff is in the stored report', () => {
  const r = result.report;
  const survivors = r.mutants.filter((m) => m.outcome === 'survived');
  assert.ok(survivors.length >= 1, `no survivor: ${r.mutants.map((m) => `${m.operator} ${m.after.trim()} ${m.outcome}`).join('; ')}`);
  // Dropping the guard that stops the loop at the precision unit survives: the tests never see a part smaller than
  // the unit, because the rounded total has none.
  const guard = survivors.find((m) => m.operator === 'guard-drop' && m.before.trim() === 'if size < step:');
  assert.ok(guard, `survivors: ${survivors.map((m) => `${m.operator} ${m.before.trim()} -> ${m.after.trim()}`).join('; ')}`);
  assert.ok(result.file, 'the report was stored');
  assert.equal(result.file, mutantsReportPath(TASK));
  const stored = JSON.parse(fs.readFileSync(path.join(root, result.file), 'utf8')) as MutationReport;
  assert.deepEqual(stored, JSON.parse(JSON.stringify(r)));
  const kept = stored.mutants.find((m) => m.id === guard.id);
  assert.ok(kept?.patch?.includes('+        if False:\n'), 'the survivor keeps its mutated diff');
  assert.ok(stored.mutants.filter((m) => m.outcome === 'killed').every((m) => m.patch === undefined && m.failingTests.length > 0));
});

test("the stored report backs a false-positive finding on A2 (the half-even attempt's spec) with the survivors, as the task view reads it", () => {
  // What the review grid shows beside the review agent's A2 finding on the half-even attempt (reviewAgent.test.ts
  // records that finding): the surviving mutants, read back from probes/format-precision/mutants.json.
  const view = readProbesView(root, task);
  const a2 = view.support?.find((s) => s.spec === 'A2');
  const survivors = result.report.mutants.filter((m) => m.outcome === 'survived').map((m) => m.id);
  assert.deepEqual(a2?.falsePositive.map((i) => [i.report, i.id, i.scope, i.hasPatch]), survivors.slice(0, 8).map((id) => ['mutants', id, 'task', true]));
  assert.deepEqual(a2?.falseNegative, [], 'no alternatives report: nothing backs a false negative');
  const guard = a2?.falsePositive.find((i) => /guard-drop at durations\/format\.py:\d+$/.test(i.text));
  assert.ok(guard, JSON.stringify(a2?.falsePositive.map((i) => i.text)));
  const patch = readProbePatch(root, TASK, 'mutants', guard.id);
  assert.ok('patch' in patch && patch.patch.includes('+        if False:\n'), 'its diff opens from the report');
});

test('a mutant that does not apply is counted as did_not_apply, never as killed', () => {
  const m = result.report.mutants.find((x) => x.id === broken.id);
  assert.equal(m?.outcome, 'did_not_apply', `${m?.status}: ${m?.reason}`);
  assert.equal(result.report.counts.did_not_apply, 1);
});

test('the report names per-spec counts: the halves-up spec A2 kills mutants, every spec is counted over the graded ones', () => {
  const r = result.report;
  assert.deepEqual(r.specs.map((s) => s.spec), task.specs.map((s) => s.id));
  const graded = r.counts.killed + r.counts.survived;
  for (const s of r.specs) assert.equal(s.killed + s.survived, graded, s.spec);
  const a2 = r.specs.find((s) => s.spec === 'A2');
  assert.ok(a2 && a2.killed > 0, JSON.stringify(a2));
  const killedForA2 = r.mutants.filter((m) => m.killedForSpecs.includes('A2'));
  assert.ok(killedForA2.some((m) => m.after.includes('step // 2 - 1')), 'rounding halves down is caught by the 90 s case');
});

test('no mutant run is stored as a run or an attempt', () => {
  assert.equal(fs.existsSync(path.join(root, 'runs')), false);
});

test('specweave probe DATASET TASK --mutants 3: an operator-diverse pick of three, one JSON report per task, stored', async () => {
  let stdout = '';
  let stderr = '';
  setOutput({ stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  let code: number;
  try {
    code = await runCli(['probe', root, TASK, '--mutants', '3', '--concurrency', '2', '--json']);
  } finally {
    setOutput(undefined);
  }
  assert.equal(code, 0, stderr);
  const lines = stdout.trim().split('\n');
  assert.equal(lines.length, 1);
  const r = JSON.parse(lines[0] as string) as MutationReport & { file: string };
  assert.equal(r.taskId, TASK);
  assert.equal(r.ran, 3);
  assert.equal(r.generated, generated.length);
  assert.equal(new Set(r.mutants.map((m) => m.operator)).size, 3);
  assert.equal(r.counts.killed + r.counts.survived, 3);
  assert.equal(r.file, mutantsReportPath(TASK));
  const stored = JSON.parse(fs.readFileSync(path.join(root, r.file), 'utf8')) as MutationReport;
  assert.deepEqual(stored.mutants.map((m) => m.id), r.mutants.map((m) => m.id));
  assert.equal(fs.existsSync(path.join(root, 'runs')), false);
});
