// Byte-exact capture of a container's output: the engine's multiplexed stream split into stdout and stderr, each
// kept as its first and last N bytes with a count of what was cut in between. What is kept is for display: grading
// reads every byte as it passes (the `onAfter` / sink callbacks feed core's TestOutputStream).

export const DEFAULT_KEEP_BYTES = 1024 * 1024;

/** Keeps the first `keep` bytes and the last `keep` bytes of everything written. */
export class HeadTailCapture {
  private readonly head: Buffer[] = [];
  private headLen = 0;
  private tail: Buffer[] = [];
  private tailLen = 0;
  private total = 0;

  constructor(private readonly keep = DEFAULT_KEEP_BYTES) {}

  write(chunk: Buffer): void {
    this.total += chunk.length;
    let c = chunk;
    if (this.headLen < this.keep) {
      const take = Math.min(this.keep - this.headLen, c.length);
      this.head.push(c.subarray(0, take));
      this.headLen += take;
      c = c.subarray(take);
    }
    if (c.length === 0) return;
    // Copy: the engine's buffers may be reused, and only a window of them is kept.
    this.tail.push(Buffer.from(c));
    this.tailLen += c.length;
    while (this.tail.length > 1 && this.tailLen - (this.tail[0] as Buffer).length >= this.keep) {
      this.tailLen -= (this.tail.shift() as Buffer).length;
    }
  }

  get totalBytes(): number {
    return this.total;
  }

  result(): { head: Buffer; tail: Buffer; totalBytes: number; cutBytes: number } {
    const head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.tail);
    if (tail.length > this.keep) tail = tail.subarray(tail.length - this.keep);
    return { head, tail, totalBytes: this.total, cutBytes: this.total - head.length - tail.length };
  }
}

/**
 * Splits a stream at the first occurrence of a marker: what comes before (the driver's own report, bounded) is
 * kept whole; what comes after goes to a HeadTailCapture. Only the first occurrence counts, and the marker is
 * printed before the tested code starts, so the tested code cannot forge the split.
 */
export class MarkerSplitCapture {
  private pre: Buffer[] = [];
  private preLen = 0;
  private found = false;
  readonly after: HeadTailCapture;

  constructor(
    private readonly marker: Buffer,
    keep = DEFAULT_KEEP_BYTES,
    private readonly maxPrelude = 256 * 1024,
    private readonly onAfter?: (chunk: Buffer) => void,
  ) {
    this.after = new HeadTailCapture(keep);
  }

  write(chunk: Buffer): void {
    if (this.found) {
      this.after.write(chunk);
      this.onAfter?.(chunk);
      return;
    }
    this.pre.push(Buffer.from(chunk));
    this.preLen += chunk.length;
    const all = Buffer.concat(this.pre);
    const at = all.indexOf(this.marker);
    if (at >= 0) {
      this.found = true;
      this.pre = [all.subarray(0, at)];
      this.preLen = at;
      const rest = all.subarray(at + this.marker.length);
      if (rest.length > 0) {
        this.after.write(rest);
        this.onAfter?.(rest);
      }
      return;
    }
    this.pre = [all];
    if (this.preLen > this.maxPrelude) {
      // No marker where one should be: keep the start for diagnosis and count the rest as output.
      this.found = true;
      this.pre = [all.subarray(0, this.maxPrelude)];
      const rest = all.subarray(this.maxPrelude);
      this.preLen = this.maxPrelude;
      this.after.write(rest);
      this.onAfter?.(rest);
    }
  }

  get markerSeen(): boolean {
    return this.found;
  }

  prelude(): Buffer {
    return Buffer.concat(this.pre);
  }
}

export interface StreamSink {
  write(chunk: Buffer): void;
}

/**
 * Demultiplexes the engine's attach stream (8-byte frame headers: stream type, 3 zero bytes, big-endian length).
 * Unlike dockerode's demuxStream it never falls back to passing bytes through on a bad header: it stops and says so.
 */
export class Demuxer {
  private pending: Buffer[] = [];
  private pendingLen = 0;
  private frameType = -1;
  private frameLeft = 0;
  error?: string;

  constructor(
    private readonly stdout: StreamSink,
    private readonly stderr: StreamSink,
  ) {}

  write(chunk: Buffer): void {
    if (this.error) return;
    let c = chunk;
    while (c.length > 0) {
      if (this.frameLeft > 0) {
        const take = Math.min(this.frameLeft, c.length);
        const part = c.subarray(0, take);
        if (this.frameType === 2) this.stderr.write(part);
        else if (this.frameType === 1) this.stdout.write(part);
        this.frameLeft -= take;
        c = c.subarray(take);
        continue;
      }
      const need = 8 - this.pendingLen;
      const take = Math.min(need, c.length);
      this.pending.push(c.subarray(0, take));
      this.pendingLen += take;
      c = c.subarray(take);
      if (this.pendingLen < 8) return;
      const header = Buffer.concat(this.pending);
      this.pending = [];
      this.pendingLen = 0;
      const type = header[0] as number;
      if (type > 2 || header[1] !== 0 || header[2] !== 0 || header[3] !== 0) {
        this.error = `unexpected frame header ${header.toString('hex')}`;
        return;
      }
      this.frameType = type;
      this.frameLeft = header.readUInt32BE(4);
    }
  }
}
