// Per-test statuses from the text JVM build tools print, in the forms the benchmarks grade them:
// - one Maven run per test (SWE-bench Multilingual: `+ mvnd test ... -Dtest=Class#method`, then `BUILD SUCCESS` or
//   `BUILD FAILURE`), named by the `-Dtest=` value, results paired first-in first-out as SWE-bench's
//   `parse_log_maven` pairs them when traced commands and results interleave;
// - Surefire's per-class lines (`Running com.x.FooTest` ... `Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time
//   elapsed: 0.02 sec <<< FAILURE!`, Surefire 3's `... -- in com.x.FooTest`), one status per class as
//   Multi-SWE-bench reads them;
// - Surefire XML reports printed into the log (`cat target/surefire-reports/*.xml`, as SWE-PolyBench's commands do):
//   `<testcase>` elements named `classname.name`; discarded when the build failed before any test ran (reports left
//   over from an earlier build would be read as this run's);
// - Gradle's `Class > method PASSED|FAILED|SKIPPED` lines (SWE-bench's `parse_log_gradle_custom`, a status on a line
//   of its own included) and Ant's `[junit] [PASS] name` lines.
import type { TestStatus } from '../model';
import type { LogLineParser, ParsedTestLog } from './markedLog';
import { parseLines } from './markedLog';
import { parseJunit } from './parseJunit';
import { ResultTable } from './resultTable';

const DTEST_RE = /-Dtest=(\S+)/;
const BUILD_RE = /^(?:\[\w+\]\s+)?BUILD (SUCCESS|FAILURE)$/;
const RUNNING_RE = /^(?:\[\w+\]\s+)?Running ([\w.$]+)$/;
const CLASS_COUNTS_RE = /^(?:\[\w+\]\s+)?Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+), Time elapsed: [\d.,]+ ?s(?:ec)?\b(.*)$/;
const IN_CLASS_RE = /-+ in ([\w.$]+)/;
const GRADLE_RE = /^([^>\s].*?\S)\s+(PASSED|FAILED|SKIPPED)$/;
const GRADLE_NAME_RE = /^([^>\s]\S*\s+>\s+\S.*)$/;
const ANT_RE = /^\[junit\]\s+\[(PASS|FAIL|ERR)\]\s+(.*)$/;
/** Bytes of printed XML reports kept for reading at the end. */
const MAX_XML_BYTES = 16 * 1024 * 1024;

export class JvmTestLogParser implements LogLineParser {
  private readonly table = new ResultTable();
  private readonly pendingTests: string[] = [];
  private readonly pendingResults: TestStatus[] = [];
  private currentClass?: string;
  private gradlePending?: string;
  private xml?: string[];
  private readonly reports: string[] = [];
  private xmlBytes = 0;
  private xmlCut = false;
  private buildFailed = false;
  private testFailures = false;

  line(raw: string): void {
    const l = raw.trim();
    if (this.xml) {
      this.addXml(raw);
      if (l.includes('</testsuite>')) this.endXml();
      return;
    }
    const at = l.indexOf('<testsuite');
    if (at >= 0 && !l.startsWith('<testsuites', at)) {
      this.xml = [];
      this.addXml(l.slice(at));
      if (l.includes('</testsuite>')) this.endXml();
      return;
    }
    if (/BUILD FAILURE|COMPILATION ERROR/i.test(l)) this.buildFailed = true;
    if (/There are test failures/i.test(l)) this.testFailures = true;

    const dtest = DTEST_RE.exec(l);
    if (dtest && !BUILD_RE.test(l)) {
      this.pendingTests.push(dtest[1] as string);
      return;
    }
    const build = BUILD_RE.exec(l);
    if (build) {
      const status: TestStatus = build[1] === 'SUCCESS' ? 'PASSED' : 'FAILED';
      const name = this.pendingTests.shift();
      if (name) this.table.put(name, status);
      // A result printed before its traced command: paired in order at the end, as SWE-bench pairs them.
      else this.pendingResults.push(status);
      return;
    }
    const running = RUNNING_RE.exec(l);
    if (running) {
      this.currentClass = running[1];
      return;
    }
    const counts = CLASS_COUNTS_RE.exec(l);
    if (counts) {
      const name = IN_CLASS_RE.exec(counts[5] ?? '')?.[1] ?? this.currentClass;
      this.currentClass = undefined;
      if (!name) return;
      const [run, failures, errors, skipped] = [Number(counts[1]), Number(counts[2]), Number(counts[3]), Number(counts[4])];
      if (failures > 0 || errors > 0) this.table.put(name, 'FAILED');
      else if (run > 0 && skipped === run) this.table.put(name, 'SKIPPED');
      else if (run > 0) this.table.put(name, 'PASSED');
      return;
    }
    const ant = ANT_RE.exec(l);
    if (ant) {
      this.table.put((ant[2] as string).trim(), ant[1] === 'PASS' ? 'PASSED' : 'FAILED');
      return;
    }
    const gradle = GRADLE_RE.exec(l);
    if (gradle && (gradle[1] as string).includes(' > ')) {
      this.table.put(gradle[1] as string, gradle[2] as TestStatus);
      this.gradlePending = undefined;
      return;
    }
    if (this.gradlePending && /^(PASSED|FAILED|SKIPPED)$/.test(l)) {
      this.table.put(this.gradlePending, l as TestStatus);
      this.gradlePending = undefined;
      return;
    }
    if (GRADLE_NAME_RE.test(l) && !l.includes('Task :')) this.gradlePending = l;
  }

  finish(): ParsedTestLog {
    if (this.xml) this.endXml();
    // Results whose command came later than expected, paired in order (SWE-bench's fallback).
    while (this.pendingTests.length > 0 && this.pendingResults.length > 0) {
      this.table.put(this.pendingTests.shift() as string, this.pendingResults.shift() as TestStatus);
    }
    const notes: string[] = [];
    if (this.reports.length > 0) {
      if (this.buildFailed && !this.testFailures) {
        notes.push(`the build failed before any test ran: the ${this.reports.length} Surefire report(s) printed in the log were not read`);
      } else {
        for (const xml of this.reports) {
          const j = parseJunit(xml);
          for (const [name, status] of Object.entries(j.tests)) this.table.put(name, status);
          if (j.error) notes.push(`a Surefire report printed in the log is cut short (${j.error})`);
        }
      }
    }
    if (this.xmlCut) notes.push('Surefire reports beyond 16 MiB were not read');
    if (this.pendingTests.length > 0) notes.push(`${this.pendingTests.length} test command(s) (-Dtest=...) had no BUILD result`);
    return this.table.finish(notes.length > 0 ? { note: notes.join('; ') } : {});
  }

  private addXml(text: string): void {
    if (!this.xml) return;
    this.xmlBytes += text.length + 1;
    if (this.xmlBytes > MAX_XML_BYTES) {
      this.xmlCut = true;
      this.xml = undefined;
      return;
    }
    this.xml.push(text);
  }

  private endXml(): void {
    if (this.xml) {
      const text = this.xml.join('\n');
      const end = text.indexOf('</testsuite>');
      this.reports.push(end >= 0 ? text.slice(0, end + '</testsuite>'.length) : text);
    }
    this.xml = undefined;
  }
}

export function parseJvmTests(text: string): Record<string, TestStatus> {
  return parseLines(text, () => new JvmTestLogParser()).tests;
}
