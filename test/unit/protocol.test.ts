import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateWebviewMessage } from '../../src/protocol/validate';
import { REPAIR_ACTIONS, TASK_ACTIONS } from '../../src/protocol/messages';

test('well-formed webview messages pass', () => {
  assert.equal(validateWebviewMessage({ type: 'ready', protocol: 1 }).ok, true);
  assert.equal(validateWebviewMessage({ type: 'request', id: 1, method: 'getSteps', params: { column: 'a1', start: 0, count: 50, kinds: ['action'] } }).ok, true);
  assert.equal(validateWebviewMessage({ type: 'request', id: 7, method: 'search', params: { searchId: 3, pattern: 'err(or)?', regex: true, caseSensitive: false } }).ok, true);
  assert.equal(validateWebviewMessage({ type: 'uiState', state: { taskId: 't1', activeColumn: 'gold' } }).ok, true);
  for (const method of TASK_ACTIONS) assert.equal(validateWebviewMessage({ type: 'request', id: 2, method, params: {} }).ok, true, method);
  for (const method of REPAIR_ACTIONS) assert.equal(validateWebviewMessage({ type: 'request', id: 2, method, params: { suggestion: '20261129T134201123Z-a1b2c3' } }).ok, true, method);
});

test('action requests take typed params and no command id', () => {
  const bad: unknown[] = [
    { type: 'request', id: 1, method: 'runCommand', params: { command: 'specweave.repair.accept', args: ['t', 's'] } },
    ...TASK_ACTIONS.map((method) => ({ type: 'request', id: 1, method, params: { command: 'workbench.action.terminal.new' } })),
    ...REPAIR_ACTIONS.flatMap((method) => [
      { type: 'request', id: 1, method, params: {} },
      { type: 'request', id: 1, method, params: { suggestion: '' } },
      { type: 'request', id: 1, method, params: { suggestion: 7 } },
      { type: 'request', id: 1, method, params: { suggestion: 'x'.repeat(301) } },
      { type: 'request', id: 1, method, params: { suggestion: 's', args: ['workbench.action.terminal.new'] } },
    ]),
  ];
  for (const m of bad) {
    const r = validateWebviewMessage(m);
    assert.equal(r.ok, false, `should refuse ${JSON.stringify(m).slice(0, 120)}`);
    assert.ok(!r.ok && r.error.length > 0);
  }
});

test('malformed or hostile messages are refused with a reason', () => {
  const bad: unknown[] = [
    null,
    'ready',
    [],
    { type: 'eval', code: 'x' },
    { type: 'request', id: 0, method: 'getSteps', params: { column: 'a', start: 0, count: 1 } },
    { type: 'request', id: 1.5, method: 'getSteps', params: { column: 'a', start: 0, count: 1 } },
    { type: 'request', id: 1, method: '__proto__', params: {} },
    { type: 'request', id: 1, method: 'constructor', params: {} },
    { type: 'request', id: 1, method: 'getSteps', params: { column: 'a', start: -1, count: 1 } },
    { type: 'request', id: 1, method: 'getSteps', params: { column: 'a', start: 0, count: 100000 } },
    { type: 'request', id: 1, method: 'getSteps', params: { column: 'a', start: 0, count: 1, kinds: ['<script>'] } },
    { type: 'request', id: 1, method: 'search', params: { searchId: 1, pattern: 'x'.repeat(5000), regex: true, caseSensitive: false } },
    { type: 'request', id: 1, method: 'runCommand', params: { command: 'workbench.action.terminal.new', args: [] } },
    { type: 'request', id: 1, method: 'openDiff', params: { column: 'a' } },
    { type: 'ready', protocol: 1, state: { taskId: 5 } },
  ];
  for (const m of bad) {
    const r = validateWebviewMessage(m);
    assert.equal(r.ok, false, `should refuse ${JSON.stringify(m)?.slice(0, 80)}`);
    assert.ok(!r.ok && r.error.length > 0);
  }
});

test('a pop-out names one of the task view\'s regions, and the specs area\'s tab at most as a short string', () => {
  for (const region of ['request', 'specs', 'attempts', 'trajectory']) {
    assert.equal(validateWebviewMessage({ type: 'request', id: 3, method: 'popOut', params: { region } }).ok, true, region);
  }
  assert.equal(validateWebviewMessage({ type: 'request', id: 3, method: 'popOut', params: { region: 'specs', tab: 'results' } }).ok, true);
  for (const params of [{}, { region: 'terminal' }, { region: 'specs', tab: 7 }, { region: 'specs', tab: 'x'.repeat(65) }, { region: ['specs'] }]) {
    const r = validateWebviewMessage({ type: 'request', id: 3, method: 'popOut', params });
    assert.equal(r.ok, false, JSON.stringify(params));
    assert.match(!r.ok ? r.error : '', /popOut needs region \(request, specs, attempts, trajectory\)/);
  }
});
