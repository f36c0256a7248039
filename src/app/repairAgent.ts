// Asking the model for a repair suggestion: read the task, build the prompt within the budget, ask in JSON mode, check
// the reply (one retry with the problems found), and store the outcome under the dataset before anyone sees it. The
// request, refusals and failures alike, is recorded in the review log as a `repair.request` event.
import type { CurationStore } from './curationStore';
import type { RepairContext } from './repairContext';
import { baseFile, loadRepairContext } from './repairContext';
import type { RoundRecord, SuggestionRecord } from '../adapters/fs/repairStore';
import { newSuggestionId, saveSuggestion, sha256 } from '../adapters/fs/repairStore';
import type { ChatMessage, ChatResult, LlmSettings, TryRecord, Usage } from '../adapters/llm/client';
import { LlmClient } from '../adapters/llm/client';
import type { KeyHint } from '../adapters/llm/errors';
import { LlmError } from '../adapters/llm/errors';
import { costOf } from '../adapters/llm/pricing';
import { Redactor } from '../adapters/llm/redact';
import type { BuiltPrompt } from '../core/repair/prompt';
import { buildPrompt, promptDocument } from '../core/repair/prompt';
import { proposedFiles, splitPatch } from '../core/repair/revision';
import type { CheckedSuggestion, RequestedTarget } from '../core/repair/suggestion';
import { SUGGESTION_SCHEMA, SUGGESTION_SCHEMA_NAME } from '../core/repair/suggestion';
import { checkReply, parseReply, pathsNamed, retryMessage } from '../core/repair/validate';
import { unifiedDiff } from '../core/textDiff';
import { errorText } from '../core/errorText';

/** Tokens kept for the reply out of the budget: a quarter, at least 1,024, at most 16,384. */
export function replyTokens(maxTokens: number): number {
  return Math.max(1024, Math.min(16_384, Math.floor(maxTokens / 4)));
}

export interface RepairProgress {
  phase: 'reading' | 'prompt' | 'sending' | 'streaming' | 'waiting' | 'checking' | 'retrying' | 'storing';
  tokens?: number;
  message?: string;
}

export interface RequestOptions {
  store: CurationStore;
  taskId: string;
  target: RequestedTarget;
  curator: string;
  settings: LlmSettings;
  apiKey?: string;
  keyHint?: KeyHint;
  note?: string;
  signal?: AbortSignal;
  onProgress?: (p: RepairProgress) => void;
  /** Redacted log lines. */
  onLog?: (line: string) => void;
  /** A client to use instead of one made from the settings (tests, a shared session client). */
  client?: LlmClient;
  redactor?: Redactor;
  /** Prepared context (the caller may have it already). */
  context?: RepairContext;
}

export interface RequestOutcome {
  record: SuggestionRecord;
  suggestion?: CheckedSuggestion;
  /** The event that recorded the request, when the log took it. */
  eventId?: string;
  /** Set when the log could not record the request (the suggestion is stored all the same). */
  logError?: string;
}

function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a) return b;
  if (!b) return a;
  const cost = a.costUsd !== undefined || b.costUsd !== undefined ? { costUsd: (a.costUsd ?? 0) + (b.costUsd ?? 0) } : {};
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens, totalTokens: a.totalTokens + b.totalTokens, ...cost };
}

/**
 * Asks for a suggestion and stores it. Resolves with the stored record for a suggestion, a refusal or a failure the
 * curator should see (its `status` and `error` say which); rejects only when cancelled (nothing stored) or when the
 * task cannot be read.
 */
export async function requestSuggestion(o: RequestOptions): Promise<RequestOutcome> {
  const t0 = Date.now();
  const redactor = o.redactor ?? new Redactor();
  redactor.add(o.apiKey);
  const log = (l: string) => o.onLog?.(redactor.redact(l));
  o.onProgress?.({ phase: 'reading' });
  const ctx = o.context ?? (await loadRepairContext(o.store, o.taskId, o.signal ? { signal: o.signal } : {}));
  for (const n of ctx.notes) log(`note: ${n}`);
  const contextMs = Date.now() - t0;
  const maxReplyTokens = replyTokens(o.settings.maxTokens);
  o.onProgress?.({ phase: 'prompt' });
  const p0 = Date.now();
  const prompt: BuiltPrompt = buildPrompt({
    task: ctx.task,
    target: o.target,
    request: ctx.texts.request,
    testPatch: ctx.texts.testPatch,
    ...(ctx.texts.goldPatch !== undefined ? { goldPatch: ctx.texts.goldPatch } : {}),
    attemptPatches: ctx.attemptPatches,
    testFiles: ctx.texts.testFiles,
    assessment: ctx.assessment,
    ...(ctx.verifier ? { verifier: ctx.verifier } : {}),
    runLogs: ctx.runLogs,
    trajectories: ctx.trajectories,
    ...(o.note ? { note: o.note } : {}),
    budgetTokens: o.settings.maxTokens - maxReplyTokens,
  });
  const promptMs = Date.now() - p0;
  const omitted = prompt.sections.filter((s) => s.included !== 'full' && s.items > 0);
  log(`prompt: ~${prompt.estimatedTokens} tokens of ${prompt.budgetTokens}; steered by ${prompt.focus.steering.join(', ')}${omitted.length ? `; left out: ${omitted.map((s) => s.title).join(', ')}` : ''}`);

  const client = o.client ?? new LlmClient({ settings: o.settings, ...(o.apiKey ? { apiKey: o.apiKey } : {}), redactor, ...(o.keyHint ? { keyHint: o.keyHint } : {}) });
  const id = newSuggestionId();
  const rounds: RoundRecord[] = [];
  const tries: TryRecord[] = [];
  let usage: Usage | undefined;
  let last: ChatResult | undefined;
  let durationMs = 0;
  const messages: ChatMessage[] = prompt.messages.map((m) => ({ ...m }));
  const testFiles = new Map(ctx.texts.testFiles);
  // The task's own test files, before the reply's paths are read in beside them.
  const testPatchPaths = splitPatch(ctx.texts.testPatch).map((p) => p.path);

  // Whatever the model wrote is shown, printed and stored: the key (whole or partly masked) never is. Prose is fully
  // redacted; the proposed texts keep every byte but the known key's.
  const safe = (s: CheckedSuggestion): CheckedSuggestion => ({
    ...s,
    summary: redactor.redact(s.summary),
    rationale: redactor.redact(s.rationale),
    evidence: s.evidence.map((e) => ({ ...e, why: redactor.redact(e.why) })),
    changes: redactor.maskValue(s.changes),
  });

  const store = (status: SuggestionRecord['status'], extra: Partial<SuggestionRecord>, checked?: CheckedSuggestion): SuggestionRecord => {
    o.onProgress?.({ phase: 'storing' });
    const model = last?.model ?? o.settings.model;
    const cost = costOf(model, usage);
    const files = checked ? proposedFiles(checked.changes, { ...ctx.texts, testFiles }).map((f) => ({ ...f, diff: unifiedDiff(f.path, f.path, f.current, f.proposed) })) : [];
    const promptDoc = promptDocument({ messages: rounds.flatMap((r, i) => (i === 0 ? r.messages : r.messages.slice(-2))), sections: prompt.sections });
    return saveSuggestion(o.store.root, {
      record: redactor.maskValue({
        format: 1,
        id,
        task: ctx.task.id,
        revision: ctx.task.revision,
        createdAt: new Date(t0).toISOString(),
        curator: o.curator,
        status,
        requestedTarget: o.target,
        ...(o.note ? { note: o.note } : {}),
        ...extra,
        llm: {
          baseUrl: client.settings.baseUrl,
          model: o.settings.model,
          ...(last ? { answeredBy: last.model, responseFormat: last.responseFormat } : {}),
          temperature: o.settings.temperature,
          maxTokens: o.settings.maxTokens,
          maxReplyTokens,
          timeoutSec: o.settings.timeoutSec,
          tries,
          ...(usage ? { usage } : {}),
          ...(cost.usd !== undefined ? { costUsd: cost.usd } : {}),
          costSource: cost.source,
          durationMs,
          ...(last?.firstTokenMs !== undefined ? { firstTokenMs: last.firstTokenMs } : {}),
        },
        prompt: { file: 'prompt.md', estimatedTokens: prompt.estimatedTokens, budgetTokens: prompt.budgetTokens, sections: prompt.sections, focus: prompt.focus },
        rounds,
        taskFingerprint: { taskJson: sha256(ctx.texts.taskJsonText), request: sha256(ctx.texts.request), testPatch: sha256(ctx.texts.testPatch) },
        timings: { contextMs, promptMs, totalMs: Date.now() - t0 },
      } as const),
      files,
      promptDoc,
      mask: (t) => redactor.maskSecrets(t),
    });
  };

  const finish = async (record: SuggestionRecord, checked?: CheckedSuggestion): Promise<RequestOutcome> => {
    const out: RequestOutcome = { record, ...(checked ? { suggestion: checked } : {}) };
    try {
      const r = await o.store.log.append([
        {
          kind: 'repair.request',
          task: ctx.task.id,
          revision: ctx.task.revision,
          curator: o.curator,
          payload: {
            suggestion: record.id,
            target: o.target,
            model: o.settings.model,
            outcome: record.status === 'ready' ? 'suggested' : record.status,
            ...(record.error ? { message: record.error.message.slice(0, 5000) } : record.refusal ? { message: record.refusal.slice(0, 5000) } : {}),
            ...(usage ? { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens } : {}),
            ...(record.llm.costUsd !== undefined ? { costUsd: record.llm.costUsd } : {}),
          },
        },
      ]);
      if (r[0]) out.eventId = r[0].id;
      o.store.refresh();
    } catch (e) {
      out.logError = redactor.redact(errorText(e));
      log(`the review log did not take the request: ${out.logError}`);
    }
    return out;
  };

  const fail = async (code: NonNullable<SuggestionRecord['error']>['code'], message: string) => {
    const msg = redactor.redact(message);
    log(`no suggestion: ${msg}`);
    return finish(store('failed', { error: { code, message: msg } }));
  };

  for (let round = 1; round <= 2; round++) {
    const r: RoundRecord = { messages: messages.map((m) => ({ ...m })) };
    rounds.push(r);
    o.onProgress?.({ phase: round === 1 ? 'sending' : 'retrying', tokens: 0 });
    try {
      const res = await client.chat(
        { messages, schema: { name: SUGGESTION_SCHEMA_NAME, schema: SUGGESTION_SCHEMA }, maxReplyTokens },
        {
          ...(o.signal ? { signal: o.signal } : {}),
          onLog: log,
          onProgress: (p) => o.onProgress?.({ phase: p.phase === 'waiting' ? 'waiting' : p.phase === 'sending' ? (round === 1 ? 'sending' : 'retrying') : 'streaming', tokens: p.tokens, ...(p.message ? { message: p.message } : {}) }),
        },
      );
      last = res;
      durationMs += res.durationMs;
    } catch (e) {
      if (e instanceof LlmError) {
        if (e.code === 'cancelled') throw e;
        return fail(e.code, e.message);
      }
      throw e;
    }
    tries.push(...last.tries.map((t) => ({ ...t, n: tries.length + t.n })));
    usage = addUsage(usage, last.usage);
    r.messages = last.sent;
    r.reply = redactor.maskSecrets(last.text);
    r.finishReason = last.finishReason;
    o.onProgress?.({ phase: 'checking' });
    if (last.finishReason === 'length') {
      return fail('length', `The reply hit the limit of ${maxReplyTokens} reply tokens before it was complete; raise the token budget (specweave.repair.maxTokens, or --max-tokens for the CLI) and ask again.`);
    }
    if (last.finishReason === 'content_filter') return fail('refusal', 'The endpoint filtered the reply (content filter); nothing usable came back.');
    const parsed = parseReply(last.text);
    let errors: string[];
    if (!parsed.ok) errors = parsed.errors;
    else {
      for (const p of pathsNamed(parsed.reply)) {
        if (testFiles.has(p)) continue;
        try {
          testFiles.set(p, await baseFile(o.store.root, ctx.task, p));
        } catch (e) {
          return fail('io', (e as Error).message);
        }
      }
      const checked = checkReply(parsed.reply, { task: ctx.task, requested: o.target, request: ctx.texts.request, testFiles, testPatchPaths });
      if (checked.ok === 'refused') {
        log(`the model declined: ${checked.reason}`);
        return finish(store('refused', { refusal: redactor.redact(checked.reason) }));
      }
      if (checked.ok) {
        const s = safe(checked.suggestion);
        const record = store('ready', { target: s.target, summary: s.summary, rationale: s.rationale, evidence: s.evidence }, s);
        log(`suggestion ${record.id}: ${s.summary} (${record.files.map((f) => f.path).join(', ')})`);
        return finish(record, s);
      }
      errors = checked.errors;
    }
    r.errors = errors;
    if (round === 2) {
      const what = parsed.ok ? 'did not make a usable change' : parsed.kind === 'not_json' ? 'was not JSON' : 'did not match the suggestion schema';
      return fail('invalid_reply', `The model's reply ${what} twice (the second time after being told why): ${errors.slice(0, 5).join('; ')}${errors.length > 5 ? `; and ${errors.length - 5} more` : ''}`);
    }
    log(`reply ${parsed.ok ? 'not usable' : parsed.kind === 'not_json' ? 'not JSON' : 'not matching the schema'} (${errors.length} problem(s)); asking once more with the problems listed`);
    messages.push({ role: 'assistant', content: last.text }, { role: 'user', content: retryMessage(errors) });
  }
  throw new Error('unreachable');
}
