// The open dataset's one owner in the host, without VS Code: one task folder changing updates only that task in the
// task map and the curation store (no full dataset load); runs and the review log arrive through the same typed
// change event; the curator is resolved once, and a refused name is named with its setting.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { CurationStore } from '../../../src/app/curationStore';
import type { OpenDatasetChange } from '../../../src/vscode/openDataset';
import { CURATOR_SETTING, CuratorRefusedError } from '../../../src/vscode/openDataset';
import { DATASET } from '../helpers/exampleRuns';
import { countFullLoads, ownerOver } from '../helpers/hostOwner';
import { tmpDir } from '../helpers/tmp';

function copy(): string {
  const root = path.join(tmpDir('sw-owner-'), 'ds');
  fs.cpSync(DATASET, root, { recursive: true });
  return root;
}

test('one task folder changing updates only that task, in the task map and the store, with no full load', async () => {
  const root = copy();
  const { owner, source } = ownerOver(root);
  const store = owner.store;
  assert.ok(store);
  const others = store.dataset.tasks.filter((t) => t.id !== 'format-precision');
  const seen: OpenDatasetChange[] = [];
  owner.onDidChange((c) => seen.push(c));
  const file = path.join(root, 'tasks', 'format-precision', 'task.json');
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as { title: string };
  json.title = 'A new title from disk';
  fs.writeFileSync(file, JSON.stringify(json, null, 2));
  const loads = source.loads.length;
  const { fullLoads } = await countFullLoads(root, () => source.refreshTasks(['format-precision']));
  assert.equal(fullLoads, 0);
  assert.deepEqual(source.loads.slice(loads), [{ only: ['format-precision'] }]);
  assert.equal(owner.store, store, 'the same store: not reopened');
  assert.equal(store.task('format-precision')?.title, 'A new title from disk');
  assert.equal(store.dataset.tasks.find((t) => t.id === 'format-precision')?.title, 'A new title from disk');
  assert.deepEqual(
    store.dataset.tasks.filter((t) => t.id !== 'format-precision'),
    others,
  );
  assert.ok(others.every((t) => store.task(t.id) === t), 'the other tasks are the same objects');
  assert.deepEqual(seen, [{ tasks: ['format-precision'] }]);
  owner.dispose();
});

test('a task folder removed or added: the store follows, sorted', () => {
  const root = copy();
  const { owner, source } = ownerOver(root);
  fs.renameSync(path.join(root, 'tasks', 'total-command'), path.join(root, 'tasks', 'a-total-command'));
  source.changes.fire({ kind: 'tasks', taskIds: source.map.loadFolders(root, ['total-command', 'a-total-command'], false) });
  const ids = owner.store?.dataset.tasks.map((t) => t.id);
  assert.deepEqual(ids, [...(ids ?? [])].sort());
  assert.equal(owner.store?.task('total-command'), source.task('total-command'));
  assert.equal(owner.store?.dataset.tasks.length, source.tasks.length);
  owner.dispose();
});

test('runs and the review log come through the one change event; runs are read once per change', async () => {
  const root = copy();
  const reads: string[] = [];
  const { owner, source } = ownerOver(root, {
    runSource: () => ({
      runs: (taskId) => {
        reads.push(taskId);
        return new Map();
      },
      currentPatches: () => ({ testPatch: Buffer.alloc(0), attempts: new Map() }),
    }),
  });
  const seen: OpenDatasetChange[] = [];
  owner.onDidChange((c) => seen.push(c));
  owner.store?.verifier('format-precision');
  owner.runs?.runs('format-precision');
  owner.store?.verifier('format-precision');
  assert.deepEqual(reads, ['format-precision'], 'the store and the verifier share one index');
  source.changes.fire({ kind: 'runs', taskIds: ['format-precision'] });
  owner.store?.verifier('format-precision');
  assert.deepEqual(reads, ['format-precision', 'format-precision']);
  // Another writer (the CLI) appends; the watcher says the log changed.
  const other = CurationStore.open(root);
  const r = await other.act('format-precision', 'bob', { kind: 'status', to: 'in_review' });
  assert.equal(r.ok, true);
  source.changes.fire({ kind: 'log' });
  assert.equal(owner.store?.state.tasks.get('format-precision')?.status, 'in_review');
  assert.deepEqual(seen, [{ runs: ['format-precision'] }, { log: true }]);
  owner.dispose();
});

test('a curator name the settings refuse: one resolution, refused with the setting named', () => {
  const root = copy();
  let name = 'bell\u0007';
  const { owner } = ownerOver(root, { settings: () => ({ curatorName: name, policy: 'adjudicate' }) });
  assert.equal(owner.curator.ok, false);
  assert.match(owner.curator.ok ? '' : owner.curator.message, new RegExp(`${CURATOR_SETTING.replace(/\./g, '\\.')}.*U\\+0007|U\\+0007.*${CURATOR_SETTING.replace(/\./g, '\\.')}`));
  assert.throws(() => owner.requireCurator(), (e: unknown) => e instanceof CuratorRefusedError && e.message.includes(CURATOR_SETTING));
  name = 'carol';
  const seen: OpenDatasetChange[] = [];
  owner.onDidChange((c) => seen.push(c));
  owner.applySettings();
  assert.equal(owner.requireCurator(), 'carol');
  assert.deepEqual(seen, [{ settings: true }]);
  owner.dispose();
});
