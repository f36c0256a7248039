// Every JSON the tool parses as a record refuses a member named twice (two readers could take different ones):
// task.json, attempt.json, specweave.json, run records, suggestions, import rows. The review-log line is in
// review/reviewLog.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadDataset } from '../../src/adapters/fs/datasetLoader';
import { loadSuggestion } from '../../src/adapters/fs/repairStore';
import { listRuns } from '../../src/adapters/fs/runStore';
import { readRecords } from '../../src/core/import/records';
import { copyFixture } from './helpers/tmp';

/** Adds a second `"name": value` member right after the first line holding `"name"`. */
function twice(file: string, name: string, value: string): number {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.includes(`"${name}"`));
  lines.splice(at + 1, 0, `  "${name}": ${value},`);
  fs.writeFileSync(file, lines.join('\n'));
  return at + 2;
}

test('task.json, attempt.json and specweave.json naming a member twice are refused with file and line', () => {
  const root = copyFixture('datasets/tiny');
  const line = twice(path.join(root, 'tasks/t1/task.json'), 'title', '"Something else"');
  let d = loadDataset(root);
  assert.deepEqual(d.tasks, []);
  assert.deepEqual(d.problems.map((p) => [p.file, p.line, p.message]), [['tasks/t1/task.json', line, 'member "title" appears twice in one object (a record names each field once)']]);

  const root2 = copyFixture('datasets/tiny');
  fs.writeFileSync(path.join(root2, 'tasks/t1/attempts/a1/attempt.json'), '{\n  "model": "gpt-test",\n  "model": "other"\n}\n');
  d = loadDataset(root2);
  assert.deepEqual(d.tasks[0]?.attempts.map((a) => a.id), ['a2']);
  assert.equal(d.problems[0]?.file, 'tasks/t1/attempts/a1/attempt.json');
  assert.equal(d.problems[0]?.line, 3);

  const root3 = copyFixture('datasets/tiny');
  fs.writeFileSync(path.join(root3, 'specweave.json'), '{\n  "format": 1,\n  "name": "tiny",\n  "name": "other"\n}\n');
  d = loadDataset(root3);
  assert.deepEqual(d.tasks, []);
  assert.equal(d.problems[0]?.line, 4);
  assert.match(d.problems[0]?.message ?? '', /"name" appears twice/);
});

test('a run record or a suggestion naming a member twice is not taken as one', () => {
  const root = copyFixture('datasets/tiny');
  const dir = path.join(root, 'runs/t1/a1');
  fs.mkdirSync(dir, { recursive: true });
  const rec = '{"format":1,"runId":"20260101T000000000Z-aaaaaa","status":"failed","status":"passed","inputs":{"key":"k"},"grade":{}}';
  fs.writeFileSync(path.join(dir, '20260101T000000000Z-aaaaaa.json'), rec);
  assert.deepEqual(listRuns(root, 't1', 'a1'), []);
  fs.writeFileSync(path.join(dir, '20260101T000000000Z-aaaaaa.json'), rec.replace('"status":"failed",', ''));
  assert.equal(listRuns(root, 't1', 'a1').length, 1, 'the same record without the second member is a run');

  const sdir = path.join(root, 'curation/suggestions/t1/20260101T000000000Z-bbbbbb');
  fs.mkdirSync(sdir, { recursive: true });
  fs.writeFileSync(path.join(sdir, 'suggestion.json'), '{"format":1,"id":"20260101T000000000Z-bbbbbb","task":"t1","status":"failed","status":"ready","files":[]}');
  assert.throws(() => loadSuggestion(root, 't1', '20260101T000000000Z-bbbbbb'), /suggestion\.json: line 1: member "status" appears twice/);
});

test('an import row naming a member twice is skipped with its line; the other rows are kept', () => {
  const rows = ['{"instance_id": "a", "repo": "o/r"}', '{"instance_id": "b", "repo": "o/r", "instance_id": "c"}', '{"instance_id": "d", "repo": "o/r"}', ''].join('\n');
  const r = readRecords(rows, 'rows.jsonl', (v) => 'instance_id' in v);
  assert.deepEqual(r.records.map((x) => (x.value as { instance_id: string }).instance_id), ['a', 'd']);
  assert.deepEqual(r.problems.map((p) => [p.line, p.message]), [[2, 'member "instance_id" appears twice in one object (a record names each field once); the row is skipped']]);
  const keyed = readRecords('{\n  "a": {"instance_id": "a"},\n  "a": {"instance_id": "b"}\n}\n', 'rows.json', (v) => 'instance_id' in v);
  assert.deepEqual(keyed.records, []);
  assert.match(keyed.problems[0]?.message ?? '', /"a" appears twice/);
  assert.equal(keyed.problems[0]?.line, 3);
});
