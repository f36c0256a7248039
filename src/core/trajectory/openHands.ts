// OpenHands event streams (a JSON array of events, or one event per line), evaluation output lines
// (`{instance_id, history: [event], test_result: {git_patch}, metrics, error, ...}`) and issue-resolver output lines
// (`{issue, instruction, base_commit, git_patch, history, metrics, success, ...}`). The resolver's history is
// `dataclasses.asdict` of each event: no `id`, `source`, `cause` or `args` (the arguments are the event's own
// fields), so its first message is the user's and an observation answers the action before it. Its `success` is the
// agent's own guess, kept as a claim; its `git_patch` was captured through a terminal (CRLF line endings).
// An action that carries `tool_call_metadata` is a tool call and its observation a tool result; without it
// (older or UI-exported streams) they are plain actions and observations. Agent-state bookkeeping events
// (`change_agent_state`, `agent_state_changed`, `"observation": "null"`) are not steps; the last state becomes
// the exit status when nothing better is known.

import type { ToolCall, TrajectoryStep } from '../model';
import { dropFailedEdits, shellEdits } from './edits';
import type { AdapterOptions, AdapterOutput, FormatAdapter, ItemRef, SummaryFacts } from './steps';
import { addNote } from './skipped';
import { StepList, argString, arr, dig, isObj, isoTime, nonEmpty, num, obj, str } from './steps';

/** An OpenHands event as `dataclasses.asdict` writes it (resolver output): an action or observation name only. */
export function isAsdictEvent(v: unknown): boolean {
  return isObj(v) && (typeof v.action === 'string' || typeof v.observation === 'string');
}

/**
 * A patch captured through a terminal has CRLF on every line, its git header lines too, which a real diff never
 * has there; it is given back with LF line endings. Other patches are returned as they are.
 */
export function terminalCrlf(patch: string): { patch: string; converted: boolean } {
  const header = /^(?:diff --git |index |--- |\+\+\+ |@@ )[^\n]*\r\n/m;
  if (!header.test(patch)) return { patch, converted: false };
  return { patch: patch.replace(/\r\n/g, '\n'), converted: true };
}

function oneLine(s: string): string {
  const line = s.split('\n', 1)[0] ?? '';
  return line.length > 300 ? line.slice(0, 300) + '…' : line;
}

export class OpenHandsAdapter implements FormatAdapter {
  readonly format: 'openhands-events' | 'openhands-eval' | 'openhands-resolver';
  private readonly members: Record<string, unknown> = {};
  private readonly steps: StepList;
  private readonly pending = new Map<string, TrajectoryStep>();
  private readonly seenResponses = new Set<string>();
  private agentState: string | undefined;
  private finished = false;
  private lastMetrics: Record<string, unknown> | undefined;
  private responseModel: string | undefined;
  private readonly resolver: boolean;
  private seenAgent = false;
  /** Resolver history: the last action with edits, which the next observation answers. */
  private lastActed: TrajectoryStep | undefined;

  constructor(opts: AdapterOptions, kind: boolean | 'resolver') {
    this.format = kind === 'resolver' ? 'openhands-resolver' : kind ? 'openhands-eval' : 'openhands-events';
    this.resolver = kind === 'resolver';
    this.steps = new StepList(opts.keepText);
  }

  member(key: string, value: unknown): void {
    this.members[key] = value;
  }

  item(arrayKey: string, ev: unknown, ref: ItemRef): void {
    if (!isObj(ev)) return;
    const sourceRef = arrayKey === 'history' ? `history[${ref.index}]` : ref.jsonl === true ? `line ${ref.line}` : `[${ref.index}]`;
    const timestamp = isoTime(ev.timestamp);
    const base = timestamp !== undefined ? { sourceRef, timestamp } : { sourceRef };
    const metrics = obj(ev.llm_metrics);
    if (metrics !== undefined) this.lastMetrics = metrics;
    const action = str(ev.action);
    const observation = str(ev.observation);
    const args = obj(ev.args) ?? (this.resolver ? ev : {});
    const message = str(ev.message) ?? '';
    const tcm = obj(ev.tool_call_metadata);
    if (action !== undefined) {
      switch (action) {
        case 'change_agent_state':
          this.agentState = str(args.agent_state) ?? this.agentState;
          return;
        case 'system':
          this.steps.add('system', str(args.content) ?? message, base);
          return;
        case 'message': {
          const user = ev.source === 'user' || (this.resolver && !this.seenAgent);
          this.seenAgent ||= !user;
          this.steps.add(user ? 'user' : 'thought', str(args.content) ?? message, base);
          return;
        }
        case 'think':
          this.steps.add('thought', str(args.thought) ?? message, { ...base, ...this.tokens(tcm) });
          return;
        default:
          break;
      }
      if (action === 'finish') this.finished = true;
      this.seenAgent = true;
      const thought = nonEmpty(args.thought);
      if (thought !== undefined && action !== 'finish') this.steps.add('thought', thought, base);
      const edits = this.edits(action, args);
      const toolCalls = this.toolCalls(tcm, args);
      const step = this.steps.add(toolCalls.length > 0 ? 'tool_call' : 'action', this.actionText(action, args, message), {
        ...base,
        ...this.tokens(tcm),
        ...(toolCalls.length > 0 ? { toolCalls } : {}),
        edits,
      });
      const id = ev.id !== undefined ? String(ev.id) : undefined;
      if (id !== undefined && step.edits !== undefined) this.pending.set(id, step);
      this.lastActed = step.edits !== undefined ? step : undefined;
      return;
    }
    if (observation !== undefined) {
      if (observation === 'agent_state_changed') {
        this.agentState = str(dig(ev, 'extras', 'agent_state')) ?? this.agentState;
        return;
      }
      if (observation === 'null') return;
      const text = str(ev.content) ?? message;
      this.steps.add(tcm !== undefined ? 'tool_result' : 'observation', text, base);
      const cause = ev.cause !== undefined && ev.cause !== null ? String(ev.cause) : undefined;
      if (this.resolver && this.lastActed !== undefined) {
        dropFailedEdits(this.lastActed, text, observation === 'error');
        this.lastActed = undefined;
      } else if (cause !== undefined) {
        const acted = this.pending.get(cause);
        if (acted !== undefined) {
          dropFailedEdits(acted, text, observation === 'error');
          this.pending.delete(cause);
        }
      }
    }
  }

  finish(): AdapterOutput {
    const facts: SummaryFacts = {};
    const evalMetrics = obj(this.members.metrics);
    const metrics = evalMetrics ?? this.lastMetrics;
    const cost = num(metrics?.accumulated_cost);
    if (cost !== undefined) facts.costUsd = cost;
    const usage = obj(metrics?.accumulated_token_usage);
    if (usage !== undefined) {
      const input = num(usage.prompt_tokens);
      const output = num(usage.completion_tokens);
      if (input !== undefined || output !== undefined) {
        facts.tokens = {};
        if (input !== undefined) facts.tokens.input = input;
        if (output !== undefined) facts.tokens.output = output;
      }
    }
    const error = nonEmpty(this.members.error);
    if (error !== undefined) facts.exitStatus = `error: ${oneLine(error)}`;
    else if (this.finished) facts.exitStatus = 'finished';
    else if (this.agentState !== undefined) facts.exitStatus = this.agentState;
    const patch = nonEmpty(dig(this.members.test_result, 'git_patch')) ?? nonEmpty(this.members.git_patch);
    if (patch !== undefined) {
      const p = terminalCrlf(patch);
      facts.submission = p.patch;
      if (p.converted) addNote(facts, 'git_patch has CRLF line endings (captured through a terminal); read with LF line endings');
    }
    const instanceId = nonEmpty(this.members.instance_id) ?? nonEmpty(dig(this.members.instance, 'instance_id')) ?? this.issueId();
    if (instanceId !== undefined) facts.instanceId = instanceId;
    if (this.resolver) this.resolverFacts(facts);
    const model = nonEmpty(dig(this.members.metadata, 'llm_config', 'model')) ?? this.responseModel;
    if (model !== undefined) facts.model = model;
    return { format: this.format, steps: this.steps.steps, facts, problems: [] };
  }

  /** The resolver's issue as a SWE-bench style id: `{owner}__{repo}-{number}`. */
  private issueId(): string | undefined {
    const issue = obj(this.members.issue);
    const owner = nonEmpty(issue?.owner);
    const repo = nonEmpty(issue?.repo);
    const n = issue?.number;
    if (owner === undefined || repo === undefined || (typeof n !== 'number' && typeof n !== 'string') || String(n).length === 0) return undefined;
    return `${owner}__${repo}-${String(n)}`;
  }

  private resolverFacts(facts: SummaryFacts): void {
    const issue = obj(this.members.issue);
    const owner = nonEmpty(issue?.owner);
    const repo = nonEmpty(issue?.repo);
    if (owner !== undefined && repo !== undefined) facts.repo = `${owner}/${repo}`;
    const base = nonEmpty(this.members.base_commit);
    if (base !== undefined) facts.baseCommit = base;
    const success = this.members.success;
    if (typeof success === 'boolean') {
      const explanation = nonEmpty(this.members.result_explanation);
      facts.claimed = { status: success ? 'success' : 'failure', ...(explanation !== undefined ? { summary: explanation } : {}) };
      if (success) addNote(facts, "success: true is the agent's own claim, not a verdict");
    }
  }

  /** Tokens of the model response behind an action, counted once per response (parallel calls share one). */
  private tokens(tcm: Record<string, unknown> | undefined): { tokens?: { input?: number; output?: number } } {
    const response = obj(tcm?.model_response);
    if (response === undefined) return {};
    this.responseModel ??= nonEmpty(response.model);
    const id = str(response.id);
    if (id !== undefined) {
      if (this.seenResponses.has(id)) return {};
      this.seenResponses.add(id);
    }
    const usage = obj(response.usage);
    if (usage === undefined) return {};
    return { tokens: { input: num(usage.prompt_tokens), output: num(usage.completion_tokens) } };
  }

  private toolCalls(tcm: Record<string, unknown> | undefined, args: Record<string, unknown>): ToolCall[] {
    if (tcm === undefined) return [];
    const name = str(tcm.function_name) ?? 'tool';
    const id = str(tcm.tool_call_id);
    // The arguments exactly as the model wrote them, when the response is kept.
    let written: string | undefined;
    for (const choice of arr(dig(tcm, 'model_response', 'choices'))) {
      for (const call of arr(dig(choice, 'message', 'tool_calls'))) {
        if (isObj(call) && (id === undefined || call.id === id)) written ??= argString(dig(call, 'function', 'arguments'));
      }
    }
    const call: ToolCall = { name, arguments: written ?? argString(args) };
    if (id !== undefined) call.id = id;
    return [call];
  }

  private actionText(action: string, args: Record<string, unknown>, message: string): string {
    const path = str(args.path) ?? '';
    switch (action) {
      case 'run':
        return str(args.command) ?? message;
      case 'run_ipython':
        return str(args.code) ?? message;
      case 'read':
        return `read ${path}`;
      case 'edit': {
        const command = nonEmpty(args.command) ?? 'edit';
        const body = nonEmpty(args.file_text) ?? nonEmpty(args.new_str) ?? nonEmpty(args.content);
        return `${command} ${path}${body !== undefined ? '\n' + body : ''}`;
      }
      case 'write':
        return `write ${path}${nonEmpty(args.content) !== undefined ? '\n' + String(args.content) : ''}`;
      case 'browse':
        return `browse ${str(args.url) ?? ''}`;
      case 'finish':
        return nonEmpty(args.final_thought) ?? nonEmpty(args.thought) ?? nonEmpty(dig(args, 'outputs', 'content')) ?? (message || 'finish');
      default:
        return message.length > 0 ? message : `${action} ${JSON.stringify(args)}`;
    }
  }

  private edits(action: string, args: Record<string, unknown>): ReturnType<typeof shellEdits> {
    if (action === 'run') {
      const command = str(args.command);
      return command !== undefined ? shellEdits(command) : [];
    }
    const path = nonEmpty(args.path);
    if (path === undefined) return [];
    if (action === 'edit') {
      const command = nonEmpty(args.command);
      if (command === 'view') return [];
      return [{ path, via: command !== undefined ? `edit ${command}` : 'edit' }];
    }
    if (action === 'write') return [{ path, via: 'write' }];
    return [];
  }
}
