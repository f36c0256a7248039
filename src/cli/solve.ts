// `specweave solve DATASET TASK ... [--model M[,M...]] [--trials N] [--step-limit N] [--cost-limit USD]
// [--concurrency N] [--json]`: fresh solver trials (docs/solver.md). Each trial lands as a new attempt of its task and
// is then verified through the verifier's queue; one line per trial (attempt, exit status, steps, cost, verdict).
import * as os from 'node:os';
import { VerifierService } from '../adapters/docker/verifyService';
import { loadDataset } from '../adapters/fs/datasetLoader';
import { LlmClient } from '../adapters/llm/client';
import { CLI_KEY_HINT } from '../adapters/llm/errors';
import { Redactor } from '../adapters/llm/redact';
import type { TrialResult } from '../app/freshTrials';
import { queueVerifier, runFreshTrials, trialJobs } from '../app/freshTrials';
import { llmTrialModel } from '../app/solverTrial';
import type { CandidateTask } from '../core/model';
import { DEFAULT_LIMITS } from '../core/solver/agent';
import { UsageError } from './args';
import type { CliCommand } from './command';
import { defineCommand } from './command';
import { engineAnswers, executionFlags, executionOptions } from './containerRun';
import { err, jsonText, one, out } from './output';
import { endpointFlags, settingsFrom } from './repair';

function number(flag: string, v: string | undefined, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || n > max) throw new UsageError(`--${flag} must be a number from ${min} to ${max}, got "${one(v)}"`);
  return n;
}

export const solveCommand: CliCommand = defineCommand({
  name: 'solve',
  summary: 'run fresh solver trials (a small bash agent in the task container); each lands as a new attempt and is verified',
  usage:
    'specweave solve DATASET TASK ... [--model M[,M...]] [--trials N] [--step-limit N] [--cost-limit USD] [--concurrency N] [--json] [--backend local] [--warm]\n' +
    'The API key comes from OPENAI_API_KEY. See docs/solver.md',
  flags: {
    trials: { type: 'string', help: 'trials per task and model (default 1)' },
    'step-limit': { type: 'string', help: `model calls per trial at most (default ${DEFAULT_LIMITS.stepLimit})` },
    'cost-limit': { type: 'string', help: `USD per trial at most (default ${DEFAULT_LIMITS.costLimitUsd})` },
    'wall-limit': { type: 'string', help: `seconds per trial at most (default ${DEFAULT_LIMITS.wallLimitSec})` },
    'command-timeout': { type: 'string', help: `seconds one command may run (default ${DEFAULT_LIMITS.commandTimeoutSec})` },
    concurrency: { type: 'string', help: 'trials at a time (default 2)' },
    'no-verify': { type: 'boolean', help: 'land the attempts without verifying them' },
    ...executionFlags,
    ...endpointFlags,
    json: { type: 'boolean', help: 'one JSON object per trial, then a summary' },
  },
  positional: { min: 2, max: 10_000 },
  async run(a) {
    const [root, ...taskIds] = a.positional as [string, ...string[]];
    const json = a.booleans.json === true;
    const execution = executionOptions(a, { pool: false, command: 'specweave solve' });
    const base = settingsFrom(a);
    const models = [...new Set(base.model.split(',').map((m) => m.trim()).filter((m) => m.length > 0))];
    if (models.length === 0) throw new UsageError('--model names no model');
    const trials = number('trials', a.strings.trials, 1, 1000) ?? 1;
    const concurrency = number('concurrency', a.strings.concurrency, 1, 64) ?? 2;
    const limits = {
      stepLimit: number('step-limit', a.strings['step-limit'], 1, 100_000) ?? DEFAULT_LIMITS.stepLimit,
      costLimitUsd: number('cost-limit', a.strings['cost-limit'], 0, 100_000) ?? DEFAULT_LIMITS.costLimitUsd,
      wallLimitSec: number('wall-limit', a.strings['wall-limit'], 1, 7 * 24 * 3600) ?? DEFAULT_LIMITS.wallLimitSec,
      commandTimeoutSec: number('command-timeout', a.strings['command-timeout'], 1, 24 * 3600) ?? DEFAULT_LIMITS.commandTimeoutSec,
    };
    const apiKey = process.env.OPENAI_API_KEY?.trim() || undefined;
    const redactor = new Redactor();
    redactor.add(apiKey);
    const say = (line: string) => err(`${one(redactor.redact(line))}\n`);

    const dataset = loadDataset(root);
    const unknown = taskIds.filter((id) => !dataset.tasks.some((t) => t.id === id));
    if (unknown.length > 0) throw new UsageError(`no task ${unknown.map((u) => `"${one(u)}"`).join(', ')} in ${one(root)}`);
    const service = new VerifierService({ datasetRoot: dataset.root, concurrency, log: (l) => say(l), ...execution });
    if (!(await engineAnswers(service, 'solve'))) return 1;

    const ac = new AbortController();
    const onSigint = () => {
      err('\n');
      say('cancelling: the trials under way end at their next step, their attempts are kept');
      ac.abort();
      service.queue.cancelAll();
    };
    process.once('SIGINT', onSigint);
    const clients = new Map(models.map((m) => [m, new LlmClient({ settings: { ...base, model: m }, ...(apiKey ? { apiKey } : {}), redactor, keyHint: CLI_KEY_HINT })]));
    const tasks = [...new Set(taskIds)].map((id) => dataset.tasks.find((t) => t.id === id) as CandidateTask);
    const lines: TrialResult[] = [];
    try {
      await runFreshTrials({
        root: dataset.root,
        jobs: trialJobs(tasks, models, trials),
        engine: service.engine,
        modelFor: (m) => llmTrialModel(clients.get(m) as LlmClient),
        limits,
        concurrency,
        signal: ac.signal,
        reloadTask: (id) => loadDataset(dataset.root).tasks.find((t) => t.id === id),
        ...(a.booleans['no-verify'] === true ? {} : { verify: queueVerifier(service) }),
        onEvent: (e) => {
          if (e.kind === 'start') say(`[${e.index}/${e.total}] ${e.job.task.id}: a trial of ${e.job.model} starts`);
          else if (e.kind === 'step' && !json) say(`  ${e.job.task.id} ${e.job.model}: step ${e.run.stats.steps}, $${e.run.stats.costUsd.toFixed(4)}`);
          else if (e.kind === 'done') {
            const line = e.result;
            if (line.error) line.error = redactor.redact(line.error);
            lines.push(line);
            if (json) out(`${jsonText(line)}\n`);
            else if (line.error) out(`${one(line.task)} ${one(line.model)}: error: ${one(line.error)}\n`);
            else out(`${one(line.task)} ${one(line.model)}: attempt ${one(line.attemptId ?? '')} ${line.exitStatus} after ${line.steps} step(s), $${(line.costUsd ?? 0).toFixed(4)}${line.verdict ? `; verifier: ${one(line.verdict)}` : ''}\n`);
          }
        },
      });
    } finally {
      process.removeListener('SIGINT', onSigint);
      await service.close();
    }
    const passed = lines.filter((l) => l.verdict === 'passed').length;
    const errors = lines.filter((l) => l.error).length;
    const spent = lines.reduce((s, l) => s + (l.costUsd ?? 0), 0);
    if (json) out(`${jsonText({ trials: lines.length, passed, errors, spentUsd: Number(spent.toFixed(6)), host: os.hostname(), ...(ac.signal.aborted ? { cancelled: true } : {}) })}\n`);
    else out(`${lines.length} trial(s), ${passed} passed the verifier, ${errors} error(s); spent $${spent.toFixed(4)}${ac.signal.aborted ? '; cancelled' : ''}\n`);
    return ac.signal.aborted ? 130 : errors > 0 ? 1 : 0;
  },
});
