// The one path helper, with real symlinks: reads follow links only inside the dataset, writes follow none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  DatasetFileError,
  ensureFolder,
  readText,
  readTextIfExists,
  resolveForRead,
  resolveForWrite,
  symlinksOut,
  writeAtIn,
  writeFileAtomicIn,
} from '../../src/adapters/fs/datasetPaths';
import { writeTask } from '../../src/adapters/fs/datasetWriter';
import { RevisionWriteError, writeRevision } from '../../src/adapters/fs/taskRevision';
import { copyFixture, tmpDir } from './helpers/tmp';

function setup(): { ds: string; out: string } {
  const ds = tmpDir('sw-paths-');
  const out = tmpDir('sw-paths-out-');
  fs.mkdirSync(path.join(ds, 'a/b'), { recursive: true });
  fs.writeFileSync(path.join(ds, 'a/b/f.txt'), '\ufeffinside');
  fs.writeFileSync(path.join(out, 'secret.txt'), 'outside');
  return { ds, out };
}

const reason = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (e) {
    if (e instanceof DatasetFileError) return `${e.reason} ${e.file}`;
    throw e;
  }
};

test('reads follow a symlink that stays inside the dataset and refuse one that leads out, at any component', () => {
  const { ds, out } = setup();
  fs.symlinkSync('a/b', path.join(ds, 'inside-dir'));
  fs.symlinkSync('b/f.txt', path.join(ds, 'a/inside-file'));
  fs.symlinkSync(out, path.join(ds, 'a/out-dir'));
  fs.symlinkSync(path.join(out, 'secret.txt'), path.join(ds, 'a/b/out-file'));
  assert.equal(readText(ds, 'a/b/f.txt'), 'inside', 'BOM stripped');
  assert.equal(readText(ds, 'inside-dir/f.txt'), 'inside');
  assert.equal(readText(ds, 'a/inside-file'), 'inside');
  assert.equal(reason(() => readText(ds, 'a/out-dir/secret.txt')), 'outside a/out-dir');
  assert.equal(reason(() => readText(ds, 'a/b/out-file')), 'outside a/b/out-file');
  assert.equal(reason(() => readText(ds, '../x')), 'unsafe ../x');
  assert.equal(reason(() => readText(ds, '/etc/passwd')), 'unsafe /etc/passwd');
  assert.equal(readTextIfExists(ds, 'a/nope.txt'), undefined);
  assert.throws(() => readTextIfExists(ds, 'a/out-dir/secret.txt'), /a\/out-dir: is a symlink that leads outside the dataset folder/);
  // The dataset opened through a symlinked path is the same dataset.
  const alias = path.join(tmpDir(), 'alias');
  fs.symlinkSync(ds, alias);
  assert.equal(resolveForRead(alias, 'a/b/f.txt'), path.join(fs.realpathSync(ds), 'a/b/f.txt'));
});

test('writes refuse every symlink on the way, even one that stays inside, and never write through one', () => {
  const { ds, out } = setup();
  fs.symlinkSync('a/b', path.join(ds, 'inside-dir'));
  fs.symlinkSync(out, path.join(ds, 'a/out-dir'));
  fs.symlinkSync(path.join(out, 'secret.txt'), path.join(ds, 'a/b/out-file'));
  assert.equal(reason(() => writeFileAtomicIn(ds, 'a/out-dir/new.txt', 'x')), 'symlink a/out-dir');
  assert.equal(reason(() => writeFileAtomicIn(ds, 'inside-dir/new.txt', 'x')), 'symlink inside-dir');
  assert.equal(reason(() => writeFileAtomicIn(ds, 'a/b/out-file', 'x')), 'symlink a/b/out-file');
  assert.equal(reason(() => ensureFolder(ds, 'a/out-dir/sub')), 'symlink a/out-dir');
  assert.equal(reason(() => resolveForWrite(ds, 'a/b/f.txt/x')), 'not_folder a/b/f.txt');
  assert.deepEqual(fs.readdirSync(out), ['secret.txt']);
  assert.equal(fs.readFileSync(path.join(out, 'secret.txt'), 'utf8'), 'outside');
  // A plain write creates the folders it needs and leaves no temporary behind.
  writeFileAtomicIn(ds, 'c/d/e.json', '{}\n');
  assert.equal(fs.readFileSync(path.join(ds, 'c/d/e.json'), 'utf8'), '{}\n');
  assert.deepEqual(fs.readdirSync(path.join(ds, 'c/d')), ['e.json']);
});

test('a write in place (the growing trajectory) lands at its position and refuses a symlink at the name or on the way, and a FIFO', async () => {
  const { ds, out } = setup();
  fs.writeFileSync(path.join(ds, 'a/b/t.json'), '{"messages":[]}   \n');
  await writeAtIn(ds, 'a/b/t.json', Buffer.from('1]}'), 13);
  assert.equal(fs.readFileSync(path.join(ds, 'a/b/t.json'), 'utf8'), '{"messages":[1]}  \n');
  fs.symlinkSync(path.join(out, 'secret.txt'), path.join(ds, 'a/b/link.json'));
  await assert.rejects(writeAtIn(ds, 'a/b/link.json', Buffer.from('x'), 0));
  fs.symlinkSync(path.join(ds, 'a/b'), path.join(ds, 'a/c'));
  await assert.rejects(writeAtIn(ds, 'a/c/t.json', Buffer.from('x'), 0));
  assert.equal(fs.readFileSync(path.join(out, 'secret.txt'), 'utf8'), 'outside', 'nothing outside changed');
  execFileSync('mkfifo', [path.join(ds, 'a/b/fifo.json')]);
  await assert.rejects(writeAtIn(ds, 'a/b/fifo.json', Buffer.from('x'), 0), /ENXIO|not a regular file/, 'refused at once, not a write that waits for a reader');
});

test('symlinksOut lists every symlink that leads out of the dataset, dangling ones included, and skips .git', () => {
  const { ds, out } = setup();
  fs.symlinkSync('a/b', path.join(ds, 'inside-dir'));
  fs.symlinkSync(out, path.join(ds, 'a/out-dir'));
  fs.symlinkSync(path.join(out, 'gone'), path.join(ds, 'a/b/dangling-out'));
  fs.mkdirSync(path.join(ds, '.git'));
  fs.symlinkSync(out, path.join(ds, '.git/ignored'));
  assert.deepEqual(symlinksOut(ds), ['a/b/dangling-out', 'a/out-dir']);
});

test('import and repair write nothing through a symlinked tasks/ folder or task file', async () => {
  const out = tmpDir('sw-paths-out-');
  const ds = tmpDir('sw-paths-');
  fs.symlinkSync(out, path.join(ds, 'tasks'));
  const draft = { id: 't9', title: 't', repo: { name: 'r', inImage: true as const }, verifier: { command: 'true' }, specs: [], tests: [] };
  await assert.rejects(writeTask(ds, { task: draft, request: 'r', testPatch: '', attempts: [] }), /tasks: is a symlink/);
  assert.deepEqual(fs.readdirSync(out), []);

  const tiny = copyFixture('datasets/tiny');
  const outsideRequest = path.join(out, 'request.md');
  fs.writeFileSync(outsideRequest, 'outside request');
  fs.rmSync(path.join(tiny, 'tasks/t1/request.md'));
  fs.symlinkSync(outsideRequest, path.join(tiny, 'tasks/t1/request.md'));
  const taskJson = fs.readFileSync(path.join(tiny, 'tasks/t1/task.json'), 'utf8').replace('"title"', '"revision": 2,\n  "title"');
  assert.throws(
    () => writeRevision(tiny, 't1', 2, { request: 'new', testPatch: '', taskJson }),
    (e: Error) => e instanceof RevisionWriteError && /tasks\/t1\/request\.md: is a symlink; .*nothing was written/.test(e.message),
  );
  assert.equal(fs.readFileSync(outsideRequest, 'utf8'), 'outside request');
  assert.ok(!fs.existsSync(path.join(tiny, 'tasks/t1/revisions')), 'nothing archived from the outside file');
});
