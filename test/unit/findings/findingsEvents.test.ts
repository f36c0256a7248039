// The review agent's findings in the review log: a `review.findings` line round-trips, a malformed one is refused
// naming the field, findings are kept beside the labels and never counted as one, a dismissal is recorded per finding.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FindingsPayload } from '../../../src/core/findings/model';
import { formatEventLine, isUndoable, parseEventLine } from '../../../src/core/review/events';
import { findingKey, reduceLog } from '../../../src/core/review/reducer';
import { ev, label } from '../review/helpers';

const payload: FindingsPayload = {
  attempt: 'a1',
  patchHash: 'ab'.repeat(32),
  run: '20261201T100000-abcdef',
  model: 'gpt-test',
  promptVersion: 'review-1',
  promptHash: 'cd'.repeat(32),
  promptTokens: 1200,
  completionTokens: 300,
  costUsd: 0.004,
  findings: [
    {
      spec: 'S1',
      judgment: 'violated',
      confidence: 0.8,
      rationale: 'rounds half to even',
      citations: [{ kind: 'diff_hunk', file: 'fmt.py', hunk: 0, quote: 'round(' }, { kind: 'request_sentence', sentence: 2 }],
      candidate: 'false_positive',
      verifierVerdict: 'pass',
    },
  ],
  dropped: [{ spec: 'S2', reason: 'cites trajectory step 99, which the trajectory does not have' }],
};

describe('review.findings events', () => {
  it('round-trip through the log line format', () => {
    const e = ev('review.findings', payload);
    const back = parseEventLine(formatEventLine(e));
    assert.ok(back.ok, back.ok ? '' : back.message);
    assert.deepEqual(back.event.payload, payload);
  });

  it('a confidence outside 0..1 or a citation of an unknown kind is refused, naming the field', () => {
    const bad1 = { ...payload, findings: [{ ...payload.findings[0], confidence: 1.5 }] } as unknown as FindingsPayload;
    const r1 = parseEventLine(formatEventLine(ev('review.findings', bad1)));
    assert.ok(!r1.ok);
    assert.match(r1.message, /payload\.findings\[0\]\.confidence/);
    const bad2 = { ...payload, findings: [{ ...payload.findings[0], citations: [{ kind: 'somewhere', x: 1 }] }] } as unknown as FindingsPayload;
    const r2 = parseEventLine(formatEventLine(ev('review.findings', bad2)));
    assert.ok(!r2.ok);
    assert.match(r2.message, /citations\[0\]\.kind/);
  });

  it('are kept per task, never counted as labels, and cannot be undone', () => {
    const f = ev('review.findings', payload);
    const st = reduceLog([label('a1', 'S2', 'satisfied'), f, ev('review.dismiss', { findings: f.id, spec: 'S1', note: 'checked: rounds up' })]).tasks.get('t1');
    assert.ok(st);
    assert.equal(st.findings.length, 1);
    assert.equal(st.findings[0]?.payload.findings[0]?.candidate, 'false_positive');
    assert.deepEqual([...(st.labels.get('alice')?.values() ?? [])].map((l) => [l.attempt, l.spec]), [['a1', 'S2']]);
    assert.equal(st.findingDismissals.get(findingKey(f.id, 'S1'))?.note, 'checked: rounds up');
    assert.equal(isUndoable('review.findings'), false);
  });

  it('findings alone do not put a candidate task in review', () => {
    const st = reduceLog([ev('review.findings', payload)]).tasks.get('t1');
    assert.equal(st?.status, 'candidate');
  });
});
