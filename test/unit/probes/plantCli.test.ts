// `specweave plant`: copies of the example dataset's tasks with planted defects and the ground truth beside them, a
// copy that loads as a dataset whose repository is the original's; refusals (a non-empty --out, an unknown task, a
// planted.json that is not what plant writes) name the thing; `--score` without probe or agent runs says "not run".
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { loadDataset, repoPath } from '../../../src/adapters/fs/datasetLoader';
import type { PlantedScore, PlantedTruth } from '../../../src/core/probes/plant';
import { tmpDir } from '../helpers/tmp';

type Result = { code: number; out: string; err: string };
const runner = path.join(__dirname, '..', 'review', 'cliRunner.ts');
function runAll(...batches: string[][]): Result[] {
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', runner, JSON.stringify(batches)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })) as Result[];
}
const EXAMPLE = path.resolve(__dirname, '../../../examples/dataset');

describe('specweave plant', () => {
  it('plants an FP and an FN where it can, writes the ground truth, and the copies load against the same repository', () => {
    const out = path.join(tmpDir(), 'planted');
    const [json, again, score] = runAll(['plant', EXAMPLE, '--out', out, '--json'], ['plant', EXAMPLE, '--out', out], ['plant', '--score', out]) as Result[];
    assert.equal(json?.code, 0, json?.err);
    const truth = JSON.parse(json?.out ?? '') as PlantedTruth;
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(out, 'planted.json'), 'utf8')), truth);
    assert.deepEqual(
      truth.planted.map((d) => [d.copy, d.baseline, d.kind, d.test]),
      [
        ['format-precision--fp', 'format-precision', 'false_positive', 'tests/test_format.py::test_precision_rounds_half_up'],
        ['format-precision--fn', 'format-precision', 'false_negative', 'tests/test_format.py::test_precision_unknown_unit'],
        ['fractional-units--fp', 'fractional-units', 'false_positive', 'tests/test_parse.py::test_fractional_amounts'],
        ['total-command--fp', 'total-command', 'false_positive', 'tests/test_cli.py::test_total_reports_bad_line_location'],
      ],
    );
    assert.deepEqual(truth.skipped.map((s) => [s.task, s.kind]), [['fractional-units', 'false_negative'], ['total-command', 'false_negative']]);
    const ds = loadDataset(out);
    assert.deepEqual(ds.problems.filter((p) => p.severity === 'error'), []);
    assert.deepEqual(ds.tasks.map((t) => t.id).sort(), ['format-precision', 'format-precision--fn', 'format-precision--fp', 'fractional-units', 'fractional-units--fp', 'total-command', 'total-command--fp']);
    const src = loadDataset(EXAMPLE);
    const fp = ds.tasks.find((t) => t.id === 'format-precision--fp');
    const orig = src.tasks.find((t) => t.id === 'format-precision');
    assert.ok(fp && orig && fp.repo.kind === 'git' && orig.repo.kind === 'git');
    assert.equal(repoPath(out, fp.repo), repoPath(EXAMPLE, orig.repo));
    assert.equal(fp.attempts.length, orig.attempts.length);
    assert.ok(!fs.readFileSync(path.join(out, fp.files.testPatch), 'utf8').includes('format_duration(90, precision="m")'));
    assert.ok(fs.readFileSync(path.join(out, 'tasks/format-precision/tests.patch'), 'utf8').includes('format_duration(90, precision="m")'), 'the baseline is unchanged');

    assert.equal(again?.code, 1);
    assert.match(again?.err ?? '', /exists and is not empty: nothing is overwritten/);
    assert.equal(score?.code, 0, score?.err);
    assert.match(score?.out ?? '', /gold mutants\s+false positive\s+0\s+0\s+3\s+-/);
  });

  it('refuses an unknown task, a missing --out, and a planted.json that is not what plant writes', () => {
    const dir = tmpDir();
    fs.writeFileSync(path.join(dir, 'planted.json'), '{"format": 1, "planted": [{"copy": 3}], "skipped": []}');
    const [unknown, noOut, bad, badJson, badFpTest] = runAll(
      ['plant', EXAMPLE, '--out', path.join(tmpDir(), 'x'), 'no-such-task'],
      ['plant', EXAMPLE],
      ['plant', '--score', dir, '--json'],
      ['plant', '--score', tmpDir()],
      ['plant', EXAMPLE, '--out', path.join(tmpDir(), 'y'), '--fp-test', 'format-precision'],
    ) as Result[];
    assert.equal(badFpTest?.code, 2);
    assert.match(badFpTest?.err ?? '', /--fp-test needs TASK=TEST/);
    assert.equal(unknown?.code, 1);
    assert.match(unknown?.err ?? '', /no task "no-such-task"/);
    assert.equal(noOut?.code, 2);
    assert.match(noOut?.err ?? '', /--out DIR is required/);
    assert.equal(bad?.code, 1);
    assert.match(bad?.err ?? '', /planted\.json: planted\[0\] is not what specweave plant writes/);
    assert.equal(badJson?.code, 1);
    assert.match(badJson?.err ?? '', /planted\.json/);
  });

  it('--score --json gives the recall figures', () => {
    const out = path.join(tmpDir(), 'planted');
    const [, score] = runAll(['plant', EXAMPLE, '--out', out, 'format-precision'], ['plant', '--score', out, '--json']) as Result[];
    const s = JSON.parse(score?.out ?? '') as PlantedScore;
    assert.deepEqual(s.probes.false_positive, { caught: 0, missed: 0, notRun: 1 });
    assert.deepEqual(s.detections.map((d) => [d.copy, d.probes, d.agent]), [['format-precision--fp', 'not_run', 'not_run'], ['format-precision--fn', 'not_run', 'not_run']]);
  });
});
