// The strict JSON parser every record goes through (review-log lines, task.json, attempt.json, specweave.json, run
// records, suggestions, import rows): nesting over MAX_JSON_DEPTH is refused before parsing, a member name used twice
// in one object is refused after. No imports, so the smallest bundles (the review-log writer) can carry it; json.ts
// re-exports it with the line-locating helpers.

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
  const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const r = parseStrict(clean);
  if (r.ok) return r;
  if (r.kind === 'syntax') return { ok: false, message: `malformed JSON: ${r.error.message}` };
  let line = 1;
  for (let i = 0; i < r.offset; i++) if (clean.charCodeAt(i) === 10) line++;
  return { ok: false, message: `line ${line}: ${r.message}` };
}
