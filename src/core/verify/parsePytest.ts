// Per-test statuses from pytest's output, settled the way pytest settles them, one line at a time (so a run's
// output is parsed as it arrives, with memory bounded by the number of tests, not the size of the log).
//
// A log is a sequence of sessions (each `=== test session starts ===` begins one; lines before the first header
// form a session of their own). In a session the last "short test summary info" section decides for every test it
// names (pytest prints it last, after any captured output a test may have printed); a test it does not name takes
// its last status line in the session (verbose `x PASSED [ 10%]`, pytest-xdist `[gw0] PASSED x`, or a summary-style
// line). A later session (a rerun) overrides an earlier one. Within one summary section a failure is not overridden
// by a success: pytest lists `PASSED x` before `ERROR x` for a teardown error, and the ERROR is the outcome.
//
// Besides the statuses, each session's own counts are kept (`collected N items`, the closing `N passed, M failed in
// Xs` line) and checked against the per-test results, so output printed by something other than pytest (a conftest
// writing PASSED lines, then exiting the process) does not pass for a test run.
import type { TestStatus } from '../model';
import type { LogLineParser, ParsedTestLog, StatusConflict } from './markedLog';
import { parseLines } from './markedLog';

const SUMMARY_RE = /^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\s+(\S.*)$/;
// `path::test[param] PASSED [ 10%]`, also with pytest-xdist's `[gw0] [ 10%] PASSED path::test`.
const VERBOSE_RE = /^(\S+::.+?)\s+(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(?:\s+\(.*\))?(?:\s+\[\s*\d+%\])?\s*$/;
const XDIST_RE = /^\[gw\d+\]\s+(?:\[\s*\d+%\]\s+)?(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\s+(\S.*)$/;
const SESSION_RE = /^=+ test session starts =+$/;
const SECTION_RE = /^=+ short test summary info =+$/;
const BANNER_RE = /^=+( .* =+)?$/;
// `==== 2 failed, 5 passed, 1 error in 0.12s ====`, `-q`'s `2 passed in 0.12s`, `no tests ran in 0.01s`.
const CLOSING_RE = /^(?:=+ )?((?:\d+ [a-z]+(?: [a-z]+)?)(?:, \d+ [a-z]+(?: [a-z]+)?)*|no tests ran) in \d+(?:\.\d+)?s(?: \([^)]*\))?(?: =+)?$/;
const COLLECTED_RE = /\bcollected (\d+) items?(?: \/ (\d+) deselected)?(?: \/ (\d+) selected)?/;
const XDIST_ITEMS_RE = /^\d+ workers? \[(\d+) items?\]/;
const SKIP_FOLDED_RE = /^\[(\d+)\] /;

/** Most distinct test names kept; more are dropped and counted (a log cannot make the parser grow without end). */
export const MAX_REPORTED_TESTS = 200_000;
/** Conflicts listed by name (all are counted). */
const MAX_CONFLICTS = 50;

const FAILURE: ReadonlySet<TestStatus> = new Set<TestStatus>(['FAILED', 'ERROR']);

/** Records `status` for `name`; a failure is never overwritten by a success (used inside one summary section). */
export function record(map: Record<string, TestStatus>, name: string, status: TestStatus): void {
  const prev = map[name];
  if (prev && FAILURE.has(prev) && !FAILURE.has(status)) return;
  map[name] = status;
}

/**
 * The node id at the start of a summary line's remainder: it ends at the first space outside brackets, so
 * parametrized ids with spaces (`test[a b]`) survive, and the ` - message` of FAILED/ERROR lines is dropped.
 */
export function nodeIdOf(rest: string): string {
  let depth = 0;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (c === '[') depth++;
    else if (c === ']') depth = Math.max(0, depth - 1);
    else if ((c === ' ' || c === '\t') && depth === 0) return rest.slice(0, i);
  }
  if (depth === 0) return rest.trim();
  // Unbalanced brackets: fall back to the message separator, then to the first blank.
  const sep = rest.indexOf(' - ');
  if (sep > 0) return rest.slice(0, sep);
  const sp = rest.search(/\s/);
  return sp > 0 ? rest.slice(0, sp) : rest;
}

type Counts = Partial<Record<string, number>>;

const COUNT_WORD: Record<TestStatus, string> = {
  PASSED: 'passed',
  FAILED: 'failed',
  ERROR: 'errors',
  SKIPPED: 'skipped',
  XFAIL: 'xfailed',
  XPASS: 'xpassed',
};
const STATUS_ORDER: TestStatus[] = ['PASSED', 'FAILED', 'ERROR', 'SKIPPED', 'XFAIL', 'XPASS'];

function parseCounts(text: string): Counts {
  const out: Counts = {};
  for (const m of text.matchAll(/(\d+) ([a-z]+)/g)) {
    const word = m[2] === 'error' ? 'errors' : (m[2] as string);
    out[word] = (out[word] ?? 0) + Number(m[1]);
  }
  return out;
}

class Session {
  /** The session header or a `collected` line was seen. */
  started = false;
  collected?: number;
  closing?: Counts;
  closingText?: string;
  inSection = false;
  sections = 0;
  /** The last summary section's statuses (a new section replaces it). */
  section = new Map<string, TestStatus>();
  sectionLines: Record<TestStatus, number> = { PASSED: 0, FAILED: 0, ERROR: 0, SKIPPED: 0, XFAIL: 0, XPASS: 0 };
  sectionFoldedSkips = 0;
  /** Status lines of the last section too long to read, by status. */
  sectionCut: Partial<Record<TestStatus, number>> = {};
  /** The last status line of each test in the session. */
  lines = new Map<string, TestStatus>();
  results = 0;
  /** Sessions printed inside this one (pytester output). */
  nested = 0;

  constructor(readonly index: number) {}

  startSection(): void {
    this.inSection = true;
    this.sections++;
    this.section = new Map();
    this.sectionLines = { PASSED: 0, FAILED: 0, ERROR: 0, SKIPPED: 0, XFAIL: 0, XPASS: 0 };
    this.sectionFoldedSkips = 0;
    this.sectionCut = {};
  }

  settled(): Map<string, TestStatus> {
    const out = new Map(this.lines);
    for (const [k, v] of this.section) out.set(k, v);
    return out;
  }

  /** The first way this session's results disagree with pytest's own counts, if any. */
  mismatch(settled: Map<string, TestStatus>): string | undefined {
    const c = this.closing;
    if (!c) return undefined;
    const n = (w: string) => c[w] ?? 0;
    const where = `pytest's closing line ("${this.closingText}")`;
    if (this.sections > 0) {
      for (const s of STATUS_ORDER) {
        const lines = this.sectionLines[s] + (s === 'SKIPPED' ? this.sectionFoldedSkips : 0);
        const unread = this.sectionCut[s] ?? 0;
        const want = n(COUNT_WORD[s]);
        if (lines > 0 && (lines > want || lines + unread < want)) {
          return `the short test summary lists ${lines} ${s} but ${where} counts ${n(COUNT_WORD[s])} ${COUNT_WORD[s]}`;
        }
      }
    }
    const by: Record<TestStatus, number> = { PASSED: 0, FAILED: 0, ERROR: 0, SKIPPED: 0, XFAIL: 0, XPASS: 0 };
    let named = 0;
    for (const [k, s] of settled) {
      by[s]++;
      if (k.includes('::')) named++;
    }
    for (const s of STATUS_ORDER) {
      if (by[s] > n(COUNT_WORD[s])) return `the log names ${by[s]} test(s) ${s} but ${where} counts ${n(COUNT_WORD[s])} ${COUNT_WORD[s]}`;
    }
    if (this.collected !== undefined) {
      const ran = n('passed') + n('failed') + n('skipped') + n('xfailed') + n('xpassed');
      if (ran > this.collected) return `${where} counts ${ran} tests run, but pytest collected ${this.collected}`;
      if (named > this.collected) return `the log names ${named} tests, but pytest collected ${this.collected}`;
    }
    return undefined;
  }
}

/** The pytest parser: feed it lines (as a terminal shows them), then `finish()`. */
/** What one line of pytest output is. */
type PytestLine =
  | { kind: 'session' }
  | { kind: 'section' }
  | { kind: 'banner' }
  | { kind: 'closing'; counts: Counts; text: string }
  | { kind: 'status'; id: string; status: TestStatus; summary: boolean }
  | { kind: 'folded-skip'; count: number }
  | { kind: 'collected'; selected: number }
  | { kind: 'other' };

function classify(l: string): PytestLine {
  if (l.charCodeAt(0) === 61 /* '=' */) {
    if (SESSION_RE.test(l)) return { kind: 'session' };
    if (SECTION_RE.test(l)) return { kind: 'section' };
    const closing = CLOSING_RE.exec(l);
    if (closing) return { kind: 'closing', counts: parseCounts(closing[1] as string), text: l.replace(/^=+ | =+$/g, '') };
    return BANNER_RE.test(l) ? { kind: 'banner' } : { kind: 'other' };
  }
  const sm = SUMMARY_RE.exec(l);
  if (sm) {
    const status = sm[1] as TestStatus;
    const rest = sm[2] as string;
    // `SKIPPED [1] tests/x.py:12: reason` names a location, not a test.
    if (status === 'SKIPPED' && rest.startsWith('[')) return { kind: 'folded-skip', count: Number(SKIP_FOLDED_RE.exec(rest)?.[1] ?? 0) };
    const id = nodeIdOf(rest);
    return id.length > 0 ? { kind: 'status', id, status, summary: true } : { kind: 'other' };
  }
  const closing = CLOSING_RE.exec(l);
  if (closing) return { kind: 'closing', counts: parseCounts(closing[1] as string), text: l };
  const x = XDIST_RE.exec(l);
  if (x) {
    const id = nodeIdOf(x[2] as string);
    return id.length > 0 ? { kind: 'status', id, status: x[1] as TestStatus, summary: false } : { kind: 'other' };
  }
  const v = VERBOSE_RE.exec(l);
  if (v) return { kind: 'status', id: v[1] as string, status: v[2] as TestStatus, summary: false };
  const c = COLLECTED_RE.exec(l) ?? XDIST_ITEMS_RE.exec(l);
  if (c) return { kind: 'collected', selected: c[3] !== undefined ? Number(c[3]) : Number(c[1]) - Number(c[2] ?? 0) };
  return { kind: 'other' };
}

/** The pytest parser: feed it lines (as a terminal shows them), then `finish()`. */
export class PytestLogParser implements LogLineParser {
  private session = new Session(1);
  private readonly settled = new Map<string, TestStatus>();
  /** Statuses each test was seen with, in order of first appearance, as base-8 digits (`STATUS_ORDER` index + 1). */
  private readonly seen = new Map<string, number>();
  private countMismatch?: string;
  private unclosed?: string;
  private dropped = 0;
  /**
   * Sessions printed inside the current one (a test running pytest itself, pytester, re-prints the inner run's
   * output as its captured stdout): their lines are not the outer session's.
   */
  private depth = 0;
  /** A session with nested ones never closed: an inner run's missing closing line took the outer one's. */
  private unbalanced = false;
  /**
   * The same log read as one sequence of lines (every short summary overriding the ones before it, else the last
   * status line): used when nested sessions do not balance, so the session structure cannot be trusted.
   */
  private readonly flat = {
    inSection: false,
    sectionNo: 0,
    section: new Map<string, { status: TestStatus; no: number }>(),
    lines: new Map<string, TestStatus>(),
    /** Line numbers of the last status line and the last closing line; a session header was seen. */
    line: 0,
    lastStatus: 0,
    lastClosing: 0,
    started: false,
  };

  line(l: string): void {
    const c = classify(l);
    this.flatLine(c);
    const s = this.session;
    if (c.kind === 'session') {
      if (s.started && !s.closing) {
        this.depth++;
        s.nested++;
        return;
      }
      if (!s.started && !s.closing && s.results > 0) {
        // Results before pytest's session began were not printed by pytest (a conftest writing PASSED lines).
        this.unclosed ??= `${s.results} result line(s) were printed before pytest's session began`;
      }
      if (s.started || s.results > 0 || s.closing) this.endSession();
      this.session.started = true;
      return;
    }
    if (this.depth > 0) {
      if (c.kind === 'closing') this.depth--;
      return;
    }
    // After pytest's closing line nothing more is pytest's: results printed then (an atexit hook) are ignored.
    if (s.closing) return;
    switch (c.kind) {
      case 'section':
        s.startSection();
        return;
      case 'banner':
        s.inSection = false;
        return;
      case 'closing':
        s.closing = c.counts;
        s.closingText = c.text;
        s.inSection = false;
        return;
      case 'folded-skip':
        if (s.inSection) s.sectionFoldedSkips += c.count;
        return;
      case 'collected':
        s.started = true;
        s.collected = c.selected;
        return;
      case 'status': {
        const inSection = c.summary && s.inSection;
        if (inSection) s.sectionLines[c.status]++;
        // flatLine() noted it already; a name beyond the cap was not kept.
        if (!this.seen.has(c.id)) return;
        if (inSection) {
          const prev = s.section.get(c.id);
          if (!(prev && FAILURE.has(prev) && !FAILURE.has(c.status))) s.section.set(c.id, c.status);
        }
        s.lines.set(c.id, c.status);
        s.results++;
        return;
      }
      default:
        return;
    }
  }

  private flatLine(c: PytestLine): void {
    const f = this.flat;
    f.line++;
    if (c.kind === 'session' || c.kind === 'collected') f.started = true;
    if (c.kind === 'closing') f.lastClosing = f.line;
    if (c.kind === 'status') f.lastStatus = f.line;
    if (c.kind === 'section') {
      f.inSection = true;
      f.sectionNo++;
    } else if (c.kind === 'banner' || c.kind === 'closing' || c.kind === 'session') f.inSection = false;
    else if (c.kind === 'status') {
      if (!this.note(c.id, c.status)) return;
      if (c.summary && f.inSection) {
        const prev = f.section.get(c.id);
        if (!(prev && prev.no === f.sectionNo && FAILURE.has(prev.status) && !FAILURE.has(c.status))) f.section.set(c.id, { status: c.status, no: f.sectionNo });
      }
      f.lines.set(c.id, c.status);
    }
  }

  cutLine(start: string): void {
    const s = this.session;
    const m = s.inSection && !s.closing ? SUMMARY_RE.exec(start) : null;
    if (m) s.sectionCut[m[1] as TestStatus] = (s.sectionCut[m[1] as TestStatus] ?? 0) + 1;
  }

  finish(): ParsedTestLog {
    this.endSession();
    const unbalanced = this.depth > 0 || this.unbalanced;
    if (unbalanced) {
      this.settled.clear();
      for (const [k, v] of this.flat.lines) this.settled.set(k, v);
      for (const [k, v] of this.flat.section) this.settled.set(k, v.status);
    }
    const tests: Record<string, TestStatus> = {};
    for (const [k, v] of this.settled) tests[k] = v;
    const conflicts: StatusConflict[] = [];
    let conflictCount = 0;
    for (const [test, code] of this.seen) {
      if (code < 8) continue;
      const seen = decodeSeen(code);
      const settled = this.settled.get(test);
      if (!settled) continue;
      const classes = new Set(seen.map(outcomeClass));
      if (classes.size < 2) continue;
      // pytest's own shape for a teardown error: the test's PASSED (or SKIPPED, XFAIL) line, then ERROR.
      if (FAILURE.has(settled) && seen.includes('ERROR')) continue;
      conflictCount++;
      if (conflicts.length < MAX_CONFLICTS) conflicts.push({ test, seen: [...seen], settled });
    }
    return {
      tests,
      conflicts,
      conflictCount,
      ...(this.countMismatch && !unbalanced ? { countMismatch: this.countMismatch } : {}),
      ...(this.unclosed && !unbalanced ? { unclosed: this.unclosed } : {}),
      // Read as one sequence, the output must still end the way pytest ends: no result after its last closing line.
      ...(unbalanced && this.flat.started && this.flat.lastStatus > this.flat.lastClosing
        ? { unclosed: "result lines follow pytest's last closing line (\"N passed, M failed in Xs\"): the test process ended early, or the lines were not printed by pytest" }
        : {}),
      ...(unbalanced ? { note: 'a pytest session printed inside the output never closed: the log was read as one sequence of lines' } : {}),
      droppedNames: this.dropped,
    };
  }

  /** Remembers that `id` was seen with `status`; false when the name is one too many to keep. */
  private note(id: string, status: TestStatus): boolean {
    const digit = STATUS_ORDER.indexOf(status) + 1;
    const seen = this.seen.get(id);
    if (seen !== undefined) {
      if (!decodeSeen(seen).includes(status)) this.seen.set(id, seen * 8 + digit);
      return true;
    }
    if (this.seen.size >= MAX_REPORTED_TESTS) {
      this.dropped++;
      return false;
    }
    this.seen.set(id, digit);
    return true;
  }

  private endSession(): void {
    const s = this.session;
    if (s.nested > 0 && !s.closing) this.unbalanced = true;
    const settled = s.settled();
    for (const [k, v] of settled) this.settled.set(k, v);
    // A session pytest visibly began (its header, `collected N items`) must end with its closing line. A log without
    // either (`-qq`, a reporter plugin, a bare list of lines) is read as it is.
    if (s.results > 0 && s.started && !s.closing) {
      this.unclosed ??=
        `pytest session ${s.index} reported ${s.results} result line(s) but never printed its closing line ` +
        `("N passed, M failed in Xs"): the test process ended early, or the lines were not printed by pytest`;
    }
    if (s.results > 0) {
      const m = s.mismatch(settled);
      if (m) this.countMismatch ??= `session ${s.index}: ${m}`;
    }
    this.session = new Session(s.index + 1);
  }
}

function decodeSeen(code: number): TestStatus[] {
  const out: TestStatus[] = [];
  for (let c = code; c > 0; c = Math.floor(c / 8)) out.unshift(STATUS_ORDER[(c % 8) - 1] as TestStatus);
  return out;
}

/** The outcome a status stands for: success, failure or skipped. */
export function outcomeClass(s: TestStatus): 'success' | 'failure' | 'skipped' {
  if (s === 'FAILED' || s === 'ERROR') return 'failure';
  if (s === 'SKIPPED') return 'skipped';
  return 'success';
}

/** Per-test statuses of a pytest log in memory (markers and all, as a run's output is read). */
export function parsePytest(text: string): Record<string, TestStatus> {
  return parseLines(text, () => new PytestLogParser()).tests;
}

const STATUSES = ['PASSED', 'FAILED', 'ERROR', 'SKIPPED', 'XFAIL', 'XPASS'] as const;

export function isTestStatus(s: string): s is TestStatus {
  return (STATUSES as readonly string[]).includes(s);
}
