// The planted-defect suite against real containers: a false positive planted in a copy of the example dataset's
// format-precision (the only assertion of its unknown-unit test dropped: `with pytest.raises(ValueError, ...)`) is
// caught by the gold mutants, as a mutant the original's test killed that survives on the copy, and scored by the
// recall function from what is stored on disk. Few container runs: two mutants on each of the two tasks.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../../src/adapters/docker/engine';
import { VerifierService } from '../../../src/adapters/docker/verifyService';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import { plantDataset, plantedCopyId, scorePlantedDataset } from '../../../src/app/plantedSuite';
import type { TaskProbeResult } from '../../../src/app/probes';
import { generateMutants, runMutants } from '../../../src/app/probes';
import type { CandidateTask } from '../../../src/core/model';
import type { PlantedTruth } from '../../../src/core/probes/plant';
import { tmpDir } from '../../unit/helpers/tmp';
import { copyExample } from '../repair/exampleCopy';
import { assertNoOwnedContainers, requireEngine } from '../verify/engineGuard';

const TASK = 'format-precision';
const COPY = plantedCopyId(TASK, 'false_positive');
const UNKNOWN_UNIT = 'tests/test_format.py::test_precision_unknown_unit';
let engine: Engine;
let out: string;
let truth: PlantedTruth;
const results = new Map<string, TaskProbeResult>();
let weakened: string;

before(async () => {
  engine = await requireEngine();
  const root = copyExample();
  out = path.join(tmpDir('sw-planted-'), 'planted');
  truth = plantDataset(root, out, { tasks: [TASK], kinds: ['false_positive'], fpTests: { [TASK]: UNKNOWN_UNIT } });
  const ds = loadDataset(out);
  const service = new VerifierService({ datasetRoot: out, engine, concurrency: 2 });
  for (const id of [TASK, COPY]) {
    const task = ds.tasks.find((t) => t.id === id) as CandidateTask;
    assert.ok(task, `no task ${id} in the planted dataset`);
    const set = await generateMutants(out, task, 100);
    // The mutant only the dropped assertion kills (no check of the precision: "w" raises KeyError, not ValueError;
    // the CLI's argparse choices stop "w" before), and one the rounding tests kill (90 s at minute precision is 2m).
    const only = set.mutants.find((m) => m.operator === 'guard-drop' && m.before.trim() === 'if precision not in UNITS:');
    const other = set.mutants.find((m) => m.operator === 'off-by-one' && m.after.includes('step // 3'));
    assert.ok(only && other, `mutants: ${set.mutants.map((m) => `${m.operator} ${m.after.trim()}`).join('; ')}`);
    weakened = only.id;
    results.set(id, await runMutants(task, set, [only, other], { service, datasetRoot: out }));
  }
});

after(async () => {
  if (engine) await assertNoOwnedContainers(engine);
});

test('the planted copy lets through a mutant the original kills, and the other still dies', () => {
  const base = results.get(TASK)?.report;
  const copy = results.get(COPY)?.report;
  assert.ok(base && copy);
  assert.equal(base.gold.status, 'passed', base.gold.reason);
  assert.equal(copy.gold.status, 'passed', copy.gold.reason);
  const outcome = (r: typeof base, id: string) => r.mutants.find((m) => m.id === id);
  const planted = truth.planted[0];
  assert.ok(planted);
  assert.equal(outcome(base, weakened)?.outcome, 'killed');
  assert.deepEqual(outcome(base, weakened)?.failingTests, [planted.test]);
  assert.equal(outcome(copy, weakened)?.outcome, 'survived');
  assert.ok(copy.counts.survived > base.counts.survived, `survivors: copy ${copy.counts.survived}, original ${base.counts.survived}`);
  const other = copy.mutants.find((m) => m.id !== weakened);
  assert.equal(other?.outcome, 'killed');
});

test('the recall function scores the planted FP as caught by the probes, from the stored reports', () => {
  const { score } = scorePlantedDataset(out);
  assert.deepEqual(score.detections.map((d) => [d.copy, d.probes, d.survivors, d.agent]), [[COPY, 'caught', [weakened], 'not_run']]);
  assert.deepEqual(score.probes.false_positive, { caught: 1, missed: 0, notRun: 0, recall: 1 });
});
