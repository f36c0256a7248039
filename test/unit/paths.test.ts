import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unsafeRelativePath } from '../../src/core/paths';

test('dataset-relative paths may not escape the dataset', () => {
  assert.equal(unsafeRelativePath('attempts/a1/patch.diff'), undefined);
  assert.match(unsafeRelativePath('../x')!, /escapes/);
  assert.match(unsafeRelativePath('a/../../x')!, /escapes/);
  assert.match(unsafeRelativePath('/etc/passwd')!, /absolute/);
  assert.match(unsafeRelativePath('C:\\x')!, /absolute/);
  assert.match(unsafeRelativePath('')!, /empty/);
});
