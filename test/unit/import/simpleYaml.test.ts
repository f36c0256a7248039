// The strict YAML reader for task.yaml files written by `yaml.safe_dump` (the SWE-bench team's per-task folders).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseYaml } from '../../../src/core/import/simpleYaml';

const ok = (text: string) => {
  const r = parseYaml(text, 'task.yaml');
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

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

test('errors name the file and the line; unsupported YAML is refused, not guessed', () => {
  const cases: Array<[string, number, RegExp]> = [
    ['a: 1\na: 2\n', 2, /defined twice/],
    ['a: &x 1\nb: *x\n', 1, /anchors, aliases and tags/],
    ['a: 1\n   b: 2\n', 2, /indentation/],
    ["a: 'open\n", 1, /not closed/],
    ['a: 1\n---\nb: 2\n', 2, /several YAML documents/],
    ['a: [1, 2\n', 1, /close/],
    ['a:\n\t- x\n', 2, /tab/],
    ['a: "x" y\n', 1, /after the quoted/],
  ];
  for (const [text, line, re] of cases) {
    const r = parseYaml(text, 'task.yaml');
    assert.equal(r.ok, false, text);
    if (r.ok) continue;
    assert.equal(r.error.line, line, text);
    assert.match(r.error.message, re, text);
    assert.match(r.error.message, /^task\.yaml:\d+: /);
  }
});

test('a key named __proto__ is an ordinary key', () => {
  const v = ok('__proto__:\n  polluted: true\n') as Record<string, unknown>;
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(Object.keys(v), ['__proto__']);
});
