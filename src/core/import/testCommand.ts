// The verifier command of an imported instance and the parser that reads its output: the user's --test-cmd, the
// row's own command (SWE-bench v5 eval scripts, SWE-rebench's test_cmd, SWE-bench-Live's test_cmds, SWE-PolyBench's
// test_command, SWE-bench Pro's run script, the command an image carries), or what SWE-bench runs for a Python
// repository: Django's runtests.py over test modules, SymPy's bin/test, else pytest -rA, each over the test files the
// test patch touches. A task in another language without a command of its own gets none: it is refused, never given
// a pytest verifier.
import type { ResultParser } from '../model';
import { filePath, parsePatch } from '../patch';
import type { RowCommand } from './instanceRow';

export interface VerifierChoice {
  command: string;
  parser: ResultParser;
  /** The test files (or Django test modules) the command runs. */
  targets: string[];
  /** Where the command came from, for the import report. */
  from: 'option' | 'row' | 'default';
  notes: string[];
}

/** No command or no parser is known for the task: why, for an error naming the row. */
export interface VerifierRefusal {
  error: string;
}

// SWE-bench leaves these out of the test directives: they are data, not tests.
const NON_TEST_EXTS = ['.json', '.png', '.csv', '.txt', '.md', '.jpg', '.jpeg', '.pkl', '.yml', '.yaml', '.toml', '.rst', '.cfg', '.ini'];

/** Files a patch adds or changes, in patch order. */
function patchFiles(patch: string | undefined, name: string): string[] {
  if (!patch) return [];
  const out: string[] = [];
  for (const f of parsePatch(patch, name).files) {
    if (f.status === 'deleted') continue;
    const p = filePath(f);
    if (p && !out.includes(p)) out.push(p);
  }
  return out;
}

/** Files a test patch adds or changes, minus data files, in patch order. */
export function testPatchFiles(testPatch: string | undefined): string[] {
  return patchFiles(testPatch, 'tests.patch').filter((p) => !NON_TEST_EXTS.some((e) => p.toLowerCase().endsWith(e)));
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

const EXT_LANGUAGE: Array<[RegExp, string]> = [
  [/\.(py|pyi|pyx)$/, 'python'],
  [/\.go$/, 'go'],
  [/\.rs$/, 'rust'],
  [/\.java$/, 'java'],
  [/\.kts?$/, 'kotlin'],
  [/\.scala$/, 'scala'],
  [/\.(js|jsx|mjs|cjs)$/, 'javascript'],
  [/\.(ts|tsx|mts|cts)$/, 'typescript'],
  [/\.(c|h)$/, 'c'],
  [/\.(cc|cpp|cxx|hpp|hh|hxx)$/, 'cpp'],
  [/\.php$/, 'php'],
  [/\.rb$/, 'ruby'],
  [/\.cs$/, 'csharp'],
  [/\.swift$/, 'swift'],
];

/** The language of the code files a patch touches: Python when it touches any, else the most frequent one. */
export function languageOfFiles(files: string[]): { language: string; file: string } | undefined {
  const counts = new Map<string, { n: number; file: string }>();
  for (const f of files) {
    const lang = EXT_LANGUAGE.find(([re]) => re.test(f.toLowerCase()))?.[1];
    if (!lang) continue;
    if (lang === 'python') return { language: lang, file: f };
    const c = counts.get(lang);
    if (c) c.n++;
    else counts.set(lang, { n: 1, file: f });
  }
  let best: { language: string; file: string; n: number } | undefined;
  for (const [language, c] of counts) if (!best || c.n > best.n) best = { language, file: c.file, n: c.n };
  return best ? { language: best.language, file: best.file } : undefined;
}

const PYTEST_NAMES = /^parse_log_(pytest\w*|seaborn|sympy|matplotlib|astroid|flask|marshmallow|pvlib|pyvista|sqlfluff|xarray|pydicom|requests|pylint|astropy|scikit|sphinx)$/;
const NAMED_PARSERS: Record<string, ResultParser> = {
  pytest: 'pytest',
  parse_log_django: 'django',
  parse_log_gotest: 'gotest',
  parse_log_cargo: 'cargo',
  parse_log_maven: 'maven',
  parse_java_mvn: 'maven',
  parse_log_gradle_custom: 'gradle',
  parse_log_gradle: 'gradle',
  parse_log_ant: 'ant',
  parse_log_jest: 'jest',
  parse_log_jest_json: 'jest',
  parse_log_vitest: 'jest',
};

/**
 * The parser for a benchmark's log parser name (SWE-bench's and SWE-rebench's `parse_log_*` names, SWE-bench-Live's
 * `pytest`); `unknown` for a name SpecWeave has no parser for; undefined when there is no name (absent, or code).
 */
export function parserForName(name: string | undefined): { parser: ResultParser } | { unknown: string } | undefined {
  const n = name?.trim();
  if (!n || /\s/.test(n)) return undefined;
  const p = NAMED_PARSERS[n] ?? (PYTEST_NAMES.test(n) ? 'pytest' : undefined);
  return p ? { parser: p } : { unknown: n };
}

const COMMAND_PARSERS: Array<[RegExp, ResultParser]> = [
  [/\bgo\s+test\b/, 'gotest'],
  [/\bcargo\s+test\b/, 'cargo'],
  [/(^|[\s;&|(/])(mvnd?|mvnw)\s/m, 'maven'],
  [/(^|[\s;&|(/])gradlew?\s/m, 'gradle'],
  [/(^|[\s;&|(])ant\s/m, 'ant'],
  [/\b(jest|vitest)\b/, 'jest'],
  [/runtests\.py\b/, 'django'],
  [/\bpy\.?test\b/, 'pytest'],
  [/(^|\s)bin\/test\b/m, 'pytest'],
];

/** The parser a command's runner needs, when the command names a runner SpecWeave reads. */
export function parserOfCommand(command: string): ResultParser | undefined {
  return COMMAND_PARSERS.find(([re]) => re.test(command))?.[1];
}

const LANGUAGE_PARSERS: Record<string, ResultParser> = { python: 'pytest', go: 'gotest', rust: 'cargo', java: 'maven', kotlin: 'gradle' };

export interface VerifierInput {
  repo: string;
  testPatch?: string;
  goldPatch?: string;
  /** The row's own test command. */
  rowCommand?: RowCommand;
  /** The row's log parser, as it names it. */
  logParser?: string;
  /** A parser the row's benchmark is known to grade it with. */
  parser?: ResultParser;
  /** Why the benchmark's way of reading the output is not one SpecWeave has. */
  noParser?: string;
  language?: string;
  /** What `{tests}` stands for instead of the test patch's files. */
  testTargets?: string[];
  /** Where the benchmark keeps the command when the row has none. */
  commandHint?: string;
  /** `--test-cmd`; `{tests}` is replaced by the test targets, else used as given. */
  override?: string;
}

const refuse = (why: string): VerifierRefusal => ({ error: `no test command known for this task (${why}); give --test-cmd` });

export function chooseVerifier(input: VerifierInput): VerifierChoice | VerifierRefusal {
  const files = testPatchFiles(input.testPatch);
  const repo = input.repo.toLowerCase();
  const isDjango = repo === 'django/django' || repo.endsWith('/django') || repo === 'django';
  const isSympy = repo === 'sympy/sympy' || repo === 'sympy';
  const detected = input.language ? undefined : (languageOfFiles(files) ?? languageOfFiles(patchFiles(input.goldPatch, 'gold.patch')));
  const language = input.language ?? detected?.language;
  const isPython = language === undefined || language === 'python';
  const targets = input.testTargets ?? (isDjango ? djangoModules(files) : files);
  const quoted = targets.map(shellQuote).join(' ');
  const notes: string[] = [];
  const withTargets = (cmd: string) => (cmd.includes('{tests}') ? cmd.replace(/\{tests\}/g, quoted) : quoted ? `${cmd} ${quoted}` : cmd);
  const named = parserForName(input.logParser);
  const rowParser = named && 'parser' in named ? named.parser : input.parser;
  const byLanguage = language ? LANGUAGE_PARSERS[language] : undefined;
  const a = (l: string) => (/^[aeiou]/.test(l) ? `an ${l}` : `a ${l}`);

  if (input.override !== undefined) {
    const command = input.override.includes('{tests}') ? input.override.replace(/\{tests\}/g, quoted) : input.override;
    let parser = parserOfCommand(command) ?? rowParser ?? byLanguage ?? (isDjango ? 'django' : isPython ? 'pytest' : undefined);
    if (!parser) {
      parser = 'exitcode';
      notes.push(`No parser is known for the output of --test-cmd on this ${language} task: every test takes the exit code's verdict.`);
    }
    return { command, parser, targets, from: 'option', notes };
  }
  if (input.rowCommand) {
    const cmd = input.rowCommand.command;
    const first = cmd.split('\n').find((l) => l.trim()) ?? cmd;
    if (named && 'unknown' in named) return refuse(`its log_parser ${named.unknown} is not one SpecWeave reads, so the output of \`${first}\` could not be graded`);
    if (input.noParser) return refuse(input.noParser);
    const parser = rowParser ?? parserOfCommand(cmd) ?? byLanguage ?? (isPython ? 'pytest' : undefined);
    if (!parser) return refuse(`no parser is known for the output of \`${first}\` on this ${language} task`);
    const command = input.rowCommand.appendTargets ? withTargets(cmd) : cmd;
    return { command, parser, targets, from: 'row', notes };
  }
  if (input.noParser) return refuse(input.noParser);
  if (!isPython) {
    const why = detected ? `${a(language as string)} task: its test patch changes ${detected.file}` : `${a(language as string)} task`;
    return refuse(`${why}${input.commandHint ? `; ${input.commandHint}` : ', and the row carries no test command'}`);
  }
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
