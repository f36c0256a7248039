// The repair tab of the task view: the latest repair suggestion's state (requested, accepted, rejected; revision
// n -> n+1), its summary and rationale, and once revalidated the before/after matrix of outcomes per attempt and
// spec, with the false positives and negatives that disappeared or appeared marked in their cells and counted
// above. Fresh solver trials of the revalidation are rows of their own, marked "fresh": they exist only on the new
// revision ("—" before), and are counted apart, not as appeared. The buttons ask the host for its repair actions; the host checks trust and asks for what it needs (a reason).
import type { ActionResult, RepairAction, RepairFreshView, RepairMatrixSideView, RepairMatrixView, RepairView } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { html, nothing, type TemplateResult } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import { capText, errorText, oneLine } from '../text';
import { vsButton } from '../ui/controls';
import { uniqueKeys } from '../ui/template';

export const REPAIR_TAB = 'repair';

/**
 * The revalidated repairs this panel has shown, kept with its saved state: a finished revalidation opens the Repair
 * tab once (also when the panel was hidden while it ran and comes back with a fresh page), then the curator's tab
 * choice stands.
 */
export class SeenRepairs {
  private readonly ids: string[];

  constructor(saved: unknown) {
    const list = typeof saved === 'object' && saved !== null ? (saved as { repairSeen?: unknown }).repairSeen : undefined;
    this.ids = Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string' && x.length <= 256).slice(-50) : [];
  }

  /** True (once per suggestion) when the model has a before/after matrix this panel has not shown yet. */
  takeNew(r: RepairView | undefined): boolean {
    if (!r?.matrix || this.ids.includes(r.suggestion)) return false;
    this.ids.push(r.suggestion);
    if (this.ids.length > 50) this.ids.shift();
    return true;
  }

  toJSON(): string[] {
    return [...this.ids];
  }
}

/** Cells rendered before "show all" (each is 3 or 4 elements), so a big task stays inside the DOM budget. */
const FIRST_CELLS = 160;
const RATIONALE_CHARS = 20_000;

type Outcome = RepairMatrixSideView['outcome'];

const OUTCOMES: Record<Outcome, { short: string; text: string }> = {
  true_pass: { short: 'TP', text: 'true pass' },
  true_fail: { short: 'TF', text: 'true fail' },
  false_positive: { short: 'FP', text: 'false positive' },
  false_negative: { short: 'FN', text: 'false negative' },
  undecided: { short: '?', text: 'unknown' },
  absent: { short: '\u2014', text: 'not in this revision' },
};

/** A value outside the protocol's union (a broken host) reads as undecided. */
function outcomeOf(v: Outcome): Outcome {
  return Object.prototype.hasOwnProperty.call(OUTCOMES, v) ? v : 'undecided';
}

/** Indexed with what the host sent: a value outside the union finds nothing and reads as `?`. */
const VERDICTS: Partial<Record<RepairMatrixSideView['verifier'], string>> = { pass: 'pass', fail: 'fail', unknown: '?', absent: '\u2014' };

type Cell = RepairMatrixView['cells'][number];
type Kind = 'fp' | 'fn';

/** What a cell lost and gained, from its outcomes (a cell can lose a false positive and gain a false negative). */
export function cellMarks(c: Cell): { gone: Kind[]; appeared: Kind[] } {
  const b = outcomeOf(c.before.outcome);
  const a = outcomeOf(c.after.outcome);
  const gone: Kind[] = [];
  const appeared: Kind[] = [];
  if (b === 'false_positive' && a !== 'false_positive') gone.push('fp');
  if (b === 'false_negative' && a !== 'false_negative') gone.push('fn');
  if (a === 'false_positive' && b !== 'false_positive') appeared.push('fp');
  if (a === 'false_negative' && b !== 'false_negative') appeared.push('fn');
  return { gone, appeared };
}

/** The counts and the gone/appeared lists, from the cells (the same numbers the cells' marks show). */
export function summarize(m: RepairMatrixView): {
  before: Record<Kind, number>;
  after: Record<Kind, number>;
  gone: Record<Kind, Cell[]>;
  appeared: Record<Kind, Cell[]>;
} {
  const out = { before: { fp: 0, fn: 0 }, after: { fp: 0, fn: 0 }, gone: { fp: [] as Cell[], fn: [] as Cell[] }, appeared: { fp: [] as Cell[], fn: [] as Cell[] } };
  for (const c of m.cells) {
    for (const side of ['before', 'after'] as const) {
      const o = outcomeOf(c[side].outcome);
      if (o === 'false_positive') out[side].fp++;
      if (o === 'false_negative') out[side].fn++;
    }
    const k = cellMarks(c);
    for (const x of k.gone) out.gone[x].push(c);
    for (const x of k.appeared) out.appeared[x].push(c);
  }
  return out;
}

const KIND_TEXT: Record<Kind, { short: string; plural: string }> = {
  fp: { short: 'FP', plural: 'false positives' },
  fn: { short: 'FN', plural: 'false negatives' },
};

function state(r: RepairView, revision: number): { word: 'requested' | 'accepted' | 'rejected'; detail: string } {
  const to = r.toRevision !== undefined ? ` ${r.toRevision}` : '';
  switch (r.status) {
    case 'ready':
      return { word: 'requested', detail: `ready for review: see the diff, then accept (makes revision ${revision + 1}) or reject` };
    case 'refused':
      return { word: 'requested', detail: 'the model declined' };
    case 'failed':
      return { word: 'requested', detail: 'the request failed' };
    case 'accepted':
      return { word: 'accepted', detail: `revision${to} is written; it was not revalidated` };
    case 'revalidating':
      return { word: 'accepted', detail: `revalidating revision${to}: the gold patch, the empty patch and every attempt\u2026` };
    case 'revalidated':
      return { word: 'accepted', detail: `revision${to} revalidated` };
    case 'rejected':
      return { word: 'rejected', detail: 'the task is unchanged' };
    default:
      return { word: 'requested', detail: oneLine(String(r.status), 40) };
  }
}

const LEGEND =
  'Each cell: outcome before \u2192 after (TP true pass, TF true fail, FP false positive, FN false negative, ? unknown, \u2014 not in that revision); below it the verifier verdict before \u2192 after.';

/** The repair tab of one task; remembers "show all" of the before/after matrix until the task changes. */
export class RepairTab {
  private showAll = false;

  constructor(
    private readonly ctx: Ctx,
    private readonly repaint: () => void,
  ) {}

  template(): TemplateResult {
    const ctx = this.ctx;
    const m = ctx.model();
    const r = m.repair;
    if (!r) return html`<div class="repair" data-testid="repair"><p class="muted">No repair suggestion for this task.</p></div>`;
    const st = state(r, m.revision);
    const who = [r.decidedBy ? `by ${oneLine(r.decidedBy, 80)}` : '', r.decidedAt ? oneLine(r.decidedAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, ''), 30) : ''].filter(Boolean).join(', ');
    return html`<div class="repair" data-testid="repair">
      <div class="repair-head">
        <span class=${`repair-state repair-state-${st.word}`} data-testid="repair-state" data-state=${st.word} data-status=${oneLine(String(r.status), 40)}>${st.word}</span><span
          class="repair-detail"
          data-testid="repair-detail"
          >${st.detail}</span
        >${r.fromRevision !== undefined && r.toRevision !== undefined
          ? html`<span class="repair-revision" data-testid="repair-revision">${`revision ${r.fromRevision} \u2192 ${r.toRevision}`}</span>`
          : nothing}
      </div>
      <div class="muted small" data-testid="repair-suggestion">${`Suggestion ${oneLine(r.suggestion, 80)}${r.target ? ` \u00b7 target ${oneLine(r.target, 40)}` : ''}${who ? ` \u00b7 ${st.word} ${who}` : ''}`}</div>
      ${r.summary ? html`<p class="repair-summary" data-testid="repair-summary">${oneLine(r.summary, 500)}</p>` : nothing}
      ${r.message ? html`<p class="repair-message error" data-testid="repair-message">${oneLine(r.message, 1000)}</p>` : nothing}
      ${r.note
        ? html`<p class="repair-note" data-testid="repair-note"><span class="muted">${r.status === 'rejected' ? 'Reason: ' : 'Note: '}</span>${capText(r.note, 4000)}</p>`
        : nothing}
      ${r.rationale
        ? html`<details class="repair-rationale" data-testid="repair-rationale">
            <summary>Rationale</summary>
            <div class="repair-rationale-text" data-testid="repair-rationale-text">${capText(r.rationale, RATIONALE_CHARS)}</div>
          </details>`
        : nothing}
      ${actions(ctx, r)}
      ${r.matrix
        ? this.matrixPart(r.matrix)
        : r.status === 'revalidating'
          ? html`<p class="muted" data-testid="repair-pending">The before/after matrix appears here when the runs have finished.</p>`
          : nothing}
    </div>`;
  }

  private matrixPart(mx: RepairMatrixView): TemplateResult {
    const ctx = this.ctx;
    const m = ctx.model();
    const label = (id: string): string => m.columns.find((c) => c.id === id)?.label ?? id;
    const s = summarize(mx);
    const list = (which: 'gone' | 'appeared'): TemplateResult => {
      const total = s[which].fp.length + s[which].fn.length;
      let groups = 0;
      return html`<div class=${`repair-list repair-list-${which}`} data-testid=${`repair-${which}`}>
        <span class="repair-list-title">${which === 'gone' ? 'Disappeared:' : 'Appeared:'}</span>${total === 0 ? html`<span class="muted"> none</span>` : nothing}${(['fp', 'fn'] as const).map((k) => {
          const cells = s[which][k];
          if (cells.length === 0) return nothing;
          return html`<span class="repair-list-group"
            ><span class="muted">${`${groups++ > 0 ? ';' : ''} ${KIND_TEXT[k].plural} (${cells.length}): `}</span>${cells.slice(0, 50).map(
              (c, i) =>
                html`${i > 0 ? ', ' : ''}<span class=${`repair-ref repair-${which}`} data-testid="repair-ref" data-attempt=${c.attempt} data-spec=${c.spec} data-kind=${k} data-which=${which}
                    >${refText(c, label)}</span
                  >`,
            )}${cells.length > 50 ? html`<span class="muted">${` and ${cells.length - 50} more`}</span>` : nothing}</span
          >`;
        })}
      </div>`;
    };
    const fresh = mx.fresh;
    const byKey = new Map([...mx.cells, ...(fresh?.cells ?? [])].map((c) => [`${c.attempt}\u0000${c.spec}`, c]));
    const rowsFirst = Math.max(3, Math.floor(FIRST_CELLS / Math.max(1, mx.specs.length)));
    const attempts = this.showAll ? mx.attempts : mx.attempts.slice(0, rowsFirst);
    const freshIds = fresh ? (this.showAll ? fresh.attempts : fresh.attempts.slice(0, rowsFirst)) : [];
    const hidden = mx.attempts.length - attempts.length + (fresh ? fresh.attempts.length - freshIds.length : 0);
    return html`<div class="repair-matrix-part">
      <div class="repair-counts" data-testid="repair-counts">
        ${(['fp', 'fn'] as const).map((k) => {
          const b = s.before[k];
          const a = s.after[k];
          const trend = a < b ? 'better' : a > b ? 'worse' : 'same';
          return html`<span class=${`repair-count repair-${trend}`} data-testid=${`repair-count-${k}`} data-before=${String(b)} data-after=${String(a)} data-trend=${trend}
            >${`${KIND_TEXT[k].plural} ${b} \u2192 ${a}`}</span
          >`;
        })}
      </div>
      ${list('gone')}${list('appeared')}${fresh ? freshSummary(fresh, label) : nothing}
      <div class="muted small repair-legend" data-testid="repair-legend">${LEGEND}</div>
      <div class="table-scroll">
        <table class="repair-matrix" data-testid="repair-matrix">
          <thead>
            <tr>
              <th class="corner">attempt \\ spec</th>
              ${mx.specs.map(
                (sp) => html`<th class="repair-spec" data-testid="repair-spec" title=${oneLine(sp, 500)} data-spec=${sp} tabindex="0" @click=${() => ctx.actions.showSpec(sp)}>${oneLine(sp, 30)}</th>`,
              )}
            </tr>
          </thead>
          <tbody>
            ${repeat(
              attempts,
              uniqueKeys(attempts, (at) => at),
              (at) => {
                const status = mx.attemptStatus?.[at];
                const statusText = status ? `${oneLine(status.before ?? 'not run', 30)} \u2192 ${oneLine(status.after ?? 'not run', 30)}` : '';
                const clickable = m.columns.some((c) => c.id === at);
                return html`<tr data-testid="repair-row" data-attempt=${at}>
                  <th class="repair-attempt" title=${oneLine(`${label(at)}${statusText ? `: run ${statusText}` : ''}`, 500)} data-attempt=${at} @click=${clickable ? () => ctx.actions.activateColumn(at) : nothing}>
                    <div>${oneLine(label(at), 40)}</div>${statusText ? html`<div class="muted small" data-testid="repair-attempt-status">${statusText}</div>` : nothing}
                  </th>${mx.specs.map((sp) => {
                    const c = byKey.get(`${at}\u0000${sp}`);
                    return c ? cell(c, label) : html`<td class="repair-cell muted"></td>`;
                  })}
                </tr>`;
              },
            )}
            ${repeat(
              freshIds,
              uniqueKeys(freshIds, (at) => at),
              (at) => {
                const after = fresh?.attemptStatus?.[at]?.after;
                const statusText = `\u2014 \u2192 ${oneLine(after ?? 'not run', 30)}`;
                const clickable = m.columns.some((c) => c.id === at);
                return html`<tr class="repair-row-fresh" data-testid="repair-row" data-attempt=${at} data-fresh="true">
                  <th class="repair-attempt" title=${oneLine(`${label(at)}: a fresh trial, on the new revision only; run ${statusText}`, 500)} data-attempt=${at} @click=${clickable ? () => ctx.actions.activateColumn(at) : nothing}>
                    <div><span class="repair-fresh-badge" data-testid="repair-fresh-badge">fresh</span> ${oneLine(label(at), 34)}</div>
                    <div class="muted small" data-testid="repair-attempt-status">${statusText}</div>
                  </th>${mx.specs.map((sp) => {
                    const c = byKey.get(`${at}\u0000${sp}`);
                    return c ? cell(c, label, true) : html`<td class="repair-cell muted"></td>`;
                  })}
                </tr>`;
              },
            )}
          </tbody>
        </table>
        ${hidden > 0
          ? html`<button
              class="link-button"
              data-testid="repair-show-all"
              @click=${() => {
                this.showAll = true;
                this.repaint();
              }}
            >${`Show all ${mx.attempts.length + (fresh?.attempts.length ?? 0)} attempts`}</button>`
          : nothing}
      </div>
    </div>`;
  }
}

function actions(ctx: Ctx, r: RepairView): TemplateResult {
  const settle = (p: Promise<ActionResult>, doing: string | undefined): void => {
    p.then(
      (res) => {
        // A long action the host has answered is over (its outcome shows in this tab): its "doing" text goes.
        if (!res.ran) ctx.status(res.message ?? 'Not available.', true);
        else if (doing !== undefined) ctx.clearStatus(doing);
      },
      (e: unknown) => ctx.status(errorText(e), true),
    );
  };
  const buttons: TemplateResult[] = [];
  const add = (label: string, run: () => Promise<ActionResult>, doing: string, testid: string, secondary = true, title?: string, long = false): void => {
    buttons.push(
      vsButton(
        label,
        () => {
          ctx.status(doing);
          settle(run(), long ? doing : undefined);
        },
        { testid, secondary, ...(title ? { title } : {}) },
      ),
    );
  };
  // The host acts on this panel's task; a suggestion's buttons name the suggestion.
  const on = (action: RepairAction) => () => ctx.host.request(action, { suggestion: r.suggestion });
  if (r.status === 'ready') {
    add('Show Diff', on('reviewRepair'), 'Opening the suggested changes\u2026', 'repair-action-review');
    add('Accept', on('acceptRepair'), 'Accepting: writing the new revision, then revalidating it\u2026', 'repair-action-accept', false, 'Write the next revision (with your edits of the suggested files) and rerun gold, empty and every attempt on it', true);
    add('Reject\u2026', on('rejectRepair'), 'Rejecting: the host asks for a reason\u2026', 'repair-action-reject');
  }
  if (r.status === 'revalidated') add('Open as Document', on('showRepairMatrix'), 'Opening the before/after matrix as a document\u2026', 'repair-action-matrix');
  add('Show What Was Sent', on('showRepairPrompt'), 'Opening the prompt\u2026', 'repair-action-prompt');
  if (r.status !== 'ready' && r.status !== 'revalidating') add('Request Another\u2026', () => ctx.host.request('requestRepair', {}), 'Requesting a repair suggestion\u2026', 'repair-action-request', true, undefined, true);
  return html`<div class="repair-actions" data-testid="repair-actions">${buttons}</div>`;
}

function refText(c: Cell, label: (attempt: string) => string): string {
  return `${oneLine(label(c.attempt), 40)} \u00d7 ${oneLine(c.spec, 40)}`;
}

/** The fresh trials above the table: how many, what the verifier said, the false positives and negatives among them. */
function freshSummary(f: RepairFreshView, label: (attempt: string) => string): TemplateResult {
  const trials: NonNullable<RepairFreshView['trials']> = f.trials ?? f.attempts.map((attempt) => ({ attempt, model: '' }));
  const passed = f.attempts.filter((a) => f.attemptStatus?.[a]?.after === 'passed').length;
  const fp = f.cells.filter((c) => outcomeOf(c.after.outcome) === 'false_positive').length;
  const fn = f.cells.filter((c) => outcomeOf(c.after.outcome) === 'false_negative').length;
  const notLanded = trials.filter((t) => t.attempt === undefined || !f.attempts.includes(t.attempt));
  return html`<div class="repair-fresh" data-testid="repair-fresh" data-trials=${String(trials.length)} data-passed=${String(passed)}>
    <span class="repair-list-title">Fresh trials:</span><span data-testid="repair-fresh-text">${` ${trials.length} on the new revision (not run before, not counted above): ${passed} passed the verifier; false positives ${fp}, false negatives ${fn}`}</span>
    ${trials.slice(0, 50).map(
      (t) =>
        html`<div class="muted small repair-fresh-trial" data-testid="repair-fresh-trial" data-attempt=${t.attempt ?? ''}>${oneLine(
          `${t.attempt !== undefined ? label(t.attempt) : '(no attempt)'} \u00b7 ${t.model}${t.exitStatus ? ` \u00b7 ${t.exitStatus}` : ''}${t.verdict ? ` \u00b7 verifier ${t.verdict}` : ''}${t.error ? ` \u00b7 ${t.error}` : ''}`,
          300,
        )}</div>`,
    )}${trials.length > 50 ? html`<div class="muted small">${`and ${trials.length - 50} more`}</div>` : nothing}${notLanded.length > 0
      ? html`<div class="muted small" data-testid="repair-fresh-missing">${`${notLanded.length} trial(s) did not land as an attempt`}</div>`
      : nothing}
  </div>`;
}

function cell(c: Cell, label: (attempt: string) => string, fresh = false): TemplateResult {
  const b = outcomeOf(c.before.outcome);
  const a = outcomeOf(c.after.outcome);
  // A fresh trial has nothing before it: nothing disappeared or appeared in its cells.
  const marks = fresh ? { gone: [] as Kind[], appeared: [] as Kind[] } : cellMarks(c);
  const vb = VERDICTS[c.before.verifier] ?? '?';
  const va = VERDICTS[c.after.verifier] ?? '?';
  const changed = fresh ? 'fresh' : marks.gone.length + marks.appeared.length > 0 ? 'fpfn' : b !== a || vb !== va ? 'changed' : 'same';
  const classes = ['repair-cell', `repair-after-${a}`, `repair-cell-${changed}`];
  if (marks.gone.length) classes.push('has-gone');
  if (marks.appeared.length) classes.push('has-appeared');
  const markText = [...marks.gone.map((k) => `${KIND_TEXT[k].short} gone`), ...marks.appeared.map((k) => `${KIND_TEXT[k].short} appeared`)];
  const describe = `${refText(c, label)}: before ${OUTCOMES[b].text} (verifier ${c.before.verifier}), after ${OUTCOMES[a].text} (verifier ${c.after.verifier})${markText.length ? ` \u2014 ${markText.join(', ')}` : ''}`;
  return html`<td
    class=${classes.join(' ')}
    data-testid="repair-cell"
    data-attempt=${c.attempt}
    data-spec=${c.spec}
    data-before=${b}
    data-after=${a}
    data-change=${oneLine(c.change, 20)}
    data-gone=${marks.gone.join(' ')}
    data-appeared=${marks.appeared.join(' ')}
    title=${oneLine(describe, 500)}
    aria-label=${oneLine(describe, 200)}
    tabindex="0"
  >
    <div class="repair-outcomes" data-testid="repair-outcomes">${`${OUTCOMES[b].short} \u2192 ${OUTCOMES[a].short}`}</div>
    <div class="repair-verdicts muted small">${`${vb} \u2192 ${va}`}</div>
    ${marks.gone.map((k) => html`<div class="repair-mark repair-mark-gone" data-testid="repair-mark" data-kind=${k} data-which="gone">${`\u2713 ${KIND_TEXT[k].short} gone`}</div>`)}${marks.appeared.map(
      (k) => html`<div class="repair-mark repair-mark-appeared" data-testid="repair-mark" data-kind=${k} data-which="appeared">${`\u2717 ${KIND_TEXT[k].short} appeared`}</div>`,
    )}
  </td>`;
}
