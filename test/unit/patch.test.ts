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
