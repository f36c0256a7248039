// Folders of files as patches that only add files, and back: how a task folder's `tests/` and `solution/` (Harbor)
// become a task's test patch and gold patch that curators read like any other, and how the verifier unpacks them.
// Text files become ordinary hunks; other files become git's `GIT binary patch` literals, so `git apply` reads the
// same patch. Pure: bytes in, bytes out.
import { createHash } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import { unsafeRelativePath } from './paths';

export interface AddedFile {
  /** Relative path with forward slashes. */
  path: string;
  content: Uint8Array;
  executable: boolean;
}

export type AddedFilesResult =
  | { ok: true; files: AddedFile[] }
  | { ok: false; line: number; reason: string };

const B85 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~';
const B85_VALUE = new Map([...B85].map((c, i) => [c, i]));
const ZERO_ID = '0'.repeat(40);

function blobId(content: Uint8Array): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

/** Text that survives a UTF-8 round trip and holds no NUL byte is written as hunks; anything else as binary. */
export function isText(content: Uint8Array): boolean {
  const b = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  if (b.includes(0)) return false;
  return Buffer.from(b.toString('utf8'), 'utf8').equals(b);
}

/** A path as git writes it in a header: C-quoted when it holds a quote, a backslash, a control or non-ASCII byte. */
function quotePath(prefix: string, p: string): string {
  const bytes = Buffer.from(prefix + p, 'utf8');
  if (![...bytes].some((c) => c < 0x20 || c >= 0x7f || c === 0x22 || c === 0x5c)) return prefix + p;
  let out = '"';
  for (const c of bytes) {
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x0a) out += '\\n';
    else if (c < 0x20 || c >= 0x7f) out += `\\${c.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(c);
  }
  return `${out}"`;
}

function base85Lines(data: Uint8Array): string[] {
  const lines: string[] = [];
  for (let at = 0; at < data.length; at += 52) {
    const chunk = data.subarray(at, Math.min(at + 52, data.length));
    const n = chunk.length;
    let line = n <= 26 ? String.fromCharCode(0x41 + n - 1) : String.fromCharCode(0x61 + n - 27);
    for (let i = 0; i < n; i += 4) {
      let acc = 0;
      for (let j = 0; j < 4; j++) acc = acc * 256 + (chunk[i + j] ?? 0);
      const five: string[] = [];
      for (let j = 0; j < 5; j++) {
        five.unshift(B85[acc % 85] as string);
        acc = Math.floor(acc / 85);
      }
      line += five.join('');
    }
    lines.push(line);
  }
  return lines;
}

function fromBase85(line: string): Uint8Array | undefined {
  const c = line.charCodeAt(0);
  const n = c >= 0x41 && c <= 0x5a ? c - 0x40 : c >= 0x61 && c <= 0x7a ? c - 0x60 + 26 : 0;
  const body = line.slice(1);
  if (n === 0 || body.length !== Math.ceil(n / 4) * 5) return undefined;
  const out = new Uint8Array(Math.ceil(n / 4) * 4);
  for (let i = 0; i < body.length; i += 5) {
    let acc = 0;
    for (let j = 0; j < 5; j++) {
      const v = B85_VALUE.get(body[i + j] as string);
      if (v === undefined) return undefined;
      acc = acc * 85 + v;
    }
    if (acc > 0xffffffff) return undefined;
    for (let j = 3; j >= 0; j--) {
      out[(i / 5) * 4 + j] = acc % 256;
      acc = Math.floor(acc / 256);
    }
  }
  return out.subarray(0, n);
}

/** A patch that adds `files` (sorted by path), each under `prefix` (e.g. `tests/`). */
export function addedFilesPatch(files: AddedFile[], prefix = ''): string {
  const parts: string[] = [];
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const p = prefix + f.path;
    const mode = f.executable ? '100755' : '100644';
    const id = blobId(f.content);
    const head = [`diff --git ${quotePath('a/', p)} ${quotePath('b/', p)}`, `new file mode ${mode}`];
    if (f.content.length === 0) {
      parts.push([...head, `index 0000000..${id.slice(0, 7)}`, ''].join('\n'));
      continue;
    }
    if (!isText(f.content)) {
      const lines = base85Lines(deflateSync(f.content));
      parts.push([...head, `index ${ZERO_ID}..${id}`, 'GIT binary patch', `literal ${f.content.length}`, ...lines, '', 'literal 0', 'HcmV?d00001', '', ''].join('\n'));
      continue;
    }
    const text = Buffer.from(f.content).toString('utf8');
    const body = text.split('\n');
    const noNewline = !text.endsWith('\n');
    if (!noNewline) body.pop();
    const count = body.length === 1 ? '1' : `1,${body.length}`;
    const out = [...head, `index 0000000..${id.slice(0, 7)}`, '--- /dev/null', `+++ ${quotePath('b/', p)}`, `@@ -0,0 +${count} @@`, ...body.map((l) => `+${l}`)];
    if (noNewline) out.push('\\ No newline at end of file');
    parts.push(out.join('\n') + '\n');
  }
  return parts.join('');
}

function unquote(s: string): Buffer | undefined {
  if (!s.startsWith('"')) return Buffer.from(s, 'latin1');
  if (!s.endsWith('"') || s.length < 2) return undefined;
  const bytes: number[] = [];
  const simple: Record<string, number> = { '"': 0x22, '\\': 0x5c, t: 0x09, n: 0x0a, r: 0x0d, a: 0x07, b: 0x08, f: 0x0c, v: 0x0b };
  for (let i = 1; i < s.length - 1; i++) {
    const c = s[i] as string;
    if (c !== '\\') {
      bytes.push(c.charCodeAt(0) & 0xff);
      continue;
    }
    const e = s[i + 1] as string;
    if (/[0-7]/.test(e)) {
      const oct = s.slice(i + 1, i + 4);
      if (!/^[0-7]{3}$/.test(oct)) return undefined;
      bytes.push(parseInt(oct, 8));
      i += 3;
    } else if (e in simple) {
      bytes.push(simple[e] as number);
      i++;
    } else return undefined;
  }
  return Buffer.from(bytes);
}

/** The path of a `+++ b/x` / `diff --git a/x b/x` side, as text; undefined when it cannot be read. */
function sidePath(raw: string, prefix: string): string | undefined {
  const t = raw.replace(/\t.*$/, '');
  const b = unquote(t);
  if (!b) return undefined;
  const s = b.toString('utf8');
  return s.startsWith(prefix) ? s.slice(prefix.length) : undefined;
}

/** The path named by `diff --git a/P b/P` (both sides equal, as in a creation). */
function headerPath(rest: string): string | undefined {
  if (rest.startsWith('"')) {
    const m = /^("(?:[^"\\]|\\.)*") ("(?:[^"\\]|\\.)*"|b\/.*)$/.exec(rest);
    if (!m) return undefined;
    const a = sidePath(m[1] as string, 'a/');
    const b = sidePath(m[2] as string, 'b/');
    return a !== undefined && a === b ? a : undefined;
  }
  const half = (rest.length - 1) / 2;
  if (!Number.isInteger(half)) return undefined;
  const a = rest.slice(0, half);
  const b = rest.slice(half + 1);
  if (rest[half] !== ' ' || !a.startsWith('a/') || !b.startsWith('b/') || a.slice(2) !== b.slice(2)) return undefined;
  return sidePath(a, 'a/');
}

/**
 * The files a patch adds, byte for byte. Anything else in it (a change to an existing file, a deletion, a rename, a
 * symlink, a malformed hunk or binary literal) is an error with its line: such a patch cannot be unpacked into an
 * empty folder.
 */
export function addedFilesOf(patch: Uint8Array | string): AddedFilesResult {
  const text = typeof patch === 'string' ? Buffer.from(patch, 'utf8').toString('latin1') : Buffer.from(patch).toString('latin1');
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const files: AddedFile[] = [];
  const seen = new Set<string>();
  let i = 0;
  const fail = (reason: string, at = i): AddedFilesResult => ({ ok: false, line: at + 1, reason });
  type Cur = { path?: string; executable: boolean; line: number; content?: Uint8Array; created: boolean };
  let cur: Cur | undefined;
  const finish = (): AddedFilesResult | undefined => {
    if (!cur) return undefined;
    const c = cur;
    cur = undefined;
    if (!c.created) return fail('this file is not created by the patch (only new files can be unpacked)', c.line);
    if (c.path === undefined) return fail('cannot read the file name', c.line);
    const bad = unsafeRelativePath(c.path);
    if (bad) return fail(bad, c.line);
    if (seen.has(c.path)) return fail(`${c.path} is added twice`, c.line);
    seen.add(c.path);
    files.push({ path: c.path, content: c.content ?? new Uint8Array(0), executable: c.executable });
    return undefined;
  };
  while (i < lines.length) {
    const l = (lines[i] as string).replace(/\r$/, '');
    if (l.startsWith('diff --git ')) {
      const r = finish();
      if (r) return r;
      cur = { path: headerPath(l.slice('diff --git '.length)), executable: false, line: i, created: false };
      i++;
      continue;
    }
    if (l.startsWith('--- ')) {
      const from = l.slice(4).replace(/\t.*$/, '');
      const next = ((lines[i + 1] ?? '') as string).replace(/\r$/, '');
      if (!next.startsWith('+++ ')) return fail('a "---" line without its "+++" line');
      if (from !== '/dev/null') return fail('this file already exists before the patch (only new files can be unpacked)');
      if (!cur || cur.content !== undefined) {
        const f = finish();
        if (f) return f;
        cur = { executable: false, line: i, created: true };
      }
      cur.created = true;
      const p = sidePath(next.slice(4), 'b/') ?? sidePath(next.slice(4), '');
      if (p === undefined) return fail('cannot read the file name', i + 1);
      cur.path = p;
      i += 2;
      // Hunks: only `@@ -0,0 +1,N @@` with N added lines.
      const chunks: string[] = [];
      let noNewline = false;
      while (i < lines.length && ((lines[i] as string).startsWith('@@'))) {
        const h = /^@@ -0,0 \+1(?:,(\d+))? @@/.exec(lines[i] as string);
        if (!h) return fail('a hunk that changes existing lines (only new files can be unpacked)');
        let n = h[1] === undefined ? 1 : Number(h[1]);
        i++;
        while (n > 0) {
          const b = lines[i];
          if (b === undefined || !b.startsWith('+')) return fail(`the hunk ends early: ${n} added line(s) missing`);
          chunks.push(b.slice(1));
          n--;
          i++;
        }
        if ((lines[i] ?? '').startsWith('\\')) {
          noNewline = true;
          i++;
        }
      }
      const body = chunks.join('\n') + (noNewline || chunks.length === 0 ? '' : '\n');
      cur.content = Buffer.from(body, 'latin1');
      continue;
    }
    if (l === 'GIT binary patch') {
      if (!cur) return fail('a binary patch without its "diff --git" header');
      const lit = /^literal (\d+)$/.exec(((lines[i + 1] ?? '') as string).replace(/\r$/, ''));
      if (!lit) return fail('only "literal" binary patches can be unpacked', i + 1);
      i += 2;
      const chunks: Uint8Array[] = [];
      while (i < lines.length && (lines[i] as string).replace(/\r$/, '') !== '') {
        const d = fromBase85((lines[i] as string).replace(/\r$/, ''));
        if (!d) return fail('a malformed line in the binary patch');
        chunks.push(d);
        i++;
      }
      let data: Buffer;
      try {
        data = inflateSync(Buffer.concat(chunks));
      } catch {
        return fail('the binary patch does not inflate', i);
      }
      if (data.length !== Number(lit[1])) return fail(`the binary patch holds ${data.length} bytes, not the ${lit[1]} it announces`);
      cur.content = data;
      // The reverse hunk (`literal 0` for a new file) follows; it is not needed.
      while (i < lines.length && !(lines[i] as string).startsWith('diff --git ')) i++;
      continue;
    }
    if (/^Binary files /.test(l)) return fail('a binary file without its content ("Binary files differ")');
    if (cur && cur.content === undefined) {
      const m = /^new file mode (\d+)$/.exec(l);
      if (m) {
        if (m[1] === '120000') return fail('a symbolic link cannot be unpacked');
        if (!/^100(644|755)$/.test(m[1] as string)) return fail(`file mode ${m[1]} cannot be unpacked`);
        cur.created = true;
        cur.executable = m[1] === '100755';
      } else if (/^(deleted file mode|old mode|new mode|rename from|rename to|copy from|copy to|similarity index|dissimilarity index)/.test(l)) {
        return fail('this file already exists before the patch (only new files can be unpacked)');
      } else if (!/^index /.test(l) && l !== '') return fail(`unexpected line "${l.slice(0, 40)}" in the file's header`);
    } else if (cur && l !== '') return fail(`unexpected line "${l.slice(0, 40)}" after the file's content`);
    // Text before the first file (a commit message) is not part of any file.
    i++;
  }
  const r = finish();
  if (r) return r;
  return { ok: true, files };
}
