// The gold-mutant probe of a task: generate mutants of the lines its gold patch adds (against the base files from
// its clone), run each in the verifier's hardened container exactly as the gold probe runs, and store the mutation
// report under DATASET/probes/<task>/mutants.json (docs/probes.md). Runs are never stored as attempts.
import type { VerifierService, VerifyRequest } from '../adapters/docker/verifyService';
import { repoPath } from '../adapters/fs/datasetLoader';
import { readBytes, writeFileAtomicInAsync } from '../adapters/fs/datasetPaths';
import { gitShow } from '../adapters/fs/git';
import { errorText } from '../core/errorText';
import type { CandidateTask } from '../core/model';
import { GOLD_PROBE } from '../core/model';
import { parsePatch } from '../core/patch';
import type { MutantRun, MutationReport } from '../core/probes/mutantReport';
import { mutationReport } from '../core/probes/mutantReport';
import type { Mutant, MutantSet } from '../core/probes/mutants';
import { goldMutants, pickMutants } from '../core/probes/mutants';
import { EngineUnavailableError } from '../adapters/docker/engine';

export const PROBES_DIR = 'probes';
const SEGMENT_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** A task that cannot be probed as asked (no gold patch, a task id that cannot name a folder...). */
export class ProbeError extends Error {}

/** Dataset-relative path of a task's mutation report. */
export function mutantsReportPath(taskId: string): string {
  if (!SEGMENT_RE.test(taskId) || taskId.includes('..')) throw new ProbeError(`task id "${taskId}" cannot name a folder under ${PROBES_DIR}/`);
  return `${PROBES_DIR}/${taskId}/mutants.json`;
}

export interface GeneratedMutants extends MutantSet {
  /** The gold patch as bytes (what the gold probe runs). */
  gold: Buffer;
  /** How many mutants there were before the cap. */
  generated: number;
}

/**
 * The task's gold mutants, at most `cap` of them (an operator-diverse pick). Base files come from the task's git
 * clone at its base commit; for a repository held in an image they are not known, and mutants are not checked
 * against them (they still only change an added line in place).
 */
export async function generateMutants(datasetRoot: string, task: CandidateTask, cap: number): Promise<GeneratedMutants> {
  if (!task.files.goldPatch) throw new ProbeError(`task ${task.id} has no gold patch: there is nothing to mutate`);
  let gold: Buffer;
  try {
    gold = readBytes(datasetRoot, task.files.goldPatch);
  } catch (e) {
    throw new ProbeError(`task ${task.id}: cannot read its gold patch ${task.files.goldPatch}: ${errorText(e)}`);
  }
  const text = gold.toString('utf8');
  const base = new Map<string, string | undefined>();
  if (task.repo.kind === 'git') {
    const repo = repoPath(datasetRoot, task.repo);
    for (const f of parsePatch(text, task.files.goldPatch).files) {
      if (f.status === 'added' || !f.oldPath) continue;
      const r = await gitShow(repo, task.repo.baseCommit, f.oldPath);
      if (r.ok) base.set(f.oldPath, r.text);
      else if (r.kind !== 'no-path') throw new ProbeError(`task ${task.id}: cannot read ${f.oldPath} at the base commit: ${r.message}`);
    }
  }
  const set = goldMutants(text, base);
  return { ...set, mutants: pickMutants(set.mutants, cap), gold, generated: set.mutants.length };
}

export interface RunMutantsOptions {
  service: VerifierService;
  datasetRoot: string;
  timeoutSec?: number;
  /** Each mutant's result as it settles (progress lines). */
  onResult?: (task: CandidateTask, r: MutantRun) => void;
  /** Store the report under probes/ (default true). */
  persist?: boolean;
  now?: () => Date;
}

export interface TaskProbeResult {
  report: MutationReport;
  /** Dataset-relative path of the stored report; undefined when not stored (persist false, or runs were cancelled). */
  file?: string;
  cancelled: number;
}

/**
 * Runs the gold patch and every mutant through the service's queue (the gold probe's container, order and grading)
 * and builds the task's mutation report; stores it unless a run was cancelled. Rejects with EngineUnavailableError
 * when there is no engine.
 */
export async function runMutants(task: CandidateTask, set: GeneratedMutants, mutants: readonly Mutant[], o: RunMutantsOptions): Promise<TaskProbeResult> {
  const req = (id: string, patch: Buffer): VerifyRequest => ({ task, attemptId: GOLD_PROBE, probe: { id, patch }, force: true, ...(o.timeoutSec ? { timeoutSec: o.timeoutSec } : {}) });
  const goldId = o.service.enqueue(req(GOLD_PROBE, set.gold));
  const ids = mutants.map((m) => ({ m, id: o.service.enqueue(req(m.id, Buffer.from(m.patch, 'utf8'))) }));
  let cancelled = 0;
  let engineError: EngineUnavailableError | undefined;
  const runs = await Promise.all(
    ids.map(async ({ m, id }): Promise<MutantRun | undefined> => {
      const out = await o.service.queue.result(id);
      let r: MutantRun | undefined;
      if (out.state === 'done') r = { mutant: m, run: out.value };
      else if (out.state === 'failed') {
        if (out.error instanceof EngineUnavailableError) engineError = out.error;
        r = { mutant: m, error: errorText(out.error) };
      } else cancelled++;
      if (r) o.onResult?.(task, r);
      return r;
    }),
  );
  const g = await o.service.queue.result(goldId);
  if (engineError) throw engineError;
  if (g.state === 'failed' && g.error instanceof EngineUnavailableError) throw g.error;
  if (g.state === 'cancelled') cancelled++;
  const gold =
    g.state === 'done' ? { status: g.value.status, reason: g.value.reason } : { status: g.state === 'failed' ? 'error' : 'cancelled', reason: g.state === 'failed' ? errorText(g.error) : 'cancelled' };
  const report = mutationReport(task, gold, set, runs.filter((r): r is MutantRun => r !== undefined), (o.now ?? (() => new Date()))());
  if (cancelled > 0 || o.persist === false) return { report, cancelled };
  const file = mutantsReportPath(task.id);
  await writeFileAtomicInAsync(o.datasetRoot, file, `${JSON.stringify(report, null, 2)}\n`);
  return { report, file, cancelled };
}

/** Generates a task's mutants (at most `cap`) and runs them: `generateMutants` then `runMutants`. */
export async function probeMutants(task: CandidateTask, cap: number, o: RunMutantsOptions): Promise<TaskProbeResult> {
  const set = await generateMutants(o.datasetRoot, task, cap);
  return runMutants(task, set, set.mutants, o);
}
