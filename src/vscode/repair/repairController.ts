// The repair agent in VS Code: "SpecWeave: Set API Key" (SecretStorage only), "Request Repair Suggestion" with a
// progress notification (tokens so far, cancel), the review of a suggestion in native diff editors (current side
// read-only, suggested side a real file the curator may edit), "Show What Was Sent", Accept / Reject with a reason,
// then revalidation through the window's one verifier queue (the verifier feature's: its concurrency limit, status
// bar item and output channel), with `specweave.repair.freshTrials` fresh solver trials per model of
// `specweave.solver.*` on the new revision, and the before/after matrix in the task view's Repair tab and as a document. Every
// command that calls the model or runs code checks workspace trust first. The work is in the adapters and core.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { inertNotification, notify } from '../notify';
import { EngineUnavailableError } from '../../adapters/docker/engine';
import type { VerifierService, VerifyRequest } from '../../adapters/docker/verifyService';
import { writeFileAtomicIn } from '../../adapters/fs/datasetPaths';
import type { RevalidationTrials } from '../../app/repairFlow';
import { RepairFlowError, serviceRunner } from '../../app/repairFlow';
import { queueVerifier } from '../../app/freshTrials';
import { llmTrialModel } from '../../app/solverTrial';
import type { SuggestionRecord } from '../../adapters/fs/repairStore';
import { listSuggestions, loadRevalidation, loadSuggestion, suggestionFolder } from '../../adapters/fs/repairStore';
import type { LlmClient } from '../../adapters/llm/client';
import { EndpointMemory } from '../../adapters/llm/client';
import { LlmError, VSCODE_KEY_HINT } from '../../adapters/llm/errors';
import { Redactor } from '../../adapters/llm/redact';
import { requestSuggestion } from '../../app/repairAgent';
import type { RepairMatrix } from '../../core/repair/matrix';
import { taskState } from '../../core/review/reducer';
import type { RequestedTarget } from '../../core/repair/suggestion';
import { REPAIR_TARGETS } from '../../core/repair/suggestion';
import type { RepairView } from '../../protocol/messages';
import type { ActiveTask } from '../activeTask';
import type { DisposableStore } from '../disposables';
import { Emitter } from '../emitter';
import type { OpenDataset } from '../openDataset';
import { CuratorRefusedError } from '../openDataset';
import { commandRegistrar } from '../reportingCommand';
import type { TaskViewSection } from '../taskSections';
import { requireTrust } from '../trust';
import { RepairDecisions, StoreNotOpenError } from './repairDecisions';
import { REPAIR_SCHEME, RepairDocuments, repairUri } from './repairDocuments';
import { errorText } from '../../core/errorText';
import { REPAIR_CMD } from '../commandIds';
import type { RepairEndpoint } from '../llmClients';
import { REPAIR_KEY_SECRET, repairEndpoint, setApiKeyAndContinue } from '../llmClients';
import { readRepairSettings, readSolverSettings } from '../settings';

export { REPAIR_CMD };


export { readRepairSettings };

export interface RepairDeps {
  secrets: vscode.SecretStorage;
  /** The open dataset's owner: its tasks, its one curation store, the curator. */
  owner: OpenDataset;
  activeTask: ActiveTask;
  log: vscode.LogOutputChannel;
  /** The extension's log folder (its parent holds the output channels' files): where the key search looks. */
  logUri?: vscode.Uri;
  /** The window's one verifier queue and its output channel: revalidation runs share them with every other run. */
  verifier: SharedVerifier;
}

/** What the verifier feature lends to revalidation (VerifierController has it). */
export interface SharedVerifier {
  /** Undefined when no dataset is open. The caller checks workspace trust first. */
  sharedService(): VerifierService | undefined;
  readonly output: vscode.OutputChannel;
}

/** Characters of a suggestion's rationale the task view gets. */
const RATIONALE_VIEW_CHARS = 20_000;

export interface RequestCommandResult {
  suggestion?: string;
  status: SuggestionRecord['status'] | 'cancelled' | 'no-task' | 'untrusted';
  message?: string;
}

export interface AcceptCommandResult {
  accepted: boolean;
  to?: number;
  matrix?: RepairMatrix;
  revalidated?: boolean;
  message?: string;
}

function taskIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object') {
    const o = arg as { taskId?: unknown; id?: unknown };
    if (typeof o.taskId === 'string') return o.taskId;
  }
  return undefined;
}

const hhmmss = (): string => new Date().toTimeString().slice(0, 8);

/** `specweave.repair.freshTrials`: fresh solver trials per model added to a revalidation (0: none). */
export function readFreshTrialsSetting(): number {
  const v = vscode.workspace.getConfiguration('specweave.repair').get<number>('freshTrials', 0);
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(20, Math.max(0, Math.round(v))) : 0;
}
const probeLabel = (id: string): string => (id === 'gold' ? 'gold patch' : id === 'empty' ? 'empty patch' : id);

export class RepairController implements vscode.Disposable {
  readonly documents: RepairDocuments;
  /** The endpoint fallbacks learnt in this window. */
  private readonly memory = new EndpointMemory();
  private readonly redactor = new Redactor();
  /** What the task view shows per task while a repair is under way. */
  private readonly live = new Map<string, RepairView>();
  /** The latest stored suggestion of a task and its revalidation, read once per change of the task (null: none). */
  private readonly stored = new Map<string, { latest: SuggestionRecord; reval: ReturnType<typeof loadRevalidation> } | null>();
  private readonly sectionChanges = new Emitter<readonly string[] | undefined>();
  private readonly decisions: RepairDecisions;
  private readonly ownerSub: { dispose(): void };
  /** The repair part of the task view: the live repair, else the latest stored one, from memory. */
  readonly section: TaskViewSection;

  constructor(private readonly d: RepairDeps) {
    this.documents = new RepairDocuments(() => d.owner.root);
    this.decisions = new RepairDecisions(d.owner);
    this.section = { name: 'repair', onDidChange: this.sectionChanges.event, contribute: (taskId) => this.sectionOf(taskId) };
    this.ownerSub = d.owner.onDidChange((c) => {
      if (c.tasks === 'all' || c.log) this.stored.clear();
      else for (const id of c.tasks ?? []) this.stored.delete(id);
    });
  }

  private get dataset() {
    return this.d.owner.tasks;
  }

  register(store: DisposableStore): void {
    store.add(vscode.workspace.registerTextDocumentContentProvider(REPAIR_SCHEME, this.documents));
    store.add(this.documents);
    const reg = commandRegistrar(store, this.d.log, { prefix: 'SpecWeave: ', redact: (t) => this.redactor.redact(t) });
    reg(REPAIR_CMD.setApiKey, (key) => this.setApiKey(typeof key === 'string' ? key : undefined));
    reg(REPAIR_CMD.setApiKeyAndContinue, (id) => setApiKeyAndContinue(this.d.secrets, id));
    reg(REPAIR_CMD.clearApiKey, async () => {
      await this.d.secrets.delete(REPAIR_KEY_SECRET);
      void notify.info('SpecWeave: the API key is removed.');
      return true;
    });
    reg(REPAIR_CMD.request, (arg, target, note) => this.request(arg, typeof target === 'string' ? target : undefined, typeof note === 'string' ? note : undefined));
    reg(REPAIR_CMD.review, (task, id) => this.review(String(taskIdOf(task) ?? ''), String(id ?? '')));
    reg(REPAIR_CMD.accept, (task, id, note) => this.accept(taskIdOf(task), typeof id === 'string' ? id : undefined, typeof note === 'string' ? note : undefined));
    reg(REPAIR_CMD.reject, (task, id, reason) => this.reject(taskIdOf(task), typeof id === 'string' ? id : undefined, typeof reason === 'string' ? reason : undefined));
    reg(REPAIR_CMD.showPrompt, (task, id) => this.showDoc('prompt', taskIdOf(task), typeof id === 'string' ? id : undefined));
    reg(REPAIR_CMD.showMatrix, (task, id) => this.showDoc('matrix', taskIdOf(task), typeof id === 'string' ? id : undefined));
  }

  dispose(): void {
    this.live.clear();
    this.ownerSub.dispose();
    this.sectionChanges.dispose();
  }

  /** The folder holding the extension host's log files, the SpecWeave output channel's among them. */
  logFolder(): string | undefined {
    return this.d.logUri ? path.dirname(this.d.logUri.fsPath) : undefined;
  }

  // ---- the key -------------------------------------------------------------------------------------------------

  private async setApiKey(given?: string): Promise<boolean> {
    const key =
      given ??
      (await vscode.window.showInputBox({
        title: 'SpecWeave: Set API Key',
        prompt: 'The API key of the OpenAI-compatible endpoint (specweave.repair.baseUrl). It is kept in VS Code\u2019s secret storage only.',
        password: true,
        ignoreFocusOut: true,
      }));
    if (key === undefined) return false;
    if (key.trim() === '') {
      await this.d.secrets.delete(REPAIR_KEY_SECRET);
      return true;
    }
    this.redactor.add(key.trim());
    await this.d.secrets.store(REPAIR_KEY_SECRET, key.trim());
    void notify.info('SpecWeave: the API key is stored in the secret storage.');
    return true;
  }

  // ---- helpers -------------------------------------------------------------------------------------------------

  /** The owner's curator (one resolution for the window); undefined after telling the user why it is refused. */
  private curatorOrRefuse(what: string): string | undefined {
    try {
      return this.d.owner.requireCurator();
    } catch (e) {
      if (!(e instanceof CuratorRefusedError)) throw e;
      void notify.error(`SpecWeave: ${what} needs your curator name: ${e.message}.`);
      this.d.log.warn(`repair: ${what} refused: ${e.message}`);
      return undefined;
    }
  }

  private async pickTask(arg: unknown): Promise<string | undefined> {
    const given = taskIdOf(arg) ?? this.d.activeTask.taskId;
    if (given) return given;
    const pick = await vscode.window.showQuickPick(
      this.dataset.tasks.map((t) => ({ label: t.id, description: t.title })),
      { title: 'Request Repair Suggestion: which task?', ignoreFocusOut: true },
    );
    return pick?.label;
  }

  private latestSuggestion(taskId: string, id?: string): SuggestionRecord | undefined {
    const root = this.dataset.root;
    if (!root) return undefined;
    if (id) return loadSuggestion(root, taskId, id);
    return listSuggestions(root, taskId).find((s) => s.status === 'ready');
  }

  /** A suggestion's stored revalidation; a record that does not load is said in the log (naming its file and field) and left out. */
  private revalidationOf(root: string, taskId: string, id: string): ReturnType<typeof loadRevalidation> {
    try {
      return loadRevalidation(root, taskId, id);
    } catch (e) {
      this.d.log.warn(`repair ${taskId}: the revalidation of suggestion ${id} is not shown: ${errorText(e)}`);
      return undefined;
    }
  }

  private refreshView(taskId: string): void {
    this.stored.delete(taskId);
    this.sectionChanges.fire([taskId]);
  }

  /** The task's repair for its view: the live one, else the latest stored (read once per change of the task). */
  private sectionOf(taskId: string): { repair: RepairView } | undefined {
    const live = this.live.get(taskId);
    if (live) return { repair: live };
    const root = this.dataset.root;
    if (!root) return undefined;
    let s = this.stored.get(taskId);
    if (s === undefined) {
      const latest = listSuggestions(root, taskId)[0];
      s = latest ? { latest, reval: this.revalidationOf(root, taskId, latest.id) } : null;
      this.stored.set(taskId, s);
    }
    if (!s) return undefined;
    {
      const { latest, reval } = s;
      const state = this.d.owner.store?.state;
      const decision = state ? taskState(state, taskId).repairs.get(latest.id)?.decision : undefined;
      const status: RepairView['status'] = reval ? 'revalidated' : decision?.decision ?? latest.status;
      const view: RepairView = {
        ...this.baseView(latest, status),
        ...(decision
          ? {
              decidedBy: decision.curator,
              decidedAt: decision.time,
              ...(decision.decision === 'rejected' ? { note: decision.reason } : { fromRevision: decision.from, toRevision: decision.to }),
            }
          : {}),
        ...(reval ? { fromRevision: reval.fromRevision, toRevision: reval.toRevision, matrix: reval.matrix } : {}),
      };
      return { repair: view };
    }
  }

  /** What the task view shows of a suggestion record, whatever became of it. */
  private baseView(r: SuggestionRecord, status: RepairView['status']): RepairView {
    const message = r.status === 'refused' ? r.refusal : r.status === 'failed' ? r.error?.message : undefined;
    return {
      suggestion: r.id,
      status,
      target: r.target ?? r.requestedTarget,
      // Model-written texts: the key masked, as the CLI prints them (a record stored before redaction too).
      ...(r.summary ? { summary: this.redactor.redact(r.summary) } : {}),
      ...(r.rationale ? { rationale: this.redactor.redact(r.rationale.slice(0, RATIONALE_VIEW_CHARS)) } : {}),
      ...(message ? { message: this.redactor.redact(message) } : {}),
    };
  }

  // ---- request ---------------------------------------------------------------------------------------------------

  async request(arg: unknown, targetArg?: string, noteArg?: string): Promise<RequestCommandResult> {
    if (!(await requireTrust('Requesting a repair suggestion'))) return { status: 'untrusted', message: 'Restricted Mode' };
    const root = this.dataset.root;
    if (!root) {
      void notify.warn('SpecWeave: open a dataset first.');
      return { status: 'no-task' };
    }
    const taskId = await this.pickTask(arg);
    if (!taskId || !this.dataset.task(taskId)) return { status: 'no-task' };
    // The key first: a curator asked for the target and a note and then told there is no key loses the note.
    const endpoint = await repairEndpoint(this.d.secrets, this.redactor, this.memory, (baseUrl) => `Request Repair Suggestion for ${taskId}: no API key for ${baseUrl}.`, {
      continueWith: () => void vscode.commands.executeCommand(REPAIR_CMD.request, taskId, targetArg, noteArg),
    });
    if (!endpoint) return { status: 'failed', message: 'no API key' };
    let target = targetArg as RequestedTarget | undefined;
    if (target === undefined) {
      const pick = await vscode.window.showQuickPick(
        [
          { label: 'auto', description: 'let the model choose' },
          ...REPAIR_TARGETS.map((t) => ({ label: t, description: t === 'tests' ? 'the test files (tests.patch)' : t === 'spec_test_map' ? 'which tests cover which specs' : `the ${t}` })),
        ],
        { title: `Repair ${taskId}: what should change?`, ignoreFocusOut: true },
      );
      if (!pick) return { status: 'cancelled' };
      target = pick.label as RequestedTarget;
      if (noteArg === undefined) {
        const note = await vscode.window.showInputBox({ title: `Repair ${taskId}: a note for the model (optional)`, prompt: 'What you think is wrong; Enter to skip.', ignoreFocusOut: true });
        if (note === undefined) return { status: 'cancelled' };
        noteArg = note;
      }
    }
    if (target !== 'auto' && !(REPAIR_TARGETS as readonly string[]).includes(target)) throw new Error(`unknown repair target "${target}"`);
    const { settings, apiKey } = endpoint;
    const store = this.d.owner.store;
    if (!store) {
      void notify.warn('SpecWeave: the review log is not open yet: wait for the dataset to finish loading.');
      return { status: 'no-task', message: 'the review log is not open yet' };
    }
    const curator = this.curatorOrRefuse('Requesting a repair suggestion');
    if (curator === undefined) return { status: 'failed', message: 'the curator name is refused' };
    const client = endpoint.client();
    const log = this.d.log;
    log.info(`repair ${taskId}: asking ${settings.model} at ${settings.baseUrl} (target ${target})`);
    const outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Repair suggestion for ${taskId}`, cancellable: true },
      async (progress, token) => {
        const ac = new AbortController();
        const sub = token.onCancellationRequested(() => ac.abort());
        try {
          return await requestSuggestion({
            store,
            taskId,
            target: target as RequestedTarget,
            curator,
            settings,
            ...(apiKey ? { apiKey } : {}),
            keyHint: VSCODE_KEY_HINT,
            ...(noteArg ? { note: noteArg } : {}),
            signal: ac.signal,
            client,
            redactor: this.redactor,
            onLog: (l) => log.info(`repair ${taskId}: ${l}`),
            onProgress: (p) => progress.report({ message: inertNotification(`${p.phase}${p.tokens ? ` · ${p.tokens} tokens so far` : ''}${p.message ? ` · ${this.redactor.redact(p.message)}` : ''}`) }),
          });
        } catch (e) {
          if (e instanceof LlmError && e.code === 'cancelled') return undefined;
          throw e;
        } finally {
          sub.dispose();
        }
      },
    );
    if (!outcome) {
      log.info(`repair ${taskId}: cancelled`);
      return { status: 'cancelled' };
    }
    const r = outcome.record;
    this.live.set(taskId, this.baseView(r, r.status));
    this.refreshView(taskId);
    if (r.status !== 'ready') {
      const msg = r.status === 'refused' ? `the model declined: ${r.refusal ?? ''}` : (r.error?.message ?? 'failed');
      const stored = `${r.status === 'refused' ? 'The refusal' : 'The failed request'} is stored as suggestion ${r.id} in ${path.relative(root, suggestionFolder(root, taskId, r.id))}.`;
      log.info(`repair ${taskId}: ${this.redactor.redact(msg)}; ${stored}`);
      const show = 'Show What Was Sent';
      void notify.error(`SpecWeave: no repair suggestion for ${taskId}: ${this.redactor.redact(msg)} ${stored}`, show).then((p) => {
        if (p === show) void this.showDoc('prompt', taskId, r.id);
      });
      return { suggestion: r.id, status: r.status, message: this.redactor.redact(msg) };
    }
    await this.review(taskId, r.id);
    const [accept, reject, sent] = ['Accept', 'Reject', 'Show What Was Sent'];
    void notify.info(`SpecWeave: repair suggestion for ${taskId}: ${this.redactor.redact(r.summary ?? '')} — review the diff, edit the suggested side if needed, then accept or reject.`, accept, reject, sent).then((p) => {
      if (p === accept) void vscode.commands.executeCommand(REPAIR_CMD.accept, taskId, r.id);
      else if (p === reject) void vscode.commands.executeCommand(REPAIR_CMD.reject, taskId, r.id);
      else if (p === sent) void vscode.commands.executeCommand(REPAIR_CMD.showPrompt, taskId, r.id);
    });
    return { suggestion: r.id, status: r.status };
  }

  /** Opens a native diff per changed file: the current text (read-only) against the suggested file (editable). */
  async review(taskId: string, id: string): Promise<number> {
    const root = this.dataset.root;
    if (!root) return 0;
    const r = loadSuggestion(root, taskId, id);
    const dir = suggestionFolder(root, taskId, id);
    for (const f of r.files) {
      const left = repairUri('current', taskId, id, f.current.replace(/^current\//, ''));
      const right = vscode.Uri.file(path.join(dir, f.proposed));
      await vscode.commands.executeCommand('vscode.diff', left, right, `${path.basename(f.path)} (current ↔ suggested)`, { preview: false });
    }
    return r.files.length;
  }

  private async showDoc(kind: 'prompt' | 'matrix', taskArg: string | undefined, id: string | undefined): Promise<boolean> {
    const taskId = taskArg ?? this.d.activeTask.taskId;
    if (!taskId) return false;
    const sid = id ?? (kind === 'matrix' ? listSuggestions(this.dataset.root ?? '', taskId).find((s) => this.revalidationOf(this.dataset.root ?? '', taskId, s.id))?.id : listSuggestions(this.dataset.root ?? '', taskId)[0]?.id);
    if (!sid) {
      void notify.info(`SpecWeave: task ${taskId} has no ${kind === 'matrix' ? 'revalidated repair' : 'repair suggestion'} yet.`);
      return false;
    }
    const uri = repairUri(kind, taskId, sid);
    this.documents.refresh(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    await vscode.window.showTextDocument(doc, { preview: false });
    return true;
  }

  // ---- decide ----------------------------------------------------------------------------------------------------

  /**
   * Saves the curator's edits of the suggested files before they become the new revision. `TextDocument.save()` can
   * answer false without saving (seen in the workbench when the save races the editor that shows the file), so the
   * text as the curator left it is taken first, and written by us when the file on disk does not hold it after the
   * save: an edit is never dropped silently.
   */
  private async saveEdits(taskId: string, id: string): Promise<void> {
    const root = this.dataset.root;
    if (!root) return;
    const dir = suggestionFolder(root, taskId, id) + path.sep;
    for (const doc of vscode.workspace.textDocuments) {
      if (!doc.isDirty || doc.uri.scheme !== 'file' || !doc.uri.fsPath.startsWith(dir)) continue;
      const file = doc.uri.fsPath;
      const text = doc.getText();
      const saved = await doc.save();
      let onDisk: string | undefined;
      try {
        onDisk = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
      } catch {
        onDisk = undefined;
      }
      if (saved && onDisk === text) continue;
      // Through datasetPaths: never written through a symlink under the dataset.
      writeFileAtomicIn(root, path.relative(root, file).split(path.sep).join('/'), text);
      this.d.log.warn(`repair ${taskId}: VS Code did not save ${path.relative(root, file)} (save answered ${String(saved)}); wrote the edited text to it directly`);
    }
  }

  async accept(taskArg: string | undefined, idArg: string | undefined, note?: string): Promise<AcceptCommandResult> {
    if (!(await requireTrust('Accepting a repair (it revalidates the task in containers)'))) return { accepted: false, message: 'Restricted Mode' };
    const root = this.dataset.root;
    const taskId = taskArg ?? this.d.activeTask.taskId;
    if (!root || !taskId) return { accepted: false, message: 'no task' };
    const rec = this.latestSuggestion(taskId, idArg);
    if (!rec) {
      void notify.warn(`SpecWeave: task ${taskId} has no repair suggestion to accept.`);
      return { accepted: false, message: 'no suggestion' };
    }
    if (this.curatorOrRefuse('Accepting a repair suggestion') === undefined) return { accepted: false, message: 'the curator name is refused' };
    // Fresh trials call the model: without a key for the default endpoint, say so before anything is written.
    const freshN = readFreshTrialsSetting();
    const endpoint =
      freshN > 0
        ? await repairEndpoint(
            this.d.secrets,
            this.redactor,
            this.memory,
            (baseUrl) => `accepting ${taskId}'s repair: specweave.repair.freshTrials is ${freshN}, but there is no API key for ${baseUrl} (or set it to 0); nothing was accepted yet.`,
            { continueWith: () => void vscode.commands.executeCommand(REPAIR_CMD.accept, taskId, rec.id, note) },
          )
        : undefined;
    if (freshN > 0 && !endpoint) return { accepted: false, message: 'no API key for the fresh trials' };
    await this.saveEdits(taskId, rec.id);
    let acc;
    let curator: string;
    try {
      // On the owner's store; the task's folder is read again alone (the runs below use the new revision).
      ({ acc, curator } = await this.decisions.accept(taskId, rec.id, note));
    } catch (e) {
      if (e instanceof RepairFlowError || e instanceof StoreNotOpenError || e instanceof CuratorRefusedError) {
        void notify.error(`SpecWeave: ${e.message}`);
        this.d.log.warn(`repair ${taskId}: accept refused: ${e.message}`);
        return { accepted: false, message: e.message };
      }
      throw e;
    }
    this.d.log.info(`repair ${taskId}: suggestion ${rec.id} accepted${acc.edited ? ' with edits' : ''}: revision ${acc.from} -> ${acc.to}`);
    const decided = { fromRevision: acc.from, toRevision: acc.to, decidedBy: curator, decidedAt: new Date().toISOString(), ...(note ? { note } : {}) };
    this.live.set(taskId, { ...this.baseView(rec, 'revalidating'), ...decided });
    this.refreshView(taskId);
    const notRevalidated = (msg: string): AcceptCommandResult => {
      void notify.error(`SpecWeave: revision ${acc.to} of ${taskId} is written, but it cannot be revalidated: ${msg}`);
      this.live.set(taskId, { ...this.baseView(rec, 'accepted'), ...decided });
      this.refreshView(taskId);
      return { accepted: true, to: acc.to, message: msg };
    };
    // The window's one queue: revalidation waits its turn behind other runs, within the concurrency limit, and shows
    // in the verifier's status bar item and output channel like any run.
    const service = this.d.verifier.sharedService();
    if (!service) return notRevalidated('no dataset is open');
    try {
      await service.checkEngine();
    } catch (e) {
      return notRevalidated(e instanceof EngineUnavailableError ? e.message : errorText(e));
    }
    const out = this.d.verifier.output;
    const idle = (): boolean => {
      const p = service.queue.progress();
      return p.running + p.queued === 0;
    };
    // As the verifier's own batches do: the status bar counts this batch, not every run of the window.
    if (idle()) service.queue.clearSettled();
    const solver = endpoint ? readSolverSettings() : undefined;
    const trialsTitle = solver ? `, then ${freshN} fresh trial(s) of ${solver.models.join(', ')}` : '';
    const revalidation = vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Revalidating ${taskId} revision ${acc.to}: gold, empty and every attempt${trialsTitle}`, cancellable: true },
      async (progress, token) => {
        const ac = new AbortController();
        const sub = token.onCancellationRequested(() => {
          out.appendLine(`[${hhmmss()}] repair of ${taskId}: revalidation cancelled from the notification`);
          ac.abort();
        });
        const attempts = new Map<string, string>();
        let settled = 0;
        // The shared service, counted: each settled run moves the notification on.
        const counted = {
          enqueue: (req: VerifyRequest): string => {
            const id = service.enqueue(req);
            attempts.set(id, req.attemptId);
            return id;
          },
          queue: {
            result: async (id: string) => {
              const o = await service.queue.result(id);
              settled++;
              const what = o.state === 'done' ? o.value.status : o.state === 'cancelled' ? 'cancelled' : 'not run';
              progress.report({ increment: 100 / Math.max(1, attempts.size), message: inertNotification(`${settled}/${attempts.size} · ${probeLabel(attempts.get(id) ?? '')}: ${what}`) });
              return o;
            },
            cancel: (id: string) => service.queue.cancel(id),
          },
        };
        try {
          const freshTrials = solver && endpoint ? this.trials(taskId, service, solver, freshN, endpoint, (message) => progress.report({ message: inertNotification(message) })) : undefined;
          const runs = this.decisions.revalidate({ taskId, runner: serviceRunner(counted), curator, suggestionId: rec.id, signal: ac.signal, ...(freshTrials ? { freshTrials } : {}) });
          // revalidate() queues its runs before its first await.
          if (attempts.size > 0) {
            out.appendLine(`[${hhmmss()}] repair of ${taskId}: revalidating revision ${acc.to}: ${attempts.size} run(s) queued (gold, empty and every attempt)`);
            progress.report({ message: `${attempts.size} run(s) queued` });
          }
          return await runs;
        } finally {
          sub.dispose();
        }
      },
    );
    let result: Awaited<typeof revalidation>;
    try {
      result = await revalidation;
    } catch (e) {
      // The revision stands; the view must not keep saying "revalidating".
      this.live.set(taskId, { ...this.baseView(rec, 'accepted'), ...decided });
      this.refreshView(taskId);
      throw e;
    }
    const m = result.record.matrix;
    this.live.set(taskId, { ...this.baseView(rec, 'revalidated'), ...decided, matrix: m });
    this.refreshView(taskId);
    const f = m.fresh;
    const freshLine = f ? `; ${f.trials.length} fresh trial(s), ${f.attempts.filter((a) => f.attemptStatus[a]?.after === 'passed').length} passed the verifier` : '';
    const line = `false positives ${m.counts.before.falsePositives} -> ${m.counts.after.falsePositives}, false negatives ${m.counts.before.falseNegatives} -> ${m.counts.after.falseNegatives}${freshLine}`;
    this.d.log.info(`repair ${taskId}: revalidated revision ${acc.to}: ${line}`);
    const how = result.revalidated ? 'revalidated' : 'partly revalidated (some runs did not finish)';
    out.appendLine(`[${hhmmss()}] repair of ${taskId}: revision ${acc.to} ${how}: ${line}`);
    // The matrix is in the task view's Repair tab (it opens there by itself); bring the view to the front rather
    // than covering it with the Markdown document, which stays one click away.
    this.d.activeTask.show(taskId, 'open');
    const asDoc = 'Open as Document';
    void notify.info(`SpecWeave: ${taskId} revision ${acc.to} ${how}: ${line}.`, asDoc).then((p) => {
      if (p === asDoc) void this.showDoc('matrix', taskId, rec.id);
    });
    return { accepted: true, to: acc.to, matrix: m, revalidated: result.revalidated };
  }

  /**
   * The fresh trials of a revalidation: one LLM client per model of `specweave.solver.models` on the repair endpoint
   * (its settings, key and learnt fallbacks), the solver's limits and concurrency, verified through the window's
   * queue; each trial's start, steps and verdict go to the notification and the verifier's output channel.
   */
  private trials(taskId: string, service: VerifierService, solver: ReturnType<typeof readSolverSettings>, trials: number, endpoint: RepairEndpoint, report: (message: string) => void): RevalidationTrials {
    const clients = new Map(solver.models.map((m) => [m, endpoint.client(m)]));
    const out = this.d.verifier.output;
    const say = (line: string) => {
      const text = this.redactor.redact(line);
      out.appendLine(`[${hhmmss()}] repair of ${taskId}: ${text}`);
      report(text);
    };
    return {
      models: solver.models,
      trials,
      engine: service.engine,
      modelFor: (m) => llmTrialModel(clients.get(m) as LlmClient),
      limits: solver.limits,
      concurrency: solver.concurrency,
      verify: queueVerifier(service),
      reloadTask: (id) => {
        this.d.owner.refreshTasks([id]);
        return this.dataset.task(id);
      },
      onEvent: (e) => {
        if (e.kind === 'start') say(`fresh trial ${e.index + 1}/${e.total} of ${e.job.model} starts`);
        else if (e.kind === 'step') report(this.redactor.redact(`fresh trial of ${e.job.model}: step ${e.run.stats.steps}, $${e.run.stats.costUsd.toFixed(4)}`));
        else if (e.kind === 'done') {
          const r = e.result;
          say(`fresh trial ${e.finished}/${e.total} of ${e.job.model}: ${r.attemptId ?? 'no attempt'}${r.exitStatus ? ` ${r.exitStatus}` : ''}${r.verdict ? `, verifier ${r.verdict}` : ''}${r.error ? `, error: ${r.error}` : ''}`);
        }
      },
    };
  }

  async reject(taskArg: string | undefined, idArg: string | undefined, reasonArg?: string): Promise<boolean> {
    const root = this.dataset.root;
    const taskId = taskArg ?? this.d.activeTask.taskId;
    if (!root || !taskId) return false;
    const rec = this.latestSuggestion(taskId, idArg);
    if (!rec) return false;
    const reason = reasonArg ?? (await vscode.window.showInputBox({ title: `Reject repair suggestion ${rec.id}`, prompt: 'Why? (recorded in the review log)', ignoreFocusOut: true }));
    if (reason === undefined || reason.trim() === '') return false;
    let curator: string;
    try {
      ({ curator } = await this.decisions.reject(taskId, rec.id, reason));
    } catch (e) {
      if (e instanceof RepairFlowError || e instanceof StoreNotOpenError || e instanceof CuratorRefusedError) {
        void notify.error(`SpecWeave: ${e.message}`);
        return false;
      }
      throw e;
    }
    this.live.set(taskId, { ...this.baseView(rec, 'rejected'), note: reason, decidedBy: curator, decidedAt: new Date().toISOString() });
    this.refreshView(taskId);
    void notify.info(`SpecWeave: repair suggestion ${rec.id} rejected.`);
    return true;
  }
}
