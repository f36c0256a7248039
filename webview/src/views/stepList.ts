// The virtualized step list of one trajectory: fixed-height rows, only the visible ones (plus a few) in the DOM,
// pages of steps fetched from the host as the list scrolls and cached per trajectory and filter. The rows of one turn
// (StepView.turn) are drawn as one card: each row knows from its neighbours whether it opens or closes the card.
import type { StepKindView, StepView } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { el, setText, toggleClass } from '../dom';
import { PagedCache } from '../stepPages';
import { formatCost, formatCount, oneLine } from '../text';
import { pagesFor, revealScrollTop, visibleRange, type Range } from '../virtual';
import { errorText } from '../text';
import { turnOf } from './stepDetail';

export const ROW_HEIGHT = 22;
const OVERSCAN = 8;
export const PAGE_SIZE = 100;
const MAX_PAGES = 40;
const MAX_SOURCES = 8;
const PREVIEW_CHARS = 240;

export interface ListSource {
  column: string;
  kinds: StepKindView[] | undefined;
  /** Length guess before the host answers (from the trajectory summary). */
  estimate: number;
}

export interface ListCallbacks {
  /** A row was chosen by click or keyboard. */
  onSelect(step: StepView, position: number): void;
  /** Enter on the selected row. */
  onActivate(step: StepView): void;
  /** Search hits in a step, and whether the current hit is in it. */
  hitState(column: string, step: number): { count: number; current: boolean };
  onScroll(column: string, scrollTop: number): void;
  /** The pair a cite adds evidence to, in words; undefined hides the rows' cite. */
  citeTarget(): string | undefined;
  onCite(column: string, step: number): void;
}

interface Row {
  root: HTMLElement;
  num: HTMLElement;
  kind: HTMLElement;
  preview: HTMLElement;
  meta: HTMLElement;
  /** Made on first need: a task without a review pays no element for it (the DOM budget counts every row's). */
  cite?: HTMLElement;
  position: number;
}

/** For the performance mark of the first steps on screen (read by bench/webview.bench.ts). */
let firstStepsShown = false;

const keyOf = (s: ListSource) => `${s.column}\u0000${s.kinds?.join(',') ?? '*'}`;

export class StepList {
  readonly element: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly empty: HTMLElement;
  private readonly rows: Row[] = [];
  private readonly caches = new Map<string, PagedCache<StepView>>();
  private source: ListSource | undefined;
  private cache: PagedCache<StepView> | undefined;
  private selectedStep: number | undefined;
  private selectedPosition: number | undefined;
  private selectedTurn: number | undefined;
  private viewportHeight = 0;
  private frame = 0;
  private range: Range = { start: 0, end: 0 };
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private waiters: Array<{ position: number; resolve: (s: StepView | undefined) => void }> = [];

  constructor(
    private readonly ctx: Ctx,
    private readonly cb: ListCallbacks,
  ) {
    this.spacer = el('div', { class: 'steps-spacer' });
    this.empty = el('div', { class: 'steps-empty muted', testid: 'trajectory-empty' });
    this.empty.hidden = true;
    this.element = el('div', { class: 'steps-viewport', testid: 'trajectory-list', role: 'listbox', tabIndex: 0, ariaLabel: 'Trajectory steps' }, this.spacer, this.empty);
    this.element.addEventListener(
      'scroll',
      () => {
        this.schedule();
        clearTimeout(this.saveTimer);
        this.saveTimer = setTimeout(() => {
          if (this.source) this.cb.onScroll(this.source.column, this.element.scrollTop);
        }, 250);
      },
      { passive: true },
    );
    this.element.addEventListener('click', (e) => this.onClick(e));
    this.element.addEventListener('keydown', (e) => this.onKey(e));
    new ResizeObserver(() => {
      this.viewportHeight = this.element.clientHeight;
      this.schedule();
    }).observe(this.element);
  }

  get column(): string | undefined {
    return this.source?.column;
  }

  get total(): number {
    return this.cache?.total ?? this.source?.estimate ?? 0;
  }

  /** Whether the list shows `source` already (the same column and filter, its pages cached). */
  shows(source: ListSource): boolean {
    return this.source !== undefined && this.cache !== undefined && keyOf(this.source) === keyOf(source) && this.caches.get(keyOf(source)) === this.cache;
  }

  /** Shows another trajectory or filter; `scrollTop` restores a saved position. */
  setSource(source: ListSource | undefined, selectedStep: number | undefined, scrollTop = 0, emptyText = ''): void {
    this.source = source;
    this.selectedStep = selectedStep;
    this.selectedPosition = undefined;
    this.flushWaiters();
    if (!source) {
      this.cache = undefined;
      this.setEmpty(emptyText || 'No trajectory.');
      this.layout();
      return;
    }
    const key = keyOf(source);
    let cache = this.caches.get(key);
    if (!cache) {
      cache = new PagedCache<StepView>(PAGE_SIZE, MAX_PAGES);
      this.caches.set(key, cache);
      if (this.caches.size > MAX_SOURCES) this.caches.delete(this.caches.keys().next().value as string);
    }
    this.cache = cache;
    this.setEmpty('');
    this.layout();
    this.element.scrollTop = scrollTop;
    this.renderNow();
  }

  /** The host's step count arrived for the source shown: the list's height follows it until a page tells. */
  setEstimate(estimate: number): void {
    if (!this.source || this.source.estimate === estimate) return;
    this.source = { ...this.source, estimate };
    if (this.cache?.total === undefined) this.layout();
  }

  /**
   * Forgets cached pages (the trajectories changed on the host). The list keeps its height (the count it knew) until
   * the first page tells the new one, so the scroll offset it restores is not cut to an empty list's.
   */
  invalidate(): void {
    const known = this.cache?.total;
    this.caches.clear();
    if (this.source) this.setSource({ ...this.source, estimate: known ?? this.source.estimate }, this.selectedStep, this.element.scrollTop);
  }

  /** Re-renders the visible rows (hit markers changed). */
  refresh(): void {
    this.schedule();
  }

  scrollToPosition(position: number, align: 'nearest' | 'center'): void {
    const h = this.viewportHeight || this.element.clientHeight;
    this.element.scrollTop = revealScrollTop(position, ROW_HEIGHT, h, this.element.scrollTop, this.total, align);
    this.renderNow();
  }

  select(step: number, position: number): void {
    this.selectedStep = step;
    this.selectedPosition = position;
    this.schedule();
  }

  get selection(): { step: number | undefined; position: number | undefined } {
    return { step: this.selectedStep, position: this.selectedPosition };
  }

  /** The step at a position, fetching its page if needed. */
  stepAt(position: number): Promise<StepView | undefined> {
    const s = this.cache?.get(position);
    if (s) return Promise.resolve(s);
    if (!this.cache || !this.source) return Promise.resolve(undefined);
    const p = new Promise<StepView | undefined>((resolve) => this.waiters.push({ position, resolve }));
    this.fetch(this.source, this.cache, [Math.floor(position / PAGE_SIZE)]);
    return p;
  }

  /** Elements currently rendered as rows (for tests of the DOM budget). */
  get renderedRows(): number {
    return this.rows.filter((r) => !r.root.hidden).length;
  }

  private setEmpty(text: string): void {
    this.empty.textContent = text;
    this.empty.hidden = text === '';
  }

  private layout(): void {
    this.spacer.style.height = `${this.total * ROW_HEIGHT}px`;
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.renderNow();
    });
  }

  private renderNow(): void {
    const source = this.source;
    const cache = this.cache;
    if (!this.viewportHeight) this.viewportHeight = this.element.clientHeight;
    const total = this.total;
    if (source && cache?.total === 0) this.setEmpty(source.kinds ? 'No steps of the selected kinds.' : 'This trajectory has no steps.');
    else if (source) this.setEmpty('');
    this.range = source ? visibleRange(this.element.scrollTop, this.viewportHeight || 400, ROW_HEIGHT, total, OVERSCAN) : { start: 0, end: 0 };
    const need = this.range.end - this.range.start;
    this.selectedTurn = cache ? this.turnOfSelection(cache) : undefined;
    while (this.rows.length < need) this.rows.push(this.makeRow());
    for (let i = 0; i < this.rows.length; i++) {
      const row = this.rows[i]!;
      if (i >= need || !source || !cache) {
        if (!row.root.hidden) {
          // A spare row must not keep claiming to be a step: selectors by step index would find it.
          row.root.hidden = true;
          delete row.root.dataset.step;
          delete row.root.dataset.position;
          row.position = -1;
        }
        continue;
      }
      row.root.hidden = false;
      this.fill(row, this.range.start + i, source, cache);
    }
    // Rows beyond what a tall viewport needs are dropped, so the pool never grows past one screen.
    while (this.rows.length > need + OVERSCAN * 2) this.rows.pop()!.root.remove();
    if (source && cache) {
      // A total not known yet with nothing to show (the column's step count had not reached the page: estimate 0,
      // e.g. a trajectory that is still being written) is learnt from the first page; else no page was ever asked for.
      const pages = cache.total === undefined && this.range.end <= this.range.start ? [0] : pagesFor(this.range, PAGE_SIZE);
      cache.touch(pages);
      this.fetch(source, cache, pages);
    }
  }

  private fetch(source: ListSource, cache: PagedCache<StepView>, pages: number[]): void {
    for (const page of cache.claim(pages)) {
      const params = { column: source.column, start: page * PAGE_SIZE, count: PAGE_SIZE, ...(source.kinds ? { kinds: source.kinds } : {}) };
      this.ctx.host.request('getSteps', params).then(
        (r) => {
          const before = cache.total;
          cache.put(page, Array.isArray(r.steps) ? r.steps : [], Number.isInteger(r.total) ? r.total : 0, pagesFor(this.range, PAGE_SIZE));
          if (cache !== this.cache) return;
          if (before !== cache.total) this.layout();
          this.resolveWaiters();
          this.schedule();
        },
        (e: unknown) => {
          cache.release(page);
          if (cache === this.cache) {
            this.ctx.status(`Could not load steps: ${errorText(e)}`, true);
            this.flushWaiters();
          }
        },
      );
    }
  }

  private resolveWaiters(): void {
    this.waiters = this.waiters.filter((w) => {
      const s = this.cache?.get(w.position);
      const pastEnd = this.cache?.total !== undefined && w.position >= this.cache.total;
      if (s || pastEnd) w.resolve(s);
      return !(s || pastEnd);
    });
  }

  private flushWaiters(): void {
    for (const w of this.waiters) w.resolve(undefined);
    this.waiters = [];
  }

  /** The selected step's turn, when its row is at hand (its card is outlined). */
  private turnOfSelection(cache: PagedCache<StepView>): number | undefined {
    if (this.selectedStep === undefined) return undefined;
    const at = this.selectedPosition !== undefined ? cache.get(this.selectedPosition) : undefined;
    if (at?.index === this.selectedStep) return turnOf(at);
    for (let p = this.range.start; p < this.range.end; p++) {
      const s = cache.get(p);
      if (s?.index === this.selectedStep) return turnOf(s);
    }
    return undefined;
  }

  private makeRow(): Row {
    const num = el('span', { class: 'step-num' });
    const kind = el('span', { class: 'step-kind' });
    const preview = el('span', { class: 'step-preview' });
    const meta = el('span', { class: 'step-meta' });
    const root = el('div', { class: 'step-row', testid: 'step-row', role: 'option' }, num, kind, preview, meta);
    this.spacer.append(root);
    return { root, num, kind, preview, meta, position: -1 };
  }

  private fill(row: Row, position: number, source: ListSource, cache: PagedCache<StepView>): void {
    row.position = position;
    row.root.style.transform = `translateY(${position * ROW_HEIGHT}px)`;
    row.root.dataset.position = String(position);
    const s = cache.get(position);
    if (!s) {
      delete row.root.dataset.step;
      delete row.root.dataset.turn;
      delete row.root.dataset.turnLabel;
      row.root.className = 'step-row loading';
      setText(row.num, String(position + 1));
      setText(row.kind, '');
      setText(row.preview, '\u2026');
      setText(row.meta, '');
      return;
    }
    if (!firstStepsShown) {
      firstStepsShown = true;
      performance.mark('specweave.firstSteps');
    }
    const hits = this.cb.hitState(source.column, s.index);
    row.root.dataset.step = String(s.index);
    // A card is the run of neighbouring rows with the same turn (a kind filter may split a turn into two cards). A
    // neighbour not loaded yet counts as another turn until its page arrives and the rows are drawn again.
    const turn = turnOf(s);
    const first = turn !== undefined && (position === 0 || turnOf(cache.get(position - 1)) !== turn);
    const last = turn !== undefined && turnOf(cache.get(position + 1)) !== turn;
    let cls = `step-row kind-${s.kind}`;
    if (turn !== undefined) cls += ` turn-card${first ? ' turn-first' : ''}${last ? ' turn-last' : ''}${turn === this.selectedTurn ? ' turn-selected' : ''}`;
    row.root.className = cls;
    if (turn !== undefined) row.root.dataset.turn = String(turn);
    else delete row.root.dataset.turn;
    // The number is drawn by turns.css from this attribute (a ::before), not an element: every row's element counts
    // against the DOM budget, and the number is plain digits.
    if (first) row.root.dataset.turnLabel = `T${turn}`;
    else delete row.root.dataset.turnLabel;
    toggleClass(row.root, 'selected', s.index === this.selectedStep);
    toggleClass(row.root, 'has-hit', hits.count > 0);
    toggleClass(row.root, 'current-hit', hits.current);
    row.root.setAttribute('aria-selected', String(s.index === this.selectedStep));
    setText(row.num, String(s.index));
    setText(row.kind, s.kind);
    setText(row.preview, oneLine(s.preview ?? '', PREVIEW_CHARS));
    const meta: string[] = [];
    if (hits.count > 0) meta.push(`\u25cf${hits.count}`);
    if (s.toolCalls && s.toolCalls.length > 0) meta.push(`\u2699 ${oneLine(s.toolCalls.map((t) => t.name).join(', '), 30)}`);
    if (s.edits && s.edits.length > 0) meta.push(`\u270e${s.edits.length}`);
    if (s.costUsd !== undefined) meta.push(formatCost(s.costUsd));
    if (s.length > (s.preview ?? '').length) meta.push(`\u25b8 ${formatCount(s.length)}`);
    setText(row.meta, meta.join('  '));
    // Shown on the hovered and the selected row when a pair can take evidence (ListCallbacks.citeTarget).
    const target = this.cb.citeTarget();
    if (target !== undefined && !row.cite) {
      row.cite = el('span', { class: 'step-cite', testid: 'step-row-cite', role: 'button', text: 'cite' });
      row.root.append(row.cite);
    }
    if (row.cite) {
      row.cite.hidden = target === undefined;
      if (target !== undefined) row.cite.title = `Link step ${s.index} as evidence on ${oneLine(target, 120)}`;
    }
    row.root.title = `Step ${s.index} · ${s.kind}${turn !== undefined ? ` · turn ${turn}` : ''} · ${formatCount(s.length)} characters, ${s.lines} lines`;
  }

  private onClick(e: MouseEvent): void {
    const rowEl = (e.target as Element | null)?.closest<HTMLElement>('.step-row');
    if (!rowEl || !this.cache) return;
    const position = Number(rowEl.dataset.position);
    const s = this.cache.get(position);
    if (!s) return;
    if ((e.target as Element).closest('.step-cite') && this.source) {
      this.cb.onCite(this.source.column, s.index);
      return;
    }
    this.select(s.index, position);
    this.cb.onSelect(s, position);
  }

  private onKey(e: KeyboardEvent): void {
    if (!this.cache || this.total === 0) return;
    const page = Math.max(1, Math.floor((this.viewportHeight || 400) / ROW_HEIGHT) - 1);
    const cur = this.selectedPosition ?? this.range.start;
    let next: number | undefined;
    switch (e.key) {
      case 'ArrowDown':
        next = cur + 1;
        break;
      case 'ArrowUp':
        next = cur - 1;
        break;
      case 'PageDown':
        next = cur + page;
        break;
      case 'PageUp':
        next = cur - page;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = this.total - 1;
        break;
      case 'Enter': {
        const s = this.selectedPosition === undefined ? undefined : this.cache.get(this.selectedPosition);
        if (s) {
          e.preventDefault();
          this.cb.onActivate(s);
        }
        return;
      }
      default:
        return;
    }
    e.preventDefault();
    const position = Math.max(0, Math.min(this.total - 1, next));
    this.selectedPosition = position;
    this.scrollToPosition(position, 'nearest');
    void this.stepAt(position).then((s) => {
      if (!s || this.selectedPosition !== position) return;
      this.select(s.index, position);
      this.cb.onSelect(s, position);
    });
  }
}
