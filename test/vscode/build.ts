// Bundles the in-host suite (index and every *.test.ts) into out/test/vscode/suite/ so the extension host can load it:
// one CommonJS file per test file, `vscode` and `mocha` left to the host's require.
import { readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(__dirname, '../..');
const suiteDir = path.join(root, 'test/vscode/suite');
export const suiteOutDir = path.join(root, 'out/test/vscode/suite');
export const suiteIndex = path.join(suiteOutDir, 'index.js');

export async function buildSuite(): Promise<void> {
  const entries = readdirSync(suiteDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f === 'index.ts' || f.endsWith('.test.ts'))
    .map((f) => path.join(suiteDir, f));
  // Stale bundles of deleted tests would still run.
  rmSync(suiteOutDir, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: entries,
    outbase: suiteDir,
    outdir: suiteOutDir,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    sourcemap: 'inline',
    sourcesContent: false,
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
}
