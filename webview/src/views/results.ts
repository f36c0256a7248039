// Verifier results as two matrices, test x column and spec x column, when the host has any. A cell click makes
// the column active and shows the test or spec.
import type { ResultsView } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { el } from '../dom';
import { oneLine } from '../text';
import { shortName } from './specs';

/** Cells rendered before "show all" (rows x columns), so ten columns of hundreds of tests stay a small DOM. */
const FIRST_CELLS = { tests: 300, specs: 200 } as const;

export function renderResults(ctx: Ctx): HTMLElement {
  const m = ctx.model();
  const r = m.results;
  const root = el('div', { class: 'results', testid: 'results' });
  if (!r) {
    root.append(el('p', { class: 'muted', text: 'No verifier results yet.' }));
    return root;
  }
  if (r.flags.length > 0) {
    const flags = el('ul', { class: 'result-flags', testid: 'result-flags' });
    for (const f of r.flags.slice(0, 100)) flags.append(el('li', { class: 'flag-line', text: `${oneLine(f.kind, 40)}: ${oneLine(f.message, 300)}` }));
    root.append(flags);
  }
  const label = (id: string) => m.columns.find((c) => c.id === id)?.label ?? id;
  const testName = (id: string) => shortName(m.tests.find((t) => t.id === id)?.name ?? id);
  root.append(el('div', { class: 'section-title', text: 'Tests' }));
  root.append(matrix(ctx, r, 'tests', r.tests, label, testName, (rowId, col) => {
    ctx.actions.activateColumn(col);
    ctx.actions.showTest(rowId);
  }));
  root.append(el('div', { class: 'section-title', text: 'Specs' }));
  root.append(matrix(ctx, r, 'specs', r.specs, label, (id) => id, (rowId, col) => {
    ctx.actions.activateColumn(col);
    ctx.actions.showSpec(rowId);
  }));
  return root;
}

function matrix(
  ctx: Ctx,
  r: ResultsView,
  kind: 'tests' | 'specs',
  cells: Record<string, Record<string, string>>,
  columnLabel: (id: string) => string,
  rowLabel: (id: string) => string,
  onCell: (rowId: string, column: string) => void,
): HTMLElement {
  const table = el('table', { class: 'results-matrix', testid: `results-${kind}` });
  const head = el('tr', {}, el('th', { class: 'corner', text: kind === 'tests' ? 'test' : 'spec' }));
  for (const c of r.columns) {
    const run = r.runs[c];
    head.append(
      el('th', { text: oneLine(columnLabel(c), 30), title: run ? `${run.runId}: ${run.status}${run.stale ? ' (stale: inputs changed since)' : ''}` : 'not run', class: run?.stale ? 'stale' : '' }),
    );
  }
  table.append(el('thead', {}, head));
  const body = el('tbody');
  // Rows where some column disagrees with the first (gold) come first: those are the ones to look at.
  const rows = Object.keys(cells).sort((a, b) => Number(agrees(cells[a], r.columns)) - Number(agrees(cells[b], r.columns)));
  const first = Math.max(10, Math.floor(FIRST_CELLS[kind] / Math.max(1, r.columns.length)));
  const wrap = el('div', { class: 'table-scroll' }, table);
  const addRows = (from: number, to: number) => {
    for (const id of rows.slice(from, to)) {
      const th = el('th', { text: oneLine(rowLabel(id), 60), title: id });
      const tr = el('tr', {}, th);
      for (const c of r.columns) {
        const v = cells[id]?.[c] ?? '';
        const td = el('td', { class: `result ${statusClass(v)}`, text: oneLine(v, 20), testid: 'result-cell', data: { row: id, column: c }, tabIndex: 0, role: 'button' });
        tr.append(td);
      }
      if (kind === 'specs') ctx.links.addSpec(tr, id);
      body.append(tr);
    }
  };
  addRows(0, first);
  // One listener for all cells.
  const cellOf = (e: Event) => (e.target instanceof Element ? e.target.closest<HTMLElement>('td.result') : null);
  body.addEventListener('click', (e) => {
    const td = cellOf(e);
    if (td?.dataset.row !== undefined && td.dataset.column !== undefined) onCell(td.dataset.row, td.dataset.column);
  });
  body.addEventListener('keydown', (e) => {
    const td = cellOf(e);
    if (e.key === 'Enter' && td?.dataset.row !== undefined && td.dataset.column !== undefined) onCell(td.dataset.row, td.dataset.column);
  });
  table.append(body);
  if (rows.length > first) {
    const more = el('button', { class: 'link-button', testid: `results-${kind}-show-all`, text: `Show all ${rows.length} rows` });
    more.addEventListener('click', () => {
      addRows(first, rows.length);
      more.remove();
    });
    wrap.append(more);
  }
  return wrap;
}

function agrees(row: Record<string, string> | undefined, columns: readonly string[]): boolean {
  const first = row?.[columns[0] ?? ''];
  return columns.every((c) => row?.[c] === first);
}

function statusClass(v: string): string {
  const s = v.toLowerCase();
  if (s === 'passed' || s === 'pass' || s === 'xfail') return 'ok';
  if (s === 'failed' || s === 'fail' || s === 'error' || s === 'xpass') return 'bad';
  return 'unknown';
}
