// mini-swe-agent `.traj.json`, formats "mini-swe-agent-1" (text: the action is a ```bash block in the reply) and
// "mini-swe-agent-1.1" (tool calls: `content: null` + `tool_calls`, `role: "tool"` results, a final `role: "exit"`
// message carrying the submission). User messages after the first reply are the environment speaking
// (observations and format-error notices), so they are observations.

import type { TrajectoryStep } from '../model';
import { argsObject, dropFailedEdits, shellEdits, toolCallEdits } from './edits';
import type { AdapterOptions, AdapterOutput, FormatAdapter, ItemRef, SummaryFacts } from './steps';
import { StepList, contentText, dig, isObj, isoTime, nonEmpty, num, obj, openAiToolCalls, str, warning } from './steps';

/** mini-swe-agent's own action regex: the first ```bash block. */
const BASH_BLOCK = /```(?:bash|sh)\s*\n([\s\S]*?)\n```/;

export class MiniSweAgentAdapter implements FormatAdapter {
  readonly format = 'mini-swe-agent' as const;
  private readonly members: Record<string, unknown> = {};
  private readonly steps: StepList;
  private seenAssistant = false;
  private pendingEdit: TrajectoryStep | undefined;
  private input = 0;
  private output = 0;
  private anyUsage = false;

  constructor(private readonly opts: AdapterOptions) {
    this.steps = new StepList(opts.keepText);
  }

  member(key: string, value: unknown): void {
    this.members[key] = value;
  }

  item(arrayKey: string, m: unknown, ref: ItemRef): void {
    if (arrayKey !== 'messages' || !isObj(m)) return;
    const sourceRef = `messages[${ref.index}]`;
    const role = str(m.role);
    const extra = obj(m.extra);
    const timestamp = isoTime(extra?.timestamp);
    const text = contentText(m.content);
    const base = timestamp !== undefined ? { sourceRef, timestamp } : { sourceRef };
    if (role === 'system') {
      this.steps.add('system', text, base);
      return;
    }
    if (role === 'assistant') {
      this.seenAssistant = true;
      const usage = obj(dig(extra, 'response', 'usage')) ?? obj(m.usage);
      const tokens = usage !== undefined ? { input: num(usage.prompt_tokens) ?? num(usage.input_tokens), output: num(usage.completion_tokens) ?? num(usage.output_tokens) } : undefined;
      if (tokens !== undefined) {
        this.input += tokens.input ?? 0;
        this.output += tokens.output ?? 0;
        this.anyUsage = true;
      }
      const costUsd = num(extra?.cost);
      const metered = { ...base, ...(tokens !== undefined ? { tokens } : {}), ...(costUsd !== undefined ? { costUsd } : {}) };
      const toolCalls = openAiToolCalls(m.tool_calls);
      let acted: TrajectoryStep | undefined;
      if (toolCalls.length > 0) {
        if (text.trim().length > 0) this.steps.add('thought', text, base);
        const commands = toolCalls.map((t) => str(argsObject(t.arguments).command) ?? t.arguments);
        acted = this.steps.add('tool_call', commands.join('\n'), {
          ...metered,
          toolCalls,
          edits: toolCalls.flatMap((t) => toolCallEdits(t.name, t.arguments)),
        });
      } else {
        const block = BASH_BLOCK.exec(text);
        const thought = block !== null ? text.slice(0, block.index).trim() : text;
        if (block === null) {
          this.steps.add('thought', thought, metered);
        } else {
          if (thought.length > 0) this.steps.add('thought', thought, base);
          const command = block[1]!;
          acted = this.steps.add('action', command, { ...metered, edits: shellEdits(command) });
        }
      }
      this.pendingEdit = acted?.edits !== undefined ? acted : undefined;
      return;
    }
    if (role === 'exit') {
      this.steps.add('system', text, base);
      return;
    }
    const kind = role === 'tool' ? 'tool_result' : role === 'user' && !this.seenAssistant ? 'user' : 'observation';
    this.steps.add(kind, text, base);
    if (kind !== 'user' && this.pendingEdit !== undefined) {
      dropFailedEdits(this.pendingEdit, text);
      this.pendingEdit = undefined;
    }
  }

  finish(): AdapterOutput {
    const info = this.members.info;
    const facts: SummaryFacts = {};
    const cost = num(dig(info, 'model_stats', 'instance_cost'));
    if (cost !== undefined) facts.costUsd = cost;
    if (this.anyUsage) facts.tokens = { input: this.input, output: this.output };
    const exit = nonEmpty(dig(info, 'exit_status'));
    if (exit !== undefined) facts.exitStatus = exit;
    const submission = nonEmpty(dig(info, 'submission'));
    if (submission !== undefined) facts.submission = submission;
    const instanceId = nonEmpty(this.members.instance_id) ?? nonEmpty(dig(info, 'instance_id'));
    if (instanceId !== undefined) facts.instanceId = instanceId;
    const model = nonEmpty(dig(info, 'config', 'model', 'model_name')) ?? nonEmpty(dig(info, 'config', 'model', 'name'));
    if (model !== undefined) facts.model = model;
    const problems = [];
    const fmt = str(this.members.trajectory_format);
    if (fmt !== undefined && !fmt.startsWith('mini-swe-agent')) {
      problems.push(warning(this.opts.fileLabel, `unexpected trajectory_format "${fmt}"; read as mini-swe-agent messages`, undefined, 'trajectory_format'));
    }
    return { format: this.format, steps: this.steps.steps, facts, problems };
  }
}
