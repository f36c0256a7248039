// The `ready` handshake when a message is lost on the way (as right after a window reload): the page says `ready`
// again until the host answers, renders the task when it does, and says so when the host stays silent.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { pageTimersPassed, probe, startBrowserHarness, type Harness } from './harness/page';

let h: Harness;

before(async () => {
  h = await startBrowserHarness('handshake');
});

after(async () => {
  await h?.close();
});

test('a lost ready is said again: the task renders after the second one', async () => {
  const page = await h.open({ query: 'dropReady=1', waitForTask: false });
  await page.locator('[data-testid="task-title"]').waitFor({ timeout: 5000 });
  assert.equal(await page.locator('[data-testid="task-title"]').textContent(), 'Keep trailing commas in nested lists');
  assert.equal(await probe(page, (g) => g.__fakeHost.readies), 2);
  // Once answered, the page stops asking: its next ready was due within 2 s of the second; that timer has run.
  await pageTimersPassed(page, 2500);
  assert.equal(await probe(page, (g) => g.__fakeHost.readies), 2);
  await page.close();
});

test('a host that stays silent: the page keeps asking and says the extension has not answered', async () => {
  const page = await h.open({ query: 'dropReady=1000', waitForTask: false });
  const loading = page.locator('[data-testid="loading"]');
  await loading.waitFor();
  assert.equal(await loading.textContent(), 'Loading the task\u2026');
  await page.locator('[data-testid="loading"]', { hasText: 'has not answered yet' }).waitFor({ timeout: 20_000 });
  const asked = await probe(page, (g) => g.__fakeHost.readies);
  assert.ok(asked >= 4 && asked <= 6, `ready said ${asked} times in about 15 s (1, 2, 4, 8 s apart)`);
  await h.shot(page, 'silent-host');
  assert.equal(await page.locator('[data-testid="task-title"]').count(), 0);
  await page.close();
});
