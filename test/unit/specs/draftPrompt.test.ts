// The drafter's prompt: every part present and numbered, big parts capped with the cut marked, the hunks defining
// the fail-to-pass tests kept first, deterministic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDraftPrompt, DRAFT_SCHEMA, numberedPatch, SPEC_CATEGORIES } from '../../../src/core/specs/draftPrompt';
import type { TestCase } from '../../../src/core/model';

const tests: TestCase[] = [
  { id: 'T1', name: 'tests/test_b.py::TestB::test_wanted[1]', kind: 'fail_to_pass', specs: [] },
  { id: 'T2', name: 'tests/test_a.py::test_other', kind: 'pass_to_pass', specs: [] },
];
const hunk = (name: string, body: number) => `@@ -1,1 +1,${body + 1} @@\n+def ${name}():\n${Array.from({ length: body }, (_, i) => `+    x${i} = ${i}  # ${name}`).join('\n')}\n`;
const bigPatch = `diff --git a/tests/test_a.py b/tests/test_a.py\n--- a/tests/test_a.py\n+++ b/tests/test_a.py\n${Array.from({ length: 40 }, (_, i) => hunk(`test_filler_${i}`, 50)).join('')}diff --git a/tests/test_b.py b/tests/test_b.py\n--- a/tests/test_b.py\n+++ b/tests/test_b.py\n${hunk('test_wanted', 20)}`;

test('a small task is sent whole: request, tests, numbered patches, no cut markers', () => {
  const p = buildDraftPrompt({ task: { id: 't1', tests }, request: 'Fix the bug.\nIt matters.', testPatch: hunk('test_wanted', 2), goldPatch: '--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n', budgetTokens: 20_000 });
  const user = p.messages[1]?.content ?? '';
  assert.match(user, /## Request\nFix the bug\.\nIt matters\./);
  assert.match(user, /T1 fail_to_pass tests\/test_b\.py::TestB::test_wanted\[1\]\nT2 pass_to_pass tests\/test_a\.py::test_other/);
  assert.match(user, /## Test patch \(numbered lines\)\n1\| @@ -1,1 \+1,3 @@\n2\| \+def test_wanted\(\):/);
  assert.match(user, /## Gold patch \(numbered lines\)\n1\| --- a\/x\.py\n2\| \+\+\+ b\/x\.py/);
  assert.doesNotMatch(user, /lines? cut/);
  assert.match(p.messages[0]?.content ?? '', new RegExp(SPEC_CATEGORIES.join(', ')));
  assert.ok(p.parts.every((x) => x.lines === x.linesKept));
});

test('a big test patch is capped: the hunk defining the F2P test is kept first, gaps marked, line numbers kept', () => {
  const p = buildDraftPrompt({ task: { id: 't1', tests }, request: 'Fix it.', testPatch: bigPatch, budgetTokens: 6000 });
  const user = p.messages[1]?.content ?? '';
  const part = p.parts.find((x) => x.id === 'test_patch');
  assert.ok(part && part.linesKept < part.lines, 'the patch was cut');
  const lines = bigPatch.split('\n');
  const wanted = lines.indexOf('+def test_wanted():') + 1;
  assert.match(user, new RegExp(`${wanted}\\| \\+def test_wanted\\(\\):`), 'the F2P hunk is there with its original line number');
  assert.match(user, new RegExp(`${wanted - 2}\\| \\+\\+\\+ b/tests/test_b\\.py`), 'with its file header');
  assert.match(user, /\[\.\.\. \d+ lines cut \.\.\.\]/);
  assert.ok(p.estimatedTokens <= 6000 + 200, `within the budget: ${p.estimatedTokens}`);
  assert.deepEqual(buildDraftPrompt({ task: { id: 't1', tests }, request: 'Fix it.', testPatch: bigPatch, budgetTokens: 6000 }), p, 'deterministic');
});

test('a long request keeps its head and says how many lines were cut', () => {
  const request = Array.from({ length: 5000 }, (_, i) => `line ${i} of the issue`).join('\n');
  const p = buildDraftPrompt({ task: { id: 't1', tests }, request, testPatch: '', budgetTokens: 4000 });
  const user = p.messages[1]?.content ?? '';
  assert.match(user, /## Request\nline 0 of the issue\n/);
  const m = /\[\.\.\. (\d+) lines cut \.\.\.\]/.exec(user);
  const kept = p.parts.find((x) => x.id === 'request')?.linesKept ?? 0;
  assert.equal(Number(m?.[1]), 5000 - kept);
  assert.match(user, /## Test patch \(numbered lines\)\n\(none\)/);
});

test('numberedPatch alone: one marker per gap, a hunk too big keeps its head', () => {
  const r = numberedPatch('a\nb\nc\nd', 20);
  assert.equal(r.text, '1| a\n2| b\n3| c\n4| d');
  const cut = numberedPatch(`@@ -1 +1,30 @@\n${Array.from({ length: 30 }, (_, i) => `+line ${i}`).join('\n')}`, 60);
  assert.match(cut.text, /^ 1\| @@ -1 \+1,30 @@\n 2\| \+line 0\n/);
  assert.match(cut.text, /\[\.\.\. \d+ lines cut \.\.\.\]$/);
});

test('the reply schema is strict: every property required, no extra properties', () => {
  const item = (DRAFT_SCHEMA as { properties: { specs: { items: { required: string[]; additionalProperties: boolean } } } }).properties.specs.items;
  assert.deepEqual(item.required, ['id', 'text', 'category', 'dependsOn', 'tests', 'citation']);
  assert.equal(item.additionalProperties, false);
});
