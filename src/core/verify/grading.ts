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

export interface TestMatcher {
  match(name: string): { status: GradedTestStatus; loose?: LooseMatch };
}

/**
 * Matches task test names against reported ones: exactly; else by prefix, only where one side is visibly cut (an
 * id with an unclosed `[`, as SWE-bench's whitespace split leaves parametrized ids, or a reported name ending in
 * `...` from a narrow terminal); else after normalising path and `::` separators. A loose match counts only when it
 * is unique both ways: one reported name for the test, and one listed test claiming that reported name (exactly or
 * loosely). Otherwise the test is MISSING, and the candidates are listed as an `ambiguous` loose match.
 */
export function testMatcher(reported: Record<string, TestStatus>, listed: readonly string[] = []): TestMatcher {
  // Built on the first name that does not match exactly: a suite of 100,000 tests whose listed ones all match
  // exactly never pays for normalising every reported name.
  let index: { names: string[]; byNorm: Map<string, string[]>; cut: string[] } | undefined;
  const lookup = () => {
    if (index) return index;
    const names = Object.keys(reported);
    const byNorm = new Map<string, string[]>();
    for (const r of names) {
      const k = normalizeTestName(r);
      const list = byNorm.get(k);
      if (list) list.push(r);
      else byNorm.set(k, [r]);
    }
    index = { names, byNorm, cut: names.filter((r) => r.endsWith('...') && r.length > 3) };
    return index;
  };
  const candidates = (name: string): { how: 'prefix' | 'normalized'; reported: string[] } | undefined => {
    const { names, byNorm, cut } = lookup();
    const hits = new Set<string>();
    if (unbalancedBracket(name)) for (const r of names) if (r !== name && r.startsWith(name)) hits.add(r);
    for (const r of cut) if (name.startsWith(r.slice(0, -3))) hits.add(r);
    if (hits.size > 0) return { how: 'prefix', reported: [...hits] };
    const norm = (byNorm.get(normalizeTestName(name)) ?? []).filter((r) => r !== name);
    return norm.length > 0 ? { how: 'normalized', reported: norm } : undefined;
  };
  // How many listed tests claim each reported name, exactly or loosely.
  const claims = new Map<string, number>();
  const claim = (r: string) => claims.set(r, (claims.get(r) ?? 0) + 1);
  const loose = new Map<string, ReturnType<typeof candidates>>();
  for (const l of new Set(listed)) {
    if (reported[l]) {
      claim(l);
      continue;
    }
    const c = candidates(l);
    loose.set(l, c);
    for (const r of c?.reported ?? []) claim(r);
  }
  return {
    match(name) {
      const exact = reported[name];
      if (exact) return { status: exact };
      const c = loose.has(name) ? loose.get(name) : candidates(name);
      if (!c) return { status: 'MISSING' };
      const only = c.reported.length === 1 ? (c.reported[0] as string) : undefined;
      const claimedBy = only !== undefined ? (claims.get(only) ?? 0) + (loose.has(name) ? 0 : 1) : 0;
      if (only !== undefined && claimedBy === 1) {
        return { status: reported[only] as TestStatus, loose: { test: name, reported: [only], how: c.how } };
      }
      return { status: 'MISSING', loose: { test: name, reported: c.reported, how: 'ambiguous' } };
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
 * Grades the reported statuses against the task's tests. Resolved = every FAIL_TO_PASS test succeeded and no
 * PASS_TO_PASS test failed or is missing (a skipped PASS_TO_PASS test does not block resolution, a skipped
 * FAIL_TO_PASS test does: SWE-bench's rules); a task with no tests is resolved only when nothing failed.
 */
export function gradeTests(tests: TestCase[], reported: Record<string, TestStatus>): Grade {
  const matcher = testMatcher(reported, tests.map((t) => t.name));
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
  const noneBad = (l: GradeLists) => l.failure.length === 0 && l.missing.length === 0;
  const resolved =
    tests.length > 0
      ? noneBad(failToPass) && failToPass.skipped.length === 0 && noneBad(passToPass)
      : Object.values(reported).every((s) => !FAILURE.has(s));
  return { failToPass, passToPass, resolved, tests: out, looseMatches };
}
