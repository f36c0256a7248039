// The host's one webview channel, as the curation panels use it (the task view's own tests drive it through
// TaskSession): a bad message gets an error reply and reaches no handler, `ready` tells the watchdog before the init,
// an answer over the cap becomes an error reply, and nothing over the cap is posted.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CurationRequestMap, CurationWebviewToHost, HandlerTable, HostToCurationWebview } from '../../../src/protocol/messages';
import { PROTOCOL_VERSION } from '../../../src/protocol/messages';
import { validateCurationMessage } from '../../../src/protocol/validate';
import type { WebviewReply } from '../../../src/vscode/webviewChannel';
import { WebviewChannel } from '../../../src/vscode/webviewChannel';

function channel(answer: (m: unknown) => Promise<unknown>) {
  const posted: Array<HostToCurationWebview | WebviewReply> = [];
  const logs: string[] = [];
  const order: string[] = [];
  // The tests answer with whatever they need (an oversized reply, a counter): hence the casts here only.
  const handlers: HandlerTable<CurationRequestMap> = {
    adjudicate: (p) => answer(p) as never,
    openTask: (p) => answer(p) as never,
    showSettled: (p) => answer(p) as never,
    filterCandidates: (p) => answer(p) as never,
  };
  const c = new WebviewChannel<CurationRequestMap, CurationWebviewToHost, HostToCurationWebview>({
    label: () => 'Adjudication',
    validate: validateCurationMessage,
    post: (m) => posted.push(m),
    handlers,
    ready: () => void order.push('init'),
    watchdog: { loaded: () => void order.push('watchdog') },
    log: (l) => logs.push(l),
    maxBytes: 2000,
  });
  return { c, posted, logs, order };
}

test('a message the page should never send gets an error reply and reaches no handler', async () => {
  let called = 0;
  const { c, posted, logs } = channel(async () => ++called);
  await c.receive({ type: 'request', id: 7, method: 'runCommand', params: { command: 'workbench.action.terminal.new' } });
  assert.equal(called, 0);
  assert.equal(posted.length, 1);
  assert.deepEqual({ ...posted[0], error: undefined }, { type: 'reply', id: 7, ok: false, error: undefined });
  assert.match(logs[0] ?? '', /^Adjudication: rejected a message from the webview/);
});

test('ready tells the watchdog, then the owner sends its init', async () => {
  const { c, order } = channel(async () => undefined);
  await c.receive({ type: 'ready', protocol: PROTOCOL_VERSION });
  assert.deepEqual(order, ['watchdog', 'init']);
});

test('an answer over the cap becomes an error reply; a message over the cap is not posted', async () => {
  const { c, posted, logs } = channel(async () => ({ big: 'x'.repeat(5000) }));
  await c.receive({ type: 'request', id: 3, method: 'openTask', params: { taskId: 't1' } });
  assert.equal(posted.length, 1);
  const r = posted[0] as WebviewReply;
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : r.error, /too large to send/);
  assert.equal(c.send({ type: 'update', model: { view: 'stats', stats: { error: 'y'.repeat(5000) } } as never }), false);
  assert.equal(posted.length, 1);
  assert.match(logs.at(-1) ?? '', /dropped a update message of \d+ bytes \(limit 2000\)/);
  assert.ok(c.largestMessage <= 2000);
});

test('a request reaches the handler of its method with its params, and its reply is posted', async () => {
  const seen: unknown[] = [];
  const { c, posted } = channel(async (p) => {
    seen.push(p);
    return { opened: true };
  });
  await c.receive({ type: 'request', id: 4, method: 'openTask', params: { taskId: 't9' } });
  assert.deepEqual(seen, [{ taskId: 't9' }]);
  assert.deepEqual(posted, [{ type: 'reply', id: 4, ok: true, result: { opened: true } }]);
});

// Compile-time: the handler table is typed per method, so a handler that answers another method's reply, or a
// reply with a literal outside its union, does not compile (`npm run check` fails on these lines otherwise).
export const wrongReplies: Array<Partial<HandlerTable<CurationRequestMap>>> = [
  // @ts-expect-error openTask answers { opened: boolean }, not showSettled's { shown }
  { openTask: async () => ({ shown: true }) },
  // @ts-expect-error a ReviewActResult's ok is a boolean literal, and its code a string
  { adjudicate: async () => ({ ok: 'yes', event: 'E1', summary: 's' }) },
];
