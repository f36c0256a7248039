// The repair core: replies checked and turned into new texts, revisions built with a regenerated test patch, the
// before/after matrix from the curation core, the new review-log kinds, and redaction.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Redactor } from '../../../src/adapters/llm/redact';
import { repairMatrix, formatMatrix } from '../../../src/core/repair/matrix';
import { buildRevision, proposedFiles, splitPatch, taskJsonText, testFilesAfterPatch } from '../../../src/core/repair/revision';
import type { SuggestionReply } from '../../../src/core/repair/suggestion';
import { checkReply, parseReply } from '../../../src/core/repair/validate';
import { describeEvent } from '../../../src/core/review/describe';
import { formatEventLine, isUndoable, parseEventLine } from '../../../src/core/review/events';
import { reduceTask } from '../../../src/core/review/reducer';
import type { DatasetManifest } from '../../../src/core/model';
import { BASE_TEST, TEST_PATCH, ev, task, verifier } from './fixtures';
import { specContentHash } from '../../../src/core/review/specHash';

const base = new Map<string, string | undefined>([['tests/test_x.py', BASE_TEST], ['tests/test_new.py', undefined]]);
const current = testFilesAfterPatch(TEST_PATCH, base);
const manifest: DatasetManifest = { format: 1, name: 'x', defaults: { workdir: '/repo', timeoutSec: 60, limits: { memoryMb: 512, cpus: 1, pids: 64 } } };
const raw = (): Record<string, unknown> => {
  const t = task();
  return { id: t.id, title: t.title, repo: { name: 'r', path: '../repo', baseCommit: 'a'.repeat(40) }, verifier: t.verifier, specs: t.specs.map(({ dependsOn: _d, ...s }) => s), tests: t.tests.map((x) => ({ id: x.id, name: x.name, kind: x.kind, ...(x.specs.length ? { specs: x.specs } : {}) })) };
};
const E = { attempt: null, step: null, test: null, run: null, line: null, stream: null, patch: null, file: null, hunk: null, spec: null } as const;
function reply(over: Partial<SuggestionReply>): SuggestionReply {
  return { refusal: null, target: 'tests', summary: 's', rationale: 'r', request: null, specs: null, specTestMap: null, testFiles: null, evidence: [{ ...E, kind: 'test', test: 'T1', why: 'pins the text' }], ...over };
}
const ctx = { task: task(), requested: 'auto' as const, request: '# Request\n\nDo it.\n', testFiles: current.files };

describe('replies', () => {
  it('parses JSON inside a code fence or after prose, and says why a reply is not JSON', () => {
    const body = JSON.stringify(reply({}));
    assert.ok(parseReply('```json\n' + body + '\n```').ok);
    assert.ok(parseReply('Here you go:\n' + body).ok);
    const bad = parseReply('I would loosen the test.');
    assert.ok(!bad.ok && bad.kind === 'not_json' && /not JSON/.test(bad.errors[0] ?? ''));
  });

  it('names the fields that break the schema', () => {
    const r = parseReply(JSON.stringify({ ...reply({}), target: 'all', extra: 1 }));
    assert.ok(!r.ok && r.kind === 'schema');
    assert.ok(r.errors.some((e) => /\/target/.test(e) && /request, specs, tests, spec_test_map/.test(e)), r.errors.join('\n'));
    assert.ok(r.errors.some((e) => /"extra"/.test(e)));
  });

  it('turns a test-file diff into the whole new file and keeps the evidence', () => {
    const diff = '@@ -8,3 +8,3 @@\n def test_message_exact():\n     out = run()\n-    assert out == "error: f.txt:3: bad"\n+    assert "f.txt" in out and "3" in out\n';
    const r = checkReply(reply({ testFiles: [{ path: 'tests/test_x.py', content: null, diff }] }), ctx);
    assert.ok(r.ok === true, JSON.stringify(r));
    assert.match(r.suggestion.changes.testFiles?.[0]?.text ?? '', /assert "f\.txt" in out and "3" in out\n/);
    assert.deepEqual(r.suggestion.evidence, [{ kind: 'test', test: 'T1', why: 'pins the text' }]);
  });

  it('refuses unknown ids, diffs that do not apply, changes outside the target, and no change at all', () => {
    const r1 = checkReply(reply({ specTestMap: [{ id: 'T1', name: 'n', kind: 'fail_to_pass', specs: ['S9'] }], evidence: [{ ...E, kind: 'trajectory_step', attempt: 'zz', step: 3, why: 'w' }] }), ctx);
    assert.ok(r1.ok === false);
    assert.ok(r1.errors.some((e) => /unknown spec "S9"/.test(e)));
    assert.ok(r1.errors.some((e) => /attempt "zz"/.test(e)));
    const r2 = checkReply(reply({ testFiles: [{ path: 'tests/test_x.py', content: null, diff: '@@ -1,1 +1,1 @@\n-nope\n+yes\n' }] }), ctx);
    assert.ok(r2.ok === false && /does not apply/.test(r2.errors.join()));
    const r3 = checkReply(reply({ target: 'tests', request: { content: '# Other\n', diff: null } }), { ...ctx, requested: 'tests' });
    assert.ok(r3.ok === false && /also changes request/.test(r3.errors.join()));
    const r4 = checkReply(reply({}), ctx);
    assert.ok(r4.ok === false && /changes nothing/.test(r4.errors.join()));
    const r5 = checkReply(reply({ testFiles: [{ path: '../etc/passwd', content: 'x', diff: null }] }), ctx);
    assert.ok(r5.ok === false && /escapes/.test(r5.errors.join()));
  });

  it("refuses a suggestion whose files do not match its target: tests touch only test files, request only the request", () => {
    const lib = { path: 'durations/format.py', content: 'def fmt():\n    return "rewritten"\n', diff: null };
    for (const requested of ['auto', 'tests'] as const) {
      const r = checkReply(reply({ target: 'tests', testFiles: [lib] }), { ...ctx, requested });
      assert.ok(r.ok === false, `requested ${requested}: ${JSON.stringify(r)}`);
      assert.ok(r.errors.some((e) => /testFiles\[0\]\.path: "durations\/format\.py" is not a test file/.test(e)), r.errors.join('\n'));
    }
    // The reply's own target binds it when the curator let the model choose.
    const asRequest = checkReply(reply({ target: 'request', request: { content: '# Other\n', diff: null }, testFiles: [{ path: 'tests/test_x.py', content: 'x = 1\n', diff: null }] }), ctx);
    assert.ok(asRequest.ok === false && /a request suggestion may change request, specs only, but this one also changes testFiles/.test(asRequest.errors.join()), JSON.stringify(asRequest));
    const mapOnly = checkReply(reply({ target: 'spec_test_map', request: { content: '# Other\n', diff: null } }), ctx);
    assert.ok(mapOnly.ok === false && /also changes request/.test(mapOnly.errors.join()));
    // Test-looking paths the test patch does not touch yet, and the task's own test files, are fine.
    for (const p of ['tests/test_more.py', 'pkg/tests/helpers.py', 'test_top.py', 'pkg/thing_test.py', 'conftest.py', 'src/__tests__/a.test.ts']) {
      const r = checkReply(reply({ target: 'tests', testFiles: [{ path: p, content: 'x = 1\n', diff: null }] }), ctx);
      assert.ok(r.ok === true, `${p}: ${JSON.stringify(r)}`);
    }
    const own = checkReply(reply({ target: 'tests', testFiles: [{ path: 'data/fixture.txt', content: 'x\n', diff: null }] }), { ...ctx, testPatchPaths: ['data/fixture.txt'] });
    assert.ok(own.ok === true, JSON.stringify(own));
    for (const p of ['setup.cfg', 'pytest.ini', 'pyproject.toml', 'numpy/testing/utils.py', 'contest.py']) {
      const r = checkReply(reply({ target: 'tests', testFiles: [{ path: p, content: 'x\n', diff: null }] }), ctx);
      assert.ok(r.ok === false && /is not a test file/.test(r.errors.join()), p);
    }
  });

  it('a refusal in the reply is a refusal, not an error', () => {
    assert.deepEqual(checkReply(reply({ refusal: 'not enough evidence' }), ctx), { ok: 'refused', reason: 'not enough evidence' });
  });
});

describe('revisions', () => {
  it('splits a test patch per file without losing a byte', () => {
    assert.equal(splitPatch(TEST_PATCH).map((p) => p.text).join(''), TEST_PATCH);
    assert.equal(current.files.get('tests/test_new.py'), 'def test_other():\n    assert 1\n');
  });

  it('regenerates tests.patch from the proposed file and its base, keeping the other files as they were', () => {
    const now = current.files.get('tests/test_x.py') as string;
    const proposed = now.replace('assert out == "error: f.txt:3: bad"', 'assert "f.txt" in out');
    const r = buildRevision({
      current: { taskJson: raw(), request: '# R\n', testPatch: TEST_PATCH, testFiles: current.files },
      baseFiles: base,
      proposed: [{ role: 'test', path: 'tests/test_x.py', text: proposed }],
      manifest,
      taskId: 't1',
    });
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.revision, 2);
    assert.deepEqual(r.changedSpecs, []);
    assert.match(r.files.taskJson, /"revision": 2/);
    const again = testFilesAfterPatch(r.files.testPatch, base);
    assert.equal(again.files.get('tests/test_x.py'), proposed);
    assert.equal(again.files.get('tests/test_new.py'), current.files.get('tests/test_new.py'));
    assert.ok(r.files.testPatch.endsWith(splitPatch(TEST_PATCH)[1]?.text ?? 'x'));
  });

  it('refuses a revision whose proposed test files include library code (a suggestion stored before the check)', () => {
    const r = buildRevision({
      current: { taskJson: raw(), request: '# R\n', testPatch: TEST_PATCH, testFiles: current.files },
      baseFiles: new Map([...base, ['durations/format.py', 'def fmt():\n    return 1\n']]),
      proposed: [{ role: 'test', path: 'durations/format.py', text: 'def fmt():\n    return 2\n' }],
      manifest,
      taskId: 't1',
    });
    assert.ok(!r.ok, JSON.stringify(r));
    assert.ok(r.errors.some((e) => /durations\/format\.py: is not a test file; tests\.patch holds test files only/.test(e)), r.errors.join('\n'));
  });

  it('names the specs a proposed task.json changes, and refuses one that does not load', () => {
    const t = task();
    const files = proposedFiles({ specs: t.specs.map((s) => (s.id === 'S1' ? { ...s, text: 'Report bad lines; the wording is free.' } : s)) }, { taskJson: raw(), request: '', testPatch: TEST_PATCH, testFiles: current.files });
    assert.deepEqual(files.map((f) => f.path), ['task.json']);
    const inputs = { current: { taskJson: raw(), request: '# R\n', testPatch: TEST_PATCH, testFiles: current.files }, baseFiles: base, manifest, taskId: 't1' };
    const ok = buildRevision({ ...inputs, proposed: [{ role: 'task', path: 'task.json', text: files[0]?.proposed ?? '' }] });
    assert.ok(ok.ok && ok.changedSpecs.join() === 'S1');
    // The revision event carries the changed spec's content hash before and after (labels go stale by content).
    const s1 = t.specs.find((s) => s.id === 'S1')!;
    assert.deepEqual(ok.specHashes, { S1: { before: specContentHash(s1), after: specContentHash({ ...s1, text: 'Report bad lines; the wording is free.' }) } });
    const bad = buildRevision({ ...inputs, proposed: [{ role: 'task', path: 'task.json', text: (files[0]?.proposed ?? '').replace('"T2"', '"T1"') }] });
    assert.ok(!bad.ok && bad.errors.some((e) => /used twice/.test(e)));
    const notJson = buildRevision({ ...inputs, proposed: [{ role: 'task', path: 'task.json', text: '{ nope' }] });
    assert.ok(!notJson.ok && /not valid JSON/.test(notJson.errors.join()));
    const same = buildRevision({ ...inputs, proposed: [{ role: 'task', path: 'task.json', text: taskJsonText(raw()) }] });
    assert.ok(!same.ok && /nothing to revise/.test(same.errors.join()));
  });
});

describe('the before/after matrix', () => {
  it('shows the false negative gone, labels carried over to unchanged specs and stale on changed ones', () => {
    const before = task();
    const after = task({ revision: 2, specs: before.specs.map((s) => (s.id === 'S2' ? { ...s, text: 'Exit with status 1 or 2.' } : s)) });
    const events = [
      ev('label', { attempt: 'a1', spec: 'S1', verdict: 'satisfied', evidence: [] }),
      ev('label', { attempt: 'a1', spec: 'S2', verdict: 'satisfied', evidence: [] }),
      ev('label', { attempt: 'a2', spec: 'S1', verdict: 'violated', evidence: [] }),
    ];
    const rev = ev('revision', { from: 1, changedSpecs: ['S2'] }, { revision: 2 });
    const st = reduceTask('t1', [...events, rev]);
    const m = repairMatrix({ before: { task: before, verifier: verifier(1) }, after: { task: after, verifier: verifier(2, 'PASSED') }, state: st, revisionEvent: rev.id });
    assert.deepEqual(m.fixed.falseNegatives, [{ attempt: 'a1', spec: 'S1' }]);
    assert.deepEqual(m.counts, { before: { falsePositives: 1, falseNegatives: 1 }, after: { falsePositives: 1, falseNegatives: 0 } });
    const s2 = m.cells.find((c) => c.attempt === 'a1' && c.spec === 'S2');
    assert.deepEqual([s2?.before.outcome, s2?.after.outcome], ['true_pass', 'undecided'], 'the label on the changed spec is stale after');
    assert.deepEqual(m.introduced, { falsePositives: [], falseNegatives: [] });
    assert.deepEqual(m.probes.map((p) => [p.attempt, p.after.status]), [['gold', 'passed'], ['empty', 'failed']]);
    assert.match(formatMatrix(m), /false negatives 1 -> 0/);
  });
});

describe('the before/after matrix, mixed cells', () => {
  it('lists a cell that trades a false positive for a false negative as both gone and appeared', () => {
    const label1 = ev('label', { attempt: 'a2', spec: 'S1', verdict: 'violated', evidence: [] });
    const rev = ev('revision', { from: 1, changedSpecs: [] }, { revision: 2 });
    const label2 = ev('label', { attempt: 'a2', spec: 'S1', verdict: 'satisfied', evidence: [] }, { revision: 2 });
    const st = reduceTask('t1', [label1, rev, label2]);
    const v2 = verifier(2);
    v2.attempts.a2 = { ...v2.attempts.a2!, specs: { ...v2.attempts.a2!.specs, S1: 'fail' }, status: 'failed' };
    const m = repairMatrix({ before: { task: task(), verifier: verifier(1) }, after: { task: task({ revision: 2 }), verifier: v2 }, state: st, revisionEvent: rev.id });
    const cell = m.cells.find((c) => c.attempt === 'a2' && c.spec === 'S1');
    assert.deepEqual([cell?.before.outcome, cell?.after.outcome], ['false_positive', 'false_negative']);
    assert.deepEqual(m.fixed.falsePositives, [{ attempt: 'a2', spec: 'S1' }]);
    assert.deepEqual(m.introduced.falseNegatives, [{ attempt: 'a2', spec: 'S1' }]);
  });
});

describe('repair events', () => {
  it('validate, reduce, describe, and cannot be undone', () => {
    const req = ev('repair.request', { suggestion: 's1', target: 'tests', model: 'gpt', outcome: 'suggested', promptTokens: 10, completionTokens: 5, costUsd: 0.001 });
    const acc = ev('repair.accept', { suggestion: 's1', from: 1, to: 2, edited: true, changedSpecs: [] }, { revision: 2 });
    for (const e of [req, acc]) {
      const r = parseEventLine(formatEventLine(e));
      assert.ok(r.ok && !('unknownKind' in r.event), JSON.stringify(r));
    }
    const bad = parseEventLine(formatEventLine({ ...req, payload: { ...req.payload, outcome: "maybe" } } as unknown as typeof req));
    assert.ok(!bad.ok && /outcome/.test(bad.message));
    const st = reduceTask('t1', [req, acc]);
    assert.equal(st.repairs.get('s1')?.requested?.outcome, 'suggested');
    assert.equal(st.repairs.get('s1')?.decision?.decision, 'accepted');
    assert.match(describeEvent(acc), /repair s1 accepted \(edited\): revision 1 -> 2/);
    assert.equal(isUndoable('repair.accept'), false);
    assert.equal(isUndoable('repair.reject'), true);
  });
});

describe('redaction', () => {
  const key = 'sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const r = new Redactor([key]);
  it('masks the key, its visible ends, bearer headers and key-shaped strings', () => {
    assert.equal(r.redact(`bad key ${key}!`), 'bad key [redacted]!');
    assert.ok(!r.redact('Incorrect API key provided: sk-proj-ABC*****************6789').includes('proj-ABC'));
    assert.equal(r.redact('…ends in 456789'), '…ends in [redacted]');
    assert.equal(r.redact('Authorization: Bearer abcdefghijklmnop'), 'Authorization: Bearer [redacted]');
    assert.equal(r.redact('other sk-abcdefghijkl key'), 'other sk-[redacted] key');
    assert.deepEqual(r.redactValue({ a: [`x${key}`] }), { a: ['x[redacted]'] });
  });
  it("masks the partial masks servers echo: the key's first 8 and last 4 characters around ..., * or …", () => {
    for (const sep of ['...', '*'.repeat(30), '…', '*']) {
      const shown = `${key.slice(0, 8)}${sep}${key.slice(-4)}`;
      assert.equal(r.redact(`Incorrect API key provided: ${shown}.`), 'Incorrect API key provided: [redacted].', shown);
      assert.equal(r.maskSecrets(`# ${shown}`), '# [redacted]', shown);
    }
    // Any key-shaped partial mask, not only the known key's.
    assert.equal(r.redact('got sk-abcde...wxyz'), 'got sk-[redacted]');
    // Ordinary text with an ellipsis stays.
    assert.equal(r.redact('wait... and see'), 'wait... and see');
  });
  it('masks only the known key in content that must stay as it is', () => {
    assert.equal(r.maskSecrets(`token = "sk-abcdefghijkl" # ${key}`), 'token = "sk-abcdefghijkl" # [redacted]');
  });
});
