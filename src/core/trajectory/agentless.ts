// Agentless stage outputs, one JSON line per instance: the repair stage's `repair_sample_K/output.jsonl`
// (`{instance_id, raw_output, all_generations, try_count, traj: [{prompt, response, usage}], ...}`) and the
// localization stages' `loc_outputs.jsonl` (`{instance_id, found_files, file_traj: {prompt, response, usage}, ...}`).
// Agentless is a pipeline of single LLM calls, not a chat: each call's prompt is one string (a user step, said once
// when samples repeat it) and its response a string, or with Claude tools a list of lists of content blocks. The
// patches are not here but in the predictions files (`output_*_processed.jsonl`, `all_preds.jsonl`).

import type { ToolCall } from '../model';
import { toolCallEdits, toolCallSummary } from './edits';
import { SkipCounter, addNote } from './skipped';
import type { AdapterOptions, AdapterOutput, FormatAdapter, SummaryFacts } from './steps';
import { StepList, arr, contentText, isObj, nonEmpty, num, obj, str } from './steps';

/** Member names of an Agentless stage output line. */
export function isAgentlessKeys(keys: ReadonlySet<string>): boolean {
  if (!keys.has('instance_id')) return false;
  if (keys.has('traj') && (keys.has('raw_output') || keys.has('try_count') || keys.has('all_generations'))) return true;
  return keys.has('found_files') && [...keys].some((k) => k.endsWith('_traj'));
}

export class AgentlessAdapter implements FormatAdapter {
  readonly format = 'agentless' as const;
  private readonly members: Array<[string, unknown]> = [];
  private readonly list: StepList;
  private readonly skipped = new SkipCounter();

  constructor(opts: AdapterOptions) {
    this.list = new StepList(opts.keepText);
  }

  member(key: string, value: unknown): void {
    this.members.push([key, value]);
  }

  item(): void {
    // A line has no streamed arrays.
  }

  finish(): AdapterOutput {
    const facts: SummaryFacts = {};
    let lastPrompt: string | undefined;
    for (const [key, value] of this.members) {
      if (key === 'instance_id') {
        const id = nonEmpty(value);
        if (id !== undefined) facts.instanceId = id;
        continue;
      }
      if (key !== 'traj' && !key.endsWith('_traj')) continue;
      const entries = Array.isArray(value) ? value : [value];
      entries.forEach((e, i) => {
        if (!isObj(e)) return;
        const where = Array.isArray(value) ? `${key}[${i}]` : key;
        const prompt = typeof e.prompt === 'string' ? e.prompt : contentText(e.prompt);
        if (prompt.length > 0 && prompt === lastPrompt) this.skipped.add('repeated prompt');
        else if (prompt.length > 0) this.list.add('user', prompt, { sourceRef: `${where}.prompt` });
        lastPrompt = prompt;
        this.response(e.response, `${where}.response`, obj(e.usage));
      });
    }
    this.skipped.into(facts, 'item(s)');
    addNote(facts, 'an Agentless stage output: its patches are in the predictions files (output_*_processed.jsonl, all_preds.jsonl), not here');
    return { format: this.format, steps: this.list.steps, facts, problems: [] };
  }

  private response(response: unknown, sourceRef: string, usage: Record<string, unknown> | undefined): void {
    const tokens =
      usage !== undefined
        ? {
            input: (num(usage.prompt_tokens) ?? 0) + (num(usage.cache_creation_token) ?? 0) + (num(usage.cache_read_input_tokens) ?? 0),
            output: num(usage.completion_tokens) ?? 0,
          }
        : undefined;
    let metered: { sourceRef: string; tokens?: { input: number; output: number } } | undefined = tokens !== undefined ? { sourceRef, tokens } : { sourceRef };
    const take = (): { sourceRef: string; tokens?: { input: number; output: number } } => {
      const m = metered ?? { sourceRef };
      metered = undefined;
      return m;
    };
    if (typeof response === 'string') {
      this.list.add('thought', response, take());
      return;
    }
    // `--str_replace_format` with Claude tools: a list (per turn) of lists of Anthropic content blocks.
    for (const turn of arr(response)) {
      for (const block of Array.isArray(turn) ? turn : [turn]) {
        if (!isObj(block)) continue;
        if (block.type === 'tool_use') {
          const name = str(block.name) ?? 'tool';
          const call: ToolCall = { name, arguments: JSON.stringify(block.input ?? {}) };
          const id = str(block.id);
          if (id !== undefined) call.id = id;
          this.list.add('tool_call', toolCallSummary(name, block.input), { ...take(), toolCalls: [call], edits: toolCallEdits(name, block.input) });
        } else {
          const text = contentText([block]);
          if (text.trim().length > 0) this.list.add('thought', text, take());
        }
      }
    }
  }
}
