// The full-suite probe of a task: the gold patch and each attempt (or the chosen ones) run once more in the
// verifier's hardened container with the repository's whole test command in place of the task's, as probes (never
// stored as runs); the report goes to DATASET/probes/<task>/full-suite.json (docs/probes.md, "Full suite").
import { EngineUnavailableError } from '../adapters/docker/engine';
import type { VerifierService, VerifyRequest } from '../adapters/docker/verifyService';
import { readBytes, writeFileAtomicInAsync } from '../adapters/fs/datasetPaths';
import { errorText } from '../core/errorText';
import type { CandidateTask } from '../core/model';
import { GOLD_PROBE } from '../core/model';
import type { FullSuiteReport, FullSuiteRun } from '../core/probes/fullSuite';
import { fullSuiteCommand, fullSuiteReport } from '../core/probes/fullSuite';
import { ProbeError, mutantsReportPath } from './probes';

/** Dataset-relative path of a task's full-suite report. */
export function fullSuiteReportPath(taskId: string): string {
  return mutantsReportPath(taskId).replace(/mutants\.json$/, 'full-suite.json');
}

export interface FullSuiteOptions {
  service: VerifierService;
  datasetRoot: string;
  /** Attempt ids to run (default: every attempt with a patch). */
  attempts?: readonly string[];
  timeoutSec?: number;
  persist?: boolean;
  now?: () => Date;
}

export interface TaskFullSuiteResult {
  report: FullSuiteReport;
  file?: string;
  cancelled: number;
  /** Chosen attempts the task does not have, or that have no patch. */
  notes: string[];
}

export async function probeFullSuite(task: CandidateTask, o: FullSuiteOptions): Promise<TaskFullSuiteResult> {
  const cmd = fullSuiteCommand(task.verifier);
  if ('refused' in cmd) throw new ProbeError(`task ${task.id}: ${cmd.refused}`);
  if (!task.files.goldPatch) throw new ProbeError(`task ${task.id} has no gold patch: nothing to compare the attempts with`);
  const read = (rel: string, what: string) => {
    try {
      return readBytes(o.datasetRoot, rel);
    } catch (e) {
      throw new ProbeError(`task ${task.id}: cannot read ${what} ${rel}: ${errorText(e)}`);
    }
  };
  const notes: string[] = [];
  const chosen = o.attempts ?? task.attempts.map((a) => a.id);
  const patches: { attemptId: string; patch: Buffer }[] = [];
  for (const id of chosen) {
    const a = task.attempts.find((x) => x.id === id);
    if (!a) notes.push(`task ${task.id} has no attempt ${id}`);
    else if (!a.patchFile) notes.push(`attempt ${id} of ${task.id} has no patch`);
    else patches.push({ attemptId: id, patch: read(a.patchFile, `the patch of attempt ${id}`) });
  }
  // The same task with the whole suite as its command: the probe's run is never stored, so its inputs do not matter.
  const suiteTask: CandidateTask = { ...task, verifier: { ...task.verifier, command: cmd.command, parser: 'pytest', junitPath: undefined } };
  const req = (id: string, patch: Buffer): VerifyRequest => ({ task: suiteTask, attemptId: GOLD_PROBE, probe: { id, patch }, force: true, ...(o.timeoutSec ? { timeoutSec: o.timeoutSec } : {}) });
  const goldId = o.service.enqueue(req('full-suite-gold', read(task.files.goldPatch, 'its gold patch')));
  const ids = patches.map((p) => ({ attemptId: p.attemptId, id: o.service.enqueue(req(`full-suite-${p.attemptId}`, p.patch)) }));
  let cancelled = 0;
  let engineError: EngineUnavailableError | undefined;
  const settle = async (attemptId: string, id: string): Promise<FullSuiteRun> => {
    const out = await o.service.queue.result(id);
    if (out.state === 'done') return { attemptId, run: out.value };
    if (out.state === 'cancelled') {
      cancelled++;
      return { attemptId, error: 'cancelled' };
    }
    if (out.error instanceof EngineUnavailableError) engineError = out.error;
    return { attemptId, error: errorText(out.error) };
  };
  const gold = await settle(GOLD_PROBE, goldId);
  const attempts = await Promise.all(ids.map((x) => settle(x.attemptId, x.id)));
  if (engineError) throw engineError;
  const report = fullSuiteReport(task, cmd, gold, attempts, (o.now ?? (() => new Date()))());
  if (cancelled > 0 || o.persist === false) return { report, cancelled, notes };
  const file = fullSuiteReportPath(task.id);
  await writeFileAtomicInAsync(o.datasetRoot, file, `${JSON.stringify(report, null, 2)}\n`);
  return { report, file, cancelled, notes };
}
