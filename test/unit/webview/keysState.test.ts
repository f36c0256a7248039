import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskViewModel } from '../../../src/protocol/messages';
import { actionForKey, CommandDedupe, type KeyPress } from '../../../webview/src/keys';
import { kindsParam, restoreState, STEP_KINDS, toPersisted, toWebviewState } from '../../../webview/src/state';

const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({
  key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, inTextField: false, inSearch: false, ...more,
});

test('keys: hits, attempts, search, diff; plain keys do nothing while typing', () => {
  assert.equal(actionForKey(press('F3')), 'nextHit');
  assert.equal(actionForKey(press('F3', { shiftKey: true })), 'previousHit');
  assert.equal(actionForKey(press('Enter', { inSearch: true, inTextField: true })), 'nextHit');
  assert.equal(actionForKey(press('Enter', { inSearch: true, inTextField: true, shiftKey: true })), 'previousHit');
  assert.equal(actionForKey(press('Enter')), undefined);
  assert.equal(actionForKey(press('f', { ctrlKey: true })), 'focusSearch');
  assert.equal(actionForKey(press('f', { metaKey: true, inTextField: true })), 'focusSearch');
  assert.equal(actionForKey(press(']')), 'nextAttempt');
  assert.equal(actionForKey(press('[')), 'previousAttempt');
  assert.equal(actionForKey(press('d')), 'openDiff');
  assert.equal(actionForKey(press('d', { inTextField: true })), undefined);
  assert.equal(actionForKey(press(']', { inTextField: true, inSearch: true })), undefined);
  assert.equal(actionForKey(press('d', { ctrlKey: true })), undefined);
});

test('a key handled here absorbs the same command echoed by the host once, within the window', () => {
  const d = new CommandDedupe(250);
  d.local('nextHit', 1000);
  assert.equal(d.acceptHost('nextHit', 1010), false, 'the echo of the key press');
  assert.equal(d.acceptHost('nextHit', 1020), true, 'a second command is a real one');
  d.local('nextAttempt', 2000);
  assert.equal(d.acceptHost('nextHit', 2001), true, 'other commands pass');
  assert.equal(d.acceptHost('nextAttempt', 2400), true, 'too late to be an echo');
});

const model = (columns: Array<{ id: string; hasTrajectory: boolean }>, taskId = 't1'): TaskViewModel => ({
  protocol: 1, taskId, title: 'T', revision: 1, status: 'candidate', repo: 'r', image: 'i', trusted: true, request: [],
  specs: [], tests: [], notices: [],
  columns: columns.map((c) => ({ id: c.id, label: c.id, files: [], hasTrajectory: c.hasTrajectory })),
});

test('state: defaults pick the first column with a trajectory', () => {
  const s = restoreState(model([{ id: 'gold', hasTrajectory: false }, { id: 'a1', hasTrajectory: true }]), undefined, undefined);
  assert.equal(s.activeColumn, 'a1');
  assert.equal(s.compareWith, 'gold');
  assert.equal(s.stepKinds.length, STEP_KINDS.length);
  assert.equal(kindsParam(s), undefined, 'all kinds means no filter');
});

test('state: saved state of the same task is restored, the host copy wins on shared fields, unknown columns dropped', () => {
  const m = model([{ id: 'gold', hasTrajectory: false }, { id: 'a1', hasTrajectory: true }, { id: 'a2', hasTrajectory: true }]);
  const saved = toPersisted({
    ...restoreState(m, undefined, undefined),
    activeColumn: 'a2', search: 'old', stepKinds: ['action'], scrollTop: { a2: 440 }, selectedStep: { a2: 12 }, specsTab: 'matrix',
  });
  const s = restoreState(m, JSON.parse(JSON.stringify(saved)), { taskId: 't1', search: 'Traceback', regex: true });
  assert.equal(s.activeColumn, 'a2');
  assert.equal(s.search, 'Traceback');
  assert.equal(s.regex, true);
  assert.deepEqual(s.stepKinds, ['action']);
  assert.deepEqual(kindsParam(s), ['action']);
  assert.equal(s.scrollTop.a2, 440);
  assert.equal(s.specsTab, 'matrix');
  assert.deepEqual(toWebviewState(s), { taskId: 't1', activeColumn: 'a2', stepKinds: ['action'], search: 'Traceback', regex: true, caseSensitive: false });

  const other = restoreState(model([{ id: 'x9', hasTrajectory: true }], 't2'), saved, undefined);
  assert.equal(other.activeColumn, 'x9', 'positions do not carry to another task');
  assert.equal(other.search, 'old', 'search settings do');
  assert.deepEqual(other.scrollTop, {});
});

test('state: garbage in the saved state is ignored', () => {
  const m = model([{ id: 'a1', hasTrajectory: true }]);
  const s = restoreState(m, { v: 1, taskId: 't1', stepKinds: ['<img>', 5], scrollTop: { a1: -4, a2: 'x' }, search: 7, activeColumn: 'nope' }, undefined);
  assert.equal(s.stepKinds.length, STEP_KINDS.length);
  assert.deepEqual(s.scrollTop, {});
  assert.equal(s.search, '');
  assert.equal(s.activeColumn, 'a1');
  assert.equal(restoreState(m, 'junk', undefined).activeColumn, 'a1');
});

test('state: the compact attempt cards setting is kept for every task; anything but `on` is auto', () => {
  const m = model([{ id: 'a1', hasTrajectory: true }]);
  assert.equal(restoreState(m, undefined, undefined).compactAttempts, 'auto');
  const on = toPersisted({ ...restoreState(m, undefined, undefined), compactAttempts: 'on' });
  assert.equal(restoreState(model([{ id: 'b1', hasTrajectory: true }], 't2'), JSON.parse(JSON.stringify(on)), undefined).compactAttempts, 'on');
  assert.equal(restoreState(m, { ...on, compactAttempts: '<b>' }, undefined).compactAttempts, 'auto');
  assert.equal('compactAttempts' in toWebviewState(restoreState(m, on, undefined)), false, 'the host does not keep it');
});

test('state: what `ready` carries passes the host validation, whatever was saved', async () => {
  const { validateWebviewMessage } = await import('../../../src/protocol/validate');
  const { savedWebviewState } = await import('../../../webview/src/state');
  const saved: unknown[] = [
    undefined,
    'x',
    { v: 1, taskId: 't1', stepKinds: ['<img>', 'action'], search: 'y'.repeat(5000), activeColumn: 5, regex: 'yes' },
    { v: 1, taskId: 'x'.repeat(300) },
    { v: 2, taskId: 't1' },
    toPersisted(restoreState(model([{ id: 'a1', hasTrajectory: true }]), undefined, undefined)),
  ];
  for (const s of saved) {
    const state = savedWebviewState(s);
    const msg = state ? { type: 'ready', protocol: 1, state } : { type: 'ready', protocol: 1 };
    assert.ok(validateWebviewMessage(msg).ok, JSON.stringify(msg).slice(0, 200));
  }
  assert.deepEqual(savedWebviewState(saved[2]), { taskId: 't1', regex: false, caseSensitive: false, stepKinds: ['action'] });
});
