// Curation statistics, pure: the false-positive / false-negative breakdown of reviewed tasks (the table the field
// reports), defect rates by spec category and by solver model, agreement, the funnel, curator throughput.
import type { CandidateTask, TaskStatus } from '../model';
import { TASK_STATUSES } from '../model';
import type { AgreementFigure } from './agreement';
import { AgreementAccumulator } from './agreement';
import type { ConsensusPolicy } from './consensus';
import { scoreConsensus } from './consensus';
import { DIFFICULTIES, SEVERITY_FIELDS } from './events';
import type { LabelRecord, ReviewState, TaskReviewState } from './reducer';
import { scanCells } from './taskReview';
import type { VerifierVerdicts } from './verdicts';
import { FN_FLAG_KINDS, FP_FLAG_KINDS, withRecordedFallback } from './verdicts';

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

const everyone = () => true;
const curatorOf = (l: LabelRecord) => l.curator;
const verdictOf = (l: LabelRecord) => l.verdict;

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
  const verdictAgreement = new AgreementAccumulator('verdict', 'nominal');
  const severityAgreement = SEVERITY_FIELDS.map((f) => new AgreementAccumulator(f, 'ordinal', true));
  const difficultyAgreement = new AgreementAccumulator('difficulty', 'ordinal');

  type Rate = DefectRate & { specs?: number };
  type Solver = DefectRate & { attempts: number; attemptsWithFalsePositive: number; attemptsWithFalseNegative: number };
  for (const task of input.tasks) {
    const st = input.state.tasks.get(task.id);
    byStatus[st?.status ?? 'candidate']++;
    // Cells come attempt-major, specs in task order: cell i is attempt i / specs, spec i % specs.
    const catOf: Rate[] = task.specs.map((s) => {
      let c = cats.get(s.category);
      if (!c) cats.set(s.category, (c = { decided: 0, falsePositives: 0, falseNegatives: 0, specs: 0 }));
      c.specs++;
      return c;
    });
    const solverOf: Solver[] = task.attempts.map((a) => {
      let s = solvers.get(a.model);
      if (!s) solvers.set(a.model, (s = { decided: 0, falsePositives: 0, falseNegatives: 0, attempts: 0, attemptsWithFalsePositive: 0, attemptsWithFalseNegative: 0 }));
      s.attempts++;
      return s;
    });
    if (!st) continue;

    const verifier = withRecordedFallback(task, input.verdicts?.[task.id]);
    let fp = false;
    let fn = false;
    const nSpecs = task.specs.length;
    let attemptFp = false;
    let attemptFn = false;
    scanCells(task, st, verifier, policy, everyone, (c) => {
      // Agreement units: the current labels on every (attempt, spec) the task has.
      if (c.current.length > 0) verdictAgreement.addBy(c.current, curatorOf, verdictOf);
      if (c.consensus.disagreement) disagreements[c.consensus.from === 'disagreement' ? 'open' : 'settled']++;
      if (c.outcome !== 'undecided') {
        const isFp = c.outcome === 'false_positive';
        const isFn = c.outcome === 'false_negative';
        const cat = catOf[c.specIndex] as Rate;
        const sol = solverOf[c.attemptIndex] as Solver;
        cat.decided++;
        sol.decided++;
        if (isFp) {
          fp = attemptFp = true;
          cat.falsePositives++;
          sol.falsePositives++;
        }
        if (isFn) {
          fn = attemptFn = true;
          cat.falseNegatives++;
          sol.falseNegatives++;
        }
      }
      if (c.specIndex === nSpecs - 1) {
        const sol = solverOf[c.attemptIndex] as Solver;
        if (attemptFp) sol.attemptsWithFalsePositive++;
        if (attemptFn) sol.attemptsWithFalseNegative++;
        attemptFp = attemptFn = false;
      }
    });
    for (const f of verifier.flags) {
      const d = st.flagDecisions.get(f.id);
      if (!d) suggestions.open++;
      else if (d.decision === 'confirmed') {
        suggestions.confirmed++;
        fp ||= FP_FLAG_KINDS.includes(f.kind);
        fn ||= FN_FLAG_KINDS.includes(f.kind);
      } else suggestions.dismissed++;
    }
    const sc = scoreConsensus(st.scores.size <= 1 ? [...st.scores.values()] : [...st.scores.values()].sort((x, y) => (x.curator < y.curator ? -1 : 1)), st.adjudications, policy);
    disagreements.open += sc.open.length;
    disagreements.settled += sc.disagreements.length - sc.open.length;
    for (const f of SEVERITY_FIELDS) {
      const v = sc.final[f];
      if (v !== undefined) scores[f][v] = (scores[f][v] ?? 0) + 1;
    }
    const diff = sc.final.difficulty;
    if (diff) scores.difficulty[diff] = (scores.difficulty[diff] ?? 0) + 1;

    if (isReviewed(st)) {
      breakdown.reviewed++;
      if (fp && fn) breakdown.both++;
      else if (fp) breakdown.falsePositivesOnly++;
      else if (fn) breakdown.falseNegativesOnly++;
      else breakdown.none++;
    }

    if (st.scores.size > 0) {
      const scores = [...st.scores.values()];
      SEVERITY_FIELDS.forEach((f, i) => severityAgreement[i]?.add(scores.map((x) => [x.curator, x.score[f]] as const)));
      difficultyAgreement.add(scores.filter((x) => x.score.difficulty).map((x) => [x.curator, DIFFICULTIES.indexOf(x.score.difficulty as (typeof DIFFICULTIES)[number])] as const));
    }
  }

  const agreement: AgreementFigure[] = [verdictAgreement.result(), ...severityAgreement.map((a) => a.result()), difficultyAgreement.result()];

  const perDay = new Map<string, Map<string, number>>();
  const perCurator = new Map<string, { events: number; labels: number; tasks: number }>();
  let undone = 0;
  let issues = input.state.issues.length;
  for (const st of input.state.tasks.values()) {
    undone += st.undone.size;
    issues += st.issues.length;
    const seen: string[] = [];
    // Run-length counting: a task's events come in time order, mostly several in a row by one curator on one day.
    let day = '';
    let curator = '';
    let run = 0;
    let days: Map<string, number> | undefined;
    const flush = () => {
      if (run > 0 && days) days.set(day, (days.get(day) ?? 0) + run);
      run = 0;
    };
    for (const e of st.events) {
      if (e.curator !== curator || !e.time.startsWith(day)) {
        flush();
        curator = e.curator;
        day = e.time.slice(0, 10);
        days = perDay.get(curator);
        if (!days) perDay.set(curator, (days = new Map()));
      }
      run++;
      let who = perCurator.get(curator);
      if (!who) perCurator.set(curator, (who = { events: 0, labels: 0, tasks: 0 }));
      if (!seen.includes(curator)) {
        seen.push(curator);
        who.tasks++;
      }
      who.events++;
      if (e.kind === 'label') who.labels++;
    }
    flush();
  }
  const throughput = [...perDay]
    .flatMap(([curator, days]) => [...days].map(([day, events]) => ({ curator, day, events })))
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
      .map(([curator, c]) => ({ curator, events: c.events, labels: c.labels, tasks: c.tasks }))
      .sort((a, b) => (a.curator < b.curator ? -1 : 1)),
    disagreements,
    suggestions,
    scores,
    log: { events: input.state.events.length, undone, issues },
  };
}

