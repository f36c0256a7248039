// The SWE-bench team's per-task folders read from disk (`import swebench --task-dirs`), and the folder walking that
// the task-folder importers share: regular files only, dotfiles included, symlinks reported and never followed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Problem } from '../../core/model';
import { rebuildRow } from '../../core/import/taskFolder';
import type { SwebenchTaskFolder, TaskFolderExtras } from '../../core/import/taskFolder';

/** Files a task folder may hold in memory (tests/, solution/): larger ones are refused, not truncated. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;
export const SKIP = new Set(['.git', 'node_modules', '__pycache__', '.venv']);

export interface Listed {
  /** Relative to the listed folder, forward slashes. */
  rel: string;
  abs: string;
}

/** Regular files under `dir` (dotfiles included), sorted; symlinks and special files are reported, never followed. */
export function listFiles(dir: string, onSkipped: (rel: string, why: string) => void, depth = 0, prefix = ''): Listed[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: Listed[] = [];
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (SKIP.has(e.name)) continue;
      if (depth >= 24) onSkipped(rel, 'nested too deep');
      else out.push(...listFiles(abs, onSkipped, depth + 1, rel));
    } else if (e.isFile()) out.push({ rel, abs });
    else onSkipped(rel, e.isSymbolicLink() ? 'a symbolic link (not followed)' : 'not a regular file');
  }
  return out;
}

export const isDir = (p: string) => {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
};
export const isFile = (p: string) => {
  try {
    return fs.lstatSync(p).isFile();
  } catch {
    return false;
  }
};

/** A file that cannot be read as it is (too large, unreadable): the task or trial holding it is skipped. */
export class UnreadableFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

/** A text file read whole, refused above MAX_FILE_BYTES rather than held in memory. */
export function readText(p: string): string {
  try {
    const size = fs.statSync(p).size;
    if (size > MAX_FILE_BYTES) throw new UnreadableFileError(p, `${size} bytes: files over ${MAX_FILE_BYTES} bytes are not read`);
    return fs.readFileSync(p, 'utf8');
  } catch (e) {
    if (e instanceof UnreadableFileError) throw e;
    throw new UnreadableFileError(p, `cannot read: ${(e as Error).message}`);
  }
}

export function readTextIf(p: string): string | undefined {
  return isFile(p) ? readText(p) : undefined;
}

export interface TaskFolderRow {
  /** The rebuilt row as JSON text (read by the ordinary row reader). */
  text: string;
  /** The folder's task.yaml, as shown in messages. */
  file: string;
  /** The folder (absolute), for copying its Dockerfile and assets. */
  abs: string;
  extras: TaskFolderExtras;
}

/** Every SWE-bench per-task folder under `given` (a `tasks/` folder, one task folder, or the repository holding `tasks/`). */
export function readSwebenchTaskDirs(given: string, problems: Problem[]): TaskFolderRow[] {
  const root = path.resolve(given);
  if (!isDir(root)) {
    problems.push({ severity: 'error', file: given, message: isFile(root) ? '--task-dirs needs a folder of task folders, not a file' : 'no such folder' });
    return [];
  }
  const isTask = (d: string) => isFile(path.join(d, 'task.yaml')) && (isFile(path.join(d, 'tests.json')) || isFile(path.join(d, 'problem_statement.md')));
  let dirs: Array<{ abs: string; display: string }> = [];
  if (isTask(root)) dirs = [{ abs: root, display: given }];
  else {
    const base = isDir(path.join(root, 'tasks')) && !isTask(path.join(root, 'tasks')) ? path.join(root, 'tasks') : root;
    const shown = base === root ? given : path.join(given, 'tasks');
    for (const e of fs.readdirSync(base, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isDirectory() && isTask(path.join(base, e.name))) dirs.push({ abs: path.join(base, e.name), display: path.join(shown, e.name) });
    }
  }
  if (dirs.length === 0) {
    problems.push({ severity: 'error', file: given, message: 'no task folder here (a folder holding task.yaml and tests.json), nor in its tasks/ folder' });
    return [];
  }
  const out: TaskFolderRow[] = [];
  for (const d of dirs) {
    try {
      const skipped: string[] = [];
      const assets = (sub: string) => listFiles(path.join(d.abs, sub), (rel, why) => skipped.push(`${sub}/${rel}: ${why}`)).map((f) => f.rel);
      const folder: SwebenchTaskFolder = {
        dir: d.display,
        folderName: path.basename(d.abs),
        taskYaml: readText(path.join(d.abs, 'task.yaml')),
        hasDockerfile: isFile(path.join(d.abs, 'Dockerfile')),
        problemAssets: assets('problem_assets'),
        testAssets: assets('test_assets'),
      };
      const opt: Array<[keyof SwebenchTaskFolder, string]> = [
        ['problemStatement', 'problem_statement.md'],
        ['hints', 'hints.md'],
        ['goldPatch', 'gold.patch'],
        ['testPatch', 'test.patch'],
        ['testsJson', 'tests.json'],
        ['evalSh', 'eval.sh'],
      ];
      for (const [k, name] of opt) {
        const t = readTextIf(path.join(d.abs, name));
        if (t !== undefined) (folder as unknown as Record<string, unknown>)[k] = t;
      }
      for (const s of skipped) problems.push({ severity: 'warning', file: d.display, message: `${s}; it is not copied` });
      const r = rebuildRow(folder);
      if (!r.ok) {
        problems.push(...r.problems);
        continue;
      }
      for (const w of r.warnings) problems.push({ severity: 'warning', file: d.display, message: w });
      out.push({ text: JSON.stringify(r.row), file: path.join(d.display, 'task.yaml'), abs: d.abs, extras: r.extras });
    } catch (e) {
      if (!(e instanceof UnreadableFileError)) throw e;
      problems.push({ severity: 'error', file: path.join(d.display, path.relative(d.abs, e.file)), message: `${e.message}; the task is skipped` });
    }
  }
  return out;
}

