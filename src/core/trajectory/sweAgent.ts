// SWE-agent `.traj`: 0.x (thought/action text) and 1.x (function calling), and the retry agent's
// `{attempts: [...]}` wrapper. Steps come from `history` (the conversation, with tool calls and ids); `trajectory`
// (thought/action/observation triples) fills in what history lacks: SWE-agent saves history before its last step,
// so the final `submit` (1.x) or its observation (0.x) is only in `trajectory`, and a file without history is read
// from `trajectory` alone. Demonstrations (`is_demo`) are examples shown to the model, not this run: left out.

import type { TrajectoryStep } from '../model';
import { dropFailedEdits, editFailed, openFileFromObservation, sweAgentActionEdits, toolCallEdits, toolCallSummary } from './edits';
import type { AdapterOptions, AdapterOutput, FormatAdapter, ItemRef, SummaryFacts } from './steps';
import { StepList, contentText, dig, isObj, nonEmpty, num, objOrJson, openAiToolCalls, renumber, str } from './steps';

/** Members of a `trajectory` step worth parsing; `query` (the whole prompt so far) is most of a 1.x file. */
export const SWE_TRAJECTORY_PICK = new Set(['thought', 'action', 'observation', 'state']);

/**
 * The steps one `trajectory` item makes (thought, action, observation), held until history shows whether they are
 * needed. Their texts wait as UTF-8 bytes: mostly ASCII, that is half the size of a string holding any non-Latin-1
 * character, and most drafts are dropped unread once history covers them.
 */
interface Draft {
  steps: TrajectoryStep[];
  texts: Uint8Array[];
  observation: number | undefined;
  /** The observation says an editor edit failed. */
  failed: boolean;
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** A draft's steps with their texts restored. */
function draftSteps(d: Draft, only?: number): TrajectoryStep[] {
  const out: TrajectoryStep[] = [];
  d.steps.forEach((step, k) => {
    if (only !== undefined && k !== only) return;
    step.text = utf8Decoder.decode(d.texts[k]!);
    out.push(step);
  });
  return out;
}

interface Scope {
  members: Record<string, unknown>;
  history: StepList;
  historyItems: number;
  /** Assistant messages with an action in history: each is one `trajectory` step. */
  actions: number;
  lastRole: string | undefined;
  /** Steps made from `trajectory` items as they arrive; released once history covers them. */
  drafts: Map<number, Draft>;
  /** The windowed editor's open file as `trajectory` states report it. */
  trajOpenFile: string | undefined;
  openFile: string | undefined;
  seenAssistant: boolean;
  pendingEdit: TrajectoryStep | undefined;
}

export class SweAgentAdapter implements FormatAdapter {
  readonly format: 'swe-agent' | 'swe-agent-retry';
  private readonly top: Scope;
  private readonly attempts: Scope[] = [];

  constructor(
    private readonly opts: AdapterOptions,
    retry: boolean,
  ) {
    this.format = retry ? 'swe-agent-retry' : 'swe-agent';
    this.top = this.newScope();
  }

  /** Whether `trajectory[index]` is still needed: history, when it came first, already covers its early steps. */
  needsTrajectoryStep(index: number, attempt?: number): boolean {
    const s = this.scope(attempt);
    return s.historyItems === 0 || index >= s.actions - 1;
  }

  member(key: string, value: unknown, attempt?: number): void {
    this.scope(attempt).members[key] = value;
  }

  item(arrayKey: string, value: unknown, ref: ItemRef): void {
    const scope = this.scope(ref.attempt);
    const prefix = ref.attempt !== undefined ? `attempts[${ref.attempt}].` : '';
    if (arrayKey === 'history') {
      scope.historyItems++;
      this.historyItem(scope, value, `${prefix}history[${ref.index}]`);
      // History now covers these trajectory steps; only the last one's observation may still be needed.
      for (const k of scope.drafts.keys()) if (k < scope.actions - 1) scope.drafts.delete(k);
    } else if (arrayKey === 'trajectory') {
      if (isObj(value)) this.trajectoryItem(scope, ref.index, value, `${prefix}trajectory[${ref.index}]`);
    }
  }

  finish(): AdapterOutput {
    const scopes = this.attempts.length > 0 ? this.attempts : [this.top];
    const steps: TrajectoryStep[] = [];
    for (const s of scopes) {
      if (s.historyItems === 0) for (const d of s.drafts.values()) steps.push(...draftSteps(d));
      else steps.push(...s.history.steps, ...this.trajectoryTail(s));
    }
    return { format: this.format, steps: renumber(steps), facts: this.facts(), problems: [] };
  }

  private newScope(): Scope {
    return {
      members: {},
      history: new StepList(this.opts.keepText),
      historyItems: 0,
      actions: 0,
      lastRole: undefined,
      drafts: new Map(),
      trajOpenFile: undefined,
      openFile: undefined,
      seenAssistant: false,
      pendingEdit: undefined,
    };
  }

  private scope(attempt?: number): Scope {
    if (attempt === undefined) return this.top;
    while (this.attempts.length <= attempt) this.attempts.push(this.newScope());
    return this.attempts[attempt]!;
  }

  private historyItem(scope: Scope, item: unknown, ref: string): void {
    if (!isObj(item) || item.is_demo === true) return;
    const role = str(item.role);
    scope.lastRole = role;
    const text = contentText(item.content);
    const steps = scope.history;
    if (role === 'system') {
      steps.add('system', text, { sourceRef: ref });
      return;
    }
    if (role === 'assistant') {
      scope.seenAssistant = true;
      const thought = str(item.thought) ?? text;
      const action = str(item.action);
      const toolCalls = openAiToolCalls(item.tool_calls);
      if (thought.trim().length > 0) steps.add('thought', thought, { sourceRef: ref });
      let acted: TrajectoryStep | undefined;
      if (toolCalls.length > 0) {
        const edits = toolCalls.flatMap((t) => toolCallEdits(t.name, t.arguments, { openFile: scope.openFile }));
        acted = steps.add('tool_call', action ?? toolCalls.map((t) => toolCallSummary(t.name, t.arguments)).join('\n'), {
          toolCalls,
          edits,
          sourceRef: ref,
        });
      } else if (action !== undefined && action.trim().length > 0) {
        acted = steps.add('action', action, { edits: sweAgentActionEdits(action, { openFile: scope.openFile }), sourceRef: ref });
      }
      if (acted !== undefined) scope.actions++;
      scope.pendingEdit = acted?.edits !== undefined ? acted : undefined;
      return;
    }
    const kind = role === 'tool' ? 'tool_result' : role === 'user' && !scope.seenAssistant ? 'user' : 'observation';
    steps.add(kind, text, { sourceRef: ref });
    if (kind !== 'user') this.afterResult(scope, text);
  }

  /** Tracks the open file for the windowed editor and drops edits whose result says they failed. */
  private afterResult(scope: Scope, text: string): void {
    const open = openFileFromObservation(text);
    if (open !== undefined) scope.openFile = open;
    if (scope.pendingEdit !== undefined) dropFailedEdits(scope.pendingEdit, text);
    scope.pendingEdit = undefined;
  }

  /** The steps of `trajectory` that history does not have. */
  private trajectoryTail(scope: Scope): TrajectoryStep[] {
    const tail: TrajectoryStep[] = [];
    const lastCovered = scope.drafts.get(scope.actions - 1);
    if (scope.lastRole === 'assistant' && lastCovered?.observation !== undefined) {
      // History stops after the last action: its observation is only in `trajectory`.
      tail.push(...draftSteps(lastCovered, lastCovered.observation));
      if (scope.pendingEdit !== undefined && lastCovered.failed) dropFailedEdits(scope.pendingEdit, '', true);
    }
    const later = [...scope.drafts.entries()].filter(([k]) => k >= scope.actions).sort((a, b) => a[0] - b[0]);
    for (const [, d] of later) tail.push(...draftSteps(d));
    return tail;
  }

  private trajectoryItem(scope: Scope, index: number, value: Record<string, unknown>, ref: string): void {
    if (scope.historyItems > 0 && index < scope.actions - 1) return;
    const list = new StepList(this.opts.keepText);
    const thought = str(value.thought);
    const action = str(value.action);
    const observation = str(value.observation);
    if (thought !== undefined && thought.trim().length > 0) list.add('thought', thought, { sourceRef: ref });
    // 0.x records the state before the action and 1.x after it; an edit does not change the open file, so for
    // an edit either names the file being edited.
    const stateOpen = str(objOrJson(value.state)?.open_file);
    const open = stateOpen !== undefined && stateOpen !== 'n/a' ? stateOpen : undefined;
    let acted: TrajectoryStep | undefined;
    if (action !== undefined && action.trim().length > 0) {
      acted = list.add('action', action, { edits: sweAgentActionEdits(action, { openFile: open ?? scope.trajOpenFile }), sourceRef: ref });
    }
    let obsIndex: number | undefined;
    let failed = false;
    if (observation !== undefined) {
      obsIndex = list.steps.length;
      list.add('observation', observation, { sourceRef: ref });
      failed = editFailed(observation);
      if (acted !== undefined) dropFailedEdits(acted, observation);
      scope.trajOpenFile = openFileFromObservation(observation) ?? open ?? scope.trajOpenFile;
    } else if (open !== undefined) {
      scope.trajOpenFile = open;
    }
    const texts = list.steps.map((st) => utf8Encoder.encode(st.text));
    for (const st of list.steps) st.text = '';
    scope.drafts.set(index, { steps: list.steps, texts, observation: obsIndex, failed });
  }

  private facts(): SummaryFacts {
    const facts: SummaryFacts = {};
    const lastAttempt = this.attempts[this.attempts.length - 1];
    const info = isObj(this.top.members.info) ? this.top.members.info : lastAttempt?.members.info;
    let cost = num(dig(info, 'model_stats', 'instance_cost'));
    let input = num(dig(info, 'model_stats', 'tokens_sent'));
    let output = num(dig(info, 'model_stats', 'tokens_received'));
    if (!isObj(this.top.members.info) && this.attempts.length > 1) {
      // Without the retry agent's own totals, add up the attempts.
      cost = input = output = undefined;
      for (const a of this.attempts) {
        const c = num(dig(a.members.info, 'model_stats', 'instance_cost'));
        const i = num(dig(a.members.info, 'model_stats', 'tokens_sent'));
        const o = num(dig(a.members.info, 'model_stats', 'tokens_received'));
        if (c !== undefined) cost = (cost ?? 0) + c;
        if (i !== undefined) input = (input ?? 0) + i;
        if (o !== undefined) output = (output ?? 0) + o;
      }
    }
    if (cost !== undefined) facts.costUsd = cost;
    if (input !== undefined || output !== undefined) {
      facts.tokens = {};
      if (input !== undefined) facts.tokens.input = input;
      if (output !== undefined) facts.tokens.output = output;
    }
    const exit = nonEmpty(dig(info, 'exit_status'));
    if (exit !== undefined) facts.exitStatus = exit;
    const submission = nonEmpty(dig(info, 'submission'));
    if (submission !== undefined) facts.submission = submission;
    const replay = objOrJson(this.top.members.replay_config) ?? objOrJson(this.attempts[0]?.members.replay_config);
    const instanceId = nonEmpty(dig(replay, 'problem_statement', 'id')) ?? nonEmpty(dig(info, 'instance_id'));
    if (instanceId !== undefined) facts.instanceId = instanceId;
    const model =
      nonEmpty(dig(replay, 'agent', 'model', 'name')) ??
      nonEmpty(dig(replay, 'agent', 'model', 'model_name')) ??
      nonEmpty(dig(replay, 'model', 'model_name')) ??
      nonEmpty(dig(info, 'model_stats', 'model'));
    if (model !== undefined) facts.model = model;
    return facts;
  }
}
