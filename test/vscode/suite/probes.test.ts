// The Probes section in a real extension host: a report under probes/t1/ shows in the section, and a survivor opens
// as a native diff of the gold patch against its patch. (The refresh on a watcher event is the unit layer's:
// test/unit/vscode/probeSection.test.ts; no in-host test here relies on file-watcher delivery.)
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SpecWeaveApi } from '../../../src/vscode/extension';
import type { TaskViewModel } from '../../../src/protocol/messages';
import { activeTabInput, api, closeAllEditors, openDataset, tinyDatasetWithClone, until } from './helpers';

const MUTANT_ID = 'comparison-0000000001';

function mutantsJson(gold: string): string {
  const patch = gold.replace('Hello, ', 'Hi, ');
  return JSON.stringify({
    format: 1,
    taskId: 't1',
    taskRevision: 1,
    createdAt: '2026-12-01T10:00:00.000Z',
    gold: { status: 'passed', reason: '' },
    generated: 1,
    ran: 1,
    counts: { killed: 0, survived: 1, did_not_apply: 0, timed_out: 0, out_of_memory: 0, error: 0 },
    score: 0,
    specs: [],
    mutants: [{ id: MUTANT_ID, operator: 'comparison', file: 'hello.py', line: 4, column: 1, before: 'a', after: 'b', outcome: 'survived', status: 'passed', reason: '', failingTests: [], killedForSpecs: [], patch }],
    skipped: [],
    unsupportedFiles: [],
  });
}

describe('probes', () => {
  let a: SpecWeaveApi;
  let root: string;

  before(async () => {
    a = await api();
    root = tinyDatasetWithClone().root;
    await openDataset(a, root);
  });

  afterEach(closeAllEditors);

  it('a stored report shows in the section; a survivor opens as gold patch vs mutated patch', async () => {
    const base = { taskId: 't1', notices: [] } as unknown as TaskViewModel;
    const gold = fs.readFileSync(path.join(root, 'tasks/t1/gold.patch'), 'utf8');
    fs.mkdirSync(path.join(root, 'probes/t1'), { recursive: true });
    fs.writeFileSync(path.join(root, 'probes/t1/mutants.json'), mutantsJson(gold));
    const m = a.probes.section.contribute('t1', base)?.probes?.mutants;
    assert.equal(m?.state === 'ok' && m.survivors[0]?.id, MUTANT_ID);

    assert.deepEqual(await a.probes.openDiff('t1', 'mutants', MUTANT_ID), { opened: true });
    const input = await until('a diff tab', () => {
      const i = activeTabInput();
      return i instanceof vscode.TabInputTextDiff ? i : undefined;
    });
    assert.equal(input.original.scheme, 'specweave-probe');
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), gold);
    assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), gold.replace('Hello, ', 'Hi, '));

    const refused = await a.probes.openDiff('t1', 'cheats', 'edit-tests');
    assert.equal(refused.opened, false);
    assert.match(refused.message ?? '', /probes\/t1\/cheats\.json is not there/);
  });
});
