// Writing a new revision of a task, all or nothing. The old revision's files stay readable under
// `tasks/<id>/revisions/<n>/` (task.json, request.md, tests.patch). Everything new is staged in a hidden folder and
// flushed first; then the old files are archived (one folder rename) and the staged files renamed over the current
// ones, task.json last: its revision number is the commit point. A failure on the way puts the old files back and
// removes what was staged; a crash on the way is repaired by `recoverRevision` before the next write.
import { randomBytes } from 'node:crypto';
import * as nodeFs from 'node:fs';
import * as path from 'node:path';
import { REQUEST_FILE, TASK_FILE, TASKS_DIR, TEST_PATCH_FILE } from '../../core/dataset';
import type { RevisionFiles } from '../../core/repair/revision';
import { parseRecordJson } from '../../core/json';
import { DatasetFileError, readText, resolveForWrite } from './datasetPaths';
import { errorText } from '../../core/errorText';

export const REVISIONS_DIR = 'revisions';
const FILES = [REQUEST_FILE, TEST_PATCH_FILE, TASK_FILE] as const;
const STAGING_RE = /^\.revision-(\d+)\.staging-[0-9a-f]+$/;

/** The part of node:fs used here, so tests can make the disk fail at any step. */
export type RevisionFs = Pick<
  typeof nodeFs,
  'mkdirSync' | 'writeFileSync' | 'readFileSync' | 'renameSync' | 'rmSync' | 'existsSync' | 'openSync' | 'fsyncSync' | 'closeSync' | 'readdirSync'
>;

export class RevisionWriteError extends Error {
  constructor(
    message: string,
    readonly rolledBack: boolean,
  ) {
    super(message);
  }
}

function taskDir(root: string, taskId: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/.test(taskId)) throw new RevisionWriteError(`task id "${taskId}" cannot name a folder`, true);
  return path.join(root, TASKS_DIR, taskId);
}

/**
 * The task folder for writing a revision: it, its revisions/ and the three files must not be symlinks (datasetPaths:
 * nothing is written, or archived from, through a symlink under the dataset). Returns the folder's real path.
 */
function writableTaskDir(root: string, taskId: string): string {
  taskDir(root, taskId);
  const rel = `${TASKS_DIR}/${taskId}`;
  try {
    for (const f of [...FILES, REVISIONS_DIR]) resolveForWrite(root, `${rel}/${f}`);
    return resolveForWrite(root, rel);
  } catch (e) {
    if (e instanceof DatasetFileError) throw new RevisionWriteError(`cannot write a revision of task ${taskId}: ${e.message}; nothing was written`, true);
    throw e;
  }
}

export function revisionFolder(root: string, taskId: string, revision: number): string {
  return path.join(taskDir(root, taskId), REVISIONS_DIR, String(revision));
}

function writeFlushed(fs: RevisionFs, file: string, data: string | Buffer): void {
  const fd = fs.openSync(file, 'w', 0o644);
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function readIf(fs: RevisionFs, file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file) as Buffer;
  } catch {
    return undefined;
  }
}

/** The revision a task.json text records (1 when it says none). */
export function revisionOf(text: string | Buffer | undefined): number | undefined {
  if (text === undefined) return undefined;
  const parsed = parseRecordJson(text.toString());
  if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object') return undefined;
  const v = parsed.value as { revision?: unknown };
  return typeof v.revision === 'number' ? v.revision : 1;
}

/**
 * Replaces the task's request.md, tests.patch and task.json by `files` (revision `to`), archiving the current ones as
 * revision `to - 1`. Either everything happens or the task is left exactly as it was.
 */
export function writeRevision(root: string, taskId: string, to: number, files: RevisionFiles, fs: RevisionFs = nodeFs): void {
  const dir = writableTaskDir(root, taskId);
  recoverRevision(root, taskId, fs);
  const from = to - 1;
  const current = FILES.map((f) => readIf(fs, path.join(dir, f)));
  if (revisionOf(current[2]) !== from) throw new RevisionWriteError(`task ${taskId} is not at revision ${from} any more; nothing was written`, true);
  const staging = path.join(dir, `.revision-${to}.staging-${randomBytes(4).toString('hex')}`);
  const archive = revisionFolder(root, taskId, from);
  let archived = false;
  let swapped = 0;
  try {
    // 1. stage: the new files and a copy of the old ones, flushed.
    fs.mkdirSync(path.join(staging, 'new'), { recursive: true });
    fs.mkdirSync(path.join(staging, 'old'), { recursive: true });
    const next: Record<string, string> = { [REQUEST_FILE]: files.request, [TEST_PATCH_FILE]: files.testPatch, [TASK_FILE]: files.taskJson };
    FILES.forEach((f, i) => {
      writeFlushed(fs, path.join(staging, 'new', f), next[f] as string);
      const old = current[i];
      if (old !== undefined) writeFlushed(fs, path.join(staging, 'old', f), old);
    });
    // 2. archive the old revision (one rename); an archive left by an interrupted write must match.
    fs.mkdirSync(path.dirname(archive), { recursive: true });
    if (fs.existsSync(archive)) {
      const same = FILES.every((f, i) => {
        const a = readIf(fs, path.join(archive, f));
        const c = current[i];
        return (a === undefined && c === undefined) || (a !== undefined && c !== undefined && a.equals(c));
      });
      if (!same) throw new Error(`${path.relative(root, archive)} already exists with other content`);
    } else {
      fs.renameSync(path.join(staging, 'old'), archive);
      archived = true;
    }
    // 3. swap, task.json last.
    for (const f of FILES) {
      fs.renameSync(path.join(staging, 'new', f), path.join(dir, f));
      swapped++;
    }
  } catch (e) {
    const why = errorText(e);
    let restored = true;
    if (swapped > 0) {
      // Put the old files back from the copy we flushed.
      FILES.slice(0, swapped).forEach((f, i) => {
        const old = current[i];
        try {
          if (old === undefined) fs.rmSync(path.join(dir, f), { force: true });
          else {
            const tmp = path.join(dir, `.${f}.restore-${randomBytes(3).toString('hex')}`);
            writeFlushed(fs, tmp, old);
            fs.renameSync(tmp, path.join(dir, f));
          }
        } catch {
          restored = false;
        }
      });
    }
    try {
      if (archived && restored) fs.rmSync(archive, { recursive: true, force: true });
      fs.rmSync(staging, { recursive: true, force: true });
    } catch {
      // recoverRevision finishes the cleanup next time
    }
    throw new RevisionWriteError(
      restored
        ? `could not write revision ${to} of task ${taskId} (${why}); the task is unchanged at revision ${from}`
        : `could not write revision ${to} of task ${taskId} (${why}), and putting the old files back failed too; the next write repairs it from ${path.relative(root, archive)}`,
      restored,
    );
  }
  try {
    fs.rmSync(staging, { recursive: true, force: true });
  } catch {
    // an empty hidden folder is harmless; recoverRevision removes it
  }
}

/**
 * Finishes what an interrupted write left: a staged revision whose task.json was not swapped in is undone (the
 * old files come back from the archive); one that was is kept. Either way the staging folder goes.
 */
export function recoverRevision(root: string, taskId: string, fs: RevisionFs = nodeFs): void {
  let dir: string;
  try {
    dir = writableTaskDir(root, taskId);
  } catch {
    return; // nothing of ours can be there; the write that follows refuses with the reason
  }
  let names: string[];
  try {
    names = fs.readdirSync(dir) as string[];
  } catch {
    return;
  }
  for (const n of names) {
    const m = STAGING_RE.exec(n);
    if (!m) continue;
    const to = Number(m[1]);
    const rev = revisionOf(readIf(fs, path.join(dir, TASK_FILE)));
    if (rev !== to) {
      const archive = revisionFolder(root, taskId, to - 1);
      for (const f of [REQUEST_FILE, TEST_PATCH_FILE]) {
        const old = readIf(fs, path.join(archive, f)) ?? readIf(fs, path.join(dir, n, 'old', f));
        if (old === undefined) continue;
        const tmp = path.join(dir, `.${f}.restore-${randomBytes(3).toString('hex')}`);
        writeFlushed(fs, tmp, old);
        fs.renameSync(tmp, path.join(dir, f));
      }
    }
    fs.rmSync(path.join(dir, n), { recursive: true, force: true });
  }
}

/** Undoes a committed revision `to` (when recording it in the review log failed): the archived files come back. */
export function rollbackRevision(root: string, taskId: string, to: number, fs: RevisionFs = nodeFs): void {
  const dir = writableTaskDir(root, taskId);
  const archive = revisionFolder(root, taskId, to - 1);
  // task.json first: from here on the task says revision to-1 again.
  for (const f of [TASK_FILE, REQUEST_FILE, TEST_PATCH_FILE]) {
    const old = readIf(fs, path.join(archive, f));
    if (old === undefined) continue;
    const tmp = path.join(dir, `.${f}.restore-${randomBytes(3).toString('hex')}`);
    writeFlushed(fs, tmp, old);
    fs.renameSync(tmp, path.join(dir, f));
  }
  fs.rmSync(archive, { recursive: true, force: true });
}

/** The files of an archived revision. */
export function readRevision(root: string, taskId: string, revision: number): { taskJson: string; request: string; testPatch: string } | undefined {
  revisionFolder(root, taskId, revision);
  const d = `${TASKS_DIR}/${taskId}/${REVISIONS_DIR}/${revision}`;
  try {
    // Through datasetPaths: an archive symlinked out of the dataset is not read.
    return { taskJson: readText(root, `${d}/${TASK_FILE}`), request: readText(root, `${d}/${REQUEST_FILE}`), testPatch: readText(root, `${d}/${TEST_PATCH_FILE}`) };
  } catch {
    return undefined;
  }
}
