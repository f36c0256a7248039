// `specweave specs draft DATASET [TASK ...]`: the spec drafter (docs/drafter.md) on some or all tasks: progress with
// the spend so far on stderr, one result per task on stdout (or --json), every draft stored as a suggestion to review
// (`specweave repair show`) and accept (`specweave repair accept`).
import { ReviewLogError } from '../adapters/fs/reviewLog';
import { RepairStoreError, suggestionFolder } from '../adapters/fs/repairStore';
import { CLI_KEY_HINT, LlmError } from '../adapters/llm/errors';
import { Redactor } from '../adapters/llm/redact';
import type { BatchProgress, DraftOutcome } from '../app/specDrafter';
import { DrafterError, draftSpecs } from '../app/specDrafter';
import { UsageError } from './args';
import type { CliCommand } from './command';
import { defineCommand } from './command';
import { curatorFlag, curatorOf, openStore } from './curationCommon';
import { err, one, out, printJson } from './output';
import { endpointFlags, settingsFrom } from './repair';

const redactor = new Redactor();
const say = (line: string) => err(`${one(redactor.redact(line))}\n`);
const usd = (n: number | undefined) => (n === undefined ? 'cost unknown' : `$${n.toFixed(4)}`);

function outcomeLine(root: string, o: DraftOutcome): string {
  if (o.status === 'drafted') return `${one(o.task)}: drafted ${o.specs} spec(s)${o.rejections.length ? `, ${o.rejections.length} rejected` : ''} (${usd(o.costUsd)}): suggestion ${one(o.record.id)} in ${one(suggestionFolder(root, o.task, o.record.id))}`;
  if (o.status === 'failed') return `${one(o.task)}: failed: ${one(o.message)}`;
  return `${one(o.task)}: skipped: ${one(o.message)}`;
}

function outcomeJson(root: string, o: DraftOutcome): Record<string, unknown> {
  if (o.status === 'drafted') return { task: o.task, status: o.status, suggestion: o.record.id, folder: suggestionFolder(root, o.task, o.record.id), specs: o.specs, rejections: o.rejections, ...(o.costUsd !== undefined ? { costUsd: o.costUsd } : {}), ...(o.eventId ? { eventId: o.eventId } : {}) };
  if (o.status === 'failed') return { task: o.task, status: o.status, code: o.code, message: o.message, reasons: o.reasons, rejections: o.rejections, ...(o.costUsd !== undefined ? { costUsd: o.costUsd } : {}) };
  return { task: o.task, status: o.status, reason: o.reason, message: o.message };
}

function number(flag: string, v: string | undefined, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || n > max) throw new UsageError(`--${flag} must be a number from ${min} to ${max}, got "${v}"`);
  return n;
}

export const specsDraftCommand: CliCommand = defineCommand({
  name: 'specs draft',
  summary: 'draft specs, citations and the spec-test map with the model; each draft is stored as a suggestion to review',
  usage:
    'specweave specs draft DATASET [TASK ...] [--concurrency N] [--budget-usd X] [--resume] [--force] [--model M] [--json]\n' +
    'Without TASK every task is drafted (tasks with specs only with --force). The API key comes from OPENAI_API_KEY',
  flags: {
    concurrency: { type: 'string', help: 'calls to the model at a time (default 4)' },
    'budget-usd': { type: 'string', help: 'cost cap in USD: no call starts that could take the spend past it' },
    resume: { type: 'boolean', help: 'skip tasks whose current revision was already drafted or paid for (after a crash)' },
    force: { type: 'boolean', help: 'draft tasks that already have specs too' },
    ...endpointFlags,
    json: { type: 'boolean', help: 'print the results as JSON (see docs/drafter.md)' },
    ...curatorFlag,
  },
  positional: { min: 1, max: 100_000 },
  async run(a) {
    const [root, ...named] = a.positional as [string, ...string[]];
    const json = a.booleans.json === true;
    const settings = settingsFrom(a);
    const concurrency = number('concurrency', a.strings.concurrency, 1, 64) ?? 4;
    const budgetUsd = number('budget-usd', a.strings['budget-usd'], 0, 1_000_000);
    const apiKey = process.env.OPENAI_API_KEY?.trim() || undefined;
    redactor.add(apiKey);
    const curator = curatorOf(a, root);
    const store = openStore(a, { quiet: json });
    const unknown = named.filter((t) => !store.task(t));
    if (unknown.length > 0) throw new UsageError(`no task ${unknown.map((t) => `"${t}"`).join(', ')} in ${root}`);
    const tasks = named.length > 0 ? [...new Set(named)] : store.dataset.tasks.map((t) => t.id);
    const ac = new AbortController();
    const onSigint = () => {
      err('\n');
      say('cancelling... (drafts stored so far are kept; --resume goes on from there)');
      ac.abort();
    };
    process.once('SIGINT', onSigint);
    const progress = (e: BatchProgress) => {
      const at = `[${e.done}/${e.total}, spent ${usd(e.spentUsd)}]`;
      if (e.kind === 'start') say(`${at} ${e.task ?? ''}: asking ${settings.model}...`);
      else if (e.kind === 'stop') say(`${at} stopped: ${e.message ?? ''}`);
      else if (e.outcome) {
        say(`${at} ${outcomeLine(store.root, e.outcome)}`);
        if (e.outcome.status !== 'skipped') for (const r of e.outcome.rejections) say(`    rejected ${r.reason}`);
      }
    };
    try {
      const r = await draftSpecs({
        store,
        tasks,
        concurrency,
        ...(budgetUsd !== undefined ? { budgetUsd } : {}),
        resume: a.booleans.resume === true,
        force: a.booleans.force === true,
        curator,
        settings,
        ...(apiKey ? { apiKey } : {}),
        keyHint: CLI_KEY_HINT,
        redactor,
        signal: ac.signal,
        onProgress: progress,
        onLog: () => undefined,
      });
      const failed = r.outcomes.filter((o) => o.status === 'failed').length;
      const drafted = r.outcomes.filter((o) => o.status === 'drafted').length;
      const capped = r.outcomes.filter((o) => o.status === 'skipped' && o.reason === 'budget').length;
      if (json) printJson({ ok: failed === 0 && capped === 0, tasks: r.outcomes.map((o) => outcomeJson(store.root, o)), spentUsd: r.spentUsd, ...(r.stopped ? { stopped: r.stopped } : {}) });
      else {
        for (const o of r.outcomes) out(`${outcomeLine(store.root, o)}\n`);
        out(`${drafted} drafted, ${failed} failed, ${r.outcomes.length - drafted - failed} skipped; spent ${usd(r.spentUsd)}${r.stopped ? `; stopped: ${one(r.stopped)}` : ''}\n`);
        if (drafted > 0) out(`Review: specweave repair show ${one(root)} TASK SUGGESTION; accept: specweave repair accept ${one(root)} TASK SUGGESTION\n`);
      }
      return failed === 0 && capped === 0 ? 0 : 1;
    } catch (e) {
      const code = e instanceof LlmError ? e.code : e instanceof DrafterError || e instanceof RepairStoreError || e instanceof ReviewLogError ? 'io' : undefined;
      if (code === undefined) throw e;
      const message = e instanceof LlmError && e.code === 'cancelled' ? 'cancelled; the drafts stored so far are kept (--resume goes on without paying for them again)' : redactor.redact((e as Error).message);
      if (json) printJson({ ok: false, error: { code, message } });
      say(`specweave specs draft: ${message}`);
      return 1;
    } finally {
      process.removeListener('SIGINT', onSigint);
    }
  },
});
