// The judge's side of issue 9, item 1 (a): an attempt whose patch touches what grades it is flagged, from the patch
// text alone: test files (the task's, the test patch's, test_*.py / *_test.py / tests/ folders), conftest.py and
// pytest plugins (pytest_plugins, pytest11 entry points, files conftest imports, interpreter start-up hooks), pytest
// configuration (pytest.ini, the test sections of setup.cfg / tox.ini / pyproject.toml), and exiting the test process.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestCase } from '../../../src/core/model';
import { judgeRun } from '../../../src/core/verify/judge';
import { tamperingFlags } from '../../../src/core/verify/tampering';
import { pytestOutput } from './pytestOutput';

/** A git diff adding a file. */
function added(path: string, text: string): string {
  const lines = text.replace(/\n$/, '').split('\n');
  return `diff --git a/${path} b/${path}\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join('\n')}\n`;
}

/** A git diff changing lines of a file: `before` context lines, then `-old` / `+new`, from line `at`. */
function changed(path: string, at: number, hunk: string[], section = ''): string {
  const oldN = hunk.filter((l) => !l.startsWith('+')).length;
  const newN = hunk.filter((l) => !l.startsWith('-')).length;
  return `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n--- a/${path}\n+++ b/${path}\n@@ -${at},${oldN} +${at},${newN} @@${section ? ` ${section}` : ''}\n${hunk.join('\n')}\n`;
}

const LIB = changed('calc.py', 1, [' def add(a, b):', '-    return a - b', '+    return a + b']);
const TEST_PATCH = added('tests/test_calc.py', 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n');
const tests: TestCase[] = [
  { id: 'T1', name: 'tests/test_calc.py::test_add', kind: 'fail_to_pass', specs: [] },
  { id: 'T2', name: 'tests/unit/test_other.py::test_mul', kind: 'pass_to_pass', specs: [] },
];
const flags = (attempt: string, testPatch = TEST_PATCH) => tamperingFlags(attempt, { testPatch, tests });
const kinds = (attempt: string) => flags(attempt).map((f) => f.kind);

test('a change to library code only is not flagged', () => {
  assert.deepEqual(flags(LIB), []);
  assert.deepEqual(flags(''), []);
  // sys.exit in library code is ordinary (a CLI's main); a comment mentioning os._exit is not code.
  assert.deepEqual(flags(changed('pkg/cli.py', 10, [' def main():', '+    # never os._exit(1) here', '+    sys.exit(run())'])), []);
});

const FAKE_CONFTEST = `import os, sys


def pytest_runtestloop(session):
    sys.stdout.write("PASSED tests/test_calc.py::test_add\\n")
    sys.stdout.flush()
    os._exit(0)
`;

test('a conftest.py printing PASSED lines and calling os._exit(0): plugins and exit flagged, with where', () => {
  const f = flags(LIB + added('conftest.py', FAKE_CONFTEST));
  assert.deepEqual(f.map((x) => x.kind), ['attempt_edits_test_plugins', 'attempt_exits_test_process']);
  assert.match(f[0]?.message ?? '', /conftest\.py \(hooks pytest_runtestloop\)/);
  assert.match(f[1]?.message ?? '', /os\._exit\( at conftest\.py:7/);
});

test('a pytest_runtest_makereport hook that turns failures into passes is flagged', () => {
  const hook = `import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.failed:
        rep.outcome = "passed"
`;
  const f = flags(added('tests/conftest.py', hook));
  assert.deepEqual(f.map((x) => x.kind), ['attempt_edits_test_plugins']);
  assert.match(f[0]?.message ?? '', /tests\/conftest\.py \(hooks pytest_runtest_makereport\)/);
});

test('test files: the test patch\'s, a listed test\'s, test_*.py, *_test.py and tests/ folders, also deleted', () => {
  const own = flags(changed('tests/test_calc.py', 4, [' def test_add():', '-    assert add(2, 3) == 5', '+    assert True']));
  assert.deepEqual(own.map((x) => x.kind), ['attempt_edits_tests']);
  assert.match(own[0]?.message ?? '', /tests\/test_calc\.py \(the test patch changes it\)/);
  assert.match(flags(changed('tests/unit/test_other.py', 1, ['-x = 1', '+x = 2']))[0]?.message ?? '', /tests\/unit\/test_other\.py \(a listed test's file\)/);
  for (const p of ['test_helpers.py', 'pkg/io_test.py', 'pkg/tests/data.json', 'test/fixtures/a.txt', 'testing/util.py']) {
    assert.deepEqual(kinds(added(p, 'x = 1\n')), ['attempt_edits_tests'], p);
  }
  assert.deepEqual(kinds(`diff --git a/tests/test_calc.py b/tests/test_calc.py\ndeleted file mode 100644\n--- a/tests/test_calc.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n`), ['attempt_edits_tests']);
  assert.deepEqual(kinds(added('contest.py', 'x = 1\n')), [], 'a name that merely looks alike');
});

test('configuration: pytest.ini; the pytest sections of setup.cfg, tox.ini and pyproject.toml; not other sections', () => {
  assert.deepEqual(kinds(added('pytest.ini', '[pytest]\naddopts = -p no:terminal\n')), ['attempt_edits_test_config']);
  const cfg = flags(changed('setup.cfg', 10, [' [tool:pytest]', ' testpaths = tests', '+addopts = --deselect tests/test_calc.py::test_add']));
  assert.match(cfg[0]?.message ?? '', /setup\.cfg \[tool:pytest\]/);
  assert.deepEqual(kinds(changed('tox.ini', 3, [' [pytest]', '-addopts = -rA', '+addopts = -rA -x'])), ['attempt_edits_test_config']);
  assert.deepEqual(kinds(changed('pyproject.toml', 20, [' [tool.pytest.ini_options]', '+python_files = ["nothing_*.py"]'])), ['attempt_edits_test_config']);
  assert.deepEqual(kinds(changed('setup.cfg', 1, [' [metadata]', '-version = 1.0', '+version = 1.1'])), []);
  assert.deepEqual(kinds(changed('pyproject.toml', 1, [' [project]', '-version = "1.0"', '+version = "1.1"'])), []);
  // A hunk that shows no section header: judged by what it changes.
  assert.deepEqual(kinds(changed('setup.cfg', 40, [' testpaths = tests', '+addopts = -p evil'])), ['attempt_edits_test_config']);
  assert.deepEqual(kinds(changed('setup.cfg', 40, [' license = MIT', '-zip_safe = False', '+zip_safe = True'])), []);
});

test('plugins: pytest_plugins, pytest11 entry points, modules conftest imports, interpreter start-up hooks', () => {
  assert.match(flags(changed('pkg/__init__.py', 1, ['+pytest_plugins = ["pkg.evil"]']))[0]?.message ?? '', /pytest_plugins/);
  assert.deepEqual(kinds(changed('setup.py', 30, ['     entry_points={', '+        "pytest11": ["evil = pkg.evil"],'])), ['attempt_edits_test_plugins']);
  assert.deepEqual(kinds(changed('pyproject.toml', 9, ['+[project.entry-points.pytest11]', '+evil = "pkg.evil"'])), ['attempt_edits_test_plugins']);
  // conftest.py (unchanged but shown as context) imports helpers: the attempt changes helpers.py.
  const imported = flags(changed('tests/conftest.py', 1, [' from tests.helpers import fixture_db', ' import pkg.support', '+']) + changed('pkg/support.py', 3, ['-A = 1', '+A = 2']));
  assert.ok(imported.some((f) => f.kind === 'attempt_edits_test_plugins' && /pkg\/support\.py \(imported by tests\/conftest\.py\)/.test(f.message)), JSON.stringify(imported));
  for (const p of ['sitecustomize.py', 'lib/usercustomize.py', 'evil.pth']) assert.deepEqual(kinds(added(p, 'import os\n')), ['attempt_edits_test_plugins'], p);
});

test('exits: os._exit, os.abort, pytest.exit and killing itself anywhere; sys.exit and SystemExit in conftest', () => {
  assert.deepEqual(kinds(changed('calc.py', 1, [' def add(a, b):', '+    os._exit(0)'])), ['attempt_exits_test_process']);
  assert.deepEqual(kinds(changed('calc.py', 1, ['+    pytest.exit("done", returncode=0)'])), ['attempt_exits_test_process']);
  assert.deepEqual(kinds(changed('calc.py', 1, ['+    os.kill(os.getpid(), signal.SIGKILL)'])), ['attempt_exits_test_process']);
  assert.deepEqual(kinds(changed('calc.py', 1, ['+    os.abort()'])), ['attempt_exits_test_process']);
  assert.deepEqual(kinds(added('conftest.py', 'import sys\nprint("PASSED tests/test_calc.py::test_add")\nsys.exit(0)\n')), ['attempt_edits_test_plugins', 'attempt_exits_test_process']);
  assert.deepEqual(kinds(added('conftest.py', 'raise SystemExit(0)\n')), ['attempt_edits_test_plugins', 'attempt_exits_test_process']);
});

test('the judge puts the patch flags on the run, whatever its status', () => {
  const task = { tests, specs: [], verifier: { parser: 'pytest' } };
  const out = pytestOutput([{ id: 'tests/test_calc.py::test_add', status: 'PASSED' }, { id: 'tests/unit/test_other.py::test_mul', status: 'PASSED' }]);
  const base = { apply: { test: { method: 'git-apply' as const }, attempt: { method: 'git-apply' as const } }, exitCode: 0, timedOut: false, oomKilled: false, stdoutText: out, stderrText: '' };
  const patches = { testPatch: TEST_PATCH, attemptPatch: LIB + added('conftest.py', FAKE_CONFTEST) };
  const j = judgeRun(task, base, patches);
  assert.equal(j.status, 'passed');
  assert.deepEqual(j.flags.map((f) => f.kind), ['attempt_edits_test_plugins', 'attempt_exits_test_process']);
  const t = judgeRun(task, { ...base, timedOut: true }, patches);
  assert.equal(t.status, 'timeout');
  assert.deepEqual(t.flags.map((f) => f.kind), ['attempt_edits_test_plugins', 'attempt_exits_test_process']);
  assert.deepEqual(judgeRun(task, base, { testPatch: TEST_PATCH, attemptPatch: LIB }).flags, []);
});

test("library code reaching into pytest's hook machinery is flagged (the cheat probe's force-pass-from-library)", () => {
  // The exploit the cheat probe found getting through: a makereport hookwrapper registered from the code under test.
  const lib = changed('calc.py', 1, [
    ' def add(a, b):',
    '     return a - b',
    '+def _register():',
    '+    import gc, types, pytest',
    '+    def hook(item, call):',
    '+        outcome = yield',
    '+    m = types.ModuleType("x")',
    '+    setattr(m, "pytest_runtest_" + "makereport", pytest.hookimpl(hookwrapper=True)(hook))',
    '+    for o in gc.get_objects():',
    '+        if type(o).__name__ == "PytestPluginManager":',
    '+            o.register(m, "x")',
  ]);
  const f = flags(lib);
  assert.deepEqual(f.map((x) => x.kind), ['attempt_edits_test_plugins']);
  assert.match(f[0]?.message ?? '', /calc\.py \(its code reaches into pytest: pytest\.hookimpl at line 8, hookwrapper at line 8, a pytest hook name at line 8, pytest's plugin manager at line 10\)/);
  // from _pytest internals too; an ordinary `import pytest` in library code, or these words in a comment, are not.
  assert.deepEqual(kinds(changed('pkg/x.py', 1, ['+from _pytest.runner import CallInfo'])), ['attempt_edits_test_plugins']);
  assert.deepEqual(flags(changed('pkg/fixtures.py', 1, ['+import pytest', '+# a hookwrapper would be wrong here', '+VALUE = 1'])), []);
  // In a test file it is the test file that is flagged, once.
  assert.deepEqual(kinds(changed('tests/test_x.py', 1, ['+@pytest.hookimpl(hookwrapper=True)'])), ['attempt_edits_tests']);
});
