// The review of one task as a UI renders it: every (attempt, spec) cell with the verifier's verdict, the curators'
// labels (others' hidden in blind mode until the viewer has submitted), the final verdict and outcome, the scores,
// the oracle-probe flags (each confirmed or dismissed by a curator), the approval rules and what blocks approval, disagreements, and the history.
import type { CandidateTask, CuratorVerdict, LabelOutcome, SpecVerdict, TaskStatus } from '../model';
import type { ConsensusPolicy, FinalSource, ScoreConsensus, VerdictConsensus, Visibility } from './consensus';
import { othersHidden, scoreConsensus, settleVerdict, visibleTo } from './consensus';
import { describeEvent } from './describe';
import type { ReviewEvent, ScoreField, Waiver } from './events';
import { isUndoable } from './events';
import { allowedTransitions, DECISION_STATUSES } from './lifecycle';
import type {
  AdjudicationRecord,
  ApprovalRecord,
  LabelRecord,
  RejectionRecord,
  ReplayIssue,
  ReviewState,
  ScoreRecord,
  FlagDecision,
  TaskReviewState,
} from './reducer';
import { cellKey, emptyTaskState } from './reducer';
import type { RuleResult } from './rules';
import { blockingRules, evaluateRules } from './rules';
import type { AttemptVerifierResult, TaskVerifierResults, VerifierFlag, VerifierStatus } from './verdicts';
import { deriveOutcome, withRecordedFallback } from './verdicts';

export interface TaskReviewInput extends Visibility {
  task: CandidateTask;
  /** The whole review state, or this task's part of it. */
  state: ReviewState | TaskReviewState;
  /** This task's verifier results; attempts without a run fall back to their imported results. */
  verifier?: TaskVerifierResults;
  /** Default `adjudicate`. */
  policy?: ConsensusPolicy;
  /** Waivers to evaluate the rules with (an approval being prepared); the current approval's otherwise. */
  waivers?: readonly Waiver[];
  /** Evaluate the approval rules (default true; statistics do not need them). */
  rules?: boolean;
}

export interface CellAssessment {
  attempt: string;
  spec: string;
  verifier: SpecVerdict;
  /** Run (or imported file) the verifier verdict comes from. */
  verifierRun?: string;
  verifierStale: boolean;
  /** Visible current labels, one per curator, by curator name. */
  labels: LabelRecord[];
  /** Visible labels made before the spec changed in a later revision. */
  staleLabels: LabelRecord[];
  final?: CuratorVerdict;
  from: FinalSource;
  disagreement: boolean;
  outcome: LabelOutcome;
  adjudication?: AdjudicationRecord;
}

export interface FlagReview extends VerifierFlag {
  decision?: FlagDecision;
  /** Neither confirmed nor dismissed yet. */
  open: boolean;
}

/** The lean assessment (no presentation) used by the rules, the statistics and the export. */
export interface TaskAssessment {
  task: CandidateTask;
  state: TaskReviewState;
  verifier: TaskVerifierResults;
  policy: ConsensusPolicy;
  cells: CellAssessment[];
  scores: ScoreConsensus;
  flags: FlagReview[];
  rules: RuleResult[];
  /** Failing rules without a waiver; approval is refused while any remains. */
  blockers: RuleResult[];
  /** Labels on attempts or specs the task no longer has. */
  orphanLabels: LabelRecord[];
}

function taskStateOf(input: TaskReviewInput): TaskReviewState {
  const s = input.state;
  if ('tasks' in s) return s.tasks.get(input.task.id) ?? emptyTaskState(input.task.id);
  return s;
}

/** One cell as `scanCells` sees it. The object and its label arrays are reused from cell to cell: copy what you keep. */
export interface CellScan {
  attemptIndex: number;
  specIndex: number;
  /** Visible current labels, by curator name. */
  current: LabelRecord[];
  /** Visible labels made before the spec changed in a later revision. */
  stale: LabelRecord[];
  adjudication?: AdjudicationRecord;
  verifier?: AttemptVerifierResult;
  verdict: SpecVerdict;
  consensus: VerdictConsensus;
  outcome: LabelOutcome;
}

/**
 * Visits every (attempt, spec) of a task, attempt-major, with its visible labels, final verdict and outcome, building
 * nothing per cell: the one place cells are settled, for the task view and the statistics alike. Returns how many
 * visible labels matched a cell and how many there are (more means labels on attempts or specs the task lost).
 */
export function scanCells(
  task: CandidateTask,
  st: TaskReviewState,
  verifier: TaskVerifierResults,
  policy: ConsensusPolicy,
  visible: (curator: string) => boolean,
  visit: (cell: CellScan) => void,
): { found: number; labelCount: number; maps: Array<Map<string, LabelRecord>> } {
  // By curator name, so labels come in a stable order whatever order curators first appeared in the log.
  const names = [...st.labels.keys()];
  if (names.length > 1) names.sort();
  const maps: Array<Map<string, LabelRecord>> = [];
  for (const c of names) if (visible(c)) maps.push(st.labels.get(c) as Map<string, LabelRecord>);
  let labelCount = 0;
  for (const m of maps) labelCount += m.size;
  const cell: CellScan = { attemptIndex: 0, specIndex: 0, current: [], stale: [], verdict: 'unknown', consensus: { from: 'none', disagreement: false }, outcome: 'undecided' };
  let found = 0;
  const adjudicated = st.adjudications.size > 0;
  const keys = cellKeysOf(task);
  for (let ai = 0; ai < task.attempts.length; ai++) {
    const a = task.attempts[ai] as CandidateTask['attempts'][number];
    const v = verifier.attempts[a.id];
    for (let si = 0; si < task.specs.length; si++) {
      const s = task.specs[si] as CandidateTask['specs'][number];
      cell.current.length = 0;
      cell.stale.length = 0;
      let key: string | undefined;
      if (maps.length > 0 || adjudicated) {
        key = keys[ai * task.specs.length + si] as string;
        for (const m of maps) {
          const l = m.get(key);
          if (!l) continue;
          found++;
          (l.stale ? cell.stale : cell.current).push(l);
        }
      }
      const adjRec = adjudicated ? st.adjudications.get(key as string) : undefined;
      cell.adjudication = adjRec && visible(adjRec.curator) ? adjRec : undefined;
      cell.attemptIndex = ai;
      cell.specIndex = si;
      cell.verifier = v;
      cell.verdict = v?.specs[s.id] ?? 'unknown';
      settleVerdict(cell.current, cell.adjudication, cell.verdict, policy, cell.consensus);
      cell.outcome = deriveOutcome(cell.consensus.final, cell.verdict);
      visit(cell);
    }
  }
  return { found, labelCount, maps };
}

/**
 * The cell keys of a task, attempt-major, made once per task object: a string made afresh must be hashed again at
 * every lookup, and statistics look up every cell of every task.
 */
const keysByTask = new WeakMap<CandidateTask, string[]>();
function cellKeysOf(task: CandidateTask): string[] {
  let keys = keysByTask.get(task);
  if (!keys || keys.length !== task.attempts.length * task.specs.length) {
    keys = [];
    for (const a of task.attempts) for (const s of task.specs) keys.push(cellKey(a.id, s.id));
    keysByTask.set(task, keys);
  }
  return keys;
}

export function assessTask(input: TaskReviewInput): TaskAssessment {
  const { task } = input;
  const st = taskStateOf(input);
  const policy = input.policy ?? 'adjudicate';
  const verifier = withRecordedFallback(task, input.verifier);
  const visible = visibleTo(st, input);
  const none: LabelRecord[] = [];
  const cells: CellAssessment[] = [];
  const { found, labelCount, maps } = scanCells(task, st, verifier, policy, visible, (c) => {
    const a = task.attempts[c.attemptIndex] as CandidateTask['attempts'][number];
    const s = task.specs[c.specIndex] as CandidateTask['specs'][number];
    const cell: CellAssessment = {
      attempt: a.id,
      spec: s.id,
      verifier: c.verdict,
      verifierStale: c.verifier?.stale === true,
      labels: c.current.length > 0 ? c.current.slice() : none,
      staleLabels: c.stale.length > 0 ? c.stale.slice() : none,
      from: c.consensus.from,
      disagreement: c.consensus.disagreement,
      outcome: c.outcome,
    };
    if (c.verifier) cell.verifierRun = c.verifier.runId;
    if (c.consensus.final !== undefined) cell.final = c.consensus.final;
    if (c.adjudication) cell.adjudication = c.adjudication;
    cells.push(cell);
  });
  const orphanLabels: LabelRecord[] = [];
  if (found < labelCount) {
    const attempts = new Set(task.attempts.map((a) => a.id));
    const specs = new Set(task.specs.map((x) => x.id));
    for (const m of maps) for (const l of m.values()) if (!attempts.has(l.attempt) || !specs.has(l.spec)) orphanLabels.push(l);
  }

  const scores = scoreConsensus(
    [...st.scores.values()].filter((s) => visible(s.curator)).sort((a, b) => (a.curator < b.curator ? -1 : 1)),
    st.adjudications.size === 0 ? st.adjudications : new Map([...st.adjudications].filter(([, a]) => visible(a.curator))),
    policy,
  );
  const flags: FlagReview[] = verifier.flags.map((f) => {
    const d = st.flagDecisions.get(f.id);
    return { ...f, ...(d ? { decision: d } : {}), open: d === undefined };
  });
  const confirmedFlags = flags.filter((s) => s.decision?.decision === 'confirmed');
  const waivers = input.waivers ?? st.approval?.waivers ?? [];
  const openFlags = flags.filter((s) => s.open);
  const rules = input.rules === false ? [] : evaluateRules({ task, cells, verifier, confirmedFlags, openFlags }, waivers);
  return { task, state: st, verifier, policy, cells, scores, flags, rules, blockers: blockingRules(rules), orphanLabels };
}

// ---- the full view -----------------------------------------------------------------------------------------

export interface AttemptReview {
  id: string;
  model: string;
  agent: string;
  verifier?: { source: 'run' | 'recorded'; runId: string; status: VerifierStatus; resolved?: boolean; stale: boolean; staleReasons?: string[] };
  judged: number;
  falsePositives: number;
  falseNegatives: number;
}

export interface SpecReview {
  id: string;
  text: string;
  category: string;
  /** Ids of the tests covering it. */
  tests: string[];
  falsePositives: number;
  falseNegatives: number;
}

export interface CellReview extends CellAssessment {
  /** The viewer's own current label. */
  mine?: LabelRecord;
  /** Other curators' current labels (empty while blind mode hides them). */
  others: LabelRecord[];
}

export interface Disagreement {
  target: 'label' | 'score';
  attempt?: string;
  spec?: string;
  field?: ScoreField;
  /** The verifier's verdict, for a label. */
  verifier?: SpecVerdict;
  values: Array<{ curator: string; value: string | number | string[]; event: string }>;
  open: boolean;
  final?: string | number | string[];
  from: FinalSource;
}

export interface HistoryEntry {
  event: ReviewEvent;
  undone: boolean;
  summary: string;
}

export interface TaskReview {
  taskId: string;
  title: string;
  revision: number;
  status: TaskStatus;
  /** Statuses a `status` event may set now (approve and reject have their own actions). */
  nextStatuses: TaskStatus[];
  viewer?: string;
  blind: boolean;
  /** Blind mode is hiding other curators' labels or scores right now. */
  othersHidden: boolean;
  viewerSubmitted: boolean;
  submittedBy: string[];
  attempts: AttemptReview[];
  specs: SpecReview[];
  /** Attempt-major, specs in task order. */
  cells: CellReview[];
  scores: ScoreConsensus & { mine?: ScoreRecord };
  flags: FlagReview[];
  rules: RuleResult[];
  blockers: RuleResult[];
  approval?: ApprovalRecord;
  rejection?: RejectionRecord;
  disagreements: Disagreement[];
  counts: {
    cells: number;
    judged: number;
    /** Cells the viewer has labelled (current labels). */
    mine: number;
    falsePositives: number;
    falseNegatives: number;
    undecided: number;
    openDisagreements: number;
    openFlags: number;
    staleLabels: number;
  };
  orphanLabels: LabelRecord[];
  issues: ReplayIssue[];
  /** The viewer's latest event on this task that an undo can withdraw. */
  lastUndoable?: { event: string; kind: string; time: string; summary: string };
  history: HistoryEntry[];
}

/** The review of one task, ready to render. */
export function reviewTask(input: TaskReviewInput): TaskReview {
  const a = assessTask(input);
  const st = a.state;
  const { task } = input;
  const viewer = input.viewer;
  const visible = visibleTo(st, input);
  const count = (pred: (c: CellAssessment) => boolean, cs = a.cells) => cs.filter(pred).length;

  const cells: CellReview[] = a.cells.map((c) => {
    const mine = viewer !== undefined ? c.labels.find((l) => l.curator === viewer) : undefined;
    return { ...c, ...(mine ? { mine } : {}), others: c.labels.filter((l) => l.curator !== viewer) };
  });
  const attempts: AttemptReview[] = task.attempts.map((at) => {
    const v = a.verifier.attempts[at.id];
    const mineCells = a.cells.filter((c) => c.attempt === at.id);
    return {
      id: at.id,
      model: at.model,
      agent: at.agent,
      ...(v
        ? {
            verifier: {
              source: v.source,
              runId: v.runId,
              status: v.status,
              ...(v.resolved !== undefined ? { resolved: v.resolved } : {}),
              stale: v.stale === true,
              ...(v.staleReasons ? { staleReasons: v.staleReasons } : {}),
            },
          }
        : {}),
      judged: count((c) => c.final !== undefined && c.final !== 'unsure', mineCells),
      falsePositives: count((c) => c.outcome === 'false_positive', mineCells),
      falseNegatives: count((c) => c.outcome === 'false_negative', mineCells),
    };
  });
  const specs: SpecReview[] = task.specs.map((s) => {
    const cs = a.cells.filter((c) => c.spec === s.id);
    return {
      id: s.id,
      text: s.text,
      category: s.category,
      tests: task.tests.filter((t) => t.specs.includes(s.id)).map((t) => t.id),
      falsePositives: count((c) => c.outcome === 'false_positive', cs),
      falseNegatives: count((c) => c.outcome === 'false_negative', cs),
    };
  });

  const disagreements: Disagreement[] = [];
  for (const c of a.cells) {
    if (!c.disagreement) continue;
    disagreements.push({
      target: 'label',
      attempt: c.attempt,
      spec: c.spec,
      verifier: c.verifier,
      values: c.labels.map((l) => ({ curator: l.curator, value: l.verdict, event: l.event })),
      open: c.from === 'disagreement',
      ...(c.final !== undefined && c.from !== 'single' && c.from !== 'agreement' ? { final: c.final } : {}),
      from: c.from,
    });
  }
  for (const f of a.scores.disagreements) {
    const values = a.scores.scores.map((s) => ({
      curator: s.curator,
      value: (f === 'envDefects' ? s.score.envDefects : f === 'difficulty' ? s.score.difficulty : s.score[f]) ?? '',
      event: s.event,
    }));
    const fin = a.scores.final[f];
    disagreements.push({ target: 'score', field: f, values, open: a.scores.open.includes(f), ...(fin !== undefined ? { final: fin } : {}), from: a.scores.from[f] });
  }

  const hiddenKinds = new Set(['label', 'score', 'adjudicate']);
  const history: HistoryEntry[] = st.events
    .filter((e) => !hiddenKinds.has(e.kind) || visible(e.curator))
    .map((e) => ({ event: e, undone: st.undone.has(e.id), summary: describeEvent(e) }));
  let lastUndoable: TaskReview['lastUndoable'];
  if (viewer !== undefined) {
    for (let i = st.events.length - 1; i >= 0; i--) {
      const e = st.events[i] as ReviewEvent;
      if (e.curator === viewer && e.kind !== 'undo' && isUndoable(e.kind) && !('unknownKind' in e) && !st.undone.has(e.id)) {
        lastUndoable = { event: e.id, kind: e.kind, time: e.time, summary: describeEvent(e) };
        break;
      }
    }
  }
  const mineScore = viewer !== undefined ? st.scores.get(viewer) : undefined;
  return {
    taskId: task.id,
    title: task.title,
    revision: task.revision,
    status: st.status,
    nextStatuses: allowedTransitions(st.status).filter((s) => !DECISION_STATUSES.includes(s)),
    ...(viewer !== undefined ? { viewer } : {}),
    blind: input.blind === true,
    othersHidden: othersHidden(st, input),
    viewerSubmitted: viewer !== undefined && st.submitted.has(viewer),
    submittedBy: [...st.submitted.keys()].sort(),
    attempts,
    specs,
    cells,
    scores: { ...a.scores, ...(mineScore ? { mine: mineScore } : {}) },
    flags: a.flags,
    rules: a.rules,
    blockers: a.blockers,
    ...(st.approval ? { approval: st.approval } : {}),
    ...(st.rejection ? { rejection: st.rejection } : {}),
    disagreements,
    counts: {
      cells: a.cells.length,
      judged: count((c) => c.final !== undefined && c.final !== 'unsure'),
      mine: cells.filter((c) => c.mine !== undefined).length,
      falsePositives: count((c) => c.outcome === 'false_positive'),
      falseNegatives: count((c) => c.outcome === 'false_negative'),
      undecided: count((c) => c.outcome === 'undecided'),
      openDisagreements: disagreements.filter((d) => d.open).length,
      openFlags: a.flags.filter((s) => s.open).length,
      staleLabels: a.cells.reduce((n, c) => n + c.staleLabels.length, 0),
    },
    orphanLabels: a.orphanLabels,
    issues: st.issues,
    ...(lastUndoable ? { lastUndoable } : {}),
    history,
  };
}

// ---- the review queue --------------------------------------------------------------------------------------

export interface QueueItem {
  taskId: string;
  title: string;
  status: TaskStatus;
  /** Cells the viewer has not labelled yet. */
  cellsLeft: number;
  cells: number;
  /** The first cell to focus: attempt-major, the first the viewer has not labelled. */
  next?: { attempt: string; spec: string };
}

export interface ReviewQueue {
  viewer: string;
  /** Tasks the viewer still has to review, in task order. */
  items: QueueItem[];
  remaining: number;
  /** Tasks the viewer has submitted, or that are decided. */
  done: number;
}

/**
 * The keyboard review queue of one curator: tasks not yet submitted by them and not yet approved or rejected.
 * Cheap: it reads labels only, no verifier results.
 */
export function reviewQueue(input: { tasks: readonly CandidateTask[]; state: ReviewState; viewer: string }): ReviewQueue {
  const items: QueueItem[] = [];
  let done = 0;
  for (const task of input.tasks) {
    const st = input.state.tasks.get(task.id);
    const status = st?.status ?? 'candidate';
    if ((st && st.submitted.has(input.viewer)) || status === 'approved' || status === 'rejected') {
      done++;
      continue;
    }
    const mine = st?.labels.get(input.viewer);
    let left = 0;
    let next: QueueItem['next'];
    for (const a of task.attempts) {
      for (const s of task.specs) {
        const l = mine?.get(cellKey(a.id, s.id));
        if (l && !l.stale) continue;
        left++;
        next ??= { attempt: a.id, spec: s.id };
      }
    }
    items.push({ taskId: task.id, title: task.title, status, cellsLeft: left, cells: task.attempts.length * task.specs.length, ...(next ? { next } : {}) });
  }
  return { viewer: input.viewer, items, remaining: items.length, done };
}

// ---- disagreements across tasks ----------------------------------------------------------------------------

export interface TaskDisagreement extends Disagreement {
  taskId: string;
}

/** Every disagreement of every task (open ones only unless `all`), for an adjudication view; no blind mode. */
export function listDisagreements(input: {
  tasks: readonly CandidateTask[];
  state: ReviewState;
  verdicts?: Readonly<Record<string, TaskVerifierResults>>;
  policy?: ConsensusPolicy;
  all?: boolean;
}): TaskDisagreement[] {
  const out: TaskDisagreement[] = [];
  for (const task of input.tasks) {
    const st = input.state.tasks.get(task.id);
    // Only tasks two or more curators worked on can disagree.
    if (!st || st.labels.size + st.scores.size < 2) continue;
    const verifier = input.verdicts?.[task.id];
    const r = reviewTask({ task, state: st, ...(verifier ? { verifier } : {}), ...(input.policy ? { policy: input.policy } : {}) });
    for (const d of r.disagreements) if (input.all || d.open) out.push({ taskId: task.id, ...d });
  }
  return out;
}
