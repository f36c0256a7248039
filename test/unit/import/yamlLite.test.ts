// The small YAML reader against PyYAML: the run-folder YAML of the layout fixtures and values PyYAML wrote; what it
// does not read is refused with the line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseYaml } from '../../../src/core/import/yamlLite';

const ROOT = path.resolve(__dirname, '../../..');
const EXPECTED = path.join(ROOT, 'test/fixtures/import/yaml-expected');
const read = <T>(f: string) => JSON.parse(fs.readFileSync(path.join(EXPECTED, f), 'utf8')) as T;

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

test('what it does not read is refused with the file and line, never guessed', () => {
  const cases: Array<[string, number, RegExp]> = [
    ['a: &x 1\nb: *x\n', 1, /anchors, aliases and tags/],
    ['a: !!str 1\n', 1, /anchors, aliases and tags/],
    ['a: {b: 1}\n', 1, /flow collections with content/],
    ['a: 1\n---\nb: 2\n', 2, /more than one document/],
    ['a: 1\na: 2\n', 2, /the key "a" appears twice/],
    ["a: 'open\nb: 2\n", 1, /quoted scalar is not closed/],
    ['a: 1\n  b: 2\n', 2, /unexpected indentation/],
    ['? complex\n: 1\n', 1, /complex keys/],
    ['a: "\\q"\n', 1, /unknown escape/],
  ];
  for (const [text, line, why] of cases) {
    const r = parseYaml(text, 'bad.yaml');
    assert.equal(r.ok, false, text);
    if (r.ok) continue;
    assert.deepEqual([r.problem.file, r.problem.line, r.problem.severity], ['bad.yaml', line, 'error'], text);
    assert.match(r.problem.message, why, text);
  }
  // Deep nesting stops at a limit instead of overflowing the stack.
  const deep = Array.from({ length: 200 }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' 1\n';
  const r = parseYaml(deep, 'deep.yaml');
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : r.problem.message, /nested deeper than 64/);
});
