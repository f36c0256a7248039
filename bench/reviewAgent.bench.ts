// The review agent's orchestration against a local chat-completions server that answers at once (the scripted server
// of the tests): N tasks of one attempt each, one call per pair, the reply checked, crossed, journaled and recorded
// in the review log. Side by side in one run: the same number of bare client.chat calls to the same server (the floor
// every pair pays anyway), so the difference per pair is the agent's own overhead (goal < 5 ms); and the resident
// set size sampled through the batch (goal < 300 MB for 1,000 tasks).
//
//   node --import tsx bench/reviewAgent.bench.ts [--tasks 1000] [--concurrency 4]
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

function dataset(): { root: string; ids: string[] } {
  const src = path.resolve(__dirname, '../test/fixtures/review/ds');
  const root = fs.mkdtempSync(path.join(tmpdir(), 'sw-review-bench-'));
  fs.copyFileSync(path.join(src, 'specweave.json'), path.join(root, 'specweave.json'));
  const ids = Array.from({ length: TASKS }, (_, i) => `t${String(i + 1).padStart(5, '0')}`);
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
  const { root, ids } = dataset();
  const answer = () => ({ kind: 'answer' as const, content: replyFor, usage: { prompt_tokens: 1000, completion_tokens: 100 } });

  // The floor: bare calls with a prompt of the same size, same concurrency.
  const prompt = [{ role: 'system' as const, content: 'x'.repeat(2000) }, { role: 'user' as const, content: `# Task t (revision 1), attempt a1\n${'y'.repeat(4000)}` }];
  fake.push(...Array.from({ length: TASKS }, answer));
  const c = client();
  let next = 0;
  const f0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next++ < TASKS) await c.chat({ messages: prompt, schema: { name: 'x', schema: { type: 'object' } }, maxReplyTokens: 8000 });
  }));
  const floorMs = performance.now() - f0;

  // The agent twice, on two copies of the dataset: a log transaction per pair (as before the group commit) and the
  // group commit (the events of the pairs that finished together in one transaction).
  const second = dataset();
  let rss = process.memoryUsage().rss;
  const timer = setInterval(() => (rss = Math.max(rss, process.memoryUsage().rss)), 20);
  const batch = async (dsRoot: string, maxEventsPerWrite: number) => {
    fake.clear();
    fake.push(...Array.from({ length: TASKS }, answer));
    const t0 = performance.now();
    const r = await reviewAttempts({ store: CurationStore.open(dsRoot), curator: 'bench', settings, apiKey: KEY, client: client(), tasks: ids, concurrency: CONCURRENCY, maxEventsPerWrite, onProgress: () => (rss = Math.max(rss, process.memoryUsage().rss)) });
    const ms = performance.now() - t0;
    const reviewed = r.outcomes.filter((o) => o.status === 'reviewed').length;
    if (reviewed !== TASKS) throw new Error(`only ${reviewed} of ${TASKS} pairs reviewed: ${JSON.stringify(r.outcomes.find((o) => o.status !== 'reviewed'))}`);
    return { ms, writes: r.logWrites };
  };
  const one = await batch(root, 1);
  const grouped = await batch(second.root, 64);
  clearInterval(timer);
  await fake.stop();
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(second.root, { recursive: true, force: true });

  const per = (ms: number) => `${(ms / TASKS).toFixed(2)} ms`;
  const over = (ms: number) => (ms - floorMs) / TASKS;
  console.log(`review agent: ${TASKS} tasks x 1 attempt x 2 specs, concurrency ${CONCURRENCY}, a local server answering at once`);
  console.log(`machine: ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`  bare client.chat (floor)     ${per(floorMs).padStart(10)} per call  (${(floorMs / 1000).toFixed(1)} s in all)`);
  for (const [label, r] of [['a transaction per pair', one], ['group commit', grouped]] as const) {
    console.log(`  reviewAttempts, ${label.padEnd(22)} ${per(r.ms).padStart(10)} per pair  (${(r.ms / 1000).toFixed(1)} s; ratio to floor ${(r.ms / floorMs).toFixed(2)}; ${r.writes} log writes)`);
    console.log(`    agent overhead             ${over(r.ms).toFixed(2).padStart(7)} ms per pair  (read, prompt, check, journal, log append; goal < 5 ms)`);
  }
  console.log(`  overhead ratio, group commit / a transaction per pair: ${(over(grouped.ms) / over(one.ms)).toFixed(2)}`);
  console.log(`  peak RSS                     ${(rss / 1048576).toFixed(0).padStart(7)} MB      (goal < 300 MB)`);
}

void main();
