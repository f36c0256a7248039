// The container a fresh solver trial works in (issue 14): started once per trial from the task's image with the
// verifier's hardening (no network, memory, CPU, pids and file-size limits, no capabilities), the repository at its
// base commit with its history cut to one commit (no later commits, no other refs, no reflog; neither the test patch
// nor the gold patch is ever uploaded), then one `bash -c` per action through `docker exec` under a per-command
// timeout, its output cut to head and tail. Its main process reads stdin, which the engine closes when our attach
// connection drops: a trial whose owner dies stops by itself, and the sweep removes it (it carries our labels).
// The patch is taken with `git diff` against the base commit. See docs/solver.md.
import type Docker from 'dockerode';
import { HeadTailCapture, Demuxer } from './capture';
import { withDeadline } from './deadline';
import { shQuote } from './driver';
import type { Engine } from './engine';
import { assembleArchive } from './repoArchive';
import { LABELS, hardenedHostConfig, runUser } from './runSpec';
import type { Limits } from '../../core/model';

const CALL_MS = 15_000;
const MIB = 1024 * 1024;

export interface SolverContainerInput {
  /** Names the container (`specweave-solve-<trialId>`) and its run label. */
  trialId: string;
  taskId: string;
  image: string;
  /** The image's configured user (`Config.User`), '' when none. */
  imageUser: string;
  /** `git`: `repoBody` (a checked `git archive` body under the workdir) is uploaded; `image`: the image holds the repository. */
  repoKind: 'git' | 'image';
  repoBody?: Buffer;
  workdir: string;
  limits: Limits;
  owner: { pid: number; host: string };
}

export interface ExecResult {
  /** The command's exit code; null when it could not be read. */
  exitCode: number | null;
  /** stdout and stderr as one text (UTF-8, invalid bytes replaced), cut to head and tail. */
  output: string;
  /** Bytes cut from the middle (0 when all was kept). */
  cutBytes: number;
  timedOut: boolean;
}

export class SolverContainerError extends Error {}

/** The commit the cut history consists of: one commit of the base tree, by a fixed author and date. */
const BASE_COMMIT_ENV = ['GIT_AUTHOR_NAME=specweave', 'GIT_AUTHOR_EMAIL=specweave@localhost', 'GIT_COMMITTER_NAME=specweave', 'GIT_COMMITTER_EMAIL=specweave@localhost', 'GIT_AUTHOR_DATE=2000-01-01T00:00:00Z', 'GIT_COMMITTER_DATE=2000-01-01T00:00:00Z'];

/**
 * Cuts the repository's history to one commit of the working tree as it is: whatever `.git` the image or the
 * upload brought (later commits, other refs, reflogs, packed objects, stashes) is deleted first.
 */
export function cutHistoryScript(workdir: string): string {
  const w = shQuote(workdir);
  return [
    'set -e',
    `cd ${w}`,
    'rm -rf .git',
    'git init -q',
    'git config core.fileMode true',
    'git add -A',
    "git commit -q --allow-empty --no-verify -m 'base'",
    'git reflog expire --expire=now --all',
    'git gc -q --prune=now',
  ].join('\n');
}

/** The patch of the trial: every change of the working tree against the base commit, new files included. */
export function diffScript(workdir: string): string {
  return [`cd ${shQuote(workdir)}`, 'git add -A >/dev/null 2>&1', 'git -c core.quotepath=false diff --cached --binary --no-color --no-ext-diff HEAD'].join(' && ');
}

export class SolverContainer {
  private constructor(
    private readonly container: Docker.Container,
    private readonly docker: Docker,
    private readonly user: string,
    readonly workdir: string,
    private readonly attach: NodeJS.ReadableStream,
    private readonly keepBytes: number,
  ) {}

  get id(): string {
    return this.container.id;
  }

  /** Creates and starts the trial's container, uploads the repository (git tasks), and cuts its history. */
  static async start(engine: Engine, i: SolverContainerInput, o: { keepBytes?: number } = {}): Promise<SolverContainer> {
    if (!i.workdir.startsWith('/') || i.workdir.includes('\0') || i.workdir.split('/').includes('..') || i.workdir === '/') {
      throw new SolverContainerError(`workdir "${i.workdir}" must be an absolute path without ".." other than /`);
    }
    if (i.repoKind === 'git' && !i.repoBody) throw new SolverContainerError('a git task needs its repository body');
    const docker = await engine.docker();
    const { user } = runUser(i.imageUser, i.repoKind);
    const diskLimitBytes = Math.round((i.limits.diskMb ?? 2048) * MIB);
    const create: Docker.ContainerCreateOptions = {
      name: `specweave-solve-${i.trialId}`.replace(/[^A-Za-z0-9_.-]/g, '-').slice(0, 120),
      Image: i.image,
      User: user,
      WorkingDir: i.workdir,
      // The main process only waits for stdin to close: the engine closes it when our attach connection drops.
      Entrypoint: ['/bin/sh', '-c', 'cat >/dev/null; exit 0'],
      Cmd: [],
      Env: [],
      Labels: {
        [LABELS.owned]: '1',
        [LABELS.run]: `solve-${i.trialId}`,
        [LABELS.task]: i.taskId,
        [LABELS.attempt]: `trial-${i.trialId}`,
        [LABELS.pid]: String(i.owner.pid),
        [LABELS.host]: i.owner.host,
        [LABELS.created]: String(Date.now()),
      },
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      OpenStdin: true,
      StdinOnce: true,
      Tty: false,
      NetworkDisabled: true,
      HostConfig: hardenedHostConfig(i.limits, diskLimitBytes),
    };
    const container = await withDeadline('creating the trial container', CALL_MS, (s) => docker.createContainer({ ...create, abortSignal: s }));
    try {
      const attach = (await withDeadline('attaching to the trial container', CALL_MS, (s) => container.attach({ stream: true, stdin: true, hijack: true, stdout: true, stderr: true, abortSignal: s }))) as NodeJS.ReadableStream;
      attach.on('data', () => undefined);
      attach.on('error', () => undefined);
      if (i.repoKind === 'git') {
        const archive = await assembleArchive([], i.repoBody);
        await withDeadline('uploading the repository', CALL_MS + Math.ceil(archive.length / MIB) * 1000, (s) => container.putArchive(archive, { path: '/', abortSignal: s }));
      }
      await withDeadline('starting the trial container', CALL_MS, (s) => container.start({ abortSignal: s }));
      const sc = new SolverContainer(container, docker, user, i.workdir.replace(/\/+$/, ''), attach, o.keepBytes ?? 64 * 1024);
      const cut = await sc.execAs(cutHistoryScript(sc.workdir), 120, { env: BASE_COMMIT_ENV });
      if (cut.exitCode !== 0) throw new SolverContainerError(`cutting the repository's history failed (exit ${cut.exitCode}): ${cut.output.slice(-500)}`);
      return sc;
    } catch (e) {
      await withDeadline('removing the trial container', CALL_MS, (s) => container.remove({ force: true, v: true, abortSignal: s })).catch(() => undefined);
      throw e;
    }
  }

  /** One action: `bash -c COMMAND` in the workdir, stopped after `timeoutSec` (TERM, then KILL a second later). */
  exec(command: string, timeoutSec: number): Promise<ExecResult> {
    return this.execAs(command, timeoutSec);
  }

  private async execAs(command: string, timeoutSec: number, o: { env?: string[] } = {}): Promise<ExecResult> {
    // timeout(1) runs the command in its own process group, so the whole group gets the signal.
    const exec = await withDeadline('starting a command', CALL_MS, () =>
      this.container.exec({
        Cmd: ['timeout', '-k', '1', String(Math.max(1, Math.ceil(timeoutSec))), 'bash', '-c', command],
        AttachStdout: true,
        AttachStderr: true,
        AttachStdin: false,
        Tty: false,
        User: this.user,
        WorkingDir: this.workdir,
        Env: ['HOME=/tmp', 'PAGER=cat', 'GIT_PAGER=cat', 'TERM=dumb', ...(o.env ?? [])],
      }),
    );
    const capture = new HeadTailCapture(this.keepBytes);
    const demux = new Demuxer(capture, capture);
    const stream = (await withDeadline('starting a command', CALL_MS, () => exec.start({ hijack: true, stdin: false }))) as NodeJS.ReadableStream;
    const ended = new Promise<void>((resolve) => {
      stream.on('data', (c: Buffer) => demux.write(c));
      stream.on('end', () => resolve());
      stream.on('close', () => resolve());
      stream.on('error', () => resolve());
    });
    // The command's own timeout ends it; the client's deadline is a backstop for an engine that stops answering.
    let backstop = false;
    await withDeadline('a command', (timeoutSec + 10) * 1000, () => ended).catch(() => {
      backstop = true;
      (stream as Partial<{ destroy(): void }>).destroy?.();
    });
    const info = await withDeadline('reading a command\'s exit code', CALL_MS, () => exec.inspect()).catch(() => undefined);
    const exitCode = info?.ExitCode ?? null;
    const r = capture.result();
    const cut = r.cutBytes > 0 ? `\n[... ${r.cutBytes} bytes cut ...]\n` : '';
    return {
      exitCode: backstop ? null : exitCode,
      output: `${r.head.toString('utf8')}${cut}${r.cutBytes > 0 || r.tail.length > 0 ? r.tail.toString('utf8') : ''}`,
      cutBytes: r.cutBytes,
      // timeout(1): 124 after its TERM worked, 137 after its KILL.
      timedOut: backstop || exitCode === 124 || exitCode === 137,
    };
  }

  /** The trial's patch against the base commit. */
  async diff(): Promise<string> {
    const exec = await this.container.exec({ Cmd: ['bash', '-c', diffScript(this.workdir)], AttachStdout: true, AttachStderr: true, User: this.user, WorkingDir: this.workdir, Env: ['HOME=/tmp'] });
    const out = new HeadTailCapture(32 * MIB);
    const err = new HeadTailCapture(64 * 1024);
    const stream = (await exec.start({ hijack: true, stdin: false })) as NodeJS.ReadableStream;
    const demux = new Demuxer(out, err);
    await withDeadline('taking the patch', 120_000, () => new Promise<void>((resolve) => {
      stream.on('data', (c: Buffer) => demux.write(c));
      stream.on('end', () => resolve());
      stream.on('close', () => resolve());
      stream.on('error', () => resolve());
    }));
    const info = await exec.inspect();
    const r = out.result();
    if (info.ExitCode !== 0) throw new SolverContainerError(`git diff failed (exit ${info.ExitCode}): ${err.result().head.toString('utf8').slice(0, 500)}`);
    if (r.cutBytes > 0) throw new SolverContainerError("the trial's patch is over 64 MiB");
    return r.head.toString('utf8') + r.tail.toString('utf8');
  }

  /** Stops and removes the container (always safe to call again). */
  async remove(): Promise<void> {
    (this.attach as Partial<{ destroy(): void }>).destroy?.();
    await withDeadline('removing the trial container', CALL_MS, (s) => this.container.remove({ force: true, v: true, abortSignal: s })).catch((e: unknown) => {
      if ((e as { statusCode?: number }).statusCode !== 404) throw e;
    });
  }

  /** Whether the container still runs (false once it died or was removed). */
  async running(): Promise<boolean> {
    const info = await withDeadline('inspecting the trial container', CALL_MS, (s) => this.container.inspect({ abortSignal: s })).catch(() => undefined);
    return info?.State?.Running === true;
  }
}
