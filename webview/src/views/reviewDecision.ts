// The "Decision" tab: the task's scores, its life-cycle status with the transitions allowed from it, approval with
// every rule shown (the ones that block it named, each waivable with a reason), rejection with a reason, submitting
// the review, and the task's history with undo.
import type { ReviewView, RuleView } from '../../../src/protocol/messages';
import { el } from '../dom';
import { inertText, oneLine } from '../text';
import { badge, button, checkbox, select } from '../ui/controls';
import type { ReviewController } from './reviewController';
import type { ScoresDraft } from './reviewModel';

const SEVERITIES: ReadonlyArray<{ field: 'underspecified' | 'fnSeverity' | 'fpSeverity'; label: string; help: string }> = [
  { field: 'underspecified', label: 'Underspecified', help: 'the request leaves out what a solution must do (0 none … 3 severe)' },
  { field: 'fnSeverity', label: 'Tests reject valid solutions', help: 'false-negative severity (0 none … 3 severe)' },
  { field: 'fpSeverity', label: 'Tests too weak', help: 'false-positive severity: they accept wrong solutions (0 none … 3 severe)' },
];
const ENV_DEFECTS: ReadonlyArray<{ value: string; label: string }> = [
  { value: 'dependency_drift', label: 'dependency drift' },
  { value: 'resource_mismatch', label: 'resource mismatch' },
  { value: 'flaky', label: 'flaky' },
];
const DIFFICULTIES = ['<15m', '15m-1h', '1-4h', '>4h'];

/** Transitions other than approve and reject, by what they mean to a curator. */
const TRANSITION_LABEL: Record<string, string> = {
  in_review: 'Back to review',
  flagged: 'Flag',
  needs_repair: 'Send to repair',
  repaired: 'Mark repaired',
  revalidated: 'Mark revalidated',
};

export function renderDecisionTab(rc: ReviewController): HTMLElement {
  const r = rc.review;
  const root = el('div', { class: 'review-decision', testid: 'decision' });
  if (!r) {
    root.append(el('p', { class: 'muted', text: 'The review of this task is loading.' }));
    return root;
  }
  const decided = r.status === 'approved' || r.status === 'rejected';
  const canRecord = r.viewer !== undefined;
  root.append(renderLifecycle(rc, r, canRecord));
  root.append(renderApproval(rc, r, canRecord && !decided));
  if (!decided) root.append(renderReject(rc, canRecord));
  root.append(renderScores(rc, r, canRecord && !decided));
  root.append(renderSubmit(rc, r, canRecord && !decided));
  root.append(renderHistory(rc, r));
  return root;
}

function textArea(rc: ReviewController, o: { value: string; testid: string; placeholder: string; field: string; rows?: number; disabled?: boolean; onInput(v: string): void }): HTMLTextAreaElement {
  const t = document.createElement('textarea');
  t.className = 'review-textarea';
  t.dataset.testid = o.testid;
  t.rows = o.rows ?? 2;
  t.placeholder = o.placeholder;
  t.setAttribute('aria-label', o.placeholder);
  t.value = o.value;
  t.maxLength = 20_000;
  t.disabled = o.disabled === true;
  t.addEventListener('input', () => o.onInput(t.value));
  rc.trackField(t, o.field);
  return t;
}

function renderLifecycle(rc: ReviewController, r: ReviewView, canRecord: boolean): HTMLElement {
  const box = el('section', { class: 'decision-section', testid: 'lifecycle' });
  box.append(el('div', { class: 'section-title', text: 'Life cycle' }));
  box.append(el('div', { class: 'lifecycle-row' }, el('span', { text: 'Status: ' }), badge(r.status.replace(/_/g, ' '), 'lifecycle-status')));
  if (r.approval) {
    box.append(
      el('div', { class: 'small', testid: 'approval-record', text: `Approved by ${oneLine(r.approval.curator, 60)} at ${r.approval.time}${r.approval.waivers.length > 0 ? `, waiving ${r.approval.waivers.map((w) => `${w.rule} (${oneLine(w.reason, 120)})`).join('; ')}` : ''}.` }),
    );
  }
  if (r.rejection) box.append(el('div', { class: 'small', testid: 'rejection-record', text: `Rejected by ${oneLine(r.rejection.curator, 60)} at ${r.rejection.time}: ${oneLine(r.rejection.reason, 400)}` }));
  const moves = el('div', { class: 'lifecycle-moves', testid: 'transitions' });
  for (const to of r.nextStatuses) {
    const label = r.status === 'approved' || r.status === 'rejected' ? (to === 'in_review' ? 'Reopen' : to) : (TRANSITION_LABEL[to] ?? to);
    moves.append(
      button(
        label,
        () =>
          void rc.act('transition', { to, ...(rc.drafts.transitionNote.trim() ? { note: rc.drafts.transitionNote } : {}) }, label, () => {
            rc.drafts.transitionNote = '';
          }),
        { testid: `transition-${to}`, secondary: true, disabled: !canRecord, title: `${r.status} → ${to}` },
      ),
    );
  }
  if (r.nextStatuses.length === 0) moves.append(el('span', { class: 'muted small', text: 'No plain transition from here.' }));
  box.append(moves);
  box.append(
    textArea(rc, {
      value: rc.drafts.transitionNote,
      testid: 'transition-note',
      placeholder: 'Note for the transition (optional)',
      field: 'transition-note',
      rows: 1,
      disabled: !canRecord,
      onInput: (v) => (rc.drafts.transitionNote = v),
    }),
  );
  box.append(el('div', { class: 'muted small', text: 'Approved and rejected are reached only by Approve and Reject below.' }));
  return box;
}

function ruleRow(rc: ReviewController, rule: RuleView, blocking: boolean, editable: boolean): HTMLElement {
  const state = rule.ok ? 'ok' : rule.waiver ? 'waived' : 'fails';
  const row = el('div', { class: `rule rule-${state}`, testid: 'rule', data: { rule: rule.id, state } });
  row.append(
    el(
      'div',
      { class: 'rule-head' },
      el('span', { class: 'rule-mark', text: rule.ok ? '\u2713' : rule.waiver ? '\u2691' : '\u2717' }),
      el('span', { class: 'rule-title', text: ` ${rule.title} ` }),
      el('code', { class: 'rule-id', text: rule.id }),
      blocking ? el('span', { class: 'mark blocks', testid: 'rule-blocks', text: 'blocks approval' }) : null,
    ),
  );
  if (rule.message) row.append(el('div', { class: 'rule-message small', text: oneLine(rule.message, 600) }));
  if (rule.waiver) row.append(el('div', { class: 'muted small', text: `waived: ${oneLine(rule.waiver.reason, 300)}` }));
  if (blocking && editable) {
    const reason = rc.drafts.waivers.get(rule.id);
    const waive = checkbox('Waive this rule, because…', reason !== undefined, `waive-${rule.id}`, (on) => {
      if (on) rc.drafts.waivers.set(rule.id, rc.drafts.waivers.get(rule.id) ?? '');
      else rc.drafts.waivers.delete(rule.id);
      rc.rerender();
    });
    row.append(waive.element);
    if (reason !== undefined) {
      row.append(
        textArea(rc, {
          value: reason,
          testid: `waiver-reason-${rule.id}`,
          placeholder: `Why ${rule.id} may be waived (recorded with the approval)`,
          field: `waiver:${rule.id}`,
          onInput: (v) => {
            rc.drafts.waivers.set(rule.id, v);
            const b = document.querySelector<HTMLElement & { disabled: boolean }>('[data-testid="approve"]');
            if (b) b.disabled = !approvable(rc);
          },
        }),
      );
    }
  }
  return row;
}

/** Every blocking rule waived with a reason. */
function approvable(rc: ReviewController): boolean {
  const r = rc.review;
  if (!r) return false;
  return r.blockers.every((id) => (rc.drafts.waivers.get(id) ?? '').trim() !== '');
}

function renderApproval(rc: ReviewController, r: ReviewView, editable: boolean): HTMLElement {
  const box = el('section', { class: 'decision-section', testid: 'approval' });
  box.append(el('div', { class: 'section-title', text: 'Approval rules' }));
  const blocking = new Set(r.blockers);
  box.append(
    el('div', {
      class: blocking.size > 0 ? 'warning-text' : 'ok-text',
      testid: 'approval-summary',
      text:
        r.status === 'approved'
          ? 'Approved.'
          : blocking.size > 0
            ? `Approval is blocked by ${blocking.size} rule${blocking.size > 1 ? 's' : ''}: ${[...blocking].join(', ')}. Fix each, or waive it with a reason.`
            : 'No rule blocks approval.',
    }),
  );
  for (const rule of r.rules) box.append(ruleRow(rc, rule, blocking.has(rule.id), editable));
  if (editable) {
    box.append(
      textArea(rc, { value: rc.drafts.approveNote, testid: 'approve-note', placeholder: 'Note with the approval (optional)', field: 'approve-note', rows: 1, onInput: (v) => (rc.drafts.approveNote = v) }),
    );
    const approve = button(
      blocking.size > 0 ? 'Approve with waivers' : 'Approve',
      () => {
        const waivers = [...blocking].map((rule) => ({ rule, reason: rc.drafts.waivers.get(rule) ?? '' }));
        void rc.act('approve', { waivers, ...(rc.drafts.approveNote.trim() ? { note: rc.drafts.approveNote } : {}) }, 'Approved', () => {
          rc.drafts.waivers = new Map();
          rc.drafts.approveNote = '';
        });
      },
      { testid: 'approve', disabled: !approvable(rc), title: blocking.size > 0 ? `Waive ${[...blocking].join(', ')} with a reason first` : 'Approve the task for the curated set' },
    );
    box.append(el('div', { class: 'decision-actions' }, approve));
  }
  return box;
}

function renderReject(rc: ReviewController, canRecord: boolean): HTMLElement {
  const box = el('section', { class: 'decision-section', testid: 'reject' });
  box.append(el('div', { class: 'section-title', text: 'Reject' }));
  const reject = button(
    'Reject',
    () => {
      const reason = rc.drafts.rejectReason;
      if (reason.trim() === '') {
        rc.ctx.status('A rejection needs a reason.', true);
        return;
      }
      void rc.act('reject', { reason }, 'Rejected', () => (rc.drafts.rejectReason = ''));
    },
    { testid: 'reject-button', secondary: true, disabled: !canRecord },
  );
  box.append(
    textArea(rc, { value: rc.drafts.rejectReason, testid: 'reject-reason', placeholder: 'Why the task is rejected (required)', field: 'reject-reason', disabled: !canRecord, onInput: (v) => (rc.drafts.rejectReason = v) }),
    el('div', { class: 'decision-actions' }, reject),
  );
  return box;
}

function renderScores(rc: ReviewController, r: ReviewView, editable: boolean): HTMLElement {
  const box = el('section', { class: 'decision-section', testid: 'scores' });
  box.append(el('div', { class: 'section-title', text: 'Scores (SWE-bench Verified style)' }));
  const d: ScoresDraft = rc.drafts.scoresOf(r);
  const touch = (patch: Partial<ScoresDraft>) => {
    rc.drafts.scores = { ...rc.drafts.scoresOf(r), ...patch };
  };
  const grid = el('div', { class: 'scores-grid' });
  for (const s of SEVERITIES) {
    const row = el('div', { class: 'score-row', testid: `score-${s.field}` }, el('span', { class: 'score-label', text: s.label, title: s.help }));
    for (const n of [0, 1, 2, 3]) {
      const b = el('button', { class: `score-choice${d[s.field] === n ? ' chosen' : ''}`, testid: `score-${s.field}-${n}`, text: String(n), attrs: { 'aria-pressed': String(d[s.field] === n) } });
      b.disabled = !editable;
      b.addEventListener('click', () => {
        touch({ [s.field]: n } as Partial<ScoresDraft>);
        rc.rerender();
      });
      row.append(b);
    }
    const fin = r.scores.final[s.field];
    if (fin !== undefined) row.append(el('span', { class: 'muted small', text: ` final ${fin}${r.scores.open.includes(s.field) ? ' (curators disagree)' : ''}` }));
    grid.append(row);
  }
  box.append(grid);
  const env = el('div', { class: 'score-row', testid: 'score-env' }, el('span', { class: 'score-label', text: 'Environment defects' }));
  for (const e of ENV_DEFECTS) {
    const c = checkbox(e.label, d.envDefects.includes(e.value), `score-env-${e.value}`, (on) => {
      const cur = rc.drafts.scoresOf(r).envDefects.filter((x) => x !== e.value);
      touch({ envDefects: on ? [...cur, e.value] : cur });
    });
    if (!editable) c.element.setAttribute('disabled', '');
    env.append(c.element);
  }
  box.append(env);
  const diff = select([{ value: '', label: 'difficulty: not scored' }, ...DIFFICULTIES.map((x) => ({ value: x, label: `difficulty ${x}` }))], d.difficulty, 'score-difficulty', (v) => touch({ difficulty: v }));
  box.append(el('div', { class: 'score-row' }, el('span', { class: 'score-label', text: 'Difficulty' }), diff.element));
  box.append(
    textArea(rc, { value: d.otherIssues, testid: 'score-other', placeholder: 'Other issues (note)', field: 'score-other', disabled: !editable, onInput: (v) => touch({ otherIssues: v }) }),
    textArea(rc, { value: d.note, testid: 'score-note', placeholder: 'Note on the scores', field: 'score-note', rows: 1, disabled: !editable, onInput: (v) => touch({ note: v }) }),
  );
  const save = button(
    r.scores.mine ? 'Save scores' : 'Record scores',
    () => {
      const s = rc.drafts.scoresOf(r);
      void rc.act(
        'score',
        {
          underspecified: s.underspecified,
          fnSeverity: s.fnSeverity,
          fpSeverity: s.fpSeverity,
          envDefects: s.envDefects,
          ...(s.otherIssues.trim() ? { otherIssues: s.otherIssues } : {}),
          ...(s.difficulty ? { difficulty: s.difficulty } : {}),
          ...(s.note.trim() ? { note: s.note } : {}),
        },
        'Scores recorded',
        () => (rc.drafts.scores = undefined),
      );
    },
    { testid: 'score-save', disabled: !editable },
  );
  box.append(el('div', { class: 'decision-actions' }, save, r.scores.mine ? el('span', { class: 'muted small', text: ` recorded at ${r.scores.mine.time}` }) : null));
  if (r.othersHidden) box.append(el('div', { class: 'muted small', text: 'Blind mode: other curators\u2019 scores are hidden until you submit.' }));
  for (const o of r.scores.others) {
    box.append(
      el('div', {
        class: 'small other-scores',
        testid: 'other-scores',
        text: `${oneLine(o.curator, 60)}: underspecified ${o.underspecified ?? '-'}, fn ${o.fnSeverity ?? '-'}, fp ${o.fpSeverity ?? '-'}${o.envDefects && o.envDefects.length > 0 ? `, env ${o.envDefects.join('+')}` : ''}${o.difficulty ? `, ${o.difficulty}` : ''}${o.otherIssues ? ` — ${oneLine(o.otherIssues, 200)}` : ''}`,
      }),
    );
  }
  return box;
}

function renderSubmit(rc: ReviewController, r: ReviewView, editable: boolean): HTMLElement {
  const box = el('section', { class: 'decision-section', testid: 'submit-section' });
  box.append(el('div', { class: 'section-title', text: 'Your review' }));
  const left = r.counts.cells - r.counts.mine;
  box.append(
    el('div', {
      class: 'small',
      text: r.viewerSubmitted
        ? `You submitted this task${r.submittedBy.length > 1 ? ` (so did ${r.submittedBy.filter((c) => c !== r.viewer).join(', ')})` : ''}.`
        : `You labelled ${r.counts.mine} of ${r.counts.cells} pairs${left > 0 ? ` (${left} left)` : ''}. Submitting ends your blindness to others on this task.`,
    }),
  );
  if (!r.viewerSubmitted) box.append(el('div', { class: 'decision-actions' }, button('Submit my review', () => void rc.act('submit', {}, 'Submitted'), { testid: 'submit', secondary: true, disabled: !editable })));
  return box;
}

function renderHistory(rc: ReviewController, r: ReviewView): HTMLElement {
  const box = el('section', { class: 'decision-section', testid: 'history' });
  box.append(el('div', { class: 'section-title', text: `History (${r.historyTotal} event${r.historyTotal === 1 ? '' : 's'})` }));
  if (r.lastUndoable) {
    box.append(el('div', { class: 'decision-actions' }, button(`Undo: ${oneLine(r.lastUndoable.summary, 80)}`, () => rc.undo(), { testid: 'undo', secondary: true, title: 'Withdraw your latest action (recorded as a new undo event)' })));
  }
  const list = el('ol', { class: 'history', testid: 'history-list' });
  for (const h of [...r.history].reverse()) {
    list.append(
      el(
        'li',
        { class: h.undone ? 'undone' : '', testid: 'history-entry', data: { kind: h.kind } },
        el('span', { class: 'muted small', text: `${h.time.replace('T', ' ').slice(0, 19)} ` }),
        el('span', { class: 'curator', text: `${oneLine(h.curator, 40)} ` }),
        el('span', { class: 'history-summary', text: inertText(oneLine(h.summary, 300)) }),
        h.undone ? el('span', { class: 'muted small', text: ' (undone)' }) : null,
      ),
    );
  }
  if (r.history.length === 0) list.append(el('li', { class: 'muted', text: 'No review events yet: the task is a candidate.' }));
  box.append(list);
  if (r.historyTotal > r.history.length) box.append(el('div', { class: 'muted small', text: `${r.historyTotal - r.history.length} earlier events: specweave log DATASET ${rc.ctx.model().taskId}` }));
  return box;
}
