// `specweave review DATASET [TASK ...]`: the review agent (docs/review-agent.md) on some or all attempts: progress
// with done/total, ETA and the spend so far on stderr, one line per attempt on stdout (findings, false-positive and
// false-negative candidates, dropped findings, cost) and a summary, or --json. Findings are suggestions in the review
// log (`review.findings`), never labels.
import { ReviewLogError } from '../adapters/fs/reviewLog';
import { CLI_KEY_HINT, LlmError } from '../adapters/llm/errors';
import { Redactor } from '../adapters/llm/redact';
import type { ReviewBatchProgress, ReviewOutcome } from '../app/reviewAgent';
import { ReviewAgentError, reviewAttempts } from '../app/reviewAgent';
import { UsageError } from './args';
import type { CliCommand } from './command';
import { defineCommand } from './command';
import { curatorFlag, curatorOf, openStore } from './curationCommon';
import { err, one, out, printJson } from './output';
import { endpointFlags, settingsFrom } from './repair';

const redactor = new Redactor();
const say = (line: string) => err(`${one(redactor.redact(line))}\n`);
const usd = (n: number | undefined) => (n === undefined ? 'cost unknown' : `$${n.toFixed(4)}`);
const secs = (ms: number | undefined) => (ms === undefined ? '' : `, ETA ${Math.ceil(ms / 1000)}s`);

function outcomeLine(o: ReviewOutcome): string {
  const who = `${one(o.task)} ${one(o.attempt)}`;
  if (o.status === 'reviewed')
    return `${who}: ${o.findings} finding(s), ${o.candidates.false_positive} false-positive and ${o.candidates.false_negative} false-negative candidate(s), ${o.dropped} dropped (${usd(o.costUsd)})${o.fromJournal ? ', recorded from the journal (not paid again)' : ''}${o.logError ? `; not in the log: ${one(o.logError)}` : ''}`;
  if (o.status === 'failed') return `${who}: failed: ${one(o.message)}`;
  return `${who}: skipped: ${one(o.message)}`;
}

function number(flag: string, v: string | undefined, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || n > max) throw new UsageError(`--${flag} must be a number from ${min} to ${max}, got "${v}"`);
  return n;
}

export const reviewCommand: CliCommand = defineCommand({
  name: 'review',
  summary: 'the review agent: judge attempts against every spec with the model; findings are suggestions in the review log',
  usage:
    'specweave review DATASET [TASK ...] [--attempt A ...] [--concurrency N] [--budget-usd X] [--resume] [--model M] [--json]\n' +
    'Without TASK every task is reviewed. One call per attempt; the API key comes from OPENAI_API_KEY',
  flags: {
    attempt: { type: 'list', help: 'judge only this attempt' },
    concurrency: { type: 'string', help: 'calls to the model at a time (default 4)' },
    'budget-usd': { type: 'string', help: 'cost cap in USD: no call starts that could take the spend past it' },
    resume: { type: 'boolean', help: 'after a crash: record what the journal holds, skip pairs already paid for' },
    ...endpointFlags,
    json: { type: 'boolean', help: 'print the results as JSON (see docs/review-agent.md)' },
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
    if (unknown.length > 0) throw new UsageError(`no task ${unknown.map((t) => `"${one(t)}"`).join(', ')} in ${one(root)}`);
    const tasks = named.length > 0 ? [...new Set(named)] : store.dataset.tasks.map((t) => t.id);
    const attempts = a.lists.attempt && a.lists.attempt.length > 0 ? a.lists.attempt : undefined;
    if (attempts) {
      const known = new Set(tasks.flatMap((t) => store.task(t)?.attempts.map((x) => x.id) ?? []));
      const missing = attempts.filter((x) => !known.has(x));
      if (missing.length > 0) throw new UsageError(`no attempt ${missing.map((x) => `"${one(x)}"`).join(', ')} in the tasks named`);
    }
    const ac = new AbortController();
    const onSigint = () => {
      err('\n');
      say('cancelling... (findings recorded so far are kept; --resume goes on from there)');
      ac.abort();
    };
    process.once('SIGINT', onSigint);
    const progress = (e: ReviewBatchProgress) => {
      const at = `[${e.done}/${e.total}, spent ${usd(e.spentUsd)}${secs(e.etaMs)}]`;
      if (e.kind === 'start') say(`${at} ${e.task ?? ''} ${e.attempt ?? ''}: asking ${settings.model}...`);
      else if (e.kind === 'stop') say(`${at} stopped: ${e.message ?? ''}`);
      else if (e.outcome) say(`${at} ${outcomeLine(e.outcome)}`);
    };
    try {
      const r = await reviewAttempts({
        store,
        tasks,
        ...(attempts ? { attempts } : {}),
        concurrency,
        ...(budgetUsd !== undefined ? { budgetUsd } : {}),
        resume: a.booleans.resume === true,
        curator,
        settings,
        ...(apiKey ? { apiKey } : {}),
        keyHint: CLI_KEY_HINT,
        redactor,
        signal: ac.signal,
        onProgress: progress,
      });
      const count = (s: ReviewOutcome['status']) => r.outcomes.filter((o) => o.status === s).length;
      const failed = count('failed');
      const reviewed = r.outcomes.filter((o): o is Extract<ReviewOutcome, { status: 'reviewed' }> => o.status === 'reviewed');
      const capped = r.outcomes.filter((o) => o.status === 'skipped' && o.reason === 'budget').length;
      const fp = reviewed.reduce((n, o) => n + o.candidates.false_positive, 0);
      const fn = reviewed.reduce((n, o) => n + o.candidates.false_negative, 0);
      const dropped = reviewed.reduce((n, o) => n + o.dropped, 0);
      const ok = failed === 0 && capped === 0;
      if (json) printJson({ ok, attempts: r.outcomes, spentUsd: r.spentUsd, ...(r.stopped ? { stopped: r.stopped } : {}) });
      else {
        for (const o of r.outcomes) out(`${outcomeLine(o)}\n`);
        out(`${reviewed.length} reviewed, ${failed} failed, ${r.outcomes.length - reviewed.length - failed} skipped; ${fp} false-positive and ${fn} false-negative candidate(s), ${dropped} finding(s) dropped; spent ${usd(r.spentUsd)}${r.stopped ? `; stopped: ${one(r.stopped)}` : ''}\n`);
      }
      return ok ? 0 : 1;
    } catch (e) {
      const code = e instanceof LlmError ? e.code : e instanceof ReviewAgentError || e instanceof ReviewLogError ? 'io' : undefined;
      if (code === undefined) throw e;
      const message = e instanceof LlmError && e.code === 'cancelled' ? 'cancelled; the findings recorded so far are kept (--resume goes on without paying for them again)' : redactor.redact((e as Error).message);
      if (json) printJson({ ok: false, error: { code, message } });
      say(`specweave review: ${message}`);
      return 1;
    } finally {
      process.removeListener('SIGINT', onSigint);
    }
  },
});
