// A batch of fresh solver trials (issue 14), shared by `specweave solve`, the workbench's "Run Fresh Trials" and the
// revalidation after a repair: the jobs (task x model x trial) run a few at a time through runTrial, each landed
// attempt is verified through the verifier's one queue, and every change is reported as an event, so the CLI prints
// lines and the workbench shows progress from the same loop. A job's failure is its own result; it never stops the
// others. Cancelling (the signal) ends the trials under way at their next step, keeps their attempts, and starts no
// more.
import type { Engine } from '../adapters/docker/engine';
import type { VerifierService } from '../adapters/docker/verifyService';
import type { CandidateTask } from '../core/model';
import type { SolverLimits } from '../core/solver/agent';
import { errorText } from '../core/errorText';
import type { SolverRun } from '../core/solver/agent';
import type { TrialModel, TrialOutcome } from './solverTrial';
import { runTrial, trialAttemptId } from './solverTrial';

export interface TrialJob {
  task: CandidateTask;
  model: string;
}

/** What one job came to: the trial's outcome (when it ran), the verifier's verdict (when it was verified). */
export interface TrialResult extends Partial<TrialOutcome> {
  task: string;
  model: string;
  /** The verifier's status (`passed`, `failed`, ...), `no patch`, or the queue's end (`cancelled`). */
  verdict?: string;
  runId?: string;
  error?: string;
}

export type TrialEvent =
  | { kind: 'start'; job: TrialJob; index: number; total: number }
  | { kind: 'step'; job: TrialJob; attemptId: string; run: SolverRun }
  | { kind: 'landed'; job: TrialJob; outcome: TrialOutcome }
  | { kind: 'done'; job: TrialJob; result: TrialResult; finished: number; total: number };

/** Verifies one landed attempt; resolves to the verdict (and the run's id when a run was recorded). */
export type TrialVerifier = (task: CandidateTask, attemptId: string, signal: AbortSignal | undefined) => Promise<{ verdict: string; runId?: string; error?: string }>;

export interface FreshTrialsOptions {
  root: string;
  jobs: readonly TrialJob[];
  engine: Engine;
  /** The trial model of a model name (one client per model, made by the caller). */
  modelFor: (model: string) => TrialModel;
  limits?: Partial<SolverLimits>;
  concurrency: number;
  signal?: AbortSignal;
  /** The task as it is after its trial landed (with the new attempt), read again by the caller's owner of tasks. */
  reloadTask: (taskId: string) => CandidateTask | undefined;
  /** Absent: the attempts land unverified. */
  verify?: TrialVerifier;
  onEvent?: (e: TrialEvent) => void;
}

/** Every (task, model, trial) job, tasks in the order given (each once), models in the order given. */
export function trialJobs(tasks: readonly CandidateTask[], models: readonly string[], trials: number): TrialJob[] {
  const jobs: TrialJob[] = [];
  const seen = new Set<string>();
  for (const task of tasks) {
    if (seen.has(task.id)) continue;
    seen.add(task.id);
    for (const model of models) for (let i = 0; i < trials; i++) jobs.push({ task, model });
  }
  return jobs;
}

/** A TrialVerifier over the verifier service's queue (the one queue every verify of the process goes through). */
export function queueVerifier(service: VerifierService): TrialVerifier {
  return async (task, attemptId, signal) => {
    const id = service.enqueue({ task, attemptId });
    const onAbort = () => service.queue.cancel(id);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const r = await service.queue.result(id);
      return r.state === 'done' ? { verdict: r.value.status, runId: r.value.runId } : r.state === 'failed' ? { verdict: 'failed to run', error: errorText(r.error) } : { verdict: r.state };
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  };
}

export async function runFreshTrials(o: FreshTrialsOptions): Promise<TrialResult[]> {
  const results: TrialResult[] = [];
  const total = o.jobs.length;
  let next = 0;
  let finished = 0;
  const worker = async () => {
    while (next < total && !o.signal?.aborted) {
      const index = next++;
      const job = o.jobs[index] as TrialJob;
      const result: TrialResult = { task: job.task.id, model: job.model };
      o.onEvent?.({ kind: 'start', job, index, total });
      try {
        const attemptId = trialAttemptId(job.model, new Date());
        const outcome = await runTrial({
          root: o.root,
          task: job.task,
          engine: o.engine,
          model: o.modelFor(job.model),
          modelName: job.model,
          ...(o.limits ? { limits: o.limits } : {}),
          ...(o.signal ? { signal: o.signal } : {}),
          attemptId,
          onStep: (run) => o.onEvent?.({ kind: 'step', job, attemptId, run }),
        });
        Object.assign(result, outcome);
        o.onEvent?.({ kind: 'landed', job, outcome });
        if (outcome.patchBytes === 0) result.verdict = 'no patch';
        else if (o.verify && !o.signal?.aborted) {
          const task = o.reloadTask(job.task.id);
          if (!task?.attempts.some((a) => a.id === outcome.attemptId)) throw new Error(`the new attempt ${outcome.attemptId} of task ${job.task.id} could not be read back`);
          Object.assign(result, await o.verify(task, outcome.attemptId, o.signal));
        }
      } catch (e) {
        result.error = errorText(e);
      }
      finished++;
      results.push(result);
      o.onEvent?.({ kind: 'done', job, result, finished, total });
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, o.concurrency), total) }, () => worker()));
  return results;
}
