// The protocol's literal unions are checked at run time too: a request naming a status, score field, difficulty or
// environment defect outside its union is refused by validation, with a message saying what it takes, before any
// handler sees it (the webview renders hostile text, so the host trusts no literal it sends).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateCurationMessage, validateWebviewMessage } from '../../src/protocol/validate';
import { DIFFICULTY_VIEWS, ENV_DEFECT_VIEWS, SCORE_FIELD_VIEWS, TASK_STATUS_VIEWS } from '../../src/protocol/messages';

const score = (over: Record<string, unknown>) => ({ type: 'request', id: 1, method: 'score', params: { underspecified: 1, fnSeverity: 0, fpSeverity: 2, envDefects: [], ...over } });

test('a transition to a status outside the union is refused; every status of the union passes validation', () => {
  for (const to of ['done', 'APPROVED', '<script>', '', 'in_review ']) {
    const r = validateWebviewMessage({ type: 'request', id: 1, method: 'transition', params: { to } });
    assert.equal(r.ok, false, to);
    assert.match(r.ok ? '' : r.error, /transition needs to \(a task status\)/);
  }
  for (const to of TASK_STATUS_VIEWS) assert.equal(validateWebviewMessage({ type: 'request', id: 1, method: 'transition', params: { to } }).ok, true, to);
});

test('scores with an unknown difficulty bucket or environment defect are refused', () => {
  for (const bad of [{ difficulty: '2h' }, { difficulty: '' }, { envDefects: ['cosmic_rays'] }, { envDefects: ['flaky', 'flaky', 'flaky', 'flaky'] }]) {
    const r = validateWebviewMessage(score(bad));
    assert.equal(r.ok, false, JSON.stringify(bad));
    assert.match(r.ok ? '' : r.error, /difficulty\? \(<15m, 15m-1h, 1-4h or >4h\)/);
  }
  for (const difficulty of DIFFICULTY_VIEWS) assert.equal(validateWebviewMessage(score({ difficulty })).ok, true, difficulty);
  assert.equal(validateWebviewMessage(score({ envDefects: [...ENV_DEFECT_VIEWS] })).ok, true);
});

test('an adjudication of a score field outside the union is refused', () => {
  const adj = (field: unknown) => validateCurationMessage({ type: 'request', id: 2, method: 'adjudicate', params: { taskId: 't1', target: 'score', field, value: 1 } });
  for (const field of ['severity', '__proto__', 'difficulty ', 7]) {
    const r = adj(field);
    assert.equal(r.ok, false, String(field));
    assert.match(r.ok ? '' : r.error, /needs field \(a score field\)/);
  }
  for (const field of SCORE_FIELD_VIEWS) assert.equal(adj(field).ok, true, field);
});
