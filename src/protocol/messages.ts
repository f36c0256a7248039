// The typed messages between the extension host and the task-view webview. Imported by both sides; imports nothing.
//
// Shape: the webview sends `ready` once its script runs; the host answers with `init`. After that the webview sends
// requests `{ type: 'request', id, method, params }` and the host answers each with exactly one
// `{ type: 'reply', id, ok, result | error }`. The host may also push notifications (`update`, `searchHits`,
// `searchDone`, `command`). Ids come from a counter on the webview side. No single message exceeds about 1 MB:
// large data (trajectory steps, long texts) is paged by request.

export const PROTOCOL_VERSION = 1;

/** No message between host and webview, either way, is larger than this many bytes of JSON (defined once). */
export const MAX_MESSAGE_BYTES = 1_000_000;

/** Largest text sent in one message; longer texts are fetched in slices with `getStepText`. */
export const MAX_TEXT_SLICE = 256 * 1024;
/** Longest preview of a step's text in a page of steps; the rest is folded and fetched on demand. */
export const STEP_PREVIEW_CHARS = 2000;
/** Most steps in one page. */
export const MAX_STEP_PAGE = 200;

// ---- domain unions (the protocol's own copies: it imports nothing; src/core/view/protocolUnions.ts checks at
// compile time that each equals core's) -------------------------------------------------------------------------

/** A task's life-cycle status. */
export const TASK_STATUS_VIEWS = ['candidate', 'in_review', 'flagged', 'needs_repair', 'repaired', 'revalidated', 'approved', 'rejected'] as const;
export type TaskStatusView = (typeof TASK_STATUS_VIEWS)[number];
/** The verifier's verdict on a spec. */
export type SpecVerdictView = 'pass' | 'fail' | 'unknown';
/** Where a final verdict or score comes from. */
export type FinalSourceView = 'none' | 'single' | 'agreement' | 'adjudicated' | 'policy' | 'disagreement';
/** What a repair changed in one cell of the before/after matrix. */
export type CellChangeView = 'fp_fixed' | 'fn_fixed' | 'fp_new' | 'fn_new' | 'verdict_changed' | 'same';
/** What a repair suggestion is asked to change (`auto`: the agent chooses). */
export type RepairTargetView = 'request' | 'specs' | 'tests' | 'spec_test_map';
/** A verifier run's status. */
export const RUN_STATUS_VIEWS = ['passed', 'failed', 'timeout', 'oom', 'disk_limit', 'apply_failed', 'invalid', 'infra_error'] as const;
/** A verifier run's status, or an imported result's (`recorded:` and the import's word: resolved, unresolved...). */
export type RunStatusView = (typeof RUN_STATUS_VIEWS)[number] | `recorded:${string}`;
/** What a run itself shows (a skipped listed test, an attempt editing its tests...). */
export type RunFlagKindView = 'skipped_test' | 'conflicting_status' | 'attempt_edits_tests' | 'attempt_edits_test_plugins' | 'attempt_edits_test_config' | 'attempt_exits_test_process';
/** An oracle probe's finding (a *flag*: the curator confirms or dismisses it), by kind. */
export type FlagKindView =
  | 'gold_fails_test'
  | 'environment_defect'
  | 'empty_passes_fail_to_pass'
  | 'spec_without_test'
  | 'gold_unusable'
  | 'flaky_test'
  | 'attempt_suspect_false_positive'
  | 'attempt_suspect_false_negative'
  | RunFlagKindView;
/** Where the curator's name came from. */
export type CuratorSourceView = 'option' | 'setting' | 'git' | 'env';
/** How a disagreement between curators is settled. */
export type ConsensusPolicyView = 'adjudicate' | 'highest-severity';
/** The task scores a curator gives. */
export const SCORE_FIELD_VIEWS = ['underspecified', 'fnSeverity', 'fpSeverity', 'difficulty', 'envDefects'] as const;
export type ScoreFieldView = (typeof SCORE_FIELD_VIEWS)[number];
/** The difficulty buckets of a task score. */
export const DIFFICULTY_VIEWS = ['<15m', '15m-1h', '1-4h', '>4h'] as const;
export type DifficultyView = (typeof DIFFICULTY_VIEWS)[number];
/** The environment defects a task score may name. */
export const ENV_DEFECT_VIEWS = ['dependency_drift', 'resource_mismatch', 'flaky'] as const;
export type EnvDefectView = (typeof ENV_DEFECT_VIEWS)[number];

const member = <T extends string>(list: readonly T[]) => (v: unknown): v is T => list.some((x) => x === v);
/** Runtime checks of the literal unions (the host validates requests with them; the webview narrows its drafts). */
export const isTaskStatusView = member(TASK_STATUS_VIEWS);
export const isScoreFieldView = member(SCORE_FIELD_VIEWS);
export const isDifficultyView = member(DIFFICULTY_VIEWS);
export const isEnvDefectView = member(ENV_DEFECT_VIEWS);
/** A score row's field (an adjudication row of a score always names one); throws otherwise. */
export function scoreFieldView(v: unknown): ScoreFieldView {
  if (isScoreFieldView(v)) return v;
  throw new Error(`not a score field: ${JSON.stringify(v)?.slice(0, 40)}`);
}

// ---- view models (host -> webview) ---------------------------------------------------------------------------

/** An inline run of request text; never HTML. `specs` lists the spec ids whose text this run states. */
export interface MdRun {
  text: string;
  code?: boolean;
  strong?: boolean;
  em?: boolean;
  /** The link target, shown as text only: links are never followed from the webview. */
  href?: string;
  specs?: string[];
}

/** A block of the request, rendered from Markdown by the host into inert data. */
export type MdBlock =
  | { kind: 'heading'; level: number; runs: MdRun[] }
  | { kind: 'paragraph'; runs: MdRun[] }
  | { kind: 'code'; lang: string; text: string }
  | { kind: 'list'; ordered: boolean; items: MdBlock[][] }
  | { kind: 'quote'; blocks: MdBlock[] }
  | { kind: 'rule' }
  | { kind: 'table'; header: MdRun[][]; rows: MdRun[][][] };

export interface SpecView {
  id: string;
  text: string;
  category: string;
  dependsOn: string[];
  /** Ids of the tests that cover this spec. */
  tests: string[];
  /** True when no test covers it (flagged in the UI). */
  uncovered: boolean;
  /** True when the request states it somewhere (a highlight exists). */
  stated: boolean;
}

export interface TestView {
  id: string;
  name: string;
  kind: 'fail_to_pass' | 'pass_to_pass';
  specs: string[];
  /** True when the test covers no spec (flagged in the UI). */
  unmapped: boolean;
  /** The test's source as the test patch adds it, if found. */
  source?: { file: string; patchLine: number; text: string };
}

export interface FileChangeView {
  path: string;
  status: 'modified' | 'added' | 'deleted' | 'renamed' | 'binary';
  additions: number;
  deletions: number;
  /** The hunks' headers in order (`@@ -12,5 +12,7 @@ def parse`), at most MAX_HUNK_HEADERS: a link names one by index. */
  hunks?: string[];
}

export const MAX_HUNK_HEADERS = 200;

export interface TrajectoryInfoView {
  format: string;
  steps: number;
  byKind: Record<string, number>;
  costUsd?: number;
  exitStatus?: string;
}

/** A column of the attempts region: the gold patch or one attempt. */
export interface ColumnView {
  /** `gold` or the attempt id. */
  id: string;
  label: string;
  model?: string;
  agent?: string;
  costUsd?: number;
  claimed?: string;
  files: FileChangeView[];
  /** Problem reading or parsing the patch, shown instead of the files. */
  patchError?: string;
  hasTrajectory: boolean;
  trajectory?: TrajectoryInfoView;
  trajectoryError?: string;
  /** Short verdict text from recorded (imported) or own verifier results, e.g. "resolved (imported)". */
  verdict?: string;
}

/** Results of verifier runs as matrices, filled in by the verifier feature. */
export interface ResultsView {
  /** Column ids in order (gold, empty, attempts). */
  columns: string[];
  /** testId -> columnId -> status text (PASSED, FAILED, missing...). */
  tests: Record<string, Record<string, string>>;
  /** specId -> columnId -> pass | fail | unknown. */
  specs: Record<string, Record<string, SpecVerdictView>>;
  /** columnId -> run summary (status, stale). */
  runs: Record<string, {
    runId: string;
    status: RunStatusView;
    stale: boolean;
    resolved?: boolean;
    /** (verifier, additive) `run`: one of our stored runs; `recorded`: an imported result (no log of ours). */
    source?: 'run' | 'recorded';
    /** (verifier, additive) What changed since the run (task revision, test patch, attempt patch...). */
    staleReasons?: string[];
  }>;
  /** `column` (verifier, additive): the attempt a flag is about; absent for flags about the task. */
  flags: Array<{ kind: FlagKindView; message: string; testId?: string; specId?: string; column?: string }>;
}

export interface TaskViewModel {
  protocol: number;
  taskId: string;
  title: string;
  revision: number;
  status: TaskStatusView;
  repo: string;
  baseCommit?: string;
  image: string;
  /** False in a restricted (untrusted) workspace: actions that run code are disabled, with `untrustedReason`. */
  trusted: boolean;
  untrustedReason?: string;
  request: MdBlock[];
  /** Set when the request was too long and was cut for display. */
  requestTruncated?: boolean;
  specs: SpecView[];
  tests: TestView[];
  columns: ColumnView[];
  results?: ResultsView;
  /** Problems the host found (missing clone, unreadable files...), shown as a banner. */
  notices: string[];
  /** Position of this task in the current list, for next/previous. */
  position?: { index: number; total: number };
  /** The task's latest repair suggestion and, once revalidated, the before/after matrix (the repair feature). */
  repair?: RepairView;  /** The curation of the task: labels, scores, suggestions, life cycle and approval (the curation feature). */
  review?: ReviewView;
  /** (additive) The coupling of the task's specs (docs/coupling.md): the figure, its evidence, the graph (bounded). */
  coupling?: CouplingView;
  /** (additive) What the task's stored probe reports say (probes/TASK/*.json; docs/probes.md, docs/workbench.md). */
  probes?: ProbesView;
  /** (additive) The viewer's viewed marks on this task, as a pull request's viewed files: marks on what changed since are gone. */
  viewed?: ViewedView;
}

export interface ViewedView {
  /** Columns (attempts, `gold`) marked viewed as a whole. */
  columns: string[];
  /** Files marked viewed, by column. */
  files: Array<{ column: string; path: string }>;
}

// ---- probes (the probes feature: src/vscode/probes, src/core/view/probesView.ts) --------------------------------
/** A probe report that opens as a native diff (the id of its survivor, passing exploit, rejected alternative or variant). */
export type ProbeDiffReport = 'mutants' | 'cheats' | 'alternatives' | 'variants';
/** One probe report: not there yet (with the CLI line that writes it), unreadable (file and field named), or read. */
export type ProbeReportView<T> =
  | { state: 'missing'; file: string; command: string }
  | { state: 'error'; file: string; message: string }
  | ({ state: 'ok'; file: string; createdAt: string; goldStatus: string; goldReason: string } & T);
/** Outcome counts of a report, in the report's order (`killed: 3`...). */
export type ProbeCountsView = Array<{ outcome: string; count: number }>;
/** A listed test beside a piece of evidence: the tests it got past, or those that rejected it. */
export interface ProbeTestView {
  name: string;
  specs: string[];
  status?: string;
}
export interface ProbeMutantView {
  id: string;
  operator: string;
  file: string;
  line: number;
  before: string;
  after: string;
  /** The report kept the mutated patch: it opens as a diff. */
  hasPatch: boolean;
}
export interface ProbeExploitView {
  id: string;
  title: string;
  flags: string[];
  status: string;
  reason: string;
  hasPatch: boolean;
}
export interface ProbeAlternativeView {
  id: string;
  summary: string;
  failingTests: ProbeTestView[];
  specs: string[];
  beyondSpecs: string[];
  hasPatch: boolean;
}
export interface ProbeVariantView {
  id: string;
  spec: string;
  summary: string;
  hasPatch: boolean;
}
/**
 * (additive) One piece of probe evidence behind a review-agent finding: a survivor, passing exploit or rejected
 * alternative, with the report its diff opens from. `scope` `spec`: the probe names the finding's spec (a variant meant
 * to violate it survived, an alternative tests mapped to it rejected); `task`: it says something of the task's tests
 * as a whole (a gold mutant no listed test killed, an exploit the verifier let through, a test beyond the specs).
 */
export interface ProbeSupportItemView {
  report: ProbeDiffReport;
  id: string;
  /** One line: what the probe showed (hostile text: a model's summary, a test name). */
  text: string;
  /** The listed tests involved: those that rejected an alternative. */
  tests: string[];
  scope: 'spec' | 'task';
  hasPatch: boolean;
}
/** (additive) The probe evidence for a false-positive and a false-negative candidate on one spec (spec items first). */
export interface ProbeSupportView {
  spec: string;
  falsePositive: ProbeSupportItemView[];
  falseNegative: ProbeSupportItemView[];
}
/** Most items of one kind in one spec's support (the rest counted in the Probes tab). */
export const MAX_PROBE_SUPPORT_ITEMS = 8;
export interface ProbesView {
  /** The task's listed tests (FAIL_TO_PASS and PASS_TO_PASS): what a survivor and a passing exploit got past. */
  listedTests: ProbeTestView[];
  /** (additive) Per spec of the task, the probe evidence behind a false-positive or false-negative finding on it. */
  support?: ProbeSupportView[];
  mutants: ProbeReportView<{
    counts: ProbeCountsView;
    score: number | null;
    specs: Array<{ spec: string; killed: number; survived: number; untested: boolean }>;
    survivors: ProbeMutantView[];
  }>;
  cheats: ProbeReportView<{ counts: ProbeCountsView; stopped: number; passing: ProbeExploitView[] }>;
  alternatives: ProbeReportView<{ counts: ProbeCountsView; rejected: ProbeAlternativeView[] }>;
  variants: ProbeReportView<{ counts: ProbeCountsView; survivors: ProbeVariantView[] }>;
  fullSuite: ProbeReportView<{ command: string; derived: boolean; noise: number; attempts: Array<{ attemptId: string; status: string; reason: string; breaks: string[] | null }> }>;
}

/** Why two specs are coupled; every present field is one kind of evidence. Spec and test ids are hostile text. */
export interface CouplingEdgeView {
  a: string;
  b: string;
  /** The strongest evidence, 0..1. */
  weight: number;
  /** Tests both specs are mapped to (at most `COUPLING_VIEW_LIMITS.tests` ids, `more` the rest) and their Jaccard index. */
  sharedTests?: { tests: string[]; more: number; jaccard: number };
  /** A `dependsOn` link: `a` names `b`, `b` names `a`, or both. */
  declared?: 'a->b' | 'b->a' | 'both';
  /** The phi coefficient of the two specs' verdicts over `attempts` attempts that have both. */
  coFlip?: { phi: number; attempts: number };
}

/** The coupling of a task's specs as the task view shows it: bounded by `COUPLING_VIEW_LIMITS`. */
export interface CouplingView {
  /** 0..1: 1 - (groups - 1) / (specs - 1); 0 with fewer than two specs. */
  figure: number;
  specs: number;
  pairs: number;
  coupledPairs: number;
  /** Coupled pairs by kind of evidence (a pair may count under several). */
  byEvidence: { sharedTests: number; declared: number; coFlip: number };
  /** Pairs with enough attempts that have a verdict on both for a co-flip to be seen at all. */
  measuredPairs: number;
  /** Solver attempts the co-flip read. */
  attempts: number;
  /** Groups (connected parts) in total, and the first ones with their spec ids (each list bounded, `more` the rest). */
  groupCount: number;
  groups: Array<{ specs: string[]; more: number }>;
  /** Per spec (bounded): its group index, its degree, its tests. */
  nodes: Array<{ id: string; group: number; degree: number; tests: number }>;
  nodesOmitted: number;
  /** Edges by weight, heaviest first (bounded). */
  edges: CouplingEdgeView[];
  edgesOmitted: number;
}

/**
 * Bounds of `CouplingView`: edges, nodes, groups shown, spec ids per group, shared test ids per edge, characters of an
 * id (cut for display), and characters of ids in all groups and in all edges (so the part stays far below the
 * message limit whatever the ids are; what does not fit is counted in `more` / `edgesOmitted`).
 */
export const COUPLING_VIEW_LIMITS = { edges: 400, nodes: 400, groups: 100, groupSpecs: 200, tests: 20, idChars: 200, groupChars: 100_000, edgeChars: 200_000 } as const;

/** A repair of the task: the suggestion, what became of it, and the before/after matrix of verdicts. */
export interface RepairView {
  suggestion: string;
  status: 'ready' | 'refused' | 'failed' | 'accepted' | 'rejected' | 'revalidating' | 'revalidated';
  summary?: string;
  fromRevision?: number;
  toRevision?: number;
  matrix?: RepairMatrixView;
  /** (additive) What the curator asked to change: auto, request, specs, tests or spec_test_map. */
  target?: RepairTargetView | 'auto';
  /** (additive) The model's reasoning, at most 20,000 characters; hostile text. */
  rationale?: string;
  /** (additive) Why the request was refused or failed. */
  message?: string;
  /** (additive) The curator's reason for a rejection, or their note on acceptance. */
  note?: string;
  /** (additive) Who accepted or rejected it, and when (ISO time). */
  decidedBy?: string;
  decidedAt?: string;
}

/** One side of a matrix cell; `absent`: the spec or the attempt does not exist on that side. */
export interface RepairMatrixSideView {
  verifier: SpecVerdictView | 'absent';
  outcome: OutcomeView | 'absent';
}

export interface RepairMatrixView {
  attempts: string[];
  specs: string[];
  cells: Array<{
    attempt: string;
    spec: string;
    before: RepairMatrixSideView;
    after: RepairMatrixSideView;
    change: CellChangeView;
  }>;
  fixed: { falsePositives: Array<{ attempt: string; spec: string }>; falseNegatives: Array<{ attempt: string; spec: string }> };
  introduced: { falsePositives: Array<{ attempt: string; spec: string }>; falseNegatives: Array<{ attempt: string; spec: string }> };
  counts: { before: { falsePositives: number; falseNegatives: number }; after: { falsePositives: number; falseNegatives: number } };
  /** (additive) Run status of each attempt on the old and the new revision (passed, failed, recorded:…; missing when not run). */
  attemptStatus?: Record<string, { before?: string; after?: string }>;
  /** (additive) Fresh solver trials of the revalidation, on the new revision only: cells' `before` is absent; not in `counts`. */
  fresh?: RepairFreshView;
}

/** Fresh trials: every trial run (`attempt` missing when it did not land), the attempts' cells and run status after. */
export interface RepairFreshView {
  attempts: string[];
  cells: RepairMatrixView['cells'];
  attemptStatus?: Record<string, { after?: string }>;
  /** Model names, exit statuses, verdicts and errors are hostile text. */
  trials?: Array<{ attempt?: string; model: string; exitStatus?: string; verdict?: string; error?: string }>;
}

// ---- curation (the review part of the task view) ---------------------------------------------------------------

export type CuratorVerdictView = 'satisfied' | 'violated' | 'unsure';
export const CURATOR_VERDICT_VIEWS: readonly CuratorVerdictView[] = ['satisfied', 'violated', 'unsure'];
/** True for one of the curator's verdicts. */
export const isCuratorVerdictView = (v: unknown): v is CuratorVerdictView => CURATOR_VERDICT_VIEWS.some((x) => x === v);
/** A value known to be a verdict (an adjudication row of a label offers only verdicts); throws otherwise. */
export function curatorVerdictView(v: unknown): CuratorVerdictView {
  if (isCuratorVerdictView(v)) return v;
  throw new Error(`not a verdict: ${JSON.stringify(v)?.slice(0, 40)}`);
}
/** The curator's final verdict set against the verifier's. */
export type OutcomeView = 'true_pass' | 'true_fail' | 'false_positive' | 'false_negative' | 'undecided';

/** A place a label points at; following it opens that place (see docs/curation.md, "Evidence links"). */
export type EvidenceLinkView =
  | { kind: 'trajectory_step'; attempt: string; step: number }
  | { kind: 'test'; test: string }
  | { kind: 'log_line'; run: string; line: number; stream?: 'stdout' | 'stderr' }
  | { kind: 'diff_hunk'; patch: 'attempt' | 'gold' | 'tests'; attempt?: string; file: string; hunk: number }
  | { kind: 'spec'; spec: string }
  /** (additive) The review agent's finding on `spec` in `review.findings` event `findings`: the label accepted it. */
  | { kind: 'finding'; findings: string; spec: string };

export type FindingJudgmentView = 'satisfied' | 'violated' | 'unsure';
export type FindingCandidateView = 'false_positive' | 'false_negative';

/**
 * (additive) The review agent's current finding on one (attempt, spec): a suggestion, never a label. Its rationale and
 * quotes are the model's hostile text (render inert). `links` are its citations as evidence links (what accepting
 * records, after the finding itself); `sentences` are the request sentences it cites (no evidence kind).
 */
export interface FindingView {
  attempt: string;
  spec: string;
  /** The `review.findings` event id (accept and dismiss name it). */
  findings: string;
  time: string;
  model: string;
  promptVersion: string;
  judgment: FindingJudgmentView;
  /** 0 to 1. */
  confidence: number;
  candidate?: FindingCandidateView;
  /** At most MAX_FINDING_RATIONALE_VIEW characters (`rationaleCut` when longer). */
  rationale: string;
  rationaleCut?: boolean;
  links: EvidenceLinkView[];
  /** 1-based request sentences cited. */
  sentences: number[];
  /** Quotes of the citations, at most 5 of 300 characters. */
  quotes: string[];
  /** Its spec changed since: shown, no longer counted. */
  stale?: boolean;
  dismissed?: { curator: string; time: string; note?: string };
  /** The viewer's own label on the pair cites it. */
  acceptedByYou: boolean;
  /** Curators who accepted it (only the viewer while blind mode hides others). */
  acceptedBy: string[];
}

/** Longest finding rationale sent in a view model (the log keeps it whole). */
export const MAX_FINDING_RATIONALE_VIEW = 2000;

export interface LabelView {
  curator: string;
  verdict: CuratorVerdictView;
  /** At most MAX_NOTE_VIEW characters (`noteCut` when longer in the log). */
  note?: string;
  noteCut?: boolean;
  evidence: EvidenceLinkView[];
  event: string;
  time: string;
  /** Made before the spec changed in a later revision: shown, no longer counted. */
  stale?: boolean;
}

/** One (attempt, spec) pair: the verifier's verdict, the curators' labels, the final verdict and the outcome. */
export interface ReviewCellView {
  attempt: string;
  spec: string;
  verifier: SpecVerdictView;
  verifierStale: boolean;
  /** The viewer's own current label. */
  mine?: LabelView;
  /** Other curators' current labels (none while blind mode hides them). */
  others: LabelView[];
  /** Labels made on an older revision of the spec. */
  stale: LabelView[];
  final?: CuratorVerdictView;
  from: FinalSourceView;
  disagreement: boolean;
  outcome: OutcomeView;
}

export interface ReviewAttemptView {
  id: string;
  model: string;
  agent: string;
  /** What the verifier said about the attempt as a whole, and where it came from. */
  verifier?: { source: 'run' | 'recorded'; runId: string; status: RunStatusView; resolved?: boolean; stale: boolean; staleReasons?: string[] };
  judged: number;
  falsePositives: number;
  falseNegatives: number;
}

export interface ScoresView {
  underspecified?: number;
  fnSeverity?: number;
  fpSeverity?: number;
  envDefects?: EnvDefectView[];
  otherIssues?: string;
  difficulty?: DifficultyView;
  note?: string;
}

/** An oracle-probe flag from the verifier: a suggestion the curator confirms or dismisses, never a label. */
export interface SuggestionView {
  id: string;
  kind: FlagKindView;
  message: string;
  test?: string;
  spec?: string;
  attempt?: string;
  /** What confirming it means for approval and statistics. */
  suspect?: 'false_positive' | 'false_negative';
  open: boolean;
  decision?: { decision: 'confirmed' | 'dismissed'; curator: string; time: string; event: string; note?: string };
}

/** An approval rule and whether it holds; `waiver` when an approval waived it. */
export interface RuleView {
  id: string;
  title: string;
  ok: boolean;
  message?: string;
  items: string[];
  waiver?: { rule: string; reason: string };
}

export interface ReviewHistoryView {
  event: string;
  time: string;
  curator: string;
  kind: string;
  summary: string;
  undone: boolean;
}

/** The keyboard review queue, while review mode is on. */
export interface ReviewQueueView {
  /** Tasks the viewer still has to review (this one included when it is unsubmitted). */
  remaining: number;
  /** Tasks submitted by the viewer or decided. */
  done: number;
  /** Position of this task in the queue, when it is in it. */
  index?: number;
}

export interface ReviewView {
  /** The curator the view is for; absent when no valid name is set (`curatorProblem` says why). */
  viewer?: string;
  curatorProblem?: string;
  /** Where the name came from: setting, git or env. */
  curatorSource?: CuratorSourceView;
  policy: ConsensusPolicyView;
  blind: boolean;
  /** Blind mode is hiding other curators' labels and scores right now (until the viewer submits). */
  othersHidden: boolean;
  viewerSubmitted: boolean;
  submittedBy: string[];
  status: TaskStatusView;
  /** Statuses a plain transition may set now (approve and reject have their own actions). */
  nextStatuses: TaskStatusView[];
  attempts: ReviewAttemptView[];
  /** Spec ids in task order (their texts are in `TaskViewModel.specs`). */
  specs: string[];
  /** Attempt-major, specs in task order. */
  cells: ReviewCellView[];
  scores: {
    mine?: ScoresView & { event: string; time: string };
    /** Other curators' scores (none while blind mode hides them). */
    others: Array<ScoresView & { curator: string; event: string }>;
    final: ScoresView;
    /** Per field: where the final value came from. */
    from: Partial<Record<ScoreFieldView, FinalSourceView>>;
    open: ScoreFieldView[];
  };
  suggestions: SuggestionView[];
  rules: RuleView[];
  /** Ids of the rules that block approval now (failing, not waived). */
  blockers: string[];
  approval?: { curator: string; time: string; waivers: Array<{ rule: string; reason: string }>; note?: string };
  rejection?: { curator: string; time: string; reason: string };
  counts: {
    cells: number;
    judged: number;
    mine: number;
    falsePositives: number;
    falseNegatives: number;
    undecided: number;
    openDisagreements: number;
    openSuggestions: number;
    staleLabels: number;
  };
  /** The viewer's latest event on this task an undo can withdraw. */
  lastUndoable?: { event: string; kind: string; summary: string };
  /** The latest events (newest last), at most MAX_HISTORY_VIEW; `historyTotal` counts them all. */
  history: ReviewHistoryView[];
  historyTotal: number;
  /** Set while review mode is on. */
  queue?: ReviewQueueView;
  /** Set when other curators' notes or links were cut to keep the message small (what was left out, and where to see it). */
  trimmed?: string;
  /** (additive) The review agent's current findings on this task's pairs, attempt-major; absent when there are none. */
  findings?: FindingView[];
}

/** Longest note sent per label in a view model; the log keeps the whole note. */
export const MAX_NOTE_VIEW = 4000;
export const MAX_HISTORY_VIEW = 50;
/** Longest note, reason or free text a curator may type (the review log's limit). */
export const MAX_REVIEW_TEXT = 20_000;

/**
 * What a recording request answers. `ok: false` with a `code` from the log's refusal codes (unknown_attempt, rule,
 * transition, decided...) when the act was refused, or disk_full / io / locked / unavailable when nothing could be
 * recorded; the message says which.
 */
export type ReviewActResult =
  | { ok: true; event: string; summary: string; taskId?: string }
  | { ok: false; code: string; message: string; rules?: string[] };

export type StepKindView = 'system' | 'user' | 'thought' | 'action' | 'observation' | 'tool_call' | 'tool_result' | 'submission';

export interface StepView {
  index: number;
  kind: StepKindView;
  /**
   * The assistant turn this step belongs to, numbered from 1 over the whole trajectory (a thought, its action or tool
   * calls, and the observations or tool results answering them); absent for a step that stands alone (system, user,
   * submission, an observation nothing asked for). Optional: a host that does not send it shows plain rows.
   */
  turn?: number;
  /** At most STEP_PREVIEW_CHARS characters of the text, control characters and ANSI escapes removed. */
  preview: string;
  /** Full length of the text in characters. */
  length: number;
  /** Number of lines of the full text. */
  lines: number;
  toolCalls?: Array<{ name: string; arguments: string }>;
  costUsd?: number;
  timestamp?: string;
  /** Files this step edited; each can jump to the attempt's diff of that file. */
  edits?: string[];
}

export interface SearchHit {
  column: string;
  step: number;
  /**
   * Character offset of the match and its length: in the step's text (the same text `getStepText` slices), or, with
   * `toolCall`, in that tool call's name or arguments (`field`).
   */
  start: number;
  length: number;
  /** The match is in the tool call of this index (in the step's `toolCalls`), not in the step's text. */
  toolCall?: number;
  field?: 'name' | 'arguments';
  /** A short excerpt around the match (inert text) and the match's offset in it. */
  excerpt: string;
  excerptStart: number;
}

// ---- requests (webview -> host) ------------------------------------------------------------------------------

/** The answer to an action request: whether the host ran it, or why not. */
export interface ActionResult {
  ran: boolean;
  message?: string;
}

/** The action requests that take no params (the host acts on the panel's task). */
export const TASK_ACTIONS = ['nextTask', 'previousTask', 'startReviewMode', 'requestRepair', 'runGold'] as const;
/** The action requests on one repair suggestion of the panel's task. */
export const REPAIR_ACTIONS = ['reviewRepair', 'acceptRepair', 'rejectRepair', 'showRepairPrompt', 'showRepairMatrix'] as const;
export type TaskAction = (typeof TASK_ACTIONS)[number];
export type RepairAction = (typeof REPAIR_ACTIONS)[number];
export type ActionMethod = TaskAction | RepairAction;

export interface RequestMap {
  /** A page of a trajectory's steps, optionally only some kinds. */
  getSteps: {
    params: { column: string; start: number; count: number; kinds?: StepKindView[] };
    result: { steps: StepView[]; total: number; totalUnfiltered: number };
  };
  /** A slice of one step's full text (for unfolding long steps). */
  getStepText: {
    params: { column: string; step: number; offset: number; length: number };
    result: { text: string; offset: number; total: number };
  };
  /** The position of a step within the filtered list, to scroll to a hit; -1 when the filter hides it. */
  locateStep: {
    params: { column: string; step: number; kinds?: StepKindView[] };
    result: { position: number };
  };
  /** Starts a search over all steps of all attempts; hits arrive as `searchHits` notifications. */
  search: {
    params: { searchId: number; pattern: string; regex: boolean; caseSensitive: boolean; kinds?: StepKindView[] };
    result: { started: true } | { started: false; error: string };
  };
  cancelSearch: { params: { searchId: number }; result: { cancelled: boolean } };
  /** Opens the native diff editor: base file vs the column's patched file. */
  openDiff: { params: { column: string; path: string }; result: { opened: 'diff' | 'patch'; message?: string } };
  /** Marks a column, or one file of its patch (`path`), viewed or not viewed (kept in this window's workspace state). */
  setViewed: { params: { column: string; path?: string; viewed: boolean }; result: { ok: boolean; message?: string } };
  /** Opens two columns' versions of the same file against each other. */
  compareColumns: { params: { left: string; right: string; path: string }; result: { opened: boolean; message?: string } };
  /** Opens the test patch at a test's source. */
  openTest: { params: { testId: string }; result: { opened: boolean; message?: string } };
  /** Opens the column's whole patch as text. */
  openPatch: { params: { column: string }; result: { opened: boolean } };
  /**
   * Opens one region of this task in an editor tab of its own beside the task view (shown alone there, filling it);
   * `tab` is the specs area's tab to show (Results, Review, Decision, Repair…). Revealed when already open.
   */
  popOut: { params: { region: PopOutRegion; tab?: string }; result: { opened: boolean; message?: string } };
  /**
   * (verifier) Opens the log of the verifier run behind a results column (read-only), at the line where the test's
   * result appears; without `testId` at the top.
   */
  openRunLog: { params: { column: string; testId?: string }; result: { opened: boolean; line?: number; message?: string } };
  /** (probes) Opens a probe's patch as a native diff beside the gold patch (an exploit: beside no change). */
  openProbeDiff: { params: { report: ProbeDiffReport; id: string }; result: { opened: boolean; message?: string } };
  // Actions the page asks the host to carry out on its task (the host runs its own command for each, which checks
  // workspace trust itself); `ran: false` with a message when the host could not.
  /** The header's next/previous-task buttons (the same the keyboard shortcuts run). */
  nextTask: { params: Record<string, never>; result: ActionResult };
  previousTask: { params: Record<string, never>; result: ActionResult };
  /** Starts review mode (the host picks the queue and shows its first task in this panel). */
  startReviewMode: { params: Record<string, never>; result: ActionResult };
  /** Asks the repair agent for a (new) suggestion on this panel's task. */
  requestRepair: { params: Record<string, never>; result: ActionResult };
  /** Queues the verifier on this panel's task's gold patch (the decision tab's "Run Gold Now"); answers when queued. */
  runGold: { params: Record<string, never>; result: ActionResult };
  /** The repair tab's buttons, on one suggestion of this panel's task. */
  reviewRepair: { params: { suggestion: string }; result: ActionResult };
  acceptRepair: { params: { suggestion: string }; result: ActionResult };
  rejectRepair: { params: { suggestion: string }; result: ActionResult };
  showRepairPrompt: { params: { suggestion: string }; result: ActionResult };
  showRepairMatrix: { params: { suggestion: string }; result: ActionResult };
  // Curation: each recording request answers once the event is on disk (append + fsync), or says why not.
  /** The viewer's verdict on one (attempt, spec), with its note and evidence links. */
  label: {
    params: { attempt: string; spec: string; verdict: CuratorVerdictView; note?: string; evidence?: EvidenceLinkView[] };
    result: ReviewActResult;
  };
  /** The viewer's scores of the task. */
  score: {
    params: { underspecified: number; fnSeverity: number; fpSeverity: number; envDefects: EnvDefectView[]; otherIssues?: string; difficulty?: DifficultyView; note?: string };
    result: ReviewActResult;
  };
  /** The viewer has finished their review of the task (ends their blindness on it). */
  submit: { params: { note?: string }; result: ReviewActResult };
  /** A checked life-cycle transition (not to approved or rejected: those are `approve` and `reject`). */
  transition: { params: { to: TaskStatusView; note?: string }; result: ReviewActResult };
  /** Approval; each failing rule must be fixed or waived with a reason. */
  approve: { params: { waivers: Array<{ rule: string; reason: string }>; note?: string }; result: ReviewActResult };
  reject: { params: { reason: string }; result: ReviewActResult };
  /** Withdraws an event (a new undo event); without `event`, the viewer's latest undoable one (in review mode, on the task reviewed before when this one has none). */
  undo: { params: { event?: string }; result: ReviewActResult };
  /** Confirms or dismisses an oracle-probe suggestion. */
  decideSuggestion: { params: { suggestion: string; decision: 'confirmed' | 'dismissed'; note?: string }; result: ReviewActResult };
  /** (additive) Records the viewer's own label from a current finding (its judgment; the finding and citations as evidence). */
  acceptFinding: { params: { findings: string; spec: string; note?: string }; result: ReviewActResult };
  /** (additive) Dismisses a finding (a `review.dismiss` event). */
  dismissFinding: { params: { findings: string; spec: string; note?: string }; result: ReviewActResult };
  /** Opens the place an evidence link points at that the webview cannot show itself (a log line, a diff hunk). */
  openEvidence: { params: { link: EvidenceLinkView }; result: { opened: boolean; message?: string } };
  /** Review mode: go to the next task of the queue (`submit` first records a submit of this one), skip it, or stop. */
  reviewQueue: { params: { action: 'next' | 'skip' | 'stop'; submit?: boolean }; result: { taskId?: string; remaining: number; message?: string } };
  // Spec authoring: each edit writes a new task revision (all or nothing) and records it in the review log.
  /** One spec operation on the task at `revision` (the revision the page shows; another one on disk refuses it). */
  'specs.edit': { params: { revision: number; op: SpecOpView }; result: SpecEditReply };
  /** Takes back the last spec edit of the task (a new revision with the specs from before it). */
  'specs.undo': { params: { revision: number }; result: SpecEditReply };
}

/**
 * The spec operations the page may ask for (the shapes src/core/specs/edit.ts accepts; the host checks them again
 * deeply with checkSpecOp). Test references are test ids or full names.
 */
export type SpecOpView =
  | { op: 'add'; text: string; category: string; dependsOn?: string[]; tests?: string[]; at?: number }
  | { op: 'edit'; spec: string; text?: string; category?: string; dependsOn?: string[] }
  | { op: 'split'; spec: string; parts: Array<{ text: string; category?: string; tests?: string[] }> }
  | { op: 'merge'; specs: string[]; text: string; category?: string }
  | { op: 'delete'; spec: string }
  | { op: 'reorder'; order: string[] }
  | { op: 'depends'; spec: string; dependsOn: string[] }
  | { op: 'map'; spec: string; mode: 'replace' | 'add' | 'remove'; tests: string[] }
  | { op: 'toggle'; spec: string; test: string };
export const SPEC_OP_VIEWS = ['add', 'edit', 'split', 'merge', 'delete', 'reorder', 'depends', 'map', 'toggle'] as const;

/**
 * What a spec edit answers: the new revision and the specs it changed (their labels are now stale), or why nothing
 * was written (`code`: revision_raced, invalid_edit, task_decided, nothing_to_undo, restricted, unavailable...;
 * `message` names what was wrong).
 */
export type SpecEditReply = { ok: true; to: number; changedSpecs: string[] } | { ok: false; code: string; message: string; currentRevision?: number };

/** The spec taxonomy's categories, in picker order (the protocol's copy of core's KNOWN_SPEC_CATEGORIES). */
export const SPEC_CATEGORY_VIEWS = [
  'data-transformation',
  'parsing-representation',
  'computation-algorithms',
  'domain-protocol-rules',
  'interface-io-contracts',
  'control-flow-ordering',
  'state-consistency',
  'error-handling',
  'compatibility',
  'other',
] as const;
/** Longest spec text the page may send (the same cap as a curator's note). */
export const MAX_SPEC_TEXT = 20_000;

export type RequestMethod = keyof RequestMap;
export type RequestParams<M extends RequestMethod> = ParamsOf<RequestMap, M>;
export type RequestResult<M extends RequestMethod> = ReplyOf<RequestMap, M>;
/** The task view's requests that record a review act: each answers a `ReviewActResult`. */
export type RecordingMethod = MethodsReplying<RequestMap, ReviewActResult>;

// ---- typed replies, for every surface ------------------------------------------------------------------------
//
// Each surface declares its requests as one map (method -> params, reply): `RequestMap` for the task view,
// `CurationRequestMap` for the statistics and adjudication panels. The host's handler table is typed from the map
// (a handler that returns another reply type does not compile) and so is the webview's RPC client
// (`request(method, params)` resolves to `ReplyOf<Map, M>`): no call site casts a reply.

/** A surface's request table: method -> params and reply. */
export type MethodMap<T> = { [K in keyof T]: { params: unknown; result: unknown } };
/** The params of one method of a surface. */
export type ParamsOf<Map extends MethodMap<Map>, M extends keyof Map> = Map[M]['params'];
/** The reply of one method of a surface (what the host's handler resolves to and the webview's request gets). */
export type ReplyOf<Map extends MethodMap<Map>, M extends keyof Map> = Map[M]['result'];
/** The methods of a surface whose reply is `R`. */
export type MethodsReplying<Map extends MethodMap<Map>, R> = { [M in keyof Map]: ReplyOf<Map, M> extends R ? M : never }[keyof Map];
/** The host's answers to a surface's requests, one handler per method, each returning its method's reply. */
export type HandlerTable<Map extends MethodMap<Map>> = { [M in keyof Map]: (params: ParamsOf<Map, M>) => Promise<ReplyOf<Map, M>> };
/** A request of a surface as it travels (a union over the methods, so `method` narrows `params`). */
export type RequestOf<Map extends MethodMap<Map>> = { [M in keyof Map & string]: { type: 'request'; id: number; method: M; params: ParamsOf<Map, M> } }[keyof Map & string];
/** The one reply to a request (the wire does not repeat the method: the id says which request it answers). */
export type ReplyMessage = { type: 'reply'; id: number; ok: true; result: unknown } | { type: 'reply'; id: number; ok: false; error: string };

export type WebviewToHost =
  | { type: 'ready'; protocol: number; state?: WebviewState }
  | RequestOf<RequestMap>
  | { type: 'uiState'; state: WebviewState }
  /** The answer to the host's `cite`: whether the link joined a pair's draft (`pair`), and the words said to the curator. */
  | { type: 'cited'; citeId: number; ok: boolean; message: string; pair?: { attempt: string; spec: string } };

/** The task view's regions, each of which can be shown alone or in a tab of its own. */
export const POP_OUT_REGIONS = ['request', 'specs', 'attempts', 'trajectory'] as const;
export type PopOutRegion = (typeof POP_OUT_REGIONS)[number];

/** The id of the JSON data block in which a task page carries its first message (src/vscode/webviewHtml.ts). */
export const FIRST_MESSAGE_ID = 'specweave-first';

/**
 * The id of the inert block in which a task page carries the rest of its code (the app bundle) while its small first
 * script paints the first region: that script starts the bundle once the browser has painted (src/vscode/webviewHtml.ts).
 */
export const PAGE_BUNDLE_ID = 'specweave-bundle';

/** UI-only state the webview owns; the host stores it so a reloaded panel comes back as it was. */
export interface WebviewState {
  taskId: string;
  activeColumn?: string;
  stepKinds?: StepKindView[];
  search?: string;
  regex?: boolean;
  caseSensitive?: boolean;
}

// ---- host -> webview -----------------------------------------------------------------------------------------

/** Keyboard commands VS Code forwards to the webview. */
export type ViewCommand = 'nextAttempt' | 'previousAttempt' | 'nextHit' | 'previousHit' | 'focusSearch' | 'openDiff';

export type HostToWebview =
  | { type: 'init'; model: TaskViewModel; state?: WebviewState }
  | { type: 'update'; model: TaskViewModel }
  | ReplyMessage
  /** `counts`: running totals per column since the search started (not this batch's), including hits not sent. */
  | { type: 'searchHits'; searchId: number; hits: SearchHit[]; counts: Record<string, number> }
  | { type: 'searchDone'; searchId: number; total: number; counts: Record<string, number>; cancelled: boolean; capped: boolean }
  | { type: 'command'; command: ViewCommand }
  /** Show one step of a column in full (a dataset search hit or a link was opened): the list scrolls to it and selects it. */
  | { type: 'reveal'; column: string; step: number }
  /**
   * Add this link (and the curator's words, to the note) to the focused pair's draft, as the page's own Cite does: a
   * citation made in an editor (a gutter comment on a diff or log line). The page answers with `cited`.
   */
  | { type: 'cite'; citeId: number; link: EvidenceLinkView; note?: string };

// ---- the statistics and adjudication panels -------------------------------------------------------------------
//
// Two more webview panels (dist/stats.js): the statistics view and the adjudication view. Same handshake: `ready`,
// then `init` with the model; `update` whenever the review log changes; requests with ids, one reply each.

export interface StatsViewModel {
  protocol: number;
  dataset: string;
  policy: ConsensusPolicyView;
  funnel: { imported: number; reviewed: number; approved: number; rejected: number };
  byStatus: Record<string, number>;
  breakdown: {
    reviewed: number;
    falsePositivesOnly: number;
    falseNegativesOnly: number;
    both: number;
    none: number;
  };
  byCategory: Array<{ category: string; specs: number; decided: number; falsePositives: number; falseNegatives: number; fpRate?: number; fnRate?: number }>;
  bySolver: Array<{
    model: string;
    attempts: number;
    decided: number;
    falsePositives: number;
    falseNegatives: number;
    fpRate?: number;
    fnRate?: number;
    attemptsWithFalsePositive: number;
    attemptsWithFalseNegative: number;
  }>;
  /** One figure per label kind: alpha over all curators, kappa when exactly two rated it, with the items behind each. */
  agreement: Array<{ kind: string; metric: string; curators: number; alpha?: number; items: number; values: number; kappa?: number; kappaItems?: number }>;
  throughput: Array<{ curator: string; day: string; events: number }>;
  curators: Array<{ curator: string; events: number; labels: number; tasks: number }>;
  disagreements: { open: number; settled: number };
  suggestions: { open: number; confirmed: number; dismissed: number };
  log: { events: number; undone: number; issues: number };
  /** When the figures were computed (ISO time) and how long it took, in milliseconds. */
  computedAt: string;
  computeMs: number;
  /** A problem computing them (the dataset or log could not be read). */
  error?: string;
  /** Spec statistics and the coupling figure (docs/coupling.md); absent when they could not be computed. */
  specs?: SpecStatsView;
  /** (additive) The review agent's calibration against the curators (docs/calibration.md); absent when not computed. */
  calibration?: CalibrationView;
  /** (additive) Solve rates: the band, the funnel imported -> in band -> reviewed -> approved, per model (docs/solver.md). */
  solveRates?: SolveRatesView;
}

export const MAX_SOLVE_RATE_MODELS = 40;

/** Measured tasks by where a solve rate falls. */
export interface SolveBucketsView {
  neverSolved: number;
  inBand: number;
  alwaysSolved: number;
  /** Outside a custom band, neither 0 nor 1. */
  otherOutside: number;
}

/** Solve rates across the dataset (src/core/solver/difficulty.ts `DatasetDifficulty`) as the statistics panel shows them. */
export interface SolveRatesView {
  /** The band as the setting writes it (`0..1`, `[0.2,0.8]`) and its bounds. */
  band: { text: string; low: number; high: number; inclusive: boolean };
  /** Why `specweave.difficulty.band` was not used (the default band is shown instead). */
  bandProblem?: string;
  /** Each step within the one before; `measured`: tasks with at least one attempt verdict. */
  funnel: { imported: number; measured: number; inBand: number; reviewed: number; approved: number };
  tasks: SolveBucketsView & { unmeasured: number };
  /** Measured tasks by overall rate: ten bins [0, 0.1) ... [0.9, 1]. */
  histogram: number[];
  /** Most attempts first, at most `MAX_SOLVE_RATE_MODELS`; `moreModels` counts the rest. */
  /** `tasks`: the tasks the model has verdicts on by its own rate on each (never, sometimes as `inBand`, always). */
  models: Array<{ model: string; solved: number; attempts: number; rate?: number; tasks: SolveBucketsView }>;
  moreModels: number;
}

export const MAX_CALIBRATION_GROUPS = 40;

/** A calibration figure: the value, the counts it is a ratio of (precision, recall) and its bootstrap interval. */
export interface CalibrationFigureView {
  value?: number;
  numerator?: number;
  denominator?: number;
  low?: number;
  high?: number;
}

/** One 2×2 table: the agent's false-positive (or false-negative) calls against the curators'. */
export interface CalibrationTableView {
  pairs: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  precision: CalibrationFigureView;
  recall: CalibrationFigureView;
  kappa: CalibrationFigureView;
}

export interface CalibrationGroupView {
  /** Hostile text (from the review log). */
  promptVersion: string;
  model: string;
  findings: number;
  unlabelled: number;
  undecided: number;
  agentUnsure: number;
  falsePositive: CalibrationTableView;
  falseNegative: CalibrationTableView;
}

export interface CalibrationView {
  resamples: number;
  seed: number;
  confidence: number;
  /** At most `MAX_CALIBRATION_GROUPS`; `moreGroups` counts the rest. */
  groups: CalibrationGroupView[];
  moreGroups: number;
  notCurrent: number;
  unknownPairs: number;
}

/** A mean with its percentile-bootstrap interval. */
export interface MeanIntervalView {
  mean: number;
  low: number;
  high: number;
}

/** Quartiles and a 10-bin histogram ([0, 0.1) ... [0.9, 1]) of values in 0..1; the figures are absent with count 0. */
export interface DistributionView {
  count: number;
  min?: number;
  q1?: number;
  median?: number;
  q3?: number;
  max?: number;
  mean?: number;
  histogram: number[];
}

/** Spec statistics of one source dataset (or `all`). */
export interface SpecGroupView {
  source: string;
  tasks: number;
  specs: number;
  tasksWithSpecs: number;
  specsPerTask?: MeanIntervalView;
  categoriesPerTask?: MeanIntervalView;
  /** Tasks by number of specs, ascending; past `MAX_SPEC_HISTOGRAM` counts the last row holds the rest (`orMore`). */
  histogram: Array<{ specs: number; tasks: number; orMore?: boolean }>;
  /** The coupling figure of the tasks with at least two specs. */
  coupling: DistributionView;
}

export const MAX_SPEC_ROWS = 40;
export const MAX_SPEC_HISTOGRAM = 60;

export interface SpecStatsView {
  resamples: number;
  seed: number;
  confidence: number;
  all: SpecGroupView;
  /** Most tasks first, at most `MAX_SPEC_ROWS`; `moreSources` says how many were left out (counted in `all`). */
  bySource: SpecGroupView[];
  moreSources: number;
  /** Each spec's share of its task's other specs it is coupled to, by category; at most `MAX_SPEC_ROWS` (most specs first). */
  couplingByCategory: Array<{ category: string; specs: number; share: DistributionView }>;
  moreCategories: number;
  evidence: { pairs: number; coupledPairs: number; sharedTests: number; declared: number; coFlip: number; measuredPairs: number };
}

/** One disagreement between curators, side by side, for adjudication. */
export interface DisagreementView {
  /** Stable key for the row: task + target. */
  key: string;
  taskId: string;
  taskTitle: string;
  target: 'label' | 'score';
  attempt?: string;
  spec?: string;
  specText?: string;
  field?: ScoreFieldView;
  verifier?: SpecVerdictView;
  values: Array<{ curator: string; value: string | number | string[]; event: string }>;
  open: boolean;
  final?: string | number | string[];
  from: FinalSourceView;
  /** The values an adjudication may choose from (verdicts, 0-3, difficulty buckets, defect sets). */
  choices: Array<string | number | string[]>;
}

export interface AdjudicationViewModel {
  protocol: number;
  dataset: string;
  policy: ConsensusPolicyView;
  viewer?: string;
  curatorProblem?: string;
  items: DisagreementView[];
  /** Open ones first, then settled ones when `showSettled`. */
  showSettled: boolean;
  total: { open: number; settled: number };
  error?: string;
}

export type CurationPanelModel = { view: 'stats'; stats: StatsViewModel } | { view: 'adjudication'; adjudication: AdjudicationViewModel };

export interface CurationRequestMap {
  /** Records the final decision on a disagreement (an adjudicate event). */
  adjudicate: {
    params: { taskId: string; target: 'label'; attempt: string; spec: string; verdict: CuratorVerdictView; note?: string } | { taskId: string; target: 'score'; field: ScoreFieldView; value: number | string | string[]; note?: string };
    result: ReviewActResult;
  };
  /** Opens a task in the task view. */
  openTask: { params: { taskId: string }; result: { opened: boolean } };
  /** Shows settled disagreements too (adjudication view). */
  showSettled: { params: { show: boolean }; result: { shown: boolean } };
  /**
   * A row or bar of the statistics was clicked: the Candidates list shows those tasks (by status, spec category,
   * solver model, or the solve-rate band's mixed success).
   */
  filterCandidates: { params: { statuses?: TaskStatusView[]; categories?: string[]; models?: string[]; mixedSuccess?: boolean }; result: { filtered: boolean } };
}

export type CurationRequestMethod = keyof CurationRequestMap;

export type CurationWebviewToHost =
  | { type: 'ready'; protocol: number }
  | RequestOf<CurationRequestMap>;

export type HostToCurationWebview =
  | { type: 'init'; model: CurationPanelModel }
  | { type: 'update'; model: CurationPanelModel }
  | ReplyMessage;
