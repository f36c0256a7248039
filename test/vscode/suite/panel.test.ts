// The task panel: one per task, its webview completes the ready/init handshake (so its script ran under the CSP),
// next/previous task, and the view model it is sent.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SpecWeaveApi } from '../../../src/vscode/extension';
import { activeTabInput, api, closeAllEditors, openDataset, tinyDatasetWithClone, until } from './helpers';

describe('task panel', () => {
  let a: SpecWeaveApi;
  let root: string;

  before(async () => {
    a = await api();
    root = tinyDatasetWithClone().root;
    const t2 = path.join(root, 'tasks/t2');
    fs.cpSync(path.join(root, 'tasks/t1'), t2, { recursive: true });
    fs.writeFileSync(path.join(t2, 'task.json'), fs.readFileSync(path.join(t2, 'task.json'), 'utf8').replace('"id": "t1"', '"id": "t2"'));
    await openDataset(a, root);
  });

  after(closeAllEditors);

  it('opens a webview panel for the task, whose script asks for and gets the model', async () => {
    assert.equal(await vscode.commands.executeCommand('specweave.task.open', { kind: 'task', taskId: 't1' }), true);
    const input = await until('a webview tab', () => {
      const i = activeTabInput();
      return i instanceof vscode.TabInputWebview ? i : undefined;
    });
    assert.match(input.viewType, /specweave\.task$/);
    assert.deepEqual(a.panels.openTaskIds(), ['t1']);
    const session = a.panels.sessionOf('t1');
    assert.ok(session);
    // `init` is posted only in answer to the webview's `ready`: the bundle loaded and ran with its nonce.
    await until('the webview handshake', () => session.largestMessage > 0, 20_000);
    assert.ok(session.largestMessage < 1_000_000);
    assert.equal(a.panels.active?.taskId, 't1');
  });

  it('reveals the open panel instead of opening a second one', async () => {
    await vscode.commands.executeCommand('specweave.task.open', 't1');
    assert.deepEqual(a.panels.openTaskIds(), ['t1']);
  });

  it('next and previous task show the neighbours in the same panel', async () => {
    assert.equal(await vscode.commands.executeCommand('specweave.task.next'), 't2');
    await until('the panel to show t2', () => a.panels.openTaskIds().join() === 't2');
    // The page already there gets t2's model at once, without loading again.
    await until('t2 sent to the webview', () => (a.panels.sessionOf('t2')?.largestMessage ?? 0) > 0, 5_000);
    assert.equal(await vscode.commands.executeCommand('specweave.task.previous'), 't1');
    await until('the panel to show t1', () => a.panels.openTaskIds().join() === 't1');
  });

  it('builds the model the webview gets: request, specs with coverage, tests with source, columns', () => {
    const m = a.panels.model('t1', new Map());
    assert.equal(m.title, 'Add a greeting');
    assert.equal(m.trusted, true);
    assert.deepEqual(m.columns.map((c) => c.id), ['gold', 'a1', 'a2']);
    assert.deepEqual(m.specs.map((s) => [s.id, s.tests, s.uncovered]), [['S1', ['T1'], false], ['S2', ['T1'], false]]);
    assert.ok(m.tests.find((t) => t.id === 'T1')?.source?.text.startsWith('def test_greet'));
    assert.deepEqual(m.notices, []);
    assert.deepEqual(m.position, { index: 0, total: 2 });
  });

  it('forwards keyboard commands to the active panel', async () => {
    await vscode.commands.executeCommand('specweave.task.open', 't1');
    await until('t1 active', () => a.panels.active?.taskId === 't1');
    assert.equal(await vscode.commands.executeCommand('specweave.attempt.next'), true);
    assert.equal(await vscode.commands.executeCommand('specweave.search.focus'), true);
  });

  it('pops a region out into a tab of its own beside the task, once; the task\'s own panel stays the one commands reach', async () => {
    await vscode.commands.executeCommand('specweave.task.open', 't1');
    const main = a.panels.sessionOf('t1');
    assert.ok(main);
    // What the page's ⧉ asks (through the same validation as every page message).
    await main.receive({ type: 'request', id: 9001, method: 'popOut', params: { region: 'specs', tab: 'results' } });
    await until('the popped-out tab', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === 't1 \u00b7 Results'), 20_000);
    assert.deepEqual(a.panels.popOuts(), ['t1 \u00b7 specs \u00b7 results']);
    assert.equal(a.panels.sessionOf('t1'), main, 'the task\'s own panel is still the one a citation, a link or a command reaches');
    // Asked again: the tab it has is shown, no second one; another region is a tab of its own.
    await main.receive({ type: 'request', id: 9002, method: 'popOut', params: { region: 'specs', tab: 'results' } });
    await main.receive({ type: 'request', id: 9003, method: 'popOut', params: { region: 'trajectory' } });
    await until('the trajectory tab', () => a.panels.popOuts().length === 2);
    assert.deepEqual(a.panels.popOuts(), ['t1 \u00b7 specs \u00b7 results', 't1 \u00b7 trajectory']);
    // A region that is not one of the task view's is refused by the page channel: nothing opens.
    await main.receive({ type: 'request', id: 9004, method: 'popOut', params: { region: 'terminal' } });
    assert.equal(a.panels.popOuts().length, 2);
    await vscode.commands.executeCommand('specweave.task.open', 't1');
    assert.equal(a.panels.active?.taskId, 't1');
    assert.equal(a.panels.openTaskIds().length, 3, 'the task panel and its two popped-out regions');
  });
});
