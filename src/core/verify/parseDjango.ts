// Per-test statuses from Django's test runner at verbosity 2 (`test_x (module.Class) ... ok`), the way SWE-bench
// reads them: a test with a docstring is named by the docstring's first line, which is what SWE-bench ids hold.
import type { TestStatus } from '../model';
import { plainLines, record, testOutputSection } from './parsePytest';

const OUTCOMES: [RegExp, TestStatus][] = [
  [/ \.\.\. {1,2}(ok|OK)$/, 'PASSED'],
  [/ \.\.\. skipped\b.*$/, 'SKIPPED'],
  [/ \.\.\. expected failure$/, 'XFAIL'],
  [/ \.\.\. unexpected success$/, 'FAILED'],
  [/ \.\.\. FAIL$/, 'FAILED'],
  [/ \.\.\. ERROR$/, 'ERROR'],
];

export function parseDjango(text: string): Record<string, TestStatus> {
  const out: Record<string, TestStatus> = {};
  let pending: string | undefined;
  for (const raw of plainLines(testOutputSection(text))) {
    const line = raw.trim();
    let matched = false;
    for (const [re, status] of OUTCOMES) {
      const m = re.exec(line);
      if (m) {
        record(out, line.slice(0, m.index), status);
        matched = true;
        pending = undefined;
        break;
      }
    }
    if (matched) continue;
    const head = /^(FAIL|ERROR): (.+)$/.exec(line);
    if (head) {
      // `FAIL: test_x (module.Class)` headers of the failure details: the name up to the closing parenthesis.
      const name = (head[2] as string).replace(/\s+$/, '');
      record(out, name, head[1] === 'FAIL' ? 'FAILED' : 'ERROR');
      continue;
    }
    if (line.includes(' ... ')) {
      // The outcome comes on a later line when the test printed something in between.
      pending = line.slice(0, line.indexOf(' ... '));
      continue;
    }
    if (pending && /^(ok|OK)$/.test(line)) {
      record(out, pending, 'PASSED');
      pending = undefined;
    } else if (pending && /^(FAIL|ERROR)$/.test(line)) {
      record(out, pending, line === 'FAIL' ? 'FAILED' : 'ERROR');
      pending = undefined;
    }
  }
  return out;
}
