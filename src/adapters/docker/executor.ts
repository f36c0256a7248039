// Executes a described run: create the container, attach to its output before it starts, upload the archive, start,
// wait under the client's deadline (then kill), read the exit state, and always remove the container and its
// volumes ourselves. Every engine call has its own deadline.
import type Docker from 'dockerode';
import * as tar from 'tar-stream';
import type { PatchApplication } from '../../core/verify/runResult';
import { DEFAULT_KEEP_BYTES, Demuxer, HeadTailCapture, MarkerSplitCapture } from './capture';
import { DeadlineError, withDeadline } from './deadline';
import { TESTS_BEGIN_MARKER, parsePrelude } from './driver';
import type { Engine } from './engine';
import type { RunDescription } from './runSpec';
import { createOptions } from './runSpec';

export interface KeptBytes {
  head: Buffer;
  tail: Buffer;
  totalBytes: number;
  cutBytes: number;
}

export interface ExecuteResult {
  containerId: string;
  apply: { test: PatchApplication; attempt: PatchApplication };
  /** The driver's own report (before the tests began). */
  prelude: string;
  exitCode: number | null;
  timedOut: boolean;
  /** The client's deadline fired and the container was killed from outside. */
  killedByClient: boolean;
  oomKilled: boolean;
  stdout: KeptBytes;
  stderr: KeptBytes;
  junitXml?: string;
  /**
   * The harness-owned JUnit report, when the description asked pytest for one: `xml` undefined when it was never
   * written. For the junit parser, a `--junitxml` on the task's command line takes precedence over PYTEST_ADDOPTS
   * (pytest's rule), so the task's own report (deleted before the tests start) stands in for it.
   */
  harnessReport?: { format: 'junit'; xml?: string };
  /** The run wrote more than `diskLimitBytes` (stopped by the size watch, or found over it after the exit). */
  diskLimitExceeded: boolean;
  /** What the run wrote to the container's writable layer beyond the upload (`SizeRw` after minus before). */
  diskWrittenBytes: number;
  /** The description's `outputFiles` as found after the run (undefined: not there), each cut at 1 MiB. */
  outputFiles?: Record<string, string | undefined>;
  /** Set when the output stream could not be read to its end (the results are then not trustworthy). */
  streamError?: string;
  timings: { createMs: number; uploadMs: number; containerMs: number; removeMs: number; startToRemovedMs: number };
  removed: boolean;
}

export class CancelledError extends Error {
  constructor() {
    super('the run was cancelled');
  }
}

export interface ExecuteOptions {
  signal?: AbortSignal;
  /** Live output of the tests (stdout after the driver's report, and stderr), as it arrives. */
  onOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void;
  keepBytes?: number;
}

const CALL_MS = 15_000;
const MAX_JUNIT_BYTES = 32 * 1024 * 1024;
/** The written-size watch looks this often at least; slower when measuring is slow (10x the last measurement). */
const DISK_POLL_MS = 250;
const MAX_OUTPUT_FILE_BYTES = 1024 * 1024;

/** The container's state and written size (`SizeRw`: its writable layer, computed by the engine). */
export function inspectSized(container: Docker.Container, signal?: AbortSignal): Promise<Docker.ContainerInspectInfo & { SizeRw?: number }> {
  // dockerode passes `size` on as the query parameter; its type definitions do not list it.
  const opts = { size: true } as Docker.ContainerInspectOptions;
  return withDeadline('measuring the written size', CALL_MS, (s) => container.inspect({ ...opts, abortSignal: s }), signal);
}

/** The create request refused because this storage driver has no per-container quota. */
function noQuota(e: unknown): boolean {
  const x = e as { statusCode?: number; message?: string; json?: { message?: string } };
  const text = `${x.json?.message ?? ''} ${x.message ?? ''}`;
  return (x.statusCode === 400 || x.statusCode === 500) && /storage[- ]?opt|quota/i.test(text);
}

/** Creates the container, with a storage quota of upload + limit where the engine's storage driver has one. */
export async function createContainer(engine: Engine, docker: Docker, d: RunDescription, uploadBytes: number): Promise<Docker.Container> {
  const create = (quota: boolean) =>
    withDeadline('creating the container', CALL_MS, (s) =>
      docker.createContainer({ ...createOptions(d, quota ? { storageQuotaBytes: uploadBytes + d.diskLimitBytes } : {}), abortSignal: s }),
    );
  if (engine.storageQuota === false) return create(false);
  try {
    const c = await create(true);
    engine.storageQuota = true;
    return c;
  } catch (e) {
    if (!noQuota(e)) throw e;
    engine.storageQuota = false;
    return create(false);
  }
}

/** A report file's text from the stopped container; undefined when the path holds no regular file. */
export async function readJunit(container: Docker.Container, file: string, signal?: AbortSignal, what = 'the JUnit report', maxBytes = MAX_JUNIT_BYTES): Promise<string | undefined> {
  const base = file.slice(file.lastIndexOf('/') + 1);
  try {
    return await withDeadline(
      `reading ${what}`,
      CALL_MS,
      async (s) => {
        const stream = (await container.getArchive({ path: file, abortSignal: s })) as NodeJS.ReadableStream;
        const extract = tar.extract();
        stream.pipe(extract);
        let text: string | undefined;
        for await (const entry of extract) {
          // Only the file itself: a folder put in its place would give the first file inside it.
          if (text !== undefined || entry.header.type !== 'file' || entry.header.name !== base) {
            entry.resume();
            continue;
          }
          const chunks: Buffer[] = [];
          let n = 0;
          for await (const c of entry) {
            n += (c as Buffer).length;
            if (n <= maxBytes) chunks.push(c as Buffer);
          }
          text = Buffer.concat(chunks).toString('utf8');
        }
        return text;
      },
      signal,
    );
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode === 404) return undefined;
    throw e;
  }
}

export async function executeRun(engine: Engine, d: RunDescription, archive: Buffer, o: ExecuteOptions = {}): Promise<ExecuteResult> {
  const docker = await engine.docker();
  const keep = o.keepBytes ?? DEFAULT_KEEP_BYTES;
  const signal = o.signal;
  if (signal?.aborted) throw new CancelledError();

  const t0 = Date.now();
  const container = await createContainer(engine, docker, d, archive.length);
  const createMs = Date.now() - t0;
  let startedAt = 0;
  let removed = false;
  let removeMs = 0;
  let startToRemovedMs = 0;
  let stopWatch: (() => Promise<void>) | undefined;
  try {
    const stdout = new MarkerSplitCapture(Buffer.from(TESTS_BEGIN_MARKER), keep, 256 * 1024, (c) => o.onOutput?.('stdout', c));
    const stderr = new HeadTailCapture(keep);
    const demux = new Demuxer(stdout, {
      write: (c) => {
        stderr.write(c);
        o.onOutput?.('stderr', c);
      },
    });
    // Attach before start: the only way to get every byte, exactly (a log driver re-encodes non-UTF-8 output).
    // The upload goes in parallel: both only need the container to exist.
    const u0 = Date.now();
    let uploadMs = 0;
    const [stream] = await Promise.all([
      // With the watchdog, stdin too (hijacked): nothing is ever written to it; it only has to stay open while we
      // live. Our process dying closes the connection, the engine closes the container's stdin, the run ends.
      withDeadline('attaching to the container', CALL_MS, (s) =>
        container.attach({ stream: true, stdin: d.watchdog, hijack: d.watchdog, stdout: true, stderr: true, abortSignal: s }),
      ) as Promise<NodeJS.ReadableStream>,
      withDeadline(
        'uploading the repository and patches',
        CALL_MS + Math.ceil(archive.length / (1024 * 1024)) * 1000,
        (s) => container.putArchive(archive, { path: '/', abortSignal: s }),
        signal,
      ).then(() => (uploadMs = Date.now() - u0)),
    ]);
    let streamError: string | undefined;
    const ended = new Promise<void>((resolve) => {
      stream.on('data', (c: Buffer) => demux.write(c));
      stream.on('end', () => resolve());
      stream.on('close', () => resolve());
      stream.on('error', (e: Error) => {
        streamError = e.message;
        resolve();
      });
    });

    // What the upload itself put in the writable layer: the limit is on what the run writes beyond it.
    const baseline = (await inspectSized(container, signal)).SizeRw ?? 0;
    await withDeadline('starting the container', CALL_MS, (s) => container.start({ abortSignal: s }), signal);
    startedAt = Date.now();

    // The written-size watch: over the limit, the run is killed (a storage quota, where there is one, stops it
    // first). A measurement that fails is skipped; the check after the exit decides.
    const disk = watchDisk(container, baseline, d.diskLimitBytes, () =>
      withDeadline('killing the container', CALL_MS, (s) => container.kill({ signal: 'SIGKILL', abortSignal: s })).catch(() => undefined),
    );
    stopWatch = disk.stop;

    let exitCode: number | null = null;
    let killedByClient = false;
    let cancelled = false;
    try {
      const r = (await withDeadline('the verifier', d.clientDeadlineMs, (s) => container.wait({ abortSignal: s }), signal)) as {
        StatusCode: number;
      };
      exitCode = r.StatusCode;
    } catch (e) {
      if (e instanceof DeadlineError) killedByClient = true;
      else if (signal?.aborted) cancelled = true;
      else throw e;
      await withDeadline('killing the container', CALL_MS, (s) => container.kill({ signal: 'SIGKILL', abortSignal: s })).catch((err: unknown) => {
        // 409: it stopped on its own in the meantime.
        if ((err as { statusCode?: number }).statusCode !== 409) throw err;
      });
      const r = (await withDeadline('waiting for the killed container', CALL_MS, (s) => container.wait({ abortSignal: s }))) as {
        StatusCode: number;
      };
      exitCode = r.StatusCode;
    }
    const containerMs = Date.now() - startedAt;
    await stopWatch();
    if (cancelled) throw new CancelledError();

    await withDeadline('reading the end of the output', 5000, () => ended).catch(() => {
      streamError ??= 'the output stream did not end within 5 s of the container exiting';
    });
    (stream as Partial<{ destroy(): void }>).destroy?.();
    // The exit state: a non-zero exit may be the memory limit's doing (State.OOMKilled); and the written size, for a
    // run that stayed under the watch's radar (fast, or between two measurements).
    // The reports are read while the exit state is inspected (each read costs a round trip through the engine,
    // which mounts the stopped container); they are dropped again if the run turns out to have timed out.
    const readable = !killedByClient && stdout.markerSeen;
    const [info, taskXml, harnessXml] = await Promise.all([
      inspectSized(container),
      d.junitPath && readable ? readJunit(container, `${d.workdir}/${d.junitPath}`, signal) : undefined,
      d.harnessReportPath && readable ? readJunit(container, d.harnessReportPath, signal) : undefined,
    ]);
    const oomKilled = exitCode !== 0 && info.State?.OOMKilled === true;
    if (exitCode === null || exitCode === undefined) exitCode = info.State?.ExitCode ?? null;
    const diskWrittenBytes = Math.max(0, (info.SizeRw ?? 0) - baseline);
    const diskExceeded = disk.exceeded() || diskWrittenBytes >= d.diskLimitBytes;

    // timeout(1) exits 124 after its SIGTERM worked, 137 after its SIGKILL; 137 is also what an OOM kill gives.
    const elapsedOver = containerMs >= d.timeoutSec * 1000;
    const timedOut = killedByClient || (!oomKilled && !diskExceeded && (exitCode === 124 || exitCode === 137) && elapsedOver);

    let junitXml = timedOut ? undefined : taskXml;
    let harnessReport: ExecuteResult['harnessReport'];
    if (d.harnessReportPath) {
      const xml = timedOut ? undefined : harnessXml;
      harnessReport = { format: 'junit', xml: xml ?? (d.junitPath ? junitXml : undefined) };
      // An ini's `addopts = --junitxml=...` loses to PYTEST_ADDOPTS: the task's report is then the harness's.
      if (d.junitPath) junitXml ??= xml;
    }

    let outputFiles: Record<string, string | undefined> | undefined;
    if (d.outputFiles && !timedOut && stdout.markerSeen) {
      outputFiles = {};
      for (const f of d.outputFiles) outputFiles[f] = await readJunit(container, f, signal, f, MAX_OUTPUT_FILE_BYTES);
    }

    const prelude = stdout.prelude().toString('utf8');
    const apply = parsePrelude(prelude);
    const out = stdout.after.result();
    const err = stderr.result();
    if (demux.error) streamError ??= demux.error;

    const r0 = Date.now();
    await withDeadline('removing the container', CALL_MS, (s) => container.remove({ force: true, v: true, abortSignal: s }));
    removed = true;
    removeMs = Date.now() - r0;
    startToRemovedMs = Date.now() - startedAt;
    return {
      containerId: container.id,
      apply,
      prelude,
      exitCode,
      timedOut,
      killedByClient,
      oomKilled,
      stdout: out,
      stderr: err,
      junitXml,
      harnessReport,
      diskLimitExceeded: diskExceeded,
      diskWrittenBytes,
      ...(outputFiles ? { outputFiles } : {}),
      streamError,
      timings: { createMs, uploadMs, containerMs, removeMs, startToRemovedMs },
      removed,
    };
  } finally {
    await stopWatch?.();
    if (!removed) {
      // Best effort: a container we could not remove is swept at the next start-up (it carries our label).
      await withDeadline('removing the container', CALL_MS, (s) => container.remove({ force: true, v: true, abortSignal: s })).catch(
        () => undefined,
      );
    }
  }
}

/**
 * The written-size watch of a running container: every DISK_POLL_MS or ten times the last measurement's cost, the
 * container's written size beyond `baseline`; at `limit` it calls `kill` once and stops. A measurement that fails is
 * skipped (the check after the exit decides). `stop()` ends the watch and waits for it.
 */
export function watchDisk(container: Docker.Container, baseline: number, limit: number, kill: () => Promise<unknown>): { exceeded: () => boolean; stop: () => Promise<void> } {
  let exceeded = false;
  let watching = true;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  const watch = (async () => {
    let interval = DISK_POLL_MS;
    while (watching) {
      await new Promise<void>((r) => {
        wake = r;
        timer = setTimeout(r, interval);
      });
      if (!watching) return;
      const m0 = Date.now();
      let size: number;
      try {
        size = (await inspectSized(container)).SizeRw ?? 0;
      } catch {
        continue;
      }
      interval = Math.max(DISK_POLL_MS, 10 * (Date.now() - m0));
      if (watching && size - baseline >= limit) {
        exceeded = true;
        await kill();
        return;
      }
    }
  })();
  return {
    exceeded: () => exceeded,
    stop: async () => {
      watching = false;
      clearTimeout(timer);
      wake?.();
      await watch;
    },
  };
}
