// One task panel's conversation with its webview, without VS Code: validates what arrives, answers requests from the
// trajectory cache and the editor actions it is given, streams search hits, and refuses to post any message over the
// size limit. The panel (taskPanel.ts) wires it to a real webview; tests drive it directly.
import { validateWebviewMessage } from '../protocol/validate';
import type { ActionMethod, ActionResult, EvidenceLinkView, HandlerTable, HostToWebview, ReplyOf, RequestMap, RequestParams, TaskViewModel, TrajectoryInfoView, ViewCommand, WebviewState, WebviewToHost } from '../protocol/messages';
import { compileSearch, runSearch } from '../core/view/search';
import { trajectoryInfo } from '../core/view/taskView';
import { MAX_MESSAGE_BYTES, WebviewChannel } from './webviewChannel';
import type { CacheEntry, TrajectoryCache } from '../adapters/fs/trajectoryCache';
import { errorText } from '../core/errorText';
import type { SpecRequests } from './specs/authoring';

/** No message to the webview may be larger than this many bytes of JSON (the one channel's cap). */
export { MAX_MESSAGE_BYTES };

/** What the panel does in the editor on the webview's behalf. */
export interface EditorActions {
  openDiff(column: string, path: string): Promise<ReplyOf<RequestMap, 'openDiff'>>;
  compareColumns(left: string, right: string, path: string): Promise<ReplyOf<RequestMap, 'compareColumns'>>;
  openTest(testId: string): Promise<ReplyOf<RequestMap, 'openTest'>>;
  openPatch(column: string): Promise<ReplyOf<RequestMap, 'openPatch'>>;
  /** Opens a region of the task in a tab of its own beside the task view. */
  popOut?(region: RequestParams<'popOut'>['region'], tab: string | undefined): Promise<ReplyOf<RequestMap, 'popOut'>>;
  /** Carries out an action the page asks for on this task (a repair action names its suggestion). */
  act(action: ActionMethod, suggestion?: string): Promise<ActionResult>;
  /** Opens the log of the verifier run behind a results column (the verifier feature). */
  openRunLog?(column: string, testId?: string): Promise<ReplyOf<RequestMap, 'openRunLog'>>;
  /** Marks a column, or one of its files, viewed (the viewed marks, vscode/viewedMarks.ts). */
  setViewed?(column: string, path: string | undefined, viewed: boolean): Promise<ReplyOf<RequestMap, 'setViewed'>>;
  /** Opens a probe's patch as a native diff (the probes feature). */
  openProbeDiff?(report: RequestParams<'openProbeDiff'>['report'], id: string): Promise<ReplyOf<RequestMap, 'openProbeDiff'>>;
}

/** The requests the curation feature answers (labels, scores, life cycle, review mode). */
export const REVIEW_METHODS = ['label', 'score', 'submit', 'transition', 'approve', 'reject', 'undo', 'decideSuggestion', 'acceptFinding', 'dismissFinding', 'openEvidence', 'reviewQueue'] as const;
export type ReviewMethod = (typeof REVIEW_METHODS)[number];
export type ReviewRequests = Pick<HandlerTable<RequestMap>, ReviewMethod>;

export interface TaskSessionOptions {
  taskId: string;
  post(message: HostToWebview): void;
  /** Builds the view model, with whatever trajectory summaries are known so far. */
  buildModel(trajectories: ReadonlyMap<string, TrajectoryInfoView | { error: string }>): TaskViewModel;
  cache: TrajectoryCache;
  /** Ids of the columns that have a trajectory, in display order. */
  trajectoryColumns: readonly string[];
  actions: EditorActions;
  /** Answers the review requests for this task; without it they fail saying curation is unavailable. */
  review?: ReviewRequests;
  /** Answers the spec authoring requests for this task; without it they are refused saying authoring is unavailable. */
  specs?: SpecRequests;
  /** The last UI state the webview reported, to restore it. */
  initialState?: WebviewState;
  onState?(state: WebviewState): void;
  log?(line: string): void;
  /** Delay before pushing an updated model after trajectories load (coalesces several loads into one update). */
  updateDelayMs?: number;
  /** The panel's page-load watchdog: the channel tells it when the page says `ready`. */
  watchdog?: { loaded(): void };
}


/** What the page said to a `cite`: the pair the link joined, or why it did not. */
export type CiteOutcome = { ok: boolean; message: string; pair?: { attempt: string; spec: string } };

/** What a session hands to the next one of the same page (`TaskSession.handOver`). */
export interface SessionHandOver {
  reveal?: { column: string; step: number };
  cites: Array<[number, { resolve(o: CiteOutcome): void; message: HostToWebview }]>;
}

export class TaskSession {
  private ready = false;
  private pendingReveal: { column: string; step: number } | undefined;
  /**
   * Cites waiting for the page's `cited`, by id. Each `ready` is a new page that has seen none of them, so every one
   * still waiting is (re)sent after its `init`; the page ignores a link it already has.
   */
  private readonly cites = new Map<number, { resolve(o: CiteOutcome): void; message: HostToWebview }>();
  private nextCite = 1;
  private state: WebviewState | undefined;
  private search: { id: number; abort: AbortController } | undefined;
  private updateTimer: NodeJS.Timeout | undefined;
  private readonly summaries = new Map<string, TrajectoryInfoView | { error: string }>();
  private disposed = false;
  private readonly channel: WebviewChannel<RequestMap, WebviewToHost, HostToWebview>;
  /** Time from the `ready` message to the `init` message being posted, in milliseconds. */
  initMs = 0;

  constructor(private readonly o: TaskSessionOptions) {
    this.state = o.initialState;
    this.channel = new WebviewChannel<RequestMap, WebviewToHost, HostToWebview>({
      label: () => `task ${o.taskId}`,
      validate: validateWebviewMessage,
      post: (m) => o.post(m),
      handlers: this.handlers,
      ready: (m) => this.onReady(m),
      other: (m) => {
        if (m.type === 'cited') {
          const c = this.cites.get(m.citeId);
          this.cites.delete(m.citeId);
          c?.resolve({ ok: m.ok, message: m.message, ...(m.pair ? { pair: m.pair } : {}) });
        } else if (m.state.taskId === this.o.taskId) {
          this.setState(m.state);
          this.warm(m.state.activeColumn);
        }
      },
      ...(o.watchdog ? { watchdog: o.watchdog } : {}),
      log: (line) => o.log?.(line),
    });
  }

  /** Largest message posted so far, in bytes (for benchmarks and tests). */
  get largestMessage(): number {
    return this.channel.largestMessage;
  }

  get taskId(): string {
    return this.o.taskId;
  }

  get uiState(): WebviewState | undefined {
    return this.state;
  }

  /** Called by the cache when a trajectory has loaded: the column headers gain its summary. */
  trajectoryLoaded(column: string, entry: CacheEntry): void {
    this.summaries.set(column, 'error' in entry ? { error: entry.error } : trajectoryInfo(entry.summary));
    if (!this.ready || this.disposed) return;
    clearTimeout(this.updateTimer);
    this.updateTimer = setTimeout(() => this.pushUpdate(), this.o.updateDelayMs ?? 150);
  }

  /** Posts a fresh model (after the dataset or the review state changed). */
  pushUpdate(): void {
    if (!this.ready || this.disposed) return;
    this.send({ type: 'update', model: this.o.buildModel(this.summaries) });
  }

  /** Shows a step of a column in the page: now when the page is ready, else right after its `init`. */
  reveal(column: string, step: number): void {
    if (this.ready) this.send({ type: 'reveal', column, step });
    else this.pendingReveal = { column, step };
  }

  /**
   * Asks the page to add a link (and the curator's words) to its focused pair's draft; resolves with what the page
   * said, or, when the panel closes first, with that.
   */
  cite(link: EvidenceLinkView, note?: string): Promise<CiteOutcome> {
    if (this.disposed) return Promise.resolve({ ok: false, message: 'The task view is closed.' });
    const citeId = this.nextCite++;
    const message: HostToWebview = { type: 'cite', citeId, link, ...(note ? { note } : {}) };
    return new Promise<CiteOutcome>((resolve) => {
      this.cites.set(citeId, { resolve, message });
      if (this.ready) this.send(message);
    });
  }

  /**
   * What a new session of the same page takes over when this one is replaced (its task changed on disk while the page
   * stays): the reveal still waiting for the page's `ready` and the cites still waiting for its `cited`. Taken, they
   * are this session's no more (its dispose then resolves no cite).
   */
  handOver(): SessionHandOver {
    const h: SessionHandOver = { ...(this.pendingReveal ? { reveal: this.pendingReveal } : {}), cites: [...this.cites] };
    this.pendingReveal = undefined;
    this.cites.clear();
    return h;
  }

  /** Takes over what the session before it handed over (`handOver`): sent when the page is ready, as its own. */
  takeOver(h: SessionHandOver): void {
    if (this.disposed) return;
    if (h.reveal) this.reveal(h.reveal.column, h.reveal.step);
    for (const [id, c] of h.cites) {
      this.cites.set(id, c);
      this.nextCite = Math.max(this.nextCite, id + 1);
      if (this.ready) this.send(c.message);
    }
  }

  /**
   * The panel was hidden: VS Code drops its page (no retained context) and loads a new one when it is shown, which
   * says `ready` again. Until then messages wait here instead of being posted to no page.
   */
  hidden(): void {
    this.ready = false;
  }

  /** Forwards a keyboard command to the webview. */
  command(command: ViewCommand): void {
    if (this.ready) this.send({ type: 'command', command });
  }

  /** Handles one raw message from the webview. Never throws. */
  async receive(raw: unknown): Promise<void> {
    if (this.disposed) return;
    await this.channel.receive(raw);
  }

  /** With `finishReplies`: requests already received still get their reply (the page goes on with a new session). */
  dispose(o: { finishReplies?: boolean } = {}): void {
    if (this.disposed) return;
    this.disposed = true;
    this.channel.close(o);
    clearTimeout(this.updateTimer);
    this.search?.abort.abort();
    this.o.cache.dispose();
    for (const c of this.cites.values()) c.resolve({ ok: false, message: 'The task view closed before the citation reached it; cite again.' });
    this.cites.clear();
  }

  /**
   * The page's first message, for its HTML to carry (the page paints from it before its `ready` is answered): the
   * same `init` a `ready` gets, built now. The `init` answering the page's `ready` follows as ever.
   */
  firstMessage(): Extract<HostToWebview, { type: 'init' }> {
    return { type: 'init', model: this.o.buildModel(this.summaries), ...(this.state ? { state: this.state } : {}) };
  }

  private onReady(m: Extract<WebviewToHost, { type: 'ready' }>): void {
    const t0 = performance.now();
    if (m.state && m.state.taskId === this.o.taskId) this.setState(m.state);
    this.ready = true;
    const model = this.o.buildModel(this.summaries);
    this.send({ type: 'init', model, ...(this.state ? { state: this.state } : {}) });
    this.initMs = performance.now() - t0;
    const reveal = this.pendingReveal;
    this.pendingReveal = undefined;
    if (reveal) this.send({ type: 'reveal', ...reveal });
    for (const c of this.cites.values()) this.send(c.message);
    this.warm(this.state?.activeColumn ?? this.o.trajectoryColumns[0]);
  }

  /**
   * Starts loading the trajectory of the column the webview shows, after the first paint: its summary (step count)
   * then reaches the column header through an `update`, and the step list can size itself. Other columns stay on disk
   * until they are asked for.
   */
  private warm(column: string | undefined): void {
    if (column === undefined || !this.o.trajectoryColumns.includes(column) || this.o.cache.peek(column)) return;
    void this.o.cache.get(column);
  }

  private setState(s: WebviewState): void {
    this.state = s;
    this.o.onState?.(s);
  }

  private send(msg: HostToWebview): void {
    if (this.disposed) return;
    this.channel.send(msg);
  }

  private async steps(column: string) {
    const entry = await this.o.cache.get(column);
    if ('error' in entry) throw new Error(entry.error);
    return entry.index;
  }

  private readonly handlers: HandlerTable<RequestMap> = {
    getSteps: async (p) => (await this.steps(p.column)).page(p.start, p.count, p.kinds),
    getStepText: async (p) => {
      const slice = (await this.steps(p.column)).textSlice(p.step, p.offset, p.length);
      if (!slice) throw new Error(`${p.column} has no step ${p.step}`);
      return slice;
    },
    locateStep: async (p) => ({ position: (await this.steps(p.column)).locate(p.step, p.kinds) }),
    search: async (p) => {
      const q = compileSearch(p);
      if (!q.ok) return { started: false, error: q.error };
      this.search?.abort.abort();
      const abort = new AbortController();
      this.search = { id: p.searchId, abort };
      const cache = this.o.cache;
      void runSearch(
        {
          columns: this.o.trajectoryColumns,
          load: async (column) => {
            const e = await cache.get(column);
            return 'error' in e ? undefined : e.index.steps;
          },
        },
        q.re,
        {
          signal: abort.signal,
          ...(p.kinds ? { kinds: p.kinds } : {}),
          onHits: (hits, counts) => {
            if (!abort.signal.aborted) this.send({ type: 'searchHits', searchId: p.searchId, hits, counts });
          },
        },
      ).then(
        (out) => {
          if (this.search?.id === p.searchId) this.search = undefined;
          this.send({ type: 'searchDone', searchId: p.searchId, ...out });
        },
        (e: unknown) => this.o.log?.(`task ${this.o.taskId}: search failed: ${errorText(e)}`),
      );
      return { started: true };
    },
    cancelSearch: async (p) => {
      if (this.search?.id !== p.searchId) return { cancelled: false };
      this.search.abort.abort();
      this.search = undefined;
      return { cancelled: true };
    },
    openDiff: (p) => this.o.actions.openDiff(p.column, p.path),
    setViewed: (p) => (this.o.actions.setViewed ? this.o.actions.setViewed(p.column, p.path, p.viewed) : Promise.resolve({ ok: false, message: 'Viewed marks are not available in this window.' })),
    compareColumns: (p) => this.o.actions.compareColumns(p.left, p.right, p.path),
    openTest: (p) => this.o.actions.openTest(p.testId),
    openPatch: (p) => this.o.actions.openPatch(p.column),
    popOut: (p) => (this.o.actions.popOut ? this.o.actions.popOut(p.region, p.tab) : Promise.resolve({ opened: false, message: 'Regions cannot be opened in a tab of their own in this window.' })),
    nextTask: () => this.o.actions.act('nextTask'),
    previousTask: () => this.o.actions.act('previousTask'),
    startReviewMode: () => this.o.actions.act('startReviewMode'),
    requestRepair: () => this.o.actions.act('requestRepair'),
    runGold: () => this.o.actions.act('runGold'),
    reviewRepair: (p) => this.o.actions.act('reviewRepair', p.suggestion),
    acceptRepair: (p) => this.o.actions.act('acceptRepair', p.suggestion),
    rejectRepair: (p) => this.o.actions.act('rejectRepair', p.suggestion),
    showRepairPrompt: (p) => this.o.actions.act('showRepairPrompt', p.suggestion),
    showRepairMatrix: (p) => this.o.actions.act('showRepairMatrix', p.suggestion),
    openRunLog: (p) =>
      this.o.actions.openRunLog ? this.o.actions.openRunLog(p.column, p.testId) : Promise.resolve({ opened: false, message: 'Run logs are not available in this window.' }),
    openProbeDiff: (p) =>
      this.o.actions.openProbeDiff ? this.o.actions.openProbeDiff(p.report, p.id) : Promise.resolve({ opened: false, message: 'Probe diffs are not available in this window.' }),
    ...reviewHandlers(() => this.o.review),
    'specs.edit': (p) => (this.o.specs ? this.o.specs['specs.edit'](p) : Promise.resolve(NO_AUTHORING)),
    'specs.undo': (p) => (this.o.specs ? this.o.specs['specs.undo'](p) : Promise.resolve(NO_AUTHORING)),
  };
}

const NO_AUTHORING = { ok: false, code: 'unavailable', message: 'Spec authoring is not available in this window (no dataset is open).' } as const;

function reviewHandlers(review: () => ReviewRequests | undefined): ReviewRequests {
  const r = (): ReviewRequests => {
    const x = review();
    if (!x) throw new Error('curation is not available in this window (no review log is open)');
    return x;
  };
  return {
    label: async (p) => r().label(p),
    score: async (p) => r().score(p),
    submit: async (p) => r().submit(p),
    transition: async (p) => r().transition(p),
    approve: async (p) => r().approve(p),
    reject: async (p) => r().reject(p),
    undo: async (p) => r().undo(p),
    decideSuggestion: async (p) => r().decideSuggestion(p),
    acceptFinding: async (p) => r().acceptFinding(p),
    dismissFinding: async (p) => r().dismissFinding(p),
    openEvidence: async (p) => r().openEvidence(p),
    reviewQueue: async (p) => r().reviewQueue(p),
  };
}
