// The verifier in VS Code: "Run Verifier" on an attempt, the gold or empty patch, a task (every attempt plus the
// oracle probes) or a selection of tasks, all through ONE VerifierService queue built here; a progress notification
// per batch (cancel = cancel that batch's runs), a live log in the "SpecWeave Verifier" output channel, a status bar
// item for the queue, and the task view's result matrices from the stored runs (stale ones marked). The engine is
// found from the `specweave.docker.host` setting, DOCKER_HOST or the default socket, and nothing contacts it until
// a run is asked for. Every command that runs code checks workspace trust first.
import { commandRegistrar } from '../reportingCommand';
import { noImageReason } from '../../core/dataset';
import { imageRefProblem, setTaskImage } from '../../app/setTaskImage';
import { StringDecoder } from 'node:string_decoder';
import * as vscode from 'vscode';
import { notify } from '../notify';
import { EngineUnavailableError } from '../../adapters/docker/engine';
import type { VerifyRequest } from '../../adapters/docker/verifyService';
import { sweepAtStartup } from '../../adapters/docker/sweep';
import { VerifierService, machineConcurrency } from '../../adapters/docker/verifyService';
import { resolveDatasetPath } from '../../adapters/fs/datasetLoader';
import { pickRun, verifierResultsFromRuns } from '../../core/review/fromRuns';
import { withRecordedFallback } from '../../core/review/verdicts';
import { findTestLine, resultsView, runVerdict } from '../../core/view/results';
import type { JobOutcome, QueueProgress } from '../../core/verify/queue';
import type { VerifierRunRecord } from '../../core/verify/runResult';
import { EMPTY_PROBE, GOLD_PROBE } from '../../core/model';
import type { RequestMap } from '../../protocol/messages';
import type { ActiveTask } from '../activeTask';
import type { CandidateNode } from '../candidatesTree';
import type { DisposableStore } from '../disposables';
import { Emitter } from '../emitter';
import type { OpenDataset } from '../openDataset';
import { readSettings } from '../settings';
import type { TaskViewSection, TaskViewSectionPart } from '../taskSections';
import { UNTRUSTED_REASON, requireTrust } from '../trust';
import { QueueStatusItem, formatDuration } from './queueStatus';
import { RUN_LOG_SCHEME, RunLogDocuments, runLogUri } from './runLogDocuments';
import { errorText } from '../../core/errorText';
import type { Backend } from '../../core/verify/backend';
import { constraintProblem, namespaceProblem, parseBackend, runPlace } from '../../core/verify/backend';
import type { NodeCount, QueueRunRow } from '../../core/verify/queueView';
import { nodeCounts, queueRowText, queueStatusText, sortQueueRows } from '../../core/verify/queueView';
import type { PoolMemberSpec } from '../../adapters/docker/enginePool';
import { PoolConfigError, parsePoolMembers } from '../../adapters/docker/enginePool';
import { CMD, VERIFIER_CMD } from '../commandIds';

export { VERIFIER_CMD };

/** Context key: runs are queued or running (shows "Cancel All Verifier Runs"). */
export const CTX_VERIFIER_BUSY = 'specweave.verifierBusy';
export const OUTPUT_CHANNEL = 'SpecWeave Verifier';

/** Bytes of one run's output echoed live to the output channel; the whole kept log is stored with the run. */
const LIVE_BYTES = 256 * 1024;
const LIVE_LINE_CHARS = 2000;

export interface VerifierDeps {
  /** The open dataset's owner: its tasks, its one run index (runs and current patches), its change event. */
  owner: OpenDataset;
  treeView: vscode.TreeView<CandidateNode>;
  activeTask: ActiveTask;
  log: vscode.LogOutputChannel;
}

export interface RunOutcomeSummary {
  taskId: string;
  attemptId: string;
  status: string;
  resolved: boolean;
  runId: string;
  reused: boolean;
}

export interface VerifierBatchResult {
  state: 'done' | 'untrusted' | 'no-dataset' | 'no-engine' | 'nothing';
  message?: string;
  runs: RunOutcomeSummary[];
  cancelled: number;
  errors: Array<{ taskId: string; attemptId: string; error: string }>;
}

/** What one command asks to verify in one task. */
interface TaskSelection {
  taskId: string;
  /** Attempt ids (`gold` and `empty` allowed), or every attempt. */
  attempts: 'all' | string[];
  /** Add the gold and empty probes (they tell a suspect verdict; reused when nothing changed). */
  probes: boolean;
}

interface ServiceSlot {
  service: VerifierService;
  root: string;
  host: string;
  warm: boolean;
  /** The backend and its engines as set when the service was made (`local`, or `pool` with its members). */
  where: string;
}

/** Where runs go, from the settings, as the service takes it. */
export interface BackendChoice {
  backend: Backend;
  pool?: PoolMemberSpec[];
  swarmConstraints?: string[];
  namespace?: string;
}

/**
 * Where runs go, from the settings: `local`; `pool` with the members of `specweave.verifier.pool`; `swarm` on the
 * swarm of `specweave.docker.host` (a manager) with `specweave.verifier.swarmConstraints`; `kubernetes` on the
 * kubeconfig's cluster in `specweave.verifier.kubernetesNamespace`. Else why not, naming the setting.
 */
export function backendFromSettings(set: { verifierBackend: string; verifierPool: unknown; verifierWarm?: boolean; verifierSwarmConstraints?: unknown; verifierKubernetesNamespace?: string }): ({ ok: true } & BackendChoice) | { ok: false; message: string } {
  const parsed = parseBackend(set.verifierBackend, 'specweave.verifier.backend');
  if (parsed.ok && (parsed.backend === 'swarm' || parsed.backend === 'kubernetes') && set.verifierWarm) {
    return { ok: false, message: `specweave.verifier.warm: warm containers are for the local and pool backends; a ${parsed.backend === 'swarm' ? 'swarm task' : 'Kubernetes Job'} is a container of its own (specweave.verifier.backend is "${parsed.backend}")` };
  }
  if (parsed.ok && parsed.backend === 'swarm') {
    const list = set.verifierSwarmConstraints ?? [];
    if (!Array.isArray(list) || list.some((e) => typeof e !== 'string')) return { ok: false, message: 'specweave.verifier.swarmConstraints: must be a list of placement constraints, each KEY==VALUE or KEY!=VALUE' };
    const bad = (list as string[]).map((c, i) => constraintProblem(c, `specweave.verifier.swarmConstraints entry ${i + 1}`)).find((m) => m !== undefined);
    if (bad !== undefined) return { ok: false, message: bad };
    return { ok: true, backend: 'swarm', ...(list.length > 0 ? { swarmConstraints: list as string[] } : {}) };
  }
  if (parsed.ok && parsed.backend === 'kubernetes') {
    const ns = set.verifierKubernetesNamespace ?? '';
    const bad = ns !== '' ? namespaceProblem(ns, 'specweave.verifier.kubernetesNamespace') : undefined;
    if (bad !== undefined) return { ok: false, message: bad };
    return { ok: true, backend: 'kubernetes', ...(ns !== '' ? { namespace: ns } : {}) };
  }
  if (!parsed.ok || parsed.backend !== 'pool') return parsed;
  const entries = set.verifierPool;
  if (!Array.isArray(entries) || entries.some((e) => typeof e !== 'string')) {
    return { ok: false, message: 'specweave.verifier.pool: must be a list of engine addresses, each "ADDRESS" or "ADDRESS,capacity=N"' };
  }
  try {
    return { ok: true, backend: 'pool', pool: parsePoolMembers(entries as string[], 'specweave.verifier.pool') };
  } catch (e) {
    if (e instanceof PoolConfigError) return { ok: false, message: `${e.message} (specweave.verifier.backend is "pool")` };
    throw e;
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const hhmmss = (): string => new Date().toTimeString().slice(0, 8);

/** Tree nodes (the clicked one and, with several selected, all of them) or plain ids, as commands receive them. */
function nodesOf(arg: unknown, all: unknown): Array<{ taskId: string; column?: string }> {
  const list = Array.isArray(all) && all.length > 0 ? all : [arg];
  const out: Array<{ taskId: string; column?: string }> = [];
  for (const n of list) {
    if (typeof n === 'string') out.push({ taskId: n });
    else if (isObj(n) && str(n.taskId)) out.push({ taskId: n.taskId as string, ...(str(n.column) ? { column: n.column as string } : {}) });
  }
  return out;
}

function label(attemptId: string): string {
  return attemptId === GOLD_PROBE ? 'gold patch' : attemptId === EMPTY_PROBE ? 'empty patch' : attemptId;
}

function counts(r: VerifierRunRecord): string {
  const n = (l: { success: string[]; failure: string[]; missing: string[]; skipped: string[] }) => l.success.length + l.failure.length + l.missing.length + l.skipped.length;
  return `F2P ${r.grade.failToPass.success.length}/${n(r.grade.failToPass)}  P2P ${r.grade.passToPass.success.length}/${n(r.grade.passToPass)}`;
}

export class VerifierController implements vscode.Disposable {
  readonly output: vscode.OutputChannel;
  readonly documents: RunLogDocuments;
  readonly statusItem: QueueStatusItem;
  private slot: ServiceSlot | undefined;
  private readonly sectionChanges = new Emitter<readonly string[] | undefined>();
  /** The verifier's part of the task view: result matrices and column verdicts, from the owner's run index. */
  readonly section: TaskViewSection = { name: 'verifier results', onDidChange: this.sectionChanges.event, contribute: (taskId) => this.sectionOf(taskId) };
  private readonly started = new Set<string>();
  /** Fired whenever the queue's runs or their placements change (the open queue view follows it). */
  private readonly queueChanges = new Emitter<void>();
  /** Queue views open now (tests wait for one). */
  openQueueViews = 0;
  private readonly live = new Map<VerifyRequest, { bytes: number; capped: boolean; decoders: Record<'stdout' | 'stderr', StringDecoder>; partial: Record<'stdout' | 'stderr', string> }>();
  private readonly refreshTimers = new Map<string, NodeJS.Timeout>();
  private readonly store: vscode.Disposable[] = [];

  constructor(private readonly d: VerifierDeps) {
    this.output = vscode.window.createOutputChannel(OUTPUT_CHANNEL);
    this.documents = new RunLogDocuments(() => d.owner.root);
    this.statusItem = new QueueStatusItem(VERIFIER_CMD.showQueue);
    this.store.push(
      d.owner.tasks.onDidChange((c) => {
        if (c.kind === 'opened' || c.kind === 'closed') this.datasetChanged();
      }),
      // Runs stored by anyone (this window, the CLI, another window): the owner's one watcher tells.
      d.owner.onDidChange((c) => {
        if (c.runs === 'all') this.sectionChanges.fire(undefined);
        else for (const id of c.runs ?? []) this.scheduleRefresh(id);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('specweave.verifier.concurrency') && this.slot) this.slot.service.queue.setConcurrency(this.concurrency());
      }),
    );
  }

  register(store: DisposableStore): void {
    store.add(vscode.workspace.registerTextDocumentContentProvider(RUN_LOG_SCHEME, this.documents));
    const reg = commandRegistrar(store, this.d.log, { prefix: 'SpecWeave: ' });
    // The trust check comes first, before any picker: in Restricted Mode nothing but the reason is shown.
    const trusted =
      (fn: (...args: unknown[]) => Promise<VerifierBatchResult>) =>
      async (...args: unknown[]): Promise<VerifierBatchResult> =>
        (await requireTrust('Running the verifier')) ? fn(...args) : { state: 'untrusted', message: UNTRUSTED_REASON, runs: [], cancelled: 0, errors: [] };
    reg(VERIFIER_CMD.runAttempt, trusted((arg, all, attemptArg) => this.runAttemptCommand(arg, all, attemptArg)));
    reg(VERIFIER_CMD.runGold, trusted((arg, all) => this.runProbeCommand(GOLD_PROBE, arg, all)));
    reg(VERIFIER_CMD.runEmpty, trusted((arg, all) => this.runProbeCommand(EMPTY_PROBE, arg, all)));
    reg(VERIFIER_CMD.runTask, trusted((arg, all) => this.runTaskCommand(arg, all)));
    reg(VERIFIER_CMD.runTasks, trusted((arg) => this.runTasksCommand(arg)));
    reg(VERIFIER_CMD.cancelAll, () => this.cancelAll());
    reg(VERIFIER_CMD.showLog, () => {
      this.output.show(true);
      return true;
    });
    reg(VERIFIER_CMD.showQueue, () => this.showQueue());
    reg(VERIFIER_CMD.setImage, (arg, image) => this.setImageCommand(arg, image));
    // Containers a killed window or CLI left are removed at start, not only before the first run; a local engine
    // only, silently when there is none. Restricted Mode contacts no engine.
    if (vscode.workspace.isTrusted) void this.sweepAtStart();
  }

  private async sweepAtStart(): Promise<void> {
    const ids = await sweepAtStartup({ host: readSettings().dockerHost || undefined });
    if (ids.length > 0) this.line(`removed ${ids.length} container(s) left by an earlier run`);
  }

  dispose(): void {
    // Running containers are killed and removed; what a crash leaves is swept at the next start.
    this.slot?.service.queue.cancelAll();
    for (const t of this.refreshTimers.values()) clearTimeout(t);
    for (const s of this.store) s.dispose();
    this.sectionChanges.dispose();
    this.statusItem.dispose();
    this.documents.dispose();
    this.output.dispose();
  }

  /** The shared service, if one was built (for tests). */
  get service(): VerifierService | undefined {
    return this.slot?.service;
  }

  /**
   * The window's one verifier queue for the open dataset, built on first use, for other features that run the
   * verifier (e.g. revalidating a repair), so their runs show in the same log, status bar and task view. The caller
   * checks workspace trust first; undefined when no dataset is open.
   */
  sharedService(): VerifierService | undefined {
    const root = this.d.owner.tasks.root;
    return root ? this.serviceFor(root) : undefined;
  }

  // ---- the one service --------------------------------------------------------------------------------------------

  private concurrency(): number {
    const set = readSettings().verifierConcurrency;
    if (set !== undefined) return set;
    let mem = 0;
    for (const t of this.d.owner.tasks.tasks) mem = Math.max(mem, t.environment.limits.memoryMb);
    return machineConcurrency(mem > 0 ? mem : undefined);
  }

  private busy(): boolean {
    const p = this.slot?.service.queue.progress();
    return p !== undefined && p.running + p.queued > 0;
  }

  /**
   * The service every command shares, for this dataset and engine setting. A changed engine setting applies once
   * the queue is idle: runs already queued keep the engine they were queued for.
   */
  private serviceFor(root: string, backend: BackendChoice = { backend: 'local' }): VerifierService {
    const { dockerHost: host, verifierWarm: warm } = readSettings();
    const where =
      backend.backend === 'pool'
        ? `pool ${(backend.pool ?? []).map((m) => `${m.host},capacity=${m.capacity}`).join(' ')}`
        : backend.backend === 'swarm'
          ? `swarm ${(backend.swarmConstraints ?? []).join(' ')}`
          : backend.backend === 'kubernetes'
            ? `kubernetes ${backend.namespace ?? ''}`
            : 'local';
    const s = this.slot;
    if (s && s.root === root && ((s.host === host && s.warm === warm && s.where === where) || this.busy())) {
      if (s.host !== host || s.where !== where) this.line(`the engine settings changed; they apply once the current runs have finished`);
      return s.service;
    }
    if (s && s.root !== root) s.service.queue.cancelAll();
    const service: VerifierService = new VerifierService({
      datasetRoot: root,
      engine: { host: host || undefined },
      concurrency: backend.backend === 'pool' ? (backend.pool ?? []).reduce((n, m) => n + m.capacity, 0) : this.concurrency(),
      log: (l) => this.line(`  ${l}`),
      onOutput: (req, stream, chunk) => this.onOutput(req, stream, chunk),
      onProgress: (p) => this.onProgress(service, p),
      onSettled: (id, req, o) => this.onSettled(service, id, req, o),
      onPlaced: () => this.onProgress(service, service.queue.progress()),
      warm,
      ...(backend.backend === 'pool' ? { backend: 'pool' as const, pool: backend.pool ?? [] } : {}),
      ...(backend.backend === 'swarm' ? { backend: 'swarm' as const, ...(backend.swarmConstraints ? { swarmConstraints: backend.swarmConstraints } : {}) } : {}),
      ...(backend.backend === 'kubernetes' ? { backend: 'kubernetes' as const, ...(backend.namespace ? { namespace: backend.namespace } : {}) } : {}),
    });
    if (s) void s.service.close().catch(() => undefined);
    this.slot = { service, root, host, warm, where };
    return service;
  }

  private datasetChanged(): void {
    const root = this.d.owner.root;
    this.documents.clear();
    if (this.slot && this.slot.root !== root) {
      if (this.busy()) this.line(`the dataset ${this.slot.root} was ${root ? 'replaced' : 'closed'}: cancelling its runs`);
      this.slot.service.queue.cancelAll();
      this.slot = undefined;
    }
  }

  // ---- queue events -----------------------------------------------------------------------------------------------

  private line(text: string): void {
    this.output.appendLine(`[${hhmmss()}] ${text}`);
  }

  private onProgress(service: VerifierService, p: QueueProgress): void {
    if (this.slot?.service !== service) return;
    const r = this.reading(service);
    this.statusItem.update(p, r.nodes, r.perNode);
    this.queueChanges.fire();
    void vscode.commands.executeCommand('setContext', CTX_VERIFIER_BUSY, p.running + p.queued > 0);
    for (const j of service.queue.jobs()) {
      if (j.state !== 'running' || this.started.has(j.id)) continue;
      this.started.add(j.id);
      this.line(`▶ ${j.job.task.id} ${label(j.job.attemptId)}${(j.job.repeat ?? 1) > 1 ? ` #${j.job.repeat}` : ''}: started`);
    }
  }

  private onOutput(req: VerifyRequest, stream: 'stdout' | 'stderr', chunk: Buffer): void {
    let s = this.live.get(req);
    if (!s) {
      s = { bytes: 0, capped: false, decoders: { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') }, partial: { stdout: '', stderr: '' } };
      this.live.set(req, s);
    }
    if (s.capped) return;
    s.bytes += chunk.length;
    const text = s.partial[stream] + s.decoders[stream].write(chunk);
    const lines = text.split('\n');
    s.partial[stream] = lines.pop() ?? '';
    if (s.partial[stream].length > LIVE_LINE_CHARS) {
      lines.push(s.partial[stream]);
      s.partial[stream] = '';
    }
    this.echo(req, stream, lines);
    if (s.bytes > LIVE_BYTES) {
      s.capped = true;
      this.output.appendLine(`  ${req.task.id}/${req.attemptId} | [… more output; the run keeps its first and last MiB: open it from the task view's results]`);
    }
  }

  private echo(req: VerifyRequest, stream: 'stdout' | 'stderr', lines: string[]): void {
    if (lines.length === 0) return;
    const tag = `  ${req.task.id}/${req.attemptId}${stream === 'stderr' ? ' (stderr)' : ''} | `;
    // One append per chunk: a flood of short lines must not become a flood of calls.
    this.output.append(lines.map((l) => `${tag}${l.length > LIVE_LINE_CHARS ? `${l.slice(0, LIVE_LINE_CHARS)}…` : l}\n`).join(''));
  }

  private onSettled(service: VerifierService, id: string, req: VerifyRequest, o: JobOutcome<VerifierRunRecord>): void {
    const s = this.live.get(req);
    if (s) {
      for (const stream of ['stdout', 'stderr'] as const) {
        const rest = s.partial[stream] + s.decoders[stream].end();
        if (rest && !s.capped) this.echo(req, stream, [rest]);
      }
      this.live.delete(req);
    }
    this.started.delete(id);
    const who = `${req.task.id} ${label(req.attemptId)}${(req.repeat ?? 1) > 1 ? ` #${req.repeat}` : ''}`;
    if (o.state === 'done') {
      const r = o.value;
      const place = runPlace(r);
      const where = r.reused ? '' : `  ${place.backend}${place.node ? `:${place.node}` : ''}${place.warm ? ' warm' : ''}`;
      this.line(`■ ${who}: ${r.status.toUpperCase()}  ${counts(r)}  apply=${r.apply.attempt.method}  ${r.reused ? 'reused (nothing changed since)' : `${(r.timings.totalMs / 1000).toFixed(1)}s`}${where}`);
      this.output.appendLine(`    ${r.reason}`);
      if (!r.reused && r.stdout.file) this.output.appendLine(`    log: ${r.stdout.file}`);
    } else if (o.state === 'cancelled') this.line(`■ ${who}: cancelled`);
    else this.line(`■ ${who}: not run: ${errorText(o.error)}`);
    // The owner forgets the task's runs and tells every view (this one refreshes through its section).
    if (this.slot?.service === service) this.d.owner.runsChanged([req.task.id]);
  }

  private scheduleRefresh(taskId: string): void {
    clearTimeout(this.refreshTimers.get(taskId));
    this.refreshTimers.set(
      taskId,
      setTimeout(() => {
        this.refreshTimers.delete(taskId);
        this.sectionChanges.fire([taskId]);
      }, 100),
    );
  }

  // ---- commands -------------------------------------------------------------------------------------------------

  private activeTaskId(): string | undefined {
    return this.d.activeTask.taskId;
  }

  private async pickTaskIds(many: boolean, title: string): Promise<string[]> {
    const items = this.d.owner.tasks.tasks.map((t) => ({ label: t.id, description: t.title }));
    if (many) {
      const picked = await vscode.window.showQuickPick(items, { title, canPickMany: true, matchOnDescription: true, ignoreFocusOut: true });
      return picked?.map((p) => p.label) ?? [];
    }
    const picked = await vscode.window.showQuickPick(items, { title, matchOnDescription: true, ignoreFocusOut: true });
    return picked ? [picked.label] : [];
  }

  private async runAttemptCommand(arg: unknown, all: unknown, attemptArg: unknown): Promise<VerifierBatchResult> {
    let nodes = nodesOf(arg, all).filter((n) => n.column !== undefined);
    // (taskId, attemptId) from a test, the webview or another command.
    if (typeof arg === 'string' && typeof attemptArg === 'string') nodes = [{ taskId: arg, column: attemptArg }];
    else if (typeof arg === 'string' && typeof all === 'string') nodes = [{ taskId: arg, column: all }];
    if (nodes.length === 0) {
      const taskId = typeof arg === 'string' ? arg : (this.activeTaskId() ?? (await this.pickTaskIds(false, 'Run Verifier on an attempt: which task?'))[0]);
      const task = taskId ? this.d.owner.tasks.task(taskId) : undefined;
      if (!task) return this.nothing('Pick an attempt in the Candidates tree, or open its task first.');
      const pick = await vscode.window.showQuickPick(
        task.attempts.map((a) => ({ label: a.id, description: [a.model, a.agent].filter(Boolean).join(' · ') })),
        { title: `Run Verifier on an attempt of ${task.id}`, ignoreFocusOut: true },
      );
      if (!pick) return this.nothing('No attempt picked.');
      nodes = [{ taskId: task.id, column: pick.label }];
    }
    const byTask = new Map<string, string[]>();
    for (const n of nodes) byTask.set(n.taskId, [...(byTask.get(n.taskId) ?? []), n.column as string]);
    const sel = [...byTask].map(([taskId, attempts]) => ({ taskId, attempts, probes: true }));
    const title = nodes.length === 1 ? `${nodes[0]?.taskId} ${label(nodes[0]?.column ?? '')}` : `${nodes.length} attempts`;
    return this.run(sel, title);
  }

  private async runProbeCommand(probe: string, arg: unknown, all: unknown): Promise<VerifierBatchResult> {
    let ids = [...new Set(nodesOf(arg, all).map((n) => n.taskId))];
    if (ids.length === 0) {
      const active = this.activeTaskId();
      ids = active ? [active] : await this.pickTaskIds(false, `Run Verifier on the ${label(probe)}: which task?`);
    }
    if (ids.length === 0) return this.nothing('No task picked.');
    return this.run(
      ids.map((taskId) => ({ taskId, attempts: [probe], probes: false })),
      ids.length === 1 ? `${ids[0]} ${label(probe)}` : `${label(probe)} of ${ids.length} tasks`,
    );
  }

  private async runTaskCommand(arg: unknown, all: unknown): Promise<VerifierBatchResult> {
    let ids = [...new Set(nodesOf(arg, all).map((n) => n.taskId))];
    if (ids.length === 0) {
      const active = this.activeTaskId();
      ids = active ? [active] : await this.pickTaskIds(false, 'Run Verifier on every attempt of a task');
    }
    if (ids.length === 0) return this.nothing('No task picked.');
    return this.run(ids.map((taskId) => ({ taskId, attempts: 'all' as const, probes: true })), ids.length === 1 ? (ids[0] as string) : `${ids.length} tasks`);
  }

  private async runTasksCommand(arg: unknown): Promise<VerifierBatchResult> {
    let ids = Array.isArray(arg) ? arg.filter((x): x is string => typeof x === 'string') : [];
    if (ids.length === 0) {
      ids = [...new Set((this.d.treeView.selection ?? []).flatMap((n) => ('taskId' in n ? [n.taskId] : [])))];
    }
    if (ids.length === 0) ids = await this.pickTaskIds(true, 'Run Verifier on tasks (every attempt, gold and empty patches)');
    if (ids.length === 0) return this.nothing('No task picked.');
    return this.run(ids.map((taskId) => ({ taskId, attempts: 'all' as const, probes: true })), ids.length === 1 ? (ids[0] as string) : `${ids.length} tasks`);
  }

  private nothing(message: string): VerifierBatchResult {
    return { state: 'nothing', message, runs: [], cancelled: 0, errors: [] };
  }

  /** The requests of a selection: the probes first (their flags tell how far to trust the rest), then the attempts. */
  private requests(sel: TaskSelection[], notes: string[], noImage: string[]): VerifyRequest[] {
    const force = !readSettings().verifierReuseRuns;
    const out: VerifyRequest[] = [];
    for (const s of sel) {
      const task = this.d.owner.tasks.task(s.taskId);
      if (!task) {
        notes.push(`Task ${s.taskId} is not in the open dataset.`);
        continue;
      }
      // No engine round trip for a task with no image: the engine would answer an empty name with an HTTP 301.
      const reason = noImageReason(task);
      if (reason) {
        notes.push(`${reason[0]?.toUpperCase()}${reason.slice(1)}.`);
        noImage.push(task.id);
        continue;
      }
      const ids: string[] = [];
      const wanted = s.attempts === 'all' ? task.attempts.map((a) => a.id) : s.attempts;
      if (s.probes || wanted.includes(GOLD_PROBE)) {
        if (task.files.goldPatch) ids.push(GOLD_PROBE);
        else if (wanted.includes(GOLD_PROBE)) notes.push(`Task ${task.id} has no gold patch.`);
      }
      if (s.probes || wanted.includes(EMPTY_PROBE)) ids.push(EMPTY_PROBE);
      for (const id of wanted) {
        if (id === GOLD_PROBE || id === EMPTY_PROBE) continue;
        if (task.attempts.some((a) => a.id === id)) ids.push(id);
        else notes.push(`Task ${task.id} has no attempt ${id}.`);
      }
      for (const attemptId of new Set(ids)) out.push({ task, attemptId, ...(force ? { force: true } : {}) });
    }
    return out;
  }

  /** Runs a selection through the shared queue with a progress notification; resolves when every run settled. */
  async run(sel: TaskSelection[], title: string): Promise<VerifierBatchResult> {
    const result: VerifierBatchResult = { state: 'done', runs: [], cancelled: 0, errors: [] };
    if (!(await requireTrust('Running the verifier'))) return { ...result, state: 'untrusted', message: UNTRUSTED_REASON };
    const root = this.d.owner.tasks.root;
    if (!root) {
      void notify.warn('SpecWeave: open a dataset first: the verifier runs its tasks.');
      return { ...result, state: 'no-dataset', message: 'No dataset is open.' };
    }
    const notes: string[] = [];
    const noImage: string[] = [];
    const requests = this.requests(sel, notes, noImage);
    for (const n of notes) this.line(`note: ${n}`);
    if (noImage.length > 0) this.offerSetImage(noImage);
    if (requests.length === 0) {
      const message = notes.join(' ') || 'Nothing to verify.';
      if (noImage.length === 0) void notify.info(`SpecWeave: ${message}`);
      return { ...result, state: 'nothing', message };
    }
    const backend = backendFromSettings(readSettings());
    if (!backend.ok) {
      this.line(`cannot run ${title}: ${backend.message}`);
      this.engineProblem(backend.message);
      return { ...result, state: 'no-engine', message: backend.message };
    }
    const service = this.serviceFor(root, backend);
    const t0 = Date.now();
    try {
      await service.checkEngine();
    } catch (e) {
      const message = e instanceof EngineUnavailableError ? e.message : errorText(e);
      this.line(`cannot run ${title}: ${message} (${Date.now() - t0} ms)`);
      this.engineProblem(message);
      return { ...result, state: 'no-engine', message };
    }
    const target = service.engine.describe();
    if (!this.busy()) service.queue.clearSettled();
    this.line(`${title}: ${requests.length} run(s) queued on ${target.address} (${target.source === 'setting' ? 'specweave.docker.host' : target.source})`);
    const jobs = requests.map((req) => ({ req, id: service.enqueue(req) }));
    let engineLost: string | undefined;
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Verifier: ${title}`, cancellable: true },
      async (progress, token) => {
        const sub = token.onCancellationRequested(() => {
          this.line(`${title}: cancelled from the notification`);
          for (const j of jobs) service.queue.cancel(j.id);
        });
        let settled = 0;
        progress.report({ message: `${requests.length} run(s) queued` });
        try {
          await Promise.all(
            jobs.map(async ({ req, id }) => {
              const o = await service.queue.result(id);
              settled++;
              const base = { taskId: req.task.id, attemptId: req.attemptId };
              let what: string;
              if (o.state === 'done') {
                result.runs.push({ ...base, status: o.value.status, resolved: o.value.resolved, runId: o.value.runId, reused: o.value.reused === true });
                what = o.value.status;
              } else if (o.state === 'cancelled') {
                result.cancelled++;
                what = 'cancelled';
              } else {
                if (o.error instanceof EngineUnavailableError) engineLost = o.error.message;
                result.errors.push({ ...base, error: errorText(o.error) });
                what = 'error';
              }
              const p = service.queue.progress();
              const eta = p.etaMs !== undefined && p.running + p.queued > 0 ? ` · ~${formatDuration(p.etaMs)} left` : '';
              progress.report({ increment: 100 / jobs.length, message: `${settled}/${jobs.length} · ${req.task.id} ${label(req.attemptId)}: ${what}${eta}` });
            }),
          );
        } finally {
          sub.dispose();
        }
      },
    );
    if (engineLost) this.engineProblem(engineLost);
    // The batch is over: its warm containers go (the service's executor logs nothing it cannot remove; the sweep does).
    if (!this.busy()) void service.close().catch(() => undefined);
    this.summarize(title, result, sel);
    return result;
  }

  /** Says which tasks name no image, with the action that sets one (the first task's; the others are in the log). */
  private offerSetImage(taskIds: string[]): void {
    const first = taskIds[0] as string;
    const task = this.d.owner.tasks.task(first);
    const what = taskIds.length === 1 ? `Task ${first} names no image` : `${taskIds.length} tasks name no image (${taskIds.slice(0, 3).join(', ')}${taskIds.length > 3 ? '…' : ''})`;
    const where = task ? `: set environment.image in ${task.dir}/task.json or defaults.image in specweave.json` : '';
    const action = 'Set Image…';
    void notify.error(`SpecWeave: ${what}, so the verifier cannot run it${where}.`, action).then((p) => {
      if (p === action) void vscode.commands.executeCommand(VERIFIER_CMD.setImage, first);
    });
  }

  /**
   * Asks for an image reference (or takes `given`: another command or a test passes it) and writes it as
   * environment.image of the task's task.json.
   */
  private async setImageCommand(arg: unknown, given?: unknown): Promise<{ file: string; image: string } | undefined> {
    const root = this.d.owner.tasks.root;
    const taskId = typeof arg === 'string' ? arg : nodesOf(arg, undefined)[0]?.taskId ?? this.activeTaskId();
    const task = taskId ? this.d.owner.tasks.task(taskId) : undefined;
    if (!root || !task) {
      void notify.warn('SpecWeave: open a task first: Set Image… writes the image of one task.');
      return undefined;
    }
    const image = typeof given === 'string' ? given : await vscode.window.showInputBox({
      title: `Image for task ${task.id}`,
      prompt: `Written as environment.image in ${task.dir}/task.json (the rest of the file is kept as it is)`,
      placeHolder: 'e.g. python:3.11-slim or specweave-base:bookworm',
      ignoreFocusOut: true,
      validateInput: (v) => imageRefProblem(v.trim()),
    });
    if (image === undefined) return undefined;
    try {
      const file = setTaskImage(root, task, image.trim());
      this.line(`${task.id}: environment.image set to ${image.trim()} in ${file}`);
      this.d.owner.refreshTasks([task.id]);
      void notify.info(`SpecWeave: task ${task.id} now runs in ${image.trim()}.`);
      return { file, image: image.trim() };
    } catch (e) {
      void notify.error(`SpecWeave: cannot set the image of ${task.id}: ${errorText(e)}`);
      return undefined;
    }
  }

  private engineProblem(message: string): void {
    const [settings, log] = ['Open Settings', 'Show Log'];
    void notify.error(`SpecWeave: the verifier cannot run. ${message}`, settings, log).then((p) => {
      if (p === settings) void vscode.commands.executeCommand('workbench.action.openSettings', 'specweave.docker.host');
      else if (p === log) this.output.show(true);
    });
  }

  private summarize(title: string, r: VerifierBatchResult, sel: TaskSelection[]): void {
    const byStatus = new Map<string, number>();
    for (const x of r.runs) byStatus.set(x.status, (byStatus.get(x.status) ?? 0) + 1);
    const parts = [...byStatus].map(([s, n]) => `${n} ${s.replace(/_/g, ' ')}`);
    if (r.cancelled) parts.push(`${r.cancelled} cancelled`);
    if (r.errors.length) parts.push(`${r.errors.length} not run`);
    const reused = r.runs.filter((x) => x.reused).length;
    const text = `Verifier: ${title}: ${parts.join(', ') || 'nothing ran'}${reused ? ` (${reused} reused: nothing changed since)` : ''}.`;
    this.line(text);
    const taskIds = [...new Set(sel.map((s) => s.taskId))];
    const [results, log] = ['Show Results', 'Show Log'];
    const buttons = taskIds.length === 1 && r.runs.length > 0 ? [results, log] : [log];
    const show = r.errors.length > 0 ? notify.warn : notify.info;
    void show(`SpecWeave ${text}`, ...buttons).then((p) => {
      if (p === results && taskIds[0]) void this.showResults(taskIds[0]);
      else if (p === log) this.output.show(true);
    });
  }

  private async showResults(taskId: string): Promise<void> {
    await vscode.commands.executeCommand(CMD.openTask, taskId);
  }

  /** Cancels every queued and running run; returns how many there were. */
  cancelAll(): number {
    const p = this.slot?.service.queue.progress();
    const n = p ? p.running + p.queued : 0;
    if (n === 0) {
      void notify.info('SpecWeave: no verifier run to cancel.');
      return 0;
    }
    this.line(`cancelling ${n} run(s): queued ones are dropped, running containers are killed and removed`);
    this.slot?.service.queue.cancelAll();
    return n;
  }

  /**
   * The queue's quick pick items at this moment: the actions, then every run of the queue with its state, backend
   * and node (running first). The title and the items come from one reading, so they never disagree.
   */
  queueView(): { title: string; items: Array<vscode.QuickPickItem & { id: string }> } {
    const service = this.slot?.service;
    const p = service?.queue.progress();
    const r = service && p ? this.reading(service) : undefined;
    const rows: QueueRunRow[] = r ? sortQueueRows(r.rows) : [];
    const n = p ? p.running + p.queued : 0;
    const title = p && r && p.total > 0 ? queueStatusText(p, r.nodes, r.perNode).summary : 'SpecWeave verifier: no runs in this window yet';
    const items: Array<vscode.QuickPickItem & { id: string }> = [
      { label: '$(output) Show Verifier Log', id: 'log' },
      ...(n > 0 ? [{ label: `$(stop-circle) Cancel All Verifier Runs`, description: `${p?.running} running, ${p?.queued} queued`, id: 'cancel' }] : []),
    ];
    if (rows.length > 0) {
      items.push({ label: 'Runs', kind: vscode.QuickPickItemKind.Separator, id: 'sep' });
      for (const r of rows) {
        const t = queueRowText({ ...r, attemptId: label(r.attemptId) });
        const icon = r.state === 'running' ? '$(sync~spin)' : r.state === 'queued' ? '$(clock)' : r.state === 'done' ? '$(pass)' : r.state === 'failed' ? '$(error)' : '$(circle-slash)';
        items.push({ label: `${icon} ${t.label}`, description: t.description, id: `run:${r.id}` });
      }
    }
    return { title, items };
  }

  /** One reading of the queue's runs and their nodes, for the status bar and the queue view alike. */
  private reading(service: VerifierService): { rows: QueueRunRow[]; nodes: NodeCount[]; perNode: boolean } {
    const rows = service.queueRuns();
    const nodes = nodeCounts(rows);
    return { rows, nodes, perNode: service.executor.backend !== 'local' || nodes.length > 1 };
  }

  /** The queue view: a quick pick that follows the queue while it is open. */
  private async showQueue(): Promise<string | undefined> {
    const qp = vscode.window.createQuickPick<vscode.QuickPickItem & { id: string }>();
    qp.matchOnDescription = true;
    const render = (): void => {
      const v = this.queueView();
      const active = qp.activeItems[0]?.id;
      qp.title = v.title;
      qp.items = v.items;
      // The curator's place in the list stays where it was while runs move.
      const again = v.items.find((i) => i.id === active);
      if (again) qp.activeItems = [again];
    };
    render();
    const sub = this.queueChanges.event(render);
    this.openQueueViews++;
    try {
      const picked = await new Promise<string | undefined>((resolve) => {
        qp.onDidAccept(() => {
          resolve(qp.selectedItems[0]?.id);
          qp.hide();
        });
        qp.onDidHide(() => resolve(undefined));
        qp.show();
      });
      if (picked === 'log') this.output.show(true);
      else if (picked === 'cancel') this.cancelAll();
      else if (picked?.startsWith('run:')) this.output.show(true);
      return picked;
    } finally {
      this.openQueueViews--;
      sub.dispose();
      qp.dispose();
    }
  }

  // ---- the task view ----------------------------------------------------------------------------------------------

  private runsOf(taskId: string): Map<string, VerifierRunRecord[]> {
    return this.d.owner.runs?.runs(taskId) ?? new Map<string, VerifierRunRecord[]>();
  }

  /** The task's results: our stored runs (stale ones marked), else imported results; from the owner's run index. */
  private sectionOf(taskId: string): TaskViewSectionPart | undefined {
    const task = this.d.owner.tasks.task(taskId);
    const index = this.d.owner.runs;
    if (!task || !index) return undefined;
    const runs = index.runs(taskId);
    const results = withRecordedFallback(task, verifierResultsFromRuns(task, runs, runs.size > 0 ? index.currentPatches(task) : undefined));
    const view = resultsView(task, results);
    if (!view) return undefined;
    const columnVerdicts: Record<string, string> = {};
    for (const a of Object.keys(results.attempts)) {
      const v = runVerdict(results.attempts[a]);
      if (v) columnVerdicts[a] = v;
    }
    return { results: view, columnVerdicts };
  }

  /** Opens the log of the run behind a results cell, at the line where the test's result appears. */
  async openRunLog(taskId: string, column: string, testId?: string): Promise<RequestMap['openRunLog']['result']> {
    const task = this.d.owner.tasks.task(taskId);
    const root = this.d.owner.tasks.root;
    if (!task || !root) return { opened: false, message: `Task ${taskId} is not in the open dataset.` };
    const run = pickRun(this.runsOf(taskId).get(column) ?? []);
    const test = testId !== undefined ? task.tests.find((t) => t.id === testId || t.name === testId) : undefined;
    if (!run) {
      const recorded = task.attempts.find((a) => a.id === column)?.recordedResults.at(-1);
      if (recorded) {
        try {
          const file = resolveDatasetPath(root, recorded.file);
          await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true, viewColumn: vscode.ViewColumn.Beside });
          return { opened: true, message: `${label(column)} has no run of ours: opened the imported result ${recorded.file}.` };
        } catch {
          return { opened: false, message: `${label(column)} has no run of ours; its result was imported from ${recorded.file}. Run the verifier on it to get a log.` };
        }
      }
      return { opened: false, message: `${label(column)} has no verifier run yet: run the verifier on it first.` };
    }
    const uri = runLogUri(taskId, column, run.runId);
    const composed = this.documents.compose(uri, run);
    const status = test ? run.grade.tests[test.name] : undefined;
    const found = test ? findTestLine(composed.text, test.name, { fromLine: composed.stdoutLine, failing: status === 'FAILED' || status === 'ERROR' }) : undefined;
    const line = found?.line ?? 0;
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'log') await vscode.languages.setTextDocumentLanguage(doc, 'log');
    const range = new vscode.Range(line, 0, line, doc.lineAt(Math.min(line, doc.lineCount - 1)).text.length);
    const editor = await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside, selection: range });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenter);
    const name = test?.name ?? testId;
    const message = !name
      ? `Opened the log of ${label(column)} (run ${run.runId}).`
      : found
        ? `Opened the log of ${label(column)} at ${name} (line ${line + 1}).`
        : `Opened the log of ${label(column)}; ${name} does not appear in it.`;
    return { opened: true, line: line + 1, message };
  }
}
