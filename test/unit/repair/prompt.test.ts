// The repair prompt: what it chooses to show, in what order, how it fits the budget, and what it reports.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PromptInput } from '../../../src/core/repair/prompt';
import { buildPrompt, estimateTokens, promptDocument } from '../../../src/core/repair/prompt';
import { testFilesAfterPatch } from '../../../src/core/repair/revision';
import { reduceTask } from '../../../src/core/review/reducer';
import { assessTask } from '../../../src/core/review/taskReview';
import { BASE_TEST, TEST_PATCH, ev, steps, task, verifier } from './fixtures';

const files = testFilesAfterPatch(TEST_PATCH, new Map([['tests/test_x.py', BASE_TEST]])).files;
const LOG = Array.from({ length: 400 }, (_, i) => (i === 250 ? 'FAILED tests/test_x.py::test_message_exact - AssertionError' : i === 247 ? 'E       assert \'durations: f.txt, line 3\' == \'error: f.txt:3: bad\'' : `line ${i + 1} of output`)).join('\n');
const GOLD = 'diff --git a/src/m.py b/src/m.py\n--- a/src/m.py\n+++ b/src/m.py\n@@ -1,2 +1,3 @@\n def f():\n-    pass\n+    report()\n+    return 1\n';

function input(over: Partial<PromptInput> = {}, labelled = true): PromptInput {
  const t = task();
  const events = labelled
    ? [
        ev('label', { attempt: 'a1', spec: 'S1', verdict: 'satisfied', note: 'it reports file and line, just in other words', evidence: [{ kind: 'trajectory_step', attempt: 'a1', step: 107 }, { kind: 'test', test: 'T1' }] }),
        ev('score', { underspecified: 0, fnSeverity: 2, fpSeverity: 0, envDefects: [] }),
      ]
    : [];
  const v = verifier();
  return {
    task: t,
    target: 'auto',
    request: '# Request\n\nReport bad lines with the file name and the line number.\n',
    testPatch: TEST_PATCH,
    goldPatch: GOLD,
    attemptPatches: new Map([['a1', GOLD.replace('report()', 'report_other()')], ['a2', GOLD]]),
    testFiles: files,
    assessment: assessTask({ task: t, state: reduceTask('t1', events), verifier: v }),
    verifier: v,
    runLogs: new Map([['a1', { runId: 'run-a1-1', text: LOG }]]),
    trajectories: new Map([['a1', steps(300)], ['a2', steps(300)]]),
    budgetTokens: 24_000,
    ...over,
  };
}

describe('the repair prompt', () => {
  it("leads with the curator's findings and shows the failing test, its output, and the steps around the evidence", () => {
    const p = buildPrompt(input());
    const user = p.messages[1]?.content ?? '';
    assert.deepEqual(p.focus.attempts, ['a1']);
    assert.ok(p.focus.tests.includes('T1'));
    assert.match(user, /FALSE NEGATIVE: attempt a1 × spec S1: verifier fail, curator satisfied/);
    assert.match(user, /it reports file and line, just in other words/);
    assert.match(user, /tests reject valid solutions 2/);
    assert.match(user, /T1 — tests\/test_x\.py:\n```python\ndef test_message_exact\(\):/);
    assert.match(user, / {2}248\| E {7}assert 'durations: f\.txt, line 3'/);
    for (const s of [105, 106, 107, 108, 109]) assert.match(user, new RegExp(`\\[step ${s}\\]`));
    assert.match(user, /\[step 7\] observation: running test_message_exact/, 'a step mentioning the failing test');
    assert.match(user, /\[step 299\]/, 'the last steps');
    assert.ok(!/\[step 3\] /.test(user), 'an unrelated step is left out');
    // Sections in reading order; steps in step order.
    const order = ['## Task', '## Request', '## Specs', "## The curator's findings", '## Verifier results', '## Source of the tests', '## Test files', '## Verifier output', '## Trajectory of attempt a1', '## Gold patch'];
    const at = order.map((h) => user.indexOf(h));
    assert.ok(at.every((x, i) => x >= 0 && (i === 0 || x > (at[i - 1] as number))), `${order.join(' < ')}: ${at.join(', ')}`);
    const stepNums = [...user.matchAll(/\[step (\d+)\]/g)].map((m) => Number(m[1]));
    assert.deepEqual(stepNums, [...stepNums].sort((x, y) => x - y));
    assert.ok(p.estimatedTokens <= p.budgetTokens);
    assert.ok(p.sections.every((s) => s.included === 'full' || s.items === 0 || s.id.startsWith('patch:a2') || s.id.startsWith('steps:')), JSON.stringify(p.sections.filter((s) => s.included !== 'full')));
  });

  it('fits a small budget by leaving out whole items of the least relevant sections, and says which', () => {
    const p = buildPrompt(input({ budgetTokens: 3800 }));
    assert.ok(p.estimatedTokens <= 3800 - 1200 + 50, `${p.estimatedTokens}`);
    const by = new Map(p.sections.map((s) => [s.id, s]));
    for (const id of ['task', 'request', 'specs', 'review', 'verifier']) assert.equal(by.get(id)?.included, 'full', id);
    const dropped = p.sections.filter((s) => s.included !== 'full' && s.items > 0);
    assert.ok(dropped.length >= 2, JSON.stringify(p.sections));
    assert.ok(dropped.every((s) => s.reason), 'each has a reason');
    const user = p.messages[1]?.content ?? '';
    assert.match(user, /Left out to fit the budget: /);
    // Whole items only: every step shown is complete.
    for (const m of user.matchAll(/\[step (\d+)\] [^\n]*/g)) assert.ok(!m[0].includes('characters left out') || m[0].length > 100);
    // The failing test's source made it; the other attempt's patch did not.
    assert.match(user, /def test_message_exact/);
    assert.equal(by.get('patch:a2')?.included, 'omitted');
    assert.match(promptDocument(p), /patch of attempt a2: omitted \(0\/1 items, ~0 tokens\) — over the token budget/i);
  });

  it('works on a task nobody has reviewed: the verifier results steer it', () => {
    const p = buildPrompt(input({ assessment: undefined }, false));
    assert.deepEqual(p.focus.steering, ['verifier results only (no labels or flags)']);
    assert.deepEqual(p.focus.attempts, ['a1']);
    const user = p.messages[1]?.content ?? '';
    assert.match(user, /## The curator's findings/.test(user) ? /x^/ : /## Verifier results/);
    assert.equal(p.sections.find((s) => s.id === 'review')?.reason, 'no labels, notes or flags yet');
  });

  it('a flag steers it towards its test even without labels', () => {
    const t = task();
    const v = { ...verifier(), flags: [{ id: 'gold_fails_test::tests/test_x.py::test_exit_code', kind: 'gold_fails_test' as const, message: 'the gold patch fails test_exit_code', test: 'tests/test_x.py::test_exit_code' }] };
    const p = buildPrompt(input({ assessment: assessTask({ task: t, state: reduceTask('t1', []), verifier: v }), verifier: v }, false));
    assert.ok(p.focus.tests.includes('T2'));
    assert.ok(p.focus.steering.includes('verifier flags'));
    assert.match(p.messages[1]?.content ?? '', /T2 — tests\/test_x\.py:\n```python\ndef test_exit_code/);
  });

  it('estimates tokens from characters', () => {
    assert.equal(estimateTokens('x'.repeat(350)), 100);
  });
});
