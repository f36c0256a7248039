// Spec authoring in Restricted Mode: a spec edit writes the task's files, so an untrusted workspace refuses it and
// nothing is written (labelling still works there: test/vscode/suite/restricted/curation.test.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SpecWeaveApi } from '../../../../src/vscode/extension';
import { curatorDatasetDone, openCuratorDataset, until } from '../helpers';

describe('spec authoring (restricted workspace)', () => {
  let a: SpecWeaveApi;
  let root: string;

  before(async () => {
    ({ a, root } = await openCuratorDataset('Restricted Author'));
  });

  after(async () => {
    await curatorDatasetDone();
  });

  it('refuses specs.edit and specs.undo; task.json and the review log are untouched', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    await vscode.commands.executeCommand('specweave.task.open', 't1');
    const session = await until('the t1 session', () => a.panels.sessionOf('t1'));
    const file = path.join(root, 'tasks/t1/task.json');
    const before = fs.readFileSync(file, 'utf8');
    const revision = a.panels.model('t1', new Map()).revision;
    await session.receive({ type: 'request', id: 7001, method: 'specs.edit', params: { revision, op: { op: 'add', text: 'A new spec.', category: 'other' } } });
    await session.receive({ type: 'request', id: 7002, method: 'specs.undo', params: { revision } });
    assert.equal(fs.readFileSync(file, 'utf8'), before);
    assert.equal(fs.existsSync(path.join(root, 'tasks/t1/revisions')), false);
    assert.equal(fs.existsSync(path.join(root, 'curation/events.jsonl')), false);
    assert.equal(a.panels.model('t1', new Map()).specs.length, 2);
  });
});
