// Archive entries are checked before anything is uploaded; safe archives are re-packed under the workdir.
import * as assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import * as tar from 'tar-stream';
import { assembleArchive, repackChecked } from '../../../src/adapters/docker/repoArchive';
import type { TarHeaderLike } from '../../../src/adapters/docker/tarSafety';
import { TarEntryChecker, UnsafeArchiveError, assertSafeEntries, resolveInside, safeMode } from '../../../src/adapters/docker/tarSafety';

function refused(headers: TarHeaderLike[]): string {
  try {
    assertSafeEntries(headers);
  } catch (e) {
    assert.ok(e instanceof UnsafeArchiveError);
    return e.message;
  }
  return 'accepted';
}

test('entries escaping the workdir are refused', () => {
  assert.match(refused([{ name: '/etc/passwd' }]), /absolute path/);
  assert.match(refused([{ name: 'a/../../etc/passwd' }]), /contains "\.\."/);
  assert.match(refused([{ name: '../x' }]), /contains "\.\."/);
  assert.match(refused([{ name: 'dev/sda', type: 'block-device' }]), /block-device entries are not allowed/);
  assert.match(refused([{ name: 'tty', type: 'character-device' }]), /character-device/);
  assert.match(refused([{ name: 'pipe', type: 'fifo' }]), /fifo/);
  assert.match(refused([{ name: 'evil', type: 'symlink', linkname: '/etc/passwd' }]), /absolute path "\/etc\/passwd"/);
  assert.match(refused([{ name: 'a/evil', type: 'symlink', linkname: '../../etc' }]), /points out of the workdir/);
  assert.match(refused([{ name: 'hard', type: 'link', linkname: '../outside' }]), /hard link/);
  assert.match(refused([{ name: 'n\0ul' }]), /NUL/);
});

test('writing through a symlink, or escaping through a chain of symlinks, is refused', () => {
  assert.match(refused([{ name: 'd', type: 'symlink', linkname: 'sub' }, { name: 'd/file' }]), /through the symlink "d"/);
  // `a -> .` is fine and `b -> a/..` is fine lexically, but a/.. is the workdir's parent.
  assert.match(refused([{ name: 'a', type: 'symlink', linkname: '.' }, { name: 'b', type: 'symlink', linkname: 'a/..' }]), /through other symlinks/);
  assert.match(refused([{ name: 'x', type: 'symlink', linkname: 'y' }, { name: 'y', type: 'symlink', linkname: 'x' }]), /through other symlinks/);
});

test('ordinary repositories pass: files, folders, links inside', () => {
  assert.equal(
    refused([
      { name: './', type: 'directory' },
      { name: 'src/', type: 'directory' },
      { name: 'src/a.py' },
      { name: 'docs/README', type: 'symlink', linkname: '../README.md' },
      { name: 'same', type: 'symlink', linkname: '.' },
      { name: 'copy', type: 'link', linkname: 'src/a.py' },
    ]),
    'accepted',
  );
  assert.deepEqual(resolveInside('docs/../src/a.py', new Map()), ['src', 'a.py']);
  assert.equal(new TarEntryChecker().check({ name: 'x', type: 'file' }), undefined);
});

test('permission bits lose setuid, setgid and sticky; world-writable when asked', () => {
  assert.equal(safeMode(0o4755, false, false), 0o755);
  assert.equal(safeMode(0o2775, true, false), 0o775);
  assert.equal(safeMode(0o644, false, true), 0o666);
  assert.equal(safeMode(0o755, true, true), 0o777);
  assert.equal(safeMode(undefined, true, false), 0o755);
});

async function tarOf(entries: { header: Partial<tar.Header> & { name: string }; data?: string }[]): Promise<Buffer> {
  const p = tar.pack();
  for (const e of entries) {
    if (e.data === undefined) p.entry(e.header);
    else p.entry(e.header, e.data);
  }
  p.finalize();
  const chunks: Buffer[] = [];
  for await (const c of p) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function list(buf: Buffer): Promise<{ name: string; uid?: number; mode?: number; type?: string | null; linkname?: string | null; data: string }[]> {
  const ex = tar.extract();
  Readable.from([buf]).pipe(ex);
  const out = [];
  for await (const e of ex) {
    let data = '';
    for await (const c of e) data += (c as Buffer).toString('utf8');
    out.push({ name: e.header.name, uid: e.header.uid, mode: e.header.mode, type: e.header.type, linkname: e.header.linkname, data });
  }
  return out;
}

test('repackChecked: prefixes every entry, owns it by the run user, and refuses before producing anything', async () => {
  const good = await tarOf([
    { header: { name: 'src/', type: 'directory', mode: 0o775 } },
    { header: { name: 'src/a.py', mode: 0o4755 }, data: 'print(1)\n' },
    { header: { name: 'link', type: 'symlink', linkname: 'src/a.py' } },
    { header: { name: 'hard', type: 'link', linkname: 'src/a.py' } },
  ]);
  const body = await repackChecked(Readable.from([good]), '/repo/', { uid: 1000, gid: 1000, worldWritable: false });
  const full = await assembleArchive(
    [
      { name: '.specweave/run.sh', data: 'echo hi\n', mode: 0o755 },
      { name: '.specweave/out', directory: true, mode: 0o777 },
    ],
    body,
  );
  const entries = await list(full);
  assert.deepEqual(
    entries.map((e) => [e.name, e.uid, (e.mode ?? 0).toString(8), e.type, e.linkname ?? null, e.data]),
    [
      ['.specweave/', 0, '755', 'directory', null, ''],
      ['.specweave/run.sh', 0, '755', 'file', null, 'echo hi\n'],
      ['.specweave/out/', 0, '777', 'directory', null, ''],
      ['repo/', 1000, '755', 'directory', null, ''],
      ['repo/src/', 1000, '775', 'directory', null, ''],
      ['repo/src/a.py', 1000, '755', 'file', null, 'print(1)\n'],
      ['repo/link', 1000, '644', 'symlink', 'src/a.py', ''],
      ['repo/hard', 1000, '644', 'link', 'repo/src/a.py', ''],
    ],
  );
  const evil = await tarOf([{ header: { name: 'ok.txt' }, data: 'x' }, { header: { name: 'evil', type: 'symlink', linkname: '../../../etc/passwd' } }]);
  await assert.rejects(repackChecked(Readable.from([evil]), 'repo', { uid: 1000, gid: 1000, worldWritable: false }), (e: unknown) => {
    assert.ok(e instanceof UnsafeArchiveError);
    assert.match(e.message, /archive entry "evil" refused before upload: symlink to "..\/..\/..\/etc\/passwd" points out of the workdir/);
    return true;
  });
});
