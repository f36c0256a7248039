// Dataset-relative path rules: every file a dataset names must stay inside the dataset folder.

/** Returns an error message when `rel` is not a safe dataset-relative path, else undefined. */
export function unsafeRelativePath(rel: string): string | undefined {
  if (rel.length === 0) return 'path is empty';
  if (rel.includes('\0')) return 'path contains a NUL byte';
  if (rel.startsWith('/') || rel.startsWith('\\') || /^[a-zA-Z]:/.test(rel)) return `absolute path "${rel}" is not allowed`;
  const parts = rel.split(/[\\/]+/);
  if (parts.includes('..')) return `path "${rel}" escapes its folder with ".."`;
  return undefined;
}

/** Joins dataset-relative path segments with forward slashes. */
export function joinRel(...parts: string[]): string {
  return parts.filter((p) => p.length > 0 && p !== '.').join('/');
}

/** What every reader says of a symlink under a dataset that resolves outside it (it is never followed). */
export const SYMLINK_OUT_MESSAGE = 'is a symlink that leads outside the dataset folder; it is not followed';
