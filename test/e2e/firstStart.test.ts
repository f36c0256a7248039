// First start on the example, as scripts/open-example.sh opens it: a fresh profile with
// `specweave.candidates.revealOnStartup` set, the example dataset as the workspace. The SpecWeave view comes forward
// by itself with the Candidates list, nothing clicked.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { projectRoot } from '../vscode/harness/codeServer';
import { openWorkbench, treeRows } from './harness';
import type { Workbench } from './harness';

describe('first start on the example dataset', { timeout: 180_000 }, () => {
  let wb: Workbench | undefined;

  before(async () => {
    wb = await openWorkbench({
      testName: 'first-start',
      workspace: path.join(projectRoot, 'examples/dataset'),
      settings: { 'specweave.candidates.revealOnStartup': true },
    });
  });

  after(async () => {
    await wb?.close();
  });

  it('shows the SpecWeave view with the Candidates list without a click', async () => {
    assert.ok(wb);
    const { page } = wb;
    // The Candidates list's own row (the Explorer would list the dataset's folder of the same name, with no status).
    try {
      await treeRows(page.locator('.part.sidebar'), /format-precision\s*candidate/).first().waitFor({ state: 'visible', timeout: 60_000 });
    } catch (e) {
      await wb.screenshot('not-shown');
      throw e;
    }
    // The side bar shows the SpecWeave container (its title), not the Explorer it starts with.
    assert.match(await page.locator('.part.sidebar .composite.title').first().innerText(), /SpecWeave/i);
    await wb.screenshot('first-start');
  });
});
