// A verifier run described as a plain object before anything executes: image, user, command, labels and the
// hardened host configuration. Pure, so the hardening is unit-tested rather than trusted.
import type Docker from 'dockerode';
import type { Limits, Verifier } from '../../core/model';
import { DEFAULT_LIMITS } from '../../core/model';
import { unsafeRelativePath } from '../../core/paths';
import type { FileOwner } from './repoArchive';
import { REWARD_FILES } from '../../core/verify/parseReward';
import { HARNESS_REPORT_PATH, INPUT_DIR, driverScript, shQuote } from './driver';

export const OWNED_LABEL = 'specweave.owned';
export const LABELS = {
  owned: OWNED_LABEL,
  run: 'specweave.run',
  task: 'specweave.task',
  attempt: 'specweave.attempt',
  pid: 'specweave.pid',
  host: 'specweave.host',
  created: 'specweave.created',
} as const;

/** The unprivileged user runs use when the image names none. */
export const DEFAULT_RUN_USER = { uid: 1000, gid: 1000 };
const MIB = 1024 * 1024;

export interface RunSpecInput {
  runId: string;
  taskId: string;
  attemptId: string;
  image: string;
  /** The image's configured user (`Config.User`), '' when none. */
  imageUser: string;
  /** `git`: the repository is uploaded into the workdir; `image`: the image already holds it there. */
  repoKind: 'git' | 'image';
  workdir: string;
  limits: Limits;
  timeoutSec: number;
  verifier: Verifier;
  /** Patches written into place by the archive instead of applied (the verifier's `unpackTo`). */
  unpacked?: { test?: boolean; attempt?: boolean };
  /** Run before the verifier command, in the workdir (the gold probe's `verifier.goldCommand`). */
  preCommand?: string;
  owner: { pid: number; host: string };
  /** Epoch ms, for the sweep of containers an earlier crash left. */
  createdAt: number;
  /** Workdir-relative files the test patch touches (`testPatchPaths`): put back to base after the attempt's patch. */
  testPatchPaths?: string[];
  /** The run goes into a warm container (`docker exec`, src/adapters/docker/warm.ts): the driver waits and cleans up. */
  warm?: boolean;
  /**
   * No client stays attached to the run (a Swarm task, src/adapters/docker/swarmExecutor.ts): no stdin watchdog; the
   * task's entrypoint ends what the run left.
   */
  detached?: boolean;
}

export interface HardenedHostConfig {
  NetworkMode: 'none';
  Memory: number;
  MemorySwap: number;
  NanoCpus: number;
  PidsLimit: number;
  CapDrop: ['ALL'];
  SecurityOpt: ['no-new-privileges'];
  Init: true;
  AutoRemove: false;
  Privileged: false;
  ReadonlyRootfs: false;
  LogConfig: { Type: 'none'; Config: Record<string, string> };
  Ulimits: { Name: string; Soft: number; Hard: number }[];
}

export interface RunDescription {
  name: string;
  image: string;
  /** `uid:gid` or a user name; '' = the image's default (root). */
  user: string;
  workdir: string;
  entrypoint: string[];
  cmd: string[];
  env: string[];
  labels: Record<string, string>;
  hostConfig: HardenedHostConfig;
  /** Owner of the uploaded repository files. */
  fileOwner: FileOwner;
  uploadRepo: boolean;
  /** Files written next to the repository: the driver, the command; patches are added by the executor. */
  driver: string;
  command: string;
  timeoutSec: number;
  /** The client kills the container this long after it starts, whatever the driver's own `timeout` did. */
  clientDeadlineMs: number;
  junitPath?: string;
  /** Where pytest writes the harness-owned JUnit report (pytest and junit parsers); read back after the run. */
  harnessReportPath?: string;
  /**
   * The container's stdin stays open while the client is attached and is closed by the engine when that connection
   * drops (`OpenStdin` + `StdinOnce`); the driver's watchdog ends the run on EOF, so an orphan stops by itself.
   */
  watchdog: true;
  /**
   * The most the run may write to the container's disk beyond its upload (`limits.diskMb`): each file is capped at
   * it (`fsize`), the written size is watched during the run and checked after it, and the engine is asked for a
   * storage quota of upload + limit where its storage driver has one.
   */
  diskLimitBytes: number;
  /** Absolute paths read from the container after the run (the reward files of a `reward` verifier). */
  outputFiles?: string[];
  /** Described for a warm container: the driver is run by `docker exec` (no stdin watchdog of its own). */
  warm?: boolean;
}

/** Parsers whose runner is pytest: the harness asks it for a JUnit report of its own. */
const PYTEST_PARSERS = new Set(['pytest', 'junit']);

export class RunSpecError extends Error {}

function isRoot(user: string): boolean {
  const u = user.split(':')[0] ?? '';
  return u === '' || u === '0' || u === 'root';
}

/** Who runs the tests and who owns the uploaded files. */
export function runUser(imageUser: string, repoKind: 'git' | 'image'): { user: string; fileOwner: FileOwner } {
  const rootOwner = { uid: 0, gid: 0, worldWritable: false };
  // The image holds the repository, owned by whoever built it: run as the image says.
  if (repoKind === 'image') return { user: imageUser, fileOwner: rootOwner };
  if (isRoot(imageUser)) {
    const { uid, gid } = DEFAULT_RUN_USER;
    return { user: `${uid}:${gid}`, fileOwner: { uid, gid, worldWritable: false } };
  }
  const m = /^(\d+)(?::(\d+))?$/.exec(imageUser);
  if (m) {
    const uid = Number(m[1]);
    const gid = m[2] !== undefined ? Number(m[2]) : uid;
    return { user: imageUser, fileOwner: { uid, gid, worldWritable: false } };
  }
  // A user name whose uid is unknown outside the image: its files must be writable whoever it is.
  return { user: imageUser, fileOwner: { uid: 0, gid: 0, worldWritable: true } };
}

/** Docker names allow [a-zA-Z0-9_.-]; keep the run id readable in `docker ps`. */
export function containerName(runId: string): string {
  return `specweave-${runId.replace(/[^a-zA-Z0-9_.-]/g, '-')}`.slice(0, 120);
}

/**
 * The engine-side limits every container we start gets (verifier runs, probes, solver trials): no network, memory
 * without swap, CPUs, pids, no capabilities, no new privileges, an init process, no log driver, no core files, and no
 * single file beyond the disk limit.
 */
export function hardenedHostConfig(limits: Limits, diskLimitBytes: number): HardenedHostConfig {
  return {
    NetworkMode: 'none',
    Memory: Math.round(limits.memoryMb * MIB),
    // Equal to Memory: no swap, so the limit is a limit and exhaustion ends in an OOM kill, not in thrashing.
    MemorySwap: Math.round(limits.memoryMb * MIB),
    NanoCpus: Math.round(limits.cpus * 1e9),
    PidsLimit: limits.pids,
    CapDrop: ['ALL'],
    SecurityOpt: ['no-new-privileges'],
    Init: true,
    AutoRemove: false,
    Privileged: false,
    ReadonlyRootfs: false,
    // Output is read from the attach stream; a log driver would only copy it to disk (and json-file mangles bytes).
    LogConfig: { Type: 'none', Config: {} },
    // No single file beyond the disk limit: a one-file flood stops at once (EFBIG), not at the next size check.
    Ulimits: [
      { Name: 'core', Soft: 0, Hard: 0 },
      { Name: 'fsize', Soft: diskLimitBytes, Hard: diskLimitBytes },
    ],
  };
}

export function describeRun(i: RunSpecInput): RunDescription {
  if (!i.workdir.startsWith('/') || i.workdir.includes('\0') || i.workdir.split('/').includes('..')) {
    throw new RunSpecError(`workdir "${i.workdir}" must be an absolute path without ".."`);
  }
  if (i.workdir === '/' || i.workdir.replace(/\/+$/, '') === `/${INPUT_DIR}`) {
    throw new RunSpecError(`workdir "${i.workdir}" is not allowed`);
  }
  if (!(i.timeoutSec > 0)) throw new RunSpecError(`timeout must be positive, got ${i.timeoutSec}`);
  if (i.verifier.junitPath !== undefined) {
    const bad = unsafeRelativePath(i.verifier.junitPath);
    if (bad) throw new RunSpecError(`verifier.junitPath: ${bad}`);
  }
  const { user, fileOwner } = runUser(i.imageUser, i.repoKind);
  const workdir = i.workdir.replace(/\/+$/, '');
  const killAfterSec = 1;
  // An unpacked test patch is written outside the workdir by the archive: nothing in the workdir to put back.
  const restorePaths = i.unpacked?.test ? [] : (i.testPatchPaths ?? []);
  for (const p of restorePaths) {
    const bad = unsafeRelativePath(p);
    if (bad) throw new RunSpecError(`test patch path: ${bad}`);
  }
  const harnessReportPath = PYTEST_PARSERS.has(i.verifier.parser) ? HARNESS_REPORT_PATH : undefined;
  const diskLimitBytes = Math.round((i.limits.diskMb ?? DEFAULT_LIMITS.diskMb ?? 2048) * MIB);
  if (!(diskLimitBytes > 0)) throw new RunSpecError(`limits.diskMb must be positive, got ${i.limits.diskMb}`);
  const outputFiles = i.verifier.parser === 'reward' ? [...REWARD_FILES] : undefined;
  // The gold probe's own step (Harbor's oracle agent running solve.sh) runs first, in a subshell, under the same
  // deadline; its output is part of the log, between two lines that say where it begins and ends.
  const command = i.preCommand
    ? [
        `printf '%s\\n' ${shQuote(`[specweave] the gold probe runs first: ${i.preCommand.split('\n')[0]}`)}`,
        `( ${i.preCommand}
)`,
        `echo "[specweave] that step exited with code $?; the verifier command follows"`,
        i.verifier.command,
        '',
      ].join('\n')
    : `${i.verifier.command}\n`;
  return {
    name: containerName(i.runId),
    image: i.image,
    user,
    workdir,
    entrypoint: ['/bin/sh'],
    cmd: [`/${INPUT_DIR}/run.sh`],
    env: [],
    labels: {
      [LABELS.owned]: '1',
      [LABELS.run]: i.runId,
      [LABELS.task]: i.taskId,
      [LABELS.attempt]: i.attemptId,
      [LABELS.pid]: String(i.owner.pid),
      [LABELS.host]: i.owner.host,
      [LABELS.created]: String(i.createdAt),
    },
    diskLimitBytes,
    hostConfig: hardenedHostConfig(i.limits, diskLimitBytes),
    fileOwner,
    uploadRepo: i.repoKind === 'git',
    driver: driverScript({
      workdir,
      timeoutSec: i.timeoutSec,
      killAfterSec,
      junitPath: i.verifier.junitPath,
      restorePaths,
      harnessReportPath,
      watchdog: !i.warm && !i.detached,
      unpacked: i.unpacked,
      outputFiles,
      ...(i.warm ? { warm: true } : {}),
    }),
    command,
    timeoutSec: i.timeoutSec,
    // The driver's `timeout` starts after the patches apply; the client's deadline adds half a second for that.
    clientDeadlineMs: Math.round(i.timeoutSec * 1000) + 500,
    junitPath: i.verifier.junitPath,
    harnessReportPath,
    watchdog: true,
    ...(outputFiles ? { outputFiles } : {}),
    ...(i.warm ? { warm: true } : {}),
  };
}

/**
 * The engine's create-container request for a description. `storageQuotaBytes`: ask for a storage quota (`StorageOpt
 * size`, only some storage drivers have one; the executor finds out).
 */
export function createOptions(d: RunDescription, o: { storageQuotaBytes?: number } = {}): Docker.ContainerCreateOptions {
  const hostConfig: Docker.HostConfig = { ...d.hostConfig, Ulimits: d.hostConfig.Ulimits.map((u) => ({ ...u })) };
  if (o.storageQuotaBytes !== undefined) hostConfig.StorageOpt = { size: String(Math.ceil(o.storageQuotaBytes)) };
  return {
    name: d.name,
    Image: d.image,
    User: d.user,
    WorkingDir: d.workdir,
    Entrypoint: d.entrypoint,
    Cmd: d.cmd,
    Env: d.env,
    Labels: d.labels,
    AttachStdin: d.watchdog,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    OpenStdin: d.watchdog,
    StdinOnce: d.watchdog,
    NetworkDisabled: true,
    HostConfig: hostConfig,
  };
}
