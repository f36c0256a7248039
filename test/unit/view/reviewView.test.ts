// The curation part of the task view model and the panel models, built from the real curation store on the review
// fixture: outcomes against the verifier, blind mode, suggestions as suggestions, rules and blockers, long notes cut,
// the history window; the review-mode queue order; adjudication choices; the statistics window; hunk lines.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CurationStore } from '../../../src/app/curationStore';
import { adjudicationChoices, buildDisagreementViews, buildReviewView, buildStatsView, fitReviewView, hunkLines, nextQueueTask } from '../../../src/core/view/reviewView';
import { jsonBytes } from '../../../src/core/view/text';
import { MAX_HISTORY_VIEW, MAX_NOTE_VIEW } from '../../../src/protocol/messages';
import { reviewDataset, writeRun, writeT1Runs } from '../review/helpers';

async function labelled(): Promise<CurationStore> {
  const root = reviewDataset();
  writeT1Runs(root);
  const store = CurationStore.open(root);
  const act = async (curator: string, attempt: string, spec: string, verdict: 'satisfied' | 'violated' | 'unsure', note?: string) => {
    const r = await store.act('t1', curator, { kind: 'label', attempt, spec, verdict, ...(note ? { note } : {}), evidence: [{ kind: 'test', test: 'T2' }] });
    assert.ok(r.ok, JSON.stringify(r));
  };
  await act('alice', 'a1', 'S2', 'violated', 'prints Hello without the comma');
  await act('alice', 'a2', 'S2', 'satisfied');
  await act('bob', 'a1', 'S1', 'unsure');
  return store;
}

describe('review view model', () => {
  it('marks the outcome of every pair against the verifier and names the rules that block approval', async () => {
    const store = await labelled();
    const r = store.review('t1', { viewer: 'alice' });
    assert.ok(r);
    const v = buildReviewView(r, store.policy, { curatorSource: 'setting' });
    assert.equal(v.viewer, 'alice');
    assert.deepEqual(v.specs, ['S1', 'S2']);
    assert.deepEqual(
      v.cells.map((c) => `${c.attempt}×${c.spec}:${c.verifier}:${c.mine?.verdict ?? '-'}:${c.outcome}`),
      ['a1×S1:pass:-:undecided', 'a1×S2:pass:violated:false_positive', 'a2×S1:pass:-:undecided', 'a2×S2:fail:satisfied:false_negative'],
    );
    const a1s2 = v.cells[1]!;
    assert.equal(a1s2.mine?.note, 'prints Hello without the comma');
    assert.deepEqual(a1s2.mine?.evidence, [{ kind: 'test', test: 'T2' }]);
    assert.deepEqual(v.cells[0]!.others.map((o) => `${o.curator}:${o.verdict}`), ['bob:unsure']);
    assert.equal(v.counts.falsePositives, 1);
    assert.equal(v.counts.falseNegatives, 1);
    assert.deepEqual(v.blockers, ['no-open-false-positive', 'no-open-false-negative', 'every-attempt-judged']);
    assert.match(v.rules.find((x) => x.id === 'no-open-false-positive')?.message ?? '', /a1 × S2/);
    assert.equal(v.status, 'in_review');
    assert.ok(v.nextStatuses.includes('needs_repair') && !v.nextStatuses.includes('approved'), 'approve has its own action');
    assert.match(v.lastUndoable?.summary ?? '', /a2 × S2: satisfied/);
    assert.equal(v.history.length, v.historyTotal);
  });

  it('hides other curators in blind mode until the viewer submits', async () => {
    const store = await labelled();
    const blind = buildReviewView(store.review('t1', { viewer: 'alice', blind: true })!, store.policy);
    assert.equal(blind.othersHidden, true);
    assert.deepEqual(blind.cells.flatMap((c) => c.others), []);
    assert.ok(blind.history.every((h) => h.curator === 'alice' || h.kind !== 'label'), 'no label of bob in the history');
    assert.ok((await store.act('t1', 'alice', { kind: 'submit' })).ok);
    const after = buildReviewView(store.review('t1', { viewer: 'alice', blind: true })!, store.policy);
    assert.equal(after.othersHidden, false);
    assert.deepEqual(after.cells[0]!.others.map((o) => o.curator), ['bob']);
  });

  it('cuts long notes for display and keeps only the latest history', async () => {
    const store = await labelled();
    const long = 'x'.repeat(MAX_NOTE_VIEW + 500);
    assert.ok((await store.act('t1', 'alice', { kind: 'label', attempt: 'a2', spec: 'S1', verdict: 'satisfied', note: long })).ok);
    for (let i = 0; i < MAX_HISTORY_VIEW + 5; i++) assert.ok((await store.act('t1', 'alice', { kind: 'label', attempt: 'a1', spec: 'S1', verdict: i % 2 ? 'satisfied' : 'unsure' })).ok);
    const v = buildReviewView(store.review('t1', { viewer: 'alice' })!, store.policy);
    const cell = v.cells.find((c) => c.attempt === 'a2' && c.spec === 'S1')!;
    assert.equal(cell.mine?.note?.length, MAX_NOTE_VIEW);
    assert.equal(cell.mine?.noteCut, true);
    assert.equal(v.history.length, MAX_HISTORY_VIEW);
    assert.ok(v.historyTotal > MAX_HISTORY_VIEW);
    assert.equal(v.history.at(-1)?.summary, 'label a1 × S1: unsure');
  });

  it('shows oracle-probe flags as suggestions with what confirming them means, never as labels', async () => {
    const root = reviewDataset();
    writeT1Runs(root);
    // The empty patch passes a FAIL_TO_PASS test: the test cannot tell a fix from no fix.
    writeRun(root, 't1', 'empty', { 'tests/test_hello.py::test_greet_type': 'PASSED', 'tests/test_hello.py::test_greet_text': 'FAILED', 'tests/test_hello.py::test_existing': 'PASSED' });
    const store = CurationStore.open(root);
    const v = buildReviewView(store.review('t1', { viewer: 'alice' })!, store.policy);
    const s = v.suggestions.find((x) => x.kind === 'empty_passes_fail_to_pass');
    assert.ok(s, JSON.stringify(v.suggestions));
    assert.equal(s.suspect, 'false_positive');
    assert.equal(s.open, true);
    assert.equal(v.counts.mine, 0, 'a suggestion is not a label');
    assert.ok(!v.blockers.includes('no-open-false-positive'), 'an open suggestion blocks nothing');
    assert.ok((await store.act('t1', 'alice', { kind: 'suggestion', suggestion: s.id, decision: 'confirmed' })).ok);
    const after = buildReviewView(store.review('t1', { viewer: 'alice' })!, store.policy);
    const d = after.suggestions.find((x) => x.id === s.id);
    assert.equal(d?.open, false);
    assert.equal(d?.decision?.decision, 'confirmed');
    assert.equal(d?.decision?.curator, 'alice');
    assert.ok(after.blockers.includes('no-open-false-positive'), 'a confirmed suspect false positive blocks approval');
    assert.equal(after.counts.mine, 0);
  });

  it("fits a message: others' notes are cut, then dropped, never the viewer's own, and it says so", async () => {
    const store = await labelled();
    const long = 'n'.repeat(3000);
    for (const [attempt, spec] of [['a1', 'S2'], ['a2', 'S1'], ['a2', 'S2']] as const) {
      assert.ok((await store.act('t1', 'bob', { kind: 'label', attempt, spec, verdict: 'satisfied', note: long, evidence: Array.from({ length: 30 }, () => ({ kind: 'spec' as const, spec: 'S1' })) })).ok);
    }
    const full = buildReviewView(store.review('t1', { viewer: 'alice' })!, store.policy);
    assert.equal(fitReviewView(full), full, 'small enough: unchanged');
    const size = jsonBytes(full);
    const cut = fitReviewView(full, size - 2000);
    assert.ok(jsonBytes(cut) <= size - 2000);
    assert.match(cut.trimmed ?? '', /cut to 200 characters/);
    const bobs = cut.cells.flatMap((c) => c.others).filter((o) => o.curator === 'bob');
    assert.ok(bobs.every((o) => (o.note ?? '').length <= 200 && o.evidence.length <= 10));
    assert.equal(cut.cells.find((c) => c.attempt === 'a1' && c.spec === 'S2')?.mine?.note, 'prints Hello without the comma', 'the viewer keeps their note');
    const bare = fitReviewView(full, 6000);
    assert.match(bare.trimmed ?? '', /left out/);
    assert.ok(bare.cells.flatMap((c) => c.others).every((o) => o.note === undefined && o.evidence.length === 0));
    assert.deepEqual(bare.cells.flatMap((c) => c.others.map((o) => `${c.attempt}×${c.spec}:${o.curator}:${o.verdict}`)).sort(), ['a1×S1:bob:unsure', 'a1×S2:bob:satisfied', 'a2×S1:bob:satisfied', 'a2×S2:bob:satisfied'], 'verdicts stay');
  });

  it('says why nothing can be recorded when there is no curator name', async () => {
    const store = await labelled();
    const v = buildReviewView(store.review('t1', {})!, store.policy, { curatorProblem: 'curator name contains the control character U+0009 at position 3' });
    assert.equal(v.viewer, undefined);
    assert.match(v.curatorProblem ?? '', /U\+0009/);
  });
});

describe('review mode queue order', () => {
  const order = ['t1', 't2', 't3', 't4'];
  it('goes to the next queued task after the current one, wrapping, and skips the current one', () => {
    assert.equal(nextQueueTask(['t1', 't3', 't4'], order, 't1'), 't3');
    assert.equal(nextQueueTask(['t1', 't3', 't4'], order, 't3'), 't4');
    assert.equal(nextQueueTask(['t1', 't3', 't4'], order, 't4'), 't1');
    assert.equal(nextQueueTask(['t3'], order, 't2'), 't3', 'from a task that left the queue (submitted)');
    assert.equal(nextQueueTask(['t2'], order, 't2'), undefined, 'nothing else left');
    assert.equal(nextQueueTask(['t2', 't4'], order, undefined), 't2');
    assert.equal(nextQueueTask([], order, 't1'), undefined);
  });
});

describe('adjudication and statistics models', () => {
  it('offers the values an adjudication may record', () => {
    assert.deepEqual(adjudicationChoices('label'), ['satisfied', 'violated', 'unsure']);
    assert.deepEqual(adjudicationChoices('score', 'fnSeverity'), [0, 1, 2, 3]);
    assert.deepEqual(adjudicationChoices('score', 'difficulty'), ['<15m', '15m-1h', '1-4h', '>4h']);
    assert.deepEqual(adjudicationChoices('score', 'envDefects', [['flaky'], ['dependency_drift']]), [[], ['flaky'], ['dependency_drift'], ['dependency_drift', 'flaky']]);
  });

  it('lists disagreements side by side, open ones first', async () => {
    const store = await labelled();
    assert.ok((await store.act('t1', 'bob', { kind: 'label', attempt: 'a1', spec: 'S2', verdict: 'satisfied' })).ok);
    assert.ok((await store.act('t1', 'bob', { kind: 'label', attempt: 'a2', spec: 'S2', verdict: 'violated' })).ok);
    assert.ok((await store.act('t1', 'carol', { kind: 'adjudicate', target: 'label', attempt: 'a2', spec: 'S2', verdict: 'satisfied' })).ok);
    const tasks = new Map(store.dataset.tasks.map((t) => [t.id, t]));
    const rows = buildDisagreementViews(store.disagreements({ all: true }), tasks);
    assert.deepEqual(
      rows.map((r) => `${r.attempt}×${r.spec}:${r.open ? 'open' : `settled ${String(r.final)}`}`),
      ['a1×S2:open', 'a2×S2:settled satisfied'],
    );
    assert.deepEqual(rows[0]!.values.map((v) => `${v.curator}=${String(v.value)}`), ['alice=violated', 'bob=satisfied']);
    assert.equal(rows[0]!.verifier, 'pass');
    assert.match(rows[0]!.specText ?? '', /Hello, <name>!/);
    assert.notEqual(rows[0]!.key, rows[1]!.key);
  });

  it('carries the breakdown, the funnel and agreement with its items, and keeps 60 days of throughput', async () => {
    const store = await labelled();
    const s = store.stats();
    const many = { ...s, throughput: Array.from({ length: 90 }, (_, i) => ({ curator: 'alice', day: `2026-${String(1 + Math.floor(i / 28)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`, events: 1 })) };
    const v = buildStatsView(many, { dataset: 'review', computedAt: '2026-12-01T00:00:00.000Z', computeMs: 12.4 });
    assert.equal(v.throughput.length, 60);
    assert.equal(v.throughput[0]!.day, '2026-02-03');
    assert.equal(v.computeMs, 12);
    assert.deepEqual(v.funnel, s.funnel);
    assert.equal(v.breakdown.reviewed, s.breakdown.reviewed);
    const verdict = v.agreement.find((a) => a.kind === 'verdict');
    assert.ok(verdict && verdict.items >= 0 && 'values' in verdict);
  });
});

describe('hunk lines', () => {
  const patch = ['diff --git a/x.py b/x.py', '--- a/x.py', '+++ b/x.py', '@@ -1,2 +1,2 @@', '-a', '+b', ' c', '@@ -10,1 +10,2 @@', ' d', '+e', 'diff --git a/y.py b/y.py', '--- a/y.py', '+++ b/y.py', '@@ -1 +1 @@', '-y', '+z', ''].join('\n');
  it('finds a hunk of a file by its 0-based index', () => {
    assert.deepEqual(hunkLines(patch, 'x.py', 0), { from: 4, to: 7 });
    assert.deepEqual(hunkLines(patch, 'x.py', 1), { from: 8, to: 10 });
    assert.deepEqual(hunkLines(patch, 'y.py', 0), { from: 14, to: 16 });
    assert.equal(hunkLines(patch, 'x.py', 2), undefined);
    assert.equal(hunkLines(patch, 'nope.py', 0), undefined);
  });
});
