// Viewed marks, as a pull request's viewed files: a curator marks an attempt, or one file of its patch, as viewed;
// the mark holds while what was viewed is unchanged. What "unchanged" means is a fingerprint of the text: the whole
// patch for an attempt, the file's part of the patch for a file. Pure; the host keeps the marks (vscode/viewedMarks.ts).
import { createHash } from 'node:crypto';
import { parsePatch } from '../patch';
import { findFile } from './patchFiles';

/**
 * The fingerprint of what a mark covers: the file's part of `patchText` (from its header to the next file's), or the
 * whole patch without `file`; undefined when the patch does not change `file`.
 */
export function viewedFingerprint(patchText: string, file?: string, workdir = ''): string | undefined {
  if (file === undefined) return hash(patchText);
  const files = parsePatch(patchText).files;
  const i = findFile(files, file, workdir);
  const fp = files[i];
  if (!fp) return undefined;
  const lines = patchText.replace(/^\ufeff/, '').split('\n');
  const next = files[i + 1];
  return hash(lines.slice(fp.patchLine - 1, next ? next.patchLine - 1 : lines.length).join('\n').replace(/\n*$/, ''));
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}
