// Writes a SpecWeave dataset (manifest, task folders, attempts) to disk, each file atomically.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  ATTEMPT_FILE,
  ATTEMPTS_DIR,
  DEFAULT_PATCH_FILE,
  GOLD_PATCH_FILE,
  MANIFEST_FILE,
  REQUEST_FILE,
  TASK_FILE,
  TASKS_DIR,
  TEST_PATCH_FILE,
} from '../../core/dataset';
import type { DatasetManifest } from '../../core/model';
import { unsafeRelativePath } from '../../core/paths';
import { ensureFolder, resolveForWrite, writeFileAtomicIn } from './datasetPaths';
import { attemptToJson, formatJson, taskToJson } from '../../core/serialize';
import type { AttemptDraft, TaskDraft } from '../../core/serialize';

/** Where an attempt's trajectory bytes come from: given content, or a (slice of a) file copied as a stream. */
export type TrajectorySource =
  | { fileName: string; content: string | Uint8Array }
  | { fileName: string; copyFrom: string; byteRange?: [number, number] };

export interface AttemptWrite {
  id: string;
  meta: AttemptDraft;
  patch: string;
  trajectory?: TrajectorySource;
}

export interface TaskWrite {
  task: TaskDraft;
  request: string;
  testPatch: string;
  goldPatch?: string;
  attempts: AttemptWrite[];
  /** Other files of the task folder (an environment's build context, assets), copied byte for byte. */
  files?: Array<{ path: string; copyFrom: string }>;
}

/** The folder names a task's own files may not use: they are the dataset format's. */
const RESERVED_TASK_ENTRIES = new Set([TASK_FILE, REQUEST_FILE, TEST_PATCH_FILE, GOLD_PATCH_FILE, ATTEMPTS_DIR]);

export type ManifestDraft = Omit<DatasetManifest, 'defaults'> & { defaults?: Partial<DatasetManifest['defaults']> };

export function writeManifest(root: string, manifest: ManifestDraft): void {
  fs.mkdirSync(root, { recursive: true });
  writeFileAtomicIn(root, MANIFEST_FILE, formatJson(manifest) + '\n');
}

/** Writes one task folder; an existing folder of the same id is replaced only after the new one is complete. */
export async function writeTask(root: string, t: TaskWrite): Promise<void> {
  const bad = unsafeRelativePath(t.task.id);
  if (bad || t.task.id.includes('/')) throw new Error(`task id "${t.task.id}" cannot be a folder name`);
  // Through datasetPaths: tasks/ or the task's folder symlinked out of the dataset is refused, never written into.
  const tasksDir = ensureFolder(root, TASKS_DIR);
  const final = resolveForWrite(root, `${TASKS_DIR}/${t.task.id}`);
  const tmp = path.join(tasksDir, `.${t.task.id}.tmp-${process.pid}`);
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp);
  try {
    fs.writeFileSync(path.join(tmp, TASK_FILE), taskToJson(t.task));
    fs.writeFileSync(path.join(tmp, REQUEST_FILE), t.request);
    fs.writeFileSync(path.join(tmp, TEST_PATCH_FILE), t.testPatch);
    if (t.goldPatch !== undefined) fs.writeFileSync(path.join(tmp, GOLD_PATCH_FILE), t.goldPatch);
    for (const f of t.files ?? []) {
      const why = unsafeRelativePath(f.path) ?? (RESERVED_TASK_ENTRIES.has(f.path.split('/')[0] as string) ? `"${f.path}" is a name of the dataset format` : undefined);
      if (why) throw new Error(`task ${t.task.id}: cannot write ${f.path}: ${why}`);
      // Regular files only: a symlink is never followed out of its folder.
      if (!fs.lstatSync(f.copyFrom).isFile()) throw new Error(`task ${t.task.id}: ${f.copyFrom} is not a regular file`);
      const dest = path.join(tmp, ...f.path.split('/'));
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.copyFileSync(f.copyFrom, dest);
    }
    for (const a of t.attempts) {
      const dir = path.join(tmp, ATTEMPTS_DIR, a.id);
      fs.mkdirSync(dir, { recursive: true });
      const meta: AttemptDraft = { ...a.meta };
      if (a.trajectory) meta.trajectory = a.trajectory.fileName;
      fs.writeFileSync(path.join(dir, ATTEMPT_FILE), attemptToJson(meta));
      fs.writeFileSync(path.join(dir, meta.patch ?? DEFAULT_PATCH_FILE), a.patch);
      if (a.trajectory) await writeTrajectory(path.join(dir, a.trajectory.fileName), a.trajectory);
    }
    const old = `${final}.old-${process.pid}`;
    const existed = fs.existsSync(final);
    if (existed) fs.renameSync(final, old);
    fs.renameSync(tmp, final);
    if (existed) fs.rmSync(old, { recursive: true, force: true });
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

async function writeTrajectory(dest: string, src: TrajectorySource): Promise<void> {
  if ('content' in src) {
    fs.writeFileSync(dest, src.content);
    return;
  }
  const range = src.byteRange;
  if (!range) {
    // A whole file: the kernel copies it (never read into memory), with none of a stream's per-file cost; the
    // rest of writeTask is synchronous, so a thread-pool round trip per attempt would only add latency.
    fs.copyFileSync(src.copyFrom, dest);
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const rs = fs.createReadStream(src.copyFrom, range ? { start: range[0], end: range[1] - 1 } : {});
    const ws = fs.createWriteStream(dest);
    rs.on('error', reject);
    ws.on('error', reject);
    ws.on('finish', () => resolve());
    rs.pipe(ws);
  });
}
