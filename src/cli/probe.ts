// `specweave probe DATASET [TASK ...] --mutants N`: runs gold mutants of tasks in the verifier's containers, prints
// each task's mutation score, per-spec counts and survivors (or one JSON object per task), and stores the report
// under DATASET/probes/<task>/mutants.json (docs/probes.md).
// `--cheat` (probeCheat.ts) and `--full-suite` (probeFullSuite.ts) run the other probes through the same service.
import { EngineUnavailableError } from '../adapters/docker/engine';
import { VerifierService, machineConcurrency } from '../adapters/docker/verifyService';
import { openDataset } from '../adapters/fs/datasetLoader';
import { ProbeError, generateMutants, runMutants } from '../app/probes';
import { CLI_KEY_HINT, LlmError } from '../adapters/llm/errors';
import { Redactor } from '../adapters/llm/redact';
import type { LlmProbeResult } from '../app/llmProbes';
import { ProbeBudget, ProbeOutputs, probeWithLlm } from '../app/llmProbes';
import type { AlternativesReport, LlmProbeKind, VariantsReport } from '../core/probes/llmPatches';
import { endpointFlags, settingsFrom } from './repair';
import type { TaskProbeResult } from '../app/probes';
import { errorText } from '../core/errorText';
import type { CandidateTask } from '../core/model';
import type { MutationReport } from '../core/probes/mutantReport';
import { UsageError } from './args';
import { defineCommand } from './command';
import { cancelOnSigint, engineAnswers, executionFlags, executionOptions } from './containerRun';
import { err, formatProblem, jsonText, one, out, termSafe } from './output';
import { EXIT_VERIFIER_DEFECT, runCheatProbes } from './probeCheat';
import { runFullSuiteProbes } from './probeFullSuite';

function positiveInteger(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${flag} needs a positive integer, got "${v}"`);
  return n;
}

function percent(score: number | null): string {
  return score === null ? 'no score (no mutant was graded)' : `${(score * 100).toFixed(0)}%`;
}

/** A task's report as the CLI prints it: the score line, the counts, per-spec counts, then each survivor's diff. */
export function formatMutationReport(r: MutationReport, file: string | undefined): string {
  const c = r.counts;
  const lines = [
    `${one(r.taskId)}  mutation score ${percent(r.score)}  killed ${c.killed}  survived ${c.survived}  did not apply ${c.did_not_apply}  ` +
      `timed out ${c.timed_out}  out of memory ${c.out_of_memory}  error ${c.error}  (${r.ran} run of ${r.generated} generated)`,
  ];
  if (r.gold.status !== 'passed') lines.push(`    ! the gold patch itself is ${one(r.gold.status)}: ${one(r.gold.reason)} (the score says little)`);
  for (const s of r.specs) lines.push(`    spec ${one(s.spec)}: killed ${s.killed}, survived ${s.survived}${s.untested ? ' (no test is mapped to it)' : ''}`);
  for (const m of r.mutants.filter((x) => x.outcome === 'survived')) {
    lines.push(`  survived ${one(m.id)}  ${one(m.file)}:${m.line}`, `    - ${one(m.before.trim())}`, `    + ${one(m.after.trim())}`);
  }
  for (const m of r.mutants.filter((x) => x.outcome !== 'survived' && x.outcome !== 'killed')) {
    lines.push(`  ${m.outcome.replace(/_/g, ' ')} ${one(m.id)}  ${one(m.file)}:${m.line}: ${one(m.reason)}`);
  }
  for (const s of r.skipped) lines.push(`  skipped ${one(s.file)}${s.line ? `:${s.line}` : ''}${s.operator ? ` (${one(s.operator)})` : ''}: ${one(s.reason)}`);
  if (r.unsupportedFiles.length > 0) lines.push(`  no operators for: ${r.unsupportedFiles.map((f) => one(f)).join(', ')}`);
  if (file) lines.push(`  report: ${one(file)} (each survivor's diff is in it)`);
  return `${termSafe(lines.join('\n'), 'block')}\n`;
}

const usdText = (n: number | undefined) => (n === undefined ? 'cost unknown' : `$${n.toFixed(4)}`);

/** An LLM probe's report as the CLI prints it: counts, then each patch's outcome with the tests and specs it met. */
export function formatLlmProbeReport(r: AlternativesReport | VariantsReport, file: string | undefined): string {
  const c = r.counts as Record<string, number>;
  const cost = `${one(r.llm.model)}, ${usdText(r.llm.costUsd)}`;
  const lines: string[] = [];
  if (r.kind === 'alternatives') {
    lines.push(
      `${one(r.taskId)}  alternatives: rejected ${c.rejected} (false-negative evidence)  accepted ${c.accepted}  did not apply ${c.did_not_apply}  ` +
        `timed out ${c.timed_out}  out of memory ${c.out_of_memory}  error ${c.error}  invalid ${r.invalid.length}  (${r.alternatives.length} run of ${r.requested} asked; ${cost})`,
    );
  } else {
    lines.push(
      `${one(r.taskId)}  variants: survived ${c.survived} (false-positive evidence)  killed ${c.killed}  did not apply ${c.did_not_apply}  ` +
        `timed out ${c.timed_out}  out of memory ${c.out_of_memory}  error ${c.error}  invalid ${r.invalid.length}  (${r.variants.length} run; ${cost})`,
    );
  }
  if (r.gold.status !== 'passed') lines.push(`    ! the gold patch itself is ${one(r.gold.status)}: ${one(r.gold.reason)} (the verdicts say little)`);
  if (r.kind === 'alternatives') {
    for (const a of r.alternatives) {
      lines.push(`  ${a.outcome.replace(/_/g, ' ')} ${one(a.id)}: ${one(a.summary)}${a.outcome === 'rejected' || a.outcome === 'accepted' ? '' : `: ${one(a.reason)}`}`);
      for (const f of a.failingTests) {
        lines.push(`    failing ${one(f.test)} ${one(f.name)} (${one(f.status)})${f.specs.length ? ` checks ${f.specs.map((x) => one(x)).join(', ')}` : ': test beyond the specs (it maps to no spec)'}`);
        for (const l of f.log.slice(0, 6)) lines.push(`      log ${l.line}: ${one(l.text)}`);
      }
    }
  } else {
    for (const s of r.specs) lines.push(`    spec ${one(s.spec)}: ${s.variants} variant(s), survived ${s.survived}, killed ${s.killed}${s.other ? `, no verdict ${s.other}` : ''}${s.untested ? ' (no test is mapped to it)' : ''}`);
    for (const v of r.variants) {
      lines.push(`  ${v.outcome.replace(/_/g, ' ')} ${one(v.id)} (violates ${one(v.spec)}): ${one(v.summary)}${v.outcome === 'killed' ? ` by ${v.failingTests.map((f) => one(f.test)).join(', ')}` : v.outcome === 'survived' ? '' : `: ${one(v.reason)}`}`);
    }
  }
  for (const x of r.invalid) lines.push(`  invalid ${one(x.reason)}`);
  if (file) lines.push(`  report: ${one(file)} (each patch's diff is in it)`);
  return `${termSafe(lines.join('\n'), 'block')}\n`;
}

export const probeCommand = defineCommand({
  name: 'probe',
  summary: "run gold mutants of tasks in the verifier's containers: a surviving mutant shows what the tests do not check",
  usage:
    'specweave probe DATASET [TASK ...] [--mutants N] [--cheat] [--full-suite [--attempt ID]...] [--alternatives N] [--variants N] [--budget-usd X] [--concurrency N] [--timeout SECONDS] [--json] [--host ADDRESS]... [--backend local|pool|swarm] [--constraint EXPR]... [--warm]\n' +
    'At least one probe is needed. --alternatives and --variants ask the model (API key from OPENAI_API_KEY, never printed or stored)',
  flags: {
    mutants: { type: 'string', help: 'run at most N gold mutants per task (an operator-diverse pick)' },
    cheat: { type: 'boolean', help: 'run the fixed exploit set; an exploit that passes is a verifier defect (exit 3)' },
    'full-suite': { type: 'boolean', help: "the repository's whole test command for the gold patch and each attempt: tests an attempt breaks beyond the listed ones" },
    attempt: { type: 'list', help: 'with --full-suite: only this attempt' },
    alternatives: { type: 'string', help: 'ask the model for N rewrites of the gold patch keeping every spec; one the tests reject is false-negative evidence' },
    variants: { type: 'string', help: 'ask the model for one variant of the gold patch violating each of the first N specs; one that passes is false-positive evidence' },
    'budget-usd': { type: 'string', help: 'cost cap in USD for the model calls: no call starts that could take the spend past it' },
    model: endpointFlags.model,
    'base-url': endpointFlags['base-url'],
    temperature: endpointFlags.temperature,
    'max-tokens': endpointFlags['max-tokens'],
    'llm-timeout': { type: 'string', help: 'seconds to wait for the model reply to start and between its parts (default 120)' },
    'max-reply-bytes': endpointFlags['max-reply-bytes'],
    concurrency: { type: 'string', help: 'runs at a time (default: cores, capped by memory)' },
    timeout: { type: 'string', help: "seconds before a run is killed (default: the task's)" },
    json: { type: 'boolean', help: "one JSON object per task (its mutation report) per line on stdout" },
    ...executionFlags,
  },
  positional: { min: 1, max: Number.MAX_SAFE_INTEGER },
  async run(a) {
    const [root, ...taskIds] = a.positional as [string, ...string[]];
    const cap = positiveInteger('mutants', a.strings.mutants);
    const llmProbes: Array<[LlmProbeKind, number]> = [];
    for (const kind of ['alternatives', 'variants'] as const) {
      const n = positiveInteger(kind, a.strings[kind]);
      if (n !== undefined) llmProbes.push([kind, n]);
    }
    const cheat = a.booleans.cheat === true;
    const execution = executionOptions(a);
    const fullSuite = a.booleans['full-suite'] === true;
    const attempts = a.lists.attempt ?? [];
    if (attempts.length > 0 && !fullSuite) throw new UsageError('--attempt needs --full-suite');
    if (cap === undefined && llmProbes.length === 0 && !cheat && !fullSuite) throw new UsageError('name a probe: --mutants N, --cheat, --full-suite, --alternatives N or --variants N');
    const budgetFlag = a.strings['budget-usd'];
    const budgetUsd = budgetFlag === undefined ? undefined : Number(budgetFlag);
    if (budgetUsd !== undefined && (!Number.isFinite(budgetUsd) || budgetUsd < 0)) throw new UsageError(`--budget-usd needs a number of dollars, got "${budgetFlag}"`);
    const settings = llmProbes.length ? settingsFrom({ ...a, strings: { ...a.strings, timeout: a.strings['llm-timeout'] } }) : undefined;
    const apiKey = process.env.OPENAI_API_KEY?.trim() || undefined;
    const redactor = new Redactor([apiKey]);
    const outputs = new ProbeOutputs();
    const concurrencyFlag = positiveInteger('concurrency', a.strings.concurrency);
    const timeoutSec = positiveInteger('timeout', a.strings.timeout);
    const json = a.booleans.json === true;

    const dataset = openDataset(root);
    for (const p of dataset.problems.filter((x) => x.severity === 'error')) err(`${formatProblem(p)}\n`);
    let tasks = dataset.tasks;
    if (taskIds.length > 0) {
      const unknown = taskIds.filter((id) => !tasks.some((t) => t.id === id));
      if (unknown.length > 0) throw new UsageError(`no task ${unknown.map((u) => `"${one(u)}"`).join(', ')} in ${one(root)}`);
      tasks = taskIds.map((id) => tasks.find((t) => t.id === id) as CandidateTask);
    }
    // Mutants and the LLM-written probes start from the gold patch; the cheat probe and the full suite do not.
    const withGold = cap === undefined && llmProbes.length === 0 ? [] : tasks.filter((t) => {
      if (!t.files.goldPatch) err(`note: task ${one(t.id)} has no gold patch; no mutants, alternatives or variants\n`);
      return !!t.files.goldPatch;
    });
    const probed = cheat || fullSuite ? tasks : withGold;
    if (probed.length === 0) {
      err('nothing to probe\n');
      return 0;
    }

    const maxMem = Math.max(...probed.map((t) => t.environment.limits.memoryMb));
    const service = new VerifierService({
      datasetRoot: dataset.root,
      concurrency: concurrencyFlag ?? machineConcurrency(maxMem),
      log: (l) => err(`${one(l)}\n`),
      onOutput: outputs.onOutput,
      ...execution,
    });
    if (!(await engineAnswers(service, 'probe'))) return 1;

    const sigint = cancelOnSigint(service);
    // A model call under way is cancelled by the same SIGINT; no new call starts after it.
    const llmAbort = new AbortController();
    const abortLlm = () => llmAbort.abort();
    process.once('SIGINT', abortLlm);
    // The LLM probes: one task's calls after another (a few tasks at a time), its patches queued with the others'.
    const budget = new ProbeBudget(budgetUsd);
    const printLlm = (r: LlmProbeResult) => {
      if (json) out(`${jsonText(r.status === 'done' ? { ...r.report, file: r.file ?? null } : r)}\n`);
      else if (r.status === 'done') out(formatLlmProbeReport(r.report, r.file));
      else err(`${r.status === 'failed' ? 'error' : 'skipped'}: ${one(r.task)}: ${r.kind}: ${one(redactor.redact(r.message))}\n`);
    };
    const runLlmProbes = async (): Promise<number> => {
      let bad = 0;
      let next = 0;
      const worker = async () => {
        while (next < withGold.length && !llmAbort.signal.aborted) {
          const task = withGold[next++] as CandidateTask;
          for (const [kind, n] of llmProbes) {
            if (llmAbort.signal.aborted) break;
            let r: LlmProbeResult;
            try {
              r = await probeWithLlm(task, kind, n, {
                service,
                datasetRoot: dataset.root,
                settings: settings as NonNullable<typeof settings>,
                ...(apiKey ? { apiKey } : {}),
                keyHint: CLI_KEY_HINT,
                redactor,
                budget,
                outputs,
                signal: llmAbort.signal,
                ...(timeoutSec ? { timeoutSec } : {}),
                onResult: (t, k, x) => {
                  if (!json) err(`${one(t.id)} ${k} ${one(x.patch.id)} ${x.run ? one(x.run.status) : `error: ${one(x.error)}`}\n`);
                },
              });
            } catch (e) {
              if (e instanceof EngineUnavailableError || (e instanceof LlmError && e.code === 'cancelled')) throw e;
              bad++;
              err(`error: ${one(task.id)}: ${kind}: ${one(redactor.redact(errorText(e)))}\n`);
              continue;
            }
            printLlm(r);
            if (r.status !== 'done' || (r.report.counts.error ?? 0) > 0) bad++;
            if (r.status === 'done' && r.cancelled > 0) err(`note: ${one(task.id)}: ${kind}: ${r.cancelled} run(s) cancelled; its report was not stored\n`);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(4, withGold.length) }, () => worker()));
      if (!json) err(`model spend: ${usdText(budget.spentUsd)}${budgetUsd !== undefined ? ` of a $${budgetUsd.toFixed(4)} cap` : ''}\n`);
      return bad;
    };
    let failures = 0;
    let defects = 0;
    try {
      // Every task's mutants are generated first, then queued together; each task prints when its runs are in.
      const sets = [];
      for (const task of withGold) {
        if (cap === undefined) break;
        try {
          sets.push({ task, set: await generateMutants(dataset.root, task, cap as number) });
        } catch (e) {
          if (!(e instanceof ProbeError)) throw e;
          failures++;
          err(`error: ${one(e.message)}\n`);
        }
      }
      const total = sets.reduce((n, s) => n + s.set.mutants.length, 0);
      let done = 0;
      await Promise.all(
        sets.map(async ({ task, set }) => {
          let r: TaskProbeResult;
          try {
            r = await runMutants(task, set, set.mutants, {
              service,
              datasetRoot: dataset.root,
              ...(timeoutSec ? { timeoutSec } : {}),
              onResult: (t, m) => {
                done++;
                if (!json) err(`[${done}/${total}] ${one(t.id)} ${one(m.mutant.id)} ${m.run ? one(m.run.status) : `error: ${one(m.error)}`}\n`);
              },
            });
          } catch (e) {
            if (e instanceof EngineUnavailableError) throw e;
            failures++;
            err(`error: ${one(task.id)}: ${one(errorText(e))}\n`);
            return;
          }
          if (r.cancelled > 0) err(`note: ${one(task.id)}: ${r.cancelled} run(s) cancelled; its report was not stored\n`);
          if (json) out(`${jsonText({ ...r.report, file: r.file ?? null })}\n`);
          else out(formatMutationReport(r.report, r.file));
          if (r.report.counts.error > 0) failures++;
        }),
      );
      if (settings && llmProbes.length > 0) failures += await runLlmProbes();
      if (cheat) {
        const c = await runCheatProbes(tasks, { service, datasetRoot: dataset.root, ...(timeoutSec ? { timeoutSec } : {}), json });
        failures += c.failures;
        defects += c.defects;
      }
      if (fullSuite) failures += (await runFullSuiteProbes(tasks, { service, datasetRoot: dataset.root, attempts, ...(timeoutSec ? { timeoutSec } : {}), json })).failures;
    } catch (e) {
      if (e instanceof EngineUnavailableError) {
        err(`specweave probe: ${one(e.message)}\n`);
        return 1;
      }
      if (!(e instanceof LlmError && e.code === 'cancelled')) throw e;
    } finally {
      sigint.dispose();
      process.removeListener('SIGINT', abortLlm);
      await service.close();
    }
    if (llmAbort.signal.aborted) return 130;
    if (sigint.interrupted) return 130;
    return failures > 0 ? 1 : defects > 0 ? EXIT_VERIFIER_DEFECT : 0;
  },
});
