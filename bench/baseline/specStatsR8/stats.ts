// The spec statistics as of dc3f8bd (round 8 of issue 12 starts here), kept to be measured side by side.
// Spec statistics as the CodeSpecWeave paper reports them, pure: per source dataset, the number of tasks, the mean
// specs and mean distinct categories per task with 95% percentile-bootstrap intervals (seeded, so the same dataset
// gives the same figures on every machine), the specs-per-task histogram, and the distribution of the coupling figure
// (core/specs/coupling.ts) by source dataset and by spec category. docs/coupling.md defines every figure.
import type { CandidateTask } from '../../../src/core/model';
import type { ConsensusPolicy } from '../../../src/core/review/consensus';
import type { ReviewState, TaskReviewState } from '../../../src/core/review/reducer';
import type { TaskVerifierResults, VerifierVerdicts } from '../../../src/core/review/verdicts';
import type { CouplingOptions } from './coupling';
import { COUPLING_DEFAULTS, measuredCoupling } from './coupling';
import { sourceDataset } from '../../../src/core/specs/source';

export const BOOTSTRAP_RESAMPLES = 2000;
export const BOOTSTRAP_SEED = 12;
export const CONFIDENCE = 0.95;
/** Bins of the coupling histograms: [0, 0.1), [0.1, 0.2), ..., [0.9, 1]. */
export const COUPLING_BINS = 10;

export interface SpecStatsInput {
  tasks: readonly CandidateTask[];
  /** The review state: the curators' settled verdicts feed the co-flip evidence (else the verifier's alone). */
  state?: ReviewState;
  verdicts?: VerifierVerdicts;
  policy?: ConsensusPolicy;
  resamples?: number;
  seed?: number;
  coupling?: Omit<CouplingOptions, 'graph'>;
}

/** A mean with its percentile-bootstrap interval. */
export interface MeanInterval {
  mean: number;
  low: number;
  high: number;
}

/** Quartiles (type 7, linear between order statistics) and a fixed-bin histogram of values in 0..1. */
export interface Distribution {
  count: number;
  min?: number;
  q1?: number;
  median?: number;
  q3?: number;
  max?: number;
  mean?: number;
  /** `COUPLING_BINS` counts; bin k holds values in [k/10, (k+1)/10), the last one 1 too. */
  histogram: number[];
}

export interface SpecGroupStats {
  /** Source dataset (core/specs/source.ts); `all` for the whole dataset. */
  source: string;
  tasks: number;
  specs: number;
  /** Tasks with at least one spec. */
  tasksWithSpecs: number;
  /** Over all the group's tasks, spec-less ones included; undefined with no task. */
  specsPerTask?: MeanInterval;
  categoriesPerTask?: MeanInterval;
  /** Tasks by their number of specs, ascending; only counts that occur. */
  histogram: Array<{ specs: number; tasks: number }>;
  /** The coupling figure of each task with at least two specs (fewer carry no coupling to measure). */
  coupling: Distribution;
}

export interface SpecStats {
  resamples: number;
  seed: number;
  confidence: number;
  all: SpecGroupStats;
  /** By source dataset, most tasks first, then by name. */
  bySource: SpecGroupStats[];
  /**
   * By spec category: the distribution over its specs (in tasks with at least two specs) of the share of the task's
   * other specs each is coupled to. Categories by name.
   */
  couplingByCategory: Array<{ category: string; specs: number; share: Distribution }>;
  /** Coupled spec pairs by kind of evidence over the dataset, and the pairs there are. */
  evidence: { pairs: number; coupledPairs: number; sharedTests: number; declared: number; coFlip: number; measuredPairs: number };
}

interface Group {
  source: string;
  specs: number[];
  categories: number[];
  coupling: number[];
}

/**
 * What the statistics take from one task, and what it was computed from (kept while the task, its review state and
 * verifier results stay the same). Flat, so 15,000 of them are few objects for the collector.
 */
interface CachedFigures {
  task: CandidateTask;
  revision: number;
  specs: CandidateTask['specs'];
  tests: CandidateTask['tests'];
  attempts: CandidateTask['attempts'];
  state: TaskReviewState | undefined;
  verifier: TaskVerifierResults | undefined;
  policy: ConsensusPolicy;
  minAttempts: number;
  coFlipPhi: number;
  source: string;
  /** Distinct categories of its specs. */
  categories: number;
  /** False with fewer than two specs: the rest is then unused. */
  coupled: boolean;
  coupling: number;
  pairs: number;
  coupledPairs: number;
  sharedTests: number;
  declared: number;
  coFlip: number;
  measuredPairs: number;
  /** Per distinct spec id: the index of its first spec, and its share (CouplingFigures). */
  first: number[];
  share: number[];
}

/**
 * The last computation's figures by task id. The statistics panel recomputes on every change of the review log or
 * the dataset, and a change touches one task: a label makes a new review state of its task (the reducer folds each
 * change into a new object), a run new verifier results of its task (the store caches them per task until then), a
 * spec edit a new task object at a new revision. Every other task's entry is still valid, so a change recomputes one
 * task. The inputs are compared by identity (and the task's revision and its spec, test and attempt lists), which is
 * why they are values nobody mutates: a changed task is a new object. Each computation keeps only the entries of the
 * tasks it was given, so the cache holds one dataset and nothing of a task that is gone.
 */
let figuresCache = new Map<string, CachedFigures>();

function taskFigures(
  cache: Map<string, CachedFigures>,
  next: Map<string, CachedFigures>,
  task: CandidateTask,
  state: TaskReviewState | undefined,
  verifier: TaskVerifierResults | undefined,
  policy: ConsensusPolicy,
  minAttempts: number,
  coFlipPhi: number,
): CachedFigures {
  const hit = cache.get(task.id);
  if (
    hit &&
    hit.task === task &&
    hit.revision === task.revision &&
    hit.specs === task.specs &&
    hit.tests === task.tests &&
    hit.attempts === task.attempts &&
    hit.state === state &&
    hit.verifier === verifier &&
    hit.policy === policy &&
    hit.minAttempts === minAttempts &&
    hit.coFlipPhi === coFlipPhi
  ) {
    next.set(task.id, hit);
    return hit;
  }
  const c = task.specs.length >= 2 ? measuredCoupling(task, state, verifier, policy, couplingOptions(minAttempts, coFlipPhi)) : undefined;
  const entry: CachedFigures = {
    task,
    revision: task.revision,
    specs: task.specs,
    tests: task.tests,
    attempts: task.attempts,
    state,
    verifier,
    policy,
    minAttempts,
    coFlipPhi,
    source: sourceOf(task),
    categories: distinctCategories(task.specs),
    coupled: c !== undefined,
    coupling: c ? c.coupling : 0,
    pairs: c ? c.pairs : 0,
    coupledPairs: c ? c.coupledPairs : 0,
    sharedTests: c ? c.byEvidence.sharedTests : 0,
    declared: c ? c.byEvidence.declared : 0,
    coFlip: c ? c.byEvidence.coFlip : 0,
    measuredPairs: c ? c.measuredPairs : 0,
    first: c ? c.first : [],
    share: c ? c.share : [],
  };
  next.set(task.id, entry);
  return entry;
}

/** The options measuredCoupling gets, one object while they stay the same (not one a task). */
let lastOptions: { minAttempts: number; coFlipPhi: number } = { ...COUPLING_DEFAULTS };
function couplingOptions(minAttempts: number, coFlipPhi: number): { minAttempts: number; coFlipPhi: number } {
  if (lastOptions.minAttempts !== minAttempts || lastOptions.coFlipPhi !== coFlipPhi) lastOptions = { minAttempts, coFlipPhi };
  return lastOptions;
}

/**
 * `sourceDataset`, which reads `source.flavor` and `source.importer` alone: its answer kept by those two values (a
 * dataset has a handful of them), not worked out again (trimmed, lower-cased, cut) for every task.
 */
const datasets = new Map<unknown, Map<unknown, string>>();
let datasetCount = 0;
function sourceOf(task: CandidateTask): string {
  const s = task.source;
  if (!s || typeof s !== 'object') return sourceDataset(task);
  const flavor: unknown = s.flavor;
  const importer: unknown = s.importer;
  let byImporter = datasets.get(flavor);
  const hit = byImporter?.get(importer);
  if (hit !== undefined) return hit;
  const dataset = sourceDataset(task);
  if (datasetCount >= 256) {
    datasets.clear();
    datasetCount = 0;
    byImporter = undefined;
  }
  if (!byImporter) datasets.set(flavor, (byImporter = new Map()));
  byImporter.set(importer, dataset);
  datasetCount++;
  return dataset;
}

const seenCategories: string[] = [];
function distinctCategories(specs: CandidateTask['specs']): number {
  // A task has a handful of specs: a scan of the ones seen beats building a Set per task.
  if (specs.length > 32) return new Set(specs.map((s) => s.category)).size;
  let k = 0;
  for (const s of specs) {
    let q = 0;
    while (q < k && seenCategories[q] !== s.category) q++;
    if (q === k) seenCategories[k++] = s.category;
  }
  return k;
}

export function specStats(input: SpecStatsInput): SpecStats {
  const resamples = Math.max(1, Math.floor(input.resamples ?? BOOTSTRAP_RESAMPLES));
  const seed = (input.seed ?? BOOTSTRAP_SEED) >>> 0;
  const policy = input.policy ?? 'adjudicate';
  const groups = new Map<string, Group>();
  const all: Group = { source: 'all', specs: [], categories: [], coupling: [] };
  const byCategory = new Map<string, number[]>();
  const evidence = { pairs: 0, coupledPairs: 0, sharedTests: 0, declared: 0, coFlip: 0, measuredPairs: 0 };

  const options = input.coupling ?? {};
  const minAttempts = options.minAttempts ?? COUPLING_DEFAULTS.minAttempts;
  const coFlipPhi = options.coFlipPhi ?? COUPLING_DEFAULTS.coFlipPhi;
  const cache = figuresCache;
  const next = new Map<string, CachedFigures>();
  for (const task of input.tasks) {
    const f = taskFigures(cache, next, task, input.state?.tasks.get(task.id), input.verdicts?.[task.id], policy, minAttempts, coFlipPhi);
    let g = groups.get(f.source);
    if (!g) groups.set(f.source, (g = { source: f.source, specs: [], categories: [], coupling: [] }));
    g.specs.push(task.specs.length);
    g.categories.push(f.categories);
    all.specs.push(task.specs.length);
    all.categories.push(f.categories);
    const c = f;
    if (!c.coupled) continue;
    g.coupling.push(c.coupling);
    all.coupling.push(c.coupling);
    evidence.pairs += c.pairs;
    evidence.coupledPairs += c.coupledPairs;
    evidence.sharedTests += c.sharedTests;
    evidence.declared += c.declared;
    evidence.coFlip += c.coFlip;
    evidence.measuredPairs += c.measuredPairs;
    // specShare is per distinct id in task order: the first spec of each id gives the category.
    for (let i = 0; i < c.first.length; i++) {
      const cat = (task.specs[c.first[i] as number] as CandidateTask['specs'][number]).category;
      let list = byCategory.get(cat);
      if (!list) byCategory.set(cat, (list = []));
      list.push(c.share[i] as number);
    }
  }
  figuresCache = next;

  const summarize = (g: Group): SpecGroupStats => {
    const [specsPerTask, categoriesPerTask] = bootstrapMeans([g.specs, g.categories], resamples, seed);
    const counts = new Map<number, number>();
    let specs = 0;
    let withSpecs = 0;
    for (const n of g.specs) {
      counts.set(n, (counts.get(n) ?? 0) + 1);
      specs += n;
      if (n > 0) withSpecs++;
    }
    return {
      source: g.source,
      tasks: g.specs.length,
      specs,
      tasksWithSpecs: withSpecs,
      ...(specsPerTask ? { specsPerTask } : {}),
      ...(categoriesPerTask ? { categoriesPerTask } : {}),
      histogram: [...counts].sort((a, b) => a[0] - b[0]).map(([n, tasks]) => ({ specs: n, tasks })),
      coupling: distribution(g.coupling),
    };
  };

  return {
    resamples,
    seed,
    confidence: CONFIDENCE,
    all: summarize(all),
    bySource: [...groups.values()].sort((a, b) => b.specs.length - a.specs.length || (a.source < b.source ? -1 : a.source > b.source ? 1 : 0)).map(summarize),
    couplingByCategory: [...byCategory]
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([category, shares]) => ({ category, specs: shares.length, share: distribution(shares) })),
    evidence,
  };
}

/**
 * Percentile-bootstrap intervals of the means of several samples of one population (same length, paired by index):
 * each resample draws n members with replacement, shared by every sample, from a PRNG seeded with `seed`; the
 * interval is the 2.5% and 97.5% quantiles of the resampled means. The members are sorted first, so the result
 * depends on the multiset only (not on the order of the tasks), and it is kept for the next call with the same
 * multiset: the panel recomputes the statistics on every change of the review log, which changes no spec count.
 * Undefined for an empty population.
 */
export function bootstrapMeans(samples: ReadonlyArray<readonly number[]>, resamples: number, seed: number): Array<MeanInterval | undefined> {
  const n = samples[0]?.length ?? 0;
  if (n === 0) return samples.map(() => undefined);
  const k = samples.length;
  const data = sortedMembers(samples, n);
  // The multiset, run-length encoded, is the cache key.
  const key: string[] = [String(k), String(resamples), String(seed >>> 0)];
  /** Index of the last member of each run of equal members, and the run's length. */
  const ends: number[] = [];
  const counts: number[] = [];
  let run = 0;
  for (let i = 0; i < n; i++) {
    run++;
    let last = i === n - 1;
    for (let j = 0; j < k && !last; j++) last = (data[j] as Float64Array)[i] !== (data[j] as Float64Array)[i + 1];
    if (last) {
      key.push(`${data.map((d) => d[i]).join(',')}*${run}`);
      ends.push(i);
      counts.push(run);
      run = 0;
    }
  }
  const cacheKey = key.join(';');
  const hit = bootstrapCache.get(cacheKey);
  if (hit) {
    bootstrapCache.delete(cacheKey);
    bootstrapCache.set(cacheKey, hit);
    return hit.map((m) => ({ ...m }));
  }
  // Few distinct members (spec counts are small integers): draw each resample's counts of them (a multinomial, as
  // conditional binomials) instead of n members one by one; the same resampling distribution, far fewer draws.
  const result =
    counts.length * 50 <= n
      ? resampleCounts(
          data.map((d) => Float64Array.from(ends, (i) => d[i] as number)),
          counts,
          n,
          resamples,
          seed,
        )
      : resample(data, n, resamples, seed);
  bootstrapCache.set(cacheKey, result);
  if (bootstrapCache.size > BOOTSTRAP_CACHE) bootstrapCache.delete(bootstrapCache.keys().next().value as string);
  return result.map((m) => ({ ...m }));
}

/**
 * The members sorted by their values in sample order (the first sample's, then the second's for ties, ...), as one
 * column per sample. Two samples of small non-negative integers (spec and category counts) pack each member into one
 * number and sort those as a typed array; anything else sorts the indexes by comparison. Equal members are equal in
 * every column, so both orders give the same columns.
 */
function sortedMembers(samples: ReadonlyArray<readonly number[]>, n: number): Float64Array[] {
  const k = samples.length;
  if (k === 2) {
    const a = samples[0] as readonly number[];
    const b = samples[1] as readonly number[];
    let small = true;
    for (let i = 0; i < n && small; i++) {
      const x = a[i] as number;
      const y = b[i] as number;
      small = Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < PACK && y < PACK && !Object.is(x, -0) && !Object.is(y, -0);
    }
    if (small) {
      const packed = new Float64Array(n);
      for (let i = 0; i < n; i++) packed[i] = (a[i] as number) * PACK + (b[i] as number);
      packed.sort();
      const ca = new Float64Array(n);
      const cb = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const v = packed[i] as number;
        const y = v % PACK;
        ca[i] = (v - y) / PACK;
        cb[i] = y;
      }
      return [ca, cb];
    }
  }
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((x, y) => {
    for (const s of samples) {
      const d = (s[x] as number) - (s[y] as number);
      if (d !== 0) return d;
    }
    return 0;
  });
  return samples.map((s) => Float64Array.from(order, (i) => s[i] as number));
}

/** Packing base of `sortedMembers`: two values below it fit one double exactly. */
const PACK = 1 << 20;

const BOOTSTRAP_CACHE = 64;
const bootstrapCache = new Map<string, MeanInterval[]>();

function resample(data: Float64Array[], n: number, resamples: number, seed: number): MeanInterval[] {
  const k = data.length;
  const means = data.map((d) => d.reduce((x, y) => x + y, 0) / n);
  // Every sample constant: every resample has the same mean, so the interval is the point (and no draw is needed).
  if (data.every((d) => d[0] === d[n - 1])) return means.map((m) => ({ mean: m, low: m, high: m }));
  const out = data.map(() => new Float64Array(resamples));
  // mulberry32: 32 bits of state, a full period, and the same sequence on every engine.
  let s = seed | 0;
  const a = data[0] as Float64Array;
  const b = (data[1] ?? data[0]) as Float64Array;
  const oa = out[0] as Float64Array;
  const ob = (out[1] ?? out[0]) as Float64Array;
  const sums = new Float64Array(k);
  for (let r = 0; r < resamples; r++) {
    if (k <= 2) {
      // The common case (specs and categories per task), without the inner loop over samples.
      let sa = 0;
      let sb = 0;
      for (let i = 0; i < n; i++) {
        s = (s + 0x6d2b79f5) | 0;
        let t = Math.imul(s ^ (s >>> 15), 1 | s);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        const idx = ((((t ^ (t >>> 14)) >>> 0) * n) / 4294967296) | 0;
        sa += a[idx] as number;
        sb += b[idx] as number;
      }
      oa[r] = sa / n;
      ob[r] = sb / n;
      continue;
    }
    sums.fill(0);
    for (let i = 0; i < n; i++) {
      s = (s + 0x6d2b79f5) | 0;
      let t = Math.imul(s ^ (s >>> 15), 1 | s);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      const idx = ((((t ^ (t >>> 14)) >>> 0) * n) / 4294967296) | 0;
      for (let j = 0; j < k; j++) sums[j] = (sums[j] as number) + ((data[j] as Float64Array)[idx] as number);
    }
    for (let j = 0; j < k; j++) (out[j] as Float64Array)[r] = (sums[j] as number) / n;
  }
  const alpha = (1 - CONFIDENCE) / 2;
  return out.map((o, j) => {
    o.sort();
    return { mean: means[j] as number, low: quantile(o, alpha), high: quantile(o, 1 - alpha) };
  });
}

/** mulberry32: 32 bits of state, a full period, and the same sequence on every engine; uniforms in [0, 1). */
export function mulberry32(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The bootstrap over a multiset given as distinct members (`values[j][d]`: sample j of member d) and their counts:
 * each resample's counts are Multinomial(n, counts / n), drawn as conditional binomials.
 */
function resampleCounts(values: Float64Array[], counts: readonly number[], n: number, resamples: number, seed: number): MeanInterval[] {
  const k = values.length;
  const kinds = counts.length;
  const means = values.map((v) => v.reduce((sum, x, d) => sum + x * (counts[d] as number), 0) / n);
  const logFact = new Float64Array(n + 1);
  for (let i = 2; i <= n; i++) logFact[i] = (logFact[i - 1] as number) + Math.log(i);
  const rand = mulberry32(seed);
  const out = values.map(() => new Float64Array(resamples));
  const sums = new Float64Array(k);
  // The conditional probability of member d is the same in every resample (the masses left do not depend on the
  // draws): its logarithms once, not once a draw.
  const prob = new Float64Array(kinds);
  const logP = new Float64Array(kinds);
  const logQ = new Float64Array(kinds);
  const odds = new Float64Array(kinds);
  for (let d = 0, mass = n; d < kinds; mass -= counts[d] as number, d++) {
    const p = (counts[d] as number) / mass;
    prob[d] = p;
    logP[d] = Math.log(p);
    logQ[d] = Math.log(1 - p);
    odds[d] = p / (1 - p);
  }
  for (let r = 0; r < resamples; r++) {
    sums.fill(0);
    let left = n;
    for (let d = 0; d < kinds && left > 0; d++) {
      const drawn = d === kinds - 1 ? left : binomialLogs(left, prob[d] as number, logP[d] as number, logQ[d] as number, odds[d] as number, rand(), logFact);
      for (let j = 0; j < k; j++) sums[j] = (sums[j] as number) + drawn * ((values[j] as Float64Array)[d] as number);
      left -= drawn;
    }
    for (let j = 0; j < k; j++) (out[j] as Float64Array)[r] = (sums[j] as number) / n;
  }
  const alpha = (1 - CONFIDENCE) / 2;
  return out.map((o, j) => {
    o.sort();
    return { mean: means[j] as number, low: quantile(o, alpha), high: quantile(o, 1 - alpha) };
  });
}

/**
 * A Binomial(trials, p) variate from one uniform `u`, by inversion over the support enumerated outward from the mode
 * (mode, mode+1, mode-1, mode+2, ...): exact, and about one standard deviation of steps.
 */
export function binomial(trials: number, p: number, u: number, logFact: Float64Array): number {
  if (trials <= 0 || p <= 0) return 0;
  if (p >= 1) return trials;
  const q = 1 - p;
  return binomialLogs(trials, p, Math.log(p), Math.log(q), p / q, u, logFact);
}

/** `binomial` with log p, log(1 - p) and p / (1 - p) given (the same arithmetic, so the same variate). */
function binomialLogs(trials: number, p: number, logP: number, logQ: number, up: number, u: number, logFact: Float64Array): number {
  if (trials <= 0 || p <= 0) return 0;
  if (p >= 1) return trials;
  const mode = Math.min(trials, Math.floor((trials + 1) * p));
  const at = Math.exp((logFact[trials] as number) - (logFact[mode] as number) - (logFact[trials - mode] as number) + mode * logP + (trials - mode) * logQ);
  u -= at;
  if (u < 0) return mode;
  let hi = mode;
  let lo = mode;
  let pHi = at;
  let pLo = at;
  for (;;) {
    if (hi < trials) {
      pHi *= ((trials - hi) / (hi + 1)) * up;
      hi++;
      u -= pHi;
      if (u < 0) return hi;
    }
    if (lo > 0) {
      pLo *= lo / ((trials - lo + 1) * up);
      lo--;
      u -= pLo;
      if (u < 0) return lo;
    }
    // The mass left is below rounding: the support is used up, or both tails have vanished.
    if ((hi >= trials || pHi === 0) && (lo <= 0 || pLo === 0)) return mode;
  }
}

/** Type-7 quantile of sorted values (linear between the order statistics around p·(n-1)). */
export function quantile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  const b = sorted[Math.min(n - 1, lo + 1)] as number;
  return a + (h - lo) * (b - a);
}

export function distribution(values: readonly number[]): Distribution {
  const histogram = new Array<number>(COUPLING_BINS).fill(0);
  if (values.length === 0) return { count: 0, histogram };
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (const v of sorted) {
    sum += v;
    const bin = Math.min(COUPLING_BINS - 1, Math.max(0, Math.floor(v * COUPLING_BINS + 1e-9)));
    histogram[bin] = (histogram[bin] as number) + 1;
  }
  return {
    count: sorted.length,
    min: sorted[0] as number,
    q1: quantile(sorted, 0.25),
    median: quantile(sorted, 0.5),
    q3: quantile(sorted, 0.75),
    max: sorted[sorted.length - 1] as number,
    mean: sum / sorted.length,
    histogram,
  };
}
