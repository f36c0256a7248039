// An incremental JSON scanner: fed byte chunks of any size, it walks the structure of one or more JSON values
// (a document, or JSONL lines) and hands out only the parts a policy asks for, each as its own small JSON.parse.
// Big arrays of a trajectory are streamed element by element; members nobody needs are skipped without parsing.
// A value asked for that grows past the size cap, or nests deeper than the depth cap, is scanned past without being
// kept (memory stays bounded by the cap) and reported as dropped. Pure: no I/O, no Node APIs (Uint8Array +
// TextDecoder only).

import { jsonErrorAt } from './jsonValidate';
import { errorText } from '../errorText';

export type PathSeg = string | number;

/**
 * What to do with the value at a path.
 * - `skip`: scan past it; nothing is parsed or delivered.
 * - `value`: parse it whole and deliver it.
 * - `descend`: walk into an object or array and ask the policy again for each member or element (a primitive
 *   found here is delivered as a value).
 * - a `PickSpec`: parse only the listed members of an object and deliver them as one object.
 */
export type ScanAction = 'skip' | 'value' | 'descend' | PickSpec;

export interface PickSpec {
  pick: ReadonlySet<string>;
}

/** Where a value sits in the input: 1-based line of its first byte and its byte range [start, end). */
export interface ValueLocation {
  line: number;
  start: number;
  end: number;
}

export interface ScanError {
  message: string;
  /** 1-based line. */
  line: number;
  /** Byte offset in the input. */
  offset: number;
  /** Index of the top-level value (document / JSONL line) it happened in. */
  doc: number;
  /** The input ended in the middle of a value. */
  truncated: boolean;
}

export interface ScanHandler {
  policy(path: readonly PathSeg[], doc: number): ScanAction;
  value(path: readonly PathSeg[], value: unknown, loc: ValueLocation, doc: number): void;
  /** A `descend` container at `path` ended. */
  exit?(path: readonly PathSeg[], loc: ValueLocation, doc: number): void;
  documentStart?(doc: number, loc: { line: number; start: number }): void;
  documentEnd?(doc: number, loc: ValueLocation): void;
  /** Return `resync` to skip to the next line and go on (JSONL), `stop` to ignore the rest of the input. */
  error(err: ScanError): 'stop' | 'resync';
  /**
   * A value the policy asked for was over a cap and was scanned past instead: `size` (more than `maxValueBytes`)
   * or `depth` (nested deeper than `maxDepth`). Without this handler such a value is an error.
   */
  dropped?(path: readonly PathSeg[], loc: ValueLocation, why: 'size' | 'depth', doc: number): void;
}

export interface ScannerLimits {
  /** Bytes one delivered value (or member name) may have; default 64 MiB. */
  maxValueBytes?: number;
  /** Nesting one delivered value may have; default 256 (MAX_JSON_DEPTH). */
  maxDepth?: number;
}

export const DEFAULT_MAX_VALUE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_DEPTH = 256;

const QUOTE = 0x22;
const BSL = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const NL = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

// Frame states.
const OBJ_KEY_OR_END = 0;
const OBJ_KEY = 1;
const OBJ_COLON = 2;
const OBJ_VALUE = 3;
const OBJ_COMMA_OR_END = 4;
const ARR_VALUE_OR_END = 5;
const ARR_VALUE = 6;
const ARR_COMMA_OR_END = 7;

// Scanner modes.
const M_STRUCT = 0;
const M_KEY = 1;
const M_RAW_STRING = 2;
const M_RAW_CONTAINER = 3;
const M_RAW_PRIMITIVE = 4;
const M_SKIP_LINE = 5;
const M_STOPPED = 6;

interface Frame {
  isObject: boolean;
  path: PathSeg[];
  state: number;
  index: number;
  key: string;
  pick: ReadonlySet<string> | undefined;
  acc: Record<string, unknown> | undefined;
  start: number;
  line: number;
}

const decoder = new TextDecoder('utf-8');

function isPrimitiveStart(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x74 || c === 0x66 || c === 0x6e;
}

function isPrimitiveEnd(c: number): boolean {
  return c === COMMA || c === RBRACE || c === RBRACKET || c === SPACE || c === NL || c === CR || c === TAB;
}

function describeByte(c: number): string {
  if (c >= 0x21 && c <= 0x7e) return `'${String.fromCharCode(c)}'`;
  return `byte 0x${c.toString(16).padStart(2, '0')}`;
}

function concatParts(parts: Uint8Array[], last: Uint8Array): Uint8Array {
  if (parts.length === 0) return last;
  let total = last.length;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  out.set(last, at);
  return out;
}

export class JsonScanner {
  private readonly handler: ScanHandler;
  private stack: Frame[] = [];
  private mode = M_STRUCT;
  /** Bytes consumed before the current chunk. */
  private base = 0;
  private line = 1;
  private bomSeen = 0;
  private started = false;

  private doc = 0;
  private inDoc = false;
  private docStart = 0;
  private docLine = 1;
  private lastDocEndLine = 0;
  private lineMode = false;
  private firstDocSingleLine = false;

  // Raw value state (capture or skip).
  private rawCapture = false;
  private rawDepth = 0;
  private rawInString = false;
  private rawEscape = false;
  private rawStart = 0;
  private rawLine = 1;
  private rawPath: PathSeg[] = [];
  private parts: Uint8Array[] = [];
  /** Chunk-relative start of the capture in the current chunk. */
  private capFrom = 0;

  /** Bytes held in `parts` for the value (or key) being captured. */
  private partsBytes = 0;
  /** Why the value being scanned is no longer captured (it went over a cap). */
  private rawDropped: 'size' | 'depth' | undefined;
  private readonly maxValueBytes: number;
  private readonly maxDepth: number;

  // Key state.
  private keyEscape = false;
  private keyHasEscape = false;

  /** Chunk-relative position of the next newline, for lineMode checks inside strings. */
  private nlPos = -1;
  private buf: Uint8Array = new Uint8Array(0);

  constructor(handler: ScanHandler, limits: ScannerLimits = {}) {
    this.handler = handler;
    this.maxValueBytes = limits.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES;
    this.maxDepth = limits.maxDepth ?? DEFAULT_MAX_DEPTH;
  }

  /** True once the input has shown itself to be JSONL (one value per line). */
  get isLineMode(): boolean {
    return this.lineMode;
  }

  get documents(): number {
    return this.doc;
  }

  push(chunk: Uint8Array): void {
    if (this.mode === M_STOPPED || chunk.length === 0) return;
    let i = 0;
    if (this.bomSeen < 3 && !this.started) {
      const bom = [0xef, 0xbb, 0xbf];
      while (this.bomSeen < 3 && i < chunk.length && chunk[i] === bom[this.bomSeen]) {
        this.bomSeen++;
        i++;
      }
      if (i === chunk.length && this.bomSeen < 3) {
        this.base += chunk.length;
        return;
      }
      if (this.bomSeen > 0 && this.bomSeen < 3) {
        this.started = true;
        this.fail('the file starts with an incomplete byte order mark', this.base + i, false);
        this.base += chunk.length;
        return;
      }
      this.started = true;
    }
    this.buf = chunk;
    this.nlPos = -1;
    this.capFrom = i;
    this.run(i);
    if (this.mode === M_RAW_CONTAINER || this.mode === M_RAW_STRING || this.mode === M_RAW_PRIMITIVE || this.mode === M_KEY) {
      if (this.rawCapture || this.mode === M_KEY) {
        const rest = chunk.subarray(this.capFrom);
        if (this.partsBytes + rest.length > this.maxValueBytes) {
          if (this.mode === M_KEY) {
            this.fail(`a member name longer than ${this.maxValueBytes} bytes`, this.base + this.capFrom, false);
          } else this.dropCapture('size');
        } else {
          this.parts.push(rest);
          this.partsBytes += rest.length;
        }
      }
    }
    this.base += chunk.length;
    this.buf = new Uint8Array(0);
  }

  private isStopped(): boolean {
    return this.mode === M_STOPPED || this.mode === M_SKIP_LINE;
  }

  /** Signals the end of input; reports a truncated value if one is open. */
  end(): void {
    if (this.mode === M_STOPPED || this.mode === M_SKIP_LINE) return;
    if (this.mode === M_RAW_PRIMITIVE) {
      // A number or literal at the very end of the input ends there.
      this.buf = new Uint8Array(0);
      this.capFrom = 0;
      this.finishRaw(0);
      if (this.isStopped()) return;
    }
    if (this.inDoc || this.mode !== M_STRUCT) {
      const err: ScanError = {
        message: 'the input ends in the middle of a JSON value (truncated file?)',
        line: this.line,
        offset: this.base,
        doc: this.doc,
        truncated: true,
      };
      this.mode = M_STOPPED;
      this.handler.error(err);
    }
  }

  private run(from: number): void {
    const buf = this.buf;
    const n = buf.length;
    let i = from;
    while (i < n) {
      switch (this.mode) {
        case M_STRUCT:
          i = this.struct(i);
          break;
        case M_KEY:
          i = this.keyScan(i);
          break;
        case M_RAW_STRING:
          i = this.rawString(i);
          break;
        case M_RAW_CONTAINER:
          i = this.rawContainer(i);
          break;
        case M_RAW_PRIMITIVE:
          i = this.rawPrimitive(i);
          break;
        case M_SKIP_LINE: {
          const nl = buf.indexOf(NL, i);
          if (nl < 0) return;
          this.line++;
          i = nl + 1;
          this.mode = M_STRUCT;
          this.inDoc = false;
          break;
        }
        default:
          return;
      }
    }
  }

  // ---- structural level -------------------------------------------------------------------------------------

  private struct(from: number): number {
    const buf = this.buf;
    const n = buf.length;
    let i = from;
    while (i < n) {
      const c = buf[i]!;
      if (c === NL) {
        this.line++;
        if (this.lineMode && this.inDoc) {
          this.fail(`line ${this.docLine} ends before its JSON value is complete`, this.base + i, false, this.docLine);
          return this.afterFail(i + 1, true);
        }
        i++;
        continue;
      }
      if (c === SPACE || c === CR || c === TAB) {
        i++;
        continue;
      }
      const top = this.stack.length > 0 ? this.stack[this.stack.length - 1]! : undefined;
      if (top === undefined) {
        // Between top-level values.
        if (this.doc === 1 && this.firstDocSingleLine && this.line > this.lastDocEndLine) this.lineMode = true;
        this.inDoc = true;
        this.docStart = this.base + i;
        this.docLine = this.line;
        this.handler.documentStart?.(this.doc, { line: this.line, start: this.docStart });
        const action = this.handler.policy([], this.doc);
        const next = this.beginValue(i, [], action);
        if (next < 0) return this.afterFail(i + 1, false);
        return next;
      }
      switch (top.state) {
        case OBJ_KEY_OR_END:
        case OBJ_KEY:
          if (c === QUOTE) {
            this.mode = M_KEY;
            this.keyEscape = false;
            this.keyHasEscape = false;
            this.parts = [];
            this.partsBytes = 0;
            this.capFrom = i + 1;
            return i + 1;
          }
          if (c === RBRACE && top.state === OBJ_KEY_OR_END) {
            this.closeFrame(i);
            i++;
            if (this.mode !== M_STRUCT) return i;
            continue;
          }
          this.fail(`expected a member name in quotes, found ${describeByte(c)}`, this.base + i, false);
          return this.afterFail(i + 1, false);
        case OBJ_COLON:
          if (c === COLON) {
            top.state = OBJ_VALUE;
            i++;
            continue;
          }
          this.fail(`expected ':' after member name "${top.key}", found ${describeByte(c)}`, this.base + i, false);
          return this.afterFail(i + 1, false);
        case OBJ_VALUE:
        case ARR_VALUE:
        case ARR_VALUE_OR_END: {
          if (c === RBRACKET && top.state === ARR_VALUE_OR_END) {
            this.closeFrame(i);
            i++;
            if (this.mode !== M_STRUCT) return i;
            continue;
          }
          let path: PathSeg[];
          let action: ScanAction;
          if (top.isObject) {
            path = top.path.concat(top.key);
            action = top.pick !== undefined ? (top.pick.has(top.key) ? 'value' : 'skip') : this.handler.policy(path, this.doc);
          } else {
            path = top.path.concat(top.index);
            action = this.handler.policy(path, this.doc);
          }
          const next = this.beginValue(i, path, action);
          if (next < 0) return this.afterFail(i + 1, false);
          return next;
        }
        case OBJ_COMMA_OR_END:
        case ARR_COMMA_OR_END:
          if (c === COMMA) {
            top.state = top.isObject ? OBJ_KEY : ARR_VALUE;
            i++;
            continue;
          }
          if ((c === RBRACE && top.isObject) || (c === RBRACKET && !top.isObject)) {
            this.closeFrame(i);
            i++;
            if (this.mode !== M_STRUCT) return i;
            continue;
          }
          this.fail(`expected ',' or '${top.isObject ? '}' : ']'}', found ${describeByte(c)}`, this.base + i, false);
          return this.afterFail(i + 1, false);
        default:
          return n;
      }
    }
    return i;
  }

  /** Starts the value whose first byte is at `i`; returns the next position, or -1 after reporting an error. */
  private beginValue(i: number, path: PathSeg[], action: ScanAction): number {
    const c = this.buf[i]!;
    const wantsStructure = action === 'descend' || typeof action === 'object';
    if (wantsStructure && (c === LBRACE || c === LBRACKET)) {
      const isObject = c === LBRACE;
      const pick = typeof action === 'object' && isObject ? action.pick : undefined;
      if (typeof action === 'object' && !isObject) return this.beginRaw(i, path, true);
      this.stack.push({
        isObject,
        path,
        state: isObject ? OBJ_KEY_OR_END : ARR_VALUE_OR_END,
        index: 0,
        key: '',
        pick,
        acc: pick !== undefined ? {} : undefined,
        start: this.base + i,
        line: this.line,
      });
      return i + 1;
    }
    return this.beginRaw(i, path, action !== 'skip');
  }

  private beginRaw(i: number, path: PathSeg[], capture: boolean): number {
    const c = this.buf[i]!;
    this.rawCapture = capture;
    this.rawDropped = undefined;
    this.rawPath = path;
    this.rawStart = this.base + i;
    this.rawLine = this.line;
    this.parts = [];
    this.partsBytes = 0;
    this.capFrom = i;
    if (c === QUOTE) {
      this.mode = M_RAW_STRING;
      this.rawInString = true;
      this.rawEscape = false;
      return i + 1;
    }
    if (c === LBRACE || c === LBRACKET) {
      this.mode = M_RAW_CONTAINER;
      this.rawDepth = 1;
      this.rawInString = false;
      this.rawEscape = false;
      return i + 1;
    }
    if (isPrimitiveStart(c)) {
      this.mode = M_RAW_PRIMITIVE;
      return i + 1;
    }
    this.fail(`expected a JSON value, found ${describeByte(c)}`, this.base + i, false);
    return -1;
  }

  private closeFrame(i: number): void {
    const frame = this.stack.pop()!;
    const loc: ValueLocation = { line: frame.line, start: frame.start, end: this.base + i + 1 };
    if (frame.acc !== undefined) this.deliver(frame.path, frame.acc, loc);
    else this.handler.exit?.(frame.path, loc, this.doc);
    this.afterValue(i + 1);
  }

  /** Bookkeeping after a value ended just before chunk position `next`. */
  private afterValue(next: number): void {
    if (this.mode === M_STOPPED || this.mode === M_SKIP_LINE) return;
    const top = this.stack.length > 0 ? this.stack[this.stack.length - 1]! : undefined;
    if (top === undefined) {
      const loc: ValueLocation = { line: this.docLine, start: this.docStart, end: this.base + next };
      if (this.doc === 0) this.firstDocSingleLine = this.line === this.docLine;
      this.lastDocEndLine = this.line;
      this.inDoc = false;
      this.handler.documentEnd?.(this.doc, loc);
      this.doc++;
      return;
    }
    if (top.isObject) top.state = OBJ_COMMA_OR_END;
    else {
      top.index++;
      top.state = ARR_COMMA_OR_END;
    }
  }

  private deliver(path: PathSeg[], value: unknown, loc: ValueLocation): void {
    const top = this.stack.length > 0 ? this.stack[this.stack.length - 1]! : undefined;
    if (top !== undefined && top.acc !== undefined) {
      top.acc[top.key] = value;
      return;
    }
    this.handler.value(path, value, loc, this.doc);
  }

  // ---- keys ---------------------------------------------------------------------------------------------------

  private keyScan(from: number): number {
    const buf = this.buf;
    const n = buf.length;
    let i = from;
    if (this.keyEscape) {
      if (i >= n) return n;
      this.keyEscape = false;
      i++;
    }
    while (i < n) {
      const c = buf[i]!;
      if (c === BSL) {
        this.keyHasEscape = true;
        if (i + 1 >= n) {
          this.keyEscape = true;
          return n;
        }
        i += 2;
        continue;
      }
      if (c === QUOTE) {
        if (this.partsBytes + (i - this.capFrom) > this.maxValueBytes) {
          this.fail(`a member name longer than ${this.maxValueBytes} bytes`, this.base + i, false);
          return this.afterFail(i + 1, false);
        }
        const raw = concatParts(this.parts, buf.subarray(this.capFrom, i));
        this.parts = [];
        this.partsBytes = 0;
        let key: string;
        if (this.keyHasEscape) {
          const text = '"' + decoder.decode(raw) + '"';
          try {
            key = JSON.parse(text) as string;
          } catch {
            this.fail('malformed member name', this.base + i, false);
            return this.afterFail(i + 1, false);
          }
        } else {
          key = decoder.decode(raw);
        }
        const top = this.stack[this.stack.length - 1]!;
        top.key = key;
        top.state = OBJ_COLON;
        this.mode = M_STRUCT;
        return i + 1;
      }
      if (c === NL) {
        this.fail('a member name runs past the end of its line', this.base + i, false);
        return this.afterFail(i, false);
      }
      i++;
    }
    return n;
  }

  // ---- raw values (captured or skipped) ------------------------------------------------------------------------

  /** Finds the end of a string starting (inside the string) at `i`; returns the index after the closing quote, or -1. */
  private stringEnd(i: number): number {
    const buf = this.buf;
    const n = buf.length;
    if (this.rawEscape) {
      this.rawEscape = false;
      if (i >= n) {
        this.rawEscape = true;
        return -1;
      }
      i++;
    }
    for (;;) {
      const q = buf.indexOf(QUOTE, i);
      if (q < 0) {
        let j = n - 1;
        let count = 0;
        while (j >= i && buf[j] === BSL) {
          count++;
          j--;
        }
        this.rawEscape = (count & 1) === 1;
        return -1;
      }
      let j = q - 1;
      let count = 0;
      while (j >= i && buf[j] === BSL) {
        count++;
        j--;
      }
      if ((count & 1) === 0) return q + 1;
      i = q + 1;
    }
  }

  /** In JSONL, a raw newline inside a string means the line is broken. */
  private newlineBefore(from: number, to: number): boolean {
    if (this.nlPos < from) {
      const k = this.buf.indexOf(NL, from);
      this.nlPos = k < 0 ? this.buf.length : k;
    }
    return this.nlPos < to;
  }

  private rawString(from: number): number {
    const end = this.stringEnd(from);
    const n = this.buf.length;
    if (this.lineMode && this.newlineBefore(from, end < 0 ? n : end)) return this.brokenLine();
    if (end < 0) return n;
    this.rawInString = false;
    this.finishRaw(end);
    return end;
  }

  private rawContainer(from: number): number {
    const buf = this.buf;
    const n = buf.length;
    let i = from;
    if (this.rawInString) {
      const end = this.stringEnd(i);
      if (this.lineMode && this.newlineBefore(i, end < 0 ? n : end)) return this.brokenLine();
      if (end < 0) return n;
      this.rawInString = false;
      i = end;
    }
    let depth = this.rawDepth;
    while (i < n) {
      const c = buf[i]!;
      if (c === QUOTE) {
        const end = this.stringEnd(i + 1);
        if (this.lineMode && this.newlineBefore(i + 1, end < 0 ? n : end)) return this.brokenLine();
        if (end < 0) {
          this.rawInString = true;
          this.rawDepth = depth;
          return n;
        }
        i = end;
        continue;
      }
      if (c === LBRACE || c === LBRACKET) {
        if (++depth > this.maxDepth && this.rawCapture) this.dropCapture('depth');
      } else if (c === RBRACE || c === RBRACKET) {
        depth--;
        if (depth === 0) {
          this.rawDepth = 0;
          this.finishRaw(i + 1);
          return i + 1;
        }
      } else if (c === NL) {
        if (this.lineMode) {
          this.nlPos = i;
          return this.brokenLine();
        }
        this.line++;
      }
      i++;
    }
    this.rawDepth = depth;
    return n;
  }

  private rawPrimitive(from: number): number {
    const buf = this.buf;
    const n = buf.length;
    let i = from;
    while (i < n && !isPrimitiveEnd(buf[i]!)) i++;
    if (i === n) return n;
    this.finishRaw(i);
    return i;
  }

  private brokenLine(): number {
    const at = this.nlPos >= 0 ? this.nlPos : this.buf.length;
    this.fail(`line ${this.docLine} ends before its JSON value is complete`, this.base + at, false, this.docLine);
    if (this.mode === M_STOPPED) return this.buf.length;
    // Resume right after the newline that broke the line.
    this.line++;
    this.mode = M_STRUCT;
    this.inDoc = false;
    return at + 1;
  }

  /** Stops keeping the value being captured: it is scanned to its end and reported as dropped. */
  private dropCapture(why: 'size' | 'depth'): void {
    this.rawCapture = false;
    this.rawDropped = why;
    this.parts = [];
    this.partsBytes = 0;
  }

  /** The raw value ended just before chunk position `end`. */
  private finishRaw(end: number): void {
    this.mode = M_STRUCT;
    const loc: ValueLocation = { line: this.rawLine, start: this.rawStart, end: this.base + end };
    if (this.rawCapture && this.partsBytes + (end - this.capFrom) > this.maxValueBytes) this.dropCapture('size');
    if (this.rawDropped !== undefined) {
      const why = this.rawDropped;
      this.rawDropped = undefined;
      if (this.handler.dropped === undefined) {
        this.fail(why === 'size' ? `a value larger than ${this.maxValueBytes} bytes` : `a value nested deeper than ${this.maxDepth} levels`, this.rawStart, false, this.rawLine);
        return;
      }
      this.handler.dropped(this.rawPath, loc, why, this.doc);
      this.afterValue(end);
      return;
    }
    if (this.rawCapture) {
      const bytes = concatParts(this.parts, this.buf.subarray(this.capFrom, end));
      this.parts = [];
      const text = decoder.decode(bytes);
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        const at = jsonErrorAt(text);
        let line = this.rawLine;
        let offset = this.rawStart;
        let message = errorText(e);
        if (at !== undefined) {
          for (let k = 0; k < at.index; k++) if (text.charCodeAt(k) === NL) line++;
          offset += at.index;
          message = at.message;
        }
        if (message.length > 200) message = message.slice(0, 200) + '…';
        this.fail(message, offset, false, line);
        return;
      }
      this.deliver(this.rawPath, value, loc);
    }
    this.parts = [];
    this.partsBytes = 0;
    this.afterValue(end);
  }

  // ---- errors -------------------------------------------------------------------------------------------------

  private fail(message: string, offset: number, truncated: boolean, line = this.line): void {
    const decision = this.handler.error({ message, line, offset, doc: this.doc, truncated });
    this.stack = [];
    this.parts = [];
    this.partsBytes = 0;
    this.rawDropped = undefined;
    if (decision === 'stop') {
      this.mode = M_STOPPED;
    } else {
      this.mode = M_SKIP_LINE;
      this.doc++;
    }
  }

  /** Continues after `fail`: when resyncing, from `next` (skipping to the next newline unless `atLineStart`). */
  private afterFail(next: number, atLineStart: boolean): number {
    if (this.mode === M_STOPPED) return this.buf.length;
    if (atLineStart) {
      this.mode = M_STRUCT;
      this.inDoc = false;
    }
    return next;
  }
}
