// Normalizing a large SWE-agent trajectory: time and peak memory against the file size, side by side with the
// floor (reading the file and JSON.parse of it whole). Each measurement runs in its own child process so its peak
// RSS is its own.
//
//   node --import tsx bench/trajectory.bench.ts [--mb 100] [--runs 3] [--only query|texts] [--keep]
//
// The file is generated in a temp dir (never committed) in the SWE-agent 1.x function-calling shape, written the
// way SWE-agent writes it (json.dumps indent=2), with every `trajectory` step carrying its `query` (the whole
// conversation so far), which is what makes real files large.

import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { once } from 'node:events';

interface Measure {
  ms: number;
  peakMb: number;
  steps?: number;
}

const args = process.argv.slice(2);
const child = args[0] === '--child' ? args[1] : undefined;

function arg(name: string, dflt: number): number {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
}

/** A deterministic pseudo-random sequence (no Math.random: results must be reproducible). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = 'the file function return value test error line self import class def module path pytest assert None True False Context engine render template autoescape'.split(' ');

function text(rand: () => number, chars: number): string {
  const parts: string[] = [];
  let n = 0;
  while (n < chars) {
    const r = rand();
    const w = r < 0.04 ? '\n' : r < 0.06 ? '"quoted"' : r < 0.07 ? 'tab\there' : r < 0.075 ? 'naïve—ünïcode' : r < 0.08 ? 'C:\\path\\x' : WORDS[Math.floor(r * 1000) % WORDS.length]!;
    parts.push(w);
    n += w.length + 1;
  }
  return parts.join(' ');
}

/** Size grows with the square of the step count (each query repeats the conversation): aim, measure, correct. */
async function generate(file: string, targetBytes: number, withQuery: boolean): Promise<{ steps: number; bytes: number }> {
  const obsChars = withQuery ? 3000 : 60000;
  const grow = (steps: number, ratio: number): number => Math.max(10, Math.round(withQuery ? steps * Math.sqrt(ratio) : steps * ratio));
  let steps = withQuery ? Math.max(10, Math.round(Math.sqrt(targetBytes / 4000))) : Math.max(10, Math.round(targetBytes / (obsChars * 2)));
  let got = await generateSteps(file, steps, obsChars, withQuery);
  for (let k = 0; k < 3 && Math.abs(got.bytes - targetBytes) > targetBytes * 0.03; k++) {
    steps = grow(steps, targetBytes / got.bytes);
    got = await generateSteps(file, steps, obsChars, withQuery);
  }
  return got;
}

async function generateSteps(file: string, steps: number, obsChars: number, withQuery: boolean): Promise<{ steps: number; bytes: number }> {
  const rand = lcg(42);
  const out = createWriteStream(file);
  let bytes = 0;
  const write = async (s: string): Promise<void> => {
    bytes += Buffer.byteLength(s);
    if (!out.write(s)) await once(out, 'drain');
  };
  const pretty = (v: unknown, indent: number): string => JSON.stringify(v, null, 2).replace(/\n/g, '\n' + ' '.repeat(indent));
  const history: Array<Record<string, unknown>> = [
    { role: 'system', content: text(rand, 4000), agent: 'main', message_type: 'system_prompt' },
    { role: 'user', content: text(rand, 2000), agent: 'main', message_type: 'observation' },
  ];
  const turns: Array<{ thought: string; action: string; observation: string; id: string; args: string; name: string }> = [];
  for (let i = 0; i < steps; i++) {
    const edit = i % 7 === 3;
    const name = edit ? 'str_replace_editor' : 'bash';
    const argsObj = edit
      ? { command: 'str_replace', path: `/repo/src/module_${i % 13}.py`, old_str: text(rand, 200), new_str: text(rand, 220) }
      : { command: `grep -rn "${WORDS[i % WORDS.length]}" src/ | head -50` };
    turns.push({
      thought: text(rand, 500),
      action: edit ? `str_replace_editor str_replace /repo/src/module_${i % 13}.py` : String(argsObj.command),
      observation: text(rand, Math.floor(obsChars * (0.3 + rand() * 1.4))),
      id: `call_${i.toString(36)}_${Math.floor(rand() * 1e9).toString(36)}`,
      args: JSON.stringify(argsObj),
      name,
    });
  }
  const assistant = (t: (typeof turns)[number]): Record<string, unknown> => ({
    role: 'assistant',
    content: t.thought,
    thought: t.thought,
    action: t.action,
    agent: 'main',
    tool_calls: [{ function: { arguments: t.args, name: t.name }, id: t.id, type: 'function' }],
    message_type: 'action',
  });
  const tool = (t: (typeof turns)[number]): Record<string, unknown> => ({
    role: 'tool',
    content: t.observation + '\n(Open file: n/a)\n(Current directory: /repo)\nbash-$',
    agent: 'main',
    message_type: 'observation',
    tool_call_ids: [t.id],
  });
  await write('{\n  "environment": "main",\n  "trajectory": [');
  const conversation = history.slice();
  for (let i = 0; i < steps; i++) {
    const t = turns[i]!;
    const step = {
      action: t.action,
      observation: t.observation,
      response: t.thought,
      thought: t.thought,
      execution_time: 0.1 + rand(),
      state: { open_file: 'n/a', working_dir: '/repo' },
      ...(withQuery ? { query: conversation } : {}),
      extra_info: {},
    };
    await write((i === 0 ? '\n    ' : ',\n    ') + pretty(step, 4));
    if (withQuery) conversation.push(assistant(t), tool(t));
  }
  await write('\n  ],\n  "history": [');
  const fullHistory = [...history, ...turns.flatMap((t) => [assistant(t), tool(t)])];
  for (let i = 0; i < fullHistory.length; i++) await write((i === 0 ? '\n    ' : ',\n    ') + pretty(fullHistory[i], 4));
  const info = {
    swe_agent_version: '1.0.1',
    exit_status: 'submitted',
    submission: 'diff --git a/src/module_3.py b/src/module_3.py\n--- a/src/module_3.py\n+++ b/src/module_3.py\n@@ -1 +1 @@\n-a\n+b\n',
    model_stats: { instance_cost: 1.2345, tokens_sent: 1234567, tokens_received: 23456, api_calls: steps },
  };
  await write('\n  ],\n  "info": ' + pretty(info, 2));
  await write(',\n  "replay_config": ' + JSON.stringify(JSON.stringify({ problem_statement: { id: 'bench__repo-1' }, agent: { model: { name: 'bench-model' } } })) + '\n}');
  out.end();
  await once(out, 'finish');
  return { steps, bytes };
}

async function runChild(mode: string, file: string): Promise<void> {
  const t0 = performance.now();
  let steps: number | undefined;
  if (mode === 'normalize') {
    const { readTrajectory } = await import('../src/adapters/fs/trajectoryReader');
    const r = await readTrajectory(file);
    if (!r.ok) throw new Error(r.problem.message);
    steps = r.trajectory.steps.length;
  } else if (mode === 'summarize') {
    const { summarizeTrajectory } = await import('../src/adapters/fs/trajectoryReader');
    const r = await summarizeTrajectory(file);
    if (!r.ok) throw new Error(r.problem.message);
    steps = r.summary.steps;
  } else if (mode === 'read' || mode === 'scan') {
    // The I/O floor (chunks read, nothing done), and the scanner alone walking every byte (every value skipped).
    const { createReadStream } = await import('node:fs');
    const { JsonScanner } = await import('../src/core/trajectory/jsonScanner');
    const scanner = new JsonScanner({ policy: () => 'skip', value: () => undefined, error: (e) => {
      throw new Error(e.message);
    } });
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) if (mode === 'scan') scanner.push(chunk as Buffer);
    scanner.end();
  } else if (mode === 'jsonparse') {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { trajectory: unknown[]; history: unknown[] };
    steps = data.history.length;
  } else if (mode !== 'idle') {
    throw new Error(`unknown mode ${mode}`);
  }
  const ms = performance.now() - t0;
  const m: Measure = { ms, peakMb: process.resourceUsage().maxRSS / 1024 };
  if (steps !== undefined) m.steps = steps;
  process.stdout.write(JSON.stringify(m));
}

function measure(mode: string, file: string): Measure {
  const out = execFileSync(process.execPath, ['--import', 'tsx', __filename, '--child', mode, file], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out) as Measure;
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function scenario(dir: string, title: string, mib: number, runs: number, withQuery: boolean): Promise<void> {
  const file = path.join(dir, withQuery ? 'query.traj' : 'history.traj');
  const g0 = performance.now();
  const gen = await generate(file, mib * 1024 * 1024, withQuery);
  const sizeMb = statSync(file).size / 1024 / 1024;
  console.log(`\n### ${title}`);
  console.log(`generated ${sizeMb.toFixed(1)} MiB, ${gen.steps} agent steps, in ${((performance.now() - g0) / 1000).toFixed(1)} s; median of ${runs} run(s), each in a fresh child process (node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)})\n`);
  const results: Record<string, Measure[]> = { idle: [], read: [], scan: [], normalize: [], summarize: [], jsonparse: [] };
  for (let r = 0; r < runs; r++) for (const mode of Object.keys(results)) results[mode]!.push(measure(mode, file));
  const row = (mode: string): { ms: number; peak: number; steps: number | undefined } => ({
    ms: median(results[mode]!.map((m) => m.ms)),
    peak: median(results[mode]!.map((m) => m.peakMb)),
    steps: results[mode]![0]!.steps,
  });
  const idle = row('idle');
  const floor = row('jsonparse');
  console.log('| what | time | peak RSS | peak / file size | time / floor |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const [mode, label] of [
    ['normalize', 'readTrajectory (streamed, keeps step texts)'],
    ['summarize', 'summarizeTrajectory (streamed, no texts)'],
    ['jsonparse', 'floor: readFileSync + JSON.parse'],
    ['read', 'reading the file in 1 MiB chunks only'],
    ['scan', 'the scanner alone, every value skipped'],
    ['idle', 'node + tsx, no work'],
  ] as const) {
    const m = row(mode);
    const timeCell = mode === 'idle' ? '–' : `${(m.ms / 1000).toFixed(2)} s`;
    const ratio = mode === 'idle' ? '–' : `${(m.ms / floor.ms).toFixed(2)}x`;
    console.log(`| ${label} | ${timeCell} | ${m.peak.toFixed(0)} MiB | ${(m.peak / sizeMb).toFixed(2)}x | ${ratio} |`);
  }
  const norm = row('normalize');
  console.log(`\nthroughput: ${(sizeMb / (norm.ms / 1000)).toFixed(0)} MiB/s normalizing, ${(sizeMb / (floor.ms / 1000)).toFixed(0)} MiB/s JSON.parse`);
  console.log(`peak above the idle process: normalize ${(norm.peak - idle.peak).toFixed(0)} MiB, JSON.parse ${(floor.peak - idle.peak).toFixed(0)} MiB`);
  console.log(`goal peak < 3x file size: ${norm.peak < 3 * sizeMb ? 'met' : 'NOT met'} (${(norm.peak / sizeMb).toFixed(2)}x); steps normalized: ${norm.steps}`);
  if (args.includes('--keep')) console.log(`kept ${file}`);
  else rmSync(file, { force: true });
}

async function main(): Promise<void> {
  const mib = arg('--mb', 100);
  const runs = arg('--runs', 3);
  const dir = mkdtempSync(path.join(tmpdir(), 'specweave-traj-bench-'));
  try {
    const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
    if (only === undefined || only === 'query') {
      await scenario(dir, `SWE-agent 1.x function calling, ${mib} MiB, every step with its query (the usual shape)`, mib, runs, true);
    }
    if (only === undefined || only === 'texts') {
      await scenario(dir, `SWE-agent 1.x function calling, ${mib} MiB, no query: all bytes are step texts that must be kept`, mib, runs, false);
    }
  } finally {
    if (!args.includes('--keep')) rmSync(dir, { recursive: true, force: true });
  }
}

if (child !== undefined) {
  runChild(child, args[2]!).catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
} else {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
