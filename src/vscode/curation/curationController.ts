// Curation in VS Code: the curation store of the open dataset (its review log and verifier runs), kept current as
// events are appended (here, in another window, by the CLI) and as runs land; the task view's review part and its
// requests; review mode; the statistics and adjudication panels; the export command; the curator name, blind mode and
// consensus policy settings. Labelling runs no code, so all of it works in Restricted Mode.
import { commandRegistrar } from '../reportingCommand';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CurationStore, resolveCurator } from '../../app/curationStore';
import { CURATION_DIR, LOG_FILE } from '../../adapters/fs/reviewLog';
import { RUNS_DIR } from '../../adapters/fs/runStore';
import type { ConsensusPolicy } from '../../core/review/consensus';
import { CONSENSUS_POLICIES } from '../../core/review/consensus';
import { curatorNameProblem } from '../../core/review/curator';
import type { AdjudicatePayload } from '../../core/review/events';
import type { ReviewActResult, TaskViewModel } from '../../protocol/messages';
import type { DatasetService } from '../datasetService';
import type { DiffDocuments } from '../diffDocuments';
import type { DisposableStore } from '../disposables';
import type { CurationStatus } from '../reviewStatus';
import type { TaskPanels } from '../taskPanels';
import type { ReviewRequests } from '../taskSession';
import { ADJUDICATION_PANEL_TYPE, CurationPanels, STATS_PANEL_TYPE } from './curationPanels';
import { openEvidence } from './evidence';
import type { ExportArgs, ExportOutcome } from './exportCommand';
import { exportCuratedSet } from './exportCommand';
import type { CuratorName } from './reviewActions';
import { ReviewActions } from './reviewActions';

export const CURATION_CMD = {
  startReview: 'specweave.review.start',
  stopReview: 'specweave.review.stop',
  undo: 'specweave.review.undo',
  showStats: 'specweave.stats.show',
  showAdjudication: 'specweave.adjudication.show',
  exportSet: 'specweave.curation.export',
  setCurator: 'specweave.curator.set',
} as const;

/** Context key: review mode is on (its commands show in the palette). */
export const REVIEW_MODE_CTX = 'specweave.reviewMode';

export interface CurationSettings {
  /** `specweave.curator.name`; empty: git's user.name. */
  curatorName: string;
  blind: boolean;
  policy: ConsensusPolicy;
}

export function readCurationSettings(): CurationSettings {
  const c = vscode.workspace.getConfiguration('specweave');
  const policy = c.get<string>('curation.policy', 'adjudicate');
  return {
    // Taken as typed (not trimmed): a name with stray white space is refused, not silently changed.
    curatorName: c.get<string>('curator.name', ''),
    blind: c.get<boolean>('curation.blindMode', false),
    policy: (CONSENSUS_POLICIES as readonly string[]).includes(policy) ? (policy as ConsensusPolicy) : 'adjudicate',
  };
}

export interface CurationDeps {
  extensionUri: vscode.Uri;
  dataset: DatasetService;
  panels: () => TaskPanels | undefined;
  diffs: DiffDocuments;
  statuses: CurationStatus;
  log: vscode.LogOutputChannel;
}

/** How often the log file is checked for appends the file watcher may miss (a dataset outside the workspace). */
const POLL_MS = 2000;

export class CurationController implements vscode.Disposable {
  readonly actions: ReviewActions;
  readonly curationPanels: CurationPanels;
  private storeValue: CurationStore | undefined;
  private curatorValue: CuratorName = { ok: false, message: 'no dataset is open' };
  private settings = readCurationSettings();
  private watchers: vscode.Disposable[] = [];
  private poll: NodeJS.Timeout | undefined;
  private logStamp = '';
  private reloadTimer: NodeJS.Timeout | undefined;
  /** Store open failures, for the problems view and tests. */
  lastError: string | undefined;

  constructor(private readonly d: CurationDeps) {
    this.actions = new ReviewActions({
      store: () => this.storeValue,
      curator: () => this.curatorValue,
      blind: () => this.settings.blind,
      changed: (ids) => this.changed(ids),
      showTask: (taskId) => this.d.panels()?.retarget(taskId),
      openEvidence: (taskId, link) => openEvidence({ root: this.d.dataset.root, task: this.d.dataset.task(taskId), diffs: this.d.diffs }, link),
      stopped: () => void vscode.commands.executeCommand('setContext', REVIEW_MODE_CTX, false),
    });
    this.curationPanels = new CurationPanels({
      extensionUri: d.extensionUri,
      store: () => this.storeValue,
      curator: () => this.curatorValue,
      log: d.log,
      openTask: (taskId) => this.d.panels()?.open(taskId),
      adjudicate: (taskId, payload) => this.adjudicate(taskId, payload),
    });
  }

  /** The store of the open dataset, once it has loaded. */
  get store(): CurationStore | undefined {
    return this.storeValue;
  }

  get curator(): CuratorName {
    return this.curatorValue;
  }

  register(store: DisposableStore): void {
    store.add(
      this.d.dataset.onDidChange((c) => {
        if (c.kind === 'closed' || c.kind === 'opened') this.closeStore();
        else if (c.kind === 'loaded') this.openStore();
        else if (c.kind === 'tasks') this.scheduleDatasetReload(c.taskIds);
      }),
    );
    store.add(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('specweave.curator') || e.affectsConfiguration('specweave.curation')) this.applySettings();
      }),
    );
    store.add(vscode.window.registerWebviewPanelSerializer(STATS_PANEL_TYPE, { deserializeWebviewPanel: async (p) => this.curationPanels.restore('stats', p) }));
    store.add(vscode.window.registerWebviewPanelSerializer(ADJUDICATION_PANEL_TYPE, { deserializeWebviewPanel: async (p) => this.curationPanels.restore('adjudication', p) }));

    const reg = commandRegistrar(store, this.d.log, { prefix: 'SpecWeave: ' });
    reg(CURATION_CMD.startReview, () => this.startReviewMode());
    reg(CURATION_CMD.stopReview, () => {
      this.actions.stopReviewMode();
      this.changed(undefined);
      return true;
    });
    reg(CURATION_CMD.undo, async (arg) => {
      const taskId = typeof arg === 'string' ? arg : this.d.panels()?.active?.taskId;
      if (!taskId) {
        void vscode.window.showInformationMessage('Open a task first: undo acts on the task in the task view.');
        return undefined;
      }
      const r = await this.actions.requests(taskId).undo({});
      if (r.ok) void vscode.window.setStatusBarMessage(`SpecWeave: ${r.summary}`, 4000);
      else void vscode.window.showWarningMessage(r.message);
      return r;
    });
    reg(CURATION_CMD.showStats, () => {
      this.curationPanels.show('stats');
      return true;
    });
    reg(CURATION_CMD.showAdjudication, () => {
      this.curationPanels.show('adjudication');
      return true;
    });
    reg(CURATION_CMD.exportSet, (arg) => this.exportSet(arg));
    reg(CURATION_CMD.setCurator, (arg) => this.setCurator(arg));
    void vscode.commands.executeCommand('setContext', REVIEW_MODE_CTX, false);
    if (this.d.dataset.root && !this.d.dataset.loading) this.openStore();
  }

  dispose(): void {
    this.closeStore();
    this.curationPanels.dispose();
  }

  /** Adds the review part to a task's view model (the task panels call it for every model they build). */
  extendModel(taskId: string, model: TaskViewModel): TaskViewModel {
    if (!this.storeValue || !this.d.dataset.task(taskId)) return model;
    try {
      const review = this.actions.view(taskId);
      return review ? { ...model, status: review.status, review } : model;
    } catch (e) {
      this.d.log.error(`review of ${taskId}: ${e instanceof Error ? e.message : String(e)}`);
      return { ...model, notices: [...model.notices, `The review of this task could not be shown: ${e instanceof Error ? e.message : String(e)}`] };
    }
  }

  /** The handlers of a task view's review requests. */
  requests(taskId: string): ReviewRequests {
    return this.actions.requests(taskId);
  }

  /** Starts review mode on the first task of the queue; returns its id (undefined when nothing is left). */
  async startReviewMode(): Promise<string | undefined> {
    if (!this.storeValue) {
      await this.d.dataset.whenLoaded();
      if (!this.storeValue) this.openStore();
    }
    if (!this.storeValue) {
      void vscode.window.showInformationMessage('Open a dataset first: review mode goes through its tasks.');
      return undefined;
    }
    if (!this.curatorValue.ok) {
      const pick = await vscode.window.showWarningMessage(`Review mode needs your curator name: ${this.curatorValue.message}`, 'Set Curator Name…');
      if (pick) await vscode.commands.executeCommand(CURATION_CMD.setCurator);
      if (!this.curatorValue.ok) return undefined;
    }
    this.actions.startReviewMode();
    void vscode.commands.executeCommand('setContext', REVIEW_MODE_CTX, true);
    const active = this.d.panels()?.active?.taskId;
    const first = this.actions.firstQueued() ;
    const target = active !== undefined && this.storeValue.queue(this.curatorName()).items.some((i) => i.taskId === active) ? active : first;
    if (target === undefined) {
      this.actions.stopReviewMode();
      void vscode.window.showInformationMessage('Nothing left to review: you have submitted every task, or it is decided.');
      return undefined;
    }
    const panels = this.d.panels();
    if (panels) {
      if (panels.active && panels.active.taskId !== target) panels.retarget(target);
      else panels.open(target);
    }
    this.changed(undefined);
    return target;
  }

  private curatorName(): string {
    return this.curatorValue.ok ? this.curatorValue.name : '';
  }

  private async adjudicate(taskId: string, payload: AdjudicatePayload): Promise<ReviewActResult> {
    return this.actions.act(taskId, { kind: 'adjudicate', ...payload });
  }

  private async exportSet(arg: unknown): Promise<ExportOutcome> {
    const args: ExportArgs = {};
    if (typeof arg === 'object' && arg !== null) {
      const a = arg as { out?: unknown; format?: unknown };
      if (typeof a.out === 'string') args.out = a.out;
      if (a.format === 'specweave' || a.format === 'swebench') args.format = a.format;
    }
    return exportCuratedSet(this.storeValue, args, this.d.log);
  }

  /** Asks for (or takes) a curator name, refuses one with control characters, and saves it as a user setting. */
  private async setCurator(arg: unknown): Promise<boolean> {
    let name = typeof arg === 'string' ? arg : undefined;
    if (name === undefined) {
      name = await vscode.window.showInputBox({
        title: 'SpecWeave: your curator name in the review log',
        value: this.curatorValue.ok ? this.curatorValue.name : '',
        prompt: 'Empty: use git config user.name',
        validateInput: (v) => (v === '' ? undefined : curatorNameProblem(v)),
      });
      if (name === undefined) return false;
    }
    const problem = name === '' ? undefined : curatorNameProblem(name);
    if (problem) {
      void vscode.window.showErrorMessage(`SpecWeave: not a curator name: ${problem}.`);
      return false;
    }
    await vscode.workspace.getConfiguration('specweave').update('curator.name', name, vscode.ConfigurationTarget.Global);
    this.applySettings();
    return true;
  }

  private applySettings(): void {
    const before = this.settings;
    this.settings = readCurationSettings();
    if (this.storeValue) this.storeValue.policy = this.settings.policy;
    const curatorBefore = JSON.stringify(this.curatorValue);
    this.resolveCuratorName();
    if (JSON.stringify(this.curatorValue) !== curatorBefore && !this.curatorValue.ok && this.settings.curatorName !== '') {
      void vscode.window.showWarningMessage(`SpecWeave: the curator name in specweave.curator.name is refused: ${this.curatorValue.message}. Labels cannot be recorded until it is fixed.`);
    }
    if (before.blind !== this.settings.blind || before.policy !== this.settings.policy || JSON.stringify(this.curatorValue) !== curatorBefore) this.changed(undefined);
  }

  private resolveCuratorName(): void {
    const r = resolveCurator({ setting: this.settings.curatorName, ...(this.d.dataset.root ? { cwd: this.d.dataset.root } : {}) });
    this.curatorValue = r.ok ? { ok: true, name: r.name, source: r.source } : { ok: false, message: r.message };
  }

  private openStore(): void {
    const root = this.d.dataset.root;
    const manifest = this.d.dataset.manifest;
    if (!root || !manifest) return;
    this.closeStore();
    const t0 = performance.now();
    try {
      this.storeValue = CurationStore.forDataset({ root, manifest, tasks: [...this.d.dataset.tasks], problems: [] }, { policy: this.settings.policy });
      this.lastError = undefined;
    } catch (e) {
      this.lastError = e instanceof Error ? e.message : String(e);
      this.d.log.error(`the review log of ${root} could not be opened: ${this.lastError}`);
      void vscode.window.showErrorMessage(`SpecWeave: the review log could not be opened: ${this.lastError}`);
      return;
    }
    this.resolveCuratorName();
    const problems = this.storeValue.problems();
    this.d.log.info(
      `review log ${path.join(root, CURATION_DIR, LOG_FILE)}: ${this.storeValue.state.events.length} events in ${(performance.now() - t0).toFixed(0)} ms; curator ${this.curatorValue.ok ? `${this.curatorValue.name} (${this.curatorValue.source})` : `unset: ${this.curatorValue.message}`}`,
    );
    for (const p of problems.slice(0, 20)) this.d.log.warn(`${p.file}: ${p.message}`);
    if (problems.some((p) => p.severity === 'error' || /set aside|rejected|checksum|torn|malformed|symlink/i.test(p.message))) {
      // Reading writes nothing: bad lines stay where they are until the next decision is recorded, which copies them aside.
      void vscode.window.showWarningMessage(`SpecWeave: ${problems.length} problem(s) in the review log; bad lines are ignored (the next decision you record copies them into curation/events.rejected.jsonl). See the SpecWeave output.`);
    }
    this.watch(root);
    this.changed(undefined);
  }

  private closeStore(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    clearInterval(this.poll);
    clearTimeout(this.reloadTimer);
    this.poll = undefined;
    const had = this.storeValue !== undefined;
    this.storeValue = undefined;
    if (had) {
      this.actions.stopReviewMode();
      this.changed(undefined);
    }
  }

  /** Task folders changed on disk (a new revision from repair, an edit): the store reads the dataset again. */
  private scheduleDatasetReload(taskIds: string[]): void {
    if (!this.storeValue) return;
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      const store = this.storeValue;
      if (!store) return;
      try {
        store.reloadDataset();
      } catch (e) {
        this.d.log.error(`reloading the dataset for the review log failed: ${e instanceof Error ? e.message : String(e)}`);
      }
      this.changed(taskIds);
    }, 200);
  }

  private watch(root: string): void {
    const logPattern = new vscode.RelativePattern(vscode.Uri.file(root), `${CURATION_DIR}/${LOG_FILE}`);
    const logWatcher = vscode.workspace.createFileSystemWatcher(logPattern);
    const onLog = () => this.refreshLog();
    logWatcher.onDidChange(onLog);
    logWatcher.onDidCreate(onLog);
    logWatcher.onDidDelete(onLog);
    const runWatcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), `${RUNS_DIR}/**/*.json`));
    const onRun = (uri: vscode.Uri) => {
      const rel = path.relative(root, uri.fsPath).split(path.sep);
      const taskId = rel[0] === RUNS_DIR ? rel[1] : undefined;
      if (!taskId || !this.storeValue) return;
      this.storeValue.invalidateRuns(taskId);
      this.changed([taskId]);
    };
    runWatcher.onDidChange(onRun);
    runWatcher.onDidCreate(onRun);
    runWatcher.onDidDelete(onRun);
    this.watchers.push(logWatcher, runWatcher);
    this.logStamp = stampOf(path.join(root, CURATION_DIR, LOG_FILE));
    this.poll = setInterval(() => {
      const s = stampOf(path.join(root, CURATION_DIR, LOG_FILE));
      if (s !== this.logStamp) this.refreshLog();
    }, POLL_MS);
  }

  /** Reads what other writers appended (another window, the CLI) and refreshes every view of it. */
  refreshLog(): boolean {
    const store = this.storeValue;
    if (!store) return false;
    const root = this.d.dataset.root;
    if (root) this.logStamp = stampOf(path.join(root, CURATION_DIR, LOG_FILE));
    let changed: boolean;
    try {
      changed = store.refresh();
    } catch (e) {
      this.d.log.error(`reading the review log failed: ${e instanceof Error ? e.message : String(e)}`);
      return false;
    }
    if (changed) this.changed(undefined);
    return changed;
  }

  private changed(taskIds: string[] | undefined): void {
    this.d.statuses.changed(taskIds);
    this.curationPanels.refresh();
  }
}

function stampOf(file: string): string {
  try {
    const st = fs.statSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return 'missing';
  }
}
