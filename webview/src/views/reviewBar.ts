// The review bar under the header: who is reviewing, the life-cycle status, what the review found so far, which rules
// block approval, the task-level actions (approve, reject, send to repair, undo), and review mode's queue.
import { html, nothing, type TemplateResult } from 'lit-html';
import { oneLine } from '../text';
import { vsBadge, vsButton } from '../ui/controls';
import type { ReviewController } from './reviewController';
import { cellOf, DECISION_TAB, unlabelledCount } from './reviewModel';

export function reviewBar(rc: ReviewController): TemplateResult | typeof nothing {
  const r = rc.review;
  if (!r) return nothing;
  const hooks = rc.hooks;
  const decided = r.status === 'approved' || r.status === 'rejected';
  const counts = r.counts;
  const canAct = r.viewer !== undefined;
  const toDecision = (): void => hooks.showTab(DECISION_TAB);

  const who = r.viewer
    ? html`<span class="small" data-testid="review-curator" title=${oneLine(`from ${r.curatorSource ?? 'the setting'}; change it with "SpecWeave: Set Curator Name…"`, 500)}
        >${`Curator: ${oneLine(r.viewer, 60)}`}</span
      >`
    : html`<span class="small error" data-testid="review-curator">${`No curator name: ${oneLine(r.curatorProblem ?? 'set specweave.curator.name', 200)}`}</span>`;
  const found = html`<span class="small review-counts" data-testid="review-counts"
    >${`${counts.judged}/${counts.cells} judged · `}<span class=${counts.falsePositives > 0 ? 'mark outcome-false_positive' : ''} data-testid="review-fp-count"
      >${`${counts.falsePositives} FP`}</span
    >${' · '}<span class=${counts.falseNegatives > 0 ? 'mark outcome-false_negative' : ''} data-testid="review-fn-count">${`${counts.falseNegatives} FN`}</span
    >${counts.openSuggestions > 0 ? ` · ${counts.openSuggestions} suggestion${counts.openSuggestions > 1 ? 's' : ''} open` : ''}${counts.openDisagreements > 0
      ? ` · ${counts.openDisagreements} disagreement${counts.openDisagreements > 1 ? 's' : ''}`
      : ''}</span
  >`;
  const blockers = html`<span
    class=${`small blockers ${r.blockers.length > 0 && !decided ? 'warning-text' : 'ok-text'}`}
    data-testid="review-blockers"
    role="button"
    tabindex="0"
    title="Show the approval rules (Decision tab)"
    @click=${toDecision}
    >${decided ? '' : r.blockers.length > 0 ? `Approval blocked by: ${r.blockers.join(', ')}` : 'No rule blocks approval'}</span
  >`;
  const blind = r.blind ? html`<span class="small muted" data-testid="review-blind-mode">${r.othersHidden ? 'blind: others hidden until you submit' : 'blind mode'}</span>` : nothing;

  const actions = html`<span class="review-actions"
    >${!decided
      ? html`${vsButton(
          'Approve…',
          () => {
            toDecision();
            if (r.blockers.length > 0) rc.ctx.status(`Approval is blocked by ${r.blockers.join(', ')}: fix or waive each with a reason, then Approve.`);
          },
          { testid: 'bar-approve', secondary: r.blockers.length > 0, disabled: !canAct, title: r.blockers.length > 0 ? `Blocked by ${r.blockers.join(', ')}` : 'Approve the task' },
        )}${vsButton('Reject…', toDecision, { testid: 'bar-reject', secondary: true, disabled: !canAct })}${r.nextStatuses.includes('needs_repair')
          ? vsButton('Send to repair', () => rc.sendToRepair(), { testid: 'bar-repair', secondary: true, disabled: !canAct, title: 'Mark the task as needing repair, then ask the repair agent for a suggestion' })
          : nothing}`
      : vsButton('Reopen', () => void rc.act('transition', { to: 'in_review' }, 'Reopened'), { testid: 'bar-reopen', secondary: true, disabled: !canAct })}${vsButton('Undo', () => rc.undo(), {
      testid: 'bar-undo',
      secondary: true,
      disabled: !canAct || (!r.lastUndoable && !r.queue),
      title: r.lastUndoable ? `Undo: ${oneLine(r.lastUndoable.summary, 120)} (z)` : 'Nothing of yours to undo on this task',
    })}</span
  >`;

  return html`<div class="review-bar" data-testid="review-bar">
    <div class="review-row">
      <span class="review-label">Review</span>${vsBadge(r.status.replace(/_/g, ' '), 'review-status')}${found}${blockers}<span class="spacer"></span>${blind}${who}${actions}${r.queue
        ? nothing
        : vsButton('Review mode', () => rc.startReviewMode(), {
            testid: 'bar-review-mode',
            secondary: true,
            disabled: !canAct,
            title: 'Go through the tasks you have not reviewed, by keyboard',
          })}
    </div>
    ${r.queue ? queueRow(rc, canAct, decided) : nothing}
  </div>`;
}

function queueRow(rc: ReviewController, canAct: boolean, decided: boolean): TemplateResult {
  const r = rc.review!;
  const q = r.queue!;
  const left = unlabelledCount(r, rc.drafts.sent);
  const cell = cellOf(r, rc.focus);
  return html`<div class="review-row review-mode" data-testid="review-mode">
    <span class="review-label">Review mode</span><span class="small" data-testid="review-remaining"
      >${`${q.remaining} task${q.remaining === 1 ? '' : 's'} left (${q.done} done) · ${left} pair${left === 1 ? '' : 's'} left here`}</span
    >${cell ? html`<span class="small" data-testid="review-focus">${`· focus ${oneLine(cell.attempt, 40)} × ${oneLine(cell.spec, 30)} (s v u, j k, z, Enter, n, ?)`}</span>` : nothing}${rc.inFlight > 0
      ? html`<span class="small muted" data-testid="review-saving">· saving…</span>`
      : nothing}<span class="spacer"></span>${vsButton('Submit & next (Enter)', () => rc.queue('next', true), { testid: 'queue-submit-next', disabled: !canAct || decided })}${vsButton(
      'Skip task (n)',
      () => rc.queue('skip'),
      { testid: 'queue-skip', secondary: true },
    )}${vsButton('Stop', () => rc.queue('stop'), { testid: 'queue-stop', secondary: true })}
  </div>`;
}
