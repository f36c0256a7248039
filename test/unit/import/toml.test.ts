// The strict TOML reader used for Harbor's task.toml: the subset real task files use, and clear errors for the rest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseToml } from '../../../src/core/import/toml';

const ok = (text: string) => {
  const r = parseToml(text, 'task.toml');
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const fails = (text: string) => {
  const r = parseToml(text, 'task.toml');
  assert.equal(r.ok, false, `expected an error for ${JSON.stringify(text)}`);
  return r.ok ? undefined : r.error;
};

test('a Terminal-Bench 2 task.toml (schema 1.1) reads as nested tables', () => {
  const v = ok(
    [
      'schema_version = "1.1"',
      'artifacts = []',
      '',
      '[task]',
      'name = "terminal-bench/count-fix"',
      'keywords = ["python", "debugging"]',
      '[[task.authors]]',
      'name = "A. Author"',
      'email = "a@example.org"',
      '',
      '[metadata]',
      'difficulty = "easy"   # trailing comment',
      'expert_time_estimate_min = 5.0',
      '',
      '[verifier]',
      'timeout_sec = 900.0',
      '[verifier.env]',
      '',
      '[environment]',
      'cpus = 1',
      'memory_mb = 2_048',
      'allow_internet = true',
      'mcp_servers = []',
      '',
    ].join('\r\n'),
  );
  assert.deepEqual(v, {
    schema_version: '1.1',
    artifacts: [],
    task: { name: 'terminal-bench/count-fix', keywords: ['python', 'debugging'], authors: [{ name: 'A. Author', email: 'a@example.org' }] },
    metadata: { difficulty: 'easy', expert_time_estimate_min: 5 },
    verifier: { timeout_sec: 900, env: {} },
    environment: { cpus: 1, memory_mb: 2048, allow_internet: true, mcp_servers: [] },
  });
});

test('strings of all four kinds, inline tables, multi-line arrays, dotted and quoted keys', () => {
  const v = ok(
    [
      "memory = '4G'",
      'a.b.c = 1',
      'a.b.d = 2',
      '"quoted key" = "tab\\there \\u00e9"',
      'multi = """',
      'one\\',
      '   two"""',
      "lit = '''",
      "C:\\raw\\path'''",
      'healthcheck = { command = "true", interval_sec = 5 }',
      'arr = [',
      '  1,  # one',
      '  2,',
      ']',
      'neg = -0.5e1',
      'hex = 0xff',
      'when = 2025-11-01T10:00:00Z',
    ].join('\n'),
  );
  assert.deepEqual(v, {
    memory: '4G',
    a: { b: { c: 1, d: 2 } },
    'quoted key': 'tab\there é',
    multi: 'onetwo',
    lit: 'C:\\raw\\path',
    healthcheck: { command: 'true', interval_sec: 5 },
    arr: [1, 2],
    neg: -5,
    hex: 255,
    when: '2025-11-01T10:00:00Z',
  });
});

test('errors name the file and the line', () => {
  const cases: Array<[string, number, RegExp]> = [
    ['[task]\nname = "x"\nname = "y"\n', 3, /defined twice/],
    ['[task]\n[task]\n', 2, /defined twice/],
    ['a = 1\nb = \n', 2, /value is missing/],
    ['a = "open\n', 1, /not closed/],
    ['a = bare\n', 1, /not a TOML value/],
    ['a = 1 b = 2\n', 1, /after the value/],
    ['x = [1, 2\n', 1, /not closed/],
    ['t = { a = 1 }\n[t]\n', 2, /clashes/],
    ['a = 01\n', 1, /not a TOML value/],
    ['[a\n', 1, /must end/],
    ['s = "bad \\q"\n', 1, /unknown escape/],
  ];
  for (const [text, line, re] of cases) {
    const e = fails(text);
    assert.equal(e?.line, line, text);
    assert.equal(e?.file, 'task.toml');
    assert.match(e?.message ?? '', re, text);
    assert.match(e?.message ?? '', new RegExp(`^task\\.toml:${line}: `));
  }
});

test('a key named __proto__ is an ordinary key and never touches a prototype', () => {
  const v = ok('[__proto__]\npolluted = true\n[x]\n__proto__.y = 1\n');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
  assert.deepEqual(Object.keys(v), ['__proto__', 'x']);
  assert.equal((Object.getOwnPropertyDescriptor(v, '__proto__')?.value as Record<string, unknown>).polluted, true);
});
