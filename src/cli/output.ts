// How the CLI prints: every byte it writes to stdout or stderr goes through `out` / `err` here (a lint rule keeps
// `process.stdout.write` out of the other files), and problems, tables and JSON have one shape each.
import type { Problem } from '../core/model';

/** Where the CLI's output goes: the process's streams, or a test's capture. */
export interface OutputSink {
  stdout(text: string): void;
  stderr(text: string): void;
}

const processSink: OutputSink = {
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
};
let sink: OutputSink = processSink;

/** Sends the CLI's output to `s` (tests); undefined restores the process's streams. */
export function setOutput(s: OutputSink | undefined): void {
  sink = s ?? processSink;
}

/** Writes to stdout. */
export function out(text: string): void {
  sink.stdout(text);
}

/** Writes to stderr. */
export function err(text: string): void {
  sink.stderr(text);
}

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
  out(JSON.stringify(value, null, 2) + '\n');
}
