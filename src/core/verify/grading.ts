// SWE-bench-style grading: FAIL_TO_PASS and PASS_TO_PASS success and failure lists and the resolved verdict, plus
// what SWE-bench leaves silent (tests reported by no one, skipped tests) and how loosely each test was matched.
import type { TestCase, TestStatus } from '../model';
import type { Grade, GradeLists, GradedTestStatus, LooseMatch } from './runResult';

const SUCCESS: ReadonlySet<TestStatus> = new Set<TestStatus>(['PASSED', 'XFAIL', 'XPASS']);
const FAILURE: ReadonlySet<TestStatus> = new Set<TestStatus>(['FAILED', 'ERROR']);

export function isSuccess(s: GradedTestStatus | undefined): boolean {
  return s !== undefined && s !== 'MISSING' && SUCCESS.has(s);
}

export function isFailure(s: GradedTestStatus | undefined): boolean {
  return s !== undefined && s !== 'MISSING' && FAILURE.has(s);
}

/** `tests/a.py::C::t[x]` and JUnit's `tests.a.C.t[x]` compare equal. */
export function normalizeTestName(name: string): string {
  const bracket = name.indexOf('[');
  const head = bracket < 0 ? name : name.slice(0, bracket);
  const tail = bracket < 0 ? '' : name.slice(bracket);
  return head.replace(/\.py::/g, '::').replace(/::|[\\/]/g, '.') + tail;
}

function unbalancedBracket(name: string): boolean {
  let depth = 0;
  for (const c of name) {
    if (c === '[') depth++;
    else if (c === ']') depth = Math.max(0, depth - 1);
  }
  return depth > 0;
}

/** The status of several reported tests one task test matched: any failure wins, then a skip. */
function combine(statuses: TestStatus[]): TestStatus {
  return statuses.find((s) => FAILURE.has(s)) ?? statuses.find((s) => s === 'SKIPPED') ?? (statuses[0] as TestStatus);
}

export interface TestMatcher {
  match(name: string): { status: GradedTestStatus; loose?: LooseMatch };
}

/**
 * Matches task test names against reported ones: exactly; else by prefix, only where one side is visibly cut (an
 * id with an unclosed `[`, as SWE-bench's whitespace split leaves parametrized ids, or a reported name ending in
 * `...` from a narrow terminal); else after normalising path and `::` separators.
 */
export function testMatcher(reported: Record<string, TestStatus>): TestMatcher {
  const names = Object.keys(reported);
  const byNorm = new Map<string, string[]>();
  for (const r of names) {
    const k = normalizeTestName(r);
    byNorm.set(k, [...(byNorm.get(k) ?? []), r]);
  }
  const cutReported = names.filter((r) => r.endsWith('...') && r.length > 3);
  return {
    match(name) {
      const exact = reported[name];
      if (exact) return { status: exact };
      let hits: string[] = [];
      if (unbalancedBracket(name)) hits = names.filter((r) => r.startsWith(name));
      if (hits.length === 0) hits = cutReported.filter((r) => name.startsWith(r.slice(0, -3)));
      if (hits.length > 0) {
        return { status: combine(hits.map((h) => reported[h] as TestStatus)), loose: { test: name, reported: hits, how: 'prefix' } };
      }
      const norm = byNorm.get(normalizeTestName(name));
      if (norm && norm.length > 0) {
        return { status: combine(norm.map((h) => reported[h] as TestStatus)), loose: { test: name, reported: norm, how: 'normalized' } };
      }
      return { status: 'MISSING' };
    },
  };
}

function emptyLists(): GradeLists {
  return { success: [], failure: [], missing: [], skipped: [] };
}

function put(lists: GradeLists, name: string, status: GradedTestStatus): void {
  if (status === 'MISSING') lists.missing.push(name);
  else if (SUCCESS.has(status)) lists.success.push(name);
  else if (FAILURE.has(status)) lists.failure.push(name);
  else lists.skipped.push(name);
}

/**
 * Grades the reported statuses against the task's tests. Resolved = every FAIL_TO_PASS and PASS_TO_PASS test
 * succeeded; a task with no tests is resolved only when nothing failed.
 */
export function gradeTests(tests: TestCase[], reported: Record<string, TestStatus>): Grade {
  const matcher = testMatcher(reported);
  const failToPass = emptyLists();
  const passToPass = emptyLists();
  const out: Record<string, GradedTestStatus> = {};
  const looseMatches: LooseMatch[] = [];
  for (const t of tests) {
    const { status, loose } = matcher.match(t.name);
    out[t.name] = status;
    if (loose) looseMatches.push(loose);
    put(t.kind === 'fail_to_pass' ? failToPass : passToPass, t.name, status);
  }
  const allGood = (l: GradeLists) => l.failure.length === 0 && l.missing.length === 0 && l.skipped.length === 0;
  const resolved =
    tests.length > 0
      ? allGood(failToPass) && allGood(passToPass)
      : Object.values(reported).every((s) => !FAILURE.has(s));
  return { failToPass, passToPass, resolved, tests: out, looseMatches };
}
