// One fresh solver trial (issue 14): the loop of core/solver/agent.ts driven against a model and the trial's
// container (adapters/docker/solverContainer.ts), landing as a new attempt of the task. The attempt's folder is
// written first (attempt.json saying the trial started, an empty patch), the trajectory after every step, so a trial
// stopped at any moment (cancel, a crash, kill -9) leaves an attempt whose partial trajectory opens in the viewer;
// at the end the patch taken with git diff against the base commit and the final attempt.json (exit status, tokens,
// cost). The container is always removed. See docs/solver.md.
import * as os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Engine } from '../adapters/docker/engine';
import { ImageManager } from '../adapters/docker/images';
import { RepoArchiveCache } from '../adapters/docker/repoArchive';
import { runUser } from '../adapters/docker/runSpec';
import { SolverContainer } from '../adapters/docker/solverContainer';
import { readDatasetText, repoPath, resolveDatasetPath } from '../adapters/fs/datasetLoader';
import { writeAtIn, writeFileAtomicIn } from '../adapters/fs/datasetPaths';
import type { CandidateTask } from '../core/model';
import type { ExitStatus, HistoryMessage, ModelReply, SolverLimits } from '../core/solver/agent';
import { DEFAULT_LIMITS, SOLVER_VERSION, SolverRun, TrajectoryText } from '../core/solver/agent';
import { errorText } from '../core/errorText';
import type { ChatMessage, LlmClient } from '../adapters/llm/client';
import { costOf } from '../adapters/llm/pricing';

/** Asks the model for the next reply to the history (the LLM client in use; a scripted one in tests). */
export type TrialModel = (messages: readonly HistoryMessage[], signal: AbortSignal | undefined) => Promise<ModelReply>;

/** The solver's one tool: mini-swe-agent's bash. */
export const BASH_TOOL = {
  name: 'bash',
  description: 'Run one bash command in the repository (a new shell each time; no network). Its output and exit code come back.',
  parameters: { type: 'object', additionalProperties: false, required: ['command'], properties: { command: { type: 'string', description: 'the command' } } },
};

/** The history as the LLM client sends it (the final `exit` message is the trajectory's, never sent). */
export function chatMessages(history: readonly HistoryMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of history) {
    if (m.role === 'exit') continue;
    if (m.role === 'assistant') out.push({ role: 'assistant', content: m.content ?? '', ...(m.tool_calls ? { toolCalls: m.tool_calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })) } : {}) });
    else if (m.role === 'tool') out.push({ role: 'tool', content: m.content, toolCallId: m.tool_call_id });
    else out.push({ role: m.role, content: m.content });
  }
  return out;
}

/** A trial model over the LLM client: the bash tool offered (a plain fenced block where the endpoint refuses tools). */
export function llmTrialModel(client: LlmClient, maxReplyTokens = 4096): TrialModel {
  return async (history, signal) => {
    const r = await client.chat({ messages: chatMessages(history), maxReplyTokens, tools: [BASH_TOOL] }, signal ? { signal } : {});
    const cost = costOf(r.model || client.settings.model, r.usage);
    return {
      text: r.text,
      ...(r.toolCalls ? { toolCalls: r.toolCalls } : {}),
      ...(cost.usd !== undefined ? { costUsd: cost.usd } : {}),
      ...(r.usage ? { promptTokens: r.usage.promptTokens, completionTokens: r.usage.completionTokens } : {}),
    };
  };
}

export interface TrialOptions {
  root: string;
  task: CandidateTask;
  engine: Engine;
  model: TrialModel;
  /** The model's name, recorded in the attempt. */
  modelName: string;
  limits?: Partial<SolverLimits>;
  signal?: AbortSignal;
  /** The attempt id to write (default `trial-<model>-<time>-<random>`). */
  attemptId?: string;
  /** After every step: the run (its messages and stats so far). */
  onStep?: (run: SolverRun) => void;
  now?: () => number;
}

export interface TrialOutcome {
  attemptId: string;
  exitStatus: ExitStatus;
  message: string;
  steps: number;
  costUsd: number;
  promptTokens: number;
  completionTokens: number;
  /** Bytes of the patch taken (0: the trial changed nothing, or the patch could not be taken). */
  patchBytes: number;
}

export class TrialError extends Error {}

/**
 * The trial's trajectory file. Written whole and atomically (a temporary file flushed and renamed over it) before
 * the trial and at its end; after each step only what changed is written, in place: the new messages where the old
 * tail (`info`) began, then the new tail, padded with spaces where it came out shorter, so the file is the whole
 * document again (JSON allows the trailing spaces). That write is one positional write of a few KB, not flushed,
 * asynchronous: the page cache outlives a killed process, so a trial stopped between steps keeps its last step.
 * What it gives up against a rename: a reader, or a kill -9, that lands inside that one write sees a torn tail.
 * Rewriting the whole, growing trajectory twice a step made the host's work per step grow with the trial (a
 * 250-step trial of 10 KB outputs: 2.6 MB rewritten, and flushed, twice a step; docs/benchmarks.md, issue 14).
 */
export class TrajectoryFile {
  /** Bytes of the file as we last wrote it, and where its tail begins. */
  private fileBytes = 0;
  private tailAt = 0;

  constructor(
    private readonly root: string,
    private readonly rel: string,
    private readonly text: TrajectoryText,
    private readonly model: string,
  ) {}

  writeWhole(submission: string): void {
    const info = { model: this.model, submission };
    const body = `${this.text.text(info)}\n`;
    writeFileAtomicIn(this.root, this.rel, body);
    this.fileBytes = Buffer.byteLength(body);
    this.tailAt = this.fileBytes - Buffer.byteLength(this.text.tail(info)) - 1;
  }

  async appendStep(): Promise<void> {
    const fresh = Buffer.from(this.text.appendNew());
    const tail = Buffer.from(this.text.tail({ model: this.model, submission: '' }));
    const end = this.tailAt + fresh.length + tail.length + 1;
    const pad = Math.max(0, this.fileBytes - end);
    const data = Buffer.concat([fresh, tail, Buffer.alloc(pad, ' '), Buffer.from('\n')]);
    await writeAtIn(this.root, this.rel, data, this.tailAt);
    this.tailAt += fresh.length;
    this.fileBytes = Math.max(this.fileBytes, end + pad);
  }
}

const ATTEMPT_ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export function trialAttemptId(modelName: string, at: Date): string {
  const slug = modelName.toLowerCase().replace(/[^a-z0-9.]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'model';
  const stamp = at.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  return `trial-${slug}-${stamp}-${randomBytes(3).toString('hex')}`;
}

export async function runTrial(o: TrialOptions): Promise<TrialOutcome> {
  const now = o.now ?? Date.now;
  const limits: SolverLimits = { ...DEFAULT_LIMITS, ...o.limits };
  const task = o.task;
  const attemptId = o.attemptId ?? trialAttemptId(o.modelName, new Date(now()));
  if (!ATTEMPT_ID_RE.test(attemptId)) throw new TrialError(`attempt id "${attemptId.slice(0, 60)}" is not a usable folder name`);
  if (task.attempts.some((a) => a.id === attemptId)) throw new TrialError(`task ${task.id} already has an attempt ${attemptId}`);
  const dir = `${task.dir}/attempts/${attemptId}`;
  const request = readDatasetText(o.root, task.files.request);

  const run = new SolverRun({ request, workdir: task.environment.workdir }, limits, now);
  const attemptJson = (status: string, summary: string) =>
    `${JSON.stringify(
      {
        model: o.modelName,
        agent: SOLVER_VERSION,
        run: `fresh-trial ${attemptId}`,
        costUsd: Number(run.stats.costUsd.toFixed(6)),
        tokens: { input: run.stats.promptTokens, output: run.stats.completionTokens },
        claimed: { status, summary },
        patch: 'patch.diff',
        trajectory: 'trajectory.traj.json',
      },
      null,
      2,
    )}\n`;
  const trajectory = new TrajectoryFile(o.root, `${dir}/trajectory.traj.json`, new TrajectoryText(run), o.modelName);
  // The attempt exists before anything runs: a trial stopped at any point leaves a readable one.
  writeFileAtomicIn(o.root, `${dir}/patch.diff`, '');
  trajectory.writeWhole('');
  writeFileAtomicIn(o.root, `${dir}/attempt.json`, attemptJson('started', 'a fresh trial that has not finished (or was stopped before it could say so)'));

  let container: SolverContainer | undefined;
  let patch = '';
  try {
    const images = new ImageManager(o.engine);
    const df = task.environment.dockerfile;
    const image = await images.ensure({ image: task.environment.image, dockerfile: df ? resolveDatasetPath(o.root, `${task.dir}/${df}`) : undefined }, o.signal);
    const { fileOwner } = runUser(image.user, task.repo.kind);
    let repoBody: Buffer | undefined;
    if (task.repo.kind === 'git') {
      repoBody = (await new RepoArchiveCache().get(repoPath(o.root, task.repo), task.repo.baseCommit, task.environment.workdir, fileOwner)).body;
    }
    container = await SolverContainer.start(o.engine, {
      trialId: attemptId,
      taskId: task.id,
      image: task.environment.image,
      imageUser: image.user,
      repoKind: task.repo.kind,
      ...(repoBody ? { repoBody } : {}),
      workdir: task.environment.workdir,
      limits: task.environment.limits,
      owner: { pid: process.pid, host: os.hostname() },
    });
    const onAbort = () => run.onCancel();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        if (o.signal?.aborted) run.onCancel();
        const a = run.next();
        if (a.kind === 'done') break;
        if (a.kind === 'query') {
          let reply: ModelReply;
          try {
            reply = await o.model(a.messages, o.signal);
          } catch (e) {
            if (o.signal?.aborted) run.onCancel();
            else run.onModelError(errorText(e));
            continue;
          }
          if (run.exit) break;
          run.onReply(reply);
        } else {
          try {
            const r = await container.exec(a.command, a.timeoutSec);
            if (run.exit) break;
            run.onOutput(r.exitCode, r.output, r.timedOut);
          } catch (e) {
            if (o.signal?.aborted) run.onCancel();
            else run.onContainerError(`the container did not run the command: ${errorText(e)}`);
          }
        }
        await trajectory.appendStep();
        o.onStep?.(run);
      }
    } finally {
      o.signal?.removeEventListener('abort', onAbort);
    }
    if (run.exit?.exitStatus !== 'ContainerError') patch = await container.diff().catch(() => '');
  } catch (e) {
    if (!run.exit) run.onContainerError(errorText(e));
  } finally {
    await container?.remove().catch(() => undefined);
  }
  const exit = run.exit ?? { exitStatus: 'ContainerError' as const, message: 'the trial ended without a status' };
  writeFileAtomicIn(o.root, `${dir}/patch.diff`, patch);
  trajectory.writeWhole(patch);
  writeFileAtomicIn(o.root, `${dir}/attempt.json`, attemptJson(exit.exitStatus, exit.message));
  o.onStep?.(run);
  return {
    attemptId,
    exitStatus: exit.exitStatus,
    message: exit.message,
    steps: run.stats.steps,
    costUsd: run.stats.costUsd,
    promptTokens: run.stats.promptTokens,
    completionTokens: run.stats.completionTokens,
    patchBytes: Buffer.byteLength(patch),
  };
}
