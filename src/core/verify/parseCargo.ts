// Per-test statuses from `cargo test` output (libtest's `test path::name ... ok` lines, as SWE-bench's
// `parse_log_cargo` reads them; `ignored` is SKIPPED, as Multi-SWE-bench counts it). Doc tests keep their whole
// name (`src/lib.rs - f (line 10)`), `- should panic` is not part of a name, and with `--nocapture` a status printed
// on a later line (`test x ... ` + the test's own output + `ok`) still belongs to its test.
//
// Trust: each test binary announces its tests (`running N tests`) and ends with its own counts (`test result: ok.
// 2 passed; 1 failed; 0 ignored; ...`); the results between must agree with those counts, and a binary whose block
// never closed did not finish.
import type { TestStatus } from '../model';
import type { LogLineParser, ParsedTestLog } from './markedLog';
import { parseLines } from './markedLog';
import { ResultTable } from './resultTable';

const RUNNING_RE = /^running (\d+) tests?$/;
const TEST_RE = /^test (.+?) \.\.\.(?: (?:(ok|FAILED|ignored)(?:, .*)?|(.*)))?$/;
const RESULT_RE = /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; \d+ measured; \d+ filtered out/;
const STATUS: Record<string, TestStatus> = { ok: 'PASSED', FAILED: 'FAILED', ignored: 'SKIPPED' };

interface Block {
  index: number;
  announced: number;
  counts: Record<'ok' | 'FAILED' | 'ignored', number>;
}

export class CargoTestLogParser implements LogLineParser {
  private readonly table = new ResultTable();
  private block?: Block;
  private blocks = 0;
  private pending?: string;
  private countMismatch?: string;
  private unclosed?: string;

  line(raw: string): void {
    const l = raw.trim();
    const run = RUNNING_RE.exec(l);
    if (run) {
      this.closeUnfinished();
      this.block = { index: ++this.blocks, announced: Number(run[1]), counts: { ok: 0, FAILED: 0, ignored: 0 } };
      return;
    }
    const t = TEST_RE.exec(l);
    if (t) {
      const name = (t[1] as string).replace(/ - should panic$/, '');
      const outcome = t[2] as 'ok' | 'FAILED' | 'ignored' | undefined;
      if (outcome) this.result(name, outcome);
      else if (!/^bench:/.test(t[3] ?? '')) this.pending = name;
      return;
    }
    if (this.pending && (l === 'ok' || l === 'FAILED' || l === 'ignored' || /\.\.\. (ok|FAILED)$/.test(l))) {
      const outcome = (l.endsWith('FAILED') ? 'FAILED' : l.endsWith('ignored') ? 'ignored' : 'ok') as 'ok' | 'FAILED' | 'ignored';
      this.result(this.pending, outcome);
      return;
    }
    const r = RESULT_RE.exec(l);
    if (r) {
      const b = this.block;
      this.block = undefined;
      this.pending = undefined;
      if (!b) return;
      const [passed, failed, ignored] = [Number(r[1]), Number(r[2]), Number(r[3])];
      if (passed !== b.counts.ok || failed !== b.counts.FAILED || ignored !== b.counts.ignored) {
        this.countMismatch ??=
          `test binary ${b.index} reported ${passed} passed, ${failed} failed, ${ignored} ignored, ` +
          `but its result lines say ${b.counts.ok} passed, ${b.counts.FAILED} failed, ${b.counts.ignored} ignored`;
      }
    }
  }

  finish(): ParsedTestLog {
    this.closeUnfinished();
    return this.table.finish({
      ...(this.countMismatch ? { countMismatch: this.countMismatch } : {}),
      ...(this.unclosed ? { unclosed: this.unclosed } : {}),
    });
  }

  private result(name: string, outcome: 'ok' | 'FAILED' | 'ignored'): void {
    this.pending = undefined;
    if (this.block) this.block.counts[outcome]++;
    this.table.put(name, STATUS[outcome] as TestStatus);
  }

  private closeUnfinished(): void {
    const b = this.block;
    if (b && b.announced > 0) {
      this.unclosed ??= `test binary ${b.index} announced ${b.announced} test(s) but never printed its "test result:" line: it did not finish`;
    }
    this.block = undefined;
  }
}

export function parseCargoTest(text: string): Record<string, TestStatus> {
  return parseLines(text, () => new CargoTestLogParser()).tests;
}
