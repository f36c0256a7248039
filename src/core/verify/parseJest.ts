// Per-test statuses from Jest and Vitest output: Jest's `--verbose` lines (`✓ title (12 ms)`, `✕ title`, `○ skipped
// title`) named by the test's title as SWE-bench's `parse_log_jest` names them, Vitest's `--reporter=verbose` lines
// (`✓ file > describe > title 3ms`, `×`, `↓ … [skipped]`) as `parse_log_vitest` does, and the `[PASSED] a > b > title`
// lines SWE-bench's jq transform prints from `jest --json` (`parse_log_jest_json`).
//
// Trust: the runner's closing counts (Jest's `Tests:  1 failed, 2 passed, 3 total`, Vitest's `Tests  1 failed | 2
// passed (3)`) bound the result lines: more passing (or failing) lines than the runner counted were not all printed
// by it. (Fewer is normal: Jest prints no per-test line for several files without `--verbose`.)
import type { TestStatus } from '../model';
import type { LogLineParser, ParsedTestLog } from './markedLog';
import { parseLines } from './markedLog';
import { ResultTable } from './resultTable';

const SYMBOL: Record<string, TestStatus> = { '✓': 'PASSED', '✔': 'PASSED', '√': 'PASSED', '✕': 'FAILED', '×': 'FAILED', '✗': 'FAILED', '○': 'SKIPPED', '↓': 'SKIPPED' };
const LINE_RE = /^([✓✔√✕×✗○↓])\s+(.+?)(?:\s+\(\d+(?:\.\d+)?\s*m?s\)|\s+\d+(?:\.\d+)?ms|\s+\[skipped\])?$/u;
const JSON_LINE_RE = /^\[(PASSED|FAILED)\]\s(.+)$/;
const JEST_COUNTS_RE = /^Tests:\s+(.*\d+ total)$/;
const VITEST_COUNTS_RE = /^Tests\s+(\d+ \w+(?: \| \d+ \w+)*)\s+\(\d+\)$/;

type Kind = 'passed' | 'failed' | 'skipped';
const KIND: Record<TestStatus, Kind> = { PASSED: 'passed', FAILED: 'failed', SKIPPED: 'skipped', ERROR: 'failed', XFAIL: 'passed', XPASS: 'passed' };

export class JestLogParser implements LogLineParser {
  private readonly table = new ResultTable();
  private readonly lines: Record<Kind, number> = { passed: 0, failed: 0, skipped: 0 };
  private readonly counted: Record<Kind, number> = { passed: 0, failed: 0, skipped: 0 };
  private summaries = 0;

  line(raw: string): void {
    const l = raw.trim();
    const m = LINE_RE.exec(l);
    if (m) {
      const status = SYMBOL[m[1] as string] as TestStatus;
      let name = (m[2] as string).trim();
      // Jest writes `○ skipped <title>` (and `✎ todo <title>`); the title is the name.
      if (status === 'SKIPPED') name = name.replace(/^(skipped|todo)\s+/, '');
      this.put(name, status);
      return;
    }
    const j = JSON_LINE_RE.exec(l);
    if (j) {
      this.put((j[2] as string).trim(), j[1] === 'PASSED' ? 'PASSED' : 'FAILED');
      return;
    }
    const c = JEST_COUNTS_RE.exec(l) ?? VITEST_COUNTS_RE.exec(l);
    if (c) {
      this.summaries++;
      for (const part of (c[1] as string).split(/\s*[,|]\s*/)) {
        const p = /^(\d+) (\w+)$/.exec(part);
        if (!p) continue;
        const word = p[2] as string;
        const kind: Kind | undefined = word === 'passed' ? 'passed' : word === 'failed' ? 'failed' : word === 'skipped' || word === 'todo' ? 'skipped' : undefined;
        if (kind) this.counted[kind] += Number(p[1]);
      }
    }
  }

  finish(): ParsedTestLog {
    let countMismatch: string | undefined;
    if (this.summaries > 0) {
      for (const kind of ['passed', 'failed'] as const) {
        if (this.lines[kind] > this.counted[kind]) {
          countMismatch = `${this.lines[kind]} ${kind} result line(s), but the runner counted ${this.counted[kind]} ${kind}`;
          break;
        }
      }
    }
    return this.table.finish(countMismatch ? { countMismatch } : {});
  }

  private put(name: string, status: TestStatus): void {
    this.lines[KIND[status]]++;
    this.table.put(name, status);
  }
}

export function parseJest(text: string): Record<string, TestStatus> {
  return parseLines(text, () => new JestLogParser()).tests;
}
