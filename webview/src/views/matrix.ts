// The spec x test matrix: a row per spec, a column per test, a mark where the test covers the spec. Rows of specs
// without a test and columns of tests without a spec are flagged.
import type { Ctx } from '../context';
import { el } from '../dom';
import { oneLine } from '../text';
import { shortName } from './specs';

/** Cells rendered before asking: a task with hundreds of pass-to-pass tests would make a huge table. */
const FIRST_CELLS = 600;

export function renderMatrix(ctx: Ctx, showAll = false): HTMLElement {
  const m = ctx.model();
  const root = el('div', { class: 'matrix-wrap', testid: 'matrix' });
  if (m.specs.length === 0 || m.tests.length === 0) {
    root.append(el('p', { class: 'muted', text: 'No specs or no tests: nothing to map.' }));
    return root;
  }
  // Tests that cover something first, so the interesting part is inside the first columns.
  const ordered = [...m.tests].sort((a, b) => Number(a.unmapped) - Number(b.unmapped));
  const first = Math.max(10, Math.floor(FIRST_CELLS / m.specs.length));
  const tests = showAll ? ordered : ordered.slice(0, first);
  const covers = new Set<string>();
  for (const s of m.specs) for (const t of s.tests) covers.add(`${s.id}\u0000${t}`);
  for (const t of m.tests) for (const s of t.specs) covers.add(`${s}\u0000${t.id}`);

  const table = el('table', { class: 'matrix' });
  const head = el('tr', {}, el('th', { class: 'corner', text: 'spec \\ test' }));
  for (const t of tests) {
    const th = el('th', { class: `test-col${t.unmapped ? ' flagged' : ''}`, data: { test: t.id }, title: `${t.name}${t.unmapped ? '\n(covers no spec)' : ''}`, testid: 'matrix-test' }, el('span', { class: 'vertical', text: oneLine(shortName(t.name), 40) }));
    th.addEventListener('click', () => ctx.actions.showTest(t.id));
    head.append(th);
  }
  table.append(el('thead', {}, head));
  const body = el('tbody');
  for (const s of m.specs) {
    const th = el('th', { class: 'spec-row-head', text: oneLine(s.id, 40), title: s.text });
    th.addEventListener('click', () => ctx.actions.showSpec(s.id));
    const tr = el('tr', { class: s.uncovered ? 'flagged' : '', data: { spec: s.id }, testid: 'matrix-row' }, th);
    for (const t of tests) {
      const on = covers.has(`${s.id}\u0000${t.id}`);
      tr.append(el('td', { class: on ? 'on' : '', text: on ? '\u25cf' : '' }));
    }
    ctx.links.addSpec(tr, s.id);
    body.append(tr);
  }
  table.append(body);
  root.append(el('div', { class: 'table-scroll' }, table));
  if (!showAll && ordered.length > first) {
    const more = el('button', { class: 'link-button', testid: 'matrix-show-all', text: `Show all ${ordered.length} tests` });
    more.addEventListener('click', () => root.replaceWith(renderMatrix(ctx, true)));
    root.append(more);
  }
  ctx.links.bind(root);
  return root;
}
