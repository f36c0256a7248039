// `specweave probe DATASET [TASK ...] --mutants N`: runs gold mutants of tasks in the verifier's containers, prints
// each task's mutation score, per-spec counts and survivors (or one JSON object per task), and stores the report
// under DATASET/probes/<task>/mutants.json (docs/probes.md).
// `--cheat` (probeCheat.ts) and `--full-suite` (probeFullSuite.ts) run the other probes through the same service.
import { EngineUnavailableError } from '../adapters/docker/engine';
import { VerifierService, machineConcurrency } from '../adapters/docker/verifyService';
import { openDataset } from '../adapters/fs/datasetLoader';
import { ProbeError, generateMutants, runMutants } from '../app/probes';
import type { TaskProbeResult } from '../app/probes';
import { errorText } from '../core/errorText';
import type { CandidateTask } from '../core/model';
import type { MutationReport } from '../core/probes/mutantReport';
import { UsageError } from './args';
import { defineCommand } from './command';
import { cancelOnSigint, engineAnswers } from './containerRun';
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

export const probeCommand = defineCommand({
  name: 'probe',
  summary: "run gold mutants of tasks in the verifier's containers: a surviving mutant shows what the tests do not check",
  usage: 'specweave probe DATASET [TASK ...] [--mutants N] [--cheat] [--full-suite [--attempt ID]...] [--concurrency N] [--timeout SECONDS] [--json] [--host ADDRESS]',
  flags: {
    mutants: { type: 'string', help: 'run at most N gold mutants per task (an operator-diverse pick)' },
    cheat: { type: 'boolean', help: 'run the fixed exploit set; an exploit that passes is a verifier defect (exit 3)' },
    'full-suite': { type: 'boolean', help: "the repository's whole test command for the gold patch and each attempt: tests an attempt breaks beyond the listed ones" },
    attempt: { type: 'list', help: 'with --full-suite: only this attempt' },
    concurrency: { type: 'string', help: 'runs at a time (default: cores, capped by memory)' },
    timeout: { type: 'string', help: "seconds before a run is killed (default: the task's)" },
    json: { type: 'boolean', help: "one JSON object per task (its mutation report) per line on stdout" },
    host: { type: 'string', help: 'container engine address (unix://, tcp://, ssh://); default DOCKER_HOST, then the local socket' },
  },
  positional: { min: 1, max: Number.MAX_SAFE_INTEGER },
  async run(a) {
    const [root, ...taskIds] = a.positional as [string, ...string[]];
    const cap = positiveInteger('mutants', a.strings.mutants);
    const cheat = a.booleans.cheat === true;
    const fullSuite = a.booleans['full-suite'] === true;
    const attempts = a.lists.attempt ?? [];
    if (attempts.length > 0 && !fullSuite) throw new UsageError('--attempt needs --full-suite');
    if (cap === undefined && !cheat && !fullSuite) throw new UsageError('--mutants N is required, or --cheat, or --full-suite');
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
    const withGold = cap === undefined ? [] : tasks.filter((t) => {
      if (!t.files.goldPatch) err(`note: task ${one(t.id)} has no gold patch; no mutants\n`);
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
      engine: { host: a.strings.host },
      concurrency: concurrencyFlag ?? machineConcurrency(maxMem),
      log: (l) => err(`${one(l)}\n`),
    });
    if (!(await engineAnswers(service, 'probe'))) return 1;

    const sigint = cancelOnSigint(service);
    let failures = 0;
    let defects = 0;
    try {
      // Every task's mutants are generated first, then queued together; each task prints when its runs are in.
      const sets = [];
      for (const task of withGold) {
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
      throw e;
    } finally {
      sigint.dispose();
    }
    if (sigint.interrupted) return 130;
    return failures > 0 ? 1 : defects > 0 ? EXIT_VERIFIER_DEFECT : 0;
  },
});
