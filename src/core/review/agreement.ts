// Inter-curator agreement: Cohen's kappa for two curators, Krippendorff's alpha for any number (missing values
// allowed), always with the number of items behind the figure.

export type AlphaMetric = 'nominal' | 'ordinal' | 'interval';

export interface AlphaResult {
  /** Undefined when there is nothing to compare or every value is the same (no variation to agree on). */
  alpha?: number;
  /** Units with at least two values (the only ones alpha can use). */
  units: number;
  /** Values in those units. */
  values: number;
}

/**
 * Krippendorff's alpha from units (each the values the raters gave it; missing ones left out), via the coincidence
 * matrix: alpha = 1 - (n - 1) * sum(o_ck * d_ck) / sum(n_c * n_k * d_ck). Numbers for ordinal and interval metrics.
 */
export function krippendorffAlpha(units: ReadonlyArray<ReadonlyArray<string | number>>, metric: AlphaMetric): AlphaResult {
  const c = new Coincidences();
  for (const u of units) c.add(u);
  return c.alpha(metric);
}

/** The coincidence matrix of Krippendorff's alpha, filled one unit at a time (no unit is kept). */
export class Coincidences {
  private readonly index = new Map<string | number, number>();
  /** o[c][k], grown as new values appear. */
  private readonly o: number[][] = [];
  private readonly counts: number[] = [];
  units = 0;
  values = 0;

  /** The index of a value (values get indices in order of first appearance). */
  idx(v: string | number): number {
    let i = this.index.get(v);
    if (i === undefined) {
      i = this.index.size;
      this.index.set(v, i);
      for (const row of this.o) row.push(0);
      this.o.push(new Array<number>(i + 1).fill(0));
      this.counts.push(0);
    }
    return i;
  }

  /** One unit: the values its raters gave (a unit with fewer than two values cannot be paired and is skipped). */
  add(unit: ReadonlyArray<string | number>): void {
    this.addBy(unit, (v) => v);
  }

  /** A unit of exactly two values, by index (the common case of two curators): no allocation. */
  addPair(i: number, j: number): void {
    const oi = this.o[i] as number[];
    if (i === j) oi[i] = (oi[i] as number) + 2;
    else {
      const oj = this.o[j] as number[];
      oi[j] = (oi[j] as number) + 1;
      oj[i] = (oj[i] as number) + 1;
    }
    this.units++;
    this.values += 2;
  }

  /** The same, reading each value through `value` (saves building an array per unit). */
  addBy<T>(unit: readonly T[], value: (item: T) => string | number): void {
    const m = unit.length;
    if (m < 2) return;
    if (m === 2) {
      const i = this.idx(value(unit[0] as T));
      this.addPair(i, this.idx(value(unit[1] as T)));
      return;
    }
    const seen: number[] = [];
    for (const item of unit) {
      const i = this.idx(value(item));
      if (this.counts[i] === 0) seen.push(i);
      this.counts[i] = (this.counts[i] as number) + 1;
    }
    // Ordered pairs of different raters: count_c * count_k, minus the self-pairs on the diagonal.
    for (const c of seen) {
      const nc = this.counts[c] as number;
      const row = this.o[c] as number[];
      for (const d of seen) {
        const nd = this.counts[d] as number;
        row[d] = (row[d] as number) + (c === d ? nc * (nc - 1) : nc * nd) / (m - 1);
      }
    }
    for (const c of seen) this.counts[c] = 0;
    this.units++;
    this.values += m;
  }

  alpha(metric: AlphaMetric): AlphaResult {
    const result: AlphaResult = { units: this.units, values: this.values };
    const raw = [...this.index.keys()];
    if (raw.length < 2) return result;
    if (metric !== 'nominal' && raw.some((v) => typeof v !== 'number')) throw new TypeError(`${metric} alpha needs numeric values`);
    // Categories in order (by value for numbers), with the matrix permuted to match.
    const order = metric === 'nominal' ? raw.map((_, i) => i) : raw.map((_, i) => i).sort((a, b) => (raw[a] as number) - (raw[b] as number));
    const categories = order.map((i) => raw[i] as number);
    const k = order.length;
    const o = (c: number, d: number) => (this.o[order[c] as number] as number[])[order[d] as number] as number;
    const marg = new Float64Array(k);
    for (let c = 0; c < k; c++) for (let d = 0; d < k; d++) marg[c] = (marg[c] as number) + o(c, d);
    const n = marg.reduce((a, b) => a + b, 0);
    const delta = distance(metric, categories, marg);
    let observed = 0;
    let expected = 0;
    for (let c = 0; c < k; c++) {
      for (let d = 0; d < k; d++) {
        if (c === d) continue;
        const dd = delta(c, d);
        observed += o(c, d) * dd;
        expected += (marg[c] as number) * (marg[d] as number) * dd;
      }
    }
    if (expected === 0) return result;
    return { ...result, alpha: 1 - ((n - 1) * observed) / expected };
  }
}

function distance(metric: AlphaMetric, categories: number[], marg: Float64Array): (c: number, d: number) => number {
  if (metric === 'nominal') return (c, d) => (c === d ? 0 : 1);
  if (metric === 'interval') return (c, d) => ((categories[c] as number) - (categories[d] as number)) ** 2;
  // Ordinal: the squared mass of the values between c and d, counting c and d by half.
  const cum = new Float64Array(marg.length + 1);
  for (let i = 0; i < marg.length; i++) cum[i + 1] = (cum[i] as number) + (marg[i] as number);
  return (c, d) => {
    const lo = Math.min(c, d);
    const hi = Math.max(c, d);
    const between = (cum[hi + 1] as number) - (cum[lo] as number);
    return (between - ((marg[lo] as number) + (marg[hi] as number)) / 2) ** 2;
  };
}

export interface KappaResult {
  /** Undefined with no items, or when chance agreement is total (both always gave one and the same value). */
  kappa?: number;
  items: number;
  /** Observed and chance agreement. */
  observed?: number;
  expected?: number;
}

/** Cohen's kappa for two raters over the items both rated: (p_o - p_e) / (1 - p_e). */
export function cohensKappa(pairs: ReadonlyArray<readonly [string | number, string | number]>): KappaResult {
  const n = pairs.length;
  if (n === 0) return { items: 0 };
  const a = new Map<string | number, number>();
  const b = new Map<string | number, number>();
  let agree = 0;
  for (const [x, y] of pairs) {
    if (x === y) agree++;
    a.set(x, (a.get(x) ?? 0) + 1);
    b.set(y, (b.get(y) ?? 0) + 1);
  }
  const observed = agree / n;
  let expected = 0;
  for (const [c, na] of a) expected += (na / n) * ((b.get(c) ?? 0) / n);
  if (expected === 1) return { items: n, observed, expected };
  return { kappa: (observed - expected) / (1 - expected), items: n, observed, expected };
}

/** Two raters' contingency table: `i * 65536 + j` (value indices) to count. */
interface PairTable {
  table: Map<number, number>;
  n: number;
}

/** Kappa from a contingency table of two raters' values. */
function kappaFromTable(table: ReadonlyMap<number, number>, n: number): KappaResult {
  if (n === 0) return { items: 0 };
  const a = new Map<number, number>();
  const b = new Map<number, number>();
  let agree = 0;
  for (const [key, count] of table) {
    const x = Math.floor(key / 65536);
    const y = key % 65536;
    if (x === y) agree += count;
    a.set(x, (a.get(x) ?? 0) + count);
    b.set(y, (b.get(y) ?? 0) + count);
  }
  const observed = agree / n;
  let expected = 0;
  for (const [c, na] of a) expected += (na / n) * ((b.get(c) ?? 0) / n);
  if (expected === 1) return { items: n, observed, expected };
  return { kappa: (observed - expected) / (1 - expected), items: n, observed, expected };
}

/** Ratings by unit and rater: `ratings.get(unit).get(rater)`. */
export type Ratings = ReadonlyMap<string, ReadonlyMap<string, string | number>>;

export interface AgreementFigure {
  /** What was rated: `verdict`, `underspecified`, `fnSeverity`, `fpSeverity`, `difficulty`. */
  kind: string;
  metric: AlphaMetric;
  /** Curators with at least one rating of this kind. */
  curators: number;
  /** Krippendorff's alpha with the metric above, and the units (items) and values behind it. */
  alpha?: number;
  items: number;
  values: number;
  /** For 0-3 scores, alpha with the interval metric too. */
  alphaInterval?: number;
  /** Cohen's kappa when exactly two curators rated this kind, over the items both rated. */
  kappa?: number;
  kappaItems?: number;
  /** Kappa of every pair of curators, for finding who disagrees with whom. */
  pairwise: Array<{ a: string; b: string; kappa?: number; items: number }>;
}

/** Agreement on one kind of rating, fed one unit at a time: alpha over every rater, kappa for each pair. */
export class AgreementAccumulator {
  private readonly coincidences = new Coincidences();
  private readonly raters = new Set<string>();
  /**
   * Per pair of raters (a < b): their contingency table over value indices (of the coincidences) and item count.
   * The last pair is cached: consecutive units usually come from the same curators.
   */
  private readonly pairs = new Map<string, Map<string, PairTable>>();
  private last?: { a: string; b: string; p: PairTable };

  constructor(
    readonly kind: string,
    readonly metric: AlphaMetric,
    readonly withInterval = false,
  ) {}

  /** One unit: each rater's value (a rater at most once). */
  add(unit: ReadonlyArray<readonly [rater: string, value: string | number]>): void {
    this.addBy(unit, (x) => x[0], (x) => x[1]);
  }

  private pair(a: string, b: string): PairTable {
    const l = this.last;
    if (l && l.a === a && l.b === b) return l.p;
    this.raters.add(a);
    this.raters.add(b);
    let byB = this.pairs.get(a);
    if (!byB) this.pairs.set(a, (byB = new Map()));
    let p = byB.get(b);
    if (!p) byB.set(b, (p = { table: new Map(), n: 0 }));
    this.last = { a, b, p };
    return p;
  }

  /** The same, reading each rater and value through accessors (saves building pairs per unit). */
  addBy<T>(unit: readonly T[], rater: (item: T) => string, value: (item: T) => string | number): void {
    if (unit.length < 2) {
      for (const x of unit) this.raters.add(rater(x));
      return;
    }
    if (unit.length > 2) this.coincidences.addBy(unit, value);
    for (let i = 0; i < unit.length; i++) {
      for (let j = i + 1; j < unit.length; j++) {
        let ra = rater(unit[i] as T);
        let rb = rater(unit[j] as T);
        let va = this.coincidences.idx(value(unit[i] as T));
        let vb = this.coincidences.idx(value(unit[j] as T));
        if (unit.length === 2) this.coincidences.addPair(va, vb);
        if (rb < ra) [ra, va, rb, vb] = [rb, vb, ra, va];
        const p = this.pair(ra, rb);
        const key = va * 65536 + vb;
        p.table.set(key, (p.table.get(key) ?? 0) + 1);
        p.n++;
      }
    }
  }

  result(): AgreementFigure {
    const alpha = this.coincidences.alpha(this.metric);
    const names = [...this.raters].sort();
    const pairwise: AgreementFigure['pairwise'] = [];
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const a = names[i] as string;
        const b = names[j] as string;
        const p = this.pairs.get(a)?.get(b);
        const k = p ? kappaFromTable(p.table, p.n) : { items: 0 };
        pairwise.push({ a, b, ...(k.kappa !== undefined ? { kappa: k.kappa } : {}), items: k.items });
      }
    }
    const only = names.length === 2 ? pairwise[0] : undefined;
    const interval = this.withInterval ? this.coincidences.alpha('interval').alpha : undefined;
    return {
      kind: this.kind,
      metric: this.metric,
      curators: names.length,
      ...(alpha.alpha !== undefined ? { alpha: alpha.alpha } : {}),
      items: alpha.units,
      values: alpha.values,
      ...(interval !== undefined ? { alphaInterval: interval } : {}),
      ...(only?.kappa !== undefined ? { kappa: only.kappa } : {}),
      ...(only ? { kappaItems: only.items } : {}),
      pairwise,
    };
  }
}

/** Agreement on one kind of rating from ratings by unit and rater. */
export function agreementFigure(kind: string, metric: AlphaMetric, ratings: Ratings, withInterval = false): AgreementFigure {
  const acc = new AgreementAccumulator(kind, metric, withInterval);
  for (const byRater of ratings.values()) acc.add([...byRater]);
  return acc.result();
}
