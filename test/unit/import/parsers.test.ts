// The pure parts of the importer: row and prediction shapes, report shapes, Python literals, the verifier command,
// solver-name matching and attempt ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseInstances, sameInstance } from '../../../src/core/import/instances';
import { assignAttemptIds, matchScore, mergeSameSolver } from '../../../src/core/import/pairing';
import type { PlannedAttempt } from '../../../src/core/import/pairing';
import { parsePredictions } from '../../../src/core/import/predictions';
import { parsePyLiteral } from '../../../src/core/import/pyLiteral';
import { classifyReport, readHarnessLog, readOpenHandsLog, readOpenHandsSummary } from '../../../src/core/import/reports';
import { chooseVerifier, djangoModules, testPatchFiles } from '../../../src/core/import/testCommand';
import { expandImage, looksTruncated, taskIdFor } from '../../../src/core/import/toTask';

const row = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ instance_id: 'o__r-1', repo: 'o/r', base_commit: 'abc1234', problem_statement: 'p', FAIL_TO_PASS: ['a'], PASS_TO_PASS: ['b'], ...over });

test('instance rows: JSONL, JSON array, one object; F2P/P2P as lists or JSON strings; bad rows name line and field', () => {
  const jsonl = parseInstances([row(), row({ instance_id: 'o__r-2', FAIL_TO_PASS: '["x", "y"]' })].join('\r\n'), 'f.jsonl');
  assert.equal(jsonl.shape, 'jsonl');
  assert.deepEqual(jsonl.rows.map((r) => [r.instanceId, r.failToPass, r.line]), [['o__r-1', ['a'], 1], ['o__r-2', ['x', 'y'], 2]]);
  const pretty = parseInstances(JSON.stringify([JSON.parse(row()), JSON.parse(row({ instance_id: 'o__r-2' }))], null, 2), 'f.json');
  assert.deepEqual([pretty.shape, pretty.rows.map((r) => r.line)], ['array', [2, 14]]);
  assert.equal(parseInstances(JSON.stringify(JSON.parse(row()), null, 2), 'one.json').shape, 'single');

  const bad = parseInstances(
    [row({ FAIL_TO_PASS: 'not json' }), row({ instance_id: 'o__r-2', repo: 7 }), row({ instance_id: undefined, repo: 'o/r' }), row({ instance_id: 'o__r-4', PASS_TO_PASS: [1] }), row({ instance_id: 'o__r-5' })].join('\n'),
    'bad.jsonl',
  );
  assert.deepEqual(bad.rows.map((r) => r.instanceId), ['o__r-5']);
  assert.deepEqual(
    bad.problems.map((p) => [p.line, p.field, p.severity]),
    [[1, 'FAIL_TO_PASS', 'error'], [2, 'repo', 'error'], [3, 'instance_id', 'error'], [4, 'PASS_TO_PASS', 'error']],
  );
  assert.match(bad.problems[0]?.message ?? '', /^o__r-1: FAIL_TO_PASS is a string but not a JSON-encoded list/);

  const truncated = parseInstances(row() + '\n' + row({ instance_id: 'o__r-2' }).slice(0, 40), 'cut.jsonl');
  assert.equal(truncated.rows.length, 1);
  assert.match(truncated.problems[0]?.message ?? '', /truncated/);
  const pretty404 = parseInstances('{\n  "instance_id": "x",\n  "repo": \n}', 'broken.json');
  assert.deepEqual([pretty404.rows.length, pretty404.problems[0]?.line], [0, 4]);
  assert.match(parseInstances('instances:\n  - a', 'x.yaml').problems[0]?.message ?? '', /unknown file shape/);
  assert.match(parseInstances('', 'empty.jsonl').problems[0]?.message ?? '', /empty/);
});

test('the same instance twice: equal when the test lists hold the same ids in another order', () => {
  const [a] = parseInstances(row({ PASS_TO_PASS: ['b', 'c'] }), 'a').rows;
  const [b] = parseInstances(row({ PASS_TO_PASS: ['c', 'b'] }), 'b').rows;
  const [c] = parseInstances(row({ PASS_TO_PASS: ['c'] }), 'c').rows;
  assert.ok(a && b && c);
  assert.deepEqual(sameInstance(a, b), { same: true, differences: [], reordered: ['PASS_TO_PASS'] });
  assert.deepEqual(sameInstance(a, c).differences, ['PASS_TO_PASS']);
});

test('predictions in the four shapes, with null patches, keyed ids and duplicates', () => {
  const p = (id: string, patch: unknown = 'diff', model = 'm') => ({ instance_id: id, model_name_or_path: model, model_patch: patch });
  assert.equal(parsePredictions([p('a'), p('b')].map((x) => JSON.stringify(x)).join('\n'), 'x.jsonl').shape, 'jsonl');
  assert.equal(parsePredictions(JSON.stringify([p('a'), p('b')]), 'x.json').shape, 'array');
  const keyed = parsePredictions(JSON.stringify({ a: { model_name_or_path: 'm', model_patch: 'd' }, b: p('c') }, null, 2), 'preds.json');
  assert.equal(keyed.shape, 'keyed');
  assert.deepEqual(keyed.predictions.map((x) => [x.instanceId, x.line]), [['a', 2], ['c', 6]]);
  assert.match(keyed.problems[0]?.message ?? '', /keyed "b" but its instance_id is "c"/);
  const single = parsePredictions(JSON.stringify(p('a', null)), 'a.pred');
  assert.deepEqual([single.shape, single.predictions[0]?.patch, single.predictions[0]?.noPatch], ['single', '', true]);
  const dup = parsePredictions([p('a', 'one'), p('a', 'two'), p('a', 'three', 'other'), p('b', 5)].map((x) => JSON.stringify(x)).join('\n'), 'd.jsonl');
  assert.deepEqual(dup.predictions.map((x) => [x.patch, x.model]), [['one', 'm'], ['three', 'other']]);
  assert.deepEqual(dup.problems.map((x) => [x.line, x.severity]), [[2, 'warning'], [4, 'error']]);
  // SWE-smith predictions call the field `patch`.
  assert.equal(parsePredictions(JSON.stringify({ instance_id: 'a', patch: 'p' }), 's.json').predictions[0]?.patch, 'p');
});

test('Python literals: the repr of a report, with quotes, escapes, tuples and None', () => {
  const text = `x {'a': True, "b": [None, 1.5, -2, ('t', "it's")], 'c': 'say \\'hi\\'\\n', 'd': {}} tail`;
  const r = parsePyLiteral(text, 2);
  assert.ok(r.ok);
  assert.deepEqual(r.value, { a: true, b: [null, 1.5, -2, ['t', "it's"]], c: "say 'hi'\n", d: {} });
  assert.equal(r.ok && r.end, text.indexOf(' tail'));
  const bad = parsePyLiteral("{'a': tru}");
  assert.ok(!bad.ok);
  assert.equal(bad.ok ? -1 : bad.offset, 6);
  assert.ok(!parsePyLiteral("{'a': 'open").ok);
});

test('report shapes: wrapped and unwrapped report.json, schema 2, the older id lists, a custom eval', () => {
  const inner = { patch_is_None: false, patch_exists: true, patch_successfully_applied: true, resolved: false, tests_status: { FAIL_TO_PASS: { success: [], failure: ['t1'] }, PASS_TO_PASS: { success: ['t2'], failure: [] } } };
  const wrapped = classifyReport({ 'o__r-1': inner });
  assert.equal(wrapped.kind, 'instance-report');
  assert.deepEqual(wrapped.kind === 'instance-report' && wrapped.entries.map((e) => [e.instanceId, e.verdict.status, e.verdict.failToPass?.failure]), [['o__r-1', 'unresolved', ['t1']]]);
  const unwrapped = classifyReport({ ...inner, patch_successfully_applied: false });
  assert.deepEqual(unwrapped.kind === 'instance-report' && [unwrapped.entries[0]?.instanceId, unwrapped.entries[0]?.verdict.status], [undefined, 'error']);
  assert.equal(classifyReport({ ...inner, patch_is_None: true, patch_exists: false }).kind === 'instance-report' && 'x', 'x');

  const v2 = classifyReport({ schema_version: 2, resolved_ids: ['a'], unresolved_ids: ['b'], error_ids: ['c'], empty_patch_ids: ['d'], incomplete_ids: ['e'], submitted_ids: ['a', 'b', 'c', 'd'] });
  assert.deepEqual(v2.kind === 'run-report' && v2.entries.map((e) => [e.instanceId, e.verdict.status]), [['a', 'resolved'], ['b', 'unresolved'], ['c', 'error'], ['d', 'empty_patch']]);
  const lists = classifyReport({ patch_is_None: ['n'], patch_exists: ['a', 'b', 'x'], patch_successfully_applied: ['a', 'b'], resolved: ['a'], unresolved: ['b'] });
  assert.deepEqual(lists.kind === 'run-report' && lists.entries.map((e) => [e.instanceId, e.verdict.status, e.verdict.patchApplied]).sort(), [
    ['a', 'resolved', true], ['b', 'unresolved', true], ['n', 'empty_patch', undefined], ['x', 'error', false],
  ]);
  const older = classifyReport({ no_generation: [], generated: ['a', 'b'], with_logs: ['a', 'b'], install_fail: [], reset_failed: [], no_apply: ['b'], applied: ['a'], test_errored: [], test_timeout: [], resolved: [] });
  assert.deepEqual(older.kind === 'run-report' && older.entries.map((e) => [e.instanceId, e.verdict.status]), [['a', 'unresolved'], ['b', 'error']]);
  const custom = classifyReport({ instance_id: 'o__r-1', resolved: true, eval_status: 'success', fail_to_pass_results: { t1: true }, pass_to_pass_results: { t2: true, t3: false } });
  assert.deepEqual(custom.kind === 'custom-eval' && custom.entries[0]?.verdict.passToPass, { success: ['t2'], failure: ['t3'] });
  assert.equal(classifyReport({ hello: 'world' }).kind, 'unknown');
  // SWE-bench experiments' results/results.json: resolved ids only; no_generation is an empty patch, no_logs no verdict.
  const exp = classifyReport({ no_generation: ['g'], no_logs: ['l'], resolved: ['r', 'r'] });
  assert.deepEqual(exp.kind === 'run-report' && exp.entries.map((e) => [e.instanceId, e.verdict.status]), [['r', 'resolved'], ['g', 'empty_patch']]);
  assert.match(classifyReport({ 'acme/widgets': { resolved: 1, total: 2 } }).kind === 'unknown' ? 'per repository' : '', /per repository/);
  const counts = classifyReport({ '2024': { resolved: 1, total: 2 } });
  assert.deepEqual(counts, { kind: 'unknown', reason: 'resolved counts per year: no verdict per instance' });
  assert.equal(classifyReport([1]).kind, 'unknown');
});

test('harness and OpenHands logs, and the OpenHands Markdown summary', () => {
  const log = readHarnessLog('x - Intermediate patch for o__r-1 written to logs/run_evaluation/run7/org__model/o__r-1/patch.diff, now\n>>>>> Patch Apply Failed:\npatching file a.py\nHunk #2 FAILED at 10.\n');
  assert.deepEqual(log, { runId: 'run7', modelDir: 'org__model', instanceId: 'o__r-1', patchApplied: false, applyError: 'Hunk #2 FAILED at 10.' });
  assert.equal(readHarnessLog('>>>>> Applied Patch:\nok').patchApplied, true);
  const oh = readOpenHandsLog("Starting evaluation for instance o__r-1.\n[o__r-1] report: {'o__r-1': {'patch_is_None': False, 'patch_exists': True, 'patch_successfully_applied': True, 'resolved': True, 'tests_status': {}}}\n");
  assert.deepEqual(oh.entries.map((e) => [e.instanceId, e.verdict.source, e.verdict.status]), [['o__r-1', 'openhands-log', 'resolved']]);
  assert.match(readOpenHandsLog("report: {'a': tru").error ?? '', /not a Python literal/);
  const md = readOpenHandsSummary('# SWE-bench Report\n## Summary\n- resolved instances: 1\n## Resolved Instances\n- [a__b-1](x.log)\n## Unresolved Instances\n- [a__b-2](y.log)\n');
  assert.deepEqual(md.kind === 'run-report' && md.entries.map((e) => [e.instanceId, e.verdict.status]), [['a__b-1', 'resolved'], ['a__b-2', 'unresolved']]);
  assert.equal(readOpenHandsSummary('# Notes\nnothing').kind, 'unknown');
});

const chosen = (input: Parameters<typeof chooseVerifier>[0]) => {
  const c = chooseVerifier(input);
  if ('error' in c) throw new Error(c.error);
  return c;
};

test('the default verifier command: pytest -rA over test files, Django runtests modules, SymPy bin/test', () => {
  const tp = [
    'diff --git a/tests/a/test_b.py b/tests/a/test_b.py\n--- a/tests/a/test_b.py\n+++ b/tests/a/test_b.py\n@@ -1 +1 @@\n-x\n+y\n',
    'diff --git a/tests/data/x.json b/tests/data/x.json\n--- a/tests/data/x.json\n+++ b/tests/data/x.json\n@@ -1 +1 @@\n-1\n+2\n',
    'diff --git a/tests/old_test.py b/tests/old_test.py\ndeleted file mode 100644\n--- a/tests/old_test.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n',
    "diff --git a/tests/it's.py b/tests/it's.py\n--- a/tests/it's.py\n+++ b/tests/it's.py\n@@ -1 +1 @@\n-x\n+y\n",
  ].join('');
  assert.deepEqual(testPatchFiles(tp), ['tests/a/test_b.py', "tests/it's.py"]);
  assert.deepEqual(djangoModules(['tests/a/test_b.py', 'tests/x.txt']), ['a.test_b']);
  assert.equal(chosen({ repo: 'o/r', testPatch: tp }).command, `pytest -rA tests/a/test_b.py 'tests/it'\\''s.py'`);
  assert.equal(chosen({ repo: 'django/django', testPatch: tp }).command, "./tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1 a.test_b 'it'\\''s'");
  assert.match(chosen({ repo: 'sympy/sympy', testPatch: tp }).command, /bin\/test -C --verbose tests\/a\/test_b\.py/);
  const none = chosen({ repo: 'o/r', testPatch: '' });
  assert.deepEqual([none.command, none.notes.length], ['pytest -rA', 1]);
  assert.deepEqual(chooseVerifier({ repo: 'o/r', testPatch: tp, override: 'make test' }), { command: 'make test', parser: 'pytest', targets: ['tests/a/test_b.py', "tests/it's.py"], from: 'option', notes: [] });
});

test('images, task ids, truncated test ids', () => {
  assert.deepEqual(expandImage('x/{swebench_id}:{nope}', { instanceId: 'Django__django-1', repo: 'django/django' }), { image: 'x/django_1776_django-1:{nope}', unknown: ['{nope}'] });
  assert.equal(taskIdFor('o__r-1'), 'o__r-1');
  assert.equal(taskIdFor('o/r#1'), 'o-r-1');
  assert.equal(looksTruncated('t.py::test_x[assert'), true);
  assert.equal(looksTruncated('t.py::test_x[a-b]'), false);
});

const attempt = (over: Partial<PlannedAttempt>): PlannedAttempt => ({
  instanceId: 'i', model: 'm', agent: '', run: 'm', runDir: 'd', aliases: [], patch: 'p', patchFrom: 'f:1', hasPrediction: true, recorded: [], ...over,
});

test('solver names: the harness model folder, a bare model name, a folder that contains it', () => {
  const a = attempt({ model: 'anthropic/claude-haiku-4-5', run: 'anthropic/claude-haiku-4-5' });
  assert.equal(matchScore(a, [{ name: 'anthropic__claude-haiku-4-5', exact: true }]), 3);
  assert.equal(matchScore(a, [{ name: 'claude-haiku-4-5', exact: false }]), 2);
  assert.equal(matchScore(a, [{ name: 'mini-swe-agent-claude-haiku-4-5', exact: false }]), 1);
  assert.equal(matchScore(a, [{ name: 'mini-swe-agent-claude-haiku-4-5', exact: true }]), 0, 'exact hints never match by containment');
  assert.equal(matchScore(attempt({ model: 'google/gemini-3-pro-preview' }), [{ name: 'x-gemini-3.1-pro-preview', exact: false }]), 0);
});

test('attempt ids: slug of the run name, suffixes on collision, reserved ids avoided, stable order', () => {
  const list = [
    attempt({ run: 'openai/gpt-x', runDir: 'runs/b' }),
    attempt({ run: 'openai/gpt-x', runDir: 'runs/a' }),
    attempt({ run: 'gold', runDir: 'p' }),
    attempt({ run: '__weird__', runDir: 'q' }),
  ];
  assignAttemptIds(list);
  assert.deepEqual(list.map((a) => [a.runDir, a.id]), [['runs/b', 'openai-gpt-x-2'], ['runs/a', 'openai-gpt-x'], ['p', 'gold-prediction'], ['q', 'weird']]);
});

test('the same solver output from a predictions file and a trajectory folder is one attempt; two trajectories stay two', () => {
  const traj = { path: '/t', display: 't', summary: { format: 'mini-swe-agent' as const, steps: 1, byKind: {} }, instanceId: 'i' };
  const merged = mergeSameSolver([
    attempt({ runDir: 'preds.jsonl#m', patch: 'diff\n' }),
    attempt({ runDir: 'run1', run: 'run1', patch: 'diff', trajectory: traj, hasPrediction: false, agent: 'mini-swe-agent' }),
    attempt({ runDir: 'run2', run: 'run2', patch: 'diff', trajectory: traj, hasPrediction: false }),
  ]);
  assert.deepEqual(merged.attempts.map((a) => [a.runDir, a.run, a.agent, a.hasPrediction, a.trajectory !== undefined]), [
    ['run1', 'm', 'mini-swe-agent', true, true],
    ['run2', 'run2', '', false, true],
  ]);
});

test('SWE-smith and user report shapes: per-instance with its model, timed out, validation lists, run summaries', () => {
  const inner = { patch_is_None: false, patch_exists: true, patch_successfully_applied: false, resolved: true, tests_status: { FAIL_TO_PASS: { success: ['t1'], failure: [] } }, model_name_or_path: 'm-32b' };
  const smith = classifyReport(inner);
  assert.deepEqual(smith.kind === 'instance-report' && [smith.entries[0]?.model, smith.entries[0]?.verdict.source, smith.entries[0]?.verdict.status, smith.entries[0]?.verdict.patchApplied], ['m-32b', 'swesmith-report', 'resolved', undefined]);
  const timed = classifyReport({ timed_out: true, timeout: 60 });
  assert.deepEqual(timed.kind === 'instance-report' && timed.entries[0]?.verdict, { imported: true, source: 'swesmith-report', resolved: false, status: 'error', detail: 'timed out after 60 s' });
  assert.equal(classifyReport({ timed_out: true, other: 1 }).kind, 'unknown');
  const valid = classifyReport({ FAIL_TO_PASS: ['a'], PASS_TO_PASS: ['b'], FAIL_TO_FAIL: [], PASS_TO_FAIL: [] });
  assert.deepEqual(valid.kind === 'gold-validation' && [valid.entries[0]?.verdict.status, valid.entries[0]?.verdict.passToPass], ['resolved', { success: ['b'], failure: [] }]);
  const broken = classifyReport({ FAIL_TO_PASS: ['a'], PASS_TO_PASS: [], PASS_TO_FAIL: ['c'] });
  assert.equal(broken.kind === 'gold-validation' && broken.entries[0]?.verdict.status, 'unresolved');
  assert.equal(classifyReport({ FAIL_TO_PASS: 'a', PASS_TO_PASS: [] }).kind, 'unknown');
  const run = classifyReport({ resolved: 1, unresolved: 1, total: 3, ids_resolved: ['a'], ids_unresolved: ['b'] });
  assert.deepEqual(run.kind === 'run-report' && [run.schema, run.submitted, run.entries.map((e) => [e.instanceId, e.verdict.source, e.verdict.status])], ['swesmith', 3, [['a', 'swesmith-run-report', 'resolved'], ['b', 'swesmith-run-report', 'unresolved']]]);
  const user = classifyReport({ total: 3, passed: 1, failed: 2, pass_rate: 33.3, instances: [{ instance_id: 'a', resolved: true, patch_applied: true }, { instance_id: 'b', resolved: false, patch_applied: false }, { instance_id: 'c', resolved: false }] });
  assert.deepEqual(user.kind === 'run-report' && user.entries.map((e) => [e.instanceId, e.verdict.status, e.verdict.patchApplied]), [['a', 'resolved', true], ['b', 'error', false], ['c', 'unresolved', undefined]]);
  assert.equal(classifyReport({ instances: [{ instance_id: 'a', resolved: 'yes' }] }).kind, 'unknown');
});

test("SWE-bench 5's infra failures: a per-instance report and a run report say the environment broke", () => {
  const one = classifyReport({ 'o__r-1': { patch_is_None: false, patch_exists: true, patch_successfully_applied: false, resolved: false, infra_failure: true, infra_failure_reason: 'docker daemon error' } });
  assert.deepEqual(one.kind === 'instance-report' && [one.entries[0]?.verdict.status, one.entries[0]?.verdict.detail], ['error', 'infra failure: docker daemon error']);
  const run = classifyReport({
    schema_version: 2, resolved_ids: ['a'], unresolved_ids: ['b', 'c'], error_ids: ['d'], infra_failure_ids: ['b', 'd'], ambiguous_failure_ids: [],
    failure_reasons: { b: 'OOM killed' },
  });
  assert.deepEqual(run.kind === 'run-report' && run.entries.map((e) => [e.instanceId, e.verdict.status, e.verdict.detail]), [
    ['a', 'resolved', undefined], ['b', 'unresolved', 'infra failure: OOM killed'], ['c', 'unresolved', undefined], ['d', 'error', 'infra failure'],
  ]);
});

test('an error entry in predictions: its message is kept short, and an entry with a patch is no error entry', () => {
  const long = 'x'.repeat(5000);
  const r = parsePredictions(JSON.stringify([{ instance_id: 'o__r-1', error: long }, { instance_id: 'o__r-2', error: { code: 429 } }, { instance_id: 'o__r-3', error: 'late', model_patch: '' }]), 'p.json');
  assert.deepEqual(r.errorEntries.map((e) => [e.instanceId, e.error.length <= 201, e.line]), [['o__r-1', true, 1], ['o__r-2', true, 1]]);
  assert.equal(r.errorEntries[1]?.error, '{"code":429}');
  assert.deepEqual(r.predictions.map((p) => p.instanceId), ['o__r-3']);
});
