import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePatch } from '../../../src/core/patch';
import { findTestSource, parseTestName } from '../../../src/core/testSource';

const patch = `diff --git a/tests/test_parse.py b/tests/test_parse.py
--- a/tests/test_parse.py
+++ b/tests/test_parse.py
@@ -1,5 +1,20 @@
 import pytest
 
 class TestParse:
     def test_existing(self):
         assert True
+
+    @pytest.mark.parametrize("text,seconds", [("1.5h", 5400), ("2m", 120)])
+    def test_fraction(self, text, seconds):
+        assert parse(text) == seconds
+
+        assert parse(text.upper()) == seconds
+
+class TestOther:
+    def test_fraction(self):
+        assert other()
+
+
+def test_negative():
+    with pytest.raises(ValueError):
+        parse("-1h")
diff --git a/app/tests/test_views.py b/app/tests/test_views.py
new file mode 100644
--- /dev/null
+++ b/app/tests/test_views.py
@@ -0,0 +1,6 @@
+from django.test import TestCase
+
+
+class ViewTests(TestCase):
+    def test_index(self):
+        self.assertEqual(1, 1)
`;

test('parses pytest, Django and unittest names', () => {
  assert.deepEqual(parseTestName('tests/test_parse.py::TestParse::test_fraction[1.5h-5400]'), { file: 'tests/test_parse.py', className: 'TestParse', func: 'test_fraction' });
  assert.deepEqual(parseTestName('tests/test_parse.py::test_negative'), { file: 'tests/test_parse.py', func: 'test_negative' });
  assert.deepEqual(parseTestName('test_index (app.tests.test_views.ViewTests)'), { func: 'test_index', module: 'app.tests.test_views', className: 'ViewTests' });
  assert.deepEqual(parseTestName('test_index (app.tests.test_views.ViewTests.test_index)'), { func: 'test_index', module: 'app.tests.test_views', className: 'ViewTests' });
  assert.deepEqual(parseTestName('app.tests.test_views.ViewTests.test_index'), { func: 'test_index', module: 'app.tests.test_views', className: 'ViewTests' });
  assert.deepEqual(parseTestName('test_plain'), { func: 'test_plain' });
});

test('finds a parametrized pytest method in its class, decorators included, with the patch line', () => {
  const parsed = parsePatch(patch);
  const src = findTestSource(parsed, parseTestName('tests/test_parse.py::TestParse::test_fraction[1.5h-5400]'));
  assert.ok(src);
  assert.equal(src.file, 'tests/test_parse.py');
  assert.equal(patch.split('\n')[src.patchLine - 1], '+    @pytest.mark.parametrize("text,seconds", [("1.5h", 5400), ("2m", 120)])');
  assert.equal(
    src.text,
    '    @pytest.mark.parametrize("text,seconds", [("1.5h", 5400), ("2m", 120)])\n    def test_fraction(self, text, seconds):\n        assert parse(text) == seconds\n\n        assert parse(text.upper()) == seconds',
  );
});

test('tells same-named methods of different classes apart', () => {
  const src = findTestSource(parsePatch(patch), parseTestName('tests/test_parse.py::TestOther::test_fraction'));
  assert.equal(src?.text, '    def test_fraction(self):\n        assert other()');
});

test('finds a module-level pytest function and a Django test', () => {
  const parsed = parsePatch(patch);
  assert.equal(findTestSource(parsed, parseTestName('tests/test_parse.py::test_negative'))?.text, 'def test_negative():\n    with pytest.raises(ValueError):\n        parse("-1h")');
  const dj = findTestSource(parsed, parseTestName('test_index (app.tests.test_views.ViewTests)'));
  assert.equal(dj?.file, 'app/tests/test_views.py');
  assert.equal(dj?.text, '    def test_index(self):\n        self.assertEqual(1, 1)');
  assert.equal(patch.split('\n')[(dj?.patchLine ?? 0) - 1], '+    def test_index(self):');
});

test('a test the patch does not contain has no source', () => {
  assert.equal(findTestSource(parsePatch(patch), parseTestName('tests/test_parse.py::test_missing')), undefined);
  assert.equal(findTestSource(parsePatch(patch), parseTestName('tests/other.py::test_negative')), undefined);
});
