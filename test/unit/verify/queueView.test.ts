// The queue view and the status bar's per-node counts: where each run runs, counted per node, and one reading for
// the title and the rows (issue 15 item 6; issue 16 bug 7: the quick pick and the status bar disagreed).
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { QueueProgress } from '../../../src/core/verify/queue';
import type { QueueRunRow } from '../../../src/core/verify/queueView';
import { nodeCounts, queueRowText, queueStatusText, sortQueueRows } from '../../../src/core/verify/queueView';

const row = (id: string, state: QueueRunRow['state'], node = '', backend = 'pool'): QueueRunRow => ({ id, taskId: 't', attemptId: `a${id}`, state, backend, node });

test('runs are counted on the node they were given, running apart from finished; queued ones nowhere', () => {
  const rows = [
    row('1', 'done', 'node1 unix:///a.sock'),
    row('2', 'running', 'node2 unix:///b.sock'),
    row('3', 'failed', 'node1 unix:///a.sock'),
    row('4', 'queued'),
    row('5', 'running', 'node1 unix:///a.sock'),
  ];
  assert.deepEqual(nodeCounts(rows), [
    { name: 'node1', address: 'unix:///a.sock', running: 1, finished: 2 },
    { name: 'node2', address: 'unix:///b.sock', running: 1, finished: 0 },
  ]);
  assert.deepEqual(nodeCounts([row('1', 'done', 'myhost', 'local')]), [{ name: 'myhost', address: '', running: 0, finished: 1 }]);
});

test('the view lists running runs first, then queued, then errors, then done, in queue order within each', () => {
  const rows = [row('1', 'done'), row('2', 'queued'), row('3', 'running'), row('4', 'failed'), row('5', 'running'), row('6', 'cancelled')];
  assert.deepEqual(sortQueueRows(rows).map((r) => r.id), ['3', '5', '2', '4', '1', '6']);
  assert.deepEqual(queueRowText(row('2', 'running', 'node2 unix:///b.sock')), { label: 't a2', description: 'running · pool · node2 unix:///b.sock' });
  assert.deepEqual(queueRowText(row('4', 'queued')), { label: 't a4', description: 'queued · pool' });
  assert.equal(queueRowText(row('4', 'failed', 'h', 'local')).description, 'error · local · h');
});

test('the status bar counts runs per node when asked, and its text and tooltip agree on every count', () => {
  const p: QueueProgress = { total: 5, done: 1, failed: 1, cancelled: 0, running: 2, queued: 1 };
  const nodes = nodeCounts([row('1', 'done', 'node1 unix:///a'), row('2', 'failed', 'node2 unix:///b'), row('3', 'running', 'node1 unix:///a'), row('4', 'running', 'node2 unix:///b')]);
  const s = queueStatusText(p, nodes);
  assert.equal(s.text, '$(sync~spin) Verifier 2/5 · 2 running · 1 queued · node1 2, node2 2');
  // The tooltip said "0 done" beside "2/5" before: now both say 2 of 5 finished.
  assert.match(s.tooltip, /2 of 5 finished \(1 done, 1 error\), 2 running, 1 queued/);
  assert.match(s.tooltip, /Per node: node1 \(unix:\/\/\/a\) 1 running, 1 finished; node2 \(unix:\/\/\/b\) 1 running, 1 finished\./);
  // One local node: no per-node part unless asked.
  const one = nodeCounts([row('1', 'done', 'myhost', 'local')]);
  assert.doesNotMatch(queueStatusText({ ...p, running: 0, queued: 0 }, one).text, /myhost/);
  assert.match(queueStatusText({ ...p, running: 0, queued: 0 }, one, true).text, /Verifier: 1 done · 1 error · myhost 1$/);
});
