// Reads trajectory files as streams into the core's trajectory builder: a 500 MB file is never one string.
// Follows ATIF continuation files that sit next to the file. Cancelling through the AbortSignal rejects with the
// signal's AbortError; every other failure is a Problem value naming the file.

import { closeSync, constants, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { SYMLINK_OUT_MESSAGE } from '../../core/paths';
import { DatasetFileError, datasetRoot, resolveForRead } from './datasetPaths';
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
import { acrFacts, isAcrTaskDir, planAcrDir, withAcrFacts } from '../../core/trajectory/autoCodeRover';
import { errnoCode } from '../../core/errorText';

export type { TrajectoryInstance, TrajectoryInstancesResult, TrajectoryResult, TrajectorySummaryResult } from '../../core/trajectory/normalize';

export interface ReadTrajectoryOptions {
  signal?: AbortSignal;
  /** How problems name the file (e.g. its dataset-relative path); defaults to the absolute path. */
  fileLabel?: string;
  /** Called after each chunk with the bytes read so far and the file's size (per file, continuations included). */
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  /**
   * The dataset the file is in: an ATIF continuation is then followed only when it stays inside the dataset (a
   * symlink out is an error naming it, and is not read). Without it (an importer's input) continuations are read.
   */
  datasetRoot?: string;
  /** Bytes one step may have (default 64 MiB): a larger one is left out with a problem, and never held in memory. */
  maxValueBytes?: number;
}

function limits(read: ReadTrajectoryOptions): Pick<BuildOptions, 'maxValueBytes'> {
  return read.maxValueBytes !== undefined ? { maxValueBytes: read.maxValueBytes } : {};
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
  // Non-blocking open: a FIFO swapped in after the caller's stat must not hang the read.
  const fd = openSync(absPath, constants.O_RDONLY | constants.O_NONBLOCK);
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

async function buildFile(absPath: string, opts: BuildOptions, read: ReadTrajectoryOptions, range?: [number, number]): Promise<BuildResult> {
  const { signal, onProgress } = read;
  signal?.throwIfAborted();
  // A FIFO or device would be read forever (or block): only a regular file is streamed.
  try {
    const st = await stat(absPath);
    if (!st.isFile()) {
      const why = st.isDirectory() ? 'it is a folder, not a file' : 'it is not a regular file (a FIFO, socket or device); it is not read';
      return { ok: false, problem: { severity: 'error', file: opts.fileLabel, message: why } };
    }
  } catch {
    // missing: the stream below says so
  }
  const builder = new TrajectoryBuilder(opts);
  if (range === undefined) {
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
  }
  const slice = range !== undefined ? { start: range[0], end: Math.max(range[0], range[1] - 1) } : {};
  const stream = createReadStream(absPath, signal !== undefined ? { highWaterMark: CHUNK, signal, ...slice } : { highWaterMark: CHUNK, ...slice });
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
    const code = errnoCode(e);
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

/** The dataset-relative path of the symlink when `abs` (a file under the dataset) leads out of it. */
function leadsOutside(root: string, abs: string): string | undefined {
  const r = datasetRoot(root);
  let rel = path.relative(r.abs, abs);
  if (rel.startsWith('..') || path.isAbsolute(rel)) rel = path.relative(r.real, abs);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return rel;
  rel = rel.split(path.sep).join('/');
  try {
    resolveForRead(r, rel);
    return undefined;
  } catch (e) {
    if (e instanceof DatasetFileError && e.reason === 'outside') return e.file;
    if (e instanceof DatasetFileError) return undefined;
    throw e;
  }
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
    if (next !== undefined && read.datasetRoot !== undefined) {
      const outside = leadsOutside(read.datasetRoot, next);
      if (outside !== undefined) {
        problems.push({ severity: 'error', file: outside, field, message: `${SYMLINK_OUT_MESSAGE}; the trajectory is shown without this continuation` });
        break;
      }
    }
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
    const cont = await buildFile(next, { fileLabel: nextLabel, keepText, dropCopiedContext: true, ...limits(read) }, read);
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

/** A small companion file (an ACR folder's meta.json, cost.json...), or undefined when absent or unreadable. */
async function companion(absPath: string, json: boolean): Promise<unknown> {
  try {
    if ((await stat(absPath)).size > 64 << 20) return undefined;
    const text = await readFile(absPath, 'utf8');
    return json ? (JSON.parse(text) as unknown) : text;
  } catch {
    return undefined;
  }
}

/** An AutoCodeRover task folder: its largest conversation round, with the facts of its companion files. */
async function readAcrDir(absPath: string, label: string, opts: ReadTrajectoryOptions, keepText: boolean): Promise<TrajectoryResult> {
  const names = (await readdir(absPath)).sort();
  const plan = isAcrTaskDir(names) ? planAcrDir(names, await companion(path.join(absPath, 'selected_patch.json'), true)) : undefined;
  if (plan === undefined) {
    return { ok: false, problem: { severity: 'error', file: label, message: 'it is a folder, not a file (and not an AutoCodeRover task folder: no meta.json with conversation_round_N.json)' } };
  }
  const built = firstInstanceResult(await buildFile(path.join(absPath, plan.conversation), { fileLabel: `${label}/${plan.conversation}`, keepText }, opts));
  if (!built.ok) return built;
  const facts = acrFacts({
    dirName: path.basename(absPath),
    bucket: path.basename(path.dirname(absPath)),
    meta: await companion(path.join(absPath, 'meta.json'), true),
    cost: await companion(path.join(absPath, 'cost.json'), true),
    extractStatus: await companion(path.join(absPath, 'extract_status.json'), true),
    ...(plan.patch !== undefined ? { patchText: (await companion(path.join(absPath, plan.patch), false)) as string | undefined } : {}),
  });
  const notes = [plan.note, ...(plan.patch !== undefined ? [`the patch is ${plan.patch} (developer_patch.diff is the task's gold patch)`] : [])];
  return { ok: true, trajectory: { ...built.trajectory, summary: withAcrFacts(built.trajectory.summary, facts, notes) }, problems: built.problems };
}

async function isDirectory(absPath: string): Promise<boolean> {
  try {
    return (await stat(absPath)).isDirectory();
  } catch {
    return false;
  }
}

async function readJoined(absPath: string, opts: ReadTrajectoryOptions, keepText: boolean): Promise<TrajectoryResult> {
  const label = opts.fileLabel ?? absPath;
  if (await isDirectory(absPath)) return readAcrDir(absPath, label, opts, keepText);
  const built = await buildFile(absPath, { fileLabel: label, keepText, ...limits(opts) }, opts);
  const first = firstInstanceResult(built);
  if (!first.ok || !built.ok) return first;
  const trajectory = await joinContinuations(absPath, label, built.instances[0]!, first.problems, keepText, opts);
  return { ok: true, trajectory, problems: first.problems };
}

/** Reads and normalizes a trajectory file in any supported format (detected from content). */
export async function readTrajectory(absPath: string, opts: ReadTrajectoryOptions = {}): Promise<TrajectoryResult> {
  return readJoined(absPath, opts, true);
}

/**
 * Reads one instance of a multi-instance file (an OpenHands evaluation or resolver line, an Agentless line): the
 * byte range `listTrajectoryInstances` gave for it.
 */
export async function readTrajectoryInstance(absPath: string, byteRange: [number, number], opts: ReadTrajectoryOptions = {}): Promise<TrajectoryResult> {
  const label = opts.fileLabel ?? absPath;
  return firstInstanceResult(await buildFile(absPath, { fileLabel: label, keepText: true }, opts, byteRange));
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
  if (await isDirectory(absPath)) {
    const r = await readAcrDir(absPath, label, opts, false);
    if (!r.ok) return r;
    const summary = r.trajectory.summary;
    return { ok: true, instances: [summary.instanceId !== undefined ? { instanceId: summary.instanceId, summary } : { summary }], problems: r.problems };
  }
  const built = await buildFile(absPath, { fileLabel: label, keepText: false, allInstances: true, ...limits(opts) }, opts);
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
