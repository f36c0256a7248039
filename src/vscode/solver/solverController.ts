// "Run Fresh Trials" in the workbench (issue 14): the solver settings' trials per model on one task, through the one
// batch loop (app/freshTrials.ts) on the repair endpoint, each landed attempt verified through the verifier's one
// queue. A progress notification (Cancel ends the trials under way at their next step and keeps their attempts), a
// line per finished trial in the "SpecWeave Solver" output channel, a closing message with the verdicts. The new
// attempt shows in the task view from its first write, and its trajectory column follows the steps: the task's folder
// is read again (throttled) after every step, so the open task view starts over with a fresh trajectory cache.
import * as vscode from 'vscode';
import { notify } from '../notify';
import type { VerifierService } from '../../adapters/docker/verifyService';
import { EngineUnavailableError } from '../../adapters/docker/engine';
import { EndpointMemory } from '../../adapters/llm/client';
import { Redactor } from '../../adapters/llm/redact';
import type { TrialEvent, TrialResult } from '../../app/freshTrials';
import { queueVerifier, runFreshTrials, trialJobs } from '../../app/freshTrials';
import { llmTrialModel } from '../../app/solverTrial';
import type { ActiveTask } from '../activeTask';
import { SOLVER_CMD } from '../commandIds';
import type { DisposableStore } from '../disposables';
import { Emitter } from '../emitter';
import { repairEndpoint } from '../llmClients';
import type { OpenDataset } from '../openDataset';
import { commandRegistrar } from '../reportingCommand';
import { readSolverSettings } from '../settings';
import { UNTRUSTED_REASON, requireTrust } from '../trust';
import { Throttle } from './throttle';

export { SOLVER_CMD };

export const SOLVER_OUTPUT_CHANNEL = 'SpecWeave Solver';

/** Reads of a task's folder while its trials take steps: at most one per this many milliseconds. */
const STEP_REFRESH_MS = 250;

export interface SolverDeps {
  secrets: vscode.SecretStorage;
  /** The open dataset's owner: its tasks, and reading one task's folder again. */
  owner: OpenDataset;
  activeTask: ActiveTask;
  log: vscode.LogOutputChannel;
  /** The window's one verifier queue (the verifier feature's); the caller of sharedService checks trust first. */
  verifier: { sharedService(): VerifierService | undefined };
}

export interface TrialsCommandResult {
  state: 'done' | 'cancelled' | 'untrusted' | 'no-dataset' | 'no-task' | 'no-key' | 'no-engine';
  results: TrialResult[];
  message?: string;
}

function taskIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object' && 'taskId' in arg && typeof arg.taskId === 'string') return arg.taskId;
  return undefined;
}

const hhmmss = (): string => new Date().toTimeString().slice(0, 8);

/** One finished trial, as the output channel and the closing message say it. */
export function trialLine(r: TrialResult): string {
  if (r.error && !r.attemptId) return `${r.task} ${r.model}: error: ${r.error}`;
  const verdict = r.verdict ? `; verifier: ${r.verdict}` : '';
  const error = r.error ? `; error: ${r.error}` : '';
  return `${r.task} ${r.model}: attempt ${r.attemptId ?? '?'} ${r.exitStatus ?? ''} after ${r.steps ?? 0} step(s), ${(r.promptTokens ?? 0) + (r.completionTokens ?? 0)} tokens, $${(r.costUsd ?? 0).toFixed(4)}${verdict}${error}`;
}

export class SolverController implements vscode.Disposable {
  readonly output: vscode.OutputChannel;
  private readonly redactor = new Redactor();
  private readonly memory = new EndpointMemory();
  /** The batches under way: Cancel on a notification aborts its own; cancelAll aborts every one. */
  private readonly batches = new Set<AbortController>();
  private readonly events = new Emitter<TrialEvent>();
  /** Every event of every batch (after the task's folder was read again for it), for tests and other views. */
  readonly onDidEvent = this.events.event;

  constructor(private readonly d: SolverDeps) {
    this.output = vscode.window.createOutputChannel(SOLVER_OUTPUT_CHANNEL);
  }

  register(store: DisposableStore): void {
    const reg = commandRegistrar(store, this.d.log, { prefix: 'SpecWeave: ', redact: (t) => this.redactor.redact(t) });
    reg(SOLVER_CMD.runTrials, (arg) => this.runTrials(arg));
  }

  dispose(): void {
    this.cancelAll();
    this.events.dispose();
    this.output.dispose();
  }

  /** Cancels every batch under way (as their notifications' Cancel does); returns how many. */
  cancelAll(): number {
    const n = this.batches.size;
    for (const ac of this.batches) ac.abort();
    return n;
  }

  private line(text: string): void {
    this.output.appendLine(`[${hhmmss()}] ${this.redactor.redact(text)}`);
  }

  private async pickTask(arg: unknown): Promise<string | undefined> {
    const given = taskIdOf(arg) ?? this.d.activeTask.taskId;
    if (given) return given;
    const pick = await vscode.window.showQuickPick(
      this.d.owner.tasks.tasks.map((t) => ({ label: t.id, description: t.title })),
      { title: 'Run Fresh Trials: which task?', ignoreFocusOut: true },
    );
    return pick?.label;
  }

  /** The command: fresh trials of one task (the argument, the tree item, the active task, or a pick). */
  async runTrials(arg: unknown): Promise<TrialsCommandResult> {
    if (!(await requireTrust('Running fresh solver trials'))) return { state: 'untrusted', results: [], message: UNTRUSTED_REASON };
    const root = this.d.owner.root;
    if (!root) {
      void notify.warn('SpecWeave: open a dataset first: fresh trials run on its tasks.');
      return { state: 'no-dataset', results: [] };
    }
    const taskId = await this.pickTask(arg);
    const task = taskId ? this.d.owner.tasks.task(taskId) : undefined;
    if (!task) {
      if (taskId) void notify.warn(`SpecWeave: there is no task ${taskId} in the open dataset.`);
      return { state: 'no-task', results: [] };
    }
    const endpoint = await repairEndpoint(this.d.secrets, this.redactor, this.memory, (baseUrl) => `Run Fresh Trials of ${task.id}: no API key for ${baseUrl}.`, {
      continueWith: () => void vscode.commands.executeCommand(SOLVER_CMD.runTrials, task.id),
    });
    if (!endpoint) return { state: 'no-key', results: [], message: 'no API key' };
    const service = this.d.verifier.sharedService();
    if (!service) return { state: 'no-dataset', results: [] };
    try {
      await service.checkEngine();
    } catch (e) {
      if (!(e instanceof EngineUnavailableError)) throw e;
      void notify.error(`SpecWeave: fresh trials cannot run. ${e.message}`);
      return { state: 'no-engine', results: [], message: e.message };
    }
    const settings = readSolverSettings();
    const jobs = trialJobs([task], settings.models, settings.trials);
    const clients = new Map(settings.models.map((m) => [m, llmTrialModel(endpoint.client(m))]));
    this.line(`${task.id}: ${jobs.length} fresh trial(s) of ${settings.models.join(', ')} at ${endpoint.settings.baseUrl} (step limit ${settings.limits.stepLimit}, cost limit $${settings.limits.costLimitUsd})`);
    const ac = new AbortController();
    this.batches.add(ac);
    const refresh = new Throttle(() => this.d.owner.refreshTasks([task.id]), STEP_REFRESH_MS);
    const results: TrialResult[] = [];
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Fresh trials of ${task.id}`, cancellable: true },
        async (progress, token) => {
          const sub = token.onCancellationRequested(() => ac.abort());
          try {
            await runFreshTrials({
              root,
              jobs,
              engine: service.engine,
              modelFor: (m) => clients.get(m) ?? llmTrialModel(endpoint.client(m)),
              limits: settings.limits,
              concurrency: settings.concurrency,
              signal: ac.signal,
              // The owner reads the task's folder again (the throttled read, made now): the one copy of the task.
              reloadTask: (id) => {
                refresh.flush();
                return this.d.owner.tasks.task(id);
              },
              verify: queueVerifier(service),
              onEvent: (e) => {
                this.onEvent(e, progress, refresh);
                if (e.kind === 'done') results.push(e.result);
              },
            });
          } finally {
            sub.dispose();
          }
        },
      );
    } finally {
      this.batches.delete(ac);
      // What the last steps wrote is read now, not after the throttle's wait.
      refresh.flush();
    }
    return this.summarize(task.id, results, ac.signal.aborted);
  }

  private onEvent(e: TrialEvent, progress: vscode.Progress<{ message?: string; increment?: number }>, refresh: Throttle): void {
    const job = `${e.job.model}`;
    switch (e.kind) {
      case 'start':
        this.line(`▶ ${e.job.task.id} ${job}: trial ${e.index + 1}/${e.total} starts`);
        progress.report({ message: `trial ${e.index + 1}/${e.total}: ${job} starting` });
        break;
      case 'step':
        progress.report({ message: `${job}: step ${e.run.stats.steps}, $${e.run.stats.costUsd.toFixed(4)}` });
        refresh.poke();
        break;
      case 'landed':
        progress.report({ message: `${job}: ${e.outcome.exitStatus} after ${e.outcome.steps} step(s); verifying` });
        break;
      case 'done':
        if (e.result.error) e.result.error = this.redactor.redact(e.result.error);
        this.line(`■ ${trialLine(e.result)}`);
        progress.report({ increment: 100 / e.total, message: `${e.finished}/${e.total} done` });
        break;
    }
    this.events.fire(e);
  }

  private summarize(taskId: string, results: TrialResult[], cancelled: boolean): TrialsCommandResult {
    const passed = results.filter((r) => r.verdict === 'passed').length;
    const verdicts = results.map((r) => `${r.model} ${r.error && !r.attemptId ? 'error' : (r.verdict ?? r.exitStatus ?? '?')}`).join(', ');
    const message = `${results.length} fresh trial(s) of ${taskId}${cancelled ? ' (cancelled)' : ''}: ${passed} passed the verifier${verdicts ? ` — ${verdicts}` : ''}.`;
    this.line(message);
    const show = 'Show Output';
    const errors = results.some((r) => r.error);
    void (errors ? notify.warn(`SpecWeave: ${message}`, show) : notify.info(`SpecWeave: ${message}`, show)).then((p) => {
      if (p === show) this.output.show(true);
    });
    return { state: cancelled ? 'cancelled' : 'done', results, message };
  }
}
