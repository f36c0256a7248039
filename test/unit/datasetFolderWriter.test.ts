// Many atomic writes below one dataset folder kept open (the review agent's journal): the folders are checked once,
// and still a folder swapped for a symlink after that check is never followed for a write, wherever it is: below
// the kept folder, the kept folder itself, or above it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DatasetFileError, DatasetFolderWriter } from '../../src/adapters/fs/datasetPaths';
import { tmpDir } from './helpers/tmp';

function setup(): { ds: string; out: string; w: DatasetFolderWriter } {
  const ds = tmpDir('sw-folder-writer-');
  const out = tmpDir('sw-folder-writer-out-');
  return { ds, out, w: new DatasetFolderWriter(ds, 'curation/reviewer') };
}

const filesUnder = (dir: string): string[] => (fs.readdirSync(dir, { recursive: true }) as string[]).map((f) => f.split(path.sep).join('/')).sort();

describe('DatasetFolderWriter', () => {
  it('creates the folder and the folders below it, and writes each file whole', async () => {
    const { ds, w } = setup();
    assert.equal(await w.writeAtomic('t1/a1/k1.json', '{"one":1}\n'), 'curation/reviewer/t1/a1/k1.json');
    await Promise.all([w.writeAtomic('t1/a2/k2.json', 'two'), w.writeAtomic('t2/a1/k3.json', 'three'), w.writeAtomic('t1/a1/k1.json', 'again')]);
    await w.close();
    const base = path.join(ds, 'curation/reviewer');
    assert.deepEqual(filesUnder(base), ['t1', 't1/a1', 't1/a1/k1.json', 't1/a2', 't1/a2/k2.json', 't2', 't2/a1', 't2/a1/k3.json']);
    assert.equal(fs.readFileSync(path.join(base, 't1/a1/k1.json'), 'utf8'), 'again');
    assert.equal(fs.readFileSync(path.join(base, 't2/a1/k3.json'), 'utf8'), 'three');
  });

  it('refuses a folder below it that became a symlink after an earlier write, and writes nothing through it', async () => {
    const { ds, out, w } = setup();
    await w.writeAtomic('t1/a1/k1.json', 'first');
    const t1 = path.join(ds, 'curation/reviewer/t1');
    fs.rmSync(t1, { recursive: true });
    fs.symlinkSync(out, t1);
    await assert.rejects(w.writeAtomic('t1/a1/k2.json', 'second'), (e: unknown) => e instanceof DatasetFileError && e.reason === 'symlink' && e.file === 'curation/reviewer/t1');
    fs.mkdirSync(path.join(out, 'a1'));
    fs.rmSync(path.join(ds, 'curation/reviewer/t1'));
    fs.symlinkSync(path.join(out, 'a1'), t1);
    await assert.rejects(w.writeAtomic('t1/x.json', 'third'), (e: unknown) => e instanceof DatasetFileError && e.reason === 'symlink');
    await w.close();
    assert.deepEqual(filesUnder(out), ['a1'], 'nothing written outside');
  });

  it('does not follow the kept folder, or a folder above it, swapped for a symlink after it was opened', async () => {
    const { ds, out, w } = setup();
    await w.writeAtomic('t1/a1/k1.json', 'first');
    // The kept folder itself is moved away and a symlink out takes its place; then the same for the folder above.
    const reviewer = path.join(ds, 'curation/reviewer');
    fs.renameSync(reviewer, path.join(ds, 'curation/moved'));
    fs.symlinkSync(out, reviewer);
    await w.writeAtomic('t2/a1/k2.json', 'second');
    const curation = path.join(ds, 'curation');
    fs.renameSync(curation, path.join(ds, 'curation-moved'));
    fs.symlinkSync(out, curation);
    await w.writeAtomic('t3/a1/k3.json', 'third');
    await w.close();
    assert.deepEqual(filesUnder(out), [], 'nothing written through either symlink');
    assert.deepEqual(filesUnder(path.join(ds, 'curation-moved/moved')), ['t1', 't1/a1', 't1/a1/k1.json', 't2', 't2/a1', 't2/a1/k2.json', 't3', 't3/a1', 't3/a1/k3.json']);
    // Once closed, a write checks its whole path from the dataset root again, and refuses the symlinked folder.
    await assert.rejects(w.writeAtomic('t4/a1/k4.json', 'fourth'), (e: unknown) => e instanceof DatasetFileError && e.reason === 'symlink' && e.file === 'curation');
    assert.deepEqual(filesUnder(out), []);
  });

  it('refuses a kept folder that is a symlink when it is first opened, and unsafe names', async () => {
    const { ds, out, w } = setup();
    fs.mkdirSync(path.join(ds, 'curation'));
    fs.symlinkSync(out, path.join(ds, 'curation/reviewer'));
    await assert.rejects(w.writeAtomic('t1/a1/k1.json', 'x'), (e: unknown) => e instanceof DatasetFileError && e.reason === 'symlink' && e.file === 'curation/reviewer');
    await assert.rejects(async () => w.writeAtomic('../../escape.json', 'x'), (e: unknown) => e instanceof DatasetFileError && e.reason === 'unsafe');
    await w.close();
    assert.deepEqual(filesUnder(out), []);
  });
});
