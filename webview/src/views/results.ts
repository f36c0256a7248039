// Verifier results as two matrices, test x column and spec x column, when the host has any. A cell click makes
// the column active and shows the test or spec.
import type { ResultsView } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { el } from '../dom';
import { oneLine } from '../text';
import { shortName } from './specs';

const MAX_ROWS = 300;

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
  const rows = Object.keys(cells);
  for (const id of rows.slice(0, MAX_ROWS)) {
    const th = el('th', { text: oneLine(rowLabel(id), 60), title: id });
    const tr = el('tr', {}, th);
    for (const c of r.columns) {
      const v = cells[id]?.[c] ?? '';
      const td = el('td', { class: `result ${statusClass(v)}`, text: oneLine(v, 20), testid: 'result-cell', data: { row: id, column: c }, tabIndex: 0, role: 'button' });
      td.addEventListener('click', () => onCell(id, c));
      td.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') onCell(id, c);
      });
      tr.append(td);
    }
    if (kind === 'specs') ctx.links.addSpec(tr, id);
    body.append(tr);
  }
  table.append(body);
  const wrap = el('div', { class: 'table-scroll' }, table);
  if (rows.length > MAX_ROWS) wrap.append(el('p', { class: 'muted', text: `${rows.length - MAX_ROWS} more rows not shown.` }));
  return wrap;
}

function statusClass(v: string): string {
  const s = v.toLowerCase();
  if (s === 'passed' || s === 'pass' || s === 'xfail') return 'ok';
  if (s === 'failed' || s === 'fail' || s === 'error' || s === 'xpass') return 'bad';
  return 'unknown';
}
