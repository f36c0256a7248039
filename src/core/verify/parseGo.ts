// Per-test statuses from `go test -v` output, the way SWE-bench's `parse_log_gotest` reads them (`--- PASS: TestA
// (0.00s)`, subtests by their full name `TestA/case_1`, indented or not), plus what go test says about each package
// (`ok  \tpkg\t0.02s`, `FAIL\tpkg [build failed]`: recorded under the package's import path, so a package that did
// not build counts as a failure, as Multi-SWE-bench's Go parsers count it).
//
// Trust: with `-v` every test announces itself (`=== RUN   TestA`) before its result, so a result line for a test
// that never started was not printed by go test; a test that started in a package go test reports as FAIL without
// a result of its own (a panic, os.Exit, a timeout) is a failure; and output that ends with tests started but no
// closing line (`PASS`, `FAIL`, `ok  pkg`) did not come from a finished run.
import type { TestStatus } from '../model';
import type { LogLineParser, ParsedTestLog } from './markedLog';
import { parseLines } from './markedLog';
import { MAX_REPORTED_TESTS } from './parsePytest';
import { ResultTable } from './resultTable';

const RESULT_RE = /^--- (PASS|FAIL|SKIP): (\S+)(?: \(([^)]*)\))?$/;
const RUN_RE = /^=== RUN\s+(\S+)$/;
// `ok  \tpkg\t0.02s`, `ok  \tpkg\t(cached)`, `FAIL\tpkg\t0.02s`, `FAIL\tpkg [build failed]`, `FAIL\tpkg [setup failed]`.
const PACKAGE_RE = /^(ok|FAIL)\s+(\S+)(?:\s+(?:\(cached\)|[\d.]+s|\[(build|setup) failed\]))(?:\s.*)?$/;
const STATUS: Record<string, TestStatus> = { PASS: 'PASSED', FAIL: 'FAILED', SKIP: 'SKIPPED' };

export class GoTestLogParser implements LogLineParser {
  private readonly table = new ResultTable();
  /** Tests announced by `=== RUN` in the current package's block and not yet reported. */
  private running = new Set<string>();
  private announced = new Set<string>();
  private anyRun = false;
  private checking = true;
  private unannounced = 0;
  private firstUnannounced?: string;
  private stopped = 0;

  line(raw: string): void {
    const l = raw.trim();
    const run = RUN_RE.exec(l);
    if (run) {
      this.anyRun = true;
      this.running.add(run[1] as string);
      if (this.announced.size < MAX_REPORTED_TESTS) this.announced.add(run[1] as string);
      else this.checking = false; // too many names to check against: the check is off, not wrong
      return;
    }
    const r = RESULT_RE.exec(l);
    if (r) {
      const name = r[2] as string;
      if (this.anyRun && this.checking && !this.announced.has(name)) {
        this.unannounced++;
        this.firstUnannounced ??= name;
      }
      this.running.delete(name);
      this.table.put(name, STATUS[r[1] as string] as TestStatus);
      return;
    }
    if (l === 'PASS' || l === 'FAIL') {
      this.endBlock(l === 'FAIL');
      return;
    }
    const p = PACKAGE_RE.exec(l);
    if (p) {
      const failed = p[1] === 'FAIL';
      this.endBlock(failed);
      this.table.put(p[2] as string, failed ? 'FAILED' : 'PASSED');
    }
  }

  finish(): ParsedTestLog {
    const extra: { countMismatch?: string; unclosed?: string; note?: string } = {};
    if (this.unannounced > 0) {
      extra.countMismatch = `${this.unannounced} result line(s) for tests go test never started (no "=== RUN" line), e.g. ${this.firstUnannounced}`;
    }
    if (this.running.size > 0) {
      extra.unclosed = `${this.running.size} test(s) started ("=== RUN") but the output ends before go test reported them or their package`;
    }
    if (this.stopped > 0) extra.note = `${this.stopped} test(s) started in a failed package but printed no result (the test binary stopped): counted as failed`;
    return this.table.finish(extra);
  }

  /** A package's output ended: tests it started without a result stopped with the binary when it failed. */
  private endBlock(failed: boolean): void {
    if (failed) {
      for (const name of this.running) {
        if (this.table.has(name)) continue;
        this.table.put(name, 'FAILED');
        this.stopped++;
      }
    }
    this.running = new Set();
  }
}

export function parseGoTest(text: string): Record<string, TestStatus> {
  return parseLines(text, () => new GoTestLogParser()).tests;
}
