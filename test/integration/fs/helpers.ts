// Helpers for the file-system tests: the real CLI in a child process, datasets copied from the fixtures, and a
// folder outside every dataset for symlinks to point at.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ReviewLog } from '../../../src/adapters/fs/reviewLog';
import type { EventDraft } from '../../../src/core/review/events';
import { copyFixture, tmpDir } from '../../unit/helpers/tmp';
import { cliArgs } from '../../unit/helpers/cli';

export const ROOT = path.resolve(__dirname, '../../..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `specweave ARGS` as a user would, in its own process (real exit code, real stdout and stderr). */
export function cli(args: string[], opts: { input?: string; timeoutMs?: number } = {}): CliResult {
  const r = spawnSync(process.execPath, [...cliArgs(), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    ...(opts.input !== undefined ? { input: opts.input } : {}),
    // A bound for commands that could block forever (a FIFO): the process is killed and `code` is null.
    ...(opts.timeoutMs !== undefined ? { timeout: opts.timeoutMs, killSignal: 'SIGKILL' as const } : {}),
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A fresh copy of test/fixtures/datasets/tiny (one task t1 with attempts a1 and a2). */
export function tinyDataset(): string {
  return copyFixture('datasets/tiny');
}

/** A folder outside every dataset, with a file in it whose content must never be read or changed. */
export function outside(): { dir: string; file: (name: string, content: string) => string } {
  const dir = tmpDir('sw-outside-');
  return {
    dir,
    file: (name, content) => {
      const p = path.join(dir, name);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, content);
      return p;
    },
  };
}

/** Every file under `dir` (relative path -> content), symlinks as `-> target`. */
export function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const rel = path.relative(dir, p);
      if (e.isSymbolicLink()) out[rel] = `-> ${fs.readlinkSync(p)}`;
      else if (e.isDirectory()) walk(p);
      else out[rel] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

export const labelDraft = (curator: string, task = 't1'): EventDraft => ({
  kind: 'label',
  task,
  revision: 1,
  curator,
  payload: { attempt: 'a1', spec: 'S1', verdict: 'satisfied', evidence: [] },
});

/** Appends events straight to a dataset's review log (no approval rules: tests set up a state). */
export async function appendEvents(root: string, drafts: EventDraft[]): Promise<void> {
  await ReviewLog.forDataset(root).append(drafts);
}
