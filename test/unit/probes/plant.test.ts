// The planted-defect transforms on Python test patches: dropping an assertion (a planted false positive), adding an
// over-strict exact-message assertion (a planted false negative), hunk headers kept consistent, the reasons when a
// task cannot be planted; and the recall of probes and agent on planted copies.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import type { FindingsPayload } from '../../../src/core/findings/model';
import type { CandidateTask } from '../../../src/core/model';
import { parsePatch } from '../../../src/core/patch';
import type { AlternativesReport } from '../../../src/core/probes/llmPatches';
import type { MutationReport } from '../../../src/core/probes/mutantReport';
import type { PlantedTruth } from '../../../src/core/probes/plant';
import { addedTests, goldMessagePrefix, plantFalseNegative, plantFalsePositive, scorePlanted } from '../../../src/core/probes/plant';
import type { FindingsRecord } from '../../../src/core/review/reducer';

const EXAMPLE = path.resolve(__dirname, '../../../examples/dataset');
const ds = loadDataset(EXAMPLE);
const task = (id: string) => ds.tasks.find((t) => t.id === id) as CandidateTask;
const text = (rel: string) => fs.readFileSync(path.join(EXAMPLE, rel), 'utf8');

/** The new side of a file in a patch, hunk by hunk (what the tests read after it applies). */
function newSide(patch: string, file: string): string {
  const f = parsePatch(patch).files.find((x) => x.newPath === file);
  assert.ok(f, `no ${file} in the patch`);
  return f.hunks.flatMap((h) => h.lines.filter((l) => !l.startsWith('-')).map((l) => l.slice(1))).join('\n');
}

describe('planting a false positive (drop an assertion)', () => {
  const t = task('format-precision');
  const tp = text(t.files.testPatch);

  it("drops the first assertion of the first spec-mapped test with two or more, keeping the patch's hunks consistent", () => {
    const r = plantFalsePositive(t, tp);
    assert.ok(r.ok, r.ok ? '' : r.reason);
    assert.deepEqual(r.defect, {
      kind: 'false_positive',
      test: 'tests/test_format.py::test_precision_rounds_half_up',
      specs: ['A1', 'A2'],
      file: 'tests/test_format.py',
      line: 34,
      assertion: 'assert format_duration(90, precision="m") == "2m"',
    });
    assert.deepEqual(parsePatch(r.patch).problems, []);
    const after = newSide(r.patch, 'tests/test_format.py');
    assert.ok(!after.includes('format_duration(90, precision="m")'));
    assert.ok(after.includes('assert format_duration(89, precision="m") == "1m"'), 'the other assertions stay');
    assert.equal(tp.split('\n').length - r.patch.split('\n').length, 1);
  });

  it('drops a multi-line assertion whole, in a class, and shifts the later hunks of the file', () => {
    const patch = [
      'diff --git a/tests/test_x.py b/tests/test_x.py',
      '--- a/tests/test_x.py',
      '+++ b/tests/test_x.py',
      '@@ -1,2 +1,9 @@',
      ' import x',
      ' ',
      '+class TestX:',
      '+    def test_a(self):',
      '+        assert x.f(',
      '+            1, ")"',
      '+        ) == 2',
      '+        assert x.f(2) == 3',
      '+',
      '@@ -10,2 +17,3 @@ def other():',
      ' a',
      '+b',
      ' c',
      '',
    ].join('\n');
    const tk = { id: 't', tests: [{ id: 'T1', name: 'tests/test_x.py::TestX::test_a', kind: 'fail_to_pass' as const, specs: ['S1'] }] };
    assert.deepEqual(addedTests(patch).map((b) => b.id), ['tests/test_x.py::TestX::test_a']);
    const r = plantFalsePositive(tk, patch);
    assert.ok(r.ok, r.ok ? '' : r.reason);
    assert.equal(r.defect.assertion, 'assert x.f(\n            1, ")"\n        ) == 2');
    assert.deepEqual(parsePatch(r.patch).problems, []);
    assert.match(r.patch, /@@ -1,2 \+1,6 @@/);
    assert.match(r.patch, /@@ -10,2 \+14,3 @@ def other\(\):/);
  });

  it('with a named test, drops its only assertion (a pytest.raises block, call and all) and leaves `pass`', () => {
    const r = plantFalsePositive(t, tp, { test: 'tests/test_format.py::test_precision_unknown_unit' });
    assert.ok(r.ok, r.ok ? '' : r.reason);
    assert.equal(r.defect.assertion, 'with pytest.raises(ValueError, match="d.*h.*m.*s"):\n        format_duration(60, precision="w")');
    assert.deepEqual(parsePatch(r.patch).problems, []);
    assert.ok(newSide(r.patch, 'tests/test_format.py').endsWith('def test_precision_unknown_unit():\n    pass'));
    const none = plantFalsePositive(t, tp, { test: 'tests/test_format.py::no_such_test' });
    assert.ok(!none.ok);
    assert.match(none.reason, /no_such_test is not a spec-mapped test/);
  });

  it('says why when no spec-mapped test has two assertions', () => {
    const tk = { id: 't', tests: [{ id: 'T1', name: 'tests/test_x.py::test_a', kind: 'fail_to_pass' as const, specs: ['S1'] }] };
    const patch = '--- a/tests/test_x.py\n+++ b/tests/test_x.py\n@@ -1,1 +1,3 @@\n import x\n+def test_a():\n+    assert x.f() == 1\n';
    const r = plantFalsePositive(tk, patch);
    assert.ok(!r.ok);
    assert.match(r.reason, /two or more assertions/);
  });
});

describe('planting a false negative (an over-strict exact message)', () => {
  const t = task('format-precision');
  const tp = text(t.files.testPatch);
  const gold = text(t.files.goldPatch as string);

  it("adds the pytest.raises block again, its match pinned to the gold's exact message start", () => {
    assert.deepEqual(goldMessagePrefix(gold, 'ValueError'), { ok: true, prefix: 'precision must be one of ' });
    const r = plantFalseNegative(t, tp, gold);
    assert.ok(r.ok, r.ok ? '' : r.reason);
    assert.equal(r.defect.test, 'tests/test_format.py::test_precision_unknown_unit');
    assert.deepEqual(r.defect.specs, ['A5']);
    assert.equal(r.defect.assertion, 'with pytest.raises(ValueError, match=r"precision must be one of "):\n        format_duration(60, precision="w")');
    assert.deepEqual(parsePatch(r.patch).problems, []);
    const after = newSide(r.patch, 'tests/test_format.py');
    assert.ok(after.endsWith('    with pytest.raises(ValueError, match="d.*h.*m.*s"):\n        format_duration(60, precision="w")\n    with pytest.raises(ValueError, match=r"precision must be one of "):\n        format_duration(60, precision="w")'));
  });

  it('escapes regular-expression characters of the message, and refuses when the gold raises two different ones', () => {
    assert.deepEqual(goldMessagePrefix('+    raise ValueError(f"bad (x.y) value: {v}")\n', 'ValueError'), { ok: true, prefix: 'bad (x.y) value: ' });
    const tk = { id: 't', tests: [{ id: 'T1', name: 'tests/test_x.py::test_a', kind: 'fail_to_pass' as const, specs: ['S1'] }] };
    const patch = '--- a/tests/test_x.py\n+++ b/tests/test_x.py\n@@ -1,1 +1,4 @@\n import x\n+def test_a():\n+    with pytest.raises(ValueError):\n+        x.f(-1)\n';
    const r = plantFalseNegative(tk, patch, '+    raise ValueError(f"bad (x.y) value: {v}")\n');
    assert.ok(r.ok, r.ok ? '' : r.reason);
    assert.match(r.patch, /\+ {4}with pytest\.raises\(ValueError, match=r"bad \\\(x\\\.y\\\) value: "\):\n\+ {8}x\.f\(-1\)\n$/);
    const two = plantFalseNegative(tk, patch, '+    raise ValueError("negative value")\n+    raise ValueError("too large a value")\n');
    assert.ok(!two.ok);
    assert.match(two.reason, /2 different messages/);
  });

  it('says why for the example tasks it cannot plant on', () => {
    const tc = task('total-command');
    const r = plantFalseNegative(tc, text(tc.files.testPatch), text(tc.files.goldPatch as string));
    assert.ok(!r.ok);
    assert.match(r.reason, /pytest\.raises/);
  });
});

describe('recall of probes and agent on planted copies', () => {
  const truth: PlantedTruth = {
    format: 1,
    source: '/x',
    createdAt: '2026-12-01T00:00:00.000Z',
    planted: [
      { copy: 'p--fp', baseline: 'p', task: 'p', kind: 'false_positive', test: 'tests/t.py::test_a', specs: ['A2'], file: 'tests/t.py', line: 3, assertion: 'assert 1' },
      { copy: 'q--fp', baseline: 'q', task: 'q', kind: 'false_positive', test: 'tests/t.py::test_b', specs: ['B1'], file: 'tests/t.py', line: 3, assertion: 'assert 1' },
      { copy: 'p--fn', baseline: 'p', task: 'p', kind: 'false_negative', test: 'tests/t.py::test_c', specs: ['A5'], file: 'tests/t.py', line: 9, assertion: 'with ...' },
    ],
    skipped: [],
  };
  const mutant = (id: string, outcome: 'killed' | 'survived', failingTests: string[] = []) => ({ id, operator: 'op', file: 'f.py', line: 1, column: 0, before: 'a', after: 'b', specs: [], outcome, status: '', reason: '', failingTests, killedForSpecs: [] });
  const report = (taskId: string, mutants: ReturnType<typeof mutant>[]): MutationReport =>
    ({ format: 1, taskId, taskRevision: 1, createdAt: '', gold: { status: 'passed', reason: '' }, generated: mutants.length, ran: mutants.length, counts: {}, score: null, specs: [], mutants, skipped: [], unsupportedFiles: [] }) as unknown as MutationReport;
  const rec = (attempt: string, spec: string, candidate?: 'false_positive' | 'false_negative'): FindingsRecord => {
    const payload: FindingsPayload = { attempt, patchHash: 'ab'.repeat(32), model: 'm', promptVersion: 'v1', promptHash: 'cd'.repeat(32), findings: [{ spec, judgment: 'violated', confidence: 1, rationale: '', citations: [], ...(candidate ? { candidate } : {}) }], dropped: [] };
    return { curator: 'agent', event: `E-${attempt}-${spec}`, time: '2026-12-01T00:00:00.000Z', revision: 1, payload };
  };

  it('counts a planted FP caught by probes when a mutant the planted test killed on the baseline survives on the copy', () => {
    const mutants = new Map([
      ['p', report('p', [mutant('m1', 'killed', ['tests/t.py::test_a']), mutant('m2', 'survived')])],
      ['p--fp', report('p--fp', [mutant('m1', 'survived'), mutant('m2', 'survived')])],
      ['q', report('q', [mutant('n1', 'killed', ['tests/t.py::test_b'])])],
      ['q--fp', report('q--fp', [mutant('n1', 'killed', ['tests/t.py::test_other'])])],
    ]);
    const findings = new Map([
      ['p--fp', [rec('a1', 'A2', 'false_positive')]],
      ['p', [rec('a1', 'A2')]],
      ['p--fn', [rec('a1', 'A5')]],
    ]);
    const s = scorePlanted(truth, { mutants, findings });
    assert.deepEqual(
      s.detections.map((d) => [d.copy, d.probes, d.agent, d.survivors]),
      [
        ['p--fp', 'caught', 'caught', ['m1']],
        ['q--fp', 'missed', 'not_run', []],
        ['p--fn', 'not_run', 'missed', []],
      ],
    );
    assert.deepEqual(s.probes.false_positive, { caught: 1, missed: 1, notRun: 0, recall: 0.5 });
    assert.deepEqual(s.agent.false_positive, { caught: 1, missed: 0, notRun: 1, recall: 1 });
    assert.deepEqual(s.agent.false_negative, { caught: 0, missed: 1, notRun: 0, recall: 0 });
    assert.deepEqual(s.probes.false_negative, { caught: 0, missed: 0, notRun: 1 });
  });

  const alt = (id: string, outcome: 'rejected' | 'accepted', failing: string[] = []) => ({
    id,
    summary: '',
    files: ['f.py'],
    notes: [],
    outcome,
    status: outcome === 'rejected' ? 'failed' : 'passed',
    reason: '',
    failingTests: failing.map((name) => ({ test: 'T', name, kind: 'fail_to_pass' as const, status: 'failed', specs: ['A5'], log: [] })),
    specs: failing.length > 0 ? ['A5'] : [],
    beyondSpecs: [],
    patch: '',
  });
  const alts = (taskId: string, alternatives: ReturnType<typeof alt>[]) => ({ taskId, alternatives }) as unknown as AlternativesReport;
  const fnOnly: PlantedTruth = { ...truth, planted: truth.planted.slice(2) };

  it('counts a planted FN caught by probes when the planted test rejects an alternative on the copy', () => {
    const s = scorePlanted(fnOnly, {
      mutants: new Map(),
      findings: new Map(),
      alternatives: new Map([
        ['p', alts('p', [alt('alt-1', 'accepted'), alt('alt-2', 'rejected', ['tests/t.py::test_other'])])],
        ['p--fn', alts('p--fn', [alt('alt-1', 'rejected', ['tests/t.py::test_c']), alt('alt-2', 'rejected', ['tests/t.py::test_other'])])],
      ]),
    });
    assert.deepEqual(s.detections.map((d) => [d.probes, d.rejections]), [['caught', ['alt-1']]]);
    assert.deepEqual(s.probes.false_negative, { caught: 1, missed: 0, notRun: 0, recall: 1 });
  });

  it('does not count a rejection the baseline already had, nor one by another test', () => {
    const s = scorePlanted(fnOnly, {
      mutants: new Map(),
      findings: new Map(),
      alternatives: new Map([
        ['p', alts('p', [alt('alt-1', 'rejected', ['tests/t.py::test_c'])])],
        ['p--fn', alts('p--fn', [alt('alt-1', 'rejected', ['tests/t.py::test_c']), alt('alt-3', 'rejected', ['tests/t.py::test_other'])])],
      ]),
    });
    assert.deepEqual(s.detections.map((d) => [d.probes, d.rejections]), [['missed', []]]);
    assert.deepEqual(s.probes.false_negative, { caught: 0, missed: 1, notRun: 0, recall: 0 });
    // Without a baseline report, the copy's rejection by the planted test counts.
    const alone = scorePlanted(fnOnly, { mutants: new Map(), findings: new Map(), alternatives: new Map([['p--fn', alts('p--fn', [alt('alt-1', 'rejected', ['tests/t.py::test_c'])])]]) });
    assert.deepEqual(alone.detections.map((d) => d.probes), ['caught']);
  });

  it('is not run without a mutation report of the copy, and the baseline agent findings raise the bar', () => {
    const findings = new Map([
      ['p--fp', [rec('a1', 'A2', 'false_positive')]],
      ['p', [rec('a1', 'A2', 'false_positive')]],
    ]);
    const s = scorePlanted({ ...truth, planted: truth.planted.slice(0, 1) }, { mutants: new Map(), findings });
    assert.deepEqual([s.detections[0]?.probes, s.detections[0]?.agent], ['not_run', 'missed']);
    assert.deepEqual(s.detections[0]?.agentFindings, { copy: 1, baseline: 1 });
  });
});
