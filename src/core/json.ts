// JSON text to values with errors that name the file, line and field.
import { findNodeAtLocation, parse as parseTolerant, parseTree, printParseErrorCode } from 'jsonc-parser';
import type { ParseError } from 'jsonc-parser';
import type { Problem } from './model';

export type JsonResult = { ok: true; value: unknown } | { ok: false; problem: Problem };

/** Strips a UTF-8 byte order mark, which editors on Windows like to add. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Deepest nesting of objects and arrays a record may have; deeper text is refused before it is parsed. */
export const MAX_JSON_DEPTH = 256;

/** Why strict parsing failed: bad syntax, nesting over the cap, or a member name used twice in one object. */
export type StrictFailure = { kind: 'syntax'; error: Error } | { kind: 'depth' | 'duplicate'; offset: number; message: string };

/**
 * One pass over the text that skips strings: the deepest nesting (stopping at the first place over the cap) and the
 * number of members (each `:` outside a string is one). Cheap next to JSON.parse, and it cannot recurse.
 */
function shapeOf(text: string): { members: number; tooDeepAt: number } {
  let depth = 0;
  let members = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let q = i;
      for (;;) {
        q = text.indexOf('"', q + 1);
        if (q < 0) return { members, tooDeepAt: -1 }; // unterminated: JSON.parse says so
        let b = q - 1;
        let slashes = 0;
        while (text.charCodeAt(b) === 0x5c) {
          b--;
          slashes++;
        }
        if ((slashes & 1) === 0) break;
      }
      i = q;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) return { members, tooDeepAt: i };
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x3a) members++;
  }
  return { members, tooDeepAt: -1 };
}

/** Members of every object in a parsed value (its depth is already known to be within the cap). */
function countMembers(v: unknown): number {
  let n = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x !== null && typeof x === 'object') n += countMembers(x);
    }
    return n;
  }
  const o = v as Record<string, unknown>;
  for (const k in o) {
    n++;
    const x = o[k];
    if (x !== null && typeof x === 'object') n += countMembers(x);
  }
  return n;
}

/** Where the first member name used twice in one object is (only looked for once a duplicate is known to exist). */
function firstDuplicate(text: string): { offset: number; name: string } | undefined {
  const stack: Array<Set<string> | undefined> = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let q = i;
      for (;;) {
        q = text.indexOf('"', q + 1);
        if (q < 0) return undefined;
        let b = q - 1;
        let slashes = 0;
        while (text.charCodeAt(b) === 0x5c) {
          b--;
          slashes++;
        }
        if ((slashes & 1) === 0) break;
      }
      let j = q + 1;
      while (j < n && (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x0a || text.charCodeAt(j) === 0x0d || text.charCodeAt(j) === 0x09)) j++;
      const keys = stack[stack.length - 1];
      if (keys !== undefined && text.charCodeAt(j) === 0x3a) {
        const raw = text.slice(i, q + 1);
        const name = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        if (keys.has(name)) return { offset: i, name };
        keys.add(name);
      }
      i = q;
    } else if (c === 0x7b) stack.push(new Set());
    else if (c === 0x5b) stack.push(undefined);
    else if (c === 0x7d || c === 0x5d) stack.pop();
  }
  return undefined;
}

/**
 * JSON.parse for records: refuses nesting deeper than MAX_JSON_DEPTH (checked before parsing, so a hostile file
 * cannot exhaust the stack of anything that walks the value later) and a member name used twice in one object (the
 * two readers of such a line need not agree on which one counts). `clean` has no byte order mark.
 */
export function parseStrict(clean: string): { ok: true; value: unknown } | ({ ok: false } & StrictFailure) {
  const shape = shapeOf(clean);
  if (shape.tooDeepAt >= 0) return { ok: false, kind: 'depth', offset: shape.tooDeepAt, message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` };
  let value: unknown;
  try {
    value = JSON.parse(clean);
  } catch (e) {
    return { ok: false, kind: 'syntax', error: e as Error };
  }
  if (shape.members > 0 && value !== null && typeof value === 'object' && countMembers(value) !== shape.members) {
    const dup = firstDuplicate(clean);
    if (dup) return { ok: false, kind: 'duplicate', offset: dup.offset, message: `member ${JSON.stringify(dup.name)} appears twice in one object (a record names each field once)` };
  }
  return { ok: true, value };
}

/** A record parsed strictly, or one message with the line (for callers that keep or skip one record). */
export function parseRecordJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const clean = stripBom(text);
  const r = parseStrict(clean);
  if (r.ok) return r;
  if (r.kind === 'syntax') return { ok: false, message: `malformed JSON: ${r.error.message}` };
  return { ok: false, message: `line ${lineAt(clean, r.offset)}: ${r.message}` };
}

/** Parses strict JSON; on failure reports the line of the first error (found by a tolerant second pass). */
export function parseJson(text: string, file: string): JsonResult {
  const clean = stripBom(text);
  const r = parseStrict(clean);
  if (r.ok) return r;
  if (r.kind !== 'syntax') return { ok: false, problem: { severity: 'error', file, line: lineAt(clean, r.offset), message: r.message } };
  if (clean.trim().length === 0) return { ok: false, problem: { severity: 'error', file, line: 1, message: 'file is empty (expected JSON)' } };
  // The tolerant pass recurses, which is safe: the nesting is within the cap.
  const errors: ParseError[] = [];
  parseTolerant(clean, errors, { allowTrailingComma: false, disallowComments: true });
  const first = errors[0];
  if (first) {
    return {
      ok: false,
      problem: {
        severity: 'error',
        file,
        line: lineAt(clean, first.offset),
        message: `malformed JSON: ${describeParseError(printParseErrorCode(first.error))}${truncatedHint(clean, errors)}`,
      },
    };
  }
  return { ok: false, problem: { severity: 'error', file, message: `malformed JSON: ${r.error.message}` } };
}

function describeParseError(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** The text ends in the middle of a value when the parser's last complaint is at its very end. */
function truncatedHint(text: string, errors: ParseError[]): string {
  const last = errors[errors.length - 1];
  return last && last.offset >= text.trimEnd().length ? ' (the file looks truncated)' : '';
}

/** Field path `specs[2].id` from an Ajv-style instance path `/specs/2/id`. */
export function fieldFromPointer(pointer: string): string {
  if (!pointer) return '';
  return pointer
    .split('/')
    .slice(1)
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '');
}

/** 1-based line where the value at `pointer` starts in `text`, if it can be found. */
export function lineOfPointer(text: string, pointer: string): number | undefined {
  const clean = stripBom(text);
  const root = parseTree(clean);
  if (!root) return undefined;
  const path = pointer
    .split('/')
    .slice(1)
    .map((seg) => (/^\d+$/.test(seg) ? Number(seg) : seg.replace(/~1/g, '/').replace(/~0/g, '~')));
  // Walk up until a node exists (the pointer may name a missing property of an existing object).
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(root, path.slice(0, n));
    if (node) {
      const at = node.parent?.type === 'property' ? node.parent.offset : node.offset;
      return lineAt(clean, at);
    }
  }
  return undefined;
}

/** Parses JSON Lines; every bad line is a problem with its line number, the good lines are kept. */
export function parseJsonLines(text: string, file: string): { values: Array<{ line: number; value: unknown }>; problems: Problem[] } {
  const values: Array<{ line: number; value: unknown }> = [];
  const problems: Problem[] = [];
  const lines = stripBom(text).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = (lines[i] as string).replace(/\r$/, '');
    if (raw.trim().length === 0) continue;
    const r = parseStrict(raw);
    if (r.ok) values.push({ line: i + 1, value: r.value });
    else if (r.kind !== 'syntax') problems.push({ severity: 'error', file, line: i + 1, message: r.message });
    else {
      const truncated = i === lines.length - 1 && !text.endsWith('\n');
      problems.push({
        severity: 'error',
        file,
        line: i + 1,
        message: truncated ? 'malformed JSON on the last line (the file looks truncated)' : 'malformed JSON on this line',
      });
    }
  }
  return { values, problems };
}
