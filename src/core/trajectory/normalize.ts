// Turns trajectory bytes, fed in chunks, into normalized trajectories. The JSON scanner streams the big step arrays
// element by element and parses the small top-level members whole; the format is decided from the first member
// names and elements seen, and each element goes straight to that format's adapter. Nothing holds the whole file.

import type { NormalizedTrajectory, Problem, TrajectoryFormat, TrajectoryStep, TrajectorySummary } from '../model';
import { AgentlessAdapter } from './agentless';
import { AtifAdapter } from './atif';
import { ChatMessagesAdapter, LiteLlmAdapter } from './chatMessages';
import { ClaudeCodeAdapter } from './claudeCode';
import { CodexAdapter, CodexExecAdapter } from './codex';
import {
  KNOWN_FORMATS_TEXT,
  STEP_ARRAYS,
  describeKeys,
  describeValue,
  formatFromEvent,
  formatFromFirstItem,
  formatFromKeys,
  nonJsonKind,
  nonTrajectoryKind,
} from './detect';
import type { PathSeg, ScanAction, ScanError, ValueLocation } from './jsonScanner';
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_VALUE_BYTES } from './jsonScanner';
import { JsonScanner } from './jsonScanner';
import { OpenHandsAdapter } from './openHands';
import type { AdapterOptions, AdapterOutput, FormatAdapter, SummaryFacts } from './steps';
import { errorProblem, renumber, summarize, warning } from './steps';
import { SWE_TRAJECTORY_PICK, SweAgentAdapter } from './sweAgent';

export type TrajectoryResult = { ok: true; trajectory: NormalizedTrajectory; problems: Problem[] } | { ok: false; problem: Problem };

export type TrajectorySummaryResult = { ok: true; summary: TrajectorySummary; problems: Problem[] } | { ok: false; problem: Problem };

export interface TrajectoryInstance {
  instanceId?: string;
  summary: TrajectorySummary;
  /** Byte range [start, end) of the instance in a multi-instance file (one JSONL line), to copy it out as is. */
  byteRange?: [number, number];
}

export type TrajectoryInstancesResult =
  | { ok: true; instances: TrajectoryInstance[]; problems: Problem[] }
  | { ok: false; problem: Problem };

export interface BuildOptions {
  /** Names the file in every problem. */
  fileLabel: string;
  /** Keep step texts and tool-call arguments (default true); summaries do without. */
  keepText?: boolean;
  /** Build every instance of a multi-instance file (OpenHands evaluation output), not only the first. */
  allInstances?: boolean;
  /** Reading an ATIF continuation file: leave out the context it copied from the earlier file. */
  dropCopiedContext?: boolean;
  /** Bytes one step (or other value read whole) may have; a larger one is left out with a problem. Default 64 MiB. */
  maxValueBytes?: number;
}

export interface BuiltInstance {
  trajectory: NormalizedTrajectory;
  /** Set when the file holds one instance per top-level value (JSONL); absent when the instance is the file. */
  byteRange?: [number, number];
  line: number;
  problems: Problem[];
  /** ATIF: the file the trajectory continues in, relative to this one. */
  continuationRef?: string;
}

export type BuildResult = { ok: true; instances: BuiltInstance[]; problems: Problem[] } | { ok: false; problem: Problem };

interface DocState {
  index: number;
  start: number;
  line: number;
  keys: Set<string>;
  /** Top-level members seen before the format was known. */
  members: Array<[string, unknown]>;
  adapter: FormatAdapter | undefined;
  swe: SweAgentAdapter | undefined;
  isArray: boolean;
  rootValue: unknown;
  rejectedArrays: Set<string>;
  firstItem: unknown;
}

const SWE_PICK: ScanAction = { pick: SWE_TRAJECTORY_PICK };

/** Formats whose files hold one instance per line, and who writes them. */
const MULTI_INSTANCE: Partial<Record<TrajectoryFormat, string>> = { 'openhands-eval': 'OpenHands', 'openhands-resolver': 'OpenHands resolver', agentless: 'Agentless' };

/** Streams trajectory bytes into normalized trajectories: `push` chunks, then `end`. */
export class TrajectoryBuilder {
  private readonly scanner: JsonScanner;
  private readonly file: string;
  private readonly adapterOptions: AdapterOptions;
  private readonly allInstances: boolean;
  private readonly instances: BuiltInstance[] = [];
  private readonly problems: Problem[] = [];
  private cur: DocState | undefined;
  /** JSONL transcripts (Claude Code, OpenHands events): every line is one event of one trajectory. */
  private lineAdapter: FormatAdapter | undefined;
  private fatal: ScanError | undefined;
  private truncation: ScanError | undefined;
  private readonly maxValueBytes: number;
  private unknown: string | undefined;
  /** What an unknown first document is, when it is a known companion of trajectories (predictions, a report...). */
  private unknownKind: string | undefined;
  /** The file's first bytes, to name a non-JSON file users bring as a trajectory (an Aider chat history). */
  private head = '';
  private readonly headDecoder = new TextDecoder();
  private firstDocStart = -1;
  private skippedDocs = 0;

  constructor(opts: BuildOptions) {
    this.file = opts.fileLabel;
    this.allInstances = opts.allInstances ?? false;
    this.adapterOptions = {
      fileLabel: opts.fileLabel,
      keepText: opts.keepText ?? true,
      dropCopiedContext: opts.dropCopiedContext ?? false,
    };
    this.scanner = new JsonScanner({
      policy: (path) => this.policy(path),
      value: (path, value, loc, doc) => this.value(path, value, loc, doc),
      documentStart: (doc, loc) => this.documentStart(doc, loc),
      documentEnd: (doc, loc) => this.documentEnd(doc, loc),
      error: (err) => this.error(err),
      dropped: (path, loc, why) => this.dropped(path, loc, why),
    }, opts.maxValueBytes !== undefined ? { maxValueBytes: opts.maxValueBytes } : {});
    this.maxValueBytes = opts.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES;
  }

  push(chunk: Uint8Array): void {
    if (this.head.length < 512) this.head += this.headDecoder.decode(chunk.subarray(0, 512 - this.head.length), { stream: true });
    this.scanner.push(chunk);
  }

  end(): BuildResult {
    this.scanner.end();
    const file = this.file;
    if (this.fatal !== undefined) {
      const f = this.fatal;
      const notJson = f.doc === 0 && f.offset === this.firstDocStart;
      const kind = notJson ? nonJsonKind(this.head) : undefined;
      if (kind !== undefined) return { ok: false, problem: errorProblem(file, `not a trajectory: ${kind}`) };
      const message = notJson ? `not a JSON or JSONL file: ${f.message} at line ${f.line}` : `malformed JSON at line ${f.line}: ${f.message}`;
      return { ok: false, problem: errorProblem(file, message, f.line) };
    }
    const problems = this.problems;
    if (this.truncation !== undefined) {
      const t = this.truncation;
      if (this.lineAdapter !== undefined || this.scanner.isLineMode) {
        problems.push(warning(file, `line ${t.line} is cut short (truncated file?); it was left out`, t.line));
      } else if (this.cur?.adapter !== undefined) {
        const out = this.cur.adapter.finish();
        this.instances.push(this.instance(out, this.cur, undefined));
        problems.push(
          warning(file, `the file ends in the middle of a JSON value at line ${t.line} (truncated?); kept the ${out.steps.length} steps read before it`, t.line),
        );
        this.cur = undefined;
      } else if (this.instances.length === 0) {
        const what = this.unknown !== undefined ? ` (${this.unknown})` : '';
        return { ok: false, problem: errorProblem(file, `the file is truncated at line ${t.line} before any trajectory step could be read${what}`, t.line) };
      } else {
        problems.push(warning(file, `the file ends in the middle of a JSON value at line ${t.line} (truncated?); it was left out`, t.line));
      }
    }
    if (this.lineAdapter !== undefined) {
      const out = this.lineAdapter.finish();
      this.instances.push({ trajectory: toTrajectory(out), line: 1, problems: out.problems });
    }
    if (this.instances.length === 0) {
      if (this.unknownKind !== undefined) return { ok: false, problem: errorProblem(file, `not a trajectory: ${this.unknownKind}`) };
      if (this.unknown !== undefined) return { ok: false, problem: errorProblem(file, `not a known trajectory format: ${this.unknown}; ${KNOWN_FORMATS_TEXT}`) };
      return { ok: false, problem: errorProblem(file, 'the file is empty') };
    }
    if (this.skippedDocs > 0) {
      const first = this.instances[0]!.trajectory.summary;
      const who = MULTI_INSTANCE[first.format];
      if (who !== undefined) {
        problems.push(
          warning(
            file,
            `the file holds ${this.skippedDocs + 1} ${who} instances, one per line; this is the first${first.instanceId !== undefined ? ` (${first.instanceId})` : ''}`,
          ),
        );
      } else {
        problems.push(warning(file, `${this.skippedDocs} more JSON value(s) after the trajectory were ignored`));
      }
    }
    return { ok: true, instances: this.instances, problems };
  }

  // ---- scanner events ------------------------------------------------------------------------------------------

  private policy(path: readonly PathSeg[]): ScanAction {
    if (path.length === 0) {
      if (this.lineAdapter !== undefined) return 'value';
      return this.cur === undefined ? 'skip' : 'descend';
    }
    const cur = this.cur;
    if (cur === undefined) return 'skip';
    const k0 = path[0]!;
    if (path.length === 1) {
      if (typeof k0 === 'number') return 'value';
      cur.keys.add(k0);
      if (k0 === 'attempts') return 'descend';
      if (!STEP_ARRAYS.has(k0)) return 'value';
      // A LiteLLM payload's messages are one logged call's prompt: the payload is an event of a call log.
      if (k0 === 'messages' && cur.adapter === undefined && cur.keys.has('call_type')) return 'value';
      // The retry agent repeats its chosen attempt at the top level; the attempts already hold it.
      if (cur.adapter?.format === 'swe-agent-retry') return 'skip';
      return 'descend';
    }
    if (k0 === 'attempts') {
      if (path.length === 2) {
        // `attempts` is an array of attempt objects: the retry agent's wrapper.
        if (cur.adapter === undefined) this.adopt(cur, 'swe-agent-retry');
        return cur.adapter?.format === 'swe-agent-retry' ? 'descend' : 'skip';
      }
      const k2 = path[2];
      if (path.length === 3) {
        if (typeof k2 !== 'string' || !STEP_ARRAYS.has(k2)) return 'value';
        return 'descend';
      }
      if (path.length === 4 && k2 === 'trajectory') return this.sweStep(cur, path[3], path[1]);
      return 'value';
    }
    if (path.length === 2 && k0 === 'trajectory') return this.sweStep(cur, path[1]);
    return 'value';
  }

  /** A SWE-agent `trajectory` step: only a few members are parsed, and none when history already covers it. */
  private sweStep(cur: DocState, index: PathSeg | undefined, attempt?: PathSeg): ScanAction {
    if (typeof index !== 'number' || cur.swe === undefined) return SWE_PICK;
    return cur.swe.needsTrajectoryStep(index, typeof attempt === 'number' ? attempt : undefined) ? SWE_PICK : 'skip';
  }

  private documentStart(doc: number, loc: { line: number; start: number }): void {
    if (this.firstDocStart < 0) this.firstDocStart = loc.start;
    if (this.lineAdapter !== undefined) return;
    if (!this.allInstances && (this.instances.length > 0 || doc > 0)) {
      this.cur = undefined;
      return;
    }
    this.cur = {
      index: doc,
      start: loc.start,
      line: loc.line,
      keys: new Set(),
      members: [],
      adapter: undefined,
      swe: undefined,
      isArray: false,
      rootValue: undefined,
      rejectedArrays: new Set(),
      firstItem: undefined,
    };
  }

  private value(path: readonly PathSeg[], v: unknown, loc: ValueLocation, doc: number): void {
    if (path.length === 0) {
      if (this.lineAdapter !== undefined) this.lineAdapter.item('', v, { index: doc, line: loc.line, jsonl: true });
      else if (this.cur !== undefined) this.cur.rootValue = v;
      return;
    }
    const cur = this.cur;
    if (cur === undefined) return;
    const k0 = path[0]!;
    if (path.length === 1) {
      if (typeof k0 === 'number') {
        cur.isArray = true;
        if (cur.adapter === undefined && k0 === 0) {
          cur.firstItem = v;
          const fmt = formatFromEvent(v);
          if (fmt !== undefined) this.adopt(cur, fmt);
        }
        cur.adapter?.item('', v, { index: k0, line: loc.line });
        return;
      }
      if (cur.adapter !== undefined) cur.adapter.member(k0, v);
      else cur.members.push([k0, v]);
      return;
    }
    if (k0 === 'attempts') {
      const attempt = path[1];
      const key = path[2];
      if (typeof attempt !== 'number' || typeof key !== 'string') return;
      if (path.length === 3) cur.adapter?.member(key, v, attempt);
      else if (path.length === 4 && typeof path[3] === 'number') cur.adapter?.item(key, v, { index: path[3], line: loc.line, attempt });
      return;
    }
    const index = path[1];
    if (path.length !== 2 || typeof k0 !== 'string' || typeof index !== 'number') return;
    if (cur.adapter === undefined) {
      if (cur.rejectedArrays.has(k0)) return;
      const fmt = formatFromFirstItem(k0, v, cur.keys);
      if (fmt === undefined) {
        cur.rejectedArrays.add(k0);
        cur.firstItem ??= v;
        return;
      }
      this.adopt(cur, fmt);
    }
    cur.adapter!.item(k0, v, { index, line: loc.line });
  }

  private documentEnd(doc: number, loc: ValueLocation): void {
    if (this.lineAdapter !== undefined) return;
    const cur = this.cur;
    if (cur === undefined) {
      this.skippedDocs++;
      return;
    }
    this.cur = undefined;
    if (cur.adapter === undefined) {
      const root = cur.isArray ? undefined : cur.rootValue !== undefined ? cur.rootValue : Object.fromEntries(cur.members);
      const event = root !== undefined && cur.rejectedArrays.size === 0 ? formatFromEvent(root) : undefined;
      if (event !== undefined && this.instances.length === 0 && doc === 0) {
        // A JSONL transcript: this line and every later one are events of a single trajectory.
        this.lineAdapter = this.create(event);
        this.lineAdapter.item('', root, { index: 0, line: cur.line, jsonl: true });
        return;
      }
      const fmt = cur.isArray || cur.rootValue !== undefined ? undefined : formatFromKeys(cur.keys);
      if (fmt === undefined) {
        const what = this.describe(cur, root);
        if (this.instances.length === 0 && doc === 0) {
          this.unknown = what;
          this.unknownKind = nonTrajectoryKind(cur.isArray ? cur.firstItem : root);
        }
        else this.problems.push(warning(this.file, `line ${cur.line}: not a known trajectory format (${what}); left out`, cur.line));
        return;
      }
      this.adopt(cur, fmt);
    }
    const out = cur.adapter!.finish();
    this.instances.push(this.instance(out, cur, [loc.start, loc.end]));
  }

  /** A step (or any value read whole) over the size or depth cap was scanned past: it is left out, and said so. */
  private dropped(path: readonly PathSeg[], loc: ValueLocation, why: 'size' | 'depth'): void {
    const what = path.length === 0 ? `line ${loc.line}` : `${pathText(path)} (line ${loc.line})`;
    const over = why === 'size' ? `is larger than ${sizeText(this.maxValueBytes)} (the limit for one value)` : `is nested deeper than ${DEFAULT_MAX_DEPTH} levels`;
    this.problems.push({ severity: 'error', file: this.file, line: loc.line, message: `${what} ${over}; it was left out` });
  }

  private error(err: ScanError): 'stop' | 'resync' {
    if (err.truncated) {
      this.truncation = err;
      return 'stop';
    }
    if (this.scanner.isLineMode) {
      this.problems.push(warning(this.file, `line ${err.line}: malformed JSON (${err.message}); the line was left out`, err.line));
      this.cur = undefined;
      return 'resync';
    }
    if (err.doc > 0 && this.instances.length > 0) {
      // Junk after a complete trajectory does not spoil it.
      this.problems.push(warning(this.file, `unexpected content after the trajectory at line ${err.line} (${err.message}); ignored`, err.line));
      this.cur = undefined;
      return 'stop';
    }
    this.fatal = err;
    return 'stop';
  }

  // ---- helpers --------------------------------------------------------------------------------------------------

  private create(format: TrajectoryFormat): FormatAdapter {
    const o = this.adapterOptions;
    switch (format) {
      case 'swe-agent':
        return new SweAgentAdapter(o, false);
      case 'swe-agent-retry':
        return new SweAgentAdapter(o, true);
      case 'mini-swe-agent':
        return new ChatMessagesAdapter(o, 'mini-swe-agent');
      case 'chat-messages':
        return new ChatMessagesAdapter(o);
      case 'litellm':
        return new LiteLlmAdapter(o);
      case 'agentless':
        return new AgentlessAdapter(o);
      case 'autocoderover':
        // An ACR folder's conversation is a chat list; the folder's companions are added by the fs reader.
        return new ChatMessagesAdapter(o, 'autocoderover');
      case 'openhands-events':
        return new OpenHandsAdapter(o, false);
      case 'openhands-eval':
        return new OpenHandsAdapter(o, true);
      case 'openhands-resolver':
        return new OpenHandsAdapter(o, 'resolver');
      case 'atif':
        return new AtifAdapter(o);
      case 'claude-code':
        return new ClaudeCodeAdapter(o);
      case 'codex':
        return new CodexAdapter(o);
      case 'codex-exec':
        return new CodexExecAdapter(o);
    }
  }

  private adopt(cur: DocState, format: TrajectoryFormat): void {
    const adapter = this.create(format);
    cur.adapter = adapter;
    if (adapter instanceof SweAgentAdapter) cur.swe = adapter;
    for (const [k, v] of cur.members) adapter.member(k, v);
    cur.members = [];
  }

  private instance(out: AdapterOutput, cur: DocState, range: [number, number] | undefined): BuiltInstance {
    const inst: BuiltInstance = { trajectory: toTrajectory(out), line: cur.line, problems: out.problems };
    if (range !== undefined) inst.byteRange = range;
    if (out.continuationRef !== undefined) inst.continuationRef = out.continuationRef;
    return inst;
  }

  private describe(cur: DocState, root: unknown): string {
    if (cur.isArray) {
      return cur.firstItem === undefined ? 'an empty JSON array' : `a JSON array whose first element is ${describeValue(cur.firstItem)}`;
    }
    if (cur.rootValue !== undefined) return describeValue(cur.rootValue);
    const keys = cur.keys.size > 0 ? `a JSON object with keys ${describeKeys(cur.keys)}` : describeValue(root);
    return cur.firstItem !== undefined ? `${keys}; its first step-like element is ${describeValue(cur.firstItem)}` : keys;
  }
}

function toTrajectory(out: AdapterOutput): NormalizedTrajectory {
  const steps = renumber(out.steps);
  return { summary: summaryOf(out.format, steps, out.facts), steps };
}

/** `summarize`, plus the summary fields it does not know of (where the file says them, what was skipped). */
function summaryOf(format: TrajectoryFormat, steps: TrajectoryStep[], facts: SummaryFacts): TrajectorySummary {
  const summary = summarize(format, steps, facts);
  if (facts.repo !== undefined) summary.repo = facts.repo;
  if (facts.baseCommit !== undefined) summary.baseCommit = facts.baseCommit;
  if (facts.claimed !== undefined) summary.claimed = facts.claimed;
  if (facts.skipped !== undefined) summary.skipped = facts.skipped;
  if (facts.notes !== undefined && facts.notes.length > 0) summary.notes = facts.notes;
  return summary;
}

/** The first instance as a TrajectoryResult, with every problem found. */
export function firstInstanceResult(built: BuildResult): TrajectoryResult {
  if (!built.ok) return built;
  const first = built.instances[0]!;
  return { ok: true, trajectory: first.trajectory, problems: [...first.problems, ...built.problems] };
}

/** Joins an ATIF trajectory and its continuation into one. */
export function joinTrajectories(first: NormalizedTrajectory, next: NormalizedTrajectory): NormalizedTrajectory {
  const steps = renumber([...first.steps, ...next.steps]);
  const a = first.summary;
  const b = next.summary;
  const sum = (x: number | undefined, y: number | undefined): number | undefined => (x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0));
  const facts: SummaryFacts = {};
  const cost = sum(a.costUsd, b.costUsd);
  if (cost !== undefined) facts.costUsd = cost;
  if (a.tokens !== undefined || b.tokens !== undefined) {
    const input = sum(a.tokens?.input, b.tokens?.input);
    const output = sum(a.tokens?.output, b.tokens?.output);
    facts.tokens = {};
    if (input !== undefined) facts.tokens.input = input;
    if (output !== undefined) facts.tokens.output = output;
  }
  const exitStatus = b.exitStatus ?? a.exitStatus;
  if (exitStatus !== undefined) facts.exitStatus = exitStatus;
  const submission = b.submission ?? a.submission;
  if (submission !== undefined) facts.submission = submission;
  const instanceId = a.instanceId ?? b.instanceId;
  if (instanceId !== undefined) facts.instanceId = instanceId;
  const model = a.model ?? b.model;
  if (model !== undefined) facts.model = model;
  const repo = a.repo ?? b.repo;
  if (repo !== undefined) facts.repo = repo;
  const baseCommit = a.baseCommit ?? b.baseCommit;
  if (baseCommit !== undefined) facts.baseCommit = baseCommit;
  const claimed = b.claimed ?? a.claimed;
  if (claimed !== undefined) facts.claimed = claimed;
  if (a.skipped !== undefined || b.skipped !== undefined) {
    const skipped: Record<string, number> = { ...a.skipped };
    for (const [k, v] of Object.entries(b.skipped ?? {})) skipped[k] = (skipped[k] ?? 0) + v;
    facts.skipped = skipped;
  }
  const notes = [...(a.notes ?? []), ...(b.notes ?? [])];
  if (notes.length > 0) facts.notes = notes;
  return { summary: summaryOf(a.format, steps, facts), steps };
}

const encoder = new TextEncoder();

/** Builds from text already in memory (e.g. a Claude Code stream-json embedded as a string in an eval JSON). */
export function buildFromText(text: string, opts: BuildOptions): BuildResult {
  const builder = new TrajectoryBuilder(opts);
  // Encode in slices so a large string never needs a second full-size copy.
  const slice = 1 << 20;
  let i = 0;
  while (i < text.length) {
    let end = Math.min(text.length, i + slice);
    // Never split a surrogate pair.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    builder.push(encoder.encode(text.slice(i, end)));
    i = end;
  }
  return builder.end();
}

/** Normalizes a trajectory given as text; `fileLabel` names it in problems. */
export function normalizeTrajectoryText(text: string, fileLabel: string): TrajectoryResult {
  const built = buildFromText(text, { fileLabel });
  const result = firstInstanceResult(built);
  if (built.ok && result.ok) {
    const ref = built.instances[0]!.continuationRef;
    if (ref !== undefined) result.problems.push(warning(fileLabel, `the trajectory continues in "${ref}", which is not read from text`, undefined, 'continued_trajectory_ref'));
  }
  return result;
}

/** `steps[3].message` from a scanner path. */
function pathText(path: readonly PathSeg[]): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function sizeText(bytes: number): string {
  return bytes % 1048576 === 0 ? `${bytes / 1048576} MiB` : `${bytes} bytes`;
}
