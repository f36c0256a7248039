// Claude Code transcripts: the session JSONL under ~/.claude/projects (`type, uuid, parentUuid, message`) and the
// `--output-format stream-json` output (`system/init`, `assistant`, `user`, `result`).
// Session order is rebuilt from `parentUuid` (a depth-first walk, children in file order): hook `progress` lines
// sit inside the chain and a tool result points at its tool_use line, so file order is not conversation order.
// One API response is split over several assistant lines (text, thinking, tool_use) sharing `message.id`; its usage
// is counted once. Sub-agent lines (`isSidechain`) of a session are left out; a stream keeps them inline.

import type { ToolCall, TrajectoryStep } from '../model';
import { argsObject, dropFailedEdits, toolCallEdits, toolCallSummary } from './edits';
import type { AdapterOptions, AdapterOutput, FormatAdapter, ItemRef, SummaryFacts } from './steps';
import { StepList, arr, contentText, isObj, isoTime, nonEmpty, num, obj, str, warning } from './steps';

interface Node {
  uuid: string | undefined;
  parent: string | undefined;
  order: number;
  steps: TrajectoryStep[];
}

interface Usage {
  input: number;
  output: number;
}

function usageOf(u: Record<string, unknown>): Usage {
  return {
    input: (num(u.input_tokens) ?? 0) + (num(u.cache_creation_input_tokens) ?? 0) + (num(u.cache_read_input_tokens) ?? 0),
    output: num(u.output_tokens) ?? 0,
  };
}

/** A line of a Claude Code transcript (session JSONL or stream-json). */
export function isClaudeCodeLine(v: unknown): boolean {
  if (!isObj(v) || typeof v.type !== 'string') return false;
  if ('parentUuid' in v || 'sessionId' in v || 'session_id' in v || 'leafUuid' in v) return true;
  if (v.type === 'file-history-snapshot' && 'snapshot' in v) return true;
  return (v.type === 'assistant' || v.type === 'user') && isObj(v.message) && 'uuid' in v;
}

export class ClaudeCodeAdapter implements FormatAdapter {
  readonly format = 'claude-code' as const;
  private readonly list: StepList;
  private readonly nodes: Node[] = [];
  private readonly callSteps = new Map<string, TrajectoryStep>();
  private readonly usage = new Map<string, Usage>();
  private readonly firstStepOf = new Map<string, TrajectoryStep>();
  private tree = false;
  private sidechainLines = 0;
  private model: string | undefined;
  private result: Record<string, unknown> | undefined;
  private cost = 0;
  private anyCost = false;

  constructor(private readonly opts: AdapterOptions) {
    this.list = new StepList(opts.keepText);
  }

  member(): void {
    // Transcripts have no top-level members: every line is an item.
  }

  item(_arrayKey: string, o: unknown, ref: ItemRef): void {
    if (!isObj(o)) return;
    const type = str(o.type);
    if ('parentUuid' in o) this.tree = true;
    if (o.isSidechain === true) {
      this.sidechainLines++;
      return;
    }
    const sub = o.parent_tool_use_id !== undefined && o.parent_tool_use_id !== null;
    const sourceRef = ref.jsonl === true ? `line ${ref.line}${sub ? ' (subagent)' : ''}` : `[${ref.index}]`;
    const timestamp = isoTime(o.timestamp);
    const base = timestamp !== undefined ? { sourceRef, timestamp } : { sourceRef };
    const start = this.list.steps.length;
    const message = obj(o.message);

    if (type === 'system' && o.subtype === 'init') {
      this.model ??= nonEmpty(o.model);
    } else if (type === 'result') {
      this.result = o;
    } else if (type === 'user' && message !== undefined) {
      const content = message.content;
      if (typeof content === 'string') {
        this.list.add('user', content, base);
      } else {
        const texts: string[] = [];
        for (const block of arr(content)) {
          if (!isObj(block)) continue;
          if (block.type === 'tool_result') {
            const text = contentText(block.content);
            this.list.add('tool_result', text, base);
            const id = str(block.tool_use_id);
            const call = id !== undefined ? this.callSteps.get(id) : undefined;
            if (call !== undefined) dropFailedEdits(call, text, block.is_error === true);
          } else {
            texts.push(contentText([block]));
          }
        }
        if (texts.length > 0) this.list.add('user', texts.join('\n'), base);
      }
    } else if (type === 'assistant' && message !== undefined) {
      const model = nonEmpty(message.model);
      if (model !== undefined && model !== '<synthetic>') this.model ??= model;
      const cost = num(o.costUSD);
      if (cost !== undefined) {
        this.cost += cost;
        this.anyCost = true;
      }
      const content = message.content;
      const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : arr(content);
      for (const block of blocks) {
        if (!isObj(block)) continue;
        if (block.type === 'text' && nonEmpty(block.text) !== undefined) this.list.add('thought', String(block.text), base);
        else if (block.type === 'thinking' && nonEmpty(block.thinking) !== undefined) this.list.add('thought', String(block.thinking), base);
        else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
          const name = str(block.name) ?? 'tool';
          const input = argsObject(block.input);
          const call: ToolCall = { name, arguments: JSON.stringify(block.input ?? {}) };
          const id = str(block.id);
          if (id !== undefined) call.id = id;
          const step = this.list.add('tool_call', toolCallSummary(name, input), { ...base, toolCalls: [call], edits: toolCallEdits(name, input) });
          if (id !== undefined) this.callSteps.set(id, step);
        }
      }
      const first = this.list.steps[start];
      if (cost !== undefined && first !== undefined) first.costUsd = cost;
      const id = str(message.id);
      const u = obj(message.usage);
      if (id !== undefined && u !== undefined) {
        const now = usageOf(u);
        const before = this.usage.get(id);
        this.usage.set(id, before === undefined ? now : { input: Math.max(before.input, now.input), output: Math.max(before.output, now.output) });
        if (first !== undefined && !this.firstStepOf.has(id)) this.firstStepOf.set(id, first);
      }
    } else if (type === 'system') {
      const text = nonEmpty(o.content) ?? `[${str(o.subtype) ?? 'system'}]`;
      this.list.add('system', text, base);
    }
    this.nodes.push({
      uuid: str(o.uuid),
      parent: str(o.parentUuid) ?? str(o.logicalParentUuid),
      order: this.nodes.length,
      steps: this.list.steps.slice(start),
    });
  }

  finish(): AdapterOutput {
    const problems = [];
    for (const [id, u] of this.usage) {
      const step = this.firstStepOf.get(id);
      if (step !== undefined) step.tokens = { input: u.input, output: u.output };
    }
    let steps: TrajectoryStep[];
    if (this.tree) {
      const { order, branches } = this.treeOrder();
      steps = order.flatMap((n) => n.steps);
      if (branches > 0) {
        problems.push(
          warning(this.opts.fileLabel, `the session branches at ${branches} point(s) (a rewind or retry); every branch is kept, in parentUuid order`),
        );
      }
    } else {
      steps = this.list.steps;
    }
    if (this.sidechainLines > 0) {
      problems.push(warning(this.opts.fileLabel, `${this.sidechainLines} sub-agent (isSidechain) line(s) left out of the main conversation`));
    }
    for (let i = 0; i < steps.length; i++) steps[i]!.index = i;
    return { format: this.format, steps, facts: this.facts(), problems };
  }

  private treeOrder(): { order: Node[]; branches: number } {
    const byId = new Map<string, Node>();
    for (const n of this.nodes) if (n.uuid !== undefined) byId.set(n.uuid, n);
    const children = new Map<Node, Node[]>();
    const roots: Node[] = [];
    for (const n of this.nodes) {
      if (n.uuid === undefined) {
        if (n.steps.length > 0) roots.push(n);
        continue;
      }
      const parent = n.parent !== undefined ? byId.get(n.parent) : undefined;
      if (parent === undefined || parent === n) roots.push(n);
      else {
        const list = children.get(parent) ?? [];
        list.push(n);
        children.set(parent, list);
      }
    }
    const order: Node[] = [];
    const visited = new Set<Node>();
    const stack = roots.slice().reverse();
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (visited.has(n)) continue;
      visited.add(n);
      order.push(n);
      const kids = children.get(n);
      if (kids !== undefined) for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]!);
    }
    // Lines caught in a parentUuid cycle are never reached from a root; keep them in file order at the end.
    for (const n of this.nodes) if (!visited.has(n) && n.steps.length > 0) order.push(n);
    const hasMessage = new Map<Node, boolean>();
    for (let k = order.length - 1; k >= 0; k--) {
      const n = order[k]!;
      hasMessage.set(n, n.steps.length > 0 || (children.get(n) ?? []).some((c) => hasMessage.get(c) === true));
    }
    let branches = 0;
    for (const [, kids] of children) if (kids.filter((c) => hasMessage.get(c) === true).length > 1) branches++;
    return { order, branches };
  }

  private facts(): SummaryFacts {
    const facts: SummaryFacts = {};
    const r = this.result;
    const resultCost = num(r?.total_cost_usd) ?? num(r?.cost_usd);
    if (resultCost !== undefined) facts.costUsd = resultCost;
    else if (this.anyCost) facts.costUsd = this.cost;
    const ru = obj(r?.usage);
    if (ru !== undefined) facts.tokens = usageOf(ru);
    else if (this.usage.size > 0) {
      let input = 0;
      let output = 0;
      for (const u of this.usage.values()) {
        input += u.input;
        output += u.output;
      }
      facts.tokens = { input, output };
    }
    if (r !== undefined) {
      const subtype = nonEmpty(r.subtype) ?? 'result';
      facts.exitStatus = r.is_error === true && !subtype.startsWith('error') ? `error (${subtype})` : subtype;
    }
    if (this.model !== undefined) facts.model = this.model;
    return facts;
  }
}
