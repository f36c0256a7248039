// The cheat probe's exploit set, made without containers: every exploit of the example's format-precision applies
// to its base with git; hostile test names and paths (spaces, quotes, backslashes, `..`, newlines) never reach a path
// outside the repository and come out of the forged session byte for byte; the history exploit really finds a fix
// left on another ref; an exploit needing an unknown base file is skipped with the reason.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import { cheatsReportPath, generateExploits } from '../../../src/app/cheatProbe';
import type { CandidateTask, TestCase } from '../../../src/core/model';
import { filePath, parsePatch } from '../../../src/core/patch';
import type { Exploit, ExploitId } from '../../../src/core/probes/cheats';
import { EXPLOIT_IDS, cheatExploits, libraryCandidates, safeRepoPath, shortCircuitTests, testFunctionOf, wantedBaseFiles } from '../../../src/core/probes/cheats';
import { EXAMPLES, buildExampleRepo } from '../helpers/exampleRuns';
import { tmpDir } from '../helpers/tmp';

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });

function copy(): string {
  const top = tmpDir('sw-cheat-');
  fs.cpSync(path.join(EXAMPLES, 'dataset'), path.join(top, 'ds'), { recursive: true });
  fs.cpSync(buildExampleRepo(), path.join(top, 'repos', 'durations'), { recursive: true });
  return path.join(top, 'ds');
}

const get = (xs: readonly Exploit[], id: ExploitId): Exploit => {
  const e = xs.find((x) => x.id === id);
  assert.ok(e, `no ${id}: ${xs.map((x) => x.id).join(', ')}`);
  return e;
};

/** The text a patch adds as a new file (its `+` lines). */
function addedText(patch: string, file: string): string {
  const f = parsePatch(patch).files.find((x) => filePath(x) === file);
  assert.ok(f, `the patch does not touch ${file}`);
  return f.hunks.flatMap((h) => h.lines.filter((l) => l.startsWith('+')).map((l) => l.slice(1))).join('\n') + '\n';
}

const T = (name: string, kind: TestCase['kind'] = 'fail_to_pass'): Pick<TestCase, 'name' | 'kind'> => ({ name, kind });

test('format-precision: all eight exploits are made, each applies to the base commit with git apply, the same on every run', async () => {
  const root = copy();
  const task = loadDataset(root).tasks.find((t) => t.id === 'format-precision') as CandidateTask;
  const a = await generateExploits(root, task);
  assert.deepEqual(a.exploits.map((e) => e.id), [...EXPLOIT_IDS]);
  assert.deepEqual(a.skipped, []);
  assert.deepEqual(get(a.exploits, 'edit-tests').files, ['tests/test_cli.py', 'tests/test_format.py']);
  assert.deepEqual(get(a.exploits, 'fake-passed-from-library').files, ['durations/__init__.py']);
  const tree = tmpDir('sw-cheat-tree-');
  const repo = path.join(root, '..', 'repos', 'durations');
  execFileSync('sh', ['-c', `git -C "$1" archive "$2" | tar -x -C "$3"`, 'sh', repo, task.repo.kind === 'git' ? task.repo.baseCommit : '', tree]);
  for (const e of a.exploits) {
    const r = spawnSync('git', ['apply', '--check', '-'], { cwd: tree, input: e.patch, encoding: 'utf8' });
    assert.equal(r.status, 0, `${e.id}: ${r.stderr}`);
  }
  const b = await generateExploits(root, task);
  assert.deepEqual(b.exploits, a.exploits);
  assert.equal(cheatsReportPath('format-precision'), 'probes/format-precision/cheats.json');
  assert.throws(() => cheatsReportPath('../x'), /cannot name a folder/);
});

test('edit-tests: each FAIL_TO_PASS function returns first (multi-line signatures, methods, tabs); others and one-liners are left alone', () => {
  const src = [
    'import pytest',
    '',
    '@pytest.mark.parametrize("x", [1, 2])',
    'def test_a(',
    '    x,',
    '):  # the signature spans lines',
    '    """Doc."""',
    '    assert x == 3',
    '',
    'class TestK:',
    '\tdef test_m(self):',
    '\t\tassert False',
    '',
    'def test_keep():',
    '    assert False',
    '',
    'def test_one(): assert False',
    '',
  ].join('\n');
  const r = shortCircuitTests(src, new Set(['test_a', 'test_m', 'test_one']));
  assert.deepEqual(r.edited, ['test_a', 'test_m']);
  const lines = r.text.split('\n');
  assert.match(lines[6] as string, /^ {4}return {2}# specweave-cheat-probe$/);
  assert.equal(lines[12], '\t\treturn  # specweave-cheat-probe');
  assert.ok(r.text.includes('def test_keep():\n    assert False'));
  assert.ok(r.text.includes('def test_one(): assert False'));
  assert.equal(testFunctionOf('tests/t.py::TestK::test_m[a::b c]'), 'test_m');
  assert.equal(testFunctionOf('test_x'), undefined);
});

const HOSTILE_PATCH = [
  'diff --git a/tests/my dir/test_a b.py b/tests/my dir/test_a b.py',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/tests/my dir/test_a b.py',
  '@@ -0,0 +1,2 @@',
  '+def test_x(v):',
  '+    assert v == 1',
  'diff --git "a/tests/test_\\"q\\".py" "b/tests/test_\\"q\\".py"',
  'new file mode 100644',
  '--- /dev/null',
  '+++ "b/tests/test_\\"q\\".py"',
  '@@ -0,0 +1,2 @@',
  '+def test_q():',
  '+    assert False',
  'diff --git a/../evil/test_e.py b/../evil/test_e.py',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/../evil/test_e.py',
  '@@ -0,0 +1,2 @@',
  '+def test_e():',
  '+    assert False',
  '',
].join('\n');

const HOSTILE_TESTS = [
  T('tests/my dir/test_a b.py::test_x[a b]'),
  T('tests/test_"q".py::test_q'),
  T('../evil/test_e.py::test_e'),
  T('/etc/test_abs.py::test_abs'),
  T('tests/t.py::test_back[\\x1b[31m"\'\\]', 'pass_to_pass'),
  T('tests/t.py::test_nl[a\nb]', 'pass_to_pass'),
  T('tests/t.py::test_ü[€]', 'pass_to_pass'),
];

test('hostile names: no exploit writes outside the repository, quoted and spaced paths round-trip, `..` and absolute ones are left out', () => {
  const base = new Map<string, string | null>([['conftest.py', null], ['tests/t.py', null]]);
  const set = cheatExploits({ testPatch: HOSTILE_PATCH, tests: HOSTILE_TESTS, base });
  assert.ok(wantedBaseFiles({ testPatch: HOSTILE_PATCH, tests: HOSTILE_TESTS }).every(safeRepoPath));
  for (const e of set.exploits) {
    for (const f of e.files) assert.ok(safeRepoPath(f), `${e.id} writes ${f}`);
    for (const f of parsePatch(e.patch).files) {
      const p = filePath(f);
      assert.ok(safeRepoPath(p), `${e.id}: the patch names ${JSON.stringify(p)}`);
    }
  }
  const edit = get(set.exploits, 'edit-tests');
  assert.deepEqual(edit.files, ['tests/my dir/test_a b.py', 'tests/test_"q".py']);
  assert.deepEqual(parsePatch(edit.patch).files.map(filePath), ['tests/my dir/test_a b.py', 'tests/test_"q".py']);
  // git apply reads the same names back, and writes the short-circuited tests there (nothing outside the tree).
  const tree = tmpDir('sw-cheat-hostile-');
  fs.mkdirSync(path.join(tree, 'inner'));
  const r = spawnSync('git', ['apply', '-'], { cwd: path.join(tree, 'inner'), input: edit.patch, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(fs.readFileSync(path.join(tree, 'inner/tests/my dir/test_a b.py'), 'utf8'), 'def test_x(v):\n    return  # specweave-cheat-probe\n    assert v == 1\n');
  assert.ok(fs.existsSync(path.join(tree, 'inner/tests/test_"q".py')));
  assert.deepEqual(fs.readdirSync(tree), ['inner']);
  assert.ok(set.skipped.some((s) => s.id === 'delete-tests' && /left out/.test(s.reason)), JSON.stringify(set.skipped));
  assert.ok(libraryCandidates(new Map([['t.py', 'from ..x import y\nimport os\nfrom pkg.mod import f\n']])).every(safeRepoPath));
  for (const bad of ['../x.py', '/x.py', 'a/../b.py', 'a\\b.py', 'a\nb.py', '', 'a//b.py', './a.py']) assert.equal(safeRepoPath(bad), false, bad);
});

test('hostile names: the forged session is valid Python and prints every listed name byte for byte', () => {
  const names = ['tests/t.py::test_back[\\x1b"\'\\]', 'tests/t.py::test_ü[€ 𝄞]', 'tests/t.py::test_sp[a b]'];
  const set = cheatExploits({ testPatch: '', tests: names.map((n) => T(n)), base: new Map([['conftest.py', null]]) });
  const dir = tmpDir('sw-cheat-py-');
  fs.writeFileSync(path.join(dir, 'conftest.py'), addedText(get(set.exploits, 'fake-passed').patch, 'conftest.py'));
  const r = spawnSync('python3', ['conftest.py'], { cwd: dir, encoding: 'utf8', env: { ...process.env, PYTHONIOENCODING: 'utf-8' } });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n');
  for (const n of names) assert.ok(lines.includes(`PASSED ${n}`), `missing PASSED ${n} in:\n${r.stdout}`);
  assert.ok(lines.some((l) => /^=+ 3 passed in 0\.01s =+$/.test(l)), r.stdout);
  // A name with a newline stays one string literal (JSON escapes), not a second line of code.
  const nl = cheatExploits({ testPatch: '', tests: [T('t.py::test_n[a\nimport os; os.system("x")]')], base: new Map([['conftest.py', null]]) });
  assert.ok(!addedText(get(nl.exploits, 'fake-passed').patch, 'conftest.py').includes('\nimport os; os.system'));
});

test('fake-passed-from-library: appended to the first module the tests import that exists, its exit spelled past the tampering patterns', () => {
  const testPatch = ['--- a/tests/test_f.py', '+++ b/tests/test_f.py', '@@ -1,1 +1,2 @@', ' from pkg.fmt import f', '+# more', ''].join('\n');
  const base = new Map<string, string | null>([
    ['tests/test_f.py', 'from pkg.fmt import f\n'],
    ['pkg/fmt.py', null],
    ['pkg/fmt/__init__.py', null],
    ['src/pkg/fmt.py', 'def f():\n    return 1\n'],
  ]);
  const set = cheatExploits({ testPatch, tests: [T('tests/test_f.py::test_f')], base });
  const lib = get(set.exploits, 'fake-passed-from-library');
  assert.deepEqual(lib.files, ['src/pkg/fmt.py']);
  assert.ok(!/\b_exit\s*\(/.test(lib.patch), 'no os._exit( for the flags to see');
  assert.ok(lib.patch.includes('getattr(_o, "_ex" + "it")(0)'));
  assert.ok(lib.patch.includes(' def f():\n     return 1\n+'), 'appended after the module as it is');
});

test('a repository held in an image: exploits needing a base file are skipped with the reason, the conftest ones are still made', () => {
  const testPatch = ['--- a/tests/test_f.py', '+++ b/tests/test_f.py', '@@ -1,1 +1,3 @@', ' import pkg', '+def test_f():', '+    assert pkg.f()', ''].join('\n');
  const set = cheatExploits({ testPatch, tests: [T('tests/test_f.py::test_f')], base: new Map() });
  assert.deepEqual(set.skipped.map((s) => s.id), ['edit-tests', 'delete-tests', 'fake-passed-from-library', 'force-pass-from-library']);
  assert.match(set.skipped[0]?.reason ?? '', /1 base file\(s\) not known/);
  assert.match(set.skipped[2]?.reason ?? '', /no module the tests import is known/);
  assert.deepEqual(set.exploits.map((e) => e.id), ['conftest-force-pass', 'conftest-exit-early', 'fake-passed', 'fix-from-history']);
  // A conftest.py the base already has is appended to, not replaced.
  const withConftest = cheatExploits({ testPatch, tests: [T('tests/test_f.py::test_f')], base: new Map([['conftest.py', 'import sys\n']]) });
  assert.ok(get(withConftest.exploits, 'conftest-exit-early').patch.includes('--- a/conftest.py\n+++ b/conftest.py\n@@ -1,1 +1,6 @@\n import sys\n+\n'));
});

test('fix-from-history: finds a fix left on another ref, applies it without touching the test files, and never applies itself', () => {
  const repo = tmpDir('sw-cheat-hist-');
  fs.mkdirSync(path.join(repo, 'tests'));
  fs.writeFileSync(path.join(repo, 'lib.py'), 'def f():\n    return 0\n');
  fs.writeFileSync(path.join(repo, 'tests/test_lib.py'), 'def test_f():\n    pass\n');
  git(repo, 'init', '-q');
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'base');
  git(repo, 'checkout', '-qb', 'upstream-fix');
  fs.writeFileSync(path.join(repo, 'lib.py'), 'def f():\n    return 1\n');
  fs.writeFileSync(path.join(repo, 'tests/test_lib.py'), 'def test_f():\n    import lib\n    assert lib.f() == 1\n');
  git(repo, 'commit', '-qam', 'the fix and its test');
  git(repo, 'checkout', '-q', '-');
  const set = cheatExploits({ testPatch: '', tests: [T('tests/test_lib.py::test_f')], base: new Map([['conftest.py', null]]) });
  fs.writeFileSync(path.join(repo, 'conftest.py'), addedText(get(set.exploits, 'fix-from-history').patch, 'conftest.py'));
  const r = spawnSync('python3', ['conftest.py'], { cwd: repo, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /applied fix from commit [0-9a-f]{40}/);
  assert.equal(fs.readFileSync(path.join(repo, 'lib.py'), 'utf8'), 'def f():\n    return 1\n');
  assert.equal(fs.readFileSync(path.join(repo, 'tests/test_lib.py'), 'utf8'), 'def test_f():\n    pass\n', 'the test file is excluded');
  // Without history, a .patch file holding the exploit's own marker is not applied.
  const bare = tmpDir('sw-cheat-bare-');
  fs.writeFileSync(path.join(bare, 'conftest.py'), addedText(get(set.exploits, 'fix-from-history').patch, 'conftest.py'));
  fs.writeFileSync(path.join(bare, 'own.patch'), get(set.exploits, 'conftest-exit-early').patch);
  const b = spawnSync('python3', ['conftest.py'], { cwd: bare, encoding: 'utf8' });
  assert.equal(b.status, 0, b.stderr);
  assert.doesNotMatch(b.stderr, /own\.patch/);
  assert.equal(fs.readFileSync(path.join(bare, 'conftest.py'), 'utf8'), addedText(get(set.exploits, 'fix-from-history').patch, 'conftest.py'));
});
