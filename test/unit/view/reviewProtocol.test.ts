// The host trusts nothing the webviews send: the review requests and the curation panels' messages are checked
// before anything is recorded.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateCurationMessage, validateWebviewMessage } from '../../../src/protocol/validate';

const req = (method: string, params: unknown, id = 1) => ({ type: 'request', id, method, params });
const ok = (m: unknown) => validateWebviewMessage(m).ok;
const why = (m: unknown) => {
  const v = validateWebviewMessage(m);
  return v.ok ? '' : v.error;
};

describe('review requests from the task view', () => {
  it('accepts well-formed requests', () => {
    assert.ok(ok(req('label', { attempt: 'a1', spec: 'S1', verdict: 'violated', note: 'why', evidence: [{ kind: 'trajectory_step', attempt: 'a1', step: 3 }, { kind: 'test', test: 'T1' }, { kind: 'log_line', run: 'r', line: 1, stream: 'stderr' }, { kind: 'diff_hunk', patch: 'attempt', attempt: 'a1', file: 'x.py', hunk: 0 }, { kind: 'spec', spec: 'S1' }] })));
    assert.ok(ok(req('score', { underspecified: 0, fnSeverity: 3, fpSeverity: 1, envDefects: ['flaky'], otherIssues: 'x', difficulty: '<15m' })));
    assert.ok(ok(req('submit', {})));
    assert.ok(ok(req('transition', { to: 'needs_repair' })));
    assert.ok(ok(req('approve', { waivers: [{ rule: 'gold-passes', reason: 'checked by hand' }] })));
    assert.ok(ok(req('reject', { reason: 'broken' })));
    assert.ok(ok(req('undo', {})));
    assert.ok(ok(req('decideSuggestion', { suggestion: 'gold_fails_test:gold:T1', decision: 'dismissed' })));
    assert.ok(ok(req('openEvidence', { link: { kind: 'log_line', run: 'r', line: 4 } })));
    assert.ok(ok(req('reviewQueue', { action: 'next', submit: true })));
  });

  it('refuses what the webview should never send, naming the request', () => {
    assert.match(why(req('label', { attempt: 'a1', spec: 'S1', verdict: 'maybe' })), /^label needs/);
    assert.match(why(req('label', { attempt: '', spec: 'S1', verdict: 'satisfied' })), /^label needs/);
    assert.match(why(req('label', { attempt: 'a1', spec: 'S1', verdict: 'satisfied', note: 'nul\u0000' })), /^label needs/);
    assert.match(why(req('label', { attempt: 'a1', spec: 'S1', verdict: 'satisfied', note: 'x'.repeat(20_001) })), /^label needs/);
    assert.match(why(req('label', { attempt: 'a1', spec: 'S1', verdict: 'satisfied', evidence: [{ kind: 'url', href: 'javascript:alert(1)' }] })), /^label needs/);
    assert.match(why(req('label', { attempt: 'a1', spec: 'S1', verdict: 'satisfied', evidence: Array.from({ length: 201 }, () => ({ kind: 'spec', spec: 'S1' })) })), /^label needs/);
    assert.match(why(req('score', { underspecified: 4, fnSeverity: 0, fpSeverity: 0, envDefects: [] })), /^score needs/);
    assert.match(why(req('score', { underspecified: 1.5, fnSeverity: 0, fpSeverity: 0, envDefects: [] })), /^score needs/);
    assert.match(why(req('approve', { waivers: 'all' })), /^approve needs/);
    assert.match(why(req('reject', {})), /^reject needs/);
    assert.match(why(req('undo', { event: 42 })), /^undo takes/);
    assert.match(why(req('decideSuggestion', { suggestion: 's', decision: 'maybe' })), /^decideSuggestion needs/);
    assert.match(why(req('openEvidence', { link: { kind: 'diff_hunk', patch: 'other', file: 'x', hunk: 0 } })), /^openEvidence needs/);
    assert.match(why(req('reviewQueue', { action: 'jump' })), /^reviewQueue needs/);
  });
});

describe('messages from the statistics and adjudication panels', () => {
  const cur = (m: unknown) => validateCurationMessage(m);
  it('accepts the handshake and the three requests', () => {
    assert.ok(cur({ type: 'ready', protocol: 1 }).ok);
    assert.ok(cur(req('adjudicate', { taskId: 't1', target: 'label', attempt: 'a1', spec: 'S1', verdict: 'violated', note: 'n' })).ok);
    assert.ok(cur(req('adjudicate', { taskId: 't1', target: 'score', field: 'envDefects', value: ['flaky'] })).ok);
    assert.ok(cur(req('adjudicate', { taskId: 't1', target: 'score', field: 'fnSeverity', value: 2 })).ok);
    assert.ok(cur(req('openTask', { taskId: 't1' })).ok);
    assert.ok(cur(req('showSettled', { show: true })).ok);
  });

  it('refuses anything else', () => {
    assert.equal(cur({ type: 'uiState', state: {} }).ok, false);
    assert.equal(cur(req('label', { attempt: 'a1' })).ok, false, "the task view's requests are not the panels'");
    assert.equal(cur(req('adjudicate', { taskId: 't1', target: 'label', attempt: 'a1', spec: 'S1', verdict: 'maybe' })).ok, false);
    assert.equal(cur(req('adjudicate', { taskId: 't1', target: 'score', field: 'fnSeverity', value: 9 })).ok, false);
    assert.equal(cur(req('adjudicate', { taskId: 't1', target: 'both' })).ok, false);
    assert.equal(cur(req('openTask', {}, 0)).ok, false);
    assert.equal(cur('ready').ok, false);
  });
});
