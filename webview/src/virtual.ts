// The arithmetic of a virtualized list with fixed row heights: which rows to render, which pages to fetch, where to
// scroll to reveal a row. Pure, so it is unit-tested without a browser.

/** Positions [start, end) of the list. */
export interface Range {
  start: number;
  end: number;
}

/** Rows intersecting the viewport, widened by `overscan` rows on each side. */
export function visibleRange(scrollTop: number, viewportHeight: number, rowHeight: number, total: number, overscan: number): Range {
  if (total <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + Math.max(0, viewportHeight)) / rowHeight);
  const start = Math.max(0, Math.min(total - 1, first - overscan));
  const end = Math.min(total, Math.max(start + 1, last + overscan));
  return { start, end };
}

/** Page numbers covering a range. */
export function pagesFor(range: Range, pageSize: number): number[] {
  if (range.end <= range.start) return [];
  const first = Math.floor(range.start / pageSize);
  const last = Math.floor((range.end - 1) / pageSize);
  const pages: number[] = [];
  for (let p = first; p <= last; p++) pages.push(p);
  return pages;
}

/** The scrollTop that shows row `position`: unchanged if it is already fully visible, else nearest edge or centred. */
export function revealScrollTop(
  position: number,
  rowHeight: number,
  viewportHeight: number,
  scrollTop: number,
  total: number,
  align: 'nearest' | 'center',
): number {
  const top = position * rowHeight;
  const bottom = top + rowHeight;
  const max = Math.max(0, total * rowHeight - viewportHeight);
  const clamp = (v: number) => Math.max(0, Math.min(max, v));
  if (align === 'nearest') {
    if (top >= scrollTop && bottom <= scrollTop + viewportHeight) return clamp(scrollTop);
    return clamp(top < scrollTop ? top : bottom - viewportHeight);
  }
  return clamp(top - (viewportHeight - rowHeight) / 2);
}
