// The flat view of one run that the CLI prints as a JSON line and the UI shows in its matrices.
import { runPlace } from './backend';
import type { SpecVerdict } from '../model';
import type { OracleFlag } from './oracle';
import type { ApplyMethod, GradedTestStatus, LooseMatch, RunStatus, VerifierRunRecord } from './runResult';

export interface RunSummary {
  taskId: string;
  attemptId: string;
  repeat: number;
  runId: string;
  status: RunStatus;
  reason: string;
  resolved: boolean;
  /** How the attempt's patch applied (`git-apply`, `patch-fuzz`, `empty`, `unpacked`), `failed`, or null when it never ran. */
  applyMethod: ApplyMethod | null;
  testPatchApplyMethod: ApplyMethod | null;
  tests: Record<string, GradedTestStatus>;
  failToPass: { success: string[]; failure: string[]; missing: string[]; skipped: string[] };
  passToPass: { success: string[]; failure: string[]; missing: string[]; skipped: string[] };
  looseMatches: LooseMatch[];
  specs: Record<string, SpecVerdict>;
  image: string;
  imageId: string;
  exitCode: number | null;
  timedOut: boolean;
  oomKilled: boolean;
  durationMs: number;
  reused: boolean;
  /** Where it ran: the backend (`local`), the engine's host name ('' when unknown), whether in a warm container. */
  backend: string;
  node: string;
  warm: boolean;
  output: { stdoutBytes: number; stdoutCutBytes: number; stderrBytes: number; stderrCutBytes: number; stdoutLog?: string; stderrLog?: string };
  /** Oracle flags about this run's verdict and about its task. */
  flags: { kind: string; message: string; test?: string; spec?: string }[];
}

function method(m: ApplyMethod): ApplyMethod | null {
  return m === 'not-run' ? null : m;
}

export function runSummary(r: VerifierRunRecord, flags: OracleFlag[] = []): RunSummary {
  return {
    taskId: r.taskId,
    attemptId: r.attemptId,
    repeat: r.repeat,
    runId: r.runId,
    status: r.status,
    reason: r.reason,
    resolved: r.resolved,
    applyMethod: method(r.apply.attempt.method),
    testPatchApplyMethod: method(r.apply.test.method),
    tests: r.grade.tests,
    failToPass: r.grade.failToPass,
    passToPass: r.grade.passToPass,
    looseMatches: r.grade.looseMatches,
    specs: r.specs,
    image: r.image,
    imageId: r.imageId,
    exitCode: r.exitCode,
    timedOut: r.timedOut,
    oomKilled: r.oomKilled,
    durationMs: r.timings.totalMs,
    reused: r.reused === true,
    ...runPlace(r),
    output: {
      stdoutBytes: r.stdout.totalBytes,
      stdoutCutBytes: r.stdout.cutBytes,
      stderrBytes: r.stderr.totalBytes,
      stderrCutBytes: r.stderr.cutBytes,
      stdoutLog: r.stdout.file,
      stderrLog: r.stderr.file,
    },
    flags: flags.map((f) => ({ kind: f.kind, message: f.message, ...(f.test ? { test: f.test } : {}), ...(f.spec ? { spec: f.spec } : {}) })),
  };
}
