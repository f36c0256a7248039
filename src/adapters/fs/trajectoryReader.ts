// Reads trajectory files as streams into the core's trajectory builder: a 500 MB file is never one string.
// Follows ATIF continuation files that sit next to the file. Cancelling through the AbortSignal rejects with the
// signal's AbortError; every other failure is a Problem value naming the file.

import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { NormalizedTrajectory, Problem } from '../../core/model';
import type {
  BuildOptions,
  BuildResult,
  BuiltInstance,
  TrajectoryInstancesResult,
  TrajectoryResult,
  TrajectorySummaryResult,
} from '../../core/trajectory/normalize';
import { TrajectoryBuilder, firstInstanceResult, joinTrajectories } from '../../core/trajectory/normalize';

export type { TrajectoryInstance, TrajectoryInstancesResult, TrajectoryResult, TrajectorySummaryResult } from '../../core/trajectory/normalize';

export interface ReadTrajectoryOptions {
  signal?: AbortSignal;
  /** How problems name the file (e.g. its dataset-relative path); defaults to the absolute path. */
  fileLabel?: string;
  /** Called after each chunk with the bytes read so far and the file's size (per file, continuations included). */
  onProgress?: (bytesRead: number, totalBytes: number) => void;
}

const CHUNK = 1 << 20;

function isAbort(e: unknown): boolean {
  return e instanceof Error && e.name === 'AbortError';
}

/**
 * A file no bigger than one stream chunk, read with one synchronous read: the same memory as the first chunk of a
 * stream, without a stream's per-file cost (an import reads 32,000 trajectories of a few KB; measured in
 * bench/import.bench.ts). Undefined for a bigger file, which is streamed.
 */
function readSmall(absPath: string): Buffer | undefined {
  const fd = openSync(absPath, 'r');
  try {
    const st = fstatSync(fd);
    const size = st.size;
    if (!st.isFile() || size > CHUNK) return undefined;
    const buf = Buffer.allocUnsafe(size + 1);
    let n = 0;
    for (let got = -1; got !== 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, null);
    // A file that grew past the chunk while being read is streamed instead.
    return n > size ? undefined : buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

async function buildFile(absPath: string, opts: BuildOptions, read: ReadTrajectoryOptions): Promise<BuildResult> {
  const { signal, onProgress } = read;
  signal?.throwIfAborted();
  const builder = new TrajectoryBuilder(opts);
  let small: Buffer | undefined;
  try {
    small = readSmall(absPath);
  } catch {
    small = undefined; // the stream below reports why the file cannot be read
  }
  if (small !== undefined) {
    builder.push(small);
    onProgress?.(small.length, small.length);
    return builder.end();
  }
  const stream = createReadStream(absPath, signal !== undefined ? { highWaterMark: CHUNK, signal } : { highWaterMark: CHUNK });
  try {
    const total = onProgress !== undefined ? (await stat(absPath)).size : 0;
    let done = 0;
    for await (const chunk of stream) {
      builder.push(chunk as Buffer);
      if (onProgress !== undefined) {
        done += (chunk as Buffer).length;
        onProgress(done, total);
      }
    }
  } catch (e) {
    if (isAbort(e) || signal?.aborted === true) throw signal?.reason ?? e;
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'the file does not exist' : code === 'EISDIR' ? 'it is a folder, not a file' : `cannot read the file (${code ?? String(e)})`;
    return { ok: false, problem: { severity: 'error', file: opts.fileLabel, message: why } };
  }
  return builder.end();
}

/** The continuation file next to `current`; Harbor names it `trajectory.cont-1.json`, tests prefix both names. */
async function findContinuation(current: string, ref: string): Promise<string | undefined> {
  const dir = path.dirname(current);
  const candidates = [path.join(dir, ref)];
  const base = path.basename(current);
  const stem = 'trajectory.json';
  if (base.endsWith(stem) && base !== stem && ref.startsWith('trajectory.')) candidates.push(path.join(dir, base.slice(0, -stem.length) + ref));
  for (const c of candidates) {
    try {
      if ((await stat(c)).isFile()) return c;
    } catch {
      // try the next name
    }
  }
  return undefined;
}

function siblingLabel(label: string, absSibling: string): string {
  const dir = label.includes('/') ? label.slice(0, label.lastIndexOf('/') + 1) : '';
  return dir + path.basename(absSibling);
}

/** Appends to `first` the ATIF continuations it names, each read from the file next to the previous one. */
async function joinContinuations(
  absPath: string,
  label: string,
  first: BuiltInstance,
  problems: Problem[],
  keepText: boolean,
  read: ReadTrajectoryOptions,
): Promise<NormalizedTrajectory> {
  let trajectory = first.trajectory;
  let ref = first.continuationRef;
  let current = absPath;
  let currentLabel = label;
  const seen = new Set([path.resolve(absPath)]);
  while (ref !== undefined) {
    const field = 'continued_trajectory_ref';
    if (ref.includes('/') || ref.includes('\\') || ref === '..' || ref === '.') {
      problems.push({ severity: 'warning', file: currentLabel, field, message: `continuation "${ref}" is not a file name next to this one; not followed` });
      break;
    }
    const next = await findContinuation(current, ref);
    if (next === undefined) {
      problems.push({ severity: 'warning', file: currentLabel, field, message: `the trajectory continues in "${ref}", which was not found next to it` });
      break;
    }
    if (seen.has(path.resolve(next))) {
      problems.push({ severity: 'warning', file: currentLabel, field, message: `continuation "${ref}" leads back to a file already read; stopped` });
      break;
    }
    seen.add(path.resolve(next));
    const nextLabel = siblingLabel(label, next);
    const cont = await buildFile(next, { fileLabel: nextLabel, keepText, dropCopiedContext: true }, read);
    if (!cont.ok) {
      problems.push({ ...cont.problem, severity: 'warning', message: `continuation not read: ${cont.problem.message}` });
      break;
    }
    const contFirst = cont.instances[0]!;
    trajectory = joinTrajectories(trajectory, contFirst.trajectory);
    problems.push(...contFirst.problems, ...cont.problems);
    ref = contFirst.continuationRef;
    current = next;
    currentLabel = nextLabel;
  }
  return trajectory;
}

async function readJoined(absPath: string, opts: ReadTrajectoryOptions, keepText: boolean): Promise<TrajectoryResult> {
  const label = opts.fileLabel ?? absPath;
  const built = await buildFile(absPath, { fileLabel: label, keepText }, opts);
  const first = firstInstanceResult(built);
  if (!first.ok || !built.ok) return first;
  const trajectory = await joinContinuations(absPath, label, built.instances[0]!, first.problems, keepText, opts);
  return { ok: true, trajectory, problems: first.problems };
}

/** Reads and normalizes a trajectory file in any supported format (detected from content). */
export async function readTrajectory(absPath: string, opts: ReadTrajectoryOptions = {}): Promise<TrajectoryResult> {
  return readJoined(absPath, opts, true);
}

/** Like readTrajectory, without keeping step texts: for step counts, cost and exit status. */
export async function summarizeTrajectory(absPath: string, opts: ReadTrajectoryOptions = {}): Promise<TrajectorySummaryResult> {
  const r = await readJoined(absPath, opts, false);
  return r.ok ? { ok: true, summary: r.trajectory.summary, problems: r.problems } : r;
}

/**
 * One entry per instance: a multi-instance file (OpenHands evaluation output, one instance per line) gives each
 * line with its byte range, so an importer can copy it out as its own file; any other file gives one entry.
 */
export async function listTrajectoryInstances(absPath: string, opts: ReadTrajectoryOptions = {}): Promise<TrajectoryInstancesResult> {
  const label = opts.fileLabel ?? absPath;
  const built = await buildFile(absPath, { fileLabel: label, keepText: false, allInstances: true }, opts);
  if (!built.ok) return built;
  if (built.instances.length === 1) {
    const only = built.instances[0]!;
    const problems = [...only.problems, ...built.problems];
    const { summary } = await joinContinuations(absPath, label, only, problems, false, opts);
    return { ok: true, instances: [summary.instanceId !== undefined ? { instanceId: summary.instanceId, summary } : { summary }], problems };
  }
  const problems = [...built.problems];
  const instances = built.instances.map((inst) => {
    problems.push(...inst.problems);
    const summary = inst.trajectory.summary;
    return {
      ...(summary.instanceId !== undefined ? { instanceId: summary.instanceId } : {}),
      summary,
      ...(inst.byteRange !== undefined ? { byteRange: inst.byteRange } : {}),
    };
  });
  return { ok: true, instances, problems };
}
