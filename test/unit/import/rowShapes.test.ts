// The row readers on hostile and broken input: CSV that does not close, UTF-16 without a BOM, R2E-Gym commits that
// are not commits, Multi-SWE-bench maps that are not maps, a run script holding the here-document's delimiter, an
// eval script without markers. Each bad row is an error naming file, line and field; the other rows still import.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readCsv } from '../../../src/core/import/csv';
import { parseInstances } from '../../../src/core/import/instances';
import { decodeText } from '../../../src/core/import/records';
import { evalScriptTestCommand, newFileDiff } from '../../../src/core/import/rowShapes';
import { chooseVerifier, languageOfFiles, parserForName, parserOfCommand } from '../../../src/core/import/testCommand';
import { buildTask } from '../../../src/core/import/toTask';
import { parsePatch } from '../../../src/core/patch';

test('CSV: quoted fields with commas, line breaks and doubled quotes; a bad row is an error with its line, the rest are read', () => {
  const text = [
    'instance_id,repo,F2P',
    'a__b-1,a/b,"[\'x\', ""y""]"',
    'a__b-2,a/b,"one',
    'two, three"',
    'a__b-3,a/b,"unterminated',
    'a__b-4,a/b,[]',
  ].join('\r\n');
  const r = readCsv(text, 't.csv');
  assert.deepEqual(r.header, ['instance_id', 'repo', 'F2P']);
  assert.deepEqual(r.records.map((x) => [x.line, x.value.F2P]), [[2, "['x', \"y\"]"], [3, 'one\r\ntwo, three']]);
  assert.equal(r.problems.length, 1);
  assert.deepEqual([r.problems[0]?.line, r.problems[0]?.severity], [5, 'error']);
  assert.match(r.problems[0]?.message ?? '', /quoted field opened on line 5 never ends/);
  const stray = readCsv('instance_id,repo\na"b,c\nd,e,f\ng,h\n', 's.csv');
  assert.deepEqual(stray.records.map((x) => x.value.instance_id), ['g']);
  assert.deepEqual(stray.problems.map((p) => [p.line, /quote inside an unquoted field|2 field\(s\)|3 field\(s\)/.test(p.message)]), [[2, true], [3, true]]);
});

test('UTF-16 rows: LE and BE with a BOM, LE without one; UTF-8 is left as it is', () => {
  const row = '{"instance_id":"o__r-1","repo":"o/r","problem_statement":"é ✓","FAIL_TO_PASS":["t"],"PASS_TO_PASS":[]}\n';
  const le = Buffer.from(row, 'utf16le');
  const be = Buffer.from(le).swap16();
  for (const [bytes, enc] of [
    [Buffer.concat([Buffer.from([0xff, 0xfe]), le]), 'utf-16le'],
    [Buffer.concat([Buffer.from([0xfe, 0xff]), be]), 'utf-16be'],
    [le, 'utf-16le'],
  ] as const) {
    const r = parseInstances(bytes, 'rows.jsonl');
    assert.equal(r.encoding, enc);
    assert.deepEqual(r.rows.map((x) => [x.instanceId, x.problemStatement]), [['o__r-1', 'é ✓']]);
  }
  assert.equal(decodeText(Buffer.from(row, 'utf8')).encoding, undefined);
});

const line = (o: Record<string, unknown>) => JSON.stringify(o);

test('R2E-Gym: a parsed_commit_content that is not JSON or not a commit is an error naming the field; the row is skipped', () => {
  const base = { repo_name: 'pandas', commit_hash: 'c'.repeat(40), problem_statement: 'p', expected_output_json: '{"T.t": "PASSED"}', docker_image: 'i' };
  const r = parseInstances(
    [
      line({ ...base, parsed_commit_content: '{"file_diffs": [' }),
      line({ ...base, parsed_commit_content: JSON.stringify({ file_diffs: [{ header: {} }], old_commit_hash: 'a'.repeat(40) }) }),
      line({ ...base, parsed_commit_content: JSON.stringify({ file_diffs: [], old_commit_hash: 'a'.repeat(40) }), expected_output_json: '["T.t"]' }),
      line({ ...base, parsed_commit_content: JSON.stringify({ file_diffs: [], old_commit_hash: 'a'.repeat(40) }) }),
    ].join('\n'),
    'r2e.jsonl',
  );
  assert.deepEqual(r.rows.map((x) => [x.line, x.instanceId, x.baseCommit]), [[4, `pandas_${'c'.repeat(40)}`, 'a'.repeat(40)]]);
  const errors = r.problems.filter((p) => p.severity === 'error');
  assert.deepEqual(errors.map((p) => [p.line, p.field]), [[1, 'parsed_commit_content'], [1, 'parsed_commit_content'], [2, 'parsed_commit_content'], [3, 'expected_output_json']]);
  assert.match(errors[2]?.message ?? '', /file_diffs\[0\] has no header.file.path/);
  // No run before the fix recorded: every test is fail-to-pass, and a note says so.
  assert.deepEqual(r.rows[0]?.failToPass, ['T.t']);
  assert.ok(r.rows[0]?.notes?.some((n) => /records no run before the fix/.test(n)));
});

test('Multi-SWE-bench: test maps that are not maps are an error; the id is made of org, repo and number', () => {
  const r = parseInstances(
    [
      line({ org: 'o', repo: 'r', number: 1, base: { sha: 'a'.repeat(40) }, fix_patch: 'x', f2p_tests: ['TestA'], p2p_tests: {} }),
      line({ org: 'o', repo: 'r', number: 2, base: { sha: 'a'.repeat(40) }, fix_patch: 'x', title: 'T', f2p_tests: { TestA: {} }, p2p_tests: {} }),
    ].join('\n'),
    'm.jsonl',
  );
  assert.deepEqual(r.rows.map((x) => [x.instanceId, x.repo, x.failToPass, x.problemStatement]), [['o__r-2', 'o/r', ['TestA'], 'T']]);
  assert.deepEqual(r.problems.filter((p) => p.severity === 'error').map((p) => [p.line, p.field]), [[1, 'f2p_tests']]);
  assert.match(r.problems[0]?.message ?? '', /^o__r-1: f2p_tests must be an object keyed by test name/);
});

test("SWE-bench Pro: a run script holding the here-document's delimiter gets another; hostile test ids stay data", () => {
  const row = {
    instance_id: 'instance_o__r-1', repo: 'o/r', base_commit: 'a'.repeat(40), problem_statement: 'p', repo_language: 'go',
    fail_to_pass: "['TestA; rm -rf /', 'TestB']", pass_to_pass: '[]', selected_test_files_to_run: "['TestA; rm -rf /', 'TestB']",
    run_script: 'echo one\nSPECWEAVE_RUN_SCRIPT\necho two\ngo test -v ./...\n', dockerhub_tag: 't',
  };
  const [r] = parseInstances(line(row), 'pro.jsonl').rows;
  assert.ok(r);
  const built = buildTask({ row: r, repo: { name: 'o/r', inImage: true } });
  assert.ok(!('error' in built), JSON.stringify(built));
  const cmd = built.task.verifier.command;
  assert.match(cmd, /<<'SPECWEAVE_RUN_SCRIPT_2'\necho one\nSPECWEAVE_RUN_SCRIPT\necho two\ngo test -v \.\/\.\.\.\nSPECWEAVE_RUN_SCRIPT_2\n/);
  assert.match(cmd, /\nbash \/tmp\/specweave-run_script\.sh 'TestA; rm -rf \/,TestB'$/, 'the selected tests are one quoted argument');
  assert.equal(built.task.verifier.parser, 'gotest');
});

test('eval scripts: build steps after the here-document, then the marked commands; without markers no command is taken', () => {
  const script = [
    '#!/bin/bash', 'set -uxo pipefail', 'cd /testbed', "git apply -v - <<'EOF_1'", 'diff --git a/x b/x', ": '>>>>> Start Test Output'", 'EOF_1',
    'make -j4', ": '>>>>> Start Test Output'", 'make check', ": '>>>>> End Test Output'", 'git checkout abc x',
  ].join('\n');
  assert.equal(evalScriptTestCommand(script), 'make -j4\nmake check', 'a marker inside the test patch does not count');
  assert.equal(evalScriptTestCommand('#!/bin/bash\ngo test ./...\n'), undefined);
  const rows = parseInstances(
    line({ instance_id: 'o__r-1', repo: 'o/r', base_commit: 'a'.repeat(40), problem_statement: 'p', eval_script: '#!/bin/bash\ngo test ./...\n', log_parser: 'parse_log_gotest', test_patch: 'diff --git a/a_test.go b/a_test.go\n--- a/a_test.go\n+++ b/a_test.go\n@@ -1 +1 @@\n-a\n+b\n', FAIL_TO_PASS: ['TestA'], PASS_TO_PASS: [] }),
    'v5.jsonl',
  ).rows;
  const built = buildTask({ row: rows[0] as NonNullable<(typeof rows)[0]>, repo: { name: 'o/r', inImage: true } });
  assert.ok('error' in built);
  assert.match(built.error, /^no test command known for this task \(a go task: its test patch changes a_test\.go, and the row carries no test command\); give --test-cmd$/);
});

test("SWE-bench's fail-only rows (a test the output does not name counts as passed) are refused, not graded as missing", () => {
  const [row] = parseInstances(
    line({ instance_id: 'chartjs__Chart.js-1', repo: 'chartjs/Chart.js', base_commit: 'a'.repeat(40), problem_statement: 'p', eval_type: 'fail_only', log_parser: 'parse_log_jest',
      eval_script: ": '>>>>> Start Test Output'\nnpx jest --verbose\n: '>>>>> End Test Output'\n", FAIL_TO_PASS: ['draws'], PASS_TO_PASS: [] }),
    'v5.jsonl',
  ).rows;
  const built = buildTask({ row: row as NonNullable<typeof row>, repo: { name: 'chartjs/Chart.js', inImage: true } });
  assert.ok('error' in built);
  assert.match(built.error, /fail-only/);
});

test('parsers by name, by command and by language; --test-cmd on a task whose runner is unknown is graded by exit code, with a note', () => {
  assert.deepEqual(parserForName('parse_log_pytest_v2'), { parser: 'pytest' });
  assert.deepEqual(parserForName('parse_log_vitest'), { parser: 'jest' });
  assert.deepEqual(parserForName('parse_log_redis'), { unknown: 'parse_log_redis' });
  assert.equal(parserForName('def parser(log):\n    return {}'), undefined);
  assert.equal(parserOfCommand('cd /app && ./gradlew test --tests X'), 'gradle');
  assert.equal(parserOfCommand('mvn -B test'), 'maven');
  assert.equal(parserOfCommand('npm test'), undefined);
  assert.deepEqual(languageOfFiles(['src/a_test.go', 'testdata/x.json']), { language: 'go', file: 'src/a_test.go' });
  assert.deepEqual(languageOfFiles(['web/x.js', 'tests/test_x.py']), { language: 'python', file: 'tests/test_x.py' });
  assert.equal(languageOfFiles(['docs/x.rst']), undefined);
  const c = chooseVerifier({ repo: 'o/r', language: 'c', override: 'make check' });
  assert.ok(!('error' in c));
  assert.equal(c.parser, 'exitcode');
  assert.match(c.notes.join(' '), /No parser is known for the output of --test-cmd on this c task/);
});

test('a new file as a diff: lines, a missing final newline, CRLF written as LF', () => {
  const d = newFileDiff('t.py', 'a\r\nb');
  assert.equal(d, 'diff --git a/t.py b/t.py\nnew file mode 100644\n--- /dev/null\n+++ b/t.py\n@@ -0,0 +1,2 @@\n+a\n+b\n\\ No newline at end of file\n');
  const p = parsePatch(newFileDiff('t.py', 'x\ny\n'), 't.patch');
  assert.deepEqual([p.files.length, p.files[0]?.status], [1, 'added']);
});
