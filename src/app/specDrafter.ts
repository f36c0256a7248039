// The spec drafter: for a task without specs, ask the model (the repair agent's client, settings, budget and key
// handling) for specs, their citations and the spec-test map; check the reply spec by spec; store what survives as a
// repair suggestion (provenance `drafter`: a diff of task.json, editable, accepted by acceptSuggestion). A draft where
// nothing survives writes nothing. In batch: a concurrency limit, a cost cap kept before each call, progress with the
// spend so far, and a journal entry after every paid call so `resume` never pays twice for a task. See docs/drafter.md.
import type { CurationStore } from './curationStore';
import { replyTokens } from './repairAgent';
import type { RepairProgress } from './repairAgent';
import type { SuggestionRecord } from '../adapters/fs/repairStore';
import { listSuggestions, newSuggestionId, saveSuggestion, sha256, SUGGESTIONS_DIR } from '../adapters/fs/repairStore';
import { readDatasetText, readDatasetTextIfExists } from '../adapters/fs/datasetLoader';
import { readTextIfExists, writeFileAtomicIn } from '../adapters/fs/datasetPaths';
import type { ChatResult, LlmSettings, Usage } from '../adapters/llm/client';
import { LlmClient } from '../adapters/llm/client';
import type { KeyHint, LlmErrorCode } from '../adapters/llm/errors';
import { LlmError } from '../adapters/llm/errors';
import { costOf } from '../adapters/llm/pricing';
import { Redactor } from '../adapters/llm/redact';
import { parseRecordJson } from '../core/json';
import type { CandidateTask } from '../core/model';
import { promptDocument, SCHEMA_RESERVE_TOKENS } from '../core/repair/prompt';
import type { SectionReport } from '../core/repair/prompt';
import { proposedFiles } from '../core/repair/revision';
import type { DraftRejection } from '../core/specs/draftCheck';
import { checkDraft } from '../core/specs/draftCheck';
import type { DraftPrompt } from '../core/specs/draftPrompt';
import { buildDraftPrompt, DRAFT_SCHEMA, DRAFT_SCHEMA_NAME } from '../core/specs/draftPrompt';
import { unifiedDiff } from '../core/textDiff';
import { errorText } from '../core/errorText';

/** Where the journal of paid calls lives: one small record per task and revision. */
export const DRAFTER_JOURNAL_DIR = 'curation/drafter';

export class DrafterError extends Error {}

export interface DraftCommon {
  store: CurationStore;
  curator: string;
  settings: LlmSettings;
  apiKey?: string;
  keyHint?: KeyHint;
  /** A client to use instead of one made from the settings (tests, a shared session client). */
  client?: LlmClient;
  redactor?: Redactor;
  signal?: AbortSignal;
  /** Redacted log lines. */
  onLog?: (line: string) => void;
  /** Draft tasks that already have specs too (the draft replaces them once accepted). */
  force?: boolean;
}

export type SkipReason = 'has_specs' | 'drafted' | 'budget' | 'unknown_task';

export type DraftOutcome =
  | { task: string; status: 'drafted'; record: SuggestionRecord; specs: number; rejections: DraftRejection[]; costUsd?: number; eventId?: string; logError?: string }
  | { task: string; status: 'failed'; code: LlmErrorCode | 'invalid_reply' | 'refusal' | 'io'; message: string; reasons: string[]; rejections: DraftRejection[]; costUsd?: number }
  | { task: string; status: 'skipped'; reason: SkipReason; message: string };

/** A journal entry: written after each paid call, so a resumed batch does not pay for the task again. */
export interface JournalEntry {
  format: 1;
  task: string;
  revision: number;
  at: string;
  model: string;
  usage?: Usage;
  costUsd?: number;
  outcome: 'paid' | 'drafted' | 'failed';
  suggestion?: string;
  message?: string;
}

const journalRel = (taskId: string, revision: number) => `${DRAFTER_JOURNAL_DIR}/${taskId}/r${revision}.json`;

export function readJournal(root: string, taskId: string, revision: number): JournalEntry | undefined {
  let text: string | undefined;
  try {
    text = readTextIfExists(root, journalRel(taskId, revision));
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  const v = parseRecordJson(text);
  return v.ok && typeof v.value === 'object' && v.value !== null && (v.value as JournalEntry).task === taskId ? (v.value as JournalEntry) : undefined;
}

function writeJournal(root: string, e: JournalEntry): void {
  writeFileAtomicIn(root, journalRel(e.task, e.revision), `${JSON.stringify(e, null, 2)}\n`);
}

/** Why a task is not drafted again: it has specs (unless forced), or (resuming) its revision was paid for already. */
export function skipReason(store: CurationStore, task: CandidateTask, o: { force?: boolean; resume?: boolean }): { reason: SkipReason; message: string } | undefined {
  if (o.resume) {
    const stored = listSuggestions(store.root, task.id).find((r) => r.provenance === 'drafter' && r.revision === task.revision);
    if (stored) return { reason: 'drafted', message: `revision ${task.revision} already has drafter suggestion ${stored.id}` };
    const j = readJournal(store.root, task.id, task.revision);
    if (j) return { reason: 'drafted', message: `revision ${task.revision} was already sent to the model at ${j.at} (${j.outcome}${j.message ? `: ${j.message}` : ''}); run without --resume to draft it again` };
  }
  if (task.specs.length > 0 && !o.force) return { reason: 'has_specs', message: `it has ${task.specs.length} spec(s) already; --force drafts it anyway` };
  return undefined;
}

/** A task read and its prompt built, before any call. */
export interface PreparedDraft {
  task: CandidateTask;
  taskJsonText: string;
  taskJson: Record<string, unknown>;
  request: string;
  testPatch: string;
  goldPatch?: string;
  prompt: DraftPrompt;
  maxReplyTokens: number;
  promptMs: number;
}

/** Reads the task's files and builds the prompt. */
export function prepareDraft(store: CurationStore, task: CandidateTask, settings: LlmSettings): PreparedDraft {
  const root = store.root;
  const taskJsonText = readDatasetText(root, task.files.task);
  const parsed = parseRecordJson(taskJsonText);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) throw new DrafterError(`${task.files.task}: ${parsed.ok ? 'expected a JSON object' : parsed.message}`);
  const request = readDatasetText(root, task.files.request);
  const testPatch = readDatasetTextIfExists(root, task.files.testPatch) ?? '';
  const goldPatch = task.files.goldPatch ? readDatasetTextIfExists(root, task.files.goldPatch) : undefined;
  const maxReplyTokens = replyTokens(settings.maxTokens);
  const p0 = Date.now();
  const prompt = buildDraftPrompt({ task, request, testPatch, ...(goldPatch !== undefined ? { goldPatch } : {}), budgetTokens: settings.maxTokens - maxReplyTokens - SCHEMA_RESERVE_TOKENS });
  return { task, taskJsonText, taskJson: parsed.value as Record<string, unknown>, request, testPatch, ...(goldPatch !== undefined ? { goldPatch } : {}), prompt, maxReplyTokens, promptMs: Date.now() - p0 };
}

/** The most one call for this prompt can cost (prompt estimate plus schema, and every reply token); undefined: no price known. */
export function worstCaseUsd(model: string, p: PreparedDraft): number | undefined {
  return costOf(model, { promptTokens: p.prompt.estimatedTokens + SCHEMA_RESERVE_TOKENS, completionTokens: p.maxReplyTokens }).usd;
}

function sections(p: DraftPrompt): SectionReport[] {
  const title = { request: 'Request', tests: 'Tests', test_patch: 'Test patch', gold_patch: 'Gold patch' } as const;
  return p.parts.map((x) => ({
    id: x.id,
    title: title[x.id],
    included: x.lines === 0 ? 'omitted' : x.linesKept === x.lines ? 'full' : 'partial',
    tokens: Math.ceil(x.chars / 3.5),
    items: x.lines,
    itemsIncluded: x.linesKept,
    ...(x.linesKept < x.lines ? { reason: `${x.lines - x.linesKept} line(s) cut to fit the budget` } : {}),
  }));
}

export interface DraftTaskOptions extends DraftCommon {
  taskId: string;
  onProgress?: (p: RepairProgress) => void;
  /** Prepared by the caller (the batch computes the worst case from it). */
  prepared?: PreparedDraft;
}

/** Drafts one task. Resolves with what happened; rejects only when cancelled or when the task cannot be read. */
export async function draftTask(o: DraftTaskOptions): Promise<DraftOutcome> {
  const t0 = Date.now();
  const redactor = o.redactor ?? new Redactor();
  redactor.add(o.apiKey);
  const log = (l: string) => o.onLog?.(redactor.redact(l));
  o.onProgress?.({ phase: 'reading' });
  let p = o.prepared;
  if (!p) {
    o.store.refresh();
    const task = o.store.task(o.taskId);
    if (!task) return { task: o.taskId, status: 'skipped', reason: 'unknown_task', message: `the dataset has no task "${o.taskId}"` };
    const skip = skipReason(o.store, task, { ...(o.force !== undefined ? { force: o.force } : {}) });
    if (skip) return { task: task.id, status: 'skipped', ...skip };
    o.onProgress?.({ phase: 'prompt' });
    p = prepareDraft(o.store, task, o.settings);
  }
  const { task, prompt } = p;
  const cut = prompt.parts.filter((x) => x.linesKept < x.lines);
  log(`${task.id}: prompt ~${prompt.estimatedTokens} tokens of ${prompt.budgetTokens}${cut.length ? `; cut: ${cut.map((x) => `${x.id} ${x.lines - x.linesKept} of ${x.lines} lines`).join(', ')}` : ''}`);
  const client = o.client ?? new LlmClient({ settings: o.settings, ...(o.apiKey ? { apiKey: o.apiKey } : {}), redactor, ...(o.keyHint ? { keyHint: o.keyHint } : {}) });

  let res: ChatResult;
  o.onProgress?.({ phase: 'sending', tokens: 0 });
  try {
    res = await client.chat(
      { messages: prompt.messages.map((m) => ({ ...m })), schema: { name: DRAFT_SCHEMA_NAME, schema: DRAFT_SCHEMA }, maxReplyTokens: p.maxReplyTokens },
      {
        ...(o.signal ? { signal: o.signal } : {}),
        onLog: log,
        onProgress: (x) => o.onProgress?.({ phase: x.phase === 'waiting' ? 'waiting' : x.phase === 'sending' ? 'sending' : 'streaming', tokens: x.tokens, ...(x.message ? { message: x.message } : {}) }),
      },
    );
  } catch (e) {
    if (e instanceof LlmError && e.code !== 'cancelled') {
      const message = redactor.redact(e.message);
      log(`${task.id}: no draft: ${message}`);
      return { task: task.id, status: 'failed', code: e.code, message, reasons: [], rejections: [] };
    }
    throw e;
  }
  const cost = costOf(res.model, res.usage);
  const costUsd = cost.usd ?? worstCaseUsd(o.settings.model, p);
  const journal: JournalEntry = { format: 1, task: task.id, revision: task.revision, at: new Date().toISOString(), model: o.settings.model, ...(res.usage ? { usage: res.usage } : {}), ...(costUsd !== undefined ? { costUsd } : {}), outcome: 'paid' };
  const journalNow = (extra: Partial<JournalEntry>) => {
    try {
      writeJournal(o.store.root, { ...journal, ...extra });
    } catch (e) {
      log(`${task.id}: the drafter journal could not be written (${errorText(e)}); --resume may ask for this task again`);
    }
  };
  journalNow({});
  o.onProgress?.({ phase: 'checking' });
  const failed = (code: Extract<DraftOutcome, { status: 'failed' }>['code'], message: string, reasons: string[] = [], rejections: DraftRejection[] = []): DraftOutcome => {
    const msg = redactor.redact(message);
    const rs = reasons.map((r) => redactor.redact(r));
    log(`${task.id}: no draft: ${msg}`);
    journalNow({ outcome: 'failed', message: msg.slice(0, 2000) });
    return { task: task.id, status: 'failed', code, message: msg, reasons: rs, rejections: rejections.map((r) => ({ ...r, text: redactor.redact(r.text), reason: redactor.redact(r.reason) })), ...(costUsd !== undefined ? { costUsd } : {}) };
  };
  if (res.finishReason === 'length') return failed('length', `the reply hit the limit of ${p.maxReplyTokens} reply tokens before it was complete; raise the token budget (specweave.repair.maxTokens, or --max-tokens) and draft again; nothing was written`);
  if (res.finishReason === 'content_filter') return failed('refusal', 'the endpoint filtered the reply (content filter); nothing was written');
  const checked = checkDraft(res.text, { tests: task.tests, request: p.request, testPatch: p.testPatch, ...(p.goldPatch !== undefined ? { goldPatch: p.goldPatch } : {}) });
  if (!checked.ok) {
    const what = { not_json: 'was not JSON', schema: 'did not match the draft schema', refused: 'was a refusal', empty: 'proposed no specs', none_survived: 'had no spec that passed the checks' }[checked.kind];
    const n = checked.reasons.length;
    return failed(checked.kind === 'refused' ? 'refusal' : 'invalid_reply', `the model's reply ${what}; nothing was written: ${checked.reasons.slice(0, 5).join('; ')}${n > 5 ? `; and ${n - 5} more` : ''}`, checked.reasons, checked.rejections);
  }

  // What the model wrote is shown, printed and stored: the key never is.
  const specs = redactor.maskValue(checked.specs);
  const rejections = checked.rejections.map((r) => ({ ...r, text: redactor.redact(r.text), reason: redactor.redact(r.reason) }));
  for (const r of rejections) log(`${task.id}: rejected ${r.reason}`);
  const current = { taskJson: p.taskJson, request: p.request, testPatch: p.testPatch, testFiles: new Map<string, string | undefined>() };
  const files = proposedFiles({ specs, tests: checked.tests }, current).map((f) => ({ ...f, diff: unifiedDiff(f.path, f.path, f.current, f.proposed) }));
  const id = newSuggestionId();
  const summary = `drafted ${specs.length} spec(s)${rejections.length ? `; ${rejections.length} rejected` : ''}`;
  const rationale = [
    ...specs.map((s) => {
      const c = checked.citations[s.id];
      return `${s.id} (${s.category}) cites ${c ? `${c.source.replace('_', ' ')}${c.line !== undefined ? ` line ${c.line}` : ''}: "${redactor.redact(c.quote)}"` : 'nothing'}`;
    }),
    ...rejections.map((r) => `rejected: ${r.reason}`),
    ...checked.notes.map((n) => `note: ${n}`),
  ].join('\n');
  o.onProgress?.({ phase: 'storing' });
  let record: SuggestionRecord;
  try {
    record = saveSuggestion(o.store.root, {
      record: redactor.maskValue({
        format: 1,
        provenance: 'drafter',
        id,
        task: task.id,
        revision: task.revision,
        createdAt: new Date(t0).toISOString(),
        curator: o.curator,
        status: 'ready',
        requestedTarget: 'specs',
        target: 'specs',
        summary,
        rationale,
        evidence: [],
        draft: { citations: checked.citations, rejections, notes: checked.notes },
        llm: {
          baseUrl: client.settings.baseUrl,
          model: o.settings.model,
          answeredBy: res.model,
          responseFormat: res.responseFormat,
          temperature: o.settings.temperature,
          maxTokens: o.settings.maxTokens,
          maxReplyTokens: p.maxReplyTokens,
          timeoutSec: o.settings.timeoutSec,
          tries: res.tries,
          ...(res.usage ? { usage: res.usage } : {}),
          ...(cost.usd !== undefined ? { costUsd: cost.usd } : {}),
          costSource: cost.source,
          durationMs: res.durationMs,
          ...(res.firstTokenMs !== undefined ? { firstTokenMs: res.firstTokenMs } : {}),
        },
        prompt: { file: 'prompt.md', estimatedTokens: prompt.estimatedTokens, budgetTokens: prompt.budgetTokens, sections: sections(prompt), focus: { attempts: [], tests: task.tests.filter((t) => t.kind === 'fail_to_pass').map((t) => t.id), specs: [], steering: ['drafter'] } },
        rounds: [{ messages: res.sent, reply: redactor.maskSecrets(res.text), finishReason: res.finishReason }],
        taskFingerprint: { taskJson: sha256(p.taskJsonText), request: sha256(p.request), testPatch: sha256(p.testPatch) },
        timings: { contextMs: 0, promptMs: p.promptMs, totalMs: Date.now() - t0 },
      } as const),
      files,
      promptDoc: promptDocument({ messages: res.sent, sections: sections(prompt) }),
      mask: (t) => redactor.maskSecrets(t),
    });
  } catch (e) {
    return failed('io', `the draft could not be stored under ${SUGGESTIONS_DIR}/: ${errorText(e)}`);
  }
  journalNow({ outcome: 'drafted', suggestion: record.id });
  log(`${task.id}: suggestion ${record.id}: ${summary}`);
  const out: Extract<DraftOutcome, { status: 'drafted' }> = { task: task.id, status: 'drafted', record, specs: specs.length, rejections, ...(costUsd !== undefined ? { costUsd } : {}) };
  try {
    const r = await o.store.log.append([
      {
        kind: 'repair.request',
        task: task.id,
        revision: task.revision,
        curator: o.curator,
        payload: {
          suggestion: record.id,
          target: 'specs',
          model: o.settings.model,
          outcome: 'suggested',
          message: `spec drafter: ${summary}`,
          ...(res.usage ? { promptTokens: res.usage.promptTokens, completionTokens: res.usage.completionTokens } : {}),
          ...(cost.usd !== undefined ? { costUsd: cost.usd } : {}),
        },
      },
    ]);
    if (r[0]) out.eventId = r[0].id;
    o.store.refresh();
  } catch (e) {
    out.logError = redactor.redact(errorText(e));
    log(`${task.id}: the review log did not take the request: ${out.logError}`);
  }
  return out;
}

export interface BatchProgress {
  kind: 'start' | 'done' | 'skip' | 'stop';
  task?: string;
  outcome?: DraftOutcome;
  /** USD spent so far by this batch (reported costs; the worst case where a call reported no usage). */
  spentUsd: number;
  done: number;
  total: number;
  message?: string;
}

export interface BatchOptions extends DraftCommon {
  tasks: string[];
  /** Calls at a time (default 4). */
  concurrency?: number;
  /** Stop starting calls when the spend so far, the calls under way and the next call's worst case would pass this. */
  budgetUsd?: number;
  resume?: boolean;
  onProgress?: (e: BatchProgress) => void;
}

export interface BatchResult {
  outcomes: DraftOutcome[];
  spentUsd: number;
  /** Why the batch stopped starting calls (the cost cap). */
  stopped?: string;
}

/** Drafts many tasks; see the file comment. Outcomes are in the order of `tasks`. */
export async function draftSpecs(o: BatchOptions): Promise<BatchResult> {
  const redactor = o.redactor ?? new Redactor();
  redactor.add(o.apiKey);
  const client = o.client ?? new LlmClient({ settings: o.settings, ...(o.apiKey ? { apiKey: o.apiKey } : {}), redactor, ...(o.keyHint ? { keyHint: o.keyHint } : {}) });
  const concurrency = Math.max(1, Math.floor(o.concurrency ?? 4));
  const total = o.tasks.length;
  const outcomes: Array<DraftOutcome | undefined> = new Array<DraftOutcome | undefined>(total);
  let spent = 0;
  let reserved = 0;
  let done = 0;
  let stopped: string | undefined;
  let next = 0;
  const emit = (e: Omit<BatchProgress, 'spentUsd' | 'done' | 'total'>) => o.onProgress?.({ ...e, spentUsd: round(spent), done, total });
  const settle = (i: number, outcome: DraftOutcome) => {
    outcomes[i] = outcome;
    done++;
    emit({ kind: outcome.status === 'skipped' ? 'skip' : 'done', task: outcome.task, outcome, ...(outcome.status === 'skipped' ? { message: outcome.message } : outcome.status === 'failed' ? { message: outcome.message } : {}) });
  };
  o.store.refresh();

  const worker = async (): Promise<void> => {
    while (next < total) {
      const i = next++;
      const id = o.tasks[i] as string;
      if (o.signal?.aborted) throw new LlmError('cancelled', 'cancelled');
      const task = o.store.task(id);
      if (!task) {
        settle(i, { task: id, status: 'skipped', reason: 'unknown_task', message: `the dataset has no task "${id}"` });
        continue;
      }
      const skip = skipReason(o.store, task, { ...(o.force !== undefined ? { force: o.force } : {}), ...(o.resume !== undefined ? { resume: o.resume } : {}) });
      if (skip) {
        settle(i, { task: id, status: 'skipped', ...skip });
        continue;
      }
      if (stopped) {
        settle(i, { task: id, status: 'skipped', reason: 'budget', message: stopped });
        continue;
      }
      let prepared: PreparedDraft;
      try {
        prepared = prepareDraft(o.store, task, o.settings);
      } catch (e) {
        settle(i, { task: id, status: 'failed', code: 'io', message: errorText(e), reasons: [], rejections: [] });
        continue;
      }
      let worst = 0;
      if (o.budgetUsd !== undefined) {
        const w = worstCaseUsd(o.settings.model, prepared);
        if (w === undefined) {
          stopped = `the price of model "${o.settings.model}" is not known, so a cost cap cannot be kept; no call was made (drop --budget-usd, or use a model of the price table in docs/drafter.md)`;
        } else if (spent + reserved + w > o.budgetUsd) {
          stopped = `the cost cap of $${o.budgetUsd.toFixed(4)} stops the batch: $${round(spent).toFixed(4)} spent${reserved > 0 ? `, $${round(reserved).toFixed(4)} under way` : ''}, and the next call (${id}) could cost up to $${w.toFixed(4)}`;
        } else worst = w;
        if (stopped) {
          emit({ kind: 'stop', task: id, message: stopped });
          settle(i, { task: id, status: 'skipped', reason: 'budget', message: stopped });
          continue;
        }
      }
      reserved += worst;
      emit({ kind: 'start', task: id });
      let outcome: DraftOutcome;
      try {
        const { tasks: _t, concurrency: _c, budgetUsd: _b, resume: _r, onProgress: _p, ...common } = o;
        outcome = await draftTask({ ...common, client, redactor, taskId: id, prepared });
      } finally {
        reserved -= worst;
      }
      if (outcome.status !== 'skipped') spent += outcome.costUsd ?? 0;
      settle(i, outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, total)) }, () => worker()));
  return { outcomes: outcomes as DraftOutcome[], spentUsd: round(spent), ...(stopped ? { stopped } : {}) };
}

const round = (usd: number) => Math.round(usd * 1e6) / 1e6;
