// Reads a SpecWeave dataset from disk into the core model. Reading never changes anything on disk.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  ATTEMPT_FILE,
  ATTEMPTS_DIR,
  GOLD_PATCH_FILE,
  MANIFEST_FILE,
  TASK_FILE,
  TASKS_DIR,
  buildTask,
  parseManifest,
} from '../../core/dataset';
import type { AttemptListing, DirEntry, TaskListing } from '../../core/dataset';
import { settleClaimedIds } from '../../core/dataset';
import type { CandidateTask, Dataset, Problem } from '../../core/model';
import { SYMLINK_OUT_MESSAGE } from '../../core/paths';
import type { DatasetRoot } from './datasetPaths';
import { DatasetFileError, NotRegularFile, READ_FLAGS, datasetRoot, isInsideReal, kindForRead, readRegularFd, readText, readTextIfExists, resolveForRead } from './datasetPaths';
import { errnoCode } from '../../core/errorText';

export { DatasetFileError } from './datasetPaths';

/** A folder without specweave.json: the command was given something that is not a dataset. */
export class NotADatasetError extends Error {
  constructor(readonly root: string) {
    super(`no ${MANIFEST_FILE} in ${root}: it is not a SpecWeave dataset`);
  }
}

export interface LoadOptions {
  /** Also list every attempt folder to check that its patch and trajectory files exist (slower). */
  deep?: boolean;
  /** Load only these task folders (for refreshing what changed on disk). */
  only?: string[];
}

/** Loads the dataset at `root`, which must hold a specweave.json (else NotADatasetError). */
export function openDataset(root: string, opts: LoadOptions = {}): Dataset {
  const r = datasetRoot(root);
  if (kindForRead(r, MANIFEST_FILE) === 'missing') throw new NotADatasetError(root);
  return loadDataset(root, opts);
}

/** Loads the dataset at `root`. Content problems are collected in `problems`; only an unreadable root throws. */
export function loadDataset(root: string, opts: LoadOptions = {}): Dataset {
  const r = datasetRoot(root);
  const abs = r.abs;
  const realRoot = r.real;
  const problems: Problem[] = [];
  let manifestText: string | undefined;
  try {
    manifestText = readTextIfExists(r, MANIFEST_FILE);
  } catch (e) {
    if (!(e instanceof DatasetFileError)) throw e;
    problems.push({ severity: 'error', file: e.file, message: e.reason === 'outside' ? SYMLINK_OUT_MESSAGE : e.detail });
  }
  const { manifest, problems: mp } = manifestText === undefined && problems.length > 0 ? { manifest: undefined, problems: [] } : parseManifest(manifestText, path.basename(abs));
  problems.push(...mp);
  if (!manifest) {
    return {
      root: abs,
      manifest: { format: 1, name: path.basename(abs), defaults: { workdir: '/repo', timeoutSec: 300, limits: { memoryMb: 2048, cpus: 1, pids: 512, diskMb: 2048 } } },
      tasks: [],
      problems,
    };
  }
  // tasks/ itself may be a symlink: followed only when it stays inside the dataset, and then read where it leads.
  let tasksAbs: string | undefined;
  try {
    tasksAbs = resolveForRead(r, TASKS_DIR);
  } catch (e) {
    if (!(e instanceof DatasetFileError)) throw e;
    if (e.reason === 'outside') problems.push({ severity: 'error', file: TASKS_DIR, message: `${SYMLINK_OUT_MESSAGE}; no task is loaded` });
    else problems.push({ severity: 'warning', file: TASKS_DIR, message: 'no tasks/ folder: the dataset has no tasks yet' });
  }
  let taskDirs: DirentLike[] = [];
  if (tasksAbs === undefined) taskDirs = [];
  else if (opts.only) {
    // A few folders of a large dataset (refresh, or loading in chunks): look at those names, not the whole listing.
    for (const name of new Set(opts.only)) {
      if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes(path.sep)) continue;
      try {
        const st = fs.lstatSync(path.join(tasksAbs, name));
        taskDirs.push({ name, isDirectory: () => st.isDirectory(), isFile: () => st.isFile(), isSymbolicLink: () => st.isSymbolicLink() });
      } catch (e) {
        if (errnoCode(e) !== 'ENOENT' && errnoCode(e) !== 'ENOTDIR') throw e;
      }
    }
  } else {
    try {
      taskDirs = fs.readdirSync(tasksAbs, { withFileTypes: true });
    } catch (e) {
      if (errnoCode(e) !== 'ENOENT' && errnoCode(e) !== 'ENOTDIR') throw e;
      problems.push({ severity: 'warning', file: TASKS_DIR, message: 'no tasks/ folder: the dataset has no tasks yet' });
    }
  }
  const only = opts.only ? new Set(opts.only) : undefined;
  let tasks: CandidateTask[] = [];
  const claims: Array<{ folder: string; id: string }> = [];
  for (const d of taskDirs) {
    if (only && !only.has(d.name)) continue;
    if (d.name.startsWith('.')) continue;
    const kind = direntKind(d);
    if (kind !== 'dir') {
      if (kind === 'symlink' && isDirInside(path.join(tasksAbs as string, d.name), realRoot)) {
        // a symlinked task folder inside the dataset is fine
      } else {
        if (kind === 'symlink') problems.push({ severity: 'error', file: `${TASKS_DIR}/${d.name}`, message: SYMLINK_OUT_MESSAGE });
        continue;
      }
    }
    const listing = listTask(tasksAbs as string, d.name, realRoot, opts.deep === true);
    const built = buildTask(listing, manifest);
    problems.push(...built.problems);
    if (built.task) tasks.push(built.task);
    if (built.claimedId !== undefined) claims.push({ folder: d.name, id: built.claimedId });
  }
  tasks = settleClaimedIds(tasks, claims, problems);
  tasks.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (manifest.guidelines !== undefined) {
    const k = kindForRead(r, manifest.guidelines);
    if (k === 'missing') problems.push({ severity: 'warning', file: MANIFEST_FILE, field: 'guidelines', message: `guidelines file ${manifest.guidelines} is missing` });
    else if (k === 'outside') problems.push({ severity: 'error', file: manifest.guidelines, message: SYMLINK_OUT_MESSAGE });
  }
  return { root: abs, manifest, tasks, problems };
}

/**
 * Lists a task folder. The fast load looks only at what the model needs (task.json, gold.patch, attempts/ and each
 * attempt.json) without listing the task folder; deep validation lists every folder to report missing files.
 * Either way no file is read through a symlink that leads out of the dataset.
 */
function listTask(tasksAbs: string, name: string, realRoot: string, deep: boolean): TaskListing {
  // Names come from directory listings (no separators): plain concatenation is exact and cheaper than path.join.
  const dirAbs = `${tasksAbs}/${name}`;
  let entries: DirEntry[];
  if (deep) entries = listDir(dirAbs, realRoot);
  else {
    entries = [];
    const gold = lookAt(dirAbs, GOLD_PATCH_FILE, realRoot);
    if (gold) entries.push(gold);
    const att = lookAt(dirAbs, ATTEMPTS_DIR, realRoot);
    if (att) entries.push(att);
  }
  let taskJson: string | undefined;
  if (deep) {
    if (entries.some((e) => e.name === TASK_FILE && !e.outside && e.kind !== 'dir')) taskJson = readIfExists(`${dirAbs}/${TASK_FILE}`).text;
  } else {
    const r = readInside(`${dirAbs}/${TASK_FILE}`, realRoot);
    if (r.outside) entries.push({ name: TASK_FILE, kind: 'symlink', outside: true });
    if (r.folder) entries.push({ name: TASK_FILE, kind: 'dir' });
    if (r.special) entries.push({ name: TASK_FILE, kind: 'other' });
    taskJson = r.text;
  }
  const attempts: AttemptListing[] = [];
  const attemptsEntry = entries.find((e) => e.name === ATTEMPTS_DIR);
  if (attemptsEntry && !attemptsEntry.outside && attemptsEntry.kind === 'dir') {
    const attemptsAbs = `${dirAbs}/${ATTEMPTS_DIR}`;
    for (const a of listDir(attemptsAbs, realRoot)) {
      if (a.outside || a.kind === 'file' || a.name.startsWith('.')) continue;
      const aAbs = `${attemptsAbs}/${a.name}`;
      const aEntries = deep ? listDir(aAbs, realRoot) : undefined;
      const r = readInside(`${aAbs}/${ATTEMPT_FILE}`, realRoot);
      attempts.push({
        id: a.name,
        ...(r.text !== undefined ? { attemptJson: r.text } : {}),
        ...(r.outside ? { attemptJsonOutside: true } : {}),
        ...(r.folder ? { attemptJsonIsFolder: true } : {}),
        ...(r.special ? { attemptJsonIsSpecial: true } : {}),
        ...(aEntries ? { entries: aEntries } : {}),
      });
    }
  }
  return { name, ...(taskJson !== undefined ? { taskJson } : {}), entries, complete: deep, attempts };
}

// No symlink at the name, and no waiting on a FIFO: what is not a regular file is refused after the open.
const NO_FOLLOW = READ_FLAGS;

/** Reads a file that is not a symlink (or a symlink that stays inside the dataset); undefined when missing. */
function readInside(p: string, realRoot: string): FileRead {
  let fd: number;
  try {
    fd = fs.openSync(p, NO_FOLLOW);
  } catch (e) {
    const code = errnoCode(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') return {};
    if (code !== 'ELOOP') throw e;
    // A symlink: follow it only when it stays inside the dataset.
    if (!isInside(realpathOrSelf(p), realRoot)) return { outside: true };
    return readIfExists(p);
  }
  try {
    return { text: readRegularFd(fd).toString('utf8') };
  } catch (e) {
    if (e instanceof NotRegularFile) return e.message.startsWith('is a folder') ? { folder: true } : { special: true };
    throw e;
  } finally {
    fs.closeSync(fd);
  }
}

/** What reading one file gave: its text, nothing (missing), a symlink out, or a folder where the file should be. */
interface FileRead {
  text?: string;
  outside?: boolean;
  folder?: boolean;
  /** A FIFO, socket or device. */
  special?: boolean;
}

/** The entry for one name in a folder without listing the folder. */
function lookAt(dirAbs: string, name: string, realRoot: string): DirEntry | undefined {
  const p = `${dirAbs}/${name}`;
  const st = fs.lstatSync(p, { throwIfNoEntry: false });
  if (!st) return undefined;
  if (!st.isSymbolicLink()) return { name, kind: st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other' };
  return symlinkEntry(dirAbs, name, realRoot);
}

function listDir(dirAbs: string, realRoot: string): DirEntry[] {
  let dirents: fs.Dirent[];
  try {
    dirents = fs.readdirSync(dirAbs, { withFileTypes: true });
  } catch (e) {
    if (errnoCode(e) === 'ENOENT' || errnoCode(e) === 'ENOTDIR') return [];
    throw e;
  }
  return dirents.map((d) => {
    const kind = direntKind(d);
    return kind === 'symlink' ? symlinkEntry(dirAbs, d.name, realRoot) : { name: d.name, kind };
  });
}

/** A symlink inside the dataset counts as what it points to; one that leads out is marked `outside`. */
function symlinkEntry(dirAbs: string, name: string, realRoot: string): DirEntry {
  const target = path.join(dirAbs, name);
  if (!isInside(realpathOrSelf(target), realRoot)) return { name, kind: 'symlink', outside: true };
  const st = fs.statSync(target, { throwIfNoEntry: false });
  return { name, kind: st?.isDirectory() ? 'dir' : st?.isFile() ? 'file' : 'other' };
}

type DirentLike = Pick<fs.Dirent, 'name' | 'isDirectory' | 'isFile' | 'isSymbolicLink'>;

function direntKind(d: DirentLike): DirEntry['kind'] {
  if (d.isDirectory()) return 'dir';
  if (d.isFile()) return 'file';
  if (d.isSymbolicLink()) return 'symlink';
  return 'other';
}

function isDirInside(p: string, realRoot: string): boolean {
  try {
    return isInside(fs.realpathSync(p), realRoot) && fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isInside(real: string, realRoot: string): boolean {
  return isInsideReal(real, realRoot);
}

function realpathOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

function readIfExists(p: string): FileRead {
  let fd: number;
  try {
    fd = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (e) {
    if (errnoCode(e) === 'ENOENT' || errnoCode(e) === 'ENOTDIR') return {};
    throw e;
  }
  try {
    return { text: readRegularFd(fd).toString('utf8') };
  } catch (e) {
    if (e instanceof NotRegularFile) return e.message.startsWith('is a folder') ? { folder: true } : { special: true };
    throw e;
  } finally {
    fs.closeSync(fd);
  }
}


/**
 * Absolute path of a dataset-relative file, refusing paths (or symlinks) that leave the dataset; DatasetFileError
 * when it is unsafe, missing or leads out. For reading only: writers go through datasetPaths' write functions.
 */
export function resolveDatasetPath(root: string | DatasetRoot, relPath: string): string {
  resolveForRead(root, relPath);
  return path.resolve(datasetRoot(root).abs, relPath);
}

/** Reads a dataset-relative text file (UTF-8, BOM stripped). */
export function readDatasetText(root: string | DatasetRoot, relPath: string): string {
  return readText(root, relPath);
}

/** Reads a dataset-relative text file, or undefined when it is missing (a symlink out still throws). */
export function readDatasetTextIfExists(root: string | DatasetRoot, relPath: string): string | undefined {
  return readTextIfExists(root, relPath);
}

/** Absolute path of a task's git clone (`repo.path` is relative to the dataset root, or absolute). */
export function repoPath(root: string, repo: { path: string }): string {
  return path.resolve(root, repo.path);
}
