// The SWE-bench team's per-task folders (SWE-bench/swe-bench-multimodal-dockerfiles, `tasks/<instance_id>/`): the
// row is rebuilt exactly as the producer's loader (`dockerfile_gen/tasks.py: load_task`) does: `task.yaml` holds the
// row's scalar columns, plus `patch` <- gold.patch, `test_patch` <- test.patch, `eval_script` <- eval.sh,
// `problem_statement` <- problem_statement.md, `hints_text` <- hints.md (or ""), FAIL_TO_PASS / PASS_TO_PASS <-
// tests.json. That row is then imported like any SWE-bench row; what only the folder has (its eval script, image,
// Dockerfile, assets, split) is applied to the built task afterwards. Pure.
import type { Problem, ResultParser } from '../model';
import { parseYaml } from './simpleYaml';
import type { YamlValue } from './simpleYaml';
import type { BuiltTask } from './toTask';
import { parserForName, parserOfCommand } from './testCommand';

/** What the fs adapter read from one task folder (texts decoded as UTF-8, line endings kept). */
export interface SwebenchTaskFolder {
  dir: string;
  folderName: string;
  taskYaml: string;
  problemStatement?: string;
  hints?: string;
  goldPatch?: string;
  testPatch?: string;
  testsJson?: string;
  evalSh?: string;
  hasDockerfile: boolean;
  /** Files under problem_assets/ and test_assets/, relative to those folders. */
  problemAssets: string[];
  testAssets: string[];
}

/** What only the folder has, kept beside the rebuilt row. */
export interface TaskFolderExtras {
  dir: string;
  evalSh?: string;
  image?: string;
  hasDockerfile: boolean;
  logParser?: string;
  evalType?: string;
  split?: string;
  problemAssets: string[];
  testAssets: string[];
}

export type RebuiltRow = { ok: true; row: Record<string, unknown>; extras: TaskFolderExtras; warnings: string[] } | { ok: false; problems: Problem[] };

const own = (o: Record<string, YamlValue>, k: string): YamlValue | undefined => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);

/** `load_task`, in TypeScript: the row the folder was written from. */
export function rebuildRow(f: SwebenchTaskFolder): RebuiltRow {
  const yamlFile = `${f.dir}/task.yaml`;
  const y = parseYaml(f.taskYaml, yamlFile);
  if (!y.ok) return { ok: false, problems: [{ ...y.problem, message: `${y.problem.message}; the task is skipped` }] };
  const v = y.value;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return { ok: false, problems: [{ severity: 'error', file: yamlFile, message: "expected a mapping of the row's columns; the task is skipped" }] };
  const warnings: string[] = [];
  const row: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    // The producer writes these as quoted strings; an unquoted value would have been read as a number by PyYAML too.
    const value = typeof x === 'number' && ['version', 'created_at', 'instance_id', 'base_commit'].includes(k) ? String(x) : x;
    Object.defineProperty(row, k, { value, enumerable: true, writable: true, configurable: true });
  }
  if (typeof row.instance_id !== 'string' || !row.instance_id.trim()) {
    return { ok: false, problems: [{ severity: 'error', file: yamlFile, field: 'instance_id', message: 'task.yaml names no instance_id; the task is skipped' }] };
  }
  if (row.instance_id !== f.folderName) warnings.push(`${f.dir}: the folder is named ${f.folderName} but task.yaml says instance_id ${row.instance_id}; the instance id is used`);
  const testsFile = `${f.dir}/tests.json`;
  if (f.testsJson === undefined) return { ok: false, problems: [{ severity: 'error', file: testsFile, message: 'missing: the folder lists no FAIL_TO_PASS / PASS_TO_PASS tests; the task is skipped' }] };
  let tests: unknown;
  try {
    tests = JSON.parse(f.testsJson.charCodeAt(0) === 0xfeff ? f.testsJson.slice(1) : f.testsJson);
  } catch (e) {
    return { ok: false, problems: [{ severity: 'error', file: testsFile, message: `not JSON (${(e as Error).message}); the task is skipped` }] };
  }
  const t = tests !== null && typeof tests === 'object' && !Array.isArray(tests) ? (tests as Record<string, unknown>) : undefined;
  for (const key of ['FAIL_TO_PASS', 'PASS_TO_PASS']) {
    const list = t?.[key];
    if (!Array.isArray(list) || list.some((x) => typeof x !== 'string')) {
      return { ok: false, problems: [{ severity: 'error', file: testsFile, field: key, message: `${key} must be a list of test names; the task is skipped` }] };
    }
    row[key] = list;
  }
  if (f.goldPatch !== undefined) row.patch = f.goldPatch;
  else warnings.push(`${f.dir}: no gold.patch: the task has no gold patch`);
  if (f.testPatch !== undefined) row.test_patch = f.testPatch;
  if (f.evalSh !== undefined) row.eval_script = f.evalSh;
  if (f.problemStatement !== undefined) row.problem_statement = f.problemStatement;
  else warnings.push(`${f.dir}: no problem_statement.md: request.md will be empty`);
  row.hints_text = f.hints ?? '';
  const yv = v as Record<string, YamlValue>;
  const s = (k: string) => {
    const x = own(yv, k);
    return typeof x === 'string' && x.trim() ? x.trim() : undefined;
  };
  const extras: TaskFolderExtras = {
    dir: f.dir,
    ...(f.evalSh !== undefined ? { evalSh: f.evalSh } : {}),
    ...(s('image') ? { image: s('image') } : {}),
    hasDockerfile: f.hasDockerfile,
    ...(s('log_parser') ? { logParser: s('log_parser') } : {}),
    ...(s('eval_type') ? { evalType: s('eval_type') } : {}),
    ...(s('split') ? { split: s('split') } : {}),
    problemAssets: f.problemAssets,
    testAssets: f.testAssets,
  };
  return { ok: true, row, extras, warnings };
}

/**
 * The verifier command of an eval script: the script without its test-patch steps (`git checkout <base> <test
 * files>` and the `git apply … <<'EOF…'` here-document), which the driver does itself from tests.patch; everything
 * else (the environment set-up, a dependency re-sync, the test command between SWE-bench's markers) is kept in order.
 */
export function evalScriptWithoutTestPatch(evalSh: string, baseCommit: string | undefined): { command: string; removed: number } | undefined {
  const lines = evalSh.replace(/\r\n/g, '\n').split('\n');
  const out: string[] = [];
  let removed = 0;
  let heredoc: string | undefined;
  let sawApply = false;
  for (const l of lines) {
    if (heredoc !== undefined) {
      removed++;
      if (l === heredoc) heredoc = undefined;
      continue;
    }
    const apply = /^\s*git\b.*\bapply\b.*<<-?\s*['"]?([A-Za-z0-9_]+)['"]?\s*$/.exec(l);
    if (apply) {
      heredoc = apply[1];
      sawApply = true;
      removed++;
      continue;
    }
    if (baseCommit && new RegExp(`^\\s*git checkout ${baseCommit}\\b`).test(l)) {
      removed++;
      continue;
    }
    out.push(l);
  }
  if (!sawApply || heredoc !== undefined) return undefined;
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return { command: out.join('\n') + '\n', removed };
}

export interface FolderApplied {
  /** Files to copy into the task folder: `from` relative to the source folder, `to` task-relative. */
  copy: Array<{ from: string; to: string }>;
  warnings: string[];
}

/**
 * Applies what only the folder has to a task built from its row: the image and Dockerfile, the eval script as the
 * verifier when the row reader found none, the split and evaluation type, and the assets. Changes `built` in place.
 */
export function applyTaskFolder(built: BuiltTask, x: TaskFolderExtras, o: { imageGiven: boolean }): FolderApplied {
  const copy: FolderApplied['copy'] = [];
  const warnings: string[] = [];
  const notes = (built.task.notes ??= []);
  const env = (built.task.environment ??= {});
  if (!o.imageGiven && env.image === undefined && x.image) env.image = x.image;
  if (x.hasDockerfile) {
    copy.push({ from: 'Dockerfile', to: 'environment/Dockerfile' });
    env.dockerfile = 'environment/Dockerfile';
  }
  // The row reader took the command between the eval script's markers (and refused a log parser or grading
  // SpecWeave does not have, as for any row); the folder's whole script minus its test-patch steps keeps its set-up
  // (`source nvm.sh`, `conda activate testbed`, `cd`), with the parser the row reader chose.
  if (built.verifier.from !== 'option' && x.evalSh !== undefined) {
    const base = typeof built.task.source?.base_commit === 'string' ? built.task.source.base_commit : undefined;
    const cmd = evalScriptWithoutTestPatch(x.evalSh, base);
    if (cmd) {
      const named = parserForName(x.logParser);
      const parser: ResultParser =
        built.verifier.from === 'row' ? built.verifier.parser : named && 'parser' in named ? named.parser : (parserOfCommand(cmd.command) ?? 'pytest');
      // The default command's own notes (which files it runs) no longer apply.
      const stale = new Set(built.verifier.notes);
      built.task.notes = notes.filter((n) => !stale.has(n));
      built.task.verifier = { ...built.task.verifier, command: cmd.command, parser };
      built.verifier = { ...built.verifier, command: cmd.command, parser, from: 'row', notes: [] };
      built.task.notes.push(
        'The verifier command is the folder\'s eval.sh without its test-patch steps (`git checkout <base> <test files>` and the `git apply` here-document): the driver applies tests.patch itself.',
      );
    } else warnings.push(`${x.dir}/eval.sh has no test-patch here-document where one is expected; the row's command is kept`);
  }
  const tn = built.task.notes as string[];
  if (x.split === 'deprecated') {
    tn.push('The producer marks this task deprecated (split: deprecated): it was imported so that nothing is lost; review it as such.');
    warnings.push('the task is in the deprecated split');
  }
  if (x.split) (built.task.source ??= {}).split = x.split;
  if (x.problemAssets.length > 0) {
    for (const a of x.problemAssets) copy.push({ from: `problem_assets/${a}`, to: `problem_assets/${a}` });
    built.request = `${built.request.trimEnd()}\n\n## Images (problem_assets/)\n\n${x.problemAssets.map((a) => `- [${a}](problem_assets/${encodeURI(a)})`).join('\n')}\n`;
  }
  if (x.testAssets.length > 0) {
    for (const a of x.testAssets) copy.push({ from: `test_assets/${a}`, to: `test_assets/${a}` });
    tn.push(`test_assets/ (${x.testAssets.length} file(s)) holds binary files the test patch needs (a text patch cannot carry them); they are copied with the task but the verifier does not add them to the repository yet.`);
    warnings.push(`${x.testAssets.length} test asset(s) are not applied by the verifier`);
  }
  return { copy, warnings };
}
