// The repair agent inside a real extension host, against the fake OpenAI server: the key set through the command
// (secret storage only), a suggestion requested with progress, reviewed in a native diff whose suggested side is an
// editable file, the prompt shown read-only, a rejection, and an acceptance that revalidates in real containers and
// puts the before/after matrix in the task view. The key is searched for in the extension's log files, the task
// view's model and every file of the dataset. The event loop's delay is measured while a reply streams slowly.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { applyFilePatch, parsePatch } from '../../../src/core/patch';
import type { SpecWeaveApi } from '../../../src/vscode/extension';
import type { AcceptCommandResult, RequestCommandResult } from '../../../src/vscode/repair/repairController';
import { FakeOpenAI } from '../../integration/repair/fakeOpenAI';
import { FN_TASK, LOOSENED, TEST_FILE, exampleDataset, goodReply, verifyAndLabel } from '../../integration/repair/prepare';
import { activeTabInput, api, closeAllEditors, openDataset, projectRoot, until } from './helpers';

const KEY = 'sk-test-SPECWEAVE-FAKE-KEY-inhost-0c77d1e95a';

function filesContaining(dir: string, needle: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && fs.readFileSync(p).includes(needle)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

const applyPatch = (patch: string, base: string): string => {
  const fp = parsePatch(patch).files.find((f) => f.newPath === TEST_FILE);
  const r = fp ? applyFilePatch(base, fp) : undefined;
  if (!r?.ok) throw new Error(`the test patch does not apply to ${TEST_FILE}`);
  return r.text;
};

describe('repair (trusted workspace)', function () {
  this.timeout(300_000);
  let a: SpecWeaveApi;
  let root: string;
  let fake: FakeOpenAI;
  let base: string;

  before(async () => {
    a = await api();
    root = exampleDataset(projectRoot());
    verifyAndLabel(projectRoot(), root);
    fake = new FakeOpenAI();
    base = await fake.start();
    const c = vscode.workspace.getConfiguration('specweave.repair');
    await c.update('baseUrl', base, vscode.ConfigurationTarget.Global);
    await c.update('model', 'gpt-4o-mini', vscode.ConfigurationTarget.Global);
    await c.update('timeoutSec', 10, vscode.ConfigurationTarget.Global);
    await openDataset(a, root);
  });

  after(async () => {
    await closeAllEditors();
    await fake.stop();
    const c = vscode.workspace.getConfiguration('specweave.repair');
    for (const k of ['baseUrl', 'model', 'timeoutSec']) await c.update(k, undefined, vscode.ConfigurationTarget.Global);
  });

  it('stores the key through "Set API Key" and sends it only in the Authorization header', async () => {
    assert.equal(await vscode.commands.executeCommand('specweave.repair.setApiKey', KEY), true);
    fake.push({ kind: 'answer', content: JSON.stringify({ refusal: 'Not enough to go on.', target: 'tests', summary: '', rationale: '', request: null, specs: null, specTestMap: null, testFiles: null, evidence: [] }) });
    const r = await vscode.commands.executeCommand<RequestCommandResult>('specweave.repair.request', FN_TASK, 'tests', '');
    assert.equal(r.status, 'refused');
    assert.equal(fake.requests.at(-1)?.authorization, `Bearer ${KEY}`);
    assert.ok(!JSON.stringify(fake.requests.at(-1)?.body).includes(KEY));
  });

  it('requests a suggestion with progress, opens the diff with an editable suggested side, and shows what was sent', async () => {
    const lag = monitorEventLoopDelay({ resolution: 5 });
    lag.enable();
    fake.push({ kind: 'answer', content: goodReply(root, applyPatch), chunkChars: 24, delayMs: 3 });
    const r = await vscode.commands.executeCommand<RequestCommandResult>('specweave.repair.request', FN_TASK, 'tests', 'TB3 looks too strict');
    lag.disable();
    assert.equal(r.status, 'ready', r.message);
    // Streaming happens off the critical path: the host's event loop stays responsive while the reply trickles in.
    // The delay is printed, not asserted: on a loaded machine it measures the load (the figure is bench/repair.bench.ts's).
    console.log(`[specweave-suite] event-loop delay while a suggestion streamed: p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms, max ${(lag.max / 1e6).toFixed(1)} ms`);
    const input = await until('the suggestion diff', () => {
      const i = activeTabInput();
      return i instanceof vscode.TabInputTextDiff ? i : undefined;
    });
    assert.equal(input.original.scheme, 'specweave-repair');
    assert.equal(input.modified.scheme, 'file');
    assert.ok(input.modified.fsPath.startsWith(path.join(root, 'curation', 'suggestions', FN_TASK, r.suggestion ?? 'x')));
    assert.match(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '', /test_cli\.py \(current ↔ suggested\)/);
    const suggested = await vscode.workspace.openTextDocument(input.modified);
    assert.ok(suggested.getText().includes(LOOSENED));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(input.modified, new vscode.Position(0, 0), '# loosened by the repair agent\n');
    assert.ok(await vscode.workspace.applyEdit(edit), 'the suggested side is editable');
    assert.ok(suggested.isDirty);

    assert.equal(await vscode.commands.executeCommand('specweave.repair.showPrompt', FN_TASK, r.suggestion), true);
    const prompt = await until('the prompt document', () => vscode.window.activeTextEditor?.document.uri.scheme === 'specweave-repair' && vscode.window.activeTextEditor.document);
    assert.match(prompt.getText(), /test_total_reports_bad_line_location/);
    assert.match(prompt.getText(), /TB3 looks too strict/);
    assert.equal(prompt.getText().includes(KEY), false);
  });

  it('accepts (saving the edit), revalidates in containers, and the task view shows the false negative gone', async () => {
    const r = await vscode.commands.executeCommand<AcceptCommandResult>('specweave.repair.accept', FN_TASK);
    assert.ok(r.accepted, r.message);
    assert.equal(r.to, 2);
    assert.ok(r.matrix);
    assert.deepEqual(r.matrix.fixed.falseNegatives.map((x) => `${x.attempt}:${x.spec}`), ['claude-code-sonnet-4-5:B4', 'claude-code-sonnet-4-5:B5']);
    assert.deepEqual(r.matrix.introduced, { falsePositives: [], falseNegatives: [] });
    assert.equal(r.revalidated, true);
    // The runs went through the window's one verifier queue (its concurrency limit, status bar item and log), not
    // through a service of the repair's own.
    const shared = a.verifier.service;
    assert.ok(shared, 'the verifier feature built its shared service');
    assert.equal(a.verifier.sharedService(), shared);
    const task = a.dataset.task(FN_TASK);
    assert.ok(task);
    const ran = shared.queue.jobs().filter((j) => j.job.task.id === FN_TASK && j.job.task.revision === 2);
    assert.deepEqual(ran.map((j) => j.job.attemptId).sort(), ['empty', 'gold', ...task.attempts.map((x) => x.id)].sort());
    assert.ok(ran.every((j) => j.state === 'done'), ran.map((j) => `${j.job.attemptId}: ${j.state}`).join(', '));
    assert.ok(a.verifier.statusItem.state.visible, 'the queue status bar item shows the runs');
    assert.match(a.verifier.statusItem.state.text, new RegExp(`Verifier: ${ran.length} done`));
    const patch = fs.readFileSync(path.join(root, 'tasks', FN_TASK, 'tests.patch'), 'utf8');
    assert.ok(patch.includes('+# loosened by the repair agent'), "the curator's edit went into the new revision");
    // The task view comes to the front (its Repair tab shows the matrix); the Markdown document is one command away.
    await until('the task view in front', () => a.panels.active?.taskId === FN_TASK && a.panels.active.panel.visible);
    assert.equal(await vscode.commands.executeCommand('specweave.repair.showMatrix', FN_TASK), true);
    const doc = await until('the matrix document', () => vscode.window.activeTextEditor?.document.uri.path.endsWith('before-after.md') && vscode.window.activeTextEditor.document);
    assert.match(doc.getText(), /false negatives 2 -> 0/);
    await until('the task reloaded at revision 2', () => a.dataset.task(FN_TASK)?.revision === 2);
    const model = a.panels.model(FN_TASK, new Map());
    assert.equal(model.repair?.status, 'revalidated');
    assert.equal(model.repair?.matrix?.counts.after.falseNegatives, 0);
    assert.equal(model.repair?.matrix?.counts.before.falseNegatives, 2);
    assert.equal(model.repair?.fromRevision, 1);
    assert.equal(model.repair?.toRevision, 2);
    assert.match(model.repair?.rationale ?? '', /TB3 pins one exact stderr wording/);
    assert.equal(model.repair?.target, 'tests');
    assert.ok(model.repair?.decidedBy, 'who accepted it');
    assert.equal(JSON.stringify(model).includes(KEY), false, 'the task view model');
  });

  it('rejects another suggestion with a reason', async () => {
    fake.push({ kind: 'answer', content: JSON.stringify({ refusal: null, target: 'request', summary: 'State the wording', rationale: 'r', request: { content: '# total\n\nSay "error: FILE:LINE: cannot parse".\n', diff: null }, specs: null, specTestMap: null, testFiles: null, evidence: [] }) });
    const r = await vscode.commands.executeCommand<RequestCommandResult>('specweave.repair.request', FN_TASK, 'request', '');
    assert.equal(r.status, 'ready', r.message);
    assert.equal(await vscode.commands.executeCommand('specweave.repair.reject', FN_TASK, r.suggestion, 'the tests were the problem'), true);
    const model = a.panels.model(FN_TASK, new Map());
    assert.equal(model.repair?.status, 'rejected');
    assert.equal(model.repair?.note, 'the tests were the problem');
    assert.equal(model.repair?.summary, 'State the wording');
  });

  it('a wrong key ends in a clear message naming "Set API Key", with the key nowhere in the logs or the dataset', async () => {
    fake.push({ kind: 'error', status: 401, message: 'Incorrect API key provided: {KEY}' });
    const r = await vscode.commands.executeCommand<RequestCommandResult>('specweave.repair.request', FN_TASK, 'tests', '');
    assert.equal(r.status, 'failed');
    assert.match(r.message ?? '', /refused the API key.*SpecWeave: Set API Key/);
    assert.deepEqual(filesContaining(path.dirname(path.dirname(root)), KEY), [], 'dataset, repository, suggestions, runs');
    // The extension's log files (the SpecWeave output channel included) live under the window's exthost log folder.
    const logs = a.repair.logFolder();
    assert.ok(logs && fs.existsSync(logs), `no log folder ${logs}`);
    const withLines = await until('the output channel on disk', () => {
      const f = filesContaining(logs, 'refused the API key');
      return f.length > 0 && f;
    });
    assert.ok(withLines.length > 0);
    assert.deepEqual(filesContaining(logs, KEY), [], `log files under ${logs}`);
    assert.deepEqual(filesContaining(logs, KEY.slice(0, 16)), []);
  });

  it('with no key, Request Repair says so before it asks for a target or a note (nothing typed is lost)', async () => {
    await vscode.commands.executeCommand('specweave.repair.clearApiKey');
    await vscode.workspace.getConfiguration('specweave.repair').update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    try {
      // No target and no note given: before the fix the command waited at the target's quick pick (this test then
      // timed out); now it answers at once.
      const sent = fake.requests.length;
      const r = await vscode.commands.executeCommand<RequestCommandResult>('specweave.repair.request', FN_TASK);
      assert.deepEqual({ status: r.status, message: r.message }, { status: 'failed', message: 'no API key' });
      assert.equal(fake.requests.length, sent, 'nothing was sent to a model');
    } finally {
      await vscode.workspace.getConfiguration('specweave.repair').update('baseUrl', base, vscode.ConfigurationTarget.Global);
    }
  });
});
