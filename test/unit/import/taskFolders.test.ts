// `specweave import swebench --task-dirs DIR`: the SWE-bench team's per-task folders (task.yaml, problem_statement.md,
// hints.md, tests.json, gold.patch, test.patch, eval.sh, Dockerfile, assets), rebuilt into the row their loader
// reads and imported like any SWE-bench row, as a curator then sees the tasks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importCommand } from '../../../src/cli/import';
import { setOutput } from '../../../src/cli/output';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import { evalScriptWithoutTestPatch } from '../../../src/core/import/taskFolder';
import type { ImportSummary } from '../../../src/core/import/summary';
import { tmpDir } from '../helpers/tmp';

const ROOT = path.resolve(__dirname, '../../..');
const FX = path.join(ROOT, 'test/fixtures/import/swebench-task-dirs');
const TASK = (id: string, f: string) => path.join(FX, 'tasks', id, f);

async function run(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  setOutput({ stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  try {
    const code = await importCommand.run(['swebench', ...args]);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    setOutput(undefined);
  }
}

async function importJson(...args: string[]) {
  const out = path.join(tmpDir(), 'ds');
  const r = await run(...args, '--out', out, '--json');
  assert.equal(r.stderr, '');
  return { code: r.code, s: JSON.parse(r.stdout) as ImportSummary, out };
}

test('each task folder becomes a task: its tests, request, patches byte for byte, image, Dockerfile and eval script', async () => {
  const { code, s, out } = await importJson('--task-dirs', FX);
  assert.equal(code, 0, JSON.stringify(s.problems));
  assert.deepEqual(s.instanceFiles, [{ file: FX, shape: 'task-folders', rows: 2 }]);
  assert.deepEqual(s.tasks.map((t) => [t.id, t.tests, t.image, t.verifier.from]), [
    ['acme__pyutils-15', { failToPass: 1, passToPass: 0 }, 'swebench/sweb.eval.x86_64.acme_1776_pyutils-15:latest', 'row'],
    ['acme__widgets-12', { failToPass: 1, passToPass: 1 }, 'swebench/sweb.eval.x86_64.acme_1776_widgets-12:latest', 'row'],
  ]);
  const ds = loadDataset(out, { deep: true });
  assert.deepEqual(ds.problems.filter((p) => p.severity === 'error'), []);
  const w = ds.tasks.find((t) => t.id === 'acme__widgets-12');
  assert.ok(w);
  assert.deepEqual(w.tests.map((t) => [t.name, t.kind]), [
    ['selectors - #getThings - should return an empty list if not loaded', 'fail_to_pass'],
    ['selectors - #hasThing - should return true if present', 'pass_to_pass'],
  ]);
  // The patches are the folder's bytes, CRLF inside the gold patch included.
  assert.ok(fs.readFileSync(path.join(out, w.files.goldPatch ?? '')).equals(fs.readFileSync(TASK('acme__widgets-12', 'gold.patch'))));
  assert.ok(fs.readFileSync(path.join(out, w.files.testPatch)).equals(fs.readFileSync(TASK('acme__widgets-12', 'test.patch'))));
  // The request: the problem statement, the hints, and the local copies of its images.
  const request = fs.readFileSync(path.join(out, w.files.request), 'utf8');
  assert.equal(
    request,
    'Selectors: getThings returns undefined\n\nWhen the list is not loaded, `getThings` should return `[]`.\n\n![screenshot](https://user-images.githubusercontent.com/1/aa-bb.png)\n\n' +
      '## Hints\n\nSee the other selectors in the same file.\n\n## Images (problem_assets/)\n\n- [0-aa-bb.png](problem_assets/0-aa-bb.png)\n',
  );
  assert.ok(fs.readFileSync(path.join(out, w.dir, 'problem_assets/0-aa-bb.png')).equals(fs.readFileSync(TASK('acme__widgets-12', 'problem_assets/0-aa-bb.png'))));
  assert.equal(w.environment.dockerfile, 'environment/Dockerfile');
  assert.equal(fs.readFileSync(path.join(out, w.dir, 'environment/Dockerfile'), 'utf8'), fs.readFileSync(TASK('acme__widgets-12', 'Dockerfile'), 'utf8'));
  assert.equal(w.environment.workdir, '/testbed');
  assert.deepEqual(w.repo, { name: 'acme/widgets', kind: 'image', baseCommit: '91b73692253827a03cfbd98411a5d809b46a776b' });
  assert.equal(w.source?.version, '8.9.3');
  assert.equal(w.source?.created_at, '2018-01-10T18:38:13Z');

  // The verifier is the eval script without its test-patch steps, which the driver does from tests.patch.
  assert.doesNotMatch(w.verifier.command, /git apply|EOF_114329324912|git checkout 91b7/);
  assert.match(w.verifier.command, /^#!\/bin\/bash\nset -uxo pipefail\ncd \/testbed\n/);
  assert.match(w.verifier.command, /source \$NVM_DIR\/nvm\.sh\n/);
  assert.match(w.verifier.command, /: '>>>>> Start Test Output'\n\.\/node_modules\/\.bin\/jest --verbose .*\n: '>>>>> End Test Output'\n$/);
  // The folder's log_parser names the parser, as a row's does.
  assert.equal(w.verifier.parser, 'jest');

  const p = ds.tasks.find((t) => t.id === 'acme__pyutils-15');
  assert.ok(p);
  assert.equal(p.verifier.parser, 'pytest');
  assert.match(p.verifier.command, /conda activate testbed\ncd \/testbed\n: '>>>>> Start Test Output'\npytest -rA tests\/test_render\.py\n/);
  // No hints.md: no Hints section; line endings become LF as for every row.
  assert.equal(fs.readFileSync(path.join(out, p.files.request), 'utf8'), 'render() draws the border twice\nSteps:\n1. call render()\n');
  assert.ok(p.notes.some((n) => /marks this task deprecated/.test(n)));
  assert.ok(p.notes.some((n) => /test_assets\/ \(1 file\(s\)\) .*does not add them to the repository yet/.test(n)));
  assert.ok(fs.existsSync(path.join(out, p.dir, 'test_assets/tests/expected.png')));
  assert.equal(p.source?.split, 'deprecated');
});

test('the folder of task folders, one task folder, or the repository holding tasks/ all work; predictions pair as for rows', async () => {
  const one = await importJson('--task-dirs', path.join(FX, 'tasks', 'acme__pyutils-15'));
  assert.deepEqual(one.s.tasks.map((t) => t.id), ['acme__pyutils-15']);
  const preds = path.join(tmpDir(), 'preds.jsonl');
  const patch = fs.readFileSync(TASK('acme__widgets-12', 'gold.patch'), 'utf8').replace('|| []', '|| [ ]');
  fs.writeFileSync(preds, `${JSON.stringify({ instance_id: 'acme__widgets-12', model_name_or_path: 'acme-model', model_patch: patch })}\n`);
  const both = await importJson('--task-dirs', path.join(FX, 'tasks'), '--predictions', preds);
  assert.deepEqual(both.s.tasks.find((t) => t.id === 'acme__widgets-12')?.attempts.map((a) => [a.id, a.model]), [['acme-model', 'acme-model']]);
});

test('broken folders are named with their file (and line), the others still import', async () => {
  const dir = tmpDir();
  fs.cpSync(path.join(FX, 'tasks'), dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'acme__pyutils-15', 'tests.json'), '{"FAIL_TO_PASS": "not a list", "PASS_TO_PASS": []}');
  fs.mkdirSync(path.join(dir, 'bad-yaml'));
  fs.writeFileSync(path.join(dir, 'bad-yaml', 'task.yaml'), 'instance_id: x__y-1\nrepo: x/y\nrepo: x/z\n');
  fs.writeFileSync(path.join(dir, 'bad-yaml', 'tests.json'), '{"FAIL_TO_PASS": [], "PASS_TO_PASS": []}');
  fs.mkdirSync(path.join(dir, 'renamed'));
  for (const f of fs.readdirSync(path.join(dir, 'acme__widgets-12'))) fs.cpSync(path.join(dir, 'acme__widgets-12', f), path.join(dir, 'renamed', f), { recursive: true });
  fs.rmSync(path.join(dir, 'acme__widgets-12'), { recursive: true });
  const { code, s } = await importJson('--task-dirs', dir);
  assert.equal(code, 1);
  assert.deepEqual(s.tasks.map((t) => t.id), ['acme__widgets-12']);
  const problems = s.problems.map((p) => `${path.relative(dir, p.file)}:${p.line ?? ''} ${p.severity} ${p.message}`);
  assert.ok(problems.includes('acme__pyutils-15/tests.json: error FAIL_TO_PASS must be a list of test names; the task is skipped'), problems.join('\n'));
  assert.ok(problems.includes('bad-yaml/task.yaml:3 error the key "repo" is defined twice; the task is skipped'), problems.join('\n'));
  assert.ok(problems.some((p) => /^renamed:.* warning .*folder is named renamed but task\.yaml says instance_id acme__widgets-12/.test(p)), problems.join('\n'));

  const empty = tmpDir();
  const none = await importJson('--task-dirs', empty);
  assert.equal(none.code, 1);
  assert.match(none.s.problems[0]?.message ?? '', /no task folder here \(a folder holding task\.yaml and tests\.json\)/);
});

test('a folder whose runs cannot be graded as SWE-bench grades them is an error, as a row is, unless --test-cmd is given', async () => {
  const dir = tmpDir();
  fs.cpSync(path.join(FX, 'tasks'), dir, { recursive: true });
  const yaml = (id: string) => path.join(dir, id, 'task.yaml');
  fs.writeFileSync(yaml('acme__widgets-12'), fs.readFileSync(yaml('acme__widgets-12'), 'utf8').replace('log_parser: parse_log_jest', 'log_parser: parse_log_calypso'));
  fs.writeFileSync(yaml('acme__pyutils-15'), fs.readFileSync(yaml('acme__pyutils-15'), 'utf8').replace('eval_type: pass_and_fail', 'eval_type: fail_only'));
  const { code, s } = await importJson('--task-dirs', dir);
  assert.equal(code, 1);
  assert.deepEqual(s.tasks, []);
  const errors = s.problems.filter((p) => p.severity === 'error').map((p) => `${path.relative(dir, p.file)} ${p.message}`);
  assert.ok(errors.some((e) => /^acme__widgets-12\/task\.yaml .*log_parser parse_log_calypso is not one SpecWeave reads.*give --test-cmd$/.test(e)), errors.join('\n'));
  assert.ok(errors.some((e) => /^acme__pyutils-15\/task\.yaml .*fail-only.*give --test-cmd$/.test(e)), errors.join('\n'));
  const given = await importJson('--task-dirs', dir, '--test-cmd', 'pytest -rA {tests}');
  assert.equal(given.code, 0, JSON.stringify(given.s.problems));
  assert.deepEqual(given.s.tasks.map((t) => [t.id, t.verifier.from]), [['acme__pyutils-15', 'option'], ['acme__widgets-12', 'option']]);
});

test('eval.sh without a recognisable test-patch step is not rewritten', () => {
  assert.equal(evalScriptWithoutTestPatch('#!/bin/bash\npytest -rA\n', 'abc'), undefined);
  assert.equal(evalScriptWithoutTestPatch("git apply -v - <<'EOF_1'\nnever closed\n", 'abc'), undefined);
  assert.deepEqual(evalScriptWithoutTestPatch("cd /testbed\ngit checkout abc t.py\ngit apply - <<'EOF_1'\ndiff\nEOF_1\npytest t.py\ngit checkout abc t.py\n", 'abc'), {
    command: 'cd /testbed\npytest t.py\n',
    removed: 5,
  });
});
