// One instance row into a task draft: tests from FAIL_TO_PASS / PASS_TO_PASS, the request from the problem
// statement and hints, the verifier command, the environment image, and where it all came from.
import type { TaskDraft } from '../serialize';
import type { InstanceRow } from './instances';
import { repoParts } from './instances';
import { chooseVerifier } from './testCommand';
import type { VerifierChoice, VerifierRefusal } from './testCommand';

export const NO_SPECS_NOTE =
  'Imported from a SWE-bench-style row, which carries no specs: the task has none yet. Write them from the request before review.';

const TASK_ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** A task id (and folder name) for an instance id: the id itself when it is one, else a cleaned copy. */
export function taskIdFor(instanceId: string): string {
  if (TASK_ID_RE.test(instanceId)) return instanceId;
  const cleaned = instanceId.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 200);
  return cleaned || 'instance';
}

/**
 * Expands `{instance_id}`, `{repo}`, `{owner}`, `{name}`, `{swebench_id}` and `{swegym_id}` in an image name.
 */
export function expandImage(template: string, row: Pick<InstanceRow, 'instanceId' | 'repo'>): { image: string; unknown: string[] } {
  const { owner, name } = repoParts(row.repo);
  const values: Record<string, string> = {
    instance_id: row.instanceId,
    repo: row.repo,
    owner: owner ?? '',
    name,
    // SWE-bench's published images spell `__` as `_1776_` and use lower case.
    swebench_id: row.instanceId.replace(/__/g, '_1776_').toLowerCase(),
    // SWE-Gym's (OpenHands' `get_instance_docker_image`): `__` as `_s_`, then all lower case.
    swegym_id: row.instanceId.replace(/__/g, '_s_').toLowerCase(),
  };
  const unknown: string[] = [];
  const image = template.replace(/\{([a-z_]+)\}/g, (all, key: string) => {
    const v = values[key];
    if (v === undefined) {
      unknown.push(all);
      return all;
    }
    return v;
  });
  return { image, unknown };
}

export interface TaskInput {
  row: InstanceRow;
  repo: TaskDraft['repo'];
  /** `--image`, possibly with placeholders. */
  image?: string;
  testCmd?: string;
  /** Other files that hold the same instance. */
  alsoIn?: string[];
  /** Extra notes (e.g. about the repository clone). */
  notes?: string[];
}

export interface BuiltTask {
  task: TaskDraft;
  request: string;
  testPatch: string;
  goldPatch?: string;
  verifier: VerifierChoice;
  /** Things the import report should say about this task. */
  warnings: string[];
}

/** The first line of the problem statement, without Markdown heading marks, as a title. */
export function titleOf(row: InstanceRow): string {
  const first = row.problemStatement
    .split(/\r?\n/)
    .map((l) => l.replace(/^#+\s*/, '').trim())
    .find((l) => l.length > 0);
  if (!first) return row.instanceId;
  return first.length > 120 ? `${first.slice(0, 117)}...` : first;
}

/**
 * request.md: the problem statement; SWE-bench Pro's requirements and new interfaces as its harness writes them into
 * the prompt (`Requirements:` / `New interfaces introduced:`); then the hints under their own heading.
 */
export function requestOf(row: InstanceRow): string {
  const lf = (s: string) => s.replace(/\r\n?/g, '\n').trimEnd();
  let out = lf(row.problemStatement);
  if (row.requirements?.trim()) out += `\n\nRequirements:\n${lf(row.requirements)}`;
  if (row.interface?.trim()) out += `\n\nNew interfaces introduced:\n${lf(row.interface)}`;
  const hints = row.hintsText ? lf(row.hintsText) : '';
  if (hints.trim()) out += `\n\n## Hints\n\n${hints}`;
  return out + '\n';
}

/** Test ids cut short at a space inside a parametrized id (SWE-bench splits log lines on whitespace). */
export function looksTruncated(testId: string): boolean {
  let depth = 0;
  for (const c of testId) {
    if (c === '[') depth++;
    else if (c === ']') depth = Math.max(0, depth - 1);
  }
  return depth > 0;
}

/** The task of a row, or why it cannot have one (no test command known). */
export function buildTask(input: TaskInput): BuiltTask | VerifierRefusal {
  const { row } = input;
  const warnings: string[] = [];
  const notes = [NO_SPECS_NOTE];
  const tests: TaskDraft['tests'] = [];
  const seen = new Set<string>();
  const add = (name: string, kind: 'fail_to_pass' | 'pass_to_pass') => {
    if (seen.has(name)) {
      warnings.push(`test "${name}" is listed twice (${kind === 'fail_to_pass' ? 'FAIL_TO_PASS' : 'PASS_TO_PASS'}); kept once`);
      return;
    }
    seen.add(name);
    tests.push({ id: `T${tests.length + 1}`, name, kind });
  };
  for (const t of row.failToPass) add(t, 'fail_to_pass');
  for (const t of row.passToPass) add(t, 'pass_to_pass');
  if (row.failToPass.length === 0) warnings.push('no FAIL_TO_PASS tests: nothing in the tests can tell a fix from no change');

  const truncated = tests.filter((t) => looksTruncated(t.name));
  if (truncated.length > 0) {
    notes.push(
      `${truncated.length} test id(s) end inside a parametrized id (cut at a space by the tool that listed them), e.g. ` +
        `"${truncated[0]?.name}". They are kept as given; the runner reports them in full.`,
    );
  }

  const verifier = chooseVerifier({
    repo: row.repo,
    ...(row.testPatch !== undefined ? { testPatch: row.testPatch } : {}),
    ...(row.patch !== undefined && row.flavor !== 'swe-smith' ? { goldPatch: row.patch } : {}),
    ...(row.command !== undefined ? { rowCommand: row.command } : {}),
    ...(row.logParser !== undefined ? { logParser: row.logParser } : {}),
    ...(row.parser !== undefined ? { parser: row.parser } : {}),
    ...(row.noParser !== undefined ? { noParser: row.noParser } : {}),
    ...(row.language !== undefined ? { language: row.language } : {}),
    ...(row.testTargets !== undefined ? { testTargets: row.testTargets } : {}),
    ...(row.commandHint !== undefined ? { commandHint: row.commandHint } : {}),
    ...(input.testCmd !== undefined ? { override: input.testCmd } : {}),
  });
  if ('error' in verifier) return verifier;
  notes.push(...(row.notes ?? []), ...verifier.notes);

  let image: string | undefined;
  if (input.image !== undefined) {
    const e = expandImage(input.image, row);
    image = e.image;
    if (e.unknown.length > 0) warnings.push(`--image has unknown placeholder(s) ${e.unknown.join(', ')}; left as written`);
  } else if (row.imageName) image = row.imageName;

  let goldPatch: string | undefined = row.patch;
  const source: Record<string, unknown> = {
    importer: 'swebench',
    file: row.file,
    line: row.line,
    instance_id: row.instanceId,
    repo: row.repo,
  };
  const optional: Array<[string, string | undefined]> = [
    ['base_commit', row.baseCommit],
    ['version', row.version],
    ['created_at', row.createdAt],
    ['environment_setup_commit', row.environmentSetupCommit],
    ['difficulty', row.difficulty],
    ['image_name', row.imageName],
    ['test_cmd', row.command?.from === 'install_config.test_cmd' ? row.command.command : undefined],
    ['log_parser', row.logParser !== undefined && !/\s/.test(row.logParser.trim()) ? row.logParser.trim() : undefined],
    ['language', row.language],
  ];
  for (const [k, v] of optional) if (v !== undefined && v !== '') source[k] = v;
  for (const [k, v] of Object.entries(row.extraSource ?? {})) if (v !== undefined && !(k in source)) source[k] = v;
  if (row.flavor !== 'swe-bench') source.flavor = row.flavor;
  if (input.alsoIn && input.alsoIn.length > 0) source.also_in = input.alsoIn;
  if (row.flavor === 'swe-smith') {
    // SWE-smith's `patch` creates the bug (its image has a branch named after the instance with it applied).
    goldPatch = undefined;
    if (row.patch) source.bug_patch = row.patch;
    notes.push(
      'SWE-smith row: its `patch` introduces the bug, so it is kept in source.bug_patch and no gold patch is written; ' +
        'the repository in the image starts from the branch named after the instance.',
    );
  }
  if (row.testPatch === undefined) notes.push('The row has no test patch: its tests are already in the repository.');
  notes.push(...(input.notes ?? []));

  const task: TaskDraft = {
    id: taskIdFor(row.instanceId),
    title: titleOf(row),
    repo: input.repo,
    ...(image !== undefined || row.workdir !== undefined
      ? { environment: { ...(image !== undefined ? { image } : {}), ...(row.workdir !== undefined ? { workdir: row.workdir } : {}) } }
      : {}),
    verifier: { command: verifier.command, parser: verifier.parser },
    specs: [],
    tests,
    notes,
    source,
  };
  return {
    task,
    request: requestOf(row),
    testPatch: row.testPatch ?? '',
    ...(goldPatch !== undefined && goldPatch !== '' ? { goldPatch } : {}),
    verifier,
    warnings,
  };
}
