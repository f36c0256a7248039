// What every format adapter shares: the adapter contract, a step list, and tolerant readers for the loosely
// typed JSON the agents write.

import type { FileEdit, Problem, StepKind, ToolCall, TrajectoryFormat, TrajectoryStep, TrajectorySummary } from '../model';

export interface AdapterOptions {
  fileLabel: string;
  /** When false, step texts and tool-call arguments are dropped as they are read (summaries only). */
  keepText: boolean;
  /** Reading an ATIF continuation: leave out the steps it copied from the earlier file. */
  dropCopiedContext: boolean;
}

/** Where an item came from in the file. */
export interface ItemRef {
  /** Index in its array, or document number for JSONL lines. */
  index: number;
  /** 1-based line of its first byte. */
  line: number;
  /** SWE-agent retry agent: the attempt it belongs to. */
  attempt?: number;
  /** The item is a whole JSONL line. */
  jsonl?: boolean;
}

/** Summary fields an adapter knows; counts are computed from the steps. */
export type SummaryFacts = Omit<TrajectorySummary, 'format' | 'steps' | 'byKind'>;

export interface AdapterOutput {
  format: TrajectoryFormat;
  steps: TrajectoryStep[];
  facts: SummaryFacts;
  problems: Problem[];
  /** ATIF: the file this trajectory continues in. */
  continuationRef?: string;
}

/**
 * One format's reader. The streaming layer hands it the small top-level members of a document and, one by one,
 * the items of its big arrays (`arrayKey` is the member name, or '' for a top-level array or JSONL lines).
 */
export interface FormatAdapter {
  readonly format: TrajectoryFormat;
  member(key: string, value: unknown, attempt?: number): void;
  item(arrayKey: string, value: unknown, ref: ItemRef): void;
  finish(): AdapterOutput;
}

export interface StepInit {
  toolCalls?: ToolCall[];
  timestamp?: string;
  costUsd?: number;
  tokens?: { input?: number; output?: number };
  edits?: FileEdit[];
  sourceRef?: string;
}

/** Collects steps; indexes are assigned in order (adapters that reorder call `renumber`). */
export class StepList {
  readonly steps: TrajectoryStep[] = [];

  constructor(private readonly keepText: boolean) {}

  add(kind: StepKind, text: string, init: StepInit = {}): TrajectoryStep {
    const step: TrajectoryStep = { index: this.steps.length, kind, text: this.keepText ? text : '' };
    if (init.toolCalls !== undefined && init.toolCalls.length > 0) {
      step.toolCalls = this.keepText ? init.toolCalls : init.toolCalls.map((t) => ({ ...t, arguments: '' }));
    }
    if (init.timestamp !== undefined) step.timestamp = init.timestamp;
    if (init.costUsd !== undefined) step.costUsd = init.costUsd;
    if (init.tokens !== undefined && (init.tokens.input !== undefined || init.tokens.output !== undefined)) step.tokens = init.tokens;
    if (init.edits !== undefined && init.edits.length > 0) step.edits = init.edits;
    if (init.sourceRef !== undefined) step.sourceRef = init.sourceRef;
    this.steps.push(step);
    return step;
  }
}

export function renumber(steps: TrajectoryStep[]): TrajectoryStep[] {
  for (let i = 0; i < steps.length; i++) steps[i]!.index = i;
  return steps;
}

export function summarize(format: TrajectoryFormat, steps: readonly TrajectoryStep[], facts: SummaryFacts): TrajectorySummary {
  const byKind: Partial<Record<StepKind, number>> = {};
  for (const s of steps) byKind[s.kind] = (byKind[s.kind] ?? 0) + 1;
  const summary: TrajectorySummary = { format, steps: steps.length, byKind };
  let cost = facts.costUsd;
  if (cost === undefined) {
    let sum = 0;
    let any = false;
    for (const s of steps) {
      if (s.costUsd !== undefined) {
        sum += s.costUsd;
        any = true;
      }
    }
    if (any) cost = sum;
  }
  if (cost !== undefined) summary.costUsd = cost;
  let tokens = facts.tokens;
  if (tokens === undefined) {
    let input = 0;
    let output = 0;
    let any = false;
    for (const s of steps) {
      if (s.tokens !== undefined) {
        input += s.tokens.input ?? 0;
        output += s.tokens.output ?? 0;
        any = true;
      }
    }
    if (any) tokens = { input, output };
  }
  if (tokens !== undefined && (tokens.input !== undefined || tokens.output !== undefined)) summary.tokens = tokens;
  if (facts.exitStatus !== undefined) summary.exitStatus = facts.exitStatus;
  if (facts.submission !== undefined) summary.submission = facts.submission;
  if (facts.instanceId !== undefined) summary.instanceId = facts.instanceId;
  if (facts.model !== undefined) summary.model = facts.model;
  return summary;
}

// ---- tolerant readers -------------------------------------------------------------------------------------------

export function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function obj(v: unknown): Record<string, unknown> | undefined {
  return isObj(v) ? v : undefined;
}

/** An object that some writers store as a JSON string (SWE-agent's `replay_config`, `state`). */
export function objOrJson(v: unknown): Record<string, unknown> | undefined {
  if (isObj(v)) return v;
  if (typeof v === 'string' && v.trimStart().startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(v);
      return isObj(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function nonEmpty(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim().length > 0 ? v : undefined;
}

export function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/** Reads a nested field: `dig(o, 'info', 'model_stats', 'instance_cost')`. */
export function dig(v: unknown, ...keys: Array<string | number>): unknown {
  let cur = v;
  for (const k of keys) {
    if (typeof k === 'number') {
      if (!Array.isArray(cur)) return undefined;
      cur = cur[k];
    } else {
      if (!isObj(cur)) return undefined;
      cur = cur[k];
    }
  }
  return cur;
}

/** Message content as text: a string, or a list of parts (`{type:'text', text}`, tool results...). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts: string[] = [];
    for (const p of content) {
      if (typeof p === 'string') parts.push(p);
      else if (isObj(p)) {
        if (typeof p.text === 'string') parts.push(p.text);
        else if (p.type === 'image' || p.type === 'image_url') parts.push('[image]');
        else if (p.content !== undefined) parts.push(contentText(p.content));
      }
    }
    return parts.join('\n');
  }
  if (isObj(content) && typeof content.text === 'string') return content.text;
  return '';
}

/** An ISO timestamp from an ISO string or epoch seconds/milliseconds. */
export function isoTime(v: unknown): string | undefined {
  if (typeof v === 'string' && v.length > 0) return v;
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) {
    const ms = v > 1e12 ? v : v * 1000;
    const d = new Date(ms);
    return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
  }
  return undefined;
}

/** Tool-call arguments as the agent wrote them: kept as a string, objects serialized. */
export function argString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  return JSON.stringify(v);
}

/** OpenAI-style `tool_calls` (`[{id, function: {name, arguments}}]`, or a JSON string of that) as ToolCalls. */
export function openAiToolCalls(v: unknown): ToolCall[] {
  let list = v;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list);
    } catch {
      return [];
    }
  }
  const out: ToolCall[] = [];
  for (const t of arr(list)) {
    if (!isObj(t)) continue;
    const fn = obj(t.function);
    const name = str(fn?.name) ?? str(t.name);
    if (name === undefined) continue;
    const call: ToolCall = { name, arguments: argString(fn?.arguments ?? t.arguments ?? t.input) };
    const id = str(t.id) ?? str(t.tool_call_id);
    if (id !== undefined) call.id = id;
    out.push(call);
  }
  return out;
}

export function warning(file: string, message: string, line?: number, field?: string): Problem {
  const p: Problem = { severity: 'warning', file, message };
  if (line !== undefined) p.line = line;
  if (field !== undefined) p.field = field;
  return p;
}

export function errorProblem(file: string, message: string, line?: number, field?: string): Problem {
  const p: Problem = { severity: 'error', file, message };
  if (line !== undefined) p.line = line;
  if (field !== undefined) p.field = field;
  return p;
}
