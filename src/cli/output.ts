// How the CLI prints problems, tables and JSON.
import type { Problem } from '../core/model';

/** `file:line: error: field: message`, the shape editors and CI logs link. */
export function formatProblem(p: Problem): string {
  const where = p.line !== undefined ? `${p.file}:${p.line}` : p.file;
  return `${where}: ${p.severity}: ${p.field ? `${p.field}: ` : ''}${p.message}`;
}

/** A plain left-aligned table; numbers right-aligned. */
export function table(header: string[], rows: Array<Array<string | number>>): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number'));
  return (
    cells
      .map((r) => r.map((c, i) => (numeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd())
      .join('\n') + '\n'
  );
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}
