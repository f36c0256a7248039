import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyFilePatch, filePath, notAPatch, parsePatch, testFilesOf } from '../../src/core/patch';

const samples = path.resolve(__dirname, '../../../shared/samples');

const two = `diff --git a/pkg/a.py b/pkg/a.py
index 111..222 100644
--- a/pkg/a.py
+++ b/pkg/a.py
@@ -1,4 +1,5 @@
 def f():
-    return 1
+    # changed
+    return 2
 
 x = 1
diff --git a/tests/test_new.py b/tests/test_new.py
new file mode 100644
--- /dev/null
+++ b/tests/test_new.py
@@ -0,0 +1,2 @@
+def test_x():
+    assert True
`;

test('parses files, statuses and change counts', () => {
  const p = parsePatch(two);
  assert.deepEqual(p.problems, []);
  assert.deepEqual(p.files.map((f) => [filePath(f), f.status, f.additions, f.deletions]), [
    ['pkg/a.py', 'modified', 2, 1],
    ['tests/test_new.py', 'added', 2, 0],
  ]);
  assert.deepEqual(testFilesOf(p), ['tests/test_new.py']);
});

test('applies hunks to the base text, also when lines moved, and keeps CRLF', () => {
  const fp = parsePatch(two).files[0]!;
  const base = 'def f():\n    return 1\n\nx = 1\n';
  assert.deepEqual(applyFilePatch(base, fp), { ok: true, text: 'def f():\n    # changed\n    return 2\n\nx = 1\n', fuzz: false });
  const moved = applyFilePatch('# header\n# more\n' + base, fp);
  assert.equal(moved.ok && moved.fuzz, true);
  assert.equal(moved.ok && moved.text.startsWith('# header\n# more\ndef f():\n    # changed'), true);
  const crlf = applyFilePatch(base.replace(/\n/g, '\r\n'), fp);
  assert.equal(crlf.ok && crlf.text, 'def f():\r\n    # changed\r\n    return 2\r\n\r\nx = 1\r\n');
  const added = applyFilePatch('', parsePatch(two).files[1]!);
  assert.equal(added.ok && added.text, 'def test_x():\n    assert True\n');
});

test('a hunk that does not match the base says which hunk', () => {
  const fp = parsePatch(two).files[0]!;
  const r = applyFilePatch('something else\n', fp);
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.reason : '', /hunk 1/);
});

test('"no newline at end of file" markers are honoured', () => {
  const p = parsePatch('--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n');
  const r = applyFilePatch('a', p.files[0]!);
  assert.deepEqual(r, { ok: true, text: 'b', fuzz: false });
});

test('text that is not a patch is recognised, the empty patch is fine', () => {
  assert.match(notAPatch('hello world\nthis is prose\n', 'x')?.message ?? '', /not a patch/);
  assert.equal(notAPatch('', 'x'), undefined);
  assert.equal(notAPatch(two, 'x'), undefined);
});

test('real patches: Blacksmith hunks whose counts lie are reported but kept; CRLF and stray files parse', () => {
  const lines = fs.readFileSync(path.join(samples, 'swebench/predictions/blacksmith_predictions_swebench_v1.1.0.jsonl'), 'utf8').trim().split('\n');
  let warned = 0;
  for (const l of lines) {
    const p = parsePatch((JSON.parse(l) as { model_patch: string }).model_patch);
    assert.ok(p.files.length > 0);
    if (p.problems.some((x) => /hunk header/.test(x.message))) warned++;
  }
  assert.equal(warned, lines.length, 'every Blacksmith patch has a miscounted hunk');
  const pred = JSON.parse(fs.readFileSync(path.join(samples, 'swebench/predictions/swe-agent_pylint-dev__astroid-1978.pred'), 'utf8')) as { model_patch: string };
  const p = parsePatch(pred.model_patch);
  assert.ok(p.files.some((f) => f.status === 'added' && filePath(f) === 'test_numpy_warning.py'));
  const gold = JSON.parse(fs.readFileSync(path.join(samples, 'swebench/predictions/swe-bench_preds_sbl.gold.json'), 'utf8')) as Array<{ model_patch: string }>;
  for (const g of gold) {
    const gp = parsePatch(g.model_patch);
    assert.ok(gp.files.length > 0);
    assert.deepEqual(gp.problems, [], 'gold patches are well formed');
  }
});

test('a quoted path is read as git writes it: octal escapes are UTF-8 bytes', () => {
  const p = parsePatch('diff --git "a/caf\\303\\251.py" "b/caf\\303\\251.py"\n--- "a/caf\\303\\251.py"\n+++ "b/caf\\303\\251.py"\n@@ -1 +1 @@\n-a\n+b\n');
  assert.deepEqual(p.problems, []);
  assert.equal(filePath(p.files[0]!), 'café.py');
  assert.deepEqual([p.files[0]!.patchLine, p.files[0]!.hunks[0]!.patchLine], [1, 4], 'patch lines for evidence links');
  const tab = parsePatch('diff --git "a/x\\ty.py" "b/x\\ty.py"\nnew file mode 100644\n--- /dev/null\n+++ "b/x\\ty.py"\n@@ -0,0 +1 @@\n+a\n');
  assert.deepEqual(tab.files.map((f) => [f.status, f.oldPath, f.newPath]), [['added', undefined, 'x\ty.py']]);
});

test('a file named only by its "diff --git" line (binary, mode change) keeps its name when it has spaces', () => {
  const p = parsePatch(
    'diff --git a/docs/my logo.png b/docs/my logo.png\nindex 1111111..2222222 100644\nBinary files a/docs/my logo.png and b/docs/my logo.png differ\n' +
      'diff --git a/run me.sh b/run me.sh\nold mode 100644\nnew mode 100755\n',
  );
  assert.deepEqual(p.files.map((f) => [filePath(f), f.status]), [
    ['docs/my logo.png', 'binary'],
    ['run me.sh', 'modified'],
  ]);
});

test('renames and copies name both sides, quoted names unquoted', () => {
  const p = parsePatch(
    'diff --git a/old name.py "b/new\\tname.py"\nsimilarity index 100%\nrename from old name.py\nrename to "new\\tname.py"\n' +
      'diff --git a/src/a.py b/src/b.py\nsimilarity index 100%\ncopy from src/a.py\ncopy to src/b.py\n',
  );
  assert.deepEqual(p.files.map((f) => [f.status, f.oldPath, f.newPath]), [
    ['renamed', 'old name.py', 'new\tname.py'],
    ['modified', 'src/a.py', 'src/b.py'],
  ]);
});

test('GIT binary patch and new binary files are binary, and are not applied', () => {
  const p = parsePatch('diff --git a/img.png b/img.png\nnew file mode 100644\nindex 0000000..1111111\nGIT binary patch\nliteral 5\nMcmZ?wbhEJ8\n\nliteral 0\nHcmV?d00001\n\n');
  assert.deepEqual(p.files.map((f) => [filePath(f), f.status, f.oldPath]), [['img.png', 'binary', undefined]]);
  assert.deepEqual(applyFilePatch('', p.files[0]!), { ok: false, hunk: 0, reason: 'binary patch' });
});

test('hostile patches stay bounded: a header claiming a billion lines, NUL bytes, a 100,000-character line', () => {
  const huge = parsePatch('--- a/f\n+++ b/f\n@@ -1,999999999 +1,999999999 @@\n a\n-b\n+c\n');
  assert.equal(huge.files[0]?.hunks[0]?.lines.length, 3, 'the body is what is there, not what the header says');
  assert.match(huge.problems[0]?.message ?? '', /says -999999999 \+999999999 lines but the body has 2 and 2/);
  assert.match(notAPatch('--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\0\n+b\n', 'p.diff')?.message ?? '', /NUL/);
  const long = 'x'.repeat(100_000);
  const p = parsePatch(`diff --git a/${long} b/${long}\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-${long}\n+${long}y\n`);
  assert.equal(p.files.length, 1);
  assert.deepEqual(applyFilePatch(`${long}\n`, p.files[0]!), { ok: true, text: `${long}y\n`, fuzz: false });
  // Headers jsdiff reads: 50,000 " b/" to split a `diff --git` line on, 30,000 octal runs, an unterminated quote.
  const splits = parsePatch(`diff --git a/x${' b/'.repeat(50_000)} b/y\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n`);
  assert.equal(filePath(splits.files[0]!), 'f');
  const octal = parsePatch(`diff --git "a/${'a\\303'.repeat(30_000)}" "b/x"\nold mode 100644\nnew mode 100755\n`);
  assert.equal(octal.files[0]?.newPath, 'x');
  assert.equal(octal.files[0]?.oldPath?.length, 60_000);
  const open = parsePatch(`diff --git "a/${'\\"'.repeat(50_000)} b/x\nold mode 100644\nnew mode 100755\n`);
  assert.deepEqual(open.files.map((f) => [f.oldPath, f.newPath, f.status]), [[undefined, undefined, 'modified']]);
});

test('a hunk adding 20,000 lines whose header points at the wrong line is found by its context', () => {
  // jsdiff's applyPatch copies every added line again at each position it tries: this case takes it about a minute
  // (bench/diff.bench.ts), which is why the applier here stays our own.
  const n = 20_000;
  const base = Array.from({ length: n }, (_, i) => `line ${i}`).join('\n') + '\n';
  const added = Array.from({ length: n }, (_, i) => `+added ${i}`).join('\n');
  const fp = parsePatch(`--- a/f\n+++ b/f\n@@ -1,1 +1,${n + 1} @@\n${added}\n line ${n - 1}\n`).files[0]!;
  const r = applyFilePatch(base, fp);
  assert.equal(r.ok && r.fuzz, true);
  assert.equal(r.ok && r.text.split('\n').length, 2 * n + 1);
  assert.equal(r.ok && r.text.endsWith('added 19999\nline 19999\n'), true);
});
