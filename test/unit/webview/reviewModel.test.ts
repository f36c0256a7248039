// The review part of the webview without the DOM: focus order and movement, auto-advance to the next unlabelled pair,
// the keys, and drafts that survive re-renders and failed requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReviewCellView, ReviewView } from '../../../src/protocol/messages';
import { actionForKey } from '../../../webview/src/keys';
import {
  describeCell,
  evidenceText,
  firstFocus,
  keepFocus,
  nextUnlabelled,
  pairKey,
  ReviewDrafts,
  reviewKeyAction,
  stepAttempt,
  stepFocus,
  unlabelledCount,
  type ReviewKeyPress,
} from '../../../webview/src/views/reviewModel';

function cell(attempt: string, spec: string, mine?: ReviewCellView['mine']): ReviewCellView {
  return { attempt, spec, verifier: 'pass', verifierStale: false, ...(mine ? { mine } : {}), others: [], stale: [], from: mine ? 'single' : 'none', disagreement: false, outcome: 'undecided' };
}

function review(labelled: string[] = []): ReviewView {
  const attempts = ['a1', 'a2'];
  const specs = ['S1', 'S2', 'S3'];
  const cells: ReviewCellView[] = [];
  for (const a of attempts) {
    for (const s of specs) {
      const k = `${a}×${s}`;
      cells.push(cell(a, s, labelled.includes(k) ? { curator: 'alice', verdict: 'satisfied', evidence: [], event: `E-${k}`, time: '2026-01-01T00:00:00.000Z' } : undefined));
    }
  }
  return {
    viewer: 'alice',
    policy: 'adjudicate',
    blind: false,
    othersHidden: false,
    viewerSubmitted: false,
    submittedBy: [],
    status: 'in_review',
    nextStatuses: [],
    attempts: attempts.map((id) => ({ id, model: 'm', agent: 'x', judged: 0, falsePositives: 0, falseNegatives: 0 })),
    specs,
    cells,
    scores: { others: [], final: {}, from: {}, open: [] },
    suggestions: [],
    rules: [],
    blockers: [],
    counts: { cells: cells.length, judged: 0, mine: labelled.length, falsePositives: 0, falseNegatives: 0, undecided: 0, openDisagreements: 0, openSuggestions: 0, staleLabels: 0 },
    history: [],
    historyTotal: 0,
  };
}

const p = (attempt: string, spec: string) => ({ attempt, spec });

test('focus starts at the first pair the curator has not labelled, one attempt against every spec first', () => {
  assert.deepEqual(firstFocus(review()), p('a1', 'S1'));
  assert.deepEqual(firstFocus(review(['a1×S1', 'a1×S2'])), p('a1', 'S3'));
  assert.deepEqual(firstFocus(review(['a1×S1', 'a1×S2', 'a1×S3'])), p('a2', 'S1'));
  const all = review(['a1×S1', 'a1×S2', 'a1×S3', 'a2×S1', 'a2×S2', 'a2×S3']);
  assert.deepEqual(firstFocus(all), p('a1', 'S1'), 'everything labelled: the first pair');
  assert.deepEqual(keepFocus(all, p('a2', 'S2')), p('a2', 'S2'));
  assert.deepEqual(keepFocus(all, p('gone', 'S2')), p('a1', 'S1'), 'a pair the task lost');
});

test('j/k move along the order and wrap; h/l keep the spec and change the attempt', () => {
  const r = review();
  assert.deepEqual(stepFocus(r, p('a1', 'S3'), 1), p('a2', 'S1'));
  assert.deepEqual(stepFocus(r, p('a2', 'S3'), 1), p('a1', 'S1'));
  assert.deepEqual(stepFocus(r, p('a1', 'S1'), -1), p('a2', 'S3'));
  assert.deepEqual(stepAttempt(r, p('a1', 'S2'), 1), p('a2', 'S2'));
  assert.deepEqual(stepAttempt(r, p('a2', 'S2'), 1), p('a1', 'S2'));
  assert.deepEqual(stepAttempt(r, p('a1', 'S2'), -1), p('a2', 'S2'));
});

test('after a label the focus goes to the next pair not labelled, counting labels still being written', () => {
  const r = review(['a1×S2']);
  assert.deepEqual(nextUnlabelled(r, p('a1', 'S1')), p('a1', 'S3'), 'skips what is labelled');
  const sent = new Set([pairKey(p('a1', 'S3'))]);
  assert.deepEqual(nextUnlabelled(r, p('a1', 'S1'), sent), p('a2', 'S1'), 'skips what was just sent');
  assert.deepEqual(nextUnlabelled(r, p('a2', 'S3'), new Set([pairKey(p('a1', 'S1'))])), p('a1', 'S3'), 'wraps around');
  assert.equal(unlabelledCount(r), 5);
  assert.equal(unlabelledCount(r, sent), 4);
  const last = review(['a1×S1', 'a1×S2', 'a1×S3', 'a2×S1', 'a2×S2']);
  assert.equal(nextUnlabelled(last, p('a2', 'S3')), undefined, 'the last pair: nothing left, the task is done');
});

const key = (k: string, more: Partial<ReviewKeyPress> = {}): ReviewKeyPress => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, inTextField: false, reviewMode: false, ...more });

test('one key per verdict; moves, undo, help; queue keys only in review mode; nothing while typing or with modifiers', () => {
  assert.deepEqual(reviewKeyAction(key('s')), { kind: 'verdict', verdict: 'satisfied' });
  assert.deepEqual(reviewKeyAction(key('v')), { kind: 'verdict', verdict: 'violated' });
  assert.deepEqual(reviewKeyAction(key('u')), { kind: 'verdict', verdict: 'unsure' });
  assert.deepEqual(reviewKeyAction(key('j')), { kind: 'move', delta: 1 });
  assert.deepEqual(reviewKeyAction(key('ArrowUp')), { kind: 'move', delta: -1 });
  assert.deepEqual(reviewKeyAction(key('l')), { kind: 'attempt', delta: 1 });
  assert.deepEqual(reviewKeyAction(key('z')), { kind: 'undo' });
  assert.deepEqual(reviewKeyAction(key('?')), { kind: 'help' });
  assert.equal(reviewKeyAction(key('n')), undefined);
  assert.equal(reviewKeyAction(key('Enter')), undefined);
  assert.deepEqual(reviewKeyAction(key('n', { reviewMode: true })), { kind: 'skipTask' });
  assert.deepEqual(reviewKeyAction(key('Enter', { reviewMode: true })), { kind: 'submitNext' });
  assert.equal(reviewKeyAction(key('s', { inTextField: true })), undefined, 'typing a note labels nothing');
  assert.equal(reviewKeyAction(key('s', { ctrlKey: true })), undefined);
  assert.equal(reviewKeyAction(key('S', { shiftKey: true })), undefined);
  assert.equal(reviewKeyAction(key('v', { metaKey: true })), undefined);
});

test('review keys leave the task view keys alone', () => {
  for (const k of ['s', 'v', 'u', 'j', 'k', 'h', 'l', 'z', 'e', 'n', '?']) {
    assert.equal(actionForKey({ key: k, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, inTextField: false, inSearch: false }), undefined, `${k} is free in the task view`);
  }
});

test('drafts keep what was typed until it is on disk, per task', () => {
  const d = new ReviewDrafts();
  d.forTask('t1');
  const r = review(['a1×S1']);
  const c = r.cells[0]!;
  assert.equal(d.noteOf(c), '');
  d.notes.set(pairKey(c), 'typed, not yet saved');
  assert.equal(d.noteOf(c), 'typed, not yet saved');
  assert.equal(d.dirty(c), true);
  d.forTask('t1');
  assert.equal(d.noteOf(c), 'typed, not yet saved', 'a re-render of the same task keeps it');
  d.settled(c);
  assert.equal(d.dirty(c), false);
  d.notes.set(pairKey(c), 'another');
  d.forTask('t2');
  assert.equal(d.noteOf(c), '', 'another task starts clean');
  assert.deepEqual(d.scoresOf(r), { underspecified: 0, fnSeverity: 0, fpSeverity: 0, envDefects: [], otherIssues: '', difficulty: '', note: '' });
});

test('evidence links and pairs read as text', () => {
  assert.equal(evidenceText({ kind: 'trajectory_step', attempt: 'a1', step: 12 }), 'step 12 of a1');
  assert.equal(evidenceText({ kind: 'log_line', run: 'r1', line: 40, stream: 'stderr' }), 'line 40 of run r1 (stderr)');
  assert.equal(evidenceText({ kind: 'diff_hunk', patch: 'gold', file: 'x.py', hunk: 0 }), 'hunk 0 of x.py (gold)');
  const c: ReviewCellView = { ...cell('a1', 'S2', { curator: 'alice', verdict: 'violated', evidence: [], event: 'E', time: 't' }), final: 'violated', outcome: 'false_positive' };
  assert.equal(describeCell(c), 'a1 × S2; verifier pass; you: violated; final: violated; outcome: false positive');
});
