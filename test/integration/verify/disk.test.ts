// A run's writable space is bounded (`limits.diskMb`): a test flooding the disk is stopped and the outcome says the
// disk limit was exceeded (the judge makes that `disk_limit`); an ordinary run is not. Against the real engine, with
// a small limit so the floods are quick.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../../src/adapters/docker/engine';
import { VerifierService } from '../../../src/adapters/docker/verifyService';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import type { CandidateTask } from '../../../src/core/model';
import type { ExecutionOutcome } from '../../../src/core/verify/judge';
import { ADD_TEST_FILE, FIXED_CALC, buildDataset } from '../../fixtures/verify/dataset';
import type { BuiltDataset } from '../../fixtures/verify/dataset';
import { assertNoOwnedContainers, requireEngine } from './engineGuard';

const LIMIT_MB = 64;
// Many files, none large: no per-file limit stops this, only the total does. Says so if it ever finishes.
const FILES_PY = `import os
os.makedirs("flood", exist_ok=True)
block = os.urandom(1024 * 1024)
for i in range(64):
    with open(f"flood/{i}", "wb") as f:
        for _ in range(32):
            f.write(block)
print("WROTE-2-GIB", flush=True)
`;

let engine: Engine;
let ds: BuiltDataset;
let tasks: Map<string, CandidateTask>;
const outcomes = new Map<string, ExecutionOutcome>();
let service: VerifierService;
const task = (id: string) => tasks.get(id) as CandidateTask;

before(async () => {
  engine = await requireEngine();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-disk-it-'));
  const limits = { diskMb: LIMIT_MB };
  const good = [{ id: 'good', files: { 'calc.py': FIXED_CALC } }];
  ds = buildDataset(root, [
    { id: 'files', limits, command: 'python3 flood.py; python3 -m pytest -rA tests', testFiles: { 'tests/test_calc.py': ADD_TEST_FILE, 'flood.py': FILES_PY }, attempts: good },
    { id: 'onefile', limits, command: 'dd if=/dev/zero of=/tmp/big bs=1M count=1024 2>&1; python3 -m pytest -rA tests', attempts: good },
    { id: 'calm', limits, command: 'dd if=/dev/zero of=/tmp/some bs=1M count=8 2>&1; python3 -m pytest -rA tests', attempts: good },
  ]);
  const dataset = loadDataset(root);
  assert.deepEqual(dataset.problems.filter((p) => p.severity === 'error'), []);
  tasks = new Map(dataset.tasks.map((t) => [t.id, t]));
  service = new VerifierService({ datasetRoot: root, engine, concurrency: 1, onOutcome: (req, o) => outcomes.set(req.task.id, o) });
});

after(async () => {
  if (engine) await assertNoOwnedContainers(engine);
  if (ds) fs.rmSync(ds.root, { recursive: true, force: true });
});

test('a test writing many files past the limit is stopped, and the outcome says the disk limit was exceeded', async () => {
  assert.equal(task('files').environment.limits.diskMb, LIMIT_MB);
  const r = await service.verify({ task: task('files'), attemptId: 'good', force: true });
  const o = outcomes.get('files');
  assert.equal(o?.diskLimitExceeded, true, r.reason);
  assert.doesNotMatch(o.stdoutText, /WROTE-2-GIB/, 'the flood was stopped before it finished');
  assert.equal(o.timedOut, false);
  assert.notEqual(r.status, 'passed');
});

test('one file written past the limit is cut at the limit, and the outcome says so', async () => {
  const r = await service.verify({ task: task('onefile'), attemptId: 'good', force: true });
  const o = outcomes.get('onefile');
  assert.equal(o?.diskLimitExceeded, true, r.reason);
  assert.doesNotMatch(o.stdoutText, /1073741824 bytes/, 'dd did not write its gigabyte');
});

test('a run writing less than the limit is not flagged', async () => {
  const r = await service.verify({ task: task('calm'), attemptId: 'good', force: true });
  assert.equal(r.status, 'passed', r.reason);
  assert.equal(outcomes.get('calm')?.diskLimitExceeded, false);
});
