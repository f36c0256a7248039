// The review log on disk, `curation/events.jsonl`: appends under a cross-process lock, one write() per batch on an
// O_APPEND descriptor, acknowledged only after fsync (by default an asynchronous one, still under the lock, so the
// process goes on with other work meanwhile and what it queues then goes into the next append); reads that keep every good line and catch up on what other
// writers appended since. Reads write nothing: bad lines are copied aside into `events.rejected.jsonl` (appended,
// never rewritten) by the next writer, under the lock. No file of the log is read or written through a symlink that
// leads out of the dataset, and none is written through any symlink (datasetPaths.ts).
import { randomBytes, randomInt, createHash } from 'node:crypto';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Problem } from '../../core/model';
import { SYMLINK_OUT_MESSAGE } from '../../core/paths';
import type { EventDraft, ReviewEvent } from '../../core/review/events';
import { formatEventLine, parseEventLine } from '../../core/review/events';
import { encodeEventId, EVENT_ID_RANDOM_BYTES, isoTime } from '../../core/review/eventId';
import { APPEND_FLAGS, DatasetFileError, notRegularFile, READ_FLAGS, resolveForRead, resolveForWrite } from './datasetPaths';
import { errnoCode } from '../../core/errorText';

export const CURATION_DIR = 'curation';
export const LOG_FILE = 'events.jsonl';
export const REJECTED_FILE = 'events.rejected.jsonl';
export const LOCK_FILE = 'events.lock';

/** The part of node:fs the log uses, so tests can make a disk fail. */
export type LogFs = Pick<
  typeof nodeFs,
  | 'openSync'
  | 'closeSync'
  | 'writeSync'
  | 'fsyncSync'
  | 'fsync'
  | 'fstatSync'
  | 'ftruncateSync'
  | 'readSync'
  | 'readFileSync'
  | 'statSync'
  | 'mkdirSync'
  | 'unlinkSync'
  | 'writeFileSync'
>;

export type ReviewLogErrorCode = 'disk_full' | 'io' | 'locked';

/** An append that did not happen (nothing acknowledged), or a lock that could not be had. */
export class ReviewLogError extends Error {
  constructor(
    readonly code: ReviewLogErrorCode,
    readonly file: string,
    message: string,
    readonly errno?: string,
  ) {
    super(`${file}: ${message}`);
  }
}

/** A line that is not a valid event: kept in the log, copied aside, reported. */
export interface RejectedLine {
  /** 1-based line in the log. */
  line: number;
  reason: 'malformed' | 'checksum' | 'invalid' | 'torn';
  message: string;
  text: string;
  /** Base64 of the raw bytes when they are not valid UTF-8. */
  base64?: string;
}

export interface LogRead {
  /** Events read by this call (the whole log after `load` or a reset; the new ones after `refresh`). */
  events: ReviewEvent[];
  rejected: RejectedLine[];
  problems: Problem[];
  /** The file was replaced or changed before the point already read (git checkout, merge): `events` is all of it. */
  reset: boolean;
}

export interface ReviewLogOptions {
  fs?: LogFs;
  /** How the file is named in problems (e.g. dataset-relative `curation/events.jsonl`). */
  label?: string;
  /** Give up waiting for another writer's lock after this long (default 10 s). */
  lockTimeoutMs?: number;
  /** A lock older than this whose holder cannot be checked (another host) is stale (default 30 s). */
  staleLockMs?: number;
  now?: () => number;
  random?: (n: number) => Uint8Array;
  /** The dataset the log belongs to (default: the folder above the log's folder): its files stay inside it. */
  root?: string;
  /**
   * How an append waits for its fsync, holding the lock either way and acknowledging only after it: `async` (the
   * default) on libuv's thread pool, so the event loop turns meanwhile; `sync` blocks it. The default with an injected
   * `fs` is `sync`, so a fake of the synchronous calls alone sees every fsync.
   */
  fsync?: 'sync' | 'async';
}

interface LockInfo {
  pid: number;
  host: string;
  token: string;
  time: number;
}

const NL = 0x0a;
const FINGERPRINT = 64;


const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function isDiskFull(code: string | undefined): boolean {
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG';
}

export class ReviewLog {
  readonly file: string;
  readonly rejectedFile: string;
  readonly lockFile: string;
  private readonly fs: LogFs;
  private readonly label: string;
  private readonly lockTimeoutMs: number;
  private readonly staleLockMs: number;
  private readonly now: () => number;
  private readonly random: (n: number) => Uint8Array;
  /** Bytes of the file consumed so far, and the lines in them. */
  private offset = 0;
  private lines = 0;
  private identity: { dev: number; ino: number } | undefined;
  private fingerprint: Buffer = Buffer.alloc(0);
  private midLine = false;
  private lastTimeMs = 0;
  private lastIdMs = -1;
  private lastRandom: Uint8Array | undefined;
  private readonly root: string;
  /** Bad lines read without the lock, to be copied aside by the next writer. */
  private pendingAside: RejectedLine[] = [];
  private readonly fsyncMode: 'sync' | 'async';
  /** This object's transactions, one after the other (the lock file serializes processes; this, our own calls). */
  private turn: Promise<unknown> = Promise.resolve();
  /** Our bytes are written and their fsync is under way: not acknowledged, so not read back as events yet. */
  private syncing = false;

  constructor(file: string, opts: ReviewLogOptions = {}) {
    this.file = path.resolve(file);
    const dir = path.dirname(this.file);
    this.rejectedFile = path.join(dir, REJECTED_FILE);
    this.lockFile = path.join(dir, LOCK_FILE);
    this.fs = opts.fs ?? nodeFs;
    this.label = opts.label ?? this.file;
    this.lockTimeoutMs = opts.lockTimeoutMs ?? 10_000;
    this.staleLockMs = opts.staleLockMs ?? 30_000;
    this.now = opts.now ?? Date.now;
    this.random = opts.random ?? ((n) => randomBytes(n));
    this.root = path.resolve(opts.root ?? path.dirname(dir));
    this.fsyncMode = opts.fsync ?? (opts.fs ? 'sync' : 'async');
  }

  /** Dataset-relative path of one of the log's files. */
  private rel(file: string): string {
    return path.relative(this.root, file).split(path.sep).join('/');
  }

  /** Where to write one of the log's files: its folders must not be symlinks (else the write is refused). */
  private writable(file: string, what: string): string {
    try {
      return resolveForWrite(this.root, this.rel(file));
    } catch (e) {
      if (e instanceof DatasetFileError) throw new ReviewLogError('io', this.label, `${what}: ${e.message}`);
      throw e;
    }
  }

  /** The log of the dataset at `root`. */
  static forDataset(root: string, opts: Omit<ReviewLogOptions, 'label'> = {}): ReviewLog {
    return new ReviewLog(path.join(root, CURATION_DIR, LOG_FILE), { ...opts, label: `${CURATION_DIR}/${LOG_FILE}`, root });
  }

  // ---- reading ---------------------------------------------------------------------------------------------

  /** Reads the whole log from its start. */
  load(): LogRead {
    this.offset = 0;
    this.lines = 0;
    this.midLine = false;
    this.identity = undefined;
    this.fingerprint = Buffer.alloc(0);
    const r = this.readNew(false);
    return { ...r, reset: true };
  }

  /** Reads what other writers appended since the last read; the whole log again if the file was replaced. */
  refresh(): LogRead {
    // What comes next is our own unacknowledged write: it (and what follows) is read once its fsync has settled.
    if (this.syncing) return { events: [], rejected: [], problems: [], reset: false };
    return this.readNew(false);
  }

  private readNew(underLock: boolean): LogRead {
    let fd: number;
    let real: string | undefined;
    try {
      real = resolveForRead(this.root, this.rel(this.file));
    } catch (e) {
      if (!(e instanceof DatasetFileError)) throw e;
      if (e.reason !== 'missing') {
        // A log symlinked out of the dataset is not read: its events are not this dataset's.
        this.offset = 0;
        this.lines = 0;
        this.identity = undefined;
        this.fingerprint = Buffer.alloc(0);
        return { events: [], rejected: [], problems: [{ severity: 'error', file: e.file, message: `${e.reason === 'outside' ? SYMLINK_OUT_MESSAGE : e.detail}; the review log is not read` }], reset: true };
      }
    }
    try {
      if (real === undefined) throw Object.assign(new Error('no review log'), { code: 'ENOENT' });
      fd = this.fs.openSync(real, READ_FLAGS);
    } catch (e) {
      if (errnoCode(e) === 'ENOENT') {
        const reset = this.offset > 0;
        this.offset = 0;
        this.lines = 0;
        this.identity = undefined;
        this.fingerprint = Buffer.alloc(0);
        return { events: [], rejected: [], problems: [], reset };
      }
      throw new ReviewLogError('io', this.label, `cannot read the review log: ${(e as Error).message}`, errnoCode(e));
    }
    try {
      const st = this.fs.fstatSync(fd);
      const special = notRegularFile(st);
      if (special) return { events: [], rejected: [], problems: [{ severity: 'error', file: this.label, message: `${special}; the review log is not read` }], reset: this.offset > 0 };
      let reset = false;
      const sameFile = this.identity !== undefined && this.identity.dev === st.dev && this.identity.ino === st.ino;
      if (this.offset > 0 && (!sameFile || st.size < this.offset || !this.fingerprintMatches(fd))) {
        reset = true;
        this.offset = 0;
        this.lines = 0;
        this.midLine = false;
        this.fingerprint = Buffer.alloc(0);
      }
      this.identity = { dev: st.dev, ino: st.ino };
      const size = st.size;
      if (size <= this.offset) return { events: [], rejected: [], problems: [], reset };
      const buf = Buffer.allocUnsafe(size - this.offset);
      let got = 0;
      while (got < buf.length) {
        const n = this.fs.readSync(fd, buf, got, buf.length - got, this.offset + got);
        if (n === 0) break;
        got += n;
      }
      const data = got === buf.length ? buf : buf.subarray(0, got);
      const r = this.scan(data, underLock);
      if (!underLock && r.pendingTail) {
        // The last line is incomplete: a writer may be in the middle of it. A reader takes no lock (reading writes
        // nothing); the next writer looks at it under the lock and sets it aside as torn if it is still incomplete.
        r.problems.push({ severity: 'warning', file: this.label, line: this.lines + 1, message: 'the last line is incomplete (another writer is busy, or crashed); it is left for the next read' });
      }
      return { events: r.events, rejected: r.rejected, problems: r.problems, reset };
    } finally {
      this.fs.closeSync(fd);
    }
  }

  private fingerprintMatches(fd: number): boolean {
    const n = this.fingerprint.length;
    if (n === 0) return true;
    const b = Buffer.alloc(n);
    const got = this.fs.readSync(fd, b, 0, n, this.offset - n);
    return got === n && b.equals(this.fingerprint);
  }

  /**
   * Parses the complete lines of `data` (the bytes after `offset`). The final line without a newline is consumed when
   * it is a valid event, or when `tailIsFinal` (we hold the lock: nobody is writing it) as a torn line.
   */
  private scan(data: Buffer, tailIsFinal: boolean): { events: ReviewEvent[]; rejected: RejectedLine[]; problems: Problem[]; pendingTail: boolean } {
    const events: ReviewEvent[] = [];
    const rejected: RejectedLine[] = [];
    const lastNl = data.lastIndexOf(NL);
    const completeEnd = lastNl + 1;
    // After a last line consumed without its newline, the newline the next writer puts first ends that line.
    const carried = this.midLine && data[0] === NL ? 1 : 0;
    const baseLine = this.lines - carried;
    const text = completeEnd > 0 ? data.toString('utf8', 0, completeEnd) : '';
    const parts = completeEnd > 0 ? text.split('\n') : [];
    parts.pop(); // after the last newline
    let badAt: number[] | undefined;
    for (let i = 0; i < parts.length; i++) {
      let line = parts[i] as string;
      if (line.length === 0) continue;
      if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
      if (i === 0 && baseLine === 0 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
      if (line.trim().length === 0) continue;
      const r = parseEventLine(line);
      if (r.ok) {
        events.push(r.event);
        continue;
      }
      (badAt ??= []).push(i);
      rejected.push({ line: baseLine + i + 1, reason: r.reason, message: r.message, text: line });
    }
    if (badAt) this.attachRawBytes(data, badAt, rejected);
    let consumed = completeEnd;
    let lines = baseLine + parts.length;
    let pendingTail = false;
    if (completeEnd < data.length) {
      const tail = data.subarray(completeEnd);
      const tailText = tail.toString('utf8');
      const r = tailText.trim().length === 0 ? undefined : parseEventLine(tailText.replace(/\r$/, ''));
      if (r === undefined || r.ok) {
        if (r?.ok) events.push(r.event);
        consumed = data.length;
        lines++;
      } else if (tailIsFinal) {
        const rej: RejectedLine = { line: lines + 1, reason: 'torn', message: `torn last line (${tail.length} bytes, no newline): ${r.message}`, text: tailText };
        if (Buffer.compare(Buffer.from(tailText, 'utf8'), tail) !== 0) rej.base64 = tail.toString('base64');
        rejected.push(rej);
        consumed = data.length;
        lines++;
      } else pendingTail = true;
    }
    const end = this.offset + consumed;
    if (consumed > 0) {
      const fresh = data.subarray(Math.max(0, consumed - FINGERPRINT), consumed);
      this.fingerprint = fresh.length >= FINGERPRINT ? Buffer.from(fresh) : Buffer.concat([this.fingerprint, fresh]).subarray(-FINGERPRINT);
      this.midLine = data[consumed - 1] !== NL;
    }
    this.offset = end;
    this.lines = lines;
    // ISO times of one fixed width compare as strings: parse only the latest.
    let latest = '';
    for (const e of events) if (e.time > latest) latest = e.time;
    if (latest) this.lastTimeMs = Math.max(this.lastTimeMs, Date.parse(latest));
    const problems: Problem[] = [];
    if (rejected.length > 0 && !tailIsFinal) {
      // Reading writes nothing: the copy aside waits for the next writer.
      this.pendingAside.push(...rejected);
      for (const r of rejected) problems.push({ severity: 'error', file: this.label, line: r.line, message: `${r.message}; the line is ignored (it stays in the log)` });
    } else if (rejected.length > 0) {
      const aside = this.setAside(rejected);
      for (const r of rejected) {
        problems.push({ severity: 'error', file: this.label, line: r.line, message: `${r.message}; the line is ignored${aside.ok ? `, a copy is in ${REJECTED_FILE}` : ''}` });
      }
      if (!aside.ok) problems.push({ severity: 'error', file: this.label, message: `could not copy bad lines aside into ${REJECTED_FILE}: ${aside.message}` });
    }
    return { events, rejected, problems, pendingTail };
  }

  /** Keeps the exact bytes of bad lines that are not valid UTF-8. */
  private attachRawBytes(data: Buffer, badAt: number[], rejected: RejectedLine[]): void {
    const want = new Set(badAt);
    let start = 0;
    let idx = 0;
    let r = rejected.length - badAt.length;
    for (let i = 0; i < data.length && want.size > 0; i++) {
      if (data[i] !== NL) continue;
      if (want.has(idx)) {
        const raw = data.subarray(start, i);
        const rej = rejected[r++] as RejectedLine;
        if (Buffer.compare(Buffer.from(raw.toString('utf8'), 'utf8'), raw) !== 0) rej.base64 = raw.toString('base64');
        want.delete(idx);
      }
      idx++;
      start = i + 1;
    }
  }

  /** Appends bad lines not copied before (same content = same line) to the rejected file, with fsync. */
  private setAside(rejected: RejectedLine[]): { ok: true } | { ok: false; message: string } {
    try {
      const seen = new Set<string>();
      try {
        const prior = this.fs.readFileSync(resolveForRead(this.root, this.rel(this.rejectedFile)), 'utf8') as string;
        for (const l of prior.split('\n')) {
          const m = /"sha256":"([0-9a-f]{64})"/.exec(l);
          if (m) seen.add(m[1] as string);
        }
      } catch (e) {
        if (!(e instanceof DatasetFileError && e.reason === 'missing') && errnoCode(e) !== 'ENOENT') throw e;
      }
      const out: string[] = [];
      const found = isoTime(this.now());
      for (const r of rejected) {
        const sha256 = createHash('sha256').update(r.base64 !== undefined ? Buffer.from(r.base64, 'base64') : Buffer.from(r.text, 'utf8')).digest('hex');
        if (seen.has(sha256)) continue;
        seen.add(sha256);
        out.push(JSON.stringify({ log: path.basename(this.file), line: r.line, reason: r.reason, message: r.message, found, sha256, text: r.text, ...(r.base64 !== undefined ? { base64: r.base64 } : {}) }));
      }
      if (out.length === 0) return { ok: true };
      const fd = this.fs.openSync(this.writable(this.rejectedFile, 'cannot copy bad lines aside'), APPEND_FLAGS, 0o644);
      try {
        const st = this.fs.fstatSync(fd);
        const special = notRegularFile(st);
        if (special) throw new Error(`${REJECTED_FILE} ${special}`);
        const lead = st.size > 0 && this.lastByte(fd, st.size) !== NL ? '\n' : '';
        const b = Buffer.from(lead + out.join('\n') + '\n', 'utf8');
        const n = this.fs.writeSync(fd, b, 0, b.length);
        if (n !== b.length) throw new Error(`short write (${n} of ${b.length} bytes)`);
        this.fs.fsyncSync(fd);
      } finally {
        this.fs.closeSync(fd);
      }
      return { ok: true };
    } catch (e) {
      return { ok: false, message: (e as Error).message };
    }
  }

  private lastByte(fd: number, size: number): number | undefined {
    const b = Buffer.alloc(1);
    return this.fs.readSync(fd, b, 0, 1, size - 1) === 1 ? b[0] : undefined;
  }

  // ---- appending -------------------------------------------------------------------------------------------

  /**
   * Appends events under the lock. `prepare` sees everything other writers appended since the last read (so the
   * caller can check its intent against the current state) and returns the drafts to write, or `{ abort }` to write
   * nothing. Resolves once the events are on disk (fsync); throws `ReviewLogError` when they are not.
   */
  async transact<A>(prepare: (fresh: LogRead) => EventDraft[] | { abort: A }): Promise<{ ok: true; events: ReviewEvent[]; fresh: LogRead } | { ok: false; abort: A; fresh: LogRead }> {
    // Refuse before anything is written when the log's folder or file is a symlink.
    this.writable(this.file, 'the event was NOT recorded');
    const run = this.turn.then(() => this.transactLocked(prepare));
    this.turn = run.catch(() => undefined);
    return run;
  }

  private async transactLocked<A>(prepare: (fresh: LogRead) => EventDraft[] | { abort: A }): Promise<{ ok: true; events: ReviewEvent[]; fresh: LogRead } | { ok: false; abort: A; fresh: LogRead }> {
    const token = await this.lock();
    try {
      const fresh = this.readNew(true);
      if (this.pendingAside.length > 0) {
        // What earlier reads found, copied aside now that we write anyway (best effort: a failure is reported).
        const aside = this.setAside(this.pendingAside);
        if (aside.ok) this.pendingAside = [];
        else fresh.problems.push({ severity: 'error', file: this.label, message: `could not copy bad lines aside into ${REJECTED_FILE}: ${aside.message}` });
      }
      const drafts = prepare(fresh);
      if (!Array.isArray(drafts)) return { ok: false, abort: drafts.abort, fresh };
      const events = this.stamp(drafts);
      if (events.length > 0) await this.write(events);
      return { ok: true, events, fresh };
    } finally {
      this.release(token);
    }
  }

  /** Appends drafts without looking at what they say (tests, imports). */
  async append(drafts: EventDraft[]): Promise<ReviewEvent[]> {
    const r = await this.transact(() => drafts);
    return r.ok ? r.events : [];
  }

  /**
   * Ids and times: time is the wall clock, nudged past every event already read so a replay sees events in the order
   * they were checked even when clocks differ between machines.
   */
  private stamp(drafts: EventDraft[]): ReviewEvent[] {
    return drafts.map((d) => {
      const ms = Math.max(this.now(), this.lastTimeMs + 1);
      this.lastTimeMs = ms;
      return { id: this.newId(ms), time: isoTime(ms), curator: d.curator, task: d.task, revision: d.revision, kind: d.kind, payload: d.payload } as ReviewEvent;
    });
  }

  private newId(ms: number): string {
    let rnd = this.random(EVENT_ID_RANDOM_BYTES);
    if (ms === this.lastIdMs && this.lastRandom) {
      // Same millisecond: keep ids increasing, as ULID's monotonic mode does.
      rnd = Uint8Array.from(this.lastRandom);
      for (let i = rnd.length - 1; i >= 0; i--) {
        rnd[i] = ((rnd[i] as number) + 1) & 0xff;
        if (rnd[i] !== 0) break;
      }
    }
    this.lastIdMs = ms;
    this.lastRandom = rnd;
    return encodeEventId(ms, rnd);
  }

  private async write(events: ReviewEvent[]): Promise<void> {
    const created = this.ensureDir();
    let fd: number;
    try {
      fd = this.fs.openSync(this.writable(this.file, 'the event was NOT recorded'), APPEND_FLAGS, 0o644);
    } catch (e) {
      if (errnoCode(e) === 'ENXIO') throw new ReviewLogError('io', this.label, 'is not a regular file (a FIFO, socket or device); the event was NOT recorded');
      throw this.ioError(e, errnoCode(e) === 'ELOOP' ? 'the review log is a symlink; the event was NOT recorded' : 'cannot open the review log for appending');
    }
    let before = -1;
    try {
      const st = this.fs.fstatSync(fd);
      const special = notRegularFile(st);
      if (special) throw new ReviewLogError('io', this.label, `${special}; the event was NOT recorded`);
      before = st.size;
      // A torn last line must not swallow the next event: start on a fresh line.
      const lead = before > 0 && this.lastByte(fd, before) !== NL ? '\n' : '';
      const body = lead + events.map(formatEventLine).join('\n') + '\n';
      const buf = Buffer.from(body, 'utf8');
      const n = this.fs.writeSync(fd, buf, 0, buf.length);
      if (n !== buf.length) {
        const err = new Error(`short write: ${n} of ${buf.length} bytes (disk full?)`) as NodeJS.ErrnoException;
        err.code = 'ENOSPC';
        throw err;
      }
      await this.fsyncData(fd);
      if (created || before === 0) this.syncDir();
      this.identity = { dev: st.dev, ino: st.ino };
      if (this.offset === before) {
        this.offset = before + buf.length;
        this.lines += events.length;
        this.fingerprint = Buffer.concat([this.fingerprint, buf]).subarray(-FINGERPRINT);
        this.midLine = false;
      }
    } catch (e) {
      if (before >= 0) {
        // Take back our own unacknowledged partial bytes, so the log ends where it did (best effort: a reader copes
        // with a torn line anyway).
        try {
          this.fs.ftruncateSync(fd, before);
          this.fs.fsyncSync(fd);
        } catch {
          // the next reader sets the torn line aside
        }
      }
      throw this.ioError(e, 'the event was NOT recorded');
    } finally {
      this.fs.closeSync(fd);
    }
  }

  /** The fsync an acknowledgement waits for; see `ReviewLogOptions.fsync`. */
  private async fsyncData(fd: number): Promise<void> {
    if (this.fsyncMode === 'sync') return this.fs.fsyncSync(fd);
    this.syncing = true;
    try {
      await new Promise<void>((resolve, reject) => this.fs.fsync(fd, (e) => (e ? reject(e) : resolve())));
    } finally {
      this.syncing = false;
    }
  }

  private ioError(e: unknown, what: string): ReviewLogError {
    if (e instanceof ReviewLogError) return e;
    const code = errnoCode(e);
    if (isDiskFull(code)) return new ReviewLogError('disk_full', this.label, `${what}: the disk is full (${code})`, code);
    return new ReviewLogError('io', this.label, `${what}: ${(e as Error).message}`, code);
  }

  /** Creates the curation folder with git settings that suit an append-only log; true when it was created. */
  private ensureDir(): boolean {
    const dir = this.writable(path.dirname(this.file), 'cannot use the curation folder');
    try {
      this.fs.statSync(dir);
      return false;
    } catch (e) {
      if (errnoCode(e) !== 'ENOENT') throw this.ioError(e, 'cannot use the curation folder');
    }
    try {
      this.fs.mkdirSync(dir, { recursive: true });
      // Both sides' appended lines survive a merge; the reduction sorts them, so their order does not matter.
      // Another process creating the folder at the same moment may have written them first: that is no error.
      const writeNew = (name: string, text: string) => {
        try {
          this.fs.writeFileSync(path.join(dir, name), text, { flag: 'wx' });
        } catch (e) {
          if (errnoCode(e) !== 'EEXIST') throw e;
        }
      };
      writeNew('.gitattributes', `${LOG_FILE} merge=union\n${REJECTED_FILE} merge=union\n`);
      writeNew('.gitignore', `${LOCK_FILE}\n${LOCK_FILE}.break\n`);
    } catch (e) {
      throw this.ioError(e, 'cannot create the curation folder');
    }
    return true;
  }

  private syncDir(): void {
    try {
      const fd = this.fs.openSync(path.dirname(this.file), 'r');
      try {
        this.fs.fsyncSync(fd);
      } finally {
        this.fs.closeSync(fd);
      }
    } catch {
      // Some platforms cannot fsync a directory; the file's own fsync has happened.
    }
  }

  // ---- the lock --------------------------------------------------------------------------------------------

  /**
   * Waits for the lock on timers, never with a blocking sleep (`Atomics.wait`, as before c4d02b0): the extension host
   * and the CLI share this path, and the host's event loop keeps turning while another process holds the lock.
   */
  private async lock(): Promise<string> {
    const deadline = Date.now() + this.lockTimeoutMs;
    let wait = 1;
    for (;;) {
      const token = this.tryLock();
      if (token) return token;
      if (Date.now() > deadline) throw this.lockedError();
      await sleep(wait + randomInt(0, wait + 1));
      wait = Math.min(wait * 2, 8);
    }
  }

  private lockedError(): ReviewLogError {
    const info = this.readLock();
    const who = info && 'pid' in info ? `process ${info.pid} on ${info.host} since ${isoTime(info.time)}` : 'another process';
    return new ReviewLogError('locked', this.label, `the review log is locked by ${who}; if no specweave process is running there, delete ${this.lockFile}`);
  }

  /** One attempt at the lock (O_CREAT|O_EXCL of the lock file); breaks a lock whose holder is gone. */
  private tryLock(): string | undefined {
    const dir = path.dirname(this.lockFile);
    const token = Buffer.from(this.random(12)).toString('hex');
    let fd: number;
    try {
      fd = this.fs.openSync(this.writable(this.lockFile, 'cannot take the lock'), 'wx');
    } catch (e) {
      if (e instanceof ReviewLogError) throw e;
      const code = errnoCode(e);
      if (code === 'ENOENT') {
        this.ensureDir();
        return undefined;
      }
      if (code !== 'EEXIST') throw this.ioError(e, `cannot create the lock ${path.relative(dir, this.lockFile)}`);
      const info = this.readLock();
      if (this.isStale(info)) this.breakLock(info);
      return undefined;
    }
    try {
      const body = Buffer.from(JSON.stringify({ pid: process.pid, host: os.hostname(), token, time: Date.now() }));
      const n = this.fs.writeSync(fd, body, 0, body.length);
      if (n !== body.length) throw Object.assign(new Error('short write of the lock file'), { code: 'ENOSPC' });
    } catch (e) {
      try {
        this.fs.closeSync(fd);
      } finally {
        this.unlinkQuiet(this.lockFile);
      }
      throw this.ioError(e, 'cannot take the lock: the event was NOT recorded');
    }
    this.fs.closeSync(fd);
    return token;
  }

  private readLock(): (LockInfo & { mtimeMs: number }) | { mtimeMs: number } | undefined {
    try {
      // lstat: a lock that is a symlink is judged as a file of its own, never read through.
      const st = nodeFs.lstatSync(this.lockFile);
      if (!st.isFile()) return { mtimeMs: st.mtimeMs };
      const fd = this.fs.openSync(this.lockFile, READ_FLAGS);
      let text: string;
      try {
        text = this.fs.readFileSync(fd, 'utf8') as string;
      } finally {
        this.fs.closeSync(fd);
      }
      try {
        const v = JSON.parse(text) as LockInfo;
        if (typeof v.pid === 'number' && typeof v.host === 'string' && typeof v.token === 'string') return { ...v, mtimeMs: st.mtimeMs };
      } catch {
        // written halfway by a process that died between creating and filling it
      }
      return { mtimeMs: st.mtimeMs };
    } catch {
      return undefined;
    }
  }

  private isStale(info: ReturnType<ReviewLog['readLock']>): boolean {
    if (!info) return false;
    const age = Date.now() - info.mtimeMs;
    if (!('pid' in info)) return age > 2000;
    if (info.host === os.hostname()) {
      if (!pidAlive(info.pid)) return true;
      // A live process holds the lock for milliseconds; after minutes its pid was reused.
      return age > 5 * 60_000;
    }
    return age > this.staleLockMs;
  }

  /**
   * Removes a stale lock. Breakers serialize on a second O_EXCL file and re-read the lock before removing it, so a
   * lock taken afresh meanwhile is never removed.
   */
  private breakLock(judged: ReturnType<ReviewLog['readLock']>): void {
    const brk = `${this.lockFile}.break`;
    let fd: number;
    try {
      fd = this.fs.openSync(this.writable(brk, 'cannot break the lock'), 'wx');
    } catch (e) {
      if (errnoCode(e) === 'EEXIST') {
        try {
          if (Date.now() - this.fs.statSync(brk).mtimeMs > 5000) this.unlinkQuiet(brk);
        } catch {
          // gone already
        }
      }
      return;
    }
    this.fs.closeSync(fd);
    try {
      const now = this.readLock();
      const same =
        now !== undefined &&
        judged !== undefined &&
        ('token' in now && 'token' in judged ? now.token === judged.token : !('token' in now) && !('token' in judged) && now.mtimeMs === judged.mtimeMs);
      if (same && this.isStale(now)) this.unlinkQuiet(this.lockFile);
    } finally {
      this.unlinkQuiet(brk);
    }
  }

  private release(token: string): void {
    const info = this.readLock();
    if (info && 'token' in info && info.token === token) this.unlinkQuiet(this.lockFile);
  }

  private unlinkQuiet(p: string): void {
    try {
      this.fs.unlinkSync(p);
    } catch {
      // already gone
    }
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errnoCode(e) === 'EPERM';
  }
}
