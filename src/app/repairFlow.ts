// Deciding on a stored suggestion. Accept: build the next revision from the proposed files as the curator left them,
// write it all or nothing, and record it in the review log (`revision`, `repair.accept` and the life-cycle moves to
// needs_repair and repaired); if the log does not take it, the files go back. Reject: one `repair.reject` event.
// Revalidate: run the gold patch, the empty patch and every attempt on the new revision through the verifier's
// queue and compute the before/after matrix, stored beside the suggestion; optionally then N fresh solver trials per
// model on the new revision (freshTrials.ts's one batch loop), each a new attempt, verified, kept apart in the matrix.
import { buildTask, REQUEST_FILE, TASK_FILE, TEST_PATCH_FILE } from '../core/dataset';
import type { CandidateTask } from '../core/model';
import type { RepairMatrix } from '../core/repair/matrix';
import { repairMatrix } from '../core/repair/matrix';
import { buildRevision } from '../core/repair/revision';
import type { EventDraft, ReviewEvent } from '../core/review/events';
import { verifierResultsFromRuns } from '../core/review/fromRuns';
import { checkTransition } from '../core/review/lifecycle';
import { taskState } from '../core/review/reducer';
import type { VerifierRunRecord } from '../core/verify/runResult';
import { EMPTY_PROBE, GOLD_PROBE } from '../core/model';
import { CurationStore } from './curationStore';
import { readDatasetTextIfExists } from '../adapters/fs/datasetLoader';
import { baseFilesFor, loadRepairContext } from './repairContext';
import type { RevalidationRecord, SuggestionRecord } from '../adapters/fs/repairStore';
import { loadSuggestion, readProposed, saveRevalidation, sha256 } from '../adapters/fs/repairStore';
import { listTaskRuns } from '../adapters/fs/runStore';
import type { RevisionFs } from '../adapters/fs/taskRevision';
import { readRevision, recoverRevision, revisionFolder, rollbackRevision, writeRevision } from '../adapters/fs/taskRevision';
import { errorText } from '../core/errorText';
import type { FreshTrialEntry } from '../core/repair/fresh';
import { freshTrialIncomplete } from '../core/repair/fresh';
import type { FreshTrialsOptions, TrialResult } from './freshTrials';
import { runFreshTrials, trialJobs } from './freshTrials';

export type RepairRefusalCode = 'unknown_task' | 'unknown_suggestion' | 'not_ready' | 'decided' | 'task_changed' | 'task_decided' | 'invalid_revision' | 'write_failed' | 'log_failed';

/** A decision that could not be made, with what to do. Nothing was changed. */
export class RepairFlowError extends Error {
  constructor(
    readonly code: RepairRefusalCode,
    message: string,
    readonly details: string[] = [],
  ) {
    super(details.length > 0 ? `${message}:\n${details.map((d) => `  - ${d}`).join('\n')}` : message);
  }
}

function suggestionOf(store: CurationStore, taskId: string, id: string): SuggestionRecord {
  if (!store.task(taskId)) throw new RepairFlowError('unknown_task', `the dataset has no task "${taskId}"`);
  try {
    return loadSuggestion(store.root, taskId, id);
  } catch (e) {
    throw new RepairFlowError('unknown_suggestion', (e as Error).message);
  }
}

function alreadyDecided(store: CurationStore, taskId: string, id: string): void {
  const rec = taskState(store.state, taskId).repairs.get(id);
  if (rec?.decision) {
    throw new RepairFlowError('decided', `suggestion ${id} was already ${rec.decision.decision} by ${rec.decision.curator} at ${rec.decision.time}`);
  }
}

export interface AcceptOptions {
  root: string;
  taskId: string;
  suggestionId: string;
  curator: string;
  note?: string;
  /** For tests: a file system that fails on purpose. */
  fs?: RevisionFs;
  store?: CurationStore;
}

export interface AcceptResult {
  from: number;
  to: number;
  changedSpecs: string[];
  edited: boolean;
  changed: string[];
  events: ReviewEvent[];
}

/** Accepts a suggestion: a new revision of the task, recorded in the review log; all or nothing. */
export async function acceptSuggestion(o: AcceptOptions): Promise<AcceptResult> {
  recoverRevision(o.root, o.taskId, o.fs);
  const store = o.store ?? CurationStore.open(o.root);
  store.refresh();
  const rec = suggestionOf(store, o.taskId, o.suggestionId);
  if (rec.status !== 'ready') throw new RepairFlowError('not_ready', `suggestion ${rec.id} ${rec.status === 'refused' ? 'is a refusal' : 'failed'}: there is nothing to accept`);
  alreadyDecided(store, o.taskId, o.suggestionId);
  const task = store.task(o.taskId) as CandidateTask;
  const st = taskState(store.state, o.taskId);
  if (st.status === 'approved' || st.status === 'rejected') {
    throw new RepairFlowError('task_decided', `task ${o.taskId} is ${st.status}; reopen it first (specweave status DATASET ${o.taskId} in_review)`);
  }
  // Base files are read only when test files change: a change of task.json alone (a drafted spec list) needs no clone.
  const changesTests = rec.files.some((f) => f.role === 'test');
  const ctx = await loadRepairContext(store, o.taskId, { trajectories: false, baseFiles: changesTests });
  const fp = rec.taskFingerprint;
  const changedSince = [
    sha256(ctx.texts.taskJsonText) !== fp.taskJson ? 'task.json' : '',
    sha256(ctx.texts.request) !== fp.request ? 'request.md' : '',
    sha256(ctx.texts.testPatch) !== fp.testPatch ? 'tests.patch' : '',
  ].filter((x) => x);
  if (changedSince.length > 0 || task.revision !== rec.revision) {
    throw new RepairFlowError('task_changed', `task ${o.taskId} changed since suggestion ${rec.id} was made (${changedSince.join(', ') || `revision ${rec.revision} -> ${task.revision}`}); ask for a new suggestion`);
  }
  let proposed;
  try {
    proposed = readProposed(o.root, rec);
  } catch (e) {
    throw new RepairFlowError('invalid_revision', (e as Error).message);
  }
  const testPaths = proposed.filter((p) => p.role === 'test').map((p) => p.path);
  let baseFiles: Map<string, string | undefined> = new Map();
  try {
    if (changesTests || testPaths.length > 0) baseFiles = await baseFilesFor(o.root, task, ctx.texts.testPatch, testPaths);
  } catch (e) {
    throw new RepairFlowError('invalid_revision', (e as Error).message);
  }
  const built = buildRevision({
    current: ctx.texts,
    baseFiles,
    proposed: proposed.map((p) => ({ role: p.role, path: p.path, text: p.text })),
    manifest: store.dataset.manifest,
    taskId: o.taskId,
  });
  if (!built.ok) throw new RepairFlowError('invalid_revision', `suggestion ${rec.id} cannot become revision ${task.revision + 1} of ${o.taskId}; nothing was written`, built.errors);
  const edited = proposed.some((p) => p.edited);

  try {
    writeRevision(o.root, o.taskId, built.revision, built.files, o.fs);
  } catch (e) {
    throw new RepairFlowError('write_failed', (e as Error).message);
  }
  let events: ReviewEvent[] = [];
  try {
    const r = await store.record<string>((state) => {
      const now = taskState(state, o.taskId);
      const drafts: EventDraft[] = [];
      let status = now.status;
      if (status === 'approved' || status === 'rejected') return { abort: `task ${o.taskId} became ${status} meanwhile` };
      if (now.repairs.get(rec.id)?.decision) return { abort: `suggestion ${rec.id} was decided meanwhile` };
      // A spec draft is not a repair: accepting it starts the review (a candidate goes in review), it does not send
      // the task through needs_repair -> repaired, which would have to be revalidated before approval.
      const drafted = rec.provenance === 'drafter';
      if (drafted) {
        if (status === 'candidate') drafts.push({ kind: 'status', task: o.taskId, revision: built.revision - 1, curator: o.curator, payload: { from: status, to: 'in_review', note: `spec draft ${rec.id}` } });
      } else if (status !== 'needs_repair') {
        const t = checkTransition(status, 'needs_repair');
        if (t.ok) {
          drafts.push({ kind: 'status', task: o.taskId, revision: built.revision - 1, curator: o.curator, payload: { from: status, to: 'needs_repair', note: `repair suggestion ${rec.id}` } });
          status = 'needs_repair';
        }
      }
      drafts.push(
        { kind: 'revision', task: o.taskId, revision: built.revision, curator: o.curator, payload: { from: built.revision - 1, changedSpecs: built.changedSpecs, specHashes: built.specHashes, suggestion: rec.id, ...(o.note ? { note: o.note } : {}) } },
        { kind: 'repair.accept', task: o.taskId, revision: built.revision, curator: o.curator, payload: { suggestion: rec.id, from: built.revision - 1, to: built.revision, edited, changedSpecs: built.changedSpecs, ...(o.note ? { note: o.note } : {}) } },
      );
      if (!drafted && checkTransition(status, 'repaired').ok) drafts.push({ kind: 'status', task: o.taskId, revision: built.revision, curator: o.curator, payload: { from: status, to: 'repaired', note: `revision ${built.revision}` } });
      return drafts;
    });
    if (!r.ok) {
      rollbackRevision(o.root, o.taskId, built.revision, o.fs);
      throw new RepairFlowError('log_failed', `${r.abort}; revision ${built.revision} was taken back`);
    }
    events = r.events;
  } catch (e) {
    if (e instanceof RepairFlowError) throw e;
    rollbackRevision(o.root, o.taskId, built.revision, o.fs);
    throw new RepairFlowError('log_failed', `the review log did not take the new revision (${(e as Error).message}); revision ${built.revision} was taken back and the task is unchanged`);
  }
  return { from: built.revision - 1, to: built.revision, changedSpecs: built.changedSpecs, edited, changed: built.changed, events };
}

export interface RejectOptions {
  root: string;
  taskId: string;
  suggestionId: string;
  curator: string;
  reason: string;
  store?: CurationStore;
}

export async function rejectSuggestion(o: RejectOptions): Promise<ReviewEvent> {
  const store = o.store ?? CurationStore.open(o.root);
  store.refresh();
  const rec = suggestionOf(store, o.taskId, o.suggestionId);
  alreadyDecided(store, o.taskId, o.suggestionId);
  const reason = o.reason.trim() || 'rejected';
  const task = store.task(o.taskId) as CandidateTask;
  const r = await store.record<never>(() => [{ kind: 'repair.reject', task: o.taskId, revision: task.revision, curator: o.curator, payload: { suggestion: rec.id, reason } }]);
  const e = r.ok ? r.events[0] : undefined;
  if (!e) throw new RepairFlowError('log_failed', 'the review log did not take the rejection');
  return e;
}

/** Runs a task's verifier on some attempts (ids, `gold`, `empty`); one outcome per id. */
export interface RevalidationRunner {
  run(task: CandidateTask, attemptIds: string[], signal?: AbortSignal): Promise<Array<{ attempt: string; record?: VerifierRunRecord; error?: string }>>;
}

/** The task as it was at an archived revision: its specs, tests and files from revisions/<n>/, today's attempts. */
export function taskAtRevision(store: CurationStore, current: CandidateTask, revision: number): CandidateTask | undefined {
  if (revision === current.revision) return current;
  const files = readRevision(store.root, current.id, revision);
  if (!files) return undefined;
  const built = buildTask(
    { name: current.id, taskJson: files.taskJson, entries: [{ name: TASK_FILE, kind: 'file' }, { name: REQUEST_FILE, kind: 'file' }, { name: TEST_PATCH_FILE, kind: 'file' }], complete: true, attempts: [] },
    store.dataset.manifest,
  );
  if (!built.task) return undefined;
  const dir = `${current.dir}/revisions/${revision}`;
  return {
    ...built.task,
    revision,
    dir: current.dir,
    attempts: current.attempts,
    files: { task: `${dir}/${TASK_FILE}`, request: `${dir}/${REQUEST_FILE}`, testPatch: `${dir}/${TEST_PATCH_FILE}`, ...(current.files.goldPatch ? { goldPatch: current.files.goldPatch } : {}) },
  };
}

function runsOfRevision(runs: Map<string, VerifierRunRecord[]>, revision: number): Map<string, VerifierRunRecord[]> {
  const out = new Map<string, VerifierRunRecord[]>();
  for (const [a, list] of runs) {
    const mine = list.filter((r) => r.taskRevision === revision);
    if (mine.length > 0) out.set(a, mine);
  }
  return out;
}

/** The before/after matrix of a task between two revisions, from the runs stored for each (`fresh`: the trials run on the new one). */
export function matrixBetween(store: CurationStore, taskId: string, from: number, to: number, fresh?: readonly FreshTrialEntry[]): RepairMatrix | undefined {
  store.refresh();
  const after = store.task(taskId);
  if (!after) return undefined;
  const afterTask = taskAtRevision(store, after, to);
  const beforeTask = taskAtRevision(store, after, from);
  if (!afterTask || !beforeTask) return undefined;
  const runs = listTaskRuns(store.root, taskId);
  const st = taskState(store.state, taskId);
  const rev = [...st.events].reverse().find((e) => e.kind === 'revision' && e.revision === to && !st.undone.has(e.id));
  return repairMatrix({
    before: { task: beforeTask, verifier: verifierResultsFromRuns(beforeTask, runsOfRevision(runs, from)) },
    after: { task: afterTask, verifier: verifierResultsFromRuns(afterTask, runsOfRevision(runs, to)) },
    state: st,
    ...(rev ? { revisionEvent: rev.id } : {}),
    policy: store.policy,
    ...(fresh ? { fresh } : {}),
  });
}

/**
 * Fresh solver trials after the re-runs: `trials` per model on the new revision, through runFreshTrials with the
 * caller's engine, one trial model per model name, limits, concurrency and verifier. `reloadTask` reads the task
 * again once a trial has landed (the caller's owner of tasks); the store takes the new attempts from it too.
 */
export type RevalidationTrials = Omit<FreshTrialsOptions, 'root' | 'jobs' | 'signal'> & {
  models: readonly string[];
  trials: number;
};

/** A trial's result as the revalidation record keeps it. */
export function freshEntry(r: TrialResult): FreshTrialEntry {
  return {
    ...(r.attemptId !== undefined ? { attempt: r.attemptId } : {}),
    model: r.model,
    ...(r.exitStatus !== undefined ? { exitStatus: r.exitStatus } : {}),
    ...(r.verdict !== undefined ? { verdict: r.verdict } : {}),
    ...(r.runId !== undefined ? { runId: r.runId } : {}),
    ...(r.steps !== undefined ? { steps: r.steps } : {}),
    ...(r.costUsd !== undefined ? { costUsd: Number(r.costUsd.toFixed(6)) } : {}),
    ...(r.error !== undefined ? { error: r.error } : {}),
  };
}

export interface RevalidateOptions {
  root: string;
  taskId: string;
  runner: RevalidationRunner;
  curator: string;
  /** The suggestion the revision came from: the record goes beside it. */
  suggestionId?: string;
  signal?: AbortSignal;
  store?: CurationStore;
  /** Fresh solver trials on the new revision after the re-runs (none when absent or `trials` is 0). */
  freshTrials?: RevalidationTrials;
}

export interface RevalidateResult {
  record: RevalidationRecord;
  file: string;
  /** Whether the task moved to `revalidated` (every run reached a result, every fresh trial ran: solved or not). */
  revalidated: boolean;
}

/** Runs gold, empty and every attempt on the task's current revision, then compares with the revision before. */
export async function revalidate(o: RevalidateOptions): Promise<RevalidateResult> {
  const store = o.store ?? CurationStore.open(o.root);
  store.refresh();
  const task = store.task(o.taskId);
  if (!task) throw new RepairFlowError('unknown_task', `the dataset has no task "${o.taskId}"`);
  if (task.revision < 2) throw new RepairFlowError('not_ready', `task ${o.taskId} is at revision 1: nothing to compare with`);
  const from = task.revision - 1;
  const ids = [...(task.files.goldPatch ? [GOLD_PROBE] : []), EMPTY_PROBE, ...task.attempts.map((a) => a.id)];
  const outcomes = await o.runner.run(task, ids, o.signal);
  let fresh: FreshTrialEntry[] | undefined;
  const ft = o.freshTrials;
  if (ft && ft.trials > 0 && ft.models.length > 0) {
    const { models, trials, ...loop } = ft;
    const results = o.signal?.aborted ? [] : await runFreshTrials({ ...loop, root: store.root, jobs: trialJobs([task], models, trials), ...(o.signal ? { signal: o.signal } : {}) });
    fresh = results.map(freshEntry);
    // A job the cancel kept from starting is a trial that did not run.
    for (const m of new Set(models)) {
      for (let i = results.filter((r) => r.model === m).length; i < trials * models.filter((x) => x === m).length; i++) fresh.push({ model: m, error: 'cancelled before it started' });
    }
    store.updateTasks([o.taskId], (id) => ft.reloadTask(id));
  }
  store.invalidateRuns(o.taskId);
  const matrix = matrixBetween(store, o.taskId, from, task.revision, fresh);
  if (!matrix) throw new RepairFlowError('not_ready', `revision ${from} of task ${o.taskId} is not readable under ${revisionFolder(o.root, o.taskId, from)}`);
  const runs = outcomes.map((x) => ({ attempt: x.attempt, ...(x.record ? { runId: x.record.runId, status: x.record.status } : { status: 'not_run' }), ...(x.error ? { error: x.error } : {}) }));
  const record: RevalidationRecord = {
    format: 1,
    ...(o.suggestionId ? { suggestion: o.suggestionId } : {}),
    task: o.taskId,
    fromRevision: from,
    toRevision: task.revision,
    finishedAt: new Date().toISOString(),
    runs,
    matrix,
    ...(fresh ? { fresh } : {}),
  };
  const file = saveRevalidation(o.root, record);
  // A trial that fails the verifier (or gives up) is information; one that could not run leaves it incomplete.
  const complete = outcomes.every((x) => x.record && x.record.status !== 'infra_error') && !(fresh ?? []).some(freshTrialIncomplete);
  let revalidated = false;
  if (complete) {
    const r = await store.record<string>((state) => {
      const st = taskState(state, o.taskId);
      if (!checkTransition(st.status, 'revalidated').ok) return { abort: `task is ${st.status}` };
      return [{ kind: 'status', task: o.taskId, revision: task.revision, curator: o.curator, payload: { from: st.status, to: 'revalidated', note: `gold, empty and ${task.attempts.length} attempt(s) run on revision ${task.revision}${fresh ? `, ${fresh.length} fresh trial(s)` : ''}` } }];
    });
    revalidated = r.ok;
    store.refresh();
  }
  return { record, file, revalidated };
}

/** A runner over the verifier's queue (the same queue the UI and `specweave verify` use). */
export function serviceRunner(service: {
  enqueue(req: { task: CandidateTask; attemptId: string; force?: boolean }): string;
  queue: { result(id: string): Promise<{ state: 'done'; value: VerifierRunRecord } | { state: 'failed'; error: unknown } | { state: 'cancelled' }>; cancel(id: string): boolean };
}): RevalidationRunner {
  return {
    async run(task, attemptIds, signal) {
      const jobs = attemptIds.map((attempt) => ({ attempt, id: service.enqueue({ task, attemptId: attempt }) }));
      const onAbort = () => jobs.forEach((j) => service.queue.cancel(j.id));
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        return await Promise.all(
          jobs.map(async (j) => {
            const o = await service.queue.result(j.id);
            if (o.state === 'done') return { attempt: j.attempt, record: o.value };
            if (o.state === 'cancelled') return { attempt: j.attempt, error: 'cancelled' };
            return { attempt: j.attempt, error: errorText(o.error) };
          }),
        );
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}

/** The request.md of a revision (the current one when `revision` is the task's). */
export function requestAt(store: CurationStore, task: CandidateTask, revision: number): string | undefined {
  if (revision === task.revision) return readDatasetTextIfExists(store.root, task.files.request);
  return readRevision(store.root, task.id, revision)?.request;
}

