// Generating a task's gold mutants from the dataset (no containers): base files from the clone at the base commit,
// the cap, and each bad input refused with a message naming what is wrong. And the verifier's probe request: a probe
// patch runs only as the gold probe.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { VerifierService, VerifyRequestError } from '../../../src/adapters/docker/verifyService';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import { ProbeError, generateMutants, mutantsReportPath } from '../../../src/app/probes';
import type { CandidateTask } from '../../../src/core/model';
import { EXAMPLES, buildExampleRepo } from '../helpers/exampleRuns';
import { tmpDir } from '../helpers/tmp';

function copy(): string {
  const top = tmpDir('sw-probe-');
  fs.cpSync(path.join(EXAMPLES, 'dataset'), path.join(top, 'ds'), { recursive: true });
  fs.cpSync(buildExampleRepo(), path.join(top, 'repos', 'durations'), { recursive: true });
  return path.join(top, 'ds');
}

function taskOf(root: string, id = 'format-precision'): CandidateTask {
  const t = loadDataset(root).tasks.find((x) => x.id === id);
  assert.ok(t, id);
  return t;
}

test('format-precision: 14 mutants of its two files, checked against the clone; --mutants 3 keeps 3 and says 14', async () => {
  const root = copy();
  const all = await generateMutants(root, taskOf(root), 100);
  assert.equal(all.generated, 14);
  assert.deepEqual([...new Set(all.mutants.map((m) => m.file))].sort(), ['durations/cli.py', 'durations/format.py']);
  assert.deepEqual(all.skipped, []);
  assert.ok(all.gold.equals(fs.readFileSync(path.join(root, 'tasks/format-precision/gold.patch'))));
  const three = await generateMutants(root, taskOf(root), 3);
  assert.equal(three.generated, 14);
  assert.deepEqual(three.mutants.map((m) => m.operator), ['comparison', 'off-by-one', 'term-off-by-one']);
  assert.ok(three.mutants.some((m) => m.after.includes('step // 2 + 1')));
});

test('no gold patch, a gold patch symlinked out of the dataset, a base commit the clone lacks: refused, naming it', async () => {
  const root = copy();
  const task = taskOf(root);
  await assert.rejects(generateMutants(root, { ...task, files: { ...task.files, goldPatch: undefined } }, 5), (e: unknown) => e instanceof ProbeError && /has no gold patch/.test(e.message));
  const gold = path.join(root, 'tasks/format-precision/gold.patch');
  fs.rmSync(gold);
  fs.symlinkSync('/etc/hostname', gold);
  await assert.rejects(generateMutants(root, task, 5), (e: unknown) => e instanceof ProbeError && /cannot read its gold patch tasks\/format-precision\/gold\.patch/.test(e.message));
  const other = copy();
  const t2 = taskOf(other);
  const lost = { ...t2, repo: { ...t2.repo, baseCommit: 'f'.repeat(40) } } as CandidateTask;
  await assert.rejects(generateMutants(other, lost, 5), (e: unknown) => e instanceof ProbeError && /cannot read durations\/cli\.py at the base commit: commit ffffffffffff is not in the clone/.test(e.message));
});

test('a task id that cannot name a folder under probes/ is refused', () => {
  assert.equal(mutantsReportPath('format-precision'), 'probes/format-precision/mutants.json');
  for (const bad of ['../x', 'a/b', '.hidden', '']) assert.throws(() => mutantsReportPath(bad), ProbeError, bad);
});

test('a probe patch runs in place of the gold patch, and only as the gold probe', () => {
  const root = copy();
  const task = taskOf(root);
  const service = new VerifierService({ datasetRoot: root, engine: { host: 'unix:///nonexistent.sock' } });
  const patch = Buffer.from('diff --git a/x b/x\n');
  assert.ok(service.readPatches({ task, attemptId: 'gold', probe: { id: 'm1', patch } }).attemptPatch.equals(patch));
  assert.throws(() => service.readPatches({ task, attemptId: task.attempts[0]!.id, probe: { id: 'm1', patch } }), VerifyRequestError);
});
