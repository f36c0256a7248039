// Format detection from content: the top-level member names of a document, the shape of the first element of its
// big array, or the shape of a JSONL line. File names are never consulted.

import type { TrajectoryFormat } from '../model';
import { isAgentlessKeys } from './agentless';
import { isChatMessage, isLiteLlmPayload } from './chatMessages';
import { isClaudeCodeLine } from './claudeCode';
import { isAsdictEvent } from './openHands';
import { RESPONSE_ITEM_TYPES, isCodexExecEvent, isCodexLegacyHeader, isCodexLine } from './codex';
import { isObj } from './steps';

/** Top-level arrays that hold a trajectory's steps; they are streamed element by element. */
export const STEP_ARRAYS: ReadonlySet<string> = new Set(['trajectory', 'history', 'messages', 'steps', 'items']);

export const KNOWN_FORMATS_TEXT =
  'expected a SWE-agent .traj, a mini-swe-agent .traj.json, an OpenHands event list, evaluation or resolver output, a Harbor ATIF trajectory, a Claude Code session/stream-json transcript, a Codex CLI rollout or exec --json log, a chat-message list (AutoCodeRover, LiteLLM, OpenHands llm_completions), or an Agentless stage output';

export function isOpenHandsEvent(v: unknown): boolean {
  return isObj(v) && ('action' in v || 'observation' in v) && ('source' in v || 'id' in v || 'timestamp' in v);
}

/**
 * The format a document is in, judged from the first element of one of its step arrays (`arrayKey`), with the
 * top-level member names seen so far.
 */
export function formatFromFirstItem(arrayKey: string, item: unknown, keys: ReadonlySet<string>): TrajectoryFormat | undefined {
  if (!isObj(item)) return undefined;
  switch (arrayKey) {
    case 'trajectory':
      return 'action' in item || 'observation' in item || 'thought' in item || 'response' in item ? 'swe-agent' : undefined;
    case 'history':
      if (typeof item.role === 'string') return 'swe-agent';
      if (isOpenHandsEvent(item)) return 'openhands-eval';
      if (isAsdictEvent(item) && (keys.has('issue') || keys.has('git_patch') || keys.has('instruction'))) return 'openhands-resolver';
      return undefined;
    case 'messages':
      if (typeof item.role !== 'string' && typeof item.type !== 'string') return undefined;
      return keys.has('info') || keys.has('trajectory_format') ? 'mini-swe-agent' : 'chat-messages';
    case 'steps':
      return 'source' in item || 'step_id' in item || keys.has('schema_version') ? 'atif' : undefined;
    case 'items':
      // Codex's TypeScript CLI (G0): `{session, items: [response item...]}`.
      return keys.has('session') && typeof item.type === 'string' && RESPONSE_ITEM_TYPES.has(item.type) ? 'codex' : undefined;
    default:
      return undefined;
  }
}

/** The format of a document whose step arrays were empty or absent, from its member names alone. */
export function formatFromKeys(keys: ReadonlySet<string>): TrajectoryFormat | undefined {
  if (keys.has('attempts') && (keys.has('info') || keys.has('trajectory') || keys.has('history'))) return 'swe-agent-retry';
  if (keys.has('trajectory') && (keys.has('info') || keys.has('history'))) return 'swe-agent';
  if (keys.has('messages') && (keys.has('trajectory_format') || keys.has('info'))) return 'mini-swe-agent';
  if (keys.has('steps') && keys.has('schema_version')) return 'atif';
  if (keys.has('history') && (keys.has('instance_id') || keys.has('test_result'))) return 'openhands-eval';
  if (keys.has('history') && keys.has('issue') && (keys.has('git_patch') || keys.has('instruction'))) return 'openhands-resolver';
  if (keys.has('session') && keys.has('items')) return 'codex';
  if (isAgentlessKeys(keys)) return 'agentless';
  return undefined;
}

/** The format of a stream of events: the elements of a top-level array, or JSONL lines. */
export function formatFromEvent(v: unknown): TrajectoryFormat | undefined {
  if (isCodexLine(v) || isCodexLegacyHeader(v)) return 'codex';
  if (isCodexExecEvent(v)) return 'codex-exec';
  if (isClaudeCodeLine(v)) return 'claude-code';
  if (isOpenHandsEvent(v)) return 'openhands-events';
  if (isLiteLlmPayload(v)) return 'litellm';
  if (isChatMessage(v)) return 'chat-messages';
  return undefined;
}

export function describeKeys(keys: Iterable<string>): string {
  const list = [...keys];
  const shown = list.slice(0, 12).join(', ');
  return list.length > 12 ? `${shown}, … (${list.length} keys)` : shown;
}

export function describeValue(v: unknown): string {
  if (Array.isArray(v)) return 'a JSON array';
  if (isObj(v)) return `a JSON object with keys ${describeKeys(Object.keys(v))}`;
  if (v === null) return 'null';
  return `a JSON ${typeof v}`;
}

/** The first line of an Aider chat history (`.aider.chat.history.md`). */
const AIDER = /^\s*# aider chat started at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/;

/**
 * What a file that is not JSON is, when it is something users bring as a trajectory; `head` is its first bytes
 * as text.
 */
export function nonJsonKind(head: string): string | undefined {
  if (AIDER.test(head.replace(/^\ufeff/, ''))) return 'an Aider chat history (Markdown): it records no instance, model, cost or patch, and is not read';
  return undefined;
}

/**
 * What a JSON document that is no trajectory is, when it is one of the files that sit next to trajectories
 * (predictions, task rows, reports, run metadata): a reason to give instead of "unknown format". `v` is the
 * document, or the first element of a top-level array.
 */
export function nonTrajectoryKind(v: unknown): string | undefined {
  if (!isObj(v)) return undefined;
  if ('instance_id' in v && ('model_patch' in v || 'fix_patch' in v)) return 'SWE-bench-style predictions (instance_id, model_patch): import them with --predictions';
  if ('problem_statement' in v && ('base_commit' in v || 'instance_id' in v)) return 'SWE-bench-style task rows: import them with --instances';
  if ('task_id' in v && 'setup_info' in v && 'task_info' in v) return "an AutoCodeRover task's meta.json: read the task folder itself, which holds the conversation";
  if ('trial_name' in v && ('agent_info' in v || 'verifier_result' in v)) return "a Harbor trial's result.json: the trial's trajectory is agent/trajectory.json (or the agent's own log)";
  if ('tests_status' in v || ('resolved' in v && ('patch_successfully_applied' in v || 'patch_exists' in v))) return 'an evaluation report: import it with --reports';
  // SWE-bench's per-instance report.json is keyed by the instance id.
  const values = Object.values(v);
  if (values.length > 0 && values.length <= 4 && values.every((x) => isObj(x) && ('tests_status' in x || 'resolved' in x))) {
    return 'an evaluation report (report.json): import it with --reports';
  }
  return undefined;
}
