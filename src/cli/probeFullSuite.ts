// `specweave probe ... --full-suite [--attempt ID]`: the repository's whole test command for the gold patch and each
// attempt (or the chosen ones), in the verifier's containers; prints what each attempt breaks beyond the listed tests
// and what fails with gold too (noise), stores DATASET/probes/<task>/full-suite.json (docs/probes.md).
import { EngineUnavailableError } from '../adapters/docker/engine';
import type { VerifierService } from '../adapters/docker/verifyService';
import { probeFullSuite } from '../app/fullSuite';
import type { TaskFullSuiteResult } from '../app/fullSuite';
import { ProbeError } from '../app/probes';
import { errorText } from '../core/errorText';
import type { CandidateTask } from '../core/model';
import type { FullSuiteReport } from '../core/probes/fullSuite';
import { err, jsonText, one, out, termSafe } from './output';

const LIST_MAX = 20;
const names = (xs: readonly string[]) => `${xs.slice(0, LIST_MAX).map((x) => one(x)).join(', ')}${xs.length > LIST_MAX ? `, … (${xs.length - LIST_MAX} more)` : ''}`;

export function formatFullSuiteReport(r: FullSuiteReport, file: string | undefined): string {
  const lines = [
    `${one(r.taskId)}  full suite: ${one(r.command)}${r.derived ? ' (derived: the task names no full-suite command)' : ''}`,
    `    gold: ${one(r.gold.status)}, ${r.gold.reported} test(s) reported, ${r.gold.failing.length} failing${r.gold.status === 'passed' || r.gold.status === 'failed' ? '' : `: ${one(r.gold.reason)}`}`,
  ];
  if (r.noise.length > 0) lines.push(`    noise (fail with gold too, not counted): ${names(r.noise)}`);
  for (const a of r.attempts) {
    if (a.breaks === null) lines.push(`  ${one(a.attemptId)}: not compared (${one(a.status)}: ${one(a.reason)})`);
    else if (a.breaks.length === 0) lines.push(`  ${one(a.attemptId)}: breaks no other test (${a.reported} reported)`);
    else lines.push(`  ${one(a.attemptId)}: BREAKS ${a.breaks.length} other test(s) that pass with gold: ${names(a.breaks)}`);
  }
  if (file) lines.push(`  report: ${one(file)}`);
  return `${termSafe(lines.join('\n'), 'block')}\n`;
}

export async function runFullSuiteProbes(
  tasks: readonly CandidateTask[],
  o: { service: VerifierService; datasetRoot: string; attempts?: readonly string[]; timeoutSec?: number; json: boolean },
): Promise<{ failures: number }> {
  let failures = 0;
  await Promise.all(
    tasks.map(async (task) => {
      let r: TaskFullSuiteResult;
      try {
        r = await probeFullSuite(task, {
          service: o.service,
          datasetRoot: o.datasetRoot,
          ...(o.attempts && o.attempts.length > 0 ? { attempts: o.attempts } : {}),
          ...(o.timeoutSec ? { timeoutSec: o.timeoutSec } : {}),
        });
      } catch (e) {
        if (e instanceof EngineUnavailableError) throw e;
        if (!(e instanceof ProbeError)) failures++;
        err(`${e instanceof ProbeError ? 'note' : 'error'}: ${one(errorText(e))}${e instanceof ProbeError ? '; no full suite' : ''}\n`);
        return;
      }
      for (const n of r.notes) err(`note: ${one(n)}\n`);
      if (r.cancelled > 0) err(`note: ${one(task.id)}: ${r.cancelled} run(s) cancelled; its full-suite report was not stored\n`);
      if (o.json) out(`${jsonText({ probe: 'full-suite', ...r.report, file: r.file ?? null })}\n`);
      else out(formatFullSuiteReport(r.report, r.file));
    }),
  );
  return { failures };
}
