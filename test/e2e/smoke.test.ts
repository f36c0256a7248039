// Smoke: the packaged .vsix installs into a fresh code-server, the workbench loads, the extension is listed as
// installed, and a folder holding a specweave.json activates it (the list shows its activation time).
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { extensionId, openWorkbench, runCommand, viewPane } from './harness';
import type { Workbench } from './harness';

describe('packaged extension in a real workbench', { timeout: 120_000 }, () => {
  let wb: Workbench | undefined;

  before(async () => {
    wb = await openWorkbench({
      testName: 'smoke',
      // The manifest activates on workspaceContains:**/specweave.json; the file's content does not matter for that.
      prepareWorkspace: (dir) => writeFileSync(path.join(dir, 'specweave.json'), '{}\n'),
    });
  });

  after(async () => {
    await wb?.close();
  });

  it('lists the packaged extension as installed', async () => {
    assert.ok(wb);
    await wb.screenshot('workbench');
    await runCommand(wb.page, 'Extensions: Show Installed Extensions');
    const row = viewPane(wb.page, 'Installed').locator(`.monaco-list-row[data-extension-id="${extensionId}"]`);
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    await wb.screenshot('installed-extensions');
    assert.equal(await row.locator('.name').innerText(), 'SpecWeave Curator');
  });

  it('activates it in a workspace holding a specweave.json', async () => {
    assert.ok(wb);
    // Shown only for an extension that has activated in this window.
    const activation = wb.page.locator(`.monaco-list-row[data-extension-id="${extensionId}"] .activationTime`);
    await activation.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await activation.innerText(), /^\d+ms$/);
    await wb.screenshot('activated');
  });
});
