// Making hostile text inert and bounded for display: trajectories and test output carry terminal escapes, control
// characters and bytes that are not text at all.

// CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), and the two-byte ESC sequences; also the 8-bit CSI (U+009B).
// Matching control characters is the point of these expressions.
/* eslint-disable no-control-regex */
const ANSI_RE = /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[PX^_][^\u001b]*(?:\u001b\\)?|\u001b[ -/]*[0-~]?/g;
// C0 controls except TAB and LF, DEL, and the C1 range.
const CONTROL_RE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const HAS_CONTROL_RE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/* eslint-enable no-control-regex */

/** Removes ANSI escape sequences and control characters (keeping tabs and newlines); CR LF and lone CR become LF. */
export function cleanText(text: string): string {
  // Fast path: most steps have nothing to remove, and a 10 MB copy for nothing costs.
  if (!HAS_CONTROL_RE.test(text)) return text;
  return text.replace(/\r\n?/g, '\n').replace(ANSI_RE, '').replace(CONTROL_RE, '');
}

/** Number of lines of a text (a trailing newline does not start a new line). */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  let i = text.indexOf('\n');
  while (i !== -1) {
    if (i !== text.length - 1) n++;
    i = text.indexOf('\n', i + 1);
  }
  return n;
}

/** The first `max` characters, not splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return text.slice(0, end);
}

/** Size in bytes of a value as JSON, as it travels to the webview. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}
