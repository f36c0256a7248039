// Checks every entry of an archive before anything reaches the engine: a tar with absolute names, `..`, symlinks
// pointing out, links through symlinks or device files could overwrite files in the container (measured: they stay
// inside the container, but there they could replace the verifier's own files). The checks are pure.
import * as path from 'node:path';

export interface TarHeaderLike {
  name: string;
  type?: string | null;
  linkname?: string | null;
  mode?: number | null;
}

/** An archive entry was refused; nothing was uploaded. */
export class UnsafeArchiveError extends Error {
  constructor(
    readonly entry: string,
    readonly why: string,
  ) {
    super(`archive entry "${entry}" refused before upload: ${why}`);
  }
}

const ALLOWED_TYPES = new Set(['file', 'contiguous-file', 'directory', 'symlink', 'link']);

/** Strips `./` prefixes and a trailing slash; pure. */
export function entryPath(name: string): string {
  let n = name;
  while (n.startsWith('./')) n = n.slice(2);
  if (n.endsWith('/')) n = n.slice(0, -1);
  return n;
}

function escapes(p: string): boolean {
  return p === '..' || p.startsWith('../') || path.posix.isAbsolute(p);
}

/**
 * Resolves `p` (relative to the root) following the archive's own symlinks, as the filesystem would; undefined when
 * it leaves the root at any step. `a -> .` then `b -> a/..` is inside lexically but outside physically.
 */
export function resolveInside(p: string, links: ReadonlyMap<string, string>, hops = 0): string[] | undefined {
  const stack: string[] = [];
  const comps = p.split('/');
  for (let i = 0; i < comps.length; i++) {
    const c = comps[i] as string;
    if (c === '' || c === '.') continue;
    if (c === '..') {
      if (stack.length === 0) return undefined;
      stack.pop();
      continue;
    }
    stack.push(c);
    const target = links.get(stack.join('/'));
    if (target === undefined) continue;
    if (hops > 40 || path.posix.isAbsolute(target)) return undefined;
    stack.pop();
    const base = stack.join('/');
    const rest = comps.slice(i + 1).join('/');
    return resolveInside([base, target, rest].filter((x) => x.length > 0).join('/'), links, hops + 1);
  }
  return stack;
}

/** Tracks the entries seen so far, to refuse an entry written through an earlier symlink. */
export class TarEntryChecker {
  private readonly symlinks = new Set<string>();
  private readonly targets = new Map<string, string>();

  /** Returns why the entry is unsafe, or undefined when it may be uploaded. */
  check(h: TarHeaderLike): string | undefined {
    const raw = h.name;
    if (raw.includes('\0')) return 'the name contains a NUL byte';
    if (raw.startsWith('/')) return 'absolute path';
    const name = entryPath(raw);
    if (name.split('/').includes('..')) return 'the path contains ".."';
    const type = h.type ?? 'file';
    if (!ALLOWED_TYPES.has(type)) return `${type} entries are not allowed (only files, directories and links)`;
    const parts = name.split('/');
    for (let i = 1; i < parts.length; i++) {
      if (this.symlinks.has(parts.slice(0, i).join('/'))) return `written through the symlink "${parts.slice(0, i).join('/')}"`;
    }
    if (type === 'symlink') {
      const target = h.linkname ?? '';
      if (target.length === 0) return 'symlink without a target';
      if (path.posix.isAbsolute(target)) return `symlink to the absolute path "${target}" points out of the workdir`;
      const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(name), target));
      if (escapes(resolved)) return `symlink to "${target}" points out of the workdir`;
      this.symlinks.add(name);
      this.targets.set(name, target);
    }
    if (type === 'link') {
      const target = entryPath(h.linkname ?? '');
      if (target.length === 0) return 'hard link without a target';
      if (escapes(path.posix.normalize(target)) || target.split('/').includes('..')) return `hard link to "${h.linkname}" points out of the workdir`;
      if (this.symlinks.has(target)) return `hard link to the symlink "${target}"`;
    }
    return undefined;
  }

  /** After the last entry: every symlink, followed through the others, must stay inside. Returns the first bad one. */
  finish(): { entry: string; why: string } | undefined {
    for (const [name, target] of this.targets) {
      const base = path.posix.dirname(name);
      if (resolveInside(base === '.' ? target : `${base}/${target}`, this.targets) === undefined) {
        return { entry: name, why: `symlink to "${target}" leads out of the workdir through other symlinks` };
      }
    }
    return undefined;
  }
}

/** Checks a whole list of headers; throws UnsafeArchiveError on the first unsafe one. */
export function assertSafeEntries(headers: TarHeaderLike[]): void {
  const c = new TarEntryChecker();
  for (const h of headers) {
    const why = c.check(h);
    if (why) throw new UnsafeArchiveError(h.name, why);
  }
  const end = c.finish();
  if (end) throw new UnsafeArchiveError(end.entry, end.why);
}

/** Permission bits without setuid, setgid or sticky; optionally writable by everyone. */
export function safeMode(mode: number | null | undefined, isDir: boolean, worldWritable: boolean): number {
  const base = (mode ?? (isDir ? 0o755 : 0o644)) & 0o777;
  if (!worldWritable) return base;
  return isDir ? 0o777 : base | 0o666;
}
