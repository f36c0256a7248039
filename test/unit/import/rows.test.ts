// The benchmarks' own row shapes (issue 10, items 3-6 and 9): each fixture under test/fixtures/import/rows mirrors
// a public file (its README names which). What a curator would see: the tasks, their tests, request text, verifier
// command and parser, image, workdir and provenance; and, where no test command is known, an error for that row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importSwebench } from '../../../src/app/importSwebench';
import type { ImportDeps, ImportOptions } from '../../../src/app/importSwebench';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import { listTrajectoryInstances } from '../../../src/adapters/fs/trajectoryReader';
import type { CandidateTask, Problem } from '../../../src/core/model';
import { tmpDir } from '../helpers/tmp';

const FX = path.resolve(__dirname, '../../fixtures/import/rows');
const deps: ImportDeps = { listTrajectoryInstances: (p) => listTrajectoryInstances(p) };

async function run(opts: Omit<ImportOptions, 'out'>) {
  const out = path.join(tmpDir(), 'out');
  const summary = await importSwebench({ ...opts, out }, deps);
  const dataset = loadDataset(out, { deep: true });
  const read = (rel: string) => fs.readFileSync(path.join(out, rel), 'utf8');
  return { out, summary, dataset, read };
}

function task(tasks: CandidateTask[], id: string): CandidateTask {
  const t = tasks.find((x) => x.id === id);
  assert.ok(t, `task ${id} (have ${tasks.map((x) => x.id).join(', ')})`);
  return t;
}

const tests = (t: CandidateTask) => t.tests.map((x) => [x.name, x.kind]);
const errors = (s: { problems: Problem[] }) => s.problems.filter((p) => p.severity === 'error');

test('SWE-bench Multilingual v5 rows: the eval script between its markers is the command, log_parser picks the parser', async () => {
  const file = path.join(FX, 'swe-bench-multilingual/v5-rows.jsonl');
  const { summary, dataset } = await run({ instances: [file] });
  const caddy = task(dataset.tasks, 'caddyserver__caddy-6411');
  assert.deepEqual(caddy.verifier, { command: 'go test -v . -run "TestReplacerNew*"', parser: 'gotest' });
  assert.equal(caddy.environment.image, 'swebench/sweb.eval.x86_64.caddyserver_1776_caddy-6411:latest');
  assert.deepEqual(tests(caddy), [['TestReplacerNew', 'fail_to_pass'], ['TestReplacer', 'pass_to_pass'], ['TestReplacerSet', 'pass_to_pass']]);
  assert.deepEqual(task(dataset.tasks, 'google__gson-2158').verifier, {
    command:
      'mvnd test -B -T 1C -pl gson -Dtest=com.google.gson.functional.PrimitiveTest#testByteSerialization\n' +
      'mvnd test -B -T 1C -pl gson -Dtest=com.google.gson.functional.PrimitiveTest#testShortSerialization',
    parser: 'maven',
  });
  // Build steps between the test patch and the start marker run first.
  assert.deepEqual(task(dataset.tasks, 'babel__babel-14532').verifier, { command: 'make build-no-bundle\nyarn jest babel-generator --verbose', parser: 'jest' });
  assert.deepEqual(task(dataset.tasks, 'BurntSushi__ripgrep-2209').verifier, { command: 'cargo test --test integration -- feature::', parser: 'cargo' });
  assert.equal(summary.tasks.find((t) => t.id === 'caddyserver__caddy-6411')?.verifier.from, 'row');
  // jq's parser is one this project does not have: an error for that row, never a pytest verifier.
  assert.equal(dataset.tasks.some((t) => t.id === 'jqlang__jq-2840'), false);
  const e = errors(summary);
  assert.equal(e.length, 1, JSON.stringify(e));
  assert.deepEqual([e[0]?.file, e[0]?.line], [file, 5]);
  assert.match(e[0]?.message ?? '', /jqlang__jq-2840: no test command known for this task.*parse_log_jq.*give --test-cmd/);
  assert.ok(dataset.tasks.every((t) => !t.verifier.command.includes('pytest')));
});

test('a Go row without a command of its own (SWE-bench Multilingual v4) is refused, not given pytest; --test-cmd picks its parser', async () => {
  const file = path.join(FX, 'swe-bench-multilingual/v4-rows.jsonl');
  const a = await run({ instances: [file] });
  assert.deepEqual(a.dataset.tasks.map((t) => t.id), []);
  const e = errors(a.summary);
  assert.deepEqual([e[0]?.file, e[0]?.line], [file, 1]);
  assert.match(e[0]?.message ?? '', /caddyserver__caddy-6411: no test command known for this task \(a go task: .*replacer_test\.go.*\); give --test-cmd/);
  const b = await run({ instances: [file], testCmd: 'go test -v ./...' });
  assert.deepEqual(task(b.dataset.tasks, 'caddyserver__caddy-6411').verifier, { command: 'go test -v ./...', parser: 'gotest' });
  assert.deepEqual(errors(b.summary), []);
});

test('SWE-bench Pro rows: lower-case test lists in Python repr or JSON, Requirements and interfaces in the request, image, /app', async () => {
  const file = path.join(FX, 'swe-bench-pro/rows.jsonl');
  const { summary, dataset, read } = await run({ instances: [file] });
  const qb = task(dataset.tasks, `instance_qutebrowser__qutebrowser-${'1'.repeat(40)}-v${'2'.repeat(40)}`);
  assert.deepEqual(tests(qb), [
    ['tests/unit/utils/test_urlutils.py::test_fuzzy_url_empty', 'fail_to_pass'],
    ['tests/unit/utils/test_urlutils.py::test_fuzzy_url[a b]', 'fail_to_pass'],
    ['tests/unit/utils/test_urlutils.py::test_fuzzy_url_ok', 'pass_to_pass'],
  ]);
  assert.equal(
    read(qb.files.request),
    '## Title: fuzzy_url accepts an empty string\n\nIt should raise.\n\nRequirements:\n- `fuzzy_url("")` must raise `InvalidUrlError`.\n\n' +
      'New interfaces introduced:\nNo new interfaces are introduced.\n',
  );
  assert.equal(qb.environment.image, `jefzda/sweap-images:qutebrowser.qutebrowser-qutebrowser__qutebrowser-${'1'.repeat(40)}-v${'2'.repeat(20)}`);
  assert.equal(qb.environment.workdir, '/app');
  assert.deepEqual(qb.verifier, { command: 'pytest -rA tests/unit/utils/test_urlutils.py', parser: 'pytest' });
  assert.equal((qb.source as Record<string, unknown>).before_repo_set_cmd !== undefined, true);
  assert.ok(qb.notes.some((n) => /run_script/.test(n)), qb.notes.join('\n'));

  const flipt = task(dataset.tasks, `instance_flipt-io__flipt-${'4'.repeat(40)}`);
  assert.equal(flipt.verifier.parser, 'gotest');
  assert.match(flipt.verifier.command, /run_all_tests\(\)/);
  assert.match(flipt.verifier.command, /\nbash \S+ TestEvaluate,TestList,TestGet$/);
  assert.match(read(flipt.files.request), /^Evaluation swallows errors\n\nNew interfaces introduced:\n- Path: `internal\/server\/evaluator.go`/);
  assert.match(String((flipt.source as Record<string, unknown>).parser_script), /def main\(stdout_path/);
  assert.ok(flipt.notes.some((n) => /parser_script.*not run/.test(n)), flipt.notes.join('\n'));

  // A JavaScript row without its run script: no command is known.
  assert.equal(dataset.tasks.length, 2);
  const e = errors(summary);
  assert.equal(e.length, 1, JSON.stringify(e));
  assert.deepEqual([e[0]?.file, e[0]?.line], [file, 3]);
  assert.match(e[0]?.message ?? '', /no test command known for this task.*run_script.*give --test-cmd/);
});

test('Multi-SWE-bench rows map org/repo, base.sha, fix_patch and the test maps; a row that yields an empty task is an error', async () => {
  const file = path.join(FX, 'multi-swe-bench/go_dataset.jsonl');
  const { summary, dataset, read } = await run({ instances: [file], predictions: [path.join(FX, 'multi-swe-bench/predictions.jsonl')] });
  const gin = task(dataset.tasks, 'gin-gonic__gin-4003');
  assert.deepEqual(gin.repo, { name: 'gin-gonic/gin', kind: 'image', baseCommit: '8'.repeat(40) });
  assert.deepEqual(tests(gin), [['TestMappingDefault', 'fail_to_pass'], ['TestMappingSkip', 'fail_to_pass'], ['TestMappingBase', 'pass_to_pass']]);
  assert.match(read(gin.files.request), /^Default ignored for \[\]int\n\nSteps to reproduce:\n1\. bind a form\n/);
  assert.match(read(gin.files.goldPatch as string), /\+\treturn setDefault\(\)/);
  assert.match(read(gin.files.testPatch), /TestMappingDefault/);
  assert.deepEqual(gin.verifier, { command: 'bash /home/run.sh', parser: 'gotest' });
  assert.equal(gin.environment.workdir, '/home/gin');
  assert.equal(gin.environment.image, 'mswebench/gin-gonic_m_gin:pr-4003');
  const gson = task(dataset.tasks, 'google__gson-2479');
  assert.deepEqual(gson.verifier, { command: 'bash /home/run.sh', parser: 'maven' });
  assert.deepEqual(tests(gson), [['com.google.gson.functional.Java17RecordTest', 'fail_to_pass'], ['com.google.gson.functional.PrimitiveTest', 'pass_to_pass']]);
  // Predictions {org, repo, number, fix_patch} find their rows by {org}__{repo}-{number}; "number" may be a string.
  assert.equal(gin.attempts.length, 1);
  assert.match(read(gin.attempts[0]?.patchFile as string), /setDefault\(v\)/);
  assert.equal(gson.attempts.length, 1);
  const e = errors(summary);
  assert.equal(e.length, 1, JSON.stringify(e));
  assert.deepEqual([e[0]?.file, e[0]?.line], [file, 3]);
  assert.match(e[0]?.message ?? '', /octo__empty-7: the row yields an empty task/);
  assert.equal(dataset.tasks.length, 2);
});

test('SWE-bench-Live rows: test_cmds with rebuild and print commands, PR_Title and hints, log_parser kept but not run', async () => {
  const { summary, dataset, read } = await run({ instances: [path.join(FX, 'swe-bench-live/rows.jsonl')] });
  const go = task(dataset.tasks, 'octo__lib-1201');
  assert.deepEqual(go.verifier, { command: 'go build ./...\ngo test -v ./... 2>&1 | tee /tmp/t.log\ncat /tmp/t.log', parser: 'gotest' });
  assert.equal(go.environment.image, 'starryzhang/sweb.eval.x86_64.octo_1776_lib-1201');
  assert.match(String((go.source as Record<string, unknown>).log_parser), /^def parser\(log: str\)/);
  assert.ok(go.notes.some((n) => /log_parser.*not run/.test(n)), go.notes.join('\n'));
  const py = task(dataset.tasks, 'octo__pylib-88');
  assert.equal(py.title, 'Fix x when y is empty');
  assert.equal(read(py.files.request), 'Fix x when y is empty\n\n## Hints\n\nThe bug is in core.py\n');
  assert.deepEqual(py.verifier, { command: 'pytest -rA tests/test_core.py', parser: 'pytest' });
  assert.deepEqual(errors(summary), []);
});

for (const name of ['rows.utf16le-bom.jsonl', 'test.csv']) {
  test(`SWE-PolyBench ${name}: F2P/P2P in Python repr, test_command, the Dockerfile's WORKDIR; a mocha row is refused`, async () => {
    const file = path.join(FX, 'swe-polybench', name);
    const { summary, dataset, read } = await run({ instances: [file] });
    const gson = task(dataset.tasks, 'google__gson-2337');
    assert.deepEqual(tests(gson), [['com.google.gson.FooTest.testBar', 'fail_to_pass'], ['com.google.gson.FooTest.testKeep', 'pass_to_pass']]);
    assert.deepEqual(gson.verifier, { command: 'mvn test -B -Dtest=FooTest; cat gson/target/surefire-reports/*.xml', parser: 'maven' });
    assert.equal(gson.environment.workdir, '/repo');
    assert.equal(read(gson.files.request), 'Gson fails on "quoted" keys,\nsometimes\n');
    const ts = task(dataset.tasks, 'coder__code-server-6225');
    assert.deepEqual(ts.verifier, { command: 'yarn test:unit --verbose test/unit/node/cli.test.ts', parser: 'jest' });
    assert.equal(ts.environment.workdir, '/code-server');
    const e = errors(summary);
    assert.equal(e.length, 1, JSON.stringify(e));
    assert.deepEqual([e[0]?.file, e[0]?.line], [file, name.endsWith('.csv') ? 34 : 3]);
    assert.match(e[0]?.message ?? '', /serverless__serverless-100: no test command known for this task.*mocha.*give --test-cmd/);
  });
}

test('R2E-Gym rows: repo_name, the base commit and gold change inside parsed_commit_content, tests from expected_output_json', async () => {
  const { summary, dataset, read } = await run({ instances: [path.join(FX, 'r2e-gym/rows.jsonl')] });
  const t = task(dataset.tasks, `pandas_${'5'.repeat(40)}`);
  assert.deepEqual(t.repo, { name: 'pandas-dev/pandas', kind: 'image', baseCommit: '4'.repeat(40) });
  assert.equal(t.environment.image, `namanjain12/pandas_final:${'5'.repeat(40)}`);
  // Names as the image's pytest run reports them; fail-to-pass as the run before the fix (in the row) shows.
  assert.deepEqual(tests(t), [['r2e_tests/test_1.py::TestX::test_empty', 'fail_to_pass'], ['r2e_tests/test_1.py::TestX::test_basic', 'pass_to_pass']]);
  assert.deepEqual(t.verifier, { command: 'bash run_tests.sh', parser: 'pytest' });
  assert.equal(
    read(t.files.goldPatch as string),
    'diff --git a/pandas/core/x.py b/pandas/core/x.py\nindex ab12cd3..ef45ab6 100644\n--- a/pandas/core/x.py\n+++ b/pandas/core/x.py\n' +
      '@@ -30,3 +30,5 @@ def f(s):\n def f(s):\n-    return s[0]\n+    if len(s) == 0:\n+        return None\n+    return s[0]\n \n',
  );
  assert.equal(read(t.files.testPatch), '');
  assert.match(read(t.files.request), /^`f` raises IndexError on an empty Series/);
  assert.deepEqual(errors(summary), []);
});

test('SWE-rebench: FAIL_TO_FAIL kept and noted, log_parser honoured, V2 test_cmd lists and workdirs; an unknown parser is refused', async () => {
  const v1 = await run({ instances: [path.join(FX, 'swe-rebench/v1-rows.jsonl')] });
  const a = task(v1.dataset.tasks, 'octo__lib-12');
  assert.deepEqual(a.verifier, { command: 'pytest --no-header -rA --tb=line --color=no -p no:cacheprovider -W ignore::DeprecationWarning tests/test_core.py', parser: 'pytest' });
  assert.deepEqual((a.source as Record<string, unknown>).FAIL_TO_FAIL, ['tests/test_core.py::test_flaky']);
  assert.ok(a.notes.some((n) => /FAIL_TO_FAIL/.test(n)), a.notes.join('\n'));
  assert.equal(a.environment.image, 'swerebench/sweb.eval.x86_64.octo_1776_lib-12');

  const file = path.join(FX, 'swe-rebench/v2-rows.jsonl');
  const v2 = await run({ instances: [file] });
  const go = task(v2.dataset.tasks, 'octo__gokit-77');
  assert.deepEqual(go.verifier, { command: 'go build ./...\ngo test -v ./...', parser: 'gotest' });
  assert.equal(go.environment.workdir, '/gokit');
  assert.equal(go.environment.image, 'docker.io/swerebenchv2/octo-gokit:77-8888888');
  assert.equal(v2.read(go.files.request), 'Fix Kit\n');
  const e = errors(v2.summary);
  assert.equal(e.length, 1, JSON.stringify(e));
  assert.deepEqual([e[0]?.file, e[0]?.line], [file, 1]);
  assert.match(e[0]?.message ?? '', /octo__netlib-1925: no test command known for this task.*parse_log_jq/);
});

test('SWE-Gym image names: the {swegym_id} placeholder', async () => {
  const { dataset } = await run({ instances: [path.join(FX, 'swe-gym/rows.jsonl')], image: 'xingyaoww/sweb.eval.x86_64.{swegym_id}:latest' });
  assert.equal(task(dataset.tasks, 'Project-MONAI__MONAI-1121').environment.image, 'xingyaoww/sweb.eval.x86_64.project-monai_s_monai-1121:latest');
});

test('Scale-SWE rows: owner in user, parent_commit, image_url and workdir; f2p_script joins the test patch; pytest over the listed files', async () => {
  const { summary, dataset, read } = await run({ instances: [path.join(FX, 'scale-swe/rows.jsonl')] });
  const t = task(dataset.tasks, 'octo_toolkit_pr412');
  assert.deepEqual(t.repo, { name: 'octo/toolkit', kind: 'image', baseCommit: 'b'.repeat(40) });
  assert.equal(t.environment.image, 'registry.example/scale-swe/octo_toolkit_pr412:latest');
  assert.equal(t.environment.workdir, '/workspace/toolkit');
  const tp = read(t.files.testPatch);
  assert.match(tp, /^diff --git a\/tests\/test_io.py b\/tests\/test_io.py\n/);
  assert.match(tp, /diff --git a\/test_fail_to_pass.py b\/test_fail_to_pass.py\nnew file mode 100644\n--- \/dev\/null\n\+\+\+ b\/test_fail_to_pass.py\n@@ -0,0 \+1,4 @@\n\+import toolkit\n/);
  assert.deepEqual(t.verifier, { command: 'pytest -rA test_fail_to_pass.py tests/test_io.py tests/test_cli.py', parser: 'pytest' });
  assert.ok(t.notes.some((n) => /pre_commands/.test(n)), t.notes.join('\n'));
  assert.deepEqual(errors(summary), []);
});

test('from a terminal: a refused row makes exit 1 and one inert line naming file and line, hostile bytes escaped', async () => {
  const { importCommand } = await import('../../../src/cli/import');
  const dir = tmpDir();
  const rows = path.join(dir, 'rows.jsonl');
  const good = fs.readFileSync(path.join(FX, 'swe-bench-multilingual/v5-rows.jsonl'), 'utf8').split('\n')[0] as string;
  const hostile = { ...JSON.parse(good), instance_id: 'evil__x-1', log_parser: 'parse_log_\x1b[2J\x1b]0;pwned\x07x' };
  fs.writeFileSync(rows, `${good}\n${JSON.stringify(hostile)}\n`);
  const out: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => out.push(String(chunk)) > 0) as typeof process.stdout.write;
  let code: number;
  try {
    code = await importCommand.run(['swebench', '--instances', rows, '--out', path.join(dir, 'out')]);
  } finally {
    process.stdout.write = write;
  }
  const text = out.join('');
  assert.equal(code, 1);
  assert.match(text, /Imported 1 task\(s\)/);
  const line = text.split('\n').find((l) => l.includes('evil__x-1: no test command known'));
  assert.ok(line, text);
  assert.ok(line.includes(`${rows}:2`), line);
  assert.ok(![...text].some((c) => (c < ' ' && c !== '\n') || c === '\x7f'), 'no control byte reaches the terminal');
});
