// Turning hostile text into something safe and readable as plain text. Everything here returns strings that are
// only ever put into the DOM with textContent; this module is about legibility and speed, not about escaping.

// CSI, OSC (terminated by BEL or ST, bounded so an unterminated one cannot swallow the text), the two-byte escapes,
// and C1 CSI (0x9b).
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]{0,1024}(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
// C0 controls other than tab and newline, DEL, C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
// Bidirectional overrides and isolates can make text read differently from what it is ("Trojan Source").
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

export function stripAnsi(s: string): string {
  return s.includes('\u001b') || s.includes('\u009b') ? s.replace(ANSI, '') : s;
}

/** Text with escapes removed, control characters shown as visible symbols, and line endings normalised. */
export function inertText(s: string): string {
  return stripAnsi(s)
    .replace(/\r\n?/g, '\n')
    .replace(CONTROLS, (c) => {
      const code = c.charCodeAt(0);
      if (code < 0x20) return String.fromCharCode(0x2400 + code);
      if (code === 0x7f) return '\u2421';
      return '\ufffd';
    })
    .replace(BIDI, '\ufffd');
}

/** One line of at most `max` characters, for rows and chips. */
export function oneLine(s: string, max: number): string {
  const t = inertText(s.length > max * 4 ? s.slice(0, max * 4) : s).replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}\u2026` : t;
}

/** At most `max` characters of `s`, saying how much was left out. */
export function capText(s: string, max: number): string {
  if (s.length <= max) return inertText(s);
  return `${inertText(s.slice(0, max))}\n\u2026 (${formatCount(s.length - max)} more characters)`;
}

/** 950, 12.3K, 4.5M */
export function formatCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}K`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export function formatCost(usd: number): string {
  if (!Number.isFinite(usd)) return '';
  if (usd === 0) return '$0';
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** Splits `text` around [start, start+length), clamped to the text. */
export function splitAt(text: string, start: number, length: number): { before: string; match: string; after: string } {
  const s = Math.max(0, Math.min(text.length, start));
  const e = Math.max(s, Math.min(text.length, start + length));
  return { before: text.slice(0, s), match: text.slice(s, e), after: text.slice(e) };
}

/** The message of an Error, else the value as a string (the webview's copy of src/core/errorText.ts: webview/ imports only src/protocol). */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The status line after a recorded action: `done` with the host's summary, without saying the same word twice
 * ("Approved" with "approved, waiving R1" reads "Approved, waiving R1.", not "Approved: approved, waiving R1.").
 */
export function doneText(done: string, summary: string): string {
  const s = oneLine(summary, 200).trim();
  const first = /^[\p{L}]+/u.exec(s)?.[0] ?? '';
  if (s === '') return `${done}.`;
  if (first.toLowerCase() === done.toLowerCase()) return `${done}${s.slice(first.length)}.`;
  return `${done}: ${s}.`;
}
