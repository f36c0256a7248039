// What the two structural lint rules cost `npm run check`: `eslint .` with the repository's configuration ("after")
// against the same configuration without local/no-cycle, no-floating-promises and the type-aware project service it
// needs ("before"), and with local/no-cycle alone ("cycle"). Each lint runs in a fresh process (the no-cycle graph is cached per process, as in `eslint .`); the
// two alternate round by round so both see the same machine, and the ratio is the median of the per-round ratios.
// tsc on both tsconfigs (the rest of `check`, unchanged) is timed once to give the ratio for the whole of `check`.
//   node --import tsx bench/lint.bench.ts [--rounds 3] [--no-tsc]
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import type { Linter } from 'eslint';

const root = path.resolve(__dirname, '..');
const arg = (name: string) => process.argv.indexOf(name);
const ROUNDS = arg('--rounds') > 0 ? Number(process.argv[arg('--rounds') + 1]) : 3;

type Variant = 'before' | 'cycle' | 'after';
const typed = (c: Linter.Config) => (c.languageOptions?.parserOptions as { projectService?: unknown } | undefined)?.projectService !== undefined;
const cycle = (c: Linter.Config) => Object.keys(c.rules ?? {}).includes('local/no-cycle');

/** `before`: without the blocks of local/no-cycle and of no-floating-promises (with its project service); `cycle`: only the latter left out. */
function variant(config: Linter.Config[], which: Variant): Linter.Config[] {
  if (which === 'after') return config;
  return config.filter((c) => !typed(c) && (which === 'cycle' || !cycle(c)));
}

async function one(which: Variant): Promise<void> {
  const mod = (await import(pathToFileURL(path.join(root, 'eslint.config.mjs')).href)) as { default: Linter.Config[] };
  const config = variant(mod.default, which);
  const t0 = performance.now();
  const eslint = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: config });
  const results = await eslint.lintFiles(['.']);
  const ms = performance.now() - t0;
  const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
  process.stdout.write(JSON.stringify({ ms, files: results.length, problems }) + '\n');
}

function child(which: Variant): { ms: number; files: number; problems: number } {
  const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/lint.bench.ts'), '--one', which], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 24 });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as { ms: number; files: number; problems: number };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function main(): Promise<void> {
  if (arg('--one') > 0) {
    const w = process.argv[arg('--one') + 1];
    return one(w === 'before' || w === 'cycle' ? w : 'after');
  }
  const b: number[] = [];
  const a: number[] = [];
  const ratios: number[] = [];
  const cycleRatios: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const x = child('before');
    const c = child('cycle');
    const y = child('after');
    b.push(x.ms);
    a.push(y.ms);
    ratios.push(y.ms / x.ms);
    cycleRatios.push(c.ms / x.ms);
    console.log(`round ${i + 1}: before ${(x.ms / 1000).toFixed(1)} s (${x.files} files, ${x.problems} problems), + no-cycle ${(c.ms / 1000).toFixed(1)} s, + no-floating-promises ${(y.ms / 1000).toFixed(1)} s (${y.problems} problems); ratios ${(c.ms / x.ms).toFixed(2)}, ${(y.ms / x.ms).toFixed(2)}`);
  }
  const list = (xs: number[]) => xs.map((r) => r.toFixed(2)).join(', ');
  console.log(`eslint . median: before ${(median(b) / 1000).toFixed(1)} s, after ${(median(a) / 1000).toFixed(1)} s; no-cycle alone / before ${median(cycleRatios).toFixed(2)} (${list(cycleRatios)}); after / before ${median(ratios).toFixed(2)} (${list(ratios)})`);
  if (arg('--no-tsc') < 0) {
    const t0 = performance.now();
    for (const p of ['tsconfig.json', 'webview/tsconfig.json']) execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', p, '--noEmit'], { cwd: root, stdio: 'inherit' });
    const tsc = performance.now() - t0;
    console.log(`tsc (both tsconfigs): ${(tsc / 1000).toFixed(1)} s; whole check after/before ${((tsc + median(a)) / (tsc + median(b))).toFixed(2)}`);
  }
}

// A failure rejects main: Node prints it and exits non-zero.
void main();
