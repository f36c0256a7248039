// Grading what real runs print (issue 9, items 18 and 20), against the real engine: SWE-bench-style commands under
// `set -x` (markers traced on stderr, results on stdout), and a short test summary far larger than what the capture
// keeps for display.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../../src/adapters/docker/engine';
import { listOwned } from '../../../src/adapters/docker/sweep';
import { VerifierService } from '../../../src/adapters/docker/verifyService';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import type { CandidateTask } from '../../../src/core/model';
import { ADD_TEST_FILE, FIXED_CALC, buildDataset } from '../../fixtures/verify/dataset';
import type { BuiltDataset } from '../../fixtures/verify/dataset';
import { requireEngine } from './engineGuard';

const KEEP = 8 * 1024;
const MANY = 1200;
const manyId = (i: number) => `tests/test_many.py::test_with_a_rather_long_descriptive_name[case-${String(i).padStart(5, '0')}]`;
const MANY_TESTS = `import pytest


@pytest.mark.parametrize("case", ["case-%05d" % i for i in range(${MANY})])
def test_with_a_rather_long_descriptive_name(case):
    assert case.startswith("case-")
`;

let engine: Engine;
let ds: BuiltDataset;
let tasks: Map<string, CandidateTask>;
let service: VerifierService;

before(async () => {
  engine = await requireEngine();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-grading-it-'));
  ds = buildDataset(root, [
    {
      id: 'setx',
      // SWE-bench's eval scripts: markers as traced no-op commands (stderr), results from pytest (stdout).
      command: "set -x; : '>>>>> Start Test Output'; python3 -m pytest -rA -p no:cacheprovider tests; : '>>>>> End Test Output'",
      attempts: [{ id: 'good', files: { 'calc.py': FIXED_CALC } }],
    },
    {
      id: 'many',
      timeoutSec: 180,
      command: 'python3 -m pytest -rA -p no:cacheprovider tests',
      testFiles: { 'tests/test_calc.py': ADD_TEST_FILE, 'tests/test_many.py': MANY_TESTS },
      tests: [
        { id: 'T1', name: 'tests/test_calc.py::test_add', kind: 'fail_to_pass', specs: ['S1'] },
        { id: 'M0', name: manyId(0), kind: 'pass_to_pass' },
        { id: 'M1', name: manyId(613), kind: 'pass_to_pass' },
        { id: 'M2', name: manyId(MANY - 1), kind: 'pass_to_pass' },
      ],
      attempts: [{ id: 'good', files: { 'calc.py': FIXED_CALC } }],
    },
  ]);
  const dataset = loadDataset(root);
  assert.deepEqual(dataset.problems.filter((p) => p.severity === 'error'), []);
  tasks = new Map(dataset.tasks.map((t) => [t.id, t]));
  service = new VerifierService({ datasetRoot: root, engine, concurrency: 1, keepBytes: KEEP });
});

after(async () => {
  // Only this process's containers: other suites may be running on the same engine.
  if (engine) {
    const mine = (await listOwned(engine)).filter((c) => c.labels['specweave.pid'] === String(process.pid));
    assert.deepEqual(mine.map((c) => `${c.id.slice(0, 12)} ${c.labels['specweave.task']}/${c.labels['specweave.attempt']}`), []);
  }
  if (ds) fs.rmSync(ds.root, { recursive: true, force: true });
});

const task = (id: string) => tasks.get(id) as CandidateTask;

test('an eval script under set -x (markers on stderr, results on stdout) is graded from its results', async () => {
  const r = await service.verify({ task: task('setx'), attemptId: 'good', force: true });
  assert.equal(r.status, 'passed', r.reason);
  assert.deepEqual(r.grade.tests, { 'tests/test_calc.py::test_add': 'PASSED', 'tests/test_calc.py::test_mul': 'PASSED' });
  assert.doesNotMatch(r.reason, /whole output was read/, 'read in write order, the markers surround the results');
});

test('a short test summary larger than the kept head and tail: every result graded, none invented at the cut', async () => {
  const r = await service.verify({ task: task('many'), attemptId: 'good', force: true });
  assert.equal(r.status, 'passed', r.reason);
  assert.ok(r.stdout.cutBytes > 4 * KEEP, `the capture cut ${r.stdout.cutBytes} bytes of ${r.stdout.totalBytes}`);
  assert.deepEqual(r.grade.passToPass.success, [manyId(0), manyId(613), manyId(MANY - 1)]);
  const reported = Object.keys(r.reported);
  assert.equal(reported.length, MANY + 2);
  const fake = reported.filter((k) => !/^tests\/test_(calc\.py::test_(add|mul)|many\.py::test_with_a_rather_long_descriptive_name\[case-\d{5}\])$/.test(k));
  assert.deepEqual(fake, []);
});
