// Task panels: one WebviewPanel per task in the editor area (revealed when already open), restored after a window
// reload by a serializer, each wired to a TaskSession that answers its webview.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readDatasetText, repoPath, resolveDatasetPath } from '../adapters/fs/datasetLoader';
import { isGitClone } from '../adapters/fs/git';
import { TrajectoryCache } from '../adapters/fs/trajectoryCache';
import type { TrajectoryReadFn } from '../adapters/fs/trajectoryCache';
import type { CandidateTask } from '../core/model';
import { buildTaskViewModel } from '../core/view/taskView';
import type { TaskViewInputs, TextOrError } from '../core/view/taskView';
import { PROTOCOL_VERSION } from '../protocol/messages';
import { POP_OUT_REGIONS } from '../protocol/messages';
import type { ActionMethod, ActionResult, EvidenceLinkView, PopOutRegion, ProbeDiffReport, TaskViewModel, TrajectoryInfoView, ViewCommand, WebviewState } from '../protocol/messages';
import { CTX, TASK_PANEL_TYPE } from './commandIds';
import type { ActiveTask } from './activeTask';
import type { CandidatesTree } from './candidatesTree';
import type { DatasetService } from './datasetService';
import type { DiffDocuments } from './diffDocuments';
import { DisposableStore } from './disposables';
import type { PageWatchdog } from './pageWatchdog';
import { panelWatchdog } from './panelWatchdog';
import type { ReviewStatusSource } from './reviewStatus';
import type { TaskViewSection } from './taskSections';
import { SectionMerger } from './taskSections';
import { TaskSession } from './taskSession';
import type { CiteOutcome, EditorActions, ReviewRequests } from './taskSession';
import type { SpecRequests } from './specs/authoring';
import { UNTRUSTED_REASON } from './trust';
import { buildWebviewHtml, localResourceRootPaths, makeNonce } from './webviewHtml';
import { WebviewAssets } from './webviewAssets';
import { errorText } from '../core/errorText';

const UI_STATE_KEY = 'specweave.taskPanel.uiState';

interface PanelEntry {
  panel: vscode.WebviewPanel;
  taskId: string;
  /** The session was started while the task was not in the dataset (still loading, or gone). */
  missing: boolean;
  /** The page in the panel has said `ready`: it can take an `init` for another task without reloading. */
  pageReady: boolean;
  /** The panel's HTML is set: a page is there or loading (any task's page can show any task). */
  htmlSet: boolean;
  session: TaskSession;
  /** Reloads a page that never says `ready` (a webview that failed to start). */
  watchdog: PageWatchdog;
  /** Disposed when the panel closes or shows another task. */
  sessionStore: DisposableStore;
  store: DisposableStore;
  /** A popped-out region: this panel shows one region of its task alone (beside the task's own panel). */
  popOut?: { region: PopOutRegion; tab?: string };
}

const REGION_TITLES: Record<PopOutRegion, string> = { request: 'Request', specs: 'Specs', attempts: 'Attempts', trajectory: 'Trajectories' };
const TAB_TITLES: Record<string, string> = { results: 'Results', review: 'Review', decision: 'Decision', repair: 'Repair', matrix: 'Matrix', tests: 'Tests', coupling: 'Coupling', probes: 'Probes' };

/** The panel's title: the task, and for a popped-out region what it shows. */
function panelTitle(taskId: string, popOut: PanelEntry['popOut']): string {
  if (!popOut) return taskId;
  const what = popOut.region === 'specs' && popOut.tab && TAB_TITLES[popOut.tab] ? TAB_TITLES[popOut.tab] : REGION_TITLES[popOut.region];
  return `${taskId} \u00b7 ${what}`;
}

export interface TaskPanelDeps {
  extensionUri: vscode.Uri;
  dataset: DatasetService;
  tree: CandidatesTree;
  statuses: ReviewStatusSource;
  diffs: DiffDocuments;
  readTrajectory: TrajectoryReadFn;
  memento: vscode.Memento;
  log: vscode.LogOutputChannel;
  /** Carries out an action a task page asks for on its task (each command it runs checks trust itself). */
  act(taskId: string, action: ActionMethod, suggestion?: string): Promise<ActionResult>;
  /** Answers a task view's review requests (the curation feature). */
  review?: (taskId: string) => ReviewRequests;
  /** Answers a task view's spec authoring requests (src/vscode/specs/authoring.ts). */
  specs?: (taskId: string) => SpecRequests;
  /** Marks a column or a file of it viewed (vscode/viewedMarks.ts). */
  setViewed?: (taskId: string, column: string, path: string | undefined, viewed: boolean) => Promise<{ ok: boolean; message?: string }>;
  /** The sections features contribute to the task view (verifier results, repair, review), merged in this order. */
  sections?: readonly TaskViewSection[];
  /** The task the user is on: the panels set it and carry out its `show` requests. */
  activeTask?: ActiveTask;
  /** Opens the log of a verifier run from a results cell (the verifier feature). */
  openRunLog?: (taskId: string, column: string, testId?: string) => Promise<{ opened: boolean; line?: number; message?: string }>;
  /** Opens a probe's patch as a native diff (the probes feature). */
  openProbeDiff?: (taskId: string, report: ProbeDiffReport, id: string) => Promise<{ opened: boolean; message?: string }>;
}

export class TaskPanels implements vscode.WebviewPanelSerializer<unknown>, vscode.Disposable {
  private readonly entries = new Map<vscode.WebviewPanel, PanelEntry>();
  private readonly assets: WebviewAssets;
  private activeEntry: PanelEntry | undefined;
  private readonly store = new DisposableStore();
  private readonly sections: SectionMerger;

  constructor(private readonly d: TaskPanelDeps) {
    this.assets = new WebviewAssets(path.join(d.extensionUri.fsPath, 'dist'));
    this.sections = new SectionMerger(d.sections ?? [], (line) => d.log.warn(line));
    for (const s of d.sections ?? []) {
      if (!s.onDidChange) continue;
      this.store.add(
        s.onDidChange((ids) => {
          for (const e of this.entries.values()) if (!ids || ids.includes(e.taskId)) e.session.pushUpdate();
        }),
      );
    }
    if (d.activeTask) {
      this.store.add(d.activeTask.onShow(({ taskId, mode }) => (mode === 'retarget' ? this.retarget(taskId) : this.open(taskId))));
    }
    this.store.add(
      d.dataset.onDidChange((c) => {
        for (const e of [...this.entries.values()]) {
          if (c.kind === 'closed') e.panel.dispose();
          else if (c.kind === 'tasks' && c.taskIds.includes(e.taskId)) this.restart(e);
          else if (c.kind === 'loaded' || (c.kind === 'progress' && e.missing)) {
            if (e.missing && this.d.dataset.task(e.taskId)) this.restart(e);
            else if (c.kind === 'loaded') e.session.pushUpdate();
          }
        }
      }),
    );
    this.store.add(
      d.statuses.onDidChange((ids) => {
        for (const e of this.entries.values()) if (!ids || ids.includes(e.taskId)) e.session.pushUpdate();
      }),
    );
  }

  /** The panel that is focused (or was focused last while still visible). */
  get active(): { taskId: string; session: TaskSession; panel: vscode.WebviewPanel } | undefined {
    return this.activeEntry;
  }

  /** Open panels by task id (for tests). */
  openTaskIds(): string[] {
    return [...this.entries.values()].map((e) => e.taskId);
  }

  sessionOf(taskId: string): TaskSession | undefined {
    return this.entryOf(taskId)?.session;
  }

  /** The task's own panel (a popped-out region's only when the task has no other). */
  private entryOf(taskId: string): PanelEntry | undefined {
    const all = [...this.entries.values()].filter((e) => e.taskId === taskId);
    return all.find((e) => !e.popOut) ?? all[0];
  }

  /** Popped-out regions open now, as `task · region[ · tab]` (for tests). */
  popOuts(): string[] {
    return [...this.entries.values()].filter((e) => e.popOut).map((e) => [e.taskId, e.popOut!.region, ...(e.popOut!.tab ? [e.popOut!.tab] : [])].join(' \u00b7 '));
  }

  /**
   * Shows one region of a task alone in a tab of its own beside the task view (the results, the review grid, a
   * repair's matrix get a whole editor); the same region again reveals the tab it already has.
   */
  popOut(taskId: string, region: PopOutRegion, tab?: string): { opened: boolean; message?: string } {
    if (!this.d.dataset.task(taskId)) return { opened: false, message: `Task ${taskId} is not in the dataset.` };
    const existing = [...this.entries.values()].find((e) => e.taskId === taskId && e.popOut?.region === region && (region !== 'specs' || e.popOut.tab === tab));
    if (existing) {
      existing.panel.reveal(existing.panel.viewColumn);
      return { opened: true };
    }
    const popOut = { region, ...(tab ? { tab } : {}) };
    const panel = vscode.window.createWebviewPanel(TASK_PANEL_TYPE, panelTitle(taskId, popOut), { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, this.webviewOptions());
    this.attach(panel, taskId, popOut);
    return { opened: true };
  }

  /** Shows the task: reveals its panel when open, else opens one. */
  open(taskId: string, opts: { preserveFocus?: boolean } = {}): void {
    const existing = this.entryOf(taskId);
    if (existing) {
      existing.panel.reveal(undefined, opts.preserveFocus);
      return;
    }
    const panel = vscode.window.createWebviewPanel(TASK_PANEL_TYPE, taskId, { viewColumn: vscode.ViewColumn.Active, preserveFocus: opts.preserveFocus ?? false }, this.webviewOptions());
    this.attach(panel, taskId);
  }

  /**
   * Gives a citation made in an editor to the task's page (its focused pair's draft). An open panel is left where it
   * is, so the editor keeps the focus; a closed one opens beside it.
   */
  cite(taskId: string, link: EvidenceLinkView, note?: string): Promise<CiteOutcome> {
    const entry = this.entryOf(taskId);
    // A hidden panel has no page to answer: shown again (the editor keeps the focus), it loads one that does.
    if (entry && !entry.panel.visible) entry.panel.reveal(entry.panel.viewColumn, true);
    let session = entry?.session;
    if (!session) {
      const panel = vscode.window.createWebviewPanel(TASK_PANEL_TYPE, taskId, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, this.webviewOptions());
      this.attach(panel, taskId);
      session = this.sessionOf(taskId);
    }
    return session ? session.cite(link, note) : Promise.resolve({ ok: false, message: `Task ${taskId} cannot be opened.` });
  }

  /** Opens (or reveals) the task and shows one step of an attempt's trajectory in it. */
  revealStep(taskId: string, column: string, step: number): void {
    this.open(taskId);
    this.entryOf(taskId)?.session.reveal(column, step);
  }

  /** Shows another task in the active panel (next/previous), or reveals it where it is already open. */
  retarget(taskId: string): void {
    const cur = this.activeEntry;
    const existing = this.entryOf(taskId);
    if (existing || !cur) {
      this.open(taskId);
      return;
    }
    cur.sessionStore.dispose();
    this.startSession(cur, taskId, true);
  }

  /** Forwards a keyboard command to the active panel; false when no task panel is active. */
  forward(command: ViewCommand): boolean {
    const e = this.activeEntry;
    if (!e) return false;
    e.session.command(command);
    return true;
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const taskId = typeof state === 'object' && state !== null && typeof (state as { taskId?: unknown }).taskId === 'string' ? (state as { taskId: string }).taskId : undefined;
    panel.webview.options = this.webviewOptions();
    if (!taskId) {
      panel.dispose();
      return;
    }
    const saved = (state as { popOut?: unknown; tab?: unknown }).popOut;
    const popOut = typeof saved === 'string' && (POP_OUT_REGIONS as readonly string[]).includes(saved) ? { region: saved as PopOutRegion, ...(typeof (state as { tab?: unknown }).tab === 'string' ? { tab: (state as { tab: string }).tab.slice(0, 64) } : {}) } : undefined;
    // The dataset may still be loading after a reload; the panel shows once its task is known.
    const t0 = Date.now();
    await this.d.dataset.whenLoaded();
    this.d.log.info(`task view ${taskId}: restored after ${Date.now() - t0} ms (dataset ${this.d.dataset.root ? `${this.d.dataset.taskCount} tasks` : 'not open'}, task ${this.d.dataset.task(taskId) ? 'found' : 'not found'})`);
    this.attach(panel, taskId, popOut);
  }

  dispose(): void {
    for (const e of [...this.entries.values()]) e.panel.dispose();
    this.store.dispose();
  }

  private webviewOptions(): vscode.WebviewOptions & vscode.WebviewPanelOptions {
    return {
      enableScripts: true,
      enableFindWidget: false,
      retainContextWhenHidden: false,
      localResourceRoots: localResourceRootPaths(this.d.extensionUri.fsPath).map((p) => vscode.Uri.file(p)),
    };
  }

  private attach(panel: vscode.WebviewPanel, taskId: string, popOut?: PanelEntry['popOut']): void {
    const store = new DisposableStore();
    // The watchdog's callbacks run later, once `entry` exists: they name the task the panel shows then.
    const watchdog = store.add(panelWatchdog(panel, () => `task view ${entry.taskId}`, () => { panel.webview.html = this.html(panel.webview, entry.taskId, entry.session?.taskId === entry.taskId ? this.firstMessage(entry.session) : undefined, entry.popOut); }, this.d.log));
    const entry: PanelEntry = { panel, taskId, missing: false, pageReady: false, htmlSet: false, session: undefined as unknown as TaskSession, sessionStore: new DisposableStore(), store, watchdog, ...(popOut ? { popOut } : {}) };
    this.entries.set(panel, entry);
    panel.iconPath = vscode.Uri.joinPath(this.d.extensionUri, 'media', 'task.svg');
    store.add(
      panel.onDidChangeViewState((ev) => {
        if (ev.webviewPanel.active) this.setActive(entry);
        else if (this.activeEntry === entry) this.setActive(undefined);
        if (!ev.webviewPanel.visible) entry.session.hidden();
      }),
    );
    store.add(
      panel.onDidDispose(() => {
        entry.sessionStore.dispose();
        store.dispose();
        this.entries.delete(panel);
        if (this.activeEntry === entry) this.setActive(undefined);
      }),
    );
    this.startSession(entry, taskId);
    if (panel.active) this.setActive(entry);
  }

  private setActive(e: PanelEntry | undefined): void {
    this.activeEntry = e;
    this.d.activeTask?.set(e?.taskId);
    void vscode.commands.executeCommand('setContext', CTX.taskPanelActive, e !== undefined);
  }

  /**
   * Starts answering the panel's webview for `taskId`. A new page loads with a `ready` handshake; `reuse` keeps the page
   * that is there and sends it the new task's `init` at once (the webview starts over for another task), which skips
   * the webview's start-up.
   */
  private startSession(entry: PanelEntry, taskId: string, reuse = false): void {
    const { panel } = entry;
    const sessionStore = new DisposableStore();
    entry.sessionStore = sessionStore;
    entry.taskId = taskId;
    if (this.activeEntry === entry) this.d.activeTask?.set(taskId);
    const task = this.d.dataset.task(taskId);
    entry.missing = task === undefined;
    panel.title = panelTitle(taskId, entry.popOut);
    const root = this.d.dataset.root;
    const cache = new TrajectoryCache(
      this.d.readTrajectory,
      (column) => {
        const t = this.d.dataset.task(taskId);
        const rel = t?.attempts.find((a) => a.id === column)?.trajectoryFile;
        if (!rel || !root) return undefined;
        try {
          return { abs: resolveDatasetPath(root, rel), label: rel, datasetRoot: root };
        } catch (e) {
          // A trajectory symlinked out of the dataset is not read: the column says why.
          return { error: errorText(e), label: rel };
        }
      },
      (column, entryLoaded) => session.trajectoryLoaded(column, entryLoaded),
    );
    const states = this.d.memento.get<Record<string, WebviewState>>(UI_STATE_KEY) ?? {};
    const actions = this.actions(taskId);
    const session: TaskSession = new TaskSession({
      taskId,
      post: (m) => {
        panel.webview.postMessage(m).then(
          (delivered) => {
            if (!delivered && m.type === 'init') this.d.log.warn(`task view ${taskId}: VS Code did not deliver the task to the page; the page asks again`);
          },
          () => undefined,
        );
      },
      buildModel: (traj) => this.model(taskId, traj),
      cache,
      trajectoryColumns: task?.attempts.filter((a) => a.trajectoryFile).map((a) => a.id) ?? [],
      actions,
      ...(this.d.review ? { review: this.d.review(taskId) } : {}),
      ...(this.d.specs ? { specs: this.d.specs(taskId) } : {}),
      ...(states[taskId] ? { initialState: states[taskId] } : {}),
      // A popped-out region's page keeps its own place; the task's panel is the one whose state is remembered.
      onState: (s) => {
        if (entry.popOut) return;
        const all = { ...(this.d.memento.get<Record<string, WebviewState>>(UI_STATE_KEY) ?? {}) };
        delete all[s.taskId];
        all[s.taskId] = s;
        // Keep the most recent states only: the memento is not a store for every task ever opened.
        const keys = Object.keys(all);
        for (const k of keys.slice(0, Math.max(0, keys.length - 200))) delete all[k];
        void this.d.memento.update(UI_STATE_KEY, all);
      },
      log: (line) => this.d.log.warn(line),
      // The channel's `ready` handshake: the page can take another task's `init` without reloading.
      watchdog: {
        loaded: () => {
          entry.pageReady = true;
          entry.watchdog.loaded();
        },
      },
    });
    entry.session = session;
    sessionStore.add({ dispose: () => session.dispose() });
    sessionStore.add(panel.webview.onDidReceiveMessage((m: unknown) => void session.receive(m)));
    if (reuse && entry.pageReady) void session.receive({ type: 'ready', protocol: PROTOCOL_VERSION });
    else if (!entry.htmlSet) {
      entry.htmlSet = true;
      const t0 = performance.now();
      const first = this.firstMessage(session);
      const t1 = performance.now();
      panel.webview.html = this.html(panel.webview, taskId, first, entry.popOut);
      this.d.log.info(`task view ${taskId}: page set (its first model built in ${Math.round(t1 - t0)} ms, the page in ${Math.round(performance.now() - t1)} ms)`);
      entry.watchdog.arm();
    }
    // Else the page is still loading: its `ready` reaches this session. Setting the HTML again while a page loads
    // (a restored panel whose task arrives with the dataset) could leave VS Code with two pages, neither of which
    // got the host's messages.
  }

  /** The page's first `init` for its HTML; none when the model cannot be built now (the page then waits for its `ready`'s answer, which says why). */
  private firstMessage(session: TaskSession): unknown {
    try {
      return session.firstMessage();
    } catch (e) {
      this.d.log.warn(`task view ${session.taskId}: the page starts without its first model: ${errorText(e)}`);
      return undefined;
    }
  }

  private html(webview: vscode.Webview, taskId: string, first?: unknown, popOut?: PanelEntry['popOut']): string {
    const toUri = (file: string) => webview.asWebviewUri(vscode.Uri.file(file)).toString();
    return buildWebviewHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      script: this.assets.script('webview.js', toUri),
      firstScript: this.assets.script('firstPaint.js', toUri),
      styles: this.assets.styles(['webview.css'], toUri),
      title: `Task ${taskId}`,
      taskId,
      ...(first !== undefined ? { first } : {}),
      ...(popOut ? { region: popOut.region, ...(popOut.tab ? { tab: popOut.tab } : {}) } : {}),
    });
  }

  /** The task changed on disk (patches, trajectories, specs): start over with a fresh session and cache. */
  private restart(e: PanelEntry): void {
    // The page stays: a request it sent to the old session (the spec edit whose write caused this) still gets its reply,
    // and what the old session still owed the page (a reveal asked for before the page was ready, a cite it has not
    // answered) is the new one's to deliver. Dropped, a link opened while its task was being written showed the task
    // but not the step.
    const owed = e.session?.handOver();
    e.session?.dispose({ finishReplies: true });
    e.sessionStore.dispose();
    this.startSession(e, e.taskId, true);
    if (owed) e.session.takeOver(owed);
  }

  private actions(taskId: string): EditorActions {
    const beside = vscode.ViewColumn.Beside;
    return {
      openDiff: (column, file) => this.d.diffs.openDiff(taskId, column, file, beside),
      compareColumns: (left, right, file) => this.d.diffs.compare(taskId, left, right, file, beside),
      openTest: (testId) => this.d.diffs.openTest(taskId, testId, beside),
      openPatch: (column) => this.d.diffs.openPatchFile(taskId, column, beside),
      popOut: (region, tab) => Promise.resolve(this.popOut(taskId, region, tab)),
      ...(this.d.setViewed ? { setViewed: (column: string, file: string | undefined, on: boolean) => this.d.setViewed!(taskId, column, file, on) } : {}),
      act: (action, suggestion) => this.d.act(taskId, action, suggestion),
      ...(this.d.openRunLog ? { openRunLog: (column: string, testId?: string) => this.d.openRunLog!(taskId, column, testId) } : {}),
      ...(this.d.openProbeDiff ? { openProbeDiff: (report: ProbeDiffReport, id: string) => this.d.openProbeDiff!(taskId, report, id) } : {}),
    };
  }

  /** The view model of a task as it is on disk now. */
  model(taskId: string, trajectories: ReadonlyMap<string, TrajectoryInfoView | { error: string }>): TaskViewModel {
    const task = this.d.dataset.task(taskId);
    const root = this.d.dataset.root;
    if (!task || !root) return missingTaskModel(taskId, root === undefined);
    const read = (rel: string | undefined): TextOrError => {
      if (!rel) return { error: 'no file' };
      try {
        return { text: readDatasetText(root, rel) };
      } catch (e) {
        return { error: errorText(e) };
      }
    };
    const inputs: TaskViewInputs = {
      task,
      status: this.d.statuses.statusOf(taskId),
      trusted: vscode.workspace.isTrusted,
      ...(vscode.workspace.isTrusted ? {} : { untrustedReason: UNTRUSTED_REASON }),
      request: read(task.files.request),
      testPatch: read(task.files.testPatch),
      ...(task.files.goldPatch ? { gold: read(task.files.goldPatch) } : {}),
      attemptPatches: new Map(task.attempts.map((a) => [a.id, read(a.patchFile)])),
      trajectories,
      notices: taskNotices(task, root),
    };
    const pos = this.d.tree.position(taskId);
    if (pos) inputs.position = pos;
    const model = buildTaskViewModel(inputs);
    return this.sections.merge(taskId, model);
  }
}

function taskNotices(task: CandidateTask, root: string): string[] {
  const out: string[] = [];
  if (task.repo.kind === 'git') {
    const dir = repoPath(root, task.repo);
    if (!isGitClone(dir)) {
      out.push(
        `The repository clone ${path.relative(root, dir) || dir} is missing: diffs against the base files are disabled; patches still open as text. Clone ${task.repo.name} there at ${task.repo.baseCommit.slice(0, 12)} to enable them.`,
      );
    }
  } else {
    out.push(`The repository lives in the image ${task.environment.image || '(none)'}: base files cannot be read locally, so patches open as text.`);
  }
  for (const n of task.notes) out.push(n);
  return out;
}

function missingTaskModel(taskId: string, noDataset: boolean): TaskViewModel {
  return {
    protocol: 1,
    taskId,
    title: taskId,
    revision: 0,
    status: 'candidate',
    repo: '',
    image: '',
    trusted: vscode.workspace.isTrusted,
    request: [],
    specs: [],
    tests: [],
    columns: [],
    notices: [noDataset ? 'No dataset is open: open the dataset this task belongs to.' : `Task ${taskId} is no longer in the dataset.`],
  };
}
