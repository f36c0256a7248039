// The task view: lays the regions out once per task and patches them on every update (every region is a lit-html
// template rendered into its own box with `render`, so an update that does not change a region touches none of its
// nodes, and focus, caret, selection and scroll stay where they were), routes host messages, keeps the UI state and
// persists it, and performs the actions that cross regions.
import { FIRST_MESSAGE_ID, POP_OUT_REGIONS, PROTOCOL_VERSION, type HostToWebview, type PopOutRegion, type RequestMap, type RequestParams, type RequestResult, type TaskStatusView, type TaskViewModel, type ViewCommand, type WebviewState } from '../../src/protocol/messages';
import type { Actions, Ctx } from './context';
import { html, nothing, render, type TemplateResult } from 'lit-html';
import { el, setText } from './dom';
import { connect, HostConnection } from './host';
import { actionForKey, CommandDedupe } from './keys';
import { reconcile, restoreState, savedWebviewState, toPersisted, toWebviewState, type UiState } from './state';
import { oneLine } from './text';
import { showAlone, split } from './ui/split';
import { vsTabs } from './ui/tabs';
import { ColumnsView } from './views/columns';
import { COUPLING_TAB, couplingView } from './views/coupling';
import { PROBES_TAB, probesView } from './views/probes';
import { header } from './views/header';
import { MatrixView } from './views/matrix';
import { REPAIR_TAB, RepairTab, SeenRepairs } from './views/repair';
import { requestView } from './views/request';
import { ResultsView } from './views/results';
import { reviewBar } from './views/reviewBar';
import { ReviewController } from './views/reviewController';
import { decisionTab } from './views/reviewDecision';
import { labelsTab } from './views/reviewLabels';
import { DECISION_TAB, REVIEW_TAB } from './views/reviewModel';
import { SpecLinks } from './views/specLinks';
import { SpecsView } from './views/specs';
import { TestsView } from './views/tests';
import { TrajectoryView } from './views/trajectory';
import type { VsCodeApi } from './vscodeApi';
import { errorText } from './text';

type RegionName = PopOutRegion;
const REGION_WORDS: Record<RegionName, string> = { request: 'request', specs: 'specs, results, review and repair area', attempts: 'attempts', trajectory: 'trajectories' };

/** Below this width the two sides stack, requests and specs above attempts and trajectories (views/layout.css). */
const STACK_BELOW_PX = 720;
/** Stacked: how much of the attempts region (its title, toolbar and first row of cards) stays on the first screen. */
const ATTEMPTS_IN_VIEW_PX = 200;

const VIEW_COMMANDS: readonly ViewCommand[] = ['nextAttempt', 'previousAttempt', 'nextHit', 'previousHit', 'focusSearch', 'openDiff'];

/** The views of one task that keep their own small state ("show all", the test asked for); made afresh per task. */
interface TaskViews {
  specs: SpecsView;
  matrix: MatrixView;
  tests: TestsView;
  results: ResultsView;
  columns: ColumnsView;
  repair: RepairTab;
}

/** A tab of the specs area, as a lit-html template. Later features add theirs here. */
interface SpecsTab {
  id: string;
  label: string;
  when(m: TaskViewModel): boolean;
  template(app: { ctx: Ctx; views: TaskViews; review: ReviewController }): TemplateResult;
}

const SPECS_TABS: readonly SpecsTab[] = [
  { id: 'specs', label: 'Specs', when: () => true, template: (a) => a.views.specs.template() },
  { id: 'matrix', label: 'Matrix', when: () => true, template: (a) => a.views.matrix.template() },
  { id: 'tests', label: 'Tests', when: () => true, template: (a) => a.views.tests.template() },
  { id: COUPLING_TAB, label: 'Coupling', when: (m) => m.coupling !== undefined, template: (a) => couplingView(a.ctx) },
  { id: 'results', label: 'Results', when: (m) => m.results !== undefined, template: (a) => a.views.results.template() },
  { id: REVIEW_TAB, label: 'Review', when: (m) => m.review !== undefined, template: (a) => labelsTab(a.review) },
  { id: DECISION_TAB, label: 'Decision', when: (m) => m.review !== undefined, template: (a) => decisionTab(a.review) },
  { id: REPAIR_TAB, label: 'Repair', when: (m) => m.repair !== undefined, template: (a) => a.views.repair.template() },
  { id: PROBES_TAB, label: 'Probes', when: (m) => m.probes !== undefined, template: (a) => probesView(a.ctx) },
];

/** The region a popped-out page shows alone (its body's `data-region`), if it is one of the task view's. */
function pinnedRegion(v: string | undefined): RegionName | undefined {
  return (POP_OUT_REGIONS as readonly string[]).includes(v ?? '') ? (v as RegionName) : undefined;
}

/** The `init` the page's HTML carries, if it carries one for the task the page is for. */
function firstMessage(doc: Document): { model: TaskViewModel; state?: WebviewState } | undefined {
  const block = doc.getElementById(FIRST_MESSAGE_ID);
  if (!block) return undefined;
  block.remove();
  let m: unknown;
  try {
    m = JSON.parse(block.textContent ?? '');
  } catch {
    return undefined;
  }
  if (typeof m !== 'object' || m === null) return undefined;
  const { type, model, state } = m as { type?: unknown; model?: unknown; state?: unknown };
  if (type !== 'init' || typeof model !== 'object' || model === null) return undefined;
  if ((model as { taskId?: unknown }).taskId !== doc.body.dataset.taskId) return undefined;
  return { model: model as TaskViewModel, ...(typeof state === 'object' && state !== null ? { state: state as WebviewState } : {}) };
}

export class App {
  private readonly host: HostConnection;
  private readonly links = new SpecLinks();
  private readonly dedupe = new CommandDedupe();
  private readonly statusLine = el('div', { class: 'status-line small', testid: 'status-line', attrs: { 'aria-live': 'polite' } });
  private model: TaskViewModel | undefined;
  /** The host's `init` has arrived (a model painted from the page's own first message is not an answer). */
  private hostAnswered = false;
  private state: UiState | undefined;
  private ctx: Ctx | undefined;
  private views: TaskViews | undefined;
  private trajectory: TrajectoryView | undefined;
  /** The regions' boxes, made once; each region is rendered into its box with lit-html's `render`. */
  private readonly specsContent = el('div', { class: 'region-body specs-content' });
  private readonly headerHost = el('div', { class: 'header-host' });
  private readonly barHost = el('div', { class: 'review-bar-host' });
  private readonly requestBody = el('div', { class: 'region-body' });
  private readonly attemptsBody = el('div', { class: 'region-body' });
  private readonly trajectorySection = el('section', { class: 'region', testid: 'region-trajectory' });
  private readonly specsHead = el('div', { class: 'specs-head' });
  private review: ReviewController | undefined;
  /** The layout's splits (made per task) and the region shown alone, if one is (not persisted: a reload shows all). */
  private splitEls: { main: HTMLElement; left: HTMLElement; right: HTMLElement } | undefined;
  private maximized: RegionName | undefined;
  /** This page shows one region alone, in a tab of its own (a popped-out region), and the specs tab it opened on. */
  private readonly pinned = pinnedRegion(document.body.dataset.region);
  private pinnedTab = typeof document.body.dataset.tab === 'string' ? document.body.dataset.tab.slice(0, 64) : undefined;
  /** Ends the listeners of the last layout (its breakpoint). */
  private layoutAbort: AbortController | undefined;
  private persistTimer: ReturnType<typeof setTimeout> | undefined;
  private lastPosted = '';
  private statusTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly seenRepairs: SeenRepairs;

  constructor(
    private readonly api: VsCodeApi,
    private readonly root: HTMLElement,
  ) {
    this.host = new HostConnection((m) => api.postMessage(m));
    this.seenRepairs = new SeenRepairs(api.getState());
    this.links.bind(this.requestBody);
    this.links.bind(this.specsContent);
    document.addEventListener('keydown', (e) => this.onKey(e));
    const loading = el('p', { class: 'muted loading', testid: 'loading', text: 'Loading the task\u2026' });
    root.append(loading);
    connect<RequestMap, HostToWebview>(this.host, {
      sayReady: () => {
        const ready: { type: 'ready'; protocol: number; state?: WebviewState } = { type: 'ready', protocol: PROTOCOL_VERSION };
        const saved = savedWebviewState(api.getState());
        if (saved) ready.state = saved;
        api.postMessage(ready);
      },
      answered: () => this.hostAnswered,
      onSilent: () => {
        loading.textContent = 'Loading the task\u2026 The extension has not answered yet; still asking. If this stays, close this tab and open the task again.';
      },
      onMessage: (msg) => this.onMessage(msg),
      onError: (type, e) => this.status(`Could not handle ${oneLine(type, 40)}: ${errorText(e)}`, true),
    });
    // The task as the host saw it when it made this page: painted now, before the `ready` just said is answered.
    const first = firstMessage(document);
    if (first) {
      try {
        this.load(first.model, first.state);
        performance.mark('specweave.firstPaint');
      } catch (e) {
        this.status(`Could not show the task before the extension answered: ${errorText(e)}`, true);
      }
    }
  }

  private onMessage(msg: Exclude<HostToWebview, { type: 'reply' }>): void {
    switch (msg.type) {
      case 'init':
        this.hostAnswered = true;
        performance.mark('specweave.init');
        this.load(msg.model, msg.state);
        performance.mark('specweave.rendered');
        break;
      case 'update':
        this.load(msg.model, undefined);
        break;
      case 'searchHits':
      case 'searchDone':
        this.trajectory?.onSearchMessage(msg);
        break;
      case 'command':
        if (VIEW_COMMANDS.includes(msg.command) && this.dedupe.acceptHost(msg.command, performance.now())) this.perform(msg.command);
        break;
      case 'reveal':
        if (typeof msg.column === 'string' && Number.isInteger(msg.step) && this.model?.columns.some((c) => c.id === msg.column)) {
          this.context().actions.activateColumn(msg.column);
          this.trajectory?.showStep(msg.column, msg.step);
        } else this.status(`This task has no trajectory step ${oneLine(String(msg.step), 20)} of ${oneLine(String(msg.column), 60)}.`, true);
        break;
      case 'cite': {
        const r = this.reviewController().cite(msg.link, typeof msg.note === 'string' ? msg.note : undefined);
        this.api.postMessage({ type: 'cited', citeId: msg.citeId, ...r });
        break;
      }
    }
  }

  private load(raw: TaskViewModel, hostState: WebviewState | undefined): void {
    const model = normalizeModel(raw);
    const sameTask = this.model !== undefined && this.model.taskId === model.taskId;
    const previous = this.model;
    this.model = model;
    const review = this.reviewController();
    review.onModel(model);
    if (!sameTask) {
      this.state = restoreState(model, this.state ? toPersisted(this.state) : this.api.getState(), hostState);
      if (this.seenRepairs.takeNew(model.repair)) this.state.specsTab = REPAIR_TAB;
      const reviewTab = review.initialTab(model);
      if (reviewTab) this.state.specsTab = reviewTab;
      // A popped-out specs area opens on the tab it was popped out from.
      if (this.pinnedTab) {
        this.state.specsTab = this.pinnedTab;
        this.pinnedTab = undefined;
      }
      // Another task: nothing of the old trajectories, hits, selection or "show all" may leak into the new one.
      this.trajectory?.dispose();
      this.trajectory = undefined;
      this.views?.columns.dispose();
      this.views = undefined;
      this.buildLayout();
      this.renderAll(true);
    } else {
      this.state = reconcile(this.state!, model);
      // A revalidation that just finished is what the curator is waiting for: show its before/after matrix.
      if (this.seenRepairs.takeNew(model.repair)) this.state.specsTab = REPAIR_TAB;
      // Review mode started on this open task (Start Review Mode while it showed another tab): the grid comes forward.
      if (review.enteredReviewMode(previous!, model)) this.state.specsTab = REVIEW_TAB;
      const trajectoriesChanged = JSON.stringify(previous!.columns.map((c) => c.trajectory)) !== JSON.stringify(model.columns.map((c) => c.trajectory));
      this.renderAll(trajectoriesChanged);
    }
    this.persist();
  }

  /** The page's layout, once per task: the regions' boxes and the split layouts holding them. */
  private buildLayout(): void {
    const request = el('section', { class: 'region', testid: 'region-request' }, el('div', { class: 'region-title', text: 'Request' }), this.requestBody);
    const specsArea = el('section', { class: 'region', testid: 'region-specs' }, this.specsHead, this.specsContent);
    const attempts = el('section', { class: 'region', testid: 'region-attempts' }, el('div', { class: 'region-title', text: 'Attempts' }), this.attemptsBody);
    const splits = this.state!.splits;
    // A region shown alone moves the handles itself: that is not the curator's layout to keep.
    const save = (name: string) => (p: number) => {
      if (this.maximized === undefined) this.setState({ splits: { ...this.state!.splits, [name]: p } });
    };
    this.maximized = undefined;
    for (const [name, section] of [['request', request], ['specs', specsArea], ['attempts', attempts], ['trajectory', this.trajectorySection]] as const) {
      section.classList.add('can-maximize');
      // The trajectory's section outlives a layout: the last layout's buttons go.
      for (const old of section.querySelectorAll(':scope > .region-maximize')) old.remove();
      if (this.pinned === undefined) section.append(this.popOutButton(name), this.maximizeButton(name));
    }
    const left = split('horizontal', request, specsArea, { testid: 'split-left', position: splits.left ?? 45, minStart: '60px', minEnd: '80px', onResize: save('left') });
    const right = split('horizontal', attempts, this.trajectorySection, { testid: 'split-right', position: splits.right ?? 32, minStart: '60px', minEnd: '160px', onResize: save('right') });
    this.layoutAbort?.abort();
    this.layoutAbort = new AbortController();
    const main = split('vertical', el('div', { class: 'pane' }, left), el('div', { class: 'pane' }, right), {
      testid: 'split-main',
      position: splits.main ?? 40,
      minStart: '200px',
      minEnd: '280px',
      onResize: save('main'),
      stackBelow: STACK_BELOW_PX,
      // Stacked, the attempts' title, toolbar and first row of cards stay on the first screen however tall the request
      // and specs are dragged.
      stacked: { position: splits.mainStacked ?? 40, onResize: save('mainStacked'), endInView: ATTEMPTS_IN_VIEW_PX },
      signal: this.layoutAbort.signal,
    });
    this.splitEls = { main, left, right };
    for (const box of [this.headerHost, this.barHost, this.requestBody, this.specsHead, this.specsContent, this.attemptsBody]) render(nothing, box);
    this.root.replaceChildren(this.headerHost, this.barHost, el('main', { class: 'regions', testid: 'regions' }, main));
    if (this.pinned) {
      const pinned = this.pinned;
      this.root.dataset.popout = pinned;
      // Once the splits have rendered (a split set before its first layout keeps its handle where it started).
      requestAnimationFrame(() => {
        if (this.splitEls?.main === main && this.maximized !== pinned) this.toggleMaximized(pinned);
      });
    }
  }

  private popOutButton(region: RegionName): HTMLElement {
    const b = el('button', { class: 'region-maximize region-popout', testid: `popout-${region}`, text: '\u29c9', title: `Open the ${REGION_WORDS[region]} in an editor tab of its own, beside this one`, attrs: { 'aria-label': `Open the ${REGION_WORDS[region]} in its own tab` } });
    b.addEventListener('click', () => this.context().actions.popOut(region));
    return b;
  }

  private maximizeButton(region: RegionName): HTMLElement {
    const b = el('button', { class: 'region-maximize', testid: `maximize-${region}`, text: '\u2922', title: `Show the ${REGION_WORDS[region]} alone in the task view (again: show every region)`, attrs: { 'aria-label': `Maximize the ${REGION_WORDS[region]}` } });
    b.addEventListener('click', () => this.toggleMaximized(region));
    return b;
  }

  /**
   * Shows one region alone, filling the task view (the results, the review grid, the decision, a repair's matrix each
   * get the whole view); the same button again, or another region's, brings back the curator's own layout.
   */
  private toggleMaximized(region: RegionName): void {
    const s = this.splitEls;
    if (!s || !this.state) return;
    const next = this.maximized === region ? undefined : region;
    this.maximized = next;
    if (next === undefined) {
      for (const k of ['main', 'left', 'right'] as const) showAlone(s[k], undefined);
    } else {
      const leftSide = next === 'request' || next === 'specs';
      const first = next === 'request' || next === 'attempts';
      showAlone(s.main, leftSide ? 'start' : 'end');
      showAlone(leftSide ? s.left : s.right, first ? 'start' : 'end');
    }
    this.root.dataset.maximized = next ?? '';
    for (const b of this.root.querySelectorAll<HTMLElement>('.region-maximize')) {
      const on = b.dataset.testid === `maximize-${next}`;
      b.textContent = on ? '\u2921' : '\u2922';
      b.setAttribute('aria-pressed', String(on));
    }
  }

  /** Patches every region from the model and the UI state (their boxes stay, and so does where each is scrolled to). */
  private renderAll(trajectoriesChanged: boolean): void {
    const ctx = this.context();
    this.patch(this.requestBody, 'request', () => requestView(ctx.model().request, ctx.model().requestTruncated === true));

    if (!SPECS_TABS.some((t) => t.id === this.state!.specsTab && t.when(ctx.model()))) this.state!.specsTab = 'specs';

    const fresh = !this.trajectory;
    if (!this.trajectory) this.trajectory = new TrajectoryView(ctx);
    else if (trajectoriesChanged) this.trajectory.invalidate();
    const trajectory = this.trajectory;
    const trajectoryBody = this.guard('trajectory', () => {
      trajectory.render();
      return trajectory.element;
    });
    if (this.trajectorySection.firstChild !== trajectoryBody) {
      // The region's buttons (pop out, maximize) stay, made with the layout; the trajectory view is the region's content.
      const buttons = [...this.trajectorySection.querySelectorAll(':scope > .region-maximize')];
      this.trajectorySection.replaceChildren(trajectoryBody, ...buttons);
    }
    if (fresh && this.state!.search !== '') void trajectory.runSearch();
    this.renderTemplates();
  }

  /** Patches the regions that follow the review and the UI state: the header, the review bar, the open tab, the attempts. */
  private renderTemplates(): void {
    const ctx = this.context();
    const review = this.reviewController();
    this.patch(this.headerHost, 'header', () => header(ctx, this.statusLine));
    this.patch(this.barHost, 'review bar', () => reviewBar(review));
    this.renderSpecsTab();
    this.renderColumns();
  }

  private renderSpecsTab(): void {
    const m = this.model!;
    const available = SPECS_TABS.filter((t) => t.when(m));
    render(
      vsTabs(
        available.map((t) => ({ id: t.id, label: t.label })),
        this.state!.specsTab,
        'specs-tab',
        (id) => this.showSpecsTab(id),
      ),
      this.specsHead,
    );
    const tab = SPECS_TABS.find((t) => t.id === this.state?.specsTab) ?? SPECS_TABS[0]!;
    const views = this.taskViews();
    this.patch(this.specsContent, tab.label.toLowerCase(), () => tab.template({ ctx: this.context(), views, review: this.reviewController() }));
  }

  private renderColumns(): void {
    const views = this.taskViews();
    this.patch(this.attemptsBody, 'attempts', () => views.columns.template());
  }

  private taskViews(): TaskViews {
    if (this.views) return this.views;
    const ctx = this.context();
    const tab = (): void => this.renderSpecsTab();
    this.views = { specs: new SpecsView(ctx, tab), matrix: new MatrixView(ctx, tab), tests: new TestsView(ctx, tab), results: new ResultsView(ctx, tab), columns: new ColumnsView(ctx, () => this.renderColumns()), repair: new RepairTab(ctx, tab) };
    this.views.columns.watch(this.attemptsBody);
    return this.views;
  }

  private patch(host: HTMLElement, region: string, template: () => TemplateResult | typeof nothing): void {
    let t: TemplateResult | typeof nothing;
    try {
      t = template();
    } catch (e) {
      t = html`<div class="error" data-testid="region-error">${`The ${region} could not be shown: ${errorText(e)}`}</div>`;
    }
    render(t, host);
  }

  private guard(region: string, build: () => HTMLElement): HTMLElement {
    try {
      return build();
    } catch (e) {
      return el('div', { class: 'error', testid: 'region-error', text: `The ${region} could not be shown: ${errorText(e)}` });
    }
  }

  /** The curator opens a tab: it shows from its top. */
  private showSpecsTab(id: string): void {
    const tab = SPECS_TABS.find((t) => t.id === id) ?? SPECS_TABS[0]!;
    const changed = this.state?.specsTab !== tab.id;
    this.setState({ specsTab: tab.id });
    this.renderSpecsTab();
    if (changed) this.specsContent.scrollTop = 0;
  }

  private reviewController(): ReviewController {
    this.review ??= new ReviewController(
      this.context(),
      {
        showTab: (id) => this.showSpecsTab(id),
        showStep: (column, step) => {
          this.context().actions.activateColumn(column);
          this.trajectory?.showStep(column, step);
        },
        currentTab: () => this.state?.specsTab ?? 'specs',
      },
      () => this.renderTemplates(),
    );
    return this.review;
  }

  private context(): Ctx {
    if (this.ctx) return this.ctx;
    const actions: Actions = {
      activateColumn: (id) => {
        if (!this.model?.columns.some((c) => c.id === id)) return;
        this.setState({ activeColumn: id });
        this.renderColumns();
        this.views?.columns.reveal(this.attemptsBody);
        this.trajectory?.showColumn();
      },
      openDiff: (column, path) => this.ask('openDiff', { column, path }, (r) => (r.opened === 'patch' ? (r.message ?? 'The patch does not apply; showing the raw patch.') : `Opened the diff of ${oneLine(path, 120)}.`)),
      compareColumns: (left, right, path) => this.ask('compareColumns', { left, right, path }, (r) => (r.opened ? `Comparing ${oneLine(path, 120)}.` : (r.message ?? 'Could not compare.'))),
      openTest: (testId) => this.ask('openTest', { testId }, (r) => (r.opened ? 'Opened the test patch.' : (r.message ?? 'Test not found in the test patch.'))),
      openPatch: (column) => this.ask('openPatch', { column }, (r) => (r.opened ? 'Opened the patch.' : 'Could not open the patch.')),
      popOut: (region) =>
        this.ask('popOut', { region, ...(region === 'specs' && this.state ? { tab: this.state.specsTab } : {}) }, (r) =>
          r.opened ? `Opened the ${REGION_WORDS[region]} in a tab of its own.` : (r.message ?? 'Could not open it in a tab of its own.'),
        ),
      setViewed: (column, path, viewed) =>
        this.ask('setViewed', { column, ...(path !== undefined ? { path } : {}), viewed }, (r) =>
          r.ok ? `${path !== undefined ? oneLine(path, 120) : column} marked ${viewed ? 'viewed' : 'not viewed'}.` : (r.message ?? 'Could not mark it.'),
        ),
      showTest: (testId) => {
        this.showSpecsTab('tests');
        this.taskViews().tests.focus(testId, () => this.specsContent);
      },
      showSpec: (specId) => {
        if (this.state?.specsTab !== 'specs') this.showSpecsTab('specs');
        const item = [...this.specsContent.querySelectorAll<HTMLElement>('[data-testid="spec"]')].find((n) => n.dataset.spec === specId);
        if (item) {
          item.scrollIntoView({ block: 'nearest' });
          item.focus({ preventScroll: true });
        }
        this.links.highlight([specId]);
        this.links.firstRun(specId)?.scrollIntoView({ block: 'nearest' });
      },
      citeTarget: () => this.reviewController().citeTarget(),
      citeStep: (column, step) => this.reviewController().cite({ kind: 'trajectory_step', attempt: column, step }),
      stepSelected: () => {
        if (this.state?.specsTab === REVIEW_TAB) this.renderSpecsTab();
      },
      selectFile: (column, path) => {
        this.setState({ selectedFile: { ...this.state!.selectedFile, [column]: path } });
        this.renderColumns();
      },
    };
    const ctx: Ctx = {
      host: this.host,
      model: () => this.model!,
      state: () => this.state!,
      setState: (patch) => this.setState(patch),
      links: this.links,
      actions,
      status: (message, error) => this.status(message, error),
      clearStatus: (message) => {
        if (this.statusLine.textContent === oneLine(message, 300)) {
          clearTimeout(this.statusTimer);
          this.statusLine.textContent = '';
        }
      },
    };
    this.ctx = ctx;
    return this.ctx;
  }

  private ask<M extends 'openDiff' | 'compareColumns' | 'openTest' | 'openPatch' | 'setViewed' | 'popOut'>(
    method: M,
    params: RequestParams<M>,
    describe: (r: RequestResult<M>) => string,
  ): void {
    this.host.request(method, params).then(
      (r) => this.status(describe(r)),
      (e: unknown) => this.status(errorText(e), true),
    );
  }

  private setState(patch: Partial<UiState>): void {
    if (!this.state) return;
    this.state = { ...this.state, ...patch };
    clearTimeout(this.persistTimer);
    this.persistTimer = setTimeout(() => this.persist(), 150);
  }

  private persist(): void {
    if (!this.state) return;
    // A popped-out page says what it shows, so that a window reload brings it back as it was (TaskPanels' serializer).
    this.api.setState({ ...toPersisted(this.state), repairSeen: this.seenRepairs.toJSON(), ...(this.pinned ? { popOut: this.pinned, tab: this.state.specsTab } : {}) });
    const shared = toWebviewState(this.state);
    const text = JSON.stringify(shared);
    if (text !== this.lastPosted) {
      this.lastPosted = text;
      this.api.postMessage({ type: 'uiState', state: shared });
    }
  }

  private status(message: string, error = false): void {
    setText(this.statusLine, oneLine(message, 300));
    this.statusLine.classList.toggle('error', error);
    clearTimeout(this.statusTimer);
    this.statusTimer = setTimeout(() => {
      this.statusLine.textContent = '';
    }, error ? 15_000 : 6_000);
  }

  private onKey(e: KeyboardEvent): void {
    if (!this.model) return;
    const target = e.composedPath()[0];
    const inTextField = target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
    if (!e.defaultPrevented && this.reviewController().onKey(e, inTextField || e.composedPath().some((n) => n instanceof HTMLElement && /^VSCODE-(SINGLE-SELECT|TEXTFIELD|TEXTAREA)$/.test(n.tagName)))) return;
    const action = actionForKey({
      key: e.key,
      ctrlKey: e.ctrlKey,
      metaKey: e.metaKey,
      shiftKey: e.shiftKey,
      altKey: e.altKey,
      inTextField,
      inSearch: this.trajectory?.searchHasFocus() === true,
    });
    if (!action) return;
    e.preventDefault();
    this.dedupe.local(action, performance.now());
    this.perform(action);
  }

  private perform(action: ViewCommand): void {
    const m = this.model;
    const s = this.state;
    if (!m || !s) return;
    switch (action) {
      case 'nextAttempt':
      case 'previousAttempt': {
        if (m.columns.length === 0) return;
        const i = m.columns.findIndex((c) => c.id === s.activeColumn);
        const step = action === 'nextAttempt' ? 1 : -1;
        const next = m.columns[(i + step + m.columns.length) % m.columns.length]!;
        this.context().actions.activateColumn(next.id);
        this.status(`Active: ${oneLine(next.label, 80)}`);
        return;
      }
      case 'nextHit':
        this.trajectory?.nextHit();
        return;
      case 'previousHit':
        this.trajectory?.previousHit();
        return;
      case 'focusSearch':
        this.trajectory?.focusSearch();
        return;
      case 'openDiff': {
        const focused = document.activeElement instanceof HTMLElement ? document.activeElement.closest<HTMLElement>('[data-testid="file-row"]') : null;
        const column = focused?.dataset.column ?? s.activeColumn;
        const col = m.columns.find((c) => c.id === column);
        const path = focused?.dataset.path ?? (col ? (s.selectedFile[col.id] ?? col.files[0]?.path) : undefined);
        if (!col || path === undefined) {
          this.status('No file to open: the active column changes no files.');
          return;
        }
        this.context().actions.openDiff(col.id, path);
        return;
      }
    }
  }
}

/** Fills in what a sloppy or older host might leave out, so rendering never trips over a missing array. */
function normalizeModel(m: TaskViewModel): TaskViewModel {
  const arr = <T>(v: T[] | undefined): T[] => (Array.isArray(v) ? v : []);
  return {
    ...m,
    taskId: String(m.taskId ?? ''),
    title: String(m.title ?? ''),
    // Kept as the host sent it (shown as inert text); only a missing one becomes empty.
    status: (typeof m.status === 'string' ? m.status : '') as TaskStatusView,
    repo: String(m.repo ?? ''),
    image: String(m.image ?? ''),
    request: arr(m.request),
    specs: arr(m.specs).map((s) => ({ ...s, id: String(s.id), text: String(s.text ?? ''), category: String(s.category ?? 'other'), dependsOn: arr(s.dependsOn), tests: arr(s.tests) })),
    tests: arr(m.tests).map((t) => ({ ...t, id: String(t.id), name: String(t.name ?? t.id), specs: arr(t.specs) })),
    columns: arr(m.columns).map((c) => ({ ...c, id: String(c.id), label: String(c.label ?? c.id), files: arr(c.files) })),
    notices: arr(m.notices).map(String),
  };
}
