// Line diffs of two texts as git-style unified diffs (jsdiff's Myers diff), to turn edited files back into patches.
import { formatPatch, structuredPatch } from 'diff';
import type { StructuredPatch, StructuredPatchHunk } from 'diff';

/**
 * Most edits the line diff looks for before it gives up and writes the change as one hunk replacing the whole file
 * (which applies just the same). Myers' diff costs about lines x edits: uncapped, two unrelated 5,000-line files take
 * jsdiff 15 s; capped, the give-up costs about 0.5 s whatever the size (bench/diff.bench.ts).
 */
export const MAX_EDIT_LENGTH = 1000;

const NO_NEWLINE = '\\ No newline at end of file';

/** `text` as hunk lines with `op` in front, and the marker after a last line without a newline. */
function sideLines(text: string, op: '-' | '+'): string[] {
  if (text.length === 0) return [];
  const finalNewline = text.endsWith('\n');
  const out = (finalNewline ? text.slice(0, -1) : text).split('\n').map((l) => op + l);
  if (!finalNewline) out.push(NO_NEWLINE);
  return out;
}

/** The change as a single hunk: every old line removed, every new line added. */
function wholeFileHunk(before: string, after: string): StructuredPatchHunk {
  const old = sideLines(before, '-');
  const neu = sideLines(after, '+');
  const count = (ls: string[]) => ls.filter((l) => l !== NO_NEWLINE).length;
  // jsdiff's convention: a start is 1-based even for an empty side (formatPatch writes it as 0).
  return { oldStart: 1, oldLines: count(old), newStart: 1, newLines: count(neu), lines: [...old, ...neu] };
}

/**
 * A git-style unified diff of one file from `before` to `after` (empty string when they are equal). `oldPath`
 * undefined means the file is new; `newPath` undefined means it was deleted.
 */
export function unifiedDiff(oldPath: string | undefined, newPath: string | undefined, before: string, after: string, context = 3): string {
  if (before === after && oldPath === newPath) return '';
  const path = newPath ?? oldPath ?? '';
  const oldFileName = oldPath === undefined ? '/dev/null' : `a/${oldPath}`;
  const newFileName = newPath === undefined ? '/dev/null' : `b/${newPath}`;
  const diffed = structuredPatch(oldFileName, newFileName, before, after, undefined, undefined, { context, maxEditLength: MAX_EDIT_LENGTH });
  const hunks = diffed ? diffed.hunks : [wholeFileHunk(before, after)];
  const patch: StructuredPatch = {
    oldFileName: oldPath === undefined ? '/dev/null' : oldFileName,
    newFileName: newPath === undefined ? '/dev/null' : newFileName,
    oldHeader: undefined,
    newHeader: undefined,
    hunks,
    isGit: true,
    ...(oldPath === undefined ? { isCreate: true } : {}),
    ...(newPath === undefined ? { isDelete: true } : {}),
  };
  // A file without a path on either side still gets a git header jsdiff can write.
  if (oldPath === undefined && newPath === undefined) {
    patch.oldFileName = `a/${path}`;
    patch.newFileName = `b/${path}`;
  }
  return formatPatch(patch);
}
