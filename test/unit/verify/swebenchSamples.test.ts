// Our parsing and grading of real SWE-bench harness logs must reproduce the harness's own report.json verdicts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { TestCase } from '../../../src/core/model';
import { gradeTests } from '../../../src/core/verify/grading';
import { parseTestOutput } from '../../../src/core/verify/judge';

// `../shared/samples` beside the repository (found upwards, so a worktree in a subfolder finds it too).
function findSamples(): string {
  for (let d = path.resolve(__dirname, '../../..'); ; d = path.dirname(d)) {
    const p = path.join(d, '..', 'shared', 'samples', 'swebench');
    if (fs.existsSync(p) || path.dirname(d) === d) return p;
  }
}
const samples = findSamples();

interface Row {
  instance_id: string;
  FAIL_TO_PASS: string | string[];
  PASS_TO_PASS: string | string[];
}

function rows(): Map<string, Row> {
  const out = new Map<string, Row>();
  const dir = path.join(samples, 'instances');
  for (const f of fs.readdirSync(dir)) {
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    const list: Row[] = f.endsWith('.jsonl')
      ? text.split(/\r?\n/).filter((l) => l.trim()).map((l) => JSON.parse(l) as Row)
      : (JSON.parse(text) as Row[]);
    for (const r of list) out.set(r.instance_id, r);
  }
  return out;
}

const ids = (v: string | string[]): string[] => (Array.isArray(v) ? v : (JSON.parse(v) as string[]));

interface Report {
  resolved: boolean;
  tests_status: Record<'FAIL_TO_PASS' | 'PASS_TO_PASS', { success: string[]; failure: string[] }>;
}

const cases: { instance: string; solver: string; dir: string }[] = [];
for (const instance of fs.readdirSync(path.join(samples, 'harness_logs'))) {
  for (const solver of fs.readdirSync(path.join(samples, 'harness_logs', instance))) {
    const dir = path.join(samples, 'harness_logs', instance, solver);
    if (fs.existsSync(path.join(dir, 'test_output.txt')) && fs.existsSync(path.join(dir, 'report.json'))) {
      cases.push({ instance, solver, dir });
    }
  }
}

test('the samples hold harness logs with reports to compare against', () => {
  assert.ok(cases.length >= 8, `only ${cases.length} harness logs found under ${samples}`);
});

for (const c of cases) {
  test(`grading ${c.instance} / ${c.solver} reproduces report.json`, () => {
    const row = rows().get(c.instance);
    assert.ok(row, `no task row for ${c.instance}`);
    const tests: TestCase[] = [
      ...ids(row.FAIL_TO_PASS).map((name, i) => ({ id: `f${i}`, name, kind: 'fail_to_pass' as const, specs: [] })),
      ...ids(row.PASS_TO_PASS).map((name, i) => ({ id: `p${i}`, name, kind: 'pass_to_pass' as const, specs: [] })),
    ];
    const log = fs.readFileSync(path.join(c.dir, 'test_output.txt'), 'utf8');
    const format = c.instance.startsWith('django__') ? 'django' : 'pytest';
    const parsed = parseTestOutput(format, log);
    assert.equal(parsed.from, format);
    const grade = gradeTests(tests, parsed.tests);
    const report = (JSON.parse(fs.readFileSync(path.join(c.dir, 'report.json'), 'utf8')) as Record<string, Report>)[c.instance];
    assert.ok(report);
    assert.equal(grade.resolved, report.resolved);
    for (const [ours, theirs] of [
      [grade.failToPass, report.tests_status.FAIL_TO_PASS],
      [grade.passToPass, report.tests_status.PASS_TO_PASS],
    ] as const) {
      assert.deepEqual([...ours.success].sort(), [...theirs.success].sort());
      // SWE-bench counts a test it cannot find as a failure; we list it as missing instead.
      assert.deepEqual([...ours.failure, ...ours.missing].sort(), [...theirs.failure].sort());
      assert.deepEqual(ours.skipped, []);
    }
  });
}
