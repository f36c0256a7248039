// The verifier side of the review from persisted verifier runs (see docs/verifier.md): per attempt the newest run
// that reached a result, whether it is stale, and the oracle-probe flags.
import type { CandidateTask } from '../model';
import type { RunView } from '../verify/oracle';
import { attemptFlags, flakyFlags, taskFlags } from '../verify/oracle';
import { runInputs, staleReasons } from '../verify/inputs';
import type { VerifierRunRecord } from '../verify/runResult';
import type { AttemptVerifierResult, TaskVerifierResults, VerifierFlag } from './verdicts';
import { flagId } from './verdicts';
import { EMPTY_PROBE, GOLD_PROBE } from '../model';

/** The current patch texts, to tell when a run's inputs changed; without them only the task revision is compared. */
export interface CurrentPatches {
  testPatch: Uint8Array | string;
  /** By attempt id (`gold` for the gold patch; the empty probe needs none). */
  attempts: ReadonlyMap<string, Uint8Array | string>;
}

/** The run a verdict rests on: the newest one that is not an infrastructure error, else the newest. */
export function pickRun(runs: readonly VerifierRunRecord[]): VerifierRunRecord | undefined {
  const sorted = [...runs].sort((a, b) => (a.runId < b.runId ? 1 : a.runId > b.runId ? -1 : 0));
  return sorted.find((r) => r.status !== 'infra_error') ?? sorted[0];
}

function staleness(task: CandidateTask, run: VerifierRunRecord, current: CurrentPatches | undefined): string[] {
  const reasons: string[] = [];
  if (run.taskRevision !== task.revision) reasons.push(`made on revision ${run.taskRevision}, the task is at revision ${task.revision}`);
  if (!current) return reasons;
  const patch = run.attemptId === EMPTY_PROBE ? '' : current.attempts.get(run.attemptId);
  if (patch === undefined) return reasons;
  const now = runInputs({ task, testPatch: current.testPatch, attemptPatch: patch, imageId: '', timeoutSec: run.timeoutSec });
  for (const r of staleReasons(run.inputs, now)) if (!reasons.includes(`${r} changed`)) reasons.push(`${r} changed`);
  return reasons;
}

/** Builds a task's verifier results from its stored runs (by attempt id, gold and empty included). */
export function verifierResultsFromRuns(
  task: CandidateTask,
  runs: ReadonlyMap<string, readonly VerifierRunRecord[]>,
  current?: CurrentPatches,
): TaskVerifierResults {
  const attempts: Record<string, AttemptVerifierResult> = {};
  const picked = new Map<string, VerifierRunRecord>();
  const known = new Set([GOLD_PROBE, EMPTY_PROBE, ...task.attempts.map((a) => a.id)]);
  for (const [attemptId, list] of runs) {
    if (!known.has(attemptId)) continue;
    const run = pickRun(list);
    if (!run) continue;
    picked.set(attemptId, run);
    const reasons = staleness(task, run, current);
    attempts[attemptId] = {
      source: 'run',
      runId: run.runId,
      status: run.status,
      resolved: run.resolved,
      specs: { ...run.specs },
      tests: { ...run.grade.tests },
      revision: run.taskRevision,
      ...(reasons.length > 0 ? { stale: true, staleReasons: reasons } : {}),
      imageId: run.imageId,
      startedAt: run.timings.startedAt,
    };
  }
  // Flags only from runs of the current revision: an old probe says nothing about the revised tests.
  const current_ = (id: string): RunView | undefined => {
    const r = picked.get(id);
    return r && r.taskRevision === task.revision ? r : undefined;
  };
  const gold = current_(GOLD_PROBE);
  const empty = current_(EMPTY_PROBE);
  const raw = taskFlags(task, { ...(gold ? { gold } : {}), ...(empty ? { empty } : {}) });
  const flags = [...raw];
  for (const a of task.attempts) {
    const run = current_(a.id);
    if (run) flags.push(...attemptFlags(task, run, raw));
  }
  for (const [attemptId, list] of runs) {
    const run = picked.get(attemptId);
    if (!run || run.taskRevision !== task.revision) continue;
    const repeats = list.filter((r) => r.inputs.key === run.inputs.key);
    if (repeats.length > 1) flags.push(...flakyFlags(attemptId, repeats));
  }
  const seen = new Set<string>();
  const out: VerifierFlag[] = [];
  for (const f of flags) {
    const id = flagId(f);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ id, kind: f.kind, message: f.message, ...(f.test ? { test: f.test } : {}), ...(f.spec ? { spec: f.spec } : {}), ...(f.attemptId ? { attempt: f.attemptId } : {}) });
  }
  return { attempts, flags: out };
}
