// The task view's spec authoring requests without VS Code: the validator refuses wrong shapes and overlong text, and
// SpecAuthoring (src/vscode/specs/authoring.ts) answers every outcome as a value: written, refused (duplicate text,
// raced revision, Restricted Mode, a deep shape error the validator let through), with nothing written on refusal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CurationStore } from '../../../src/app/curationStore';
import { MAX_SPEC_TEXT } from '../../../src/protocol/messages';
import { validateWebviewMessage } from '../../../src/protocol/validate';
import { RESTRICTED_SPEC_EDIT, SpecAuthoring } from '../../../src/vscode/specs/authoring';
import { reviewDataset } from '../review/helpers';

const req = (method: string, params: unknown) => validateWebviewMessage({ type: 'request', id: 1, method, params });

test('the validator takes each spec operation shape and refuses wrong ones, naming the request', () => {
  for (const op of [
    { op: 'add', text: 't', category: 'other' },
    { op: 'add', text: 't', category: 'other', dependsOn: ['S1'], tests: ['T1'], at: 0 },
    { op: 'edit', spec: 'S1', text: 'x' },
    { op: 'split', spec: 'S1', parts: [{ text: 'a' }, { text: 'b', tests: ['T1'] }] },
    { op: 'merge', specs: ['S1', 'S2'], text: 'm' },
    { op: 'delete', spec: 'S1' },
    { op: 'reorder', order: ['S2', 'S1'] },
    { op: 'depends', spec: 'S2', dependsOn: [] },
    { op: 'map', spec: 'S1', mode: 'add', tests: ['T2'] },
    { op: 'toggle', spec: 'S1', test: 'T2' },
  ]) {
    assert.equal(req('specs.edit', { revision: 1, op }).ok, true, JSON.stringify(op));
  }
  assert.equal(req('specs.undo', { revision: 3 }).ok, true);
  const bad: Array<[unknown, RegExp]> = [
    [{ revision: 1 }, /specs\.edit/],
    [{ revision: -1, op: { op: 'delete', spec: 'S1' } }, /revision/],
    [{ revision: 1, op: { op: 'delete', spec: 'S1' }, extra: 1 }, /nothing else/],
    [{ revision: 1, op: { op: 'explode', spec: 'S1' } }, /op\.op must be one of add, edit/],
    [{ revision: 1, op: { op: 'add', text: 'x'.repeat(MAX_SPEC_TEXT + 1), category: 'other' } }, /at most 20000 characters/],
    [{ revision: 1, op: { op: 'add', text: 'nul \u0000', category: 'other' } }, /without NUL/],
    [{ revision: 1, op: { op: 'add', text: 'x', category: 'other', tests: 'T1' } }, /add needs/],
    [{ revision: 1, op: { op: 'map', spec: 'S1', mode: 'swap', tests: [] } }, /mode/],
    [{ revision: 1, op: { op: 'toggle', spec: 'S1' } }, /toggle needs spec and test/],
    [{ revision: 1, op: { op: 'reorder', order: Array.from({ length: 5001 }, (_, i) => `S${i}`) } }, /reorder/],
  ];
  for (const [params, re] of bad) {
    const v = req('specs.edit', params);
    assert.equal(v.ok, false, JSON.stringify(params).slice(0, 100));
    if (!v.ok) assert.match(v.error, re);
  }
  const u = req('specs.undo', { revision: 1, op: {} });
  assert.equal(u.ok, false);
});

function host(trusted = true) {
  const root = reviewDataset();
  const store = CurationStore.open(root);
  let refreshed = 0;
  const authoring = new SpecAuthoring({
    owner: { store, curator: { ok: true, name: 'alice', source: 'setting' }, refreshTasks: () => void refreshed++, refreshLog: () => store.refresh() },
    trusted: () => trusted,
  });
  const file = path.join(root, 'tasks/t1/task.json');
  return { root, store, authoring, file, refreshed: () => refreshed, read: () => fs.readFileSync(file, 'utf8') };
}

test('specs.edit writes the next revision and names the changed specs; the owner reads the task again', async () => {
  const h = host();
  try {
    const r0 = h.store.dataset.tasks.find((t) => t.id === 't1')!.revision;
    const r = await h.authoring.requests('t1')['specs.edit']({ revision: r0, op: { op: 'add', text: 'A brand new requirement.', category: 'other' } });
    assert.deepEqual(r, { ok: true, to: r0 + 1, changedSpecs: ['S3'] });
    assert.equal((JSON.parse(h.read()) as { revision: number }).revision, r0 + 1);
    assert.equal(h.refreshed(), 1);
    const u = await h.authoring.requests('t1')['specs.undo']({ revision: r0 + 1 });
    assert.deepEqual(u, { ok: true, to: r0 + 2, changedSpecs: ['S3'] });
  } finally {
    fs.rmSync(h.root, { recursive: true, force: true });
  }
});

test('refusals are values naming what was wrong, and nothing is written', async () => {
  const h = host();
  try {
    const before = h.read();
    const r0 = h.store.dataset.tasks.find((t) => t.id === 't1')!.revision;
    const s1 = h.store.dataset.tasks.find((t) => t.id === 't1')!.specs[0]!;
    const t = h.authoring.requests('t1');
    const dup = await t['specs.edit']({ revision: r0, op: { op: 'add', text: `  ${s1.text.toUpperCase()} `, category: 'other' } });
    assert.equal(dup.ok, false);
    if (!dup.ok) {
      assert.equal(dup.code, 'invalid_edit');
      assert.match(dup.message, /S1/);
    }
    const raced = await t['specs.edit']({ revision: r0 + 5, op: { op: 'delete', spec: 'S2' } });
    assert.equal(raced.ok, false);
    if (!raced.ok) {
      assert.equal(raced.code, 'revision_raced');
      assert.equal(raced.currentRevision, r0);
      assert.match(raced.message, new RegExp(`revision ${r0}`));
    }
    // A shape the page's validator would refuse, sent straight to the handler: checkSpecOp refuses it too.
    const deep = await t['specs.edit']({ revision: r0, op: { op: 'toggle', spec: 'S1' } as never });
    assert.equal(deep.ok, false);
    if (!deep.ok) assert.match(deep.message, /toggle\.test/);
    const nothing = await t['specs.undo']({ revision: r0 });
    assert.equal(nothing.ok, false);
    if (!nothing.ok) assert.equal(nothing.code, 'nothing_to_undo');
    assert.equal(h.read(), before);
    assert.equal(fs.existsSync(path.join(h.root, 'tasks/t1/revisions')), false);
  } finally {
    fs.rmSync(h.root, { recursive: true, force: true });
  }
});

test('a restricted workspace refuses spec edits before anything is read or written', async () => {
  const h = host(false);
  try {
    const before = h.read();
    const r = await h.authoring.requests('t1')['specs.edit']({ revision: 1, op: { op: 'add', text: 'x', category: 'other' } });
    assert.deepEqual(r, { ok: false, code: 'restricted', message: RESTRICTED_SPEC_EDIT });
    assert.equal(h.read(), before);
  } finally {
    fs.rmSync(h.root, { recursive: true, force: true });
  }
});
