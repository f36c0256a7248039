// Spec authoring inside a real extension host: a `specs.edit` request sent the way the task view sends it writes a
// new revision of the task (task.json and revisions/), records it in curation/events.jsonl with the curator from the
// settings, and the task view's model follows (revision, specs, the matrix's mapping); a label on the spec becomes
// stale; a request on an old revision is refused and writes nothing; `specs.undo` takes the edit back.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SpecWeaveApi } from '../../../src/vscode/extension';
import { curatorDatasetDone, openCuratorDataset, until } from './helpers';

const CURATOR = 'Spec Author';

function events(root: string): Array<{ kind: string; curator: string; revision?: number; payload: Record<string, unknown> }> {
  const f = path.join(root, 'curation/events.jsonl');
  if (!fs.existsSync(f)) return [];
  return fs
    .readFileSync(f, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { kind: string; curator: string; revision?: number; payload: Record<string, unknown> });
}

function taskJson(root: string): { revision?: number; specs: Array<{ id: string; text: string }>; tests: Array<{ id: string; specs?: string[] }> } {
  return JSON.parse(fs.readFileSync(path.join(root, 'tasks/t1/task.json'), 'utf8')) as ReturnType<typeof taskJson>;
}

describe('spec authoring from the task view', () => {
  let a: SpecWeaveApi;
  let root: string;
  let nextId = 5000;
  const send = async (method: string, params: unknown) => {
    const session = a.panels.sessionOf('t1');
    assert.ok(session, 'a task panel for t1');
    await session.receive({ type: 'request', id: nextId++, method, params });
  };

  before(async () => {
    ({ a, root } = await openCuratorDataset(CURATOR));
    await vscode.commands.executeCommand('specweave.task.open', 't1');
    await until('the t1 session', () => a.panels.sessionOf('t1'));
  });

  after(async () => {
    await curatorDatasetDone();
  });

  it('specs.edit writes a revision, the model follows, a label on the changed spec is stale, undo takes it back', async () => {
    const r0 = a.panels.model('t1', new Map()).revision;
    await send('specs.edit', { revision: r0, op: { op: 'add', text: 'greet(name) never raises for a string name.', category: 'error-handling' } });
    assert.equal(taskJson(root).revision, r0 + 1, 'task.json is at the new revision by the time the request is answered');
    const m1 = a.panels.model('t1', new Map());
    assert.equal(m1.revision, r0 + 1);
    assert.deepEqual(m1.specs.map((s) => s.id), ['S1', 'S2', 'S3']);
    assert.equal(m1.specs[2]!.uncovered, true);
    const logged = events(root);
    assert.deepEqual(logged.map((e) => e.kind), ['revision', 'specs.edit']);
    assert.equal(logged[1]!.curator, CURATOR);

    // The matrix's toggle maps T2 to the new spec.
    await send('specs.edit', { revision: r0 + 1, op: { op: 'toggle', spec: 'S3', test: 'T2' } });
    const m2 = a.panels.model('t1', new Map());
    assert.deepEqual(m2.specs.find((s) => s.id === 'S3')?.tests, ['T2']);
    assert.deepEqual(taskJson(root).tests.find((t) => t.id === 'T2')?.specs, ['S3']);

    // A label on S1, then S1's text changes: the label is stale, not dropped.
    await send('label', { attempt: 'a1', spec: 'S1', verdict: 'satisfied' });
    assert.equal(a.panels.model('t1', new Map()).review?.cells.find((c) => c.attempt === 'a1' && c.spec === 'S1')?.mine?.verdict, 'satisfied');
    await send('specs.edit', { revision: r0 + 2, op: { op: 'edit', spec: 'S1', text: 'greet(name) returns a str, never None.' } });
    const cell = a.panels.model('t1', new Map()).review?.cells.find((c) => c.attempt === 'a1' && c.spec === 'S1');
    assert.equal(cell?.mine, undefined);
    assert.deepEqual(cell?.stale.map((l) => l.verdict), ['satisfied']);

    // An edit on a revision the page no longer shows is refused and writes nothing.
    const before = fs.readFileSync(path.join(root, 'tasks/t1/task.json'), 'utf8');
    const n = events(root).length;
    await send('specs.edit', { revision: r0, op: { op: 'delete', spec: 'S2' } });
    assert.equal(fs.readFileSync(path.join(root, 'tasks/t1/task.json'), 'utf8'), before);
    assert.equal(events(root).length, n);

    // Undo: S1's old text is back, as a new revision.
    await send('specs.undo', { revision: r0 + 3 });
    const m4 = a.panels.model('t1', new Map());
    assert.equal(m4.revision, r0 + 4);
    assert.equal(m4.specs.find((s) => s.id === 'S1')?.text, 'greet(name) returns a string.');
  });
});
