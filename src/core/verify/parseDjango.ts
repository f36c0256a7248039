// Per-test statuses from Django's test runner at verbosity 2 (`test_x (module.Class) ... ok`), the way SWE-bench
// reads them: a test with a docstring is named by the docstring's first line, which is what SWE-bench ids hold.
// Read one line at a time, like the pytest parser.
import type { TestStatus } from '../model';
import type { LogLineParser, ParsedTestLog } from './markedLog';
import { parseLines } from './markedLog';
import { MAX_REPORTED_TESTS, record } from './parsePytest';

const OUTCOMES: [RegExp, TestStatus][] = [
  [/ \.\.\. {1,2}(ok|OK)$/, 'PASSED'],
  [/ \.\.\. skipped\b.*$/, 'SKIPPED'],
  [/ \.\.\. expected failure$/, 'XFAIL'],
  [/ \.\.\. unexpected success$/, 'FAILED'],
  [/ \.\.\. FAIL$/, 'FAILED'],
  [/ \.\.\. ERROR$/, 'ERROR'],
];

export class DjangoLogParser implements LogLineParser {
  private readonly out: Record<string, TestStatus> = {};
  private count = 0;
  private dropped = 0;
  private pending: string | undefined;

  line(raw: string): void {
    const line = raw.trim();
    for (const [re, status] of OUTCOMES) {
      const m = re.exec(line);
      if (m) {
        this.put(line.slice(0, m.index), status);
        this.pending = undefined;
        return;
      }
    }
    const head = /^(FAIL|ERROR): (.+)$/.exec(line);
    if (head) {
      // `FAIL: test_x (module.Class)` headers of the failure details: the name up to the closing parenthesis.
      this.put((head[2] as string).replace(/\s+$/, ''), head[1] === 'FAIL' ? 'FAILED' : 'ERROR');
      return;
    }
    if (line.includes(' ... ')) {
      // The outcome comes on a later line when the test printed something in between.
      this.pending = line.slice(0, line.indexOf(' ... '));
      return;
    }
    if (this.pending && /^(ok|OK)$/.test(line)) {
      this.put(this.pending, 'PASSED');
      this.pending = undefined;
    } else if (this.pending && /^(FAIL|ERROR)$/.test(line)) {
      this.put(this.pending, line === 'FAIL' ? 'FAILED' : 'ERROR');
      this.pending = undefined;
    }
  }

  finish(): ParsedTestLog {
    return { tests: { ...this.out }, conflicts: [], conflictCount: 0, droppedNames: this.dropped };
  }

  private put(name: string, status: TestStatus): void {
    if (!(name in this.out)) {
      if (this.count >= MAX_REPORTED_TESTS) {
        this.dropped++;
        return;
      }
      this.count++;
    }
    record(this.out, name, status);
  }
}

export function parseDjango(text: string): Record<string, TestStatus> {
  return parseLines(text, () => new DjangoLogParser()).tests;
}
