import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadDataset, readDatasetText } from '../../src/adapters/fs/datasetLoader';
import type { Problem } from '../../src/core/model';
import { copyFixture, snapshot, tmpDir } from './helpers/tmp';

const taskFile = (root: string) => path.join(root, 'tasks/t1/task.json');
const editJson = (file: string, edit: (v: Record<string, unknown>) => void) => {
  const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  edit(v);
  fs.writeFileSync(file, JSON.stringify(v, null, 2));
};
const find = (problems: Problem[], re: RegExp) => problems.find((p) => re.test(p.message));

test('a good dataset loads into the task model with defaults applied', () => {
  const root = copyFixture('datasets/tiny');
  const d = loadDataset(root, { deep: true });
  assert.deepEqual(d.problems, []);
  assert.equal(d.manifest.name, 'tiny');
  const [t] = d.tasks;
  assert.ok(t);
  assert.equal(t.id, 't1');
  assert.equal(t.revision, 1);
  assert.equal(t.environment.image, 'specweave-base:bookworm');
  assert.equal(t.environment.timeoutSec, 60);
  assert.equal(t.environment.workdir, '/repo');
  assert.deepEqual(t.specs.map((s) => [s.id, s.dependsOn]), [['S1', []], ['S2', ['S1']]]);
  assert.deepEqual(t.tests.map((x) => [x.id, x.kind, x.specs]), [['T1', 'fail_to_pass', ['S1', 'S2']], ['T2', 'pass_to_pass', []]]);
  assert.equal(t.files.goldPatch, 'tasks/t1/gold.patch');
  assert.deepEqual(t.attempts.map((a) => [a.id, a.model, a.patchFile]), [
    ['a1', 'gpt-test', 'tasks/t1/attempts/a1/patch.diff'],
    ['a2', 'other-model', 'tasks/t1/attempts/a2/fix.diff'],
  ]);
  assert.equal(t.repo.kind, 'git');
});

test('reading a dataset changes nothing on disk, even a broken one', () => {
  const root = copyFixture('datasets/tiny');
  fs.writeFileSync(path.join(root, 'tasks/t1/attempts/a1/attempt.json'), '{ "model": ');
  const before = snapshot(root);
  loadDataset(root, { deep: true });
  readDatasetText(root, 'tasks/t1/request.md');
  assert.deepEqual(snapshot(root), before);
});

test('malformed JSON is reported with its line, and the rest of the dataset still loads', () => {
  const root = copyFixture('datasets/tiny');
  fs.cpSync(path.join(root, 'tasks/t1'), path.join(root, 'tasks/t2'), { recursive: true });
  editJson(path.join(root, 'tasks/t2/task.json'), (v) => (v.id = 't2'));
  fs.writeFileSync(taskFile(root), '{\n  "id": "t1",\n  "title": "x",\n  "repo": {,\n}\n');
  const d = loadDataset(root);
  const p = d.problems.find((x) => x.file === 'tasks/t1/task.json');
  assert.ok(p, 'problem for t1');
  assert.equal(p.line, 4);
  assert.match(p.message, /malformed JSON/);
  assert.deepEqual(d.tasks.map((t) => t.id), ['t2']);
});

test('a truncated file says it looks truncated', () => {
  const root = copyFixture('datasets/tiny');
  const text = fs.readFileSync(taskFile(root), 'utf8');
  fs.writeFileSync(taskFile(root), text.slice(0, 200));
  const p = loadDataset(root).problems[0];
  assert.match(p?.message ?? '', /truncated/);
});

test('a missing required field names the file, the line and the field', () => {
  const root = copyFixture('datasets/tiny');
  editJson(taskFile(root), (v) => delete v.verifier);
  const d = loadDataset(root);
  const p = find(d.problems, /required/);
  assert.equal(p?.file, 'tasks/t1/task.json');
  assert.equal(p?.field, 'verifier');
  assert.equal(d.tasks.length, 0);
});

test('a misspelt field is reported as unknown with its line', () => {
  const root = copyFixture('datasets/tiny');
  editJson(taskFile(root), (v) => ((v.specs as Array<Record<string, unknown>>)[1]!.dependson = ['S1']));
  const p = find(loadDataset(root).problems, /unknown field/);
  assert.equal(p?.field, 'specs[1].dependson');
  assert.ok((p?.line ?? 0) > 1);
});

test('a test mapped to an unknown spec is an error naming the test and the spec; the task still loads', () => {
  const root = copyFixture('datasets/tiny');
  editJson(taskFile(root), (v) => ((v.tests as Array<{ specs: string[] }>)[0]!.specs = ['S1', 'S9']));
  const d = loadDataset(root);
  const p = find(d.problems, /unknown spec "S9"/);
  assert.equal(p?.field, 'tests[0].specs[1]');
  assert.match(p?.message ?? '', /T1/);
  assert.equal(d.tasks.length, 1);
});

test('a spec id used twice is an error at the second use', () => {
  const root = copyFixture('datasets/tiny');
  editJson(taskFile(root), (v) => ((v.specs as Array<{ id: string }>)[1]!.id = 'S1'));
  const p = find(loadDataset(root).problems, /used twice/);
  assert.equal(p?.field, 'specs[1].id');
  assert.match(p?.message ?? '', /also specs\[0\]/);
});

test('paths that escape the dataset are refused: "..", absolute paths, symlinks out', () => {
  const root = copyFixture('datasets/tiny');
  const a1 = path.join(root, 'tasks/t1/attempts/a1/attempt.json');
  editJson(a1, (v) => (v.patch = '../../../../../etc/passwd'));
  let d = loadDataset(root);
  assert.match(find(d.problems, /escapes/)?.field ?? '', /patch/);
  editJson(a1, (v) => (v.patch = '/etc/passwd'));
  d = loadDataset(root);
  assert.ok(find(d.problems, /absolute/));
  editJson(a1, (v) => delete v.patch);
  const outside = path.join(tmpDir(), 'secret.md');
  fs.writeFileSync(outside, 'secret');
  fs.rmSync(path.join(root, 'tasks/t1/request.md'));
  fs.symlinkSync(outside, path.join(root, 'tasks/t1/request.md'));
  d = loadDataset(root, { deep: true });
  const p = find(d.problems, /symlink that leads outside/);
  assert.equal(p?.file, 'tasks/t1/request.md');
  assert.throws(() => readDatasetText(root, 'tasks/t1/request.md'), /outside the dataset/);
  assert.throws(() => readDatasetText(root, '../x'), /escapes/);
});

test('a UTF-8 BOM and CRLF line endings load as if they were not there', () => {
  const root = copyFixture('datasets/tiny');
  const text = fs.readFileSync(taskFile(root), 'utf8').replace(/\n/g, '\r\n');
  fs.writeFileSync(taskFile(root), '\ufeff' + text);
  fs.writeFileSync(path.join(root, 'specweave.json'), '\ufeff' + fs.readFileSync(path.join(root, 'specweave.json'), 'utf8'));
  const d = loadDataset(root);
  assert.deepEqual(d.problems, []);
  assert.equal(d.tasks[0]?.specs.length, 2);
  fs.writeFileSync(path.join(root, 'tasks/t1/request.md'), '\ufeffHello\r\n');
  assert.equal(readDatasetText(root, 'tasks/t1/request.md'), 'Hello\r\n');
});

test('missing files and folders are reported; a folder without a manifest is not a dataset', () => {
  const root = copyFixture('datasets/tiny');
  fs.rmSync(path.join(root, 'tasks/t1/tests.patch'));
  fs.rmSync(path.join(root, 'tasks/t1/attempts/a2/fix.diff'));
  const d = loadDataset(root, { deep: true });
  assert.equal(find(d.problems, /required file is missing/)?.file, 'tasks/t1/tests.patch');
  assert.match(find(d.problems, /patch file .* is missing/)?.file ?? '', /a2\/attempt.json$/);
  const empty = tmpDir();
  assert.match(loadDataset(empty).problems[0]?.message ?? '', /not a SpecWeave dataset/);
});

test('a task id that differs from its folder name is reported', () => {
  const root = copyFixture('datasets/tiny');
  editJson(taskFile(root), (v) => (v.id = 'other'));
  assert.match(find(loadDataset(root).problems, /differs from its folder/)?.field ?? '', /^id$/);
});

test('the fast load never reads task.json or attempt.json through a symlink that leads out of the dataset', () => {
  const root = copyFixture('datasets/tiny');
  const elsewhere = tmpDir();
  fs.writeFileSync(path.join(elsewhere, 'attempt.json'), '{ "model": "from outside" }');
  const a1 = path.join(root, 'tasks/t1/attempts/a1/attempt.json');
  fs.rmSync(a1);
  fs.symlinkSync(path.join(elsewhere, 'attempt.json'), a1);
  let d = loadDataset(root);
  assert.equal(find(d.problems, /symlink that leads outside/)?.file, 'tasks/t1/attempts/a1/attempt.json');
  assert.ok(!d.tasks[0]?.attempts.some((a) => a.model === 'from outside'));
  // A symlink that stays inside the dataset is followed.
  fs.rmSync(a1);
  fs.symlinkSync('../a2/attempt.json', a1);
  d = loadDataset(root);
  assert.deepEqual(d.problems, []);
  assert.equal(d.tasks[0]?.attempts.find((a) => a.id === 'a1')?.model, 'other-model');
  // task.json itself, and the attempts folder.
  fs.copyFileSync(path.join(root, 'tasks/t1/task.json'), path.join(elsewhere, 'task.json'));
  fs.rmSync(path.join(root, 'tasks/t1/task.json'));
  fs.symlinkSync(path.join(elsewhere, 'task.json'), path.join(root, 'tasks/t1/task.json'));
  d = loadDataset(root);
  assert.equal(find(d.problems, /symlink that leads outside/)?.file, 'tasks/t1/task.json');
  assert.equal(d.tasks.length, 0);
  const other = copyFixture('datasets/tiny');
  fs.renameSync(path.join(other, 'tasks/t1/attempts'), path.join(elsewhere, 'attempts'));
  fs.symlinkSync(path.join(elsewhere, 'attempts'), path.join(other, 'tasks/t1/attempts'));
  d = loadDataset(other);
  assert.equal(find(d.problems, /symlink that leads outside/)?.file, 'tasks/t1/attempts');
  assert.deepEqual(d.tasks[0]?.attempts, []);
});
