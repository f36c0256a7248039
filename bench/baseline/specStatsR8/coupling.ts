// The spec statistics as of dc3f8bd (round 8 of issue 12 starts here), kept to be measured side by side.
// The coupling of a task's specs, pure: which specs are interdependent by what is measured (tests they share, the
// `dependsOn` links curators declared, verdicts that flip together across attempts), as a graph and as one figure,
// 1 - (components - 1) / (specs - 1) over that graph. docs/coupling.md defines it and says what it cannot see.
import type { CandidateTask, SpecVerdict } from '../../../src/core/model';
import type { ConsensusPolicy, VerdictConsensus } from '../../../src/core/review/consensus';
import { settleVerdict } from '../../../src/core/review/consensus';
import type { LabelRecord, TaskReviewState } from '../../../src/core/review/reducer';
import { cellKey } from '../../../src/core/review/reducer';
import { scanCells } from '../../../src/core/review/taskReview';
import type { TaskVerifierResults } from '../../../src/core/review/verdicts';
import { withRecordedFallback } from '../../../src/core/review/verdicts';

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

// Scratch space reused from task to task (statistics compute 15,000 of them in a row): the computation is
// synchronous and calls nothing back, so one set of buffers serves every call. Grown on demand, never shrunk.
const index = new Map<string, number>();
let ids: string[] = [];
let n = 0;
let words = 0;
let has = new Int32Array(0);
let pass = new Int32Array(0);
/** Pair (i, j), i < j, at i * n + j: tests both are mapped to; `declared` bit 1 for i names j, 2 for j names i. */
let shared = new Int32Array(0);
let declared = new Uint8Array(0);
/** Tests mapped to each spec. */
let testCount = new Int32Array(0);
let parent = new Int32Array(0);
let degree = new Int32Array(0);
let specsOfTest = new Int32Array(0);
/** Index in the specs of the first spec of each distinct id. */
let firstOf: number[] = [];

/** Up to this many specs, ids are found by a scan of `ids` (a Map costs more than it saves on a handful). */
const LINEAR_IDS = 16;
let byMap = false;

/** The index of a distinct spec id, undefined for an id the task does not have. */
function indexOf(id: string): number | undefined {
  if (byMap) return index.get(id);
  for (let i = 0; i < ids.length; i++) if (ids[i] === id) return i;
  return undefined;
}

/** Indexes the distinct spec ids and reads the spec-test map and `dependsOn` into the scratch space. */
function prepare(specs: CouplingInput['specs'], tests: CouplingInput['tests'], rows: number): void {
  ids = [];
  firstOf = [];
  byMap = specs.length > LINEAR_IDS;
  if (byMap) index.clear();
  for (let si = 0; si < specs.length; si++) {
    const id = (specs[si] as CouplingInput['specs'][number]).id;
    if (indexOf(id) !== undefined) continue;
    if (byMap) index.set(id, ids.length);
    ids.push(id);
    firstOf.push(si);
  }
  n = ids.length;
  words = (rows + 31) >>> 5;
  if (has.length < n * words) {
    has = new Int32Array(Math.max(n * words, 2 * has.length));
    pass = new Int32Array(has.length);
  }
  has.fill(0, 0, n * words);
  pass.fill(0, 0, n * words);
  if (shared.length < n * n) {
    shared = new Int32Array(Math.max(n * n, 2 * shared.length));
    declared = new Uint8Array(shared.length);
  }
  shared.fill(0, 0, n * n);
  declared.fill(0, 0, n * n);
  if (parent.length < n) {
    const cap = Math.max(n, 2 * parent.length);
    parent = new Int32Array(cap);
    degree = new Int32Array(cap);
    testCount = new Int32Array(cap);
    specsOfTest = new Int32Array(cap);
  }
  testCount.fill(0, 0, n);
  // A test naming a spec twice counts once: its distinct specs, then every pair of them.
  for (const t of tests) {
    let k = 0;
    for (const sid of t.specs) {
      const i = indexOf(sid);
      if (i === undefined) continue;
      let dup = false;
      for (let q = 0; q < k && !dup; q++) dup = specsOfTest[q] === i;
      if (dup) continue;
      specsOfTest[k++] = i;
      testCount[i] = (testCount[i] as number) + 1;
    }
    for (let x = 0; x < k; x++) {
      for (let y = x + 1; y < k; y++) {
        const a = specsOfTest[x] as number;
        const b = specsOfTest[y] as number;
        const at = a < b ? a * n + b : b * n + a;
        shared[at] = (shared[at] as number) + 1;
      }
    }
  }
  for (const s of specs) {
    const i = indexOf(s.id) as number;
    for (const d of s.dependsOn ?? []) {
      const j = indexOf(d);
      if (j === undefined || j === i) continue;
      if (i < j) declared[i * n + j] = (declared[i * n + j] as number) | 1;
      else declared[j * n + i] = (declared[j * n + i] as number) | 2;
    }
  }
}

/** Sets spec i's verdict bit of attempt r: pass, fail, or none (anything else). */
function setVerdict(i: number, r: number, v: unknown): void {
  const at = i * words + (r >>> 5);
  const bit = 1 << (r & 31);
  if (v === 'pass') {
    has[at] = (has[at] as number) | bit;
    pass[at] = (pass[at] as number) | bit;
  } else if (v === 'fail') {
    has[at] = (has[at] as number) | bit;
    pass[at] = (pass[at] as number) & ~bit;
  } else {
    has[at] = (has[at] as number) & ~bit;
    pass[at] = (pass[at] as number) & ~bit;
  }
}

/** The graph's parts, when asked for: `taskCoupling` with `graph`. */
interface GraphParts {
  tests: CouplingInput['tests'];
  edges: CouplingEdge[];
}

/**
 * The pairs over the scratch space: evidence per pair, degrees, components (in `parent`); the edges too with `graph`.
 * Leaves the degrees in `degree` and the components in `parent` for the caller.
 */
function pairs(minAttempts: number, phiAt: number, graph: GraphParts | undefined): { groupCount: number; coupledPairs: number; measuredPairs: number; byEvidence: { sharedTests: number; declared: number; coFlip: number } } {
  for (let i = 0; i < n; i++) {
    parent[i] = i;
    degree[i] = 0;
  }
  const byEvidence = { sharedTests: 0, declared: 0, coFlip: 0 };
  let coupledPairs = 0;
  let measuredPairs = 0;
  let testsOf: number[][] | undefined;
  if (graph) {
    testsOf = ids.map(() => []);
    graph.tests.forEach((t, ti) => {
      for (const sid of t.specs) {
        const i = indexOf(sid);
        if (i === undefined) continue;
        const list = (testsOf as number[][])[i] as number[];
        if (list[list.length - 1] !== ti) list.push(ti);
      }
    });
  }
  for (let i = 0; i < n; i++) {
    const hi = i * words;
    for (let j = i + 1; j < n; j++) {
      const sh = shared[i * n + j] as number;
      const dec = declared[i * n + j] as number;
      // Co-flip: the 2x2 table of the two verdicts over attempts that have both.
      let n11 = 0;
      let n10 = 0;
      let n01 = 0;
      let n00 = 0;
      const hj = j * words;
      for (let w = 0; w < words; w++) {
        const h = (has[hi + w] as number) & (has[hj + w] as number);
        if (h === 0) continue;
        const a = (pass[hi + w] as number) & h;
        const b = (pass[hj + w] as number) & h;
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
      if (sh === 0 && dec === 0 && !coFlip) continue;

      coupledPairs++;
      if (sh > 0) byEvidence.sharedTests++;
      if (dec !== 0) byEvidence.declared++;
      if (coFlip) byEvidence.coFlip++;
      degree[i] = (degree[i] as number) + 1;
      degree[j] = (degree[j] as number) + 1;
      const ri = find(i);
      const rj = find(j);
      if (ri !== rj) parent[Math.max(ri, rj)] = Math.min(ri, rj);
      if (!graph) continue;

      const evidence: CouplingEvidence = {};
      let weight = 0;
      if (sh > 0) {
        const ti = (testsOf as number[][])[i] as number[];
        const tj = (testsOf as number[][])[j] as number[];
        const jaccard = sh / (ti.length + tj.length - sh);
        const inI = new Set(ti);
        evidence.sharedTests = { tests: tj.filter((t) => inI.has(t)).map((t) => (graph.tests[t] as { id: string }).id), jaccard };
        weight = Math.max(weight, jaccard);
      }
      if (dec !== 0) {
        evidence.declared = dec === 3 ? 'both' : dec === 1 ? 'a->b' : 'b->a';
        weight = 1;
      }
      if (coFlip) {
        evidence.coFlip = { phi: phi as number, attempts: both };
        weight = Math.max(weight, Math.abs(phi as number));
      }
      graph.edges.push({ a: ids[i] as string, b: ids[j] as string, weight, evidence });
    }
  }
  let groupCount = 0;
  for (let i = 0; i < n; i++) if (find(i) === i) groupCount++;
  return { groupCount, coupledPairs, measuredPairs, byEvidence };
}

function find(x: number): number {
  while (parent[x] !== x) {
    parent[x] = parent[parent[x] as number] as number;
    x = parent[x] as number;
  }
  return x;
}

/** The coupling graph and figure of one task. Unknown or repeated ids in `dependsOn` and the map are ignored. */
export function taskCoupling(input: CouplingInput, options: CouplingOptions = {}): TaskCoupling {
  const minAttempts = options.minAttempts ?? COUPLING_DEFAULTS.minAttempts;
  const phiAt = options.coFlipPhi ?? COUPLING_DEFAULTS.coFlipPhi;
  const withGraph = options.graph ?? true;
  prepare(input.specs, input.tests, input.verdicts.length);
  fillRows(input.verdicts);
  const edges: CouplingEdge[] = [];
  const p = pairs(minAttempts, phiAt, withGraph ? { tests: input.tests, edges } : undefined);

  const groupOfRoot = new Array<number>(n).fill(-1);
  const groups: string[][] = [];
  const groupOf = new Array<number>(n).fill(0);
  let groupCount = 0;
  for (let i = 0; i < n; i++) {
    const root = find(i);
    if (groupOfRoot[root] === -1) {
      groupOfRoot[root] = groupCount++;
      if (withGraph) groups.push([]);
    }
    groupOf[i] = groupOfRoot[root] as number;
    if (withGraph) (groups[groupOf[i] as number] as string[]).push(ids[i] as string);
  }

  const pairCount = n < 2 ? 0 : (n * (n - 1)) / 2;
  return {
    specs: n,
    coupling: couplingFigure(n, p.groupCount),
    groupCount: p.groupCount,
    pairs: pairCount,
    coupledPairs: p.coupledPairs,
    pairShare: pairCount > 0 ? p.coupledPairs / pairCount : 0,
    byEvidence: p.byEvidence,
    measuredPairs: p.measuredPairs,
    specShare: ids.map((id, i) => ({ id, share: n > 1 ? (degree[i] as number) / (n - 1) : 0 })),
    nodes: withGraph ? ids.map((id, i) => ({ id, group: groupOf[i] as number, degree: degree[i] as number, tests: testCount[i] as number })) : [],
    edges,
    groups,
  };
}

/** The figures of a task's coupling the statistics need (a `TaskCoupling` without the graph and the pair share). */
export interface CouplingFigures {
  specs: number;
  coupling: number;
  pairs: number;
  coupledPairs: number;
  byEvidence: { sharedTests: number; declared: number; coFlip: number };
  measuredPairs: number;
  /** Per distinct spec id in task order: the index in `task.specs` of its first spec, and its `specShare`. */
  first: number[];
  share: number[];
}

/**
 * `taskCoupling` of `measuredVerdicts(task, st, withRecordedFallback(task, results), policy)` without the graph,
 * computed straight from the verifier's results and the curators' labels (no verdict records built): the figures
 * `taskCoupling(..., { graph: false })` gives, the same numbers to the bit. `results` are the task's verifier results
 * as stored; the imported results fill in for attempts without any, as `withRecordedFallback` does.
 */
export function measuredCoupling(
  task: CandidateTask,
  st: TaskReviewState | undefined,
  results: TaskVerifierResults | undefined,
  policy: ConsensusPolicy = 'adjudicate',
  options: Omit<CouplingOptions, 'graph'> = {},
): CouplingFigures {
  const minAttempts = options.minAttempts ?? COUPLING_DEFAULTS.minAttempts;
  const phiAt = options.coFlipPhi ?? COUPLING_DEFAULTS.coFlipPhi;
  const attempts = task.attempts;
  const labelled = st !== undefined && (st.labels.size > 0 || st.adjudications.size > 0);
  // A NUL in an id could make two cells share a key: the cell-by-cell scan reads such a task as it must.
  if (labelled && (attempts.some((a) => a.id.includes('\u0000')) || task.specs.some((s) => s.id.includes('\u0000')))) {
    const rows = measuredVerdicts(task, st, withRecordedFallback(task, results), policy);
    prepare(task.specs, task.tests, rows.length);
    fillRows(rows);
    return figures(pairs(minAttempts, phiAt, undefined));
  }
  prepare(task.specs, task.tests, attempts.length);
  let verifier = results;
  // The stored results as they are while they cover every attempt (the common case: one lookup per attempt);
  // else the recorded fallback over all of them, read again from the start.
  const complete = verifier !== undefined && readResults(attempts, verifier, true);
  if (!complete) {
    verifier = withRecordedFallback(task, results);
    has.fill(0, 0, n * words);
    pass.fill(0, 0, n * words);
    readResults(attempts, verifier, false);
  }
  if (labelled) settleLabelled(task, st, verifier as TaskVerifierResults, policy);
  return figures(pairs(minAttempts, phiAt, undefined));
}

/**
 * Reads each attempt's spec verdicts into the bits. An attempt without results has none; with `untilMissing`,
 * false at the first one instead (the caller reads again from the recorded fallback).
 */
function readResults(attempts: CandidateTask['attempts'], verifier: TaskVerifierResults, untilMissing: boolean): boolean {
  for (let r = 0; r < attempts.length; r++) {
    const v = verifier.attempts[(attempts[r] as CandidateTask['attempts'][number]).id];
    if (v === undefined && untilMissing) return false;
    // Present but empty (a null from a hand-written file): no verdicts, as measuredVerdicts reads it.
    if (!v) continue;
    const specs = v.specs as Readonly<Record<string, SpecVerdict | undefined>>;
    const w = r >>> 5;
    const bit = 1 << (r & 31);
    // By the record's own keys (for-in reads a record's values by slot, not by a lookup per spec id): each key
    // the task has a spec of sets that spec's bit. A record lists its specs in the task's order as a rule, so the
    // next spec is tried before a scan.
    let next = 0;
    for (const key in specs) {
      const i = next < n && ids[next] === key ? next : indexOf(key);
      if (i === undefined) continue;
      next = i + 1;
      const x = specs[key];
      if (x === 'pass') {
        has[i * words + w] = (has[i * words + w] as number) | bit;
        pass[i * words + w] = (pass[i * words + w] as number) | bit;
      } else if (x === 'fail') has[i * words + w] = (has[i * words + w] as number) | bit;
    }
  }
  return true;
}

function fillRows(rows: ReadonlyArray<Readonly<Record<string, SpecVerdict | undefined>>>): void {
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as Readonly<Record<string, SpecVerdict | undefined>>;
    for (let i = 0; i < n; i++) setVerdict(i, r, row[ids[i] as string]);
  }
}

/**
 * The cells the curators labelled or adjudicated, settled as `measuredVerdicts` settles them (every other cell keeps
 * the verifier's verdict, which settling a cell without labels gives anyway): only those cells are visited.
 */
function settleLabelled(task: CandidateTask, st: TaskReviewState, verifier: TaskVerifierResults, policy: ConsensusPolicy): void {
  const names = [...st.labels.keys()];
  if (names.length > 1) names.sort();
  const maps = names.map((c) => st.labels.get(c) as Map<string, LabelRecord>);
  for (const m of maps) for (const l of m.values()) settleCells(task, st, maps, verifier, policy, l.attempt, l.spec);
  for (const a of st.adjudications.values()) if (a.decision.target === 'label') settleCells(task, st, maps, verifier, policy, a.decision.attempt, a.decision.spec);
}

const settled: VerdictConsensus = { from: 'none', disagreement: false };
const currentLabels: LabelRecord[] = [];

/** Settles the cells of (attempt, spec): every attempt of that id, the spec's distinct index. */
function settleCells(task: CandidateTask, st: TaskReviewState, maps: ReadonlyArray<Map<string, LabelRecord>>, verifier: TaskVerifierResults, policy: ConsensusPolicy, attempt: string, spec: string): void {
  const i = indexOf(spec);
  if (i === undefined) return;
  const attempts = task.attempts;
  for (let r = 0; r < attempts.length; r++) {
    const a = attempts[r] as CandidateTask['attempts'][number];
    if (a.id !== attempt) continue;
    const key = cellKey(a.id, spec);
    currentLabels.length = 0;
    for (const m of maps) {
      const l = m.get(key);
      if (l && !l.stale) currentLabels.push(l);
    }
    const verdict: SpecVerdict = verifier.attempts[a.id]?.specs[spec] ?? 'unknown';
    settleVerdict(currentLabels, st.adjudications.size > 0 ? st.adjudications.get(key) : undefined, verdict, policy, settled);
    const f = settled.final;
    setVerdict(i, r, f === 'satisfied' ? 'pass' : f === 'violated' ? 'fail' : verdict);
  }
}

function figures(p: ReturnType<typeof pairs>): CouplingFigures {
  const first = firstOf;
  const share: number[] = [];
  for (let i = 0; i < n; i++) share.push(n > 1 ? (degree[i] as number) / (n - 1) : 0);
  return {
    specs: n,
    coupling: couplingFigure(n, p.groupCount),
    pairs: n < 2 ? 0 : (n * (n - 1)) / 2,
    coupledPairs: p.coupledPairs,
    byEvidence: p.byEvidence,
    measuredPairs: p.measuredPairs,
    first,
    share,
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
