import { test } from 'node:test';
import assert from 'node:assert/strict';
import { capText, doneText, formatCost, formatCount, inertText, oneLine, splitAt, stripAnsi } from '../../../webview/src/text';

test('ANSI escapes are removed, the text around them kept', () => {
  assert.equal(stripAnsi('\u001b[31mred\u001b[0m and \u001b[1;32mbold green\u001b[m'), 'red and bold green');
  assert.equal(stripAnsi('a\u001b]0;title\u0007b'), 'ab');
  assert.equal(stripAnsi('\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\'), 'link');
  // An unterminated OSC does not swallow what follows.
  assert.equal(stripAnsi(`\u001b]${'y'.repeat(5000)}`), 'y'.repeat(5000));
});

test('control characters and bidi overrides become visible symbols; tabs and newlines stay', () => {
  assert.equal(inertText('a\u0000b\u0007c\td\r\ne\rf\u007f'), 'a\u2400b\u2407c\td\ne\nf\u2421');
  assert.equal(inertText('x\u202ey\u2066z'), 'x\ufffdy\ufffdz');
  assert.equal(inertText('<script>alert(1)</script>'), '<script>alert(1)</script>', 'markup is left as text');
});

test('one line: whitespace collapsed, cut with an ellipsis', () => {
  assert.equal(oneLine('a\n\n  b\tc', 10), 'a b c');
  assert.equal(oneLine('x'.repeat(100_000), 20), `${'x'.repeat(19)}\u2026`);
});

test('capText says how much was left out', () => {
  assert.equal(capText('abc', 10), 'abc');
  assert.match(capText('a'.repeat(5000), 10), /^a{10}\n… \(5\.0K more characters\)$/);
});

test('formatting', () => {
  assert.equal(formatCount(950), '950');
  assert.equal(formatCount(12_345), '12K');
  assert.equal(formatCount(1_500), '1.5K');
  assert.equal(formatCount(10_485_760), '10.5M');
  assert.equal(formatCost(0.00421), '$0.0042');
  assert.equal(formatCost(1.5), '$1.50');
  assert.equal(formatCost(0), '$0');
});

test('splitAt clamps to the text', () => {
  assert.deepEqual(splitAt('hello world', 6, 5), { before: 'hello ', match: 'world', after: '' });
  assert.deepEqual(splitAt('abc', 10, 5), { before: 'abc', match: '', after: '' });
  assert.deepEqual(splitAt('abc', -1, 2), { before: '', match: 'a', after: 'bc' });
});

test('the status line after an action says its word once', () => {
  assert.equal(doneText('Approved', 'approved'), 'Approved.');
  assert.equal(doneText('Approved', 'approved, waiving gold-passes'), 'Approved, waiving gold-passes.');
  assert.equal(doneText('Recorded', 'a1 × S1: satisfied'), 'Recorded: a1 × S1: satisfied.');
  assert.equal(doneText('Saved', ''), 'Saved.');
  assert.equal(doneText('Approved', 'approvedness\nx'), 'Approved: approvedness x.', 'a longer word is not the same word');
});
