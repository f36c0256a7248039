// Curation in Restricted Mode: labelling, approving and exporting run no code from the dataset, so they work in an
// untrusted workspace (only the verifier and the repair agent are disabled there).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SpecWeaveApi } from '../../../../src/vscode/extension';
import { curatorDatasetDone, openCuratorDataset, statsHandshake, until } from '../helpers';

describe('curation (restricted workspace)', () => {
  let a: SpecWeaveApi;
  let root: string;

  before(async () => {
    ({ a, root } = await openCuratorDataset('Restricted Reviewer'));
  });

  after(async () => {
    await curatorDatasetDone();
  });

  it('labels and approves from the task view, written to curation/events.jsonl', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    await vscode.commands.executeCommand('specweave.task.open', 't1');
    const session = await until('the t1 session', () => a.panels.sessionOf('t1'));
    assert.equal(a.panels.model('t1', new Map()).trusted, false);
    await session.receive({ type: 'request', id: 1, method: 'label', params: { attempt: 'a2', spec: 'S1', verdict: 'satisfied' } });
    const lines = fs.readFileSync(path.join(root, 'curation/events.jsonl'), 'utf8').trim().split('\n');
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /"curator":"Restricted Reviewer".*"kind":"label"/);
    assert.equal(a.panels.model('t1', new Map()).review?.cells.find((c) => c.attempt === 'a2' && c.spec === 'S1')?.mine?.verdict, 'satisfied');
    const blockers = a.panels.model('t1', new Map()).review?.blockers ?? [];
    await session.receive({ type: 'request', id: 2, method: 'approve', params: { waivers: blockers.map((rule) => ({ rule, reason: 'restricted-mode test' })) } });
    assert.equal(a.panels.model('t1', new Map()).status, 'approved');
  });

  it('exports the curated set and shows the statistics', async () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sw-inhost-rexport-')), 'curated');
    const r = (await vscode.commands.executeCommand('specweave.curation.export', { out, format: 'specweave' })) as { ok: boolean; tasks: string[] };
    assert.equal(r.ok, true);
    assert.deepEqual(r.tasks, ['t1']);
    assert.ok(fs.existsSync(path.join(out, 'tasks/t1/provenance.json')));
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
    assert.equal(await vscode.commands.executeCommand('specweave.stats.show'), true);
    await statsHandshake(a);
  }).timeout(90_000);
});
