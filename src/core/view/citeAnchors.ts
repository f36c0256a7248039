// Where a citation can be made in an editor, and what it links to: the hunks of a patch file, the new side of a
// file's hunks in a diff editor, the stdout and stderr lines of a run log. Pure: the VS Code layer (curation/
// citations.ts) asks these for commenting ranges and for the evidence link of the line a comment is on, and back for
// the lines a recorded link covers. Lines are 0-based here, as editors count them.
import type { FilePatch } from '../patch';
import { filePath, parsePatch } from '../patch';
import type { EvidenceLinkView } from '../../protocol/messages';
import type { RunLogDocument } from './results';

/** 0-based first and last line (inclusive). */
export interface LineRange {
  from: number;
  to: number;
}

export type HunkLink = Extract<EvidenceLinkView, { kind: 'diff_hunk' }>;
export type LogLink = Extract<EvidenceLinkView, { kind: 'log_line' }>;

/** Which patch a file is, for the links its hunks make. */
export interface PatchOwner {
  patch: HunkLink['patch'];
  attempt?: string;
}

export interface Anchor {
  range: LineRange;
  link: EvidenceLinkView;
}

function hunkLink(owner: PatchOwner, file: string, hunk: number): HunkLink {
  return { kind: 'diff_hunk', patch: owner.patch, ...(owner.patch === 'attempt' && owner.attempt !== undefined ? { attempt: owner.attempt } : {}), file, hunk };
}

/** Each hunk of a whole patch file (its `@@` line through its last body line) and the link it makes. */
export function patchAnchors(patchText: string, owner: PatchOwner): Anchor[] {
  const out: Anchor[] = [];
  for (const f of parsePatch(patchText).files) {
    const file = filePath(f);
    if (!file) continue;
    f.hunks.forEach((h, i) => {
      out.push({ range: { from: h.patchLine - 1, to: h.patchLine - 1 + h.lines.length }, link: hunkLink(owner, file, i) });
    });
  }
  return out;
}

/**
 * The hunks of one file's part of a patch shown on its own (`firstLine`: the 1-based patch line the part starts at,
 * `FilePatch.patchLine`), as `patchAnchors` counts them but from the part's first line.
 */
export function filePatchAnchors(fp: FilePatch, owner: PatchOwner): Anchor[] {
  const file = filePath(fp);
  if (!file) return [];
  return fp.hunks.map((h, i) => {
    const from = h.patchLine - fp.patchLine;
    return { range: { from, to: from + h.lines.length }, link: hunkLink(owner, file, i) };
  });
}

/**
 * The new side of each hunk of `fp` in the file's changed version (the right of a base ↔ attempt diff): the lines
 * `+newStart` through `+newStart+newLines-1`. A hunk that only deletes covers the line after the deletion.
 */
export function versionAnchors(fp: FilePatch, owner: PatchOwner): Anchor[] {
  const file = filePath(fp);
  if (!file) return [];
  return fp.hunks.map((h, i) => {
    const from = Math.max(0, h.newStart - 1);
    return { range: { from, to: from + Math.max(0, h.newLines - 1) }, link: hunkLink(owner, file, i) };
  });
}

/** The anchor whose range holds `line` (the first one, when ranges touch), or undefined. */
export function anchorAt(anchors: readonly Anchor[], line: number): Anchor | undefined {
  return anchors.find((a) => line >= a.range.from && line <= a.range.to);
}

/** The anchor of a recorded link in this document, or undefined when it points elsewhere. */
export function anchorOf(anchors: readonly Anchor[], link: EvidenceLinkView): Anchor | undefined {
  if (link.kind !== 'diff_hunk') return undefined;
  return anchors.find((a) => a.link.kind === 'diff_hunk' && a.link.patch === link.patch && (a.link.attempt ?? '') === (link.attempt ?? '') && a.link.file === link.file && a.link.hunk === link.hunk);
}

// ---- run logs -------------------------------------------------------------------------------------------------

/** The stdout and stderr lines of a composed run log (results.ts `runLogDocument`), 0-based in its text. */
export function runLogRanges(doc: RunLogDocument): { stdout?: LineRange; stderr?: LineRange } {
  const out: { stdout?: LineRange; stderr?: LineRange } = {};
  if (doc.stdoutLines > 0) out.stdout = { from: doc.stdoutLine, to: doc.stdoutLine + doc.stdoutLines - 1 };
  if (doc.stderrLine !== undefined && doc.stderrLines > 0) out.stderr = { from: doc.stderrLine, to: doc.stderrLine + doc.stderrLines - 1 };
  return out;
}

/** The log line a line of the composed run log shows (1-based in its stream), or undefined for header lines. */
export function runLogLinkAt(doc: RunLogDocument, run: string, line: number): LogLink | undefined {
  const r = runLogRanges(doc);
  if (r.stdout && line >= r.stdout.from && line <= r.stdout.to) return { kind: 'log_line', run, line: line - r.stdout.from + 1 };
  if (r.stderr && line >= r.stderr.from && line <= r.stderr.to) return { kind: 'log_line', run, line: line - r.stderr.from + 1, stream: 'stderr' };
  return undefined;
}

/** The 0-based line of the composed run log that shows a recorded log line, or undefined (another run, past the end). */
export function runLogLineOf(doc: RunLogDocument, run: string, link: EvidenceLinkView): number | undefined {
  if (link.kind !== 'log_line' || link.run !== run) return undefined;
  const r = runLogRanges(doc)[link.stream ?? 'stdout'];
  if (!r) return undefined;
  const at = r.from + link.line - 1;
  return at <= r.to ? at : undefined;
}

/** A stored stream file's path under the dataset: runs/<task>/<attempt>/<run>.<stdout|stderr>.log. */
export function storedLogOf(relPath: string): { taskId: string; attempt: string; run: string; stream: 'stdout' | 'stderr' } | undefined {
  const m = /^runs\/([^/]+)\/([^/]+)\/([^/]+)\.(stdout|stderr)\.log$/.exec(relPath);
  return m ? { taskId: m[1] as string, attempt: m[2] as string, run: m[3] as string, stream: m[4] as 'stdout' | 'stderr' } : undefined;
}

/** The link of a line (0-based) of a stored stream file. */
export function storedLogLinkAt(f: { run: string; stream: 'stdout' | 'stderr' }, line: number): LogLink {
  return { kind: 'log_line', run: f.run, line: line + 1, ...(f.stream === 'stderr' ? { stream: 'stderr' as const } : {}) };
}

/** The 0-based line of a stored stream file a recorded link shows, or undefined. */
export function storedLogLineOf(f: { run: string; stream: 'stdout' | 'stderr' }, link: EvidenceLinkView, lineCount: number): number | undefined {
  if (link.kind !== 'log_line' || link.run !== f.run || (link.stream ?? 'stdout') !== f.stream) return undefined;
  return link.line - 1 < lineCount ? link.line - 1 : undefined;
}
