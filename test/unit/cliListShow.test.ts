import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { copyFixture } from './helpers/tmp';
import { cliArgs } from './helpers/cli';

const root = path.resolve(__dirname, '../..');
const cli = (args: string[]) => spawnSync(process.execPath, [...cliArgs(), ...args], { encoding: 'utf8', cwd: root });

test('list shows counts and the review status from the review log', () => {
  const ds = copyFixture('datasets/tiny');
  let r = cli(['list', ds, '--json']);
  assert.equal(r.status, 0, r.stderr);
  // No attempt has a verdict yet: no solve rate, both attempts unverified, not in the mixed-success band.
  const unmeasured = { overall: { solved: 0, attempts: 0, rate: null }, byModel: {}, unverified: 2, stale: 0 };
  assert.deepEqual(JSON.parse(r.stdout), [{ id: 't1', title: 'Add a greeting', specs: 2, tests: 2, attempts: 2, status: 'candidate', solveRate: unmeasured, inBand: false }]);
  r = cli(['status', ds, 't1', 'in_review', '--curator', 'ada']);
  assert.equal(r.status, 0, r.stderr);
  r = cli(['list', ds]);
  assert.match(r.stdout, /^t1\s+2\s+2\s+2\s+- \(0\/0\)\s+in_review\s+Add a greeting$/m);
});

test('show prints the whole task; validate exits 1 on errors and names file, line and field', () => {
  const ds = copyFixture('datasets/tiny');
  let r = cli(['show', ds, 't1', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { task: { id: string }; request: string; attempts: Array<{ id: string; patch: Array<{ path: string; additions: number }> }> };
  assert.equal(out.task.id, 't1');
  assert.match(out.request, /greet/);
  assert.deepEqual(out.attempts.map((a) => [a.id, a.patch[0]?.path, a.patch[0]?.additions]), [['a1', 'hello.py', 3], ['a2', 'hello.py', 3]]);
  r = cli(['show', ds, 'nope']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /no task "nope"/);
  fs.writeFileSync(path.join(ds, 'tasks/t1/attempts/a2/fix.diff'), 'this is not a patch\n');
  const task = JSON.parse(fs.readFileSync(path.join(ds, 'tasks/t1/task.json'), 'utf8')) as { tests: Array<{ specs: string[] }> };
  task.tests[0]!.specs.push('S7');
  fs.writeFileSync(path.join(ds, 'tasks/t1/task.json'), JSON.stringify(task, null, 2));
  r = cli(['validate', ds]);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /^tasks\/t1\/attempts\/a2\/fix\.diff:1: error: not a patch/m);
  assert.match(r.stdout, /^tasks\/t1\/task\.json:\d+: error: tests\[0\]\.specs\[2\]: test "T1" is mapped to unknown spec "S7"$/m);
  const json = cli(['validate', ds, '--json']);
  assert.equal(JSON.parse(json.stdout).errors, 2);
});

test('an unknown command or option is a usage error with exit code 2', () => {
  assert.equal(cli(['frobnicate']).status, 2);
  const r = cli(['list', '--bogus']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown option --bogus/);
  assert.match(execFileSync(process.execPath, [...cliArgs(), '--help'], { encoding: 'utf8', cwd: root }), /validate/);
});
