// The drafter's reply checks: each bad spec is rejected with its reason, the rest survive; nothing surviving fails
// the draft with every reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkDraft, normalizeSpace } from '../../../src/core/specs/draftCheck';
import type { DraftContext } from '../../../src/core/specs/draftCheck';
import type { DraftReply } from '../../../src/core/specs/draftPrompt';

const ctx: DraftContext = {
  tests: [
    { id: 'T1', name: 'tests/test_sep.py::test_nested_compound', kind: 'fail_to_pass', specs: [] },
    { id: 'T2', name: 'tests/test_sep.py::test_simple', kind: 'pass_to_pass', specs: [] },
  ],
  request: 'Modeling separability is wrong.\nThe separability matrix of nested\n  compound models is not computed correctly. Simple models keep working.',
  testPatch: 'diff --git a/tests/test_sep.py b/tests/test_sep.py\n--- a/tests/test_sep.py\n+++ b/tests/test_sep.py\n@@ -1,2 +1,4 @@\n+def test_nested_compound():\n+    assert separability_matrix(m & (a & b)).all()\n',
  goldPatch: 'diff --git a/sep.py b/sep.py\n--- a/sep.py\n+++ b/sep.py\n@@ -1 +1 @@\n-    cright[-right.shape[0]:, -right.shape[1]:] = 1\n+    cright[-right.shape[0]:, -right.shape[1]:] = right\n',
};

type S = DraftReply['specs'][number];
const spec = (over: Partial<S> = {}): S => ({
  id: 'S1',
  text: 'The separability matrix of a nested compound model is computed as for the flat model.',
  category: 'computation-algorithms',
  dependsOn: [],
  tests: ['T1'],
  citation: { quote: 'The separability matrix of nested compound models is not computed correctly.', source: 'request', line: null },
  ...over,
});
const reply = (...specs: S[]) => JSON.stringify({ refusal: null, specs });
const good2 = spec({ id: 'S2', text: 'Simple models keep their separability.', tests: ['tests/test_sep.py::test_simple'], dependsOn: ['S1'], citation: { quote: 'assert separability_matrix(m & (a & b)).all()', source: 'test_patch', line: 6 } });

test('a good draft keeps every spec, its citation, and maps tests given by id or full name', () => {
  const r = checkDraft(reply(spec(), good2), ctx);
  assert.equal(r.ok, true);
  if (!r.ok) return;
  assert.deepEqual(r.specs.map((s) => s.id), ['S1', 'S2']);
  assert.deepEqual(r.tests.map((t) => [t.id, t.specs]), [['T1', ['S1']], ['T2', ['S2']]]);
  assert.deepEqual(r.citations.S2, { quote: 'assert separability_matrix(m & (a & b)).all()', source: 'test_patch', line: 6 });
  assert.deepEqual(r.rejections, []);
});

test('a quote wrapped differently than the request still holds (whitespace normalised)', () => {
  const r = checkDraft(reply(spec({ citation: { quote: 'The separability   matrix of nested compound\nmodels', source: 'request', line: null } })), ctx);
  assert.equal(r.ok, true);
  assert.equal(normalizeSpace(' a \n\t b '), 'a b');
});

test('a quote that is not in the request is rejected with the reason; the other spec survives', () => {
  const r = checkDraft(reply(spec({ citation: { quote: 'The matrix must be cached between calls.', source: 'request', line: null } }), good2), ctx);
  assert.equal(r.ok, true);
  if (!r.ok) return;
  assert.deepEqual(r.specs.map((s) => s.id), ['S2']);
  assert.equal(r.rejections.length, 1);
  assert.match(r.rejections[0]?.reason ?? '', /specs\[0\] \(S1\): citation\.quote: "The matrix must be cached between calls\." is not in the request/);
  assert.deepEqual(r.specs[0]?.dependsOn, [], 'the link to the rejected spec is dropped');
  assert.match(r.notes.join('\n'), /S2: dependsOn S1 dropped/);
});

test('a patch citation must be on the line it names, and needs a line', () => {
  const wrongLine = checkDraft(reply(spec(), spec({ id: 'S2', text: 'other', citation: { quote: 'assert separability_matrix', source: 'test_patch', line: 5 } })), ctx);
  assert.equal(wrongLine.ok, true);
  if (wrongLine.ok) assert.match(wrongLine.rejections[0]?.reason ?? '', /is not on line 5 of the test patch \(it reads "\+def test_nested_compound\(\):"\)/);
  const noLine = checkDraft(reply(spec(), spec({ id: 'S2', text: 'other', citation: { quote: 'cright[-right.shape[0]:, -right.shape[1]:] = right', source: 'gold_patch', line: null } })), ctx);
  assert.equal(noLine.ok, true);
  if (noLine.ok) assert.match(noLine.rejections[0]?.reason ?? '', /needs the line number/);
  const gold = checkDraft(reply(spec(), spec({ id: 'S2', text: 'other', citation: { quote: 'cright[-right.shape[0]:, -right.shape[1]:] = right', source: 'gold_patch', line: 6 } })), ctx);
  assert.equal(gold.ok && gold.rejections.length, 0);
  const outOfRange = checkDraft(reply(spec(), spec({ id: 'S2', text: 'other', citation: { quote: 'cright[-right', source: 'gold_patch', line: 99 } })), ctx);
  assert.equal(outOfRange.ok, true);
  if (outOfRange.ok) assert.match(outOfRange.rejections[0]?.reason ?? '', /the gold patch has no line 99/);
});

test('a too-short quote, an unknown source, a missing gold patch are rejected', () => {
  const r = checkDraft(reply(spec(), spec({ id: 'S2', text: 'two', citation: { quote: 'The', source: 'request', line: null } }), spec({ id: 'S3', text: 'three', citation: { quote: 'whatever it is', source: 'hints' as 'request', line: null } })), ctx);
  assert.equal(r.ok, true);
  if (!r.ok) return;
  assert.match(r.rejections[0]?.reason ?? '', /shorter than 8 characters/);
  assert.match(r.rejections[1]?.reason ?? '', /"hints" is not one of request, test_patch, gold_patch/);
  const noGold = checkDraft(reply(spec({ citation: { quote: 'cright[-right.shape', source: 'gold_patch', line: 6 } })), { ...ctx, goldPatch: undefined });
  assert.equal(noGold.ok, false);
  if (!noGold.ok) assert.match(noGold.reasons[0] ?? '', /has no gold patch to cite/);
});

test('a test the task does not have rejects the spec', () => {
  const r = checkDraft(reply(spec({ tests: ['T1', 'T9'] }), good2), ctx);
  assert.equal(r.ok, true);
  if (r.ok) assert.match(r.rejections[0]?.reason ?? '', /tests: the task has no test "T9"/);
});

test('empty and duplicate specs, unknown categories and bad ids are rejected', () => {
  const r = checkDraft(
    reply(
      spec(),
      spec({ id: 'S2', text: '   ' }),
      spec({ id: 'S3', text: '  the separability matrix of a nested compound model is computed as for the flat model ' }),
      spec({ id: 'S1', text: 'again S1' }),
      spec({ id: 'S5', text: 'five', category: 'performance' }),
      spec({ id: '../x', text: 'six' }),
    ),
    ctx,
  );
  assert.equal(r.ok, true);
  if (!r.ok) return;
  assert.deepEqual(r.specs.map((s) => s.id), ['S1']);
  assert.deepEqual(
    r.rejections.map((x) => x.reason.replace(/^specs\[\d\] \([^)]*\): /, '')),
    ['text: is empty', 'text: duplicates spec S1', 'id: "S1" is used by an earlier spec', `category: "performance" is not in the taxonomy (data-transformation, parsing-representation, computation-algorithms, domain-protocol-rules, interface-io-contracts, control-flow-ordering, state-consistency, error-handling, compatibility, other)`, 'id: "../x" is not a usable id (letters, digits, . _ -; up to 200)'],
  );
});

test('a dependsOn cycle rejects the specs on it, naming the cycle; a spec off the cycle survives', () => {
  const r = checkDraft(
    reply(spec({ dependsOn: ['S3'] }), spec({ id: 'S2', text: 'two', dependsOn: ['S1'] }), spec({ id: 'S3', text: 'three', dependsOn: ['S1'] }), spec({ id: 'S4', text: 'four', dependsOn: ['S4'] })),
    ctx,
  );
  assert.equal(r.ok, true);
  if (!r.ok) return;
  assert.deepEqual(r.specs.map((s) => [s.id, s.dependsOn]), [['S2', []]]);
  assert.deepEqual(r.rejections.map((x) => x.reason), [
    'specs[0] (S1): dependsOn: closes a cycle S1 -> S3 -> S1',
    'specs[2] (S3): dependsOn: closes a cycle S1 -> S3 -> S1',
    'specs[3] (S4): dependsOn: a spec cannot depend on itself (cycle S4 -> S4)',
  ]);
});

test('when every spec is on a cycle the draft fails with every reason', () => {
  const r = checkDraft(reply(spec({ dependsOn: ['S2'] }), spec({ id: 'S2', text: 'two', dependsOn: ['S1'] })), ctx);
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.equal(r.kind, 'none_survived');
  assert.deepEqual(r.reasons, ['specs[0] (S1): dependsOn: closes a cycle S1 -> S2 -> S1', 'specs[1] (S2): dependsOn: closes a cycle S1 -> S2 -> S1']);
});

test('a dependsOn naming no spec of the reply rejects the spec', () => {
  const r = checkDraft(reply(spec(), spec({ id: 'S2', text: 'two', dependsOn: ['S7'] })), ctx);
  assert.equal(r.ok && r.rejections[0]?.reason, 'specs[1] (S2): dependsOn: there is no spec "S7"');
});

test('a reply that is not JSON, breaks the schema, refuses or proposes nothing fails the draft', () => {
  const notJson = checkDraft('Sure! Here are the specs: S1 ...', ctx);
  assert.equal(notJson.ok === false && notJson.kind, 'not_json');
  if (!notJson.ok) assert.match(notJson.reasons[0] ?? '', /the reply is not JSON .*it begins "Sure! Here are the specs/);
  const schema = checkDraft(JSON.stringify({ refusal: null, specs: [{ id: 'S1', text: 'x' }] }), ctx);
  assert.equal(schema.ok === false && schema.kind, 'schema');
  if (!schema.ok) assert.match(schema.reasons.join('\n'), /\/specs\/0: must have required property 'category'/);
  const extra = checkDraft(JSON.stringify({ refusal: null, specs: [], extra: 1 }), ctx);
  assert.equal(extra.ok === false && extra.kind, 'schema');
  const dup = checkDraft('{"refusal":null,"specs":[],"specs":[]}', ctx);
  assert.equal(dup.ok === false && dup.kind, 'not_json', 'a member named twice is refused by the strict parser');
  const refused = checkDraft(JSON.stringify({ refusal: 'the request is empty', specs: [] }), ctx);
  assert.equal(refused.ok === false && refused.kind, 'refused');
  if (!refused.ok) assert.deepEqual(refused.reasons, ['the model declined: the request is empty']);
  const empty = checkDraft(reply(), ctx);
  assert.equal(empty.ok === false && empty.kind, 'empty');
  const fenced = checkDraft(`\`\`\`json\n${reply(spec())}\n\`\`\``, ctx);
  assert.equal(fenced.ok, true);
});
