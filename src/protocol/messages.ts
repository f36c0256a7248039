// The typed messages between the extension host and the task-view webview. Imported by both sides; imports nothing.
//
// Shape: the webview sends `ready` once its script runs; the host answers with `init`. After that the webview sends
// requests `{ type: 'request', id, method, params }` and the host answers each with exactly one
// `{ type: 'reply', id, ok, result | error }`. The host may also push notifications (`update`, `searchHits`,
// `searchDone`, `command`). Ids come from a counter on the webview side. No single message exceeds about 1 MB:
// large data (trajectory steps, long texts) is paged by request.

export const PROTOCOL_VERSION = 1;

/** Largest text sent in one message; longer texts are fetched in slices with `getStepText`. */
export const MAX_TEXT_SLICE = 256 * 1024;
/** Longest preview of a step's text in a page of steps; the rest is folded and fetched on demand. */
export const STEP_PREVIEW_CHARS = 2000;
/** Most steps in one page. */
export const MAX_STEP_PAGE = 200;

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
}

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
  specs: Record<string, Record<string, string>>;
  /** columnId -> run summary (status, stale). */
  runs: Record<string, {
    runId: string;
    status: string;
    stale: boolean;
    resolved?: boolean;
    /** (verifier, additive) `run`: one of our stored runs; `recorded`: an imported result (no log of ours). */
    source?: 'run' | 'recorded';
    /** (verifier, additive) What changed since the run (task revision, test patch, attempt patch...). */
    staleReasons?: string[];
  }>;
  /** `column` (verifier, additive): the attempt a flag is about; absent for flags about the task. */
  flags: Array<{ kind: string; message: string; testId?: string; specId?: string; column?: string }>;
}

export interface TaskViewModel {
  protocol: number;
  taskId: string;
  title: string;
  revision: number;
  status: string;
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
  repair?: RepairView;
}

/** A repair of the task: the suggestion, what became of it, and the before/after matrix of verdicts. */
export interface RepairView {
  suggestion: string;
  status: 'ready' | 'refused' | 'failed' | 'accepted' | 'rejected' | 'revalidating' | 'revalidated';
  summary?: string;
  fromRevision?: number;
  toRevision?: number;
  matrix?: RepairMatrixView;
}

/** Outcomes are true_pass, true_fail, false_positive, false_negative, undecided or absent; verdicts pass, fail, unknown or absent. */
export interface RepairMatrixView {
  attempts: string[];
  specs: string[];
  cells: Array<{
    attempt: string;
    spec: string;
    before: { verifier: string; outcome: string };
    after: { verifier: string; outcome: string };
    /** fp_fixed, fn_fixed, fp_new, fn_new, verdict_changed or same. */
    change: string;
  }>;
  fixed: { falsePositives: Array<{ attempt: string; spec: string }>; falseNegatives: Array<{ attempt: string; spec: string }> };
  introduced: { falsePositives: Array<{ attempt: string; spec: string }>; falseNegatives: Array<{ attempt: string; spec: string }> };
  counts: { before: { falsePositives: number; falseNegatives: number }; after: { falsePositives: number; falseNegatives: number } };
}

export type StepKindView = 'system' | 'user' | 'thought' | 'action' | 'observation' | 'tool_call' | 'tool_result';

export interface StepView {
  index: number;
  kind: StepKindView;
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
  /** Character offset of the match in the step's text (the same text `getStepText` slices), and its length. */
  start: number;
  length: number;
  /** A short excerpt around the match (inert text) and the match's offset in it. */
  excerpt: string;
  excerptStart: number;
}

// ---- requests (webview -> host) ------------------------------------------------------------------------------

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
  /** Opens two columns' versions of the same file against each other. */
  compareColumns: { params: { left: string; right: string; path: string }; result: { opened: boolean; message?: string } };
  /** Opens the test patch at a test's source. */
  openTest: { params: { testId: string }; result: { opened: boolean; message?: string } };
  /** Opens the column's whole patch as text. */
  openPatch: { params: { column: string }; result: { opened: boolean } };
  /**
   * (verifier) Opens the log of the verifier run behind a results column (read-only), at the line where the test's
   * result appears; without `testId` at the top.
   */
  openRunLog: { params: { column: string; testId?: string }; result: { opened: boolean; line?: number; message?: string } };
  /** Runs a command contributed by the extension (e.g. run verifier), when the workspace allows it. */
  runCommand: { params: { command: string; args: string[] }; result: { ran: boolean; message?: string } };
}

export type RequestMethod = keyof RequestMap;
export type RequestParams<M extends RequestMethod> = RequestMap[M]['params'];
export type RequestResult<M extends RequestMethod> = RequestMap[M]['result'];

export type WebviewToHost =
  | { type: 'ready'; protocol: number; state?: WebviewState }
  | { [M in RequestMethod]: { type: 'request'; id: number; method: M; params: RequestParams<M> } }[RequestMethod]
  | { type: 'uiState'; state: WebviewState };

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
  | { type: 'reply'; id: number; ok: true; result: unknown }
  | { type: 'reply'; id: number; ok: false; error: string }
  /** `counts`: running totals per column since the search started (not this batch's), including hits not sent. */
  | { type: 'searchHits'; searchId: number; hits: SearchHit[]; counts: Record<string, number> }
  | { type: 'searchDone'; searchId: number; total: number; counts: Record<string, number>; cancelled: boolean; capped: boolean }
  | { type: 'command'; command: ViewCommand };
