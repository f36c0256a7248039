// What a job backend (Swarm, Kubernetes) brings back, made into the execution a local run gives the judge: the same
// capture of stdout (the driver's report before the tests, head and tail after) and stderr, the same reading of the
// exit code (a timeout, an out-of-memory kill), the reports read back from the job. One function for both backends,
// so that the judge grades what comes back exactly as it grades a local run's output.
import { DEFAULT_KEEP_BYTES, HeadTailCapture, MarkerSplitCapture } from './capture';
import { parsePrelude, TESTS_BEGIN_MARKER } from './driver';
import type { RunDescription } from './runSpec';
import type { RunExecution } from './runExecutor';

export const MAX_REPORT_BYTES = 32 * 1024 * 1024;
export const MAX_OUTPUT_FILE_BYTES = 1024 * 1024;

export interface JobCaptures {
  stdout: MarkerSplitCapture;
  stderr: HeadTailCapture;
}

/** Fresh captures of a try's output; `onOutput` sees the tests' output as it arrives. */
export function jobCaptures(keepBytes: number | undefined, onOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void): JobCaptures {
  const keep = keepBytes ?? DEFAULT_KEEP_BYTES;
  return {
    stdout: new MarkerSplitCapture(Buffer.from(TESTS_BEGIN_MARKER), keep, 256 * 1024, (c) => onOutput?.('stdout', c)),
    stderr: new HeadTailCapture(keep),
  };
}

/** The files a job reads back for the judge: the JUnit report, the harness's report, the description's output files. */
export function readBackOf(d: RunDescription): Array<{ path: string; maxBytes: number }> {
  return [
    ...(d.junitPath ? [{ path: `${d.workdir}/${d.junitPath}`, maxBytes: MAX_REPORT_BYTES }] : []),
    ...(d.harnessReportPath ? [{ path: d.harnessReportPath, maxBytes: MAX_REPORT_BYTES }] : []),
    ...(d.outputFiles ?? []).map((path) => ({ path, maxBytes: MAX_OUTPUT_FILE_BYTES })),
  ];
}

/** The run description's driver as one command line for `sh`. */
export function driverCommand(d: RunDescription): string {
  return `exec ${[...d.entrypoint, ...d.cmd].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')}\n`;
}

/** What every job backend takes from a run description alike: the image, the driver, its user, folder and files. */
export function jobBase(d: RunDescription, archive: Buffer): { name: string; image: string; command: string; workdir: string; user: string; env: string[]; archive: Buffer; readBack: Array<{ path: string; maxBytes: number }> } {
  return { name: d.name, image: d.image, command: driverCommand(d), workdir: d.workdir, user: d.user, env: d.env, archive, readBack: readBackOf(d) };
}

export interface JobEnd {
  /** `timeout`: the backend's deadline ended the job from outside. */
  status: 'exited' | 'timeout';
  exitCode?: number;
  oomKills?: number;
  /** How long the command ran, measured inside the job. */
  commandMs?: number;
  /** The read-back files by absolute path. */
  files: Record<string, Buffer | undefined>;
  timings: { startMs: number; runMs: number };
  /** Where it ran, as run records name it. */
  node?: string;
  /** Why it ran a second time elsewhere. */
  movedFrom?: string;
}

export function executionOf(d: RunDescription, cap: JobCaptures, r: JobEnd): RunExecution {
  const killedByClient = r.status === 'timeout';
  const exitCode = killedByClient ? null : (r.exitCode ?? null);
  const containerMs = r.commandMs ?? r.timings.runMs;
  const oomKilled = exitCode !== 0 && (r.oomKills ?? 0) > 0;
  const timedOut = killedByClient || (!oomKilled && (exitCode === 124 || exitCode === 137) && containerMs >= d.timeoutSec * 1000);
  const readable = !timedOut && cap.stdout.markerSeen;
  const text = (p: string | undefined) => (p !== undefined && readable ? r.files[p]?.toString('utf8') : undefined);
  let junitXml = text(d.junitPath ? `${d.workdir}/${d.junitPath}` : undefined);
  let harnessReport: RunExecution['harnessReport'];
  if (d.harnessReportPath) {
    const xml = text(d.harnessReportPath);
    harnessReport = { format: 'junit', xml: xml ?? (d.junitPath ? junitXml : undefined) };
    if (d.junitPath) junitXml ??= xml;
  }
  let outputFiles: Record<string, string | undefined> | undefined;
  if (d.outputFiles && readable) outputFiles = Object.fromEntries(d.outputFiles.map((f) => [f, text(f)]));
  const prelude = cap.stdout.prelude().toString('utf8');
  return {
    containerId: '',
    apply: parsePrelude(prelude),
    prelude,
    exitCode,
    timedOut,
    killedByClient,
    oomKilled,
    stdout: cap.stdout.after.result(),
    stderr: cap.stderr.result(),
    junitXml,
    harnessReport,
    diskLimitExceeded: false,
    diskWrittenBytes: 0,
    ...(outputFiles ? { outputFiles } : {}),
    timings: { createMs: r.timings.startMs, uploadMs: 0, containerMs, removeMs: 0, startToRemovedMs: r.timings.runMs },
    removed: true,
    warm: false,
    ...(r.node ? { node: r.node } : {}),
    ...(r.movedFrom ? { movedFrom: r.movedFrom } : {}),
  };
}
