// The shapes benchmark tools write their rows in: JSON Lines, one JSON array, one object keyed by id, one object, or
// a CSV file with a header (SWE-PolyBench), in UTF-8 or UTF-16. Each record keeps the line it starts on so a bad row
// can be reported where it is.
import { lineAt, parseJson, parseJsonLines, parseStrict, stripBom } from '../json';
import type { Problem } from '../model';
import { looksLikeCsvHeader, readCsv } from './csv';

export type RecordShape = 'jsonl' | 'array' | 'keyed' | 'single' | 'csv';

export interface DecodedText {
  text: string;
  /** Set when the bytes were not UTF-8. */
  encoding?: 'utf-16le' | 'utf-16be';
}

/**
 * Text from a file's bytes: UTF-16 with a byte order mark (or, without one, ASCII-range text with every other byte
 * zero) is decoded as such; anything else is UTF-8 (a UTF-8 BOM is left for the readers, which skip it).
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  const le = (b: Uint8Array) => new TextDecoder('utf-16le').decode(b);
  const swapped = (b: Uint8Array) => {
    const out = new Uint8Array(b.length - (b.length % 2));
    for (let i = 0; i + 1 < b.length; i += 2) {
      out[i] = b[i + 1] as number;
      out[i + 1] = b[i] as number;
    }
    return out;
  };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: le(bytes.subarray(2)), encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: le(swapped(bytes.subarray(2))), encoding: 'utf-16be' };
  if (bytes.length >= 4 && bytes[0] !== 0 && bytes[1] === 0 && bytes[2] !== 0 && bytes[3] === 0) return { text: le(bytes), encoding: 'utf-16le' };
  if (bytes.length >= 4 && bytes[0] === 0 && bytes[1] !== 0 && bytes[2] === 0 && bytes[3] !== 0) return { text: le(swapped(bytes)), encoding: 'utf-16be' };
  return { text: new TextDecoder('utf-8').decode(bytes) };
}

export interface JsonRecord {
  value: unknown;
  /** 1-based line where the record starts. */
  line: number;
  /** The key of the record in an object keyed by id. */
  key?: string;
}

export interface RecordsResult {
  shape?: RecordShape;
  records: JsonRecord[];
  problems: Problem[];
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Splits a file into records. `isRecord` tells a single record (e.g. a `.pred` object) from an object keyed by id
 * whose values are records. Bad JSON Lines rows are reported with their line and skipped; the rest are kept. A CSV
 * file is read when its header names `csvColumn`.
 */
export function readRecords(text: string, file: string, isRecord: (v: Record<string, unknown>) => boolean, csvColumn?: string): RecordsResult {
  const clean = stripBom(text);
  const start = clean.search(/\S/);
  if (start < 0) return { records: [], problems: [{ severity: 'error', file, line: 1, message: 'file is empty' }] };
  const first = clean[start];
  if (first === '[') return readArray(clean, file);
  if (first !== '{' && csvColumn !== undefined && looksLikeCsvHeader(clean, csvColumn)) {
    const csv = readCsv(clean, file);
    return { shape: 'csv', records: csv.records.map((r) => ({ value: r.value, line: r.line })), problems: csv.problems };
  }
  if (first !== '{') {
    return {
      records: [],
      problems: [{ severity: 'error', file, line: lineAt(clean, start), message: 'unknown file shape: expected JSON Lines, a JSON array or a JSON object' }],
    };
  }
  // One JSON document (pretty-printed or one line) or JSON Lines: a whole-text parse decides.
  // Strict (depth cap, no member named twice). When the whole text fails, the JSON Lines reading below says which
  // rows are bad (too deep, a member named twice) and keeps the others.
  const strict = parseStrict(clean);
  const parsedWhole = strict.ok;
  const whole = strict.ok ? strict.value : undefined;
  if (parsedWhole && isObject(whole)) {
    if (isRecord(whole)) return { shape: 'single', records: [{ value: whole, line: lineAt(clean, start) }], problems: [] };
    return readKeyed(clean, file, whole, isRecord);
  }
  const lines = parseJsonLines(clean, file);
  if (lines.values.length === 0) {
    // Nothing parsed line by line: most likely one pretty-printed document with a syntax error; say where.
    const doc = parseJson(clean, file);
    return { records: [], problems: doc.ok ? lines.problems : [doc.problem] };
  }
  const records: JsonRecord[] = [];
  const problems = lines.problems.map((p) => ({ ...p, message: `${p.message}; the row is skipped` }));
  for (const { line, value } of lines.values) {
    if (isObject(value)) records.push({ value, line });
    else problems.push({ severity: 'error', file, line, message: 'expected a JSON object on this line; the row is skipped' });
  }
  return { shape: 'jsonl', records, problems };
}

function readArray(clean: string, file: string): RecordsResult {
  const doc = parseJson(clean, file);
  if (!doc.ok) return { records: [], problems: [doc.problem] };
  if (!Array.isArray(doc.value)) {
    return { records: [], problems: [{ severity: 'error', file, line: 1, message: 'unknown file shape: expected a JSON array' }] };
  }
  const lines = topLevelLines(clean).map((m) => m.line);
  const records: JsonRecord[] = [];
  const problems: Problem[] = [];
  doc.value.forEach((value, i) => {
    const line = lines[i] ?? 1;
    if (isObject(value)) records.push({ value, line });
    else problems.push({ severity: 'error', file, line, field: `[${i}]`, message: 'expected a JSON object in the array; the item is skipped' });
  });
  return { shape: 'array', records, problems };
}

function readKeyed(clean: string, file: string, whole: Record<string, unknown>, isRecord: (v: Record<string, unknown>) => boolean): RecordsResult {
  const entries = Object.entries(whole);
  if (entries.length === 0) return { shape: 'keyed', records: [], problems: [{ severity: 'warning', file, line: 1, message: 'the JSON object is empty' }] };
  const recordLike = entries.filter(([, v]) => isObject(v) && isRecord(v)).length;
  if (recordLike === 0) {
    return {
      records: [],
      problems: [{ severity: 'error', file, line: 1, message: 'unknown file shape: a JSON object that is neither one record nor records keyed by id' }],
    };
  }
  const lineOf = new Map<string, number>();
  for (const m of topLevelLines(clean)) if (m.key !== undefined && !lineOf.has(m.key)) lineOf.set(m.key, m.line);
  const records: JsonRecord[] = [];
  const problems: Problem[] = [];
  for (const [key, value] of entries) {
    const line = lineOf.get(key) ?? 1;
    if (isObject(value)) records.push({ value, line, key });
    else problems.push({ severity: 'error', file, line, field: key, message: 'expected a JSON object for this key; it is skipped' });
  }
  return { shape: 'keyed', records, problems };
}

/**
 * The line where each member of the top-level array or object starts (with its key for an object), in one pass over
 * text that JSON.parse already accepted. Replaces a full parse tree, which costs 20 times JSON.parse and keeps every
 * node: a 2,000-entry preds.json is one of these per run folder.
 */
function topLevelLines(text: string): Array<{ line: number; key?: string }> {
  const out: Array<{ line: number; key?: string }> = [];
  let line = 1;
  let depth = 0;
  let isObject = false;
  let expectMember = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      continue;
    }
    if (c === 32 || c === 9 || c === 13) continue;
    if (c === 34) {
      // A string: find its end (valid JSON has no raw newline inside one).
      let j = i + 1;
      while (j < text.length) {
        const d = text.charCodeAt(j);
        if (d === 92) j += 2;
        else if (d === 34) break;
        else j++;
      }
      if (depth === 1 && expectMember) {
        if (isObject) out.push({ line, key: JSON.parse(text.slice(i, j + 1)) as string });
        else out.push({ line });
        expectMember = false;
      }
      i = j;
      continue;
    }
    if (depth === 1 && expectMember && !isObject && c !== 93) {
      out.push({ line });
      expectMember = false;
    }
    if (c === 123 || c === 91) {
      depth++;
      if (depth === 1) {
        isObject = c === 123;
        expectMember = true;
      }
    } else if (c === 125 || c === 93) depth--;
    else if (c === 44 && depth === 1) expectMember = true;
  }
  return out;
}
