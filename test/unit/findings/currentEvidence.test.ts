// The `finding` evidence kind: the CLI's text form `finding:EVENT#SPEC` both ways, the log's check, the task check
// (the spec must exist), and the webview protocol's validator for the link and the accept/dismiss requests.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evidenceCheck, evidenceProblem, formatEvidence, parseEvidence } from '../../../src/core/review/evidence';
import type { CandidateTask } from '../../../src/core/model';
import { validateWebviewMessage } from '../../../src/protocol/validate';

const req = (method: string, params: unknown) => ({ type: 'request', id: 1, method, params });
const why = (m: unknown) => {
  const v = validateWebviewMessage(m);
  return v.ok ? '' : v.error;
};

describe('finding evidence links', () => {
  it('parse and format finding:EVENT#SPEC, a spec id with # kept whole', () => {
    const r = parseEvidence('finding:01JFINDINGS0001#S2');
    assert.ok(r.ok);
    assert.deepEqual(r.link, { kind: 'finding', findings: '01JFINDINGS0001', spec: 'S2' });
    assert.equal(formatEvidence(r.link), 'finding:01JFINDINGS0001#S2');
    const hashy = parseEvidence('finding:EVT00001#spec#2');
    assert.ok(hashy.ok);
    assert.deepEqual(hashy.link, { kind: 'finding', findings: 'EVT00001', spec: 'spec#2' });
    for (const bad of ['finding:EVT00001', 'finding:#S1', 'finding:EVT00001#']) {
      const b = parseEvidence(bad);
      assert.ok(!b.ok, bad);
      assert.match(b.message, /expected finding:EVENT#SPEC/);
    }
  });

  it('are checked in the log and against the task', () => {
    assert.equal(evidenceCheck({ kind: 'finding', findings: 'EVT00001', spec: 'S1' }, 'e'), undefined);
    assert.match(evidenceCheck({ kind: 'finding', spec: 'S1' }, 'e')?.field ?? '', /findings/);
    const task = { id: 't1', attempts: [], tests: [], specs: [{ id: 'S1' }], files: {} } as unknown as CandidateTask;
    assert.equal(evidenceProblem({ kind: 'finding', findings: 'EVT00001', spec: 'S1' }, task), undefined);
    assert.match(evidenceProblem({ kind: 'finding', findings: 'EVT00001', spec: 'S9' }, task) ?? '', /spec "S9", which task t1 does not have/);
  });

  it('the webview may send a finding link, acceptFinding and dismissFinding, and nothing malformed', () => {
    assert.equal(why(req('label', { attempt: 'a1', spec: 'S1', verdict: 'violated', evidence: [{ kind: 'finding', findings: 'EVT00001', spec: 'S1' }] })), '');
    assert.equal(why(req('openEvidence', { link: { kind: 'finding', findings: 'EVT00001', spec: 'S1' } })), '');
    assert.equal(why(req('acceptFinding', { findings: 'EVT00001', spec: 'S1' })), '');
    assert.equal(why(req('dismissFinding', { findings: 'EVT00001', spec: 'S1', note: 'wrong' })), '');
    assert.match(why(req('openEvidence', { link: { kind: 'finding', findings: '', spec: 'S1' } })), /^openEvidence needs/);
    assert.match(why(req('acceptFinding', { findings: 'EVT00001' })), /^acceptFinding needs/);
    assert.match(why(req('dismissFinding', { findings: 'EVT00001', spec: 'S1', note: 'nul\u0000' })), /^dismissFinding needs/);
  });
});
