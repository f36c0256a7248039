// The review agent (issue 13): for each attempt, one call to the model (the repair agent's client, settings, budget
// and key handling) judges the attempt against every spec of its task; the reply is checked deterministically
// (core/findings/reply.ts), crossed with the verifier (core/findings/cross.ts) and recorded as one `review.findings`
// event: suggestions, never a curator's label. In batch: a concurrency limit, a cost cap kept before each call,
// progress with done/total, ETA and the spend so far, and a journal entry after every paid call holding the checked
// payload, so `resume` records what was paid for without paying again and a pair (task revision x attempt x patch
// hash x prompt version x model) is never judged twice. See docs/review-agent.md.
import * as fs from 'node:fs';
import { createHash } from 'node:crypto';
import type { CurationStore } from './curationStore';
import { replyTokens } from './repairAgent';
import { readDatasetText, resolveDatasetPath } from '../adapters/fs/datasetLoader';
import { DatasetFolderWriter, readBytesIfExists, readTextIfExists, writeFileAtomicInAsync } from '../adapters/fs/datasetPaths';
import { listRuns, readRunLog } from '../adapters/fs/runStore';
import type { ReadTrajectoryOptions, TrajectoryResult } from '../adapters/fs/trajectoryReader';
import { readTrajectory } from '../adapters/fs/trajectoryReader';
import type { ChatResult, LlmSettings, Usage } from '../adapters/llm/client';
import { LlmClient } from '../adapters/llm/client';
import type { KeyHint, LlmErrorCode } from '../adapters/llm/errors';
import { LlmError } from '../adapters/llm/errors';
import { costOf } from '../adapters/llm/pricing';
import { Redactor } from '../adapters/llm/redact';
import { errorText } from '../core/errorText';
import { candidateCounts, crossFindings } from '../core/findings/cross';
import type { DropCause, FindingsPayload } from '../core/findings/model';
import { findingsPayloadCheck } from '../core/findings/model';
import type { ReviewPrompt, ShownRun } from '../core/findings/prompt';
import { buildReviewPrompt, PROMPT_VERSION, REVIEW_SCHEMA, REVIEW_SCHEMA_NAME } from '../core/findings/prompt';
import type { ReviewContext } from '../core/findings/reply';
import { checkReview } from '../core/findings/reply';
import { parseRecordJson } from '../core/json';
import type { CandidateTask, SpecVerdict, TrajectoryStep } from '../core/model';
import { SCHEMA_RESERVE_TOKENS } from '../core/repair/prompt';
import type { EventDraft, ReviewEvent } from '../core/review/events';
import { taskState } from '../core/review/reducer';

/** Where the journal of paid calls lives: one small record per pair. */
export const REVIEWER_JOURNAL_DIR = 'curation/reviewer';

export class ReviewAgentError extends Error {}

/** One pair judged by one call: the task revision, the attempt at its patch, the prompt version and the model. */
export interface ReviewPair {
  task: string;
  revision: number;
  attempt: string;
  patchHash: string;
  promptVersion: string;
  model: string;
}

export const pairKey = (p: ReviewPair): string => createHash('sha256').update(JSON.stringify([p.task, p.revision, p.attempt, p.patchHash, p.promptVersion, p.model])).digest('hex').slice(0, 24);

/** Written after each paid call (before the log is written), so a resumed batch neither pays nor judges twice. */
export interface ReviewJournalEntry {
  format: 1;
  pair: ReviewPair;
  at: string;
  usage?: Usage;
  costUsd?: number;
  outcome: 'checked' | 'failed';
  /** The checked payload (outcome `checked`): what the event records. */
  payload?: FindingsPayload;
  message?: string;
}

/** A pair's journal entry, relative to REVIEWER_JOURNAL_DIR. */
const journalBelow = (p: ReviewPair) => `${p.task}/${p.attempt}/${pairKey(p)}.json`;
const journalRel = (p: ReviewPair) => `${REVIEWER_JOURNAL_DIR}/${journalBelow(p)}`;

export function readReviewJournal(root: string, p: ReviewPair): ReviewJournalEntry | undefined {
  let text: string | undefined;
  try {
    text = readTextIfExists(root, journalRel(p));
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  const v = parseRecordJson(text);
  if (!v.ok || typeof v.value !== 'object' || v.value === null) return undefined;
  const e = v.value as ReviewJournalEntry;
  if (e.format !== 1 || !e.pair || pairKey(e.pair) !== pairKey(p)) return undefined;
  if (e.payload !== undefined && findingsPayloadCheck(e.payload, 'payload')) return undefined;
  return e;
}

const sameEventPair = (store: CurationStore, p: ReviewPair) =>
  taskState(store.state, p.task).findings.find((f) => f.revision === p.revision && f.payload.attempt === p.attempt && f.payload.patchHash === p.patchHash && f.payload.promptVersion === p.promptVersion && f.payload.model === p.model);

/** Reads a trajectory's steps (the streaming reader by default; tests and the bench pass their own). */
export type StepsReader = (absPath: string, opts: ReadTrajectoryOptions) => Promise<TrajectoryResult>;

export interface ReviewCommon {
  store: CurationStore;
  curator: string;
  settings: LlmSettings;
  apiKey?: string;
  keyHint?: KeyHint;
  client?: LlmClient;
  redactor?: Redactor;
  signal?: AbortSignal;
  onLog?: (line: string) => void;
  readSteps?: StepsReader;
  /** Trajectory files larger than this many bytes are not read (default 200 MB); the prompt says so. */
  maxTrajectoryBytes?: number;
}

/** One attempt read and its prompt built, before any call. */
export interface PreparedReview {
  task: CandidateTask;
  pair: ReviewPair;
  prompt: ReviewPrompt;
  context: ReviewContext;
  run?: { id: string; specs: Record<string, SpecVerdict> };
  maxReplyTokens: number;
  notes: string[];
}

/** Reads the attempt's patch, its latest run at the current patch and its trajectory, and builds the prompt. */
export async function prepareReview(store: CurationStore, task: CandidateTask, attemptId: string, o: Pick<ReviewCommon, 'settings' | 'readSteps' | 'maxTrajectoryBytes' | 'signal'>): Promise<PreparedReview> {
  const root = store.root;
  const attempt = task.attempts.find((a) => a.id === attemptId);
  if (!attempt) throw new ReviewAgentError(`task ${task.id} has no attempt "${attemptId}"`);
  const notes: string[] = [];
  const request = readDatasetText(root, task.files.request);
  const patchBytes = attempt.patchFile ? readBytesIfExists(root, attempt.patchFile) : undefined;
  if (attempt.patchFile && patchBytes === undefined) notes.push(`${attempt.patchFile} is missing; the attempt is judged as an empty patch`);
  const patch = patchBytes?.toString('utf8') ?? '';
  const patchHash = createHash('sha256')
    .update(patchBytes ?? Buffer.alloc(0))
    .digest('hex');
  let run: ShownRun | undefined;
  let runSpecs: PreparedReview['run'];
  const v = store.verifier(task.id)?.attempts[attemptId];
  if (v && v.source === 'run' && !v.stale) {
    const rec = listRuns(root, task.id, attemptId).find((r) => r.runId === v.runId);
    let stdout = '';
    if (rec) {
      try {
        stdout = readRunLog(root, rec, 'stdout');
      } catch (e) {
        notes.push(`the stdout of run ${rec.runId} cannot be read: ${errorText(e)}`);
      }
    }
    run = { id: v.runId, status: v.status, tests: v.tests, stdout };
    runSpecs = { id: v.runId, specs: v.specs };
  } else if (v?.stale) notes.push(`the latest run ${v.runId} is of an older patch or task revision; no run is shown`);
  let steps: TrajectoryStep[] = [];
  if (attempt.trajectoryFile) {
    try {
      const abs = resolveDatasetPath(root, attempt.trajectoryFile);
      const max = o.maxTrajectoryBytes ?? 200 * 1024 * 1024;
      if (fs.statSync(abs).size > max) notes.push(`${attempt.trajectoryFile} is larger than ${Math.round(max / 1048576)} MB; its steps are left out`);
      else {
        const r = await (o.readSteps ?? readTrajectory)(abs, { fileLabel: attempt.trajectoryFile, datasetRoot: root, ...(o.signal ? { signal: o.signal } : {}) });
        if (r.ok) steps = r.trajectory.steps;
        else notes.push(`${attempt.trajectoryFile}: ${r.problem.message}`);
      }
    } catch (e) {
      if (o.signal?.aborted) throw e;
      notes.push(`${attempt.trajectoryFile}: ${errorText(e)}`);
    }
  }
  const prompt = buildReviewPrompt({ task, attempt: attemptId, request, patch, ...(run ? { run } : {}), steps });
  const context: ReviewContext = { attempt: attemptId, attempts: task.attempts.map((a) => a.id), specs: task.specs.map((s) => s.id), tests: task.tests, request, patch, ...(run ? { run: { id: run.id, stdout: run.stdout } } : {}), steps };
  const pair: ReviewPair = { task: task.id, revision: task.revision, attempt: attemptId, patchHash, promptVersion: PROMPT_VERSION, model: o.settings.model };
  return { task, pair, prompt, context, ...(runSpecs ? { run: runSpecs } : {}), maxReplyTokens: replyTokens(o.settings.maxTokens), notes };
}

/** The most one call for this prompt can cost; undefined: no price known. */
export function worstCaseUsd(model: string, p: PreparedReview): number | undefined {
  return costOf(model, { promptTokens: p.prompt.estimatedTokens + SCHEMA_RESERVE_TOKENS, completionTokens: p.maxReplyTokens }).usd;
}

export type ReviewSkipReason = 'judged' | 'paid' | 'budget' | 'unknown_task' | 'unknown_attempt' | 'no_specs';

export type ReviewOutcome =
  | { task: string; attempt: string; status: 'reviewed'; findings: number; candidates: { false_positive: number; false_negative: number }; dropped: number; dropCounts: Partial<Record<DropCause, number>>; costUsd?: number; eventId?: string; fromJournal?: boolean; logError?: string }
  | { task: string; attempt: string; status: 'failed'; code: LlmErrorCode | 'invalid_reply' | 'refusal' | 'io'; message: string; costUsd?: number }
  | { task: string; attempt: string; status: 'skipped'; reason: ReviewSkipReason; message: string };

type Recorded = { eventId?: string; already?: string };

/**
 * Records checked payloads as `review.findings` events, several pairs in one log transaction (a group commit): the
 * payloads queued while a write is under way, or within one turn of the event loop, go together in the next
 * transaction (at most `maxGroup`), so the lock file and the fsync are paid once for them. Each caller's promise
 * resolves once its event is on disk, or with `already` when the pair's event is in the log (checked under the lock,
 * against what other writers appended); it rejects when the transaction fails, for every pair of the group. The
 * caller writes its journal entry BEFORE it queues, so a crash at any point loses nothing paid for.
 */
export class FindingsRecorder {
  private queue: Array<{ pair: ReviewPair; payload: FindingsPayload; done: (r: Recorded) => void; fail: (e: unknown) => void }> = [];
  private busy = false;
  /** Log transactions made so far (tests, the bench). */
  transactions = 0;
  private readonly maxGroup: number;

  constructor(
    private readonly store: CurationStore,
    private readonly curator: string,
    maxGroup = 64,
  ) {
    this.maxGroup = Math.max(1, Math.floor(maxGroup));
  }

  record(pair: ReviewPair, payload: FindingsPayload): Promise<Recorded> {
    return new Promise<Recorded>((done, fail) => {
      this.queue.push({ pair, payload, done, fail });
      this.kick();
    });
  }

  private kick(): void {
    if (this.busy || this.queue.length === 0) return;
    this.busy = true;
    // One turn later: whatever else finished in this turn joins the group.
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    const group = this.queue.splice(0, this.maxGroup);
    // Per queued pair, decided under the lock: its event in the log already, the index of its draft, or (the same
    // pair twice in one group) the index of the first one's draft.
    let plan: Array<{ already: string } | { draft: number } | { sameAs: number }> = [];
    try {
      this.transactions++;
      const r = await this.store.record<true>(() => {
        plan = [];
        const drafts: EventDraft[] = [];
        const draftOf = new Map<string, number>();
        for (const g of group) {
          const have = sameEventPair(this.store, g.pair);
          const k = pairKey(g.pair);
          const first = draftOf.get(k);
          if (have) plan.push({ already: have.event });
          else if (first !== undefined) plan.push({ sameAs: first });
          else {
            draftOf.set(k, drafts.length);
            plan.push({ draft: drafts.length });
            drafts.push({ kind: 'review.findings', task: g.pair.task, revision: g.pair.revision, curator: this.curator, payload: g.payload });
          }
        }
        return drafts.length > 0 ? drafts : { abort: true };
      });
      const events = r.ok ? r.events : [];
      group.forEach((g, i) => {
        const p = plan[i];
        if (!p) g.done({});
        else if ('already' in p) g.done({ already: p.already });
        else if ('draft' in p) g.done(events[p.draft] ? { eventId: (events[p.draft] as ReviewEvent).id } : {});
        else g.done(events[p.sameAs] ? { already: (events[p.sameAs] as ReviewEvent).id } : {});
      });
    } catch (e) {
      for (const g of group) g.fail(e);
    } finally {
      this.busy = false;
      this.kick();
    }
  }
}

function reviewedOutcome(pair: ReviewPair, payload: FindingsPayload, extra: { eventId?: string; fromJournal?: boolean; logError?: string }): Extract<ReviewOutcome, { status: 'reviewed' }> {
  const dropCounts: Partial<Record<DropCause, number>> = {};
  for (const d of payload.dropped) if (d.cause) dropCounts[d.cause] = (dropCounts[d.cause] ?? 0) + 1;
  return {
    task: pair.task,
    attempt: pair.attempt,
    status: 'reviewed',
    findings: payload.findings.length,
    candidates: candidateCounts(payload.findings),
    dropped: payload.dropped.length,
    dropCounts,
    ...(payload.costUsd !== undefined ? { costUsd: payload.costUsd } : {}),
    ...(extra.eventId ? { eventId: extra.eventId } : {}),
    ...(extra.fromJournal ? { fromJournal: true } : {}),
    ...(extra.logError ? { logError: extra.logError } : {}),
  };
}

export interface ReviewAttemptOptions extends ReviewCommon {
  prepared: PreparedReview;
  /** Shared by the pairs of a batch, so their events go to the log together (default: one of its own). */
  recorder?: FindingsRecorder;
  /** The journal's folder kept open by a batch (default: the journal entry's folders are checked from the root). */
  journalFolder?: DatasetFolderWriter;
}

/** Judges one prepared attempt: one call, the checks, the journal, the event. Rejects only when cancelled. */
export async function reviewAttempt(o: ReviewAttemptOptions): Promise<ReviewOutcome> {
  const redactor = o.redactor ?? new Redactor();
  redactor.add(o.apiKey);
  const log = (l: string) => o.onLog?.(redactor.redact(l));
  const p = o.prepared;
  const { pair } = p;
  const client = o.client ?? new LlmClient({ settings: o.settings, ...(o.apiKey ? { apiKey: o.apiKey } : {}), redactor, ...(o.keyHint ? { keyHint: o.keyHint } : {}) });
  let res: ChatResult;
  try {
    res = await client.chat({ messages: p.prompt.messages.map((m) => ({ ...m })), schema: { name: REVIEW_SCHEMA_NAME, schema: REVIEW_SCHEMA }, maxReplyTokens: p.maxReplyTokens }, { ...(o.signal ? { signal: o.signal } : {}), onLog: log });
  } catch (e) {
    if (e instanceof LlmError && e.code !== 'cancelled') {
      const message = redactor.redact(e.message);
      log(`${pair.task} ${pair.attempt}: no review: ${message}`);
      return { task: pair.task, attempt: pair.attempt, status: 'failed', code: e.code, message };
    }
    throw e;
  }
  const cost = costOf(res.model, res.usage);
  const costUsd = cost.usd ?? worstCaseUsd(o.settings.model, p);
  const base = { format: 1 as const, pair, at: new Date().toISOString(), ...(res.usage ? { usage: res.usage } : {}), ...(costUsd !== undefined ? { costUsd } : {}) };
  // Flushed before the event is written (a crash after it loses nothing paid for), off the event loop so the other
  // calls under way go on meanwhile.
  const journal = async (e: ReviewJournalEntry) => {
    try {
      const text = `${JSON.stringify(e, null, 2)}\n`;
      await (o.journalFolder ? o.journalFolder.writeAtomic(journalBelow(pair), text) : writeFileAtomicInAsync(o.store.root, journalRel(pair), text));
    } catch (err) {
      log(`${pair.task} ${pair.attempt}: the reviewer journal could not be written (${errorText(err)}); --resume may ask for this pair again`);
    }
  };
  const failed = async (code: Extract<ReviewOutcome, { status: 'failed' }>['code'], message: string): Promise<ReviewOutcome> => {
    const msg = redactor.redact(message);
    await journal({ ...base, outcome: 'failed', message: msg.slice(0, 2000) });
    log(`${pair.task} ${pair.attempt}: no review: ${msg}`);
    return { task: pair.task, attempt: pair.attempt, status: 'failed', code, message: msg, ...(costUsd !== undefined ? { costUsd } : {}) };
  };
  if (res.finishReason === 'length') return failed('length', `the reply hit the limit of ${p.maxReplyTokens} reply tokens before it was complete; raise the token budget (specweave.repair.maxTokens, or --max-tokens); nothing was recorded`);
  if (res.finishReason === 'content_filter') return failed('refusal', 'the endpoint filtered the reply (content filter); nothing was recorded');
  const checked = checkReview(res.text, p.context);
  if (!checked.ok) {
    const what = { not_json: 'was not JSON', schema: 'did not match the review schema', refused: 'was a refusal' }[checked.kind];
    return failed(checked.kind === 'refused' ? 'refusal' : 'invalid_reply', `the model's reply ${what}; nothing was recorded: ${checked.reasons.slice(0, 5).join('; ')}`);
  }
  const payload: FindingsPayload = redactor.maskValue({
    attempt: pair.attempt,
    patchHash: pair.patchHash,
    ...(p.run ? { run: p.run.id } : {}),
    model: o.settings.model,
    promptVersion: pair.promptVersion,
    promptHash: p.prompt.promptHash,
    ...(res.usage ? { promptTokens: res.usage.promptTokens, completionTokens: res.usage.completionTokens } : {}),
    ...(costUsd !== undefined ? { costUsd } : {}),
    findings: crossFindings(checked.findings, p.run?.specs),
    dropped: checked.dropped,
  });
  await journal({ ...base, outcome: 'checked', payload });
  for (const d of payload.dropped) log(`${pair.task} ${pair.attempt}: dropped ${d.reason}`);
  try {
    const r = await (o.recorder ?? new FindingsRecorder(o.store, o.curator)).record(pair, payload);
    return reviewedOutcome(pair, payload, r.eventId ? { eventId: r.eventId } : {});
  } catch (e) {
    const logError = redactor.redact(errorText(e));
    log(`${pair.task} ${pair.attempt}: the review log did not take the findings: ${logError}; --resume records them from the journal`);
    return reviewedOutcome(pair, payload, { logError });
  }
}

export interface ReviewBatchProgress {
  kind: 'start' | 'done' | 'skip' | 'stop';
  task?: string;
  attempt?: string;
  outcome?: ReviewOutcome;
  spentUsd: number;
  done: number;
  total: number;
  /** Milliseconds left at the pace of the calls so far; undefined before the first call ends. */
  etaMs?: number;
  message?: string;
}

export interface ReviewBatchOptions extends ReviewCommon {
  /** Task ids (default: every task). */
  tasks?: string[];
  /** Attempt ids to judge (default: every attempt of each task). */
  attempts?: string[];
  concurrency?: number;
  budgetUsd?: number;
  resume?: boolean;
  onProgress?: (e: ReviewBatchProgress) => void;
  /** At most this many pairs' events in one log transaction (default 64; 1: a transaction per pair). */
  maxEventsPerWrite?: number;
  /**
   * Keep the journal's folder open for the batch, so a journal write does not check the folders above it again
   * (default true; false: every write checks its whole path from the dataset root, as before; the bench compares).
   */
  keepJournalFolder?: boolean;
}

export interface ReviewBatchResult {
  outcomes: ReviewOutcome[];
  /** USD paid by this batch (journal replays are not paid again and not counted). */
  spentUsd: number;
  stopped?: string;
  /** Log transactions that recorded this batch's events (fewer than the pairs when several finished together). */
  logWrites: number;
}

/** Judges many attempts; see the file comment. Outcomes are in task then attempt order. */
export async function reviewAttempts(o: ReviewBatchOptions): Promise<ReviewBatchResult> {
  const redactor = o.redactor ?? new Redactor();
  redactor.add(o.apiKey);
  const client = o.client ?? new LlmClient({ settings: o.settings, ...(o.apiKey ? { apiKey: o.apiKey } : {}), redactor, ...(o.keyHint ? { keyHint: o.keyHint } : {}) });
  const concurrency = Math.max(1, Math.floor(o.concurrency ?? 4));
  o.store.refresh();
  const taskIds = o.tasks ?? o.store.dataset.tasks.map((t) => t.id);
  const only = o.attempts ? new Set(o.attempts) : undefined;
  const work: Array<{ task: string; attempt?: string }> = [];
  for (const id of taskIds) {
    const t = o.store.task(id);
    if (!t) {
      work.push({ task: id });
      continue;
    }
    for (const a of t.attempts) if (!only || only.has(a.id)) work.push({ task: id, attempt: a.id });
  }
  const total = work.length;
  const outcomes = new Array<ReviewOutcome | undefined>(total);
  let spent = 0;
  let reserved = 0;
  let done = 0;
  let calls = 0;
  let stopped: string | undefined;
  let next = 0;
  const t0 = Date.now();
  const eta = () => (calls === 0 ? undefined : Math.round(((Date.now() - t0) / done) * (total - done)));
  const emit = (e: Omit<ReviewBatchProgress, 'spentUsd' | 'done' | 'total'>) => o.onProgress?.({ ...e, spentUsd: round(spent), done, total, ...(eta() !== undefined ? { etaMs: eta() } : {}) });
  const settle = (i: number, outcome: ReviewOutcome) => {
    outcomes[i] = outcome;
    done++;
    emit({ kind: outcome.status === 'skipped' ? 'skip' : 'done', task: outcome.task, attempt: outcome.attempt, outcome, ...(outcome.status !== 'reviewed' ? { message: outcome.message } : {}) });
  };
  const skip = (i: number, task: string, attempt: string, reason: ReviewSkipReason, message: string) => settle(i, { task, attempt, status: 'skipped', reason, message });
  const { tasks: _t, attempts: _a, concurrency: _c, budgetUsd: _b, resume: _r, onProgress: _p, maxEventsPerWrite: _m, keepJournalFolder: _k, ...common } = o;
  const recorder = new FindingsRecorder(o.store, o.curator, o.maxEventsPerWrite);
  const journalFolder = o.keepJournalFolder === false ? undefined : new DatasetFolderWriter(o.store.root, REVIEWER_JOURNAL_DIR);

  const worker = async (): Promise<void> => {
    while (next < total) {
      const i = next++;
      const w = work[i] as { task: string; attempt?: string };
      if (o.signal?.aborted) throw new LlmError('cancelled', 'cancelled');
      const task = o.store.task(w.task);
      if (!task || w.attempt === undefined) {
        skip(i, w.task, '', 'unknown_task', `the dataset has no task "${w.task}"`);
        continue;
      }
      if (task.specs.length === 0) {
        skip(i, task.id, w.attempt, 'no_specs', 'the task has no specs to judge against (specweave specs draft)');
        continue;
      }
      let prepared: PreparedReview;
      try {
        prepared = await prepareReview(o.store, task, w.attempt, o);
      } catch (e) {
        if (o.signal?.aborted) throw e;
        settle(i, { task: task.id, attempt: w.attempt, status: 'failed', code: 'io', message: errorText(e) });
        continue;
      }
      const have = sameEventPair(o.store, prepared.pair);
      if (have) {
        skip(i, task.id, w.attempt, 'judged', `already judged at this patch, prompt ${prepared.pair.promptVersion} and model ${prepared.pair.model} (event ${have.event})`);
        continue;
      }
      if (o.resume) {
        const j = readReviewJournal(o.store.root, prepared.pair);
        if (j?.outcome === 'checked' && j.payload) {
          // Paid for before a crash, not in the log yet: record it without paying again.
          try {
            const r = await recorder.record(prepared.pair, j.payload);
            settle(i, reviewedOutcome(prepared.pair, j.payload, { ...(r.eventId ? { eventId: r.eventId } : {}), fromJournal: true }));
          } catch (e) {
            settle(i, { task: task.id, attempt: w.attempt, status: 'failed', code: 'io', message: `the journal's findings could not be recorded: ${errorText(e)}` });
          }
          continue;
        }
        if (j) {
          skip(i, task.id, w.attempt, 'paid', `already sent to the model at ${j.at} (${j.outcome}${j.message ? `: ${j.message}` : ''}); run without --resume to ask again`);
          continue;
        }
      }
      if (stopped) {
        skip(i, task.id, w.attempt, 'budget', stopped);
        continue;
      }
      let worst = 0;
      if (o.budgetUsd !== undefined) {
        const wc = worstCaseUsd(o.settings.model, prepared);
        if (wc === undefined) stopped = `the price of model "${o.settings.model}" is not known, so a cost cap cannot be kept; no call was made (drop --budget-usd, or use a model of the price table in docs/drafter.md)`;
        else if (spent + reserved + wc > o.budgetUsd) stopped = `the cost cap of $${o.budgetUsd.toFixed(4)} stops the batch: $${round(spent).toFixed(4)} spent${reserved > 0 ? `, $${round(reserved).toFixed(4)} under way` : ''}, and the next call (${task.id} ${w.attempt}) could cost up to $${wc.toFixed(4)}`;
        else worst = wc;
        if (stopped) {
          emit({ kind: 'stop', task: task.id, attempt: w.attempt, message: stopped });
          skip(i, task.id, w.attempt, 'budget', stopped);
          continue;
        }
      }
      reserved += worst;
      emit({ kind: 'start', task: task.id, attempt: w.attempt });
      let outcome: ReviewOutcome;
      try {
        outcome = await reviewAttempt({ ...common, client, redactor, prepared, recorder, ...(journalFolder ? { journalFolder } : {}) });
      } finally {
        reserved -= worst;
      }
      calls++;
      if (outcome.status !== 'skipped') spent += outcome.costUsd ?? 0;
      settle(i, outcome);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, total)) }, () => worker()));
  } finally {
    await journalFolder?.close();
  }
  return { outcomes: outcomes as ReviewOutcome[], spentUsd: round(spent), ...(stopped ? { stopped } : {}), logWrites: recorder.transactions };
}

const round = (usd: number) => Math.round(usd * 1e6) / 1e6;
