// The review agent's orchestration against a local chat-completions server that answers at once (the scripted server
// of the tests): N tasks of one attempt each, one call per pair, the reply checked, crossed, journaled and recorded
// in the review log. Side by side in one run: the same number of bare client.chat calls to the same server (the floor
// every pair pays anyway), so the difference per pair is the agent's own overhead (goal < 5 ms); the agent with the
// group commit three ways: as in round 7 (the log's fsync synchronous, every journal write checking its folders from
// the dataset root), with the asynchronous fsync alone, and as now (the asynchronous fsync and the journal's folder
// kept open); wall time and CPU time (process.cpuUsage: the whole process, the server and libuv's threads included,
// so the floor's share cancels out as the wall time's does); and the resident set size sampled through the batch
// (goal < 300 MB for 1,000 tasks).
//
//   node --import tsx bench/reviewAgent.bench.ts [--tasks 1000] [--concurrency 4]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cpus, loadavg, tmpdir } from 'node:os';
import { CurationStore } from '../src/app/curationStore';
import { reviewAttempts } from '../src/app/reviewAgent';
import { EndpointMemory, LlmClient } from '../src/adapters/llm/client';
import { Redactor } from '../src/adapters/llm/redact';
import { FakeOpenAI } from '../test/integration/repair/fakeOpenAI';

const args = process.argv.slice(2);
const arg = (name: string, d: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const TASKS = arg('--tasks', 1000);
const CONCURRENCY = arg('--concurrency', 4);
const KEY = 'sk-bench-000000000000000000000000';

interface Mode {
  label: string;
  fsync: 'sync' | 'async';
  keepJournalFolder: boolean;
}
const MODES: Mode[] = [
  { label: 'round 7: fsync sync, journal checked', fsync: 'sync', keepJournalFolder: false },
  { label: 'fsync async, journal checked', fsync: 'async', keepJournalFolder: false },
  { label: 'now: fsync async, journal folder kept', fsync: 'async', keepJournalFolder: true },
];
const cpuMsSince = (c0: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};

function dataset(n: number): { root: string; ids: string[] } {
  const src = path.resolve(__dirname, '../test/fixtures/review/ds');
  const root = fs.mkdtempSync(path.join(tmpdir(), 'sw-review-bench-'));
  fs.copyFileSync(path.join(src, 'specweave.json'), path.join(root, 'specweave.json'));
  const ids = Array.from({ length: n }, (_, i) => `t${String(i + 1).padStart(5, '0')}`);
  for (const id of ids) {
    fs.cpSync(path.join(src, 'tasks', 't1'), path.join(root, 'tasks', id), { recursive: true });
    fs.rmSync(path.join(root, 'tasks', id, 'attempts', 'a2'), { recursive: true });
    const f = path.join(root, 'tasks', id, 'task.json');
    fs.writeFileSync(f, JSON.stringify({ ...JSON.parse(fs.readFileSync(f, 'utf8')), id }, null, 2));
  }
  return { root, ids };
}

const replyFor = (body: Record<string, unknown>) => {
  const attempt = /attempt (\S+)/.exec(String((body.messages as Array<{ content: string }>)[1]?.content))?.[1] ?? '?';
  const f = (spec: string, test: string) => ({ attempt, spec, judgment: 'satisfied', confidence: 0.7, rationale: 'ok', citations: [{ kind: 'test', step: null, file: null, hunk: null, test, line: null, sentence: null, quote: null }] });
  return JSON.stringify({ refusal: null, findings: [f('S1', 'T1'), f('S2', 'T2')] });
};

async function main(): Promise<void> {
  const fake = new FakeOpenAI();
  const baseUrl = await fake.start();
  const settings = { baseUrl, model: 'gpt-4o-mini', temperature: 0, maxTokens: 32000, timeoutSec: 30 };
  const client = () => new LlmClient({ settings, apiKey: KEY, redactor: new Redactor([KEY]), memory: new EndpointMemory() });
  const answer = () => ({ kind: 'answer' as const, content: replyFor, usage: { prompt_tokens: 1000, completion_tokens: 100 } });
  // Every dataset is written (and flushed to disk) before anything is timed: otherwise the first batch's fsyncs pay
  // for the writeback of thousands of freshly copied files. The agent's batches then run in the order ABCCBA, half
  // the tasks each, so a warmer process or a quieter minute favours none of the three.
  const half = Math.max(1, Math.floor(TASKS / 2));
  const sets = Array.from({ length: 6 }, () => dataset(half));
  const warm = dataset(Math.min(50, TASKS));
  execFileSync('sync');

  // The floor: bare calls with a prompt of the same size, same concurrency.
  const prompt = [{ role: 'system' as const, content: 'x'.repeat(2000) }, { role: 'user' as const, content: `# Task t (revision 1), attempt a1\n${'y'.repeat(4000)}` }];
  const floor = async (n: number) => {
    fake.clear();
    fake.push(...Array.from({ length: n }, answer));
    const c = client();
    let next = 0;
    const cpu0 = process.cpuUsage();
    const f0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next++ < n) await c.chat({ messages: prompt, schema: { name: 'x', schema: { type: 'object' } }, maxReplyTokens: 8000 });
      }),
    );
    const ms = performance.now() - f0;
    return { ms, cpuMs: cpuMsSince(cpu0) };
  };

  let rss = process.memoryUsage().rss;
  const timer = setInterval(() => (rss = Math.max(rss, process.memoryUsage().rss)), 20);
  const batch = async (ds: { root: string; ids: string[] }, mode: Mode) => {
    fake.clear();
    fake.push(...Array.from({ length: ds.ids.length }, answer));
    const store = CurationStore.open(ds.root, { log: { fsync: mode.fsync } });
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await reviewAttempts({ store, curator: 'bench', settings, apiKey: KEY, client: client(), tasks: ds.ids, concurrency: CONCURRENCY, keepJournalFolder: mode.keepJournalFolder, onProgress: () => (rss = Math.max(rss, process.memoryUsage().rss)) });
    const ms = performance.now() - t0;
    const cpuMs = cpuMsSince(cpu0);
    const reviewed = r.outcomes.filter((o) => o.status === 'reviewed').length;
    if (reviewed !== ds.ids.length) throw new Error(`only ${reviewed} of ${ds.ids.length} pairs reviewed: ${JSON.stringify(r.outcomes.find((o) => o.status !== 'reviewed'))}`);
    return { ms, cpuMs, writes: r.logWrites };
  };
  await batch(warm, MODES[2] as Mode);
  await floor(Math.min(50, TASKS));
  const floorA = await floor(half);
  const order = [0, 1, 2, 2, 1, 0];
  const runs: Array<Awaited<ReturnType<typeof batch>>> = [];
  for (let i = 0; i < order.length; i++) runs.push(await batch(sets[i] as (typeof sets)[0], MODES[order[i] as number] as Mode));
  const floorB = await floor(half);
  clearInterval(timer);
  await fake.stop();
  for (const d of [...sets, warm]) fs.rmSync(d.root, { recursive: true, force: true });

  const n = 2 * half;
  const floorMs = floorA.ms + floorB.ms;
  const floorCpu = floorA.cpuMs + floorB.cpuMs;
  const per = (ms: number) => `${(ms / n).toFixed(2)} ms`;
  const over = (ms: number) => (ms - floorMs) / n;
  const overCpu = (ms: number) => (ms - floorCpu) / n;
  console.log(`review agent: ${n} tasks x 1 attempt x 2 specs per mode (two halves, ABCCBA), concurrency ${CONCURRENCY}, a local server answering at once`);
  console.log(`machine: ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`  bare client.chat (floor)     ${per(floorMs).padStart(10)} per call  (${(floorMs / 1000).toFixed(1)} s in all; halves ${(floorA.ms / half).toFixed(2)}, ${(floorB.ms / half).toFixed(2)} ms; CPU ${per(floorCpu)})`);
  const totals = MODES.map((m, k) => {
    const h = runs.filter((_, i) => order[i] === k);
    const r = { ms: h.reduce((a, x) => a + x.ms, 0), cpuMs: h.reduce((a, x) => a + x.cpuMs, 0), writes: h.reduce((a, x) => a + x.writes, 0) };
    console.log(`  ${m.label.padEnd(44)} ${per(r.ms).padStart(10)} per pair  (${(r.ms / 1000).toFixed(1)} s; ratio to floor ${(r.ms / floorMs).toFixed(2)}; ${r.writes} log writes, ${(n / r.writes).toFixed(2)} pairs a write; halves ${h.map((x) => (x.ms / half).toFixed(2)).join(', ')} ms; CPU ${per(r.cpuMs)})`);
    console.log(`    agent overhead, wall ${over(r.ms).toFixed(2).padStart(7)} ms per pair, CPU ${overCpu(r.cpuMs).toFixed(2).padStart(6)} ms per pair  (read, prompt, check, journal, log append; goal < 5 ms)`);
    return r;
  });
  const [r7, , r8] = totals as [(typeof totals)[0], (typeof totals)[0], (typeof totals)[0]];
  console.log(`  overhead ratio, now / round 7: wall ${(over(r8.ms) / over(r7.ms)).toFixed(2)}, CPU ${(overCpu(r8.cpuMs) / overCpu(r7.cpuMs)).toFixed(2)}`);
  console.log(`  peak RSS                     ${(rss / 1048576).toFixed(0).padStart(7)} MB      (goal < 300 MB)`);
}

void main();
