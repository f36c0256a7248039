// The verifier in Restricted Mode: its commands exist but refuse with the reason, no engine is contacted, nothing is
// stored, and the task view says why running code is off.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SpecWeaveApi } from '../../../../src/vscode/extension';
import type { VerifierBatchResult } from '../../../../src/vscode/verifier/verifierController';
import { api, closeAllEditors, openDataset, tinyDatasetWithClone } from '../helpers';

describe('verifier (restricted workspace)', () => {
  let a: SpecWeaveApi;
  let root: string;

  before(async () => {
    a = await api();
    root = tinyDatasetWithClone().root;
    await openDataset(a, root);
  });

  after(closeAllEditors);

  it('registers the verifier commands', async () => {
    const all = await vscode.commands.getCommands(true);
    for (const c of ['runAttempt', 'runGold', 'runEmpty', 'runTask', 'runTasks', 'cancelAll', 'showQueue', 'showLog']) assert.ok(all.includes(`specweave.verifier.${c}`), c);
  });

  it('refuses every run with the reason, without contacting an engine or storing anything', async () => {
    const calls: Array<[string, unknown[]]> = [
      ['specweave.verifier.runTask', ['t1']],
      ['specweave.verifier.runAttempt', ['t1', 'a1']],
      ['specweave.verifier.runGold', ['t1']],
      ['specweave.verifier.runEmpty', ['t1']],
      ['specweave.verifier.runTasks', [['t1']]],
    ];
    for (const [cmd, args] of calls) {
      const r = await vscode.commands.executeCommand<VerifierBatchResult>(cmd, ...args);
      assert.equal(r.state, 'untrusted', cmd);
      assert.match(r.message ?? '', /Restricted Mode.*running verifiers.*trusted workspace/s, cmd);
      assert.deepEqual(r.runs, []);
    }
    assert.equal(a.verifier.service, undefined, 'no verifier service, so no engine contact');
    assert.equal(a.verifier.statusItem.state.visible, false);
    assert.equal(fs.existsSync(path.join(root, 'runs')), false);
  });

  it('the task view says why it cannot run and shows no results', () => {
    const m = a.panels.model('t1', new Map());
    assert.equal(m.trusted, false);
    assert.match(m.untrustedReason ?? '', /running verifiers/);
    assert.equal(m.results, undefined);
  });
});
