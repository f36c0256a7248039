// The one YAML reader (src/core/import/simpleYaml.ts) against PyYAML: the run-folder YAML of the layout fixtures, the
// task.yaml files `yaml.safe_dump` writes, values PyYAML wrote and edge cases with what `yaml.safe_load` reads for
// them (test/fixtures/import/yaml-expected); what it does not read is refused with the file and line, never guessed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MAX_YAML_DEPTH, parseYaml } from '../../../src/core/import/simpleYaml';

const ROOT = path.resolve(__dirname, '../../..');
const EXPECTED = path.join(ROOT, 'test/fixtures/import/yaml-expected');
const read = <T>(f: string) => JSON.parse(fs.readFileSync(path.join(EXPECTED, f), 'utf8')) as T;

const ok = (text: string) => {
  const r = parseYaml(text, 'task.yaml');
  if (!r.ok) throw new Error(`${r.problem.file}:${r.problem.line}: ${r.problem.message}`);
  return r.value;
};

/** Each case is refused with an error naming `file` and the line, and a message matching the pattern. */
function assertRefused(file: string, cases: Array<[string, number, RegExp]>): void {
  for (const [text, line, why] of cases) {
    const r = parseYaml(text, file);
    assert.equal(r.ok, false, `${JSON.stringify(text)} was read as ${r.ok ? JSON.stringify(r.value) : ''}`);
    if (r.ok) continue;
    assert.deepEqual([r.problem.file, r.problem.line, r.problem.severity], [file, line, 'error'], `${JSON.stringify(text)}: ${r.problem.message}`);
    assert.match(r.problem.message, why, JSON.stringify(text));
  }
}

test('the run-folder YAML of the layout fixtures reads as PyYAML reads it', () => {
  for (const [name, c] of Object.entries(read<Record<string, { file: string; value: unknown }>>('layouts.json'))) {
    const r = parseYaml(fs.readFileSync(path.join(ROOT, c.file), 'utf8'), c.file);
    assert.ok(r.ok, `${name}: ${r.ok ? '' : r.problem.message}`);
    assert.deepEqual(r.value, c.value, name);
  }
  // SWE-agent 1.x: the document is one single-quoted JSON string folded over lines.
  const cfg = read<Record<string, { value: string }>>('layouts.json')['swe-agent-1x-run_batch.config']?.value as string;
  assert.equal((JSON.parse(cfg) as { agent: { model: { name: string } } }).agent.model.name, 'openai/gpt-4o');
});

test('values PyYAML wrote (folded scalars, escapes, nested sequences) and hand-written documents', () => {
  for (const [name, c] of Object.entries(read<Record<string, { yaml: string; value: unknown }>>('pyyaml-cases.json'))) {
    const r = parseYaml(c.yaml, name);
    assert.ok(r.ok, `${name}: ${r.ok ? '' : r.problem.message}`);
    assert.deepEqual(r.value, c.value, name);
  }
  assert.deepEqual(parseYaml('\ufeffk: v\r\nl:\r\n- 1\r\n', 'crlf.yaml'), { ok: true, value: { k: 'v', l: [1] } });
  assert.deepEqual(parseYaml('', 'empty.yaml'), { ok: true, value: null });
});

test('edge cases read as PyYAML reads them: compact nested lists, flow mappings, YAML 1.1 types, blanks in block scalars, document markers', () => {
  const cases = read<Record<string, { yaml: string; value: unknown }>>('pyyaml-edge.json');
  assert.ok(Object.keys(cases).length >= 30);
  for (const [name, c] of Object.entries(cases)) {
    const r = parseYaml(c.yaml, name);
    assert.ok(r.ok, `${name}: ${r.ok ? '' : `line ${r.problem.line}: ${r.problem.message}`}`);
    assert.deepEqual(r.value, c.value, name);
  }
  // What JSON cannot hold in the fixture.
  assert.deepEqual(ok('a: .inf\nb: -.Inf\nc: .NaN\n'), { a: Infinity, b: -Infinity, c: NaN });
});

test('a yaml.safe_dump task.yaml: lists at the key indentation, nested mappings, quoted strings stay strings', () => {
  const v = ok(
    [
      'base_commit: 91b73692253827a03cfbd98411a5d809b46a776b',
      "created_at: '2018-01-10T18:38:13Z'",
      'datasets:',
      '- SWE-bench/SWE-bench_Multimodal',
      'eval_type: pass_and_fail',
      'image: swebench/sweb.eval.x86_64.acme_1776_widgets-12:latest',
      'image_assets:',
      '  patch: []',
      '  problem_statement:',
      '  - https://user-images.githubusercontent.com/1/aa-bb.png',
      '  test_patch: []',
      'instance_id: acme__widgets-12',
      "version: '1.0'",
      'other_version: 8.9.3',
      'count: 12',
      'flag: true',
      'nothing: null',
      '',
    ].join('\n'),
  );
  assert.deepEqual(v, {
    base_commit: '91b73692253827a03cfbd98411a5d809b46a776b',
    created_at: '2018-01-10T18:38:13Z',
    datasets: ['SWE-bench/SWE-bench_Multimodal'],
    eval_type: 'pass_and_fail',
    image: 'swebench/sweb.eval.x86_64.acme_1776_widgets-12:latest',
    image_assets: { patch: [], problem_statement: ['https://user-images.githubusercontent.com/1/aa-bb.png'], test_patch: [] },
    instance_id: 'acme__widgets-12',
    version: '1.0',
    other_version: '8.9.3',
    count: 12,
    flag: true,
    nothing: null,
  });
});

test('folded long strings, block scalars, list items holding mappings, comments and CRLF', () => {
  const v = ok(
    [
      '# a comment',
      "title: 'a long single-quoted text that PyYAML folded",
      "  over two lines, it''s one'",
      'plain: a plain text',
      '  continued here',
      'instruction: |-',
      '  Fix the bug.',
      '',
      '    Keep indentation.',
      'folded: >',
      '  one',
      '  two',
      'items:',
      '- name: a',
      '  size: 1',
      '- "two: quoted"',
      'flow: [x, "y z", 3]',
      'dq: "tab\\tand \\u00e9"',
    ].join('\r\n'),
  );
  assert.deepEqual(v, {
    title: "a long single-quoted text that PyYAML folded over two lines, it's one",
    plain: 'a plain text continued here',
    instruction: 'Fix the bug.\n\n  Keep indentation.',
    folded: 'one two\n',
    items: [{ name: 'a', size: 1 }, 'two: quoted'],
    flow: ['x', 'y z', 3],
    dq: 'tab\tand é',
  });
});

test('what it does not read is refused with the file and line, never guessed', () => {
  assertRefused('bad.yaml', [
    ['a: &x 1\nb: *x\n', 1, /anchors, aliases and tags/],
    ['a: !!str 1\n', 1, /anchors, aliases and tags/],
    ['a: 1\n---\nb: 2\n', 2, /several YAML documents/],
    ['a: 1\na: 2\n', 2, /the key "a" is defined twice/],
    ["a: 'open\nb: 2\n", 1, /quoted scalar is not closed/],
    ['a: 1\n  b: 2\n', 2, /unexpected indentation/],
    ['? complex\n: 1\n', 1, /complex keys/],
    ['a: "\\q"\n', 1, /unknown escape/],
    // A flow mapping on one line is read (PyYAML reads it); one over several lines, or with a list as a key, is not.
    ['a: {b: 1,\n  c: 2}\n', 1, /must close with "}" on the same line/],
    ['a: {[b]: 1}\n', 1, /flow collection as a key/],
  ]);
  // Deep nesting stops at a limit instead of overflowing the stack, in blocks and in flow collections.
  const deep = Array.from({ length: 200 }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' 1\n';
  const r = parseYaml(deep, 'deep.yaml');
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : r.problem.message, /nested deeper than 64/);
  assert.deepEqual(r.ok ? [] : [r.problem.file, r.problem.line], ['deep.yaml', MAX_YAML_DEPTH + 1]);
  assertRefused('deep.yaml', [[`a: ${'['.repeat(100_000)}\n`, 1, /nested deeper than 64/]]);
});

test('errors name the file and the line; unsupported YAML is refused, not guessed', () => {
  assertRefused('task.yaml', [
    ['a: 1\na: 2\n', 2, /defined twice/],
    ['a: &x 1\nb: *x\n', 1, /anchors, aliases and tags/],
    ['a: 1\n   b: 2\n', 2, /indentation/],
    ["a: 'open\n", 1, /not closed/],
    ['a: 1\n---\nb: 2\n', 2, /several YAML documents/],
    ['a: [1, 2\n', 1, /close/],
    ['a:\n\t- x\n', 2, /tab/],
    ['a: "x" y\n', 1, /after the quoted/],
  ]);
});

test('YAML PyYAML reads differently from how it looks, or refuses, is refused with its line', () => {
  assertRefused('odd.yaml', [
    // PyYAML refuses these; a reader that returned the text would guess.
    ['a: b: c\n', 1, /": " inside a plain value/],
    ['a: - x\n', 1, /a list item where a value was expected/],
    ['a: x #c\n  y\n', 2, /unexpected indentation/],
    ['abc\n---\n', 2, /several YAML documents/],
    ["'x\n---\n'\n", 1, /quoted scalar is not closed/],
    ['--- a: 1\n', 1, /": " inside a plain value/],
    ['...\n', 1, /document end/],
    ['a:\t1\n', 1, /": " inside a plain value/],
    ['- \tx\n', 1, /tab after "-"/],
    ['a: 1\n\t# c\n', 2, /tab in the indentation/],
    ['a: \u0001\n', 1, /control character U\+0001/],
    ['a: x\u2028b\n', 1, /line break other than/],
    ['a: =\n', 1, /"="/],
    ['a: 0b_\n', 1, /not one this reader reads exactly/],
    ['a: "\\U00110000"\n', 1, /not a Unicode code point/],
    // PyYAML reads these into something else than their text: a complex key, an anchor, a merge, types.
    ['- ? x\n', 1, /complex keys/],
    ['a: [?]\n', 1, /complex keys/],
    ['a: [&x 1]\n', 1, /anchors, aliases and tags/],
    ['a: {b: !t 1}\n', 1, /anchors, aliases and tags/],
    ['<<: {a: 1}\nb: 2\n', 1, /merge keys/],
    ['a: {<<: {b: 1}}\n', 1, /merge keys/],
    ['True: x\ntrue: y\n', 2, /the key "true" is defined twice/],
    ['1: x\n1.0: y\n', 2, /the key "1.0" is defined twice/],
    ["1: x\n'1': y\n", 2, /the key "1" is defined twice/],
    ['a: {null: x, ~: y}\n', 1, /the key "null" is defined twice/],
    ['a: 12345678901234567890\n', 1, /too large to read exactly/],
    ['a: "\\ud83d\\ude00"\n', 1, /surrogate/],
    ['%YAML 1.1\n---\na: 1\n', 1, /directives/],
    // Flow forms PyYAML reads and this reader does not.
    ['a: [b: 1]\n', 1, /"key: value" pair inside a flow list/],
    ['a: {b: }\n', 1, /has no value/],
    ['a: [1,,2]\n', 1, /a value is missing/],
  ]);
});

test('a key named __proto__ is an ordinary key', () => {
  const v = ok('__proto__:\n  polluted: true\n') as Record<string, unknown>;
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(Object.keys(v), ['__proto__']);
  const f = ok('a: {__proto__: {polluted: true}}\n') as Record<string, Record<string, unknown>>;
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(Object.keys(f.a ?? {}), ['__proto__']);
});

test('long inputs: a flow line of 50 000 quoted escapes, a double-quoted line of 50 000 escapes, 50 000 keys', () => {
  const n = 50_000;
  const flow = ok(`a: [${Array.from({ length: n }, () => '"\\t"').join(', ')}]\n`) as { a: string[] };
  assert.equal(flow.a.length, n);
  const dq = ok(`a: "${'\\n'.repeat(n)}"\n`) as { a: string };
  assert.equal(dq.a.length, n);
  const lines = ok(Array.from({ length: n }, (_, i) => `k${i}: v`).join('\n')) as Record<string, string>;
  assert.equal(Object.keys(lines).length, n);
});
