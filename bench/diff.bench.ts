// Patches and line diffs, the hand-written code of c42285d (bench/baseline/) against what src/core uses now (our
// tolerant hunk parser with file headers read by jsdiff; jsdiff's diff for unified diffs) and against jsdiff alone
// where it could replace ours (parsePatch, applyPatch). Then the review log's lock: the longest event-loop block
// while another process holds the lock for HOLD_MS, waiting the way the issue describes (Atomics.wait, the loop of
// 6dfa8e8 kept here as the baseline) against ReviewLog.append today. Each case alternates its contenders round by
// round; a ratio is the median of the per-round ratios (old / new: above 1 means the new code is faster).
//   node --import tsx bench/diff.bench.ts        (ROUNDS=5 HOLD_MS=300; BIG=1 adds the minute-long jsdiff cases)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyPatch as jsApplyPatch, parsePatch as jsParsePatch } from 'diff';
import type { StructuredPatch } from 'diff';
import { ReviewLog } from '../src/adapters/fs/reviewLog';
import { applyFilePatch, parsePatch } from '../src/core/patch';
import { unifiedDiff } from '../src/core/textDiff';
import * as hand from './baseline/handPatch';
import * as handDiff from './baseline/handTextDiff';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const HOLD_MS = Number(process.env.HOLD_MS ?? 300);
const BIG = process.env.BIG === '1';
const samples = path.resolve(__dirname, '../../shared/samples/swebench/predictions');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(1) : x.toFixed(3));

/** Milliseconds per call of `f`, repeated until 50 ms have passed (at least once). */
function timeIt(f: () => unknown): number {
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  do {
    f();
    n++;
    t = performance.now();
  } while (t - t0 < 50);
  return (t - t0) / n;
}

interface Row {
  what: string;
  old: number[];
  now: number[];
}
const rows: Row[] = [];

function compare(what: string, old: () => unknown, now: () => unknown, rounds = ROUNDS): void {
  const row: Row = { what, old: [], now: [] };
  old();
  now();
  for (let r = 0; r < rounds; r++) {
    row.old.push(timeIt(old));
    row.now.push(timeIt(now));
  }
  rows.push(row);
  const ratio = median(row.old.map((o, i) => o / (row.now[i] as number)));
  console.log(`${what.padEnd(64)} old ${ms(median(row.old)).padStart(8)} ms   new ${ms(median(row.now)).padStart(8)} ms   old/new ${ratio.toFixed(2)}`);
}

function once1(what: string, f: () => unknown): number {
  const t = performance.now();
  f();
  const d = performance.now() - t;
  console.log(`${what.padEnd(64)} ${ms(d).padStart(8)} ms`);
  return d;
}

// ---- inputs ---------------------------------------------------------------------------------------------------

const blacksmith = fs
  .readFileSync(path.join(samples, 'blacksmith_predictions_swebench_v1.1.0.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => (JSON.parse(l) as { model_patch: string }).model_patch);
const gold = (JSON.parse(fs.readFileSync(path.join(samples, 'swe-bench_preds_sbl.gold.json'), 'utf8')) as Array<{ model_patch: string }>).map((g) => g.model_patch);
const realistic = [...blacksmith, ...gold];

const fileLines = (n: number, tag = 'line') => Array.from({ length: n }, (_, i) => `${tag} ${i}: value = compute(${i}) + offset`);

/** A git patch of `files` files with `hunks` hunks of 3 context + 2 removed + 3 added lines each. */
function bigPatch(files: number, hunks: number): string {
  const out: string[] = [];
  for (let f = 0; f < files; f++) {
    const p = `src/pkg${f % 20}/module_${f}.py`;
    out.push(`diff --git a/${p} b/${p}`, `index 1111111..2222222 100644`, `--- a/${p}`, `+++ b/${p}`);
    for (let h = 0; h < hunks; h++) {
      const at = 1 + h * 20;
      out.push(`@@ -${at},8 +${at},9 @@ def function_${h}(self):`);
      for (let k = 0; k < 3; k++) out.push(` context ${h} ${k}`);
      out.push(`-removed ${h} a`, `-removed ${h} b`, `+added ${h} a`, `+added ${h} b`, `+added ${h} c`);
      for (let k = 0; k < 3; k++) out.push(` after ${h} ${k}`);
    }
  }
  return out.join('\n') + '\n';
}

// ---- parse ----------------------------------------------------------------------------------------------------

console.log(`\n# parse (${ROUNDS} rounds)`);
let jsThrows = 0;
for (const p of blacksmith) {
  try {
    jsParsePatch(p);
  } catch {
    jsThrows++;
  }
}
console.log(`jsdiff parsePatch throws on ${jsThrows} of ${blacksmith.length} Blacksmith patches (miscounted hunks the importer must keep and flag)`);
compare(`parse ${realistic.length} real patches (Blacksmith + gold), hand vs now`, () => realistic.map((p) => hand.parsePatch(p)), () => realistic.map((p) => parsePatch(p)));
compare(`parse ${gold.length} gold patches: jsdiff parsePatch vs now`, () => gold.map((p) => jsParsePatch(p)), () => gold.map((p) => parsePatch(p)));
const big = bigPatch(200, 10);
compare(`parse a 200-file, 2,000-hunk patch (${(big.length / 1e6).toFixed(1)} MB), hand vs now`, () => hand.parsePatch(big), () => parsePatch(big));
compare(`parse the same: jsdiff parsePatch vs now`, () => jsParsePatch(big), () => parsePatch(big));

// ---- apply ----------------------------------------------------------------------------------------------------

console.log(`\n# apply`);
const toJs = (fp: hand.FilePatch): StructuredPatch => ({
  oldFileName: 'a',
  newFileName: 'b',
  oldHeader: undefined,
  newHeader: undefined,
  // jsdiff's convention: an empty old side starts one line later than the header says.
  hunks: fp.hunks.map((h) => ({ oldStart: h.oldLines === 0 ? h.oldStart + 1 : h.oldStart, oldLines: h.oldLines, newStart: h.newStart, newLines: h.newLines, lines: h.lines })),
});
{
  const base = fileLines(400).join('\n') + '\n';
  const edited = fileLines(400).map((l, i) => (i % 40 === 7 ? `${l} # fixed` : l));
  edited.splice(200, 0, 'inserted one', 'inserted two');
  const fp = hand.parsePatch(handDiff.unifiedDiff('f.py', 'f.py', base, edited.join('\n') + '\n')).files[0] as hand.FilePatch;
  const js = toJs(fp);
  compare(`apply 10 hunks to a 400-line file: jsdiff applyPatch vs ours`, () => jsApplyPatch(base, js), () => applyFilePatch(base, fp));
  const moved = 'header\n'.repeat(50) + base;
  compare(`the same 50 lines lower (each hunk searched): jsdiff vs ours`, () => jsApplyPatch(moved, js), () => applyFilePatch(moved, fp));
}
for (const n of BIG ? [2000, 5000, 20000] : [2000, 5000]) {
  const base = fileLines(n).join('\n') + '\n';
  const added = Array.from({ length: n }, (_, i) => `+added ${i}`).join('\n');
  const fp = parsePatch(`--- a/f\n+++ b/f\n@@ -1,1 +1,${n + 1} @@\n${added}\n ${fileLines(n)[n - 1]}\n`).files[0] as hand.FilePatch;
  const js = toJs(fp);
  const tj = once1(`a hunk adding ${n} lines, header at the wrong line: jsdiff applyPatch`, () => jsApplyPatch(base, js));
  const to = once1(`  the same: ours`, () => applyFilePatch(base, fp));
  console.log(`${''.padEnd(64)} jsdiff/ours ${(tj / to).toFixed(0)}`);
}

// ---- diff -----------------------------------------------------------------------------------------------------

console.log(`\n# unified diff`);
function edits(n: number, every: number): [string, string] {
  const a = fileLines(n);
  const b = a.map((l, i) => (i % every === 3 ? `${l} # changed` : l));
  return [a.join('\n') + '\n', b.join('\n') + '\n'];
}
for (const [n, every] of [
  [300, 60],
  [2000, 100],
  [2000, 10],
] as const) {
  const [a, b] = edits(n, every);
  compare(`diff ${n} lines, every ${every}th changed, hand vs jsdiff`, () => handDiff.unifiedDiff('f', 'f', a, b), () => unifiedDiff('f', 'f', a, b));
}
for (const n of [1000, 5000]) {
  const a = fileLines(n).join('\n') + '\n';
  const b = fileLines(n, 'other').join('\n') + '\n';
  // The hand-written diff keeps a copy of its frontier per edit: (2n edits + 1) x (4n + 3) Int32 entries.
  const mb = ((2 * n + 1) * (4 * n + 3) * 4) / 1e6;
  const to = once1(`diff two unrelated ${n}-line files: hand (holds ${ms(mb)} MB of frontier)`, () => handDiff.unifiedDiff('f', 'f', a, b));
  const tn = once1(`  the same: jsdiff, capped at 1,000 edits, then one whole-file hunk`, () => unifiedDiff('f', 'f', a, b));
  console.log(`${''.padEnd(64)} hand/new ${(to / tn).toFixed(2)}`);
}
{
  const n = 20_000;
  const a = fileLines(n).join('\n') + '\n';
  const b = fileLines(n, 'other').join('\n') + '\n';
  console.log(`diff two unrelated 20,000-line files: hand needs ${ms(((2 * n + 1) * (4 * n + 3) * 4) / 1e9)} GB (not run)`);
  once1(`  the same: jsdiff, capped`, () => unifiedDiff('f', 'f', a, b));
}

// ---- the lock -------------------------------------------------------------------------------------------------

/** The wait of 6dfa8e8 (`tryLockWithin`): spin on the lock file with Atomics.wait, then append. */
async function blockingAppend(log: ReviewLog, drafts: Parameters<ReviewLog['append']>[0]): Promise<void> {
  const deadline = Date.now() + 10_000;
  let wait = 1;
  while (fs.existsSync(log.lockFile)) {
    if (Date.now() > deadline) throw new Error('locked');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait);
    wait = Math.min(wait * 2, 8);
  }
  await log.append(drafts);
}

/** Another process that holds `lockFile` for HOLD_MS, then lets it go; resolves once it holds it. */
async function holdLock(lockFile: string): Promise<{ exited: Promise<unknown> }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const fs = require('node:fs'), os = require('node:os'); const f = process.argv[1];
       const fd = fs.openSync(f, 'wx'); fs.writeSync(fd, JSON.stringify({ pid: process.pid, host: os.hostname(), token: 'bench', time: Date.now() })); fs.closeSync(fd);
       process.stdout.write('locked\\n'); setTimeout(() => { fs.unlinkSync(f); process.exit(0); }, Number(process.argv[2]));`,
      lockFile,
      String(HOLD_MS),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = once(child, 'exit');
  await once(child.stdout, 'data');
  return { exited };
}

/** The longest stretch without a turn of the event loop while `append` runs: the largest gap between 1 ms timers. */
async function longestBlock(append: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  let running = true;
  const tick = () => {
    const t = performance.now();
    longest = Math.max(longest, t - last);
    last = t;
    if (running) timer = setTimeout(tick, 1);
  };
  let timer = setTimeout(tick, 1);
  await append();
  running = false;
  clearTimeout(timer);
  return Math.max(longest, performance.now() - last);
}

async function lockBench(): Promise<void> {
  console.log(`\n# the review log's lock: another process holds it for ${HOLD_MS} ms (${ROUNDS} rounds)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-lockbench-'));
  try {
    const log = ReviewLog.forDataset(dir);
    const draft = { kind: 'label', task: 't1', revision: 1, curator: 'bench', payload: { attempt: 'a1', spec: 'S1', verdict: 'satisfied', evidence: [] } } as Parameters<ReviewLog['append']>[0][number];
    await log.append([draft]);
    const old: number[] = [];
    const now: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      let holder = await holdLock(log.lockFile);
      old.push(await longestBlock(() => blockingAppend(log, [draft])));
      await holder.exited;
      holder = await holdLock(log.lockFile);
      now.push(await longestBlock(() => log.append([draft])));
      await holder.exited;
    }
    const idle: number[] = [];
    const free: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      idle.push(await longestBlock(() => new Promise((res) => setTimeout(res, HOLD_MS))));
      free.push(await longestBlock(() => log.append([draft])));
    }
    console.log(`floor: longest gap between 1 ms timers over ${HOLD_MS} ms of idle waiting ${ms(median(idle))} ms; an uncontended append (write + fsync under the lock) ${ms(median(free))} ms`);
    console.log(`longest event-loop block during a contended append: Atomics.wait ${ms(median(old))} ms, ReviewLog.append ${ms(median(now))} ms (median of ${ROUNDS}; max ${ms(Math.max(...old))} / ${ms(Math.max(...now))})`);
    console.log(`${''.padEnd(64)} old/new ${median(old.map((o, i) => o / (now[i] as number))).toFixed(0)}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void lockBench();
