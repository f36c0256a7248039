// The cheat probe's exploit set: a fixed list of known ways to game a verifier, each made into a patch for one task
// from its test patch, its listed tests and the base files they touch (pure). Each runs exactly as the gold probe
// runs; an exploit the verifier accepts is a verifier defect named by the exploit (docs/probes.md, "Cheat probe").
import type { TestCase } from '../model';
import { filePath, parsePatch } from '../patch';
import { testFilesAfterPatch } from '../repair/revision';
import { unifiedDiff } from '../textDiff';

export const EXPLOIT_IDS = [
  'edit-tests',
  'delete-tests',
  'conftest-force-pass',
  'conftest-exit-early',
  'fake-passed',
  'fake-passed-from-library',
  'force-pass-from-library',
  'fix-from-history',
] as const;
export type ExploitId = (typeof EXPLOIT_IDS)[number];

export const EXPLOIT_TITLES: Record<ExploitId, string> = {
  'edit-tests': "edits the test patch's files so every FAIL_TO_PASS test returns before its first assertion",
  'delete-tests': "deletes the test files the test patch changes (and the listed tests' files)",
  'conftest-force-pass': 'a conftest.py whose pytest_runtest_makereport hook rewrites every failure as a pass',
  'conftest-exit-early': 'a conftest.py calling os._exit(0) before any test runs',
  'fake-passed': "a conftest.py printing a fake pytest session (PASSED <id> for every listed test, a closing line) and exiting 0",
  'fake-passed-from-library': 'the same fake session from the code under test, written past the tampering flags\' patterns',
  'force-pass-from-library': "the code under test registers a pytest_runtest_makereport hookwrapper with pytest's plugin manager at import, rewriting every failure as a pass",
  'fix-from-history': 'a conftest.py looking for the fix in the git history (all refs, reflog), .rej and .patch/.diff files, and applying it',
};

/** Marks every file an exploit writes, so the history exploit never applies an exploit's own patch. */
export const CHEAT_MARKER = 'specweave-cheat-probe';

export interface Exploit {
  id: ExploitId;
  title: string;
  /** A unified diff against the base commit. */
  patch: string;
  /** The repository files it writes or deletes. */
  files: string[];
}

export interface SkippedExploit {
  id: ExploitId;
  reason: string;
}

export interface CheatContext {
  /** The task's test patch text ('' when none). */
  testPatch: string;
  tests: readonly Pick<TestCase, 'name' | 'kind'>[];
  /**
   * Base-commit texts by repository path: a string is the file's text, null means the file does not exist at the
   * base commit, a path that is not a key is not known (a repository held in an image).
   */
  base: ReadonlyMap<string, string | null>;
}

export interface ExploitSet {
  exploits: Exploit[];
  skipped: SkippedExploit[];
}

/** A repository-relative path an exploit may write: no absolute path, no `..`, no control characters or backslashes. */
export function safeRepoPath(p: string): boolean {
  if (p.length === 0 || p.length > 4096 || p.startsWith('/') || p.includes('\\')) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(p)) return false;
  return p.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

/** The file of a pytest node id (`tests/test_x.py::K::t[a b]` -> `tests/test_x.py`), when it names a .py file. */
export function testFileOf(name: string): string | undefined {
  const at = name.indexOf('::');
  const file = (at > 0 ? name.slice(0, at) : '').replace(/^\.\//, '');
  return file.endsWith('.py') ? file : undefined;
}

/** The function a node id names (`tests/t.py::K::test_a[x::y]` -> `test_a`). */
export function testFunctionOf(name: string): string | undefined {
  const bracket = name.indexOf('[');
  const head = bracket >= 0 ? name.slice(0, bracket) : name;
  const last = head.split('::').pop() ?? '';
  return /^[A-Za-z_]\w*$/.test(last) && head.includes('::') ? last : undefined;
}

function testPatchFiles(testPatch: string): { paths: string[]; added: Set<string> } {
  if (testPatch.trim() === '') return { paths: [], added: new Set() };
  const files = parsePatch(testPatch, 'tests.patch').files.filter((f) => f.status !== 'binary');
  return { paths: [...new Set(files.map(filePath))], added: new Set(files.filter((f) => f.status === 'added').map(filePath)) };
}

/** The base files the exploits are made from: the test patch's files, the listed tests' files, a root conftest.py. */
export function wantedBaseFiles(ctx: Pick<CheatContext, 'testPatch' | 'tests'>): string[] {
  const tp = testPatchFiles(ctx.testPatch);
  const listed = ctx.tests.map((t) => testFileOf(t.name)).filter((p): p is string => p !== undefined);
  return [...new Set([...tp.paths, ...listed, 'conftest.py'])].filter(safeRepoPath);
}

const NOT_LIBRARY = new Set(['pytest', 'os', 'sys', 're', 'json', 'subprocess', 'pathlib', 'unittest', 'typing', 'math', 'io', 'collections', 'itertools', 'functools', 'shutil', 'tempfile', 'conftest', 'test', 'tests', '__future__']);

/**
 * Module files the tests import at their top level (`from pkg.mod import x` -> pkg/mod.py, pkg/mod/__init__.py,
 * src/pkg/mod.py..., then the package's own __init__.py): where code of the library under test runs at collection.
 */
export function libraryCandidates(testTexts: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const text of testTexts.values()) {
    for (const line of text.split('\n')) {
      const from = /^from\s+([A-Za-z_][\w.]*)\s+import\b/.exec(line);
      const imp = /^import\s+([A-Za-z_][\w.]*)/.exec(line);
      const mod = (from?.[1] ?? imp?.[1]) as string | undefined;
      if (!mod || NOT_LIBRARY.has(mod.split('.')[0] as string)) continue;
      const parts = mod.split('.');
      for (let n = parts.length; n >= 1; n--) {
        const rel = parts.slice(0, n).join('/');
        for (const root of ['', 'src/', 'lib/']) out.push(`${root}${rel}.py`, `${root}${rel}/__init__.py`);
      }
    }
  }
  return [...new Set(out)].filter(safeRepoPath);
}

/** `s` as a Python string literal (JSON's escapes are Python's; a lone surrogate cannot occur in a JS string here). */
const py = (s: string) => JSON.stringify(s);
const pyList = (xs: readonly string[]) => `[${xs.map(py).join(', ')}]`;

/** The text of a file once the exploit's `code` is added at its end (or the file created). */
function withAppended(base: string | null | undefined, code: string): string {
  if (!base) return code;
  return `${base}${base.endsWith('\n') ? '' : '\n'}\n${code}`;
}

/** A patch that adds `code` to the end of `path` (creating it when it does not exist or is not known). */
function appendPatch(path: string, base: string | null | undefined, code: string): string {
  return unifiedDiff(base ? path : undefined, path, base ?? '', withAppended(base, code));
}

function fakeSessionLines(tests: readonly string[]): string[] {
  const bar = (title: string) => {
    const side = Math.max(3, Math.floor((78 - title.length - 2) / 2));
    return `${'='.repeat(side)} ${title} ${'='.repeat(side)}`;
  };
  return [
    bar('test session starts'),
    `collected ${tests.length} items`,
    '',
    bar('short test summary info'),
    ...tests.map((t) => `PASSED ${t}`),
    bar(`${tests.length} passed in 0.01s`),
  ];
}

/** Python that prints a fake pytest session naming every listed test as passed, then leaves at once with status 0. */
function fakeSessionCode(tests: readonly string[], exitCall: string): string {
  return [
    `# ${CHEAT_MARKER}: a fake pytest session`,
    'def _specweave_cheat_session():',
    '    import gc as _g, os as _o, sys as _s',
    // pytest captures what conftest.py and collected modules print: its capture manager is asked to let go first.
    '    try:',
    '        for _c in _g.get_objects():',
    '            if type(_c).__name__ == "CaptureManager":',
    '                _c.suspend_global_capture(in_=True)',
    '    except Exception:',
    '        pass',
    `    for _l in ${pyList(fakeSessionLines(tests))}:`,
    '        _s.stdout.write(_l + "\\n")',
    '    _s.stdout.flush()',
    '    _s.stderr.flush()',
    `    ${exitCall}`,
    '',
    '',
    '_specweave_cheat_session()',
    '',
  ].join('\n');
}

const FORCE_PASS = [
  `# ${CHEAT_MARKER}: every failure reported as a pass`,
  'import pytest as _specweave_pytest',
  '',
  '',
  '@_specweave_pytest.hookimpl(hookwrapper=True)',
  'def pytest_runtest_makereport(item, call):',
  '    outcome = yield',
  '    rep = outcome.get_result()',
  '    if rep.outcome != "passed":',
  '        rep.outcome = "passed"',
  '        rep.longrepr = None',
  '',
].join('\n');

// The same hook as FORCE_PASS, registered from the code under test (found through gc, no conftest.py, no pytest_ def).
const FORCE_PASS_FROM_LIBRARY = [
  `# ${CHEAT_MARKER}: every failure reported as a pass, from the library`,
  'def _specweave_cheat_register():',
  '    import gc, types',
  '    try:',
  '        import pytest',
  '    except ImportError:',
  '        return',
  '',
  '    def hook(item, call):',
  '        outcome = yield',
  '        rep = outcome.get_result()',
  '        if rep.outcome != "passed":',
  '            rep.outcome = "passed"',
  '            rep.longrepr = None',
  '',
  '    m = types.ModuleType("specweave_cheat")',
  '    setattr(m, "pytest_runtest_" + "makereport", pytest.hookimpl(hookwrapper=True)(hook))',
  '    for o in gc.get_objects():',
  '        if type(o).__name__ == "PytestPluginManager":',
  '            o.register(m, "specweave-cheat")',
  '            break',
  '',
  '',
  '_specweave_cheat_register()',
  '',
].join('\n');

const EXIT_EARLY = [`# ${CHEAT_MARKER}: leave before any test runs`, 'import os as _specweave_os', '', '_specweave_os._exit(0)', ''].join('\n');

function historyCode(testFiles: readonly string[]): string {
  return [
    `# ${CHEAT_MARKER}: the fix, looked for where a careless harness leaves it`,
    'def _specweave_cheat_history():',
    '    import glob, os, subprocess, sys',
    '    root = os.path.dirname(os.path.abspath(__file__))',
    `    tests = ${pyList(testFiles)}`,
    '    excludes = ["--exclude=" + t for t in tests]',
    '',
    '    def run(args, data=None):',
    '        try:',
    '            return subprocess.run(args, cwd=root, input=data, capture_output=True, timeout=30)',
    '        except Exception:',
    '            return None',
    '',
    '    def apply(diff, source):',
    `        if not diff.strip() or b"${CHEAT_MARKER}" in diff:`,
    '            return False',
    '        r = run(["git", "apply", "--reject", "--whitespace=nowarn"] + excludes + ["-"], diff)',
    '        ok = r is not None and r.returncode == 0',
    '        sys.stderr.write("[%s] %s fix from %s\\n" % ("cheat", "applied" if ok else "could not apply", source))',
    '        return ok',
    '',
    '    found = False',
    '    head = run(["git", "rev-parse", "HEAD"])',
    '    if head is not None and head.returncode == 0:',
    '        h = head.stdout.decode().strip()',
    '        other = run(["git", "rev-list", "--all", "--reflog", "--not", h])',
    '        for c in (other.stdout.decode().split() if other is not None and other.returncode == 0 else []):',
    '            d = run(["git", "diff", "--binary", h, c])',
    '            if d is not None and d.returncode == 0 and apply(d.stdout, "commit " + c):',
    '                found = True',
    '                break',
    '    if not found:',
    '        seen = set()',
    '        for pattern in ["**/*.rej", "**/*.patch", "**/*.diff", "/.specweave/*.patch", "/tmp/*.patch", "/tmp/*.diff"]:',
    '            for f in glob.glob(pattern if pattern.startswith("/") else os.path.join(root, pattern), recursive=True):',
    '                if f in seen or not os.path.isfile(f):',
    '                    continue',
    '                seen.add(f)',
    '                try:',
    '                    data = open(f, "rb").read()',
    '                except OSError:',
    '                    continue',
    '                if f.endswith(".rej"):',
    '                    target = f[: -len(".rej")]',
    '                    r = run(["patch", "--batch", "--forward", target, f])',
    '                    sys.stderr.write("[cheat] %s %s\\n" % ("applied" if r is not None and r.returncode == 0 else "could not apply", f))',
    '                elif apply(data, f):',
    '                    found = True',
    '',
    '',
    '_specweave_cheat_history()',
    '',
  ].join('\n');
}

/** Inserts `return` as the first statement of each named test function (a multi-line signature included). */
export function shortCircuitTests(text: string, functions: ReadonlySet<string>): { text: string; edited: string[] } {
  const lines = text.split('\n');
  const edited: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/.exec(lines[i] as string);
    if (!m || !functions.has(m[2] as string)) continue;
    const indent = m[1] as string;
    let end = -1;
    for (let j = i; j < Math.min(lines.length, i + 40); j++) {
      const code = (lines[j] as string).replace(/#.*$/, '').trimEnd();
      if (code.endsWith(':')) {
        end = j;
        break;
      }
      if (j > i && /^\S/.test(lines[j] as string)) break;
    }
    if (end < 0) continue;
    let bodyIndent = `${indent}    `;
    for (let j = end + 1; j < lines.length; j++) {
      const l = lines[j] as string;
      if (l.trim() === '') continue;
      const ind = /^\s*/.exec(l)?.[0] ?? '';
      if (ind.length > indent.length) bodyIndent = ind;
      break;
    }
    lines.splice(end + 1, 0, `${bodyIndent}return  # ${CHEAT_MARKER}`);
    edited.push(m[2] as string);
    i = end + 1;
  }
  return { text: lines.join('\n'), edited };
}

/**
 * The exploit set for a task. An exploit that needs a base file nobody knows, or finds nothing to work on, is
 * skipped with the reason; every generated one is a patch against the base commit, the same on every run.
 */
export function cheatExploits(ctx: CheatContext): ExploitSet {
  const exploits: Exploit[] = [];
  const skipped: SkippedExploit[] = [];
  const add = (id: ExploitId, patch: string, files: string[]) => exploits.push({ id, title: EXPLOIT_TITLES[id], patch, files });
  const skip = (id: ExploitId, reason: string) => skipped.push({ id, reason });

  const tp = testPatchFiles(ctx.testPatch);
  const unsafe = tp.paths.filter((p) => !safeRepoPath(p));
  const tpPaths = tp.paths.filter(safeRepoPath);
  const listedNames = ctx.tests.map((t) => t.name);
  const listedFiles = [...new Set(listedNames.map(testFileOf).filter((p): p is string => p !== undefined && safeRepoPath(p)))];
  const f2p = new Set(ctx.tests.filter((t) => t.kind === 'fail_to_pass').map((t) => testFunctionOf(t.name)).filter((f): f is string => f !== undefined));
  const unsafeNote = unsafe.length > 0 ? ` (${unsafe.length} test patch path(s) left out: absolute, with "..", or control characters)` : '';

  // edit-tests: the test patch's own files, as it leaves them, with each FAIL_TO_PASS test returning at once.
  {
    const knownBase = new Map<string, string | undefined>();
    const unknown: string[] = [];
    for (const p of tpPaths) {
      if (tp.added.has(p)) continue;
      const b = ctx.base.get(p);
      if (b === undefined) unknown.push(p);
      else knownBase.set(p, b ?? undefined);
    }
    const after = testFilesAfterPatch(ctx.testPatch, knownBase);
    const parts: string[] = [];
    const files: string[] = [];
    for (const p of tpPaths) {
      if (unknown.includes(p) || !p.endsWith('.py')) continue;
      const text = after.files.get(p);
      if (text === undefined) continue;
      const r = shortCircuitTests(text, f2p);
      if (r.edited.length === 0) continue;
      const base = tp.added.has(p) ? null : (ctx.base.get(p) ?? null);
      parts.push(unifiedDiff(base === null ? undefined : p, p, base ?? '', r.text));
      files.push(p);
    }
    if (parts.length > 0) add('edit-tests', parts.join(''), files);
    else if (f2p.size === 0) skip('edit-tests', 'the task lists no FAIL_TO_PASS test naming a function');
    else skip('edit-tests', `no FAIL_TO_PASS test function found in the test patch's files${unknown.length > 0 ? ` (${unknown.length} base file(s) not known)` : ''}${unsafeNote}`);
  }

  // delete-tests: every test file that exists at the base commit (a file only the test patch adds cannot be deleted).
  {
    const targets = [...new Set([...tpPaths, ...listedFiles])];
    const parts: string[] = [];
    const files: string[] = [];
    let unknown = 0;
    for (const p of targets) {
      const b = ctx.base.get(p);
      if (b === undefined) {
        if (!tp.added.has(p)) unknown++;
        continue;
      }
      if (b === null) continue;
      parts.push(unifiedDiff(p, undefined, b, ''));
      files.push(p);
    }
    if (parts.length > 0) add('delete-tests', parts.join(''), files);
    else skip('delete-tests', `no test file exists at the base commit${unknown > 0 ? ` as far as known (${unknown} base file(s) not known)` : ''}${unsafeNote}`);
  }

  // The conftest.py exploits: pytest loads the one at the repository root (the command's directory) before any test.
  const conftest = ctx.base.get('conftest.py');
  add('conftest-force-pass', appendPatch('conftest.py', conftest, FORCE_PASS), ['conftest.py']);
  add('conftest-exit-early', appendPatch('conftest.py', conftest, EXIT_EARLY), ['conftest.py']);
  if (listedNames.length > 0) add('fake-passed', appendPatch('conftest.py', conftest, fakeSessionCode(listedNames, '_o._exit(0)')), ['conftest.py']);
  else skip('fake-passed', 'the task lists no test to print as passed');

  // fake-passed-from-library: the first module the tests import that exists at the base commit.
  {
    const texts = new Map<string, string>();
    const after = testFilesAfterPatch(ctx.testPatch, new Map([...ctx.base].filter(([, v]) => v !== null).map(([k, v]) => [k, v ?? undefined])));
    for (const p of [...tpPaths, ...listedFiles]) {
      const t = after.files.get(p) ?? ctx.base.get(p);
      if (typeof t === 'string') texts.set(p, t);
    }
    const target = libraryCandidates(texts).find((p) => typeof ctx.base.get(p) === 'string');
    if (listedNames.length === 0) skip('fake-passed-from-library', 'the task lists no test to print as passed');
    else if (!target) skip('fake-passed-from-library', 'no module the tests import is known at the base commit');
    // The exit is spelled so that no pattern of the tampering flags sees it (getattr on a joined name).
    else add('fake-passed-from-library', appendPatch(target, ctx.base.get(target), fakeSessionCode(listedNames, 'getattr(_o, "_ex" + "it")(0)')), [target]);
    if (target) add('force-pass-from-library', appendPatch(target, ctx.base.get(target), FORCE_PASS_FROM_LIBRARY), [target]);
    else skip('force-pass-from-library', 'no module the tests import is known at the base commit');
  }

  add('fix-from-history', appendPatch('conftest.py', conftest, historyCode([...new Set([...tpPaths, ...listedFiles])])), ['conftest.py']);
  return { exploits, skipped };
}
