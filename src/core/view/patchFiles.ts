// Which file of a patch a path names: the webview asks for diffs by the paths trajectories mention, which are often
// absolute inside the container (`/repo/src/x.py`) while patches name `src/x.py`.
import { filePath } from '../patch';
import type { FilePatch } from '../patch';

/**
 * The file of a patch that `file` names: the same path, the path under the task's workdir (`/repo/src/x.py`), or the one
 * patch path it ends with. -1 when the patch does not change it.
 */
export function findFile(files: readonly FilePatch[], file: string, workdir: string): number {
  const exact = files.findIndex((f) => filePath(f) === file || f.oldPath === file);
  if (exact >= 0) return exact;
  let rel = file.replace(/^\.\//, '');
  const base = workdir.replace(/\/+$/, '');
  if (base && rel.startsWith(`${base}/`)) rel = rel.slice(base.length + 1);
  const again = files.findIndex((f) => filePath(f) === rel || f.oldPath === rel);
  if (again >= 0) return again;
  const bySuffix = files.map((f, i) => ({ p: filePath(f), i })).filter(({ p }) => p !== '' && rel.endsWith(`/${p}`));
  return bySuffix.length === 1 ? (bySuffix[0] as { i: number }).i : -1;
}

