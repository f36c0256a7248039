// The webview load watchdog on a scripted clock: a page that never says `ready` is loaded again, a few times, only
// while its panel is visible, and then the user is told; a page that loads stops the clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageWatchdog } from '../../../src/vscode/pageWatchdog';

class Clock {
  now = 0;
  private next = 1;
  private readonly pending = new Map<number, { at: number; fn: () => void }>();
  readonly timers = {
    set: (fn: () => void, ms: number): unknown => {
      const id = this.next++;
      this.pending.set(id, { at: this.now + ms, fn });
      return id;
    },
    clear: (h: unknown): void => void this.pending.delete(h as number),
  };
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.pending.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.pending.delete(due[0]);
      this.now = due[1].at;
      due[1].fn();
    }
    this.now = end;
  }
  get armed(): number {
    return this.pending.size;
  }
}

function setup(visible = true) {
  const clock = new Clock();
  const listeners: (() => void)[] = [];
  const panel = {
    visible,
    onDidChangeViewState: (l: () => void) => {
      listeners.push(l);
      return { dispose: () => void listeners.splice(listeners.indexOf(l), 1) };
    },
  };
  const warnings: string[] = [];
  const errors: string[] = [];
  let reloads = 0;
  let gaveUp = 0;
  const dog = new PageWatchdog({
    panel,
    reload: () => void reloads++,
    label: () => 'task view t1',
    log: { warn: (m) => void warnings.push(m), error: (m) => void errors.push(m) },
    onGiveUp: () => void gaveUp++,
    timeoutMs: 8000,
    reloads: 2,
    timers: clock.timers,
  });
  const show = (v: boolean): void => {
    panel.visible = v;
    for (const l of [...listeners]) l();
  };
  return { clock, dog, show, warnings, errors, listeners, get reloads() { return reloads; }, get gaveUp() { return gaveUp; } };
}

test('a page that says ready in time is never reloaded', () => {
  const s = setup();
  s.dog.arm();
  s.clock.advance(3000);
  s.dog.loaded();
  s.clock.advance(60_000);
  assert.equal(s.reloads, 0);
  assert.equal(s.clock.armed, 0);
  assert.deepEqual(s.warnings, []);
});

test('a page that never loads is loaded again twice, 8 s apart, then the user is told once', () => {
  const s = setup();
  s.dog.arm();
  s.clock.advance(7999);
  assert.equal(s.reloads, 0);
  s.clock.advance(1);
  assert.equal(s.reloads, 1);
  assert.match(s.warnings[0] ?? '', /^task view t1: the page did not load within 8 s; loading it again \(1 of 2\)$/);
  s.clock.advance(8000);
  assert.equal(s.reloads, 2);
  assert.equal(s.gaveUp, 0);
  s.clock.advance(8000);
  assert.equal(s.gaveUp, 1);
  assert.match(s.errors[0] ?? '', /did not load after 2 reloads/);
  s.clock.advance(60_000);
  assert.equal(s.reloads, 2, 'no reload after giving up');
  assert.equal(s.gaveUp, 1);
});

test('the second load succeeding stops the clock', () => {
  const s = setup();
  s.dog.arm();
  s.clock.advance(8000);
  assert.equal(s.reloads, 1);
  s.dog.loaded();
  s.clock.advance(60_000);
  assert.equal(s.reloads, 1);
  assert.equal(s.gaveUp, 0);
});

test('a hidden panel is not expected to load: the clock runs only while it is visible, and starts over', () => {
  const s = setup(false);
  s.dog.arm();
  s.clock.advance(60_000);
  assert.equal(s.reloads, 0);
  s.show(true);
  s.clock.advance(5000);
  s.show(false);
  s.clock.advance(60_000);
  assert.equal(s.reloads, 0, 'hidden again before the time was up');
  s.show(true);
  s.clock.advance(7999);
  assert.equal(s.reloads, 0, 'the clock started over when the panel came back');
  s.clock.advance(1);
  assert.equal(s.reloads, 1);
});

test('setting the HTML again (another task) gives the page a fresh set of reloads', () => {
  const s = setup();
  s.dog.arm();
  s.clock.advance(16_000);
  assert.equal(s.reloads, 2);
  s.dog.arm();
  s.clock.advance(8000);
  assert.equal(s.reloads, 3);
  assert.equal(s.gaveUp, 0);
});

test('a disposed watchdog does nothing and lets go of the panel', () => {
  const s = setup();
  s.dog.arm();
  s.dog.dispose();
  s.clock.advance(60_000);
  assert.equal(s.reloads, 0);
  assert.equal(s.listeners.length, 0);
  s.dog.arm();
  assert.equal(s.clock.armed, 0);
});
