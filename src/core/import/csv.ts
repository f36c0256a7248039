// A small strict CSV reader (RFC 4180: comma-separated, fields quoted with `"` may hold commas, line breaks and
// doubled quotes), for benchmarks that ship their rows as CSV (SWE-PolyBench's `test.csv`). Strict: a stray quote,
// text after a closing quote, a quoted field that never ends, or a row with the wrong number of fields is an error
// naming the line; the other rows are still read.
import type { Problem } from '../model';

export interface CsvRecord {
  value: Record<string, string>;
  /** 1-based line where the row starts. */
  line: number;
}

export interface CsvResult {
  header: string[];
  records: CsvRecord[];
  problems: Problem[];
}

/** True when the first line of `text` reads as a CSV header naming `column`. */
export function looksLikeCsvHeader(text: string, column: string): boolean {
  const nl = text.search(/\r?\n/);
  const first = nl < 0 ? text : text.slice(0, nl);
  return first.includes(',') && first.split(',').some((c) => c.trim().replace(/^"|"$/g, '') === column);
}

type Row = { fields: string[]; line: number; error?: string };

/** Splits the text into rows of fields, each with the line it starts on (a row's error is kept, not thrown). */
function rows(text: string): Row[] {
  const out: Row[] = [];
  let i = 0;
  let line = 1;
  const n = text.length;
  while (i < n) {
    const start = line;
    const fields: string[] = [];
    let error: string | undefined;
    let field = '';
    // One row: fields until an unquoted line break or the end of the text.
    for (;;) {
      if (text[i] === '"') {
        i++;
        let closed = false;
        while (i < n) {
          const c = text[i] as string;
          if (c === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            closed = true;
            break;
          }
          if (c === '\n') line++;
          field += c;
          i++;
        }
        if (!closed) {
          error = `a quoted field opened on line ${start} never ends`;
          i = n;
        } else if (i < n && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
          error ??= `text after a closing quote on line ${line}`;
          while (i < n && text[i] !== ',' && text[i] !== '\n') i++;
        }
      } else {
        while (i < n && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
          if (text[i] === '"') error ??= `a quote inside an unquoted field on line ${line}`;
          field += text[i];
          i++;
        }
      }
      fields.push(field);
      field = '';
      if (i < n && text[i] === ',') {
        i++;
        continue;
      }
      break;
    }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') {
      i++;
      line++;
    }
    const blank = fields.length === 1 && fields[0] === '' && !error;
    if (!blank) out.push({ fields, line: start, ...(error ? { error } : {}) });
  }
  return out;
}

/** Reads a CSV file whose first row names the columns. */
export function readCsv(text: string, file: string): CsvResult {
  const all = rows(text);
  const problems: Problem[] = [];
  const head = all[0];
  if (!head || head.error) {
    return { header: [], records: [], problems: [{ severity: 'error', file, line: 1, message: `the CSV header cannot be read${head?.error ? `: ${head.error}` : ''}` }] };
  }
  const header = head.fields.map((f) => f.trim());
  const records: CsvRecord[] = [];
  for (const r of all.slice(1)) {
    if (r.error) {
      problems.push({ severity: 'error', file, line: r.line, message: `malformed CSV row: ${r.error}; the row is skipped` });
      continue;
    }
    if (r.fields.length !== header.length) {
      problems.push({ severity: 'error', file, line: r.line, message: `the CSV row has ${r.fields.length} field(s), the header ${header.length}; the row is skipped` });
      continue;
    }
    const value: Record<string, string> = {};
    header.forEach((h, k) => (value[h] = r.fields[k] as string));
    records.push({ value, line: r.line });
  }
  return { header, records, problems };
}
