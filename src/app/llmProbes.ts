// The LLM-written probes of a task (docs/probes.md, LLM-written probes): ask the model (the repair agent's client,
// settings, cost cap and key handling) for alternative solutions or plausible-wrong variants of the gold patch, check
// the reply, run each patch that passes in the verifier's hardened container exactly as the gold probe runs
// (`VerifyRequest.probe`), and store the report under DATASET/probes/<task>/{alternatives,variants}.json. A journal
// entry with the reply is written after the paid call, before any run, so nothing paid for is lost to a crash.
import type { VerifierService, VerifyRequest } from '../adapters/docker/verifyService';
import { EngineUnavailableError } from '../adapters/docker/engine';
import { repoPath } from '../adapters/fs/datasetLoader';
import { readTextIfExists, writeFileAtomicIn, writeFileAtomicInAsync } from '../adapters/fs/datasetPaths';
import { gitShow } from '../adapters/fs/git';
import type { ChatResult, LlmSettings } from '../adapters/llm/client';
import { LlmClient } from '../adapters/llm/client';
import type { KeyHint, LlmErrorCode } from '../adapters/llm/errors';
import { LlmError } from '../adapters/llm/errors';
import { costOf } from '../adapters/llm/pricing';
import { Redactor } from '../adapters/llm/redact';
import { errorText } from '../core/errorText';
import type { CandidateTask } from '../core/model';
import { GOLD_PROBE } from '../core/model';
import { parsePatch } from '../core/patch';
import { SCHEMA_RESERVE_TOKENS } from '../core/repair/prompt';
import type { AlternativesReport, CheckedPatch, LlmCallRecord, LlmPatchRun, LlmProbeKind, PatchPrompt, RejectedPatch, VariantsReport } from '../core/probes/llmPatches';
import { alternativesReport, buildPatchPrompt, checkPatchReply, PATCH_PROMPT_VERSION, PATCH_SCHEMA, PATCH_SCHEMA_NAME, variantSpecs, variantsReport } from '../core/probes/llmPatches';
import { ProbeError, mutantsReportPath } from './probes';
import { replyTokens } from './repairAgent';

/** Dataset-relative path of a task's alternatives or variants report. */
export function llmProbeReportPath(taskId: string, kind: LlmProbeKind): string {
  return mutantsReportPath(taskId).replace(/mutants\.json$/, `${kind}.json`);
}

/** The journal of a paid probe call: `probes/<task>/<kind>.call.json` (model, usage, cost, the reply). */
export function llmProbeJournalPath(taskId: string, kind: LlmProbeKind): string {
  return mutantsReportPath(taskId).replace(/mutants\.json$/, `${kind}.call.json`);
}

/** Most bytes of a run's stdout kept for the failure evidence. */
const MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * Keeps the stdout of probe runs (by probe id), for the log lines of a failure. Hook `onOutput` into the
 * VerifierService the probes run on (its `onOutput` option); without it a rejection has no log lines.
 */
export class ProbeOutputs {
  private readonly chunks = new Map<string, { parts: Buffer[]; bytes: number }>();
  /** Only the runs asked for are kept (a gold mutant's output is not). */
  watch(id: string): void {
    if (!this.chunks.has(id)) this.chunks.set(id, { parts: [], bytes: 0 });
  }
  readonly onOutput = (req: VerifyRequest, stream: 'stdout' | 'stderr', chunk: Buffer): void => {
    if (!req.probe || stream !== 'stdout') return;
    const e = this.chunks.get(req.probe.id);
    if (!e) return;
    if (e.bytes >= MAX_OUTPUT_BYTES) return;
    const part = chunk.subarray(0, MAX_OUTPUT_BYTES - e.bytes);
    e.parts.push(Buffer.from(part));
    e.bytes += part.length;
  };
  /** The stdout of the probe run `id` (and forgets it). */
  take(id: string): string | undefined {
    const e = this.chunks.get(id);
    this.chunks.delete(id);
    return e ? Buffer.concat(e.parts).toString('utf8') : undefined;
  }
}

/** The spend of a probe session across tasks, against an optional cap (USD). */
export class ProbeBudget {
  spentUsd = 0;
  private reserved = 0;
  constructor(readonly capUsd?: number) {}
  /** Reserves a call's worst case; a message when the cap (or an unknown price) forbids the call. */
  reserve(model: string, worstUsd: number | undefined): { ok: true; release: (spent: number) => void } | { ok: false; message: string } {
    if (this.capUsd !== undefined) {
      if (worstUsd === undefined) return { ok: false, message: `the price of model "${model}" is not known, so the cost cap cannot be kept; no call was made (drop --budget-usd, or use a model of the price table in docs/drafter.md)` };
      if (this.spentUsd + this.reserved + worstUsd > this.capUsd) {
        return { ok: false, message: `the cost cap of $${this.capUsd.toFixed(4)} stops the probe: $${round(this.spentUsd).toFixed(4)} spent${this.reserved > 0 ? `, $${round(this.reserved).toFixed(4)} under way` : ''}, and the next call could cost up to $${worstUsd.toFixed(4)}` };
      }
    }
    const w = worstUsd ?? 0;
    this.reserved += w;
    return {
      ok: true,
      release: (spent: number) => {
        this.reserved -= w;
        this.spentUsd = round(this.spentUsd + spent);
      },
    };
  }
}

export interface LlmProbeOptions {
  service: VerifierService;
  datasetRoot: string;
  settings: LlmSettings;
  apiKey?: string;
  keyHint?: KeyHint;
  /** A client to use instead of one made from the settings (tests, a shared client). */
  client?: LlmClient;
  redactor?: Redactor;
  budget?: ProbeBudget;
  /** Hooked into the service's onOutput: the log lines of failures come from it. */
  outputs?: ProbeOutputs;
  timeoutSec?: number;
  signal?: AbortSignal;
  /** Redacted log lines. */
  onLog?: (line: string) => void;
  /** Each patch's run as it settles. */
  onResult?: (task: CandidateTask, kind: LlmProbeKind, r: LlmPatchRun) => void;
  persist?: boolean;
  now?: () => Date;
}

export type LlmProbeResult =
  | { kind: LlmProbeKind; task: string; status: 'done'; report: AlternativesReport | VariantsReport; file?: string; cancelled: number; costUsd?: number }
  | { kind: LlmProbeKind; task: string; status: 'failed'; code: LlmErrorCode | 'invalid_reply' | 'refusal' | 'no_specs'; message: string; reasons: string[]; rejections: RejectedPatch[]; costUsd?: number }
  | { kind: LlmProbeKind; task: string; status: 'skipped'; reason: 'budget'; message: string };

interface Prepared {
  gold: string;
  testPatch: string;
  request: string;
  prompt: PatchPrompt;
  maxReplyTokens: number;
  specs: string[];
}

async function prepare(root: string, task: CandidateTask, kind: LlmProbeKind, n: number, settings: LlmSettings): Promise<Prepared> {
  if (!task.files.goldPatch) throw new ProbeError(`task ${task.id} has no gold patch: there is nothing to rewrite`);
  const read = (rel: string, what: string, optional = false): string => {
    try {
      const t = readTextIfExists(root, rel);
      if (t === undefined && !optional) throw new Error('no such file');
      return t ?? '';
    } catch (e) {
      throw new ProbeError(`task ${task.id}: cannot read its ${what} ${rel}: ${errorText(e)}`);
    }
  };
  const gold = read(task.files.goldPatch, 'gold patch');
  const testPatch = read(task.files.testPatch, 'test patch', true);
  const request = read(task.files.request, 'request', true);
  const baseFiles: Array<{ path: string; text: string }> = [];
  if (task.repo.kind === 'git') {
    const repo = repoPath(root, task.repo);
    for (const f of parsePatch(gold, task.files.goldPatch).files) {
      if (f.status === 'added' || !f.oldPath) continue;
      const r = await gitShow(repo, task.repo.baseCommit, f.oldPath);
      if (r.ok) baseFiles.push({ path: f.oldPath, text: r.text });
      else if (r.kind !== 'no-path') throw new ProbeError(`task ${task.id}: cannot read ${f.oldPath} at the base commit: ${r.message}`);
    }
  }
  const specs = kind === 'variants' ? variantSpecs(task, n) : [];
  if (kind === 'variants' && specs.length === 0) throw new ProbeError(`task ${task.id} has no specs: a variant is written to violate one named spec`);
  const maxReplyTokens = replyTokens(settings.maxTokens);
  const prompt = buildPatchPrompt({ kind, task, request, goldPatch: gold, baseFiles, count: n, specs, budgetTokens: settings.maxTokens - maxReplyTokens - SCHEMA_RESERVE_TOKENS });
  return { gold, testPatch, request, prompt, maxReplyTokens, specs };
}

/**
 * One LLM probe of one task: `alternatives` (N rewrites keeping every spec) or `variants` (one rewrite violating
 * each of the first N specs). Resolves with what happened; rejects with ProbeError (the task cannot be probed),
 * EngineUnavailableError (no engine), or LlmError `cancelled`.
 */
export async function probeWithLlm(task: CandidateTask, kind: LlmProbeKind, n: number, o: LlmProbeOptions): Promise<LlmProbeResult> {
  const redactor = o.redactor ?? new Redactor();
  redactor.add(o.apiKey);
  const log = (l: string) => o.onLog?.(redactor.redact(l));
  const p = await prepare(o.datasetRoot, task, kind, n, o.settings);
  const worst = costOf(o.settings.model, { promptTokens: p.prompt.estimatedTokens + SCHEMA_RESERVE_TOKENS, completionTokens: p.maxReplyTokens }).usd;
  const budget = o.budget ?? new ProbeBudget();
  const slot = budget.reserve(o.settings.model, worst);
  if (!slot.ok) {
    log(`${task.id}: ${kind}: ${slot.message}`);
    return { kind, task: task.id, status: 'skipped', reason: 'budget', message: slot.message };
  }
  const client = o.client ?? new LlmClient({ settings: o.settings, ...(o.apiKey ? { apiKey: o.apiKey } : {}), redactor, ...(o.keyHint ? { keyHint: o.keyHint } : {}) });
  log(`${task.id}: ${kind}: prompt ~${p.prompt.estimatedTokens} tokens of ${p.prompt.budgetTokens}${p.prompt.cut.length ? `; cut: ${p.prompt.cut.join(', ')}` : ''}`);
  let res: ChatResult;
  let spent = 0;
  try {
    res = await client.chat(
      { messages: p.prompt.messages.map((m) => ({ ...m })), schema: { name: PATCH_SCHEMA_NAME, schema: PATCH_SCHEMA }, maxReplyTokens: p.maxReplyTokens },
      { ...(o.signal ? { signal: o.signal } : {}), onLog: log },
    );
    const cost = costOf(res.model, res.usage);
    spent = cost.usd ?? worst ?? 0;
  } catch (e) {
    slot.release(0);
    if (e instanceof LlmError && e.code !== 'cancelled') {
      const message = redactor.redact(e.message);
      log(`${task.id}: ${kind}: no patches: ${message}`);
      return { kind, task: task.id, status: 'failed', code: e.code, message, reasons: [], rejections: [] };
    }
    throw e;
  }
  slot.release(spent);
  const cost = costOf(res.model, res.usage);
  const llm: LlmCallRecord = {
    model: o.settings.model,
    answeredBy: res.model,
    promptVersion: PATCH_PROMPT_VERSION,
    promptHash: p.prompt.hash,
    ...(res.usage ? { promptTokens: res.usage.promptTokens, completionTokens: res.usage.completionTokens } : {}),
    ...(spent ? { costUsd: spent } : {}),
    costSource: cost.source === 'unknown' && spent ? 'worst-case' : cost.source,
    tries: res.tries.length,
  };
  const reply = redactor.maskSecrets(res.text);
  if (o.persist !== false) {
    try {
      writeFileAtomicIn(o.datasetRoot, llmProbeJournalPath(task.id, kind), `${JSON.stringify({ format: 1, kind, task: task.id, revision: task.revision, at: (o.now ?? (() => new Date()))().toISOString(), llm, finishReason: res.finishReason, reply }, null, 2)}\n`);
    } catch (e) {
      log(`${task.id}: ${kind}: the probe journal could not be written (${errorText(e)})`);
    }
  }
  const costUsd = spent || undefined;
  const failed = (code: Extract<LlmProbeResult, { status: 'failed' }>['code'], message: string, reasons: string[] = [], rejections: RejectedPatch[] = []): LlmProbeResult => {
    const msg = redactor.redact(message);
    log(`${task.id}: ${kind}: no patches: ${msg}`);
    return { kind, task: task.id, status: 'failed', code, message: msg, reasons: reasons.map((r) => redactor.redact(r)), rejections: rejections.map((r) => ({ ...r, reason: redactor.redact(r.reason) })), ...(costUsd !== undefined ? { costUsd } : {}) };
  };
  if (res.finishReason === 'length') return failed('length', `the reply hit the limit of ${p.maxReplyTokens} reply tokens before it was complete; raise the token budget (--max-tokens) and probe again; nothing was run`);
  if (res.finishReason === 'content_filter') return failed('refusal', 'the endpoint filtered the reply (content filter); nothing was run');
  const checked = checkPatchReply(res.text, { kind, goldPatch: p.gold, testPatch: p.testPatch, count: n, specs: p.specs });
  if (!checked.ok) {
    const what = { not_json: 'was not JSON', schema: 'did not match the schema', refused: 'was a refusal', empty: 'had no patch', none_survived: 'had no patch that passed the checks' }[checked.kind];
    const k = checked.reasons.length;
    return failed(checked.kind === 'refused' ? 'refusal' : 'invalid_reply', `the model's reply ${what}; nothing was run: ${checked.reasons.slice(0, 5).join('; ')}${k > 5 ? `; and ${k - 5} more` : ''}`, checked.reasons, checked.rejections);
  }
  for (const r of checked.rejections) log(`${task.id}: ${kind}: rejected ${r.reason}`);
  const patches: CheckedPatch[] = checked.patches.map((x) => ({ ...x, summary: redactor.maskSecrets(x.summary), patch: redactor.maskSecrets(x.patch) }));
  const invalid = checked.rejections.map((r) => ({ ...r, reason: redactor.maskSecrets(r.reason) }));

  // The gold patch runs beside its rewrites, as a probe too: a verdict on a rewrite only means something when it passes.
  const req = (id: string, patch: string): VerifyRequest => ({ task, attemptId: GOLD_PROBE, probe: { id, patch: Buffer.from(patch, 'utf8') }, force: true, ...(o.timeoutSec ? { timeoutSec: o.timeoutSec } : {}) });
  const goldProbeId = `${kind}-gold`;
  const goldId = o.service.enqueue(req(goldProbeId, p.gold));
  const queued = patches.map((x) => {
    o.outputs?.watch(x.id);
    return { x, id: o.service.enqueue(req(x.id, x.patch)) };
  });
  let cancelled = 0;
  let engineError: EngineUnavailableError | undefined;
  const runs = (
    await Promise.all(
      queued.map(async ({ x, id }): Promise<LlmPatchRun | undefined> => {
        const out = await o.service.queue.result(id);
        const stdout = o.outputs?.take(x.id);
        let r: LlmPatchRun | undefined;
        if (out.state === 'done') r = { patch: x, run: out.value, ...(stdout !== undefined ? { stdout } : {}) };
        else if (out.state === 'failed') {
          if (out.error instanceof EngineUnavailableError) engineError = out.error;
          r = { patch: x, error: errorText(out.error) };
        } else cancelled++;
        if (r) o.onResult?.(task, kind, r);
        return r;
      }),
    )
  ).filter((r): r is LlmPatchRun => r !== undefined);
  const g = await o.service.queue.result(goldId);
  if (engineError) throw engineError;
  if (g.state === 'failed' && g.error instanceof EngineUnavailableError) throw g.error;
  if (g.state === 'cancelled') cancelled++;
  const gold =
    g.state === 'done' ? { status: g.value.status, reason: g.value.reason } : { status: g.state === 'failed' ? 'error' : 'cancelled', reason: g.state === 'failed' ? errorText(g.error) : 'cancelled' };
  const now = (o.now ?? (() => new Date()))();
  const base = { task, gold, llm, invalid, runs, now };
  const report = kind === 'alternatives' ? alternativesReport({ ...base, requested: n }) : variantsReport({ ...base, requested: p.specs });
  const done = { kind, task: task.id, status: 'done' as const, report, cancelled, ...(costUsd !== undefined ? { costUsd } : {}) };
  if (cancelled > 0 || o.persist === false) return done;
  const file = llmProbeReportPath(task.id, kind);
  await writeFileAtomicInAsync(o.datasetRoot, file, `${JSON.stringify(report, null, 2)}\n`);
  return { ...done, file };
}


const round = (usd: number) => Math.round(usd * 1e6) / 1e6;
