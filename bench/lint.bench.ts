// What the two structural lint rules cost `npm run check`: `eslint .` with the repository's configuration ("after")
// against the same configuration without local/no-cycle, no-floating-promises and the type-aware project service they
// need ("before"). Each lint runs in a fresh process (the no-cycle graph is cached per process, as in `eslint .`); the
// two alternate round by round so both see the same machine, and the ratio is the median of the per-round ratios.
// tsc on both tsconfigs (the rest of `check`, unchanged) is timed once to give the ratio for the whole of `check`.
//   node --import tsx bench/lint.bench.ts [--rounds 3] [--no-tsc]
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import type { Linter } from 'eslint';

const root = path.resolve(import.meta.dirname, '..');
const arg = (name: string) => process.argv.indexOf(name);
const ROUNDS = arg('--rounds') > 0 ? Number(process.argv[arg('--rounds') + 1]) : 3;

/** The configuration without the blocks that turn on local/no-cycle, no-floating-promises or the project service. */
function before(config: Linter.Config[]): Linter.Config[] {
  return config.filter((c) => {
    const rules = Object.keys(c.rules ?? {});
    const typed = (c.languageOptions?.parserOptions as { projectService?: unknown } | undefined)?.projectService !== undefined;
    return !typed && !rules.includes('local/no-cycle') && !rules.includes('@typescript-eslint/no-floating-promises');
  });
}

async function one(which: 'before' | 'after'): Promise<void> {
  const mod = (await import(pathToFileURL(path.join(root, 'eslint.config.mjs')).href)) as { default: Linter.Config[] };
  const config = which === 'after' ? mod.default : before(mod.default);
  const t0 = performance.now();
  const eslint = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: config });
  const results = await eslint.lintFiles(['.']);
  const ms = performance.now() - t0;
  const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
  process.stdout.write(JSON.stringify({ ms, files: results.length, problems }) + '\n');
}

function child(which: 'before' | 'after'): { ms: number; files: number; problems: number } {
  const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/lint.bench.ts'), '--one', which], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 24 });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as { ms: number; files: number; problems: number };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

if (arg('--one') > 0) {
  await one(process.argv[arg('--one') + 1] === 'before' ? 'before' : 'after');
} else {
  const b: number[] = [];
  const a: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const x = child('before');
    const y = child('after');
    b.push(x.ms);
    a.push(y.ms);
    ratios.push(y.ms / x.ms);
    console.log(`round ${i + 1}: before ${(x.ms / 1000).toFixed(1)} s (${x.files} files, ${x.problems} problems), after ${(y.ms / 1000).toFixed(1)} s (${y.problems} problems), ratio ${(y.ms / x.ms).toFixed(2)}`);
  }
  console.log(`eslint . median: before ${(median(b) / 1000).toFixed(1)} s, after ${(median(a) / 1000).toFixed(1)} s; after/before ${median(ratios).toFixed(2)} (per-round ${ratios.map((r) => r.toFixed(2)).join(', ')})`);
  if (arg('--no-tsc') < 0) {
    const t0 = performance.now();
    for (const p of ['tsconfig.json', 'webview/tsconfig.json']) execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', p, '--noEmit'], { cwd: root, stdio: 'inherit' });
    const tsc = performance.now() - t0;
    console.log(`tsc (both tsconfigs): ${(tsc / 1000).toFixed(1)} s; whole check after/before ${((tsc + median(a)) / (tsc + median(b))).toFixed(2)}`);
  }
}
