// The specs, grouped by category, each with the tests that cover it; specs without a test and tests without a
// spec are flagged.
import type { SpecView, TestView } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { el, onActivate } from '../dom';
import { inertText, oneLine } from '../text';
import { badge, collapsible } from '../ui/controls';

const MAX_CHIPS = 12;

export function renderSpecs(ctx: Ctx): HTMLElement {
  const m = ctx.model();
  const tests = new Map(m.tests.map((t) => [t.id, t]));
  const root = el('div', { class: 'specs', testid: 'specs' });
  const uncovered = m.specs.filter((s) => s.uncovered).length;
  const unmapped = m.tests.filter((t) => t.unmapped);
  root.append(
    el(
      'div',
      { class: 'summary', testid: 'specs-summary' },
      `${m.specs.length} specs · ${m.tests.length} tests`,
      uncovered > 0 ? el('span', { class: 'flag', text: `${uncovered} without a test` }) : null,
      unmapped.length > 0 ? el('span', { class: 'flag', text: `${unmapped.length} tests without a spec` }) : null,
    ),
  );
  if (m.specs.length === 0) root.append(el('p', { class: 'muted', text: 'This task has no specs.' }));

  const groups = new Map<string, SpecView[]>();
  for (const s of m.specs) {
    const list = groups.get(s.category);
    if (list) list.push(s);
    else groups.set(s.category, [s]);
  }
  for (const [category, specs] of groups) {
    const body = el('div', { class: 'spec-list' });
    for (const s of specs) body.append(specItem(ctx, s, tests));
    const bad = specs.filter((s) => s.uncovered).length;
    const c = collapsible(oneLine(category, 80), `${specs.length}${bad ? ` · ${bad} without a test` : ''}`, true, 'spec-category', body);
    c.dataset.category = category;
    root.append(c);
  }

  if (unmapped.length > 0) {
    const list = el('div', { class: 'unmapped', testid: 'unmapped-tests' }, el('div', { class: 'section-title', text: 'Tests that cover no spec' }));
    for (const t of unmapped.slice(0, 200)) {
      const chip = el('span', { class: 'chip flagged', testid: 'unmapped-test', data: { test: t.id }, text: oneLine(t.name, 120), title: t.name, tabIndex: 0, role: 'button' });
      onActivate(chip, () => ctx.actions.showTest(t.id));
      list.append(chip);
    }
    if (unmapped.length > 200) list.append(el('span', { class: 'muted', text: ` +${unmapped.length - 200} more` }));
    root.append(list);
  }
  ctx.links.bind(root);
  return root;
}

function specItem(ctx: Ctx, s: SpecView, tests: Map<string, TestView>): HTMLElement {
  const head = el(
    'div',
    { class: 'spec-head' },
    el('span', { class: 'spec-id', text: oneLine(s.id, 60) }),
    s.uncovered ? badge('no test', 'flag-uncovered') : null,
    !s.stated ? el('span', { class: 'muted small', text: 'not found in the request', testid: 'flag-unstated' }) : null,
    s.dependsOn.length > 0 ? el('span', { class: 'muted small', text: `depends on ${s.dependsOn.slice(0, 8).join(', ')}` }) : null,
  );
  const chips = el('div', { class: 'chips' });
  for (const id of s.tests.slice(0, MAX_CHIPS)) {
    const t = tests.get(id);
    const chip = el('span', { class: 'chip', testid: 'spec-test', data: { test: id }, text: oneLine(t ? shortName(t.name) : id, 60), title: t?.name ?? id, tabIndex: 0, role: 'button' });
    onActivate(chip, (e) => {
      e.stopPropagation();
      ctx.actions.showTest(id);
    });
    chips.append(chip);
  }
  if (s.tests.length > MAX_CHIPS) chips.append(el('span', { class: 'muted small', text: `+${s.tests.length - MAX_CHIPS} more` }));
  const item = el(
    'div',
    { class: `spec${s.uncovered ? ' uncovered' : ''}${s.stated ? ' stated-spec' : ''}`, testid: 'spec', data: { spec: s.id }, tabIndex: 0 },
    head,
    el('div', { class: 'spec-text', text: inertText(s.text.length > 4000 ? `${s.text.slice(0, 4000)}…` : s.text) }),
    s.tests.length > 0 ? chips : null,
  );
  item.addEventListener('click', () => ctx.actions.showSpec(s.id));
  ctx.links.addSpec(item, s.id);
  return item;
}

/** The last part of a test id, which is what tells tests apart (`tests/x.py::TestA::test_b` -> `TestA::test_b`). */
export function shortName(name: string): string {
  const parts = name.split('::');
  return parts.length > 2 ? parts.slice(-2).join('::') : (parts.at(-1) ?? name);
}
