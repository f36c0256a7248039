// The verifier command of an imported instance: the user's --test-cmd, the row's own (SWE-rebench), or what
// SWE-bench runs for the repository: Django's runtests.py over test modules, SymPy's bin/test, else pytest -rA,
// each over the test files the test patch touches.
import type { ResultParser } from '../model';
import { filePath, parsePatch } from '../patch';

export interface VerifierChoice {
  command: string;
  parser: ResultParser;
  /** The test files (or Django test modules) the command runs. */
  targets: string[];
  /** Where the command came from, for the import report. */
  from: 'option' | 'row' | 'default';
  notes: string[];
}

// SWE-bench leaves these out of the test directives: they are data, not tests.
const NON_TEST_EXTS = ['.json', '.png', '.csv', '.txt', '.md', '.jpg', '.jpeg', '.pkl', '.yml', '.yaml', '.toml', '.rst', '.cfg', '.ini'];

/** Files a test patch adds or changes, minus data files, in patch order. */
export function testPatchFiles(testPatch: string | undefined): string[] {
  if (!testPatch) return [];
  const out: string[] = [];
  for (const f of parsePatch(testPatch, 'tests.patch').files) {
    if (f.status === 'deleted') continue;
    const p = filePath(f);
    if (!p || NON_TEST_EXTS.some((e) => p.toLowerCase().endsWith(e))) continue;
    if (!out.includes(p)) out.push(p);
  }
  return out;
}

/** Django's runner takes dotted test modules relative to tests/: `tests/a/test_b.py` -> `a.test_b`. */
export function djangoModules(files: string[]): string[] {
  return files
    .filter((f) => f.endsWith('.py'))
    .map((f) => f.replace(/^tests\//, '').replace(/\.py$/, '').replace(/\//g, '.'));
}

export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export interface VerifierInput {
  repo: string;
  testPatch?: string;
  /** SWE-rebench `install_config.test_cmd`. */
  rowTestCmd?: string;
  /** `--test-cmd`; `{tests}` is replaced by the test targets, else used as given. */
  override?: string;
}

export function chooseVerifier(input: VerifierInput): VerifierChoice {
  const files = testPatchFiles(input.testPatch);
  const repo = input.repo.toLowerCase();
  const isDjango = repo === 'django/django' || repo.endsWith('/django') || repo === 'django';
  const isSympy = repo === 'sympy/sympy' || repo === 'sympy';
  const targets = isDjango ? djangoModules(files) : files;
  const quoted = targets.map(shellQuote).join(' ');
  const notes: string[] = [];
  const withTargets = (cmd: string) => (cmd.includes('{tests}') ? cmd.replace(/\{tests\}/g, quoted) : quoted ? `${cmd} ${quoted}` : cmd);
  if (input.override !== undefined) {
    const command = input.override.includes('{tests}') ? input.override.replace(/\{tests\}/g, quoted) : input.override;
    return { command, parser: 'pytest', targets, from: 'option', notes };
  }
  if (input.rowTestCmd) return { command: withTargets(input.rowTestCmd), parser: 'pytest', targets, from: 'row', notes };
  if (targets.length === 0) notes.push('The test patch touches no test file: the verifier runs the whole test suite.');
  if (isDjango) {
    notes.push("The verifier runs Django's tests/runtests.py as SWE-bench does; its output names tests `test_x (module.Class)` or by docstring.");
    return { command: withTargets('./tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1'), parser: 'django', targets, from: 'default', notes };
  }
  if (isSympy) {
    notes.push("The verifier runs SymPy's bin/test as SWE-bench does; its output names tests by function name only.");
    return { command: withTargets("PYTHONWARNINGS='ignore::UserWarning,ignore::SyntaxWarning' bin/test -C --verbose"), parser: 'pytest', targets, from: 'default', notes };
  }
  return { command: withTargets('pytest -rA'), parser: 'pytest', targets, from: 'default', notes };
}
