// The solver agent's host overhead (issue 14): fresh trials of the example dataset's format-precision task against
// the real engine, with a scripted model that answers at once (in-process: the model's own time is nil) giving cheap
// commands (echo, cat, sed -n, grep, ls), then the sentinel. Per agent step: the step's time (the model call starts
// -> the trajectory is written after its command), the model call's time and the command's time as runTrial sees it
// (SolverContainer.exec wrapped), the remainder being the host's own work (parsing the reply, the observation, the
// history, the request the LLM client would serialise, the trajectory written twice a step). The request body
// (chatMessages + JSON.stringify, what the LLM client does before it sends) is built by the scripted model and
// counted as overhead, not as model time. Side by side, in alternating rounds: the same commands through bare
// `docker exec` calls of the engine (the floor, no timeout wrapper, no capture), so the overhead is given per step
// and as the ratio of the trial's loop to the floor. Then a long history (--long steps, 10 KB outputs each: the
// trajectory grows to megabytes and is rewritten every step), and --concurrency trials at once beside one alone,
// with the event-loop delay (perf_hooks.monitorEventLoopDelay) and steps/s.
//
//   node --import tsx bench/solver.bench.ts [--commands 40] [--rounds 3] [--long 250] [--concurrency 4]
// Needs the engine and the base image (scripts/setup-docker.sh). Prints a Markdown section for docs/benchmarks.md.
import { AsyncLocalStorage } from 'node:async_hooks';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Engine } from '../src/adapters/docker/engine';
import { SolverContainer } from '../src/adapters/docker/solverContainer';
import { RepoArchiveCache } from '../src/adapters/docker/repoArchive';
import { runUser } from '../src/adapters/docker/runSpec';
import { loadDataset, repoPath } from '../src/adapters/fs/datasetLoader';
import type { TrialModel } from '../src/app/solverTrial';
import { BASH_TOOL, chatMessages, runTrial, TrajectoryFile } from '../src/app/solverTrial';
import type { CandidateTask } from '../src/core/model';
import type { ModelReply } from '../src/core/solver/agent';
import { DEFAULT_LIMITS, SolverRun, SUBMIT_SENTINEL, TrajectoryText, trajectoryDocument } from '../src/core/solver/agent';
import { writeFileAtomicIn } from '../src/adapters/fs/datasetPaths';
import { buildExampleRepo } from '../test/unit/helpers/exampleRuns';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}
const COMMANDS = arg('commands', 40);
const ROUNDS = arg('rounds', 3);
const LONG = arg('long', 250);
const CONCURRENCY = arg('concurrency', 4);
const DELAY_RESOLUTION_MS = 10;
const EXAMPLES = path.resolve(__dirname, '../examples');

/** Cheap commands over the durations repository, cycled to `n`. */
function cheapCommands(n: number): string[] {
  const base = [
    'echo hello',
    'ls -la',
    'cat durations/format.py',
    "sed -n '1,20p' durations/cli.py",
    'grep -n "def " durations/*.py',
    'wc -l durations/*.py tests/*.py',
    'cat README.md',
    "sed -n '5,15p' durations/parse.py",
    'git status --short',
    'cat pyproject.toml',
  ];
  return Array.from({ length: n }, (_, i) => base[i % base.length] as string);
}

/** 10,000 characters of output: kept whole by the agent (its cut starts above head + tail = 10,000). */
const TEN_KB = "printf '%10000s' '' | tr ' ' x";

interface StepTimes {
  /** When the step's model call started, when its command's trajectory write was done (onStep after the exec). */
  start: number;
  end: number;
  modelMs: number;
  execMs: number;
  /** Of the overhead: building the request the LLM client would send (chatMessages + JSON.stringify). */
  requestMs: number;
}

interface TrialRecord {
  steps: StepTimes[];
  cur?: Partial<StepTimes> & { afterExec?: boolean };
}

const als = new AsyncLocalStorage<TrialRecord>();

// The command as runTrial sees it: SolverContainer.exec wrapped for the bench, attributed to its trial.
const innerExec = SolverContainer.prototype.exec;
SolverContainer.prototype.exec = async function exec(this: SolverContainer, command: string, timeoutSec: number) {
  const rec = als.getStore();
  const t0 = performance.now();
  try {
    return await innerExec.call(this, command, timeoutSec);
  } finally {
    if (rec?.cur) {
      rec.cur.execMs = performance.now() - t0;
      rec.cur.afterExec = true;
    }
  }
};

/** A model answering at once with these commands then the sentinel; it builds the request the LLM client would. */
function scriptedModel(rec: TrialRecord, commands: string[]): TrialModel {
  let i = 0;
  return async (messages) => {
    const start = performance.now();
    rec.cur = { start };
    // The LLM client's own work before it sends: the history in its shape, serialised. Host overhead, not model time.
    JSON.stringify({ model: 'scripted', messages: chatMessages(messages), tools: [{ type: 'function', function: BASH_TOOL }] });
    const m0 = performance.now();
    rec.cur.requestMs = m0 - start;
    const command = i < commands.length ? (commands[i] as string) : `echo ${SUBMIT_SENTINEL}`;
    i++;
    const reply = { text: `THOUGHT: step ${i}.`, toolCalls: [{ id: `call_${i}`, name: 'bash', arguments: JSON.stringify({ command }) }], costUsd: 0, promptTokens: 50, completionTokens: 10 };
    rec.cur.modelMs = performance.now() - m0;
    return reply;
  };
}

interface TrialResult {
  steps: StepTimes[];
  /** The trial's loop: the first model call to the last step's trajectory write. */
  loopMs: number;
  /** The whole runTrial call (container start, upload, history cut, patch, removal included). */
  totalMs: number;
  exitStatus: string;
}

async function timedTrial(root: string, task: CandidateTask, engine: Engine, commands: string[], id: string): Promise<TrialResult> {
  const rec: TrialRecord = { steps: [] };
  const t0 = performance.now();
  const out = await als.run(rec, () =>
    runTrial({
      root,
      task,
      engine,
      model: scriptedModel(rec, commands),
      modelName: 'scripted/bench',
      attemptId: id,
      limits: { stepLimit: commands.length + 5, wallLimitSec: 0, costLimitUsd: 0 },
      onStep: () => {
        const c = rec.cur;
        if (c?.afterExec && c.start !== undefined) {
          rec.steps.push({ start: c.start, end: performance.now(), modelMs: c.modelMs ?? 0, execMs: c.execMs ?? 0, requestMs: c.requestMs ?? 0 });
          rec.cur = undefined;
        }
      },
    }),
  );
  const totalMs = performance.now() - t0;
  const s = rec.steps;
  return { steps: s, loopMs: s.length ? (s[s.length - 1] as StepTimes).end - (s[0] as StepTimes).start : 0, totalMs, exitStatus: out.exitStatus };
}

/** The floor: the same commands as bare `docker exec` calls (exec create, start, read to the end, inspect). */
async function floorRun(engine: Engine, task: CandidateTask, user: string, repoBody: Buffer | undefined, commands: string[], id: string): Promise<number[]> {
  const sc = await SolverContainer.start(engine, {
    trialId: id,
    taskId: task.id,
    image: task.environment.image,
    imageUser: '',
    repoKind: task.repo.kind,
    ...(repoBody ? { repoBody } : {}),
    workdir: task.environment.workdir,
    limits: task.environment.limits,
    owner: { pid: process.pid, host: os.hostname() },
  });
  try {
    const c = (await engine.docker()).getContainer(sc.id);
    const times: number[] = [];
    for (const command of [...commands, `echo ${SUBMIT_SENTINEL}`]) {
      const t0 = performance.now();
      const exec = await c.exec({ Cmd: ['bash', '-c', command], AttachStdout: true, AttachStderr: true, WorkingDir: task.environment.workdir, User: user });
      const stream = (await exec.start({ hijack: true, stdin: false })) as NodeJS.ReadableStream;
      await new Promise<void>((resolve) => {
        stream.on('data', () => undefined);
        stream.on('end', resolve);
        stream.on('close', resolve);
        stream.on('error', () => resolve());
      });
      await exec.inspect();
      times.push(performance.now() - t0);
    }
    return times;
  } finally {
    await sc.remove();
  }
}

/**
 * The trajectory's writes alone, host only, for `steps` steps of 10,000-character outputs: `whole` as runTrial wrote
 * before (the document serialised whole, written atomically and flushed, twice a step), `kept` as it writes now
 * (TrajectoryFile: only what changed, in place, unflushed, asynchronous). Per step: the two writes' time.
 */
async function writesOnly(root: string, mode: 'whole' | 'kept', steps: number, rel: string): Promise<number[]> {
  const run = new SolverRun({ request: 'r', workdir: '/repo' }, { ...DEFAULT_LIMITS, stepLimit: 0, wallLimitSec: 0, costLimitUsd: 0 }, Date.now);
  const file = new TrajectoryFile(root, rel, new TrajectoryText(run), 'scripted/bench');
  file.writeWhole('');
  const write = async () => {
    if (mode === 'whole') writeFileAtomicIn(root, rel, `${JSON.stringify(trajectoryDocument(run, { model: 'scripted/bench', submission: '' }))}\n`);
    else await file.appendStep();
  };
  const out: number[] = [];
  const output = 'x'.repeat(10_000);
  for (let i = 0; i < steps; i++) {
    run.next();
    const reply: ModelReply = { text: `THOUGHT: step ${i}.`, toolCalls: [{ id: `call_${i}`, name: 'bash', arguments: JSON.stringify({ command: TEN_KB }) }] };
    run.onReply(reply);
    const t0 = performance.now();
    await write();
    const t1 = performance.now();
    run.next();
    run.onOutput(0, output);
    const t2 = performance.now();
    await write();
    out.push(t1 - t0 + (performance.now() - t2));
  }
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.floor((s.length - 1) / 2)] as number) : NaN;
};
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const overhead = (s: StepTimes) => s.end - s.start - s.modelMs - s.execMs;
const f = (n: number, d = 1) => n.toFixed(d);
const load = () => os.loadavg().map((x) => x.toFixed(1)).join(' / ');

async function main(): Promise<void> {
  const top = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-bench-solver-'));
  fs.cpSync(path.join(EXAMPLES, 'dataset'), path.join(top, 'ds'), { recursive: true });
  fs.cpSync(buildExampleRepo(), path.join(top, 'repos', 'durations'), { recursive: true });
  const root = path.join(top, 'ds');
  const task = () => {
    const t = loadDataset(root).tasks.find((x) => x.id === 'format-precision');
    if (!t) throw new Error('format-precision missing');
    return t;
  };
  const engine = new Engine();
  const loads: string[] = [load()];
  const commands = cheapCommands(COMMANDS);
  let n = 0;
  const nextId = (k: string) => `bench-${k}-${process.pid}-${n++}`;

  // The repository body the floor's container gets, as runTrial uploads it.
  const t = task();
  const run = runUser('', t.repo.kind);
  const repoBody = t.repo.kind === 'git' ? (await new RepoArchiveCache().get(repoPath(root, t.repo), t.repo.baseCommit, t.environment.workdir, run.fileOwner)).body : undefined;

  // Warm-up: the image check, the archive cache, the engine's first execs.
  await timedTrial(root, task(), engine, commands.slice(0, 3), nextId('warm'));

  // 1. Cheap commands: trial and floor alternating.
  const trials: TrialResult[] = [];
  const floors: number[][] = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) {
      floors.push(await floorRun(engine, task(), run.user, repoBody, commands, nextId('floor')));
      trials.push(await timedTrial(root, task(), engine, commands, nextId('trial')));
    } else {
      trials.push(await timedTrial(root, task(), engine, commands, nextId('trial')));
      floors.push(await floorRun(engine, task(), run.user, repoBody, commands, nextId('floor')));
    }
  }
  loads.push(load());
  const steps = trials.flatMap((x) => x.steps);
  const perRoundRatio = trials.map((x, i) => x.loopMs / sum(floors[i] as number[]));
  const floorStep = median(floors.flat());

  // 2. The long history: 10 KB outputs, the trajectory rewritten whole after every step.
  const long = await timedTrial(root, task(), engine, Array.from({ length: LONG }, () => TEN_KB), nextId('long'));
  loads.push(load());
  const trajBytes = fs.statSync(path.join(root, 'tasks', 'format-precision', 'attempts', `bench-long-${process.pid}-${n - 1}`, 'trajectory.traj.json')).size;
  const bucket = (from: number, to: number) => long.steps.slice(from, to).map(overhead);
  const longRows = [
    [0, 50],
    [Math.max(0, Math.floor(LONG / 2) - 25), Math.floor(LONG / 2) + 25],
    [Math.max(0, LONG - 50), LONG + 1],
  ].map(([a, b]) => `| ${a as number + 1}-${Math.min(b as number, long.steps.length)} | ${f(median(bucket(a as number, b as number)), 2)} ms | ${f(median(long.steps.slice(a, b).map((s) => s.requestMs)), 2)} ms | ${f(Math.max(...bucket(a as number, b as number)), 1)} ms |`);

  // 2b. The trajectory's writes alone, before and after, alternating (ABBA).
  const writes: Record<'whole' | 'kept', number[][]> = { whole: [], kept: [] };
  for (const mode of ['whole', 'kept', 'kept', 'whole'] as const) writes[mode].push(await writesOnly(root, mode, LONG, `tasks/format-precision/attempts/bench-writes-${mode}-${n++}/trajectory.traj.json`));
  loads.push(load());
  const writeRow = (a: number, b: number) => {
    const m = (mode: 'whole' | 'kept') => median(writes[mode].flatMap((w) => w.slice(a, b)));
    return `| ${a + 1}-${Math.min(b, LONG)} | ${f(m('whole'), 2)} ms | ${f(m('kept'), 2)} ms | ${f(m('kept') / m('whole'), 2)} |`;
  };

  // 3. One trial alone, then CONCURRENCY at once, each with the event-loop delay.
  const delayed = async (k: number) => {
    const h = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
    h.enable();
    const t0 = performance.now();
    const rs = await Promise.all(Array.from({ length: k }, () => timedTrial(root, task(), engine, commands, nextId(`c${k}`))));
    const wall = performance.now() - t0;
    h.disable();
    const all = rs.flatMap((x) => x.steps);
    const loopWall = Math.max(...rs.map((x) => (x.steps.at(-1) as StepTimes).end)) - Math.min(...rs.map((x) => (x.steps[0] as StepTimes).start));
    return {
      k,
      stepsPerSec: all.length / (loopWall / 1000),
      stepsPerSecWall: all.length / (wall / 1000),
      // The histogram holds the timer's intervals: its lateness is the interval minus the resolution.
      p50: Math.max(0, h.percentile(50) / 1e6 - DELAY_RESOLUTION_MS),
      p99: Math.max(0, h.percentile(99) / 1e6 - DELAY_RESOLUTION_MS),
      max: Math.max(0, h.max / 1e6 - DELAY_RESOLUTION_MS),
      overhead: median(all.map(overhead)),
      exec: median(all.map((s) => s.execMs)),
      statuses: [...new Set(rs.map((x) => x.exitStatus))].join(','),
    };
  };
  const conc = [await delayed(1), await delayed(CONCURRENCY), await delayed(1)];
  loads.push(load());

  const lines = [
    `## The solver agent (issue 14)`,
    '',
    `\`node --import tsx bench/solver.bench.ts --commands ${COMMANDS} --rounds ${ROUNDS} --long ${LONG} --concurrency ${CONCURRENCY}\` (${os.cpus().length} cores, load average 1/5/15 min over the run: ${loads.join(' -> ')}; statuses: ${[...new Set([...trials, long].map((x) => x.exitStatus))].join(',')}).`,
    '',
    `### Cheap commands: ${COMMANDS} + the sentinel, ${ROUNDS} rounds alternating with the floor`,
    '',
    '| per agent step (median over all steps) | ms |',
    '| --- | --- |',
    `| step (model call starts -> trajectory written after the command) | ${f(median(steps.map((s) => s.end - s.start)), 2)} |`,
    `| the model call (scripted, answers at once) | ${f(median(steps.map((s) => s.modelMs)), 3)} |`,
    `| the command, as runTrial sees SolverContainer.exec | ${f(median(steps.map((s) => s.execMs)), 2)} |`,
    `| **host overhead** (step - model - command) | **${f(median(steps.map(overhead)), 2)}** (p90 ${f(steps.map(overhead).sort((a, b) => a - b)[Math.floor(steps.length * 0.9)] as number, 2)}, max ${f(Math.max(...steps.map(overhead)), 1)}) |`,
    `| floor: the same command as a bare \`docker exec\` | ${f(floorStep, 2)} |`,
    '',
    `Trial loop / floor (sum of the bare execs), per round: ${perRoundRatio.map((x) => f(x, 2)).join(', ')} (median **${f(median(perRoundRatio), 2)}**). Loop per round: ${trials.map((x) => f(x.loopMs, 0)).join(', ')} ms; floor: ${floors.map((x) => f(sum(x), 0)).join(', ')} ms; the whole runTrial (container start, upload, history cut, patch, removal): ${trials.map((x) => f(x.totalMs, 0)).join(', ')} ms.`,
    '',
    `### Long history: ${LONG} steps of 10,000-character outputs (final trajectory ${f(trajBytes / 1e6, 2)} MB)`,
    '',
    '| steps | host overhead per step (median) | of which the request (median) | max |',
    '| --- | --- | --- | --- |',
    ...longRows,
    '',
    `The trajectory's two writes a step alone (host only, the same ${LONG} steps, ABBA rounds): before (serialised whole, written atomically and flushed, synchronous) and after (only what changed, in place, unflushed, asynchronous).`,
    '',
    '| steps | before | after | ratio |',
    '| --- | --- | --- | --- |',
    writeRow(0, 50),
    writeRow(Math.max(0, Math.floor(LONG / 2) - 25), Math.floor(LONG / 2) + 25),
    writeRow(Math.max(0, LONG - 50), LONG),
    '',
    `### ${CONCURRENCY} trials at once (${COMMANDS} cheap commands each) beside one alone`,
    '',
    `| trials | steps/s (loops) | steps/s (whole trials) | overhead/step | command/step | event-loop delay p50 / p99 / max (beyond the ${DELAY_RESOLUTION_MS} ms timer) |`,
    '| --- | --- | --- | --- | --- | --- |',
    ...conc.map((c) => `| ${c.k} | ${f(c.stepsPerSec)} | ${f(c.stepsPerSecWall)} | ${f(c.overhead, 2)} ms | ${f(c.exec, 1)} ms | ${f(c.p50)} / ${f(c.p99)} / ${f(c.max)} ms |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  fs.rmSync(top, { recursive: true, force: true });
}

void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
