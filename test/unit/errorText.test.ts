// The one helper for a caught system error's code (it replaced four private copies and five inline casts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { errnoCode, hasErrno } from '../../src/core/errorText';

test('errnoCode reads the code of a real fs error and nothing else', () => {
  let caught: unknown;
  try {
    fs.readFileSync(path.join(os.tmpdir(), `specweave-missing-${process.pid}-${Date.now()}`, 'x'));
  } catch (e) {
    caught = e;
  }
  assert.equal(errnoCode(caught), 'ENOENT');
  assert.equal(hasErrno(caught, 'ENOTDIR', 'ENOENT'), true);
  assert.equal(hasErrno(caught, 'EEXIST'), false);
  for (const v of [undefined, null, 'ENOENT', 42, new Error('plain'), { code: 5 }, { code: ['ENOENT'] }]) {
    assert.equal(errnoCode(v), undefined, String(v));
    assert.equal(hasErrno(v, 'ENOENT'), false);
  }
});
