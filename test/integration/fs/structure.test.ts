// Bad structure through the real CLI: JSON nested thousands of levels deep, two task folders with one id, a folder
// that is not a dataset, an unknown manifest field, a review-log line with a member named twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { canonicalJson } from '../../../src/core/review/events';
import { tmpDir } from '../../unit/helpers/tmp';
import { appendEvents, cli, labelDraft, tinyDataset } from './helpers';

const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

/** Adds task folders copied from t1 under new ids. */
function addTasks(ds: string, ...ids: string[]): void {
  for (const id of ids) {
    fs.cpSync(path.join(ds, 'tasks/t1'), path.join(ds, 'tasks', id), { recursive: true });
    const file = path.join(ds, 'tasks', id, 'task.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"id": "t1"', `"id": "${id}"`));
  }
}

/** Puts a member holding JSON nested `depth` levels on its own line, before the closing brace of a JSON file. */
function nestInto(file: string, depth: number): number {
  const text = fs.readFileSync(file, 'utf8').trimEnd();
  const body = text.slice(0, -1).trimEnd();
  fs.writeFileSync(file, `${body},\n  "extra": ${deep(depth)}\n}\n`);
  return body.split('\n').length + 1;
}

test('JSON nested 5,000 levels deep in a task.json or an attempt.json is a problem with its file and line; the other tasks load', () => {
  const ds = tinyDataset();
  addTasks(ds, 't2', 't3');
  const taskLine = nestInto(path.join(ds, 'tasks/t1/task.json'), 5000);
  const attemptLine = nestInto(path.join(ds, 'tasks/t2/attempts/a1/attempt.json'), 5000);

  const list = cli(['list', ds, '--json']);
  assert.equal(list.code, 1, `list exits with its problems code (not 3): ${list.stderr}`);
  assert.deepEqual((JSON.parse(list.stdout) as Array<{ id: string; attempts: number }>).map((t) => [t.id, t.attempts]), [['t2', 1], ['t3', 2]]);
  assert.match(list.stderr, new RegExp(`^tasks/t1/task\\.json:${taskLine}: error: JSON nested deeper than 256 levels`, 'm'));
  assert.match(list.stderr, new RegExp(`^tasks/t2/attempts/a1/attempt\\.json:${attemptLine}: error: JSON nested deeper than 256 levels`, 'm'));
  assert.doesNotMatch(list.stderr, /RangeError|at \w+ \(/);

  const validate = cli(['validate', ds]);
  assert.equal(validate.code, 1, validate.stderr);
  assert.match(validate.stdout, new RegExp(`^tasks/t1/task\\.json:${taskLine}: error: JSON nested deeper`, 'm'));
  assert.match(validate.stdout, /^2 tasks, 2 errors/m);

  const good = cli(['show', ds, 't3']);
  assert.equal(good.code, 0, good.stderr);
  const partly = cli(['show', ds, 't2', '--json']);
  assert.equal(partly.code, 1, 'show exits 1 when the task it shows has a problem');
  assert.deepEqual((JSON.parse(partly.stdout) as { attempts: Array<{ id: string }> }).attempts.map((a) => a.id), ['a2']);
  const gone = cli(['show', ds, 't1']);
  assert.equal(gone.code, 2);
  assert.match(gone.stderr, /tasks\/t1\/task\.json:\d+: error: JSON nested deeper/);
  assert.match(gone.stderr, /no task "t1"/);
});

test('an import row nested 5,000 levels deep is skipped with its file and line; the good rows are imported', () => {
  const dir = tmpDir();
  const good = fs.readFileSync(path.join(__dirname, '../../fixtures/import/instances-crlf-bom.jsonl'), 'utf8').replace(/^\ufeff/, '').split(/\r?\n/)[0] as string;
  const bad = `${good.replace('"acme__widgets-1"', '"acme__deep-9"').slice(0, -1)}, "extra": ${deep(5000)}}`;
  fs.writeFileSync(path.join(dir, 'rows.jsonl'), `${good}\n${bad}\n`);
  fs.writeFileSync(path.join(dir, 'rows.json'), `[\n${good},\n${bad}\n]\n`);

  const lines = cli(['import', 'swebench', '--instances', path.join(dir, 'rows.jsonl'), '--out', path.join(dir, 'out1'), '--json']);
  assert.equal(lines.code, 1, lines.stderr);
  const s = JSON.parse(lines.stdout) as { tasks: Array<{ id: string }>; problems: Array<{ file: string; line?: number; message: string }> };
  assert.deepEqual(s.tasks.map((t) => t.id), ['acme__widgets-1']);
  const p = s.problems.find((x) => /nested deeper/.test(x.message));
  assert.equal(p?.file, path.join(dir, 'rows.jsonl'));
  assert.equal(p?.line, 2);

  const array = cli(['import', 'swebench', '--instances', path.join(dir, 'rows.json'), '--out', path.join(dir, 'out2')]);
  assert.equal(array.code, 1, 'an input error, not a crash');
  assert.match(array.stdout + array.stderr, /rows\.json:3: error: JSON nested deeper than 256 levels/);
  assert.doesNotMatch(array.stderr, /RangeError|at \w+ \(/);
});

test('two task folders with one id: an error naming both folders, neither is shown as that id, export does not crash', async () => {
  const ds = tinyDataset();
  await appendEvents(ds, [{ kind: 'approve', task: 't1', revision: 1, curator: 'ada', payload: { waivers: [], runs: [] } }]);
  fs.cpSync(path.join(ds, 'tasks/t1'), path.join(ds, 'tasks/t1-copy'), { recursive: true });
  fs.writeFileSync(path.join(ds, 'tasks/t1-copy/request.md'), 'An impostor.\n');

  const list = cli(['list', ds, '--json']);
  assert.equal(list.code, 1);
  assert.deepEqual(JSON.parse(list.stdout), []);
  assert.match(list.stderr, /task id "t1" is used by two task folders, tasks\/t1 and tasks\/t1-copy/);
  // show reads only the folder named like the task: the copy is never shown under the id it claims.
  assert.doesNotMatch(cli(['show', ds, 't1']).stdout, /impostor/);
  const copy = cli(['show', ds, 't1-copy']);
  assert.equal(copy.code, 2);
  assert.match(copy.stderr, /tasks\/t1-copy\/task\.json:2: error: id: task id "t1" differs from its folder name "t1-copy"; the task is not loaded/);
  const out = path.join(tmpDir(), 'curated');
  const exported = cli(['export', ds, '--out', out, '--json']);
  assert.doesNotMatch(exported.stderr, /EEXIST|at \w+ \(/);
  assert.equal(exported.code, 0, exported.stderr);
  assert.deepEqual((JSON.parse(exported.stdout) as { tasks: unknown[] }).tasks, []);
});

test('a folder that is not a dataset: every command says so and exits 2', () => {
  const empty = tmpDir('sw-not-a-dataset-');
  for (const args of [['list', empty], ['show', empty, 't1'], ['validate', empty], ['label', empty, 't1', '--attempt', 'a1', '--spec', 'S1', '--verdict', 'satisfied', '--curator', 'ada'], ['stats', empty], ['log', empty]]) {
    const r = cli(args);
    assert.equal(r.code, 2, `${args[0]}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, new RegExp(`no specweave\\.json in ${empty.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), args[0]);
    assert.equal(r.stdout, '', `${args[0]} prints no table`);
  }
  assert.deepEqual(fs.readdirSync(empty), [], 'nothing was written');
});

test('an unknown field in specweave.json is a warning naming it; the tasks still load', () => {
  const ds = tinyDataset();
  const file = path.join(ds, 'specweave.json');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"name": "tiny",', '"name": "tiny",\n  "colour": "blue",'));
  const list = cli(['list', ds, '--json']);
  assert.equal(list.code, 0, list.stderr);
  assert.deepEqual((JSON.parse(list.stdout) as Array<{ id: string }>).map((t) => t.id), ['t1']);
  const validate = cli(['validate', ds]);
  assert.equal(validate.code, 0, validate.stdout);
  assert.match(validate.stdout, /^specweave\.json:4: warning: colour: unknown field/m);
  assert.match(validate.stdout, /^1 tasks, 0 errors, \d+ warnings/m);
});

test('a review-log line naming its curator twice (with a good checksum) is refused, and nobody is credited with it', async () => {
  const ds = tinyDataset();
  await appendEvents(ds, [labelDraft('ada')]);
  // Forge a line as a writer would, then name a second curator: the checksum is computed over the text as it stands.
  const logFile = path.join(ds, 'curation/events.jsonl');
  const good = JSON.parse(fs.readFileSync(logFile, 'utf8').trim()) as Record<string, unknown>;
  delete good.sum;
  const body = canonicalJson({ ...good, id: '01KA0000000000000000000001', payload: { ...(good.payload as object), spec: 'S2' } }).replace('"curator":"ada"', '"curator":"ada","curator":"mallory"');
  const sum = createHash('sha256').update(body).digest('hex').slice(0, 16);
  fs.appendFileSync(logFile, `${body.slice(0, -1)},"sum":"${sum}"}\n`);

  const log = cli(['log', ds, '--json']);
  assert.equal(log.code, 0, log.stderr);
  const events = JSON.parse(log.stdout) as Array<{ curator: string; summary: string }>;
  assert.deepEqual(events.map((e) => e.curator), ['ada'], 'the forged line is not an event');
  assert.match(log.stderr, /curation\/events\.jsonl:2: error: .*member "curator" appears twice/);
  assert.ok(!fs.existsSync(path.join(ds, 'curation/events.rejected.jsonl')), 'a read-only command writes nothing');
});

test('a folder where a file should be (manifest, task.json, attempt.json, a patch, request.md) is a problem naming it, never a crash', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['specweave.json', 'list', /^specweave\.json: error: is a folder, not a file/m],
    ['tasks/t1/task.json', 'list', /^tasks\/t1\/task\.json: error: expected a file, found a folder/m],
    ['tasks/t1/attempts/a1/attempt.json', 'list', /^tasks\/t1\/attempts\/a1\/attempt\.json: error: expected a file, found a folder/m],
    ['tasks/t1/attempts/a1/patch.diff', 'show', /^tasks\/t1\/attempts\/a1\/patch\.diff: error: is a folder, not a file/m],
    ['tasks/t1/request.md', 'show', /^tasks\/t1\/request\.md: error: is a folder, not a file/m],
  ];
  for (const [file, command, expected] of cases) {
    const ds = tinyDataset();
    fs.rmSync(path.join(ds, file));
    fs.mkdirSync(path.join(ds, file));
    for (const c of [command, 'validate']) {
      const r = cli(c === 'show' ? ['show', ds, 't1'] : [c, ds]);
      assert.equal(r.code, 1, `${file} ${c}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /EISDIR|at \w+ \(/, `${file} ${c}`);
      if (c === command) assert.match(r.stderr, expected, `${file} ${c}`);
    }
  }
});

test('a FIFO where a file should be (task.json, a patch, a trajectory, the review log) blocks no command', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['tasks/t1/task.json', ['list'], /^tasks\/t1\/task\.json: error: .*not a regular file/m],
    ['tasks/t1/attempts/a1/patch.diff', ['show', '@', 't1'], /^tasks\/t1\/attempts\/a1\/patch\.diff: error: is not a regular file/m],
    ['tasks/t1/attempts/a1/t.json', ['show', '@', 't1'], /not a regular file/],
    ['curation/events.jsonl', ['list'], /^curation\/events\.jsonl: error: is not a regular file/m],
    ['curation/events.jsonl', ['label', '@', 't1', '--attempt', 'a2', '--spec', 'S1', '--verdict', 'satisfied', '--curator', 'ada'], /is not a regular file.*NOT recorded/],
  ];
  for (const [file, args, expected] of cases) {
    const ds = tinyDataset();
    if (file.endsWith('t.json')) fs.writeFileSync(path.join(ds, 'tasks/t1/attempts/a1/attempt.json'), '{ "model": "m", "trajectory": "t.json" }');
    fs.mkdirSync(path.dirname(path.join(ds, file)), { recursive: true });
    fs.rmSync(path.join(ds, file), { force: true });
    execFileSync('mkfifo', [path.join(ds, file)]);
    for (const a of [args, ['validate', '@']]) {
      const argv = a.map((x) => (x === '@' ? ds : x));
      if (argv.length === 1) argv.push(ds);
      // A generous bound: the command either answers or is killed; it must answer.
      const r = cli(argv, { timeoutMs: 60_000 });
      assert.notEqual(r.code, null, `${file} ${argv[0]} blocked`);
      assert.doesNotMatch(r.stderr, /at \w+ \(/, `${file} ${argv[0]}`);
      if (a === args) assert.match(r.stdout + r.stderr, expected, `${file} ${argv[0]}`);
    }
  }
});
