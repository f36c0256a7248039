// The review part of the task view without the DOM: which pair has the focus and where it moves, what a key asks
// for, how a pair, an outcome or an evidence link reads as text, and the curator's unsent drafts (kept here, outside
// the DOM, so a re-render or a failed request never loses what they typed).
import type { CuratorVerdictView, EvidenceLinkView, FindingView, OutcomeView, ReviewCellView, ReviewView } from '../../../src/protocol/messages';
import { evidenceText } from '../../../src/protocol/evidenceText';

/** The specs-area tabs of the review. */
export const REVIEW_TAB = 'review';
export const DECISION_TAB = 'decision';

export interface Pair {
  attempt: string;
  spec: string;
}

export const pairKey = (p: Pair): string => `${p.attempt}\u0000${p.spec}`;

export const OUTCOME_TEXT: Record<OutcomeView, string> = {
  true_pass: 'true pass',
  true_fail: 'true fail',
  false_positive: 'false positive',
  false_negative: 'false negative',
  undecided: 'undecided',
};

/** Short marks for the grid cells. */
export const OUTCOME_MARK: Record<OutcomeView, string> = {
  true_pass: 'TP',
  true_fail: 'TF',
  false_positive: 'FP',
  false_negative: 'FN',
  undecided: '',
};

export const VERIFIER_MARK: Record<string, string> = { pass: '\u2713', fail: '\u2717', unknown: '?' };
export const VERDICT_MARK: Record<CuratorVerdictView, string> = { satisfied: 'S', violated: 'V', unsure: 'U' };
export const VERDICT_KEYS: Record<string, CuratorVerdictView> = { s: 'satisfied', v: 'violated', u: 'unsure' };

/** The pairs in review order: attempt-major (one attempt against every spec, then the next attempt). */
export function pairOrder(r: Pick<ReviewView, 'attempts' | 'specs'>): Pair[] {
  const out: Pair[] = [];
  for (const a of r.attempts) for (const s of r.specs) out.push({ attempt: a.id, spec: s });
  return out;
}

export function cellOf(r: Pick<ReviewView, 'cells'>, p: Pair | undefined): ReviewCellView | undefined {
  if (!p) return undefined;
  return r.cells.find((c) => c.attempt === p.attempt && c.spec === p.spec);
}

/** The review agent's current finding on a pair, if any (a suggestion, never a label). */
export function findingOf(r: Pick<ReviewView, 'findings'>, p: Pair | undefined): FindingView | undefined {
  if (!p) return undefined;
  return r.findings?.find((f) => f.attempt === p.attempt && f.spec === p.spec);
}

/** Where a finding stands: open (to accept or dismiss), accepted (by you or another curator), dismissed, or stale. */
export function findingState(f: FindingView): 'open' | 'accepted' | 'dismissed' | 'stale' {
  if (f.stale) return 'stale';
  if (f.dismissed) return 'dismissed';
  if (f.acceptedByYou || f.acceptedBy.length > 0) return 'accepted';
  return 'open';
}

/** The first pair the viewer has not labelled (attempt-major), else the first pair. */
export function firstFocus(r: ReviewView): Pair | undefined {
  const order = pairOrder(r);
  return order.find((p) => !cellOf(r, p)?.mine) ?? order[0];
}

/** The focus kept when it still names a pair of the task, else the first unlabelled pair. */
export function keepFocus(r: ReviewView, focus: Pair | undefined): Pair | undefined {
  if (focus && r.attempts.some((a) => a.id === focus.attempt) && r.specs.includes(focus.spec)) return focus;
  return firstFocus(r);
}

/** Moves the focus one pair along the review order (wrapping). */
export function stepFocus(r: ReviewView, focus: Pair | undefined, delta: 1 | -1): Pair | undefined {
  const order = pairOrder(r);
  if (order.length === 0) return undefined;
  const i = focus ? order.findIndex((p) => p.attempt === focus.attempt && p.spec === focus.spec) : -1;
  return order[(i + delta + order.length) % order.length];
}

/** Moves to the same spec of the next or previous attempt (wrapping). */
export function stepAttempt(r: ReviewView, focus: Pair | undefined, delta: 1 | -1): Pair | undefined {
  if (r.attempts.length === 0) return focus;
  const spec = focus?.spec ?? r.specs[0];
  if (spec === undefined) return undefined;
  const i = focus ? r.attempts.findIndex((a) => a.id === focus.attempt) : -1;
  const next = r.attempts[(i + delta + r.attempts.length) % r.attempts.length];
  return next ? { attempt: next.id, spec } : focus;
}

/**
 * Where the focus goes after the viewer labelled `from`: the next pair after it (wrapping) that they have not
 * labelled, treating `labelled` (sent, not yet on screen) as done; undefined when every pair is labelled.
 */
export function nextUnlabelled(r: ReviewView, from: Pair, labelled: ReadonlySet<string> = new Set()): Pair | undefined {
  const order = pairOrder(r);
  const i = order.findIndex((p) => p.attempt === from.attempt && p.spec === from.spec);
  for (let k = 1; k <= order.length; k++) {
    const p = order[(i + k) % order.length] as Pair;
    if (p.attempt === from.attempt && p.spec === from.spec) continue;
    if (!cellOf(r, p)?.mine && !labelled.has(pairKey(p))) return p;
  }
  return undefined;
}

/** Pairs the viewer has not labelled yet. */
export function unlabelledCount(r: ReviewView, labelled: ReadonlySet<string> = new Set()): number {
  return r.cells.filter((c) => !c.mine && !labelled.has(pairKey(c))).length;
}

// ---- keys -------------------------------------------------------------------------------------------------------

export type ReviewKeyAction =
  | { kind: 'verdict'; verdict: CuratorVerdictView }
  | { kind: 'move'; delta: 1 | -1 }
  | { kind: 'attempt'; delta: 1 | -1 }
  | { kind: 'undo' }
  | { kind: 'skipTask' }
  | { kind: 'submitNext' }
  | { kind: 'note' }
  | { kind: 'acceptFinding' }
  | { kind: 'dismissFinding' }
  | { kind: 'help' };

export interface ReviewKeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  inTextField: boolean;
  /** Review mode is on (Enter and n act on the queue). */
  reviewMode: boolean;
}

/**
 * The review action a key asks for. Single keys only outside text fields and without modifiers, so typing a note
 * or a search never labels anything.
 */
export function reviewKeyAction(k: ReviewKeyPress): ReviewKeyAction | undefined {
  if (k.inTextField || k.ctrlKey || k.metaKey || k.altKey) return undefined;
  const verdict = VERDICT_KEYS[k.key];
  if (verdict && !k.shiftKey) return { kind: 'verdict', verdict };
  switch (k.key) {
    case 'j':
    case 'ArrowDown':
      return { kind: 'move', delta: 1 };
    case 'k':
    case 'ArrowUp':
      return { kind: 'move', delta: -1 };
    case 'l':
    case 'ArrowRight':
      return { kind: 'attempt', delta: 1 };
    case 'h':
    case 'ArrowLeft':
      return { kind: 'attempt', delta: -1 };
    case 'z':
      return { kind: 'undo' };
    case 'e':
      return { kind: 'note' };
    case 'y':
      return { kind: 'acceptFinding' };
    case 'x':
      return { kind: 'dismissFinding' };
    case '?':
      return { kind: 'help' };
    case 'n':
      return k.reviewMode ? { kind: 'skipTask' } : undefined;
    case 'Enter':
      return k.reviewMode ? { kind: 'submitNext' } : undefined;
    default:
      return undefined;
  }
}

export const REVIEW_KEYS_HELP: ReadonlyArray<readonly [string, string]> = [
  ['s / v / u', 'satisfied / violated / unsure for the focused pair, then on to the next unlabelled pair'],
  ['j k or \u2193 \u2191', 'next / previous pair (one attempt against every spec, then the next attempt)'],
  ['h l or \u2190 \u2192', 'same spec, previous / next attempt'],
  ['e', 'write a note on the focused pair (Esc leaves the note)'],
  ['y', "accept the review agent's finding on the focused pair as your label (its judgment, the finding as evidence)"],
  ['x', "dismiss the review agent's finding on the focused pair"],
  ['z', 'undo your last action (a new undo event)'],
  ['n', 'review mode: skip this task (it stays in the queue)'],
  ['Enter', 'review mode: submit this task and go to the next one'],
  ['?', 'show or hide these keys'],
];

// ---- text -------------------------------------------------------------------------------------------------------

/** How a link reads (the host's citations say it the same way). */
export { evidenceText };

export const evidenceKey = (l: EvidenceLinkView): string => JSON.stringify(l);

/** One line describing a pair for a tooltip or a screen reader. */
export function describeCell(c: ReviewCellView): string {
  const parts = [`${c.attempt} × ${c.spec}`, `verifier ${c.verifier}${c.verifierStale ? ' (stale run)' : ''}`, `you: ${c.mine?.verdict ?? 'not labelled'}`];
  if (c.others.length > 0) parts.push(`others: ${c.others.map((o) => `${o.curator} ${o.verdict}`).join(', ')}`);
  if (c.final) parts.push(`final: ${c.final}${c.from === 'adjudicated' ? ' (adjudicated)' : c.from === 'policy' ? ' (highest severity)' : ''}`);
  if (c.from === 'disagreement') parts.push('curators disagree');
  parts.push(`outcome: ${OUTCOME_TEXT[c.outcome]}`);
  return parts.join('; ');
}

// ---- drafts -----------------------------------------------------------------------------------------------------

export interface ScoresDraft {
  underspecified: number;
  fnSeverity: number;
  fpSeverity: number;
  envDefects: string[];
  otherIssues: string;
  difficulty: string;
  note: string;
}

/** What the curator has typed and not yet recorded, per task; it survives re-renders and failed requests. */
export class ReviewDrafts {
  taskId = '';
  /** Note per pair; undefined: take the recorded note. */
  readonly notes = new Map<string, string>();
  /** Evidence per pair while edited; undefined: the recorded links. */
  readonly evidence = new Map<string, EvidenceLinkView[]>();
  scores: ScoresDraft | undefined;
  waivers = new Map<string, string>();
  rejectReason = '';
  transitionNote = '';
  approveNote = '';
  /** Pairs labelled and sent, not yet in the model. */
  readonly sent = new Set<string>();

  /** Starts over for another task; a draft of the same task is kept. */
  forTask(taskId: string): void {
    if (taskId === this.taskId) return;
    this.taskId = taskId;
    this.notes.clear();
    this.evidence.clear();
    this.scores = undefined;
    this.waivers = new Map();
    this.rejectReason = '';
    this.transitionNote = '';
    this.approveNote = '';
    this.sent.clear();
  }

  noteOf(c: ReviewCellView): string {
    return this.notes.get(pairKey(c)) ?? c.mine?.note ?? '';
  }

  evidenceOf(c: ReviewCellView): EvidenceLinkView[] {
    return this.evidence.get(pairKey(c)) ?? c.mine?.evidence ?? [];
  }

  /** True when the pair has typed changes not recorded yet. */
  dirty(c: ReviewCellView): boolean {
    const k = pairKey(c);
    const n = this.notes.get(k);
    const e = this.evidence.get(k);
    return (n !== undefined && n !== (c.mine?.note ?? '')) || (e !== undefined && JSON.stringify(e) !== JSON.stringify(c.mine?.evidence ?? []));
  }

  /** After the label is on disk the recorded values are the truth again. */
  settled(p: Pair): void {
    this.notes.delete(pairKey(p));
    this.evidence.delete(pairKey(p));
  }

  scoresOf(r: ReviewView): ScoresDraft {
    if (this.scores) return this.scores;
    const m = r.scores.mine;
    return {
      underspecified: m?.underspecified ?? 0,
      fnSeverity: m?.fnSeverity ?? 0,
      fpSeverity: m?.fpSeverity ?? 0,
      envDefects: [...(m?.envDefects ?? [])],
      otherIssues: m?.otherIssues ?? '',
      difficulty: m?.difficulty ?? '',
      note: m?.note ?? '',
    };
  }
}
