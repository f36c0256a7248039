// The Candidates list: one row per task with what the tree shows and filters on, and filtering and sorting as a
// pure function (it runs on every keystroke of the text filter over datasets of 15,000 tasks).
import { TASK_STATUSES } from '../model';
import type { Attempt, CandidateTask, TaskStatus } from '../model';
import type { AttemptVerifierResult } from '../review/verdicts';
import type { SolveBand, TaskDifficulty } from '../solver/difficulty';
import { MIXED_SUCCESS, inBand } from '../solver/difficulty';

/** What an attempt's recorded or own verifier results say. */
export type AttemptOutcome = 'passed' | 'failed' | 'notRun';
export const ATTEMPT_OUTCOMES: readonly AttemptOutcome[] = ['passed', 'failed', 'notRun'];
export const OUTCOME_LABELS: Record<AttemptOutcome, string> = { passed: 'passed', failed: 'failed', notRun: 'not run' };

export interface TaskRow {
  id: string;
  title: string;
  status: TaskStatus;
  categories: readonly string[];
  /** The solver models of the task's attempts. */
  models: readonly string[];
  /** Outcomes of the task's attempts (a task matches an outcome filter when any attempt has it). */
  outcomes: readonly AttemptOutcome[];
  specs: number;
  tests: number;
  attempts: number;
  /** The review agent's current findings that are candidates nobody accepted or dismissed yet (core/findings/current.ts). */
  unconfirmedFindings: number;
  /** Lower-case text the text filter searches: id, title, repository, attempt models and agents. */
  haystack: string;
}

export interface CandidateFilter {
  statuses: readonly TaskStatus[];
  categories: readonly string[];
  outcomes: readonly AttemptOutcome[];
  /** Only tasks with an attempt by one of these solver models (`Attempt.model`). */
  models?: readonly string[];
  text: string;
  /** Only tasks with unconfirmed findings of the review agent. */
  unconfirmedFindings?: boolean;
  /** Only tasks whose solve rate is in the band ("mixed success": some attempts solve it, some do not). */
  mixedSuccess?: boolean;
}

/** What filtering and sorting by solve rate need: the band, and each row's rates (asked only when they are used). */
export interface DifficultyLookup {
  band: SolveBand;
  of(row: TaskRow): TaskDifficulty | undefined;
}

export const CANDIDATE_SORTS = ['id', 'title', 'status', 'specs', 'tests', 'attempts', 'findings', 'solveRate'] as const;
export type CandidateSort = (typeof CANDIDATE_SORTS)[number];
export const SORT_LABELS: Record<CandidateSort, string> = {
  id: 'Task id',
  title: 'Title',
  status: 'Review status',
  specs: 'Number of specs (most first)',
  tests: 'Number of tests (most first)',
  attempts: 'Number of attempts (most first)',
  findings: 'Unconfirmed findings of the review agent (most first)',
  solveRate: 'Solve rate (lowest first; tasks without attempt verdicts last)',
};

export const EMPTY_FILTER: CandidateFilter = { statuses: [], categories: [], outcomes: [], text: '' };

/**
 * The outcome our own verifier run gives an attempt (the result the task view shows): passed when it resolved, failed
 * when its tests graded it unresolved or it ran out of time, memory or disk or did not apply. No outcome when there is
 * no run of ours or the run gave no verdict (an infrastructure error, an invalid task): the imported results decide.
 */
export function runOutcome(r: AttemptVerifierResult | undefined): AttemptOutcome | undefined {
  if (!r || r.source !== 'run') return undefined;
  if (r.status === 'infra_error' || r.status === 'invalid') return undefined;
  return r.status === 'passed' ? 'passed' : 'failed';
}

/** The outcome of an attempt from results recorded with it; `own` (our own verifier runs) speaks first. */
export function attemptOutcome(a: Attempt, own?: AttemptOutcome): AttemptOutcome {
  if (own && own !== 'notRun') return own;
  const r = a.recordedResults[a.recordedResults.length - 1];
  if (!r) return 'notRun';
  if (r.resolved === true || r.status === 'resolved') return 'passed';
  if (r.resolved === false || r.status === 'unresolved' || r.status === 'error' || r.status === 'empty_patch') return 'failed';
  return 'notRun';
}

export function taskRow(task: CandidateTask, status: TaskStatus, ownOutcome?: (taskId: string, attemptId: string) => AttemptOutcome | undefined, unconfirmedFindings = 0): TaskRow {
  const outcomes = new Set<AttemptOutcome>();
  for (const a of task.attempts) outcomes.add(attemptOutcome(a, ownOutcome?.(task.id, a.id)));
  return {
    id: task.id,
    title: task.title,
    status,
    categories: [...new Set(task.specs.map((s) => s.category))],
    models: [...new Set(task.attempts.map((a) => a.model))],
    outcomes: [...outcomes],
    specs: task.specs.length,
    tests: task.tests.length,
    attempts: task.attempts.length,
    unconfirmedFindings,
    haystack: [task.id, task.title, task.repo.name, ...task.attempts.flatMap((a) => [a.model, a.agent])].join('\n').toLowerCase(),
  };
}

export function isFiltered(f: CandidateFilter): boolean {
  return f.statuses.length > 0 || f.categories.length > 0 || f.outcomes.length > 0 || (f.models?.length ?? 0) > 0 || f.text.trim().length > 0 || f.unconfirmedFindings === true || f.mixedSuccess === true;
}

const statusRank = new Map<string, number>(TASK_STATUSES.map((s, i) => [s, i]));
const byId = (a: TaskRow, b: TaskRow): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const comparators: Record<CandidateSort, (a: TaskRow, b: TaskRow) => number> = {
  id: byId,
  title: (a, b) => a.title.localeCompare(b.title) || byId(a, b),
  status: (a, b) => (statusRank.get(a.status) ?? 99) - (statusRank.get(b.status) ?? 99) || byId(a, b),
  specs: (a, b) => b.specs - a.specs || byId(a, b),
  tests: (a, b) => b.tests - a.tests || byId(a, b),
  attempts: (a, b) => b.attempts - a.attempts || byId(a, b),
  findings: (a, b) => b.unconfirmedFindings - a.unconfirmedFindings || byId(a, b),
  // Without rates (no lookup) the order is the id's; `filterAndSort` sorts by rate when it has them.
  solveRate: byId,
};

/** "solved 3/8" for a task with attempt verdicts; undefined without any. */
export function solvedText(d: TaskDifficulty | undefined): string | undefined {
  return d && d.overall.attempts > 0 ? `solved ${d.overall.solved}/${d.overall.attempts}` : undefined;
}

/** A rate as a percentage with its counts: "50% (1/2)"; "–" without attempt verdicts. */
export function rateText(r: { solved: number; attempts: number; rate: number | null }): string {
  return r.rate === null ? '–' : `${Math.round(r.rate * 100)}% (${r.solved}/${r.attempts})`;
}

/**
 * The rows that pass the filter, sorted. Within one facet the choices are alternatives (any of them); facets
 * combine (all of them). The text filter matches every white-space separated word, case-insensitively.
 */
export function filterAndSort(rows: readonly TaskRow[], f: CandidateFilter, sort: CandidateSort = 'id', difficulty?: DifficultyLookup): TaskRow[] {
  const band = difficulty?.band ?? MIXED_SUCCESS;
  const statuses = f.statuses.length > 0 ? new Set<string>(f.statuses) : undefined;
  const categories = f.categories.length > 0 ? new Set(f.categories) : undefined;
  const outcomes = f.outcomes.length > 0 ? new Set(f.outcomes) : undefined;
  const models = f.models && f.models.length > 0 ? new Set(f.models) : undefined;
  const words = f.text.toLowerCase().split(/\s+/).filter(Boolean);
  const out = rows.filter(
    (r) =>
      (!statuses || statuses.has(r.status)) &&
      (!categories || r.categories.some((c) => categories.has(c))) &&
      (!outcomes || r.outcomes.some((o) => outcomes.has(o))) &&
      (!models || r.models.some((m) => models.has(m))) &&
      (f.unconfirmedFindings !== true || r.unconfirmedFindings > 0) &&
      words.every((w) => r.haystack.includes(w)) &&
      // Last: the rates are looked up only for rows every cheaper facet kept.
      (f.mixedSuccess !== true || isInBand(difficulty?.of(r), band)),
  );
  // `title` sorts with localeCompare, which is slow over 15,000 rows: use a collator built once.
  if (sort === 'title') {
    const coll = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
    return out.sort((a, b) => coll.compare(a.title, b.title) || byId(a, b));
  }
  if (sort === 'solveRate' && difficulty) {
    // Rates looked up once per row, not once per comparison; no verdict sorts after every rate.
    const keyed = out.map((row) => ({ row, rate: difficulty.of(row)?.overall.rate ?? 2 }));
    keyed.sort((a, b) => a.rate - b.rate || byId(a.row, b.row));
    return keyed.map((k) => k.row);
  }
  return out.sort(comparators[sort]);
}

const isInBand = (d: TaskDifficulty | undefined, band: SolveBand): boolean => d !== undefined && inBand(d, band);

/** Every solver model of the rows' attempts, most tasks first, with the number of tasks it attempted. */
export function modelCounts(rows: readonly TaskRow[]): Array<{ model: string; tasks: number }> {
  const m = new Map<string, number>();
  for (const r of rows) for (const x of r.models) m.set(x, (m.get(x) ?? 0) + 1);
  return [...m].map(([model, tasks]) => ({ model, tasks })).sort((a, b) => b.tasks - a.tasks || (a.model < b.model ? -1 : 1));
}

/** Every spec category used by the rows, sorted, with the number of tasks using it. */
export function categoryCounts(rows: readonly TaskRow[]): Array<{ category: string; tasks: number }> {
  const m = new Map<string, number>();
  for (const r of rows) for (const c of r.categories) m.set(c, (m.get(c) ?? 0) + 1);
  return [...m].map(([category, tasks]) => ({ category, tasks })).sort((a, b) => (a.category < b.category ? -1 : 1));
}

/** A stored filter from an older version or a hand-edited state: keeps what is still valid. */
export function sanitizeFilter(raw: unknown): CandidateFilter {
  const o = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(0, 200) : []);
  return {
    statuses: strings(o.statuses).filter((s): s is TaskStatus => (TASK_STATUSES as readonly string[]).includes(s)),
    categories: strings(o.categories),
    outcomes: strings(o.outcomes).filter((s): s is AttemptOutcome => (ATTEMPT_OUTCOMES as readonly string[]).includes(s)),
    text: typeof o.text === 'string' ? o.text.slice(0, 500) : '',
    ...(strings(o.models).length > 0 ? { models: strings(o.models) } : {}),
    ...(o.unconfirmedFindings === true ? { unconfirmedFindings: true } : {}),
    ...(o.mixedSuccess === true ? { mixedSuccess: true } : {}),
  };
}
