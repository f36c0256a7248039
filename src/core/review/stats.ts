// Curation statistics, pure: the false-positive / false-negative breakdown of reviewed tasks (the table the field
// reports), defect rates by spec category and by solver model, agreement, the funnel, curator throughput.
import type { CandidateTask, TaskStatus } from '../model';
import { TASK_STATUSES } from '../model';
import type { AgreementFigure } from './agreement';
import { agreementFigure } from './agreement';
import type { ConsensusPolicy } from './consensus';
import { DIFFICULTIES, SEVERITY_FIELDS } from './events';
import type { ReviewState, TaskReviewState } from './reducer';
import { cellKey } from './reducer';
import { assessTask } from './taskReview';
import type { VerifierVerdicts } from './verdicts';
import { FN_FLAG_KINDS, FP_FLAG_KINDS } from './verdicts';

export interface StatsInput {
  tasks: readonly CandidateTask[];
  state: ReviewState;
  verdicts?: VerifierVerdicts;
  policy?: ConsensusPolicy;
}

export interface DefectRate {
  /** Cells (attempt × spec) whose outcome is decided: true pass, true fail, false positive or false negative. */
  decided: number;
  falsePositives: number;
  falseNegatives: number;
  /** Shares of `decided`; undefined when nothing is decided. */
  fpRate?: number;
  fnRate?: number;
}

export interface CurationStats {
  policy: ConsensusPolicy;
  funnel: { imported: number; reviewed: number; approved: number; rejected: number };
  byStatus: Record<TaskStatus, number>;
  /**
   * Reviewed tasks (someone submitted them, or they went past review: flagged, needs repair, repaired, revalidated,
   * approved, rejected) by what the review found.
   */
  breakdown: {
    reviewed: number;
    falsePositivesOnly: number;
    falseNegativesOnly: number;
    both: number;
    none: number;
    /** The four counts as shares of `reviewed` (undefined with no reviewed task). */
    shares?: { falsePositivesOnly: number; falseNegativesOnly: number; both: number; none: number };
  };
  byCategory: Array<DefectRate & { category: string; specs: number }>;
  bySolver: Array<DefectRate & { model: string; attempts: number; attemptsWithFalsePositive: number; attemptsWithFalseNegative: number }>;
  agreement: AgreementFigure[];
  /** Events per curator per UTC day, by curator then day. */
  throughput: Array<{ curator: string; day: string; events: number }>;
  curators: Array<{ curator: string; events: number; labels: number; tasks: number }>;
  disagreements: { open: number; settled: number };
  suggestions: { open: number; confirmed: number; dismissed: number };
  /** How many tasks got each final score (index = score 0..3, or the difficulty bucket in order). */
  scores: Record<'underspecified' | 'fnSeverity' | 'fpSeverity', number[]> & { difficulty: Record<string, number> };
  log: { events: number; undone: number; issues: number };
}

const POST_REVIEW: ReadonlySet<TaskStatus> = new Set(['flagged', 'needs_repair', 'repaired', 'revalidated', 'approved', 'rejected']);

export function isReviewed(st: TaskReviewState | undefined): boolean {
  return st !== undefined && (st.submitted.size > 0 || POST_REVIEW.has(st.status));
}

const rate = (r: DefectRate): DefectRate => ({
  ...r,
  ...(r.decided > 0 ? { fpRate: r.falsePositives / r.decided, fnRate: r.falseNegatives / r.decided } : {}),
});

export function curationStats(input: StatsInput): CurationStats {
  const policy = input.policy ?? 'adjudicate';
  const byStatus = Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as Record<TaskStatus, number>;
  const breakdown = { reviewed: 0, falsePositivesOnly: 0, falseNegativesOnly: 0, both: 0, none: 0 };
  const cats = new Map<string, DefectRate & { specs: number }>();
  const solvers = new Map<string, DefectRate & { attempts: number; attemptsWithFalsePositive: number; attemptsWithFalseNegative: number }>();
  const disagreements = { open: 0, settled: 0 };
  const suggestions = { open: 0, confirmed: 0, dismissed: 0 };
  const scores = {
    underspecified: [0, 0, 0, 0],
    fnSeverity: [0, 0, 0, 0],
    fpSeverity: [0, 0, 0, 0],
    difficulty: Object.fromEntries(DIFFICULTIES.map((d) => [d, 0])) as Record<string, number>,
  };
  const verdictRatings = new Map<string, Map<string, string>>();
  const scoreRatings = new Map<string, Map<string, Map<string, number>>>([...SEVERITY_FIELDS, 'difficulty'].map((f) => [f, new Map()]));

  for (const task of input.tasks) {
    const st = input.state.tasks.get(task.id);
    byStatus[st?.status ?? 'candidate']++;
    const category = new Map(task.specs.map((s) => [s.id, s.category]));
    for (const s of task.specs) {
      let c = cats.get(s.category);
      if (!c) cats.set(s.category, (c = { decided: 0, falsePositives: 0, falseNegatives: 0, specs: 0 }));
      c.specs++;
    }
    const model = new Map(task.attempts.map((a) => [a.id, a.model]));
    const attemptDefects = new Map<string, { fp: boolean; fn: boolean }>();
    for (const a of task.attempts) {
      let s = solvers.get(a.model);
      if (!s) solvers.set(a.model, (s = { decided: 0, falsePositives: 0, falseNegatives: 0, attempts: 0, attemptsWithFalsePositive: 0, attemptsWithFalseNegative: 0 }));
      s.attempts++;
      attemptDefects.set(a.id, { fp: false, fn: false });
    }
    if (!st) continue;

    const a = assessTask({ task, state: st, ...(input.verdicts?.[task.id] ? { verifier: input.verdicts[task.id] } : {}), policy });
    let fp = false;
    let fn = false;
    for (const c of a.cells) {
      if (c.disagreement) disagreements[c.from === 'disagreement' ? 'open' : 'settled']++;
      if (c.outcome === 'undecided') continue;
      const isFp = c.outcome === 'false_positive';
      const isFn = c.outcome === 'false_negative';
      fp ||= isFp;
      fn ||= isFn;
      const cat = cats.get(category.get(c.spec) as string);
      const sol = solvers.get(model.get(c.attempt) as string);
      for (const r of [cat, sol]) {
        if (!r) continue;
        r.decided++;
        if (isFp) r.falsePositives++;
        if (isFn) r.falseNegatives++;
      }
      const d = attemptDefects.get(c.attempt);
      if (d) {
        d.fp ||= isFp;
        d.fn ||= isFn;
      }
    }
    for (const s of a.suggestions) {
      if (s.open) suggestions.open++;
      else if (s.decision?.decision === 'confirmed') {
        suggestions.confirmed++;
        fp ||= FP_FLAG_KINDS.includes(s.kind);
        fn ||= FN_FLAG_KINDS.includes(s.kind);
      } else suggestions.dismissed++;
    }
    for (const [id, d] of attemptDefects) {
      const sol = solvers.get(model.get(id) as string);
      if (!sol) continue;
      if (d.fp) sol.attemptsWithFalsePositive++;
      if (d.fn) sol.attemptsWithFalseNegative++;
    }
    disagreements.open += a.scores.open.length;
    disagreements.settled += a.scores.disagreements.length - a.scores.open.length;
    for (const f of SEVERITY_FIELDS) {
      const v = a.scores.final[f];
      if (v !== undefined) scores[f][v] = (scores[f][v] ?? 0) + 1;
    }
    const diff = a.scores.final.difficulty;
    if (diff) scores.difficulty[diff] = (scores.difficulty[diff] ?? 0) + 1;

    if (isReviewed(st)) {
      breakdown.reviewed++;
      if (fp && fn) breakdown.both++;
      else if (fp) breakdown.falsePositivesOnly++;
      else if (fn) breakdown.falseNegativesOnly++;
      else breakdown.none++;
    }

    // Agreement: current labels on cells the task still has; scores per task.
    for (const [curator, labels] of st.labels) {
      for (const l of labels.values()) {
        if (l.stale || !model.has(l.attempt) || !category.has(l.spec)) continue;
        const unit = `${task.id}\u0000${cellKey(l.attempt, l.spec)}`;
        let u = verdictRatings.get(unit);
        if (!u) verdictRatings.set(unit, (u = new Map()));
        u.set(curator, l.verdict);
      }
    }
    for (const [curator, s] of st.scores) {
      for (const f of SEVERITY_FIELDS) put(scoreRatings.get(f), task.id, curator, s.score[f]);
      if (s.score.difficulty) put(scoreRatings.get('difficulty'), task.id, curator, DIFFICULTIES.indexOf(s.score.difficulty));
    }
  }

  const agreement: AgreementFigure[] = [
    agreementFigure('verdict', 'nominal', verdictRatings),
    ...SEVERITY_FIELDS.map((f) => agreementFigure(f, 'ordinal', scoreRatings.get(f) as Map<string, Map<string, number>>, true)),
    agreementFigure('difficulty', 'ordinal', scoreRatings.get('difficulty') as Map<string, Map<string, number>>),
  ];

  const perDay = new Map<string, number>();
  const perCurator = new Map<string, { events: number; labels: number; tasks: Set<string> }>();
  let undone = 0;
  let issues = input.state.issues.length;
  for (const st of input.state.tasks.values()) {
    undone += st.undone.size;
    issues += st.issues.length;
  }
  for (const e of input.state.events) {
    const key = `${e.curator}\u0000${e.time.slice(0, 10)}`;
    perDay.set(key, (perDay.get(key) ?? 0) + 1);
    let c = perCurator.get(e.curator);
    if (!c) perCurator.set(e.curator, (c = { events: 0, labels: 0, tasks: new Set() }));
    c.events++;
    if (e.kind === 'label') c.labels++;
    c.tasks.add(e.task);
  }
  const throughput = [...perDay]
    .map(([k, events]) => {
      const [curator, day] = k.split('\u0000') as [string, string];
      return { curator, day, events };
    })
    .sort((x, y) => (x.curator !== y.curator ? (x.curator < y.curator ? -1 : 1) : x.day < y.day ? -1 : x.day > y.day ? 1 : 0));

  const reviewed = breakdown.reviewed;
  return {
    policy,
    funnel: { imported: input.tasks.length, reviewed, approved: byStatus.approved, rejected: byStatus.rejected },
    byStatus,
    breakdown: {
      ...breakdown,
      ...(reviewed > 0
        ? {
            shares: {
              falsePositivesOnly: breakdown.falsePositivesOnly / reviewed,
              falseNegativesOnly: breakdown.falseNegativesOnly / reviewed,
              both: breakdown.both / reviewed,
              none: breakdown.none / reviewed,
            },
          }
        : {}),
    },
    byCategory: [...cats].map(([category, r]) => ({ category, ...rate(r), specs: r.specs })).sort((a, b) => (a.category < b.category ? -1 : 1)),
    bySolver: [...solvers]
      .map(([model, r]) => ({ model, ...rate(r), attempts: r.attempts, attemptsWithFalsePositive: r.attemptsWithFalsePositive, attemptsWithFalseNegative: r.attemptsWithFalseNegative }))
      .sort((a, b) => (a.model < b.model ? -1 : 1)),
    agreement,
    throughput,
    curators: [...perCurator]
      .map(([curator, c]) => ({ curator, events: c.events, labels: c.labels, tasks: c.tasks.size }))
      .sort((a, b) => (a.curator < b.curator ? -1 : 1)),
    disagreements,
    suggestions,
    scores,
    log: { events: input.state.events.length, undone, issues },
  };
}

function put(m: Map<string, Map<string, number>> | undefined, unit: string, curator: string, v: number): void {
  if (!m) return;
  let u = m.get(unit);
  if (!u) m.set(unit, (u = new Map()));
  u.set(curator, v);
}
