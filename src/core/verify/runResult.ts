// The words of a verifier run: its status, how each patch applied, what was captured, and the stored record.
import type { ResultParser, SpecVerdict, TestStatus } from '../model';

export const RUN_STATUSES = ['passed', 'failed', 'timeout', 'oom', 'disk_limit', 'apply_failed', 'invalid', 'infra_error'] as const;
/** `passed` = resolved; `failed` = the tests ran and graded unresolved; the rest say why no verdict can be trusted. */
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Runs whose tests ran to the end and whose per-test results can be graded. */
export function isGradedStatus(s: RunStatus): boolean {
  return s === 'passed' || s === 'failed';
}


/** How a patch got applied: `git apply`, the `patch --fuzz=3` fallback (after CRLF normalisation), or not at all. */
/** `unpacked`: the patch only adds files and was written to the verifier's `unpackTo` folder (Harbor's tests/, solution/). */
export type ApplyMethod = 'git-apply' | 'patch-fuzz' | 'empty' | 'unpacked' | 'failed' | 'not-run';

export interface PatchApplication {
  method: ApplyMethod;
  /** Why it failed: the output of `git apply` and of `patch`, shortened. */
  detail?: string;
}

/** One captured output stream: the first and last bytes kept byte-exact, the middle cut when too long. */
export interface CapturedStream {
  totalBytes: number;
  /** Bytes kept from the start; the stored log holds `head` then `tail`. */
  headBytes: number;
  tailBytes: number;
  /** Bytes dropped between head and tail. */
  cutBytes: number;
  /** Dataset-relative path of the stored bytes (head followed by tail), once persisted. */
  file?: string;
}

/** A test's outcome in one run; `MISSING` = named by the task but reported by no one. */
export type GradedTestStatus = TestStatus | 'MISSING';

/** SWE-bench's success/failure lists plus what it leaves silent: tests not found, and skipped ones. */
export interface GradeLists {
  success: string[];
  failure: string[];
  missing: string[];
  /**
   * Reported as SKIPPED. SWE-bench's rules: a skipped FAIL_TO_PASS test blocks resolution (a failure), a skipped
   * PASS_TO_PASS test does not (it is maintained). Kept apart from `success`/`failure` so it is always visible.
   */
  skipped: string[];
}

/**
 * A task test matched to a reported test other than by exact name; `ambiguous`: several candidates (or a candidate
 * another listed test claims too), so the test is MISSING.
 */
export interface LooseMatch {
  test: string;
  reported: string[];
  how: 'prefix' | 'normalized' | 'ambiguous';
}

/**
 * What a run itself shows that a curator should see beside its status: a listed test that was skipped, status lines
 * that conflict, an attempt's patch touching what grades it (its tests, conftest.py, plugins, configuration) or
 * exiting the test process.
 */
export type RunFlagKind =
  | 'skipped_test'
  | 'conflicting_status'
  | 'attempt_edits_tests'
  | 'attempt_edits_test_plugins'
  | 'attempt_edits_test_config'
  | 'attempt_exits_test_process';

export interface RunFlag {
  kind: RunFlagKind;
  message: string;
  /** The task test it is about (a task test name). */
  test?: string;
}

export interface Grade {
  failToPass: GradeLists;
  passToPass: GradeLists;
  resolved: boolean;
  /** Task test name to its status in this run. */
  tests: Record<string, GradedTestStatus>;
  looseMatches: LooseMatch[];
}

/** Hashes of everything a run's verdict depends on; a stored run is reused only when all are equal. */
export interface RunInputs {
  /** Version of the verifier's own logic (driver script, grading); a change invalidates stored runs. */
  verifierVersion: number;
  testPatch: string;
  attemptPatch: string;
  /** Specs, tests and the spec-test map, task revision. */
  taskDefinition: string;
  /** Verifier command, parser and JUnit path. */
  verifierCommand: string;
  /** Workdir, limits, timeout. */
  environment: string;
  /** Repository source and base commit. */
  repo: string;
  imageId: string;
  /** sha256 over all of the above. */
  key: string;
}

export interface RunTimings {
  /** ISO time the run began. */
  startedAt: string;
  totalMs: number;
  imageMs?: number;
  archiveMs?: number;
  createMs?: number;
  uploadMs?: number;
  /** From container start to its exit (or kill). */
  containerMs?: number;
  /** From container start to its removal. */
  startToRemovedMs?: number;
  removeMs?: number;
}

/** One verifier run as stored under `runs/<taskId>/<attemptId>/<runId>.json`. */
export interface VerifierRunRecord {
  format: 1;
  runId: string;
  taskId: string;
  taskRevision: number;
  /** A solver attempt id, or `gold` / `empty` for the oracle probes. */
  attemptId: string;
  /** 1-based index among `--repeat` runs of the same inputs. */
  repeat: number;
  status: RunStatus;
  /** One sentence on why the status is what it is (the trust check that fired, the infra error...). */
  reason: string;
  resolved: boolean;
  image: string;
  imageId: string;
  apply: { test: PatchApplication; attempt: PatchApplication };
  /** What the driver printed before the tests began (patch application), shortened. */
  driverReport: string;
  exitCode: number | null;
  oomKilled: boolean;
  timedOut: boolean;
  timeoutSec: number;
  /** Where the per-test statuses came from. */
  /** The parser the per-test results came from (a text parser's name, `junit` for a report), or `none`. */
  testsFrom: ResultParser | 'none';
  /** Every test the runner reported, name to status. */
  reported: Record<string, TestStatus>;
  grade: Grade;
  specs: Record<string, SpecVerdict>;
  /** Flags about this run (skipped listed tests, conflicting lines, a patch touching the tests...); absent in old records. */
  flags?: RunFlag[];
  stdout: CapturedStream;
  stderr: CapturedStream;
  inputs: RunInputs;
  timings: RunTimings;
  /** The backend the run executed on (`local`...); absent in records older than backends (read as `local`). */
  backend?: string;
  /** The engine host it ran on (the engine's name, its host name); absent in older records. */
  node?: string;
  /** Ran in a reused (warm) container, reset between runs; absent or false for a fresh container. */
  warm?: boolean;
  /** Reused from an earlier identical run instead of running again (set on the reported copy, never stored). */
  reused?: boolean;
}
