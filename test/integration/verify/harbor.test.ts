// A Harbor task imported and verified in real containers: the environment is built from the task's Dockerfile, the
// tests are unpacked to /tests, the gold probe runs solution/solve.sh first, and the reward the tests write decides.
// A reward planted in the image, or left as a symlink, never counts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../../src/adapters/docker/engine';
import { VerifierService } from '../../../src/adapters/docker/verifyService';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import { importHarbor } from '../../../src/app/importHarbor';
import { readRunLog } from '../../../src/adapters/fs/runStore';
import { listTrajectoryInstances } from '../../../src/adapters/fs/trajectoryReader';
import type { CandidateTask } from '../../../src/core/model';
import { tmpDir } from '../../unit/helpers/tmp';
import { assertNoOwnedContainers, requireEngine } from './engineGuard';

const FX = path.resolve(__dirname, '../../fixtures/import/harbor');
let engine: Engine;
let root: string;
let service: VerifierService;
const task = (id: string): CandidateTask => {
  const t = loadDataset(root).tasks.find((x) => x.id === id);
  assert.ok(t, id);
  return t;
};

before(async () => {
  engine = await requireEngine();
  const src = tmpDir();
  fs.cpSync(path.join(FX, 'tasks/count-fix'), path.join(src, 'count-fix'), { recursive: true });
  // Hostile variants: the image plants a reward of 1 and the tests write none; the tests leave a symlink as reward.
  const planted = path.join(src, 'planted');
  fs.cpSync(path.join(src, 'count-fix'), planted, { recursive: true });
  fs.writeFileSync(path.join(planted, 'task.toml'), fs.readFileSync(path.join(planted, 'task.toml'), 'utf8').replace('terminal-bench/count-fix', 'terminal-bench/planted'));
  fs.appendFileSync(path.join(planted, 'environment/Dockerfile'), 'RUN mkdir -p /logs/verifier && echo 1 > /logs/verifier/reward.txt\n');
  fs.writeFileSync(path.join(planted, 'tests/test.sh'), '#!/bin/bash\necho "tests that write no reward"\nexit 0\n');
  const linked = path.join(src, 'linked');
  fs.cpSync(path.join(src, 'count-fix'), linked, { recursive: true });
  fs.writeFileSync(path.join(linked, 'task.toml'), fs.readFileSync(path.join(linked, 'task.toml'), 'utf8').replace('terminal-bench/count-fix', 'terminal-bench/linked'));
  fs.writeFileSync(path.join(linked, 'tests/test.sh'), '#!/bin/bash\necho 1 > /tmp/one\nln -sf /tmp/one /logs/verifier/reward.txt\n');
  root = path.join(tmpDir(), 'ds');
  const s = await importHarbor({ taskDirs: [src], jobs: [path.join(FX, 'jobs')], out: root }, { listTrajectoryInstances: (p) => listTrajectoryInstances(p) });
  assert.deepEqual(s.problems.filter((p) => p.severity === 'error'), []);
  assert.deepEqual(s.tasks.map((t) => t.id), ['count-fix', 'linked', 'planted']);
  service = new VerifierService({ datasetRoot: root, engine, concurrency: 2 });
});

after(async () => {
  if (engine) await assertNoOwnedContainers(engine);
});

test('the gold probe runs solve.sh and then the tests: reward 1, resolved; the empty probe gets reward 0', async () => {
  const t = task('count-fix');
  const [gold, empty] = await Promise.all([service.verify({ task: t, attemptId: 'gold' }), service.verify({ task: t, attemptId: 'empty' })]);
  assert.equal(gold.status, 'passed', gold.reason);
  assert.equal(gold.resolved, true);
  assert.equal(gold.testsFrom, 'reward');
  assert.deepEqual(gold.grade.tests, { reward: 'PASSED' });
  assert.deepEqual(gold.apply, { test: { method: 'unpacked' }, attempt: { method: 'unpacked' } });
  assert.match(gold.reason, /^reward 1 from \/logs\/verifier\/reward\.txt/);
  const log = readRunLog(root, gold, 'stdout');
  assert.match(log, /\[specweave\] the gold probe runs first: bash \/solution\/solve\.sh\n\[specweave\] that step exited with code 0/);
  assert.match(log, /2 passed/);

  assert.equal(empty.status, 'failed', empty.reason);
  assert.deepEqual(empty.grade.tests, { reward: 'FAILED' });
  assert.deepEqual(empty.apply, { test: { method: 'unpacked' }, attempt: { method: 'empty' } });
  assert.match(empty.reason, /^reward 0 from /);
  assert.match(readRunLog(root, empty, 'stdout'), /FAILED .*test_count_includes_n/);
});

test('an imported Harbor attempt has no patch: it runs the unchanged environment, its recorded reward stays beside it', async () => {
  const t = task('count-fix');
  const a = t.attempts.find((x) => x.id === 'claude-code-claude-sonnet-4-5');
  assert.deepEqual(a?.recordedResults.map((r) => r.status), ['resolved']);
  const run = await service.verify({ task: t, attemptId: 'claude-code-claude-sonnet-4-5' });
  assert.equal(run.status, 'failed', run.reason);
  assert.deepEqual(run.apply.attempt, { method: 'empty' });
});

test('a reward planted in the image, or left as a symlink, is not the tests\' reward: the run is invalid', async () => {
  const [planted, linked] = await Promise.all([
    service.verify({ task: task('planted'), attemptId: 'gold' }),
    service.verify({ task: task('linked'), attemptId: 'gold' }),
  ]);
  assert.equal(planted.status, 'invalid', planted.reason);
  assert.match(planted.reason, /the tests wrote no reward/);
  assert.equal(linked.status, 'invalid', linked.reason);
  assert.match(linked.reason, /the tests wrote no reward/);
});
