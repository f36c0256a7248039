// Set Image… (src/app/setTaskImage.ts): a task that names no image gets environment.image written into its own
// task.json, every other byte of the curator's file kept (formatting, field order, CRLF, a BOM); the dataset then
// loads the task with that image and no "no image" warning. A bad reference, a broken file and a task.json
// symlinked out of the dataset are refused with what to do, and nothing is written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadDataset } from '../../src/adapters/fs/datasetLoader';
import { noImageReason } from '../../src/core/dataset';
import { imageRefProblem, setTaskImage } from '../../src/app/setTaskImage';
import { copyFixture, tmpDir } from './helpers/tmp';

/** The tiny dataset with no default image: t1 names none. */
function noImageDataset(): string {
  const root = copyFixture('datasets/tiny');
  fs.writeFileSync(path.join(root, 'specweave.json'), JSON.stringify({ format: 1, name: 'tiny', defaults: { timeoutSec: 60 } }));
  return root;
}

test('a task with no image says so, naming its task.json and the manifest', () => {
  const root = noImageDataset();
  const ds = loadDataset(root);
  const t1 = ds.tasks.find((t) => t.id === 't1');
  assert.ok(t1);
  assert.equal(noImageReason(t1), 'task t1 names no image: set environment.image in tasks/t1/task.json or defaults.image in specweave.json');
  assert.ok(ds.problems.some((p) => p.file === 'tasks/t1/task.json' && /no image/.test(p.message)));
});

test('the image is written into task.json, every other byte kept; the task then loads with it', () => {
  const root = noImageDataset();
  const file = path.join(root, 'tasks/t1/task.json');
  const before = fs.readFileSync(file, 'utf8');
  assert.equal(setTaskImage(root, { id: 't1', dir: 'tasks/t1' }, 'python:3.11-slim'), 'tasks/t1/task.json');
  const after = fs.readFileSync(file, 'utf8');
  assert.equal(JSON.parse(after).environment.image, 'python:3.11-slim');
  // Only an insertion: the file before is the file after with the new field taken out.
  const inserted = after.length - before.length;
  const at = [...before].findIndex((c, i) => c !== after[i]);
  assert.equal(after.slice(0, at) + after.slice(at + inserted), before);
  const ds = loadDataset(root);
  const t1 = ds.tasks.find((t) => t.id === 't1');
  assert.equal(t1?.environment.image, 'python:3.11-slim');
  assert.equal(noImageReason(t1 as NonNullable<typeof t1>), undefined);
  assert.throws(() => setTaskImage(root, { id: 't1', dir: 'tasks/t1' }, 'python:3.12'), /names the image python:3\.11-slim already/, 'an image it names is not replaced');
  assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).environment.image, 'python:3.11-slim');
  assert.ok(!ds.problems.some((p) => p.file === 'tasks/t1/task.json' && /no image/.test(p.message)));
});

test('an environment without an image, CRLF line ends and a BOM are kept as they were', () => {
  const root = noImageDataset();
  const file = path.join(root, 'tasks/t1/task.json');
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  json.environment = { timeoutSec: 30 };
  fs.writeFileSync(file, `\uFEFF${JSON.stringify(json, null, 4).replace(/\n/g, '\r\n')}`);
  setTaskImage(root, { id: 't1', dir: 'tasks/t1' }, 'registry.local:5000/team/env@sha256:' + 'a'.repeat(64));
  const after = fs.readFileSync(file, 'utf8');
  assert.ok(after.startsWith('\uFEFF'), 'the BOM kept');
  assert.equal(after.replace(/\r\n/g, '').includes('\n'), false, 'CRLF throughout');
  const v = JSON.parse(after.slice(1));
  assert.deepEqual(v.environment, { timeoutSec: 30, image: `registry.local:5000/team/env@sha256:${'a'.repeat(64)}` });
});

test('a bad reference, a broken task.json and one symlinked out are refused; nothing is written', () => {
  for (const bad of ['', 'Has Space', 'UPPER/case', 'a:b:c', '../etc', 'x'.repeat(256)]) assert.ok(imageRefProblem(bad), bad);
  for (const good of ['specweave-base:bookworm', 'python:3.11-slim', 'ghcr.io/org/img:v1.2', 'localhost:5000/a/b_c__d']) assert.equal(imageRefProblem(good), undefined, good);

  const root = noImageDataset();
  const file = path.join(root, 'tasks/t1/task.json');
  const before = fs.readFileSync(file, 'utf8');
  assert.throws(() => setTaskImage(root, { id: 't1', dir: 'tasks/t1' }, 'Has Space'), /not an image reference/);
  fs.writeFileSync(file, '{ "id": "t1", ');
  assert.throws(() => setTaskImage(root, { id: 't1', dir: 'tasks/t1' }, 'python:3.11'), /tasks\/t1\/task\.json: .*fix the file first/);
  assert.equal(fs.readFileSync(file, 'utf8'), '{ "id": "t1", ');

  const outside = path.join(tmpDir('sw-outside-'), 'task.json');
  fs.writeFileSync(outside, before);
  fs.rmSync(file);
  fs.symlinkSync(outside, file);
  assert.throws(() => setTaskImage(root, { id: 't1', dir: 'tasks/t1' }, 'python:3.11'));
  assert.equal(fs.readFileSync(outside, 'utf8'), before, 'the file outside the dataset is untouched');
});
