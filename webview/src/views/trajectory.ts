// The trajectories region: a tab per column, step-kind filters, the search over all attempts, the virtualized step
// list of the active column and the selected step in full below it. The tabs, the summary line and the filters are
// lit-html templates patched on every update; the list keeps its rows and patches their text (stepList.ts). The rows
// of one turn are drawn as one card, and the detail shows the selected step's whole turn; its button lets it take the
// whole region (the list and the controls above it hidden) until pressed again or Escape.
import type { ColumnView, HostToWebview, SearchHit, StepView } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { html, nothing, render, type TemplateResult } from 'lit-html';
import { el } from '../dom';
import { SearchResults } from '../searchModel';
import { kindsParam, STEP_KINDS } from '../state';
import { formatCost, formatCount, oneLine } from '../text';
import { vsCheckbox } from '../ui/controls';
import { split } from '../ui/split';
import { vsTabs } from '../ui/tabs';
import { SearchBar } from './searchBar';
import { StepDetail } from './stepDetail';
import { StepList } from './stepList';
import { errorText } from '../text';
import './turns.css';

/** Steps asked for on each side of a selected step to find the rest of its turn; a longer turn asks again. */
const TURN_WINDOW = 12;
/** Most steps of one turn the detail shows (a run of a thousand parallel tool calls is for the list). */
const MAX_TURN_STEPS = 200;

/** The pause in typing that starts a search (Enter starts it at once); a newer query cancels an older search. */
const SEARCH_DEBOUNCE_MS = 120;
/** Search ids are unique for the page's life, so a view built for another task never takes an old search's hits. */
let searchSeq = 0;

export class TrajectoryView {
  readonly element = el('div', { class: 'trajectory', testid: 'trajectory' });
  readonly search: SearchResults;
  private readonly list: StepList;
  private readonly detail: StepDetail;
  private readonly bar: SearchBar;
  private readonly tabsHost = el('div', { class: 'trajectory-tabs' });
  private readonly info = el('div', { class: 'trajectory-info muted small', testid: 'trajectory-info' });
  private readonly filters = el('div', { class: 'kind-filters', testid: 'kind-filters' });
  private searchTimer: ReturnType<typeof setTimeout> | undefined;
  /** Set while a changed query waits for the typing pause. */
  private pendingSearch = false;
  private searchedPattern: string | undefined;
  private uiFrame = 0;
  private jumpToken = 0;
  /** Bumped by every explicit selection, so a slow restore of the saved selection cannot override it. */
  private selectSeq = 0;
  private readonly split: HTMLElement;
  private readonly detailPane: HTMLElement;
  /** Holds the detail pane while it takes the full height. */
  private readonly fullHost = el('div', { class: 'detail-full-host', testid: 'detail-full-host' });
  private full = false;
  private readonly onDocKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && this.full && !e.defaultPrevented) {
      e.preventDefault();
      this.setFull(false);
    }
  };

  constructor(private readonly ctx: Ctx) {
    this.search = new SearchResults(ctx.model().columns.map((c) => c.id));
    this.list = new StepList(ctx, {
      onSelect: (step) => this.onSelectStep(step),
      onActivate: () => this.detail.expand(),
      hitState: (column, step) => {
        const cur = this.search.currentHit;
        return { count: this.search.hitsInStep(column, step), current: cur !== undefined && cur.column === column && cur.step === step };
      },
      onScroll: (column, top) => this.ctx.setState({ scrollTop: { ...this.ctx.state().scrollTop, [column]: top } }),
      citeTarget: () => this.ctx.actions.citeTarget(),
      onCite: (column, step) => this.ctx.actions.citeStep(column, step),
    });
    this.detail = new StepDetail(ctx, {
      turnSteps: (column, step) => this.turnSteps(column, step),
      onPick: (column, step) => this.showStep(column, step),
      onToggleFull: () => this.setFull(!this.full),
    });
    const s = ctx.state();
    this.bar = new SearchBar(s, {
      onInput: (pattern) => {
        this.ctx.setState({ search: pattern });
        clearTimeout(this.searchTimer);
        this.pendingSearch = pattern !== this.searchedPattern;
        this.searchTimer = setTimeout(() => void this.runSearch(), SEARCH_DEBOUNCE_MS);
      },
      onToggle: (option, on) => {
        this.ctx.setState(option === 'regex' ? { regex: on } : { caseSensitive: on });
        void this.runSearch();
      },
      onNext: () => this.nextHit(),
      onPrevious: () => this.previousHit(),
    });
    this.detailPane = el('div', { class: 'pane detail-pane', testid: 'detail-pane' }, this.detail.element);
    const body = split('horizontal', el('div', { class: 'pane list-pane' }, this.list.element), this.detailPane, {
      testid: 'split-steps',
      position: s.splits.steps ?? 60,
      minStart: '60px',
      minEnd: '40px',
      onResize: (p) => this.ctx.setState({ splits: { ...this.ctx.state().splits, steps: p } }),
    });
    this.split = body;
    this.fullHost.hidden = true;
    this.element.append(this.tabsHost, this.info, this.filters, this.bar.element, body, this.fullHost);
    document.addEventListener('keydown', this.onDocKey);
  }

  /**
   * The detail takes the whole region (on) or goes back under the list. The pane moves out of the split layout rather
   * than the handle to 0%, which its minimum sizes would refuse; the list keeps its rows, scroll and caches.
   */
  setFull(on: boolean): void {
    if (on === this.full) return;
    this.full = on;
    this.element.classList.toggle('detail-full', on);
    if (on) this.fullHost.append(this.detailPane);
    else this.split.append(this.detailPane);
    this.fullHost.hidden = !on;
    this.detail.setFull(on);
    // Moving the pane took the focus off its button: give it back, so Escape and Space work from there.
    this.detail.focusToggle();
    if (!on) this.list.refresh();
  }

  /** The steps of `step`'s turn, in order, from the host's unfiltered list (a kind filter hides none of them). */
  private async turnSteps(column: string, step: StepView): Promise<StepView[]> {
    const turn = step.turn;
    if (turn === undefined) return [step];
    const { position } = await this.ctx.host.request('locateStep', { column, step: step.index });
    if (!Number.isInteger(position) || position < 0) return [step];
    let from = Math.max(0, position - TURN_WINDOW);
    let r = await this.ctx.host.request('getSteps', { column, start: from, count: position - from + TURN_WINDOW + 1 });
    let steps = Array.isArray(r.steps) ? r.steps : [];
    // A turn longer than the window: widen it on the side where the turn goes on, up to MAX_TURN_STEPS.
    while (steps.length > 0 && steps.length < MAX_TURN_STEPS) {
      const earlier = from > 0 && steps[0]?.turn === turn;
      const later = steps.at(-1)?.turn === turn && from + steps.length < r.total;
      if (!earlier && !later) break;
      const start = earlier ? Math.max(0, from - TURN_WINDOW * 4) : from + steps.length;
      const count = earlier ? from - start : TURN_WINDOW * 4;
      r = await this.ctx.host.request('getSteps', { column, start, count });
      const more = Array.isArray(r.steps) ? r.steps : [];
      if (more.length === 0) break;
      if (earlier) {
        steps = [...more, ...steps];
        from = start;
      } else steps = [...steps, ...more];
    }
    const at = steps.findIndex((s) => s.index === step.index);
    if (at < 0) return [step];
    let a = at;
    let b = at;
    while (a > 0 && steps[a - 1]?.turn === turn && b - a + 1 < MAX_TURN_STEPS) a--;
    while (b + 1 < steps.length && steps[b + 1]?.turn === turn && b - a + 1 < MAX_TURN_STEPS) b++;
    return steps.slice(a, b + 1);
  }

  /** Patches the tabs and filters from the model; keeps the list, its caches and the search. */
  render(): void {
    const m = this.ctx.model();
    this.search.setColumns(m.columns.map((c) => c.id));
    this.showColumn();
    this.updateSearchUi();
  }

  /** Patches the tabs (with their hit counts), the summary line and the step-kind filters. */
  private renderChrome(): void {
    const m = this.ctx.model();
    const s = this.ctx.state();
    const r = this.search;
    const counting = r.status !== 'idle' && r.status !== 'error';
    render(
      vsTabs(
        m.columns.map((c) => ({
          id: c.id,
          label: oneLine(c.label, 40),
          title: c.hasTrajectory ? `${c.trajectory?.steps ?? '?'} steps` : 'No trajectory',
          ...(counting ? { badge: formatCount(r.countFor(c.id)) } : {}),
        })),
        s.activeColumn ?? '',
        'trajectory-tab',
        (id) => this.ctx.actions.activateColumn(id),
      ),
      this.tabsHost,
    );
    const col = m.columns.find((c) => c.id === s.activeColumn);
    render(this.infoTemplate(col), this.info);
    const on = new Set(s.stepKinds);
    const t = col?.trajectory;
    // A filter for each kind the trajectory has (and for one turned off, to turn it on again); all before its summary.
    const shown = t ? STEP_KINDS.filter((k) => (t.byKind[k] ?? 0) > 0 || !on.has(k)) : STEP_KINDS;
    render(
      html`${shown.map((k) => {
        const n = t?.byKind[k];
        return vsCheckbox(n !== undefined ? `${k} (${formatCount(n)})` : k, on.has(k), `kind-${k}`, (checked) => this.onFilterChange(k, checked));
      })}`,
      this.filters,
    );
  }

  /** The active column changed (tab, attempts region, keyboard). */
  showColumn(): void {
    const s = this.ctx.state();
    const col = this.ctx.model().columns.find((c) => c.id === s.activeColumn);
    this.renderChrome();
    if (!col || !col.hasTrajectory) {
      this.list.setSource(undefined, undefined, 0, col ? `${col.label}: no trajectory.` : 'No column selected.');
      this.detail.empty(col?.trajectoryError ? `Trajectory could not be read: ${oneLine(col.trajectoryError, 300)}` : 'No trajectory for this column.');
      return;
    }
    const kinds = kindsParam(s);
    const estimate = kinds ? kinds.reduce((n, k) => n + (col.trajectory?.byKind[k] ?? 0), 0) : (col.trajectory?.steps ?? 0);
    const selected = s.selectedStep[col.id];
    const source = { column: col.id, kinds, estimate };
    // The same trajectory and filter (an update of the task): the list stays as it is, scrolled where it is.
    if (this.list.shows(source)) {
      // A model without the summary (a new session has not read the trajectory yet) says nothing of the count.
      if (col.trajectory) this.list.setEstimate(estimate);
      return;
    }
    if (this.list.column !== col.id || this.detail.shown.column !== col.id) this.detail.empty('Select a step to see it in full.');
    this.list.setSource(source, selected, s.scrollTop[col.id] ?? 0);
    if (selected !== undefined && this.detail.shown.column !== col.id) void this.restoreSelection(col.id, selected);
  }

  /** Stops what this view has pending (the panel moved to another task). */
  dispose(): void {
    document.removeEventListener('keydown', this.onDocKey);
    clearTimeout(this.searchTimer);
    if (this.search.status === 'running') this.ctx.host.request('cancelSearch', { searchId: this.search.searchId }).catch(() => undefined);
    this.search.clear();
    this.jumpToken++;
  }

  /** Selects and shows one step of a column in full (an evidence link on a label points at it). */
  showStep(column: string, step: number): void {
    const token = ++this.jumpToken;
    this.selectSeq++;
    if (this.ctx.state().activeColumn !== column) this.ctx.actions.activateColumn(column);
    const kinds = kindsParam(this.ctx.state());
    this.ctx.host.request('locateStep', { column, step, ...(kinds ? { kinds } : {}) }).then(
      async ({ position }) => {
        if (token !== this.jumpToken) return;
        if (!Number.isInteger(position) || position < 0) {
          this.ctx.status(`Step ${step} is not listed (hidden by the step-kind filter, or not in the trajectory).`, true);
          return;
        }
        this.list.scrollToPosition(position, 'center');
        this.list.select(step, position);
        this.rememberStep(column, step);
        const s = await this.list.stepAt(position);
        if (token === this.jumpToken && s) this.detail.show(column, s);
      },
      (e: unknown) => {
        if (token === this.jumpToken) this.ctx.status(`Could not show step ${step}: ${errorText(e)}`, true);
      },
    );
  }

  /** Forgets cached steps (the host's trajectories changed). */
  invalidate(): void {
    this.list.invalidate();
  }

  focusSearch(): void {
    this.setFull(false);
    this.bar.field.focus();
  }

  searchHasFocus(): boolean {
    return this.bar.field.hasFocus();
  }

  onSearchMessage(msg: Extract<HostToWebview, { type: 'searchHits' | 'searchDone' }>): void {
    const ok =
      msg.type === 'searchHits'
        ? this.search.addHits(msg.searchId, Array.isArray(msg.hits) ? msg.hits : [], msg.counts ?? {})
        : this.search.finish(msg.searchId, msg.counts ?? {}, msg.cancelled === true, msg.capped === true);
    if (ok) this.scheduleUi();
  }

  /** Starts (or restarts) the search with the state's query, cancelling the one running. */
  async runSearch(): Promise<void> {
    clearTimeout(this.searchTimer);
    this.pendingSearch = false;
    const s = this.ctx.state();
    const previous = this.search.status === 'running' ? this.search.searchId : undefined;
    if (previous !== undefined) this.ctx.host.request('cancelSearch', { searchId: previous }).catch(() => undefined);
    this.search.clear();
    const pattern = s.search;
    this.searchedPattern = pattern;
    if (pattern === '') {
      this.bar.setStatus('');
      this.updateSearchUi();
      return;
    }
    if (s.regex) {
      try {
        new RegExp(pattern, s.caseSensitive ? '' : 'i');
      } catch (e) {
        this.bar.setStatus(`Invalid regular expression: ${errorText(e)}`, true);
        this.updateSearchUi();
        return;
      }
    }
    const id = ++searchSeq;
    this.search.begin(id);
    this.bar.setStatus('Searching\u2026');
    this.updateSearchUi();
    const kinds = kindsParam(s);
    try {
      const r = await this.ctx.host.request('search', { searchId: id, pattern: pattern.slice(0, 1000), regex: s.regex, caseSensitive: s.caseSensitive, ...(kinds ? { kinds } : {}) });
      if (!r.started && this.search.fail(id, r.error)) this.bar.setStatus(oneLine(r.error, 200), true);
    } catch (e) {
      if (this.search.fail(id, errorText(e))) this.bar.setStatus(oneLine(this.search.error ?? '', 200), true);
    }
    this.updateSearchUi();
  }

  nextHit(): void {
    // Enter or F3 right after typing: the search still waiting for the typing pause starts now.
    if (this.pendingSearch) {
      void this.runSearch();
      return;
    }
    this.jump(this.search.next(this.here()));
  }

  previousHit(): void {
    this.jump(this.search.previous(this.here()));
  }

  private here(): { column: string; step: number } | undefined {
    const col = this.ctx.state().activeColumn;
    return col === undefined ? undefined : { column: col, step: this.list.selection.step ?? 0 };
  }

  private jump(hit: SearchHit | undefined): void {
    if (!hit) {
      this.ctx.status(this.search.status === 'idle' ? 'Type a search first.' : 'No hits.');
      return;
    }
    void this.jumpTo(hit);
  }

  private async jumpTo(hit: SearchHit): Promise<void> {
    const token = ++this.jumpToken;
    this.selectSeq++;
    this.updateSearchUi();
    if (this.ctx.state().activeColumn !== hit.column) this.ctx.actions.activateColumn(hit.column);
    const kinds = kindsParam(this.ctx.state());
    try {
      const { position } = await this.ctx.host.request('locateStep', { column: hit.column, step: hit.step, ...(kinds ? { kinds } : {}) });
      if (token !== this.jumpToken) return;
      if (!Number.isInteger(position) || position < 0) {
        this.ctx.status(`Step ${hit.step} is hidden by the step-kind filter.`);
        return;
      }
      this.list.scrollToPosition(position, 'center');
      this.list.select(hit.step, position);
      this.rememberStep(hit.column, hit.step);
      const step = await this.list.stepAt(position);
      if (token !== this.jumpToken || !step) return;
      this.detail.show(hit.column, step, hit);
    } catch (e) {
      if (token === this.jumpToken) this.ctx.status(`Could not jump to the hit: ${errorText(e)}`, true);
    }
  }

  private onSelectStep(step: StepView): void {
    const col = this.list.column;
    if (col === undefined) return;
    this.selectSeq++;
    this.rememberStep(col, step.index);
    const cur = this.search.currentHit;
    this.detail.show(col, step, cur && cur.column === col && cur.step === step.index ? cur : undefined);
  }

  private rememberStep(column: string, step: number): void {
    this.ctx.setState({ selectedStep: { ...this.ctx.state().selectedStep, [column]: step } });
    this.ctx.actions.stepSelected(column, step);
  }

  private async restoreSelection(column: string, step: number): Promise<void> {
    const kinds = kindsParam(this.ctx.state());
    const seq = this.selectSeq;
    try {
      const { position } = await this.ctx.host.request('locateStep', { column, step, ...(kinds ? { kinds } : {}) });
      if (this.list.column !== column || position < 0 || seq !== this.selectSeq) return;
      this.list.select(step, position);
      const s = await this.list.stepAt(position);
      if (s && this.list.column === column && seq === this.selectSeq && this.detail.shown.column === undefined) this.detail.show(column, s);
    } catch {
      // The step may be gone after a reload of the trajectory: nothing to restore.
    }
  }

  private onFilterChange(kind: (typeof STEP_KINDS)[number], checked: boolean): void {
    const before = new Set(this.ctx.state().stepKinds);
    if (checked) before.add(kind);
    else before.delete(kind);
    const kinds = STEP_KINDS.filter((k) => before.has(k));
    this.ctx.setState({ stepKinds: kinds });
    const col = this.ctx.state().activeColumn;
    const selected = col === undefined ? undefined : this.ctx.state().selectedStep[col];
    this.showColumn();
    // Keep the selected step in view when it is still listed.
    if (col !== undefined && selected !== undefined) {
      const k = kindsParam(this.ctx.state());
      this.ctx.host
        .request('locateStep', { column: col, step: selected, ...(k ? { kinds: k } : {}) })
        .then(({ position }) => {
          if (position >= 0 && this.list.column === col) {
            this.list.select(selected, position);
            this.list.scrollToPosition(position, 'center');
          }
        })
        .catch(() => undefined);
    }
    if (this.ctx.state().search !== '') void this.runSearch();
  }

  private infoTemplate(col: ColumnView | undefined): TemplateResult {
    const t = col?.trajectory;
    const parts: string[] = [];
    if (col && t) {
      parts.push(`${oneLine(t.format, 40)}`, `${formatCount(t.steps)} steps`);
      if (t.costUsd !== undefined) parts.push(formatCost(t.costUsd));
      if (t.exitStatus) parts.push(`exit: ${oneLine(t.exitStatus, 60)}`);
    }
    return html`${parts.join(' \u00b7 ')}${col?.trajectoryError ? html`<span class="error">${` ${oneLine(col.trajectoryError, 300)}`}</span>` : nothing}`;
  }

  private scheduleUi(): void {
    if (this.uiFrame) return;
    this.uiFrame = requestAnimationFrame(() => {
      this.uiFrame = 0;
      this.updateSearchUi();
    });
  }

  private updateSearchUi(): void {
    const r = this.search;
    this.renderChrome();
    const idx = r.currentIndex();
    let text = '';
    if (r.status === 'running') text = `${idx >= 0 ? `${idx + 1} of ` : ''}${r.total}\u2026`;
    else if (r.status === 'done' || r.status === 'cancelled') text = r.total === 0 ? 'No results' : `${idx >= 0 ? `${idx + 1} of ` : ''}${r.total}`;
    this.bar.setCounter(text);
    if (r.status === 'done') this.bar.setStatus(r.capped ? `Showing the first ${formatCount(r.navigable)} hits of ${formatCount(r.total)}.` : '');
    else if (r.status === 'cancelled') this.bar.setStatus('Search cancelled.');
    this.list.refresh();
  }
}
