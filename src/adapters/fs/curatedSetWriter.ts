// Writes a curated-set plan to a folder: every file into a fresh sibling folder (each flushed), then swapped in
// place of the old export, so the folder holds exactly the plan's files or the previous export, never a mix.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ExportPlan } from '../../core/review/exportSet';
import { EXPORT_MANIFEST } from '../../core/review/exportSet';
import { unsafeRelativePath } from '../../core/paths';
import { hasErrno } from '../../core/errorText';

export class ExportError extends Error {}

function isOurExport(dir: string): boolean {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(dir, EXPORT_MANIFEST), 'utf8')) as { kind?: unknown };
    return m.kind === 'specweave-curated-set';
  } catch {
    return false;
  }
}

/**
 * Writes `plan` into `outDir`. An existing `outDir` must be empty or an earlier curated-set export (it is replaced
 * whole). `onProgress` gets (files written, total); `signal` stops before the swap, leaving `outDir` untouched.
 */
export function writeCuratedSet(outDir: string, plan: ExportPlan, opts: { onProgress?: (done: number, total: number) => void; signal?: AbortSignal } = {}): void {
  for (const _ of writeSteps(outDir, plan, opts)) {
    // every step runs at once
  }
}

/**
 * The same as `writeCuratedSet`, giving the event loop a turn every `yieldEvery` files (default 20), so an extension
 * host stays responsive and its progress and cancel button keep working while thousands of files are fsynced.
 */
export async function writeCuratedSetAsync(
  outDir: string,
  plan: ExportPlan,
  opts: { onProgress?: (done: number, total: number) => void; signal?: AbortSignal; yieldEvery?: number } = {},
): Promise<void> {
  const every = Math.max(1, opts.yieldEvery ?? 20);
  let n = 0;
  for (const _ of writeSteps(outDir, plan, opts)) {
    if (++n % every === 0) await new Promise<void>((r) => setImmediate(r));
  }
}

/** The export, one file per step: the checks, each file written and fsynced, then the swap. */
function* writeSteps(outDir: string, plan: ExportPlan, opts: { onProgress?: (done: number, total: number) => void; signal?: AbortSignal }): Generator<void, void, void> {
  const out = path.resolve(outDir);
  let existing = false;
  try {
    const st = fs.statSync(out);
    if (!st.isDirectory()) throw new ExportError(`${outDir} exists and is not a folder`);
    existing = fs.readdirSync(out).length > 0;
    if (existing && !isOurExport(out)) throw new ExportError(`${outDir} is not empty and holds no curated-set ${EXPORT_MANIFEST}: refusing to replace it`);
  } catch (e) {
    if (e instanceof ExportError) throw e;
    if (!hasErrno(e, 'ENOENT')) throw e;
  }
  const parent = path.dirname(out);
  fs.mkdirSync(parent, { recursive: true });
  const tag = randomBytes(4).toString('hex');
  const tmp = path.join(parent, `.${path.basename(out)}.export-${tag}`);
  fs.mkdirSync(tmp);
  try {
    let done = 0;
    for (const f of plan.files) {
      if (opts.signal?.aborted) throw new ExportError('export cancelled');
      const unsafe = unsafeRelativePath(f.path);
      if (unsafe) throw new ExportError(`refusing to write ${f.path}: ${unsafe}`);
      const target = path.join(tmp, ...f.path.split('/'));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      const fd = fs.openSync(target, 'wx', 0o644);
      try {
        fs.writeFileSync(fd, f.content, 'utf8');
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      opts.onProgress?.(++done, plan.files.length);
      yield;
    }
    if (opts.signal?.aborted) throw new ExportError('export cancelled');
    if (existing || fs.existsSync(out)) {
      const old = path.join(parent, `.${path.basename(out)}.old-${tag}`);
      fs.renameSync(out, old);
      fs.renameSync(tmp, out);
      fs.rmSync(old, { recursive: true, force: true });
    } else fs.renameSync(tmp, out);
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}
