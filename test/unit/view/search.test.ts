import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileSearch, runSearch } from '../../../src/core/view/search';
import type { SearchSource } from '../../../src/core/view/search';
import { prepareStep } from '../../../src/core/view/steps';
import type { PreparedStep } from '../../../src/core/view/steps';
import type { SearchHit } from '../../../src/protocol/messages';
import type { StepKind } from '../../../src/core/model';

function source(columns: Record<string, Array<[StepKind, string]>>, loads: string[] = []): SearchSource {
  const prepared = new Map<string, PreparedStep[]>(
    Object.entries(columns).map(([id, steps]) => [id, steps.map(([kind, text], index) => prepareStep({ index, kind, text }))]),
  );
  return {
    columns: Object.keys(columns),
    load: async (c) => {
      loads.push(c);
      return prepared.get(c);
    },
  };
}

async function collect(src: SearchSource, pattern: string, o: { regex?: boolean; caseSensitive?: boolean; kinds?: StepKind[]; maxHits?: number } = {}) {
  const q = compileSearch({ pattern, regex: o.regex ?? false, caseSensitive: o.caseSensitive ?? false });
  assert.ok(q.ok);
  const hits: SearchHit[] = [];
  const batches: number[] = [];
  const out = await runSearch(src, q.re, {
    signal: new AbortController().signal,
    onHits: (h) => {
      hits.push(...h);
      batches.push(h.length);
    },
    ...(o.kinds ? { kinds: o.kinds } : {}),
    ...(o.maxHits !== undefined ? { maxHits: o.maxHits } : {}),
  });
  return { hits, out, batches };
}

const src = () =>
  source({
    a1: [['thought', 'I will grep for Foo'], ['action', 'grep -rn foo src/'], ['observation', 'src/a.py:1: foo = FOO']],
    a2: [['action', 'cat foo.txt'], ['observation', 'nothing here']],
  });

test('plain search is case-insensitive by default, with per-column counts and excerpts', async () => {
  const { hits, out } = await collect(src(), 'foo');
  assert.equal(out.total, 5);
  assert.deepEqual(out.counts, { a1: 4, a2: 1 });
  assert.equal(out.cancelled, false);
  assert.equal(out.capped, false);
  assert.deepEqual(hits.map((h) => [h.column, h.step, h.start]), [['a1', 0, 16], ['a1', 1, 9], ['a1', 2, 12], ['a1', 2, 18], ['a2', 0, 4]]);
  const h = hits[3] as SearchHit;
  assert.equal(h.excerpt.slice(h.excerptStart, h.excerptStart + h.length), 'FOO');
});

test('case-sensitive and regex searches; plain search treats regex characters literally', async () => {
  assert.equal((await collect(src(), 'foo', { caseSensitive: true })).out.total, 3);
  assert.equal((await collect(src(), 'f[o]+\\b', { regex: true, caseSensitive: true })).out.total, 3);
  assert.equal((await collect(src(), 'src/', {})).out.total, 2);
  assert.equal((await collect(src(), '.*', {})).out.total, 0, 'plain ".*" is literal');
});

test('kind filters restrict the search', async () => {
  const { out } = await collect(src(), 'foo', { kinds: ['action'] });
  assert.deepEqual(out.counts, { a1: 1, a2: 1 });
});

test('invalid and empty patterns are error texts', () => {
  const bad = compileSearch({ pattern: '(unclosed', regex: true, caseSensitive: false });
  assert.ok(!bad.ok && /Invalid regular expression/.test(bad.error));
  assert.ok(!compileSearch({ pattern: '', regex: false, caseSensitive: false }).ok);
});

test('zero-length matches neither loop nor count', async () => {
  const { out, hits } = await collect(src(), 'x*', { regex: true });
  assert.equal(out.total, 1, 'only the one x in "foo.txt"');
  assert.deepEqual(hits.map((h) => [h.column, h.step, h.start, h.length]), [['a2', 0, 9, 1]]);
});

test('hits beyond the cap are counted but not kept, and the result says capped', async () => {
  const s = source({ a1: [['observation', 'ab '.repeat(10_000)]] });
  const { hits, out, batches } = await collect(s, 'ab', { maxHits: 100 });
  assert.equal(out.total, 10_000);
  assert.equal(hits.length, 100);
  assert.equal(out.capped, true);
  assert.ok(batches.every((n) => n <= 500));
});

test('tool-call arguments are searched too', async () => {
  const s: SearchSource = {
    columns: ['a1'],
    load: async () => [prepareStep({ index: 0, kind: 'tool_call', text: '', toolCalls: [{ name: 'bash', arguments: '{"cmd": "pytest -k needle"}' }] })],
  };
  const { hits } = await collect(s, 'needle');
  assert.equal(hits.length, 1);
  assert.equal(hits[0]?.excerpt, '{"cmd": "pytest -k needle"}', 'the excerpt is of the arguments, where the match is');
  assert.deepEqual([hits[0]?.toolCall, hits[0]?.field], [0, 'arguments']);
});

test('columns load lazily, one after the other', async () => {
  const loads: string[] = [];
  await collect(source({ a1: [['thought', 'x']], a2: [['thought', 'x']] }, loads), 'x');
  assert.deepEqual(loads, ['a1', 'a2']);
});

test('a long search yields to the event loop, streams first hits early and can be cancelled', async () => {
  const big = `${'lorem ipsum dolor sit amet '.repeat(40_000)}\n`; // ~1 MB per step
  const columns: Record<string, Array<[StepKind, string]>> = {};
  for (let c = 0; c < 10; c++) columns[`a${c}`] = Array.from({ length: 5 }, () => ['observation', big] as [StepKind, string]);
  const s = source(columns);
  const q = compileSearch({ pattern: 'dolor', regex: false, caseSensitive: false });
  assert.ok(q.ok);
  const ac = new AbortController();
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  let firstAt = 0;
  let yields = 0;
  const t0 = performance.now();
  // The curator cancels during the fifth pause the search takes, about 10 ms in (not after a fixed time: a run
  // that got the CPU to itself reached the 1,000,000-match cap first and ended as capped, not cancelled).
  const done = runSearch(s, q.re, {
    signal: ac.signal,
    sliceMs: 2,
    maxCount: Number.MAX_SAFE_INTEGER,
    yieldNow: () =>
      new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        if (++yields === 5) ac.abort();
      }),
    onHits: () => {
      if (!firstAt) firstAt = performance.now() - t0;
    },
  });
  const out = await done;
  clearInterval(timer);
  assert.ok(firstAt > 0, 'hits were reported before the search was cancelled');
  assert.equal(out.cancelled, true);
  assert.ok(out.total < 10 * 5 * 40_000, 'cancelled before the end');
  assert.ok(ticks > 0, 'timers ran while searching');
  assert.equal(yields, 5, 'the search stopped at the first check after the cancel');
});

test('a match in a tool call is placed in that call: its index, name or arguments, and the offset there', async () => {
  const step = prepareStep({
    index: 3,
    kind: 'tool_call',
    text: 'I will edit the file.',
    toolCalls: [
      { name: 'bash', arguments: '{"command": "ls"}' },
      { name: 'str_replace_editor', arguments: '{"path": "src/needle.py", "old_str": "needle"}' },
    ],
  });
  const src: SearchSource = { columns: ['a1'], load: async () => [step] };
  const { hits, out } = await collect(src, 'needle');
  assert.equal(out.total, 2);
  const args = step.toolCalls![1]!.arguments;
  assert.deepEqual(
    hits.map((h) => ({ toolCall: h.toolCall, field: h.field, at: args.slice(h.start, h.start + h.length) })),
    [
      { toolCall: 1, field: 'arguments', at: 'needle' },
      { toolCall: 1, field: 'arguments', at: 'needle' },
    ],
  );
  assert.deepEqual(hits.map((h) => h.start), [args.indexOf('needle'), args.lastIndexOf('needle')]);
  // A name is its own part; the text's hits keep no tool call.
  const names = await collect(src, 'str_replace');
  assert.deepEqual(names.hits.map((h) => [h.toolCall, h.field, h.start, h.length]), [[1, 'name', 0, 11]]);
  const text = await collect(src, 'will');
  assert.deepEqual(text.hits.map((h) => [h.toolCall, h.start]), [[undefined, 2]]);
  // Nothing matches across parts (the text's end and a call's name are not one string).
  assert.equal((await collect(src, 'file.bash', { regex: false })).out.total, 0);
  assert.equal((await collect(src, 'file\\.\\s*bash', { regex: true })).out.total, 0);
});
