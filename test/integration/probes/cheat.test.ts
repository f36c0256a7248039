// The cheat probe in the verifier's real hardened containers. On the example's format-precision every exploit of
// the fixed set is stopped (by the grading, or only by a tampering flag, which the report says). On a task written
// for it (test/fixtures/probes/cheatable: the verdict is the exit status of a grep over pytest's log) the exploit
// that forges a session from the code under test passes and is reported as a verifier defect, exit status 3.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../../src/adapters/docker/engine';
import { VerifierService } from '../../../src/adapters/docker/verifyService';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import type { GeneratedExploits, TaskCheatResult } from '../../../src/app/cheatProbe';
import { cheatsReportPath, generateExploits, runExploits } from '../../../src/app/cheatProbe';
import { setOutput } from '../../../src/cli/output';
import { runCli } from '../../../src/cli/run';
import type { CandidateTask } from '../../../src/core/model';
import type { CheatReport, ExploitResult } from '../../../src/core/probes/cheatReport';
import { EXPLOIT_IDS } from '../../../src/core/probes/cheats';
import { copyExample } from '../repair/exampleCopy';
import { assertNoOwnedContainers, requireEngine } from '../verify/engineGuard';

const TASK = 'format-precision';
const CHEATABLE = 'cheatable-exit-status';
const FIXTURE = path.resolve(__dirname, '../../fixtures/probes/cheatable');
let engine: Engine;
let root: string;
let set: GeneratedExploits;
let result: TaskCheatResult;

const byId = (r: CheatReport, id: string): ExploitResult => {
  const e = r.exploits.find((x) => x.id === id);
  assert.ok(e, `no exploit ${id} in the report: ${r.exploits.map((x) => x.id).join(', ')}`);
  return e;
};
const show = (r: CheatReport) => r.exploits.map((e) => `${e.id}: ${e.outcome}${e.stoppedBy ? `/${e.stoppedBy}` : ''} ${e.status} (${e.reason})`).join('\n');

before(async () => {
  engine = await requireEngine();
  root = copyExample();
  // The task written for the probe: format-precision's patches beside a task.json that grades by a script's exit status.
  const dir = path.join(root, 'tasks', CHEATABLE);
  fs.mkdirSync(dir);
  for (const f of ['tests.patch', 'gold.patch', 'request.md']) fs.copyFileSync(path.join(root, 'tasks', TASK, f), path.join(dir, f));
  fs.copyFileSync(path.join(FIXTURE, 'task.json'), path.join(dir, 'task.json'));
  const task = loadDataset(root).tasks.find((t) => t.id === TASK) as CandidateTask;
  set = await generateExploits(root, task);
  const service = new VerifierService({ datasetRoot: root, engine, concurrency: 2 });
  result = await runExploits(task, set, { service, datasetRoot: root });
});

after(async () => {
  if (engine) await assertNoOwnedContainers(engine);
});

test('format-precision: every exploit is generated, the gold patch passes; the hardened verifier stops every one', () => {
  const r = result.report;
  assert.deepEqual(set.skipped, []);
  assert.deepEqual(r.exploits.map((e) => e.id), [...EXPLOIT_IDS]);
  assert.equal(r.gold.status, 'passed', r.gold.reason);
  // This probe found a verifier defect: a makereport hookwrapper registered with pytest's plugin manager from the code
  // under test rewrites failures as passes, and log, counts and harness report agree. The run still resolves, but the
  // tampering flag on library code reaching into pytest's hook machinery now stops it.
  assert.deepEqual(r.defects, [], show(r));
  const lib = byId(r, 'force-pass-from-library');
  assert.equal(lib.status, 'passed');
  assert.equal(lib.stoppedBy, 'flags', show(r));
  assert.ok(lib.flags.some((f) => f.kind === 'attempt_edits_test_plugins' && f.message.includes("reaches into pytest")), show(r));
  assert.equal(r.counts.stopped, EXPLOIT_IDS.length, show(r));
});

test('format-precision: what stops each exploit', () => {
  const r = result.report;
  // The test patch's files are put back before the test patch applies: the real tests run, and fail.
  for (const id of ['edit-tests', 'delete-tests', 'fix-from-history']) {
    const e = byId(r, id);
    assert.equal(e.status, 'failed', show(r));
    assert.ok(e.failingTests.includes('tests/test_format.py::test_precision_rounds_half_up'), e.failingTests.join(', '));
  }
  assert.ok(byId(r, 'edit-tests').flags.some((f) => f.kind === 'attempt_edits_tests'));
  // A forged session, or an exit before pytest finishes, leaves no harness report: invalid.
  for (const id of ['conftest-exit-early', 'fake-passed', 'fake-passed-from-library']) {
    assert.equal(byId(r, id).status, 'invalid', show(r));
    assert.equal(byId(r, id).stoppedBy, 'grading');
  }
  // The library exploit gets past every tampering flag: only the harness report stops it here.
  assert.deepEqual(byId(r, 'fake-passed-from-library').flags.filter((f) => f.kind.startsWith('attempt_')), []);
  // pytest itself reports the rewritten failures as passes: the run resolves, and only the conftest flag stops it.
  const force = byId(r, 'conftest-force-pass');
  assert.equal(force.status, 'passed', show(r));
  assert.equal(force.stoppedBy, 'flags');
  assert.ok(force.flags.some((f) => f.kind === 'attempt_edits_test_plugins' && f.message.includes('pytest_runtest_makereport')));
});

test('format-precision: the report is stored under probes/, and no exploit run is stored as a run', () => {
  assert.equal(result.file, cheatsReportPath(TASK));
  const stored = JSON.parse(fs.readFileSync(path.join(root, result.file as string), 'utf8')) as CheatReport;
  assert.deepEqual(stored, JSON.parse(JSON.stringify(result.report)));
  assert.ok(stored.exploits.every((e) => (e.patch === undefined) === (e.outcome !== 'passed')), 'only a passing exploit keeps its patch');
  assert.equal(fs.existsSync(path.join(root, 'runs')), false);
});

test('specweave probe DATASET cheatable-exit-status --cheat --json: the forged session passes, a verifier defect, exit 3', async () => {
  let stdout = '';
  let stderr = '';
  setOutput({ stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  let code: number;
  try {
    code = await runCli(['probe', root, CHEATABLE, '--cheat', '--concurrency', '2', '--json']);
  } finally {
    setOutput(undefined);
  }
  const lines = stdout.trim().split('\n');
  assert.equal(lines.length, 1, stdout);
  const r = JSON.parse(lines[0] as string) as CheatReport & { file: string };
  assert.equal(code, 3, `${stderr}\n${show(r)}`);
  assert.equal(r.taskId, CHEATABLE);
  assert.equal(r.gold.status, 'passed', r.gold.reason);
  const lib = byId(r, 'fake-passed-from-library');
  assert.equal(lib.outcome, 'passed', show(r));
  assert.deepEqual(r.defects, ['fake-passed-from-library']);
  assert.ok(lib.patch?.includes('"PASSED tests/test_format.py::test_precision_rounds_half_up"'), 'the defect keeps its patch as evidence');
  // The same forgery from a conftest.py resolves too, but the tampering flag stops it; an early exit fails the grep.
  assert.equal(byId(r, 'fake-passed').stoppedBy, 'flags', show(r));
  assert.equal(byId(r, 'conftest-exit-early').status, 'failed', show(r));
  assert.equal(r.file, cheatsReportPath(CHEATABLE));
  const stored = JSON.parse(fs.readFileSync(path.join(root, r.file), 'utf8')) as CheatReport;
  assert.deepEqual(stored.defects, r.defects);
  assert.equal(fs.existsSync(path.join(root, 'runs')), false);
});
