// Spec authoring written to disk: one operation of core/specs/edit.ts becomes revision n+1 of the task, through the
// same all-or-nothing revision write as a repair accept, recorded in the review log as a `revision` event (labels on
// the changed specs go stale) and a `specs.edit` event (who changed what). The check of the task's revision, the
// write and the log append all happen under the review log's lock, so of two curators editing one task the second
// is refused naming the revision it raced, and nothing either wrote is lost. Undo writes a NEW revision holding the
// specs and tests from before the last spec edit; history is never deleted. Plain data in, a result or a
// SpecAuthoringError (with a code) out, so a webview request can call it as the CLI does.
import { buildTask, REQUEST_FILE, TASK_FILE, TEST_PATCH_FILE } from '../core/dataset';
import { errorText } from '../core/errorText';
import { parseRecordJson } from '../core/json';
import type { CandidateTask, Problem, Spec, TestCase } from '../core/model';
import { taskJsonText } from '../core/repair/revision';
import type { EventDraft, ReviewEvent } from '../core/review/events';
import type { ReviewState, SpecEditRecord } from '../core/review/reducer';
import { taskState } from '../core/review/reducer';
import { specHashesBetween } from '../core/review/specHash';
import type { SpecEditError, SpecOp } from '../core/specs/edit';
import { changedSpecsBetween, describeSpecOp, editSpecs } from '../core/specs/edit';
import { loadDataset, readDatasetTextIfExists } from '../adapters/fs/datasetLoader';
import type { RevisionFs } from '../adapters/fs/taskRevision';
import { readRevision, recoverRevision, revisionOf, rollbackRevision, writeRevision } from '../adapters/fs/taskRevision';
import { CurationStore } from './curationStore';

/** The steps of one spec edit, as bench/specEdit.bench.ts reports them. */
export type SpecEditStep = 'recover' | 'lock' | 'read' | 'edit' | 'serialize' | 'write' | 'append' | 'store';

export type SpecAuthoringCode = 'unknown_task' | 'revision_raced' | 'task_decided' | 'invalid_edit' | 'nothing_to_undo' | 'invalid_revision' | 'write_failed' | 'log_failed';

/** A spec edit that was not made, and why; nothing was changed. `details` are the edit's own errors. */
export class SpecAuthoringError extends Error {
  constructor(
    readonly code: SpecAuthoringCode,
    message: string,
    readonly details: SpecEditError[] = [],
    /** With `revision_raced`: the revision the task is at now. */
    readonly currentRevision?: number,
  ) {
    super(details.length > 0 ? `${message}:\n${details.map((d) => `  - ${d.message}`).join('\n')}` : message);
  }
}

export interface SpecEditOptions {
  root: string;
  taskId: string;
  /** The revision the curator saw; another revision on disk refuses the edit (default: whatever is on disk). */
  expectedRevision?: number;
  op: SpecOp;
  curator: string;
  /** Accept a new category outside the taxonomy (`--allow-category`). */
  allowCategory?: boolean;
  note?: string;
  store?: CurationStore;
  /** For tests: a file system that fails on purpose. */
  fs?: RevisionFs;
  /** Filled with the milliseconds of each step (for the benchmark). */
  timings?: Partial<Record<SpecEditStep, number>>;
}

export interface SpecEditResult {
  task: string;
  from: number;
  to: number;
  changedSpecs: string[];
  created: string[];
  deleted: string[];
  warnings: string[];
  /** The `revision` and `specs.edit` events written. */
  events: ReviewEvent[];
  /** The task as it is now (revision `to`). */
  specs: Spec[];
  tests: TestCase[];
}

/** The task as it is on disk now: its folder read alone (not the store's copy, which another writer may have left behind). */
function readTaskNow(root: string, taskId: string): { task: CandidateTask; raw: Record<string, unknown>; request: string; testPatch: string } {
  const ds = loadDataset(root, { only: [taskId] });
  const task = ds.tasks.find((t) => t.id === taskId);
  if (!task) {
    const why = ds.problems.filter((p: Problem) => p.severity === 'error' && p.file.startsWith(`tasks/${taskId}`)).map((p) => p.message);
    throw new SpecAuthoringError('unknown_task', `the dataset has no readable task "${taskId}"${why.length > 0 ? ` (${why.join('; ')})` : ''}`);
  }
  const text = readDatasetTextIfExists(root, task.files.task) ?? '';
  const parsed = parseRecordJson(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
    throw new SpecAuthoringError('invalid_revision', `${task.files.task} is not a JSON object`);
  }
  return {
    task,
    raw: parsed.value as Record<string, unknown>,
    request: readDatasetTextIfExists(root, task.files.request) ?? '',
    testPatch: readDatasetTextIfExists(root, task.files.testPatch) ?? '',
  };
}

function refuseDecided(state: ReviewState, taskId: string): void {
  const st = taskState(state, taskId);
  if (st.status === 'approved' || st.status === 'rejected') {
    throw new SpecAuthoringError('task_decided', `task ${taskId} is ${st.status}; reopen it first (specweave status DATASET ${taskId} in_review)`);
  }
}

function refuseRaced(taskId: string, expected: number | undefined, now: number): void {
  if (expected !== undefined && expected !== now) {
    throw new SpecAuthoringError('revision_raced', `task ${taskId} is at revision ${now}, not ${expected}: someone else changed it meanwhile; nothing was written (look at revision ${now} and edit again)`, [], now);
  }
}

/** The new task.json text, checked to load like any other task. */
function nextTaskJson(raw: Record<string, unknown>, taskId: string, revision: number, specs: Spec[], tests: TestCase[], store: CurationStore): string {
  const text = taskJsonText({ ...raw, revision }, specs, tests);
  const built = buildTask(
    { name: taskId, taskJson: text, entries: [{ name: TASK_FILE, kind: 'file' }, { name: REQUEST_FILE, kind: 'file' }, { name: TEST_PATCH_FILE, kind: 'file' }], complete: true, attempts: [] },
    store.dataset.manifest,
  );
  const bad = built.problems.filter((p) => p.severity === 'error');
  if (!built.task || bad.length > 0) {
    throw new SpecAuthoringError('invalid_revision', `revision ${revision} of ${taskId} would not load; nothing was written`, bad.map((p) => ({ code: 'invalid_op', message: `task.json: ${p.field ? `${p.field}: ` : ''}${p.message}` })));
  }
  return text;
}

/**
 * A revision on disk that the review log never heard of (a process that died between writing it and logging it): its
 * `revision` event, so labels on the specs it changed go stale like any other's. Nothing when the log knows it, or
 * when the revision before it is not archived (a dataset imported at a later revision).
 */
function unrecordedRevision(state: ReviewState, root: string, taskId: string, task: CandidateTask, curator: string): EventDraft[] {
  const rev = task.revision;
  if (rev < 2 || taskState(state, taskId).revisions.some((r) => r.revision === rev)) return [];
  const prev = readRevision(root, taskId, rev - 1);
  if (!prev) return [];
  const old = buildTask(
    { name: taskId, taskJson: prev.taskJson, entries: [{ name: TASK_FILE, kind: 'file' }, { name: REQUEST_FILE, kind: 'file' }, { name: TEST_PATCH_FILE, kind: 'file' }], complete: true, attempts: [] },
    { format: 1, name: 'archive', defaults: { workdir: '/repo', timeoutSec: 300, limits: { memoryMb: 2048, cpus: 1, pids: 512 } } },
  ).task;
  // Unreadable: every spec counts as changed (stale is the safe side).
  const changedSpecs = old ? changedSpecsBetween(old, task) : [...new Set([...task.specs.map((s) => s.id)])].sort();
  return [{ kind: 'revision', task: taskId, revision: rev, curator, payload: { from: rev - 1, changedSpecs, ...(old ? { specHashes: specHashesBetween(old.specs, task.specs, changedSpecs) } : {}), note: `recorded late by ${curator}: revision ${rev} was written by an interrupted write that never reached the review log` } }];
}

interface Planned {
  from: number;
  to: number;
  specs: Spec[];
  tests: TestCase[];
  changedSpecs: string[];
  created: string[];
  deleted: string[];
  warnings: string[];
  payload: Omit<Extract<EventDraft, { kind: 'specs.edit' }>['payload'], 'from' | 'to' | 'changedSpecs'>;
}

/**
 * Under the log's lock: reads the task, lets `plan` decide the new specs and tests, writes the revision and returns
 * the two events; if the log does not take them, the revision is taken back.
 */
async function writeSpecRevision(
  o: { root: string; taskId: string; expectedRevision?: number; curator: string; note?: string; store?: CurationStore; fs?: RevisionFs; timings?: Partial<Record<SpecEditStep, number>> },
  plan: (now: ReturnType<typeof readTaskNow>, state: ReviewState) => Omit<Planned, 'from' | 'to'>,
): Promise<SpecEditResult> {
  let t = performance.now();
  const lap = (step: SpecEditStep) => {
    const n = performance.now();
    if (o.timings) o.timings[step] = n - t;
    t = n;
  };
  recoverRevision(o.root, o.taskId, o.fs);
  const store = o.store ?? CurationStore.open(o.root);
  lap('recover');
  let written: Planned | undefined;
  let events: ReviewEvent[];
  let refusal: unknown;
  try {
    const r = await store.record<never>((state) => {
      lap('lock');
      const now = readTaskNow(o.root, o.taskId);
      const late = unrecordedRevision(state, o.root, o.taskId, now.task, o.curator);
      try {
        return [...late, ...prepareWrite(state, now)];
      } catch (e) {
        // The refusal stands, but a revision found unrecorded is recorded all the same.
        if (late.length === 0) throw e;
        refusal = e;
        return late;
      }
    });
    events = r.ok ? r.events : [];
    if (refusal !== undefined) throw refusal;
    lap('append');
  } catch (e) {
    if (written) {
      rollbackRevision(o.root, o.taskId, written.to, o.fs);
      throw new SpecAuthoringError('log_failed', `the review log did not take the spec edit (${errorText(e)}); revision ${written.to} was taken back and the task is unchanged at revision ${written.from}`);
    }
    if (e instanceof SpecAuthoringError) throw e;
    throw new SpecAuthoringError('log_failed', `the review log could not be written (${errorText(e)}); nothing was written`);
  }
  const p = written as Planned;
  // The store sees the new revision at once: the one task folder is read again, not the dataset.
  const fresh = loadDataset(o.root, { only: [o.taskId] }).tasks.find((t) => t.id === o.taskId);
  store.updateTasks([o.taskId], () => fresh);
  lap('store');
  return { task: o.taskId, from: p.from, to: p.to, changedSpecs: p.changedSpecs, created: p.created, deleted: p.deleted, warnings: p.warnings, events: events.filter((e) => e.revision === p.to), specs: p.specs, tests: p.tests };

  function prepareWrite(state: ReviewState, now: ReturnType<typeof readTaskNow>): EventDraft[] {
    refuseDecided(state, o.taskId);
    const from = now.task.revision;
    refuseRaced(o.taskId, o.expectedRevision, from);
    lap('read');
    const p = { ...plan(now, state), from, to: from + 1 };
    lap('edit');
    const text = nextTaskJson(now.raw, o.taskId, p.to, p.specs, p.tests, store);
    lap('serialize');
    try {
      writeRevision(o.root, o.taskId, p.to, { taskJson: text, request: now.request, testPatch: now.testPatch }, o.fs);
      lap('write');
    } catch (e) {
      const onDisk = revisionOf(readDatasetTextIfExists(o.root, now.task.files.task));
      if (onDisk !== undefined && onDisk !== from) refuseRaced(o.taskId, from, onDisk);
      throw new SpecAuthoringError('write_failed', errorText(e));
    }
    written = p;
    const note = o.note ? { note: o.note } : {};
    return [
      { kind: 'revision', task: o.taskId, revision: p.to, curator: o.curator, payload: { from, changedSpecs: p.changedSpecs, specHashes: specHashesBetween(now.task.specs, p.specs, p.changedSpecs), ...note } },
      { kind: 'specs.edit', task: o.taskId, revision: p.to, curator: o.curator, payload: { ...p.payload, from, to: p.to, changedSpecs: p.changedSpecs, ...note } },
    ];
  }
}

/** Applies one spec operation to a task as a new revision, recorded in the review log; all or nothing. */
export async function applySpecEdit(o: SpecEditOptions): Promise<SpecEditResult> {
  return writeSpecRevision(o, (now) => {
    const r = editSpecs(now.task.specs, now.task.tests, o.op, { ...(o.allowCategory ? { allowCategory: true } : {}) });
    if (!r.ok) throw new SpecAuthoringError('invalid_edit', `cannot ${describeSpecOp(o.op)} in task ${o.taskId}; nothing was written`, r.errors);
    return {
      specs: r.specs,
      tests: r.tests,
      changedSpecs: r.changedSpecs,
      created: r.created,
      deleted: r.deleted,
      warnings: r.warnings,
      payload: { op: o.op.op, summary: describeSpecOp(o.op), ...(r.created.length > 0 ? { created: r.created } : {}), ...(r.deleted.length > 0 ? { deleted: r.deleted } : {}) },
    };
  });
}

/** The spec edit an undo would take back: the last one not undone yet, when the task is still at its revision. */
export function lastSpecEdit(state: ReviewState, taskId: string): SpecEditRecord | undefined {
  const stack: SpecEditRecord[] = [];
  for (const e of taskState(state, taskId).specEdits) {
    if (e.op === 'undo') {
      const i = stack.findIndex((x) => x.event === e.undoes);
      if (i >= 0) stack.splice(i, 1);
    } else stack.push(e);
  }
  return stack[stack.length - 1];
}

export type UndoOptions = Omit<SpecEditOptions, 'op' | 'allowCategory'>;

/**
 * Takes back the last spec edit: a NEW revision whose specs and tests are those of the revision before it
 * (revisions/<n>/task.json). Refused when another revision (a repair) came after it: undo that first.
 */
export async function undoSpecEdit(o: UndoOptions): Promise<SpecEditResult> {
  return writeSpecRevision(o, (now, state) => {
    const last = lastSpecEdit(state, o.taskId);
    if (!last) throw new SpecAuthoringError('nothing_to_undo', `task ${o.taskId} has no spec edit to undo`);
    // Only spec edits (and undos of them) may have come after it: a repair's revision is not silently reverted.
    const known = Math.max(last.to, ...taskState(state, o.taskId).revisions.map((r) => r.revision));
    if (now.task.revision > known) throw new SpecAuthoringError('nothing_to_undo', `task ${o.taskId} is at revision ${now.task.revision}, which the review log did not record (an interrupted write); it is recorded now: look at it and undo again if it still applies`);
    const bySpecEdits = new Set(taskState(state, o.taskId).specEdits.map((e) => e.to));
    const other = taskState(state, o.taskId).revisions.find((r) => r.revision > last.to && !bySpecEdits.has(r.revision));
    if (other || now.task.revision < last.to) {
      const by = other ? `revision ${other.revision} came after it from another change` : `the task is at revision ${now.task.revision}`;
      throw new SpecAuthoringError('nothing_to_undo', `the last spec edit of task ${o.taskId} made revision ${last.to}, but ${by}; nothing was written`);
    }
    const files = readRevision(o.root, o.taskId, last.from);
    if (!files) throw new SpecAuthoringError('invalid_revision', `revision ${last.from} of task ${o.taskId} is not readable under tasks/${o.taskId}/revisions/${last.from}/`);
    const old = buildTask(
      { name: o.taskId, taskJson: files.taskJson, entries: [{ name: TASK_FILE, kind: 'file' }, { name: REQUEST_FILE, kind: 'file' }, { name: TEST_PATCH_FILE, kind: 'file' }], complete: true, attempts: [] },
      { format: 1, name: 'archive', defaults: { workdir: '/repo', timeoutSec: 300, limits: { memoryMb: 2048, cpus: 1, pids: 512 } } },
    );
    if (!old.task) throw new SpecAuthoringError('invalid_revision', `tasks/${o.taskId}/revisions/${last.from}/task.json does not load: ${old.problems.map((p) => p.message).join('; ')}`);
    const specs = old.task.specs;
    const tests = old.task.tests;
    const before = new Set(now.task.specs.map((s) => s.id));
    const after = new Set(specs.map((s) => s.id));
    const created = [...after].filter((id) => !before.has(id));
    const deleted = [...before].filter((id) => !after.has(id));
    return {
      specs,
      tests,
      changedSpecs: changedSpecsBetween(now.task, { specs, tests }),
      created,
      deleted,
      warnings: [],
      payload: { op: 'undo', undoes: last.event, summary: `undo ${last.summary ?? last.op} (back to the specs of revision ${last.from})`, ...(created.length > 0 ? { created } : {}), ...(deleted.length > 0 ? { deleted } : {}) },
    };
  });
}
