// Atomic file writes: a reader sees the old content or the new, never a half-written file, even after a crash.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

function tempSibling(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

export interface AtomicOptions {
  /** Flush to disk before the rename (survives power loss, not only crashes); default true. */
  fsync?: boolean;
}

/** Writes `data` to a temporary sibling, flushes it, and renames it over `file`; creates missing parent folders. */
export function writeFileAtomicSync(file: string, data: string | Uint8Array, o: AtomicOptions = {}): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = tempSibling(file);
  try {
    const fd = fs.openSync(tmp, 'w', 0o644);
    try {
      fs.writeFileSync(fd, data);
      if (o.fsync !== false) fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/** The same, asynchronously. */
export async function writeFileAtomic(file: string, data: string | Uint8Array, o: AtomicOptions = {}): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const tmp = tempSibling(file);
  try {
    const h = await fs.promises.open(tmp, 'w', 0o644);
    try {
      await h.writeFile(data);
      if (o.fsync !== false) await h.sync();
    } finally {
      await h.close();
    }
    await fs.promises.rename(tmp, file);
  } catch (e) {
    await fs.promises.rm(tmp, { force: true });
    throw e;
  }
}

/** Writes a value as pretty JSON (with a final newline), atomically. */
export async function writeJsonAtomic(file: string, value: unknown, o: AtomicOptions = {}): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, o);
}
