// A run's test output parsed as it arrives: stdout and stderr bytes in the order the engine delivered them (its
// attach stream keeps write order), split into lines per stream (so a line of one never mixes with bytes of the
// other), each complete line read in turn, as `2>&1` would show them. Memory stays bounded whatever the output's
// size: one pending line per stream (capped) and the per-test results. The same parser reads a stored log file.
import { LineSplitter } from './lineStream';
import type { LogLineParser, TestLog } from './markedLog';
import { MarkedLog, parseLines } from './markedLog';
import type { ResultParser } from '../model';
import { CargoTestLogParser } from './parseCargo';
import { DjangoLogParser } from './parseDjango';
import { GoTestLogParser } from './parseGo';
import { JestLogParser } from './parseJest';
import { JvmTestLogParser } from './parseMaven';
import { PytestLogParser } from './parsePytest';

export type LogFormat = ResultParser;

/** The line parser for a verifier's output format; `junit` reads the text as pytest output when the report is unusable. */
export function lineParserFor(format: LogFormat | string): (() => LogLineParser) | undefined {
  switch (format) {
    case 'django':
      return () => new DjangoLogParser();
    case 'exitcode':
    case 'reward':
      // Graded by the exit code, or by the reward file the tests write: the output holds no results to read.
      return undefined;
    case 'gotest':
      return () => new GoTestLogParser();
    case 'cargo':
      return () => new CargoTestLogParser();
    case 'maven':
    case 'gradle':
    case 'ant':
      return () => new JvmTestLogParser();
    case 'jest':
      return () => new JestLogParser();
    default:
      return () => new PytestLogParser();
  }
}

const NOTHING: TestLog = { tests: {}, conflicts: [], conflictCount: 0, droppedNames: 0, scope: 'whole', longLines: 0 };

export class TestOutputStream {
  private readonly log?: MarkedLog;
  private readonly splitters: Record<'stdout' | 'stderr', LineSplitter>;
  private ended?: TestLog;
  /** Bytes read per stream. */
  readonly bytes = { stdout: 0, stderr: 0 };

  constructor(format: LogFormat | string) {
    const make = lineParserFor(format);
    this.log = make ? new MarkedLog(make) : undefined;
    const onLine = (l: string, cut: boolean) => this.log?.line(l, cut);
    this.splitters = { stdout: new LineSplitter(onLine), stderr: new LineSplitter(onLine) };
  }

  write(stream: 'stdout' | 'stderr', chunk: Uint8Array): void {
    if (this.ended) return;
    this.bytes[stream] += chunk.length;
    if (this.log) this.splitters[stream].write(chunk);
  }

  /** Ends both streams (a last line without a line break counts) and returns what was read. */
  end(): TestLog {
    if (this.ended) return this.ended;
    this.splitters.stdout.end();
    this.splitters.stderr.end();
    this.ended = this.log ? this.log.finish() : NOTHING;
    return this.ended;
  }
}

/** Parses a log already in memory with the same parser (stored logs, imported `test_output.txt`). */
export function parseTestText(format: LogFormat | string, text: string): TestLog {
  const make = lineParserFor(format);
  return make ? parseLines(text, make) : NOTHING;
}
