import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonScanner } from '../../../src/core/trajectory/jsonScanner';
import type { PathSeg, ScanAction, ScanError } from '../../../src/core/trajectory/jsonScanner';
import { jsonErrorAt } from '../../../src/core/trajectory/jsonValidate';

type Policy = (path: readonly PathSeg[]) => ScanAction;

/** Runs the scanner over `bytes` split at the given sizes (cycled) and returns everything it reported. */
function scan(bytes: Uint8Array, policy: Policy, sizes: number[] = [bytes.length || 1], onError: 'stop' | 'resync' | 'auto' = 'auto'): string[] {
  const events: string[] = [];
  const scanner: JsonScanner = new JsonScanner({
    policy,
    value: (p, v, loc, doc) => events.push(`value d${doc} ${JSON.stringify(p)} ${JSON.stringify(v)} line ${loc.line} [${loc.start},${loc.end})`),
    exit: (p, loc) => events.push(`exit ${JSON.stringify(p)} [${loc.start},${loc.end})`),
    documentStart: (doc, loc) => events.push(`start d${doc} line ${loc.line} at ${loc.start}`),
    documentEnd: (doc, loc) => events.push(`end d${doc} [${loc.start},${loc.end})`),
    error: (e: ScanError): 'stop' | 'resync' => {
      events.push(`error d${e.doc} line ${e.line} truncated=${e.truncated} ${e.message}`);
      return onError === 'auto' ? (scanner.isLineMode ? 'resync' : 'stop') : onError;
    },
  });
  let i = 0;
  let k = 0;
  while (i < bytes.length) {
    const n = Math.max(1, sizes[k++ % sizes.length]!);
    scanner.push(bytes.subarray(i, i + n));
    i += n;
  }
  scanner.end();
  return events;
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Streams `steps`/`history`/top-level arrays, picks two members of `trajectory` steps, parses the rest whole. */
const trajectoryPolicy: Policy = (p) => {
  if (p.length === 0) return 'descend';
  if (p.length === 1) return typeof p[0] === 'number' ? 'value' : ['trajectory', 'history', 'steps'].includes(p[0] as string) ? 'descend' : 'value';
  if (p.length === 2 && p[0] === 'trajectory') return { pick: new Set(['action', 'thought']) };
  return 'value';
};

const DOCS: Record<string, string> = {
  pretty: JSON.stringify(
    {
      environment: 'main',
      trajectory: [
        { action: 'ls -a\n', observation: 'x'.repeat(50), thought: 'Say "hi" \\ then \u00e9\u20ac\ud83d\ude00', query: [{ role: 'system', content: '}]{["' }] },
        { action: 'submit', thought: '', query: [] },
      ],
      history: [{ role: 'user', content: 'a\\"b' }, 12, null, true, -3.5e2, 'str"ing'],
      info: { exit_status: 'submitted', submission: 'diff --git a/x b/x\n' },
      'we\\ird "key"': 1,
    },
    null,
    2,
  ),
  compact: '{"steps":[{"a":1},{"b":[1,{"c":"]}"}]}],"n":0,"e":[],"o":{}}',
  array: '[{"id":0,"action":"run"} , {"id":1,"observation":"run","content":"\\\\\\""}]',
  jsonl: '{"type":"user","uuid":"1"}\n{"type":"assistant","uuid":"2","message":{"content":[{"type":"text","text":"é"}]}}\n\n{"type":"result"}\n',
  crlf: '{\r\n  "history": [\r\n    {"role": "user"},\r\n    {"role": "tool"}\r\n  ]\r\n}\r\n',
  bom: '\ufeff{"history":[1,2]}',
  primitive: '42',
};

test('streams the elements of big arrays, picks members, parses the rest whole, with lines and byte ranges', () => {
  const events = scan(enc(DOCS.compact!), trajectoryPolicy);
  assert.deepEqual(events, [
    'start d0 line 1 at 0',
    'value d0 ["steps",0] {"a":1} line 1 [10,17)',
    'value d0 ["steps",1] {"b":[1,{"c":"]}"}]} line 1 [18,38)',
    'exit ["steps"] [9,39)',
    'value d0 ["n"] 0 line 1 [44,45)',
    'value d0 ["e"] [] line 1 [50,52)',
    'value d0 ["o"] {} line 1 [57,59)',
    'exit [] [0,60)',
    'end d0 [0,60)',
  ]);
  const pretty = scan(enc(DOCS.pretty!), trajectoryPolicy);
  assert.ok(pretty.includes('value d0 ["trajectory",0] {"action":"ls -a\\n","thought":"Say \\"hi\\" \\\\ then é€😀"} line 4 [49,310)'), pretty.join('\n'));
  assert.ok(pretty.some((e) => e.startsWith('value d0 ["we\\\\ird \\"key\\""] 1')), 'a member name with escapes is decoded');
  assert.ok(pretty.some((e) => e.startsWith('value d0 ["history",5] "str\\"ing"')));
  assert.ok(!pretty.some((e) => e.includes('query')), 'members outside a pick are never parsed');
});

test('any chunking of the input gives exactly the events of a single chunk (sizes 1..64 and random splits)', () => {
  let seed = 7;
  const rand = (): number => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  for (const [name, doc] of Object.entries(DOCS)) {
    const bytes = enc(doc);
    const whole = scan(bytes, trajectoryPolicy);
    assert.ok(!whole.some((e) => e.startsWith('error')), `${name} scans without errors: ${whole.join('\n')}`);
    for (let size = 1; size <= 64; size++) assert.deepEqual(scan(bytes, trajectoryPolicy, [size]), whole, `${name} in chunks of ${size}`);
    for (let r = 0; r < 30; r++) {
      const sizes = Array.from({ length: 8 }, () => 1 + Math.floor(rand() * 9));
      assert.deepEqual(scan(bytes, trajectoryPolicy, sizes), whole, `${name} in chunks ${sizes.join(',')}`);
    }
  }
});

test('a UTF-8 BOM is skipped, even when split over chunks; a partial BOM is an error', () => {
  const events = scan(enc(DOCS.bom!), trajectoryPolicy, [1]);
  assert.deepEqual(events.slice(0, 2), ['start d0 line 1 at 3', 'value d0 ["history",0] 1 line 1 [15,16)']);
  const bad = scan(new Uint8Array([0xef, 0xbb, 0x7b, 0x7d]), trajectoryPolicy);
  assert.match(bad.join('\n'), /error d0 line 1 truncated=false the file starts with an incomplete byte order mark/);
});

test('CRLF line endings count as one line each', () => {
  const events = scan(enc(DOCS.crlf!), trajectoryPolicy, [2]);
  assert.ok(events.includes('value d0 ["history",1] {"role":"tool"} line 4 [46,62)'), events.join('\n'));
});

test('JSONL: each line is a document; a broken middle line is reported with its line and skipped', () => {
  const text = '{"a":1}\n{"b": [1, 2\n{"c":3}\n{"d": "x\n{"e":5}\n{"f": nope}\n{"g":7}\n';
  for (const size of [1, 3, 1000]) {
    const events = scan(enc(text), (p) => (p.length === 0 ? 'value' : 'value'), [size]);
    const values = events.filter((e) => e.startsWith('value')).map((e) => e.split(' ')[3]);
    assert.deepEqual(values, ['{"a":1}', '{"c":3}', '{"e":5}', '{"g":7}'], `chunk ${size}: ${events.join('\n')}`);
    const errors = events.filter((e) => e.startsWith('error'));
    assert.equal(errors.length, 3);
    assert.match(errors[0]!, /line 2 truncated=false line 2 ends before its JSON value is complete/);
    assert.match(errors[1]!, /line 4 truncated=false line 4 ends before its JSON value is complete/);
    assert.match(errors[2]!, /line 6 truncated=false expected a JSON value, found 'n'/);
  }
});

test('a truncated document or last line is reported as truncated, after the values before it', () => {
  const events = scan(enc('{"history": [{"x": 1}, {"y": "abc'), trajectoryPolicy, [4]);
  assert.deepEqual(events.slice(-2), ['value d0 ["history",0] {"x":1} line 1 [13,21)', 'error d0 line 1 truncated=true the input ends in the middle of a JSON value (truncated file?)']);
  const lines = scan(enc('{"a":1}\n{"b":2}\n{"c": [1,'), () => 'value');
  assert.equal(lines.filter((e) => e.startsWith('value')).length, 2);
  assert.match(lines.at(-1)!, /error d2 line 3 truncated=true/);
  // A number at the very end of the input is complete, not truncated.
  assert.deepEqual(scan(enc(DOCS.primitive!), () => 'value', [1]), ['start d0 line 1 at 0', 'value d0 [] 42 line 1 [0,2)', 'end d0 [0,2)']);
});

test('malformed JSON in a pretty document stops with the line of the fault, inside parsed values too', () => {
  const structural = scan(enc('{\n  "history": [\n    {"a": 1},\n    {"b": 2} x\n  ]\n}'), trajectoryPolicy);
  assert.match(structural.at(-1)!, /^error d0 line 4 truncated=false expected ',' or '\]', found 'x'/);
  const inValue = scan(enc('{\n  "info": {\n    "a": 1,\n    "b": [1, 2,]\n  }\n}'), trajectoryPolicy);
  assert.match(inValue.at(-1)!, /^error d0 line 4 truncated=false expected a JSON value, found '\]'/);
  assert.match(scan(enc('not json'), trajectoryPolicy).at(-1)!, /^error d0 line 1 truncated=false expected a JSON value, found 'n'/);
});

test('a multi-megabyte string value streams through any chunk size intact', () => {
  const big = 'ab"\\\u00e9'.repeat(600_000);
  const doc = JSON.stringify({ history: [{ content: big }, { content: 'small' }] });
  const bytes = enc(doc);
  for (const sizes of [[65536], [1 << 20], [7, 65521, 3]]) {
    let got: unknown;
    const scanner = new JsonScanner({
      policy: trajectoryPolicy,
      value: (p, v) => {
        if (p[0] === 'history' && p[1] === 0) got = v;
      },
      error: () => 'stop',
    });
    let i = 0;
    let k = 0;
    while (i < bytes.length) {
      const n = sizes[k++ % sizes.length]!;
      scanner.push(bytes.subarray(i, i + n));
      i += n;
    }
    scanner.end();
    assert.equal((got as { content: string }).content, big);
  }
});

test('jsonErrorAt finds the first fault and says what it is', () => {
  assert.equal(jsonErrorAt('{"a": [1, 2]}'), undefined);
  assert.deepEqual(jsonErrorAt('{"a": [1, 2,]}'), { index: 12, message: "expected a JSON value, found ']'" });
  assert.deepEqual(jsonErrorAt('{"a" 1}'), { index: 5, message: "expected ':', found '1'" });
  assert.deepEqual(jsonErrorAt('"abc'), { index: 4, message: 'unterminated string' });
  assert.deepEqual(jsonErrorAt('"a\\qb"'), { index: 2, message: "invalid escape '\\q' in string" });
  assert.deepEqual(jsonErrorAt('[1] 2'), { index: 4, message: "unexpected '2' after the JSON value" });
  assert.match(jsonErrorAt('"a\nb"')!.message, /control character 0x0a inside a string/);
});
