// Verifying attempts of a dataset's tasks: read the patches, get the image, reuse a stored run when nothing changed,
// else describe the run, build the archive, execute it, judge the outcome and store the record. Every run of the
// UI and the CLI goes through one queue.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CandidateTask } from '../../core/model';
import { DEFAULT_LIMITS } from '../../core/model';
import { VERIFIER_VERSION, runInputs } from '../../core/verify/inputs';
import { judgeRun } from '../../core/verify/judge';
import type { ExecutionOutcome } from '../../core/verify/judge';
import type { TaskReport } from '../../core/verify/oracle';
import { taskReport } from '../../core/verify/oracle';
import type { JobOutcome, QueueProgress } from '../../core/verify/queue';
import { RunQueue, defaultConcurrency } from '../../core/verify/queue';
import type { QueueRunRow } from '../../core/verify/queueView';
import type { RunInputs, VerifierRunRecord } from '../../core/verify/runResult';
import { TestOutputStream } from '../../core/verify/testOutput';
import { EMPTY_PROBE, GOLD_PROBE } from '../../core/model';
import { noImageReason } from '../../core/dataset';
import { repoPath, resolveDatasetPath } from '../fs/datasetLoader';
import { RUNS_DIR, findReusable, newRunId, saveRun } from '../fs/runStore';
import { HARNESS_REPORT_PATH, INPUT_DIR, testPatchPaths } from './driver';
import type { EngineOptions, EngineTarget } from './engine';
import { Engine, EngineUnavailableError } from './engine';
import type { ExecuteResult } from './executor';
import { CancelledError } from './executor';
import type { RunExecution, RunExecutor } from './runExecutor';
import { LocalExecutor, PoolExecutor } from './runExecutor';
import type { PoolMemberSpec } from './enginePool';
import type { Backend } from '../../core/verify/backend';
import type { ImageInfo } from './images';
import { ImageManager } from './images';
import { RepoArchiveCache, assembleArchive } from './repoArchive';
import type { ExtraFile } from './repoArchive';
import { addedFilesOf } from '../../core/addedFiles';
import { describeRun } from './runSpec';
import { WARM_DIR } from './warm';
import { sweepOrphans } from './sweep';
import { SwarmExecutor } from './swarmExecutor';
import { KubernetesExecutor } from '../kubernetes/kubernetesExecutor';
import { errnoCode, errorText } from '../../core/errorText';

export interface VerifyRequest {
  task: CandidateTask;
  /** A solver attempt's id, or `gold` / `empty` for the oracle probes. */
  attemptId: string;
  /** 1-based repeat index (`--repeat N` makes N requests). */
  repeat?: number;
  /** Run even when a stored run has the same inputs. */
  force?: boolean;
  /** Overrides the task's timeout. */
  timeoutSec?: number;
  /**
   * A probe patch run in place of the gold patch, exactly as the gold probe runs (same container, order, grading):
   * a gold mutant. Its run is never reused nor stored, so it never shows as an attempt. Needs `attemptId` `gold`.
   */
  probe?: { id: string; patch: Buffer };
}

/** A request that cannot be run as asked (no gold patch, unknown attempt...): a usage problem, not an engine one. */
export class VerifyRequestError extends Error {}

export interface VerifierServiceOptions {
  datasetRoot: string;
  /** An engine to share, or how to find one. */
  engine?: Engine | EngineOptions;
  concurrency?: number;
  /** Bytes kept at each end of stdout and stderr (default 1 MiB). */
  keepBytes?: number;
  /** Store runs under `runs/` (default true). */
  persist?: boolean;
  /** Image builds and pulls, sweeps. */
  log?: (line: string) => void;
  onOutput?: (req: VerifyRequest, stream: 'stdout' | 'stderr', chunk: Buffer) => void;
  onProgress?: (p: QueueProgress) => void;
  onSettled?: (id: string, req: VerifyRequest, outcome: JobOutcome<VerifierRunRecord>) => void;
  /** What the engine observed for a run, before it is judged (diagnostics and tests). */
  onOutcome?: (req: VerifyRequest, outcome: ExecutionOutcome) => void;
  /** A run was given an engine (or moved to another): the queue view and the per-node counts change. */
  onPlaced?: (req: VerifyRequest, node: string) => void;
  /** Where runs execute: `local` (the default), `pool` with `pool` members, `swarm` on the swarm `engine` manages, `kubernetes` on the kubeconfig's cluster in `namespace`. */
  backend?: Backend;
  /** Placement constraints of the `swarm` backend's runs (`node.role==worker`). */
  swarmConstraints?: string[];
  /** The `kubernetes` backend's namespace (default: the kubeconfig context's). */
  namespace?: string;
  /** The engines of the `pool` backend. The first one resolves and builds images; the others get them from it. */
  pool?: PoolMemberSpec[];
  /** Where the pool keeps the image saves it loads into engines that lack an image (default: a folder under the OS temp dir). */
  poolSaveDir?: string;
  /**
   * Reuse a container for the runs of one task revision and image, reset between runs (docs/verifier.md, "Warm
   * mode"); fresh containers when false (the default, and what final verdicts use).
   */
  warm?: boolean;
}

export interface TaskVerification {
  task: CandidateTask;
  runs: VerifierRunRecord[];
  report: TaskReport;
}

/** The dataset's runs folder cannot be written: said before anything runs, since no run could be stored. */
export class RunsFolderError extends Error {}

const WRITE_ERRORS: Record<string, string> = {
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'not a folder',
  ENOENT: 'the dataset folder does not exist',
};

/**
 * Throws RunsFolderError naming `DATASET/runs` when runs could not be stored there (a read-only dataset, no
 * permission, a file in its place). Checks without writing: the folder itself, or the dataset folder it would be
 * created in.
 */
export function checkRunsWritable(datasetRoot: string): void {
  const dir = path.join(datasetRoot, RUNS_DIR);
  let target = dir;
  try {
    if (!fs.statSync(dir).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
  } catch (e) {
    const code = errnoCode(e);
    if (code === 'ENOENT') target = datasetRoot;
    else throw new RunsFolderError(`the runs folder ${dir} cannot be written (${WRITE_ERRORS[code ?? ''] ?? errorText(e)}): nothing was run`);
  }
  try {
    fs.accessSync(target, fs.constants.W_OK);
    if (target === datasetRoot && !fs.statSync(target).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
  } catch (e) {
    const code = errnoCode(e) ?? '';
    throw new RunsFolderError(`the runs folder ${dir} cannot be written (${WRITE_ERRORS[code] ?? errorText(e)}): nothing was run`);
  }
}

/** The default concurrency for runs with this memory limit on this machine. */
export function machineConcurrency(memoryMb = DEFAULT_LIMITS.memoryMb): number {
  return defaultConcurrency(os.cpus().length, os.totalmem() / (1024 * 1024), memoryMb);
}

/** Warm containers are shared by the runs of one task revision, image, run user, workdir, limits and base commit. */
function warmKey(task: CandidateTask, imageId: string, d: { user: string; workdir: string; hostConfig: unknown; diskLimitBytes: number }): string {
  const repo = task.repo.kind === 'git' ? task.repo.baseCommit : '';
  return [task.id, task.revision, imageId, d.user, d.workdir, JSON.stringify(d.hostConfig), d.diskLimitBytes, repo].join('\0');
}

function textOf(kept: { head: Buffer; tail: Buffer; cutBytes: number }): string {
  // A line break at the cut keeps the last line of the head and the first of the tail from merging into a fake one.
  return kept.cutBytes > 0 || kept.tail.length === 0
    ? `${kept.head.toString('utf8')}${kept.tail.length > 0 ? `\n${kept.tail.toString('utf8')}` : ''}`
    : Buffer.concat([kept.head, kept.tail]).toString('utf8');
}

export class VerifierService {
  readonly engine: Engine;
  readonly images: ImageManager;
  readonly queue: RunQueue<VerifyRequest, VerifierRunRecord>;
  readonly executor: RunExecutor;
  private readonly repos = new RepoArchiveCache();
  private swept?: Promise<void>;
  /** Where each run of the queue was given (the executor says), by request. */
  private readonly places = new WeakMap<VerifyRequest, string>();

  constructor(private readonly opts: VerifierServiceOptions) {
    if (opts.backend === 'pool') {
      const members = opts.pool ?? [];
      if (members.length === 0) throw new Error('the pool backend needs at least one engine address');
      // The first engine is the image engine: images are resolved and built there, then loaded into the others.
      this.engine = new Engine({ host: (members[0] as PoolMemberSpec).host });
      this.executor = new PoolExecutor(members, {
        imageEngine: this.engine,
        saveDir: opts.poolSaveDir ?? path.join(os.tmpdir(), `specweave-pool-images-${process.getuid?.() ?? 'user'}`),
        warm: opts.warm === true,
        ...(opts.log ? { log: opts.log } : {}),
        engine: (host) => (host === (members[0] as PoolMemberSpec).host ? this.engine : new Engine({ host })),
      });
    } else if (opts.backend === 'swarm') {
      if (opts.warm) throw new Error('warm containers are for the local and pool backends: a swarm run is a task of its own');
      // The engine is a swarm manager: images are resolved there; every node must hold them (swarmExecutor.ts).
      this.engine = opts.engine instanceof Engine ? opts.engine : new Engine(opts.engine ?? {});
      this.executor = new SwarmExecutor(this.engine, { ...(opts.swarmConstraints ? { constraints: opts.swarmConstraints } : {}), ...(opts.log ? { log: opts.log } : {}) });
    } else if (opts.backend === 'kubernetes') {
      if (opts.warm) throw new Error('warm containers are for the local and pool backends: a Kubernetes run is a Job of its own');
      // Images are resolved on the local engine; the cluster's nodes pull them by the same reference (kubernetesExecutor.ts).
      this.engine = opts.engine instanceof Engine ? opts.engine : new Engine(opts.engine ?? {});
      this.executor = new KubernetesExecutor({ ...(opts.namespace ? { namespace: opts.namespace } : {}), ...(opts.log ? { log: opts.log } : {}) });
    } else {
      this.engine = opts.engine instanceof Engine ? opts.engine : new Engine(opts.engine ?? {});
      this.executor = new LocalExecutor(this.engine, { warm: opts.warm === true, log: opts.log });
    }
    this.images = new ImageManager(this.engine, { log: opts.log });
    this.queue = new RunQueue<VerifyRequest, VerifierRunRecord>({
      concurrency: opts.concurrency ?? machineConcurrency(),
      execute: (req, signal) => this.verify(req, signal),
      onProgress: opts.onProgress,
      onSettled: opts.onSettled,
    });
  }

  /** Contacts the engine (one ping, short deadline); throws EngineUnavailableError with what to do. */
  async checkEngine(): Promise<EngineTarget> {
    await this.engine.docker();
    if (this.executor instanceof PoolExecutor || this.executor instanceof SwarmExecutor) {
      try {
        await this.executor.ready();
      } catch (e) {
        throw new EngineUnavailableError('engine_down', this.engine.describe(), errorText(e));
      }
    }
    if (this.executor instanceof KubernetesExecutor) {
      try {
        await this.executor.ready();
      } catch (e) {
        throw new EngineUnavailableError('engine_down', undefined, `kubernetes: ${errorText(e)}`);
      }
    }
    return this.engine.describe();
  }

  /** Ends the batch: removes the warm containers kept between runs. */
  async close(): Promise<void> {
    await this.executor.close();
  }

  enqueue(req: VerifyRequest): string {
    return this.queue.add(req);
  }

  /** The queue's runs with the backend and the node each was given, in queue order. */
  queueRuns(): QueueRunRow[] {
    return this.queue.jobs().map((j) => ({
      id: j.id,
      taskId: j.job.task.id,
      attemptId: j.job.attemptId,
      state: j.state,
      backend: this.executor.backend,
      node: this.places.get(j.job) ?? '',
    }));
  }

  /** Removes containers an earlier crash left; done once, before the first run. */
  private ensureSwept(): Promise<void> {
    const jobs = this.executor instanceof SwarmExecutor || this.executor instanceof KubernetesExecutor ? this.executor : undefined;
    const pool = this.executor instanceof PoolExecutor ? this.executor : undefined;
    this.swept ??= Promise.all([sweepOrphans(this.engine), jobs ? jobs.sweep() : [], pool ? pool.sweep(this.engine) : []]).then(
      ([local, left, members]) => {
        const ids = [...local, ...members];
        if (left.length > 0) this.opts.log?.(`removed ${left.length} ${jobs?.backend === 'kubernetes' ? 'Kubernetes Job(s), policies and ConfigMap(s)' : 'swarm service(s) and config(s)'} left by an earlier run`);
        if (ids.length > 0) this.opts.log?.(`removed ${ids.length} container(s) left by an earlier run`);
      },
      (e: unknown) => {
        this.swept = undefined;
        throw e;
      },
    );
    return this.swept;
  }

  private readBytes(rel: string): Buffer {
    return fs.readFileSync(resolveDatasetPath(this.opts.datasetRoot, rel));
  }

  /** The test patch and the attempt's patch, as bytes. */
  readPatches(req: VerifyRequest): { testPatch: Buffer; attemptPatch: Buffer } {
    const { task } = req;
    let testPatch: Buffer;
    try {
      testPatch = this.readBytes(task.files.testPatch);
    } catch (e) {
      if (/file is missing/.test(errorText(e))) testPatch = Buffer.alloc(0);
      else throw new VerifyRequestError(`task ${task.id}: cannot read its test patch: ${errorText(e)}`);
    }
    if (req.probe) {
      if (req.attemptId !== GOLD_PROBE) throw new VerifyRequestError(`task ${task.id}: probe ${req.probe.id} must run as the gold probe, not as "${req.attemptId}"`);
      return { testPatch, attemptPatch: req.probe.patch };
    }
    if (req.attemptId === EMPTY_PROBE) return { testPatch, attemptPatch: Buffer.alloc(0) };
    if (req.attemptId === GOLD_PROBE) {
      if (!task.files.goldPatch) throw new VerifyRequestError(`task ${task.id} has no gold patch`);
      try {
        return { testPatch, attemptPatch: this.readBytes(task.files.goldPatch) };
      } catch (e) {
        throw new VerifyRequestError(`task ${task.id}: cannot read its gold patch: ${errorText(e)}`);
      }
    }
    const attempt = task.attempts.find((a) => a.id === req.attemptId);
    if (!attempt) throw new VerifyRequestError(`task ${task.id} has no attempt "${req.attemptId}"`);
    if (!attempt.patchFile) throw new VerifyRequestError(`attempt ${task.id}/${attempt.id} has no patch file`);
    try {
      return { testPatch, attemptPatch: this.readBytes(attempt.patchFile) };
    } catch (e) {
      throw new VerifyRequestError(`attempt ${task.id}/${attempt.id}: cannot read its patch: ${errorText(e)}`);
    }
  }

  /** The inputs a run of `req` would have now (needs the engine for the image id). */
  async currentInputs(req: VerifyRequest, signal?: AbortSignal): Promise<{ inputs: RunInputs; image: ImageInfo }> {
    const { testPatch, attemptPatch } = this.readPatches(req);
    const image = await this.images.ensure(this.imageRequest(req.task), signal);
    const timeoutSec = req.timeoutSec ?? req.task.environment.timeoutSec;
    return { inputs: runInputs({ task: req.task, testPatch, attemptPatch, imageId: image.id, timeoutSec }), image };
  }

  /**
   * The inputs a run of `req` would have now, without contacting the engine: the image id is '' (not compared by
   * `staleReasons`), so a stored result can be marked stale from the files alone.
   */
  inputsWithoutEngine(req: VerifyRequest): RunInputs {
    const { testPatch, attemptPatch } = this.readPatches(req);
    const timeoutSec = req.timeoutSec ?? req.task.environment.timeoutSec;
    return runInputs({ task: req.task, testPatch, attemptPatch, imageId: '', timeoutSec });
  }

  /**
   * With `verifier.unpackTo`, the test patch (and, for the gold probe, the gold patch) are not applied in the workdir:
   * their files are written under that folder by the archive. A patch that does more than add files cannot be run.
   */
  unpackedFiles(req: VerifyRequest, testPatch: Buffer, attemptPatch: Buffer): { files: ExtraFile[]; test: boolean; attempt: boolean } {
    const to = req.task.verifier.unpackTo;
    if (to === undefined) return { files: [], test: false, attempt: false };
    const root = to.replace(/^\/+|\/+$/g, '');
    if (!to.startsWith('/') || to.includes('\0') || root.split('/').includes('..')) throw new VerifyRequestError(`task ${req.task.id}: verifier.unpackTo "${to}" must be an absolute folder without ".."`);
    const files: ExtraFile[] = [];
    const unpack = (bytes: Buffer, what: string) => {
      const r = addedFilesOf(bytes);
      if (!r.ok) throw new VerifyRequestError(`task ${req.task.id}: its ${what} cannot be unpacked to ${to} (line ${r.line}: ${r.reason})`);
      for (const f of r.files) {
        const name = root ? `${root}/${f.path}` : f.path;
        // The driver and its inputs live there; nothing unpacked may replace them.
        if (name === INPUT_DIR || name.startsWith(`${INPUT_DIR}/`)) throw new VerifyRequestError(`task ${req.task.id}: its ${what} adds /${name}, inside the verifier's own /${INPUT_DIR} folder`);
        files.push({ name, data: Buffer.from(f.content), mode: f.executable ? 0o755 : 0o644 });
      }
    };
    unpack(testPatch, 'test patch');
    const attempt = req.attemptId === GOLD_PROBE;
    if (attempt) unpack(attemptPatch, 'gold patch');
    return { files, test: true, attempt };
  }

  private imageRequest(task: CandidateTask): { image: string; dockerfile?: string } {
    const noImage = noImageReason(task);
    if (noImage) throw new VerifyRequestError(noImage);
    const df = task.environment.dockerfile;
    return { image: task.environment.image, dockerfile: df ? resolveDatasetPath(this.opts.datasetRoot, `${task.dir}/${df}`) : undefined };
  }

  /**
   * Verifies one request now (outside the queue). Resolves to the run record, also for runs that failed for
   * infrastructure reasons (status `infra_error`); rejects with CancelledError when `signal` aborts, with
   * VerifyRequestError for a request that cannot be run, and with EngineUnavailableError when there is no engine.
   */
  async verify(req: VerifyRequest, signal?: AbortSignal): Promise<VerifierRunRecord> {
    const { task } = req;
    const started = new Date();
    const t0 = Date.now();
    const timeoutSec = req.timeoutSec ?? task.environment.timeoutSec;
    const repeat = req.repeat ?? 1;
    // No engine round trip for a task with no image (the engine would answer an empty name with an HTTP 301).
    const noImage = noImageReason(task);
    if (noImage) throw new VerifyRequestError(noImage);
    const { testPatch, attemptPatch } = this.readPatches(req);
    // A probe's run is the caller's to keep: never stored under runs/, never reused.
    const store = this.opts.persist !== false && !req.probe;
    // Before the engine is contacted: a run that cannot be stored must not run at all.
    if (store) checkRunsWritable(this.opts.datasetRoot);
    const unpacked = this.unpackedFiles(req, testPatch, attemptPatch);
    const runId = newRunId(started);
    const timings: VerifierRunRecord['timings'] = { startedAt: started.toISOString(), totalMs: 0 };
    let image: ImageInfo | undefined;
    let inputs: RunInputs | undefined;
    let exec: RunExecution | ExecuteResult | undefined;
    let warm = false;
    let outcome: ExecutionOutcome;
    try {
      await this.ensureSwept();
      const i0 = Date.now();
      image = await this.images.ensure(this.imageRequest(task), signal);
      timings.imageMs = Date.now() - i0;
      inputs = runInputs({ task, testPatch, attemptPatch, imageId: image.id, timeoutSec });
      if (!req.force && !req.probe) {
        const hit = findReusable(this.opts.datasetRoot, task.id, req.attemptId, inputs.key).find((r) => (r.repeat ?? 1) === repeat);
        if (hit) return { ...hit, reused: true };
      }
      const specInput: Parameters<typeof describeRun>[0] = {
        runId,
        taskId: task.id,
        attemptId: req.attemptId,
        image: task.environment.image,
        imageUser: image.user,
        repoKind: task.repo.kind,
        workdir: task.environment.workdir,
        limits: task.environment.limits,
        timeoutSec,
        verifier: task.verifier,
        ...(unpacked.test || unpacked.attempt ? { unpacked: { test: unpacked.test, attempt: unpacked.attempt } } : {}),
        ...(req.attemptId === GOLD_PROBE && task.verifier.goldCommand ? { preCommand: task.verifier.goldCommand } : {}),
        owner: { pid: process.pid, host: os.hostname() },
        createdAt: Date.now(),
        testPatchPaths: testPatchPaths(testPatch),
        ...(this.executor.backend === 'swarm' || this.executor.backend === 'kubernetes' ? { detached: true } : {}),
      };
      const desc = describeRun(specInput);
      // Warm containers hold an uploaded repository (their reset is git's) and no unpacked files.
      const warmable = this.opts.warm === true && task.repo.kind === 'git' && !unpacked.test && !unpacked.attempt;
      const warmDesc = warmable ? describeRun({ ...specInput, warm: true }) : undefined;
      const a0 = Date.now();
      const repoBody =
        task.repo.kind === 'git'
          ? (await this.repos.get(repoPath(this.opts.datasetRoot, task.repo), task.repo.baseCommit, desc.workdir, desc.fileOwner)).body
          : undefined;
      const inputFiles = (d: typeof desc) => [
          { name: `${INPUT_DIR}/run.sh`, data: d.driver, mode: 0o755 },
          { name: `${INPUT_DIR}/command.sh`, data: d.command },
          // An unpacked patch is already in place: the driver is given none to apply.
          { name: `${INPUT_DIR}/test.patch`, data: unpacked.test ? Buffer.alloc(0) : testPatch },
          { name: `${INPUT_DIR}/attempt.patch`, data: unpacked.attempt ? Buffer.alloc(0) : attemptPatch },
          ...unpacked.files,
          // Writable by whichever user the tests run as; the driver clears the report path before they start.
          { name: HARNESS_REPORT_PATH.slice(1, HARNESS_REPORT_PATH.lastIndexOf('/')), directory: true, mode: 0o777 },
          // A warm container's record of the base tree (src/adapters/docker/warm.ts), written by the run's user.
          ...(d.warm ? [{ name: WARM_DIR.slice(1), directory: true, mode: 0o777 }] : []),
        ];
      const archiveFor = async (d: typeof desc, withRepo: boolean) => {
        const b0 = Date.now();
        const buf = await assembleArchive([...inputFiles(d), ...unpacked.files], withRepo ? repoBody : undefined);
        timings.archiveMs = (timings.archiveMs ?? 0) + Date.now() - b0;
        return buf;
      };
      timings.archiveMs = Date.now() - a0;
      // Grading reads the whole output as it arrives, in write order; the kept head and tail are for display.
      let testOutput = new TestOutputStream(task.verifier.parser);
      const run = await this.executor.run(
        {
          description: desc,
          ...(warmDesc ? { warm: { key: warmKey(task, image.id, warmDesc), description: warmDesc } } : {}),
          archive: archiveFor,
        },
        {
          signal,
          keepBytes: this.opts.keepBytes,
          onOutput: (s, c) => {
            testOutput.write(s, c);
            this.opts.onOutput?.(req, s, c);
          },
          onNode: (node) => {
            this.places.set(req, node);
            this.opts.onPlaced?.(req, node);
          },
          onRetry: (why) => {
            testOutput = new TestOutputStream(task.verifier.parser);
            this.opts.log?.(`${task.id} ${req.attemptId}: runs in a fresh container (${why})`);
          },
        },
      );
      exec = run;
      warm = run.warm;
      if (run.movedFrom) this.opts.log?.(`${task.id} ${req.attemptId}: ran again on ${run.node ?? 'another engine'}: ${run.movedFrom}`);
      Object.assign(timings, {
        createMs: exec.timings.createMs,
        uploadMs: exec.timings.uploadMs,
        containerMs: exec.timings.containerMs,
        removeMs: exec.timings.removeMs,
        startToRemovedMs: exec.timings.startToRemovedMs,
      });
      outcome = {
        infraError: exec.streamError ? `the output could not be read completely: ${exec.streamError}` : undefined,
        apply: exec.apply,
        exitCode: exec.exitCode,
        timedOut: exec.timedOut,
        oomKilled: exec.oomKilled,
        stdoutText: textOf(exec.stdout),
        stderrText: textOf(exec.stderr),
        testLog: testOutput.end(),
        junitXml: exec.junitXml,
        harnessReport: exec.harnessReport,
        diskLimitExceeded: exec.diskLimitExceeded,
        ...(exec.outputFiles ? { outputFiles: exec.outputFiles } : {}),
      };
    } catch (e) {
      if (e instanceof CancelledError || signal?.aborted) throw new CancelledError();
      // No engine: every run would say the same; the caller reports it once, nothing is stored.
      if (e instanceof EngineUnavailableError) throw e;
      outcome = {
        infraError: errorText(e),
        apply: { test: { method: 'not-run' }, attempt: { method: 'not-run' } },
        exitCode: null,
        timedOut: false,
        oomKilled: false,
        stdoutText: '',
        stderrText: '',
      };
    }
    this.opts.onOutcome?.(req, outcome);
    const j = judgeRun(task, outcome, { testPatch: testPatch.toString('utf8'), attemptPatch: attemptPatch.toString('utf8') });
    timings.totalMs = Date.now() - t0;
    const empty = { head: Buffer.alloc(0), tail: Buffer.alloc(0), totalBytes: 0, cutBytes: 0 };
    const out = exec?.stdout ?? empty;
    const err = exec?.stderr ?? empty;
    const record: VerifierRunRecord = {
      format: 1,
      runId,
      taskId: task.id,
      taskRevision: task.revision,
      attemptId: req.attemptId,
      repeat,
      ...j,
      image: task.environment.image,
      imageId: image?.id ?? '',
      apply: outcome.apply,
      driverReport: (exec?.prelude ?? '').slice(0, 16_384),
      exitCode: outcome.exitCode,
      oomKilled: outcome.oomKilled,
      timedOut: outcome.timedOut,
      timeoutSec,
      stdout: { totalBytes: out.totalBytes, headBytes: out.head.length, tailBytes: out.tail.length, cutBytes: out.cutBytes },
      stderr: { totalBytes: err.totalBytes, headBytes: err.head.length, tailBytes: err.tail.length, cutBytes: err.cutBytes },
      inputs: inputs ?? {
        verifierVersion: VERIFIER_VERSION,
        testPatch: '',
        attemptPatch: '',
        taskDefinition: '',
        verifierCommand: '',
        environment: '',
        repo: '',
        imageId: '',
        key: '',
      },
      timings,
      backend: this.executor.backend,
      node: (exec && 'node' in exec ? exec.node : undefined) ?? (await this.executor.node()),
      ...(warm ? { warm: true } : {}),
    };
    if (!store) return record;
    return saveRun(this.opts.datasetRoot, record, { stdout: out, stderr: err });
  }

  /**
   * Runs every request through the queue and groups the records by task with the oracle report. Requests that
   * cannot be run (VerifyRequestError) are skipped and returned in `skipped`.
   */
  async verifyAll(
    requests: VerifyRequest[],
  ): Promise<{ tasks: TaskVerification[]; skipped: { req: VerifyRequest; error: string }[]; cancelled: number }> {
    const ids = requests.map((r) => ({ req: r, id: this.enqueue(r) }));
    const results = await Promise.all(ids.map(async ({ req, id }) => ({ req, outcome: await this.queue.result(id) })));
    const byTask = new Map<string, TaskVerification>();
    const skipped: { req: VerifyRequest; error: string }[] = [];
    let cancelled = 0;
    for (const { req, outcome } of results) {
      if (outcome.state === 'cancelled') {
        cancelled++;
        continue;
      }
      if (outcome.state === 'failed') {
        if (outcome.error instanceof EngineUnavailableError) throw outcome.error;
        skipped.push({ req, error: errorText(outcome.error) });
        continue;
      }
      let tv = byTask.get(req.task.id);
      if (!tv) {
        tv = { task: req.task, runs: [], report: { task: [], attempts: {} } };
        byTask.set(req.task.id, tv);
      }
      tv.runs.push(outcome.value);
    }
    for (const tv of byTask.values()) tv.report = taskReport(tv.task, tv.runs);
    return { tasks: [...byTask.values()], skipped, cancelled };
  }
}
