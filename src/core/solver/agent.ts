// The fresh-trial solver's decisions, pure (issue 14): a mini-swe-agent style loop kept as a state machine. The host
// asks `next()` what to do (query the model with these messages, run this command, or stop), does it, and reports
// back (`onReply`, `onOutput`, `onCancel`). One linear message history; one bash command per turn (a `bash` tool call,
// or a single ```bash block when the model does not call tools); the output cut to its head and tail with the cut
// said; the submission sentinel as the first line of a command's output ends the trial; limits on steps, cost, wall
// time and consecutive format errors. The history is the trajectory, written in the mini-swe-agent-1.1 format the
// importer and the viewer already read (src/core/trajectory/chatMessages.ts). See docs/solver.md.

/** mini-swe-agent's sentinel: the first line of a command's output that ends the trial. */
export const SUBMIT_SENTINEL = 'COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT';

export const SOLVER_VERSION = 'specweave-solver-1';

export interface SolverLimits {
  /** Model calls at most (0: no limit). */
  stepLimit: number;
  /** USD at most, counted from the replies' cost (0: no limit). */
  costLimitUsd: number;
  /** Seconds of wall time at most for the trial (0: no limit). */
  wallLimitSec: number;
  /** Seconds a command may run before it is stopped (its observation says so). */
  commandTimeoutSec: number;
  /** Format errors in a row that end the trial. */
  maxFormatErrors: number;
  /** Characters of a command's output kept: its first `headChars` and last `tailChars` when longer. */
  headChars: number;
  tailChars: number;
}

export const DEFAULT_LIMITS: SolverLimits = {
  stepLimit: 50,
  costLimitUsd: 1,
  wallLimitSec: 1800,
  commandTimeoutSec: 60,
  maxFormatErrors: 3,
  headChars: 5000,
  tailChars: 5000,
};

/** How a trial ended. mini-swe-agent's own words where it has them (Submitted, LimitsExceeded, FormatError). */
export const EXIT_STATUSES = ['Submitted', 'LimitsExceeded', 'CostLimitExceeded', 'TimeLimitExceeded', 'FormatError', 'Cancelled', 'ModelError', 'ContainerError'] as const;
export type ExitStatus = (typeof EXIT_STATUSES)[number];

/** A tool call as the model gave it (OpenAI chat format, arguments as the raw JSON text). */
export interface ToolCallReply {
  id: string;
  name: string;
  arguments: string;
}

export interface ModelReply {
  /** The reply's text (may be empty with tool calls). */
  text: string;
  toolCalls?: ToolCallReply[];
  costUsd?: number;
  promptTokens?: number;
  completionTokens?: number;
}

/** A message of the history, as written to the trajectory (the OpenAI chat shape mini-swe-agent 1.1 stores). */
export type HistoryMessage =
  | { role: 'system' | 'user'; content: string; extra?: Record<string, unknown> }
  | { role: 'assistant'; content: string | null; tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>; extra?: Record<string, unknown> }
  | { role: 'tool'; tool_call_id: string; content: string; extra?: Record<string, unknown> }
  | { role: 'exit'; content: string; extra?: Record<string, unknown> };

export type SolverAction =
  | { kind: 'query'; messages: readonly HistoryMessage[] }
  | { kind: 'exec'; command: string; timeoutSec: number }
  | { kind: 'done'; exitStatus: ExitStatus; message: string };

export interface SolverTask {
  /** The request the solver is given (never the tests, the test patch or the gold patch). */
  request: string;
  /** The folder the repository is in, inside the container. */
  workdir: string;
}

export interface SolverStats {
  steps: number;
  costUsd: number;
  promptTokens: number;
  completionTokens: number;
  formatErrorsInARow: number;
}

export function systemPrompt(): string {
  return [
    'You are a helpful assistant that can interact multiple times with a computer shell to solve programming tasks.',
    'Your response must contain exactly ONE bash command: a call of the `bash` tool, or, if you cannot call tools, one ```bash code block.',
    'Include a THOUGHT section before your command where you explain your reasoning process.',
  ].join('\n');
}

export function instancePrompt(task: SolverTask): string {
  return [
    '<pr_description>',
    'Consider the following PR description:',
    task.request,
    '</pr_description>',
    '',
    '<instructions>',
    `The repository is in ${task.workdir}, at the commit the PR description is about. Make changes to non-test files so that the PR description is satisfied.`,
    'Each command runs in a new shell (a `cd` does not carry over; chain commands with && or use absolute paths). The machine has no network.',
    'When you are done, run exactly this command and nothing else with it:',
    '',
    '```bash',
    `echo ${SUBMIT_SENTINEL}`,
    '```',
    'Your changes are taken from the repository with git diff. You cannot continue working after submitting.',
    '</instructions>',
  ].join('\n');
}

const BASH_BLOCK = /```(?:bash|sh)[^\S\n]*\n([\s\S]*?)\n```/g;

/** The one command of a reply, or why there is not exactly one (the text the model is told). */
export function parseAction(reply: ModelReply): { ok: true; command: string; toolCallId?: string } | { ok: false; error: string } {
  const calls = reply.toolCalls ?? [];
  if (calls.length > 0) {
    if (calls.length > 1) return { ok: false, error: `Your response had ${calls.length} tool calls; it must have exactly one bash tool call.` };
    const c = calls[0] as ToolCallReply;
    if (c.name !== 'bash') return { ok: false, error: `There is no tool named "${oneLine(c.name, 60)}"; call the bash tool.` };
    let args: unknown;
    try {
      args = JSON.parse(c.arguments);
    } catch {
      return { ok: false, error: 'The bash tool call\'s arguments are not JSON; give {"command": "..."}.' };
    }
    const command = typeof args === 'object' && args !== null ? (args as Record<string, unknown>).command : undefined;
    if (typeof command !== 'string' || command.trim().length === 0) return { ok: false, error: 'The bash tool call needs a non-empty "command" string.' };
    return { ok: true, command, toolCallId: c.id };
  }
  const blocks = [...reply.text.matchAll(BASH_BLOCK)];
  if (blocks.length !== 1) {
    return { ok: false, error: `Your response must contain exactly ONE bash code block (found ${blocks.length}), or one bash tool call. Put your reasoning before it.` };
  }
  const command = (blocks[0] as RegExpMatchArray)[1] as string;
  if (command.trim().length === 0) return { ok: false, error: 'The bash code block is empty.' };
  return { ok: true, command };
}

/** True when the output's first line (leading whitespace ignored) is the sentinel: mini-swe-agent's rule. */
export function isSubmission(output: string): boolean {
  const first = output.replace(/^\s+/, '').split('\n', 1)[0] ?? '';
  return first.trim() === SUBMIT_SENTINEL;
}

/** The observation the model is shown: return code and output, cut to head and tail with the cut said. */
export function observation(returncode: number | null, output: string, limits: Pick<SolverLimits, 'headChars' | 'tailChars'>, timedOutAfterSec?: number): string {
  const code = `<returncode>${returncode === null ? 'none' : returncode}</returncode>`;
  const timeout = timedOutAfterSec !== undefined ? `\n<warning>The command was stopped after ${timedOutAfterSec} s (the per-command timeout). Run long commands in the background or with a shorter input.</warning>` : '';
  if (output.length <= limits.headChars + limits.tailChars) return `${code}${timeout}\n<output>\n${output}</output>`;
  const cut = output.length - limits.headChars - limits.tailChars;
  return [
    `${code}${timeout}`,
    `<warning>The output of your last command was too long: ${output.length} characters; ${cut} characters in the middle were cut. Use head, tail, grep or sed -n to see less at a time.</warning>`,
    `<output_head>\n${output.slice(0, limits.headChars)}\n</output_head>`,
    `<elided_chars>\n${cut} characters elided\n</elided_chars>`,
    `<output_tail>\n${output.slice(output.length - limits.tailChars)}\n</output_tail>`,
  ].join('\n');
}

function oneLine(s: string, max: number): string {
  // A tool name is the model's text: control characters would reach whoever reads the history.
  // eslint-disable-next-line no-control-regex
  const flat = s.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * One trial's loop. Call `next()` for the host's next step; after a `query`, `onReply` (or `onModelError`); after an
 * `exec`, `onOutput` (or `onContainerError`). `onCancel` ends it at any point. The history is complete after every
 * call, so the host writes the trajectory after every step.
 */
export class SolverRun {
  private readonly history: HistoryMessage[];
  private pending: { command: string; toolCallId?: string } | undefined;
  private ended: { exitStatus: ExitStatus; message: string } | undefined;
  private readonly startedMs: number;
  readonly stats: SolverStats = { steps: 0, costUsd: 0, promptTokens: 0, completionTokens: 0, formatErrorsInARow: 0 };
  private submission = '';

  constructor(
    task: SolverTask,
    readonly limits: SolverLimits,
    private readonly now: () => number,
  ) {
    this.startedMs = now();
    this.history = [
      { role: 'system', content: systemPrompt() },
      { role: 'user', content: instancePrompt(task) },
    ];
  }

  get messages(): readonly HistoryMessage[] {
    return this.history;
  }

  get exit(): { exitStatus: ExitStatus; message: string } | undefined {
    return this.ended;
  }

  next(): SolverAction {
    if (this.ended) return { kind: 'done', ...this.ended };
    if (this.pending) return { kind: 'exec', command: this.pending.command, timeoutSec: this.limits.commandTimeoutSec };
    const l = this.limits;
    if (l.wallLimitSec > 0 && this.now() - this.startedMs >= l.wallLimitSec * 1000) return this.finish('TimeLimitExceeded', `the trial ran ${l.wallLimitSec} s, its wall-time limit`);
    if (l.stepLimit > 0 && this.stats.steps >= l.stepLimit) return this.finish('LimitsExceeded', `the model was called ${l.stepLimit} times, the step limit`);
    if (l.costLimitUsd > 0 && this.stats.costUsd >= l.costLimitUsd) return this.finish('CostLimitExceeded', `the trial cost $${this.stats.costUsd.toFixed(4)}, at or over its limit of $${l.costLimitUsd}`);
    return { kind: 'query', messages: this.history };
  }

  onReply(reply: ModelReply): void {
    if (this.ended || this.pending) throw new Error('onReply without a query');
    this.stats.steps++;
    this.stats.costUsd += reply.costUsd ?? 0;
    this.stats.promptTokens += reply.promptTokens ?? 0;
    this.stats.completionTokens += reply.completionTokens ?? 0;
    const extra: Record<string, unknown> = { cost: reply.costUsd ?? 0, timestamp: this.now() / 1000 };
    const action = parseAction(reply);
    const toolCalls = (reply.toolCalls ?? []).map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } }));
    this.history.push({ role: 'assistant', content: reply.text.length > 0 || toolCalls.length === 0 ? reply.text : null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}), extra: action.ok ? { ...extra, actions: [{ command: action.command, ...(action.toolCallId ? { tool_call_id: action.toolCallId } : {}) }] } : extra });
    if (!action.ok) {
      this.stats.formatErrorsInARow++;
      // Every tool call gets its answer, so the history stays a valid chat for the next query.
      const text = `<format_error>\n${action.error}\n</format_error>`;
      if (toolCalls.length > 0) for (const c of toolCalls) this.history.push({ role: 'tool', tool_call_id: c.id, content: text });
      else this.history.push({ role: 'user', content: text });
      if (this.stats.formatErrorsInARow >= this.limits.maxFormatErrors) this.finish('FormatError', `${this.stats.formatErrorsInARow} replies in a row had no single bash command`);
      return;
    }
    this.stats.formatErrorsInARow = 0;
    this.pending = { command: action.command, ...(action.toolCallId ? { toolCallId: action.toolCallId } : {}) };
  }

  /** The model could not be asked (the endpoint's fault after the client's retries): the trial ends. */
  onModelError(message: string): void {
    if (this.ended) return;
    this.finish('ModelError', message);
  }

  /** The pending command's output (stdout and stderr as one text), its exit code, and whether it timed out. */
  onOutput(returncode: number | null, output: string, timedOut = false): void {
    const p = this.pending;
    if (!p || this.ended) throw new Error('onOutput without a command');
    this.pending = undefined;
    const submitted = !timedOut && returncode === 0 && isSubmission(output);
    const text = submitted ? '<returncode>0</returncode>\n<output>\nsubmitted\n</output>' : observation(returncode, output, this.limits, timedOut ? this.limits.commandTimeoutSec : undefined);
    const extra = { returncode, timestamp: this.now() / 1000, ...(timedOut ? { timed_out: true } : {}) };
    if (p.toolCallId !== undefined) this.history.push({ role: 'tool', tool_call_id: p.toolCallId, content: text, extra });
    else this.history.push({ role: 'user', content: text, extra });
    if (submitted) {
      this.submission = output.replace(/^\s+/, '').split('\n').slice(1).join('\n');
      this.finish('Submitted', 'the solver submitted');
    }
  }

  /** The container died or refused the command: the trial ends. */
  onContainerError(message: string): void {
    if (this.ended) return;
    this.pending = undefined;
    this.finish('ContainerError', message);
  }

  onCancel(): void {
    if (this.ended) return;
    this.pending = undefined;
    this.finish('Cancelled', 'the trial was cancelled');
  }

  private finish(exitStatus: ExitStatus, message: string): SolverAction {
    this.ended = { exitStatus, message };
    this.history.push({ role: 'exit', content: this.submission, extra: { exit_status: exitStatus, message } });
    return { kind: 'done', exitStatus, message };
  }
}

export interface TrajectoryInfo {
  model: string;
  /** The diff taken from the container against the base commit (empty until the trial ends). */
  submission: string;
}

/**
 * The trajectory document, mini-swe-agent-1.1's `.traj.json` shape: the importer reads it unchanged. The messages
 * come before `info`, so the text can grow by appending (TrajectoryText): only the `info` after them changes.
 */
export function trajectoryDocument(run: SolverRun, info: TrajectoryInfo): Record<string, unknown> {
  return { trajectory_format: TRAJECTORY_FORMAT, messages: run.messages, info: trajectoryInfo(run, info) };
}

const TRAJECTORY_FORMAT = 'mini-swe-agent-1.1';

function trajectoryInfo(run: SolverRun, info: TrajectoryInfo): Record<string, unknown> {
  return {
    model_stats: { instance_cost: run.stats.costUsd, api_calls: run.stats.steps },
    config: { agent: { step_limit: run.limits.stepLimit, cost_limit: run.limits.costLimitUsd }, model: { model_name: info.model }, agent_type: SOLVER_VERSION },
    mini_version: SOLVER_VERSION,
    exit_status: run.exit?.exitStatus ?? null,
    submission: info.submission,
    ...(run.exit ? { exit_message: run.exit.message } : {}),
    tokens: { prompt: run.stats.promptTokens, completion: run.stats.completionTokens },
  };
}

/**
 * The trajectory's text as it grows, `JSON.stringify(trajectoryDocument(run, info))` to the byte: `HEAD`, the
 * messages, then `tail(info)`. The history only grows (a message is never changed once pushed), so each message is
 * serialised once: `appendNew()` gives the text of the messages added since its last call, which goes where the
 * old tail began. Serialising and rewriting a 250-step, 2.6 MB trajectory whole twice a step made the host's work
 * per step grow with the trial (issue 14, docs/benchmarks.md).
 */
export class TrajectoryText {
  static readonly HEAD = `{"trajectory_format":${JSON.stringify(TRAJECTORY_FORMAT)},"messages":[`;
  private messagesText = '';
  private count = 0;

  constructor(private readonly run: SolverRun) {}

  /** The text of the messages added since the last call (after the first, each led by its comma). */
  appendNew(): string {
    const messages = this.run.messages;
    if (messages.length < this.count) throw new Error('the history shrank');
    let fresh = '';
    for (; this.count < messages.length; this.count++) fresh += `${this.count > 0 ? ',' : ''}${JSON.stringify(messages[this.count])}`;
    this.messagesText += fresh;
    return fresh;
  }

  /** What follows the messages: the array's end and `info`, which changes every step. */
  tail(info: TrajectoryInfo): string {
    return `],"info":${JSON.stringify(trajectoryInfo(this.run, info))}}`;
  }

  /** The whole text. */
  text(info: TrajectoryInfo): string {
    this.appendNew();
    return `${TrajectoryText.HEAD}${this.messagesText}${this.tail(info)}`;
  }
}
