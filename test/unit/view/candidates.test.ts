import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attemptOutcome, categoryCounts, EMPTY_FILTER, filterAndSort, isFiltered, modelCounts, runOutcome, sanitizeFilter, taskRow } from '../../../src/core/view/candidates';
import type { AttemptVerifierResult } from '../../../src/core/review/verdicts';
import type { TaskRow } from '../../../src/core/view/candidates';
import type { Attempt, CandidateTask, TaskStatus } from '../../../src/core/model';
import { TASK_STATUSES } from '../../../src/core/model';

const attempt = (id: string, resolved?: boolean): Attempt => ({
  id,
  model: `model-${id}`,
  agent: 'swe-agent',
  dir: `tasks/x/attempts/${id}`,
  recordedResults: resolved === undefined ? [] : [{ imported: true, source: 'swebench-report', file: 'r.json', resolved }],
});

function task(i: number, categories: string[], attempts: Attempt[]): CandidateTask {
  return {
    id: `task-${String(i).padStart(5, '0')}`,
    title: `Task number ${i} about ${i % 2 ? 'parsing' : 'formatting'}`,
    revision: 1,
    repo: { name: 'org/repo', kind: 'git', path: 'repos/r', baseCommit: 'a'.repeat(40) },
    environment: { image: 'img', workdir: '/repo', limits: { memoryMb: 1, cpus: 1, pids: 1 }, timeoutSec: 1 },
    specs: categories.map((category, k) => ({ id: `S${k}`, text: 'x', category, dependsOn: [] })),
    tests: [{ id: 'T1', name: 't', kind: 'fail_to_pass', specs: ['S0'] }],
    verifier: { command: 'pytest', parser: 'pytest' },
    notes: [],
    dir: 'tasks/x',
    files: { task: 't', request: 'r', testPatch: 'p' },
    attempts,
  };
}

test('attempt outcome from recorded results', () => {
  assert.equal(attemptOutcome(attempt('a')), 'notRun');
  assert.equal(attemptOutcome(attempt('a', true)), 'passed');
  assert.equal(attemptOutcome(attempt('a', false)), 'failed');
  assert.equal(attemptOutcome({ ...attempt('a'), recordedResults: [{ imported: true, source: 's', file: 'f', status: 'error' }] }), 'failed');
  assert.equal(attemptOutcome(attempt('a'), 'passed'), 'passed', 'own verifier results speak first');
});

test('attempt outcome from our own run: its verdict, or none when the run gave none', () => {
  const run = (status: string, source: 'run' | 'recorded' = 'run'): AttemptVerifierResult => ({ source, runId: 'r1', status: status as AttemptVerifierResult['status'], specs: {}, tests: {}, revision: 1 });
  assert.equal(runOutcome(undefined), undefined);
  assert.equal(runOutcome(run('passed')), 'passed');
  for (const s of ['failed', 'timeout', 'oom', 'disk_limit', 'apply_failed']) assert.equal(runOutcome(run(s)), 'failed', s);
  for (const s of ['infra_error', 'invalid']) assert.equal(runOutcome(run(s)), undefined, `${s}: no verdict, the imported results decide`);
  assert.equal(runOutcome(run('recorded:resolved', 'recorded')), undefined, 'an imported result is not a run of ours');
  // In the tree: a run's failure over an imported pass, an infrastructure error leaves the imported pass.
  assert.equal(attemptOutcome(attempt('a', true), runOutcome(run('failed'))), 'failed');
  assert.equal(attemptOutcome(attempt('a', true), runOutcome(run('infra_error'))), 'passed');
});

test('rows carry counts, categories and outcomes', () => {
  const row = taskRow(task(1, ['error-handling', 'error-handling', 'compatibility'], [attempt('a1', true), attempt('a2')]), 'candidate');
  assert.deepEqual(row.categories, ['error-handling', 'compatibility']);
  assert.deepEqual([...row.outcomes].sort(), ['notRun', 'passed']);
  assert.equal(row.specs, 3);
  assert.equal(row.attempts, 2);
});

function rows(n: number): TaskRow[] {
  const cats = ['error-handling', 'compatibility', 'data-transformation', 'state-consistency'];
  return Array.from({ length: n }, (_, i) =>
    taskRow(task(i, [cats[i % 4] as string, cats[(i + 1) % 4] as string], [attempt('a1', i % 3 === 0 ? true : i % 3 === 1 ? false : undefined)]), TASK_STATUSES[i % TASK_STATUSES.length] as TaskStatus),
  );
}

test('facets combine with AND, choices within a facet with OR; text matches every word', () => {
  const all = rows(100);
  assert.equal(filterAndSort(all, EMPTY_FILTER).length, 100);
  const approved = filterAndSort(all, { ...EMPTY_FILTER, statuses: ['approved'] });
  assert.ok(approved.length > 0 && approved.every((r) => r.status === 'approved'));
  const two = filterAndSort(all, { ...EMPTY_FILTER, statuses: ['approved', 'rejected'] });
  assert.equal(two.length, all.filter((r) => r.status === 'approved' || r.status === 'rejected').length);
  const combo = filterAndSort(all, { ...EMPTY_FILTER, statuses: ['candidate'], outcomes: ['passed'], categories: ['compatibility'] });
  assert.ok(combo.length > 0);
  assert.ok(combo.every((r) => r.status === 'candidate' && r.outcomes.includes('passed') && r.categories.includes('compatibility')));
  const text = filterAndSort(all, { ...EMPTY_FILTER, text: '  PARSING   task-0001 ' });
  assert.deepEqual(text.map((r) => r.id), ['task-00011', 'task-00013', 'task-00015', 'task-00017', 'task-00019']);
  assert.equal(filterAndSort(all, { ...EMPTY_FILTER, text: 'model-a1' }).length, 100, 'attempt models are searchable');
});

test('sorts by id, status order, and counts', () => {
  const all = rows(50).reverse();
  assert.equal(filterAndSort(all, EMPTY_FILTER, 'id')[0]?.id, 'task-00000');
  const byStatus = filterAndSort(all, EMPTY_FILTER, 'status');
  const ranks = byStatus.map((r) => TASK_STATUSES.indexOf(r.status));
  assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b));
  assert.ok(filterAndSort(all, EMPTY_FILTER, 'title').length === 50);
});

// The time it takes is measured in bench/workbench.bench.ts, not asserted here.
test('filtering and sorting 15,000 rows finds rows for every filter and sort', () => {
  const all = rows(15_000);
  filterAndSort(all, { ...EMPTY_FILTER, text: 'warm' });
  const cases = [
    { ...EMPTY_FILTER, text: 'parsing 12' },
    { ...EMPTY_FILTER, statuses: ['candidate', 'flagged'] as TaskStatus[], outcomes: ['failed' as const] },
    { ...EMPTY_FILTER, categories: ['compatibility'] },
  ];
  for (const f of cases) {
    for (const sort of ['id', 'title', 'status'] as const) {
      const out = filterAndSort(all, f, sort);
      assert.ok(out.length > 0, `${JSON.stringify(f)} sorted by ${sort}`);
    }
  }
});

test('category counts and a stored filter are cleaned', () => {
  assert.deepEqual(categoryCounts(rows(4)).map((c) => c.category), ['compatibility', 'data-transformation', 'error-handling', 'state-consistency']);
  assert.deepEqual(sanitizeFilter({ statuses: ['approved', 'bogus', 3], outcomes: ['passed', 'x'], categories: ['a'], text: 5 }), {
    statuses: ['approved'],
    categories: ['a'],
    outcomes: ['passed'],
    text: '',
  });
  assert.deepEqual(sanitizeFilter(null), EMPTY_FILTER);
});

test('the mixed-success filter keeps tasks whose solve rate is in the band, and asks rates only of rows the other facets kept', async () => {
  const { taskDifficulty } = await import('../../../src/core/solver/difficulty');
  const tasks = [
    task(1, ['a'], [attempt('x', true), attempt('y', false)]), // 1/2: mixed
    task(2, ['a'], [attempt('x', false), attempt('y', false)]), // 0/2
    task(3, ['a'], [attempt('x', true), attempt('y', true), attempt('z', true)]), // 3/3
    task(4, ['b'], [attempt('x'), attempt('y', true), attempt('z', false)]), // 1/2 with one unverified
    task(5, ['a'], [attempt('x')]), // no verdict
  ];
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const rows = tasks.map((t) => taskRow(t, 'candidate'));
  const asked: string[] = [];
  const lookup = (band = { low: 0, high: 1 }) => ({
    band,
    of: (r: TaskRow) => {
      asked.push(r.id);
      return taskDifficulty(byId.get(r.id) as CandidateTask, undefined);
    },
  });
  const ids = (rs: TaskRow[]) => rs.map((r) => r.id.slice(-1));
  assert.deepEqual(ids(filterAndSort(rows, { ...EMPTY_FILTER, mixedSuccess: true }, 'id', lookup())), ['1', '4']);
  asked.length = 0;
  assert.deepEqual(ids(filterAndSort(rows, { ...EMPTY_FILTER, categories: ['b'], mixedSuccess: true }, 'id', lookup())), ['4']);
  assert.deepEqual(asked, ['task-00004'], 'the category facet ran first');
  // An inclusive band [0.5, 1] keeps the always-solved task too, not the never-solved one.
  assert.deepEqual(ids(filterAndSort(rows, { ...EMPTY_FILTER, mixedSuccess: true }, 'id', lookup({ low: 0.5, high: 1, inclusive: true } as never))), ['1', '3', '4']);
  // Without rates nothing is in the band: the filter does not silently show everything.
  assert.deepEqual(filterAndSort(rows, { ...EMPTY_FILTER, mixedSuccess: true }), []);
  // Sort by solve rate: lowest first, ties by id, tasks without verdicts last.
  assert.deepEqual(ids(filterAndSort(rows, EMPTY_FILTER, 'solveRate', lookup())), ['2', '1', '4', '3', '5']);
  assert.equal(sanitizeFilter({ mixedSuccess: true }).mixedSuccess, true);
  assert.equal(sanitizeFilter({ mixedSuccess: 'yes' }).mixedSuccess, undefined);
});

test('solved text and rate text say the counts behind the rate', async () => {
  const { solvedText, rateText } = await import('../../../src/core/view/candidates');
  const { taskDifficulty } = await import('../../../src/core/solver/difficulty');
  const d = taskDifficulty(task(1, [], [attempt('x', true), attempt('y', false), attempt('z', false), attempt('w')]), undefined);
  assert.equal(solvedText(d), 'solved 1/3');
  assert.equal(rateText(d.overall), '33% (1/3)');
  assert.equal(solvedText(taskDifficulty(task(2, [], [attempt('x')]), undefined)), undefined);
  assert.equal(rateText({ solved: 0, attempts: 0, rate: null }), '–');
});

test("the solver-model facet keeps the tasks one of the chosen models attempted; models are counted by task", () => {
  const all = [
    taskRow(task(1, ['a'], [attempt('x1'), attempt('y1')]), 'candidate'),
    taskRow(task(2, ['a'], [attempt('x1')]), 'candidate'),
    taskRow(task(3, ['a'], [attempt('z9')]), 'candidate'),
  ];
  assert.deepEqual(all[0]?.models, ['model-x1', 'model-y1']);
  const f = { ...EMPTY_FILTER, models: ['model-y1', 'model-z9'] };
  assert.ok(isFiltered(f));
  assert.deepEqual(filterAndSort(all, f).map((r) => r.id), [all[0]!.id, all[2]!.id]);
  assert.deepEqual(filterAndSort(all, { ...EMPTY_FILTER, models: [] }).length, 3, 'no model chosen: no filter');
  assert.deepEqual(modelCounts(all), [
    { model: 'model-x1', tasks: 2 },
    { model: 'model-y1', tasks: 1 },
    { model: 'model-z9', tasks: 1 },
  ]);
  // A stored filter keeps its models (strings only), and an old one without them reads as before.
  assert.deepEqual(sanitizeFilter({ models: ['m', 3] }).models, ['m']);
  assert.equal('models' in sanitizeFilter({}), false);
});
