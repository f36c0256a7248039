// Unified diffs: parse them into files and hunks, count changes, and apply one file's hunks to its base text.
// File headers are read by jsdiff; the hunk parser is ours because it keeps (and reports) hunks whose counts lie,
// where jsdiff throws, and records the patch line of every file and hunk for evidence links.
import { parsePatch as parseGitHeader } from 'diff';
import type { StructuredPatch } from 'diff';
import type { Problem } from './model';

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** Text after the second `@@` (often the enclosing function). */
  section: string;
  /** Body lines including their leading ' ', '-', '+' or '\'. */
  lines: string[];
  /** 1-based line of the `@@` header in the patch text. */
  patchLine: number;
}

export interface FilePatch {
  /** Path before the change, without the `a/` prefix; undefined for an added file. */
  oldPath?: string;
  /** Path after the change, without the `b/` prefix; undefined for a deleted file. */
  newPath?: string;
  status: 'modified' | 'added' | 'deleted' | 'renamed' | 'binary';
  hunks: Hunk[];
  additions: number;
  deletions: number;
  /** 1-based line of the file's header in the patch text. */
  patchLine: number;
}

export interface ParsedPatch {
  files: FilePatch[];
  problems: Problem[];
}

/** The path a file patch is about: its new path, or its old one for a deletion. */
export function filePath(f: FilePatch): string {
  return f.newPath ?? f.oldPath ?? '';
}

const HUNK_RE = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/;

/** The header lines jsdiff reads the file names from (and renames, copies, created and deleted files). */
const NAME_LINE_RE = /^(?:diff --git |rename (?:from|to) |copy (?:from|to) |new file mode |deleted file mode |--- |\+\+\+ )/;

function stripName(name: string | undefined): string | undefined {
  return name === undefined || name === '/dev/null' ? undefined : name.replace(/^[ab]\//, '');
}

/**
 * Paths and status of one file from its header lines, read by jsdiff (git's C-style quoting with UTF-8 octal
 * escapes, spaces in a `diff --git` line, `rename`/`copy` lines). Its hunk parser is not used: it throws on a hunk
 * whose counts disagree with its body, which the importer must keep and report.
 */
function applyHeader(f: FilePatch, header: string[], binary: boolean): void {
  let idx: StructuredPatch | undefined;
  if (header.length > 0) {
    try {
      idx = parseGitHeader(header.join('\n'))[0];
    } catch {
      idx = undefined; // a header jsdiff cannot read: no paths, as before
    }
  }
  if (idx) {
    f.oldPath = stripName(idx.oldFileName);
    f.newPath = stripName(idx.newFileName);
    if (idx.isCreate || idx.oldFileName === '/dev/null') {
      f.status = 'added';
      f.oldPath = undefined;
    } else if (idx.isDelete || idx.newFileName === '/dev/null') {
      f.status = 'deleted';
      f.newPath = undefined;
    }
    if (idx.isRename) f.status = 'renamed';
  }
  if (binary) f.status = 'binary';
}

/**
 * Parses a unified diff (git or plain). Hunk line counts that disagree with the body are reported (such patches
 * exist in the wild and `git apply` rejects them) but the hunk is kept as written.
 */
export function parsePatch(text: string, file = 'patch'): ParsedPatch {
  const lines = text.replace(/^\ufeff/, '').split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const files: FilePatch[] = [];
  const problems: Problem[] = [];
  let cur: FilePatch | undefined;
  // The current file's header lines, read (by jsdiff) at its first hunk or when the next file starts.
  let head: { lines: string[]; binary: boolean } | undefined;
  const readHeader = () => {
    if (cur && head) applyHeader(cur, head.lines, head.binary);
    head = undefined;
  };
  let hunk: Hunk | undefined;
  let oldLeft = 0;
  let newLeft = 0;

  const closeHunk = () => {
    if (hunk && (oldLeft !== 0 || newLeft !== 0) && cur) {
      problems.push({
        severity: 'warning',
        file,
        line: hunk.patchLine,
        message: `hunk header of ${filePath(cur)} says -${hunk.oldLines} +${hunk.newLines} lines but the body has ${hunk.oldLines - oldLeft} and ${hunk.newLines - newLeft}`,
      });
    }
    hunk = undefined;
  };
  const startFile = (patchLine: number): FilePatch => {
    closeHunk();
    readHeader();
    cur = { status: 'modified', hunks: [], additions: 0, deletions: 0, patchLine };
    head = { lines: [], binary: false };
    files.push(cur);
    return cur;
  };

  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (hunk && (oldLeft > 0 || newLeft > 0)) {
      const c = line[0];
      if (c === ' ' || (c === undefined && line === '')) {
        hunk.lines.push(line === '' ? ' ' : line);
        oldLeft--;
        newLeft--;
        continue;
      }
      // A removed line may itself start with "-- "; only a "---" followed by "+++" starts the next file.
      if (c === '-' && !(line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ '))) {
        hunk.lines.push(line);
        oldLeft--;
        if (cur) cur.deletions++;
        continue;
      }
      if (c === '+') {
        hunk.lines.push(line);
        newLeft--;
        if (cur) cur.additions++;
        continue;
      }
      if (c === '\\') {
        hunk.lines.push(line);
        continue;
      }
    } else if (hunk && line.startsWith('\\')) {
      hunk.lines.push(line);
      continue;
    }
    if (line.startsWith('diff --git ')) {
      startFile(i + 1);
      head?.lines.push(line);
      continue;
    }
    if (line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ')) {
      const next = (lines[i + 1] as string).replace(/\r$/, '');
      if (!(cur && cur.hunks.length === 0 && !hunk)) startFile(i + 1);
      head?.lines.push(line, next);
      i++;
      continue;
    }
    const hm = HUNK_RE.exec(line);
    if (hm && cur) {
      closeHunk();
      readHeader();
      hunk = {
        oldStart: Number(hm[1]),
        oldLines: hm[2] === undefined ? 1 : Number(hm[2]),
        newStart: Number(hm[3]),
        newLines: hm[4] === undefined ? 1 : Number(hm[4]),
        section: hm[5] ?? '',
        lines: [],
        patchLine: i + 1,
      };
      oldLeft = hunk.oldLines;
      newLeft = hunk.newLines;
      cur.hunks.push(hunk);
      continue;
    }
    if (cur && !hunk) {
      if (line.startsWith('Binary files ') || line === 'GIT binary patch') {
        if (head) head.binary = true;
        else cur.status = 'binary';
      } else if (head && NAME_LINE_RE.test(line)) head.lines.push(line);
      continue;
    }
    if (hunk) {
      // A body line after the counted lines: the header lied. Keep the line so nothing is lost, and say so.
      const c = line[0];
      if (c === ' ' || c === '-' || c === '+') {
        hunk.lines.push(line);
        if (c !== '+') oldLeft--;
        if (c !== '-') newLeft--;
        if (cur && c === '+') cur.additions++;
        if (cur && c === '-') cur.deletions++;
        continue;
      }
      closeHunk();
    }
  }
  closeHunk();
  readHeader();
  return { files, problems };
}

/** Problems that make a text not a patch at all (as opposed to an imperfect one). */
export function notAPatch(text: string, file: string): Problem | undefined {
  if (text.trim().length === 0) return undefined; // the empty patch is a patch: it changes nothing
  if (text.includes('\0')) return { severity: 'error', file, message: 'not a patch: the file contains NUL bytes' };
  const parsed = parsePatch(text, file);
  if (parsed.files.length === 0) {
    return { severity: 'error', file, line: 1, message: 'not a patch: no "diff --git" or "---/+++" file header found' };
  }
  const empty = parsed.files.find((f) => f.hunks.length === 0 && f.status === 'modified' && f.oldPath === f.newPath);
  if (empty && parsed.files.every((f) => f.hunks.length === 0 && f.status === 'modified')) {
    return { severity: 'error', file, line: empty.patchLine, message: 'not a patch: file headers without any hunk' };
  }
  return undefined;
}

export type ApplyResult = { ok: true; text: string; fuzz: boolean } | { ok: false; hunk: number; reason: string };

/**
 * Applies one file's hunks to its base text, looking for each hunk near its stated position when lines moved.
 * Used to show a patched file in a diff editor; the verifier applies patches with git in the container.
 * Not jsdiff's applyPatch: at each position it tries it copies the hunk's added lines again before it compares the
 * next context line, so a hunk adding 5,000 lines whose header is off takes 1.3 s there and 1 ms here (20,000
 * lines: about a minute); this search compares only the old side (bench/diff.bench.ts).
 */
export function applyFilePatch(base: string, fp: FilePatch): ApplyResult {
  if (fp.status === 'binary') return { ok: false, hunk: 0, reason: 'binary patch' };
  const crlf = base.includes('\r\n');
  const src = base.length === 0 ? [] : base.replace(/\r\n/g, '\n').split('\n');
  const endsWithNewline = base.length === 0 || base.endsWith('\n');
  if (endsWithNewline && src.length > 0) src.pop();
  const out: string[] = [];
  let pos = 0;
  let fuzz = false;
  let newEndsWithNewline = endsWithNewline;
  for (let h = 0; h < fp.hunks.length; h++) {
    const hunk = fp.hunks[h] as Hunk;
    const oldSide: string[] = [];
    const newSide: string[] = [];
    let newLacksNewline = false;
    for (let k = 0; k < hunk.lines.length; k++) {
      const l = hunk.lines[k] as string;
      const c = l[0];
      if (c === '\\') {
        const prev = hunk.lines[k - 1]?.[0];
        if (prev === '+' || prev === ' ') newLacksNewline = true;
        continue;
      }
      const body = l.slice(1);
      if (c === ' ' || c === '-') oldSide.push(body);
      if (c === ' ' || c === '+') newSide.push(body);
    }
    const want = Math.max(0, hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1);
    const at = findBlock(src, oldSide, want, pos);
    if (at < 0) return { ok: false, hunk: h + 1, reason: `hunk ${h + 1} (line ${hunk.oldStart}) does not match the base file` };
    if (at !== want) fuzz = true;
    for (let k = pos; k < at; k++) out.push(src[k] as string);
    out.push(...newSide);
    pos = at + oldSide.length;
    // A hunk that reaches the end of the file decides whether the new file ends with a newline.
    if (pos === src.length) newEndsWithNewline = !newLacksNewline;
  }
  for (let k = pos; k < src.length; k++) out.push(src[k] as string);
  if (fp.status === 'deleted') return { ok: true, text: '', fuzz };
  let text = out.join('\n');
  if (out.length > 0 && newEndsWithNewline) text += '\n';
  if (crlf) text = text.replace(/\n/g, '\r\n');
  return { ok: true, text, fuzz };
}

function findBlock(src: string[], block: string[], want: number, from: number): number {
  const matches = (at: number) => {
    if (at < from || at + block.length > src.length) return false;
    for (let k = 0; k < block.length; k++) if (src[at + k] !== block[k]) return false;
    return true;
  };
  if (matches(want)) return want;
  for (let d = 1; d <= src.length; d++) {
    if (matches(want - d)) return want - d;
    if (matches(want + d)) return want + d;
    if (want - d < from && want + d > src.length) break;
  }
  return -1;
}

/** Files a patch touches that look like tests (used to default the verifier command to them). */
export function testFilesOf(parsed: ParsedPatch): string[] {
  return parsed.files
    .filter((f) => f.status !== 'deleted')
    .map(filePath)
    .filter((p) => /(^|\/)(tests?|testing)\/|(^|\/)test_[^/]*\.py$|_tests?\.py$/.test(p));
}
