// The page asks the host for actions by typed requests (nextTask, startReviewMode, acceptRepair, ...), never by
// naming a VS Code command: no contributed command id is in the bundle, and the requests its buttons send carry none.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { nextRequest, probe, startBrowserHarness, type Harness } from './harness/page';
import { projectRoot } from './harness/server';

let h: Harness;

before(async () => {
  h = await startBrowserHarness('actions');
});

after(async () => {
  await h?.close();
});

const tid = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const root = projectRoot;
const commandIds = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { contributes: { commands: Array<{ command: string }> } }).contributes.commands.map(
  (c) => c.command,
);

test('the webview bundles no command id of the extension', () => {
  assert.ok(commandIds.length > 20, 'package.json contributes the commands');
  for (const bundle of ['webview.js', 'stats.js']) {
    const text = readFileSync(path.join(root, 'dist', bundle), 'utf8');
    const named = commandIds.filter((id) => text.includes(`'${id}'`) || text.includes(`"${id}"`) || text.includes(`\`${id}\``));
    assert.deepEqual(named, [], `dist/${bundle} names host commands`);
  }
});

test('every action button sends its typed request, and no request names a command', async () => {
  const page = await h.open({ query: 'review=real&ds=story&repair=ready' });
  await probe(page, (g) => g.__fakeHost.resetState());
  assert.deepEqual(await nextRequest(page, 'nextTask', () => tid(page, 'next-task').click()), {});
  assert.deepEqual(await nextRequest(page, 'previousTask', () => tid(page, 'prev-task').click()), {});
  await tid(page, 'specs-tab-review').click();
  assert.deepEqual(await nextRequest(page, 'startReviewMode', () => tid(page, 'bar-review-mode').click()), {});
  await tid(page, 'specs-tab-repair').click();
  assert.deepEqual(await nextRequest(page, 'acceptRepair', () => tid(page, 'repair-action-accept').click()), { suggestion: '20261129T134201123Z-a1b2c3' });
  const log = (await page.evaluate('window.__fakeHost.log')) as Array<{ method: string; params: unknown }>;
  const sent = JSON.stringify(log);
  for (const id of commandIds) assert.ok(!sent.includes(id), `a request names ${id}: ${sent.slice(0, 300)}`);
  assert.ok(!log.some((l) => l.method === 'runCommand'));
  assert.deepEqual(h.errors, []);
  await page.close();
});
