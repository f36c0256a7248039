// From a suggestion (or the curator's edit of it) to the files of a new task revision: the proposed files shown for
// review, then task.json, request.md and tests.patch, with tests.patch regenerated as the diff from each base file to
// its proposed text. Pure: the caller reads the base files from the task's clone.
import { buildTask } from '../dataset';
import type { DatasetManifest, Problem, Spec, TestCase } from '../model';
import type { FilePatch } from '../patch';
import { applyFilePatch, filePath, parsePatch } from '../patch';
import { formatJson, taskToJson } from '../serialize';
import type { TaskDraft } from '../serialize';
import { unifiedDiff } from '../textDiff';
import type { RepairChanges } from './suggestion';
import { isTestLookingPath } from './testPaths';
import { specHashesBetween } from '../review/specHash';
import type { SpecHashChange } from '../review/specHash';

/** Where a proposed file goes: the task's request, its task.json (specs, spec-test map), or a test file of the repo. */
export type ProposedRole = 'request' | 'task' | 'test';

export interface ProposedFile {
  role: ProposedRole;
  /** `request.md`, `task.json`, or the repository path of a test file. */
  path: string;
  /** The current text (test files: as they are after the current test patch; '' for a new file). */
  current: string;
  proposed: string;
}

export interface CurrentTaskTexts {
  /** task.json parsed, as written. */
  taskJson: Record<string, unknown>;
  request: string;
  testPatch: string;
  /** Test files after the current test patch, by repository path (undefined: not there). */
  testFiles: ReadonlyMap<string, string | undefined>;
}

/** The task.json text a task draft is written as, with empty optional lists left out. */
export function taskJsonText(raw: Record<string, unknown>, specs?: Spec[], tests?: TestCase[]): string {
  const draft: Record<string, unknown> = { ...raw };
  if (specs) draft.specs = specs.map((s) => ({ id: s.id, category: s.category, text: s.text, ...(s.dependsOn.length > 0 ? { dependsOn: s.dependsOn } : {}) }));
  if (tests) draft.tests = tests.map((t) => ({ id: t.id, name: t.name, kind: t.kind, ...(t.specs.length > 0 ? { specs: t.specs } : {}) }));
  return taskToJson(draft as unknown as TaskDraft);
}

/** The files a suggestion proposes, each beside its current text (what the curator reviews and may edit). */
export function proposedFiles(changes: RepairChanges, current: CurrentTaskTexts): ProposedFile[] {
  const out: ProposedFile[] = [];
  if (changes.request !== undefined) out.push({ role: 'request', path: 'request.md', current: current.request, proposed: changes.request });
  if (changes.specs || changes.tests) {
    out.push({ role: 'task', path: 'task.json', current: taskJsonText(current.taskJson), proposed: taskJsonText(current.taskJson, changes.specs, changes.tests) });
  }
  for (const f of changes.testFiles ?? []) out.push({ role: 'test', path: f.path, current: current.testFiles.get(f.path) ?? '', proposed: f.text });
  return out;
}

/** The test patch cut into one text per file, in order. */
export function splitPatch(text: string): Array<{ path: string; file: FilePatch; text: string }> {
  const parsed = parsePatch(text);
  const lines = text.split('\n');
  return parsed.files.map((f, i) => {
    const start = f.patchLine - 1;
    const next = parsed.files[i + 1];
    const end = next ? next.patchLine - 1 : lines.length;
    let chunk = lines.slice(start, end).join('\n');
    if (!chunk.endsWith('\n')) chunk += '\n';
    if (!next && text.endsWith('\n') && chunk.endsWith('\n\n')) chunk = chunk.slice(0, -1);
    return { path: filePath(f), file: f, text: chunk };
  });
}

/** Test files after a test patch, from their base texts (undefined: not in the base commit). */
export function testFilesAfterPatch(testPatch: string, base: ReadonlyMap<string, string | undefined>): { files: Map<string, string | undefined>; problems: string[] } {
  const files = new Map<string, string | undefined>();
  const problems: string[] = [];
  for (const part of splitPatch(testPatch)) {
    const f = part.file;
    if (f.status === 'binary') continue;
    const b = f.status === 'added' ? '' : (base.get(f.oldPath ?? part.path) ?? '');
    const r = applyFilePatch(b, f);
    if (!r.ok) problems.push(`the current test patch does not apply to ${part.path}: ${r.reason}`);
    else files.set(part.path, f.status === 'deleted' ? undefined : r.text);
  }
  return { files, problems };
}

export interface RevisionFiles {
  taskJson: string;
  request: string;
  testPatch: string;
}

export type RevisionResult =
  | { ok: true; files: RevisionFiles; revision: number; changedSpecs: string[]; specHashes: Record<string, SpecHashChange>; changed: ProposedRole[] }
  | { ok: false; errors: string[] };

export interface RevisionInputs {
  current: CurrentTaskTexts;
  /** Base-commit texts of every test file involved (undefined: not in the base commit). */
  baseFiles: ReadonlyMap<string, string | undefined>;
  /** The proposed texts as the curator left them. */
  proposed: Array<{ role: ProposedRole; path: string; text: string }>;
  manifest: DatasetManifest;
  /** The task's folder name (its id). */
  taskId: string;
}

/**
 * The files of the next revision. Refuses (with reasons) a task.json that is not valid, a changed task id, or a
 * test patch that would not reproduce the proposed files.
 */
export function buildRevision(inp: RevisionInputs): RevisionResult {
  const errors: string[] = [];
  const cur = inp.current;
  const oldRevision = typeof cur.taskJson.revision === 'number' ? cur.taskJson.revision : 1;
  const revision = oldRevision + 1;
  const changed: ProposedRole[] = [];

  let request = cur.request;
  const req = inp.proposed.find((p) => p.role === 'request');
  if (req && req.text !== cur.request) {
    if (req.text.trim() === '') errors.push('request.md: the proposed request is empty');
    request = req.text;
    changed.push('request');
  }

  let raw: Record<string, unknown> = { ...cur.taskJson };
  const tj = inp.proposed.find((p) => p.role === 'task');
  if (tj && tj.text !== taskJsonText(cur.taskJson)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(tj.text);
    } catch (e) {
      errors.push(`task.json: not valid JSON (${(e as Error).message})`);
    }
    if (parsed !== undefined) {
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) errors.push('task.json: expected a JSON object');
      else {
        raw = parsed as Record<string, unknown>;
        if (raw.id !== cur.taskJson.id) errors.push(`task.json: the id must stay "${String(cur.taskJson.id)}"`);
        changed.push('task');
      }
    }
  }
  raw = { ...raw, revision };
  const taskText = taskToJson(raw as unknown as TaskDraft);

  // tests.patch: every file the curator's proposal touches is diffed again from its base text.
  const tests = inp.proposed.filter((p) => p.role === 'test');
  let testPatch = cur.testPatch;
  if (tests.length > 0) {
    const parts = splitPatch(cur.testPatch);
    // Library code never goes into tests.patch, whatever a stored suggestion says.
    const own = new Set(parts.map((p) => p.path));
    for (const t of tests) {
      if (!own.has(t.path) && !isTestLookingPath(t.path)) errors.push(`${t.path}: is not a test file; tests.patch holds test files only (the task's test files, or files under a tests/ folder or named like tests)`);
    }
    const byPath = new Map(tests.map((t) => [t.path, t.text]));
    const out: string[] = [];
    const done = new Set<string>();
    for (const part of parts) {
      const text = byPath.get(part.path);
      if (text === undefined) {
        out.push(part.text);
        continue;
      }
      done.add(part.path);
      const base = inp.baseFiles.get(part.path);
      out.push(unifiedDiff(base === undefined ? undefined : part.path, part.path, base ?? '', text));
    }
    for (const t of tests) {
      if (done.has(t.path)) continue;
      const base = inp.baseFiles.get(t.path);
      out.push(unifiedDiff(base === undefined ? undefined : t.path, t.path, base ?? '', t.text));
    }
    testPatch = out.join('');
    // The regenerated patch must give back exactly the proposed files.
    const check = testFilesAfterPatch(testPatch, inp.baseFiles);
    errors.push(...check.problems);
    for (const t of tests) {
      const got = check.files.get(t.path);
      if ((got ?? '') !== t.text && !(got === undefined && t.text === inp.baseFiles.get(t.path))) errors.push(`tests.patch: the regenerated patch does not reproduce ${t.path}`);
    }
    if (testPatch !== cur.testPatch) changed.push('test');
  }

  // The new task.json must load like any other.
  const built = buildTask(
    {
      name: inp.taskId,
      taskJson: taskText,
      entries: [
        { name: 'task.json', kind: 'file' },
        { name: 'request.md', kind: 'file' },
        { name: 'tests.patch', kind: 'file' },
      ],
      complete: true,
      attempts: [],
    },
    inp.manifest,
  );
  const bad = built.problems.filter((p: Problem) => p.severity === 'error');
  for (const p of bad) errors.push(`task.json${p.line !== undefined ? `:${p.line}` : ''}: ${p.field ? `${p.field}: ` : ''}${p.message}`);
  if (changed.length === 0 && errors.length === 0) errors.push('the proposed files are the same as the current ones: nothing to revise');
  if (errors.length > 0 || !built.task) return { ok: false, errors: errors.length > 0 ? errors : ['task.json could not be read'] };

  const before = (cur.taskJson.specs ?? []) as Array<{ id: string; text: string; category: string; dependsOn?: string[] }>;
  const after = built.task.specs;
  const key = (s: { text: string; category: string; dependsOn?: string[] }) => formatJson([s.text, s.category, s.dependsOn ?? []]);
  const changedSpecs = new Set<string>();
  for (const s of before) {
    const a = after.find((x) => x.id === s.id);
    if (!a || key(a) !== key(s)) changedSpecs.add(s.id);
  }
  for (const s of after) if (!before.some((b) => b.id === s.id)) changedSpecs.add(s.id);
  const changedList = [...changedSpecs].sort();
  return { ok: true, files: { taskJson: taskText, request, testPatch }, revision, changedSpecs: changedList, specHashes: specHashesBetween(before, after, changedList), changed };
}
