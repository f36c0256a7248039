// The before/after matrix of a repair: per attempt and spec, the verifier's verdict and the curation outcome on the
// old revision and on the new one, and which false positives and false negatives disappeared or appeared. Outcomes
// come from the curation core (assessTask), so curator labels carry over to specs the revision did not change and go
// stale on the ones it did. Fresh solver trials of the revalidation (attempts that exist only on the new revision)
// are kept apart, in `fresh`: the comparison (cells, counts, what disappeared or appeared) is of the attempts run on
// both revisions, and a fresh trial's cells have nothing before them.
import type { FreshTrialEntry } from './fresh';
import type { CandidateTask, LabelOutcome, SpecVerdict } from '../model';
import type { ConsensusPolicy } from '../review/consensus';
import type { ReviewEvent } from '../review/events';
import { compareEvents } from '../review/events';
import type { TaskReviewState } from '../review/reducer';
import { reduceTask } from '../review/reducer';
import { assessTask } from '../review/taskReview';
import type { TaskVerifierResults } from '../review/verdicts';
import { EMPTY_PROBE, GOLD_PROBE } from '../model';

export type CellChange = 'fp_fixed' | 'fn_fixed' | 'fp_new' | 'fn_new' | 'verdict_changed' | 'same';

export interface MatrixSide {
  /** `absent`: the spec or the attempt does not exist on that side. */
  verifier: SpecVerdict | 'absent';
  outcome: LabelOutcome | 'absent';
  /** Run (or imported file) the verdict rests on. */
  run?: string;
}

export interface MatrixCell {
  attempt: string;
  spec: string;
  before: MatrixSide;
  after: MatrixSide;
  change: CellChange;
}

export interface ProbeRow {
  attempt: typeof GOLD_PROBE | typeof EMPTY_PROBE;
  before: { status?: string; specs: Record<string, SpecVerdict> };
  after: { status?: string; specs: Record<string, SpecVerdict> };
}

export interface RepairMatrix {
  fromRevision: number;
  toRevision: number;
  attempts: string[];
  specs: string[];
  cells: MatrixCell[];
  probes: ProbeRow[];
  /** Attempt status per side (passed, failed, recorded:..., or absent). */
  attemptStatus: Record<string, { before?: string; after?: string }>;
  fixed: { falsePositives: CellRef[]; falseNegatives: CellRef[] };
  introduced: { falsePositives: CellRef[]; falseNegatives: CellRef[] };
  counts: { before: { falsePositives: number; falseNegatives: number }; after: { falsePositives: number; falseNegatives: number } };
  /** The fresh trials of the revalidation, when it ran some (a matrix without them has no `fresh`). */
  fresh?: FreshMatrix;
}

/** Fresh trials on the new revision: their cells' `before` is always absent; their counts are of the new side only. */
export interface FreshMatrix {
  /** Every trial run, also those that did not land as an attempt (no `attempt`). */
  trials: FreshTrialEntry[];
  /** The attempts of the trials that landed, in the order run. */
  attempts: string[];
  cells: MatrixCell[];
  attemptStatus: Record<string, { after?: string }>;
  counts: { falsePositives: number; falseNegatives: number };
}

export interface CellRef {
  attempt: string;
  spec: string;
}

export interface MatrixInput {
  before: { task: CandidateTask; verifier?: TaskVerifierResults };
  after: { task: CandidateTask; verifier?: TaskVerifierResults };
  /** The task's review state with the revision event (its events are the whole history). */
  state: TaskReviewState;
  /** Id of the `revision` event that made the new revision; the "before" side is the log up to it. */
  revisionEvent?: string;
  policy?: ConsensusPolicy;
  /** The fresh trials of the revalidation: their attempts leave the comparison and go to `fresh`. */
  fresh?: readonly FreshTrialEntry[];
}

function classify(before: MatrixSide, after: MatrixSide): CellChange {
  const bFp = before.outcome === 'false_positive';
  const bFn = before.outcome === 'false_negative';
  const aFp = after.outcome === 'false_positive';
  const aFn = after.outcome === 'false_negative';
  if (bFp && !aFp) return 'fp_fixed';
  if (bFn && !aFn) return 'fn_fixed';
  if (aFp && !bFp) return 'fp_new';
  if (aFn && !bFn) return 'fn_new';
  return before.verifier !== after.verifier ? 'verdict_changed' : 'same';
}

export function repairMatrix(inp: MatrixInput): RepairMatrix {
  const policy = inp.policy ?? 'adjudicate';
  const st = inp.state;
  let beforeState = st;
  if (inp.revisionEvent) {
    const rev = st.events.find((e) => e.id === inp.revisionEvent);
    if (rev) beforeState = reduceTask(st.task, st.events.filter((e: ReviewEvent) => compareEvents(e, rev) < 0));
  }
  const b = assessTask({ task: inp.before.task, state: beforeState, ...(inp.before.verifier ? { verifier: inp.before.verifier } : {}), policy });
  const a = assessTask({ task: inp.after.task, state: st, ...(inp.after.verifier ? { verifier: inp.after.verifier } : {}), policy });
  const key = (x: CellRef) => `${x.attempt}\u0000${x.spec}`;
  const bCells = new Map(b.cells.map((c) => [key(c), c]));
  const aCells = new Map(a.cells.map((c) => [key(c), c]));
  const freshIds = new Set((inp.fresh ?? []).map((t) => t.attempt).filter((x): x is string => x !== undefined));
  const attempts = [...new Set([...inp.before.task.attempts.map((x) => x.id), ...inp.after.task.attempts.map((x) => x.id)])].filter((x) => !freshIds.has(x));
  const specs = [...new Set([...inp.before.task.specs.map((s) => s.id), ...inp.after.task.specs.map((s) => s.id)])];
  const side = (c: (typeof b.cells)[number] | undefined): MatrixSide =>
    c ? { verifier: c.verifier, outcome: c.outcome, ...(c.verifierRun ? { run: c.verifierRun } : {}) } : { verifier: 'absent', outcome: 'absent' };
  const cells: MatrixCell[] = [];
  for (const at of attempts) {
    for (const sp of specs) {
      const k = key({ attempt: at, spec: sp });
      const before = side(bCells.get(k));
      const after = side(aCells.get(k));
      cells.push({ attempt: at, spec: sp, before, after, change: classify(before, after) });
    }
  }
  // Gone and appeared are read from the outcomes, not from each cell's one-word change: a cell can lose a false
  // positive and gain a false negative at once.
  const refs = (gone: boolean, o: LabelOutcome) =>
    cells
      .filter((c) => (gone ? c.before.outcome === o && c.after.outcome !== o : c.after.outcome === o && c.before.outcome !== o))
      .map((c) => ({ attempt: c.attempt, spec: c.spec }));
  const count = (which: 'before' | 'after', o: LabelOutcome) => cells.filter((c) => c[which].outcome === o).length;
  const probe = (id: typeof GOLD_PROBE | typeof EMPTY_PROBE): ProbeRow => {
    const pb = b.verifier.attempts[id];
    const pa = a.verifier.attempts[id];
    return {
      attempt: id,
      before: { ...(pb ? { status: pb.status } : {}), specs: { ...(pb?.specs ?? {}) } },
      after: { ...(pa ? { status: pa.status } : {}), specs: { ...(pa?.specs ?? {}) } },
    };
  };
  const attemptStatus: RepairMatrix['attemptStatus'] = {};
  for (const at of attempts) {
    const vb = b.verifier.attempts[at];
    const va = a.verifier.attempts[at];
    attemptStatus[at] = { ...(vb ? { before: vb.status } : {}), ...(va ? { after: va.status } : {}) };
  }
  let fresh: FreshMatrix | undefined;
  if (inp.fresh) {
    const landed = [...freshIds].filter((x) => inp.after.task.attempts.some((t) => t.id === x));
    const absent: MatrixSide = { verifier: 'absent', outcome: 'absent' };
    const fcells: MatrixCell[] = [];
    const fstatus: FreshMatrix['attemptStatus'] = {};
    for (const at of landed) {
      for (const sp of specs) {
        const after = side(aCells.get(key({ attempt: at, spec: sp })));
        fcells.push({ attempt: at, spec: sp, before: absent, after, change: classify(absent, after) });
      }
      const va = a.verifier.attempts[at];
      fstatus[at] = va ? { after: va.status } : {};
    }
    fresh = {
      trials: inp.fresh.map((t) => ({ ...t })),
      attempts: landed,
      cells: fcells,
      attemptStatus: fstatus,
      counts: { falsePositives: fcells.filter((c) => c.after.outcome === 'false_positive').length, falseNegatives: fcells.filter((c) => c.after.outcome === 'false_negative').length },
    };
  }
  return {
    fromRevision: inp.before.task.revision,
    toRevision: inp.after.task.revision,
    attempts,
    specs,
    cells,
    probes: [probe(GOLD_PROBE), probe(EMPTY_PROBE)],
    attemptStatus,
    fixed: { falsePositives: refs(true, 'false_positive'), falseNegatives: refs(true, 'false_negative') },
    introduced: { falsePositives: refs(false, 'false_positive'), falseNegatives: refs(false, 'false_negative') },
    counts: {
      before: { falsePositives: count('before', 'false_positive'), falseNegatives: count('before', 'false_negative') },
      after: { falsePositives: count('after', 'false_positive'), falseNegatives: count('after', 'false_negative') },
    },
    ...(fresh ? { fresh } : {}),
  };
}

/** The matrix as plain text lines (CLI and logs). */
export function formatMatrix(m: RepairMatrix): string {
  const lines: string[] = [];
  lines.push(`revision ${m.fromRevision} -> ${m.toRevision}: false positives ${m.counts.before.falsePositives} -> ${m.counts.after.falsePositives}, false negatives ${m.counts.before.falseNegatives} -> ${m.counts.after.falseNegatives}`);
  const list = (xs: CellRef[]) => (xs.length === 0 ? 'none' : xs.map((x) => `${x.attempt} × ${x.spec}`).join(', '));
  lines.push(`  gone:     false positives: ${list(m.fixed.falsePositives)}; false negatives: ${list(m.fixed.falseNegatives)}`);
  lines.push(`  appeared: false positives: ${list(m.introduced.falsePositives)}; false negatives: ${list(m.introduced.falseNegatives)}`);
  const short: Record<string, string> = { true_pass: 'TP', true_fail: 'TF', false_positive: 'FP', false_negative: 'FN', undecided: '·', absent: '-' };
  const v = (s: string) => (s === 'pass' ? 'pass' : s === 'fail' ? 'FAIL' : s === 'unknown' ? '?' : '-');
  const w = Math.max(8, ...m.attempts.map((a) => a.length), ...(m.fresh?.attempts ?? []).map((a) => a.length + 6), 5);
  lines.push(`  ${'attempt'.padEnd(w)}  ${m.specs.map((s) => s.padEnd(13)).join(' ')}`);
  const row = (label: string, cellsOf: (spec: string) => string) => lines.push(`  ${label.padEnd(w)}  ${m.specs.map((s) => cellsOf(s).padEnd(13)).join(' ')}`);
  for (const at of m.attempts) {
    const st = m.attemptStatus[at];
    row(at, (sp) => {
      const c = m.cells.find((x) => x.attempt === at && x.spec === sp);
      if (!c) return '';
      return `${v(c.before.verifier)}/${short[c.before.outcome]}>${v(c.after.verifier)}/${short[c.after.outcome]}`;
    });
    if (st) lines.push(`  ${''.padEnd(w)}  status ${st.before ?? 'not run'} -> ${st.after ?? 'not run'}`);
  }
  for (const p of m.probes) row(p.attempt, (sp) => `${v(p.before.specs[sp] ?? 'absent')}>${v(p.after.specs[sp] ?? 'absent')}`);
  if (m.fresh) {
    const f = m.fresh;
    lines.push(`  fresh trials on revision ${m.toRevision} (not run before): ${f.trials.length}, false positives ${f.counts.falsePositives}, false negatives ${f.counts.falseNegatives}`);
    for (const t of f.trials) {
      const at = t.attempt;
      if (at !== undefined && f.attempts.includes(at)) {
        row(`fresh ${at}`, (sp) => {
          const c = f.cells.find((x) => x.attempt === at && x.spec === sp);
          return c ? `—>${v(c.after.verifier)}/${short[c.after.outcome]}` : '';
        });
      }
      const end = [t.exitStatus, t.verdict ? `verifier ${t.verdict}` : '', t.error ? `error: ${t.error}` : ''].filter((x) => x).join(', ');
      lines.push(`  ${''.padEnd(w)}  ${at ?? '(no attempt)'} · ${t.model}: ${end || 'no result'}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
