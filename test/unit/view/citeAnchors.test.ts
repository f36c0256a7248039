// Where a citation in an editor points: the hunks of a patch file, of one file's part, of a changed version, and the
// stdout and stderr lines of a composed run log; and back, the lines a recorded link covers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePatch } from '../../../src/core/patch';
import {
  anchorAt,
  anchorOf,
  filePatchAnchors,
  patchAnchors,
  runLogLineOf,
  runLogLinkAt,
  storedLogLineOf,
  storedLogLinkAt,
  storedLogOf,
  versionAnchors,
} from '../../../src/core/view/citeAnchors';
import type { RunLogDocument } from '../../../src/core/view/results';

// Line numbers (1-based) of the patch: 1-4 header of a.py, 5 @@ (hunk 0), 6-9 body, 10 @@ (hunk 1), 11-13 body,
// 14-17 header of b.py, 18 @@ (its hunk 0), 19-20 body.
const PATCH = [
  'diff --git a/a.py b/a.py',
  'index 1..2 100644',
  '--- a/a.py',
  '+++ b/a.py',
  '@@ -1,3 +1,4 @@ def f():',
  ' one',
  '-two',
  '+TWO',
  '+extra',
  '@@ -10,2 +11,2 @@',
  ' ten',
  '-eleven',
  '+ELEVEN',
  'diff --git a/b.py b/b.py',
  'index 1..2 100644',
  '--- a/b.py',
  '+++ b/b.py',
  '@@ -5 +5 @@',
  '-x',
  '+y',
  '',
].join('\n');

test('a whole patch file: each hunk from its @@ line to its last body line links that file and hunk', () => {
  const a = patchAnchors(PATCH, { patch: 'attempt', attempt: 'a1' });
  assert.deepEqual(
    a.map((x) => [x.range.from, x.range.to, x.link]),
    [
      [4, 8, { kind: 'diff_hunk', patch: 'attempt', attempt: 'a1', file: 'a.py', hunk: 0 }],
      [9, 12, { kind: 'diff_hunk', patch: 'attempt', attempt: 'a1', file: 'a.py', hunk: 1 }],
      [17, 19, { kind: 'diff_hunk', patch: 'attempt', attempt: 'a1', file: 'b.py', hunk: 0 }],
    ],
  );
  // A header line cites nothing; a body line cites its hunk.
  assert.equal(anchorAt(a, 2), undefined);
  assert.deepEqual(anchorAt(a, 11)?.link, { kind: 'diff_hunk', patch: 'attempt', attempt: 'a1', file: 'a.py', hunk: 1 });
  // The gold patch's links name no attempt.
  assert.deepEqual(patchAnchors(PATCH, { patch: 'gold' })[2]?.link, { kind: 'diff_hunk', patch: 'gold', file: 'b.py', hunk: 0 });
});

test("one file's part of a patch counts from the part's first line", () => {
  const fp = parsePatch(PATCH).files[1]!;
  const a = filePatchAnchors(fp, { patch: 'tests' });
  assert.deepEqual(a.map((x) => x.range), [{ from: 4, to: 6 }]);
  assert.deepEqual(anchorAt(a, 5)?.link, { kind: 'diff_hunk', patch: 'tests', file: 'b.py', hunk: 0 });
});

test("a changed version: each hunk's new lines, and a recorded link finds its hunk back", () => {
  const fp = parsePatch(PATCH).files[0]!;
  const a = versionAnchors(fp, { patch: 'attempt', attempt: 'a1' });
  // +1,4 is lines 1-4 (0-based 0-3); +11,2 is lines 11-12 (10-11).
  assert.deepEqual(a.map((x) => x.range), [{ from: 0, to: 3 }, { from: 10, to: 11 }]);
  assert.equal(anchorAt(a, 5), undefined, 'a line no hunk changed cites nothing');
  assert.deepEqual(anchorOf(a, { kind: 'diff_hunk', patch: 'attempt', attempt: 'a1', file: 'a.py', hunk: 1 })?.range, { from: 10, to: 11 });
  assert.equal(anchorOf(a, { kind: 'diff_hunk', patch: 'attempt', attempt: 'a2', file: 'a.py', hunk: 1 }), undefined, "another attempt's hunk is not here");
  assert.equal(anchorOf(a, { kind: 'log_line', run: 'r', line: 1 }), undefined);
});

test('a deletion-only hunk covers the line after it', () => {
  const fp = parsePatch('--- a/c.py\n+++ b/c.py\n@@ -3,2 +2,0 @@\n-gone\n-too\n').files[0]!;
  assert.deepEqual(versionAnchors(fp, { patch: 'gold' }).map((x) => x.range), [{ from: 1, to: 1 }]);
});

test('a composed run log: header lines cite nothing, stdout and stderr lines cite their stream line', () => {
  // 0 header, 1 blank, 2 '---- stdout ----', 3-4 stdout, 5 blank, 6 '---- stderr ----', 7 stderr.
  const doc: RunLogDocument = { text: '', stdoutLine: 3, stdoutLines: 2, stderrLine: 7, stderrLines: 1 };
  assert.equal(runLogLinkAt(doc, 'run-1', 2), undefined);
  assert.deepEqual(runLogLinkAt(doc, 'run-1', 4), { kind: 'log_line', run: 'run-1', line: 2 });
  assert.equal(runLogLinkAt(doc, 'run-1', 5), undefined);
  assert.deepEqual(runLogLinkAt(doc, 'run-1', 7), { kind: 'log_line', run: 'run-1', line: 1, stream: 'stderr' });
  assert.equal(runLogLineOf(doc, 'run-1', { kind: 'log_line', run: 'run-1', line: 2 }), 4);
  assert.equal(runLogLineOf(doc, 'run-1', { kind: 'log_line', run: 'run-1', line: 1, stream: 'stderr' }), 7);
  assert.equal(runLogLineOf(doc, 'run-1', { kind: 'log_line', run: 'run-1', line: 3 }), undefined, 'past the end of stdout');
  assert.equal(runLogLineOf(doc, 'run-1', { kind: 'log_line', run: 'run-2', line: 1 }), undefined, 'another run');
});

test('a stored stream file: its path names the run, each line cites itself', () => {
  assert.deepEqual(storedLogOf('runs/t1/a1/20260101-abc.stderr.log'), { taskId: 't1', attempt: 'a1', run: '20260101-abc', stream: 'stderr' });
  assert.equal(storedLogOf('runs/t1/a1/x.log'), undefined);
  assert.equal(storedLogOf('tasks/t1/runs/t1/a1/r.stdout.log'), undefined);
  const f = { run: 'r', stream: 'stdout' as const };
  assert.deepEqual(storedLogLinkAt(f, 0), { kind: 'log_line', run: 'r', line: 1 });
  assert.equal(storedLogLineOf(f, { kind: 'log_line', run: 'r', line: 3 }, 10), 2);
  assert.equal(storedLogLineOf(f, { kind: 'log_line', run: 'r', line: 3, stream: 'stderr' }, 10), undefined);
  assert.equal(storedLogLineOf(f, { kind: 'log_line', run: 'r', line: 11 }, 10), undefined);
});
