// `specweave specs ...` run as a user runs it (a child process on a copy of the example dataset).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tmpDir } from '../../unit/helpers/tmp';
import { cliArgs } from '../../unit/helpers/cli';

const repoRoot = path.resolve(__dirname, '../../..');
const cli = (args: string[]) => spawnSync(process.execPath, [...cliArgs(), ...args], { encoding: 'utf8', cwd: repoRoot });
const TASK = 'total-command';

function dataset(): string {
  const ds = path.join(tmpDir('sw-specs-cli-'), 'ds');
  fs.cpSync(path.join(repoRoot, 'examples', 'dataset'), ds, { recursive: true });
  return ds;
}

test('specs add, map, edit, rm, undo and list print the new revision, as text and JSON', () => {
  const ds = dataset();
  let r = cli(['specs', 'add', ds, TASK, '--text', 'An empty file totals 0s.', '--category', 'data-transformation', '--tests', 'TB1,tests/test_cli.py::test_total_reads_standard_input', '--depends', 'B2', '--curator', 'alice']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'total-command: revision 1 -> 2 (added B9; changed specs: B9 (their earlier labels are stale))\n');
  r = cli(['specs', 'map', ds, TASK, 'B9', '--tests', 'TB6', '--add', '--curator', 'alice', '--expect-revision', '2', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as { ok: boolean; from: number; to: number; revision: number; changedSpecs: string[]; events: string[] };
  assert.deepEqual([j.ok, j.from, j.to, j.revision, j.changedSpecs, j.events.length], [true, 2, 3, 3, ['B9'], 2]);
  r = cli(['label', ds, TASK, '--attempt', 'claude-code-sonnet-4-5', '--spec', 'B9', '--verdict', 'violated', '--curator', 'alice']);
  assert.equal(r.status, 0, r.stderr);
  r = cli(['specs', 'edit', ds, TASK, 'B9', '--text', 'A file with only comments totals 0s.', '--curator', 'bob']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /revision 3 -> 4/);
  r = cli(['specs', 'list', ds, TASK]);
  assert.match(r.stdout, /^total-command at revision 4: 9 spec\(s\)$/m);
  assert.match(r.stdout, /^B9\s+data-transformation\s+TB1,TB2,TB6\s+B2\s+1 \(1 stale\)\s+A file with only comments totals 0s\.$/m);
  r = cli(['specs', 'rm', ds, TASK, 'B9', '--curator', 'bob']);
  assert.equal(r.status, 0, r.stderr);
  r = cli(['specs', 'list', ds, TASK, '--json']);
  const list = JSON.parse(r.stdout) as { revision: number; specs: Array<{ id: string }>; deleted: Array<{ id: string; deletedIn: number; text: string; labels: Array<{ curator: string; verdict: string }> }> };
  assert.equal(list.revision, 5);
  assert.ok(!list.specs.some((s) => s.id === 'B9'));
  assert.deepEqual(list.deleted.map((d) => [d.id, d.deletedIn, d.text, d.labels.map((l) => `${l.curator}:${l.verdict}`)]), [['B9', 5, 'A file with only comments totals 0s.', ['alice:violated']]]);
  r = cli(['log', ds, TASK]);
  assert.match(r.stdout, /label claude-code-sonnet-4-5 × B9: violated/);
  assert.match(r.stdout, /specs delete B9: revision 4 -> 5 \(changed specs: B9\); deleted B9 in revision 5/);
  r = cli(['specs', 'undo', ds, TASK, '--curator', 'bob']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'total-command: revision 5 -> 6 (added B9; changed specs: B9 (their earlier labels are stale))\n');
  assert.equal((JSON.parse(fs.readFileSync(path.join(ds, 'tasks', TASK, 'task.json'), 'utf8')) as { revision: number }).revision, 6);
});

test('specs refusals name what was wrong, exit 1 and write nothing; usage errors exit 2', () => {
  const ds = dataset();
  const before = fs.readFileSync(path.join(ds, 'tasks', TASK, 'task.json'), 'utf8');
  let r = cli(['specs', 'add', ds, TASK, '--text', 'Blank lines and comment LINES (lines whose first non-blank character is #) are skipped.  Whitespace around a duration is ignored.', '--category', 'other', '--curator', 'alice']);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^specweave specs add: cannot add a spec \(other\) in task total-command; nothing was written:$/m);
  assert.match(r.stderr, /^ {2}- spec B9 would have the same text as B2/m);
  r = cli(['specs', 'map', ds, TASK, 'B1', '--tests', 'TB1,tests/test_cli.py::no_such_test', '--curator', 'alice', '--json']);
  assert.equal(r.status, 1);
  const j = JSON.parse(r.stdout) as { ok: boolean; error: { code: string; details: Array<{ code: string; message: string }> } };
  assert.deepEqual([j.ok, j.error.code, j.error.details[0]?.code], [false, 'invalid_edit', 'unknown_test']);
  assert.match(j.error.details[0]?.message ?? '', /no test "tests\/test_cli.py::no_such_test"/);
  r = cli(['specs', 'edit', ds, TASK, 'B1', '--depends', 'B8', '--curator', 'alice']);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /cycle: B1 -> B8 -> B2 -> B1/);
  r = cli(['specs', 'edit', ds, TASK, 'B1', '--text', 'x\u001b]0;pwned\u0007', '--expect-revision', '7', '--curator', 'alice']);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /at revision 1, not 7/);
  r = cli(['specs', 'undo', ds, TASK, '--curator', 'alice']);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /no spec edit to undo/);
  assert.equal(fs.readFileSync(path.join(ds, 'tasks', TASK, 'task.json'), 'utf8'), before);
  assert.equal(cli(['specs', 'add', ds, TASK, '--text', 'x']).status, 2);
  assert.equal(cli(['specs', 'frob', ds, TASK]).status, 2);
  assert.equal(cli(['specs', 'edit', ds, TASK, 'B1', '--expect-revision', 'two']).status, 2);
});

test('a test name holding a comma inside brackets is one test', () => {
  const ds = dataset();
  const file = path.join(ds, 'tasks', TASK, 'task.json');
  const t = JSON.parse(fs.readFileSync(file, 'utf8')) as { tests: Array<{ id: string; name: string }> };
  (t.tests.find((x) => x.id === 'PB3') as { name: string }).name = 'tests/test_cli.py::test_fmt[1,2]';
  fs.writeFileSync(file, JSON.stringify(t, null, 2));
  const r = cli(['specs', 'map', ds, TASK, 'B1', '--tests', 'tests/test_cli.py::test_fmt[1,2],TB1', '--curator', 'alice', '--json']);
  assert.equal(r.status, 0, r.stderr + r.stdout);
  const after = JSON.parse(fs.readFileSync(file, 'utf8')) as { tests: Array<{ id: string; specs?: string[] }> };
  assert.deepEqual(after.tests.filter((x) => x.specs?.includes('B1')).map((x) => x.id), ['TB1', 'PB3']);
});

test('hostile text in a spec or a test reference reaches the terminal escaped, and is stored as given', () => {
  const ds = dataset();
  const evil = 'Prints the total \u001b]0;pwned\u0007 and \u202eevil';
  let r = cli(['specs', 'add', ds, TASK, '--text', evil, '--category', 'other', '--curator', 'alice']);
  assert.equal(r.status, 0, r.stderr);
  const stored = JSON.parse(fs.readFileSync(path.join(ds, 'tasks', TASK, 'task.json'), 'utf8')) as { specs: Array<{ id: string; text: string }> };
  assert.equal(stored.specs.find((s) => s.id === 'B9')?.text, evil, 'what the curator wrote is kept byte for byte');
  r = cli(['specs', 'list', ds, TASK]);
  assert.ok(!['\u001b', '\u0007', '\u202e'].some((c) => r.stdout.includes(c)), 'no raw control or bidi character on stdout');
  assert.match(r.stdout, /Prints the total \\x1b\]0;pwned\\x07 and \\u202eevil/);
  r = cli(['specs', 'map', ds, TASK, 'B9', '--tests', '\u001b[2Jgone', '--curator', 'alice']);
  assert.equal(r.status, 1);
  assert.ok(!r.stderr.includes('\u001b'));
  assert.match(r.stderr, /no test "\\x1b\[2Jgone"/);
});
