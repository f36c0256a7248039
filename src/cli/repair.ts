// `specweave repair`: ask the repair agent for a suggestion on a task and print it (rationale, evidence, diffs);
// `repair accept|reject` decides on a stored suggestion (accept writes a new task revision and, with --revalidate,
// runs gold, empty and every attempt on it in containers and prints the before/after matrix); `repair show` prints
// a stored suggestion or the prompt that was sent. With --fresh-trials N, the revalidation also runs N fresh solver
// trials per model on the new revision (each a new attempt, verified). See docs/repair.md.
import * as path from 'node:path';
import { EngineUnavailableError } from '../adapters/docker/engine';
import { VerifierService, machineConcurrency } from '../adapters/docker/verifyService';
import { ReviewLogError } from '../adapters/fs/reviewLog';
import type { AcceptResult, RevalidateResult } from '../app/repairFlow';
import type { RevalidationTrials } from '../app/repairFlow';
import { RepairFlowError, acceptSuggestion, freshEntry, rejectSuggestion, revalidate, serviceRunner } from '../app/repairFlow';
import { queueVerifier } from '../app/freshTrials';
import { llmTrialModel } from '../app/solverTrial';
import { LlmClient } from '../adapters/llm/client';
import { loadDataset } from '../adapters/fs/datasetLoader';
import { RepairContextError } from '../app/repairContext';
import type { SuggestionRecord } from '../adapters/fs/repairStore';
import { NotADatasetError } from '../adapters/fs/datasetLoader';
import type { FreshTrialEntry } from '../core/repair/fresh';
import { RepairStoreError, listSuggestions, loadRevalidation, loadSuggestion, readSuggestionFile, suggestionFolder } from '../adapters/fs/repairStore';
import type { LlmSettings } from '../adapters/llm/client';
import { DEFAULT_BASE_URL, DEFAULT_MAX_REPLY_BYTES, DEFAULT_SETTINGS } from '../adapters/llm/client';
import { CLI_KEY_HINT, LlmError } from '../adapters/llm/errors';
import { Redactor } from '../adapters/llm/redact';
import type { RepairProgress, RequestOutcome } from '../app/repairAgent';
import { requestSuggestion } from '../app/repairAgent';
import { formatMatrix } from '../core/repair/matrix';
import type { RequestedTarget } from '../core/repair/suggestion';
import { REPAIR_TARGETS } from '../core/repair/suggestion';
import { formatEvidence } from '../core/review/evidence';
import * as fs from 'node:fs';
import type { ParsedArgs } from './args';
import { UsageError } from './args';
import type { CliCommand } from './command';
import { defineCommand } from './command';
import { curatorFlag, curatorOf, openStore } from './curationCommon';
import { err, errStatusLine, one, out, printJson } from './output';

const redactor = new Redactor();
/** One line on stderr: the key masked, made inert, on one line. */
const say = (line: string) => err(`${one(redactor.redact(line))}\n`);

function number(flag: string, v: string | undefined, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || n > max) throw new UsageError(`--${flag} must be a number from ${min} to ${max}, got "${v}"`);
  return n;
}

/** The endpoint settings from flags and the environment (OPENAI_BASE_URL, SPECWEAVE_MODEL). */
export function settingsFrom(a: ParsedArgs, env: NodeJS.ProcessEnv = process.env): LlmSettings {
  return {
    baseUrl: a.strings['base-url'] ?? env.OPENAI_BASE_URL ?? DEFAULT_BASE_URL,
    model: a.strings.model ?? env.SPECWEAVE_MODEL ?? DEFAULT_SETTINGS.model,
    temperature: number('temperature', a.strings.temperature, 0, 2) ?? DEFAULT_SETTINGS.temperature,
    maxTokens: number('max-tokens', a.strings['max-tokens'], 2048, 2_000_000) ?? DEFAULT_SETTINGS.maxTokens,
    timeoutSec: number('timeout', a.strings.timeout, 1, 3600) ?? DEFAULT_SETTINGS.timeoutSec,
    maxReplyBytes: number('max-reply-bytes', a.strings['max-reply-bytes'], 1024, 64 * 1024 * 1024) ?? DEFAULT_MAX_REPLY_BYTES,
  };
}

function suggestionJson(root: string, r: SuggestionRecord): Record<string, unknown> {
  const dir = suggestionFolder(root, r.task, r.id);
  return {
    id: r.id,
    task: r.task,
    revision: r.revision,
    status: r.status,
    requestedTarget: r.requestedTarget,
    ...(r.target ? { target: r.target } : {}),
    ...(r.summary !== undefined ? { summary: r.summary } : {}),
    ...(r.rationale !== undefined ? { rationale: r.rationale } : {}),
    ...(r.refusal !== undefined ? { refusal: r.refusal } : {}),
    ...(r.error ? { error: r.error } : {}),
    evidence: r.evidence ?? [],
    files: r.files.map((f) => ({ role: f.role, path: f.path, diff: f.diff, proposed: path.join(dir, f.proposed) })),
    llm: { baseUrl: r.llm.baseUrl, model: r.llm.model, answeredBy: r.llm.answeredBy, responseFormat: r.llm.responseFormat, usage: r.llm.usage, costUsd: r.llm.costUsd, costSource: r.llm.costSource, durationMs: r.llm.durationMs, tries: r.llm.tries.length },
    prompt: { file: path.join(dir, r.prompt.file), estimatedTokens: r.prompt.estimatedTokens, budgetTokens: r.prompt.budgetTokens, sections: r.prompt.sections },
    folder: dir,
  };
}

function printSuggestion(root: string, r: SuggestionRecord): void {
  const lines: string[] = [];
  const dir = suggestionFolder(root, r.task, r.id);
  const usage = r.llm.usage ? `${r.llm.usage.promptTokens} prompt + ${r.llm.usage.completionTokens} reply tokens` : 'tokens not reported';
  const cost = r.llm.costUsd !== undefined ? `, $${r.llm.costUsd.toFixed(4)} (${r.llm.costSource})` : '';
  lines.push(`suggestion ${one(r.id)} for ${one(r.task)} (revision ${r.revision}): ${one(r.status)}`);
  lines.push(`  ${one(r.llm.model)} at ${one(r.llm.baseUrl)}: ${usage}${cost}, ${(r.llm.durationMs / 1000).toFixed(1)} s, ${r.llm.tries.length} request(s)`);
  if (r.status === 'refused') lines.push('', `The model declined: ${one(r.refusal)}`);
  if (r.status === 'failed') lines.push('', `No suggestion: ${one(r.error?.message)}`);
  if (r.status === 'ready') {
    // The rationale and the diffs are blocks: their lines stay lines (out() escapes everything else in them).
    lines.push('', `${one(r.target)}: ${one(r.summary)}`, '', 'Rationale:', ...(r.rationale ?? '').split('\n').map((l) => `  ${l}`));
    if (r.evidence && r.evidence.length > 0) {
      lines.push('', 'Evidence:');
      for (const e of r.evidence) lines.push(`  ${one(formatEvidence(e))} — ${one(e.why)}`);
    }
    for (const f of r.files) lines.push('', `--- ${one(f.path)} (edit ${one(path.join(dir, f.proposed))} before accepting if needed)`, f.diff.trimEnd());
    lines.push('', `Accept: specweave repair accept ${one(root)} ${one(r.task)} ${one(r.id)} [--revalidate]`, `Reject: specweave repair reject ${one(root)} ${one(r.task)} ${one(r.id)} --reason TEXT`);
  }
  lines.push(`Prompt sent: ${one(path.join(dir, r.prompt.file))}`);
  out(`${lines.join('\n')}\n`);
}

/** What a request that gave no suggestion left behind, and where: the record is always stored. */
function storedLine(root: string, r: RequestOutcome): string {
  const what = r.record.status === 'refused' ? 'the refusal' : 'the failed request';
  const log = r.eventId ? `review-log event ${r.eventId}` : `not in the review log${r.logError ? `: ${r.logError}` : ''}`;
  return `stored: ${what} as suggestion ${one(r.record.id)} in ${one(suggestionFolder(root, r.record.task, r.record.id))} (${one(log)})`;
}

function progressPrinter(): (p: RepairProgress) => void {
  const tty = process.stderr.isTTY === true;
  let lastPhase = '';
  let lastTokens = -1;
  return (p) => {
    if (tty) {
      errStatusLine(`${p.phase}${p.tokens ? ` · ${p.tokens} tokens` : ''}${p.message ? ` · ${redactor.redact(p.message)}` : ''}`, p.phase === 'storing');
      return;
    }
    const step = p.tokens !== undefined ? Math.floor(p.tokens / 500) : -1;
    if (p.phase !== lastPhase || (p.phase === 'streaming' && step !== lastTokens)) {
      say(`${p.phase}${p.tokens ? ` (${p.tokens} tokens so far)` : ''}${p.message ? `: ${p.message}` : ''}`);
      lastPhase = p.phase;
      lastTokens = step;
    }
  };
}

function fail(json: boolean, code: string, message: string): number {
  if (json) printJson({ ok: false, error: { code, message: redactor.redact(message) } });
  say(`specweave repair: ${message}`);
  return 1;
}

export const endpointFlags = {
  model: { type: 'string', help: 'model name (default: $SPECWEAVE_MODEL, else gpt-4o-mini)' },
  'base-url': { type: 'string', help: 'OpenAI-compatible API base URL (default: $OPENAI_BASE_URL, else https://api.openai.com/v1)' },
  temperature: { type: 'string', help: 'sampling temperature (default 0.2)' },
  'max-tokens': { type: 'string', help: 'token budget of the request, prompt and reply (default 32000)' },
  timeout: { type: 'string', help: 'seconds to wait for the reply to start and between its parts (default 120)' },
  'max-reply-bytes': { type: 'string', help: 'most bytes of reply taken; past it reading stops and the request fails (default 524288)' },
} as const;

const requestCmd = defineCommand({
  name: 'repair',
  summary: 'ask the repair agent for a suggestion on a task; store and print it',
  usage:
    'specweave repair DATASET TASK [--target auto|request|specs|tests|spec_test_map] [--note T] [--model M] [--json]\n' +
    '       specweave repair accept DATASET TASK SUGGESTION [--reason T] [--revalidate [--fresh-trials N]] [--json]\n' +
    '       specweave repair reject DATASET TASK SUGGESTION --reason T [--json]\n' +
    '       specweave repair show DATASET TASK [SUGGESTION] [--prompt] [--json]\n' +
    'The API key comes from OPENAI_API_KEY; it is never printed or stored',
  flags: {
    target: { type: 'string', help: 'what to change: auto (default), request, specs, tests, spec_test_map' },
    note: { type: 'string', help: 'a note for the model (what you think is wrong)' },
    ...endpointFlags,
    json: { type: 'boolean', help: 'print the stored suggestion as JSON (see docs/repair.md)' },
    ...curatorFlag,
  },
  positional: { min: 2, max: 2 },
  async run(a) {
    const [root, taskId] = a.positional as [string, string];
    const json = a.booleans.json === true;
    const target = (a.strings.target ?? 'auto') as RequestedTarget;
    if (target !== 'auto' && !(REPAIR_TARGETS as readonly string[]).includes(target)) throw new UsageError(`--target must be auto or one of ${REPAIR_TARGETS.join(', ')}`);
    const settings = settingsFrom(a);
    const apiKey = process.env.OPENAI_API_KEY?.trim() || undefined;
    redactor.add(apiKey);
    const curator = curatorOf(a, root);
    const store = openStore(a);
    if (!store.task(taskId)) throw new UsageError(`no task "${taskId}" in ${root}`);
    const ac = new AbortController();
    const onSigint = () => {
      err('\n');
      say('cancelling...');
      ac.abort();
    };
    process.once('SIGINT', onSigint);
    try {
      const r = await requestSuggestion({
        store,
        taskId,
        target,
        curator,
        settings,
        ...(apiKey ? { apiKey } : {}),
        keyHint: CLI_KEY_HINT,
        ...(a.strings.note ? { note: a.strings.note } : {}),
        signal: ac.signal,
        onProgress: json ? undefined : progressPrinter(),
        onLog: (l) => say(l),
        redactor,
      });
      if (r.logError) say(`warning: ${r.logError}`);
      if (json) printJson({ ok: r.record.status === 'ready', suggestion: suggestionJson(store.root, r.record), ...(r.eventId ? { eventId: r.eventId } : {}) });
      else printSuggestion(root, r.record);
      if (r.record.status !== 'ready' && !json) say(`specweave repair: ${r.record.status === 'refused' ? `the model declined: ${r.record.refusal ?? ''}` : (r.record.error?.message ?? 'failed')}`);
      if (r.record.status !== 'ready') say(storedLine(store.root, r));
      return r.record.status === 'ready' ? 0 : 1;
    } catch (e) {
      if (e instanceof LlmError) return fail(json, e.code, e.message);
      if (e instanceof RepairContextError || e instanceof RepairStoreError || e instanceof ReviewLogError) return fail(json, 'io', e.message);
      throw e;
    } finally {
      process.removeListener('SIGINT', onSigint);
    }
  },
});

function printAccept(r: AcceptResult, taskId: string): void {
  out(
    `${one(taskId)}: revision ${r.from} -> ${r.to}${r.edited ? ' (with your edits)' : ''}; changed ${one(r.changed.join(', '))}` +
      `${r.changedSpecs.length ? `; specs changed: ${one(r.changedSpecs.join(', '))} (labels on them are now stale)` : ''}\n`,
  );
}

const acceptCmd = defineCommand({
  name: 'repair accept',
  summary: 'accept a stored suggestion: write a new revision of the task (and revalidate it)',
  usage:
    'specweave repair accept DATASET TASK SUGGESTION [--reason T] [--revalidate [--fresh-trials N [--model M[,M...]]]] [--concurrency N] [--host ADDRESS] [--json]\n' +
    'Fresh trials call the model: the API key comes from OPENAI_API_KEY; it is never printed or stored',
  flags: {
    reason: { type: 'string', help: 'a note recorded with the acceptance' },
    revalidate: { type: 'boolean', help: 'run gold, empty and every attempt on the new revision in containers and print the before/after matrix' },
    'fresh-trials': { type: 'string', help: 'with --revalidate: also run N fresh solver trials per model on the new revision (default 0)' },
    ...endpointFlags,
    concurrency: { type: 'string', help: 'runs at a time for --revalidate' },
    host: { type: 'string', help: 'container engine address for --revalidate' },
    json: { type: 'boolean', help: 'print the result as JSON' },
    ...curatorFlag,
  },
  positional: { min: 3, max: 3 },
  async run(a) {
    const [root, taskId, id] = a.positional as [string, string, string];
    const json = a.booleans.json === true;
    const freshN = number('fresh-trials', a.strings['fresh-trials'], 0, 100) ?? 0;
    if (!Number.isInteger(freshN)) throw new UsageError(`--fresh-trials must be a whole number, got "${one(a.strings['fresh-trials'])}"`);
    if (freshN > 0 && !a.booleans.revalidate) throw new UsageError('--fresh-trials needs --revalidate (the trials are part of the revalidation)');
    const endpointGiven = Object.keys(endpointFlags).filter((k) => a.strings[k] !== undefined);
    if (freshN === 0 && endpointGiven.length > 0) throw new UsageError(`--${endpointGiven[0] ?? 'model'} is for the fresh trials: give --fresh-trials N too`);
    const base = settingsFrom(a);
    const models = [...new Set(base.model.split(',').map((m) => m.trim()).filter((m) => m.length > 0))];
    if (freshN > 0 && models.length === 0) throw new UsageError('--model names no model');
    const apiKey = process.env.OPENAI_API_KEY?.trim() || undefined;
    redactor.add(apiKey);
    // The trials would all end ModelError: say so before the revision is written.
    if (freshN > 0 && !apiKey && base.baseUrl === DEFAULT_BASE_URL) throw new UsageError(`--fresh-trials calls the model at ${DEFAULT_BASE_URL}: ${CLI_KEY_HINT.where}; nothing was accepted`);
    const curator = curatorOf(a, root);
    const store = openStore(a, { quiet: json });
    let accepted: AcceptResult;
    try {
      accepted = await acceptSuggestion({ root: store.root, taskId, suggestionId: id, curator, ...(a.strings.reason ? { note: a.strings.reason } : {}), store });
    } catch (e) {
      if (e instanceof RepairFlowError) return fail(json, e.code, e.message);
      throw e;
    }
    if (!json) printAccept(accepted, taskId);
    let reval: RevalidateResult | undefined;
    if (a.booleans.revalidate) {
      const task = store.task(taskId);
      const concurrency = number('concurrency', a.strings.concurrency, 1, 64) ?? machineConcurrency(task?.environment.limits.memoryMb);
      const service = new VerifierService({ datasetRoot: store.root, engine: { host: a.strings.host }, concurrency, log: (l) => say(l) });
      try {
        await service.checkEngine();
      } catch (e) {
        if (e instanceof EngineUnavailableError) return fail(json, 'engine', `revision ${accepted.to} is written, but it cannot be revalidated: ${e.message}`);
        throw e;
      }
      if (!json) say(`revalidating ${taskId} revision ${accepted.to}: gold, empty and every attempt${freshN > 0 ? `, then ${freshN} fresh trial(s) of ${models.join(', ')}` : ''}...`);
      const reopened = openStore(a, { quiet: true });
      const ac = new AbortController();
      const onSigint = () => {
        err('\n');
        say('cancelling: the runs still queued are dropped, the trials under way end at their next step');
        ac.abort();
        service.queue.cancelAll();
      };
      process.once('SIGINT', onSigint);
      try {
        reval = await revalidate({
          root: store.root,
          taskId,
          runner: serviceRunner(service),
          curator,
          suggestionId: id,
          store: reopened,
          signal: ac.signal,
          ...(freshN > 0 ? { freshTrials: cliTrials(store.root, service, models, freshN, base, apiKey, concurrency) } : {}),
        });
      } finally {
        process.removeListener('SIGINT', onSigint);
      }
      for (const f of reval.record.fresh ?? []) if (f.error) f.error = redactor.redact(f.error);
      if (!json) {
        for (const r of reval.record.runs) out(`  ${one(r.attempt)}: ${one(r.status)}${r.error ? ` (${one(r.error)})` : ''}\n`);
        for (const f of reval.record.fresh ?? []) out(`  ${freshLine(f)}\n`);
        out(formatMatrix(reval.record.matrix));
        if (reval.revalidated) out(`${one(taskId)} is revalidated\n`);
      }
    }
    if (json) {
      const revalidation = reval ? { runs: reval.record.runs, ...(reval.record.fresh ? { fresh: reval.record.fresh } : {}), matrix: reval.record.matrix, revalidated: reval.revalidated } : undefined;
      printJson({ ok: true, accepted: { from: accepted.from, to: accepted.to, changedSpecs: accepted.changedSpecs, edited: accepted.edited, changed: accepted.changed }, ...(revalidation ? { revalidation } : {}) });
    }
    return 0;
  },
});

/** One fresh trial, as `solve` prints it. */
function freshLine(f: FreshTrialEntry): string {
  const what = f.attempt ? `attempt ${one(f.attempt)} ${one(f.exitStatus ?? '')}${f.steps !== undefined ? ` after ${f.steps} step(s)` : ''}` : 'no attempt';
  return `fresh trial of ${one(f.model)}: ${what}${f.verdict ? `; verifier: ${one(f.verdict)}` : ''}${f.error ? `; error: ${one(f.error)}` : ''}`;
}

/** The fresh trials of `accept --revalidate --fresh-trials N`: one LLM client per model, as `solve` makes them. */
function cliTrials(root: string, service: VerifierService, models: string[], trials: number, base: LlmSettings, apiKey: string | undefined, concurrency: number): RevalidationTrials {
  const clients = new Map(models.map((m) => [m, new LlmClient({ settings: { ...base, model: m }, ...(apiKey ? { apiKey } : {}), redactor, keyHint: CLI_KEY_HINT })]));
  return {
    models,
    trials,
    engine: service.engine,
    modelFor: (m) => llmTrialModel(clients.get(m) as LlmClient),
    concurrency,
    verify: queueVerifier(service),
    reloadTask: (tid) => loadDataset(root).tasks.find((t) => t.id === tid),
    onEvent: (e) => {
      if (e.kind === 'start') say(`[${e.index + 1}/${e.total}] a fresh trial of ${e.job.model} on ${e.job.task.id} starts`);
      else if (e.kind === 'done') say(`[${e.finished}/${e.total}] ${freshLine(freshEntry(e.result))}`);
    },
  };
}

const rejectCmd = defineCommand({
  name: 'repair reject',
  summary: 'reject a stored suggestion, with a reason',
  usage: 'specweave repair reject DATASET TASK SUGGESTION --reason T [--json]',
  flags: { reason: { type: 'string', help: 'why the suggestion is rejected' }, json: { type: 'boolean', help: 'print the event as JSON' }, ...curatorFlag },
  positional: { min: 3, max: 3 },
  async run(a) {
    const [root, taskId, id] = a.positional as [string, string, string];
    const json = a.booleans.json === true;
    const reason = a.strings.reason;
    if (reason === undefined || reason.trim() === '') throw new UsageError('--reason is required');
    const curator = curatorOf(a, root);
    const store = openStore(a, { quiet: json });
    try {
      const e = await rejectSuggestion({ root: store.root, taskId, suggestionId: id, curator, reason, store });
      if (json) printJson({ ok: true, event: e });
      else out(`${one(e.id)} ${one(taskId)}: suggestion ${one(id)} rejected by ${one(curator)}\n`);
      return 0;
    } catch (e) {
      if (e instanceof RepairFlowError) return fail(json, e.code, e.message);
      if (e instanceof ReviewLogError) return fail(json, e.code, e.message);
      throw e;
    }
  },
});

const showCmd = defineCommand({
  name: 'repair show',
  summary: "print a task's stored suggestions, one of them, or the prompt it sent",
  usage: 'specweave repair show DATASET TASK [SUGGESTION] [--prompt] [--json]',
  flags: { prompt: { type: 'boolean', help: 'print the exact prompt that was sent' }, json: { type: 'boolean', help: 'print JSON' } },
  positional: { min: 2, max: 3 },
  async run(a) {
    const [root, taskId, id] = a.positional as [string, string, string | undefined];
    const json = a.booleans.json === true;
    if (!fs.existsSync(path.join(root, 'specweave.json'))) throw new NotADatasetError(root);
    if (id === undefined) {
      const all = listSuggestions(root, taskId);
      if (json) printJson({ ok: true, suggestions: all.map((r) => suggestionJson(root, r)) });
      else for (const r of all) out(`${one(r.id)}  ${one(r.status).padEnd(7)}  ${one(r.target ?? r.requestedTarget)}  ${one(r.summary ?? r.refusal ?? r.error?.message)}\n`);
      return 0;
    }
    let r: SuggestionRecord;
    try {
      r = loadSuggestion(root, taskId, id);
    } catch (e) {
      return fail(json, 'unknown_suggestion', (e as Error).message);
    }
    if (a.booleans.prompt) {
      out(readSuggestionFile(root, taskId, id, r.prompt.file));
      return 0;
    }
    let reval;
    try {
      reval = loadRevalidation(root, taskId, id);
    } catch (e) {
      if (e instanceof RepairStoreError) return fail(json, 'io', e.message);
      throw e;
    }
    if (json) printJson({ ok: true, suggestion: suggestionJson(root, r), ...(reval ? { revalidation: reval } : {}) });
    else {
      printSuggestion(root, r);
      if (reval) out(formatMatrix(reval.matrix));
    }
    return 0;
  },
});

const SUBCOMMANDS: Record<string, CliCommand> = { accept: acceptCmd, reject: rejectCmd, show: showCmd };

export const repairCommand: CliCommand = {
  name: 'repair',
  summary: requestCmd.summary,
  run(args) {
    const sub = args[0] !== undefined ? SUBCOMMANDS[args[0]] : undefined;
    return sub ? sub.run(args.slice(1)) : requestCmd.run(args);
  },
};
