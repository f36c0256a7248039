// The deterministic side of the LLM-written probes: the prompt, the checks of a reply (JSON, schema, each patch a
// unified diff touching only the gold patch's files or saying why, never a test file), the log lines of a failure,
// and the two reports (a rejected alternative tied to its failing test and specs, or flagged "test beyond the specs";
// a surviving variant reported for its spec; a patch that does not apply never counted as rejected or killed).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import type { CandidateTask } from '../../../src/core/model';
import type { CheckedPatch, LlmPatchRun, PatchCheckContext } from '../../../src/core/probes/llmPatches';
import { alternativesReport, buildPatchPrompt, checkPatchReply, failureLines, recountHunks, variantsReport, variantSpecs } from '../../../src/core/probes/llmPatches';
import type { GradeLists, RunStatus, VerifierRunRecord } from '../../../src/core/verify/runResult';
import { EXAMPLE_TASKS, halfEven, minuteDefault, notApplying, otherMessage, patchOf, replyWith, taskFile } from './llmPatchesFixtures';

const dataset = loadDataset(path.dirname(EXAMPLE_TASKS));
const task = (id: string) => dataset.tasks.find((t) => t.id === id) as CandidateTask;
const TC = task('total-command');
const FP = task('format-precision');
const altCtx: PatchCheckContext = { kind: 'alternatives', goldPatch: taskFile('total-command', 'gold.patch'), testPatch: taskFile('total-command', 'tests.patch'), count: 3 };
const varCtx: PatchCheckContext = { kind: 'variants', goldPatch: taskFile('format-precision', 'gold.patch'), testPatch: taskFile('format-precision', 'tests.patch'), count: 2, specs: ['A1', 'A2'] };

test('a good reply keeps its patches with stable ids; the files they touch are named', () => {
  const r = checkPatchReply(replyWith(patchOf(otherMessage(), { summary: 'other words' }), patchOf(notApplying())), altCtx);
  assert.equal(r.ok, true, JSON.stringify(r));
  if (!r.ok) return;
  assert.equal(r.patches.length, 2);
  assert.match(r.patches[0]?.id ?? '', /^alt-[0-9a-f]{10}$/);
  assert.deepEqual(r.patches[0]?.files, ['durations/cli.py']);
  assert.equal(r.patches[0]?.summary, 'other words');
  const again = checkPatchReply(replyWith(patchOf(otherMessage())), altCtx);
  assert.equal(again.ok && again.patches[0]?.id, r.patches[0]?.id, 'the same patch has the same id on every run');
  // The miscounted hunk of the non-applying rewrite was recounted (git apply would refuse its header otherwise).
  assert.deepEqual(r.patches[1]?.notes, ['1 hunk header(s) recounted from their bodies']);
  assert.match(r.patches[1]?.patch ?? '', /^@@ -2,6 \+2,6 @@/m);
});

test('a reply that is not JSON, breaks the schema, refuses or has no patch fails as a whole', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['Sure! Here is the patch: diff --git ...', 'not_json', /not JSON/],
    ['{"refusal": null, "patches": [], "patches": []}', 'not_json', /not JSON/],
    ['{"patches": []}', 'schema', /refusal/],
    ['{"refusal": null, "patches": {}}', 'schema', /patches: expected an array/],
    ['{"refusal": "I cannot help with that.", "patches": []}', 'refused', /refused: I cannot help/],
    ['{"refusal": null, "patches": []}', 'empty', /no patch/],
  ];
  for (const [text, kind, message] of cases) {
    const r = checkPatchReply(text, altCtx);
    assert.equal(r.ok, false, text);
    if (r.ok) continue;
    assert.equal(r.kind, kind, text);
    assert.match(r.reasons.join('; '), message, text);
  }
});

test('each bad patch is rejected with its reason; the good ones are kept', () => {
  const testFile = ['diff --git a/tests/test_cli.py b/tests/test_cli.py', '--- a/tests/test_cli.py', '+++ b/tests/test_cli.py', '@@ -1,1 +1,1 @@', '-import re', '+import re  # loosened', ''].join('\n');
  const conftest = ['diff --git a/conftest.py b/conftest.py', 'new file mode 100644', '--- /dev/null', '+++ b/conftest.py', '@@ -0,0 +1,1 @@', '+import pytest', ''].join('\n');
  const outside = ['diff --git a/durations/errors.py b/durations/errors.py', '--- a/durations/errors.py', '+++ b/durations/errors.py', '@@ -1,1 +1,1 @@', '-x = 1', '+x = 2', ''].join('\n');
  const escape = ['diff --git a/../etc/passwd b/../etc/passwd', '--- a/../etc/passwd', '+++ b/../etc/passwd', '@@ -1,1 +1,1 @@', '-a', '+b', ''].join('\n');
  const r = checkPatchReply(
    replyWith(
      patchOf('I changed the message in cli.py.'),
      patchOf(testFile),
      patchOf(conftest),
      patchOf(outside),
      patchOf(escape),
      patchOf(taskFile('total-command', 'gold.patch')),
      patchOf(otherMessage()),
      patchOf(otherMessage()),
      patchOf(outside, { outsideGoldFiles: 'the error type lives there' }),
    ),
    { ...altCtx, count: 3 },
  );
  assert.equal(r.ok, true, JSON.stringify(r));
  if (!r.ok) return;
  assert.deepEqual(
    r.rejections.map((x) => x.reason),
    [
      'patches[0]: not a unified diff (not a patch: no "diff --git" or "---/+++" file header found)',
      "patches[1]: it touches test file(s) tests/test_cli.py: the task's tests are fixed",
      "patches[2]: it touches test file(s) conftest.py: the task's tests are fixed",
      'patches[3]: it touches durations/errors.py, which the gold patch does not, and does not say why (outsideGoldFiles)',
      'patches[4]: the path "../etc/passwd" leaves the repository',
      'patches[5]: it is the gold patch itself',
      'patches[7]: the same patch as an earlier one',
    ],
  );
  assert.deepEqual(r.patches.map((p) => p.index), [6, 8]);
  assert.equal(r.patches[1]?.outsideGoldFiles, 'the error type lives there');
});

test('more patches than asked for are rejected; a reply whose every patch is bad fails with each reason', () => {
  const r = checkPatchReply(replyWith(patchOf(otherMessage()), patchOf(notApplying())), { ...altCtx, count: 1 });
  assert.ok(r.ok);
  if (r.ok) assert.deepEqual(r.rejections.map((x) => x.reason), ['patches[1]: more patches than the 1 asked for']);
  const none = checkPatchReply(replyWith(patchOf('not a diff'), patchOf(taskFile('total-command', 'tests.patch'))), altCtx);
  assert.equal(none.ok, false);
  if (!none.ok) {
    assert.equal(none.kind, 'none_survived');
    assert.equal(none.reasons.length, 2);
    assert.match(none.reasons[1] ?? '', /touches test file\(s\) tests\/test_cli\.py/);
  }
});

test('variants: each names one spec asked about, one per spec', () => {
  const r = checkPatchReply(
    replyWith(patchOf(halfEven(), { spec: 'A2' }), patchOf(minuteDefault(), { spec: 'A2' }), patchOf(minuteDefault(), { spec: 'A9' }), patchOf(minuteDefault(), { spec: null }), patchOf(minuteDefault(), { spec: 'A1' })),
    varCtx,
  );
  assert.ok(r.ok, JSON.stringify(r));
  if (!r.ok) return;
  assert.deepEqual(r.rejections.map((x) => x.reason), [
    'patches[1] (A2): a second variant for the same spec (one per spec was asked for)',
    'patches[2] (A9): spec "A9" was not asked about (asked: A1, A2)',
    'patches[3]: spec: a variant names the spec it violates',
  ]);
  assert.deepEqual(r.patches.map((p) => [p.spec, p.id.slice(0, 7)]), [['A2', 'var-A2-'], ['A1', 'var-A1-']]);
  assert.deepEqual(variantSpecs(FP, 2), ['A1', 'A2']);
});

test('hunk headers are recounted from their bodies, blank context lines get their space back', () => {
  const p = ['--- a/f.py', '+++ b/f.py', '@@ -1 +1 @@', ' a', '', '-b', '+c', '+d', ''].join('\n');
  const r = recountHunks(p);
  assert.equal(r.fixed, 1);
  assert.equal(r.patch, ['--- a/f.py', '+++ b/f.py', '@@ -1,3 +1,4 @@', ' a', ' ', '-b', '+c', '+d', ''].join('\n'));
  assert.equal(recountHunks(r.patch).fixed, 0);
});

test('the prompt carries the request, specs, tests with their specs, the gold patch and the base files; it is stable', () => {
  const inp = { kind: 'alternatives' as const, task: TC, request: taskFile('total-command', 'request.md'), goldPatch: taskFile('total-command', 'gold.patch'), baseFiles: [{ path: 'durations/cli.py', text: 'import argparse\n' }], count: 2, budgetTokens: 20000 };
  const p = buildPatchPrompt(inp);
  const user = p.messages[1]?.content ?? '';
  assert.match(user, /B5 \(error-handling\): Each invalid line is reported/);
  assert.match(user, /TB3 fail_to_pass tests\/test_cli\.py::test_total_reports_bad_line_location \(specs: B4, B5\)/);
  assert.match(user, /PB1 pass_to_pass tests\/test_cli\.py::test_sum_adds_durations \(no spec\)/);
  assert.match(user, /### BASE durations\/cli\.py\nimport argparse/);
  assert.match(user, /Write 2 alternative solution\(s\)/);
  assert.deepEqual(p.cut, []);
  assert.equal(buildPatchPrompt(inp).hash, p.hash);
  const small = buildPatchPrompt({ ...inp, baseFiles: [{ path: 'durations/cli.py', text: 'x = 1\n'.repeat(20000) }], budgetTokens: 3000 });
  assert.deepEqual(small.cut, ['base:durations/cli.py']);
  assert.match(small.messages[1]?.content ?? '', /\[\.\.\. \d+ lines cut \.\.\.\]/);
  const v = buildPatchPrompt({ ...inp, kind: 'variants', task: FP, specs: ['A1', 'A2'] });
  assert.match(v.messages[1]?.content ?? '', /one plausible-wrong variant for each of these specs: A1, A2/);
  assert.match(v.messages[0]?.content ?? '', /violates THAT spec/);
});

const PYTEST_LOG = [
  '============================= test session starts ==============================',
  'tests/test_cli.py ....F.....                                              [100%]',
  '',
  '=================================== FAILURES ===================================',
  '_____________________ test_total_reports_bad_line_location _____________________',
  '',
  'tmp_path = PosixPath(\'/tmp/x\')',
  '',
  '    def test_total_reports_bad_line_location(tmp_path):',
  '>       assert proc.stderr == "error: log.txt:3: cannot parse \'abc\'\\n"',
  'E       assert "durations: l...parse \'abc\'\\n" == "error: log.t...parse \'abc\'\\n"',
  'E         - error: log.txt:3: cannot parse \'abc\'',
  '',
  'tests/test_cli.py:45: AssertionError',
  '=========================== short test summary info ============================',
  'PASSED tests/test_cli.py::test_sum_adds_durations',
  'FAILED tests/test_cli.py::test_total_reports_bad_line_location - assert "durations...',
  '========================= 1 failed, 9 passed in 0.31s ==========================',
].join('\n');

test("a failure's log lines: the assertion, the E lines, the location and the summary line, with line numbers", () => {
  const lines = failureLines(PYTEST_LOG, 'tests/test_cli.py::test_total_reports_bad_line_location');
  assert.deepEqual(lines.map((l) => l.line), [10, 11, 12, 14, 17]);
  assert.match(lines[0]?.text ?? '', /^> +assert proc\.stderr ==/);
  assert.deepEqual(failureLines(PYTEST_LOG, 'tests/test_cli.py::test_not_there'), []);
});

const lists = (o: Partial<GradeLists> = {}): GradeLists => ({ success: [], failure: [], missing: [], skipped: [], ...o });
function run(status: RunStatus, o: { f2pFail?: string[]; p2pFail?: string[]; apply?: 'failed' | 'git-apply' } = {}): NonNullable<LlmPatchRun['run']> {
  return {
    status,
    reason: `because ${status}`,
    apply: { attempt: { method: o.apply ?? 'git-apply' }, test: { method: 'git-apply' } },
    grade: { failToPass: lists({ failure: o.f2pFail ?? [] }), passToPass: lists({ failure: o.p2pFail ?? [] }), resolved: status === 'passed', tests: Object.fromEntries([...(o.f2pFail ?? []), ...(o.p2pFail ?? [])].map((t) => [t, 'FAILED'])), looseMatches: [] },
  } as Pick<VerifierRunRecord, 'status' | 'reason' | 'apply' | 'grade'>;
}
const patch = (id: string, spec?: string): CheckedPatch => ({ index: 0, id, ...(spec ? { spec } : {}), summary: id, patch: `patch of ${id}`, files: ['durations/cli.py'], notes: [] });
const llm = { model: 'gpt-4o-mini', answeredBy: 'gpt-4o-mini', promptVersion: 'v', promptHash: 'h', costSource: 'price-table', tries: 1 };
const now = new Date('2026-12-01T00:00:00Z');
const TB3 = 'tests/test_cli.py::test_total_reports_bad_line_location';
const PB1 = 'tests/test_cli.py::test_sum_adds_durations';

test('alternatives: a rejection is tied to its failing test, its log lines and its specs; a failing test with no spec is "beyond the specs"', () => {
  const r = alternativesReport({
    task: TC,
    gold: { status: 'passed', reason: '' },
    llm,
    invalid: [{ index: 4, reason: 'patches[4]: it is the gold patch itself' }],
    requested: 5,
    now,
    runs: [
      { patch: patch('alt-1'), run: run('failed', { f2pFail: [TB3] }), stdout: PYTEST_LOG },
      { patch: patch('alt-2'), run: run('failed', { p2pFail: [PB1] }) },
      { patch: patch('alt-3'), run: run('passed') },
      { patch: patch('alt-4'), run: run('apply_failed', { apply: 'failed' }) },
      { patch: patch('alt-5'), run: run('timeout') },
      { patch: patch('alt-6'), error: 'the verifier refused the request' },
    ],
  });
  assert.deepEqual(r.counts, { rejected: 2, accepted: 1, did_not_apply: 1, timed_out: 1, out_of_memory: 0, error: 1 });
  const [a1, a2] = r.alternatives;
  assert.equal(a1?.outcome, 'rejected');
  assert.deepEqual(a1?.failingTests.map((f) => [f.test, f.kind, f.status, f.specs]), [['TB3', 'fail_to_pass', 'FAILED', ['B4', 'B5']]]);
  assert.deepEqual(a1?.failingTests[0]?.log.map((l) => l.line), [10, 11, 12, 14, 17]);
  assert.deepEqual(a1?.specs, ['B4', 'B5']);
  assert.deepEqual(a1?.beyondSpecs, []);
  assert.deepEqual(a2?.beyondSpecs, ['PB1'], 'PB1 maps to no spec: the test asks for more than the specs');
  assert.deepEqual(a2?.failingTests[0]?.log, [], 'no output kept: no log lines, never invented ones');
  assert.equal(r.alternatives[3]?.outcome, 'did_not_apply');
  assert.deepEqual(r.alternatives[3]?.failingTests, []);
  assert.equal(r.alternatives[5]?.reason, 'the verifier refused the request');
  assert.equal(r.invalid.length, 1);
  assert.equal(r.alternatives[0]?.patch, 'patch of alt-1', 'every alternative keeps its diff');
});

test('variants: per spec, a survivor is evidence its tests do not check it; one that does not apply is never killed', () => {
  const r = variantsReport({
    task: FP,
    gold: { status: 'passed', reason: '' },
    llm,
    invalid: [],
    requested: ['A1', 'A2', 'A3'],
    now,
    runs: [
      { patch: patch('var-A1-x', 'A1'), run: run('failed', { f2pFail: ['tests/test_format.py::test_default_precision_is_seconds'] }) },
      { patch: patch('var-A2-x', 'A2'), run: run('passed') },
      { patch: patch('var-A3-x', 'A3'), run: run('apply_failed', { apply: 'failed' }) },
    ],
  });
  assert.deepEqual(r.counts, { killed: 1, survived: 1, did_not_apply: 1, timed_out: 0, out_of_memory: 0, error: 0 });
  assert.deepEqual(r.specs.map((s) => [s.spec, s.variants, s.killed, s.survived, s.other]), [['A1', 1, 1, 0, 0], ['A2', 1, 0, 1, 0], ['A3', 1, 0, 0, 1]]);
  const survivor = r.variants.find((v) => v.outcome === 'survived');
  assert.equal(survivor?.spec, 'A2');
  assert.equal(survivor?.patch, 'patch of var-A2-x');
});
