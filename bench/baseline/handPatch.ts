// The hand-written unified-diff parser and applier as of c42285d, kept as the baseline of bench/diff.bench.ts.
// Unified diffs: parse them into files and hunks, count changes, and apply one file's hunks to its base text.
import type { Problem } from '../../src/core/model';

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

function stripPrefix(p: string): string | undefined {
  const path = p.replace(/\t.*$/, '').trim();
  if (path === '/dev/null') return undefined;
  const unq = path.startsWith('"') && path.endsWith('"') ? unquote(path) : path;
  return unq.replace(/^[ab]\//, '');
}

function unquote(s: string): string {
  try {
    return JSON.parse(s.replace(/\\([0-7]{3})/g, (_, o: string) => `\\u00${parseInt(o, 8).toString(16).padStart(2, '0')}`)) as string;
  } catch {
    return s.slice(1, -1);
  }
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
    cur = { status: 'modified', hunks: [], additions: 0, deletions: 0, patchLine };
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
      const f = startFile(i + 1);
      const m = /^diff --git (\S+|"[^"]*") (\S+|"[^"]*")$/.exec(line);
      if (m) {
        f.oldPath = stripPrefix(m[1] as string);
        f.newPath = stripPrefix(m[2] as string);
      }
      continue;
    }
    if (line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ')) {
      const next = (lines[i + 1] as string).replace(/\r$/, '');
      const f = cur && cur.hunks.length === 0 && !hunk ? cur : startFile(i + 1);
      const oldP = stripPrefix(line.slice(4));
      const newP = stripPrefix(next.slice(4));
      f.oldPath = oldP;
      f.newPath = newP;
      if (oldP === undefined) f.status = 'added';
      else if (newP === undefined) f.status = 'deleted';
      i++;
      continue;
    }
    const hm = HUNK_RE.exec(line);
    if (hm && cur) {
      closeHunk();
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
      if (line.startsWith('new file mode')) {
        cur.status = 'added';
        cur.oldPath = undefined;
      } else if (line.startsWith('deleted file mode')) {
        cur.status = 'deleted';
        cur.newPath = undefined;
      } else if (line.startsWith('rename from ')) {
        cur.status = 'renamed';
        cur.oldPath = line.slice(12);
      } else if (line.startsWith('rename to ')) {
        cur.status = 'renamed';
        cur.newPath = line.slice(10);
      } else if (line.startsWith('Binary files ') || line === 'GIT binary patch') cur.status = 'binary';
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
