// The task view: lays the regions out once per task, patches them on every update (the header, the review bar and
// the review tabs are lit-html templates; the element-built regions are filled again only when their data changed),
// routes host messages, keeps the UI state and persists it, and performs the actions that cross regions.
import { PROTOCOL_VERSION, type HostToWebview, type RequestMap, type RequestParams, type RequestResult, type TaskStatusView, type TaskViewModel, type ViewCommand, type WebviewState } from '../../src/protocol/messages';
import type { Actions, Ctx } from './context';
import { html, render, type nothing, type TemplateResult } from 'lit-html';
import { el } from './dom';
import { connect, HostConnection } from './host';
import { actionForKey, CommandDedupe } from './keys';
import { reconcile, restoreState, savedWebviewState, toPersisted, toWebviewState, type UiState } from './state';
import { oneLine } from './text';
import { split } from './ui/split';
import { tabs, type Tabs } from './ui/tabs';
import { ColumnsView } from './views/columns';
import { header } from './views/header';
import { renderMatrix } from './views/matrix';
import { REPAIR_TAB, renderRepair, SeenRepairs } from './views/repair';
import { renderRequest } from './views/request';
import { renderResults } from './views/results';
import { reviewBar } from './views/reviewBar';
import { ReviewController } from './views/reviewController';
import { decisionTab } from './views/reviewDecision';
import { labelsTab } from './views/reviewLabels';
import { DECISION_TAB, REVIEW_TAB } from './views/reviewModel';
import { SpecLinks } from './views/specLinks';
import { renderSpecs } from './views/specs';
import { renderTests } from './views/tests';
import { TrajectoryView } from './views/trajectory';
import type { VsCodeApi } from './vscodeApi';
import { errorText } from './text';

const VIEW_COMMANDS: readonly ViewCommand[] = ['nextAttempt', 'previousAttempt', 'nextHit', 'previousHit', 'focusSearch', 'openDiff'];

/**
 * A tab of the specs area. Later features add theirs here. A tab renders either a lit-html template (`template`: it
 * patches on every update) or an element (`render`: rebuilt only when the model's data outside the review changes).
 */
type SpecsTab = { id: string; label: string; when(m: TaskViewModel): boolean } & (
  | { render(ctx: Ctx, focus?: string): HTMLElement; template?: undefined }
  | { template(review: ReviewController): TemplateResult; render?: undefined }
);

const SPECS_TABS: readonly SpecsTab[] = [
  { id: 'specs', label: 'Specs', when: () => true, render: (ctx) => renderSpecs(ctx) },
  { id: 'matrix', label: 'Matrix', when: () => true, render: (ctx) => renderMatrix(ctx) },
  { id: 'tests', label: 'Tests', when: () => true, render: (ctx, focus) => renderTests(ctx, focus) },
  { id: 'results', label: 'Results', when: (m) => m.results !== undefined, render: (ctx) => renderResults(ctx) },
  { id: REVIEW_TAB, label: 'Review', when: (m) => m.review !== undefined, template: labelsTab },
  { id: DECISION_TAB, label: 'Decision', when: (m) => m.review !== undefined, template: decisionTab },
  { id: REPAIR_TAB, label: 'Repair', when: (m) => m.repair !== undefined, render: (ctx) => renderRepair(ctx) },
];

/** What the element-built regions depend on: everything but the review part (and the status it sets). */
function dataKey(m: TaskViewModel): string {
  return JSON.stringify({ ...m, review: m.review !== undefined, status: undefined });
}

export class App {
  private readonly host: HostConnection;
  private readonly links = new SpecLinks();
  private readonly dedupe = new CommandDedupe();
  private readonly statusLine = el('div', { class: 'status-line small', testid: 'status-line', attrs: { 'aria-live': 'polite' } });
  private model: TaskViewModel | undefined;
  private state: UiState | undefined;
  private ctx: Ctx | undefined;
  private columns: ColumnsView | undefined;
  private trajectory: TrajectoryView | undefined;
  private specsTabs: Tabs | undefined;
  private specsTabIds = '';
  private readonly specsContent = el('div', { class: 'region-body specs-content' });
  /** The regions that patch: the header, the review bar, and the specs area's template tabs. */
  private readonly headerHost = el('div', { class: 'header-host' });
  private readonly barHost = el('div', { class: 'review-bar-host' });
  private readonly templateHost = el('div', { class: 'template-tab' });
  /** The element-built regions' bodies, made once per task. */
  private readonly requestBody = el('div', { class: 'region-body' });
  private readonly attemptsBody = el('div', { class: 'region-body' });
  private readonly trajectorySection = el('section', { class: 'region', testid: 'region-trajectory' });
  private readonly specsHead = el('div', { class: 'specs-head' });
  private dataKey = '';
  private review: ReviewController | undefined;
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
      answered: () => this.model !== undefined,
      onSilent: () => {
        loading.textContent = 'Loading the task\u2026 The extension has not answered yet; still asking. If this stays, close this tab and open the task again.';
      },
      onMessage: (msg) => this.onMessage(msg),
      onError: (type, e) => this.status(`Could not handle ${oneLine(type, 40)}: ${errorText(e)}`, true),
    });
  }

  private onMessage(msg: Exclude<HostToWebview, { type: 'reply' }>): void {
    switch (msg.type) {
      case 'init':
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
      // Another task: nothing of the old trajectories, hits or selection may leak into the new one.
      this.trajectory?.dispose();
      this.trajectory = undefined;
      this.buildLayout();
      this.fillRegions(true);
    } else {
      this.state = reconcile(this.state!, model);
      // A revalidation that just finished is what the curator is waiting for: show its before/after matrix.
      const repairNew = this.seenRepairs.takeNew(model.repair);
      if (repairNew) this.state.specsTab = REPAIR_TAB;
      const key = dataKey(model);
      if (key !== this.dataKey || repairNew) {
        const trajectoriesChanged = JSON.stringify(previous!.columns.map((c) => c.trajectory)) !== JSON.stringify(model.columns.map((c) => c.trajectory));
        this.fillRegions(trajectoriesChanged);
      } else {
        // Only the review part changed (every recorded label): the element-built regions stay as they are.
        this.renderTemplates();
      }
    }
    this.persist();
  }

  /** The page's layout, once per task: the regions' boxes and the split layouts holding them. */
  private buildLayout(): void {
    const request = el('section', { class: 'region', testid: 'region-request' }, el('div', { class: 'region-title', text: 'Request' }), this.requestBody);
    const specsArea = el('section', { class: 'region', testid: 'region-specs' }, this.specsHead, this.specsContent);
    const attempts = el('section', { class: 'region', testid: 'region-attempts' }, el('div', { class: 'region-title', text: 'Attempts' }), this.attemptsBody);
    const splits = this.state!.splits;
    const save = (name: string) => (p: number) => this.setState({ splits: { ...this.state!.splits, [name]: p } });
    const left = split('horizontal', request, specsArea, { testid: 'split-left', position: splits.left ?? 45, minStart: '60px', minEnd: '80px', onResize: save('left') });
    const right = split('horizontal', attempts, this.trajectorySection, { testid: 'split-right', position: splits.right ?? 32, minStart: '60px', minEnd: '160px', onResize: save('right') });
    const main = split('vertical', el('div', { class: 'pane' }, left), el('div', { class: 'pane' }, right), { testid: 'split-main', position: splits.main ?? 40, minStart: '200px', minEnd: '280px', onResize: save('main') });
    this.specsTabIds = '';
    this.root.replaceChildren(this.headerHost, this.barHost, el('main', { class: 'regions', testid: 'regions' }, main));
  }

  /** Fills the element-built regions from the model (their boxes stay, and so does where each is scrolled to). */
  private fillRegions(trajectoriesChanged: boolean): void {
    const ctx = this.context();
    this.dataKey = dataKey(ctx.model());
    this.links.resetRuns();
    this.requestBody.replaceChildren(this.guard('request', () => renderRequest(ctx.model().request, ctx.model().requestTruncated === true, this.links)));

    const available = SPECS_TABS.filter((t) => t.when(ctx.model()));
    if (!available.some((t) => t.id === this.state!.specsTab)) this.state!.specsTab = 'specs';
    const ids = available.map((t) => t.id).join('\u0000');
    if (ids !== this.specsTabIds) {
      this.specsTabIds = ids;
      this.specsTabs = tabs(
        available.map((t) => ({ id: t.id, label: t.label })),
        this.state!.specsTab,
        'specs-tab',
        (id) => this.showSpecsTab(id),
      );
      this.specsHead.replaceChildren(this.specsTabs.element);
    } else this.specsTabs?.select(this.state!.specsTab);
    this.fillSpecsTab(this.state!.specsTab);

    this.columns = new ColumnsView(ctx);
    const columns = this.columns;
    this.attemptsBody.replaceChildren(
      this.guard('attempts', () => {
        columns.render();
        return columns.element;
      }),
    );

    const fresh = !this.trajectory;
    if (!this.trajectory) this.trajectory = new TrajectoryView(ctx);
    else if (trajectoriesChanged) this.trajectory.invalidate();
    const trajectory = this.trajectory;
    const trajectoryBody = this.guard('trajectory', () => {
      trajectory.render();
      return trajectory.element;
    });
    if (this.trajectorySection.firstChild !== trajectoryBody || this.trajectorySection.childNodes.length !== 1) this.trajectorySection.replaceChildren(trajectoryBody);
    if (fresh && this.state!.search !== '') void trajectory.runSearch();
    this.renderTemplates();
  }

  /** Patches the template regions: the header, the review bar and an open template tab. */
  private renderTemplates(): void {
    const ctx = this.context();
    const review = this.reviewController();
    this.patch(this.headerHost, 'header', () => header(ctx, this.statusLine));
    this.patch(this.barHost, 'review bar', () => reviewBar(review));
    const tab = SPECS_TABS.find((t) => t.id === this.state?.specsTab);
    if (tab?.template && this.templateHost.isConnected) this.patch(this.templateHost, tab.label.toLowerCase(), () => tab.template(review));
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
  private showSpecsTab(id: string, focus?: string): void {
    const tab = SPECS_TABS.find((t) => t.id === id) ?? SPECS_TABS[0]!;
    this.setState({ specsTab: tab.id });
    this.specsTabs?.select(tab.id);
    this.fillSpecsTab(tab.id, focus);
    this.specsContent.scrollTop = 0;
  }

  private fillSpecsTab(id: string, focus?: string): void {
    const tab = SPECS_TABS.find((t) => t.id === id) ?? SPECS_TABS[0]!;
    if (tab.template) {
      if (this.specsContent.firstChild !== this.templateHost) this.specsContent.replaceChildren(this.templateHost);
      this.patch(this.templateHost, tab.label.toLowerCase(), () => tab.template(this.reviewController()));
    } else {
      const r = tab.render;
      this.specsContent.replaceChildren(this.guard(tab.label.toLowerCase(), () => r(this.context(), focus)));
    }
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
        this.columns?.setActive(id);
        this.trajectory?.showColumn();
      },
      openDiff: (column, path) => this.ask('openDiff', { column, path }, (r) => (r.opened === 'patch' ? (r.message ?? 'The patch does not apply; showing the raw patch.') : `Opened the diff of ${oneLine(path, 120)}.`)),
      compareColumns: (left, right, path) => this.ask('compareColumns', { left, right, path }, (r) => (r.opened ? `Comparing ${oneLine(path, 120)}.` : (r.message ?? 'Could not compare.'))),
      openTest: (testId) => this.ask('openTest', { testId }, (r) => (r.opened ? 'Opened the test patch.' : (r.message ?? 'Test not found in the test patch.'))),
      openPatch: (column) => this.ask('openPatch', { column }, (r) => (r.opened ? 'Opened the patch.' : 'Could not open the patch.')),
      showTest: (testId) => this.showSpecsTab('tests', testId),
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
      selectFile: (column, path) => {
        this.setState({ selectedFile: { ...this.state!.selectedFile, [column]: path } });
        this.columns?.setSelectedFile(column, path);
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
    };
    this.ctx = ctx;
    return this.ctx;
  }

  private ask<M extends 'openDiff' | 'compareColumns' | 'openTest' | 'openPatch'>(
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
    this.api.setState({ ...toPersisted(this.state), repairSeen: this.seenRepairs.toJSON() });
    const shared = toWebviewState(this.state);
    const text = JSON.stringify(shared);
    if (text !== this.lastPosted) {
      this.lastPosted = text;
      this.api.postMessage({ type: 'uiState', state: shared });
    }
  }

  private status(message: string, error = false): void {
    this.statusLine.textContent = oneLine(message, 300);
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
