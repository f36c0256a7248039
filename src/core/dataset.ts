// Builds the task model from the texts and folder listings of a SpecWeave dataset (I/O is the caller's job).
import { fieldFromPointer, lineOfPointer, parseJson } from './json';
import { DEFAULT_LIMITS, DEFAULT_TIMEOUT_SEC, DEFAULT_WORKDIR, isProbeId } from './model';
import type {
  Attempt,
  CandidateTask,
  DatasetManifest,
  Limits,
  Problem,
  RepoSource,
  Spec,
  TestCase,
} from './model';
import { joinRel, SYMLINK_OUT_MESSAGE, unsafeRelativePath } from './paths';
import type { AttemptDraft, TaskDraft } from './serialize';
import { schemaIssues, validateSchema } from './schema';

export const MANIFEST_FILE = 'specweave.json';
export const TASKS_DIR = 'tasks';
export const TASK_FILE = 'task.json';
export const REQUEST_FILE = 'request.md';
export const TEST_PATCH_FILE = 'tests.patch';
export const GOLD_PATCH_FILE = 'gold.patch';
export const ATTEMPTS_DIR = 'attempts';
export const ATTEMPT_FILE = 'attempt.json';
export const DEFAULT_PATCH_FILE = 'patch.diff';

/** One entry of a folder listing; `outside` marks a symlink that resolves outside the dataset. */
export interface DirEntry {
  name: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
  outside?: boolean;
}

export interface AttemptListing {
  id: string;
  /** Text of attempt.json, or undefined when the file is missing. */
  attemptJson?: string;
  /** Entries of the attempt folder, when the caller listed it (deep validation); undefined skips file checks. */
  entries?: DirEntry[];
  /** attempt.json is a symlink that leads out of the dataset (it was not read). */
  attemptJsonOutside?: boolean;
  /** attempt.json is a folder. */
  attemptJsonIsFolder?: boolean;
  /** attempt.json is a FIFO, socket or device (it was not read). */
  attemptJsonIsSpecial?: boolean;
}

export interface TaskListing {
  /** Folder name under tasks/. */
  name: string;
  taskJson?: string;
  /** Entries of the task folder the caller looked at: all of them when `complete`, else only the ones it checked. */
  entries: DirEntry[];
  /** True when `entries` is the whole folder, so missing files can be reported (deep validation). */
  complete: boolean;
  attempts: AttemptListing[];
}

const manifestFile = MANIFEST_FILE;

/**
 * Parses and validates specweave.json, filling in defaults. What is valid is kept: an unknown field is a warning and
 * ignored, an invalid optional field is an error and its default applies. Only a file that is no JSON object, or
 * whose `format` is not 1, gives no manifest. `fallbackName` names a dataset whose name is missing or invalid.
 */
export function parseManifest(text: string | undefined, fallbackName = 'dataset'): { manifest?: DatasetManifest; problems: Problem[] } {
  if (text === undefined) {
    return {
      problems: [{ severity: 'error', file: manifestFile, message: 'no specweave.json here: this folder is not a SpecWeave dataset' }],
    };
  }
  const parsed = parseJson(text, manifestFile);
  if (!parsed.ok) return { problems: [parsed.problem] };
  const value = parsed.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { problems: [{ severity: 'error', file: manifestFile, line: 1, message: 'expected a JSON object' }] };
  }
  const problems: Problem[] = [];
  // The value is ours: take out what is not valid, field by field, until the rest is.
  const handled = new Set<string>();
  for (let round = 0; round < 8; round++) {
    const issues = schemaIssues('manifest', value, text, manifestFile).filter((i) => !handled.has(i.pointer));
    if (issues.length === 0) break;
    for (const i of issues) {
      if (i.pointer === '/format' || i.pointer === '') return { problems: [...problems, i.problem] };
      handled.add(i.pointer);
      if (i.keyword === 'additionalProperties') {
        problems.push({ ...i.problem, severity: 'warning', message: 'unknown field, ignored (check its spelling; see docs/format.md)' });
      } else problems.push({ ...i.problem, message: `${i.problem.message}; ${i.pointer === '/name' ? `the folder name "${fallbackName}" is used` : 'ignored, the default applies'}` });
      removeAt(value as Record<string, unknown>, i.pointer);
      if (i.pointer === '/name') (value as Record<string, unknown>).name = fallbackName.slice(0, 200) || 'dataset';
    }
  }
  const raw = value as {
    name?: string;
    description?: string;
    guidelines?: string;
    defaults?: { image?: string; workdir?: string; timeoutSec?: number; limits?: Partial<Limits> };
  };
  let guidelinesOk = raw.guidelines !== undefined;
  if (raw.guidelines !== undefined) {
    const unsafe = unsafeRelativePath(raw.guidelines);
    if (unsafe) {
      problems.push(fieldProblem(manifestFile, text, '/guidelines', unsafe));
      guidelinesOk = false;
    }
  }
  const manifest: DatasetManifest = {
    format: 1,
    name: raw.name ?? fallbackName,
    ...(raw.description !== undefined ? { description: raw.description } : {}),
    ...(guidelinesOk && raw.guidelines !== undefined ? { guidelines: raw.guidelines } : {}),
    defaults: {
      ...(raw.defaults?.image !== undefined ? { image: raw.defaults.image } : {}),
      workdir: raw.defaults?.workdir ?? DEFAULT_WORKDIR,
      timeoutSec: raw.defaults?.timeoutSec ?? DEFAULT_TIMEOUT_SEC,
      limits: { ...DEFAULT_LIMITS, ...raw.defaults?.limits },
    },
  };
  return { manifest, problems };
}

/** Deletes the member a JSON pointer names (the nearest existing one), so the rest of the value can be used. */
function removeAt(root: Record<string, unknown>, pointer: string): void {
  const segs = pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let cur: unknown = root;
  for (let i = 0; i < segs.length - 1; i++) {
    const next: unknown = (cur as Record<string, unknown>)[segs[i] as string];
    if (next === null || typeof next !== 'object') {
      delete (cur as Record<string, unknown>)[segs[i] as string];
      return;
    }
    cur = next;
  }
  const last = segs[segs.length - 1];
  if (last !== undefined && cur !== null && typeof cur === 'object') {
    if (Array.isArray(cur)) {
      // An array of the manifest holds no optional items: drop the array's member instead.
      removeAt(root, `/${segs.slice(0, -1).join('/')}`);
      return;
    }
    delete (cur as Record<string, unknown>)[last];
  }
}

/**
 * Why a task cannot be run in a container: it names no image (neither its task.json nor the manifest's defaults),
 * in the words every caller shows; undefined when it names one.
 */
export function noImageReason(task: Pick<CandidateTask, 'id' | 'dir' | 'environment'>): string | undefined {
  if (task.environment.image) return undefined;
  return `task ${task.id} names no image: set environment.image in ${task.dir}/${TASK_FILE} or defaults.image in specweave.json`;
}

/** task.json and attempt.json as the schema admits them: the shapes writers produce (see serialize.ts). */
type RawTask = TaskDraft & { repo: { name: string; path?: string; baseCommit?: string; inImage?: true } };
type RawAttempt = AttemptDraft;

/** Builds one candidate task from its folder listing; `task` is undefined when the task file is unusable. */
export function buildTask(listing: TaskListing, manifest: DatasetManifest): { task?: CandidateTask; problems: Problem[]; claimedId?: string } {
  const dir = `${TASKS_DIR}/${listing.name}`;
  const file = `${dir}/${TASK_FILE}`;
  const problems: Problem[] = [];
  const entry = (name: string) => listing.entries.find((e) => e.name === name);

  for (const e of listing.entries) {
    if (e.outside) {
      problems.push({ severity: 'error', file: `${dir}/${e.name}`, message: SYMLINK_OUT_MESSAGE });
    }
  }
  if (listing.taskJson === undefined) {
    if (entry(TASK_FILE)?.kind === 'dir') problems.push({ severity: 'error', file, message: 'expected a file, found a folder' });
    else if (entry(TASK_FILE)?.kind === 'other') problems.push({ severity: 'error', file, message: 'is not a regular file (a FIFO, socket or device); it is not read' });
    else if (!entry(TASK_FILE)?.outside) problems.push({ severity: 'error', file, message: `missing ${TASK_FILE}: every task folder needs one` });
    return { problems };
  }
  const text = listing.taskJson;
  const parsed = parseJson(text, file);
  if (!parsed.ok) return { problems: [...problems, parsed.problem] };
  const schemaProblems = validateSchema('task', parsed.value, text, file);
  if (schemaProblems.length > 0) return { problems: [...problems, ...schemaProblems] };
  const raw = parsed.value as RawTask;

  if (raw.id !== listing.name) {
    // Runs, suggestions and review events are filed by id: a task whose id is not its folder's name could stand in
    // for another task. It is not loaded; the loader names the other folder when there is one (see claimedIds).
    problems.push(fieldProblem(file, text, '/id', `task id "${raw.id}" differs from its folder name "${listing.name}"; the task is not loaded until they agree`));
    return { problems, claimedId: raw.id };
  }

  // The parsed objects are ours and already have the schema's shape: fill in defaults in place, no copies.
  for (const sp of raw.specs) sp.dependsOn ??= [];
  for (const t of raw.tests) t.specs ??= [];
  const specs = raw.specs as Spec[];
  const tests = raw.tests as TestCase[];
  checkReferences(file, text, specs, tests, problems);

  const repo = buildRepo(raw, file, text, problems);
  const env = raw.environment ?? {};
  if (env.dockerfile !== undefined) {
    const unsafe = unsafeRelativePath(env.dockerfile);
    if (unsafe) problems.push(fieldProblem(file, text, '/environment/dockerfile', unsafe));
  }
  const image = env.image ?? manifest.defaults.image ?? '';
  if (!image) {
    problems.push({
      ...fieldProblem(file, text, '/environment', 'no image: set environment.image here or defaults.image in specweave.json'),
      severity: 'warning',
    });
  }
  const unpackTo = raw.verifier.unpackTo;
  if (unpackTo !== undefined && (unpackTo.includes('\0') || unpackTo.split('/').includes('..'))) {
    problems.push(fieldProblem(file, text, '/verifier/unpackTo', `"${unpackTo}" must be an absolute folder without ".."`));
  }
  if (raw.verifier.parser === 'junit' && !raw.verifier.junitPath) {
    problems.push(fieldProblem(file, text, '/verifier/junitPath', 'the junit parser needs junitPath'));
  }

  const requestFile = `${dir}/${REQUEST_FILE}`;
  const testPatchFile = `${dir}/${TEST_PATCH_FILE}`;
  if (listing.complete) {
    requireFile(entry(REQUEST_FILE), requestFile, problems);
    requireFile(entry(TEST_PATCH_FILE), testPatchFile, problems);
  }
  const gold = entry(GOLD_PATCH_FILE);
  const hasGold = gold !== undefined && !gold.outside && gold.kind !== 'dir';

  const attempts: Attempt[] = [];
  for (const a of listing.attempts) {
    const built = buildAttempt(dir, a, problems);
    if (built) attempts.push(built);
  }
  attempts.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));

  const environment: CandidateTask['environment'] = {
    image,
    workdir: env.workdir ?? manifest.defaults.workdir,
    limits: env.limits ? { ...manifest.defaults.limits, ...env.limits } : { ...manifest.defaults.limits },
    timeoutSec: env.timeoutSec ?? manifest.defaults.timeoutSec,
  };
  if (env.dockerfile !== undefined) environment.dockerfile = env.dockerfile;
  const verifier: CandidateTask['verifier'] = { command: raw.verifier.command, parser: raw.verifier.parser ?? 'pytest' };
  if (raw.verifier.junitPath !== undefined) verifier.junitPath = raw.verifier.junitPath;
  if (raw.verifier.unpackTo !== undefined) verifier.unpackTo = raw.verifier.unpackTo;
  if (raw.verifier.goldCommand !== undefined) verifier.goldCommand = raw.verifier.goldCommand;
  const files: CandidateTask['files'] = { task: file, request: requestFile, testPatch: testPatchFile };
  if (hasGold) files.goldPatch = `${dir}/${GOLD_PATCH_FILE}`;
  const task: CandidateTask = {
    id: raw.id,
    title: raw.title,
    revision: raw.revision ?? 1,
    repo,
    environment,
    specs,
    tests,
    verifier,
    notes: raw.notes ?? [],
    dir,
    files,
    attempts,
  };
  if (raw.source !== undefined) task.source = raw.source;
  return { task, problems };
}

/**
 * Folders whose task.json carries an id that is another folder's: an error in each folder naming both, and the task
 * of that id is not kept either (two folders claim it; the curator decides which one is the task). Returns the
 * tasks to keep.
 */
export function settleClaimedIds(tasks: CandidateTask[], claims: ReadonlyArray<{ folder: string; id: string }>, problems: Problem[]): CandidateTask[] {
  if (claims.length === 0) return tasks;
  const byId = new Map<string, string[]>();
  for (const c of claims) byId.set(c.id, [...(byId.get(c.id) ?? []), c.folder]);
  const drop = new Set<string>();
  for (const t of tasks) {
    const others = byId.get(t.id);
    if (!others) continue;
    drop.add(t.id);
    const folders = [t.dir, ...others.map((f) => `${TASKS_DIR}/${f}`)].sort();
    const names = folders.length === 2 ? `two task folders, ${folders[0]} and ${folders[1]}` : `${folders.length} task folders, ${folders.slice(0, -1).join(', ')} and ${folders[folders.length - 1]}`;
    for (const f of folders) {
      problems.push({ severity: 'error', file: `${f}/${TASK_FILE}`, field: 'id', message: `task id "${t.id}" is used by ${names}; ${folders.length === 2 ? 'neither' : 'none'} is loaded until the others are renamed or removed` });
    }
  }
  return drop.size === 0 ? tasks : tasks.filter((t) => !drop.has(t.id));
}

function buildRepo(raw: RawTask, file: string, text: string, problems: Problem[]): RepoSource {
  if (raw.repo.inImage) {
    return { name: raw.repo.name, kind: 'image', ...(raw.repo.baseCommit !== undefined ? { baseCommit: raw.repo.baseCommit } : {}) };
  }
  const path = raw.repo.path as string;
  if (path.includes('\0')) problems.push(fieldProblem(file, text, '/repo/path', 'path contains a NUL byte'));
  return { name: raw.repo.name, kind: 'git', path, baseCommit: raw.repo.baseCommit as string };
}

function buildAttempt(taskDir: string, listing: AttemptListing, problems: Problem[]): Attempt | undefined {
  const dir = `${taskDir}/${ATTEMPTS_DIR}/${listing.id}`;
  const file = `${dir}/${ATTEMPT_FILE}`;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/.test(listing.id)) {
    problems.push({ severity: 'error', file: dir, message: `attempt folder name "${listing.id}" is not a valid id (letters, digits, . _ -)` });
    return undefined;
  }
  if (isProbeId(listing.id)) {
    problems.push({ severity: 'error', file: dir, message: `attempt id "${listing.id}" is reserved for the oracle probes; rename the folder` });
    return undefined;
  }
  if (listing.attemptJsonOutside) {
    problems.push({ severity: 'error', file, message: `${SYMLINK_OUT_MESSAGE}; the attempt is left out` });
    return undefined;
  }
  if (listing.attemptJsonIsFolder || listing.attemptJsonIsSpecial) {
    problems.push({ severity: 'error', file, message: listing.attemptJsonIsFolder ? 'expected a file, found a folder' : 'is not a regular file (a FIFO, socket or device); it is not read' });
    return undefined;
  }
  if (listing.attemptJson === undefined) {
    problems.push({ severity: 'error', file, message: `missing ${ATTEMPT_FILE}: every attempt folder needs one` });
    return undefined;
  }
  const text = listing.attemptJson;
  const parsed = parseJson(text, file);
  if (!parsed.ok) {
    problems.push(parsed.problem);
    return undefined;
  }
  const schemaProblems = validateSchema('attempt', parsed.value, text, file);
  if (schemaProblems.length > 0) {
    problems.push(...schemaProblems);
    return undefined;
  }
  const raw = parsed.value as RawAttempt;
  const patchName = raw.patch ?? DEFAULT_PATCH_FILE;
  const unsafePatch = raw.patch !== undefined ? unsafeRelativePath(raw.patch) : undefined;
  const unsafeTrajectory = raw.trajectory !== undefined ? unsafeRelativePath(raw.trajectory) : undefined;
  if (unsafePatch) problems.push(fieldProblem(file, text, '/patch', unsafePatch));
  if (unsafeTrajectory) problems.push(fieldProblem(file, text, '/trajectory', unsafeTrajectory));
  if (unsafePatch || unsafeTrajectory) return undefined;
  if (listing.entries) {
    const has = (name: string) => listing.entries?.some((e) => e.name === name && !e.outside && e.kind !== 'dir');
    for (const e of listing.entries) {
      if (e.outside) problems.push({ severity: 'error', file: joinRel(dir, e.name), message: SYMLINK_OUT_MESSAGE });
    }
    if (!patchName.includes('/') && !has(patchName)) {
      problems.push(fieldProblem(file, text, '/patch', `patch file ${joinRel(dir, patchName)} is missing`));
    }
    if (raw.trajectory !== undefined && !raw.trajectory.includes('/') && !has(raw.trajectory)) {
      problems.push(fieldProblem(file, text, '/trajectory', `trajectory file ${joinRel(dir, raw.trajectory)} is missing`));
    }
  }
  const attempt: Attempt = {
    id: listing.id,
    model: raw.model,
    agent: raw.agent ?? '',
    dir,
    patchFile: patchName === DEFAULT_PATCH_FILE ? `${dir}/${DEFAULT_PATCH_FILE}` : joinRel(dir, patchName),
    recordedResults: raw.recordedResults ?? [],
  };
  if (raw.run !== undefined) attempt.run = raw.run;
  if (raw.costUsd !== undefined) attempt.costUsd = raw.costUsd;
  if (raw.tokens !== undefined) attempt.tokens = raw.tokens;
  if (raw.claimed !== undefined) attempt.claimed = raw.claimed;
  if (raw.trajectory !== undefined) attempt.trajectoryFile = joinRel(dir, raw.trajectory);
  return attempt;
}

function requireFile(e: DirEntry | undefined, file: string, problems: Problem[]): void {
  if (!e) problems.push({ severity: 'error', file, message: 'required file is missing' });
  else if (e.outside) return; // already reported
  else if (e.kind === 'dir') problems.push({ severity: 'error', file, message: 'expected a file, found a folder' });
}

/**
 * Spec and test ids are unique, every reference names a spec of the task, test names are unique (a warning).
 * One pass over each list; problems (and their line lookups) only cost anything when there are some.
 */
function checkReferences(file: string, text: string, specs: Spec[], tests: TestCase[], problems: Problem[]): void {
  const specAt = indexOf(specs, (s) => s.id);
  for (let i = 0; i < specs.length; i++) {
    const s = specs[i] as Spec;
    const first = specAt(s.id);
    if (first !== i) problems.push(fieldProblem(file, text, `/specs/${i}/id`, `spec id "${s.id}" is used twice (also specs[${first}])`));
    for (let j = 0; j < s.dependsOn.length; j++) {
      const d = s.dependsOn[j] as string;
      if (d === s.id) problems.push(fieldProblem(file, text, `/specs/${i}/dependsOn/${j}`, `spec "${s.id}" depends on itself`));
      else if (specAt(d) < 0) problems.push(fieldProblem(file, text, `/specs/${i}/dependsOn/${j}`, `unknown spec "${d}"`));
    }
  }
  const testAt = indexOf(tests, (t) => t.id);
  const nameAt = indexOf(tests, (t) => t.name);
  for (let i = 0; i < tests.length; i++) {
    const t = tests[i] as TestCase;
    const first = testAt(t.id);
    if (first !== i) problems.push(fieldProblem(file, text, `/tests/${i}/id`, `test id "${t.id}" is used twice (also tests[${first}])`));
    const firstName = nameAt(t.name);
    if (firstName !== i) {
      const p = fieldProblem(file, text, `/tests/${i}/name`, `test name "${t.name}" is used twice (also tests[${firstName}])`);
      p.severity = 'warning';
      problems.push(p);
    }
    for (let j = 0; j < t.specs.length; j++) {
      const sid = t.specs[j] as string;
      if (specAt(sid) < 0) problems.push(fieldProblem(file, text, `/tests/${i}/specs/${j}`, `test "${t.id}" is mapped to unknown spec "${sid}"`));
    }
  }
}

/**
 * A lookup of the first index of a key in a list. Tasks have tens of specs and tests: a linear scan allocates
 * nothing and beats a Map there (loading 15,000 tasks is dominated by allocation); long lists get a Map.
 */
function indexOf<T>(items: T[], key: (x: T) => string): (k: string) => number {
  if (items.length <= 48) {
    return (k) => {
      for (let i = 0; i < items.length; i++) if (key(items[i] as T) === k) return i;
      return -1;
    };
  }
  const m = new Map<string, number>();
  for (let i = 0; i < items.length; i++) {
    const k = key(items[i] as T);
    if (!m.has(k)) m.set(k, i);
  }
  return (k) => m.get(k) ?? -1;
}

/** A problem located at a JSON pointer of a file's text. */
export function fieldProblem(file: string, text: string, pointer: string, message: string): Problem {
  const line = lineOfPointer(text, pointer);
  return { severity: 'error', file, ...(line !== undefined ? { line } : {}), field: fieldFromPointer(pointer), message };
}
