// "Run Fresh Trials" clicked in a real workbench, on the packaged .vsix, against the fake OpenAI server and real
// containers: on the open task, "SpecWeave: Run Fresh Trials" from the command palette starts a trial; its attempt
// appears as a column of the task view, its steps arrive in the trajectory list while the model is held before its
// last reply, and once released the trial submits, the verifier passes it and its verdict shows on the column and in
// the closing notification.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SUBMIT_SENTINEL } from '../../src/core/solver/agent';
import { FakeOpenAI } from '../integration/repair/fakeOpenAI';
import { exampleDataset } from '../integration/repair/prepare';
import { projectRoot } from '../vscode/harness/codeServer';
import { attemptColumn, openActivity, openWorkbench, runCommand, setApiKey, treeRows, waitForNotification, webviewFrame, writeEndpointSettings } from './harness';
import type { Workbench } from './harness';

const KEY = 'sk-test-SPECWEAVE-FAKE-KEY-e2e-solver-5d20c4';
const TASK = 'format-precision';

const tool = (n: number, command: string, waitFor?: Promise<unknown>) => ({
  kind: 'answer' as const,
  content: `THOUGHT: step ${n}`,
  toolCalls: [{ id: `call_${n}`, name: 'bash', arguments: JSON.stringify({ command }) }],
  usage: { prompt_tokens: 300, completion_tokens: 30 },
  ...(waitFor ? { waitFor } : {}),
});

describe('fresh trials in the workbench', { timeout: 600_000 }, () => {
  let wb: Workbench | undefined;
  let fake: FakeOpenAI;
  let top = '';
  let root = '';
  let release: () => void = () => undefined;

  before(async () => {
    top = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-e2e-solver-'));
    root = exampleDataset(projectRoot, top);
    fake = new FakeOpenAI();
    const base = await fake.start();
    const gold = fs.readFileSync(path.join(root, 'tasks', TASK, 'gold.patch')).toString('base64');
    const held = new Promise<void>((resolve) => (release = resolve));
    fake.push(
      tool(1, 'echo live-step-marker-one'),
      tool(2, `echo ${gold} | base64 -d | git apply && echo live-step-marker-applied`),
      // The last reply waits for the test: the steps so far must be on screen while the trial is still under way.
      tool(3, `echo ${SUBMIT_SENTINEL}`, held),
    );
    writeEndpointSettings(path.dirname(root), base);
    wb = await openWorkbench({ testName: 'solver', workspace: path.dirname(root), inPlace: true, settings: { 'specweave.curator.name': 'alice' } });
  });

  after(async () => {
    release();
    await wb?.close();
    await fake?.stop();
    if (top) fs.rmSync(top, { recursive: true, force: true });
  });

  it('runs a fresh trial on the open task, shows its steps as they arrive, then its verdict', async () => {
    assert.ok(wb);
    const { page } = wb;
    await openActivity(page, 'SpecWeave');
    await treeRows(page, TASK).first().waitFor({ timeout: 60_000 });
    await setApiKey(page, KEY);

    await treeRows(page, TASK).first().click();
    const view = webviewFrame(page, 'panel');
    await view.locator('[data-testid="region-request"]').waitFor({ timeout: 30_000 });
    await runCommand(page, 'SpecWeave: Run Fresh Trials');
    await waitForNotification(page, /Fresh trials of format-precision/, 60_000);

    // The attempt is a column of the task view from its first write; made the active column, its trajectory shows
    // in the step list and grows as the steps arrive.
    const column = await attemptColumn(view, 'trial-gpt-4o-mini-', { prefix: true, timeout: 120_000 });
    await column.locator('.column-head').click();
    await view.locator('[data-testid="attempts"] .column.active[data-column^="trial-gpt-4o-mini-"]').waitFor({ timeout: 30_000 });
    const steps = view.locator('[data-testid="trajectory-list"] [data-testid="step-row"]');
    try {
      await steps.filter({ hasText: 'live-step-marker-one' }).first().waitFor({ timeout: 120_000 });
      await steps.filter({ hasText: 'live-step-marker-applied' }).first().waitFor({ timeout: 120_000 });
    } catch (e) {
      await wb.screenshot('steps-missing');
      const list = await view.locator('[data-testid="trajectory-list"]').innerText().catch((x: unknown) => String(x));
      throw new Error(`${String(e)}\nmodel requests: ${fake.requests.length}; the step list: ${list.slice(0, 2000)}`);
    }
    assert.equal(fake.requests.length, 3, 'the model is asked for its last reply, which is held: the trial is still running');
    assert.equal(await column.locator('[data-testid="column-verdict"]').count(), 0, 'no verdict while it runs');
    await wb.screenshot('live-steps');

    release();
    await waitForNotification(page, /1 fresh trial\(s\) of format-precision: 1 passed the verifier — gpt-4o-mini passed/, 240_000);
    const verdict = (await attemptColumn(view, 'trial-gpt-4o-mini-', { prefix: true })).locator('[data-testid="column-verdict"]').first();
    await verdict.waitFor({ timeout: 60_000 });
    assert.match((await verdict.textContent()) ?? '', /resolved \(verifier\)/);
    await steps.filter({ hasText: SUBMIT_SENTINEL }).first().waitFor({ timeout: 30_000 });
    await wb.screenshot('verdict');
  });
});
