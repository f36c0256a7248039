// The webview bundle of an older commit, for the webview benches' before/after runs: a git worktree of `rev` in a
// temp dir, bundled with the same esbuild settings as esbuild.js.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { projectRoot } from '../test/webview/harness/server';

export async function buildOld(rev: string): Promise<{ dist: string; cleanup(): void }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'specweave-bench-'));
  const tree = path.join(dir, 'tree');
  execFileSync('git', ['worktree', 'add', '--detach', tree, rev], { cwd: projectRoot, stdio: 'ignore' });
  symlinkSync(path.join(projectRoot, 'node_modules'), path.join(tree, 'node_modules'));
  const dist = path.join(dir, 'dist');
  await build({
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'esm',
    logLevel: 'warning',
    entryPoints: { webview: path.join(tree, 'webview/src/main.ts'), stats: path.join(tree, 'webview/src/statsMain.ts') },
    outdir: dist,
  });
  return {
    dist,
    cleanup: () => {
      execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: projectRoot, stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
