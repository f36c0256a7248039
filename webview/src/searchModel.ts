// The results of one trajectory search as they stream in: hits in reading order (column order, step, offset), the
// host's running counts per column, and the current hit for next/previous navigation. Notifications of any other
// search id are stale (the query changed) and are dropped.
import type { SearchHit } from '../../src/protocol/messages';

export type SearchStatus = 'idle' | 'running' | 'done' | 'cancelled' | 'error';

export interface StepRef {
  column: string;
  step: number;
}

export class SearchResults {
  searchId = 0;
  status: SearchStatus = 'idle';
  error: string | undefined;
  /** The host stopped sending hits (it found too many); counts still cover everything. */
  capped = false;
  private hits: SearchHit[] = [];
  private sorted = true;
  private counts: Record<string, number> = {};
  private readonly perStep = new Map<string, Map<number, number>>();
  private current: SearchHit | undefined;
  private order = new Map<string, number>();

  constructor(columns: readonly string[] = []) {
    this.setColumns(columns);
  }

  setColumns(columns: readonly string[]): void {
    this.order = new Map(columns.map((c, i) => [c, i]));
    this.sorted = false;
  }

  /** Forgets everything and expects notifications for `searchId`. */
  begin(searchId: number): void {
    this.clear();
    this.searchId = searchId;
    this.status = 'running';
  }

  clear(): void {
    this.searchId = 0;
    this.status = 'idle';
    this.error = undefined;
    this.capped = false;
    this.hits = [];
    this.sorted = true;
    this.counts = {};
    this.perStep.clear();
    this.current = undefined;
  }

  /** Adds a batch; false when it belongs to another search. `counts` are the host's running totals per column. */
  addHits(searchId: number, hits: readonly SearchHit[], counts: Record<string, number>): boolean {
    if (searchId !== this.searchId || this.status !== 'running') return false;
    for (const h of hits) {
      this.hits.push(h);
      let steps = this.perStep.get(h.column);
      if (!steps) this.perStep.set(h.column, (steps = new Map()));
      steps.set(h.step, (steps.get(h.step) ?? 0) + 1);
    }
    if (hits.length > 0) this.sorted = false;
    this.counts = { ...counts };
    return true;
  }

  finish(searchId: number, counts: Record<string, number>, cancelled: boolean, capped: boolean): boolean {
    if (searchId !== this.searchId || this.status !== 'running') return false;
    this.counts = { ...counts };
    this.capped = capped;
    this.status = cancelled ? 'cancelled' : 'done';
    return true;
  }

  fail(searchId: number, error: string): boolean {
    if (searchId !== this.searchId) return false;
    this.status = 'error';
    this.error = error;
    return true;
  }

  /** Matches found so far in all columns (by the host's count, which goes on when hits are capped). */
  get total(): number {
    let sum = 0;
    for (const n of Object.values(this.counts)) sum += n;
    return Math.max(sum, this.hits.length);
  }

  /** Hits that next/previous can reach. */
  get navigable(): number {
    return this.hits.length;
  }

  countFor(column: string): number {
    let held = 0;
    for (const n of this.perStep.get(column)?.values() ?? []) held += n;
    return Math.max(this.counts[column] ?? 0, held);
  }

  hitsInStep(column: string, step: number): number {
    return this.perStep.get(column)?.get(step) ?? 0;
  }

  get currentHit(): SearchHit | undefined {
    return this.current;
  }

  /** 0-based index of the current hit, -1 when there is none. */
  currentIndex(): number {
    if (!this.current) return -1;
    this.sort();
    return this.lowerBound(this.current);
  }

  /** Moves to the next hit (wrapping); without a current hit, to the first one at or after `from`. */
  next(from?: StepRef): SearchHit | undefined {
    if (this.hits.length === 0) return undefined;
    this.sort();
    let i: number;
    if (this.current) i = this.lowerBound(this.current) + 1;
    else if (from) i = this.lowerBound({ column: from.column, step: from.step, start: -1 });
    else i = 0;
    this.current = this.hits[i % this.hits.length];
    return this.current;
  }

  /** Moves to the previous hit (wrapping); without a current hit, to the last one before `from`. */
  previous(from?: StepRef): SearchHit | undefined {
    if (this.hits.length === 0) return undefined;
    this.sort();
    let i: number;
    if (this.current) i = this.lowerBound(this.current) - 1;
    else if (from) i = this.lowerBound({ column: from.column, step: from.step, start: -1 }) - 1;
    else i = this.hits.length - 1;
    this.current = this.hits[(i + this.hits.length) % this.hits.length];
    return this.current;
  }

  /** Makes `hit` current (a click on a hit). */
  select(hit: SearchHit): void {
    this.current = hit;
  }

  private columnRank(column: string): number {
    return this.order.get(column) ?? Number.MAX_SAFE_INTEGER;
  }

  private compare(a: Pick<SearchHit, 'column' | 'step' | 'start'>, b: Pick<SearchHit, 'column' | 'step' | 'start'>): number {
    return this.columnRank(a.column) - this.columnRank(b.column) || a.column.localeCompare(b.column) || a.step - b.step || a.start - b.start;
  }

  private sort(): void {
    if (this.sorted) return;
    this.hits.sort((a, b) => this.compare(a, b));
    this.sorted = true;
  }

  /** First index whose hit is not before `key`. */
  private lowerBound(key: Pick<SearchHit, 'column' | 'step' | 'start'>): number {
    let lo = 0;
    let hi = this.hits.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(this.hits[mid]!, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
