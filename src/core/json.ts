// JSON text to values with errors that name the file, line and field.
import { findNodeAtLocation, parse as parseTolerant, parseTree, printParseErrorCode } from 'jsonc-parser';
import type { ParseError } from 'jsonc-parser';
import type { Problem } from './model';
import { parseStrict } from './jsonStrict';

export { MAX_JSON_DEPTH, parseRecordJson, parseStrict } from './jsonStrict';
export type { StrictFailure } from './jsonStrict';

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
