// Reading base files from a task's local git clone: `git show <commit>:<path>` with a timeout and an output cap.
// Nothing here writes to the clone or runs hooks, filters or pagers.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';

export interface GitShowOptions {
  timeoutMs?: number;
  /** Largest file read, in bytes. */
  maxBuffer?: number;
  signal?: AbortSignal;
  /** The git executable (a setting; restricted in untrusted workspaces). */
  gitPath?: string;
}

export type GitShowResult =
  | { ok: true; text: string }
  /** `no-clone`: the folder is missing or not a git repository; `no-path`: the commit has no such file. */
  | { ok: false; kind: 'no-clone' | 'no-commit' | 'no-path' | 'too-big' | 'failed'; message: string };

export const GIT_TIMEOUT_MS = 10_000;
export const GIT_MAX_BUFFER = 32 * 1024 * 1024;

// Options that keep a read from doing anything but reading, whatever the clone's own config says.
const SAFE_CONFIG = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'core.pager=cat', '--no-pager'];

/** True when `dir` looks like a git work tree or bare repository. */
export function isGitClone(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory() && (fs.existsSync(`${dir}/.git`) || fs.existsSync(`${dir}/HEAD`));
  } catch {
    return false;
  }
}

/** The text of `relPath` at `commit` in the clone at `repoDir`. */
export async function gitShow(repoDir: string, commit: string, relPath: string, o: GitShowOptions = {}): Promise<GitShowResult> {
  // The commit and path become one argument `commit:path`; refuse anything that could be read as an option or a
  // revision expression.
  if (!/^[0-9a-fA-F]{4,64}$/.test(commit)) return { ok: false, kind: 'no-commit', message: `"${commit}" is not a commit id` };
  if (relPath.length === 0 || relPath.startsWith('/') || relPath.includes('\0') || relPath.split('/').includes('..')) {
    return { ok: false, kind: 'no-path', message: `"${relPath}" is not a path inside the repository` };
  }
  if (!isGitClone(repoDir)) {
    return { ok: false, kind: 'no-clone', message: `no git clone at ${repoDir}` };
  }
  const maxBuffer = o.maxBuffer ?? GIT_MAX_BUFFER;
  const r = await runGit(repoDir, ['show', `${commit}:${relPath}`], o, maxBuffer);
  if (r.ok) return { ok: true, text: r.stdout.toString('utf8') };
  const { code, killed, stderr: msg } = r;
  if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return { ok: false, kind: 'too-big', message: `${relPath} is larger than ${Math.round(maxBuffer / 1048576)} MB` };
  if (code === 'ENOENT') return { ok: false, kind: 'failed', message: `git is not installed (or ${o.gitPath ?? 'git'} is not on PATH)` };
  const noCommit = { ok: false as const, kind: 'no-commit' as const, message: `commit ${commit.slice(0, 12)} is not in the clone at ${repoDir}` };
  if (/does not exist in|exists on disk, but not in/.test(msg)) {
    // git says the same for a path missing from a commit and for a commit it does not have: ask about the commit.
    const c = await runGit(repoDir, ['cat-file', '-e', `${commit}^{commit}`], o, 1024);
    return c.ok ? { ok: false, kind: 'no-path', message: `${relPath} does not exist at ${commit.slice(0, 12)}` } : noCommit;
  }
  if (/invalid object name|bad revision|unknown revision|Not a valid object name/i.test(msg)) return noCommit;
  if (/not a git repository/i.test(msg)) return { ok: false, kind: 'no-clone', message: `${repoDir} is not a git repository` };
  if (killed) return { ok: false, kind: 'failed', message: `git show timed out after ${o.timeoutMs ?? GIT_TIMEOUT_MS} ms` };
  return { ok: false, kind: 'failed', message: msg.split('\n')[0] || `git failed (${String(code)})` };
}

type GitRun = { ok: true; stdout: Buffer } | { ok: false; code: string | number | undefined; killed: boolean; stderr: string };

function runGit(repoDir: string, args: string[], o: GitShowOptions, maxBuffer: number): Promise<GitRun> {
  return new Promise((resolve) => {
    execFile(
      o.gitPath ?? 'git',
      [...SAFE_CONFIG, '-C', repoDir, ...args],
      {
        timeout: o.timeoutMs ?? GIT_TIMEOUT_MS,
        maxBuffer,
        encoding: 'buffer',
        windowsHide: true,
        ...(o.signal ? { signal: o.signal } : {}),
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' },
      },
      (err, stdout, stderr) => {
        if (!err) resolve({ ok: true, stdout });
        else {
          const e = err as NodeJS.ErrnoException & { killed?: boolean; code?: string | number };
          resolve({ ok: false, code: e.code, killed: e.killed === true, stderr: stderr.toString('utf8').trim() });
        }
      },
    );
  });
}
