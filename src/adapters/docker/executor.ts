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
const MAX_OUTPUT_FILE_BYTES = 1024 * 1024;

async function readJunit(container: Docker.Container, file: string, signal?: AbortSignal, what = 'the JUnit report', maxBytes = MAX_JUNIT_BYTES): Promise<string | undefined> {
  try {
    return await withDeadline(
      `reading ${what}`,
      CALL_MS,
      async (s) => {
        const stream = (await container.getArchive({ path: file, abortSignal: s })) as NodeJS.ReadableStream;
        const extract = tar.extract();
        stream.pipe(extract);
        for await (const entry of extract) {
          if (entry.header.type !== 'file') {
            entry.resume();
            continue;
          }
          const chunks: Buffer[] = [];
          let n = 0;
          for await (const c of entry) {
            n += (c as Buffer).length;
            if (n <= maxBytes) chunks.push(c as Buffer);
          }
          return Buffer.concat(chunks).toString('utf8');
        }
        return undefined;
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
  const container = await withDeadline('creating the container', CALL_MS, (s) =>
    docker.createContainer({ ...createOptions(d), abortSignal: s }),
  );
  const createMs = Date.now() - t0;
  let startedAt = 0;
  let removed = false;
  let removeMs = 0;
  let startToRemovedMs = 0;
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
      withDeadline('attaching to the container', CALL_MS, (s) =>
        container.attach({ stream: true, stdout: true, stderr: true, abortSignal: s }),
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

    await withDeadline('starting the container', CALL_MS, (s) => container.start({ abortSignal: s }), signal);
    startedAt = Date.now();

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
    if (cancelled) throw new CancelledError();

    await withDeadline('reading the end of the output', 5000, () => ended).catch(() => {
      streamError ??= 'the output stream did not end within 5 s of the container exiting';
    });
    // A clean exit needs no inspection; any other exit may be the memory limit's doing (State.OOMKilled).
    let oomKilled = false;
    if (exitCode !== 0) {
      const info = await withDeadline('inspecting the container', CALL_MS, (s) => container.inspect({ abortSignal: s }));
      oomKilled = info.State?.OOMKilled === true;
      if (exitCode === null || exitCode === undefined) exitCode = info.State?.ExitCode ?? null;
    }

    // timeout(1) exits 124 after its SIGTERM worked, 137 after its SIGKILL; 137 is also what an OOM kill gives.
    const elapsedOver = containerMs >= d.timeoutSec * 1000;
    const timedOut = killedByClient || (!oomKilled && (exitCode === 124 || exitCode === 137) && elapsedOver);

    const junitXml =
      d.junitPath && !timedOut && stdout.markerSeen
        ? await readJunit(container, `${d.workdir}/${d.junitPath}`, signal)
        : undefined;

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
      ...(outputFiles ? { outputFiles } : {}),
      streamError,
      timings: { createMs, uploadMs, containerMs, removeMs, startToRemovedMs },
      removed,
    };
  } finally {
    if (!removed) {
      // Best effort: a container we could not remove is swept at the next start-up (it carries our label).
      await withDeadline('removing the container', CALL_MS, (s) => container.remove({ force: true, v: true, abortSignal: s })).catch(
        () => undefined,
      );
    }
  }
}
