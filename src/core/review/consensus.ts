// From several curators' labels and scores to one final verdict per (attempt, spec) and one final score per field:
// agreement, an adjudication, or, under the SWE-bench Verified policy, the most severe answer.
import type { CuratorVerdict, SpecVerdict } from '../model';
import type { Difficulty, EnvDefect, ScoreField, SeverityField } from './events';
import { DIFFICULTIES, SEVERITY_FIELDS } from './events';
import type { AdjudicationRecord, LabelRecord, ScoreRecord, TaskReviewState } from './reducer';
import { scoreKey } from './reducer';

/**
 * `adjudicate`: a disagreement stays open until someone adjudicates it. `highest-severity`: SWE-bench Verified's
 * rule, the most severe answer wins (the highest score; for a verdict, the one that makes a false positive or false
 * negative).
 */
export type ConsensusPolicy = 'adjudicate' | 'highest-severity';
export const CONSENSUS_POLICIES: readonly ConsensusPolicy[] = ['adjudicate', 'highest-severity'];

/** Where a final value came from. `disagreement`: curators differ and nothing settled it (no final value). */
export type FinalSource = 'none' | 'single' | 'agreement' | 'adjudicated' | 'policy' | 'disagreement';

/** Who the asking curator may see. In blind mode others stay hidden until the asker has submitted the task. */
export interface Visibility {
  viewer?: string;
  blind?: boolean;
}

/** True when `curator`'s labels and scores on this task may be shown to the viewer. */
export function visibleTo(st: TaskReviewState, vis: Visibility): (curator: string) => boolean {
  if (!vis.blind || vis.viewer === undefined) return () => true;
  const viewer = vis.viewer;
  if (st.submitted.has(viewer)) return () => true;
  return (c) => c === viewer;
}

/** Whether blindness hides anything from the viewer on this task right now. */
export function othersHidden(st: TaskReviewState, vis: Visibility): boolean {
  if (!vis.blind || vis.viewer === undefined || st.submitted.has(vis.viewer)) return false;
  for (const c of st.labels.keys()) if (c !== vis.viewer) return true;
  for (const c of st.scores.keys()) if (c !== vis.viewer) return true;
  return false;
}

/** The most severe verdict given the verifier's: the one that makes a defect outcome. */
function severityRank(v: CuratorVerdict, verifier: SpecVerdict): number {
  if (verifier === 'fail') return v === 'satisfied' ? 2 : v === 'unsure' ? 1 : 0;
  return v === 'violated' ? 2 : v === 'unsure' ? 1 : 0;
}

export interface VerdictConsensus {
  final?: CuratorVerdict;
  from: FinalSource;
  /** The curators' current verdicts differ (settled or not). */
  disagreement: boolean;
}

/** One final verdict from the current (non-stale) labels of several curators on one (attempt, spec). */
export function verdictConsensus(
  labels: readonly LabelRecord[],
  adjudication: AdjudicationRecord | undefined,
  verifier: SpecVerdict,
  policy: ConsensusPolicy,
): VerdictConsensus {
  const out: VerdictConsensus = { from: 'none', disagreement: false };
  settleVerdict(labels, adjudication, verifier, policy, out);
  if (out.final === undefined) delete out.final;
  return out;
}

/** `verdictConsensus` into a caller's object (reused across the cells of a whole dataset by the statistics). */
export function settleVerdict(
  labels: readonly LabelRecord[],
  adjudication: AdjudicationRecord | undefined,
  verifier: SpecVerdict,
  policy: ConsensusPolicy,
  out: VerdictConsensus,
): void {
  let disagreement = false;
  for (let i = 1; i < labels.length && !disagreement; i++) disagreement = (labels[i] as LabelRecord).verdict !== (labels[0] as LabelRecord).verdict;
  out.disagreement = disagreement;
  out.final = undefined;
  if (adjudication && adjudication.decision.target === 'label') {
    out.final = adjudication.decision.verdict;
    out.from = 'adjudicated';
  } else if (labels.length === 0) out.from = 'none';
  else if (!disagreement) {
    out.final = (labels[0] as LabelRecord).verdict;
    out.from = labels.length === 1 ? 'single' : 'agreement';
  } else if (policy === 'highest-severity') {
    let best = labels[0] as LabelRecord;
    for (const l of labels) if (severityRank(l.verdict, verifier) > severityRank(best.verdict, verifier)) best = l;
    out.final = best.verdict;
    out.from = 'policy';
  } else out.from = 'disagreement';
}

export interface FinalScore {
  underspecified?: number;
  fnSeverity?: number;
  fpSeverity?: number;
  difficulty?: Difficulty;
  envDefects?: EnvDefect[];
}

export interface ScoreConsensus {
  /** Visible scores, one per curator, by curator name. */
  scores: ScoreRecord[];
  final: FinalScore;
  from: Record<ScoreField, FinalSource>;
  /** Fields on which the curators differ (settled or not). */
  disagreements: ScoreField[];
  /** Fields whose disagreement is still open. */
  open: ScoreField[];
}

type FieldValue = number | string | string[];

const SCORE_FIELD_LIST: readonly ScoreField[] = [...SEVERITY_FIELDS, 'difficulty', 'envDefects'];

function fieldValue(r: ScoreRecord, f: ScoreField): FieldValue | undefined {
  if (f === 'envDefects') return r.score.envDefects.length <= 1 ? r.score.envDefects : [...r.score.envDefects].sort();
  if (f === 'difficulty') return r.score.difficulty;
  return r.score[f];
}

const same = (a: FieldValue, b: FieldValue) => (Array.isArray(a) && Array.isArray(b) ? a.join(',') === b.join(',') : a === b);

/** Final scores per field; under `highest-severity` the highest score, the hardest bucket, the union of defects. */
export function scoreConsensus(
  scores: readonly ScoreRecord[],
  adjudications: ReadonlyMap<string, AdjudicationRecord>,
  policy: ConsensusPolicy,
): ScoreConsensus {
  const final: FinalScore = {};
  const from = {} as Record<ScoreField, FinalSource>;
  const disagreements: ScoreField[] = [];
  const open: ScoreField[] = [];
  const set = (f: ScoreField, v: FieldValue | undefined) => {
    if (v === undefined) return;
    if (f === 'envDefects') final.envDefects = v as EnvDefect[];
    else if (f === 'difficulty') final.difficulty = v as Difficulty;
    else final[f as SeverityField] = v as number;
  };
  const fields = SCORE_FIELD_LIST;
  if (scores.length <= 1 && adjudications.size === 0) {
    // One curator or none: nothing to settle (the common case).
    const only = scores[0];
    for (const f of fields) {
      const v = only ? fieldValue(only, f) : undefined;
      set(f, v);
      from[f] = v === undefined ? 'none' : 'single';
    }
    return { scores: [...scores], final, from, disagreements, open };
  }
  for (const f of fields) {
    const vals = scores.map((s) => fieldValue(s, f)).filter((v): v is FieldValue => v !== undefined);
    const differ = vals.some((v) => !same(v, vals[0] as FieldValue));
    if (differ) disagreements.push(f);
    const adj = adjudications.get(scoreKey(f));
    if (adj && adj.decision.target === 'score') {
      set(f, Array.isArray(adj.decision.value) ? [...adj.decision.value].sort() : adj.decision.value);
      from[f] = 'adjudicated';
    } else if (vals.length === 0) from[f] = 'none';
    else if (!differ) {
      set(f, vals[0]);
      from[f] = vals.length === 1 ? 'single' : 'agreement';
    } else if (policy === 'highest-severity') {
      if (f === 'envDefects') set(f, [...new Set((vals as string[][]).flat())].sort());
      else if (f === 'difficulty') set(f, DIFFICULTIES[Math.max(...vals.map((v) => DIFFICULTIES.indexOf(v as Difficulty)))]);
      else set(f, Math.max(...(vals as number[])));
      from[f] = 'policy';
    } else {
      from[f] = 'disagreement';
      open.push(f);
    }
  }
  return { scores: [...scores], final, from, disagreements, open };
}
