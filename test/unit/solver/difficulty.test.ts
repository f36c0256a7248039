// Solve rates (issue 14, item 4): per task overall and per model with the attempts behind each rate, from the
// verifier's runs or imported results; runs that went wrong give no verdict; the mixed-success band and its funnel;
// `specweave list --json / --in-band` and `specweave stats --json` on real files.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { CandidateTask } from '../../../src/core/model';
import type { AttemptVerifierResult, TaskVerifierResults } from '../../../src/core/review/verdicts';
import { MIXED_SUCCESS, bandFromSetting, bandText, datasetDifficulty, inBand, parseBand, taskDifficulty } from '../../../src/core/solver/difficulty';
import { buildSolveRatesView } from '../../../src/core/view/solveRatesView';
import { MAX_SOLVE_RATE_MODELS } from '../../../src/protocol/messages';
import { solveRatesViewProblem } from '../../../src/protocol/validate';
import { reviewDataset, writeRun } from '../review/helpers';
import { cliArgs } from '../helpers/cli';

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
    assert.deepEqual(d.histogram, [1, 0, 0, 0, 0, 2, 0, 0, 0, 0], 'never solved in the first bin, the two halves in [0.5, 0.6)');
    // m's own rate: 0 on never, 1/2 on mixed, 0 on mixed2 (n solved it); n only attempted mixed2 and solved it.
    assert.deepEqual(d.tasksByModel, { m: { neverSolved: 2, inBand: 1, alwaysSolved: 0, otherOutside: 0 }, n: { neverSolved: 0, inBand: 0, alwaysSolved: 1, otherOutside: 0 } });
  });

  it('a custom band puts 0 or 1 in the band when it holds them, and a rate outside it that is neither apart', () => {
    const ts = [task('third', ['m', 'm', 'm']), task('all', ['m'])];
    const res: Record<string, TaskVerifierResults> = { third: results({ a1: run('passed', true), a2: run('failed', false), a3: run('failed', false) }), all: results({ a1: run('passed', true) }) };
    const d = datasetDifficulty(ts, (t) => taskDifficulty(t, res[t.id]), () => true, () => false, { low: 0.5, high: 1, inclusive: true });
    assert.deepEqual(d.tasks, { unmeasured: 0, neverSolved: 0, inBand: 1, alwaysSolved: 0, otherOutside: 1 });
    assert.deepEqual(d.funnel, { imported: 2, measured: 2, inBand: 1, reviewed: 1, approved: 0 });
    assert.deepEqual(d.tasksByModel.m, { neverSolved: 0, inBand: 1, alwaysSolved: 1, otherOutside: 0 }, 'per model: never, sometimes, always, whatever the band');
    assert.equal(bandText(d.band), '[0.5,1]');
    assert.equal(bandText(MIXED_SUCCESS), '0..1');
    const round = parseBand(bandText({ low: 0.2, high: 0.8 }));
    assert.deepEqual(round, { ok: true, band: { low: 0.2, high: 0.8 } });
  });
});

describe('the band setting', () => {
  it('reads LOW..HIGH and [LOW,HIGH]; empty is the default; a bad value falls back to the default with a message naming the setting', () => {
    const S = 'specweave.difficulty.band';
    assert.deepEqual(bandFromSetting('0.2..0.8', S), { band: { low: 0.2, high: 0.8 } });
    assert.deepEqual(bandFromSetting(' [0,1] ', S), { band: { low: 0, high: 1, inclusive: true } });
    assert.deepEqual(bandFromSetting('', S), { band: MIXED_SUCCESS });
    assert.deepEqual(bandFromSetting(undefined, S), { band: MIXED_SUCCESS });
    const bad = bandFromSetting('0.8..0.2', S);
    assert.deepEqual(bad.band, MIXED_SUCCESS);
    assert.match(bad.problem ?? '', /^specweave\.difficulty\.band "0\.8\.\.0\.2": LOW and HIGH must be shares from 0 to 1 with LOW <= HIGH; using the default 0\.\.1/);
    assert.match(bandFromSetting('mixed', S).problem ?? '', /^specweave\.difficulty\.band "mixed": expected LOW\.\.HIGH/);
    assert.match(bandFromSetting(0.5, S).problem ?? '', /^specweave\.difficulty\.band must be a text such as 0\.\.1/);
  });
});

describe('solve rates in the statistics panel', () => {
  it('the view carries the band, the funnel, the buckets and the models (most attempts first, capped) and passes the page check', () => {
    const ts = [task('mixed', ['big', 'big', 'small']), task('never', ['big'])];
    const res: Record<string, TaskVerifierResults> = { mixed: results({ a1: run('passed', true), a2: run('failed', false), a3: run('passed', true) }), never: results({ a1: run('failed', false) }) };
    const d = datasetDifficulty(ts, (t) => taskDifficulty(t, res[t.id]), (t) => t.id === 'mixed', () => false);
    const v = buildSolveRatesView(d, 'specweave.difficulty.band "x": expected LOW..HIGH');
    assert.equal(solveRatesViewProblem(v), undefined);
    assert.deepEqual(v.band, { text: '0..1', low: 0, high: 1, inclusive: false });
    assert.deepEqual(v.funnel, { imported: 2, measured: 2, inBand: 1, reviewed: 1, approved: 0 });
    assert.deepEqual(v.models.map((m) => [m.model, m.solved, m.attempts, m.tasks.inBand, m.tasks.neverSolved, m.tasks.alwaysSolved]), [
      ['big', 1, 3, 1, 1, 0],
      ['small', 1, 1, 0, 0, 1],
    ]);
    assert.match(v.bandProblem ?? '', /specweave\.difficulty\.band/);
    const n = MAX_SOLVE_RATE_MODELS + 5;
    const wide = results(Object.fromEntries(Array.from({ length: n }, (_, i) => [`a${i + 1}`, run('failed', false)])));
    const many = datasetDifficulty([task('wide', Array.from({ length: n }, (_, i) => `m${i}`))], (t) => taskDifficulty(t, wide), () => false, () => false);
    const capped = buildSolveRatesView(many);
    assert.equal(capped.models.length, MAX_SOLVE_RATE_MODELS);
    assert.equal(capped.moreModels, 5);
    assert.equal(solveRatesViewProblem(capped), undefined);
  });

  it('the page check refuses a view of the wrong shape, naming the field', () => {
    const v = buildSolveRatesView(datasetDifficulty([], () => taskDifficulty(task('t', []), undefined), () => false, () => false));
    assert.equal(solveRatesViewProblem(v), undefined);
    assert.match(solveRatesViewProblem(null) ?? '', /not an object/);
    assert.match(solveRatesViewProblem({ ...v, band: { ...v.band, low: 0.9, high: 0.1 } }) ?? '', /solveRates\.band/);
    assert.match(solveRatesViewProblem({ ...v, funnel: { ...v.funnel, reviewed: -1 } }) ?? '', /solveRates\.funnel/);
    assert.match(solveRatesViewProblem({ ...v, histogram: [1, 2] }) ?? '', /solveRates\.histogram/);
    assert.match(solveRatesViewProblem({ ...v, models: [{ model: 'm', solved: 3, attempts: 2, tasks: v.tasks }] }) ?? '', /solveRates\.models/);
  });
});

const ROOT = path.resolve(__dirname, '../../..');
const cli = (args: string[]) => spawnSync(process.execPath, [...cliArgs(), ...args], { encoding: 'utf8', cwd: ROOT });

describe('solve rates in the store', () => {
  it('are kept while nothing they come from changes, and follow new runs', async () => {
    const { CurationStore } = await import('../../../src/app/curationStore');
    const ds = reviewDataset();
    writeRun(ds, 't1', 'a1', { 'tests/test_hello.py::test_greet_type': 'PASSED', 'tests/test_hello.py::test_greet_text': 'PASSED', 'tests/test_hello.py::test_existing': 'PASSED' });
    const store = CurationStore.open(ds);
    const first = store.difficulty('t1');
    assert.deepEqual(first?.overall, { solved: 1, attempts: 1, rate: 1 });
    assert.equal(store.difficulty('t1'), first, 'the same rates, not computed again');
    writeRun(ds, 't1', 'a2', { 'tests/test_hello.py::test_greet_type': 'FAILED', 'tests/test_hello.py::test_greet_text': 'PASSED', 'tests/test_hello.py::test_existing': 'PASSED' });
    assert.equal(store.difficulty('t1'), first, 'runs not taken in yet');
    store.invalidateRuns('t1');
    assert.deepEqual(store.difficulty('t1')?.overall, { solved: 1, attempts: 2, rate: 0.5 });
    assert.equal(store.datasetDifficulty().funnel.inBand, 1);
  });
});

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
