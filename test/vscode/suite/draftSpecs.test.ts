// "SpecWeave: Draft Specs" inside a real extension host, against the fake OpenAI server: the command drafts the active
// task with the repair agent's settings and key, stores the draft, and opens it in the repair review (task.json,
// current against the editable suggested side); a draft whose only spec cites nothing real writes nothing and says why.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SpecWeaveApi } from '../../../src/vscode/extension';
import type { DraftCommandResult } from '../../../src/vscode/specs/draftCommand';
import { FakeOpenAI } from '../../integration/repair/fakeOpenAI';
import { FN_TASK, exampleDataset } from '../../integration/repair/prepare';
import { activeTabInput, api, closeAllEditors, openDataset, projectRoot, until } from './helpers';

const KEY = 'sk-test-SPECWEAVE-FAKE-KEY-draft-inhost-51b0';

/** A reply whose one spec cites the first line of the request the prompt carried (or `quote`), mapped to T-first. */
function replyFromPrompt(quote?: string) {
  return (body: Record<string, unknown>): string => {
    const user = (body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'user')?.content ?? '';
    const first = /## Request\n(.*)\n/.exec(user)?.[1] ?? '';
    const test = /## Tests \(id, kind, name\)\n(\S+) /.exec(user)?.[1] ?? '';
    return JSON.stringify({ refusal: null, specs: [{ id: 'S1', text: 'Drafted in the workbench.', category: 'interface-io-contracts', dependsOn: [], tests: [test], citation: { quote: quote ?? first, source: 'request', line: null } }] });
  };
}

describe('draft specs (trusted workspace)', function () {
  this.timeout(300_000);
  let a: SpecWeaveApi;
  let root: string;
  let fake: FakeOpenAI;

  before(async () => {
    a = await api();
    root = exampleDataset(projectRoot());
    fake = new FakeOpenAI();
    const base = await fake.start();
    const c = vscode.workspace.getConfiguration('specweave.repair');
    await c.update('baseUrl', base, vscode.ConfigurationTarget.Global);
    await c.update('model', 'gpt-4o-mini', vscode.ConfigurationTarget.Global);
    await c.update('timeoutSec', 10, vscode.ConfigurationTarget.Global);
    await openDataset(a, root);
    assert.equal(await vscode.commands.executeCommand('specweave.repair.setApiKey', KEY), true);
  });

  after(async () => {
    await closeAllEditors();
    await fake.stop();
    const c = vscode.workspace.getConfiguration('specweave.repair');
    for (const k of ['baseUrl', 'model', 'timeoutSec']) await c.update(k, undefined, vscode.ConfigurationTarget.Global);
  });

  it('drafts the task and opens the draft in the repair review, the suggested task.json editable', async () => {
    fake.push({ kind: 'answer', content: replyFromPrompt() });
    const r = await vscode.commands.executeCommand<DraftCommandResult>('specweave.specs.draft', FN_TASK, true);
    assert.equal(r.status, 'drafted', JSON.stringify(r));
    if (r.status !== 'drafted') return;
    assert.equal(fake.requests.at(-1)?.authorization, `Bearer ${KEY}`);
    const input = await until('the draft diff', () => {
      const i = activeTabInput();
      return i instanceof vscode.TabInputTextDiff ? i : undefined;
    });
    assert.equal(input.original.scheme, 'specweave-repair');
    assert.equal(input.modified.fsPath, path.join(root, 'curation', 'suggestions', FN_TASK, r.record.id, 'proposed', 'task.json'));
    assert.match(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '', /task\.json \(current ↔ suggested\)/);
    const doc = await vscode.workspace.openTextDocument(input.modified);
    assert.match(doc.getText(), /"text": "Drafted in the workbench\."/);
    assert.equal(r.record.provenance, 'drafter');
  });

  it('a draft whose only spec cites text that is not there writes nothing and says why', async () => {
    await closeAllEditors();
    const before = fs.readdirSync(path.join(root, 'curation', 'suggestions', FN_TASK)).sort();
    fake.push({ kind: 'answer', content: replyFromPrompt('This sentence is in no request at all.') });
    const r = await vscode.commands.executeCommand<DraftCommandResult>('specweave.specs.draft', FN_TASK, true);
    assert.equal(r.status, 'failed', JSON.stringify(r));
    if (r.status !== 'failed') return;
    assert.match(r.message, /"This sentence is in no request at all\." is not in the request/);
    assert.deepEqual(fs.readdirSync(path.join(root, 'curation', 'suggestions', FN_TASK)).sort(), before);
    assert.equal(activeTabInput(), undefined, 'no review opened');
  });
});
