// The Probes part of the task view from the reports on disk (src/app/probeReports.ts over core/view/probesView.ts):
// what each report says (score, survivors, passing exploits, rejected alternatives, surviving variants, breaks), a
// missing report with the CLI line to run, a malformed one as an error naming the file and field, never a throw.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { readProbePatch, readProbesView } from '../../../src/app/probeReports';
import type { ProbesView } from '../../../src/protocol/messages';
import { tmpDir } from '../helpers/tmp';
import { MUTANT_PATCH, PROBE_TASK, TASK_ID, alternativesReport, cheatsReport, fullSuiteReport, mutantsReport, variantsReport } from './probeReportFixtures';

function dataset(files: Record<string, string | object>): string {
  const root = tmpDir('sw-probes-');
  const dir = path.join(root, 'probes', TASK_ID);
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), typeof body === 'string' ? body : JSON.stringify(body, null, 2));
  return root;
}

const ok = <K extends keyof Omit<ProbesView, 'listedTests' | 'support'>>(v: ProbesView, k: K) => {
  const r = v[k];
  assert.equal(r.state, 'ok', JSON.stringify(r));
  return r as Extract<ProbesView[K], { state: 'ok' }>;
};

test('a task never probed: every report says "not probed yet" with the CLI line that writes it', () => {
  const v = readProbesView(tmpDir(), PROBE_TASK);
  for (const k of ['mutants', 'cheats', 'alternatives', 'variants', 'fullSuite'] as const) assert.equal(v[k].state, 'missing');
  assert.deepEqual(v.mutants, { state: 'missing', file: `probes/${TASK_ID}/mutants.json`, command: `specweave probe DATASET ${TASK_ID} --mutants 20` });
  assert.equal(v.cheats.state === 'missing' && v.cheats.command, `specweave probe DATASET ${TASK_ID} --cheat`);
  assert.equal(v.fullSuite.state === 'missing' && v.fullSuite.file, `probes/${TASK_ID}/full-suite.json`);
  assert.deepEqual(
    v.listedTests.map((t) => t.name),
    PROBE_TASK.tests.map((t) => t.name),
  );
});

test('stored reports: the score and counts, each survivor, each passing exploit, each rejected alternative and surviving variant, the breaks', () => {
  const root = dataset({
    'mutants.json': mutantsReport(),
    'cheats.json': cheatsReport(),
    'alternatives.json': alternativesReport(),
    'variants.json': variantsReport(),
    'full-suite.json': fullSuiteReport(),
  });
  const v = readProbesView(root, PROBE_TASK);
  const m = ok(v, 'mutants');
  assert.equal(m.score, 0.5);
  assert.deepEqual(
    m.counts.filter((c) => c.count > 0),
    [
      { outcome: 'killed', count: 1 },
      { outcome: 'survived', count: 1 },
      { outcome: 'timed_out', count: 1 },
    ],
  );
  assert.deepEqual(m.specs[1], { spec: 'A2', killed: 0, survived: 1, untested: false });
  assert.deepEqual(m.survivors, [{ id: 'guard-drop-0000000002', operator: 'guard-drop', file: 'fmt.py', line: 12, before: 'if size < step: break', after: 'if False: break', hasPatch: true }]);
  const c = ok(v, 'cheats');
  assert.equal(c.stopped, 2);
  assert.deepEqual(
    c.passing.map((e) => [e.id, e.flags, e.hasPatch]),
    [['fake-passed-from-library', ['attempt_edits_tests'], true]],
  );
  const a = ok(v, 'alternatives');
  assert.equal(a.rejected.length, 1);
  assert.deepEqual(a.rejected[0]?.beyondSpecs, ['tests/test_fmt.py::test_extra']);
  assert.deepEqual(a.rejected[0]?.failingTests[0], { name: 'tests/test_fmt.py::test_minutes', specs: ['A1', 'A2'], status: 'FAILED' });
  const vr = ok(v, 'variants');
  assert.deepEqual(
    vr.survivors.map((s) => [s.id, s.spec]),
    [['var-A2-0000000002', 'A2']],
  );
  const f = ok(v, 'fullSuite');
  assert.equal(f.noise, 1);
  assert.deepEqual(
    f.attempts.map((x) => [x.attemptId, x.breaks]),
    [
      ['a1', ['tests/test_parse.py::test_single_units']],
      ['a2', null],
    ],
  );
});

test('a malformed report is an error naming the file and the field (or line); the other reports still show', () => {
  const bad = mutantsReport() as unknown as { mutants: Array<Record<string, unknown>> };
  delete bad.mutants[1]!.line;
  const badCheats = cheatsReport() as unknown as { exploits: Array<Record<string, unknown>> };
  badCheats.exploits[2]!.flags = 'none';
  const root = dataset({
    'mutants.json': bad,
    'cheats.json': badCheats,
    'alternatives.json': '{"taskId": "format-precision", ',
    'variants.json': { ...variantsReport(), taskId: 'another-task' },
    'full-suite.json': '[1, 2]',
  });
  const v = readProbesView(root, PROBE_TASK);
  const msg = (k: keyof Omit<ProbesView, 'listedTests' | 'support'>) => {
    const r = v[k];
    assert.equal(r.state, 'error', JSON.stringify(r));
    return (r as { message: string }).message;
  };
  assert.equal(msg('mutants'), `probes/${TASK_ID}/mutants.json: field mutants[1].line is missing (expected a number)`);
  assert.equal(msg('cheats'), `probes/${TASK_ID}/cheats.json: field exploits[2].flags is not a list`);
  assert.match(msg('alternatives'), new RegExp(`^probes/${TASK_ID}/alternatives\\.json:1: malformed JSON`));
  assert.match(msg('variants'), /variants\.json: field taskId is "another-task", not this task's id$/);
  assert.match(msg('fullSuite'), /full-suite\.json: not a probe report/);
});

test('a report that is a symlink out of the dataset is refused with the reason, not followed', () => {
  const outside = path.join(tmpDir(), 'secret.json');
  fs.writeFileSync(outside, JSON.stringify(mutantsReport()));
  const root = dataset({});
  fs.symlinkSync(outside, path.join(root, 'probes', TASK_ID, 'mutants.json'));
  const v = readProbesView(root, PROBE_TASK);
  assert.equal(v.mutants.state, 'error');
  assert.match((v.mutants as { message: string }).message, /mutants\.json/);
});

test("a survivor's, an exploit's, an alternative's and a variant's patch are read from the report; an entry without one says why", () => {
  const root = dataset({ 'mutants.json': mutantsReport(), 'cheats.json': cheatsReport() });
  assert.deepEqual(readProbePatch(root, TASK_ID, 'mutants', 'guard-drop-0000000002'), { patch: MUTANT_PATCH, file: `probes/${TASK_ID}/mutants.json` });
  assert.match(JSON.stringify(readProbePatch(root, TASK_ID, 'cheats', 'fake-passed-from-library')), /specweave-cheat-probe/);
  assert.match((readProbePatch(root, TASK_ID, 'mutants', 'comparison-0000000001') as { error: string }).error, /has no patch/);
  assert.match((readProbePatch(root, TASK_ID, 'mutants', 'nope') as { error: string }).error, /has no entry nope/);
  assert.match((readProbePatch(root, TASK_ID, 'variants', 'x') as { error: string }).error, /variants\.json is not there/);
});

test("the probe evidence behind a finding, per spec: the spec's own probes first, then what holds for the whole task", () => {
  const root = dataset({ 'mutants.json': mutantsReport(), 'cheats.json': cheatsReport(), 'alternatives.json': alternativesReport(), 'variants.json': variantsReport() });
  const v = readProbesView(root, { ...PROBE_TASK, specs: [{ id: 'A1', text: '' }, { id: 'A2', text: '' }, { id: 'A3', text: '' }] as never });
  const ids = (items: NonNullable<ProbesView['support']>[number]['falsePositive']) => items.map((i) => [i.report, i.id, i.scope]);
  assert.deepEqual(
    v.support?.map((s) => [s.spec, ids(s.falsePositive), ids(s.falseNegative)]),
    [
      // A1: its variant was killed; the task-wide survivor and passing exploit back a false positive; the
      // alternative rejected by a test mapped to A1 backs a false negative (and is not listed twice as beyond-specs).
      [
        'A1',
        [
          ['mutants', 'guard-drop-0000000002', 'task'],
          ['cheats', 'fake-passed-from-library', 'task'],
        ],
        [['alternatives', 'alt-0000000001', 'spec']],
      ],
      [
        'A2',
        [
          ['variants', 'var-A2-0000000002', 'spec'],
          ['mutants', 'guard-drop-0000000002', 'task'],
          ['cheats', 'fake-passed-from-library', 'task'],
        ],
        [['alternatives', 'alt-0000000001', 'spec']],
      ],
      // A3: no test maps to it, so no alternative is tied to it; only the task-wide evidence, and the test beyond the specs.
      [
        'A3',
        [
          ['mutants', 'guard-drop-0000000002', 'task'],
          ['cheats', 'fake-passed-from-library', 'task'],
        ],
        [['alternatives', 'alt-0000000001', 'task']],
      ],
    ],
  );
  const a1 = v.support?.[0]?.falseNegative[0];
  assert.deepEqual(a1?.tests, ['tests/test_fmt.py::test_minutes'], 'only the failing tests mapped to the spec');
  assert.match(a1?.text ?? '', /^alternative rejected by a test of A1: reports the line as "line 3"/);
});

test('no probe evidence: the view has no support list', () => {
  const v = readProbesView(dataset({ 'alternatives.json': { ...alternativesReport(), alternatives: [] } }), PROBE_TASK);
  assert.equal(v.support, undefined);
});
