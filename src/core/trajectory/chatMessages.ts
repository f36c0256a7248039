// Chat-message lists, `[{role, content, tool_calls?, tool_call_id?, name?, extra?}]` (OpenAI chat format, with
// Anthropic and Responses-API content parts), wherever they are stored:
// - mini-swe-agent `.traj.json` (`{info, messages, trajectory_format}`), formats "mini-swe-agent-1" (text: the
//   action is a ```bash block), "mini-swe-agent-1.1" (tool calls: `content: null` + `tool_calls`, `role: "tool"`
//   results, a final `role: "exit"` message carrying the submission), and v2's text-based models (the action is the
//   last ```mswea_bash_command fence, or `<mswea_bash_command>`), also as a bare message list;
// - a bare JSON array of messages (AutoCodeRover's `conversation_round_N.json`, exported conversations), or one
//   message per JSONL line;
// - an OpenHands `llm_completions` file (`{messages, response, cost, ...}`) or one LiteLLM payload given whole.
// User messages after the first reply are the environment speaking (observations and format-error notices), so they
// are observations; the format is decided at the end, from the envelope's members and what the messages showed.

import type { FileEdit, ToolCall, TrajectoryFormat, TrajectoryStep } from '../model';
import { argsObject, dropFailedEdits, shellEdits, toolCallEdits, toolCallSummary } from './edits';
import type { AdapterOptions, AdapterOutput, FormatAdapter, ItemRef, StepInit, SummaryFacts } from './steps';
import { StepList, arr, contentText, dig, isObj, isoTime, nonEmpty, num, obj, openAiToolCalls, str, warning } from './steps';

/** mini-swe-agent 1's action regex: the first ```bash block. */
const BASH_BLOCK = /```(?:bash|sh)\s*\n([\s\S]*?)\n```/;
/** mini-swe-agent 2's text-based action: ```mswea_bash_command fences (the last one counts) or the XML form. */
const MSWEA_FENCE = /```mswea_bash_command\s*\n([\s\S]*?)\n```/g;
const MSWEA_XML = /<mswea_bash_command>([\s\S]*?)<\/mswea_bash_command>/g;

/** A message of a chat list: a role and something said. */
export function isChatMessage(v: unknown): boolean {
  return isObj(v) && typeof v.role === 'string' && v.role.length > 0 && v.role.length < 40 && ('content' in v || 'tool_calls' in v || 'function_call' in v);
}

/** The agent's action in a text reply: the last mswea fence (v2), else the first ```bash block (v1). */
export function textAction(text: string): { command: string; at: number; mswea: boolean } | undefined {
  let last: RegExpExecArray | undefined;
  for (const re of [MSWEA_FENCE, MSWEA_XML]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) if (last === undefined || m.index > last.index) last = m;
  }
  if (last !== undefined) return { command: last[1]!.trim(), at: last.index, mswea: true };
  const block = BASH_BLOCK.exec(text);
  return block !== null ? { command: block[1]!, at: block.index, mswea: false } : undefined;
}

type Base = { sourceRef: string; timestamp?: string };

export class ChatMessagesAdapter implements FormatAdapter {
  private readonly members: Record<string, unknown> = {};
  private readonly steps: StepList;
  private readonly calls = new Map<string, { step: TrajectoryStep; edits: FileEdit[] }>();
  private seenAssistant = false;
  private pendingEdit: TrajectoryStep | undefined;
  private input = 0;
  private output = 0;
  private anyUsage = false;
  /** What the messages showed of mini-swe-agent: its fences, `extra.actions`, the `exit` role. */
  private miniSigns = false;
  private exit: Record<string, unknown> | undefined;
  private messages = 0;

  /** `fixed`: the envelope already said which format this is. */
  constructor(
    private readonly opts: AdapterOptions,
    private readonly fixed?: TrajectoryFormat,
  ) {
    this.steps = new StepList(opts.keepText);
  }

  get format(): TrajectoryFormat {
    return this.fixed ?? this.decided();
  }

  member(key: string, value: unknown): void {
    this.members[key] = value;
  }

  item(arrayKey: string, m: unknown, ref: ItemRef): void {
    if (arrayKey !== 'messages' && arrayKey !== '') return;
    const sourceRef = arrayKey === 'messages' ? `messages[${ref.index}]` : ref.jsonl === true ? `line ${ref.line}` : `[${ref.index}]`;
    this.message(m, sourceRef);
  }

  /** One message; `sourceRef` says where it is in the file. */
  message(m: unknown, sourceRef: string): void {
    if (!isObj(m)) return;
    this.messages++;
    const role = str(m.role) ?? (typeof m.type === 'string' ? `(${m.type})` : '');
    const extra = obj(m.extra);
    if (extra !== undefined && Array.isArray(extra.actions)) this.miniSigns = true;
    const timestamp = isoTime(extra?.timestamp ?? m.timestamp);
    const base: Base = timestamp !== undefined ? { sourceRef, timestamp } : { sourceRef };
    switch (role) {
      case 'system':
      case 'developer':
        this.steps.add('system', contentText(m.content), base);
        return;
      case 'assistant':
      case 'ai':
      case 'model':
        this.assistant(m, extra, base);
        return;
      case 'exit':
        this.miniSigns = true;
        this.exit = extra ?? {};
        // The agent's own last message, handing in its work: not a system prompt.
        this.steps.add('submission', contentText(m.content), base);
        return;
      case 'tool':
      case 'function':
      case 'ipython':
        this.result(contentText(m.content), str(m.tool_call_id), base);
        return;
      case '(function_call)':
      case '(function_call_output)':
      case '(reasoning)':
        this.responsesItem(m, base);
        return;
      default:
        this.user(m, base);
    }
  }

  private user(m: Record<string, unknown>, base: Base): void {
    const parts = Array.isArray(m.content) ? m.content : undefined;
    const results = parts?.filter((p) => isObj(p) && p.type === 'tool_result') ?? [];
    if (parts !== undefined && results.length > 0) {
      // Anthropic style: the tool results come back in a user message.
      for (const p of results) {
        const r = p as Record<string, unknown>;
        this.result(contentText(r.content), str(r.tool_use_id), base, r.is_error === true);
      }
      const rest = parts.filter((p) => !results.includes(p));
      const text = contentText(rest);
      if (text.trim().length > 0) this.steps.add(this.seenAssistant ? 'observation' : 'user', text, base);
      return;
    }
    const text = contentText(m.content);
    this.steps.add(this.seenAssistant ? 'observation' : 'user', text, base);
    if (this.seenAssistant && this.pendingEdit !== undefined) {
      dropFailedEdits(this.pendingEdit, text);
      this.pendingEdit = undefined;
    }
  }

  private result(text: string, callId: string | undefined, base: Base, isError = false): void {
    this.steps.add('tool_result', text, base);
    const call = callId !== undefined ? this.calls.get(callId) : undefined;
    if (call !== undefined) dropFailedEdits(call.step, text, isError, call.edits);
    else if (this.pendingEdit !== undefined) dropFailedEdits(this.pendingEdit, text, isError);
    this.pendingEdit = undefined;
  }

  private assistant(m: Record<string, unknown>, extra: Record<string, unknown> | undefined, base: Base): void {
    this.seenAssistant = true;
    const usage = obj(dig(extra, 'response', 'usage')) ?? obj(m.usage);
    const tokens = usage !== undefined ? { input: num(usage.prompt_tokens) ?? num(usage.input_tokens), output: num(usage.completion_tokens) ?? num(usage.output_tokens) } : undefined;
    if (tokens !== undefined) {
      this.input += tokens.input ?? 0;
      this.output += tokens.output ?? 0;
      this.anyUsage = true;
    }
    const costUsd = num(extra?.cost);
    // The message's cost and tokens go on the step that acts, else on its thought.
    const metered: StepInit = { ...base, ...(tokens !== undefined ? { tokens } : {}), ...(costUsd !== undefined ? { costUsd } : {}) };
    let acted: TrajectoryStep | undefined;
    const parts = Array.isArray(m.content) ? m.content : undefined;
    const blocks = parts?.filter((p) => isObj(p) && (p.type === 'tool_use' || p.type === 'thinking')) ?? [];
    if (parts !== undefined && blocks.length > 0) {
      // Anthropic content blocks: text and thinking are thoughts, each tool_use a call.
      const anyCall = parts.some((p) => isObj(p) && p.type === 'tool_use');
      let first = true;
      for (const p of parts) {
        if (!isObj(p)) continue;
        if (p.type === 'tool_use') {
          const name = str(p.name) ?? 'tool';
          const call: ToolCall = { name, arguments: JSON.stringify(p.input ?? {}) };
          const id = str(p.id);
          if (id !== undefined) call.id = id;
          const edits = toolCallEdits(name, p.input);
          acted = this.steps.add('tool_call', toolCallSummary(name, p.input), { ...(acted === undefined ? metered : base), toolCalls: [call], edits });
          if (id !== undefined) this.calls.set(id, { step: acted, edits: acted.edits ?? [] });
        } else {
          const text = str(p.thinking) ?? contentText([p]);
          if (text.trim().length > 0) this.steps.add('thought', text, !anyCall && first ? metered : base);
          first = false;
        }
      }
      this.pendingEdit = acted?.edits !== undefined ? acted : undefined;
      return;
    }
    const text = contentText(m.content);
    const toolCalls = openAiToolCalls(m.tool_calls ?? (isObj(m.function_call) ? [{ function: m.function_call }] : undefined));
    if (toolCalls.length > 0) {
      if (text.trim().length > 0) this.steps.add('thought', text, base);
      const commands = toolCalls.map((t) => str(argsObject(t.arguments).command) ?? t.arguments);
      const perCall = toolCalls.map((t) => toolCallEdits(t.name, t.arguments));
      acted = this.steps.add('tool_call', commands.join('\n'), { ...metered, toolCalls, edits: perCall.flat() });
      const step = acted;
      toolCalls.forEach((t, k) => {
        // The step's own edit objects, so a failed call drops only its own.
        const own = (step.edits ?? []).filter((e) => perCall[k]!.some((x) => x.path === e.path && x.via === e.via));
        if (t.id !== undefined) this.calls.set(t.id, { step, edits: own });
      });
    } else {
      const action = textAction(text);
      if (action?.mswea === true) this.miniSigns = true;
      const thought = action !== undefined ? text.slice(0, action.at).trim() : text;
      if (action === undefined) {
        this.steps.add('thought', thought, metered);
      } else {
        if (thought.length > 0) this.steps.add('thought', thought, base);
        acted = this.steps.add('action', action.command, { ...metered, edits: shellEdits(action.command) });
      }
    }
    this.pendingEdit = acted?.edits !== undefined ? acted : undefined;
  }

  /** mini-swe-agent v2 with Responses-API models stores the native output items in `messages`. */
  private responsesItem(m: Record<string, unknown>, base: Base): void {
    if (m.type === 'function_call') {
      this.seenAssistant = true;
      const name = str(m.name) ?? 'tool';
      const args = typeof m.arguments === 'string' ? m.arguments : JSON.stringify(m.arguments ?? {});
      const call: ToolCall = { name, arguments: args };
      const id = str(m.call_id);
      if (id !== undefined) call.id = id;
      const step = this.steps.add('tool_call', str(argsObject(args).command) ?? `${name} ${args}`, { ...base, toolCalls: [call], edits: toolCallEdits(name, args) });
      if (id !== undefined) this.calls.set(id, { step, edits: step.edits ?? [] });
    } else if (m.type === 'function_call_output') {
      this.result(typeof m.output === 'string' ? m.output : contentText(m.output), str(m.call_id), base);
    } else {
      const text = arr(m.summary).map((s) => (isObj(s) ? (str(s.text) ?? '') : '')).join('\n\n');
      if (text.trim().length > 0) this.steps.add('thought', text, base);
    }
  }

  private decided(): TrajectoryFormat {
    const fmt = str(this.members.trajectory_format);
    if (fmt?.startsWith('mini-swe-agent') === true || this.members.info !== undefined || this.miniSigns) return 'mini-swe-agent';
    if (this.members.call_type !== undefined || this.members.response_cost !== undefined) return 'litellm';
    return 'chat-messages';
  }

  finish(): AdapterOutput {
    // A single logged completion (OpenHands llm_completions, a LiteLLM payload): the reply follows the prompt.
    const reply = obj(dig(this.members.response, 'choices', 0, 'message'));
    if (reply !== undefined) this.message(reply, 'response.choices[0].message');
    const format = this.format;
    const info = this.members.info;
    const exit = this.exit;
    const facts: SummaryFacts = {};
    const cost = num(dig(info, 'model_stats', 'instance_cost')) ?? num(this.members.response_cost) ?? num(this.members.cost);
    if (cost !== undefined) facts.costUsd = cost;
    const usage = obj(dig(this.members.response, 'usage'));
    if (this.anyUsage) facts.tokens = { input: this.input, output: this.output };
    else if (usage !== undefined) facts.tokens = { input: num(usage.prompt_tokens) ?? 0, output: num(usage.completion_tokens) ?? 0 };
    const exitStatus = nonEmpty(dig(info, 'exit_status')) ?? nonEmpty(exit?.exit_status) ?? nonEmpty(this.members.status);
    if (exitStatus !== undefined) facts.exitStatus = exitStatus;
    const submission = nonEmpty(dig(info, 'submission')) ?? nonEmpty(exit?.submission);
    if (submission !== undefined) facts.submission = submission;
    const instanceId = nonEmpty(this.members.instance_id) ?? nonEmpty(dig(info, 'instance_id'));
    if (instanceId !== undefined) facts.instanceId = instanceId;
    const model =
      nonEmpty(dig(info, 'config', 'model', 'model_name')) ??
      nonEmpty(dig(info, 'config', 'model', 'name')) ??
      nonEmpty(this.members.model) ??
      nonEmpty(dig(this.members.response, 'model'));
    if (model !== undefined) facts.model = model;
    const problems = [];
    const fmt = str(this.members.trajectory_format);
    if (fmt !== undefined && !fmt.startsWith('mini-swe-agent')) {
      problems.push(warning(this.opts.fileLabel, `unexpected trajectory_format "${fmt}"; read as mini-swe-agent messages`, undefined, 'trajectory_format'));
    }
    return { format, steps: this.steps.steps, facts, problems };
  }
}

/** A LiteLLM `StandardLoggingPayload`: one logged LLM call. */
export function isLiteLlmPayload(v: unknown): boolean {
  return isObj(v) && typeof v.call_type === 'string' && 'messages' in v && ('response_cost' in v || 'model' in v || 'response' in v);
}

/**
 * LiteLLM logs: one payload per LLM call (JSONL lines or a JSON array). Each call repeats the whole conversation so
 * far, so the trajectory is the last call's messages and its reply; cost and tokens are the sums over the calls.
 */
export class LiteLlmAdapter implements FormatAdapter {
  readonly format = 'litellm' as const;
  private last: { payload: Record<string, unknown>; where: string } | undefined;
  private calls = 0;
  private cost = 0;
  private anyCost = false;
  private input = 0;
  private output = 0;
  private anyTokens = false;
  private firstPrompt: string | undefined;
  private conversations = 1;

  constructor(private readonly opts: AdapterOptions) {}

  member(): void {
    // One payload per line or element.
  }

  item(_arrayKey: string, v: unknown, ref: ItemRef): void {
    if (!isObj(v)) return;
    this.calls++;
    const cost = num(v.response_cost);
    if (cost !== undefined) {
      this.cost += cost;
      this.anyCost = true;
    }
    const input = num(v.prompt_tokens) ?? num(dig(v.response, 'usage', 'prompt_tokens'));
    const output = num(v.completion_tokens) ?? num(dig(v.response, 'usage', 'completion_tokens'));
    if (input !== undefined || output !== undefined) {
      this.input += input ?? 0;
      this.output += output ?? 0;
      this.anyTokens = true;
    }
    // Calls of one conversation start with the same prompt; a log of several conversations is said so.
    const prompt = Array.isArray(v.messages) ? contentText(obj(v.messages.find((m) => isObj(m) && m.role === 'user'))?.content) : typeof v.messages === 'string' ? v.messages : '';
    if (this.firstPrompt === undefined) this.firstPrompt = prompt;
    else if (prompt !== this.firstPrompt) {
      this.conversations++;
      this.firstPrompt = prompt;
    }
    this.last = { payload: v, where: ref.jsonl === true ? `line ${ref.line}` : `[${ref.index}]` };
  }

  finish(): AdapterOutput {
    const last = this.last;
    const chat = new ChatMessagesAdapter(this.opts, 'litellm');
    const facts: SummaryFacts = {};
    if (last !== undefined) {
      const p = last.payload;
      const messages = typeof p.messages === 'string' ? [{ role: 'user', content: p.messages }] : arr(isObj(p.messages) ? [p.messages] : p.messages);
      messages.forEach((m, i) => chat.message(m, `${last.where} messages[${i}]`));
      const reply = obj(dig(p.response, 'choices', 0, 'message'));
      if (reply !== undefined) chat.message(reply, `${last.where} response`);
      const model = nonEmpty(p.model) ?? nonEmpty(dig(p.response, 'model'));
      if (model !== undefined) facts.model = model;
      const status = nonEmpty(p.status);
      if (status !== undefined) facts.exitStatus = status === 'failure' && nonEmpty(p.error_str) !== undefined ? `failure: ${String(p.error_str).split('\n', 1)[0]!.slice(0, 300)}` : status;
    }
    const out = chat.finish();
    if (this.anyCost) facts.costUsd = this.cost;
    if (this.anyTokens) facts.tokens = { input: this.input, output: this.output };
    facts.notes = [
      `${this.calls} logged LLM call(s); the steps are the last call's messages and reply, cost and tokens the sum over the calls`,
      ...(this.conversations > 1 ? [`the log holds ${this.conversations} conversations (calls with different first prompts); only the last is shown`] : []),
    ];
    return { format: this.format, steps: out.steps, facts, problems: out.problems };
  }
}
