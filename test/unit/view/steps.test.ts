import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanText, countLines, jsonBytes } from '../../../src/core/view/text';
import { prepareStep, StepIndex, stepView } from '../../../src/core/view/steps';
import { MAX_TEXT_SLICE, STEP_PREVIEW_CHARS } from '../../../src/protocol/messages';
import type { StepKind, TrajectoryStep } from '../../../src/core/model';

const step = (index: number, text: string, kind: StepKind = 'observation', extra: Partial<TrajectoryStep> = {}): TrajectoryStep => ({ index, kind, text, ...extra });

test('cleanText strips ANSI colour, cursor and OSC sequences and control characters, keeping tabs and newlines', () => {
  const raw = '\u001b[31mred\u001b[0m \u001b[2K\u001b[1;1Hcursor \u001b]0;title\u0007osc \u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\ bell\u0007 nul\u0000 del\u007f c1\u009b31m tab\tline\r\nnext\rlast';
  assert.equal(cleanText(raw), 'red cursor osc link bell nul del c1 tab\tline\nnext\nlast');
  assert.equal(cleanText('plain text\n'), 'plain text\n');
});

test('binary bytes decoded as text stay inert replacement characters, NULs are removed', () => {
  const bytes = Buffer.from([0x00, 0xff, 0xfe, 0x41, 0x1b, 0x5b, 0x33, 0x31, 0x6d, 0x42, 0x80, 0x0a]);
  assert.equal(cleanText(bytes.toString('utf8')), '\ufffd\ufffdAB\ufffd\n');
});

test('countLines', () => {
  assert.equal(countLines(''), 0);
  assert.equal(countLines('a'), 1);
  assert.equal(countLines('a\n'), 1);
  assert.equal(countLines('a\nb'), 2);
  assert.equal(countLines('\n\n'), 2);
});

test('a 10 MB step previews capped; its line count is exact', () => {
  const line = `${'x'.repeat(99)}\n`;
  const big = line.repeat(100_000); // 10 MB, 100,000 lines
  const p = prepareStep(step(0, big));
  const v = stepView(p);
  assert.equal(v.preview.length, STEP_PREVIEW_CHARS);
  assert.equal(v.length, big.length);
  assert.equal(v.lines, 100_000);
  assert.ok(jsonBytes(v) < 10_000);
});

test('a 100,000-character line is cut at the preview length', () => {
  const v = stepView(prepareStep(step(0, 'y'.repeat(100_000))));
  assert.equal(v.preview.length, STEP_PREVIEW_CHARS);
  assert.equal(v.lines, 1);
  assert.equal(v.length, 100_000);
});

test('the preview never splits a surrogate pair', () => {
  const text = `${'a'.repeat(STEP_PREVIEW_CHARS - 1)}😀tail`;
  const v = stepView(prepareStep(step(0, text)));
  assert.equal(v.preview, 'a'.repeat(STEP_PREVIEW_CHARS - 1));
});

test('previews strip ANSI codes; tool calls and edits come along, capped', () => {
  const p = prepareStep(step(3, '\u001b[32mok\u001b[0m', 'action', {
    toolCalls: [{ name: 'str_replace_editor', arguments: `{"path": "a.py", "new": "${'z'.repeat(5000)}"}` }],
    edits: [{ path: 'a.py', via: 'str_replace' }, { path: 'a.py', via: 'str_replace' }],
    costUsd: 0.5,
  }));
  const v = stepView(p);
  assert.equal(v.preview, 'ok');
  assert.equal(v.toolCalls?.[0]?.arguments.length, 2000);
  assert.deepEqual(v.edits, ['a.py']);
  assert.equal(v.costUsd, 0.5);
  assert.equal(p.toolCalls?.[0]?.arguments.length, 5000 + '{"path": "a.py", "new": ""}'.length, 'the prepared step keeps the whole arguments (the search looks in them)');
});

test('paging with kind filters, locate and text slices', () => {
  const kinds: StepKind[] = ['thought', 'action', 'observation'];
  const steps = Array.from({ length: 1000 }, (_, i) => prepareStep(step(i, `step ${i}`, kinds[i % 3] as StepKind)));
  const idx = new StepIndex(steps);
  const all = idx.page(10, 5);
  assert.deepEqual(all.steps.map((s) => s.index), [10, 11, 12, 13, 14]);
  assert.equal(all.total, 1000);
  const actions = idx.page(0, 3, ['action']);
  assert.deepEqual(actions.steps.map((s) => s.index), [1, 4, 7]);
  assert.equal(actions.total, 333);
  assert.equal(actions.totalUnfiltered, 1000);
  assert.equal(idx.page(0, 10_000).steps.length, 200, 'a page holds at most MAX_STEP_PAGE steps');
  assert.equal(idx.locate(7, ['action']), 2);
  assert.equal(idx.locate(8, ['action']), 3, 'a step of another kind locates the next shown one');
  assert.equal(idx.locate(999, ['action']), -1);
  assert.equal(idx.locate(500), 500);
  assert.deepEqual(idx.textSlice(5, 2, 3), { text: 'ep ', offset: 2, total: 6 });
});

test('a page of huge steps stays far under 1 MB, and a text slice too', () => {
  const huge = 'é\u2028"'.repeat(100_000);
  const steps = Array.from({ length: 300 }, (_, i) => prepareStep(step(i, huge, 'observation', { toolCalls: [{ name: 'bash', arguments: huge }] })));
  const idx = new StepIndex(steps);
  const page = idx.page(0, 200);
  assert.ok(page.steps.length > 0);
  assert.ok(jsonBytes(page) < 1_000_000, `page is ${jsonBytes(page)} bytes`);
  const slice = idx.textSlice(0, 0, 1 << 20);
  assert.ok(slice && slice.text.length === MAX_TEXT_SLICE);
  assert.ok(jsonBytes(slice) < 1_000_000, `slice is ${jsonBytes(slice)} bytes`);
});
