// The adjudication view: every disagreement between curators side by side (who said what, what the verifier said),
// and buttons that record the final decision as an adjudicate event, with an optional note. A lit-html template: an
// update of the review log patches the rows, so a note being typed keeps its focus and caret.
import { html, nothing, type TemplateResult } from 'lit-html';
import { live } from 'lit-html/directives/live.js';
import { repeat } from 'lit-html/directives/repeat.js';
import type { AdjudicationViewModel, DisagreementView, ReviewActResult } from '../../src/protocol/messages';
import { curatorVerdictView, scoreFieldView } from '../../src/protocol/messages';
import type { PanelConnection } from './host';
import { inertText, oneLine } from './text';
import { vsButton, vsCheckbox } from './ui/controls';
import { errorText } from './text';

/** What the two views get from the app. */
export interface PanelCtx {
  host: PanelConnection;
  status(message: string, error?: boolean): void;
  /** Unsent notes of the adjudication view, by row key: they survive updates and failed requests. */
  notes: Map<string, string>;
}

export function actText(r: ReviewActResult): string {
  return r.ok ? `Recorded: ${oneLine(r.summary, 200)}.` : `${['disk_full', 'io', 'locked', 'unavailable'].includes(r.code) ? 'Not recorded' : 'Refused'}: ${oneLine(r.message, 400)}`;
}

const valueText = (v: string | number | string[] | undefined): string => (v === undefined ? '–' : Array.isArray(v) ? (v.length === 0 ? 'none' : v.join(' + ')) : String(v));

export function adjudication(ctx: PanelCtx, m: AdjudicationViewModel, rerender: () => void): TemplateResult {
  return html`<div class="adjudication" data-testid="adjudication">
    <header class="panel-header">
      <h1>${`Disagreements${m.dataset ? ` · ${oneLine(m.dataset, 80)}` : ''}`}</h1>
      <span class="muted small" data-testid="adjudication-summary">${`${m.total.open} open · ${m.total.settled} settled · policy ${m.policy}`}</span>
      ${vsCheckbox('Show settled disagreements too', m.showSettled, 'show-settled', (on) => {
        ctx.host.request('showSettled', { show: on }).catch((e: unknown) => ctx.status(errorText(e), true));
      })}
    </header>
    ${m.policy === 'highest-severity'
      ? html`<p class="muted small">Under the SWE-bench Verified policy a disagreement settles by the most severe answer; an adjudication here still overrides it.</p>`
      : nothing}
    ${m.error ? html`<div class="banner warning">${oneLine(m.error, 500)}</div>` : nothing}
    ${!m.viewer ? html`<div class="banner warning" data-testid="adjudication-no-curator">${`Decisions cannot be recorded: ${oneLine(m.curatorProblem ?? 'no curator name', 300)}`}</div>` : nothing}
    ${m.items.length === 0
      ? html`<p class="muted" data-testid="adjudication-empty">${m.total.open === 0 ? 'No open disagreement: the curators agree on everything they both judged.' : 'Nothing to show.'}</p>`
      : html`<div class="disagreements" data-testid="disagreements">${repeat(
          m.items,
          (d) => d.key,
          (d) => row(ctx, d, m.viewer !== undefined, rerender),
        )}</div>`}
  </div>`;
}

function row(ctx: PanelCtx, d: DisagreementView, canRecord: boolean, rerender: () => void): TemplateResult {
  const what = d.target === 'label' ? `${oneLine(d.attempt ?? '', 60)} × ${oneLine(d.spec ?? '', 40)}` : `score: ${oneLine(d.field ?? '', 40)}`;
  const openTask = (): void => void ctx.host.request('openTask', { taskId: d.taskId }).catch(() => undefined);
  const decide = (c: DisagreementView['choices'][number]): void => {
    const n = ctx.notes.get(d.key)?.trim();
    const params =
      d.target === 'label'
        ? { taskId: d.taskId, target: 'label' as const, attempt: d.attempt ?? '', spec: d.spec ?? '', verdict: curatorVerdictView(c), ...(n ? { note: n } : {}) }
        : { taskId: d.taskId, target: 'score' as const, field: scoreFieldView(d.field), value: c, ...(n ? { note: n } : {}) };
    ctx.host.request('adjudicate', params).then(
      (r) => {
        ctx.status(actText(r), !r.ok);
        if (r.ok) {
          ctx.notes.delete(d.key);
          rerender();
        }
      },
      (e: unknown) => ctx.status(`Not recorded: ${errorText(e)}`, true),
    );
  };
  return html`<section
    class=${`disagreement${d.open ? ' open' : ' settled'}`}
    data-testid="disagreement"
    data-task=${d.taskId}
    data-target=${d.target}
    data-attempt=${d.attempt ?? nothing}
    data-spec=${d.spec ?? nothing}
    data-field=${d.field ?? nothing}
  >
    <div class="disagreement-head">
      <span class="link-like" role="button" tabindex="0" data-testid="disagreement-task" title=${oneLine(`Open ${d.taskTitle}`, 500)} @click=${openTask}>${oneLine(d.taskId, 80)}</span
      ><span class="disagreement-what">${` ${what}`}</span>${d.verifier ? html`<span class="muted small">${` · verifier ${d.verifier}`}</span>` : nothing}<span class="spacer"></span
      ><span class=${d.open ? 'warning-text small' : 'muted small'} data-testid="disagreement-state">${d.open ? 'open' : `settled: ${valueText(d.final)} (${d.from})`}</span>
    </div>
    ${d.specText ? html`<div class="spec-text small">${inertText(d.specText)}</div>` : nothing}
    <div class="sides" data-testid="disagreement-values">
      ${d.values.map((v) => html`<div class="side" data-curator=${v.curator}><div class="curator">${oneLine(v.curator, 60)}</div><div class="side-value">${valueText(v.value)}</div></div>`)}
    </div>
    <div class="choices" data-testid="adjudication-choices">
      <span class="small">Final decision: </span>${d.choices.map((c) => {
        const label = valueText(c);
        return vsButton(label, () => decide(c), {
          testid: `adjudicate-${label.replace(/[^\w-]+/g, '_')}`,
          secondary: d.final === undefined || valueText(d.final) !== label,
          disabled: !canRecord,
          title: `Record ${label} as the final decision`,
        });
      })}
    </div>
    <textarea
      class="review-textarea"
      rows="1"
      placeholder="Note with the decision (optional)"
      data-testid="adjudication-note"
      ?disabled=${!canRecord}
      .value=${live(ctx.notes.get(d.key) ?? '')}
      @input=${(e: Event) => ctx.notes.set(d.key, (e.currentTarget as HTMLTextAreaElement).value)}
    ></textarea>
  </section>`;
}
