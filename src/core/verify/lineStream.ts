// Lines out of a byte stream with bounded memory: a test run's output is split into lines as it arrives, each line
// capped in length (the rest of an overlong line is dropped and counted), and each line is read the way a terminal
// shows it.

/** Longest line kept, in bytes; longer lines are cut (and never read as a test result). */
export const MAX_LINE_BYTES = 64 * 1024;

// eslint-disable-next-line no-control-regex
const ANSI_RE = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;

/**
 * A line as a terminal shows it: ANSI colour codes removed, a CRLF ending dropped, and of a line overwritten with bare
 * carriage returns (`progress 50%\rPASSED x`) what comes after the last one.
 */
export function terminalLine(raw: string): string {
  let l = raw.includes('\x1b') ? raw.replace(ANSI_RE, '') : raw;
  while (l.endsWith('\r')) l = l.slice(0, -1);
  const cr = l.lastIndexOf('\r');
  return cr >= 0 ? l.slice(cr + 1) : l;
}

const NL = 0x0a;

/** Splits bytes into lines (at `\n`) and decodes each as UTF-8; `cut` is set on a line longer than the cap. */
export class LineSplitter {
  private pending: Uint8Array[] = [];
  private pendingLen = 0;
  private cut = false;
  private readonly decoder = new TextDecoder('utf-8');
  /** Lines longer than the cap seen so far. */
  longLines = 0;

  constructor(
    private readonly onLine: (line: string, cut: boolean) => void,
    private readonly maxBytes = MAX_LINE_BYTES,
  ) {}

  write(chunk: Uint8Array): void {
    const first = chunk.indexOf(NL);
    if (first < 0) {
      this.keep(chunk);
      return;
    }
    // The line pending from earlier chunks ends here.
    this.keep(chunk.subarray(0, first));
    this.emit();
    // The complete lines inside this chunk: decoded at once (the chunk is in memory already), then split.
    const last = chunk.lastIndexOf(NL);
    if (last > first) {
      const text = this.decoder.decode(chunk.subarray(first + 1, last));
      let pos = 0;
      while (pos <= text.length) {
        const nl = text.indexOf('\n', pos);
        const end = nl < 0 ? text.length : nl;
        if (end > pos) {
          // Counted in UTF-16 units here, close enough to bytes for a cap.
          if (end - pos > this.maxBytes) {
            this.longLines++;
            this.onLine(text.slice(pos, pos + this.maxBytes), true);
          } else this.onLine(text.slice(pos, end), false);
        }
        if (nl < 0) break;
        pos = nl + 1;
      }
    }
    this.keep(chunk.subarray(last + 1));
  }

  /** Flushes a last line without a line break. */
  end(): void {
    if (this.pendingLen > 0 || this.cut) this.emit();
  }

  private keep(part: Uint8Array): void {
    if (part.length === 0) return;
    const room = this.maxBytes - this.pendingLen;
    if (part.length > room) this.cut = true;
    if (room <= 0) return;
    // Copy: the engine reuses its buffers.
    this.pending.push(part.slice(0, room));
    this.pendingLen += Math.min(room, part.length);
  }

  private emit(): void {
    // Empty lines say nothing; skipping them keeps a flood of line breaks cheap.
    if (this.pendingLen === 0 && !this.cut) return;
    let bytes: Uint8Array;
    if (this.pending.length === 1) bytes = this.pending[0] as Uint8Array;
    else {
      bytes = new Uint8Array(this.pendingLen);
      let at = 0;
      for (const p of this.pending) {
        bytes.set(p, at);
        at += p.length;
      }
    }
    const cut = this.cut;
    if (cut) this.longLines++;
    this.pending = [];
    this.pendingLen = 0;
    this.cut = false;
    this.onLine(this.decoder.decode(bytes), cut);
  }
}

/** Calls `onLine` for every line of a text already in memory, with the same cap (in UTF-16 units, close enough). */
export function eachLine(text: string, onLine: (line: string, cut: boolean) => void, maxChars = MAX_LINE_BYTES): number {
  let long = 0;
  let pos = 0;
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 ? text.length : nl;
    if (nl < 0 && pos === text.length) break;
    const cut = end - pos > maxChars;
    if (cut) long++;
    onLine(text.slice(pos, cut ? pos + maxChars : end), cut);
    pos = end + 1;
  }
  return long;
}
