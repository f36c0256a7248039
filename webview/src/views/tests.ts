// The tests: kind, the specs each covers, its source from the test patch, and a jump to it in the patch.
import type { TestView } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { el, onActivate } from '../dom';
import { capText, oneLine } from '../text';
import { badge } from '../ui/controls';

/** Tests rendered per "show more": a task with hundreds of pass-to-pass tests stays a small DOM. */
const CHUNK = 50;
const MAX_SOURCE = 20_000;

export function renderTests(ctx: Ctx, focus?: string): HTMLElement {
  const m = ctx.model();
  const root = el('div', { class: 'tests', testid: 'tests' });
  if (m.tests.length === 0) root.append(el('p', { class: 'muted', text: 'This task has no tests.' }));
  const list = el('div', { class: 'test-list' });
  root.append(list);
  let shown = 0;
  const more = el('button', { class: 'link-button', testid: 'tests-show-more' });
  const showMore = (upTo: number) => {
    while (shown < Math.min(upTo, m.tests.length)) list.append(testItem(ctx, m.tests[shown++]!, false));
    more.textContent = `Show ${Math.min(CHUNK, m.tests.length - shown)} more of ${m.tests.length - shown}`;
    more.hidden = shown >= m.tests.length;
  };
  more.addEventListener('click', () => showMore(shown + CHUNK));
  const focusIndex = focus === undefined ? -1 : m.tests.findIndex((t) => t.id === focus);
  showMore(Math.max(CHUNK, focusIndex + 1));
  root.append(more);
  ctx.links.bind(root);
  if (focusIndex >= 0) {
    const item = list.children[focusIndex] as HTMLElement | undefined;
    if (item) {
      item.classList.add('focused');
      const details = item.querySelector('details');
      if (details) details.open = true;
      requestAnimationFrame(() => item.scrollIntoView({ block: 'nearest' }));
    }
  }
  return root;
}

function testItem(ctx: Ctx, t: TestView, open: boolean): HTMLElement {
  const specs = el('div', { class: 'chips' });
  for (const id of t.specs.slice(0, 20)) {
    const chip = el('span', { class: 'chip', testid: 'test-spec', data: { spec: id }, text: oneLine(id, 40), tabIndex: 0, role: 'button' });
    onActivate(chip, () => ctx.actions.showSpec(id));
    ctx.links.addSpec(chip, id);
    specs.append(chip);
  }
  const item = el(
    'div',
    { class: `test${t.unmapped ? ' unmapped' : ''}`, testid: 'test', data: { test: t.id } },
    el(
      'div',
      { class: 'test-head' },
      el('span', { class: 'test-name', text: oneLine(t.name, 300), title: t.name }),
      badge(t.kind === 'fail_to_pass' ? 'fail→pass' : 'pass→pass', 'test-kind'),
      t.unmapped ? badge('no spec', 'flag-unmapped') : null,
      openTest(ctx, t.id),
    ),
    t.specs.length > 0 ? specs : null,
  );
  if (t.source) {
    const details = el(
      'details',
      { class: 'test-source' },
      el('summary', { text: `${oneLine(t.source.file, 200)}:${t.source.patchLine}` }),
      el('pre', { class: 'code', testid: 'test-source', text: capText(t.source.text, MAX_SOURCE) }),
    );
    details.open = open;
    item.append(details);
  } else {
    item.append(el('div', { class: 'muted small', text: 'Source not found in the test patch.' }));
  }
  return item;
}

function openTest(ctx: Ctx, testId: string): HTMLElement {
  const b = el('button', { class: 'link-button', testid: 'open-test', text: 'Open in test patch', title: 'Open the test patch at this test' });
  b.addEventListener('click', (e) => {
    e.stopPropagation();
    ctx.actions.openTest(testId);
  });
  return b;
}
