// Per-test statuses from the non-Python runners the benchmarks' rows name (issue 10, item 3): go test, cargo test,
// Maven/Surefire (text and printed XML), Gradle, Ant, Jest and Vitest; the log lines are those the benchmark
// harnesses grade (SWE-bench's log_parsers, Multi-SWE-bench's repo parsers, SWE-PolyBench's JavaGenericParser).
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestCase } from '../../../src/core/model';
import { judgeRun } from '../../../src/core/verify/judge';
import type { ExecutionOutcome } from '../../../src/core/verify/judge';
import { parseCargoTest } from '../../../src/core/verify/parseCargo';
import { parseGoTest } from '../../../src/core/verify/parseGo';
import { parseJest } from '../../../src/core/verify/parseJest';
import { parseJvmTests } from '../../../src/core/verify/parseMaven';
import { parseTestText } from '../../../src/core/verify/testOutput';

const GO_LOG = [
  "+ go test -v . -run 'TestReplacer*'",
  '=== RUN   TestReplacerNew',
  '=== RUN   TestReplacerNew/empty',
  '--- PASS: TestReplacerNew (0.00s)',
  '    --- PASS: TestReplacerNew/empty (0.00s)',
  '=== RUN   TestReplacerSet',
  '    replacer_test.go:40: got "a", want "b"',
  '--- FAIL: TestReplacerSet (0.01s)',
  '=== RUN   TestReplacerSlow',
  '--- SKIP: TestReplacerSlow (0.00s)',
  'FAIL',
  'FAIL\tgithub.com/caddyserver/caddy/v2\t0.021s',
].join('\n');

test('go test -v: results by full name (subtests too), the package line, SKIP', () => {
  assert.deepEqual(parseGoTest(GO_LOG), {
    TestReplacerNew: 'PASSED',
    'TestReplacerNew/empty': 'PASSED',
    TestReplacerSet: 'FAILED',
    TestReplacerSlow: 'SKIPPED',
    'github.com/caddyserver/caddy/v2': 'FAILED',
  });
  // A package that did not build is a failure (its tests never report), as Multi-SWE-bench counts it.
  assert.deepEqual(parseGoTest('# github.com/o/p\n./p.go:3:1: syntax error\nFAIL\tgithub.com/o/p [build failed]\nok  \tgithub.com/o/q\t(cached)\n'), {
    'github.com/o/p': 'FAILED',
    'github.com/o/q': 'PASSED',
  });
});

test('go test: a result for a test that never started is not trusted; a test stopped by a panic is a failure; a cut log is unclosed', () => {
  const forged = parseTestText('gotest', '=== RUN   TestA\n--- PASS: TestA (0.00s)\n--- PASS: TestForged (0.00s)\nPASS\nok  \tp\t0.1s\n');
  assert.match(forged.countMismatch ?? '', /never started.*TestForged/);
  const panic = parseTestText('gotest', '=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\npanic: runtime error: index out of range\nFAIL\tp\t0.01s\n');
  assert.deepEqual(panic.tests, { TestA: 'PASSED', TestB: 'FAILED', p: 'FAILED' });
  assert.match(panic.note ?? '', /1 test\(s\) started in a failed package but printed no result/);
  const cut = parseTestText('gotest', '=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n');
  assert.match(cut.unclosed ?? '', /started.*output ends/);
  // Without -v no test announces itself: nothing to check against, the lines are read as they are.
  assert.equal(parseTestText('gotest', '--- FAIL: TestA (0.00s)\nFAIL\nFAIL\tp\t0.1s\n').countMismatch, undefined);
});

const CARGO_LOG = [
  '+ cargo test --test integration',
  'running 3 tests',
  'test regression::r1163 ... ok',
  'test feature::f1404_nothing_searched_warning ... FAILED',
  'test misc::slow_case ... ignored',
  'failures:',
  '    feature::f1404_nothing_searched_warning',
  'test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.12s',
  'running 2 tests',
  'test src/lib.rs - Searcher::new (line 10) ... ok',
  'test panics - should panic ... ok',
  'test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s',
].join('\n');

test('cargo test: ok / FAILED / ignored, doc tests by their whole name, `- should panic` dropped', () => {
  assert.deepEqual(parseCargoTest(CARGO_LOG), {
    'regression::r1163': 'PASSED',
    'feature::f1404_nothing_searched_warning': 'FAILED',
    'misc::slow_case': 'SKIPPED',
    'src/lib.rs - Searcher::new (line 10)': 'PASSED',
    panics: 'PASSED',
  });
  const log = parseTestText('cargo', CARGO_LOG);
  assert.equal(log.countMismatch, undefined);
  assert.equal(log.unclosed, undefined);
  // --nocapture: the test's output between its name and its status.
  assert.deepEqual(parseCargoTest('running 1 test\ntest a::b ... hello from the test\nok\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n'), { 'a::b': 'PASSED' });
});

test("cargo test: result lines the binary's own counts disagree with, or a block that never closed, are not trusted", () => {
  const forged = parseTestText('cargo', 'running 1 test\ntest a ... FAILED\ntest a ... ok\ntest b ... ok\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n');
  assert.match(forged.countMismatch ?? '', /reported 0 passed, 1 failed, 0 ignored, but its result lines say 2 passed, 1 failed/);
  assert.equal(forged.tests.a, 'FAILED', 'a failure is not overwritten by a later ok');
  assert.equal(forged.conflictCount, 1);
  const cut = parseTestText('cargo', 'running 2 tests\ntest a ... ok\nerror: test failed, to rerun pass `--lib`\n');
  assert.match(cut.unclosed ?? '', /announced 2 test\(s\) but never printed its "test result:" line/);
});

test('Maven: one mvnd run per test named by -Dtest (interleaved results paired in order); Surefire classes; printed XML reports', () => {
  const perTest = [
    '+ mvnd test -B -T 1C -pl gson -Dtest=com.google.gson.functional.PrimitiveTest#testByteSerialization',
    '[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.041 s -- in com.google.gson.functional.PrimitiveTest',
    '[INFO] BUILD SUCCESS',
    '+ mvnd test -B -T 1C -pl gson -Dtest=com.google.gson.functional.PrimitiveTest#testShortSerialization',
    '+ mvnd test -B -T 1C -pl gson -Dtest=com.google.gson.functional.PrimitiveTest#testIntSerialization',
    '[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.050 s <<< FAILURE! -- in com.google.gson.functional.PrimitiveTest',
    '[INFO] BUILD FAILURE',
    '[INFO] BUILD SUCCESS',
  ].join('\n');
  const t = parseJvmTests(perTest);
  assert.equal(t['com.google.gson.functional.PrimitiveTest#testByteSerialization'], 'PASSED');
  assert.equal(t['com.google.gson.functional.PrimitiveTest#testShortSerialization'], 'FAILED');
  assert.equal(t['com.google.gson.functional.PrimitiveTest#testIntSerialization'], 'PASSED');
  // Older Surefire, as Multi-SWE-bench's gson parser reads it: one status per class.
  const classes = [
    'Running com.google.gson.functional.PrimitiveTest',
    'Tests run: 12, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.08 sec',
    'Running com.google.gson.functional.NamingTest',
    'Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.02 sec <<< FAILURE!',
    'Running com.google.gson.functional.SlowTest',
    'Tests run: 2, Failures: 0, Errors: 0, Skipped: 2, Time elapsed: 0 sec',
    'Results :',
    'Tests run: 17, Failures: 1, Errors: 0, Skipped: 2',
  ].join('\n');
  assert.deepEqual(parseJvmTests(classes), {
    'com.google.gson.functional.PrimitiveTest': 'PASSED',
    'com.google.gson.functional.NamingTest': 'FAILED',
    'com.google.gson.functional.SlowTest': 'SKIPPED',
  });
  const xml = [
    '[INFO] BUILD FAILURE',
    '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:2.22.2:test (default-test) on project gson: There are test failures.',
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuite name="com.google.gson.FooTest" tests="3" errors="0" skipped="1" failures="1">',
    '  <testcase name="testBar" classname="com.google.gson.FooTest" time="0.001"/>',
    '  <testcase name="testKeep" classname="com.google.gson.FooTest" time="0.014">',
    '    <failure message="expected: &lt;0&gt;" type="AssertionFailedError"><![CDATA[<testcase name="forged" classname="x"/>]]></failure>',
    '  </testcase>',
    '  <testcase name="testSkip" classname="com.google.gson.FooTest"><skipped/></testcase>',
    '</testsuite>',
  ].join('\n');
  assert.deepEqual(parseJvmTests(xml), { 'com.google.gson.FooTest.testBar': 'PASSED', 'com.google.gson.FooTest.testKeep': 'FAILED', 'com.google.gson.FooTest.testSkip': 'SKIPPED' });
});

test('Maven: XML reports printed after a build that failed before any test ran are not read (they are left from an earlier build)', () => {
  const log = parseTestText('maven', [
    '[ERROR] COMPILATION ERROR :',
    '[INFO] BUILD FAILURE',
    '<testsuite name="com.x.FooTest" tests="1"><testcase name="testBar" classname="com.x.FooTest"/></testsuite>',
  ].join('\n'));
  assert.deepEqual(log.tests, {});
  assert.match(log.note ?? '', /the build failed before any test ran: the 1 Surefire report\(s\) printed in the log were not read/);
});

test('Gradle lines (a status on its own line too) and Ant lines', () => {
  const gradle = [
    '> Task :lucene:queries:test',
    'org.apache.lucene.queries.intervals.TestIntervalBuilder > testUnordered PASSED',
    'org.apache.lucene.queries.intervals.TestIntervalBuilder > testOrdered FAILED',
    'org.apache.lucene.queries.intervals.TestIntervalBuilder > testSlow SKIPPED',
    'org.apache.lucene.queries.intervals.TestIntervalBuilder > testLate',
    'WARNING: a JVM warning in between',
    'PASSED',
    'BUILD FAILED in 41s',
    '    [junit] [PASS] lombok.TestJavac.testA',
    '    [junit] [ERR] lombok.TestJavac.testB',
  ].join('\n');
  assert.deepEqual(parseJvmTests(gradle), {
    'org.apache.lucene.queries.intervals.TestIntervalBuilder > testUnordered': 'PASSED',
    'org.apache.lucene.queries.intervals.TestIntervalBuilder > testOrdered': 'FAILED',
    'org.apache.lucene.queries.intervals.TestIntervalBuilder > testSlow': 'SKIPPED',
    'org.apache.lucene.queries.intervals.TestIntervalBuilder > testLate': 'PASSED',
    'lombok.TestJavac.testA': 'PASSED',
    'lombok.TestJavac.testB': 'FAILED',
  });
});

test('Jest --verbose by title, Vitest verbose by its full line, jq-transformed jest --json lines', () => {
  const jest = [
    '+ yarn jest babel-generator --verbose',
    'PASS packages/babel-generator/test/index.js',
    '  generation',
    '    ✓ completeness (12 ms)',
    '    ✕ prints arrow functions (3 ms)',
    '    ○ skipped legacy decorators',
    '    ✓ waits 5s (2 ms)',
    'Tests:       1 failed, 1 skipped, 2 passed, 4 total',
  ].join('\n');
  assert.deepEqual(parseJest(jest), { completeness: 'PASSED', 'prints arrow functions': 'FAILED', 'legacy decorators': 'SKIPPED', 'waits 5s': 'PASSED' });
  assert.equal(parseTestText('jest', jest).countMismatch, undefined);
  const vitest = [
    ' ✓ packages/runtime-core/__tests__/hydration.spec.ts > SSR hydration > text 3ms',
    ' × packages/runtime-core/__tests__/hydration.spec.ts > SSR hydration > comment 5ms',
    ' ↓ packages/runtime-core/__tests__/hydration.spec.ts > SSR hydration > later [skipped]',
    '      Tests  1 failed | 1 passed | 1 skipped (3)',
  ].join('\n');
  assert.deepEqual(parseJest(vitest), {
    'packages/runtime-core/__tests__/hydration.spec.ts > SSR hydration > text': 'PASSED',
    'packages/runtime-core/__tests__/hydration.spec.ts > SSR hydration > comment': 'FAILED',
    'packages/runtime-core/__tests__/hydration.spec.ts > SSR hydration > later': 'SKIPPED',
  });
  assert.deepEqual(parseJest('[PASSED] List > push > adds one\n[FAILED] List > pop > removes one\n'), { 'List > push > adds one': 'PASSED', 'List > pop > removes one': 'FAILED' });
  // More passing lines than Jest counted: a test printed some of them.
  assert.match(parseTestText('jest', '✓ a (1 ms)\n✓ b (1 ms)\nTests:       1 passed, 1 total\n').countMismatch ?? '', /2 passed result line\(s\), but the runner counted 1 passed/);
});

const tests = (names: Array<[string, TestCase['kind']]>): TestCase[] => names.map(([name, kind], i) => ({ id: `T${i + 1}`, name, kind, specs: [] }));
const outcome = (stdout: string, exitCode: number): ExecutionOutcome => ({
  apply: { test: { method: 'git-apply' }, attempt: { method: 'git-apply' } },
  exitCode,
  timedOut: false,
  oomKilled: false,
  stdoutText: stdout,
  stderrText: '',
});

test("a run graded with its runner's parser: go test resolves, a failing cargo test fails, forged lines make the run invalid", () => {
  const go = { tests: tests([['TestReplacerNew', 'fail_to_pass'], ['TestReplacerNew/empty', 'pass_to_pass']]), specs: [], verifier: { parser: 'gotest' } };
  const passing = GO_LOG.replace('--- FAIL: TestReplacerSet', '--- PASS: TestReplacerSet').replace(/FAIL\n.*$/, 'PASS\nok  \tgithub.com/caddyserver/caddy/v2\t0.021s');
  const j = judgeRun(go, outcome(passing, 0));
  assert.equal(j.status, 'passed', j.reason);
  assert.equal(j.testsFrom, 'gotest');
  const cargo = { tests: tests([['feature::f1404_nothing_searched_warning', 'fail_to_pass'], ['regression::r1163', 'pass_to_pass']]), specs: [], verifier: { parser: 'cargo' } };
  const f = judgeRun(cargo, outcome(CARGO_LOG, 101));
  assert.equal(f.status, 'failed', f.reason);
  assert.match(f.reason, /FAIL_TO_PASS 0\/1; PASS_TO_PASS 1\/1/);
  const forged = judgeRun(cargo, outcome('running 1 test\ntest feature::f1404_nothing_searched_warning ... ok\ntest regression::r1163 ... ok\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n', 0));
  assert.equal(forged.status, 'invalid');
  assert.match(forged.reason, /disagree with the test runner's own counts/);
});
