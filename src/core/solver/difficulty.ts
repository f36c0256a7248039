// Difficulty from solve rates (issue 14, item 4), pure: per task, the share of its solver attempts the verifier
// resolves, overall and per model, with the number of attempts behind each rate; the "mixed success" band the
// CodeSpecWeave pipeline keeps (some solvers succeed some of the time: strictly between 0 and 1 by default); and the
// funnel imported -> in band -> reviewed -> approved. An attempt counts once it has a verdict: a verifier run of its
// current patch, else a result imported with it (a stale run still counts, as it does for outcomes, and is counted as
// stale). Attempts without either, or whose run went wrong (an infrastructure error, a run that cannot be trusted) or
// whose imported result says neither, are left out of the denominators and counted as `unverified`.
import type { CandidateTask } from '../model';
import type { AttemptVerifierResult, TaskVerifierResults } from '../review/verdicts';
import { withRecordedFallback } from '../review/verdicts';

export interface SolveRate {
  solved: number;
  /** Attempts with a verdict: the denominator. */
  attempts: number;
  /** solved / attempts; null with no attempt verdict. */
  rate: number | null;
}

export interface TaskDifficulty {
  overall: SolveRate;
  /** By the attempts' model ('' for an attempt that names none). */
  byModel: Record<string, SolveRate>;
  /** Attempts with no verdict yet. */
  unverified: number;
  /** Attempts whose verdict is from a run of an older patch or revision. */
  stale: number;
}

/** A band of solve rates: `low < rate < high`, or with `inclusive`, `low <= rate <= high`. */
export interface SolveBand {
  low: number;
  high: number;
  inclusive?: boolean;
}

/** The default band: some attempts solve it, some do not. */
export const MIXED_SUCCESS: SolveBand = { low: 0, high: 1 };

const rateOf = (solved: number, attempts: number): SolveRate => ({ solved, attempts, rate: attempts > 0 ? solved / attempts : null });

/** Run statuses that say nothing about the attempt (the run itself went wrong): no verdict. */
const NO_VERDICT = new Set(['infra_error', 'invalid']);

/** Solved, unsolved, or no verdict: a run that graded the attempt, an imported result that says resolved or not. */
function verdictOf(r: AttemptVerifierResult): boolean | undefined {
  if (r.source === 'recorded') return r.resolved;
  if (NO_VERDICT.has(r.status)) return undefined;
  return r.resolved === true || r.status === 'passed';
}

export function taskDifficulty(task: CandidateTask, results: TaskVerifierResults | undefined): TaskDifficulty {
  const all = withRecordedFallback(task, results);
  let solved = 0;
  let attempts = 0;
  let unverified = 0;
  let stale = 0;
  const models = new Map<string, { solved: number; attempts: number }>();
  for (const a of task.attempts) {
    const r = all.attempts[a.id];
    const ok = r ? verdictOf(r) : undefined;
    if (!r || ok === undefined) {
      unverified++;
      continue;
    }
    attempts++;
    if (ok) solved++;
    if (r.stale) stale++;
    const m = models.get(a.model) ?? { solved: 0, attempts: 0 };
    m.attempts++;
    if (ok) m.solved++;
    models.set(a.model, m);
  }
  const byModel: Record<string, SolveRate> = {};
  for (const [m, c] of [...models].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))) byModel[m] = rateOf(c.solved, c.attempts);
  return { overall: rateOf(solved, attempts), byModel, unverified, stale };
}

/** Whether a task's overall solve rate is in the band (a task without any attempt verdict never is). */
export function inBand(d: TaskDifficulty, band: SolveBand = MIXED_SUCCESS): boolean {
  const r = d.overall.rate;
  if (r === null) return false;
  return band.inclusive ? r >= band.low && r <= band.high : r > band.low && r < band.high;
}

/** Parses a band written `LOW..HIGH` (exclusive) or `[LOW,HIGH]` (inclusive), each a share from 0 to 1. */
export function parseBand(text: string): { ok: true; band: SolveBand } | { ok: false; message: string } {
  const t = text.trim();
  const incl = /^\[\s*([0-9.]+)\s*,\s*([0-9.]+)\s*\]$/.exec(t);
  const excl = /^([0-9.]+)\s*\.\.\s*([0-9.]+)$/.exec(t);
  const m = incl ?? excl;
  if (!m) return { ok: false, message: `band "${t.slice(0, 40)}": expected LOW..HIGH (strictly between) or [LOW,HIGH] (inclusive), shares from 0 to 1` };
  const low = Number(m[1]);
  const high = Number(m[2]);
  if (!Number.isFinite(low) || !Number.isFinite(high) || low < 0 || high > 1 || low > high) return { ok: false, message: `band "${t.slice(0, 40)}": LOW and HIGH must be shares from 0 to 1 with LOW <= HIGH` };
  return { ok: true, band: { low, high, ...(incl ? { inclusive: true } : {}) } };
}

export interface DifficultyFunnel {
  imported: number;
  /** Tasks with at least one attempt verdict. */
  measured: number;
  inBand: number;
  /** In the band and reviewed (a status past candidate and in_review, or submitted by a curator: `reviewed` says). */
  reviewed: number;
  approved: number;
}

/** The CodeSpecWeave funnel: imported -> in band -> reviewed -> approved (each step within the one before). */
export function difficultyFunnel(
  tasks: readonly CandidateTask[],
  difficulty: (task: CandidateTask) => TaskDifficulty,
  reviewed: (task: CandidateTask) => boolean,
  approved: (task: CandidateTask) => boolean,
  band: SolveBand = MIXED_SUCCESS,
): DifficultyFunnel {
  const f: DifficultyFunnel = { imported: tasks.length, measured: 0, inBand: 0, reviewed: 0, approved: 0 };
  for (const t of tasks) {
    const d = difficulty(t);
    if (d.overall.attempts > 0) f.measured++;
    if (!inBand(d, band)) continue;
    f.inBand++;
    if (!reviewed(t)) continue;
    f.reviewed++;
    if (approved(t)) f.approved++;
  }
  return f;
}

/** Measured tasks by where a rate falls: never solved, in the band, always solved, and outside a custom band. */
export interface SolveBuckets {
  neverSolved: number;
  inBand: number;
  alwaysSolved: number;
  otherOutside: number;
}

/** Bins of the rate histogram: [0, 0.1), [0.1, 0.2), ... [0.9, 1]. */
export const RATE_BINS = 10;

/** Solve rates across a dataset: per task (where measured), the funnel, and per model over all its attempts. */
export interface DatasetDifficulty {
  band: SolveBand;
  funnel: DifficultyFunnel;
  /** Measured tasks by where their rate falls: never solved, in the band, always solved (and outside a custom band). */
  tasks: { unmeasured: number } & SolveBuckets;
  byModel: Record<string, SolveRate>;
  /** Measured tasks by overall rate, `RATE_BINS` bins ([0, 0.1) ... [0.9, 1]). */
  histogram: number[];
  /** Per model, the tasks it has attempt verdicts on, by its own rate on each: never, sometimes (`inBand` of the
   * default band, whatever `band` is), always solved. */
  tasksByModel: Record<string, SolveBuckets>;
}

/** Where a measured rate falls (the band first: a custom band may hold 0 or 1). */
export function bucketOf(rate: number, band: SolveBand = MIXED_SUCCESS): keyof SolveBuckets {
  if (band.inclusive ? rate >= band.low && rate <= band.high : rate > band.low && rate < band.high) return 'inBand';
  if (rate === 0) return 'neverSolved';
  if (rate === 1) return 'alwaysSolved';
  return 'otherOutside';
}

const emptyBuckets = (): SolveBuckets => ({ neverSolved: 0, inBand: 0, alwaysSolved: 0, otherOutside: 0 });

export function datasetDifficulty(
  tasks: readonly CandidateTask[],
  difficulty: (task: CandidateTask) => TaskDifficulty,
  reviewed: (task: CandidateTask) => boolean,
  approved: (task: CandidateTask) => boolean,
  band: SolveBand = MIXED_SUCCESS,
): DatasetDifficulty {
  const counts = { unmeasured: 0, ...emptyBuckets() };
  const histogram = new Array<number>(RATE_BINS).fill(0);
  const models = new Map<string, { solved: number; attempts: number }>();
  const modelBuckets = new Map<string, SolveBuckets>();
  const memo = new Map<CandidateTask, TaskDifficulty>();
  const of = (t: CandidateTask) => {
    let d = memo.get(t);
    if (!d) memo.set(t, (d = difficulty(t)));
    return d;
  };
  for (const t of tasks) {
    const d = of(t);
    for (const [m, r] of Object.entries(d.byModel)) {
      const c = models.get(m) ?? { solved: 0, attempts: 0 };
      c.solved += r.solved;
      c.attempts += r.attempts;
      models.set(m, c);
      if (r.rate !== null) {
        const b = modelBuckets.get(m) ?? emptyBuckets();
        b[bucketOf(r.rate)]++;
        modelBuckets.set(m, b);
      }
    }
    const r = d.overall.rate;
    if (r === null) {
      counts.unmeasured++;
      continue;
    }
    counts[bucketOf(r, band)]++;
    const bin = Math.min(RATE_BINS - 1, Math.floor(r * RATE_BINS));
    histogram[bin] = (histogram[bin] ?? 0) + 1;
  }
  const byModel: Record<string, SolveRate> = {};
  const tasksByModel: Record<string, SolveBuckets> = {};
  for (const [m, c] of [...models].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))) {
    byModel[m] = rateOf(c.solved, c.attempts);
    tasksByModel[m] = modelBuckets.get(m) ?? emptyBuckets();
  }
  return { band, funnel: difficultyFunnel(tasks, of, reviewed, approved, band), tasks: counts, byModel, histogram, tasksByModel };
}

/** A band as `parseBand` reads it: `LOW..HIGH` (strictly between) or `[LOW,HIGH]` (inclusive). */
export function bandText(band: SolveBand): string {
  return band.inclusive ? `[${band.low},${band.high}]` : `${band.low}..${band.high}`;
}

/**
 * The band a setting asks for: its text parsed, or the default band with the problem said, naming the setting (a
 * value nobody can read must not silently filter by another band).
 */
export function bandFromSetting(raw: unknown, setting: string): { band: SolveBand; problem?: string } {
  const fallback = `; using the default ${bandText(MIXED_SUCCESS)} (mixed success: strictly between 0 and 1)`;
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return { band: MIXED_SUCCESS };
  if (typeof raw !== 'string') return { band: MIXED_SUCCESS, problem: `${setting} must be a text such as 0..1 or [0.2,0.8], not ${typeof raw}${fallback}` };
  const b = parseBand(raw);
  return b.ok ? { band: b.band } : { band: MIXED_SUCCESS, problem: `${setting} ${b.message.replace(/^band /, '')}${fallback}` };
}
