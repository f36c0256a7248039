// Answering code-server's folder picker (the "simple file dialog": a quick input holding a path), which stands in for
// the native dialog that `showOpenDialog` opens on the desktop.
import { readdirSync } from 'node:fs';
import type { Page } from 'playwright-core';

/**
 * Types `folder` into the open picker and clicks its accept button (labelled `acceptLabel`); returns the time of the
 * click that closed it. Each step waits for the picker's own state, never a fixed time:
 * - until the dialog has started, which it shows by putting its default path in the input (a path typed before that
 *   can be overwritten by it: ci10 then accepted the dataset's parent folder);
 * - after typing, until the input holds the path and the list shows that folder (`..` and its subfolders: a folder
 *   picker lists no files), i.e. the dialog has caught up with what was typed;
 * - the picker may navigate into the folder instead of accepting it: then it settles on the folder and is accepted again.
 */
export async function pickFolder(page: Page, folder: string, acceptLabel = 'Open Dataset'): Promise<number> {
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  const want = `${folder}/`;
  const listing = ['..', ...readdirSync(folder, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)].sort();
  const ok = page.locator('.quick-input-widget .monaco-button', { hasText: acceptLabel });
  // Strings, not functions: the test transpiler would add helpers to a function that the page does not have.
  const value = `(document.querySelector('.quick-input-widget input')?.value ?? '')`;
  await page.waitForFunction(`${value}.startsWith('/')`, undefined, { polling: 'raf', timeout: 30_000 });
  const settled = `(() => {
    const v = ${value};
    if (v !== ${JSON.stringify(want)} && v !== ${JSON.stringify(folder)}) return false;
    const rows = [...document.querySelectorAll('.quick-input-widget .quick-input-list .monaco-list-row')].map((r) => r.getAttribute('aria-label') ?? '').sort();
    return JSON.stringify(rows) === ${JSON.stringify(JSON.stringify(listing))};
  })()`;
  for (let i = 0; i < 5; i++) {
    const v = await input.inputValue();
    if (v !== want && v !== folder) await input.fill(want);
    if (!(await page.waitForFunction(settled, undefined, { polling: 'raf', timeout: 10_000 }).then(() => true, () => false))) continue;
    const t = performance.now();
    await ok.click();
    if (await input.waitFor({ state: 'hidden', timeout: 3000 }).then(() => true, () => false)) return t;
  }
  throw new Error(`the folder picker did not accept ${folder} (it shows ${JSON.stringify(await input.inputValue().catch(() => '?'))})`);
}
