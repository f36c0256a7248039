// An attempt's patch touching what grades it, read from the patch text alone: test files (the task's listed tests,
// the files of the test patch, test_*.py / *_test.py and tests/ folders), what pytest loads besides the tests
// (conftest.py, pytest_plugins, pytest11 entry points, modules a conftest imports, interpreter start-up hooks),
// pytest's configuration (pytest.ini, the pytest sections of setup.cfg / tox.ini / pyproject.toml), and code that
// exits the test process itself. Flags, not verdicts: a curator decides (the harness also restores the test patch's
// files after the attempt's patch, so edits to those cannot change the tests a run is graded by).
import type { TestCase } from '../model';
import type { FilePatch, Hunk } from '../patch';
import { filePath, parsePatch } from '../patch';
import type { RunFlag } from './runResult';

export interface TamperingContext {
  /** The task's test patch text ('' when none). */
  testPatch: string;
  tests: readonly Pick<TestCase, 'name'>[];
}

const TEST_FILE_RE = /(^|\/)(tests?|testing)\/|(^|\/)test_[^/]*\.py$|_tests?\.py$/;
const CONFIG_FILES = new Set(['pytest.ini', '.pytest.ini', 'pytest.toml', '.pytest.toml']);
const SECTIONED_CONFIG = new Set(['setup.cfg', 'tox.ini', 'pyproject.toml']);
/** Sections pytest reads its options from. */
const PYTEST_SECTION_RE = /^(tool:pytest|pytest|tool\.pytest(\..*)?)$/;
/** Keys that only mean something to pytest, for a hunk that shows no section header. */
const PYTEST_KEY_RE = /^\s*(addopts|testpaths|python_files|python_classes|python_functions|norecursedirs|required_plugins|usefixtures|confcutdir|rootdir|minversion|pytest_plugins|junit_\w+|log_cli\w*|xfail_strict|filterwarnings|markers|console_output_style)\s*=/;
const STARTUP_HOOK_RE = /(^|\/)(sitecustomize|usercustomize)\.py$|\.pth$/;
// Anywhere in Python code: leaving the process without pytest finishing (no summary, no report).
const EXIT_ANYWHERE: [RegExp, string][] = [
  [/\b_exit\s*\(/, 'os._exit('],
  [/\bos\.abort\s*\(/, 'os.abort('],
  [/\bpytest\.exit\s*\(/, 'pytest.exit('],
  [/\bos\.kill\s*\(\s*os\.getpid\s*\(\s*\)/, 'os.kill(os.getpid(), ...)'],
  [/\bsignal\.raise_signal\s*\(/, 'signal.raise_signal('],
];
// In code that is neither a test nor a conftest: pytest's hook and plugin machinery, which library code has no reason
// to touch. The cheat probe's `force-pass-from-library` exploit registers a makereport hookwrapper with pytest's plugin
// manager from the module the tests import and rewrites every failure as a pass: the log, the counts and the harness
// report then all agree, so only the patch text shows it. A bar, not a wall: code that builds these names at run time
// out of pieces is not seen (docs/verifier.md says so).
const PYTEST_MACHINERY: [RegExp, string][] = [
  [/\bpytest\.hookimpl\b|\bhookimpl\s*\(/, 'pytest.hookimpl'],
  [/\bhookwrapper\b/, 'hookwrapper'],
  [/\bPytestPluginManager\b|\bpluginmanager\b|\bplugin_manager\b/, "pytest's plugin manager"],
  [/\bpytest_(runtest|collection|collect|report|sessionstart|sessionfinish|terminal_summary|configure|unconfigure|itemcollected|make_collect_report)\w*/, 'a pytest hook name'],
  [/^\s*(from\s+_pytest\b|import\s+_pytest\b)|\b__import__\s*\(\s*["']_pytest/, "pytest's internals (_pytest)"],
];
// In conftest.py and other files pytest loads: any exit at all.
const EXIT_IN_PLUGIN: [RegExp, string][] = [
  [/\bsys\.exit\s*\(/, 'sys.exit('],
  [/\braise\s+SystemExit\b/, 'raise SystemExit'],
  [/(^|[^\w.])(exit|quit)\s*\(/, 'exit('],
  [/\batexit\.register\b/, 'atexit.register'],
];

interface Line {
  text: string;
  /** 1-based line in the new file (for added and context lines). */
  line: number;
  kind: ' ' | '+' | '-';
}

function linesOf(h: Hunk): Line[] {
  const out: Line[] = [];
  let n = h.newStart;
  for (const raw of h.lines) {
    const c = raw[0];
    if (c === '\\') continue;
    const kind = c === '+' ? '+' : c === '-' ? '-' : ' ';
    out.push({ text: raw.slice(1), line: n, kind });
    if (kind !== '-') n++;
  }
  return out;
}

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const dirName = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const isCode = (l: string) => l.trim() !== '' && !l.trimStart().startsWith('#');

/** The files of a node id (`tests/test_x.py::K::t` -> `tests/test_x.py`). */
function testFileOf(name: string): string | undefined {
  const at = name.indexOf('::');
  const file = at > 0 ? name.slice(0, at) : '';
  return file.endsWith('.py') ? file.replace(/^\.\//, '') : undefined;
}

/** The pytest-config sections a hunk's changed lines fall in ('' when the hunk shows no header before them). */
function changedSections(h: Hunk): Set<string> {
  const out = new Set<string>();
  const trailer = /^\s*\[([^\]]+)\]/.exec(h.section);
  let section = trailer ? (trailer[1] as string).trim() : '';
  for (const l of linesOf(h)) {
    const head = /^\s*\[([^\]]+)\]\s*$/.exec(l.text);
    if (head) section = (head[1] as string).trim();
    if (l.kind !== ' ') out.add(section);
  }
  return out;
}

function changedText(f: FilePatch): Line[] {
  return f.hunks.flatMap(linesOf).filter((l) => l.kind !== ' ');
}

/** Module names a Python file's visible lines import, resolved to candidate file paths. */
function importedPaths(file: string, lines: Line[]): string[] {
  const out: string[] = [];
  const dir = dirName(file);
  const add = (mod: string) => {
    let base = '';
    let m = mod;
    if (m.startsWith('.')) {
      const dots = /^\.+/.exec(m)?.[0].length ?? 1;
      const parts = dir ? dir.split('/') : [];
      base = parts.slice(0, Math.max(0, parts.length - (dots - 1))).join('/');
      m = m.slice(dots);
    }
    const rel = m.replace(/\./g, '/');
    const p = [base, rel].filter(Boolean).join('/');
    if (p) out.push(`${p}.py`, `${p}/__init__.py`);
  };
  for (const l of lines) {
    if (l.kind === '-') continue;
    const from = /^\s*from\s+([.\w]+)\s+import\b/.exec(l.text);
    if (from) add(from[1] as string);
    const imp = /^\s*import\s+([\w.]+(?:\s*,\s*[\w.]+)*)/.exec(l.text);
    if (imp) for (const mod of (imp[1] as string).split(',')) add(mod.trim().split(/\s+/)[0] as string);
    const plugins = /\bpytest_plugins\s*=\s*(.+)$/.exec(l.text);
    if (plugins) for (const q of (plugins[1] as string).matchAll(/["']([\w.]+)["']/g)) add(q[1] as string);
  }
  return out;
}

const endsWithPath = (file: string, candidate: string) => file === candidate || file.endsWith(`/${candidate}`);

/** Flags about an attempt's patch touching its own grading; empty for a patch that changes library code only. */
export function tamperingFlags(attemptPatch: string, ctx: TamperingContext): RunFlag[] {
  if (attemptPatch.trim() === '') return [];
  const files = parsePatch(attemptPatch, 'patch').files;
  const testPatchFiles = new Set(ctx.testPatch.trim() ? parsePatch(ctx.testPatch, 'tests.patch').files.flatMap((f) => [f.oldPath, f.newPath]) : []);
  const listedFiles = new Set(ctx.tests.map((t) => testFileOf(t.name)).filter((p): p is string => p !== undefined));

  const testFiles: string[] = [];
  const plugins: string[] = [];
  const config: string[] = [];
  const exits: string[] = [];
  const conftests: { file: string; lines: Line[] }[] = [];

  for (const f of files) {
    const paths = [...new Set([f.oldPath, f.newPath].filter((p): p is string => !!p))];
    const path = filePath(f);
    const name = baseName(path);
    const changed = changedText(f);
    const isConftest = name === 'conftest.py';
    if (isConftest) {
      const hooks = [...new Set(changed.filter((l) => l.kind === '+').flatMap((l) => [.../\bdef\s+(pytest_\w+)\s*\(/.exec(l.text)?.slice(1) ?? []]))];
      plugins.push(`${path}${hooks.length > 0 ? ` (hooks ${hooks.join(', ')})` : ''}`);
      conftests.push({ file: path, lines: f.hunks.flatMap(linesOf) });
    } else if (STARTUP_HOOK_RE.test(path)) {
      plugins.push(`${path} (run at interpreter start-up)`);
    } else if (paths.some((p) => testPatchFiles.has(p))) {
      testFiles.push(`${path} (the test patch changes it)`);
    } else if (paths.some((p) => listedFiles.has(p))) {
      testFiles.push(`${path} (a listed test's file)`);
    } else if (paths.some((p) => TEST_FILE_RE.test(p))) {
      testFiles.push(path);
    }

    if (CONFIG_FILES.has(name)) config.push(path);
    else if (SECTIONED_CONFIG.has(name)) {
      const sections = new Set<string>();
      for (const h of f.hunks) for (const s of changedSections(h)) sections.add(s);
      const named = [...sections].filter((s) => PYTEST_SECTION_RE.test(s));
      const unknownButPytest = sections.has('') && changed.some((l) => PYTEST_KEY_RE.test(l.text));
      if (named.length > 0 || unknownButPytest) config.push(`${path}${named.length > 0 ? ` [${named.join('], [')}]` : ''}`);
    }

    const adds = changed.filter((l) => l.kind === '+' && isCode(l.text));
    if (!isConftest) {
      const entry = adds.find((l) => /\bpytest11\b/.test(l.text));
      if (entry) plugins.push(`${path} (a pytest11 entry point at line ${entry.line})`);
      const pp = path.endsWith('.py') ? adds.find((l) => /^\s*pytest_plugins\s*=/.test(l.text)) : undefined;
      if (pp) plugins.push(`${path} (sets pytest_plugins at line ${pp.line})`);
    }
    if (path.endsWith('.py') && !isConftest && !STARTUP_HOOK_RE.test(path) && !paths.some((p) => testPatchFiles.has(p) || listedFiles.has(p) || TEST_FILE_RE.test(p))) {
      const reach = adds.flatMap((l) => PYTEST_MACHINERY.filter(([re]) => re.test(l.text)).map(([, what]) => `${what} at line ${l.line}`));
      if (reach.length > 0) plugins.push(`${path} (its code reaches into pytest: ${[...new Set(reach)].slice(0, 4).join(', ')})`);
    }
    if (path.endsWith('.py')) {
      const loaded = isConftest || STARTUP_HOOK_RE.test(path);
      for (const l of adds) {
        const hit = EXIT_ANYWHERE.find(([re]) => re.test(l.text)) ?? (loaded ? EXIT_IN_PLUGIN.find(([re]) => re.test(l.text)) : undefined);
        if (hit) exits.push(`${hit[1]} at ${path}:${l.line}`);
      }
    }
  }

  // Files a conftest imports (or names in pytest_plugins), as far as the patch shows the conftest.
  for (const c of conftests) {
    const wanted = importedPaths(c.file, c.lines);
    for (const f of files) {
      const p = filePath(f);
      if (p === c.file || baseName(p) === 'conftest.py') continue;
      if (wanted.some((w) => endsWithPath(p, w))) plugins.push(`${p} (imported by ${c.file})`);
    }
  }

  const out: RunFlag[] = [];
  const list = (xs: string[]) => [...new Set(xs)].join(', ');
  if (testFiles.length > 0) out.push({ kind: 'attempt_edits_tests', message: `the patch changes test files: ${list(testFiles)}` });
  if (plugins.length > 0) out.push({ kind: 'attempt_edits_test_plugins', message: `the patch changes what pytest loads besides the tests: ${list(plugins)}` });
  if (config.length > 0) out.push({ kind: 'attempt_edits_test_config', message: `the patch changes pytest's configuration: ${list(config)}` });
  if (exits.length > 0) out.push({ kind: 'attempt_exits_test_process', message: `the patch exits the test process itself: ${list(exits)}` });
  return out;
}
