import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WebviewToHost } from '../../../src/protocol/messages';
import { validateWebviewMessage } from '../../../src/protocol/validate';
import { HostConnection, HostError, PanelConnection } from '../../../webview/src/host';

test('requests get ids from a counter and settle with exactly one reply each', async () => {
  const sent: WebviewToHost[] = [];
  const c = new HostConnection((m) => sent.push(m));
  const a = c.request('getSteps', { column: 'a1', start: 0, count: 100 });
  const b = c.request('openDiff', { column: 'gold', path: 'x.py' });
  assert.deepEqual(
    sent.map((m) => (m.type === 'request' ? m.id : 0)),
    [1, 2],
  );
  for (const m of sent) assert.ok(validateWebviewMessage(m).ok, 'what we send passes the host validation');
  assert.ok(c.handleReply({ type: 'reply', id: 2, ok: true, result: { opened: 'diff' } }));
  assert.equal(c.handleReply({ type: 'reply', id: 2, ok: true, result: { opened: 'patch' } }), false, 'a second reply is ignored');
  assert.ok(c.handleReply({ type: 'reply', id: 1, ok: false, error: 'no such column' }));
  assert.deepEqual(await b, { opened: 'diff' });
  await assert.rejects(a, (e: unknown) => e instanceof HostError && /getSteps: no such column/.test(e.message));
  assert.equal(c.handleReply({ type: 'reply', id: 99, ok: true, result: null }), false);
  assert.equal(c.outstanding, 0);
});

test('rejectAll fails what is outstanding', async () => {
  const c = new HostConnection(() => {});
  const p = c.request('search', { searchId: 1, pattern: 'x', regex: false, caseSensitive: false });
  c.rejectAll('task changed');
  await assert.rejects(p, /task changed/);
  assert.equal(c.outstanding, 0);
});

test('a request over the message cap is refused in the page, naming the method and the size; nothing is posted', async () => {
  const sent: WebviewToHost[] = [];
  const c = new HostConnection((m) => sent.push(m));
  const big = c.request('label', { attempt: 'a1', spec: 'S1', verdict: 'satisfied', note: 'x'.repeat(1_100_000) });
  await assert.rejects(big, (e: unknown) => e instanceof HostError && /^label: the request is too big to send \(\d+ bytes, at most 1000000\)$/.test(e.message));
  assert.equal(sent.length, 0);
  assert.equal(c.outstanding, 0);
});

test('the statistics page uses the same client: ids from a counter, one reply each', async () => {
  const sent: unknown[] = [];
  const c = new PanelConnection((m) => sent.push(m));
  const p = c.request('openTask', { taskId: 't1' });
  assert.deepEqual(sent, [{ type: 'request', id: 1, method: 'openTask', params: { taskId: 't1' } }]);
  assert.ok(c.handleReply({ type: 'reply', id: 1, ok: true, result: { opened: true } }));
  assert.deepEqual(await p, { opened: true });
  assert.equal(c.handleReply({ type: 'reply', id: 1, ok: true, result: { opened: true } }), false);
});
