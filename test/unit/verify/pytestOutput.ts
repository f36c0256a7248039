// Realistic pytest output for the grading tests, in the shape pytest 7.2 (the base image's) prints with `-rA` and
// optionally `-v`: the session header, `collected N items`, the verbose lines, the short test summary in pytest's
// order (PASSED, SKIPPED folded by location, XFAIL, XPASS, ERROR, FAILED) and the closing counts line.
import type { TestStatus } from '../../../src/core/model';

export interface PytestResult {
  id: string;
  status: TestStatus;
  message?: string;
}

export interface PytestOutputOptions {
  verbose?: boolean;
  /** Lines printed before the short summary (a PASSES or FAILURES section with captured output). */
  captured?: string[];
  /** Override the `collected` count, or drop the line (null). */
  collected?: number | null;
  /** Override the closing line's text (between the `=` runs), or drop it (null). */
  closing?: string | null;
}

const WORD: Record<TestStatus, string> = { PASSED: 'passed', FAILED: 'failed', ERROR: 'errors', SKIPPED: 'skipped', XFAIL: 'xfailed', XPASS: 'xpassed' };
const ORDER: TestStatus[] = ['FAILED', 'PASSED', 'SKIPPED', 'XFAIL', 'XPASS', 'ERROR'];

export function pytestOutput(results: PytestResult[], o: PytestOutputOptions = {}): string {
  const ids = new Set(results.map((r) => r.id));
  const lines = [
    '============================= test session starts ==============================',
    'platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0+repack',
    'rootdir: /repo',
  ];
  if (o.collected !== null) lines.push(`${o.verbose ? 'collecting ... ' : ''}collected ${o.collected ?? ids.size} items`);
  lines.push('');
  if (o.verbose) {
    let i = 0;
    for (const r of results) {
      const pct = String(Math.round((100 * ++i) / results.length)).padStart(3);
      lines.push(`${r.id} ${r.status}${r.status === 'SKIPPED' ? ` (${r.message ?? 'skipped'})` : ''}`.padEnd(72) + ` [${pct}%]`);
    }
  } else lines.push(`tests/test_x.py ${'.'.repeat(results.length)}`.padEnd(72) + ' [100%]');
  lines.push('', ...(o.captured ?? []));
  lines.push('=========================== short test summary info ============================');
  const by = (s: TestStatus) => results.filter((r) => r.status === s);
  for (const r of by('PASSED')) lines.push(`PASSED ${r.id}`);
  const skips = by('SKIPPED');
  if (skips.length > 0) lines.push(`SKIPPED [${skips.length}] tests/test_x.py:7: ${skips[0]?.message ?? 'skipped'}`);
  for (const s of ['XFAIL', 'XPASS', 'ERROR', 'FAILED'] as const) for (const r of by(s)) lines.push(`${s} ${r.id}${r.message ? ` - ${r.message}` : ''}`);
  if (o.closing !== null) {
    const counts = ORDER.filter((s) => by(s).length > 0).map((s) => `${by(s).length} ${WORD[s] === 'errors' && by(s).length === 1 ? 'error' : WORD[s]}`);
    const text = o.closing ?? `${counts.join(', ') || 'no tests ran'} in 0.42s`;
    lines.push(`${'='.repeat(Math.max(1, 39 - Math.ceil(text.length / 2)))} ${text} ${'='.repeat(Math.max(1, 39 - Math.floor(text.length / 2)))}`);
  }
  return `${lines.join('\n')}\n`;
}
