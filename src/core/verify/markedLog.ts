// One run's output as a test runner's log: lines as a terminal shows them, fed to a format's line parser, with
// SWE-bench's `>>>>> Start Test Output` / `>>>>> End Test Output` markers: the results between them count, and the
// whole log when the marked section holds none (SWE-bench's fallback: with its eval scripts' `set -x` the markers
// are traced on stderr while the results go to stdout, so a runner that orders the two streams differently puts the
// results outside them).
import type { TestStatus } from '../model';
import { eachLine, terminalLine } from './lineStream';

/** A test whose lines disagree: what was seen, in order, and what it settled to. */
export interface StatusConflict {
  test: string;
  seen: TestStatus[];
  settled: TestStatus;
}

/** What a test runner's output says, test by test, and how far it can be believed. */
export interface ParsedTestLog {
  tests: Record<string, TestStatus>;
  /** Tests with lines of different outcomes (other than pytest's own PASSED-then-ERROR of a teardown error). */
  conflicts: StatusConflict[];
  conflictCount: number;
  /** The first disagreement between a session's per-test results and the runner's own counts. */
  countMismatch?: string;
  /**
   * Set when a session the runner visibly began reported results but never printed its closing counts line, or
   * when results were printed before the runner's session began.
   */
  unclosed?: string;
  /** Test names not kept once the parser's limit of distinct names was reached. */
  droppedNames: number;
  /** How the log had to be read, when not the usual way (a reader of the verdict should know). */
  note?: string;
}

/** Consumes the lines of a log one at a time (already as a terminal shows them). */
export interface LogLineParser {
  line(text: string): void;
  /** A line longer than the cap (its start): never a result, but a parser may count it. */
  cutLine?(start: string): void;
  finish(): ParsedTestLog;
}

/** A parsed log and where its results were read. */
export interface TestLog extends ParsedTestLog {
  /** `marked`: between the SWE-bench markers; `whole-fallback`: the markers held no result, the whole log was read. */
  scope: 'whole' | 'marked' | 'whole-fallback';
  /** Lines longer than the line cap: never read as results. */
  longLines: number;
}

export const START_MARKER = '>>>>> Start Test Output';
export const END_MARKER = '>>>>> End Test Output';

export class MarkedLog {
  private readonly whole: LogLineParser;
  private marked?: LogLineParser;
  private inMarked = false;
  private longLines = 0;

  constructor(private readonly make: () => LogLineParser) {
    this.whole = make();
  }

  /** One raw line (without its `\n`); `cut` when it was longer than the cap. */
  line(raw: string, cut = false): void {
    const l = terminalLine(raw);
    if (cut) {
      this.longLines++;
      if (this.inMarked) this.marked?.cutLine?.(l);
      this.whole.cutLine?.(l);
      return;
    }
    if (!this.marked && l.includes(START_MARKER)) {
      // Only the first marked section counts, as in SWE-bench (`split(START)[1].split(END)[0]`).
      this.marked = this.make();
      this.inMarked = true;
    } else if (this.inMarked && l.includes(END_MARKER)) {
      this.inMarked = false;
    } else if (this.inMarked) this.marked?.line(l);
    this.whole.line(l);
  }

  finish(): TestLog {
    const whole = this.whole.finish();
    if (this.marked) {
      const marked = this.marked.finish();
      if (Object.keys(marked.tests).length > 0) return { ...marked, scope: 'marked', longLines: this.longLines };
      return { ...whole, scope: 'whole-fallback', longLines: this.longLines };
    }
    return { ...whole, scope: 'whole', longLines: this.longLines };
  }
}

/** Parses a log already in memory (a stored `test_output.txt`, a test's literal) with the same line parser. */
export function parseLines(text: string, make: () => LogLineParser): TestLog {
  const log = new MarkedLog(make);
  eachLine(text, (l, cut) => log.line(l, cut));
  return log.finish();
}
