// The archive uploaded into a run's container: the repository at its base commit (`git archive` from the task's
// local clone, every entry checked, owned by the run's user, under the workdir) plus the driver and the patches.
// The whole archive is built in memory before upload, so a refused entry means nothing was sent.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as tar from 'tar-stream';
import { TarEntryChecker, UnsafeArchiveError, safeMode } from './tarSafety';

export interface FileOwner {
  uid: number;
  gid: number;
  /** Make files writable by every user (when the run's user is a name whose uid is unknown). */
  worldWritable: boolean;
}

export class RepoArchiveError extends Error {}

const END_OF_ARCHIVE = 1024;
/** Repositories above this size are refused rather than buffered. */
export const MAX_REPO_ARCHIVE_BYTES = 1024 * 1024 * 1024;

function run(cmd: string, args: string[], opts: { cwd?: string; maxBytes?: number } = {}): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    p.stdout.on('data', (d: Buffer) => out.push(d));
    p.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    p.on('error', reject);
    p.on('close', (code) => resolve({ code: code ?? -1, stdout: Buffer.concat(out), stderr: err }));
  });
}

/** The full commit id of `ref` in the clone at `repoPath`; a clear error when the clone or the commit is missing. */
export async function resolveCommit(repoPath: string, ref: string): Promise<string> {
  if (!fs.existsSync(repoPath)) throw new RepoArchiveError(`the task's repository clone ${repoPath} does not exist`);
  if (ref.startsWith('-')) throw new RepoArchiveError(`base commit "${ref}" is not a revision`);
  const r = await run('git', ['-C', repoPath, 'rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  const sha = r.stdout.toString('utf8').trim();
  if (r.code !== 0 || !/^[0-9a-f]{40,64}$/.test(sha)) {
    throw new RepoArchiveError(`base commit ${ref} is not in the clone at ${repoPath}${r.stderr ? `: ${r.stderr.trim()}` : ''}`);
  }
  return sha;
}

async function collect(pack: tar.Pack): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of pack) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** A packed tar without its end-of-archive blocks, so bodies can be concatenated. */
async function body(pack: tar.Pack): Promise<Buffer> {
  const b = await collect(pack);
  return b.subarray(0, b.length - END_OF_ARCHIVE);
}

/**
 * Re-packs a tar stream under `prefix/`, refusing unsafe entries and rewriting owner and permission bits. Resolves
 * to the packed body (no end blocks).
 */
export async function repackChecked(source: NodeJS.ReadableStream, prefix: string, owner: FileOwner): Promise<Buffer> {
  const checker = new TarEntryChecker();
  const extract = tar.extract();
  const pack = tar.pack();
  const packed = body(pack);
  packed.catch(() => undefined);
  source.pipe(extract);
  let total = 0;
  const pre = prefix.replace(/^\/+|\/+$/g, '');
  const at = (n: string) => (pre ? `${pre}/${n}` : n);
  try {
    pack.entry({ name: `${pre}/`, type: 'directory', mode: owner.worldWritable ? 0o777 : 0o755, uid: owner.uid, gid: owner.gid });
    for await (const entry of extract) {
      const h = entry.header;
      const why = checker.check(h);
      if (why) {
        entry.resume();
        throw new UnsafeArchiveError(h.name, why);
      }
      const chunks: Buffer[] = [];
      for await (const c of entry) chunks.push(c as Buffer);
      const data = Buffer.concat(chunks);
      total += data.length;
      if (total > MAX_REPO_ARCHIVE_BYTES) throw new RepoArchiveError(`the repository archive exceeds ${MAX_REPO_ARCHIVE_BYTES} bytes`);
      const name = h.name.replace(/^(\.\/)+/, '');
      if (name === '' || name === '.' || name === './') continue;
      const isDir = h.type === 'directory';
      const common = { name: at(name), mode: safeMode(h.mode, isDir, owner.worldWritable), uid: owner.uid, gid: owner.gid, mtime: h.mtime };
      if (isDir) pack.entry({ ...common, type: 'directory' });
      else if (h.type === 'symlink') pack.entry({ ...common, type: 'symlink', linkname: h.linkname ?? '' });
      else if (h.type === 'link') pack.entry({ ...common, type: 'link', linkname: at((h.linkname ?? '').replace(/^(\.\/)+/, '')) });
      else pack.entry({ ...common, type: 'file' }, data);
    }
    const end = checker.finish();
    if (end) throw new UnsafeArchiveError(end.entry, end.why);
  } catch (e) {
    pack.destroy();
    throw e;
  }
  pack.finalize();
  return packed;
}

/** `git archive` of `commit` as a checked tar body under `prefix/`. */
export async function gitArchiveBody(repoPath: string, commit: string, prefix: string, owner: FileOwner): Promise<Buffer> {
  const p = spawn('git', ['-C', repoPath, 'archive', '--format=tar', commit], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  p.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<number>((resolve, reject) => {
    p.on('error', reject);
    p.on('close', (code) => resolve(code ?? -1));
  });
  exited.catch(() => undefined);
  try {
    const b = await repackChecked(p.stdout, prefix, owner);
    const code = await exited;
    if (code !== 0) throw new RepoArchiveError(`git archive ${commit} failed in ${repoPath}: ${err.trim()}`);
    return b;
  } catch (e) {
    p.kill('SIGKILL');
    throw e;
  }
}

export interface ExtraFile {
  /** Path in the container, relative to `/`. */
  name: string;
  /** The file's bytes; none for a folder. */
  data?: Buffer | string;
  mode?: number;
  /** A folder (`data` is ignored). */
  directory?: boolean;
}

/** The final archive: the extra files (owned by root, read-only for others), then the repository body. */
export async function assembleArchive(extra: ExtraFile[], repoBody?: Buffer): Promise<Buffer> {
  const pack = tar.pack();
  const dirs = new Set<string>();
  for (const f of extra) {
    const name = f.name.replace(/\/+$/, '');
    const parts = name.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const d = parts.slice(0, i).join('/');
      if (!dirs.has(d)) {
        dirs.add(d);
        pack.entry({ name: `${d}/`, type: 'directory', mode: 0o755, uid: 0, gid: 0 });
      }
    }
    if (f.directory) {
      dirs.add(name);
      pack.entry({ name: `${name}/`, type: 'directory', mode: f.mode ?? 0o755, uid: 0, gid: 0 });
    } else {
      pack.entry({ name, mode: f.mode ?? 0o644, uid: 0, gid: 0 }, typeof f.data === 'string' ? Buffer.from(f.data, 'utf8') : (f.data ?? Buffer.alloc(0)));
    }
  }
  pack.finalize();
  const head = await body(pack);
  return Buffer.concat([head, repoBody ?? Buffer.alloc(0), Buffer.alloc(END_OF_ARCHIVE)]);
}

/** A small cache of checked repository bodies: a batch verifies many attempts of one task at one commit. */
export class RepoArchiveCache {
  private readonly entries = new Map<string, Buffer>();

  constructor(private readonly maxBytes = 256 * 1024 * 1024) {}

  async get(repoPath: string, ref: string, prefix: string, owner: FileOwner): Promise<{ commit: string; body: Buffer }> {
    if (!fs.existsSync(repoPath)) throw new RepoArchiveError(`the task's repository clone ${repoPath} does not exist`);
    const real = fs.realpathSync(repoPath);
    const commit = await resolveCommit(real, ref);
    const key = [real, commit, prefix, owner.uid, owner.gid, owner.worldWritable].join('\0');
    const hit = this.entries.get(key);
    if (hit) {
      // Refresh recency.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return { commit, body: hit };
    }
    const b = await gitArchiveBody(real, commit, prefix, owner);
    this.entries.set(key, b);
    let size = [...this.entries.values()].reduce((a, x) => a + x.length, 0);
    for (const [k, v] of this.entries) {
      if (size <= this.maxBytes || this.entries.size === 1) break;
      this.entries.delete(k);
      size -= v.length;
    }
    return { commit, body: b };
  }
}
