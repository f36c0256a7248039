// Curation: replaying a 100,000-event review log (beside its floor, reading the file and JSON.parse of every line),
// acknowledging one label (append + fsync, beside a bare write + fsync of the same bytes), and statistics over
// 15,000 reviewed tasks.
//
//   node --import tsx bench/curation.bench.ts [--events 100000] [--appends 200] [--tasks 15000] [--runs 5]
//
// Everything is generated in a temp dir with a fixed seed (no Math.random) and removed afterwards.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CurationStore } from '../src/app/curationStore';
import { ReviewLog } from '../src/adapters/fs/reviewLog';
import type { CandidateTask } from '../src/core/model';
import { encodeEventId, isoTime } from '../src/core/review/eventId';
import type { EventDraft, ReviewEvent } from '../src/core/review/events';
import { formatEventLine } from '../src/core/review/events';
import { reduceLog } from '../src/core/review/reducer';
import { curationStats } from '../src/core/review/stats';
import type { VerifierVerdicts } from '../src/core/review/verdicts';

const args = process.argv.slice(2);
const arg = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const EVENTS = arg('--events', 100_000);
const APPENDS = arg('--appends', 200);
const TASKS = arg('--tasks', 15_000);
const RUNS = arg('--runs', 5);

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const rand = lcg(42);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
const randomBytes10 = () => Uint8Array.from({ length: 10 }, () => Math.floor(rand() * 256));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? (s[(s.length - 1) / 2] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] as number;
/** CPU time of this process over the same span (with GC helper threads): a view of the cost that load on the
 * machine from other work does not inflate as much as the wall clock. */
let lastCpuMs = 0;
const time = (f: () => void) => {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  f();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  lastCpuMs = (c.user + c.system) / 1000;
  return ms;
};

const CURATORS = ['alice', 'bob', 'carol'];
const NOTES = ['the test only checks the type', 'prints "Hello" without the comma', 'raises TypeError instead of ValueError', 'fine', ''];

/** A realistic mix: mostly labels (some with notes and evidence), then scores, submits, transitions, decisions. */
function makeEvents(n: number, tasks: number): ReviewEvent[] {
  const out: ReviewEvent[] = [];
  let ms = Date.UTC(2026, 0, 1);
  for (let i = 0; i < n; i++) {
    ms += 1 + Math.floor(rand() * 3000);
    const task = `task-${String(Math.floor(rand() * tasks)).padStart(5, '0')}`;
    const r = rand();
    let kind: EventDraft['kind'];
    let payload: EventDraft['payload'];
    if (r < 0.85) {
      const note = pick(NOTES);
      kind = 'label';
      payload = {
        attempt: `attempt-${Math.floor(rand() * 5)}`,
        spec: `S${1 + Math.floor(rand() * 10)}`,
        verdict: pick(['satisfied', 'violated', 'unsure'] as const),
        evidence: rand() < 0.3 ? [{ kind: 'trajectory_step', attempt: 'attempt-1', step: Math.floor(rand() * 80) }, { kind: 'test', test: 'T1' }] : [],
        ...(note ? { note } : {}),
      };
    } else if (r < 0.93) {
      kind = 'score';
      payload = { underspecified: Math.floor(rand() * 4), fnSeverity: Math.floor(rand() * 4), fpSeverity: Math.floor(rand() * 4), envDefects: rand() < 0.1 ? ['flaky'] : [], difficulty: pick(['<15m', '15m-1h', '1-4h', '>4h'] as const) };
    } else if (r < 0.97) {
      kind = 'submit';
      payload = {};
    } else {
      kind = 'status';
      payload = { from: 'in_review', to: pick(['flagged', 'needs_repair'] as const) };
    }
    out.push({ id: encodeEventId(ms, randomBytes10()), time: isoTime(ms), curator: pick(CURATORS), task, revision: 1, kind, payload } as ReviewEvent);
  }
  return out;
}

function synthTask(id: string, attempts: number, specs: number): CandidateTask {
  const cats = ['data-transformation', 'parsing-representation', 'error-handling', 'interface-io-contracts', 'compatibility'];
  return {
    id,
    title: id,
    revision: 1,
    repo: { name: 'x/y', kind: 'image' },
    environment: { image: 'i', workdir: '/repo', limits: { memoryMb: 1, cpus: 1, pids: 1 }, timeoutSec: 1 },
    specs: Array.from({ length: specs }, (_, i) => ({ id: `S${i + 1}`, text: '', category: cats[i % cats.length] as string, dependsOn: [] })),
    tests: Array.from({ length: specs }, (_, i) => ({ id: `T${i + 1}`, name: `tests/t.py::t${i + 1}`, kind: 'fail_to_pass' as const, specs: [`S${i + 1}`] })),
    verifier: { command: 'true', parser: 'pytest' },
    notes: [],
    dir: `tasks/${id}`,
    files: { task: '', request: '', testPatch: '', goldPatch: 'g' },
    attempts: Array.from({ length: attempts }, (_, i) => ({ id: `attempt-${i}`, model: pick(['gpt-5', 'claude-4', 'gemini-3', 'qwen-3']), agent: '', dir: '', recordedResults: [] })),
  };
}

function benchReplay(dir: string): Record<string, number | string> {
  const file = path.join(dir, 'replay', 'curation', 'events.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const events = makeEvents(EVENTS, Math.ceil(EVENTS / 20));
  fs.writeFileSync(file, events.map((e) => formatEventLine(e) + '\n').join(''));
  const bytes = fs.statSync(file).size;
  const floor: number[] = [];
  const load: number[] = [];
  const reduce: number[] = [];
  const total: number[] = [];
  const cpu: number[] = [];
  const floorCpu: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    // Side by side in each round: the floor first, then the replay.
    floor.push(
      time(() => {
        const lines = fs.readFileSync(file, 'utf8').split('\n');
        let n = 0;
        for (const l of lines) if (l) n += (JSON.parse(l) as { kind: string }).kind.length;
        if (n === 0) throw new Error('nothing parsed');
      }),
    );
    floorCpu.push(lastCpuMs);
    let loaded: ReviewEvent[] = [];
    const l = time(() => (loaded = new ReviewLog(file).load().events));
    const lc = lastCpuMs;
    let tasks = 0;
    const d = time(() => (tasks = reduceLog(loaded).tasks.size));
    cpu.push(lc + lastCpuMs);
    if (loaded.length !== EVENTS || tasks === 0) throw new Error(`replayed ${loaded.length} events`);
    load.push(l);
    reduce.push(d);
    total.push(l + d);
  }
  return {
    events: EVENTS,
    mb: (bytes / 1e6).toFixed(1),
    replayMedianMs: median(total),
    replayFirstMs: total[0] as number,
    loadMs: median(load),
    reduceMs: median(reduce),
    floorMs: median(floor),
    ratio: (median(total) / median(floor)).toFixed(2),
    replayCpuMs: median(cpu),
    floorCpuMs: median(floorCpu),
  };
}

async function benchAppend(dir: string): Promise<Record<string, number | string>> {
  // A dataset with one task and a 100,000-event log behind it, so the store's check runs against a full state.
  const root = path.join(dir, 'append');
  fs.mkdirSync(path.join(root, 'tasks', 't1', 'attempts', 'a1'), { recursive: true });
  fs.mkdirSync(path.join(root, 'curation'), { recursive: true });
  fs.writeFileSync(path.join(root, 'specweave.json'), JSON.stringify({ format: 1, name: 'bench', defaults: { image: 'x' } }));
  fs.writeFileSync(
    path.join(root, 'tasks', 't1', 'task.json'),
    JSON.stringify({ id: 't1', title: 't', repo: { name: 'x/y', inImage: true }, verifier: { command: 'true' }, specs: [{ id: 'S1', text: 's', category: 'other' }], tests: [{ id: 'T1', name: 't', kind: 'fail_to_pass', specs: ['S1'] }] }),
  );
  fs.writeFileSync(path.join(root, 'tasks', 't1', 'request.md'), 'r\n');
  fs.writeFileSync(path.join(root, 'tasks', 't1', 'tests.patch'), '');
  fs.writeFileSync(path.join(root, 'tasks', 't1', 'attempts', 'a1', 'attempt.json'), JSON.stringify({ model: 'm' }));
  fs.writeFileSync(path.join(root, 'tasks', 't1', 'attempts', 'a1', 'patch.diff'), '');
  fs.writeFileSync(path.join(root, 'curation', 'events.jsonl'), makeEvents(EVENTS, 5000).map((e) => formatEventLine(e) + '\n').join(''));

  const store = CurationStore.open(root, { runs: false });
  const log = ReviewLog.forDataset(root);
  log.load();
  const raw: number[] = [];
  const act: number[] = [];
  const bare: number[] = [];
  const bareFile = path.join(root, 'bare.jsonl');
  const draft: EventDraft = { kind: 'label', task: 't1', revision: 1, curator: 'alice', payload: { attempt: 'a1', spec: 'S1', verdict: 'violated', note: 'prints Hello without the comma', evidence: [{ kind: 'test', test: 'T1' }] } };
  const line = Buffer.from(formatEventLine({ ...draft, id: '01JABCDEFGHJKMNPQRSTVWXYZ0', time: '2026-01-01T00:00:00.000Z' } as ReviewEvent) + '\n');
  for (let i = 0; i < APPENDS; i++) {
    // Floor: one write + fsync of the same bytes, O_APPEND, no lock, no checks.
    let t0 = performance.now();
    const fd = fs.openSync(bareFile, 'a');
    fs.writeSync(fd, line);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    bare.push(performance.now() - t0);
    t0 = performance.now();
    await log.append([draft]);
    raw.push(performance.now() - t0);
    t0 = performance.now();
    const r = await store.act('t1', 'bob', { kind: 'label', attempt: 'a1', spec: 'S1', verdict: i % 2 ? 'satisfied' : 'violated', evidence: [] });
    act.push(performance.now() - t0);
    if (!r.ok) throw new Error(r.refusal.message);
  }
  return {
    appends: APPENDS,
    logEvents: EVENTS,
    bareWriteFsyncMedianMs: median(bare),
    logAppendMedianMs: median(raw),
    logAppendP95Ms: pct(raw, 0.95),
    storeActMedianMs: median(act),
    storeActP95Ms: pct(act, 0.95),
    ratioLogToBare: (median(raw) / median(bare)).toFixed(2),
  };
}

function benchStats(): Record<string, number | string> {
  const tasks: CandidateTask[] = [];
  const verdicts: VerifierVerdicts = {};
  const events: ReviewEvent[] = [];
  let ms = Date.UTC(2026, 0, 1);
  const ev = (task: string, curator: string, kind: EventDraft['kind'], payload: EventDraft['payload']) => {
    ms += 1000;
    events.push({ id: encodeEventId(ms, randomBytes10()), time: isoTime(ms), curator, task, revision: 1, kind, payload } as ReviewEvent);
  };
  for (let i = 0; i < TASKS; i++) {
    const t = synthTask(`task-${String(i).padStart(5, '0')}`, 3, 5);
    tasks.push(t);
    verdicts[t.id] = {
      attempts: Object.fromEntries(t.attempts.map((a) => [a.id, { source: 'run' as const, runId: `r-${a.id}`, status: 'passed', resolved: true, specs: Object.fromEntries(t.specs.map((s) => [s.id, rand() < 0.7 ? 'pass' : 'fail'] as const)), tests: {}, revision: 1 }])),
      flags: [],
    };
    for (const c of ['alice', 'bob']) {
      for (const a of t.attempts) for (const s of t.specs) ev(t.id, c, 'label', { attempt: a.id, spec: s.id, verdict: rand() < 0.75 ? 'satisfied' : 'violated', evidence: [] });
      ev(t.id, c, 'score', { underspecified: Math.floor(rand() * 4), fnSeverity: Math.floor(rand() * 4), fpSeverity: Math.floor(rand() * 4), envDefects: [] });
      ev(t.id, c, 'submit', {});
    }
  }
  const state = reduceLog(events);
  const runs: number[] = [];
  const cpu: number[] = [];
  let reviewed = 0;
  for (let r = 0; r < RUNS; r++) {
    runs.push(time(() => (reviewed = curationStats({ tasks, state, verdicts, policy: 'highest-severity' }).breakdown.reviewed)));
    cpu.push(lastCpuMs);
  }
  if (reviewed !== TASKS) throw new Error(`reviewed ${reviewed}`);
  return { reviewedTasks: reviewed, events: events.length, statsMedianMs: median(runs), statsFirstMs: runs[0] as number, statsCpuMs: median(cpu) };
}

/** Each part runs in a child process of its own, so one part's heap does not slow the next one's collector. */
async function main(): Promise<void> {
  const part = args.includes('--part') ? args[args.indexOf('--part') + 1] : undefined;
  if (part) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-curation-bench-'));
    try {
      const r = part === 'replay' ? benchReplay(dir) : part === 'append' ? await benchAppend(dir) : benchStats();
      process.stdout.write(JSON.stringify(r));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    return;
  }
  const load = os.loadavg()[0]?.toFixed(1);
  process.stdout.write(`node ${process.version}, ${os.cpus().length} cores, load average ${load}\n`);
  for (const p of ['replay', 'append', 'stats']) {
    const out = execFileSync(process.execPath, ['--import', 'tsx', __filename, '--part', p, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
    process.stdout.write(`${p}: ${out}\n`);
  }
}

void main();
