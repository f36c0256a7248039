import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderRequest } from '../../../src/core/view/markdown';
import type { MdBlock, MdRun } from '../../../src/protocol/messages';

function allRuns(blocks: readonly MdBlock[]): MdRun[] {
  const out: MdRun[] = [];
  for (const b of blocks) {
    if (b.kind === 'heading' || b.kind === 'paragraph') out.push(...b.runs);
    else if (b.kind === 'list') for (const item of b.items) out.push(...allRuns(item));
    else if (b.kind === 'quote') out.push(...allRuns(b.blocks));
    else if (b.kind === 'table') out.push(...b.header.flat(), ...b.rows.flat(2));
  }
  return out;
}
const textOf = (blocks: readonly MdBlock[]): string => allRuns(blocks).map((r) => r.text).join('');

test('renders headings, emphasis, code, lists, quotes, tables and rules as data', () => {
  const { blocks } = renderRequest('# Title\n\nSome *em* and **strong** and `code`.\n\n1. one\n2. two\n\n> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n---\n\n```py\nx = 1\n```\n');
  assert.deepEqual(blocks.map((b) => b.kind), ['heading', 'paragraph', 'list', 'quote', 'table', 'rule', 'code']);
  assert.deepEqual(blocks[0], { kind: 'heading', level: 1, runs: [{ text: 'Title' }] });
  const p = blocks[1];
  assert.ok(p && p.kind === 'paragraph');
  assert.deepEqual(p.runs, [
    { text: 'Some ' },
    { text: 'em', em: true },
    { text: ' and ' },
    { text: 'strong', strong: true },
    { text: ' and ' },
    { text: 'code', code: true },
    { text: '.' },
  ]);
  const list = blocks[2];
  assert.ok(list && list.kind === 'list' && list.ordered && list.items.length === 2);
  const table = blocks[4];
  assert.ok(table && table.kind === 'table');
  assert.deepEqual(table.header.map((c) => c.map((r) => r.text).join('')), ['a', 'b']);
  assert.deepEqual(table.rows.map((row) => row.map((c) => c.map((r) => r.text).join(''))), [['1', '2']]);
  assert.deepEqual(blocks[6], { kind: 'code', lang: 'py', text: 'x = 1\n' });
});

test('hostile HTML stays literal text and never becomes markup', () => {
  const src = 'Hello <script>window.pwned = 1</script> and <img src=x onerror="window.pwned=2">\n\n<div onclick=alert(1)>block html</div>\n\n<iframe src="javascript:alert(1)"></iframe>';
  const { blocks } = renderRequest(src);
  const text = textOf(blocks);
  assert.match(text, /<script>window\.pwned = 1<\/script>/);
  assert.match(text, /<img src=x onerror="window\.pwned=2">/);
  assert.match(text, /<div onclick=alert\(1\)>block html<\/div>/);
  assert.match(text, /<iframe src="javascript:alert\(1\)"><\/iframe>/);
  // Every block is one of the inert kinds; there is no html kind at all.
  for (const b of blocks) assert.ok(['heading', 'paragraph', 'code', 'list', 'quote', 'rule', 'table'].includes(b.kind));
});

test('javascript:, data: and relative links keep their text but get no href', () => {
  const { blocks } = renderRequest('[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](data:text/html,<b>x</b>) [d](../etc/passwd) [e](https://example.com/x) [f](mailto:x@y.z)');
  const runs = allRuns(blocks);
  const hrefs = runs.filter((r) => r.href).map((r) => r.href);
  assert.deepEqual(hrefs, ['https://example.com/x', 'mailto:x@y.z']);
  const text = runs.map((r) => r.text).join('');
  for (const label of ['b', 'd', 'e', 'f']) assert.ok(text.includes(label));
  assert.ok(!runs.some((r) => /^javascript:/i.test(r.href ?? '')));
});

test('an image becomes a text placeholder with its alt text', () => {
  const { blocks } = renderRequest('![diagram](https://example.com/d.png) ![x](javascript:alert(1))');
  const runs = allRuns(blocks);
  // markdown-it refuses a javascript: image outright, so it stays the literal source text.
  assert.equal(runs.map((r) => r.text).join(''), '[image: diagram] ![x](javascript:alert(1))');
  assert.equal(runs.find((r) => r.text.includes('diagram'))?.href, 'https://example.com/d.png');
  assert.ok(runs.every((r) => !/^javascript:/i.test(r.href ?? '')));
});

test('a very long request is cut and flagged', () => {
  const { blocks, truncated } = renderRequest('word '.repeat(40_000));
  assert.equal(truncated, true);
  assert.ok(textOf(blocks).length <= 100_000);
});

test('deep nesting does not blow the stack', () => {
  const { blocks } = renderRequest(`${'> '.repeat(5000)}deep\n\n${'- '.repeat(5000)}deep`);
  assert.ok(blocks.length > 0);
});

test('marks the sentence that states a spec and reports the spec as stated', () => {
  const request =
    '# Parse durations\n\nThe parser accepts fractional units such as `1.5h`. ' +
    'It must reject negative durations with a ValueError. Unrelated words about the weather go here.\n\n' +
    '- Output is formatted with two decimals of precision.\n';
  const specs = [
    { id: 'S1', text: 'Fractional unit values like 1.5h are accepted by the parser.' },
    { id: 'S2', text: 'Negative durations are rejected with ValueError.' },
    { id: 'S3', text: 'The output is formatted with two decimals of precision.' },
    { id: 'S4', text: 'Thread safety of the cache under concurrent writers.' },
  ];
  const { blocks, stated } = renderRequest(request, specs);
  assert.deepEqual([...stated].sort(), ['S1', 'S2', 'S3']);
  const runs = allRuns(blocks);
  const marked = (id: string) => runs.filter((r) => r.specs?.includes(id)).map((r) => r.text).join('');
  assert.equal(marked('S1'), 'The parser accepts fractional units such as 1.5h.');
  assert.equal(marked('S2'), 'It must reject negative durations with a ValueError.');
  assert.equal(marked('S3'), 'Output is formatted with two decimals of precision.');
  assert.equal(marked('S4'), '');
  // Splitting at highlight edges keeps the text and its formatting.
  assert.equal(textOf(blocks), 'Parse durationsThe parser accepts fractional units such as 1.5h. It must reject negative durations with a ValueError. Unrelated words about the weather go here.Output is formatted with two decimals of precision.');
  assert.ok(runs.some((r) => r.code && r.text === '1.5h' && r.specs?.includes('S1')));
});

test('as GitHub shows an issue: line breaks in a paragraph are kept, bare URLs are links (only http, https and mailto)', () => {
  const { blocks } = renderRequest('Steps to reproduce:\nrun `tool --x`\nsee https://example.com/issue/12 for the log.\n\nNot a link: javascript:alert(1) nor www-ish text.');
  const p = blocks[0];
  assert.ok(p && p.kind === 'paragraph');
  assert.equal(p.runs.map((r) => r.text).join(''), 'Steps to reproduce:\nrun tool --x\nsee https://example.com/issue/12 for the log.');
  assert.deepEqual(p.runs.find((r) => r.href !== undefined), { text: 'https://example.com/issue/12', href: 'https://example.com/issue/12' });
  const q = blocks[1];
  assert.ok(q && q.kind === 'paragraph');
  assert.equal(q.runs.some((r) => r.href !== undefined), false, 'no scheme but http(s) or mailto becomes a target');
});

test('a spec stated in a sentence wrapped onto the next line is still marked, across the kept line break', () => {
  const spec = { id: 'S1', text: 'An unclosed bracket raises ParseError naming the line number.' };
  const { blocks, stated } = renderRequest('The parser is lenient today. An unclosed bracket must raise ParseError\nnaming the line number of the bracket.', [spec]);
  assert.deepEqual([...stated], ['S1']);
  const p = blocks[0];
  assert.ok(p && p.kind === 'paragraph');
  const marked = p.runs.filter((r) => r.specs?.includes('S1')).map((r) => r.text).join('');
  assert.ok(marked.includes('ParseError\nnaming'), JSON.stringify(p.runs));
});
