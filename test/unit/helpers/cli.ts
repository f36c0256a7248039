// The CLI as the tests spawn it: the bundle `npm run build` writes (dist/cli.js, the package's bin), so a test runs
// what a user installs. Loading the CLI's sources through tsx costs about 2.5 s of CPU a process against 0.5 s for
// the bundle, and the suite spawns the CLI hundreds of times. A test run on its own after an edit still sees the
// edit: when any source is newer than the bundle, the bundle is rebuilt here first (into a temporary file renamed
// into place, so test processes running side by side never read half a file).
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

export const ROOT = path.resolve(__dirname, '../../..');
export const CLI_BIN = path.join(ROOT, 'dist', 'cli.js');

function newestSource(): number {
  let newest = 0;
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) newest = Math.max(newest, fs.statSync(p).mtimeMs);
    }
  };
  walk(path.join(ROOT, 'src'));
  for (const f of ['package.json', 'package-lock.json', 'esbuild.js', 'tsconfig.json']) {
    const p = path.join(ROOT, f);
    if (fs.existsSync(p)) newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

let checked = false;

/** Makes sure dist/cli.js is built from the current sources (once a process). */
export function ensureCli(): void {
  if (checked) return;
  const { cli } = createRequire(__filename)(path.join(ROOT, 'esbuild.js')) as { cli: esbuild.BuildOptions & { entryPoints: Record<string, string> } };
  const { outdir: _outdir, entryPoints, ...options } = cli;
  // Every bundle of the CLI's build (the CLI, the dataset search's worker), each built when older than the sources.
  const newest = newestSource();
  for (const [name, entry] of Object.entries(entryPoints)) {
    const out = path.join(ROOT, 'dist', `${name}.js`);
    if ((fs.existsSync(out) ? fs.statSync(out).mtimeMs : -1) >= newest) continue;
    const tmp = `${out}.${process.pid}.tmp`;
    esbuild.buildSync({ ...options, absWorkingDir: ROOT, entryPoints: [entry], outfile: tmp, sourcemap: false });
    fs.chmodSync(tmp, 0o755);
    fs.renameSync(tmp, out);
  }
  checked = true;
}

/** The argv after `node` that runs `specweave ARGS`: spawn(process.execPath, cliArgs(...args)). */
export function cliArgs(...args: string[]): string[] {
  ensureCli();
  return [CLI_BIN, ...args];
}
