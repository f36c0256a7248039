// Harbor's ATIF (`{schema_version, session_id, agent, steps: [...], final_metrics}`), canonical ATIF-v1.x and the
// non-canonical variant some converters write: `schema_version: "1.4"`, `agent.model`, and tool results as
// separate `source: "system"` steps (`observation: {type: "tool_result", ...}`, message "Tool result for <id>") that
// may come before the agent step holding the matching call. Such results are moved right after their call.
// A file may continue in another (`continued_trajectory_ref`); the continuation repeats earlier context in steps
// marked `is_copied_context`, which are left out when the two are joined.

import type { FileEdit, ToolCall, TrajectoryStep } from '../model';
import { dropFailedEdits, editFailed, shellEdits, toolCallEdits, toolCallSummary } from './edits';
import type { AdapterOptions, AdapterOutput, FormatAdapter, ItemRef, StepInit, SummaryFacts } from './steps';
import { StepList, argString, arr, contentText, dig, isObj, isoTime, nonEmpty, num, obj, str, warning } from './steps';

interface Entry {
  step: TrajectoryStep;
  /** For a tool result: the call it answers. */
  resultOf?: string;
  /** For a tool result: the result reports failure. */
  failed?: boolean;
  /** For a tool call step: its call ids. */
  callIds?: string[];
}

interface Call {
  step: TrajectoryStep;
  edits: FileEdit[];
}

/** Shell commands inside a terminal agent's reply (Terminus: JSON `commands[].keystrokes`, or XML `<keystrokes>`). */
function keystrokes(message: string): string[] | undefined {
  const t = message.trim();
  if (t.startsWith('{')) {
    try {
      const v: unknown = JSON.parse(t);
      if (isObj(v) && Array.isArray(v.commands)) {
        return v.commands.map((c) => (isObj(c) ? (str(c.keystrokes) ?? '') : typeof c === 'string' ? c : '')).filter((k) => k.length > 0);
      }
    } catch {
      return undefined;
    }
  }
  const found = [...t.matchAll(/<keystrokes[^>]*>([\s\S]*?)<\/keystrokes>/g)].map((m) => m[1]!);
  return found.length > 0 || /<commands>/.test(t) ? found : undefined;
}

export class AtifAdapter implements FormatAdapter {
  readonly format = 'atif' as const;
  private readonly members: Record<string, unknown> = {};
  private readonly list: StepList;
  private readonly entries: Entry[] = [];
  private readonly calls = new Map<string, Call>();
  private stepModel: string | undefined;
  private metered = { input: 0, output: 0, cost: 0, anyTokens: false, anyCost: false };

  constructor(private readonly opts: AdapterOptions) {
    this.list = new StepList(opts.keepText);
  }

  member(key: string, value: unknown): void {
    this.members[key] = value;
  }

  item(arrayKey: string, s: unknown, ref: ItemRef): void {
    if (arrayKey !== 'steps' || !isObj(s)) return;
    if (this.opts.dropCopiedContext && s.is_copied_context === true) return;
    const sourceRef = `steps[${ref.index}]`;
    const timestamp = isoTime(s.timestamp);
    const base: StepInit = timestamp !== undefined ? { sourceRef, timestamp } : { sourceRef };
    let meter: StepInit | undefined = this.meter(obj(s.metrics));
    /** The first step made from this ATIF step carries its metrics. */
    const first = (): StepInit => {
      const m = meter;
      meter = undefined;
      return m !== undefined ? { ...base, ...m } : base;
    };
    const source = str(s.source);
    const message = contentText(s.message);
    const observation = obj(s.observation);
    this.stepModel ??= nonEmpty(s.model_name);

    if (source === 'system' && observation?.type === 'tool_result') {
      const id = nonEmpty(observation.tool_call_id) ?? nonEmpty(observation.source_call_id) ?? /Tool result for (\S+)/.exec(message)?.[1];
      const result = obj(observation.result);
      const text = str(observation.content) ?? str(result?.output) ?? str(result?.error) ?? contentText(observation.content);
      const failed = result?.success === false || editFailed(text);
      const entry: Entry = { step: this.list.add('tool_result', text, first()), failed };
      if (id !== undefined) entry.resultOf = id;
      this.entries.push(entry);
      return;
    }
    if (source === 'system' || source === 'user') {
      this.entries.push({ step: this.list.add(source, message, first()) });
      this.results(observation, first, new Set());
      return;
    }
    // The agent.
    const reasoning = nonEmpty(s.reasoning_content);
    if (reasoning !== undefined) this.entries.push({ step: this.list.add('thought', reasoning, first()) });
    const calls: ToolCall[] = [];
    for (const c of arr(s.tool_calls)) {
      if (!isObj(c)) continue;
      const name = str(c.function_name) ?? str(c.name) ?? str(dig(c, 'function', 'name'));
      if (name === undefined) continue;
      const call: ToolCall = { name, arguments: argString(c.arguments ?? dig(c, 'function', 'arguments') ?? c.input) };
      const id = str(c.tool_call_id) ?? str(c.id);
      if (id !== undefined) call.id = id;
      calls.push(call);
    }
    if (calls.length > 0) {
      if (message.trim().length > 0) this.entries.push({ step: this.list.add('thought', message, first()) });
      const perCall = calls.map((c) => toolCallEdits(c.name, c.arguments));
      const step = this.list.add('tool_call', calls.map((c) => toolCallSummary(c.name, c.arguments)).join('\n'), { ...first(), toolCalls: calls, edits: perCall.flat() });
      calls.forEach((c, k) => {
        if (c.id !== undefined) this.calls.set(c.id, { step, edits: perCall[k]! });
      });
      this.entries.push({ step, callIds: calls.flatMap((c) => (c.id !== undefined ? [c.id] : [])) });
      this.results(observation, first, new Set(calls.flatMap((c) => (c.id !== undefined ? [c.id] : []))));
      return;
    }
    const keys = keystrokes(message);
    const hasResults = arr(observation?.results).length > 0;
    if (keys !== undefined || hasResults) {
      const edits = (keys ?? []).flatMap((k) => shellEdits(k));
      this.entries.push({ step: this.list.add('action', message, { ...first(), edits }) });
    } else if (message.trim().length > 0 || reasoning === undefined) {
      this.entries.push({ step: this.list.add('thought', message, first()) });
    }
    this.results(observation, first, new Set());
  }

  finish(): AdapterOutput {
    const problems = [];
    const version = str(this.members.schema_version);
    if (version !== undefined && !version.startsWith('ATIF-')) {
      problems.push(warning(this.opts.fileLabel, `non-canonical ATIF schema_version "${version}" (expected "ATIF-v1.x")`, undefined, 'schema_version'));
    }
    const { steps, moved } = this.order();
    if (moved > 0) {
      problems.push(warning(this.opts.fileLabel, `${moved} tool result step(s) came before the step that made the call; moved after it`, undefined, 'steps'));
    }
    return { format: this.format, steps, facts: this.facts(), problems, ...this.continuation() };
  }

  private continuation(): { continuationRef?: string } {
    const ref = nonEmpty(this.members.continued_trajectory_ref);
    return ref !== undefined ? { continuationRef: ref } : {};
  }

  private meter(metrics: Record<string, unknown> | undefined): StepInit | undefined {
    if (metrics === undefined) return undefined;
    const input = num(metrics.prompt_tokens);
    const output = num(metrics.completion_tokens);
    const cost = num(metrics.cost_usd);
    const m: StepInit = {};
    if (input !== undefined || output !== undefined) {
      m.tokens = { input, output };
      this.metered.input += input ?? 0;
      this.metered.output += output ?? 0;
      this.metered.anyTokens = true;
    }
    if (cost !== undefined) {
      m.costUsd = cost;
      this.metered.cost += cost;
      this.metered.anyCost = true;
    }
    return m;
  }

  /** Observation results of a step: tool results when they name one of its calls, else observations. */
  private results(observation: Record<string, unknown> | undefined, first: () => StepInit, ids: Set<string>): void {
    for (const r of arr(observation?.results)) {
      if (!isObj(r)) continue;
      if (r.content === undefined || r.content === null) continue;
      const text = contentText(r.content);
      const id = str(r.source_call_id) ?? str(r.tool_call_id);
      if (id !== undefined && ids.has(id)) {
        this.entries.push({ step: this.list.add('tool_result', text, first()), resultOf: id, failed: editFailed(text) });
      } else {
        this.entries.push({ step: this.list.add('observation', text, first()) });
      }
    }
  }

  private order(): { steps: TrajectoryStep[]; moved: number } {
    const callStep = new Map<string, TrajectoryStep>();
    for (const [id, call] of this.calls) callStep.set(id, call.step);
    for (const e of this.entries) {
      if (e.resultOf === undefined || e.failed !== true) continue;
      const call = this.calls.get(e.resultOf);
      if (call !== undefined) dropFailedEdits(call.step, '', true, call.edits);
    }
    const early = new Map<string, TrajectoryStep[]>();
    const seenCalls = new Set<string>();
    const out: TrajectoryStep[] = [];
    let moved = 0;
    for (const e of this.entries) {
      if (e.resultOf !== undefined && !seenCalls.has(e.resultOf) && callStep.has(e.resultOf)) {
        const list = early.get(e.resultOf) ?? [];
        list.push(e.step);
        early.set(e.resultOf, list);
        moved++;
        continue;
      }
      out.push(e.step);
      for (const id of e.callIds ?? []) {
        seenCalls.add(id);
        const waiting = early.get(id);
        if (waiting !== undefined) {
          out.push(...waiting);
          early.delete(id);
        }
      }
    }
    for (let i = 0; i < out.length; i++) out[i]!.index = i;
    return { steps: out, moved };
  }

  private facts(): SummaryFacts {
    const facts: SummaryFacts = {};
    const fm = obj(this.members.final_metrics);
    const cost = num(fm?.total_cost_usd) ?? (this.metered.anyCost ? this.metered.cost : undefined);
    if (cost !== undefined) facts.costUsd = cost;
    const input = num(fm?.total_prompt_tokens);
    const output = num(fm?.total_completion_tokens);
    if (input !== undefined || output !== undefined) {
      facts.tokens = {};
      if (input !== undefined) facts.tokens.input = input;
      if (output !== undefined) facts.tokens.output = output;
    } else if (this.metered.anyTokens) {
      facts.tokens = { input: this.metered.input, output: this.metered.output };
    }
    const agent = obj(this.members.agent);
    const model = nonEmpty(agent?.model_name) ?? nonEmpty(agent?.model) ?? this.stepModel;
    if (model !== undefined) facts.model = model;
    const success = dig(this.members.extra, 'success');
    if (typeof success === 'boolean') facts.exitStatus = success ? 'success' : 'failure';
    const instanceId = nonEmpty(dig(this.members.extra, 'instance_id')) ?? nonEmpty(dig(this.members.extra, 'task_id'));
    if (instanceId !== undefined) facts.instanceId = instanceId;
    return facts;
  }
}
