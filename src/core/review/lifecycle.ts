// The task life cycle: which transitions are allowed, checked here and nowhere else.
import type { TaskStatus } from '../model';

/**
 * Allowed transitions. Approved and rejected are reached only by an `approve` event (after the approval rules) or a
 * `reject` event; reopening either goes back to in_review.
 */
const TRANSITIONS: Record<TaskStatus, readonly TaskStatus[]> = {
  candidate: ['in_review', 'flagged', 'needs_repair', 'rejected'],
  in_review: ['flagged', 'needs_repair', 'approved', 'rejected'],
  flagged: ['in_review', 'needs_repair', 'approved', 'rejected'],
  needs_repair: ['in_review', 'repaired', 'rejected'],
  repaired: ['revalidated', 'needs_repair', 'in_review', 'rejected'],
  revalidated: ['in_review', 'flagged', 'needs_repair', 'approved', 'rejected'],
  approved: ['in_review'],
  rejected: ['in_review'],
};

/** Statuses a `status` event may set; approved and rejected have their own events. */
export const DECISION_STATUSES: readonly TaskStatus[] = ['approved', 'rejected'];

export function allowedTransitions(from: TaskStatus): readonly TaskStatus[] {
  return TRANSITIONS[from];
}

/**
 * The status after `to` is asked for from `from`, or why not. A review act on a candidate (a label, an approval...)
 * first puts it in review, so "approve" on a candidate is checked as in_review -> approved.
 */
export function checkTransition(from: TaskStatus, to: TaskStatus): { ok: true; implicitReview: boolean } | { ok: false; message: string } {
  if (TRANSITIONS[from].includes(to)) return { ok: true, implicitReview: false };
  if (from === 'candidate' && TRANSITIONS.in_review.includes(to)) return { ok: true, implicitReview: true };
  if (from === to) return { ok: false, message: `the task is already ${to}` };
  const allowed = TRANSITIONS[from];
  return { ok: false, message: `a task cannot go from ${from} to ${to} (from ${from}: ${allowed.join(', ')})` };
}

/** Event kinds that are review acts: on a candidate task they start the review. */
export function startsReview(kind: string): boolean {
  return kind === 'label' || kind === 'score' || kind === 'submit' || kind === 'suggestion' || kind === 'adjudicate';
}
