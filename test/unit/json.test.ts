// The one strict JSON parser for records: nesting depth is capped before parsing, duplicate member names are
// refused, and both are reported with the file and line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_JSON_DEPTH, parseJson, parseJsonLines, parseRecordJson } from '../../src/core/json';

const deep = (n: number, inner = '1') => '{"a":'.repeat(n) + inner + '}'.repeat(n);

test('JSON nested deeper than the cap is a problem with its line, not a crash', () => {
  const text = `{\n  "id": "t1",\n  "source": ${deep(5000)}\n}\n`;
  const r = parseJson(text, 'tasks/t1/task.json');
  assert.equal(r.ok, false);
  assert.ok(!r.ok);
  assert.equal(r.problem.file, 'tasks/t1/task.json');
  assert.equal(r.problem.line, 3);
  assert.match(r.problem.message, new RegExp(`nested deeper than ${MAX_JSON_DEPTH} levels`));
  // Malformed and deep at once: still a problem (the tolerant second pass must not recurse into it).
  const bad = parseJson(`[${'['.repeat(20000)}`, 'x.json');
  assert.ok(!bad.ok);
  assert.match(bad.problem.message, /nested deeper/);
  // Strings are skipped: brackets inside them do not count.
  assert.ok(parseJson(JSON.stringify({ s: '['.repeat(10000) }), 'x.json').ok);
  assert.ok(parseJson(deep(MAX_JSON_DEPTH - 1), 'x.json').ok);
  assert.ok(!parseJson(deep(MAX_JSON_DEPTH + 1), 'x.json').ok);
});

test('a duplicate member name is refused with its line and name, at any level', () => {
  const text = '{\n  "id": "e1",\n  "curator": "alice",\n  "payload": {"x": 1},\n  "curator": "bob"\n}\n';
  const r = parseJson(text, 'curation/events.jsonl');
  assert.ok(!r.ok);
  assert.equal(r.problem.line, 5);
  assert.match(r.problem.message, /"curator" appears twice/);
  const nested = parseJson('{"a": [{"k": 1, "j": 2}, {"k": 1, "k": 2}]}', 'f.json');
  assert.ok(!nested.ok);
  assert.match(nested.problem.message, /"k" appears twice/);
  // The same name in sibling objects, or escaped differently but equal, is judged by the decoded name.
  assert.ok(parseJson('[{"k": 1}, {"k": 2}]', 'f.json').ok);
  const escaped = parseJson('{"k": 1, "\\u006b": 2}', 'f.json');
  assert.ok(!escaped.ok);
  assert.match(escaped.problem.message, /"k" appears twice/);
  // A name like __proto__ counts as a name like any other.
  assert.ok(!parseJson('{"__proto__": 1, "__proto__": 2}', 'f.json').ok);
  assert.ok(parseJson('{"__proto__": {"a": 1}, "b": {"a": 2}}', 'f.json').ok);
});

test('JSON Lines: a deep or duplicate-key line is reported with its line and the other lines are kept', () => {
  const text = ['{"a": 1}', deep(3000), '{"c": 1, "c": 2}', '{"d": 4}', ''].join('\n');
  const r = parseJsonLines(text, 'rows.jsonl');
  assert.deepEqual(r.values.map((v) => v.line), [1, 4]);
  assert.deepEqual(r.problems.map((p) => p.line), [2, 3]);
  assert.match(r.problems[0]?.message ?? '', /nested deeper/);
  assert.match(r.problems[1]?.message ?? '', /"c" appears twice/);
});

test('parseRecordJson gives the value or one message, for callers that keep a single record', () => {
  assert.deepEqual(parseRecordJson('\ufeff{"a": [1, 2]}'), { ok: true, value: { a: [1, 2] } });
  const r = parseRecordJson('{"a": 1, "a": 2}');
  assert.ok(!r.ok);
  assert.match(r.message, /line 1: member "a" appears twice/);
});
