// Warm containers: one container reused for the runs of one task revision and image, each run a `docker exec` of
// the same driver, the container reset between runs. The run's user is unprivileged (no capabilities, no new
// privileges), so what it can change is what it may write or owns: the workdir (reset by git from a record of the
// base tree outside it) and a few places (/tmp, its home folder with its site-packages, /dev/shm...), listed when
// the container is ready with every entry's ctime, which no such process can set back. After each run what was
// added is deleted; a changed or deleted entry, a git record that changed, a process left (the engine's `top`)
// discard the container. Nothing is graded from a dirty one (docs/verifier.md, "Warm mode").
import { randomUUID } from 'node:crypto';
import type Docker from 'dockerode';
import { errorText } from '../../core/errorText';
import { DEFAULT_KEEP_BYTES, Demuxer, HeadTailCapture, MarkerSplitCapture } from './capture';
import { DeadlineError, withDeadline } from './deadline';
import { INPUT_DIR, TESTS_BEGIN_MARKER, parsePrelude, shQuote } from './driver';
import type { Engine } from './engine';
import type { ExecuteOptions, ExecuteResult } from './executor';
import { CancelledError, createContainer, inspectSized, readJunit, watchDisk } from './executor';
import type { RunDescription } from './runSpec';
import { LABELS } from './runSpec';

/** Set on warm containers (besides `specweave.owned`, which the orphan sweep goes by). */
export const WARM_LABEL = 'specweave.warm';
/** Where the warm container keeps its record of the base tree: a git folder outside the workdir. */
export const WARM_DIR = `/${INPUT_DIR}/warm`;
const GIT_DIR = `${WARM_DIR}/git`;
/** The keep-alive process: reads the client's stdin, so the container ends when its owner's connection drops. */
const KEEPALIVE_USER = '65534:65534';
const CALL_MS = 15_000;
const RESET_MS = 60_000;
const TAG = '@@SPECWEAVE warm';
const MAX_OUTPUT_FILE_BYTES = 1024 * 1024;
/** A listing longer than this cannot be compared: the container is not used again. */
const MAX_LISTING_BYTES = 8 * 1024 * 1024;

/** The warm container cannot serve this run (it broke, or could not be prepared): run it in a fresh container. */
export class WarmUnusableError extends Error {}

interface WarmContainer {
  key: string;
  container: Docker.Container;
  stdin: NodeJS.ReadableStream;
  user: string;
  workdir: string;
  /** The places outside the workdir the run's user can change (top-most). */
  places: string[];
  /** Their listing when the container was ready. */
  baseline: Map<string, ListedEntry>;
  /** The checksum of the git folder after the last reset: it must be the same before the next. */
  gitSum: string;
  runs: number;
  generation: number;
}

/** The environment of the harness's own git calls: no configuration of the run's user or the system is read. */
const GIT_ENV = ['HOME=/', 'GIT_CONFIG_NOSYSTEM=1', 'GIT_CONFIG_GLOBAL=/dev/null', `GIT_DIR=${GIT_DIR}`, 'GIT_TERMINAL_PROMPT=0', 'LC_ALL=C'];

/**
 * A checksum of every entry of the git folder: type, mode, owner, size, mtime and ctime, link target, name. A write
 * to any file moves its ctime, which no unprivileged process can set back, so the bytes need not be read.
 */
const SUM_FN = ['sum() {', `  find ${shQuote(GIT_DIR)} -printf '%y %m %U %s %T@ %C@ %p -> %l\\n' | LC_ALL=C sort | cksum`, '}'];

/** Records the base tree: every file of the workdir (ignored ones included) committed into a git folder outside it. */
export function prepareScript(workdir: string): string {
  return [
    'set -e',
    ...SUM_FN,
    `export GIT_WORK_TREE=${shQuote(workdir)}`,
    `cd ${shQuote(workdir)}`,
    'git init -q',
    // ctime and the full stat data decide what reset rewrites: a run cannot hide an edit behind a forged mtime.
    'git config core.logAllRefUpdates false && git config gc.auto 0 && git config core.trustctime true && git config core.checkStat default',
    'git config core.autocrlf false && git config core.fileMode true',
    'git add -A -f',
    'git -c user.name=specweave -c user.email=specweave@localhost commit -q --allow-empty --no-verify -m base',
    `[ -z "$(git status --porcelain --ignored)" ] || { echo "${TAG}-fail the base tree is not clean after the commit"; exit 1; }`,
    `echo "${TAG}-ready $(sum)"`,
    '',
  ].join('\n');
}

/** How an entry is listed: type, mode, owner, group, size, mtime, ctime, then the path (NUL-terminated). */
const LIST_FORMAT = "'%y %m %U %G %s %T@ %C@ %p\\0'";
const LIST_MARK = `${TAG}-list`;

/** Lists the places the run's user can change (the arguments), the workdir and the git folder left out. */
function listCommand(workdir: string): string {
  return `find "$@" \\( -path ${shQuote(workdir)} -o -path ${shQuote(GIT_DIR)} \\) -prune -o -printf ${LIST_FORMAT} 2>/dev/null`;
}

/**
 * Every place outside the workdir the run's user could change: what it may write or owns (it could chmod what it
 * owns), devices left out. Unprivileged, without capabilities and with no-new-privileges, it can change nothing
 * else.
 */
export function placesScript(workdir: string): string {
  return [
    `find / \\( -path /proc -o -path /sys -o -path ${shQuote(workdir)} -o -path ${shQuote(GIT_DIR)} \\) -prune -o ! -type c \\( -writable -o -user "$(id -u)" \\) -print0 2>/dev/null`,
    'exit 0',
    '',
  ].join('\n');
}

/**
 * Puts the container back to its base state after a run, as the run's user: every process of that user killed; the
 * git folder checked against the checksum left by the last reset (before any git command reads it); `git reset
 * --hard` and `git clean -ffdx` in the workdir (nothing left for `git status`, ignored files included); System V
 * IPC objects removed; then the listing of every place the user can change, for the host to compare with the
 * listing taken when the container was ready. Arguments: the checksum, then those places.
 */
export function resetScript(workdir: string): string {
  const fail = (what: string) => `{ echo "${TAG}-fail ${what}"; exit 1; }`;
  return [
    ...SUM_FN,
    'kill -9 -1 2>/dev/null',
    `[ "$(sum)" = "$1" ] || ${fail('the git folder changed')}`,
    'shift',
    `export GIT_WORK_TREE=${shQuote(workdir)}`,
    `cd ${shQuote(workdir)} || ${fail('cannot enter the workdir')}`,
    `git reset -q --hard || ${fail('git reset --hard')}`,
    `git clean -q -ffdx || ${fail('git clean -ffdx')}`,
    `[ -z "$(git status --porcelain --ignored)" ] || ${fail('git status lists files after the reset')}`,
    'if command -v ipcrm >/dev/null 2>&1; then ipcrm -a 2>/dev/null; fi',
    `for f in /proc/sysvipc/shm /proc/sysvipc/sem /proc/sysvipc/msg; do if [ -r "$f" ] && [ "$(wc -l <"$f")" -gt 1 ]; then ${fail('System V IPC objects are left')}; fi; done`,
    `echo "${TAG}-ready $(sum)"`,
    `echo "${LIST_MARK}"`,
    listCommand(workdir),
    'exit 0',
    '',
  ].join('\n');
}

/** Deletes the paths given as arguments (what the run added), then lists the places again (after `--`). */
export function removeScript(workdir: string): string {
  return [
    'while [ $# -gt 0 ] && [ "$1" != -- ]; do rm -rf -- "$1" 2>/dev/null; shift; done',
    'shift',
    `echo "${LIST_MARK}"`,
    listCommand(workdir),
    'exit 0',
    '',
  ].join('\n');
}

export interface ListedEntry {
  type: string;
  mode: string;
  uid: string;
  gid: string;
  size: string;
  mtime: string;
  ctime: string;
}

/** Reads a listing (records after the marker line); undefined when there is none or a record is malformed. */
export function parseListing(out: string): Map<string, ListedEntry> | undefined {
  const at = out.indexOf(`${LIST_MARK}\n`);
  if (at < 0) return undefined;
  const m = new Map<string, ListedEntry>();
  for (const rec of out.slice(at + LIST_MARK.length + 1).split('\0')) {
    if (rec === '' || rec === '\n') continue;
    const parts = rec.split(' ');
    if (parts.length < 8) return undefined;
    const [type, mode, uid, gid, size, mtime, ctime] = parts as [string, string, string, string, string, string, string];
    m.set(parts.slice(7).join(' '), { type, mode, uid, gid, size, mtime, ctime });
  }
  return m;
}

/** The top-most of `paths` (one inside another is covered by it). */
export function topMost(paths: string[]): string[] {
  const set = new Set(paths);
  return paths.filter((p) => {
    for (let i = p.lastIndexOf('/'); i > 0; i = p.lastIndexOf('/', i - 1)) if (set.has(p.slice(0, i))) return false;
    return p === '/' || !set.has('/');
  });
}

/**
 * Compares a listing with the one taken when the container was ready: the paths the run added (top-most, to
 * delete), or what no reset can undo (an entry of the base changed or gone). A folder may differ only in its times
 * and size (its entries changed); any other entry must be the same in every field, ctime included, which no
 * unprivileged process can set back. Pure.
 */
export function judgeListing(base: Map<string, ListedEntry>, now: Map<string, ListedEntry>): { added: string[]; dirty?: string } {
  for (const [p, b] of base) {
    const n = now.get(p);
    if (!n) return { added: [], dirty: `${p} is gone` };
    const same = b.type === n.type && b.mode === n.mode && b.uid === n.uid && b.gid === n.gid;
    if (!same || (b.type !== 'd' && (b.size !== n.size || b.mtime !== n.mtime || b.ctime !== n.ctime))) return { added: [], dirty: `${p} was changed` };
  }
  return { added: topMost([...now.keys()].filter((p) => !base.has(p))) };
}

function streamEnded(stream: NodeJS.ReadableStream, onData: (c: Buffer) => void): Promise<string | undefined> {
  return new Promise((resolve) => {
    stream.on('data', onData);
    stream.on('end', () => resolve(undefined));
    stream.on('close', () => resolve(undefined));
    stream.on('error', (e: Error) => resolve(e.message));
  });
}

/** Runs a short harness command in the container and returns its exit code and stdout (stderr appended). */
async function execText(container: Docker.Container, cmd: string[], user: string, env: string[], ms: number): Promise<{ code: number | null; out: string; cut: boolean }> {
  return withDeadline(`${cmd[2]?.slice(0, 40) ?? 'a command'} in the warm container`, ms, async (s) => {
    const exec = await container.exec({ Cmd: cmd, User: user, Env: env, AttachStdout: true, AttachStderr: true, AttachStdin: false, Tty: false, abortSignal: s });
    const stream = (await exec.start({ hijack: true, stdin: false, abortSignal: s })) as NodeJS.ReadableStream;
    const out = new HeadTailCapture(MAX_LISTING_BYTES);
    const demux = new Demuxer(out, out);
    await streamEnded(stream, (c) => demux.write(c));
    const info = await exec.inspect({ abortSignal: s });
    const r = out.result();
    return { code: info.Running ? null : (info.ExitCode ?? null), out: Buffer.concat([r.head, r.tail]).toString('utf8'), cut: r.cutBytes > 0 };
  });
}

function readyChecksum(out: string): string | undefined {
  return new RegExp(`^${TAG}-ready (.+)$`, 'm').exec(out)?.[1]?.trim();
}

/**
 * The warm containers of one service. A run takes an idle container of its key (task revision, image, user,
 * workdir, limits) or prepares a new one, returns it after a proven reset, and `close` removes them all.
 */
export class WarmPool {
  private readonly idle = new Map<string, WarmContainer[]>();
  private readonly live = new Set<WarmContainer>();
  /** Bumped by `close`: a container of an earlier generation is removed when its run ends. */
  private generation = 0;
  /** Warm containers created and discarded (for tests and the bench). */
  readonly stats = { created: 0, reused: 0, discarded: 0 };

  constructor(
    private readonly engine: Engine,
    private readonly log?: (line: string) => void,
  ) {}

  /**
   * Runs `d` (described with `warm: true`) in a warm container of `key`. `archive(true)` is the whole upload (the
   * repository and the inputs) for a new container, `archive(false)` the run's inputs alone. Throws
   * WarmUnusableError when the run must go to a fresh container instead (nothing was graded).
   */
  async run(key: string, d: RunDescription, archive: (withRepo: boolean) => Promise<Buffer>, o: ExecuteOptions = {}): Promise<ExecuteResult & { warmRuns: number }> {
    if (o.signal?.aborted) throw new CancelledError();
    const docker = await this.engine.docker();
    const t0 = Date.now();
    let w = this.idle.get(key)?.pop();
    let createMs = 0;
    let uploadMs = 0;
    if (w) {
      this.stats.reused++;
      const u0 = Date.now();
      const inputs = await archive(false);
      try {
        await withDeadline('uploading the run inputs', CALL_MS, (s) => (w as WarmContainer).container.putArchive(inputs, { path: '/', abortSignal: s }), o.signal);
      } catch (e) {
        await this.discard(w);
        if (o.signal?.aborted) throw new CancelledError();
        throw new WarmUnusableError(`the warm container took no upload: ${errorText(e)}`);
      }
      uploadMs = Date.now() - u0;
    } else {
      w = await this.create(docker, key, d, await archive(true), o.signal);
      createMs = Date.now() - t0;
    }
    const wc = w;
    let result: ExecuteResult;
    try {
      result = await this.exec(wc, d, o);
    } catch (e) {
      await this.discard(wc);
      if (e instanceof CancelledError || o.signal?.aborted) throw new CancelledError();
      throw e instanceof WarmUnusableError ? e : new WarmUnusableError(`the warm container broke: ${errorText(e)}`);
    }
    result.timings.createMs = createMs;
    result.timings.uploadMs = uploadMs;
    wc.runs++;
    const runs = wc.runs;
    // Killed with no deadline passed: the memory limit's doing, which an exec cannot tell; a fresh run will.
    if (!result.timedOut && !result.diskLimitExceeded && (result.exitCode === 137 || result.exitCode === null)) {
      await this.discard(wc);
      throw new WarmUnusableError(`the run in the warm container was killed (exit ${result.exitCode ?? 'unknown'})`);
    }
    const r0 = Date.now();
    // A run that timed out, filled the disk or lost its output ran in a clean container and is graded as it is;
    // the container is not used again.
    if (result.timedOut || result.killedByClient || result.diskLimitExceeded || result.streamError) await this.discard(wc);
    else {
      try {
        await this.reset(wc);
        if (wc.generation !== this.generation) await this.discard(wc);
        else this.idle.set(key, [...(this.idle.get(key) ?? []), wc]);
      } catch (e) {
        this.log?.(`a warm container was discarded: ${errorText(e)}`);
        await this.discard(wc);
      }
    }
    result.timings.removeMs = Date.now() - r0;
    result.timings.startToRemovedMs = result.timings.containerMs + result.timings.removeMs;
    return { ...result, warmRuns: runs };
  }

  /**
   * Removes every warm container (at the end of a batch); a run under way removes its own when it ends. The pool
   * stays usable: a later run prepares a new container.
   */
  async close(): Promise<void> {
    this.generation++;
    const idle = [...this.idle.values()].flat();
    this.idle.clear();
    await Promise.all(idle.map((w) => this.discard(w)));
  }

  private async discard(w: WarmContainer): Promise<void> {
    if (!this.live.delete(w)) return;
    this.stats.discarded++;
    (w.stdin as Partial<{ destroy(): void }>).destroy?.();
    // Best effort: a container left behind carries our label and is swept at the next start-up.
    await withDeadline('removing the warm container', CALL_MS, (s) => w.container.remove({ force: true, v: true, abortSignal: s })).catch(() => undefined);
  }

  private async create(docker: Docker, key: string, d: RunDescription, full: Buffer, signal?: AbortSignal): Promise<WarmContainer> {
    // The reset's soundness rests on an unprivileged run user (docs/verifier.md, "Warm mode").
    if (d.user === '' || /^(0|root)(:|$)/.test(d.user)) throw new WarmUnusableError('warm mode needs an unprivileged run user');
    const name = `specweave-warm-${randomUUID().slice(0, 12)}`;
    const keep: RunDescription = {
      ...d,
      name,
      user: KEEPALIVE_USER,
      cmd: ['-c', 'exec cat >/dev/null'],
      labels: { ...d.labels, [LABELS.run]: name, [LABELS.attempt]: '', [WARM_LABEL]: '1' },
    };
    // The quota covers the git folder's copy of the base tree too.
    const container = await createContainer(this.engine, docker, keep, 2 * full.length);
    const w: WarmContainer = { key, container, stdin: undefined as unknown as NodeJS.ReadableStream, user: d.user, workdir: d.workdir, places: [], baseline: new Map(), gitSum: '', runs: 0, generation: this.generation };
    this.live.add(w);
    this.stats.created++;
    try {
      w.stdin = (await withDeadline('attaching to the warm container', CALL_MS, (s) =>
        container.attach({ stream: true, stdin: true, hijack: true, stdout: true, stderr: true, abortSignal: s }),
      )) as NodeJS.ReadableStream;
      w.stdin.on('error', () => undefined);
      await withDeadline('uploading the repository', CALL_MS + Math.ceil(full.length / (1024 * 1024)) * 1000, (s) => container.putArchive(full, { path: '/', abortSignal: s }), signal);
      await withDeadline('starting the warm container', CALL_MS, (s) => container.start({ abortSignal: s }), signal);
      const info = await withDeadline('inspecting the warm container', CALL_MS, (s) => container.inspect({ abortSignal: s }));
      // A volume's contents are not in the layer's change list: the reset could not see what a run left there.
      if ((info.Mounts ?? []).length > 0) throw new WarmUnusableError(`the image declares volumes (${info.Mounts.map((m) => m.Destination).join(', ')})`);
      const prep = await execText(container, ['/bin/sh', '-c', prepareScript(d.workdir)], d.user, [...GIT_ENV], RESET_MS);
      const sum = prep.code === 0 ? readyChecksum(prep.out) : undefined;
      if (!sum) throw new WarmUnusableError(`the base tree could not be recorded: ${prep.out.trim().slice(-300)}`);
      w.gitSum = sum;
      const places = await execText(container, ['/bin/sh', '-c', placesScript(d.workdir)], d.user, [], RESET_MS);
      if (places.code !== 0 || places.cut) throw new WarmUnusableError('the places the run could change could not be listed');
      w.places = topMost(places.out.split('\0').filter((p) => p.startsWith('/')));
      const listed = await execText(container, ['/bin/sh', '-c', removeScript(d.workdir), 'list', '--', ...w.places], d.user, [], RESET_MS);
      const base = listed.code === 0 && !listed.cut ? parseListing(listed.out) : undefined;
      if (!base) throw new WarmUnusableError('the places the run could change could not be listed');
      w.baseline = base;
      return w;
    } catch (e) {
      await this.discard(w);
      if (signal?.aborted) throw new CancelledError();
      throw e instanceof WarmUnusableError ? e : new WarmUnusableError(`the warm container could not be prepared: ${errorText(e)}`);
    }
  }

  /** Proves the container clean again, or throws (the caller discards it). */
  private async reset(w: WarmContainer): Promise<void> {
    const r = await execText(w.container, ['/bin/sh', '-c', resetScript(w.workdir), 'reset', w.gitSum, ...w.places], w.user, [...GIT_ENV], RESET_MS);
    const sum = r.code === 0 ? readyChecksum(r.out) : undefined;
    if (!sum) throw new Error(`the reset failed: ${r.out.trim().slice(-300)}`);
    let listing = r.cut ? undefined : parseListing(r.out);
    if (!listing) throw new Error('the reset listed nothing readable');
    let j = judgeListing(w.baseline, listing);
    if (j.dirty) throw new Error(j.dirty);
    if (j.added.length > 0) {
      const rm = await execText(w.container, ['/bin/sh', '-c', removeScript(w.workdir), 'remove', ...j.added, '--', ...w.places], w.user, [], RESET_MS);
      listing = rm.code === 0 && !rm.cut ? parseListing(rm.out) : undefined;
      if (!listing) throw new Error('the removal listed nothing readable');
      j = judgeListing(w.baseline, listing);
      if (j.dirty || j.added.length > 0) throw new Error(`the reset left ${j.dirty ?? j.added.slice(0, 3).join(', ')}`);
    }
    // The engine's word on the processes: none but the init and the keep-alive.
    const top = (await withDeadline('listing the container processes', CALL_MS, () => w.container.top())) as { Processes?: string[][] };
    const procs = top.Processes ?? [];
    if (procs.length > 2) throw new Error(`${procs.length - 2} process(es) of the run outlived the reset`);
    w.gitSum = sum;
  }

  /** One run: the driver exec'd as the run's user, under the same deadline, disk watch and report reads as fresh. */
  private async exec(w: WarmContainer, d: RunDescription, o: ExecuteOptions): Promise<ExecuteResult> {
    const container = w.container;
    const signal = o.signal;
    const keep = o.keepBytes ?? DEFAULT_KEEP_BYTES;
    const stdout = new MarkerSplitCapture(Buffer.from(TESTS_BEGIN_MARKER), keep, 256 * 1024, (c) => o.onOutput?.('stdout', c));
    const stderr = new HeadTailCapture(keep);
    const demux = new Demuxer(stdout, {
      write: (c) => {
        stderr.write(c);
        o.onOutput?.('stderr', c);
      },
    });
    const baseline = (await inspectSized(container, signal)).SizeRw ?? 0;
    const exec = await withDeadline('creating the run', CALL_MS, (s) =>
      container.exec({ Cmd: ['/bin/sh', `/${INPUT_DIR}/run.sh`], User: d.user, WorkingDir: d.workdir, Env: d.env, AttachStdout: true, AttachStderr: true, AttachStdin: false, Tty: false, abortSignal: s }),
    );
    const stream = (await withDeadline('starting the run', CALL_MS, (s) => exec.start({ hijack: true, stdin: false, abortSignal: s }), signal)) as NodeJS.ReadableStream;
    const startedAt = Date.now();
    const ended = streamEnded(stream, (c) => demux.write(c));

    const kill = () => withDeadline('killing the warm container', CALL_MS, (s) => container.kill({ signal: 'SIGKILL', abortSignal: s })).catch(() => undefined);
    const disk = watchDisk(container, baseline, d.diskLimitBytes, kill);
    const stopWatch = disk.stop;

    let killedByClient = false;
    let streamError: string | undefined;
    try {
      streamError = await withDeadline('the verifier', d.clientDeadlineMs, () => ended, signal);
    } catch (e) {
      await kill();
      await stopWatch();
      if (e instanceof DeadlineError) killedByClient = true;
      else throw signal?.aborted ? new CancelledError() : e;
    }
    await stopWatch();
    const containerMs = Date.now() - startedAt;
    let exitCode: number | null = null;
    if (!killedByClient && !disk.exceeded()) {
      const info = await withDeadline('reading the run exit', CALL_MS, (s) => exec.inspect({ abortSignal: s }));
      exitCode = info.Running ? null : (info.ExitCode ?? null);
    } else exitCode = 137;
    const elapsedOver = containerMs >= d.timeoutSec * 1000;
    const timedOut = killedByClient || (!disk.exceeded() && (exitCode === 124 || exitCode === 137) && elapsedOver);
    const readable = !timedOut && !disk.exceeded() && stdout.markerSeen;
    const [size, taskXml, harnessXml] = await Promise.all([
      readable ? inspectSized(container).then((i) => i.SizeRw ?? 0) : Promise.resolve(baseline),
      d.junitPath && readable ? readJunit(container, `${d.workdir}/${d.junitPath}`, signal) : undefined,
      d.harnessReportPath && readable ? readJunit(container, d.harnessReportPath, signal) : undefined,
    ]);
    const diskWrittenBytes = Math.max(0, size - baseline);
    const diskExceeded = disk.exceeded() || diskWrittenBytes >= d.diskLimitBytes;
    let junitXml = timedOut ? undefined : taskXml;
    let harnessReport: ExecuteResult['harnessReport'];
    if (d.harnessReportPath) {
      const xml = timedOut ? undefined : harnessXml;
      harnessReport = { format: 'junit', xml: xml ?? (d.junitPath ? junitXml : undefined) };
      if (d.junitPath) junitXml ??= xml;
    }
    let outputFiles: Record<string, string | undefined> | undefined;
    if (d.outputFiles && readable) {
      outputFiles = {};
      for (const f of d.outputFiles) outputFiles[f] = await readJunit(container, f, signal, f, MAX_OUTPUT_FILE_BYTES);
    }
    (stream as Partial<{ destroy(): void }>).destroy?.();
    const prelude = stdout.prelude().toString('utf8');
    if (demux.error) streamError ??= demux.error;
    return {
      containerId: container.id,
      apply: parsePrelude(prelude),
      prelude,
      exitCode,
      timedOut,
      killedByClient,
      oomKilled: false,
      stdout: stdout.after.result(),
      stderr: stderr.result(),
      junitXml,
      harnessReport,
      diskLimitExceeded: diskExceeded,
      diskWrittenBytes,
      ...(outputFiles ? { outputFiles } : {}),
      streamError,
      timings: { createMs: 0, uploadMs: 0, containerMs, removeMs: 0, startToRemovedMs: containerMs },
      removed: false,
    };
  }
}
