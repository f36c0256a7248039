// The one way to a file under a dataset. Every dataset-relative path the tool reads or writes is resolved here against
// the dataset's real root, one component at a time, and refused when it leaves the dataset:
// - reads follow a symlink only when it resolves inside the dataset (and then go on from where it leads);
// - writes follow no symlink at all: every existing component below the root must be a real folder, the final one is
//   opened with O_NOFOLLOW (or created with O_EXCL), and a symlinked parent is refused.
// Paths outside any dataset (a task's git clone, an export folder, an importer's input) do not come here.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { unsafeRelativePath } from '../../core/paths';
import { errnoCode } from '../../core/errorText';

export type DatasetPathReason = 'unsafe' | 'outside' | 'symlink' | 'missing' | 'not_folder' | 'not_file';

/** A dataset path that cannot be used: unsafe, missing, a symlink out of the dataset, or a symlink on a write path. */
export class DatasetFileError extends Error {
  constructor(
    /** Dataset-relative path of the offending component (the symlink itself when there is one). */
    readonly file: string,
    message: string,
    readonly reason: DatasetPathReason = 'unsafe',
  ) {
    super(`${file}: ${message}`);
    this.detail = message;
  }

  /** The message without the file name in front. */
  readonly detail: string;
}

export const OUTSIDE_MESSAGE = 'is a symlink that leads outside the dataset folder; it is not followed';
const WRITE_SYMLINK_MESSAGE = 'is a symlink; SpecWeave writes nothing through a symlink under a dataset (make it a real folder or file)';
const MISSING_MESSAGE = 'file is missing';

/** A dataset root resolved once: `abs` as given (absolute), `real` with every symlink resolved. */
export interface DatasetRoot {
  abs: string;
  real: string;
}

const roots = new Map<string, DatasetRoot>();

/** The dataset root of `root` (a path or an already resolved root). */
export function datasetRoot(root: string | DatasetRoot): DatasetRoot {
  if (typeof root !== 'string') return root;
  const abs = path.resolve(root);
  let real: string;
  try {
    real = fs.realpathSync(abs);
  } catch {
    real = abs;
  }
  const known = roots.get(abs);
  if (known && known.real === real) return known;
  const r = { abs, real };
  if (roots.size > 100) roots.clear();
  roots.set(abs, r);
  return r;
}

/** True when the real path `p` is the real root or below it. */
export function isInsideReal(p: string, realRoot: string): boolean {
  return p === realRoot || p.startsWith(realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep);
}


function partsOf(rel: string): string[] {
  const unsafe = unsafeRelativePath(rel);
  if (unsafe) throw new DatasetFileError(rel, unsafe, 'unsafe');
  return rel.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
}

function lstatOrUndefined(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false });
  } catch (e) {
    if (errnoCode(e) === 'ENOTDIR') return undefined;
    throw e;
  }
}

/**
 * The real absolute path to read `rel` from. Each component is looked at with lstat: a symlink is followed only when
 * it resolves inside the dataset. Throws DatasetFileError (reason `missing` when there is nothing there).
 */
export function resolveForRead(root: string | DatasetRoot, rel: string): string {
  const r = datasetRoot(root);
  const parts = partsOf(rel);
  let cur = r.real;
  for (let i = 0; i < parts.length; i++) {
    const next = `${cur}${cur.endsWith(path.sep) ? '' : path.sep}${parts[i]}`;
    const st = lstatOrUndefined(next);
    if (!st) throw new DatasetFileError(rel, MISSING_MESSAGE, 'missing');
    if (st.isSymbolicLink()) {
      const shown = parts.slice(0, i + 1).join('/');
      let real: string;
      try {
        real = fs.realpathSync(next);
      } catch (e) {
        if (errnoCode(e) === 'ENOENT' || errnoCode(e) === 'ENOTDIR' || errnoCode(e) === 'ELOOP') throw new DatasetFileError(rel, MISSING_MESSAGE, 'missing');
        throw e;
      }
      if (!isInsideReal(real, r.real)) throw new DatasetFileError(shown, OUTSIDE_MESSAGE, 'outside');
      cur = real;
      continue;
    }
    if (i < parts.length - 1 && !st.isDirectory()) throw new DatasetFileError(rel, MISSING_MESSAGE, 'missing');
    cur = next;
  }
  return cur;
}

/**
 * The absolute path to write `rel` at, under the real root. Every component that exists must be a real folder (the
 * last one: not a symlink); missing ones are left for `ensureFolder` to create. Throws DatasetFileError.
 */
export function resolveForWrite(root: string | DatasetRoot, rel: string): string {
  const r = datasetRoot(root);
  const parts = partsOf(rel);
  let cur = r.real;
  for (let i = 0; i < parts.length; i++) {
    cur = `${cur}${cur.endsWith(path.sep) ? '' : path.sep}${parts[i]}`;
    const st = lstatOrUndefined(cur);
    if (!st) return path.join(r.real, ...parts);
    const shown = parts.slice(0, i + 1).join('/');
    if (st.isSymbolicLink()) throw new DatasetFileError(shown, WRITE_SYMLINK_MESSAGE, 'symlink');
    if (i < parts.length - 1 && !st.isDirectory()) throw new DatasetFileError(shown, 'is not a folder', 'not_folder');
  }
  return cur;
}

/** Creates the folder `relDir` and its missing parents, refusing symlinks on the way; returns its absolute path. */
export function ensureFolder(root: string | DatasetRoot, relDir: string): string {
  const r = datasetRoot(root);
  const parts = partsOf(relDir);
  let cur = r.real;
  for (let i = 0; i < parts.length; i++) {
    cur = `${cur}${cur.endsWith(path.sep) ? '' : path.sep}${parts[i]}`;
    const shown = parts.slice(0, i + 1).join('/');
    let st = lstatOrUndefined(cur);
    if (!st) {
      try {
        fs.mkdirSync(cur);
      } catch (e) {
        if (errnoCode(e) !== 'EEXIST') throw e;
      }
      st = fs.lstatSync(cur);
    }
    if (st.isSymbolicLink()) throw new DatasetFileError(shown, WRITE_SYMLINK_MESSAGE, 'symlink');
    if (!st.isDirectory()) throw new DatasetFileError(shown, 'is not a folder', 'not_folder');
  }
  return cur;
}

// ---- reading -------------------------------------------------------------------------------------------------

/** Opening never waits (a FIFO with no writer would block forever): what is not a regular file is refused after. */
export const READ_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

/** Why an open descriptor is not a regular file, or undefined when it is one. */
export function notRegularFile(st: fs.Stats): string | undefined {
  if (st.isFile()) return undefined;
  return st.isDirectory() ? 'is a folder, not a file' : 'is not a regular file (a FIFO, socket or device); it is not read';
}

/** Reads a whole regular file from an open descriptor (one fstat, then reads to its end); else NotRegularFile. */
export function readRegularFd(fd: number): Buffer {
  const st = fs.fstatSync(fd);
  const why = notRegularFile(st);
  if (why) throw new NotRegularFile(why);
  if (st.size > 0) {
    // As readFileSync does: read the size fstat gave (a file that shrank meanwhile ends early).
    const buf = Buffer.allocUnsafe(st.size);
    let got = 0;
    while (got < st.size) {
      const n = fs.readSync(fd, buf, got, st.size - got, null);
      if (n === 0) break;
      got += n;
    }
    return got === st.size ? buf : buf.subarray(0, got);
  }
  const chunks: Buffer[] = [];
  for (;;) {
    const buf = Buffer.allocUnsafe(65536);
    const n = fs.readSync(fd, buf, 0, buf.length, null);
    if (n === 0) break;
    chunks.push(buf.subarray(0, n));
  }
  return Buffer.concat(chunks);
}

/** A path that is there but is no regular file. */
export class NotRegularFile extends Error {}

/** The bytes of a dataset file. */
export function readBytes(root: string | DatasetRoot, rel: string): Buffer {
  const real = resolveForRead(root, rel);
  let fd: number;
  try {
    fd = fs.openSync(real, READ_FLAGS);
  } catch (e) {
    const code = errnoCode(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new DatasetFileError(rel, MISSING_MESSAGE, 'missing');
    // Replaced by a symlink since it was looked at: refuse rather than follow.
    if (code === 'ELOOP') throw new DatasetFileError(rel, OUTSIDE_MESSAGE, 'outside');
    throw e;
  }
  try {
    return readRegularFd(fd);
  } catch (e) {
    if (e instanceof NotRegularFile) throw new DatasetFileError(rel, e.message, 'not_file');
    if (errnoCode(e) === 'EISDIR') throw new DatasetFileError(rel, 'is a folder, not a file', 'not_file');
    throw e;
  } finally {
    fs.closeSync(fd);
  }
}

/** A dataset text file (UTF-8, BOM stripped). */
export function readText(root: string | DatasetRoot, rel: string): string {
  const text = readBytes(root, rel).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Undefined when the file is missing; any other problem (a symlink out) throws. */
export function readTextIfExists(root: string | DatasetRoot, rel: string): string | undefined {
  try {
    return readText(root, rel);
  } catch (e) {
    if (e instanceof DatasetFileError && e.reason === 'missing') return undefined;
    throw e;
  }
}

export function readBytesIfExists(root: string | DatasetRoot, rel: string): Buffer | undefined {
  try {
    return readBytes(root, rel);
  } catch (e) {
    if (e instanceof DatasetFileError && e.reason === 'missing') return undefined;
    throw e;
  }
}

/** The entries of a dataset folder; [] when it is missing. A symlinked folder out of the dataset throws. */
export function listFolder(root: string | DatasetRoot, relDir: string): fs.Dirent[] {
  let real: string;
  try {
    real = resolveForRead(root, relDir);
  } catch (e) {
    if (e instanceof DatasetFileError && e.reason === 'missing') return [];
    throw e;
  }
  try {
    return fs.readdirSync(real, { withFileTypes: true });
  } catch (e) {
    if (errnoCode(e) === 'ENOENT' || errnoCode(e) === 'ENOTDIR') return [];
    throw e;
  }
}

/** What is at `rel` for reading: a file, a folder, nothing, or a symlink out (reported, not followed). */
export function kindForRead(root: string | DatasetRoot, rel: string): 'file' | 'dir' | 'other' | 'missing' | 'outside' {
  let real: string;
  try {
    real = resolveForRead(root, rel);
  } catch (e) {
    if (e instanceof DatasetFileError) return e.reason === 'outside' ? 'outside' : 'missing';
    throw e;
  }
  const st = fs.statSync(real, { throwIfNoEntry: false });
  return !st ? 'missing' : st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other';
}

// ---- writing -------------------------------------------------------------------------------------------------

const CREATE_NEW = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW;

function tempName(abs: string): string {
  return path.join(path.dirname(abs), `.${path.basename(abs)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

export interface WriteOptions {
  /** Flush to disk before the rename (default true). */
  fsync?: boolean;
}

/**
 * Writes `rel` atomically (a new temporary sibling, flushed, renamed over it), creating missing folders. Refuses when
 * any component of the path is a symlink; the rename replaces the name itself, never what a symlink points at.
 */
export function writeFileAtomicIn(root: string | DatasetRoot, rel: string, data: string | Uint8Array, o: WriteOptions = {}): string {
  const parent = path.posix.dirname(rel.replace(/\\/g, '/'));
  if (parent !== '.') ensureFolder(root, parent);
  const abs = resolveForWrite(root, rel);
  const tmp = tempName(abs);
  try {
    const fd = fs.openSync(tmp, CREATE_NEW, 0o644);
    try {
      fs.writeFileSync(fd, data);
      if (o.fsync !== false) fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, abs);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  return abs;
}

/** The same, asynchronously for the data (the checks are synchronous: they are a few lstat calls). */
export async function writeFileAtomicInAsync(root: string | DatasetRoot, rel: string, data: string | Uint8Array, o: WriteOptions = {}): Promise<string> {
  const parent = path.posix.dirname(rel.replace(/\\/g, '/'));
  if (parent !== '.') ensureFolder(root, parent);
  const abs = resolveForWrite(root, rel);
  const tmp = tempName(abs);
  try {
    const h = await fs.promises.open(tmp, CREATE_NEW, 0o644);
    try {
      await h.writeFile(data);
      if (o.fsync !== false) await h.sync();
    } finally {
      await h.close();
    }
    await fs.promises.rename(tmp, abs);
  } catch (e) {
    await fs.promises.rm(tmp, { force: true });
    throw e;
  }
  return abs;
}

/** Creates a new file `rel` (fails if anything is there, a symlink included) in an existing checked folder. */
export function createNewFile(root: string | DatasetRoot, rel: string, data: string | Uint8Array): string {
  const abs = resolveForWrite(root, rel);
  const fd = fs.openSync(abs, CREATE_NEW, 0o644);
  try {
    fs.writeFileSync(fd, data);
  } finally {
    fs.closeSync(fd);
  }
  return abs;
}

/**
 * Writes `data` at byte `position` of the existing regular file `rel` (no symlink at its name, none on the way, no
 * FIFO), in one write: a file rewritten in place at its end (a growing trajectory) instead of whole.
 */
export async function writeAtIn(root: string | DatasetRoot, rel: string, data: Uint8Array, position: number): Promise<void> {
  const h = await fs.promises.open(resolveForWrite(root, rel), fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  try {
    if (!(await h.stat()).isFile()) throw new Error(`${rel} is not a regular file: not written`);
    await h.write(data, 0, data.length, position);
  } finally {
    await h.close();
  }
}

/** Flags that open `rel` for appending without following a symlink at its name, and without waiting on a FIFO. */
export const APPEND_FLAGS = fs.constants.O_RDWR | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

/** A writable path under the dataset whose folders exist and are real (creates them); for callers with own opens. */
export function prepareWrite(root: string | DatasetRoot, rel: string): string {
  const parent = path.posix.dirname(rel.replace(/\\/g, '/'));
  if (parent !== '.') ensureFolder(root, parent);
  return resolveForWrite(root, rel);
}

// ---- checking a whole dataset ----------------------------------------------------------------------------------

/**
 * Every symlink under the dataset that leads outside it (or nowhere), for `validate`: dataset-relative paths. Walks
 * the tree without following links; `.git` is skipped. `skip` names folders already checked by the caller.
 */
export function symlinksOut(root: string | DatasetRoot, opts: { skip?: (rel: string) => boolean; signal?: AbortSignal } = {}): string[] {
  const r = datasetRoot(root);
  const out: string[] = [];
  const walk = (abs: string, rel: string) => {
    opts.signal?.throwIfAborted();
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (!rel && e.name === '.git') continue;
      if (opts.skip?.(childRel)) continue;
      const childAbs = path.join(abs, e.name);
      if (e.isSymbolicLink()) {
        let real: string | undefined;
        try {
          real = fs.realpathSync(childAbs);
        } catch {
          real = undefined;
        }
        if (real === undefined || !isInsideReal(real, r.real)) out.push(childRel);
      } else if (e.isDirectory()) walk(childAbs, childRel);
    }
  };
  walk(r.real, '');
  return out.sort();
}

// ---- many writes below one folder ------------------------------------------------------------------------------

const DIR_FLAGS = fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW;
/** Linux names an open descriptor's folder here: a path through it is resolved from that folder, as openat does. */
const FD_PATHS = '/proc/self/fd';
let fdPathsWork: boolean | undefined;

function fdPathsAvailable(): boolean {
  if (fdPathsWork === undefined) {
    try {
      fdPathsWork = process.platform === 'linux' && fs.statSync(`${FD_PATHS}/0`, { throwIfNoEntry: false }) !== undefined;
    } catch {
      fdPathsWork = false;
    }
  }
  return fdPathsWork;
}

/**
 * Opens (creating it when `create`) the folder `name` inside the open folder `parent`, never through a symlink; a
 * descriptor. Synchronous: two quick calls, cheaper on the event loop than two trips through the thread pool, which the
 * fsyncs keep busy.
 */
function openChildFolder(parent: number, name: string, shown: string, create: boolean): number {
  const p = `${FD_PATHS}/${parent}/${name}`;
  if (create) {
    try {
      fs.mkdirSync(p);
    } catch (e) {
      if (errnoCode(e) !== 'EEXIST') throw e;
    }
  }
  try {
    return fs.openSync(p, DIR_FLAGS);
  } catch (e) {
    const code = errnoCode(e);
    if (code === 'ENOENT') throw new DatasetFileError(shown, 'folder is missing', 'missing');
    if (code !== 'ELOOP' && code !== 'ENOTDIR') throw e;
    if (lstatOrUndefined(p)?.isSymbolicLink()) throw new DatasetFileError(shown, WRITE_SYMLINK_MESSAGE, 'symlink');
    throw new DatasetFileError(shown, 'is not a folder', 'not_folder');
  }
}

/**
 * A dataset folder for many atomic writes below it (a batch's journal), created when missing. The folder is checked
 * once and kept open; every write walks from it one component at a time through open descriptors (each folder opened
 * O_DIRECTORY|O_NOFOLLOW, missing ones created), then creates its temporary file O_EXCL|O_NOFOLLOW, flushes it and
 * renames it in that same open folder. So a folder swapped for a symlink after its check is never followed, and the
 * folders above are not looked at again for every write. The file's write, fsync and rename run off the event loop. Where the system cannot
 * name a descriptor's folder (not Linux), each write is `writeFileAtomicInAsync` with its checks. Call `close` when
 * done.
 */
export class DatasetFolderWriter {
  private dir: number | undefined;
  private readonly parts: string[];
  /** Writes under way: the kept descriptor is closed only after them (its number could be reused meanwhile). */
  private readonly writing = new Set<Promise<unknown>>();
  private closed = false;

  constructor(
    private readonly root: string | DatasetRoot,
    private readonly relDir: string,
  ) {
    this.parts = partsOf(relDir);
  }

  /** Writes `rel` (relative to the folder) atomically with fsync; returns its dataset-relative path. */
  writeAtomic(rel: string, data: string | Uint8Array): Promise<string> {
    const w = this.write(rel, data);
    const settled = w.catch(() => undefined);
    this.writing.add(settled);
    void settled.then(() => this.writing.delete(settled));
    return w;
  }

  private async write(rel: string, data: string | Uint8Array): Promise<string> {
    const below = partsOf(rel);
    const shown = [...this.parts, ...below].join('/');
    if (below.length === 0) throw new DatasetFileError(shown, 'is not a file name', 'unsafe');
    if (this.closed || !fdPathsAvailable()) {
      await writeFileAtomicInAsync(this.root, shown, data);
      return shown;
    }
    const opened: number[] = [];
    try {
      let fd = this.open();
      for (let i = 0; i < below.length - 1; i++) {
        fd = openChildFolder(fd, below[i] as string, [...this.parts, ...below.slice(0, i + 1)].join('/'), true);
        opened.push(fd);
      }
      const target = `${FD_PATHS}/${fd}/${below[below.length - 1] as string}`;
      const tmp = tempName(target);
      try {
        const h = await fs.promises.open(tmp, CREATE_NEW, 0o644);
        try {
          await h.writeFile(data);
          await h.sync();
        } finally {
          await h.close();
        }
        await fs.promises.rename(tmp, target);
      } catch (e) {
        await fs.promises.rm(tmp, { force: true });
        throw e;
      }
      return shown;
    } finally {
      for (const d of opened.reverse()) fs.closeSync(d);
    }
  }

  /** Closes the kept folder once the writes under way are done; a later write checks its whole path. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.writing);
    const d = this.dir;
    this.dir = undefined;
    if (d !== undefined) fs.closeSync(d);
  }

  /** The kept folder's descriptor, opened (and checked, from the root) by the first write; a failure is tried again. */
  private open(): number {
    if (this.dir === undefined) {
      let fd = fs.openSync(datasetRoot(this.root).real, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
      for (let i = 0; i < this.parts.length; i++) {
        try {
          const next = openChildFolder(fd, this.parts[i] as string, this.parts.slice(0, i + 1).join('/'), true);
          fs.closeSync(fd);
          fd = next;
        } catch (e) {
          fs.closeSync(fd);
          throw e;
        }
      }
      this.dir = fd;
    }
    return this.dir;
  }
}
