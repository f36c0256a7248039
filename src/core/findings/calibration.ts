// Calibration of the review agent against the curators (issue 13, item 3), pure: per prompt version and model, the
// precision, recall and Cohen's kappa of the agent's false-positive and false-negative findings against the
// curators' final verdicts, with the counts behind each figure and seeded bootstrap 95% intervals. See
// docs/calibration.md.
//
// One classification for both sides: a curator's final verdict (adjudicated, else the consensus; `scanCells`
// settles it, stale labels left out) and the agent's judgment are each set against the same verifier verdict with
// `deriveOutcome`, so "false positive" means the same thing for the agent as for the statistics table.
import type { CandidateTask, CuratorVerdict, LabelOutcome, SpecVerdict } from '../model';
import type { ConsensusPolicy } from '../review/consensus';
import type { FindingsRecord, ReviewState } from '../review/reducer';
import { scanCells } from '../review/taskReview';
import type { VerifierVerdicts } from '../review/verdicts';
import { deriveOutcome, withRecordedFallback } from '../review/verdicts';
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, CONFIDENCE, binomial, mulberry32, quantile } from '../specs/stats';
import type { Finding } from './model';

export interface CalibrationInput {
  tasks: readonly CandidateTask[];
  state: ReviewState;
  verdicts?: VerifierVerdicts;
  policy?: ConsensusPolicy;
  /**
   * SHA-256 of each attempt's current patch, by task id then attempt id, where the caller knows it: findings on another
   * patch are not current and are left out (counted in `notCurrent`). Without it every patch hash counts.
   */
  patchHashes?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  resamples?: number;
  seed?: number;
}

/** The 2×2 table of one candidate kind on its pairs: the agent's call (rows) against the curators' (columns). */
export interface Confusion {
  /** Both say it is a defect of this kind. */
  tp: number;
  /** The agent says so, the curators do not. */
  fp: number;
  /** The curators say so, the agent does not. */
  fn: number;
  /** Neither. */
  tn: number;
}

/** A figure, its fraction (where it is one) and its bootstrap interval; undefined where the figure is (0/0, or no variation). */
export interface CalibrationFigure {
  value?: number;
  /** Precision and recall: the counts the value is a ratio of. */
  numerator?: number;
  denominator?: number;
  low?: number;
  high?: number;
}

export interface CandidateCalibration extends Confusion {
  /** Pairs in the table: those whose verifier verdict admits this kind (pass for FP, fail for FN) and a decided curator verdict. */
  pairs: number;
  precision: CalibrationFigure;
  recall: CalibrationFigure;
  kappa: CalibrationFigure;
}

export interface CalibrationGroup {
  promptVersion: string;
  model: string;
  /** Current findings of this prompt version and model on attempts and specs the tasks have. */
  findings: number;
  /** Of those, on pairs no curator has a current label on (not in any denominator). */
  unlabelled: number;
  /** On pairs whose curators' verdict is undecided: unsure, an open disagreement, or no verifier verdict. */
  undecided: number;
  /** The agent said `unsure` (counted as "no defect" in the tables). */
  agentUnsure: number;
  falsePositive: CandidateCalibration;
  falseNegative: CandidateCalibration;
}

export interface CalibrationStats {
  policy: ConsensusPolicy;
  resamples: number;
  seed: number;
  confidence: number;
  groups: CalibrationGroup[];
  /** Findings left out: superseded by a later event of the same key, on another patch, or on an attempt or spec the task no longer has. */
  notCurrent: number;
  unknownPairs: number;
}

/** The key under which only the latest `review.findings` event counts. */
function recordKey(r: FindingsRecord): string {
  const p = r.payload;
  return [r.revision, p.attempt, p.patchHash, p.promptVersion, p.model].join('\u0000');
}

/** The current findings events of a task: the latest per revision × attempt × patch hash × prompt version × model,
 * then, per attempt × prompt version × model, the one at the highest revision (the latest of those). */
export function currentFindings(records: readonly FindingsRecord[], patchHashes?: Readonly<Record<string, string>>): { current: FindingsRecord[]; notCurrent: number } {
  const latest = new Map<string, FindingsRecord>();
  let notCurrent = 0;
  for (const r of records) {
    const want = patchHashes?.[r.payload.attempt];
    if (want !== undefined && want !== r.payload.patchHash) {
      notCurrent += r.payload.findings.length;
      continue;
    }
    const k = recordKey(r);
    const prev = latest.get(k);
    if (prev) notCurrent += prev.payload.findings.length;
    latest.set(k, r);
  }
  const best = new Map<string, FindingsRecord>();
  for (const r of latest.values()) {
    const k = [r.payload.attempt, r.payload.promptVersion, r.payload.model].join('\u0000');
    const prev = best.get(k);
    if (!prev || r.revision > prev.revision || (r.revision === prev.revision && (r.time > prev.time || (r.time === prev.time && r.event > prev.event)))) {
      if (prev) notCurrent += prev.payload.findings.length;
      best.set(k, r);
    } else notCurrent += r.payload.findings.length;
  }
  return { current: [...best.values()], notCurrent };
}

interface GroupAcc {
  promptVersion: string;
  model: string;
  findings: number;
  unlabelled: number;
  undecided: number;
  agentUnsure: number;
  fp: Confusion;
  fn: Confusion;
}

const confusion = (): Confusion => ({ tp: 0, fp: 0, fn: 0, tn: 0 });

function tally(c: Confusion, agent: boolean, curators: boolean): void {
  if (agent && curators) c.tp++;
  else if (agent) c.fp++;
  else if (curators) c.fn++;
  else c.tn++;
}

export function calibrationStats(input: CalibrationInput): CalibrationStats {
  const policy = input.policy ?? 'adjudicate';
  const resamples = Math.max(1, Math.floor(input.resamples ?? BOOTSTRAP_RESAMPLES));
  const seed = (input.seed ?? BOOTSTRAP_SEED) >>> 0;
  const groups = new Map<string, GroupAcc>();
  let notCurrent = 0;
  let unknownPairs = 0;
  const everyone = () => true;

  for (const task of input.tasks) {
    const st = input.state.tasks.get(task.id);
    if (!st || st.findings.length === 0) continue;
    const cur = currentFindings(st.findings, input.patchHashes?.[task.id]);
    notCurrent += cur.notCurrent;
    // Findings by attempt index then spec index, each with its group.
    const attemptIndex = new Map(task.attempts.map((a, i) => [a.id, i]));
    const specIndex = new Map(task.specs.map((s, i) => [s.id, i]));
    const byCell = new Map<number, Array<{ g: GroupAcc; finding: Finding }>>();
    for (const r of cur.current) {
      const ai = attemptIndex.get(r.payload.attempt);
      const gk = `${r.payload.promptVersion}\u0000${r.payload.model}`;
      let g = groups.get(gk);
      if (!g) groups.set(gk, (g = { promptVersion: r.payload.promptVersion, model: r.payload.model, findings: 0, unlabelled: 0, undecided: 0, agentUnsure: 0, fp: confusion(), fn: confusion() }));
      const seen = new Set<string>();
      for (const f of r.payload.findings) {
        const si = specIndex.get(f.spec);
        if (ai === undefined || si === undefined) {
          unknownPairs++;
          continue;
        }
        // One finding per spec and call; a repeat in the same reply is not a second judgment.
        if (seen.has(f.spec)) continue;
        seen.add(f.spec);
        const cell = ai * task.specs.length + si;
        let list = byCell.get(cell);
        if (!list) byCell.set(cell, (list = []));
        list.push({ g, finding: f });
      }
    }
    if (byCell.size === 0) continue;
    const verifier = withRecordedFallback(task, input.verdicts?.[task.id]);
    scanCells(task, st, verifier, policy, everyone, (c) => {
      const list = byCell.get(c.attemptIndex * task.specs.length + c.specIndex);
      if (!list) return;
      for (const { g, finding } of list) {
        g.findings++;
        if (finding.judgment === 'unsure') g.agentUnsure++;
        if (c.consensus.from === 'none') g.unlabelled++;
        else if (c.outcome === 'undecided') g.undecided++;
        else addPair(g, c.verdict, finding.judgment, c.outcome);
      }
    });
  }

  return {
    policy,
    resamples,
    seed,
    confidence: CONFIDENCE,
    groups: [...groups.values()]
      .sort((a, b) => (a.promptVersion !== b.promptVersion ? (a.promptVersion < b.promptVersion ? -1 : 1) : a.model < b.model ? -1 : a.model > b.model ? 1 : 0))
      .map((g) => ({
        promptVersion: g.promptVersion,
        model: g.model,
        findings: g.findings,
        unlabelled: g.unlabelled,
        undecided: g.undecided,
        agentUnsure: g.agentUnsure,
        falsePositive: calibrate(g.fp, resamples, seed),
        falseNegative: calibrate(g.fn, resamples, seed),
      })),
    notCurrent,
    unknownPairs,
  };
}

/** One decided pair into its group's table: FP pairs are those the verifier passes, FN pairs those it fails. */
function addPair(g: GroupAcc, verdict: SpecVerdict, agent: CuratorVerdict, curators: LabelOutcome): void {
  const agentOutcome = deriveOutcome(agent, verdict);
  if (verdict === 'pass') tally(g.fp, agentOutcome === 'false_positive', curators === 'false_positive');
  else tally(g.fn, agentOutcome === 'false_negative', curators === 'false_negative');
}

/** Precision, recall and kappa of a 2×2 table (undefined where 0/0 or, for kappa, where chance agreement is total). */
export function tableFigures(c: Confusion): { precision?: number; recall?: number; kappa?: number } {
  const n = c.tp + c.fp + c.fn + c.tn;
  const out: { precision?: number; recall?: number; kappa?: number } = {};
  if (c.tp + c.fp > 0) out.precision = c.tp / (c.tp + c.fp);
  if (c.tp + c.fn > 0) out.recall = c.tp / (c.tp + c.fn);
  if (n > 0) {
    const po = (c.tp + c.tn) / n;
    const pe = ((c.tp + c.fp) * (c.tp + c.fn) + (c.fn + c.tn) * (c.fp + c.tn)) / (n * n);
    if (pe < 1) out.kappa = (po - pe) / (1 - pe);
  }
  return out;
}

/**
 * The figures of a table with percentile-bootstrap intervals. A resample draws `pairs` pairs with replacement, which
 * for a 2×2 table is a Multinomial(pairs, cell shares) draw of the four counts (as conditional binomials, the
 * binomial sampler of core/specs/stats.ts, seeded mulberry32); the interval is the 2.5% and 97.5% quantiles of the
 * figure over the resamples where it is defined. `bootstrapMeans` does not fit: precision, recall and kappa are not
 * means of a per-pair value, so each resample recomputes the figure from its table.
 */
export function calibrate(c: Confusion, resamples: number = BOOTSTRAP_RESAMPLES, seed: number = BOOTSTRAP_SEED): CandidateCalibration {
  const n = c.tp + c.fp + c.fn + c.tn;
  const point = tableFigures(c);
  const out: CandidateCalibration = {
    ...c,
    pairs: n,
    precision: point.precision === undefined ? {} : { value: point.precision, numerator: c.tp, denominator: c.tp + c.fp },
    recall: point.recall === undefined ? {} : { value: point.recall, numerator: c.tp, denominator: c.tp + c.fn },
    kappa: point.kappa === undefined ? {} : { value: point.kappa },
  };
  if (n === 0) return out;
  const logFact = new Float64Array(n + 1);
  for (let i = 2; i <= n; i++) logFact[i] = (logFact[i - 1] as number) + Math.log(i);
  const rand = mulberry32(seed);
  const ps: number[] = [];
  const rs: number[] = [];
  const ks: number[] = [];
  const counts = [c.tp, c.fp, c.fn, c.tn];
  const drawn = [0, 0, 0, 0];
  for (let r = 0; r < resamples; r++) {
    let left = n;
    let mass = n;
    for (let d = 0; d < 4; d++) {
      const k = counts[d] as number;
      const x = d === 3 || mass === 0 ? (d === 3 ? left : 0) : binomial(left, k / mass, rand(), logFact);
      drawn[d] = x;
      left -= x;
      mass -= k;
    }
    const f = tableFigures({ tp: drawn[0] as number, fp: drawn[1] as number, fn: drawn[2] as number, tn: drawn[3] as number });
    if (f.precision !== undefined) ps.push(f.precision);
    if (f.recall !== undefined) rs.push(f.recall);
    if (f.kappa !== undefined) ks.push(f.kappa);
  }
  const alpha = (1 - CONFIDENCE) / 2;
  const interval = (fig: CalibrationFigure, values: number[]) => {
    if (fig.value === undefined || values.length === 0) return;
    const sorted = Float64Array.from(values).sort();
    fig.low = quantile(sorted, alpha);
    fig.high = quantile(sorted, 1 - alpha);
  };
  interval(out.precision, ps);
  interval(out.recall, rs);
  interval(out.kappa, ks);
  return out;
}
