// The batch queue: concurrency limit, cancellation of one job or all, progress and ETA.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { RunQueue, defaultConcurrency } from '../../../src/core/verify/queue';

interface Gate {
  resolve: (v: string) => void;
  reject: (e: Error) => void;
  signal: AbortSignal;
}

function gatedQueue(concurrency: number, now?: () => number) {
  const gates = new Map<string, Gate>();
  let running = 0;
  let maxRunning = 0;
  const q = new RunQueue<string, string>({
    concurrency,
    now,
    execute: (job, signal) =>
      new Promise<string>((resolve, reject) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        const done = () => running--;
        gates.set(job, {
          resolve: (v) => (done(), resolve(v)),
          reject: (e) => (done(), reject(e)),
          signal,
        });
      }),
  });
  return { q, gates, maxRunning: () => maxRunning };
}

const tick = () => new Promise((r) => setImmediate(r));

test('never runs more jobs than the concurrency limit, and runs them all', async () => {
  const { q, gates, maxRunning } = gatedQueue(2);
  const ids = ['a', 'b', 'c', 'd', 'e'].map((j) => q.add(j));
  await tick();
  assert.deepEqual([...gates.keys()], ['a', 'b']);
  assert.deepEqual({ ...q.progress(), etaMs: undefined }, { total: 5, done: 0, failed: 0, cancelled: 0, running: 2, queued: 3, etaMs: undefined });
  for (const j of ['a', 'b', 'c', 'd', 'e']) {
    await tick();
    gates.get(j)?.resolve(j.toUpperCase());
  }
  await q.idle();
  assert.equal(maxRunning(), 2);
  assert.deepEqual(await Promise.all(ids.map((id) => q.result(id))), ['A', 'B', 'C', 'D', 'E'].map((value) => ({ state: 'done', value })));
});

test('cancelling a queued job settles it at once; cancelling a running one aborts its signal', async () => {
  const { q, gates } = gatedQueue(1);
  const a = q.add('a');
  const b = q.add('b');
  await tick();
  assert.equal(q.cancel(b), true);
  assert.deepEqual(await q.result(b), { state: 'cancelled' });
  assert.equal(q.cancel(a), true);
  const g = gates.get('a') as Gate;
  assert.equal(g.signal.aborted, true);
  assert.equal(q.state(a), 'running', 'its slot stays taken until the executor has cleaned up');
  g.reject(new Error('aborted'));
  assert.deepEqual(await q.result(a), { state: 'cancelled' });
  assert.equal(q.cancel(a), false);
  assert.equal(gates.has('b'), false, 'a cancelled job never starts');
});

test('cancelAll cancels queued jobs before freeing slots, so none of them starts', async () => {
  const { q, gates } = gatedQueue(1);
  const ids = ['a', 'b', 'c'].map((j) => q.add(j));
  await tick();
  q.cancelAll();
  gates.get('a')?.resolve('A');
  await q.idle();
  assert.deepEqual(await Promise.all(ids.map((id) => q.result(id))), [{ state: 'cancelled' }, { state: 'cancelled' }, { state: 'cancelled' }]);
  assert.deepEqual([...gates.keys()], ['a']);
});

test('an executor that throws fails its job and the queue goes on', async () => {
  const q = new RunQueue<number, number>({
    concurrency: 1,
    execute: (n) => {
      if (n === 1) throw new Error('sync boom');
      if (n === 2) return Promise.reject(new Error('async boom'));
      return Promise.resolve(n * 10);
    },
  });
  const ids = [1, 2, 3].map((n) => q.add(n));
  const rs = await Promise.all(ids.map((id) => q.result(id)));
  assert.deepEqual(rs.map((r) => r.state), ['failed', 'failed', 'done']);
  assert.deepEqual(q.progress(), { total: 3, done: 1, failed: 2, cancelled: 0, running: 0, queued: 0 });
  q.clearSettled();
  assert.equal(q.progress().total, 0);
});

test('ETA from the mean duration of finished jobs, divided among the slots', async () => {
  let clock = 0;
  const { q, gates } = gatedQueue(2, () => clock);
  for (const j of ['a', 'b', 'c', 'd', 'e', 'f']) q.add(j);
  await tick();
  clock = 10_000;
  gates.get('a')?.resolve('A');
  gates.get('b')?.resolve('B');
  await tick();
  await tick();
  // c and d started at 10 s; e and f queued; mean 10 s: (10 + 10 + 2 x 10) / 2 = 20 s.
  assert.equal(q.progress().etaMs, 20_000);
  clock = 15_000;
  assert.equal(q.progress().etaMs, 15_000);
});

test('progress is reported on every change', async () => {
  const seen: string[] = [];
  const q = new RunQueue<number, number>({
    concurrency: 1,
    execute: async (n) => n,
    onProgress: (p) => seen.push(`${p.done}/${p.running}/${p.queued}`),
  });
  await q.result(q.add(1));
  assert.deepEqual(seen, ['0/1/0', '1/0/0']);
});

test('default concurrency: the cores, capped by memory, at least one', () => {
  assert.equal(defaultConcurrency(2, 24 * 1024, 2048), 2);
  assert.equal(defaultConcurrency(16, 8 * 1024, 2048), 3);
  assert.equal(defaultConcurrency(4, 1024, 4096), 1);
  assert.equal(defaultConcurrency(0, 1024, 1), 1);
});
