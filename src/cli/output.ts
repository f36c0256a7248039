// How the CLI prints: every byte it writes to stdout or stderr goes through `out` / `err` here (a lint rule keeps
// `process.stdout.write` out of the other files), and problems, tables and JSON have one shape each. Dataset texts,
// folder names, model replies and server messages are hostile input: `termSafe` is the one function that makes them
// inert on a terminal, the call sites use it for single-line fields, and `out` / `err` apply it to everything as the
// last line of defence, so no escape sequence, carriage return or bidi override ever reaches the terminal raw. They
// also mask the API key (whole, or partly masked as servers echo it) in everything, text and JSON alike.
import { Redactor } from '../adapters/llm/redact';
import type { Problem } from '../core/model';

/**
 * Characters a terminal acts on: C0 controls (ESC starts CSI/OSC sequences: title changes, OSC 52 clipboard writes,
 * screen clears; CR overwrites the line), DEL, C1 controls (U+009B is a one-byte CSI), the bidirectional marks,
 * embeddings, overrides and isolates that reorder what is shown, and the Unicode line and paragraph separators.
 */
// eslint-disable-next-line no-control-regex
const LINE_UNSAFE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, but a block keeps its tabs and newlines. */
// eslint-disable-next-line no-control-regex
const BLOCK_UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** What JSON.stringify leaves raw that a terminal acts on (it escapes C0 itself). */
const JSON_UNSAFE = /[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function visible(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\t') return '\\t';
  if (c === '\r') return '\\r';
  const n = c.charCodeAt(0);
  return n < 0x100 ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
}

/**
 * Untrusted text made inert for a terminal: every control and bidi character shown as a visible escape (`\x1b`,
 * `\u202e`, `\r`). `line` (names, ids, titles, messages) also escapes tabs and newlines, so a name stays on its line;
 * `block` (a request, a rationale, a diff, a prompt) keeps them, and reads CRLF line ends as plain ends.
 */
export function termSafe(text: string, mode: 'line' | 'block' = 'line'): string {
  if (mode === 'line') return text.replace(LINE_UNSAFE, visible);
  return text.replace(/\r\n/g, '\n').replace(BLOCK_UNSAFE, visible);
}

/** termSafe for one field of a line: the short name call sites use. */
export const one = (text: string | number | undefined): string => termSafe(String(text ?? ''), 'line');

/** Where the CLI's output goes: the process's streams, or a test's capture. */
export interface OutputSink {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Streams whose reader has gone (`specweave show | head -2`): what is left for them is dropped. */
const closed = new Set<NodeJS.WriteStream>();

function write(stream: NodeJS.WriteStream, text: string): void {
  if (closed.has(stream) || stream.destroyed) return;
  stream.write(text);
}

const processSink: OutputSink = {
  stdout: (t) => write(process.stdout, t),
  stderr: (t) => write(process.stderr, t),
};

/**
 * A reader that closes the pipe early is normal use, not an error: the rest of the output is dropped and the command
 * finishes its work (a label is recorded, runs are stored) and exits with its usual code. Other stream errors are
 * left to the default handling.
 */
export function endQuietlyOnClosedPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
      closed.add(stream);
    });
  }
}
let sink: OutputSink = processSink;

/** Sends the CLI's output to `s` (tests); undefined restores the process's streams. */
export function setOutput(s: OutputSink | undefined): void {
  sink = s ?? processSink;
}

/** The secrets this process knows (the API key): masked in everything printed, whole or partly masked. */
const secrets = new Redactor();

/** Masks `secret` in all further output (the CLI registers OPENAI_API_KEY at start). */
export function maskInOutput(secret: string | undefined): void {
  secrets.add(secret?.trim());
}

function printable(text: string): string {
  return termSafe(secrets.maskSecrets(text), 'block');
}

/** Writes to stdout, the key masked and made inert (a block: our own tabs and newlines stay). */
export function out(text: string): void {
  sink.stdout(printable(text));
}

/** Writes to stderr, the key masked and made inert. */
export function err(text: string): void {
  sink.stderr(printable(text));
}

/**
 * Rewrites the current stderr line of a terminal (progress): our own `\r` and erase-line, then `text` made inert on
 * one line. Only for a TTY; the caller checks.
 */
export function errStatusLine(text: string, end = false): void {
  sink.stderr(`\r\x1b[K${termSafe(secrets.maskSecrets(text), 'line')}${end ? '\n' : ''}`);
}

/** `file:line: error: field: message`, the shape editors and CI logs link. */
export function formatProblem(p: Problem): string {
  const where = p.line !== undefined ? `${one(p.file)}:${p.line}` : one(p.file);
  return `${where}: ${p.severity}: ${p.field ? `${one(p.field)}: ` : ''}${one(p.message)}`;
}

/** A plain left-aligned table; numbers right-aligned; every cell one inert line. */
export function table(header: string[], rows: Array<Array<string | number>>): string {
  const cells = [header, ...rows.map((r) => r.map(one))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number'));
  return (
    cells
      .map((r) => r.map((c, i) => (numeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd())
      .join('\n') + '\n'
  );
}

/** JSON text whose every character a terminal acts on is a `\\u` escape: the same value for a parser, inert on `| cat`. */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function printJson(value: unknown): void {
  out(jsonText(value, 2) + '\n');
}
