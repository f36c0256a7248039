// The repair tab of the task view: the latest repair suggestion's state (requested, accepted, rejected; revision
// n -> n+1), its summary and rationale, and once revalidated the before/after matrix of outcomes per attempt and
// spec, with the false positives and negatives that disappeared or appeared marked in their cells and counted
// above. The buttons ask the host for its repair actions; the host checks trust and asks for what it needs (a reason).
import type { ActionResult, RepairAction, RepairMatrixSideView, RepairMatrixView, RepairView } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { el } from '../dom';
import { capText, oneLine } from '../text';
import { button } from '../ui/controls';
import { errorText } from '../text';

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

export function renderRepair(ctx: Ctx): HTMLElement {
  const m = ctx.model();
  const r = m.repair;
  const root = el('div', { class: 'repair', testid: 'repair' });
  if (!r) {
    root.append(el('p', { class: 'muted', text: 'No repair suggestion for this task.' }));
    return root;
  }
  const st = state(r, m.revision);
  const head = el(
    'div',
    { class: 'repair-head' },
    el('span', { class: `repair-state repair-state-${st.word}`, testid: 'repair-state', data: { state: st.word, status: oneLine(String(r.status), 40) }, text: st.word }),
    el('span', { class: 'repair-detail', testid: 'repair-detail', text: st.detail }),
  );
  if (r.fromRevision !== undefined && r.toRevision !== undefined) {
    head.append(el('span', { class: 'repair-revision', testid: 'repair-revision', text: `revision ${r.fromRevision} \u2192 ${r.toRevision}` }));
  }
  root.append(head);
  const who = [r.decidedBy ? `by ${oneLine(r.decidedBy, 80)}` : '', r.decidedAt ? oneLine(r.decidedAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, ''), 30) : ''].filter(Boolean).join(', ');
  root.append(
    el('div', { class: 'muted small', testid: 'repair-suggestion', text: `Suggestion ${oneLine(r.suggestion, 80)}${r.target ? ` \u00b7 target ${oneLine(r.target, 40)}` : ''}${who ? ` \u00b7 ${st.word} ${who}` : ''}` }),
  );
  if (r.summary) root.append(el('p', { class: 'repair-summary', testid: 'repair-summary', text: oneLine(r.summary, 500) }));
  if (r.message) root.append(el('p', { class: 'repair-message error', testid: 'repair-message', text: oneLine(r.message, 1000) }));
  if (r.note) {
    root.append(el('p', { class: 'repair-note', testid: 'repair-note' }, el('span', { class: 'muted', text: r.status === 'rejected' ? 'Reason: ' : 'Note: ' }), capText(r.note, 4000)));
  }
  if (r.rationale) {
    const d = el('details', { class: 'repair-rationale', testid: 'repair-rationale' }, el('summary', { text: 'Rationale' }), el('div', { class: 'repair-rationale-text', testid: 'repair-rationale-text', text: capText(r.rationale, RATIONALE_CHARS) }));
    root.append(d);
  }
  root.append(actions(ctx, r));
  if (r.matrix) root.append(renderMatrixPart(ctx, r.matrix));
  else if (r.status === 'revalidating') root.append(el('p', { class: 'muted', testid: 'repair-pending', text: 'The before/after matrix appears here when the runs have finished.' }));
  return root;
}

function actions(ctx: Ctx, r: RepairView): HTMLElement {
  const settle = (p: Promise<ActionResult>): void => {
    p.then(
      (res) => {
        if (!res.ran) ctx.status(res.message ?? 'Not available.', true);
      },
      (e: unknown) => ctx.status(errorText(e), true),
    );
  };
  const bar = el('div', { class: 'repair-actions', testid: 'repair-actions' });
  const add = (label: string, run: () => Promise<ActionResult>, doing: string, testid: string, secondary = true, title?: string) =>
    bar.append(
      button(
        label,
        () => {
          ctx.status(doing);
          settle(run());
        },
        { testid, secondary, ...(title ? { title } : {}) },
      ),
    );
  // The host acts on this panel's task; a suggestion's buttons name the suggestion.
  const on = (action: RepairAction) => () => ctx.host.request(action, { suggestion: r.suggestion });
  if (r.status === 'ready') {
    add('Show Diff', on('reviewRepair'), 'Opening the suggested changes\u2026', 'repair-action-review');
    add('Accept', on('acceptRepair'), 'Accepting: writing the new revision, then revalidating it\u2026', 'repair-action-accept', false, 'Write the next revision (with your edits of the suggested files) and rerun gold, empty and every attempt on it');
    add('Reject\u2026', on('rejectRepair'), 'Rejecting: the host asks for a reason\u2026', 'repair-action-reject');
  }
  if (r.status === 'revalidated') add('Open as Document', on('showRepairMatrix'), 'Opening the before/after matrix as a document\u2026', 'repair-action-matrix');
  add('Show What Was Sent', on('showRepairPrompt'), 'Opening the prompt\u2026', 'repair-action-prompt');
  if (r.status !== 'ready' && r.status !== 'revalidating') add('Request Another\u2026', () => ctx.host.request('requestRepair', {}), 'Requesting a repair suggestion\u2026', 'repair-action-request');
  return bar;
}

function refText(c: Cell, label: (attempt: string) => string): string {
  return `${oneLine(label(c.attempt), 40)} \u00d7 ${oneLine(c.spec, 40)}`;
}

function renderMatrixPart(ctx: Ctx, mx: RepairMatrixView): HTMLElement {
  const m = ctx.model();
  const label = (id: string) => m.columns.find((c) => c.id === id)?.label ?? id;
  const s = summarize(mx);
  const part = el('div', { class: 'repair-matrix-part' });

  const counts = el('div', { class: 'repair-counts', testid: 'repair-counts' });
  for (const k of ['fp', 'fn'] as const) {
    const b = s.before[k];
    const a = s.after[k];
    const trend = a < b ? 'better' : a > b ? 'worse' : 'same';
    counts.append(
      el('span', {
        class: `repair-count repair-${trend}`,
        testid: `repair-count-${k}`,
        data: { before: String(b), after: String(a), trend },
        text: `${KIND_TEXT[k].plural} ${b} \u2192 ${a}`,
      }),
    );
  }
  part.append(counts);

  const list = (which: 'gone' | 'appeared') => {
    const box = el('div', { class: `repair-list repair-list-${which}`, testid: `repair-${which}` }, el('span', { class: 'repair-list-title', text: which === 'gone' ? 'Disappeared:' : 'Appeared:' }));
    const total = s[which].fp.length + s[which].fn.length;
    if (total === 0) box.append(el('span', { class: 'muted', text: ' none' }));
    let groups = 0;
    for (const k of ['fp', 'fn'] as const) {
      if (s[which][k].length === 0) continue;
      const group = el('span', { class: 'repair-list-group' }, el('span', { class: 'muted', text: `${groups++ > 0 ? ';' : ''} ${KIND_TEXT[k].plural} (${s[which][k].length}): ` }));
      s[which][k].slice(0, 50).forEach((c, i) => {
        if (i > 0) group.append(', ');
        group.append(el('span', { class: `repair-ref repair-${which}`, testid: 'repair-ref', data: { attempt: c.attempt, spec: c.spec, kind: k, which }, text: refText(c, label) }));
      });
      if (s[which][k].length > 50) group.append(el('span', { class: 'muted', text: ` and ${s[which][k].length - 50} more` }));
      box.append(group);
    }
    return box;
  };
  part.append(list('gone'), list('appeared'));

  part.append(
    el('div', {
      class: 'muted small repair-legend',
      testid: 'repair-legend',
      text: 'Each cell: outcome before \u2192 after (TP true pass, TF true fail, FP false positive, FN false negative, ? unknown, \u2014 not in that revision); below it the verifier verdict before \u2192 after.',
    }),
  );

  const table = el('table', { class: 'repair-matrix', testid: 'repair-matrix' });
  const headRow = el('tr', {}, el('th', { class: 'corner', text: 'attempt \\ spec' }));
  for (const sp of mx.specs) {
    const th = el('th', { class: 'repair-spec', testid: 'repair-spec', text: oneLine(sp, 30), title: sp, data: { spec: sp }, tabIndex: 0 });
    th.addEventListener('click', () => ctx.actions.showSpec(sp));
    headRow.append(th);
  }
  table.append(el('thead', {}, headRow));
  const body = el('tbody');
  const byKey = new Map(mx.cells.map((c) => [`${c.attempt}\u0000${c.spec}`, c]));
  const rowsFirst = Math.max(3, Math.floor(FIRST_CELLS / Math.max(1, mx.specs.length)));
  const addRows = (from: number, to: number) => {
    for (const at of mx.attempts.slice(from, to)) {
      const status = mx.attemptStatus?.[at];
      const statusText = status ? `${oneLine(status.before ?? 'not run', 30)} \u2192 ${oneLine(status.after ?? 'not run', 30)}` : '';
      const th = el('th', { class: 'repair-attempt', title: `${label(at)}${statusText ? `: run ${statusText}` : ''}`, data: { attempt: at } }, el('div', { text: oneLine(label(at), 40) }));
      if (statusText) th.append(el('div', { class: 'muted small', testid: 'repair-attempt-status', text: statusText }));
      if (m.columns.some((c) => c.id === at)) th.addEventListener('click', () => ctx.actions.activateColumn(at));
      const tr = el('tr', { testid: 'repair-row', data: { attempt: at } }, th);
      for (const sp of mx.specs) {
        const c = byKey.get(`${at}\u0000${sp}`);
        tr.append(c ? cell(c, label) : el('td', { class: 'repair-cell muted', text: '' }));
      }
      body.append(tr);
    }
  };
  addRows(0, rowsFirst);
  table.append(body);
  const wrap = el('div', { class: 'table-scroll' }, table);
  if (mx.attempts.length > rowsFirst) {
    const more = el('button', { class: 'link-button', testid: 'repair-show-all', text: `Show all ${mx.attempts.length} attempts` });
    more.addEventListener('click', () => {
      addRows(rowsFirst, mx.attempts.length);
      more.remove();
    });
    wrap.append(more);
  }
  part.append(wrap);
  return part;
}

function cell(c: Cell, label: (attempt: string) => string): HTMLElement {
  const b = outcomeOf(c.before.outcome);
  const a = outcomeOf(c.after.outcome);
  const marks = cellMarks(c);
  const vb = VERDICTS[c.before.verifier] ?? '?';
  const va = VERDICTS[c.after.verifier] ?? '?';
  const changed = marks.gone.length + marks.appeared.length > 0 ? 'fpfn' : b !== a || vb !== va ? 'changed' : 'same';
  const classes = ['repair-cell', `repair-after-${a}`, `repair-cell-${changed}`];
  if (marks.gone.length) classes.push('has-gone');
  if (marks.appeared.length) classes.push('has-appeared');
  const markText = [...marks.gone.map((k) => `${KIND_TEXT[k].short} gone`), ...marks.appeared.map((k) => `${KIND_TEXT[k].short} appeared`)];
  const describe = `${refText(c, label)}: before ${OUTCOMES[b].text} (verifier ${c.before.verifier}), after ${OUTCOMES[a].text} (verifier ${c.after.verifier})${markText.length ? ` \u2014 ${markText.join(', ')}` : ''}`;
  const td = el(
    'td',
    {
      class: classes.join(' '),
      testid: 'repair-cell',
      data: { attempt: c.attempt, spec: c.spec, before: b, after: a, change: oneLine(c.change, 20), gone: marks.gone.join(' '), appeared: marks.appeared.join(' ') },
      title: describe,
      ariaLabel: describe,
      tabIndex: 0,
    },
    el('div', { class: 'repair-outcomes', testid: 'repair-outcomes', text: `${OUTCOMES[b].short} \u2192 ${OUTCOMES[a].short}` }),
    el('div', { class: 'repair-verdicts muted small', text: `${vb} \u2192 ${va}` }),
  );
  for (const k of marks.gone) td.append(el('div', { class: 'repair-mark repair-mark-gone', testid: 'repair-mark', data: { kind: k, which: 'gone' }, text: `\u2713 ${KIND_TEXT[k].short} gone` }));
  for (const k of marks.appeared) td.append(el('div', { class: 'repair-mark repair-mark-appeared', testid: 'repair-mark', data: { kind: k, which: 'appeared' }, text: `\u2717 ${KIND_TEXT[k].short} appeared` }));
  return td;
}
