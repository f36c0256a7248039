// A cache of pages of one list (one trajectory with one step-kind filter), fetched from the host as the list scrolls.
// It remembers what is in flight so a fast scroll does not ask twice, and forgets the least recently used pages so
// a 10,000-step trajectory does not stay in memory page by page.

export class PagedCache<T> {
  /** Length of the list, once the host has said. */
  total: number | undefined;
  private readonly pages = new Map<number, T[]>();
  private readonly inflight = new Set<number>();

  constructor(
    readonly pageSize: number,
    private readonly maxPages: number,
  ) {}

  get(position: number): T | undefined {
    const page = this.pages.get(Math.floor(position / this.pageSize));
    return page?.[position % this.pageSize];
  }

  has(page: number): boolean {
    return this.pages.has(page);
  }

  /** Pages of `pages` neither cached nor being fetched; marks them as being fetched. */
  claim(pages: readonly number[]): number[] {
    const out: number[] = [];
    for (const p of pages) {
      if (p < 0 || this.pages.has(p) || this.inflight.has(p)) continue;
      if (this.total !== undefined && p * this.pageSize >= this.total) continue;
      this.inflight.add(p);
      out.push(p);
    }
    return out;
  }

  /** Stores a fetched page; `keep` lists pages that must not be evicted (the visible ones). */
  put(page: number, items: T[], total: number, keep: readonly number[] = []): void {
    this.inflight.delete(page);
    this.total = total;
    this.pages.delete(page);
    this.pages.set(page, items);
    if (this.pages.size > this.maxPages) {
      for (const p of this.pages.keys()) {
        if (this.pages.size <= this.maxPages) break;
        if (p !== page && !keep.includes(p)) this.pages.delete(p);
      }
    }
  }

  /** A fetch failed: the page may be asked for again. */
  release(page: number): void {
    this.inflight.delete(page);
  }

  /** Marks pages as recently used so eviction spares them. */
  touch(pages: readonly number[]): void {
    for (const p of pages) {
      const items = this.pages.get(p);
      if (items) {
        this.pages.delete(p);
        this.pages.set(p, items);
      }
    }
  }

  get cachedPages(): number {
    return this.pages.size;
  }
}
