// A verdict per spec through the spec-test map: a spec passes when every test covering it succeeded, fails when one
// failed, and is unknown when no test covers it, a covering test was missing or skipped, or the run is not graded.
import type { Spec, SpecVerdict, TestCase } from '../model';
import { isFailure, isSuccess } from './grading';
import type { GradedTestStatus } from './runResult';

/** Tests covering each spec, by spec id (specs no test covers map to an empty list). */
export function coveringTests(specs: Spec[], tests: TestCase[]): Map<string, TestCase[]> {
  const out = new Map<string, TestCase[]>(specs.map((s) => [s.id, []]));
  for (const t of tests) {
    for (const id of t.specs) out.get(id)?.push(t);
  }
  return out;
}

export function specVerdicts(
  specs: Spec[],
  tests: TestCase[],
  statuses: Record<string, GradedTestStatus>,
  graded: boolean,
): Record<string, SpecVerdict> {
  const out: Record<string, SpecVerdict> = {};
  const cover = coveringTests(specs, tests);
  for (const s of specs) {
    const ts = cover.get(s.id) ?? [];
    if (!graded || ts.length === 0) {
      out[s.id] = 'unknown';
      continue;
    }
    const st = ts.map((t) => statuses[t.name]);
    if (st.some((x) => isFailure(x))) out[s.id] = 'fail';
    else if (st.every((x) => isSuccess(x))) out[s.id] = 'pass';
    else out[s.id] = 'unknown';
  }
  return out;
}
