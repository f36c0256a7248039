// Claude Code transcripts: the session JSONL under ~/.claude/projects (`type, uuid, parentUuid, message`) and the
// `--output-format stream-json` output (`system/init`, `assistant`, `user`, `result`).
//
// Session order is rebuilt from `parentUuid`, not file order: hook `progress` lines sit inside the chain and a tool
// result points at its tool_use line. One API response is written one line per content block (thinking, text, each
// tool_use), the lines sharing `message.id`; with parallel tool calls each block's line hangs off the previous one
// and each result hangs off its own call's line, so the raw graph forks at every call although nothing branched.
// The reader therefore collapses a message's lines and their results into one node first, then walks the tree
// (depth-first, children in file order); a fork left after that is a real rewind or retry. A message's results go
// after its calls as Claude Code orders them (`recoverOrphanedParallelToolResults`): a result that the next call
// hangs off (calls streamed one at a time) right before that call, the others after the message's last line, in
// the order they were written. Usage is counted once per message (the largest seen: earlier lines carry partial
// counts). Sub-agent lines (`isSidechain`) of a session are left out; a file of nothing but sub-agent lines is a
// sub-agent transcript and is read; a stream keeps them inline.

import type { ToolCall, TrajectoryStep } from '../model';
import { argsObject, dropFailedEdits, toolCallEdits, toolCallSummary } from './edits';
import { SkipCounter, addNote } from './skipped';
import type { AdapterOptions, AdapterOutput, FormatAdapter, ItemRef, SummaryFacts } from './steps';
import { StepList, arr, contentText, isObj, isoTime, nonEmpty, num, obj, str, warning } from './steps';

interface Usage {
  input: number;
  output: number;
}

interface Node {
  uuid: string | undefined;
  parent: string | undefined;
  order: number;
  steps: TrajectoryStep[];
  sidechain: boolean;
  /** Assistant lines: the API message they belong to. */
  messageId?: string;
  /** Assistant lines: the ids of their tool_use blocks. */
  callIds?: string[];
  /** User lines holding tool_result blocks: the tool_use ids they answer. */
  resultFor?: string[];
  sourceAssistant?: string;
  usage?: Usage;
  model?: string;
  cost?: number;
}

/** A unit of the conversation tree: one line, or one API message's lines with their tool results. */
interface Unit {
  members: Node[];
  results: Node[];
  first: Node;
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

/** System lines that are bookkeeping, not conversation: hook summaries, turn timings, API retries. */
const SKIPPED_SYSTEM = new Set(['turn_duration', 'stop_hook_summary', 'api_error']);

/** User text that Claude Code itself wrote: slash-command echoes, their output, the local-command caveat. */
const HARNESS_TEXT = /^\s*(?:<(?:command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat)>|\[Request interrupted by user)/;

export class ClaudeCodeAdapter implements FormatAdapter {
  readonly format = 'claude-code' as const;
  private readonly list: StepList;
  private readonly nodes: Node[] = [];
  private readonly callSteps = new Map<string, TrajectoryStep>();
  private readonly skipped = new SkipCounter();
  private tree = false;
  private initModel: string | undefined;
  private result: Record<string, unknown> | undefined;

  constructor(private readonly opts: AdapterOptions) {
    this.list = new StepList(opts.keepText);
  }

  member(): void {
    // Transcripts have no top-level members: every line is an item.
  }

  item(_arrayKey: string, o: unknown, ref: ItemRef): void {
    if (!isObj(o)) {
      this.skipped.add(Array.isArray(o) ? '(a JSON array)' : `(a JSON ${o === null ? 'null' : typeof o})`);
      return;
    }
    const type = str(o.type) ?? '(no type)';
    if ('parentUuid' in o) this.tree = true;
    const sub = o.parent_tool_use_id !== undefined && o.parent_tool_use_id !== null;
    const sourceRef = ref.jsonl === true ? `line ${ref.line}${sub ? ' (subagent)' : ''}` : `[${ref.index}]`;
    const timestamp = isoTime(o.timestamp);
    const base = timestamp !== undefined ? { sourceRef, timestamp } : { sourceRef };
    const start = this.list.steps.length;
    const message = obj(o.message);
    const node: Node = { uuid: str(o.uuid), parent: str(o.parentUuid) ?? str(o.logicalParentUuid), order: this.nodes.length, steps: [], sidechain: o.isSidechain === true };
    const subtype = str(o.subtype);

    if (type === 'system' && subtype === 'init') {
      this.initModel ??= nonEmpty(o.model);
    } else if (type === 'result') {
      this.result = o;
    } else if (type === 'user' && message !== undefined) {
      this.user(o, message, base, node);
    } else if (type === 'assistant' && message !== undefined) {
      this.assistant(o, message, base, node);
    } else if (type === 'system' && (subtype === undefined || !SKIPPED_SYSTEM.has(subtype))) {
      const text = nonEmpty(o.content) ?? `[${subtype ?? 'system'}]`;
      this.list.add('system', text, base);
    } else {
      const kind = type === 'progress' ? str(obj(o.data)?.type) : subtype;
      this.skipped.add(kind !== undefined ? `${type}/${kind}` : type);
    }
    node.steps = this.list.steps.slice(start);
    this.nodes.push(node);
  }

  private user(o: Record<string, unknown>, message: Record<string, unknown>, base: { sourceRef: string; timestamp?: string }, node: Node): void {
    const content = message.content;
    // Compaction summaries, caveats and skill bodies are written by Claude Code, not typed by the user.
    const harness = o.isCompactSummary === true || o.isMeta === true;
    if (typeof content === 'string') {
      this.list.add(harness || HARNESS_TEXT.test(content) ? 'system' : 'user', content, base);
      return;
    }
    const texts: string[] = [];
    for (const block of arr(content)) {
      if (!isObj(block)) continue;
      if (block.type === 'tool_result') {
        const text = contentText(block.content);
        this.list.add('tool_result', text, base);
        const id = str(block.tool_use_id);
        if (id !== undefined) (node.resultFor ??= []).push(id);
        const call = id !== undefined ? this.callSteps.get(id) : undefined;
        if (call !== undefined) dropFailedEdits(call, text, block.is_error === true);
      } else {
        texts.push(contentText([block]));
      }
    }
    const source = str(o.sourceToolAssistantUUID);
    if (source !== undefined) node.sourceAssistant = source;
    if (texts.length > 0) {
      const text = texts.join('\n');
      this.list.add(harness || HARNESS_TEXT.test(text) ? 'system' : 'user', text, base);
    }
  }

  private assistant(o: Record<string, unknown>, message: Record<string, unknown>, base: { sourceRef: string; timestamp?: string }, node: Node): void {
    const start = this.list.steps.length;
    const model = nonEmpty(message.model);
    if (model !== undefined && model !== '<synthetic>') node.model = model;
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
        if (id !== undefined) {
          this.callSteps.set(id, step);
          (node.callIds ??= []).push(id);
        }
      }
    }
    const cost = num(o.costUSD);
    const first = this.list.steps[start];
    if (cost !== undefined) {
      node.cost = cost;
      if (first !== undefined) first.costUsd = cost;
    }
    const id = str(message.id);
    if (id !== undefined) node.messageId = id;
    const u = obj(message.usage);
    if (u !== undefined) node.usage = usageOf(u);
  }

  finish(): AdapterOutput {
    const problems = [];
    const facts: SummaryFacts = {};
    let nodes = this.nodes.filter((n) => !n.sidechain);
    const sideLines = this.nodes.length - nodes.length;
    const subAgentFile = sideLines > 0 && !nodes.some((n) => n.steps.length > 0);
    if (subAgentFile) {
      // A sub-agent's own transcript (`subagents/agent-<id>.jsonl`): every line is a sidechain line.
      nodes = this.nodes;
      addNote(facts, `a sub-agent transcript: all ${sideLines} conversation line(s) are isSidechain lines`);
    }
    let steps: TrajectoryStep[];
    let units: Unit[];
    if (this.tree) {
      const tree = this.treeOrder(nodes);
      units = tree.units;
      steps = tree.order.flatMap(emit);
      if (tree.branches > 0) {
        problems.push(
          warning(this.opts.fileLabel, `the session branches at ${tree.branches} point(s) (a rewind or retry); every branch is kept, in parentUuid order`),
        );
      }
    } else {
      units = groupByMessage(nodes);
      steps = nodes.flatMap((n) => n.steps);
    }
    if (sideLines > 0 && !subAgentFile) {
      problems.push(warning(this.opts.fileLabel, `${sideLines} sub-agent (isSidechain) line(s) left out of the main conversation`));
    }
    for (let i = 0; i < steps.length; i++) steps[i]!.index = i;
    this.facts(units, facts);
    this.skipped.into(facts);
    return { format: this.format, steps, facts, problems };
  }

  /** The conversation units in tree order, and how many real forks the tree has. */
  private treeOrder(nodes: Node[]): { order: Unit[]; units: Unit[]; branches: number } {
    const units = groupByMessage(nodes);
    const unitOf = new Map<Node, Unit>();
    for (const u of units) for (const n of [...u.members, ...u.results]) unitOf.set(n, u);
    const byId = new Map<string, Node>();
    for (const n of nodes) if (n.uuid !== undefined && !byId.has(n.uuid)) byId.set(n.uuid, n);
    const children = new Map<Unit, Unit[]>();
    const roots: Unit[] = [];
    for (const u of units) {
      const p = u.first.parent !== undefined ? byId.get(u.first.parent) : undefined;
      const parent = p !== undefined ? unitOf.get(p) : undefined;
      if (parent === undefined || parent === u) roots.push(u);
      else {
        const list = children.get(parent) ?? [];
        list.push(u);
        children.set(parent, list);
      }
    }
    const order: Unit[] = [];
    const visited = new Set<Unit>();
    const stack = roots.slice().reverse();
    while (stack.length > 0) {
      const u = stack.pop()!;
      if (visited.has(u)) continue;
      visited.add(u);
      order.push(u);
      const kids = children.get(u);
      if (kids !== undefined) for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]!);
    }
    // Lines caught in a parentUuid cycle are never reached from a root; keep them in file order at the end.
    for (const u of units) if (!visited.has(u)) order.push(u);
    const hasMessage = new Map<Unit, boolean>();
    for (let k = order.length - 1; k >= 0; k--) {
      const u = order[k]!;
      hasMessage.set(u, unitHasSteps(u) || (children.get(u) ?? []).some((c) => hasMessage.get(c) === true));
    }
    let branches = 0;
    for (const [, kids] of children) if (kids.filter((c) => hasMessage.get(c) === true).length > 1) branches++;
    return { order, units, branches };
  }

  private facts(units: Unit[], facts: SummaryFacts): void {
    let cost = 0;
    let anyCost = false;
    let input = 0;
    let output = 0;
    let anyUsage = false;
    let model = this.initModel;
    for (const u of units) {
      // One API message: its usage counts once, the largest seen (earlier lines carry partial output counts).
      let best: Usage | undefined;
      for (const n of u.members) {
        if (n.cost !== undefined) {
          cost += n.cost;
          anyCost = true;
        }
        model ??= n.model;
        if (n.usage !== undefined) {
          best = best === undefined ? { ...n.usage } : { input: Math.max(best.input, n.usage.input), output: Math.max(best.output, n.usage.output) };
        }
      }
      if (best === undefined) continue;
      input += best.input;
      output += best.output;
      anyUsage = true;
      const first = u.members.find((n) => n.steps.length > 0)?.steps[0];
      if (first !== undefined) first.tokens = best;
    }
    const r = this.result;
    const resultCost = num(r?.total_cost_usd) ?? num(r?.cost_usd);
    if (resultCost !== undefined) facts.costUsd = resultCost;
    else if (anyCost) facts.costUsd = cost;
    const ru = obj(r?.usage);
    if (ru !== undefined) facts.tokens = usageOf(ru);
    else if (anyUsage) facts.tokens = { input, output };
    if (r !== undefined) {
      const subtype = nonEmpty(r.subtype) ?? 'result';
      facts.exitStatus = r.is_error === true && !subtype.startsWith('error') ? `error (${subtype})` : subtype;
    }
    if (model !== undefined) facts.model = model;
  }
}

function unitHasSteps(u: Unit): boolean {
  return u.members.some((n) => n.steps.length > 0) || u.results.some((n) => n.steps.length > 0);
}

/**
 * One unit per API message (its assistant lines, and the lines holding its tool results), one per other line.
 * A line joins a message only when it continues it in the graph (directly or through lines without steps), so two
 * sessions' copies of one message id (a fork or resume) stay apart.
 */
function groupByMessage(nodes: Node[]): Unit[] {
  const byId = new Map<string, Node>();
  for (const n of nodes) if (n.uuid !== undefined && !byId.has(n.uuid)) byId.set(n.uuid, n);
  const unitOf = new Map<Node, Unit>();
  const latest = new Map<string, Unit>();
  const units: Unit[] = [];
  const callUnit = new Map<string, Unit>();
  /** The nearest ancestor that carries steps, or is an assistant line (a few hops through hook lines at most). */
  const anchor = (n: Node): Node | undefined => {
    let cur = n.parent !== undefined ? byId.get(n.parent) : undefined;
    for (let hops = 0; cur !== undefined && hops < 64; hops++) {
      if (cur.steps.length > 0 || cur.messageId !== undefined || cur.resultFor !== undefined) return cur;
      cur = cur.parent !== undefined ? byId.get(cur.parent) : undefined;
    }
    return undefined;
  };
  const attach = (n: Node): boolean => {
    let owner: Unit | undefined;
    for (const id of n.resultFor ?? []) owner ??= callUnit.get(id);
    if (owner === undefined && n.sourceAssistant !== undefined) {
      const src = byId.get(n.sourceAssistant);
      if (src?.messageId !== undefined) owner = unitOf.get(src);
    }
    if (owner === undefined && n.parent !== undefined) {
      const p = byId.get(n.parent);
      if (p?.messageId !== undefined) owner = unitOf.get(p);
    }
    if (owner === undefined) return false;
    owner.results.push(n);
    unitOf.set(n, owner);
    return true;
  };
  const single = (n: Node): void => {
    const u: Unit = { members: [n], results: [], first: n };
    units.push(u);
    unitOf.set(n, u);
  };
  const pending: Node[] = [];
  for (const n of nodes) {
    if (n.messageId !== undefined) {
      const open = latest.get(n.messageId);
      const a = anchor(n);
      const continues = n.parent === undefined || !byId.has(n.parent) || (a !== undefined && unitOf.get(a) === open);
      if (open !== undefined && continues) {
        open.members.push(n);
        unitOf.set(n, open);
        for (const id of n.callIds ?? []) callUnit.set(id, open);
        continue;
      }
      const u: Unit = { members: [n], results: [], first: n };
      units.push(u);
      unitOf.set(n, u);
      latest.set(n.messageId, u);
      for (const id of n.callIds ?? []) callUnit.set(id, u);
    } else if (n.resultFor !== undefined) {
      if (!attach(n)) pending.push(n);
    } else {
      single(n);
    }
  }
  // A result can be written before the line of its call; attach it once every call is known.
  for (const n of pending) if (!attach(n)) single(n);
  units.sort((a, b) => a.first.order - b.first.order);
  for (const u of units) u.results.sort((a, b) => a.order - b.order);
  return units;
}

/** A unit's steps: its lines in order, a result another call hangs off right before that call, the rest after. */
function emit(u: Unit): TrajectoryStep[] {
  if (u.results.length === 0) return u.members.flatMap((n) => n.steps);
  const results = new Map<string, Node>();
  for (const r of u.results) if (r.uuid !== undefined) results.set(r.uuid, r);
  const done = new Set<Node>();
  const out: TrajectoryStep[] = [];
  for (const m of u.members) {
    const before = m.parent !== undefined ? results.get(m.parent) : undefined;
    if (before !== undefined && !done.has(before)) {
      out.push(...before.steps);
      done.add(before);
    }
    out.push(...m.steps);
  }
  for (const r of u.results) if (!done.has(r)) out.push(...r.steps);
  return out;
}
