// The throttle behind the live steps of Run Fresh Trials: a burst of steps reads the task folder at most once per
// interval, and the last step of a burst is always read (the view never stops one step short).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Throttle } from '../../../src/vscode/solver/throttle';

test('a burst of pokes makes one call at once and one at the end of the interval, never more', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  let calls = 0;
  const th = new Throttle(() => calls++, 250);
  for (let i = 0; i < 50; i++) th.poke();
  assert.equal(calls, 1, 'the first poke calls at once');
  t.mock.timers.tick(100);
  for (let i = 0; i < 50; i++) th.poke();
  assert.equal(calls, 1, 'pokes inside the interval wait');
  t.mock.timers.tick(150);
  assert.equal(calls, 2, 'the pokes of the burst end in one more call when the interval is over');
  t.mock.timers.tick(1000);
  assert.equal(calls, 2, 'nothing more without a poke');
});

test('flush calls now and takes the pending call with it; cancel drops it', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  let calls = 0;
  const th = new Throttle(() => calls++, 250);
  th.poke();
  th.poke();
  th.flush();
  assert.equal(calls, 2);
  t.mock.timers.tick(1000);
  assert.equal(calls, 2, 'the pending call was the flush');
  th.poke();
  assert.equal(calls, 3);
  th.poke();
  th.cancel();
  t.mock.timers.tick(1000);
  assert.equal(calls, 3);
});
