// The adjudication view: every disagreement between curators side by side (who said what, what the verifier said),
// and buttons that record the final decision as an adjudicate event, with an optional note.
import type { AdjudicationViewModel, DisagreementView } from '../../src/protocol/messages';
import { el } from './dom';
import { inertText, oneLine } from './text';
import { button, checkbox } from './ui/controls';
import type { PanelCtx } from './statsApp';
import { actText } from './statsApp';

const valueText = (v: string | number | string[] | undefined): string => (v === undefined ? '–' : Array.isArray(v) ? (v.length === 0 ? 'none' : v.join(' + ')) : String(v));

export function renderAdjudication(ctx: PanelCtx, m: AdjudicationViewModel, rerender: () => void): HTMLElement {
  const root = el('div', { class: 'adjudication', testid: 'adjudication' });
  const show = checkbox('Show settled disagreements too', m.showSettled, 'show-settled', (on) => {
    ctx.host.request('showSettled', { show: on }).catch((e: unknown) => ctx.status(e instanceof Error ? e.message : String(e), true));
  });
  root.append(
    el(
      'header',
      { class: 'panel-header' },
      el('h1', { text: `Disagreements${m.dataset ? ` · ${oneLine(m.dataset, 80)}` : ''}` }),
      el('span', { class: 'muted small', testid: 'adjudication-summary', text: `${m.total.open} open · ${m.total.settled} settled · policy ${m.policy}` }),
      show.element,
    ),
  );
  if (m.policy === 'highest-severity') {
    root.append(el('p', { class: 'muted small', text: 'Under the SWE-bench Verified policy a disagreement settles by the most severe answer; an adjudication here still overrides it.' }));
  }
  if (m.error) root.append(el('div', { class: 'banner warning', text: oneLine(m.error, 500) }));
  if (!m.viewer) root.append(el('div', { class: 'banner warning', testid: 'adjudication-no-curator', text: `Decisions cannot be recorded: ${oneLine(m.curatorProblem ?? 'no curator name', 300)}` }));
  if (m.items.length === 0) {
    root.append(el('p', { class: 'muted', testid: 'adjudication-empty', text: m.total.open === 0 ? 'No open disagreement: the curators agree on everything they both judged.' : 'Nothing to show.' }));
    return root;
  }
  const list = el('div', { class: 'disagreements', testid: 'disagreements' });
  for (const d of m.items) list.append(renderRow(ctx, d, m.viewer !== undefined, rerender));
  root.append(list);
  return root;
}

function renderRow(ctx: PanelCtx, d: DisagreementView, canRecord: boolean, rerender: () => void): HTMLElement {
  const row = el('section', { class: `disagreement${d.open ? ' open' : ' settled'}`, testid: 'disagreement', data: { task: d.taskId, target: d.target, ...(d.attempt ? { attempt: d.attempt } : {}), ...(d.spec ? { spec: d.spec } : {}), ...(d.field ? { field: d.field } : {}) } });
  const task = el('span', { class: 'link-like', role: 'button', tabIndex: 0, testid: 'disagreement-task', text: oneLine(d.taskId, 80), title: `Open ${d.taskTitle}` });
  task.addEventListener('click', () => void ctx.host.request('openTask', { taskId: d.taskId }).catch(() => undefined));
  const what = d.target === 'label' ? `${oneLine(d.attempt ?? '', 60)} × ${oneLine(d.spec ?? '', 40)}` : `score: ${oneLine(d.field ?? '', 40)}`;
  row.append(
    el(
      'div',
      { class: 'disagreement-head' },
      task,
      el('span', { class: 'disagreement-what', text: ` ${what}` }),
      d.verifier ? el('span', { class: 'muted small', text: ` · verifier ${d.verifier}` }) : null,
      el('span', { class: 'spacer' }),
      el('span', { class: d.open ? 'warning-text small' : 'muted small', testid: 'disagreement-state', text: d.open ? 'open' : `settled: ${valueText(d.final)} (${d.from})` }),
    ),
  );
  if (d.specText) row.append(el('div', { class: 'spec-text small', text: inertText(d.specText) }));
  const sides = el('div', { class: 'sides', testid: 'disagreement-values' });
  for (const v of d.values) sides.append(el('div', { class: 'side', data: { curator: v.curator } }, el('div', { class: 'curator', text: oneLine(v.curator, 60) }), el('div', { class: 'side-value', text: valueText(v.value) })));
  row.append(sides);

  const note = document.createElement('textarea');
  note.className = 'review-textarea';
  note.rows = 1;
  note.placeholder = 'Note with the decision (optional)';
  note.dataset.testid = 'adjudication-note';
  note.value = ctx.notes.get(d.key) ?? '';
  note.disabled = !canRecord;
  note.addEventListener('input', () => ctx.notes.set(d.key, note.value));
  const choices = el('div', { class: 'choices', testid: 'adjudication-choices' }, el('span', { class: 'small', text: 'Final decision: ' }));
  for (const c of d.choices) {
    const label = valueText(c);
    choices.append(
      button(
        label,
        () => {
          const n = ctx.notes.get(d.key)?.trim();
          const params =
            d.target === 'label'
              ? { taskId: d.taskId, target: 'label' as const, attempt: d.attempt ?? '', spec: d.spec ?? '', verdict: c as 'satisfied' | 'violated' | 'unsure', ...(n ? { note: n } : {}) }
              : { taskId: d.taskId, target: 'score' as const, field: d.field ?? '', value: c, ...(n ? { note: n } : {}) };
          ctx.host.request('adjudicate', params).then(
            (r) => {
              ctx.status(actText(r), !r.ok);
              if (r.ok) {
                ctx.notes.delete(d.key);
                rerender();
              }
            },
            (e: unknown) => ctx.status(`Not recorded: ${e instanceof Error ? e.message : String(e)}`, true),
          );
        },
        { testid: `adjudicate-${label.replace(/[^\w-]+/g, '_')}`, secondary: d.final === undefined || valueText(d.final) !== label, disabled: !canRecord, title: `Record ${label} as the final decision` },
      ),
    );
  }
  row.append(choices, note);
  return row;
}
