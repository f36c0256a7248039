// The domain's words, each defined once. Every other module speaks these types.

/** Problems found while loading or importing; never thrown, always collected. */
export interface Problem {
  severity: 'error' | 'warning';
  /** Path of the file, relative to the dataset root where there is one, else as given. */
  file: string;
  /** 1-based line, where one is known. */
  line?: number;
  /** JSON pointer-ish field path, e.g. `specs[2].id`; empty for a whole-file problem. */
  field?: string;
  message: string;
}

/**
 * The oracle probes: the attempt ids of the verifier runs of the task's gold patch and of the empty patch (no change).
 * Every other attempt id is a solver's, and no imported attempt may take one of these.
 */
export const GOLD_PROBE = 'gold';
export const EMPTY_PROBE = 'empty';
export const PROBE_IDS = [GOLD_PROBE, EMPTY_PROBE] as const;
export type ProbeId = (typeof PROBE_IDS)[number];

export function isProbeId(id: string): id is ProbeId {
  return id === GOLD_PROBE || id === EMPTY_PROBE;
}

/** Spec categories of the CodeSpecWeave taxonomy; datasets may use their own kebab-case names too. */
export const KNOWN_SPEC_CATEGORIES = [
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

/** A specification: one requirement an acceptable patch must satisfy. */
export interface Spec {
  id: string;
  text: string;
  category: string;
  /** Ids of specs this one constrains or is constrained by. */
  dependsOn: string[];
}

export type TestKind = 'fail_to_pass' | 'pass_to_pass';

/** An executable test; `specs` is this test's side of the many-to-many spec-test map. */
export interface TestCase {
  id: string;
  /** The test's name exactly as the runner reports it (e.g. a pytest node id). */
  name: string;
  kind: TestKind;
  specs: string[];
}

/**
 * How a verifier's output is read: pytest, Django's runner, a JUnit XML report, the exit code, or the text of another
 * runner (go test, cargo test, Maven/Gradle/Ant, Jest/Vitest), or
 * Harbor's reward file.
 */
export type ResultParser = 'pytest' | 'django' | 'junit' | 'exitcode' | 'gotest' | 'cargo' | 'maven' | 'gradle' | 'ant' | 'jest' | 'reward';

export const RESULT_PARSERS: readonly ResultParser[] = ['pytest', 'django', 'junit', 'exitcode', 'gotest', 'cargo', 'maven', 'gradle', 'ant', 'jest', 'reward'];

export interface Verifier {
  /** Shell command run in the workdir after the test patch and the attempt patch are applied. */
  command: string;
  parser: ResultParser;
  /** For `junit`: path of the XML report inside the container, relative to the workdir. */
  junitPath?: string;
  /**
   * Absolute folder the test patch and the gold patch are unpacked to instead of being applied in the workdir
   * (Harbor: `tests/…` goes to `/tests/…`, `solution/…` to `/solution/…`); both may then only add files.
   */
  unpackTo?: string;
  /** The gold probe runs this in the workdir before `command` (Harbor's oracle: `bash /solution/solve.sh`). */
  goldCommand?: string;
}

export interface Limits {
  memoryMb: number;
  cpus: number;
  pids: number;
  /**
   * The most a run may write to the container's disk (MiB), beyond what is uploaded; over it the run is
   * `disk_limit`. Optional so limits written before it existed stay valid; missing = DEFAULT_LIMITS.diskMb.
   */
  diskMb?: number;
}

export interface Environment {
  image: string;
  workdir: string;
  limits: Limits;
  timeoutSec: number;
  /** Dockerfile (relative to the task folder) that builds `image` when it is missing. */
  dockerfile?: string;
}

/**
 * Where the repository comes from: a local git clone at a base commit, or an image that already holds it in
 * the workdir.
 */
export type RepoSource =
  | { name: string; kind: 'git'; path: string; baseCommit: string }
  | { name: string; kind: 'image'; baseCommit?: string };

/** A candidate task: repository at a base commit, request, specs, tests, environment and verifier. */
export interface CandidateTask {
  id: string;
  title: string;
  /** Revision of the task's request/specs/tests; repair makes a new one. */
  revision: number;
  repo: RepoSource;
  environment: Environment;
  specs: Spec[];
  tests: TestCase[];
  verifier: Verifier;
  /** Free-form notes, e.g. an importer saying the task has no specs yet. */
  notes: string[];
  /** Where the task came from (importer, source file, instance id...). */
  source?: Record<string, unknown>;
  /** Dataset-relative folder of the task. */
  dir: string;
  /** Files in the task folder, dataset-relative; read lazily. */
  files: {
    task: string;
    request: string;
    testPatch: string;
    goldPatch?: string;
  };
  attempts: Attempt[];
}

/** A solver's attempt: a patch plus a trajectory, with metadata. */
export interface Attempt {
  id: string;
  model: string;
  agent: string;
  /** The run (folder of predictions/trajectories) it was imported from, if any. */
  run?: string;
  costUsd?: number;
  tokens?: { input?: number; output?: number };
  /** What the solver claimed at the end (e.g. "submitted", "resolved", a summary). */
  claimed?: { status?: string; summary?: string };
  /** Dataset-relative paths; read lazily. */
  dir: string;
  patchFile?: string;
  trajectoryFile?: string;
  /** Verifier results recorded elsewhere (e.g. an imported SWE-bench report.json), shown before anything runs. */
  recordedResults: RecordedResult[];
}

export type TestStatus = 'PASSED' | 'FAILED' | 'SKIPPED' | 'ERROR' | 'XFAIL' | 'XPASS';

export interface SuccessFailure {
  success: string[];
  failure: string[];
  missing?: string[];
}

/** An earlier verdict imported from another tool; never produced by our own verifier. */
export interface RecordedResult {
  imported: true;
  /** What produced it: `swebench-report`, `swebench-run-report`, `openhands-log`, `custom-eval`... */
  source: string;
  /** Dataset-relative or original path of the file it came from. */
  file: string;
  resolved?: boolean;
  patchApplied?: boolean;
  /** `error` when the harness never produced a report (e.g. the patch did not apply). */
  status?: 'resolved' | 'unresolved' | 'error' | 'empty_patch';
  /** Why, in the producing tool's words (e.g. "Hunk #1 FAILED at 1478"). */
  detail?: string;
  failToPass?: SuccessFailure;
  passToPass?: SuccessFailure;
  tests?: Record<string, TestStatus>;
}

/** The dataset manifest, `specweave.json`. */
export interface DatasetManifest {
  format: 1;
  name: string;
  description?: string;
  guidelines?: string;
  defaults: {
    image?: string;
    workdir: string;
    timeoutSec: number;
    limits: Limits;
  };
}

export interface Dataset {
  /** Absolute path of the dataset folder. */
  root: string;
  manifest: DatasetManifest;
  tasks: CandidateTask[];
  problems: Problem[];
}

export const DEFAULT_LIMITS: Limits = { memoryMb: 2048, cpus: 1, pids: 512, diskMb: 2048 };
export const DEFAULT_TIMEOUT_SEC = 300;
export const DEFAULT_WORKDIR = '/repo';

// ---- trajectories ------------------------------------------------------------------------------------------

/** `submission`: the agent's final answer as it handed it in (mini-swe-agent's `exit` message). */
export type StepKind = 'system' | 'user' | 'thought' | 'action' | 'observation' | 'tool_call' | 'tool_result' | 'submission';

export interface ToolCall {
  id?: string;
  name: string;
  /** Arguments as the agent wrote them (usually a JSON string). */
  arguments: string;
}

/** A file edit a step made, where it can be derived. */
export interface FileEdit {
  path: string;
  /** How it was derived: a str_replace/edit tool, a create/write, or a shell command such as `sed -i`. */
  via: string;
}

/** One normalized trajectory step. */
export interface TrajectoryStep {
  index: number;
  kind: StepKind;
  text: string;
  toolCalls?: ToolCall[];
  timestamp?: string;
  costUsd?: number;
  tokens?: { input?: number; output?: number };
  edits?: FileEdit[];
  /** Index of the step in the source file (e.g. message number) for jump-back. */
  sourceRef?: string;
}

export type TrajectoryFormat =
  | 'swe-agent'
  | 'swe-agent-retry'
  | 'mini-swe-agent'
  | 'openhands-events'
  | 'openhands-eval'
  | 'atif'
  | 'claude-code'
  | 'codex'
  | 'codex-exec'
  | 'chat-messages'
  | 'litellm'
  | 'agentless'
  | 'autocoderover'
  | 'openhands-resolver';

export interface TrajectorySummary {
  format: TrajectoryFormat;
  steps: number;
  byKind: Partial<Record<StepKind, number>>;
  costUsd?: number;
  tokens?: { input?: number; output?: number };
  exitStatus?: string;
  /** The patch the agent submitted, if the trajectory records one. */
  submission?: string;
  instanceId?: string;
  model?: string;
  /** The repository and commit the file says the agent worked on (`owner/repo` or a URL), where it says so. */
  repo?: string;
  baseCommit?: string;
  /** What the agent itself claimed at the end (OpenHands resolver `success`): a claim, never a verdict. */
  claimed?: { status?: string; summary?: string };
  /** Lines or items that are not conversation steps and were left out, by type (`progress/hook_progress`: 12). */
  skipped?: Record<string, number>;
  /** What the reader noticed that is not a problem (what was skipped, how duplicates were merged...). */
  notes?: string[];
}

export interface NormalizedTrajectory {
  summary: TrajectorySummary;
  steps: TrajectoryStep[];
}

// ---- review ------------------------------------------------------------------------------------------------

/** The task life cycle (see issue 5); a task with no review events is a `candidate`. */
export const TASK_STATUSES = [
  'candidate',
  'in_review',
  'flagged',
  'needs_repair',
  'repaired',
  'revalidated',
  'approved',
  'rejected',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** A curator's verdict on whether an attempt satisfies a spec. */
export type CuratorVerdict = 'satisfied' | 'violated' | 'unsure';

/** The verifier's verdict on a spec for an attempt, through the spec-test map. */
export type SpecVerdict = 'pass' | 'fail' | 'unknown';

/** Curator verdict set against verifier verdict. */
export type LabelOutcome = 'true_pass' | 'true_fail' | 'false_positive' | 'false_negative' | 'undecided';
