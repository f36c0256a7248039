// Curation in VS Code: the curation store of the open dataset (its review log and verifier runs), kept current as
// events are appended (here, in another window, by the CLI) and as runs land; the task view's review part and its
// requests; review mode; the statistics and adjudication panels; the export command; the curator name, blind mode and
// consensus policy settings. Labelling runs no code, so all of it works in Restricted Mode.
import { commandRegistrar } from '../reportingCommand';
import * as vscode from 'vscode';
import { notify } from '../notify';
import type { CurationStore } from '../../app/curationStore';
import { curatorNameProblem } from '../../core/review/curator';
import { buildCouplingView } from '../../core/view/taskView';
import type { AdjudicatePayload } from '../../core/review/events';
import type { ReviewActResult, ReviewView } from '../../protocol/messages';
import type { ActiveTask } from '../activeTask';
import type { DiffDocuments } from '../diffDocuments';
import type { DisposableStore } from '../disposables';
import { Emitter } from '../emitter';
import type { OpenDataset } from '../openDataset';
import type { CurationStatus } from '../reviewStatus';
import type { DifficultyBand } from '../difficultyBand';
import type { TaskViewSection } from '../taskSections';
import type { ReviewRequests } from '../taskSession';
import { ADJUDICATION_PANEL_TYPE, CurationPanels, STATS_PANEL_TYPE } from './curationPanels';
import { openEvidence } from './evidence';
import type { ExportArgs, ExportOutcome } from './exportCommand';
import { exportCuratedSet } from './exportCommand';
import type { CuratorName } from './reviewActions';
import { ReviewActions } from './reviewActions';
import { CURATION_CMD } from '../commandIds';
import { readCurationSettings, writeCuratorName } from '../settings';
import type { CurationSettings } from '../settings';

export { CURATION_CMD };

/** Context key: review mode is on (its commands show in the palette). */
export const REVIEW_MODE_CTX = 'specweave.reviewMode';

export type { CurationSettings };
export { readCurationSettings };

export interface CurationDeps {
  extensionUri: vscode.Uri;
  /** The open dataset's owner: the store, the curator, the change event. */
  owner: OpenDataset;
  activeTask: ActiveTask;
  diffs: DiffDocuments;
  statuses: CurationStatus;
  log: vscode.LogOutputChannel;
  /** The solve-rate band of the statistics panel (`specweave.difficulty.band`). */
  band?: DifficultyBand;
}

export class CurationController implements vscode.Disposable {
  readonly actions: ReviewActions;
  readonly curationPanels: CurationPanels;
  /** The review part of the task view (labels, scores, life cycle), from the owner's store. */
  readonly section: TaskViewSection;
  private readonly sectionChanges = new Emitter<readonly string[] | undefined>();
  private blind = readCurationSettings().blind;

  constructor(private readonly d: CurationDeps) {
    const owner = d.owner;
    this.actions = new ReviewActions({
      store: () => owner.store,
      curator: () => owner.curator,
      blind: () => this.blind,
      changed: (ids) => this.changed(ids),
      showTask: (taskId) => d.activeTask.show(taskId, 'retarget'),
      openEvidence: (taskId, link) => openEvidence({ root: owner.root, task: owner.tasks.task(taskId), diffs: this.d.diffs }, link),
      stopped: () => void vscode.commands.executeCommand('setContext', REVIEW_MODE_CTX, false),
    });
    this.curationPanels = new CurationPanels({
      extensionUri: d.extensionUri,
      store: () => owner.store,
      curator: () => owner.curator,
      log: d.log,
      openTask: (taskId) => d.activeTask.show(taskId, 'open'),
      adjudicate: (taskId, payload) => this.adjudicate(taskId, payload),
      ...(d.band ? { band: d.band } : {}),
    });
    this.section = {
      name: 'review',
      onDidChange: this.sectionChanges.event,
      contribute: (taskId) => {
        const store = owner.store;
        const task = owner.tasks.task(taskId);
        if (!store || !task) return undefined;
        const review = this.actions.view(taskId);
        // The coupling's co-flip over what the store measured: settled labels, our runs, the imported results.
        const coupling = buildCouplingView(task, { state: store.state.tasks.get(taskId), verifier: store.verifier(taskId), policy: store.policy });
        return review ? { review, coupling } : { coupling };
      },
    };
  }

  /** The store of the open dataset, once it has loaded. */
  get store(): CurationStore | undefined {
    return this.d.owner.store;
  }

  get curator(): CuratorName {
    return this.d.owner.curator;
  }

  /** Store open failures, for the problems view and tests. */
  get lastError(): string | undefined {
    return this.d.owner.lastError;
  }

  register(store: DisposableStore): void {
    store.add(
      this.d.owner.onDidChange((c) => {
        if (c.tasks === 'all' && !this.d.owner.store) this.actions.stopReviewMode();
        if (c.tasks === 'all' || c.log || c.settings || c.runs === 'all') this.changed(undefined);
        else if (c.tasks || c.runs) this.changed([...new Set([...(c.tasks ?? []), ...(c.runs ?? [])])]);
      }),
    );
    store.add(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('specweave.curator') || e.affectsConfiguration('specweave.curation')) this.applySettings();
      }),
    );
    if (this.d.band) store.add(this.d.band.onDidChange(() => this.curationPanels.refresh()));
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
      const taskId = typeof arg === 'string' ? arg : this.d.activeTask.taskId;
      if (!taskId) {
        void notify.info('Open a task first: undo acts on the task in the task view.');
        return undefined;
      }
      const r = await this.actions.requests(taskId).undo({});
      if (r.ok) void vscode.window.setStatusBarMessage(`SpecWeave: ${r.summary}`, 4000);
      else void notify.warn(r.message);
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
  }

  dispose(): void {
    this.curationPanels.dispose();
    this.sectionChanges.dispose();
  }

  /** The review part of a task's view model, as the viewer sees it now (the citations in editors read its labels). */
  reviewView(taskId: string): ReviewView | undefined {
    return this.actions.view(taskId);
  }

  /** The handlers of a task view's review requests. */
  requests(taskId: string): ReviewRequests {
    return this.actions.requests(taskId);
  }

  /** Starts review mode on the first task of the queue; returns its id (undefined when nothing is left). */
  async startReviewMode(): Promise<string | undefined> {
    if (!this.d.owner.store) await this.d.owner.tasks.whenLoaded();
    const store = this.d.owner.store;
    if (!store) {
      void notify.info('Open a dataset first: review mode goes through its tasks.');
      return undefined;
    }
    const c = this.d.owner.curator;
    if (!c.ok) {
      const pick = await notify.warn(`Review mode needs your curator name: ${c.message}`, 'Set Curator Name…');
      if (pick) await vscode.commands.executeCommand(CURATION_CMD.setCurator);
      if (!this.d.owner.curator.ok) return undefined;
    }
    this.actions.startReviewMode();
    void vscode.commands.executeCommand('setContext', REVIEW_MODE_CTX, true);
    const active = this.d.activeTask.taskId;
    const first = this.actions.firstQueued();
    const target = active !== undefined && store.queue(this.curatorName()).items.some((i) => i.taskId === active) ? active : first;
    if (target === undefined) {
      this.actions.stopReviewMode();
      void notify.info('Nothing left to review: you have submitted every task, or it is decided.');
      return undefined;
    }
    if (active !== undefined && active !== target) this.d.activeTask.show(target, 'retarget');
    else this.d.activeTask.show(target, 'open');
    this.changed(undefined);
    return target;
  }

  private curatorName(): string {
    const c = this.d.owner.curator;
    return c.ok ? c.name : '';
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
    return exportCuratedSet(this.d.owner.store, args, this.d.log);
  }

  /** Asks for (or takes) a curator name, refuses one with control characters, and saves it as a user setting. */
  private async setCurator(arg: unknown): Promise<boolean> {
    let name = typeof arg === 'string' ? arg : undefined;
    if (name === undefined) {
      name = await vscode.window.showInputBox({
        title: 'SpecWeave: your curator name in the review log',
        value: this.curatorName(),
        prompt: 'Empty: use git config user.name',
        validateInput: (v) => (v === '' ? undefined : curatorNameProblem(v)),
        ignoreFocusOut: true,
      });
      if (name === undefined) return false;
    }
    const problem = name === '' ? undefined : curatorNameProblem(name);
    if (problem) {
      void notify.error(`SpecWeave: not a curator name: ${problem}.`);
      return false;
    }
    await writeCuratorName(name);
    this.applySettings();
    return true;
  }

  private applySettings(): void {
    const blindBefore = this.blind;
    this.blind = readCurationSettings().blind;
    const r = this.d.owner.applySettings();
    if (r.changed && !r.curatorAfter.ok && this.d.owner.settings.curatorName !== '') {
      void notify.warn(`SpecWeave: ${r.curatorAfter.message}. Labels cannot be recorded until it is fixed.`);
    }
    if (blindBefore !== this.blind && !r.changed) this.changed(undefined);
  }

  /** Reads what other writers appended (another window, the CLI) and refreshes every view of it. */
  refreshLog(): boolean {
    return this.d.owner.refreshLog();
  }

  private changed(taskIds: string[] | undefined): void {
    this.d.statuses.changed(taskIds);
    this.sectionChanges.fire(taskIds);
    this.curationPanels.refresh();
  }
}
