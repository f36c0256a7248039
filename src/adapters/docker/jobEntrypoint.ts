// The protocol between a job's entrypoint and the runner that reads its logs, shared by the Swarm and Kubernetes
// backends (issue 15): both restart or lose a failing container, so the entrypoint always exits 0 and the command's
// exit code comes back in the output, in a trailer only the entrypoint can write. It runs as root, reads a nonce
// from a root-only file, unpacks the run's archive at `/` (as a local run's upload does: merged into the image's
// folders, hiding nothing), runs the command as the unprivileged run user (who cannot read the nonce, with no
// capabilities and no new privileges), kills whatever the command left running, then prints
// `\n__SPECWEAVE_EXIT__ <nonce> <code>` and the trailer: the OOM kills of its cgroup, the command's own run time, the
// files asked back (base64), `__SPECWEAVE_END__ <nonce>`. A command that prints a marker of its own cannot know the
// nonce. Where the logs do not keep stdout and stderr apart (Kubernetes), the command's stderr goes to a file read
// back in the trailer.

export const MARKER = '__SPECWEAVE_EXIT__';
export const END = '__SPECWEAVE_END__';

/** Where the entrypoint finds its inputs. */
export interface JobLayout {
  /** The root-only file holding the nonce. */
  nonce: string;
  /** The script run as the run user. */
  command: string;
  /** The archive's parts, concatenated in this order and unpacked at `/`. */
  archive: string[];
  /** Send the command's stderr to this file (opened by root) instead of the container's stderr. */
  stderrFile?: string;
}

export interface EntrypointJob {
  workdir: string;
  /** `uid:gid`, `uid`, a user name, or '' for root (still without capabilities) (default 1000:1000). */
  user?: string;
  /** Absolute paths read back after the command: a regular file only (not a link), its first `maxBytes`. */
  readBack?: Array<{ path: string; maxBytes: number }>;
}

export function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The `setpriv` arguments that drop to the run user with no capabilities and no new privileges. */
function dropTo(user: string | undefined): string {
  const u = user ?? '1000:1000';
  const caps = '--no-new-privs --inh-caps=-all --bounding-set=-all';
  if (u === '' || u === 'root' || u === '0' || u === '0:0') return `setpriv --reuid=0 --regid=0 --clear-groups ${caps}`;
  const m = /^(\d+)(?::(\d+))?$/.exec(u);
  if (m) return `setpriv --reuid=${m[1]} --regid=${m[2] ?? m[1]} --clear-groups ${caps}`;
  const [name = '', group] = u.split(':');
  return `setpriv --reuid=${shQuote(name)} --regid=${group ? shQuote(group) : `"$(id -g ${shQuote(name)})"`} --clear-groups ${caps}`;
}

/** The entrypoint: as root, unpack, run the command as the run user, kill what it left, print the trailer, exit 0. */
export function entrypoint(job: EntrypointJob, layout: JobLayout): string[] {
  // Where one log holds both streams, the runtime merges them in whatever order it reads them: a line written to
  // stderr could land inside the trailer. So then nothing but the trailer's own lines go to the log after the command.
  const mixed = layout.stderrFile !== undefined;
  const stderrEnd = mixed ? '' : `; echo >&2; echo "${END} $n" >&2`;
  const lines = [
    ...(mixed ? ['exec 2>/dev/null'] : []),
    `n="$(cat ${shQuote(layout.nonce)})"`,
    // A run that cannot start: the code, one line of why, and the end lines (on both streams where they are apart).
    'fail() {',
    `  echo; echo "${MARKER} $n $1"; printf 'error %s\\n' "$(printf %s "$2" | tr '\\n' ' ' | head -c 500)"; echo "${END} $n"${stderrEnd}; exit 0`,
    '}',
    "command -v setpriv >/dev/null 2>&1 || fail 127 'the image has no setpriv (util-linux): this backend needs it to run the command as the run user'",
  ];
  if (layout.archive.length > 0) {
    const files = layout.archive.map(shQuote).join(' ');
    lines.push(`e="$(cat ${files} | tar -x -f - -C / 2>&1)" || fail 126 "the run's archive could not be unpacked: $e"`);
  }
  lines.push(
    `cd ${shQuote(job.workdir)} || fail 127 ${shQuote(`cannot enter ${job.workdir}`)}`,
    "u0=\"$(cut -d ' ' -f 1 /proc/uptime 2>/dev/null)\"",
    `${dropTo(job.user)} sh ${shQuote(layout.command)} </dev/null${layout.stderrFile ? ` 2>${shQuote(layout.stderrFile)}` : ''}`,
    'c=$?',
    "u1=\"$(cut -d ' ' -f 1 /proc/uptime 2>/dev/null)\"",
    // As PID 1, kill(-1) takes every other process: nothing of the run writes after the trailer begins.
    'kill -9 -1 2>/dev/null',
    'echo',
    `echo "${MARKER} $n $c"`,
    `o="$(cat /sys/fs/cgroup/memory.events /sys/fs/cgroup/memory/memory.oom_control 2>/dev/null | sed -n 's/^oom_kill //p' | head -n 1)"`,
    'echo "oom ${o:--}"',
    'echo "took ${u0:--} ${u1:--}"',
  );
  for (const [i, f] of (job.readBack ?? []).entries()) {
    const p = shQuote(f.path);
    lines.push(`if [ -f ${p} ] && [ ! -L ${p} ]; then echo "file ${i}"; head -c ${f.maxBytes} ${p} | base64; echo end; else echo "file ${i} -"; fi`);
  }
  lines.push(`echo "${END} $n"${stderrEnd}`, 'exit 0');
  return ['sh', '-c', lines.join('\n')];
}

/**
 * Passes a stream's bytes on until `needle` shows up: the bytes before it go to `emit` as they come (the last
 * `needle.length - 1` held back, they may begin it), the bytes from it on are kept as the tail.
 */
export class NeedleSplit {
  private held: Buffer = Buffer.alloc(0);
  private found?: Buffer;

  constructor(
    private readonly needle: Buffer,
    private readonly emit: (chunk: Buffer) => void,
  ) {}

  write(chunk: Buffer): void {
    if (this.found) {
      this.found = Buffer.concat([this.found, chunk]);
      return;
    }
    const buf = Buffer.concat([this.held, chunk]);
    const at = buf.indexOf(this.needle);
    if (at >= 0) {
      if (at > 0) this.emit(buf.subarray(0, at));
      this.found = buf.subarray(at + this.needle.length);
      this.held = Buffer.alloc(0);
      return;
    }
    const keep = Math.min(buf.length, this.needle.length - 1);
    if (buf.length > keep) this.emit(buf.subarray(0, buf.length - keep));
    this.held = Buffer.from(buf.subarray(buf.length - keep));
  }

  /** The bytes after the needle, once it came. */
  tail(): Buffer | undefined {
    return this.found;
  }

  /** What was held back: the stream ended without the needle. */
  flush(): void {
    if (!this.found && this.held.length > 0) this.emit(this.held);
    this.held = Buffer.alloc(0);
  }
}

export interface Trailer {
  exitCode: number;
  oomKills?: number;
  /** How long the command ran, measured inside the task (`/proc/uptime` before and after). */
  commandMs?: number;
  files: Record<number, Buffer | undefined>;
  error?: string;
}

/** The trailer after `__SPECWEAVE_EXIT__ <nonce> ` (the rest of that line on); undefined until it is complete. */
export function readTrailer(tail: string, nonce: string): Trailer | undefined {
  const end = `${END} ${nonce}\n`;
  if (!tail.endsWith(end)) return undefined;
  const lines = tail.slice(0, -end.length).split('\n');
  const code = /^(\d{1,3})$/.exec(lines[0] ?? '');
  if (!code) return undefined;
  const t: Trailer = { exitCode: Number(code[1]), files: {} };
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    let m: RegExpExecArray | null;
    if ((m = /^oom (\d+|-)$/.exec(line))) {
      if (m[1] !== '-') t.oomKills = Number(m[1]);
    } else if ((m = /^took (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/.exec(line))) {
      t.commandMs = Math.max(0, Math.round((Number(m[2]) - Number(m[1])) * 1000));
    } else if ((m = /^file (\d+)( -)?$/.exec(line))) {
      const idx = Number(m[1]);
      if (m[2]) {
        t.files[idx] = undefined;
        continue;
      }
      const b64: string[] = [];
      for (i++; i < lines.length && lines[i] !== 'end'; i++) b64.push(lines[i] as string);
      // Node's decoder skips what is not base64: a line of something else would corrupt the file without a word.
      if (b64.some((l) => !/^[A-Za-z0-9+/]*={0,2}$/.test(l))) {
        t.error ??= `file ${idx} came back corrupted in the log (a line that is not base64 among its lines)`;
        t.files[idx] = undefined;
        continue;
      }
      t.files[idx] = Buffer.from(b64.join(''), 'base64');
    } else if (line.startsWith('error ')) {
      t.error = line.slice('error '.length);
    }
  }
  return t;
}
