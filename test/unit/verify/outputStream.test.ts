// The test output parsed as it arrives (issue 9, items 18 and 20): both streams in the order the engine delivered
// them, every line of an output of any size, with bounded memory; the capture keeps only head and tail for display.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { Demuxer, HeadTailCapture, MarkerSplitCapture } from '../../../src/adapters/docker/capture';
import type { TestCase } from '../../../src/core/model';
import { judgeRun } from '../../../src/core/verify/judge';
import { MAX_LINE_BYTES } from '../../../src/core/verify/lineStream';
import { TestOutputStream, parseTestText } from '../../../src/core/verify/testOutput';

function frame(type: number, payload: Buffer): Buffer {
  const h = Buffer.alloc(8);
  h[0] = type;
  h.writeUInt32BE(payload.length, 4);
  return Buffer.concat([h, payload]);
}

function* chunked(buf: Buffer, sizes: number[]): Generator<Buffer> {
  let i = 0;
  let k = 0;
  while (i < buf.length) {
    const n = sizes[k++ % sizes.length] as number;
    yield buf.subarray(i, i + n);
    i += n;
  }
}

const MARKER = Buffer.from('@@SPECWEAVE tests-begin@@\n');

/** The executor's capture (driver report split off, head and tail kept) feeding the parser, as in a real run. */
function capture(wire: Buffer, sizes: number[], keep: number, format = 'pytest') {
  const parser = new TestOutputStream(format);
  const stdout = new MarkerSplitCapture(MARKER, keep, 256 * 1024, (c) => parser.write('stdout', c));
  const stderr = new HeadTailCapture(keep);
  const demux = new Demuxer(stdout, { write: (c) => (stderr.write(c), parser.write('stderr', c)) });
  for (const c of chunked(wire, sizes)) demux.write(c);
  return { log: parser.end(), stdout: stdout.after.result(), stderr: stderr.result(), demux };
}

test('stderr markers around stdout results: read in the order written, the marked section holds the results', () => {
  const wire = Buffer.concat([
    frame(1, Buffer.from('@@SPECWEAVE apply test git-apply\n@@SPECWEAVE apply attempt git-apply\n\n@@SPECWEAVE tests-begin@@\n')),
    frame(1, Buffer.from('PASSED tests/t.py::before_markers\n')),
    frame(2, Buffer.from("+ : '>>>>> Start Test Output'\n+ pytest -rA tests\n")),
    frame(1, Buffer.from('==== short test summary info ====\nPASSED tests/t.py::test_a\nFAIL')),
    // A frame of the other stream in the middle of a line: the line is not mixed with it.
    frame(2, Buffer.from('+ echo noise\n')),
    frame(1, Buffer.from('ED tests/t.py::test_b - assert 0\n==== 1 failed, 1 passed in 0.01s ====\n')),
    frame(2, Buffer.from("+ : '>>>>> End Test Output'\n")),
    frame(1, Buffer.from('PASSED tests/t.py::after_markers\n')),
  ]);
  for (const sizes of [[1], [7, 3], [wire.length]]) {
    const { log } = capture(wire, sizes, 1024);
    assert.equal(log.scope, 'marked');
    assert.deepEqual(log.tests, { 'tests/t.py::test_a': 'PASSED', 'tests/t.py::test_b': 'FAILED' });
  }
});

test('a 4.6 MB short summary: every result is read, none is invented at the cut, only head and tail are kept', () => {
  const n = 60_000;
  const id = (i: number) => `tests/test_many.py::test_with_a_rather_long_descriptive_name[case-${String(i).padStart(5, '0')}]`;
  const lines = ['==== test session starts ====', `collected ${n} items`, '==== short test summary info ===='];
  for (let i = 0; i < n; i++) lines.push(`PASSED ${id(i)}`);
  lines.push(`==== ${n} passed in 41.20s ====`, '');
  const body = Buffer.from(lines.join('\n'));
  assert.ok(body.length > 4.6e6, `${body.length} bytes`);
  const wire = Buffer.concat([frame(1, MARKER), ...[...chunked(body, [65_536, 1_000, 7_777])].map((c) => frame(1, c))]);
  const keep = 1024 * 1024;
  const { log, stdout } = capture(wire, [32_768, 5], keep);
  assert.equal(Object.keys(log.tests).length, n);
  assert.ok(Object.keys(log.tests).every((k) => /^tests\/test_many\.py::test_with_a_rather_long_descriptive_name\[case-\d{5}\]$/.test(k)));
  assert.equal(log.unclosed, undefined);
  assert.equal(log.countMismatch, undefined);
  assert.equal(stdout.head.length, keep);
  assert.ok(stdout.cutBytes > 2e6, 'the capture keeps only its head and tail');
  const listed: TestCase[] = [0, 31_337, n - 1].map((i, k) => ({ id: `T${k}`, name: id(i), kind: 'fail_to_pass', specs: [] }));
  const j = judgeRun(
    { tests: listed, specs: [], verifier: { parser: 'pytest' } },
    { apply: { test: { method: 'git-apply' }, attempt: { method: 'git-apply' } }, exitCode: 0, timedOut: false, oomKilled: false, stdoutText: '', stderrText: '', testLog: log },
  );
  assert.equal(j.status, 'passed', j.reason);
  assert.deepEqual(j.grade.failToPass.success, listed.map((t) => t.name));
  assert.equal(Object.keys(j.reported).length, n);
});

test('a line longer than the cap is not read as a result, and the reason says so', () => {
  const long = `PASSED tests/t.py::test_${'x'.repeat(MAX_LINE_BYTES + 10)}`;
  const text = `==== short test summary info ====\n${long}\nPASSED tests/t.py::test_ok\n==== 2 passed in 0.01s ====\n`;
  const s = new TestOutputStream('pytest');
  for (const c of chunked(Buffer.from(text), [4096])) s.write('stdout', c);
  const log = s.end();
  assert.deepEqual(log.tests, { 'tests/t.py::test_ok': 'PASSED' });
  assert.equal(log.longLines, 1);
  assert.equal(parseTestText('pytest', text).longLines, 1, 'a stored log is read with the same cap');
  const j = judgeRun(
    { tests: [{ id: 'T', name: 'tests/t.py::test_ok', kind: 'fail_to_pass', specs: [] }], specs: [], verifier: { parser: 'pytest' } },
    { apply: { test: { method: 'git-apply' }, attempt: { method: 'git-apply' } }, exitCode: 0, timedOut: false, oomKilled: false, stdoutText: '', stderrText: '', testLog: log },
  );
  assert.match(j.reason, /1 line\(s\) longer than 64 KiB were not read as results/);
});

test('multi-byte characters split across chunks decode whole; a last line without a line break counts', () => {
  const text = Buffer.from('PASSED tests/t.py::test_é[ünï]\nPASSED tests/t.py::test_日本');
  const s = new TestOutputStream('pytest');
  for (const c of chunked(text, [1])) s.write('stdout', c);
  assert.deepEqual(s.end().tests, { 'tests/t.py::test_é[ünï]': 'PASSED', 'tests/t.py::test_日本': 'PASSED' });
});

test('a driver report that overflows without a marker still reaches the parser whole', () => {
  const seen: Buffer[] = [];
  const c = new MarkerSplitCapture(MARKER, 1000, 16, (b) => seen.push(Buffer.from(b)));
  c.write(Buffer.from('x'.repeat(10)));
  c.write(Buffer.from(`${'y'.repeat(30)}\nPASSED t.py::a\n`));
  c.write(Buffer.from('PASSED t.py::b\n'));
  assert.equal(Buffer.concat([c.prelude(), ...seen]).toString(), `${'x'.repeat(10)}${'y'.repeat(30)}\nPASSED t.py::a\nPASSED t.py::b\n`);
});
