// The review bar under the header: who is reviewing, the life-cycle status, what the review found so far, which rules
// block approval, the task-level actions (approve, reject, send to repair, undo), and review mode's queue.
import { el } from '../dom';
import { oneLine } from '../text';
import { badge, button } from '../ui/controls';
import type { ReviewController } from './reviewController';
import { DECISION_TAB } from './reviewController';
import { cellOf, unlabelledCount } from './reviewModel';

export function renderReviewBar(rc: ReviewController): HTMLElement {
  const r = rc.review;
  const bar = el('div', { class: 'review-bar', testid: 'review-bar' });
  if (!r) return bar;
  const hooks = rc.hooksOrNone;
  const decided = r.status === 'approved' || r.status === 'rejected';

  const who = r.viewer
    ? el('span', { class: 'small', testid: 'review-curator', text: `Curator: ${oneLine(r.viewer, 60)}`, title: `from ${r.curatorSource ?? 'the setting'}; change it with "SpecWeave: Set Curator Name…"` })
    : el('span', { class: 'small error', testid: 'review-curator', text: `No curator name: ${oneLine(r.curatorProblem ?? 'set specweave.curator.name', 200)}` });
  const counts = r.counts;
  const found = el(
    'span',
    { class: 'small review-counts', testid: 'review-counts' },
    `${counts.judged}/${counts.cells} judged · `,
    el('span', { class: counts.falsePositives > 0 ? 'mark outcome-false_positive' : '', testid: 'review-fp-count', text: `${counts.falsePositives} FP` }),
    ' · ',
    el('span', { class: counts.falseNegatives > 0 ? 'mark outcome-false_negative' : '', testid: 'review-fn-count', text: `${counts.falseNegatives} FN` }),
    counts.openSuggestions > 0 ? ` · ${counts.openSuggestions} suggestion${counts.openSuggestions > 1 ? 's' : ''} open` : '',
    counts.openDisagreements > 0 ? ` · ${counts.openDisagreements} disagreement${counts.openDisagreements > 1 ? 's' : ''}` : '',
  );
  const blockers = el('span', {
    class: `small blockers ${r.blockers.length > 0 && !decided ? 'warning-text' : 'ok-text'}`,
    testid: 'review-blockers',
    role: 'button',
    tabIndex: 0,
    title: 'Show the approval rules (Decision tab)',
    text: decided ? '' : r.blockers.length > 0 ? `Approval blocked by: ${r.blockers.join(', ')}` : 'No rule blocks approval',
  });
  blockers.addEventListener('click', () => hooks?.showTab(DECISION_TAB));
  const blind = r.blind ? el('span', { class: 'small muted', testid: 'review-blind-mode', text: r.othersHidden ? 'blind: others hidden until you submit' : 'blind mode' }) : null;

  const canAct = r.viewer !== undefined;
  const actions = el('span', { class: 'review-actions' });
  if (!decided) {
    actions.append(
      button(
        'Approve…',
        () => {
          hooks?.showTab(DECISION_TAB);
          if (r.blockers.length > 0) rc.ctx.status(`Approval is blocked by ${r.blockers.join(', ')}: fix or waive each with a reason, then Approve.`);
        },
        { testid: 'bar-approve', secondary: r.blockers.length > 0, disabled: !canAct, title: r.blockers.length > 0 ? `Blocked by ${r.blockers.join(', ')}` : 'Approve the task' },
      ),
      button('Reject…', () => hooks?.showTab(DECISION_TAB), { testid: 'bar-reject', secondary: true, disabled: !canAct }),
    );
    if (r.nextStatuses.includes('needs_repair')) {
      actions.append(button('Send to repair', () => void rc.act('transition', { to: 'needs_repair' }, 'Sent to repair'), { testid: 'bar-repair', secondary: true, disabled: !canAct }));
    }
  } else {
    actions.append(button('Reopen', () => void rc.act('transition', { to: 'in_review' }, 'Reopened'), { testid: 'bar-reopen', secondary: true, disabled: !canAct }));
  }
  actions.append(button('Undo', () => rc.undo(), { testid: 'bar-undo', secondary: true, disabled: !canAct || (!r.lastUndoable && !r.queue), title: r.lastUndoable ? `Undo: ${oneLine(r.lastUndoable.summary, 120)} (z)` : 'Nothing of yours to undo on this task' }));

  const row1 = el(
    'div',
    { class: 'review-row' },
    el('span', { class: 'review-label', text: 'Review' }),
    badge(r.status.replace(/_/g, ' '), 'review-status'),
    found,
    blockers,
    el('span', { class: 'spacer' }),
    blind,
    who,
    actions,
  );
  bar.append(row1);

  if (r.queue) {
    const left = unlabelledCount(r, rc.drafts.sent);
    const focus = rc.focus;
    const cell = cellOf(r, focus);
    bar.append(
      el(
        'div',
        { class: 'review-row review-mode', testid: 'review-mode' },
        el('span', { class: 'review-label', text: 'Review mode' }),
        el('span', {
          class: 'small',
          testid: 'review-remaining',
          text: `${r.queue.remaining} task${r.queue.remaining === 1 ? '' : 's'} left (${r.queue.done} done) · ${left} pair${left === 1 ? '' : 's'} left here`,
        }),
        cell ? el('span', { class: 'small', testid: 'review-focus', text: `· focus ${oneLine(cell.attempt, 40)} × ${oneLine(cell.spec, 30)} (s v u, j k, z, Enter, n, ?)` }) : null,
        rc.inFlight > 0 ? el('span', { class: 'small muted', testid: 'review-saving', text: '· saving…' }) : null,
        el('span', { class: 'spacer' }),
        button('Submit & next (Enter)', () => rc.queue('next', true), { testid: 'queue-submit-next', disabled: !canAct || decided }),
        button('Skip task (n)', () => rc.queue('skip'), { testid: 'queue-skip', secondary: true }),
        button('Stop', () => rc.queue('stop'), { testid: 'queue-stop', secondary: true }),
      ),
    );
  }
  if (!r.queue) {
    row1.append(
      button(
        'Review mode',
        () =>
          rc.ctx.host.request('runCommand', { command: 'specweave.review.start', args: [] }).then(
            (x) => {
              if (!x.ran) rc.ctx.status(x.message ?? 'Review mode is not available.', true);
            },
            (e: unknown) => rc.ctx.status(e instanceof Error ? e.message : String(e), true),
          ),
        { testid: 'bar-review-mode', secondary: true, disabled: !canAct, title: 'Go through the tasks you have not reviewed, by keyboard' },
      ),
    );
  }
  return bar;
}
