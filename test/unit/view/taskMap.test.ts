// The host's task map: a folder read again replaces only what came from it (its tasks and its problems), the
// sorted list stays sorted (patched in place when the ids stay, a new array for readers holding the old one), and
// the whole-dataset problems come from the first chunk only.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { TaskMap } from '../../../src/vscode/taskMap';
import { DATASET } from '../helpers/exampleRuns';
import { tmpDir } from '../helpers/tmp';

function copy(): string {
  const root = path.join(tmpDir('sw-taskmap-'), 'ds');
  fs.cpSync(DATASET, root, { recursive: true });
  return root;
}

const folders = (root: string): string[] => fs.readdirSync(path.join(root, 'tasks')).sort();

test('a folder read again replaces its task and its problems only; the sorted list is a new, sorted array', () => {
  const root = copy();
  const map = new TaskMap();
  map.loadFolders(root, folders(root), true);
  const list = map.tasks;
  const ids = list.map((t) => t.id);
  const file = path.join(root, 'tasks', 'format-precision', 'task.json');
  fs.writeFileSync(file, '{ "broken": ');
  const changed = map.loadFolders(root, ['format-precision'], false);
  assert.deepEqual(changed, ['format-precision']);
  assert.equal(map.task('format-precision'), undefined);
  assert.ok(map.problems.some((p) => p.file.startsWith('tasks/format-precision/')), 'its problem is listed');
  assert.deepEqual(list.map((t) => t.id), ids, 'the list a reader held is unchanged');
  assert.deepEqual(map.tasks.map((t) => t.id), ids.filter((id) => id !== 'format-precision'));
  fs.cpSync(path.join(DATASET, 'tasks', 'format-precision', 'task.json'), file);
  map.loadFolders(root, ['format-precision'], false);
  assert.deepEqual(map.tasks.map((t) => t.id), ids);
  assert.equal(map.problems.filter((p) => p.file.startsWith('tasks/format-precision/')).length, 0, 'the problem is gone with the fix');
});

test('an edited folder (same ids) patches the sorted list in place of sorting; other tasks are the same objects', () => {
  const root = copy();
  const map = new TaskMap();
  map.loadFolders(root, folders(root), true);
  const before = map.tasks;
  const file = path.join(root, 'tasks', 'total-command', 'task.json');
  const j = JSON.parse(fs.readFileSync(file, 'utf8')) as { title: string };
  j.title = 'edited';
  fs.writeFileSync(file, JSON.stringify(j));
  map.loadFolders(root, ['total-command'], false);
  const after = map.tasks;
  assert.notEqual(after, before);
  assert.deepEqual(after.map((t) => t.id), before.map((t) => t.id));
  assert.equal(after.find((t) => t.id === 'total-command')?.title, 'edited');
  for (const t of after) if (t.id !== 'total-command') assert.equal(t, before.find((b) => b.id === t.id));
});
