// The task view: builds the regions once a model arrives, routes host messages, keeps the UI state and persists
// it, and performs the actions that cross regions.
import { PROTOCOL_VERSION, type HostToWebview, type RequestParams, type RequestResult, type TaskViewModel, type ViewCommand, type WebviewState } from '../../src/protocol/messages';
import type { Actions, Ctx } from './context';
import { clear, el } from './dom';
import { HostConnection } from './host';
import { actionForKey, CommandDedupe } from './keys';
import { reconcile, restoreState, savedWebviewState, toPersisted, toWebviewState, type UiState } from './state';
import { oneLine } from './text';
import { split } from './ui/split';
import { tabs, type Tabs } from './ui/tabs';
import { ColumnsView } from './views/columns';
import { renderHeader } from './views/header';
import { renderMatrix } from './views/matrix';
import { REPAIR_TAB, renderRepair, SeenRepairs } from './views/repair';
import { renderRequest } from './views/request';
import { renderResults } from './views/results';
import { DECISION_TAB, REVIEW_TAB, reviewController } from './views/reviewController';
import { SpecLinks } from './views/specLinks';
import { renderSpecs } from './views/specs';
import { renderTests } from './views/tests';
import { TrajectoryView } from './views/trajectory';
import { startHandshake } from './handshake';
import type { VsCodeApi } from './vscodeApi';

const VIEW_COMMANDS: readonly ViewCommand[] = ['nextAttempt', 'previousAttempt', 'nextHit', 'previousHit', 'focusSearch', 'openDiff'];

/** A tab of the specs area. Later features (curation labels) add theirs here. */
interface SpecsTab {
  id: string;
  label: string;
  when(m: TaskViewModel): boolean;
  render(ctx: Ctx, focus?: string): HTMLElement;
}

const SPECS_TABS: readonly SpecsTab[] = [
  { id: 'specs', label: 'Specs', when: () => true, render: (ctx) => renderSpecs(ctx) },
  { id: 'matrix', label: 'Matrix', when: () => true, render: (ctx) => renderMatrix(ctx) },
  { id: 'tests', label: 'Tests', when: () => true, render: (ctx, focus) => renderTests(ctx, focus) },
  { id: 'results', label: 'Results', when: (m) => m.results !== undefined, render: (ctx) => renderResults(ctx) },
  { id: REVIEW_TAB, label: 'Review', when: (m) => m.review !== undefined, render: (ctx) => reviewController.renderLabels(ctx) },
  { id: DECISION_TAB, label: 'Decision', when: (m) => m.review !== undefined, render: (ctx) => reviewController.renderDecision(ctx) },
  { id: REPAIR_TAB, label: 'Repair', when: (m) => m.repair !== undefined, render: (ctx) => renderRepair(ctx) },
];

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
  private readonly specsContent = el('div', { class: 'region-body specs-content' });
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
    window.addEventListener('message', (e: MessageEvent<unknown>) => this.onMessage(e.data));
    document.addEventListener('keydown', (e) => this.onKey(e));
    const loading = el('p', { class: 'muted loading', testid: 'loading', text: 'Loading the task\u2026' });
    root.append(loading);
    startHandshake({
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
    });
  }

  private onMessage(raw: unknown): void {
    if (!isRecord(raw) || typeof raw.type !== 'string') return;
    const msg = raw as HostToWebview;
    try {
      switch (msg.type) {
        case 'init':
          performance.mark('specweave.init');
          this.load(msg.model, msg.state);
          performance.mark('specweave.rendered');
          break;
        case 'update':
          this.load(msg.model, undefined);
          break;
        case 'reply':
          this.host.handleReply(msg);
          break;
        case 'searchHits':
        case 'searchDone':
          this.trajectory?.onSearchMessage(msg);
          break;
        case 'command':
          if (VIEW_COMMANDS.includes(msg.command) && this.dedupe.acceptHost(msg.command, performance.now())) this.perform(msg.command);
          break;
      }
    } catch (e) {
      this.status(`Could not handle ${oneLine(String(raw.type), 40)}: ${e instanceof Error ? e.message : String(e)}`, true);
    }
  }

  private load(raw: TaskViewModel, hostState: WebviewState | undefined): void {
    const model = normalizeModel(raw);
    const sameTask = this.model !== undefined && this.model.taskId === model.taskId;
    const previous = this.model;
    this.model = model;
    reviewController.onModel(model);
    if (!sameTask) {
      this.state = restoreState(model, this.state ? toPersisted(this.state) : this.api.getState(), hostState);
      if (this.seenRepairs.takeNew(model.repair)) this.state.specsTab = REPAIR_TAB;
      const reviewTab = reviewController.initialTab(model);
      if (reviewTab) this.state.specsTab = reviewTab;
      // Another task: nothing of the old trajectories, hits or selection may leak into the new one.
      this.trajectory?.dispose();
      this.trajectory = undefined;
      this.buildAll();
    } else {
      this.state = reconcile(this.state!, model);
      // A revalidation that just finished is what the curator is waiting for: show its before/after matrix.
      if (this.seenRepairs.takeNew(model.repair)) this.state.specsTab = REPAIR_TAB;
      const trajectoriesChanged = JSON.stringify(previous!.columns.map((c) => c.trajectory)) !== JSON.stringify(model.columns.map((c) => c.trajectory));
      this.buildAll(trajectoriesChanged);
    }
    this.persist();
  }

  /** (Re)builds every region. The trajectory view survives an update of the same task, with its caches. */
  private buildAll(trajectoriesChanged = true): void {
    const ctx = this.context();
    // An update rebuilds the regions; where each was scrolled to stays.
    const scrolled = new Map<string, number>();
    for (const body of this.root.querySelectorAll<HTMLElement>('section.region > .region-body')) {
      const id = body.parentElement?.dataset.testid;
      if (id && body.scrollTop > 0) scrolled.set(id, body.scrollTop);
    }
    clear(this.root);
    this.links.resetRuns();
    const request = el('section', { class: 'region', testid: 'region-request' }, el('div', { class: 'region-title', text: 'Request' }), el('div', { class: 'region-body' }, this.guard('request', () => renderRequest(ctx.model().request, ctx.model().requestTruncated === true, this.links))));

    const available = SPECS_TABS.filter((t) => t.when(ctx.model()));
    if (!available.some((t) => t.id === this.state!.specsTab)) this.state!.specsTab = 'specs';
    this.specsTabs = tabs(
      available.map((t) => ({ id: t.id, label: t.label })),
      this.state!.specsTab,
      'specs-tab',
      (id) => this.showSpecsTab(id),
    );
    const specsArea = el('section', { class: 'region', testid: 'region-specs' }, this.specsTabs.element, this.specsContent);
    this.showSpecsTab(this.state!.specsTab);

    this.columns = new ColumnsView(ctx);
    const columns = this.columns;
    const attemptsBody = this.guard('attempts', () => {
      columns.render();
      return columns.element;
    });
    const attempts = el('section', { class: 'region', testid: 'region-attempts' }, el('div', { class: 'region-title', text: 'Attempts' }), el('div', { class: 'region-body' }, attemptsBody));

    const fresh = !this.trajectory;
    if (!this.trajectory) this.trajectory = new TrajectoryView(ctx);
    else if (trajectoriesChanged) this.trajectory.invalidate();
    const trajectory = this.trajectory;
    const trajectoryBody = this.guard('trajectory', () => {
      trajectory.render();
      return trajectory.element;
    });
    if (fresh && this.state!.search !== '') void trajectory.runSearch();
    const traj = el('section', { class: 'region', testid: 'region-trajectory' }, trajectoryBody);

    const splits = this.state!.splits;
    const save = (name: string) => (p: number) => this.setState({ splits: { ...this.state!.splits, [name]: p } });
    const left = split('horizontal', request, specsArea, { testid: 'split-left', position: splits.left ?? 45, minStart: '60px', minEnd: '80px', onResize: save('left') });
    const right = split('horizontal', attempts, traj, { testid: 'split-right', position: splits.right ?? 32, minStart: '60px', minEnd: '160px', onResize: save('right') });
    const main = split('vertical', el('div', { class: 'pane' }, left), el('div', { class: 'pane' }, right), { testid: 'split-main', position: splits.main ?? 40, minStart: '200px', minEnd: '280px', onResize: save('main') });
    this.root.append(renderHeader(ctx, this.statusLine), this.guard('review bar', () => reviewController.renderBar(ctx) ?? el('div')), el('main', { class: 'regions', testid: 'regions' }, main));
    for (const [id, top] of scrolled) {
      const body = this.root.querySelector<HTMLElement>(`section[data-testid="${id}"] > .region-body`);
      if (body) body.scrollTop = top;
    }
  }

  private guard(region: string, build: () => HTMLElement): HTMLElement {
    try {
      return build();
    } catch (e) {
      return el('div', { class: 'error', testid: 'region-error', text: `The ${region} could not be shown: ${e instanceof Error ? e.message : String(e)}` });
    }
  }

  private showSpecsTab(id: string, focus?: string): void {
    const tab = SPECS_TABS.find((t) => t.id === id) ?? SPECS_TABS[0]!;
    this.setState({ specsTab: tab.id });
    this.specsTabs?.select(tab.id);
    clear(this.specsContent);
    this.specsContent.scrollTop = 0;
    this.specsContent.append(this.guard(tab.label.toLowerCase(), () => tab.render(this.context(), focus)));
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
    reviewController.attach(ctx, {
      showTab: (id) => {
        this.showSpecsTab(id);
        reviewController.rerender();
      },
      showStep: (column, step) => {
        this.context().actions.activateColumn(column);
        this.trajectory?.showStep(column, step);
      },
      currentTab: () => this.state?.specsTab ?? 'specs',
    });
    return this.ctx;
  }

  private ask<M extends 'openDiff' | 'compareColumns' | 'openTest' | 'openPatch'>(
    method: M,
    params: RequestParams<M>,
    describe: (r: RequestResult<M>) => string,
  ): void {
    this.host.request(method, params).then(
      (r) => this.status(describe(r)),
      (e: unknown) => this.status(e instanceof Error ? e.message : String(e), true),
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
    if (!e.defaultPrevented && reviewController.onKey(e, inTextField || e.composedPath().some((n) => n instanceof HTMLElement && /^VSCODE-(SINGLE-SELECT|TEXTFIELD|TEXTAREA)$/.test(n.tagName)))) return;
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

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Fills in what a sloppy or older host might leave out, so rendering never trips over a missing array. */
function normalizeModel(m: TaskViewModel): TaskViewModel {
  const arr = <T>(v: T[] | undefined): T[] => (Array.isArray(v) ? v : []);
  return {
    ...m,
    taskId: String(m.taskId ?? ''),
    title: String(m.title ?? ''),
    status: String(m.status ?? ''),
    repo: String(m.repo ?? ''),
    image: String(m.image ?? ''),
    request: arr(m.request),
    specs: arr(m.specs).map((s) => ({ ...s, id: String(s.id), text: String(s.text ?? ''), category: String(s.category ?? 'other'), dependsOn: arr(s.dependsOn), tests: arr(s.tests) })),
    tests: arr(m.tests).map((t) => ({ ...t, id: String(t.id), name: String(t.name ?? t.id), specs: arr(t.specs) })),
    columns: arr(m.columns).map((c) => ({ ...c, id: String(c.id), label: String(c.label ?? c.id), files: arr(c.files) })),
    notices: arr(m.notices).map(String),
  };
}
