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
  const index = new Map<string | number, number>();
  const pairable = units.filter((u) => u.length >= 2);
  for (const u of pairable) for (const v of u) if (!index.has(v)) index.set(v, index.size);
  let categories = [...index.keys()];
  if (metric !== 'nominal') {
    if (categories.some((c) => typeof c !== 'number')) throw new TypeError(`${metric} alpha needs numeric values`);
    categories = (categories as number[]).sort((a, b) => a - b);
    categories.forEach((c, i) => index.set(c, i));
  }
  const k = categories.length;
  const o = new Float64Array(k * k);
  let nValues = 0;
  const counts = new Float64Array(k);
  for (const u of pairable) {
    const m = u.length;
    counts.fill(0);
    for (const v of u) counts[index.get(v) as number]! += 1;
    // Ordered pairs of different raters: count_c * count_k, minus the self-pairs on the diagonal.
    for (let c = 0; c < k; c++) {
      const nc = counts[c] as number;
      if (nc === 0) continue;
      for (let d = 0; d < k; d++) {
        const nd = counts[d] as number;
        if (nd === 0) continue;
        o[c * k + d]! += (c === d ? nc * (nc - 1) : nc * nd) / (m - 1);
      }
    }
    nValues += m;
  }
  const result: AlphaResult = { units: pairable.length, values: nValues };
  if (k < 2 || nValues < 2) return result;
  const marg = new Float64Array(k);
  for (let c = 0; c < k; c++) for (let d = 0; d < k; d++) marg[c]! += o[c * k + d] as number;
  const n = marg.reduce((a, b) => a + b, 0);
  const delta = distance(metric, categories as number[], marg);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < k; c++) {
    for (let d = 0; d < k; d++) {
      if (c === d) continue;
      const dd = delta(c, d);
      observed += (o[c * k + d] as number) * dd;
      expected += (marg[c] as number) * (marg[d] as number) * dd;
    }
  }
  if (expected === 0) return result;
  return { ...result, alpha: 1 - ((n - 1) * observed) / expected };
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

/** Agreement on one kind of rating: alpha over every rater, kappa for each pair (and overall when there are two). */
export function agreementFigure(kind: string, metric: AlphaMetric, ratings: Ratings, withInterval = false): AgreementFigure {
  const raters = new Set<string>();
  const units: Array<Array<string | number>> = [];
  for (const byRater of ratings.values()) {
    for (const r of byRater.keys()) raters.add(r);
    if (byRater.size >= 2) units.push([...byRater.values()]);
  }
  const alpha = krippendorffAlpha(units, metric);
  const names = [...raters].sort();
  const pairwise: AgreementFigure['pairwise'] = [];
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const a = names[i] as string;
      const b = names[j] as string;
      const pairs: Array<[string | number, string | number]> = [];
      for (const byRater of ratings.values()) {
        const x = byRater.get(a);
        const y = byRater.get(b);
        if (x !== undefined && y !== undefined) pairs.push([x, y]);
      }
      const k = cohensKappa(pairs);
      pairwise.push({ a, b, ...(k.kappa !== undefined ? { kappa: k.kappa } : {}), items: k.items });
    }
  }
  const only = names.length === 2 ? pairwise[0] : undefined;
  const interval = withInterval ? krippendorffAlpha(units, 'interval').alpha : undefined;
  return {
    kind,
    metric,
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
