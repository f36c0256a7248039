// `specweave probe ... --cheat`: runs the fixed exploit set of each task in the verifier's containers, prints a
// table per task (or one JSON report per task), stores DATASET/probes/<task>/cheats.json (docs/probes.md). An
// exploit that passes is a verifier defect: the command then exits 3.
import { EngineUnavailableError } from '../adapters/docker/engine';
import type { VerifierService } from '../adapters/docker/verifyService';
import { generateExploits, runExploits } from '../app/cheatProbe';
import type { TaskCheatResult } from '../app/cheatProbe';
import { ProbeError } from '../app/probes';
import { errorText } from '../core/errorText';
import type { CandidateTask } from '../core/model';
import type { CheatReport } from '../core/probes/cheatReport';
import { err, jsonText, one, out, table, termSafe } from './output';

/** Exit status when an exploit passed (a verifier defect); errors (1) take precedence. */
export const EXIT_VERIFIER_DEFECT = 3;

/** A task's cheat report as the CLI prints it: a line, a table of exploits, the defects' patches named. */
export function formatCheatReport(r: CheatReport, file: string | undefined): string {
  const c = r.counts;
  const head = `${one(r.taskId)}  cheat probe: ${r.defects.length > 0 ? `${r.defects.length} VERIFIER DEFECT(S)` : 'no exploit passed'}  stopped ${c.stopped}  passed ${c.passed}  did not apply ${c.did_not_apply}  timed out ${c.timed_out}  error ${c.error}\n`;
  const rows = r.exploits.map((e) => [
    e.id,
    e.outcome === 'passed' ? 'PASSED (verifier defect)' : e.outcome === 'stopped' ? `stopped (${e.stoppedBy === 'flags' ? 'only by a tampering flag' : 'grading'})` : e.outcome.replace(/_/g, ' '),
    e.status,
    e.reason.length > 100 ? `${e.reason.slice(0, 99)}…` : e.reason,
  ]);
  const lines: string[] = [];
  if (r.gold.status !== 'passed' && r.gold.status !== 'none') lines.push(`    ! the gold patch itself is ${one(r.gold.status)}: ${one(r.gold.reason)}`);
  for (const s of r.skipped) lines.push(`  skipped ${one(s.id)}: ${one(s.reason)}`);
  for (const e of r.exploits.filter((x) => x.outcome === 'passed')) lines.push(`  defect ${one(e.id)}: ${one(e.title)} (writes ${e.files.map((f) => one(f)).join(', ')})`);
  if (file) lines.push(`  report: ${one(file)}${r.defects.length > 0 ? ' (each passing exploit\'s patch is in it)' : ''}`);
  return head + table(['exploit', 'outcome', 'status', 'reason'], rows) + (lines.length > 0 ? `${termSafe(lines.join('\n'), 'block')}\n` : '');
}

/** Runs the cheat probe of `tasks`; resolves to the number of failures and of tasks with a defect. */
export async function runCheatProbes(
  tasks: readonly CandidateTask[],
  o: { service: VerifierService; datasetRoot: string; timeoutSec?: number; json: boolean },
): Promise<{ failures: number; defects: number }> {
  let failures = 0;
  let defects = 0;
  const sets = [];
  for (const task of tasks) {
    try {
      sets.push({ task, set: await generateExploits(o.datasetRoot, task) });
    } catch (e) {
      if (!(e instanceof ProbeError)) throw e;
      failures++;
      err(`error: ${one(e.message)}\n`);
    }
  }
  const total = sets.reduce((n, s) => n + s.set.exploits.length, 0);
  let done = 0;
  await Promise.all(
    sets.map(async ({ task, set }) => {
      let r: TaskCheatResult;
      try {
        r = await runExploits(task, set, {
          service: o.service,
          datasetRoot: o.datasetRoot,
          ...(o.timeoutSec ? { timeoutSec: o.timeoutSec } : {}),
          onResult: (t, x) => {
            done++;
            if (!o.json) err(`[${done}/${total}] ${one(t.id)} cheat ${one(x.exploit.id)} ${x.run ? one(x.run.status) : `error: ${one(x.error)}`}\n`);
          },
        });
      } catch (e) {
        if (e instanceof EngineUnavailableError) throw e;
        failures++;
        err(`error: ${one(task.id)}: ${one(errorText(e))}\n`);
        return;
      }
      if (r.cancelled > 0) err(`note: ${one(task.id)}: ${r.cancelled} run(s) cancelled; its cheat report was not stored\n`);
      if (o.json) out(`${jsonText({ probe: 'cheat', ...r.report, file: r.file ?? null })}\n`);
      else out(formatCheatReport(r.report, r.file));
      if (r.report.counts.error > 0) failures++;
      if (r.report.defects.length > 0) defects++;
    }),
  );
  return { failures, defects };
}
