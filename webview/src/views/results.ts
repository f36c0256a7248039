// Verifier results as two matrices, test x column and spec x column, when the host has any. A cell click makes
// the column active and opens the run's log at that test (a spec cell: at its first failing covering test); a row
// header shows the test or spec.
import type { ResultsView } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { el } from '../dom';
import { oneLine } from '../text';
import { shortName } from './specs';
import { errorText } from '../text';

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
  const label = (id: string) => m.columns.find((c) => c.id === id)?.label ?? (id === 'empty' ? 'Empty patch' : id === 'gold' ? 'Gold patch' : id);
  if (r.flags.length > 0) {
    const flags = el('ul', { class: 'result-flags', testid: 'result-flags' });
    for (const f of r.flags.slice(0, 100)) {
      const who = f.column ? `${oneLine(label(f.column), 40)}: ` : '';
      flags.append(el('li', { class: 'flag-line', text: `${who}${oneLine(f.kind, 40)}: ${oneLine(f.message, 300)}`, data: { kind: oneLine(f.kind, 40) } }));
    }
    root.append(flags);
  }
  const testName = (id: string) => shortName(m.tests.find((t) => t.id === id)?.name ?? id);
  root.append(el('div', { class: 'section-title', text: 'Tests' }));
  root.append(matrix(ctx, r, 'tests', r.tests, label, testName, (rowId, col) => {
    ctx.actions.activateColumn(col);
    openLog(ctx, col, rowId);
  }, (rowId) => ctx.actions.showTest(rowId)));
  root.append(el('div', { class: 'section-title', text: 'Specs' }));
  root.append(matrix(ctx, r, 'specs', r.specs, label, (id) => id, (rowId, col) => {
    ctx.actions.activateColumn(col);
    openLog(ctx, col, specTest(ctx, r, rowId, col));
  }, (rowId) => ctx.actions.showSpec(rowId)));
  return root;
}

/** Asks the host to open the column's run log at the test. */
function openLog(ctx: Ctx, column: string, testId: string | undefined): void {
  ctx.host.request('openRunLog', testId !== undefined ? { column, testId } : { column }).then(
    (res) => ctx.status(res?.message ?? (res?.opened ? 'Opened the run log.' : 'No run log for this column.'), res?.opened === false),
    (e: unknown) => ctx.status(errorText(e), true),
  );
}

/** The covering test a spec cell's log opens at: the first that did not pass in that column, else the first. */
function specTest(ctx: Ctx, r: ResultsView, specId: string, column: string): string | undefined {
  const tests = ctx.model().specs.find((s) => s.id === specId)?.tests ?? [];
  return tests.find((t) => statusClass(r.tests[t]?.[column] ?? '') !== 'ok') ?? tests[0];
}

function matrix(
  ctx: Ctx,
  r: ResultsView,
  kind: 'tests' | 'specs',
  cells: Record<string, Record<string, string>>,
  columnLabel: (id: string) => string,
  rowLabel: (id: string) => string,
  onCell: (rowId: string, column: string) => void,
  onRow: (rowId: string) => void,
): HTMLElement {
  const table = el('table', { class: 'results-matrix', testid: `results-${kind}` });
  const head = el('tr', {}, el('th', { class: 'corner', text: kind === 'tests' ? 'test' : 'spec' }));
  for (const c of r.columns) {
    const run = r.runs[c];
    const why = run?.stale ? ` (stale: ${run.staleReasons?.length ? run.staleReasons.join('; ') : 'inputs changed since'})` : '';
    const th = el('th', {
      text: oneLine(columnLabel(c), 30),
      title: run ? `${run.source === 'recorded' ? 'imported result' : `run ${run.runId}`}: ${run.status}${why}` : 'not run',
      class: run?.stale ? 'stale' : '',
      data: { column: c },
    });
    if (run?.stale) th.append(el('span', { class: 'stale-mark', testid: 'result-stale', text: ' (stale)' }));
    else if (run?.source === 'recorded') th.append(el('span', { class: 'muted', text: ' (imported)' }));
    head.append(th);
  }
  table.append(el('thead', {}, head));
  const body = el('tbody');
  // Rows where some column disagrees with the first (gold) come first: those are the ones to look at.
  const rows = Object.keys(cells).sort((a, b) => Number(agrees(cells[a], r.columns)) - Number(agrees(cells[b], r.columns)));
  const first = Math.max(10, Math.floor(FIRST_CELLS[kind] / Math.max(1, r.columns.length)));
  const wrap = el('div', { class: 'table-scroll' }, table);
  const addRows = (from: number, to: number) => {
    for (const id of rows.slice(from, to)) {
      const th = el('th', { text: oneLine(rowLabel(id), 60), title: id, class: 'row-head', data: { row: id } });
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
    const th = e.target instanceof Element ? e.target.closest<HTMLElement>('th.row-head') : null;
    if (th?.dataset.row !== undefined) onRow(th.dataset.row);
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
