// The "Decision" tab: the task's scores, its life-cycle status with the transitions allowed from it, approval with
// every rule shown (the ones that block it named, each waivable with a reason), rejection with a reason, submitting
// the review, and the task's history with undo. A lit-html template: an update patches what changed.
import { html, nothing, type TemplateResult } from 'lit-html';
import { live } from 'lit-html/directives/live.js';
import type { ReviewView, RuleView } from '../../../src/protocol/messages';
import { isDifficultyView, isEnvDefectView } from '../../../src/protocol/messages';
import { errorText, inertText, oneLine } from '../text';
import { vsBadge, vsButton, vsCheckbox, vsSelect } from '../ui/controls';
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

export function decisionTab(rc: ReviewController): TemplateResult {
  const r = rc.review;
  if (!r) return html`<div class="review-decision" data-testid="decision"><p class="muted">The review of this task is loading.</p></div>`;
  const decided = r.status === 'approved' || r.status === 'rejected';
  const canRecord = r.viewer !== undefined;
  return html`<div class="review-decision" data-testid="decision">
    ${lifecycle(rc, r, canRecord)}${approval(rc, r, canRecord && !decided)}${decided ? nothing : reject(rc, canRecord)}${scores(rc, r, canRecord && !decided)}${submit(rc, r, canRecord && !decided)}${history(rc, r)}
  </div>`;
}

/** A text field whose text lives in a draft: `onInput` keeps the draft, the template patches the rest. */
function textArea(rc: ReviewController, o: { value: string; testid: string; placeholder: string; field: string; rows?: number; disabled?: boolean; onInput(v: string): void }): TemplateResult {
  return html`<textarea
    class="review-textarea"
    data-testid=${o.testid}
    data-field=${o.field}
    rows=${String(o.rows ?? 2)}
    maxlength="20000"
    placeholder=${o.placeholder}
    aria-label=${oneLine(o.placeholder, 200)}
    ?disabled=${o.disabled === true}
    .value=${live(o.value)}
    @input=${(e: Event) => {
      o.onInput((e.currentTarget as HTMLTextAreaElement).value);
      rc.rerender();
    }}
  ></textarea>`;
}

function lifecycle(rc: ReviewController, r: ReviewView, canRecord: boolean): TemplateResult {
  const decided = r.status === 'approved' || r.status === 'rejected';
  return html`<section class="decision-section" data-testid="lifecycle">
    <div class="section-title">Life cycle</div>
    <div class="lifecycle-row"><span>Status: </span>${vsBadge(r.status.replace(/_/g, ' '), 'lifecycle-status')}</div>
    ${r.approval
      ? html`<div class="small" data-testid="approval-record">${`Approved by ${oneLine(r.approval.curator, 60)} at ${r.approval.time}${r.approval.waivers.length > 0 ? `, waiving ${r.approval.waivers.map((w) => `${w.rule} (${oneLine(w.reason, 120)})`).join('; ')}` : ''}.`}</div>`
      : nothing}
    ${r.rejection ? html`<div class="small" data-testid="rejection-record">${`Rejected by ${oneLine(r.rejection.curator, 60)} at ${r.rejection.time}: ${oneLine(r.rejection.reason, 400)}`}</div>` : nothing}
    <div class="lifecycle-moves" data-testid="transitions">
      ${r.nextStatuses.map((to) => {
        const label = decided ? (to === 'in_review' ? 'Reopen' : to) : (TRANSITION_LABEL[to] ?? to);
        const note = rc.drafts.transitionNote.trim() ? rc.drafts.transitionNote : undefined;
        const clear = () => {
          rc.drafts.transitionNote = '';
        };
        return vsButton(
          label,
          // Send to repair asks the repair agent as well (the bar's button does the same).
          () => void (to === 'needs_repair' ? rc.sendToRepair(note, clear) : rc.act('transition', { to, ...(note ? { note } : {}) }, label, clear)),
          { testid: `transition-${to}`, secondary: true, disabled: !canRecord, title: `${r.status} → ${to}` },
        );
      })}${r.nextStatuses.length === 0 ? html`<span class="muted small">No plain transition from here.</span>` : nothing}
    </div>
    ${textArea(rc, {
      value: rc.drafts.transitionNote,
      testid: 'transition-note',
      placeholder: 'Note for the transition (optional)',
      field: 'transition-note',
      rows: 1,
      disabled: !canRecord,
      onInput: (v) => (rc.drafts.transitionNote = v),
    })}
    <div class="muted small">Approved and rejected are reached only by Approve and Reject below.</div>
  </section>`;
}

function ruleRow(rc: ReviewController, rule: RuleView, blocking: boolean, editable: boolean): TemplateResult {
  const state = rule.ok ? 'ok' : rule.waiver ? 'waived' : 'fails';
  const reason = rc.drafts.waivers.get(rule.id);
  return html`<div class=${`rule rule-${state}`} data-testid="rule" data-rule=${rule.id} data-state=${state}>
    <div class="rule-head">
      <span class="rule-mark">${rule.ok ? '\u2713' : rule.waiver ? '\u2691' : '\u2717'}</span><span class="rule-title">${` ${rule.title} `}</span><code class="rule-id">${rule.id}</code>${blocking
        ? html`<span class="mark blocks" data-testid="rule-blocks">blocks approval</span>`
        : nothing}
    </div>
    ${rule.message ? html`<div class="rule-message small">${oneLine(rule.message, 600)}</div>` : nothing}${rule.id === 'gold-passes' && !rule.ok
      ? vsButton('Run Gold Now', () => runGold(rc), { testid: 'run-gold', secondary: true, title: 'Queue the verifier on the gold patch of this task (as Run Verifier on Gold Patch does)' })
      : nothing}
    ${rule.waiver ? html`<div class="muted small">${`waived: ${oneLine(rule.waiver.reason, 300)}`}</div>` : nothing}
    ${blocking && editable
      ? html`${vsCheckbox('Waive this rule, because…', reason !== undefined, `waive-${rule.id}`, (on) => {
          if (on) rc.drafts.waivers.set(rule.id, rc.drafts.waivers.get(rule.id) ?? '');
          else rc.drafts.waivers.delete(rule.id);
          rc.rerender();
        })}${reason !== undefined
          ? textArea(rc, {
              value: reason,
              testid: `waiver-reason-${rule.id}`,
              placeholder: `Why ${rule.id} may be waived (recorded with the approval)`,
              field: `waiver:${rule.id}`,
              onInput: (v) => rc.drafts.waivers.set(rule.id, v),
            })
          : nothing}`
      : nothing}
  </div>`;
}

/** Every blocking rule waived with a reason. */
function approvable(rc: ReviewController): boolean {
  const r = rc.review;
  if (!r) return false;
  return r.blockers.every((id) => (rc.drafts.waivers.get(id) ?? '').trim() !== '');
}

function approval(rc: ReviewController, r: ReviewView, editable: boolean): TemplateResult {
  const blocking = new Set(r.blockers);
  const summary =
    r.status === 'approved'
      ? 'Approved.'
      : blocking.size > 0
        ? `Approval is blocked by ${blocking.size} rule${blocking.size > 1 ? 's' : ''}: ${[...blocking].join(', ')}. Fix each, or waive it with a reason.`
        : 'No rule blocks approval.';
  const approve = (): void => {
    const waivers = [...blocking].map((rule) => ({ rule, reason: rc.drafts.waivers.get(rule) ?? '' }));
    void rc.act('approve', { waivers, ...(rc.drafts.approveNote.trim() ? { note: rc.drafts.approveNote } : {}) }, 'Approved', () => {
      rc.drafts.waivers = new Map();
      rc.drafts.approveNote = '';
    });
  };
  return html`<section class="decision-section" data-testid="approval">
    <div class="section-title">Approval rules</div>
    <div class=${blocking.size > 0 ? 'warning-text' : 'ok-text'} data-testid="approval-summary">${summary}</div>
    ${r.rules.map((rule) => ruleRow(rc, rule, blocking.has(rule.id), editable))}
    ${editable
      ? html`${textArea(rc, { value: rc.drafts.approveNote, testid: 'approve-note', placeholder: 'Note with the approval (optional)', field: 'approve-note', rows: 1, onInput: (v) => (rc.drafts.approveNote = v) })}
          <div class="decision-actions">
            ${vsButton(blocking.size > 0 ? 'Approve with waivers' : 'Approve', approve, {
              testid: 'approve',
              disabled: !approvable(rc),
              title: blocking.size > 0 ? `Waive ${[...blocking].join(', ')} with a reason first` : 'Approve the task for the curated set',
            })}
          </div>`
      : nothing}
  </section>`;
}

function reject(rc: ReviewController, canRecord: boolean): TemplateResult {
  const go = (): void => {
    const reason = rc.drafts.rejectReason;
    if (reason.trim() === '') {
      rc.ctx.status('A rejection needs a reason.', true);
      return;
    }
    void rc.act('reject', { reason }, 'Rejected', () => (rc.drafts.rejectReason = ''));
  };
  return html`<section class="decision-section" data-testid="reject">
    <div class="section-title">Reject</div>
    ${textArea(rc, { value: rc.drafts.rejectReason, testid: 'reject-reason', placeholder: 'Why the task is rejected (required)', field: 'reject-reason', disabled: !canRecord, onInput: (v) => (rc.drafts.rejectReason = v) })}
    <div class="decision-actions">${vsButton('Reject', go, { testid: 'reject-button', secondary: true, disabled: !canRecord })}</div>
  </section>`;
}

function scores(rc: ReviewController, r: ReviewView, editable: boolean): TemplateResult {
  const d: ScoresDraft = rc.drafts.scoresOf(r);
  const touch = (patch: Partial<ScoresDraft>): void => {
    rc.drafts.scores = { ...rc.drafts.scoresOf(r), ...patch };
  };
  const save = (): void => {
    const s = rc.drafts.scoresOf(r);
    void rc.act(
      'score',
      {
        underspecified: s.underspecified,
        fnSeverity: s.fnSeverity,
        fpSeverity: s.fpSeverity,
        envDefects: s.envDefects.filter(isEnvDefectView),
        ...(s.otherIssues.trim() ? { otherIssues: s.otherIssues } : {}),
        ...(isDifficultyView(s.difficulty) ? { difficulty: s.difficulty } : {}),
        ...(s.note.trim() ? { note: s.note } : {}),
      },
      'Scores recorded',
      () => (rc.drafts.scores = undefined),
    );
  };
  return html`<section class="decision-section" data-testid="scores">
    <div class="section-title">Scores (SWE-bench Verified style)</div>
    <div class="scores-grid">
      ${SEVERITIES.map((s) => {
        const fin = r.scores.final[s.field];
        return html`<div class="score-row" data-testid=${`score-${s.field}`}>
          <span class="score-label" title=${s.help}>${s.label}</span>${[0, 1, 2, 3].map(
            (n) =>
              html`<button
                class=${`score-choice${d[s.field] === n ? ' chosen' : ''}`}
                data-testid=${`score-${s.field}-${n}`}
                aria-pressed=${String(d[s.field] === n)}
                ?disabled=${!editable}
                @click=${() => {
                  touch({ [s.field]: n } as Partial<ScoresDraft>);
                  rc.rerender();
                }}
              >${String(n)}</button>`,
          )}${fin !== undefined ? html`<span class="muted small">${` final ${fin}${r.scores.open.includes(s.field) ? ' (curators disagree)' : ''}`}</span>` : nothing}
        </div>`;
      })}
    </div>
    <div class="score-row" data-testid="score-env">
      <span class="score-label">Environment defects</span>${ENV_DEFECTS.map((e) =>
        vsCheckbox(
          e.label,
          d.envDefects.includes(e.value),
          `score-env-${e.value}`,
          (on) => {
            const cur = rc.drafts.scoresOf(r).envDefects.filter((x) => x !== e.value);
            touch({ envDefects: on ? [...cur, e.value] : cur });
          },
          !editable,
        ),
      )}
    </div>
    <div class="score-row">
      <span class="score-label">Difficulty</span>${vsSelect([{ value: '', label: 'difficulty: not scored' }, ...DIFFICULTIES.map((x) => ({ value: x, label: `difficulty ${x}` }))], d.difficulty, 'score-difficulty', (v) =>
        touch({ difficulty: v }),
      )}
    </div>
    ${textArea(rc, { value: d.otherIssues, testid: 'score-other', placeholder: 'Other issues (note)', field: 'score-other', disabled: !editable, onInput: (v) => touch({ otherIssues: v }) })}
    ${textArea(rc, { value: d.note, testid: 'score-note', placeholder: 'Note on the scores', field: 'score-note', rows: 1, disabled: !editable, onInput: (v) => touch({ note: v }) })}
    <div class="decision-actions">
      ${vsButton(r.scores.mine ? 'Save scores' : 'Record scores', save, { testid: 'score-save', disabled: !editable })}${r.scores.mine
        ? html`<span class="muted small">${` recorded at ${r.scores.mine.time}`}</span>`
        : nothing}
    </div>
    ${r.othersHidden ? html`<div class="muted small">${'Blind mode: other curators\u2019 scores are hidden until you submit.'}</div>` : nothing}
    ${r.scores.others.map(
      (o) =>
        html`<div class="small other-scores" data-testid="other-scores">${`${oneLine(o.curator, 60)}: underspecified ${o.underspecified ?? '-'}, fn ${o.fnSeverity ?? '-'}, fp ${o.fpSeverity ?? '-'}${o.envDefects && o.envDefects.length > 0 ? `, env ${o.envDefects.join('+')}` : ''}${o.difficulty ? `, ${o.difficulty}` : ''}${o.otherIssues ? ` — ${oneLine(o.otherIssues, 200)}` : ''}`}</div>`,
    )}
  </section>`;
}

function submit(rc: ReviewController, r: ReviewView, editable: boolean): TemplateResult {
  const left = r.counts.cells - r.counts.mine;
  const text = r.viewerSubmitted
    ? `You submitted this task${r.submittedBy.length > 1 ? ` (so did ${r.submittedBy.filter((c) => c !== r.viewer).join(', ')})` : ''}.`
    : `You labelled ${r.counts.mine} of ${r.counts.cells} pairs${left > 0 ? ` (${left} left)` : ''}. Submitting ends your blindness to others on this task.`;
  return html`<section class="decision-section" data-testid="submit-section">
    <div class="section-title">Your review</div>
    <div class="small">${text}</div>
    ${r.viewerSubmitted ? nothing : html`<div class="decision-actions">${vsButton('Submit my review', () => void rc.act('submit', {}, 'Submitted'), { testid: 'submit', secondary: true, disabled: !editable })}</div>`}
  </section>`;
}

function history(rc: ReviewController, r: ReviewView): TemplateResult {
  return html`<section class="decision-section" data-testid="history">
    <div class="section-title">${`History (${r.historyTotal} event${r.historyTotal === 1 ? '' : 's'})`}</div>
    ${r.lastUndoable
      ? html`<div class="decision-actions">
          ${vsButton(`Undo: ${oneLine(r.lastUndoable.summary, 80)}`, () => rc.undo(), { testid: 'undo', secondary: true, title: 'Withdraw your latest action (recorded as a new undo event)' })}
        </div>`
      : nothing}
    <ol class="history" data-testid="history-list">
      ${[...r.history].reverse().map(
        (h) =>
          html`<li class=${h.undone ? 'undone' : ''} data-testid="history-entry" data-kind=${h.kind}
            ><span class="muted small">${`${h.time.replace('T', ' ').slice(0, 19)} `}</span><span class="curator">${`${oneLine(h.curator, 40)} `}</span><span class="history-summary"
              >${inertText(oneLine(h.summary, 300))}</span
            >${h.undone ? html`<span class="muted small"> (undone)</span>` : nothing}</li
          >`,
      )}${r.history.length === 0 ? html`<li class="muted">No review events yet: the task is a candidate.</li>` : nothing}
    </ol>
    ${r.historyTotal > r.history.length ? html`<div class="muted small">${`${r.historyTotal - r.history.length} earlier events: specweave log DATASET ${rc.ctx.model().taskId}`}</div>` : nothing}
  </section>`;
}

/** Asks the host to queue the gold patch's verifier run; its result reaches this tab with the model. */
function runGold(rc: ReviewController): void {
  const doing = 'Queuing the gold patch for the verifier\u2026';
  rc.ctx.status(doing);
  rc.ctx.host.request('runGold', {}).then(
    (r) => (r.ran ? rc.ctx.status(r.message ?? 'Queued.') : rc.ctx.status(r.message ?? 'Not available.', true)),
    (e: unknown) => rc.ctx.status(errorText(e), true),
  );
}
