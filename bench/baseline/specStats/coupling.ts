// The coupling figure as of d54aef5, kept as the "before" side of bench/specStats.bench.ts.
// The coupling of a task's specs, pure: which specs are interdependent by what is measured (tests they share, the
// `dependsOn` links curators declared, verdicts that flip together across attempts), as a graph and as one figure,
// 1 - (components - 1) / (specs - 1) over that graph. docs/coupling.md defines it and says what it cannot see.
import type { CandidateTask, SpecVerdict } from '../../../src/core/model';
import type { ConsensusPolicy } from '../../../src/core/review/consensus';
import type { TaskReviewState } from '../../../src/core/review/reducer';
import { scanCells } from '../../../src/core/review/taskReview';
import type { TaskVerifierResults } from '../../../src/core/review/verdicts';

export interface CouplingInput {
  specs: ReadonlyArray<{ id: string; dependsOn?: readonly string[] }>;
  /** The spec-test map, from the tests' side. */
  tests: ReadonlyArray<{ id: string; specs: readonly string[] }>;
  /** One row per attempt: spec id to that attempt's verdict on it; a spec missing or `unknown` has none. */
  verdicts: ReadonlyArray<Readonly<Record<string, SpecVerdict | undefined>>>;
}

export interface CouplingOptions {
  /** Attempts with a verdict on both specs needed before their co-flip counts as evidence (either way). */
  minAttempts?: number;
  /** |phi| at or above which two specs' verdicts are said to flip together. */
  coFlipPhi?: number;
  /** Build `nodes`, `edges` and `groups` (the task view needs them; statistics only the figures). Default true. */
  graph?: boolean;
}

export const COUPLING_DEFAULTS = { minAttempts: 3, coFlipPhi: 0.5 } as const;

/** Why two specs are coupled; every present field is one kind of evidence. */
export interface CouplingEvidence {
  /** Tests both specs are mapped to (ids, in task order) and the Jaccard index of their two test sets. */
  sharedTests?: { tests: string[]; jaccard: number };
  /** A `dependsOn` link: `a` names `b`, `b` names `a`, or both. */
  declared?: 'a->b' | 'b->a' | 'both';
  /** The phi coefficient of the two specs' pass/fail verdicts over the attempts that have both (negative: opposed). */
  coFlip?: { phi: number; attempts: number };
}

/** An undirected edge of the coupling graph; `a` comes before `b` in the task's spec order. */
export interface CouplingEdge {
  a: string;
  b: string;
  /** The strongest evidence, 0..1: 1 for a declared link, the Jaccard index of shared tests, |phi| of a co-flip. */
  weight: number;
  evidence: CouplingEvidence;
}

export interface CouplingNode {
  id: string;
  /** Index into `groups`. */
  group: number;
  /** Specs this one is coupled to. */
  degree: number;
  /** Tests mapped to it. */
  tests: number;
}

export interface TaskCoupling {
  /** Distinct spec ids. */
  specs: number;
  /**
   * The figure, 0..1: 1 - (groups - 1) / (specs - 1). 0 when no two specs are coupled (the choices factor into one
   * part per spec), 1 when the coupling graph is connected (no factoring is visible). 0 with fewer than two specs.
   */
  coupling: number;
  /** Connected components of the coupling graph: the independent parts the evidence leaves. */
  groupCount: number;
  /** Spec pairs, coupled pairs, and their share (0 with fewer than two specs). */
  pairs: number;
  coupledPairs: number;
  pairShare: number;
  /** Coupled pairs by kind of evidence (a pair may count under several). */
  byEvidence: { sharedTests: number; declared: number; coFlip: number };
  /** Pairs with at least `minAttempts` attempts that have a verdict on both: where a co-flip could be seen at all. */
  measuredPairs: number;
  /** Per spec in task order: the share of the task's other specs it is coupled to (0 with fewer than two specs). */
  specShare: Array<{ id: string; share: number }>;
  nodes: CouplingNode[];
  edges: CouplingEdge[];
  /** Spec ids of each component, in task order, components by their first spec. */
  groups: string[][];
}

function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
}

/** The coupling graph and figure of one task. Unknown or repeated ids in `dependsOn` and the map are ignored. */
export function taskCoupling(input: CouplingInput, options: CouplingOptions = {}): TaskCoupling {
  const minAttempts = options.minAttempts ?? COUPLING_DEFAULTS.minAttempts;
  const phiAt = options.coFlipPhi ?? COUPLING_DEFAULTS.coFlipPhi;
  const withGraph = options.graph ?? true;

  const index = new Map<string, number>();
  const ids: string[] = [];
  for (const s of input.specs) {
    if (index.has(s.id)) continue;
    index.set(s.id, ids.length);
    ids.push(s.id);
  }
  const n = ids.length;

  // Tests of each spec, as test indices (a test naming a spec twice counts once).
  const testsOf: number[][] = ids.map(() => []);
  input.tests.forEach((t, ti) => {
    for (const sid of t.specs) {
      const i = index.get(sid);
      if (i === undefined) continue;
      const list = testsOf[i] as number[];
      if (list[list.length - 1] !== ti) list.push(ti);
    }
  });

  // Verdicts as bit sets per spec over the attempts (32 attempts a word): `has` a verdict, and `pass`.
  const rows = input.verdicts.length;
  const words = (rows + 31) >>> 5;
  const has = new Int32Array(n * words);
  const pass = new Int32Array(n * words);
  for (let r = 0; r < rows; r++) {
    const row = input.verdicts[r] as Readonly<Record<string, SpecVerdict | undefined>>;
    const w = r >>> 5;
    const bit = 1 << (r & 31);
    for (let i = 0; i < n; i++) {
      const v = row[ids[i] as string];
      if (v === 'pass') {
        has[i * words + w] = (has[i * words + w] as number) | bit;
        pass[i * words + w] = (pass[i * words + w] as number) | bit;
      } else if (v === 'fail') has[i * words + w] = (has[i * words + w] as number) | bit;
    }
  }

  const declared = new Set<number>();
  for (const s of input.specs) {
    const i = index.get(s.id) as number;
    for (const d of s.dependsOn ?? []) {
      const j = index.get(d);
      if (j === undefined || j === i) continue;
      declared.add(i * n + j);
    }
  }

  const parent: number[] = [];
  for (let i = 0; i < n; i++) parent.push(i);
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x] as number] as number;
      x = parent[x] as number;
    }
    return x;
  };
  const degree: number[] = new Array<number>(n).fill(0);
  const edges: CouplingEdge[] = [];
  const byEvidence = { sharedTests: 0, declared: 0, coFlip: 0 };
  let coupledPairs = 0;
  let measuredPairs = 0;
  const mark: number[] = new Array<number>(input.tests.length).fill(-1);

  for (let i = 0; i < n; i++) {
    const ti = testsOf[i] as number[];
    for (const t of ti) mark[t] = i;
    for (let j = i + 1; j < n; j++) {
      // Shared tests.
      const tj = testsOf[j] as number[];
      let shared = 0;
      for (const t of tj) if (mark[t] === i) shared++;
      // Declared.
      const ij = declared.has(i * n + j);
      const ji = declared.has(j * n + i);
      // Co-flip: the 2x2 table of the two verdicts over attempts that have both.
      let n11 = 0;
      let n10 = 0;
      let n01 = 0;
      let n00 = 0;
      for (let w = 0; w < words; w++) {
        const h = (has[i * words + w] as number) & (has[j * words + w] as number);
        if (h === 0) continue;
        const a = (pass[i * words + w] as number) & h;
        const b = (pass[j * words + w] as number) & h;
        const ab = popcount(a & b);
        n11 += ab;
        n10 += popcount(a) - ab;
        n01 += popcount(b) - ab;
        n00 += popcount(h & ~(a | b));
      }
      const both = n11 + n10 + n01 + n00;
      let phi: number | undefined;
      if (both >= minAttempts) {
        measuredPairs++;
        const den = (n11 + n10) * (n01 + n00) * (n11 + n01) * (n10 + n00);
        // A spec whose verdict never changes flips with nothing: no evidence either way.
        if (den > 0) phi = (n11 * n00 - n10 * n01) / Math.sqrt(den);
      }
      const coFlip = phi !== undefined && Math.abs(phi) >= phiAt;
      if (shared === 0 && !ij && !ji && !coFlip) continue;

      coupledPairs++;
      if (shared > 0) byEvidence.sharedTests++;
      if (ij || ji) byEvidence.declared++;
      if (coFlip) byEvidence.coFlip++;
      degree[i] = (degree[i] as number) + 1;
      degree[j] = (degree[j] as number) + 1;
      const ri = find(i);
      const rj = find(j);
      if (ri !== rj) parent[Math.max(ri, rj)] = Math.min(ri, rj);
      if (!withGraph) continue;

      const evidence: CouplingEvidence = {};
      let weight = 0;
      if (shared > 0) {
        const jaccard = shared / (ti.length + tj.length - shared);
        evidence.sharedTests = { tests: tj.filter((t) => mark[t] === i).map((t) => (input.tests[t] as { id: string }).id), jaccard };
        weight = Math.max(weight, jaccard);
      }
      if (ij || ji) {
        evidence.declared = ij && ji ? 'both' : ij ? 'a->b' : 'b->a';
        weight = 1;
      }
      if (coFlip) {
        evidence.coFlip = { phi: phi as number, attempts: both };
        weight = Math.max(weight, Math.abs(phi as number));
      }
      edges.push({ a: ids[i] as string, b: ids[j] as string, weight, evidence });
    }
  }

  let groupCount = 0;
  const groupOfRoot = new Array<number>(n).fill(-1);
  const groups: string[][] = [];
  const groupOf = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    const root = find(i);
    if (groupOfRoot[root] === -1) {
      groupOfRoot[root] = groupCount++;
      if (withGraph) groups.push([]);
    }
    groupOf[i] = groupOfRoot[root] as number;
    if (withGraph) (groups[groupOf[i] as number] as string[]).push(ids[i] as string);
  }

  const pairs = n < 2 ? 0 : (n * (n - 1)) / 2;
  return {
    specs: n,
    coupling: couplingFigure(n, groupCount),
    groupCount,
    pairs,
    coupledPairs,
    pairShare: pairs > 0 ? coupledPairs / pairs : 0,
    byEvidence,
    measuredPairs,
    specShare: ids.map((id, i) => ({ id, share: n > 1 ? (degree[i] as number) / (n - 1) : 0 })),
    nodes: withGraph ? ids.map((id, i) => ({ id, group: groupOf[i] as number, degree: degree[i] as number, tests: (testsOf[i] as number[]).length })) : [],
    edges,
    groups,
  };
}

/** 1 - (groups - 1) / (specs - 1): 0 for one group per spec, 1 for one group; 0 with fewer than two specs. */
export function couplingFigure(specs: number, groups: number): number {
  if (specs < 2) return 0;
  return 1 - (groups - 1) / (specs - 1);
}

/**
 * The verdicts the co-flip reads, one row per solver attempt (the oracle probes are not attempts): the curators'
 * settled verdict on the cell where there is one (satisfied = pass, violated = fail), else the verifier's verdict
 * through the spec-test map (its runs, or the imported results before any run). `unsure` and `unknown` give none.
 */
export function measuredVerdicts(
  task: CandidateTask,
  st: TaskReviewState | undefined,
  verifier: TaskVerifierResults,
  policy: ConsensusPolicy = 'adjudicate',
): Array<Record<string, SpecVerdict>> {
  const rows: Array<Record<string, SpecVerdict>> = task.attempts.map(() => ({}));
  if (!st) {
    task.attempts.forEach((a, ai) => {
      const v = verifier.attempts[a.id];
      if (v) rows[ai] = v.specs;
    });
    return rows;
  }
  scanCells(task, st, verifier, policy, () => true, (c) => {
    const spec = task.specs[c.specIndex]?.id as string;
    const f = c.consensus.final;
    const v: SpecVerdict = f === 'satisfied' ? 'pass' : f === 'violated' ? 'fail' : c.verdict;
    if (v !== 'unknown') (rows[c.attemptIndex] as Record<string, SpecVerdict>)[spec] = v;
  });
  return rows;
}
