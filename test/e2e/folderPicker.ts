// Answering code-server's folder picker (the "simple file dialog": a quick input holding a path), which stands in for
// the native dialog that `showOpenDialog` opens on the desktop.
import type { Page } from 'playwright-core';

/**
 * Types `folder` into the open picker and clicks its accept button (labelled `acceptLabel`); returns the time of the
 * click that closed it. The picker may first navigate into the folder instead of accepting it (it is still listing
 * the parent): then the button is clicked again. While it starts, the picker can also put its own default path back
 * over what was typed: the path is typed again until the input holds it, so the click never accepts another folder.
 */
export async function pickFolder(page: Page, folder: string, acceptLabel = 'Open Dataset'): Promise<number> {
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  const want = `${folder}/`;
  const ok = page.locator('.quick-input-widget .monaco-button', { hasText: acceptLabel });
  for (let i = 0; i < 5; i++) {
    for (let k = 0; k < 10; k++) {
      const value = await input.inputValue();
      // Accepting may already have moved the picker into the folder: its value is then the folder itself.
      if (value === want || value === folder) break;
      await input.fill(want);
      await page.waitForTimeout(300);
    }
    await page.waitForTimeout(300);
    const settled = await input.inputValue();
    if (settled !== want && settled !== folder) continue;
    const t = performance.now();
    await ok.click();
    if (await input.waitFor({ state: 'hidden', timeout: 3000 }).then(() => true, () => false)) return t;
  }
  throw new Error(`the folder picker did not accept ${folder}`);
}
