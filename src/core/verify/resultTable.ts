// The per-test statuses a line parser collects, for the runners whose output names each test on one line (go test,
// cargo test, Maven/Gradle, Jest): a failure is never overwritten by a success (the same name twice is a rerun, a
// `-count=2`, or two tests that share a title: hiding a failure would be the worse mistake), names are bounded, and
// tests seen with different outcomes are listed as conflicts.
import type { TestStatus } from '../model';
import type { ParsedTestLog, StatusConflict } from './markedLog';
import { MAX_REPORTED_TESTS, outcomeClass } from './parsePytest';

const MAX_CONFLICTS = 50;

export class ResultTable {
  private readonly settled = new Map<string, TestStatus>();
  /** Statuses seen per test when more than one was (the first is the settled one until then). */
  private readonly seen = new Map<string, TestStatus[]>();
  private dropped = 0;

  constructor(private readonly limit = MAX_REPORTED_TESTS) {}

  get size(): number {
    return this.settled.size;
  }

  has(name: string): boolean {
    return this.settled.has(name);
  }

  get(name: string): TestStatus | undefined {
    return this.settled.get(name);
  }

  put(name: string, status: TestStatus): void {
    const prev = this.settled.get(name);
    if (prev === undefined) {
      if (this.settled.size >= this.limit) {
        this.dropped++;
        return;
      }
      this.settled.set(name, status);
      return;
    }
    if (prev !== status) {
      const list = this.seen.get(name) ?? [prev];
      if (!list.includes(status)) list.push(status);
      this.seen.set(name, list);
    }
    if (outcomeClass(prev) === 'failure' && outcomeClass(status) !== 'failure') return;
    this.settled.set(name, status);
  }

  /** The statuses as a log's result; `extra` adds what the parser itself found (counts, notes). */
  finish(extra: Partial<Pick<ParsedTestLog, 'countMismatch' | 'unclosed' | 'note'>> = {}): ParsedTestLog {
    const tests: Record<string, TestStatus> = {};
    for (const [k, v] of this.settled) tests[k] = v;
    const conflicts: StatusConflict[] = [];
    let conflictCount = 0;
    for (const [test, seen] of this.seen) {
      if (new Set(seen.map(outcomeClass)).size < 2) continue;
      conflictCount++;
      if (conflicts.length < MAX_CONFLICTS) conflicts.push({ test, seen, settled: this.settled.get(test) as TestStatus });
    }
    return {
      tests,
      conflicts,
      conflictCount,
      ...(extra.countMismatch ? { countMismatch: extra.countMismatch } : {}),
      ...(extra.unclosed ? { unclosed: extra.unclosed } : {}),
      ...(extra.note ? { note: extra.note } : {}),
      droppedNames: this.dropped,
    };
  }
}
