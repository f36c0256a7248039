import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyFilePatch, parsePatch } from '../../src/core/patch';
import { unifiedDiff } from '../../src/core/textDiff';

function roundTrip(before: string, after: string) {
  const diff = unifiedDiff('f.py', 'f.py', before, after);
  if (before === after) {
    assert.equal(diff, '');
    return;
  }
  const parsed = parsePatch(diff);
  assert.deepEqual(parsed.problems, [], diff);
  assert.equal(parsed.files.length, 1);
  const r = applyFilePatch(before, parsed.files[0]!);
  assert.ok(r.ok, diff);
  assert.equal(r.ok && r.text, after, diff);
}

test('unified diffs apply back to the text they were made from', () => {
  roundTrip('a\nb\nc\n', 'a\nB\nc\n');
  roundTrip('', 'new\nfile\n');
  roundTrip('x\n', '');
  roundTrip('a\nb', 'a\nb\n');
  roundTrip('a\nb\n', 'a\nb');
  roundTrip('same\n', 'same\n');
  const long = Array.from({ length: 200 }, (_, i) => `line ${i}`);
  const changed = [...long];
  changed[10] = 'ten';
  changed.splice(100, 3);
  changed.splice(150, 0, 'inserted', 'twice');
  roundTrip(long.join('\n') + '\n', changed.join('\n') + '\n');
  assert.equal((unifiedDiff('f', 'f', long.join('\n') + '\n', changed.join('\n') + '\n').match(/^@@/gm) ?? []).length, 3, 'three separate hunks');
});

test('random edits round-trip', () => {
  let seed = 7;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  for (let t = 0; t < 200; t++) {
    const a = Array.from({ length: rnd(30) }, () => `l${rnd(8)}`);
    const b = a.filter(() => rnd(4) !== 0).flatMap((l) => (rnd(5) === 0 ? [l, `n${rnd(8)}`] : [l]));
    roundTrip(a.join('\n') + (rnd(2) ? '\n' : ''), b.join('\n') + (rnd(2) ? '\n' : ''));
  }
});

test('new and deleted files use /dev/null headers', () => {
  assert.match(unifiedDiff(undefined, 'tests/t.py', '', 'x\n'), /--- \/dev\/null\n\+\+\+ b\/tests\/t.py\n@@ -0,0 \+1,1 @@/);
  assert.match(unifiedDiff('t.py', undefined, 'x\n', ''), /deleted file mode/);
});

test('paths git must quote (a tab, non-ASCII) survive a diff and its parse', () => {
  for (const name of ['dir/x\ty.py', 'tests/café_test.py', 'with space/a "quoted" name.py']) {
    const diff = unifiedDiff(name, name, 'a\n', 'b\n');
    const p = parsePatch(diff);
    assert.deepEqual(p.files.map((f) => [f.oldPath, f.newPath]), [[name, name]], diff);
    assert.deepEqual(applyFilePatch('a\n', p.files[0]!), { ok: true, text: 'b\n', fuzz: false });
  }
});

test('two unrelated 20,000-line files: one whole-file hunk, bounded in memory, that applies back', () => {
  // The hand-written diff kept its whole frontier once per edit: 40,000 edits x 80,000 entries, about 13 GB.
  const n = 20_000;
  const before = Array.from({ length: n }, (_, i) => `old ${i}`).join('\n') + '\n';
  const after = Array.from({ length: n }, (_, i) => `new ${i}`).join('\n');
  const diff = unifiedDiff('big.txt', 'big.txt', before, after);
  assert.deepEqual(diff.match(/^@@.*$/gm), [`@@ -1,${n} +1,${n} @@`]);
  const r = applyFilePatch(before, parsePatch(diff).files[0]!);
  assert.equal(r.ok && r.text, after);
  assert.equal(r.ok && r.fuzz, false);
  // Small edits in the same file still get a minimal diff.
  const edited = before.replace('old 5000\n', 'changed\n');
  assert.deepEqual(unifiedDiff('big.txt', 'big.txt', before, edited).match(/^@@.*$/gm), ['@@ -4998,7 +4998,7 @@']);
});
