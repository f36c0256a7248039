// Folders as patches that only add files (Harbor's tests/ and solution/), and back, byte for byte; git reads the same
// patch; anything that is not a pure addition is refused with its line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { addedFilesOf, addedFilesPatch } from '../../../src/core/addedFiles';
import type { AddedFile } from '../../../src/core/addedFiles';
import { parsePatch } from '../../../src/core/patch';
import { tmpDir } from '../helpers/tmp';

const b = (s: string) => Buffer.from(s, 'utf8');
const FILES: AddedFile[] = [
  { path: 'test.sh', content: b('#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n'), executable: true },
  { path: 'test_outputs.py', content: b('def test_x():\n    assert True\n'), executable: false },
  { path: 'crlf.txt', content: b('one\r\ntwo\r\n'), executable: false },
  { path: 'no-newline.txt', content: b('last line'), executable: false },
  { path: 'empty.txt', content: new Uint8Array(0), executable: false },
  { path: 'data/blob.bin', content: Buffer.concat([Buffer.from([0, 1, 2, 255]), randomBytes(300)]), executable: false },
  { path: 'latin1.txt', content: Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]), executable: false },
  { path: 'dir with space/café.py', content: b('x = "é"\n'), executable: false },
];

test('every file comes back byte for byte, with its executable bit, whatever its bytes', () => {
  const patch = addedFilesPatch(FILES, 'tests/');
  const r = addedFilesOf(Buffer.from(patch, 'utf8'));
  assert.ok(r.ok, r.ok ? '' : `${r.line}: ${r.reason}`);
  const byPath = new Map(r.files.map((f) => [f.path, f]));
  assert.equal(r.files.length, FILES.length);
  for (const f of FILES) {
    const got = byPath.get(`tests/${f.path}`);
    assert.ok(got, f.path);
    assert.ok(Buffer.from(got.content).equals(Buffer.from(f.content)), f.path);
    assert.equal(got.executable, f.executable, f.path);
  }
});

test('the patch is an ordinary git patch: git apply creates the same files, and the patch reader sees them added', () => {
  const patch = addedFilesPatch(FILES, 'solution/');
  const dir = tmpDir();
  fs.writeFileSync(path.join(dir, 'p.diff'), patch);
  const r = spawnSync('git', ['apply', '--unsafe-paths', 'p.diff'], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  for (const f of FILES) {
    const abs = path.join(dir, 'solution', f.path);
    assert.ok(fs.readFileSync(abs).equals(Buffer.from(f.content)), f.path);
    assert.equal((fs.statSync(abs).mode & 0o111) !== 0, f.executable, f.path);
  }
  const parsed = parsePatch(patch, 'gold.patch');
  assert.deepEqual(parsed.problems, []);
  assert.equal(parsed.files.length, FILES.length);
  assert.ok(parsed.files.every((f) => f.status === 'added' || f.status === 'binary'));
});

test('a patch that changes, deletes or links anything cannot be unpacked, and the line says where', () => {
  const cases: Array<[string, number, RegExp]> = [
    ['diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n', 3, /already exists/],
    ['diff --git a/x b/x\ndeleted file mode 100644\n', 2, /already exists/],
    ['diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+target\n', 2, /symbolic link/],
    ['diff --git a/x b/x\nnew file mode 100644\n--- /dev/null\n+++ b/x\n@@ -0,0 +1,3 @@\n+a\n', 7, /ends early/],
    ['diff --git a/x b/x\nnew file mode 100644\nBinary files /dev/null and b/x differ\n', 3, /Binary files differ/],
    ['diff --git a/x b/x\nnew file mode 100644\nindex 0..1\nGIT binary patch\nliteral 9\nzzzz\n\n', 6, /malformed/],
    ['diff --git a/../x b/../x\nnew file mode 100644\n--- /dev/null\n+++ b/../x\n@@ -0,0 +1 @@\n+a\n', 1, /escapes/],
  ];
  for (const [patch, line, re] of cases) {
    const r = addedFilesOf(patch);
    assert.equal(r.ok, false, patch);
    if (r.ok) continue;
    assert.equal(r.line, line, patch);
    assert.match(r.reason, re, patch);
  }
});
