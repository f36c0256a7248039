// OpenAI Codex CLI rollouts, every generation:
// - G2/G3 (Rust CLI, mid 2025 on): JSONL `{timestamp, [ordinal,] type, payload}` with `session_meta`, `turn_context`,
//   `response_item` (message, reasoning, function_call, custom_tool_call, local_shell_call, web_search_call, their
//   `*_output`s...), `event_msg` (user_message, agent_message, token_count, task_complete, turn_aborted, error...)
//   and `compacted`;
// - G1 (early Rust CLI): a bare header `{id, timestamp, instructions, git?}`, `{"record_type":"state"}` markers,
//   then bare response items;
// - G0 (TypeScript CLI, spring 2025): one JSON object `{session: {...}, items: [response item...]}`;
// and the separate `codex exec --json` event stream (`thread.started`, `item.completed`, `turn.completed`), which is
// what Harbor saves as `codex.txt`.
// The same prompt and answer are written twice, as a response item and as an event message, in either order:
// steps come from the response items, and an event message becomes a step only when no response item says the same.
// Tokens and the exit status come from the event messages. A rollout records no cost and no patch (its edits are
// in Codex's own apply_patch language), and no instance id.

import type { ToolCall, TrajectoryStep } from '../model';
import { applyPatchEdits, dropFailedEdits, shellEdits } from './edits';
import { SkipCounter, addNote } from './skipped';
import type { AdapterOptions, AdapterOutput, FormatAdapter, ItemRef, SummaryFacts } from './steps';
import { StepList, arr, contentText, isObj, isoTime, nonEmpty, num, obj, str } from './steps';

/** The line types of the current rollout envelope. */
const LINE_TYPES = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);

/** A line of a G2/G3 rollout: `{timestamp, type, payload}`. */
export function isCodexLine(v: unknown): boolean {
  return isObj(v) && typeof v.type === 'string' && LINE_TYPES.has(v.type) && isObj(v.payload) && 'timestamp' in v;
}

/** The first line of a G1 rollout: the bare session header. */
export function isCodexLegacyHeader(v: unknown): boolean {
  return isObj(v) && !('type' in v) && typeof v.id === 'string' && typeof v.timestamp === 'string' && 'instructions' in v;
}

/** A line of `codex exec --json` output. */
export function isCodexExecEvent(v: unknown): boolean {
  if (!isObj(v) || typeof v.type !== 'string') return false;
  if (v.type === 'thread.started') return typeof v.thread_id === 'string';
  return (v.type === 'item.completed' || v.type === 'item.started' || v.type === 'item.updated') && isObj(v.item) && typeof v.item.type === 'string' && typeof v.item.id === 'string';
}

/** Response item types of Codex (for recognising a G0 file's `items`). */
export const RESPONSE_ITEM_TYPES: ReadonlySet<string> = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'web_search_call',
]);

/** User messages Codex injects itself (environment, AGENTS.md, permissions): not the request. */
const INJECTED = /^\s*(?:<environment_context>|<user_instructions>|<permissions instructions>|# AGENTS\.md instructions|<INSTRUCTIONS>|<user_shell_command>|<turn_aborted>)/;

type Base = { sourceRef: string; timestamp?: string };

/** A cheap fingerprint of a text, to find the event message that repeats a response item without keeping texts. */
function fingerprint(kind: string, text: string): string {
  const t = text.trim();
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `${kind}:${t.length}:${(h2 >>> 0).toString(36)}${(h1 >>> 0).toString(36)}`;
}

/** A shell command given as argv (`["bash", "-lc", "script"]`) or a string, as one command line. */
function commandLine(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v) || !v.every((w) => typeof w === 'string')) return undefined;
  const argv = v as string[];
  if (argv.length === 3 && /^(?:\/(?:usr\/)?bin\/)?(?:ba|z)?sh$/.test(argv[0]!) && (argv[1] === '-lc' || argv[1] === '-c')) return argv[2];
  return argv.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** A tool output: a JSON string `{output, metadata: {exit_code}}`, plain text, or a list of content items. */
function outputOf(v: unknown): { text: string; exitCode?: number } {
  if (typeof v === 'string') {
    const t = v.trimStart();
    if (t.startsWith('{') && t.includes('"output"')) {
      try {
        const parsed: unknown = JSON.parse(t);
        if (isObj(parsed) && typeof parsed.output === 'string') {
          const exitCode = num(obj(parsed.metadata)?.exit_code);
          return exitCode !== undefined ? { text: parsed.output, exitCode } : { text: parsed.output };
        }
      } catch {
        // plain text that starts with a brace
      }
    }
    const m = /^(?:Exit code: |Process exited with code )(-?\d+)$/m.exec(v.slice(0, 400));
    return m !== null ? { text: v, exitCode: Number(m[1]) } : { text: v };
  }
  if (isObj(v) && typeof v.content === 'string') return { text: v.content };
  return { text: contentText(v) };
}

export class CodexAdapter implements FormatAdapter {
  readonly format = 'codex' as const;
  private readonly list: StepList;
  private readonly skipped = new SkipCounter();
  private readonly calls = new Map<string, TrajectoryStep>();
  /** Steps made from event messages, with the fingerprint that a response item saying the same would have. */
  private readonly fromEvents = new Map<TrajectoryStep, string>();
  private readonly fromItems = new Map<string, number>();
  private readonly facts: SummaryFacts = {};
  private sessions = 0;

  constructor(opts: AdapterOptions) {
    this.list = new StepList(opts.keepText);
  }

  /** G0: the `session` member of the one JSON object. */
  member(key: string, value: unknown): void {
    if (key === 'session') this.meta(obj(value) ?? {});
  }

  item(arrayKey: string, v: unknown, ref: ItemRef): void {
    const sourceRef = ref.jsonl === true ? `line ${ref.line}` : arrayKey !== '' ? `${arrayKey}[${ref.index}]` : `[${ref.index}]`;
    if (!isObj(v)) {
      this.skipped.add('(not a JSON object)');
      return;
    }
    const timestamp = isoTime(v.timestamp);
    const base: Base = timestamp !== undefined ? { sourceRef, timestamp } : { sourceRef };
    const type = str(v.type);
    const payload = obj(v.payload);
    if (type !== undefined && LINE_TYPES.has(type) && payload !== undefined) {
      this.line(type, payload, base);
      return;
    }
    if (arrayKey === '' && ref.index === 0 && isCodexLegacyHeader(v)) {
      this.meta(v);
      return;
    }
    if (v.record_type !== undefined) {
      this.skipped.add(`record_type/${str(v.record_type) ?? '?'}`);
      return;
    }
    // G0 items and G1 lines are bare response items; G1 items carry no timestamp of their own.
    this.responseItem(v, base);
  }

  private line(type: string, p: Record<string, unknown>, base: Base): void {
    switch (type) {
      case 'session_meta':
        this.meta(p);
        return;
      case 'turn_context':
        this.facts.model ??= nonEmpty(p.model);
        return;
      case 'response_item':
        this.responseItem(p, base);
        return;
      case 'compacted':
        this.list.add('system', nonEmpty(p.message) ?? '[compacted]', base);
        return;
      case 'event_msg':
        this.event(p, base);
        return;
    }
  }

  private meta(p: Record<string, unknown>): void {
    this.sessions++;
    if (this.sessions > 1) {
      // Forked and sub-agent rollouts repeat session_meta; the first one describes this file.
      this.skipped.add('session_meta (repeated)');
      return;
    }
    this.facts.model ??= nonEmpty(p.model);
    const git = obj(p.git);
    const repo = nonEmpty(git?.repository_url);
    const commit = nonEmpty(git?.commit_hash);
    if (repo !== undefined) this.facts.repo = repo;
    if (commit !== undefined) this.facts.baseCommit = commit;
    const source = obj(p.source);
    if (source !== undefined && 'subagent' in source) {
      addNote(this.facts, "a sub-agent's rollout (session_meta.source.subagent): its first records copy the parent's history");
    }
  }

  private responseItem(p: Record<string, unknown>, base: Base): void {
    const type = str(p.type) ?? '(no type)';
    switch (type) {
      case 'message': {
        const role = str(p.role) ?? 'user';
        const text = contentText(arr(p.content).map((c) => (isObj(c) && c.type === 'input_image' ? { type: 'image' } : c)));
        const kind = role === 'assistant' ? 'thought' : role === 'user' && !INJECTED.test(text) ? 'user' : 'system';
        this.list.add(kind, text, base);
        if (kind !== 'system') this.itemSaid(kind, text);
        return;
      }
      case 'reasoning': {
        const parts = arr(p.summary).map((s) => (isObj(s) ? (str(s.text) ?? '') : '')).filter((s) => s.trim().length > 0);
        if (parts.length === 0) {
          // Only the encrypted reasoning, which nobody can read.
          this.skipped.add('response_item/reasoning (encrypted only)');
          return;
        }
        this.list.add('thought', parts.join('\n\n'), base);
        for (const part of parts) this.itemSaid('reasoning', part);
        return;
      }
      case 'function_call': {
        const name = str(p.name) ?? 'tool';
        const args = typeof p.arguments === 'string' ? p.arguments : JSON.stringify(p.arguments ?? {});
        const parsed = parseArgs(args);
        const command = commandLine(parsed?.command) ?? str(parsed?.cmd);
        const text = command ?? (name === 'apply_patch' && typeof parsed?.input === 'string' ? parsed.input : `${name} ${args}`);
        const edits = command !== undefined ? [...shellEdits(command), ...applyPatchEdits(command)] : applyPatchEdits(text);
        this.call(name, args, text, edits, p, base);
        return;
      }
      case 'custom_tool_call': {
        const name = str(p.name) ?? 'tool';
        const input = typeof p.input === 'string' ? p.input : JSON.stringify(p.input ?? '');
        this.call(name, input, name === 'apply_patch' ? input : `${name} ${input}`, applyPatchEdits(input), p, base);
        return;
      }
      case 'local_shell_call': {
        const action = obj(p.action) ?? {};
        const command = commandLine(action.command) ?? JSON.stringify(action);
        this.call('local_shell', JSON.stringify(action), command, [...shellEdits(command), ...applyPatchEdits(command)], p, base);
        return;
      }
      case 'web_search_call': {
        const action = obj(p.action) ?? {};
        const what = nonEmpty(action.query) ?? nonEmpty(action.url) ?? JSON.stringify(action);
        this.call('web_search', JSON.stringify(action), `web_search ${what}`, [], p, base);
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
      case 'local_shell_call_output': {
        const out = outputOf(p.output);
        this.list.add('tool_result', out.text, base);
        const id = str(p.call_id);
        const call = id !== undefined ? this.calls.get(id) : undefined;
        if (call !== undefined) dropFailedEdits(call, out.text, out.exitCode !== undefined && out.exitCode !== 0);
        return;
      }
      default:
        // ghost_snapshot, compaction, tool_search_call, image_generation_call...: not conversation steps.
        this.skipped.add(`response_item/${type}`);
    }
  }

  private call(name: string, args: string, text: string, edits: ReturnType<typeof shellEdits>, p: Record<string, unknown>, base: Base): void {
    const call: ToolCall = { name, arguments: args };
    const id = str(p.call_id) ?? str(p.id);
    if (id !== undefined) call.id = id;
    const step = this.list.add('tool_call', text, { ...base, toolCalls: [call], edits });
    if (id !== undefined) this.calls.set(id, step);
  }

  private itemSaid(kind: string, text: string): void {
    const key = fingerprint(kind, text);
    this.fromItems.set(key, (this.fromItems.get(key) ?? 0) + 1);
  }

  private event(p: Record<string, unknown>, base: Base): void {
    const type = str(p.type) ?? '(no type)';
    switch (type) {
      case 'user_message':
      case 'agent_message':
      case 'agent_reasoning': {
        const text = str(p.message) ?? str(p.text) ?? '';
        const kind = type === 'user_message' ? 'user' : 'thought';
        const step = this.list.add(kind, text, base);
        this.fromEvents.set(step, fingerprint(type === 'agent_reasoning' ? 'reasoning' : kind, text));
        return;
      }
      case 'token_count': {
        const total = obj(obj(p.info)?.total_token_usage);
        if (total !== undefined) {
          const input = num(total.input_tokens);
          const output = num(total.output_tokens);
          this.facts.tokens = {};
          if (input !== undefined) this.facts.tokens.input = input;
          if (output !== undefined) this.facts.tokens.output = output;
        }
        return;
      }
      case 'task_complete':
        this.facts.exitStatus = 'completed';
        return;
      case 'turn_aborted':
        this.facts.exitStatus = `aborted: ${nonEmpty(p.reason) ?? 'unknown reason'}`;
        return;
      case 'error':
        this.facts.exitStatus = `error: ${(nonEmpty(p.message) ?? 'unknown error').split('\n', 1)[0]!.slice(0, 300)}`;
        return;
      case 'patch_apply_end': {
        const id = str(p.call_id);
        const call = id !== undefined ? this.calls.get(id) : undefined;
        if (call !== undefined && p.success === false) dropFailedEdits(call, '', true);
        return;
      }
      default:
        this.skipped.add(`event_msg/${type}`);
    }
  }

  finish(): AdapterOutput {
    let duplicates = 0;
    const steps = this.list.steps.filter((s) => {
      const key = this.fromEvents.get(s);
      if (key === undefined) return true;
      const n = this.fromItems.get(key) ?? 0;
      if (n === 0) return true;
      this.fromItems.set(key, n - 1);
      duplicates++;
      return false;
    });
    for (let i = 0; i < steps.length; i++) steps[i]!.index = i;
    if (duplicates > 0) this.skipped.add('event_msg (repeats a response_item)', duplicates);
    this.skipped.into(this.facts);
    return { format: this.format, steps, facts: this.facts, problems: [] };
  }
}

function parseArgs(args: string): Record<string, unknown> | undefined {
  const t = args.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    return isObj(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** `codex exec --json` output: thread, turn and item events. */
export class CodexExecAdapter implements FormatAdapter {
  readonly format = 'codex-exec' as const;
  private readonly list: StepList;
  private readonly skipped = new SkipCounter();
  private readonly facts: SummaryFacts = {};
  private input = 0;
  private output = 0;
  private anyUsage = false;

  constructor(opts: AdapterOptions) {
    this.list = new StepList(opts.keepText);
  }

  member(): void {
    // One event per line; no members.
  }

  item(_arrayKey: string, v: unknown, ref: ItemRef): void {
    const base: Base = { sourceRef: ref.jsonl === true ? `line ${ref.line}` : `[${ref.index}]` };
    if (!isObj(v)) {
      this.skipped.add('(not a JSON object)');
      return;
    }
    const type = str(v.type) ?? '(no type)';
    if (type === 'item.completed') {
      this.completed(obj(v.item) ?? {}, base);
      return;
    }
    if (type === 'turn.completed') {
      const u = obj(v.usage);
      if (u !== undefined) {
        this.input += num(u.input_tokens) ?? 0;
        this.output += num(u.output_tokens) ?? 0;
        this.anyUsage = true;
      }
      this.facts.exitStatus = 'completed';
      return;
    }
    if (type === 'turn.failed' || type === 'error') {
      const message = nonEmpty(obj(v.error)?.message) ?? nonEmpty(v.message) ?? 'unknown error';
      this.facts.exitStatus = `error: ${message.split('\n', 1)[0]!.slice(0, 300)}`;
      return;
    }
    // thread.started, turn.started, item.started / item.updated (the completed event repeats them in full).
    this.skipped.add(type);
  }

  private completed(item: Record<string, unknown>, base: Base): void {
    const type = str(item.type) ?? '(no type)';
    const id = str(item.id);
    const callOf = (name: string, args: unknown): ToolCall => ({ name, arguments: JSON.stringify(args ?? {}), ...(id !== undefined ? { id } : {}) });
    switch (type) {
      case 'agent_message':
      case 'reasoning':
        this.list.add('thought', str(item.text) ?? '', base);
        return;
      case 'command_execution': {
        const command = str(item.command) ?? '';
        const script = /^(?:\/bin\/)?(?:ba|z)?sh -lc '([\s\S]*)'$/.exec(command)?.[1]?.replace(/'\\''/g, "'") ?? command;
        this.list.add('tool_call', script, { ...base, toolCalls: [callOf('command_execution', { command })], edits: shellEdits(script) });
        const exit = num(item.exit_code);
        this.list.add('tool_result', `${str(item.aggregated_output) ?? ''}${exit !== undefined && exit !== 0 ? `\n[exit code ${exit}]` : ''}`, base);
        return;
      }
      case 'file_change': {
        const changes = arr(item.changes).filter(isObj);
        const text = changes.map((c) => `${str(c.kind) ?? 'change'} ${str(c.path) ?? '?'}`).join('\n');
        const edits = item.status === 'failed' ? [] : changes.flatMap((c) => (typeof c.path === 'string' ? [{ path: c.path, via: 'apply_patch' }] : []));
        this.list.add('tool_call', `apply_patch\n${text}`, { ...base, toolCalls: [callOf('apply_patch', { changes })], edits });
        return;
      }
      case 'mcp_tool_call': {
        const name = `${str(item.server) ?? 'mcp'}.${str(item.tool) ?? 'tool'}`;
        this.list.add('tool_call', `${name} ${JSON.stringify(item.arguments ?? {})}`, { ...base, toolCalls: [callOf(name, item.arguments)] });
        if (item.result !== undefined || item.error !== undefined) this.list.add('tool_result', contentText(obj(item.result)?.content ?? item.error ?? ''), base);
        return;
      }
      case 'web_search':
        this.list.add('tool_call', `web_search ${str(item.query) ?? ''}`, { ...base, toolCalls: [callOf('web_search', { query: item.query })] });
        return;
      case 'error':
        this.list.add('observation', str(item.message) ?? 'error', base);
        return;
      default:
        // todo_list and whatever later versions add.
        this.skipped.add(`item.completed/${type}`);
    }
  }

  finish(): AdapterOutput {
    if (this.anyUsage) this.facts.tokens = { input: this.input, output: this.output };
    this.skipped.into(this.facts);
    return { format: this.format, steps: this.list.steps, facts: this.facts, problems: [] };
  }
}
