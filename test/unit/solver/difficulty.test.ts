// Solve rates (issue 14, item 4): per task overall and per model with the attempts behind each rate, from the
// verifier's runs or imported results; runs that went wrong give no verdict; the mixed-success band and its funnel;
// `specweave list --json / --in-band` and `specweave stats --json` on real files.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { CandidateTask } from '../../../src/core/model';
import type { AttemptVerifierResult, TaskVerifierResults } from '../../../src/core/review/verdicts';
import { datasetDifficulty, inBand, parseBand, taskDifficulty } from '../../../src/core/solver/difficulty';
import { reviewDataset, writeRun } from '../review/helpers';

const attempt = (id: string, model: string) => ({ id, model, agent: '', dir: '', recordedResults: [] });
const task = (id: string, models: string[]): CandidateTask =>
  ({ id, title: id, revision: 1, attempts: models.map((m, i) => attempt(`a${i + 1}`, m)), specs: [], tests: [] }) as unknown as CandidateTask;
const run = (status: string, resolved?: boolean, stale?: boolean): AttemptVerifierResult => ({ source: 'run', runId: 'r', status: status as AttemptVerifierResult['status'], ...(resolved !== undefined ? { resolved } : {}), specs: {}, tests: {}, revision: 1, ...(stale ? { stale } : {}) });
const results = (rs: Record<string, AttemptVerifierResult>): TaskVerifierResults => ({ attempts: rs, flags: [] });

describe('solve rates', () => {
  it('counts resolved runs over attempts with a verdict, per model too; errors and missing runs are unverified', () => {
    const t = task('t', ['m1', 'm1', 'm2', 'm2', 'm2']);
    const d = taskDifficulty(t, results({ a1: run('passed', true), a2: run('failed', false), a3: run('timeout'), a4: run('infra_error'), a5: run('passed', true, true) }));
    assert.deepEqual(d.overall, { solved: 2, attempts: 4, rate: 0.5 });
    assert.deepEqual(d.byModel, { m1: { solved: 1, attempts: 2, rate: 0.5 }, m2: { solved: 1, attempts: 2, rate: 0.5 } });
    assert.equal(d.unverified, 1, 'the infrastructure error says nothing about the attempt');
    assert.equal(d.stale, 1);
    assert.equal(inBand(d), true);
  });

  it('the mixed-success band is strict by default; a custom band parses and is checked', () => {
    const t = task('t', ['m', 'm']);
    const all = taskDifficulty(t, results({ a1: run('passed', true), a2: run('passed', true) }));
    const none = taskDifficulty(t, results({ a1: run('failed', false), a2: run('failed', false) }));
    assert.equal(inBand(all), false);
    assert.equal(inBand(none), false);
    const incl = parseBand('[0,1]');
    assert.ok(incl.ok);
    assert.equal(inBand(all, incl.band), true);
    const b = parseBand('0.2..0.8');
    assert.deepEqual(b, { ok: true, band: { low: 0.2, high: 0.8 } });
    assert.equal(parseBand('0.9..0.1').ok, false);
    assert.equal(parseBand('most').ok, false);
  });

  it('the funnel: imported -> measured -> in band -> reviewed -> approved, each within the one before', () => {
    const ts = [task('never', ['m', 'm']), task('mixed', ['m', 'm']), task('mixed2', ['m', 'n']), task('unrun', ['m'])];
    const res: Record<string, TaskVerifierResults> = {
      never: results({ a1: run('failed', false), a2: run('failed', false) }),
      mixed: results({ a1: run('passed', true), a2: run('failed', false) }),
      mixed2: results({ a1: run('failed', false), a2: run('passed', true) }),
    };
    const d = datasetDifficulty(ts, (t) => taskDifficulty(t, res[t.id]), (t) => t.id !== 'mixed2', (t) => t.id === 'mixed');
    assert.deepEqual(d.funnel, { imported: 4, measured: 3, inBand: 2, reviewed: 1, approved: 1 });
    assert.deepEqual(d.tasks, { unmeasured: 1, neverSolved: 1, inBand: 2, alwaysSolved: 0, otherOutside: 0 });
    assert.deepEqual(d.byModel, { m: { solved: 1, attempts: 5, rate: 0.2 }, n: { solved: 1, attempts: 1, rate: 1 } });
  });
});

const ROOT = path.resolve(__dirname, '../../..');
const cli = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), ...args], { encoding: 'utf8', cwd: ROOT });

describe('solve rates in the CLI', () => {
  it('list --json gives each task its rate from stored runs and imported results; --in-band keeps the mixed ones; stats --json has the funnel', () => {
    const ds = reviewDataset();
    // t1: a1 passes, a2 fails (mixed); t2: b1 fails (never); t3: c1 imported as resolved (always).
    writeRun(ds, 't1', 'a1', { 'tests/test_hello.py::test_greet_type': 'PASSED', 'tests/test_hello.py::test_greet_text': 'PASSED', 'tests/test_hello.py::test_existing': 'PASSED' });
    writeRun(ds, 't1', 'a2', { 'tests/test_hello.py::test_greet_type': 'FAILED', 'tests/test_hello.py::test_greet_text': 'PASSED', 'tests/test_hello.py::test_existing': 'PASSED' });
    writeRun(ds, 't2', 'b1', { 'tests/test_size.py::test_negative': 'FAILED' });
    let r = cli(['list', ds, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const rows = JSON.parse(r.stdout) as Array<{ id: string; inBand: boolean; solveRate: { overall: { solved: number; attempts: number }; byModel: Record<string, { solved: number; attempts: number }> } }>;
    const by = Object.fromEntries(rows.map((x) => [x.id, x]));
    assert.deepEqual(by.t1?.solveRate.overall, { solved: 1, attempts: 2, rate: 0.5 });
    assert.deepEqual(by.t1?.solveRate.byModel, { 'gpt-test': { solved: 1, attempts: 1, rate: 1 }, 'other-model': { solved: 0, attempts: 1, rate: 0 } });
    assert.deepEqual(by.t2?.solveRate.overall, { solved: 0, attempts: 1, rate: 0 });
    assert.deepEqual(by.t3?.solveRate.overall, { solved: 1, attempts: 1, rate: 1 });
    assert.deepEqual(rows.filter((x) => x.inBand).map((x) => x.id), ['t1']);
    r = cli(['list', ds, '--in-band']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^t1\s.*50% \(1\/2\)/m);
    assert.doesNotMatch(r.stdout, /^t[23]\s/m);
    r = cli(['list', ds, '--in-band', '--band', '[0,1]', '--json']);
    assert.equal((JSON.parse(r.stdout) as unknown[]).length, 3);
    r = cli(['list', ds, '--band', 'lots']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--band "lots": expected LOW\.\.HIGH/);
    r = cli(['stats', ds, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const s = JSON.parse(r.stdout) as { difficulty: { funnel: Record<string, number>; tasks: Record<string, number> } };
    assert.deepEqual(s.difficulty.funnel, { imported: 3, measured: 3, inBand: 1, reviewed: 0, approved: 0 });
    assert.deepEqual(s.difficulty.tasks, { unmeasured: 0, neverSolved: 1, inBand: 1, alwaysSolved: 1, otherOutside: 0 });
    r = cli(['stats', ds]);
    assert.match(r.stdout, /funnel: 3 imported -> 3 with attempt verdicts -> 1 in the band -> 0 reviewed -> 0 approved/);
  });
});
