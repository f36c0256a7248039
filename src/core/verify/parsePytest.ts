// Per-test statuses from pytest output: the `-rA` short summary (`PASSED x`, `FAILED x - msg`...) and, where there
// is no summary line for a test, the verbose `x PASSED [ 10%]` lines.
import type { TestStatus } from '../model';

const STATUSES = ['PASSED', 'FAILED', 'ERROR', 'SKIPPED', 'XFAIL', 'XPASS'] as const;
const SUMMARY_RE = /^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\s+(\S.*)$/;
// `path::test[param] PASSED [ 10%]`, also with pytest-xdist's `[gw0] [ 10%] PASSED path::test`.
const VERBOSE_RE = /^(\S+::.+?)\s+(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(?:\s+\(.*\))?(?:\s+\[\s*\d+%\])?\s*$/;
const XDIST_RE = /^\[gw\d+\]\s+(?:\[\s*\d+%\]\s+)?(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\s+(\S.*)$/;
// eslint-disable-next-line no-control-regex
const ANSI_RE = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;

/** Strips ANSI colour codes and carriage returns so coloured or CRLF logs parse like plain ones. */
export function plainLines(text: string): string[] {
  return text.replace(ANSI_RE, '').split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** Slices a SWE-bench log between its `>>>>> Start Test Output` and `>>>>> End Test Output` markers when present. */
export function testOutputSection(text: string): string {
  const start = text.indexOf('>>>>> Start Test Output');
  if (start < 0) return text;
  const from = text.indexOf('\n', start);
  const end = text.indexOf('>>>>> End Test Output', from);
  return text.slice(from < 0 ? text.length : from + 1, end < 0 ? undefined : end);
}

const FAILURE: ReadonlySet<TestStatus> = new Set<TestStatus>(['FAILED', 'ERROR']);

/** Records `status` for `name`; a failure is never overwritten by a later success of the same test (teardown errors). */
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

export function parsePytest(text: string): Record<string, TestStatus> {
  const summary: Record<string, TestStatus> = {};
  const verbose: Record<string, TestStatus> = {};
  for (const line of plainLines(testOutputSection(text))) {
    const s = SUMMARY_RE.exec(line);
    if (s) {
      const status = s[1] as TestStatus;
      const rest = s[2] as string;
      // `SKIPPED [1] tests/x.py:12: reason` names a location, not a test.
      if (status === 'SKIPPED' && rest.startsWith('[')) continue;
      const id = nodeIdOf(rest);
      if (id.length > 0) record(summary, id, status);
      continue;
    }
    const x = XDIST_RE.exec(line);
    if (x) {
      record(verbose, nodeIdOf(x[2] as string), x[1] as TestStatus);
      continue;
    }
    const v = VERBOSE_RE.exec(line);
    if (v) record(verbose, v[1] as string, v[2] as TestStatus);
  }
  const out: Record<string, TestStatus> = { ...verbose };
  for (const [k, st] of Object.entries(summary)) record(out, k, st);
  return out;
}

export function isTestStatus(s: string): s is TestStatus {
  return (STATUSES as readonly string[]).includes(s);
}
