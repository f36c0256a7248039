// AutoCodeRover task output folders (`<run>/<bucket>/<instance_id>_<YYYY-MM-DD_HH-MM-SS>/`): which of its files make
// the attempt's trajectory and what its small JSON companions say. The folder is read by the fs adapter; the
// decisions are here. The conversation is saved cumulatively (round k is a prefix of round k+1), so the trajectory
// is the largest `conversation_round_N.json`, never their concatenation; `developer_patch.diff` is the task's gold
// patch, not the attempt's.

import type { TrajectorySummary } from '../model';
import type { SummaryFacts } from './steps';
import { arr, dig, isObj, nonEmpty, num, obj } from './steps';

const ROUND = /^conversation_round_(\d+)\.json$/;
const DEBUG = /^debug_agent_write_patch_(\d+)\.json$/;
const PATCH = /^extracted_patch_(\d+)\.diff$/;
/** The folder's name: the instance id and the time the task was started. */
const DIR = /^(.+)_(\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d)$/;

/** The bucket folders ACR sorts its task folders into, by how the patch extraction went. */
export const ACR_BUCKETS: ReadonlySet<string> = new Set([
  'applicable_patch',
  'raw_patch_but_unmatched',
  'raw_patch_but_unparsed',
  'matched_but_empty_diff',
  'matched_but_empty_origin',
  'no_patch',
]);

function highest(names: readonly string[], re: RegExp): { name: string; n: number; count: number } | undefined {
  let best: { name: string; n: number } | undefined;
  let count = 0;
  for (const name of names) {
    const m = re.exec(name);
    if (m === null) continue;
    count++;
    const n = Number(m[1]);
    if (best === undefined || n > best.n) best = { name, n };
  }
  return best !== undefined ? { ...best, count } : undefined;
}

/** Whether a folder's file names are an AutoCodeRover task folder's. */
export function isAcrTaskDir(names: readonly string[]): boolean {
  return names.includes('meta.json') && names.some((n) => ROUND.test(n) || DEBUG.test(n));
}

export interface AcrPlan {
  /** The file to read as the trajectory: the largest conversation round, else the last patch-writing conversation. */
  conversation: string;
  /** The model's patch: the extracted patch `selected_patch.json` names, else the highest-numbered one. */
  patch?: string;
  note: string;
}

/** Which files of an ACR task folder to read; `selected` is `selected_patch.json`'s content when there is one. */
export function planAcrDir(names: readonly string[], selected?: unknown): AcrPlan | undefined {
  const round = highest(names, ROUND);
  const debug = highest(names, DEBUG);
  const pick = round ?? debug;
  if (pick === undefined) return undefined;
  const note =
    round !== undefined
      ? `read ${round.name}, the largest of ${round.count} cumulative conversation round(s)`
      : `read ${pick.name}, the last of ${pick.count} patch-writing conversation(s) (no conversation_round_N.json)`;
  const plan: AcrPlan = { conversation: pick.name, note };
  const named = nonEmpty(obj(selected)?.selected_patch);
  const base = named?.split('/').pop();
  if (base !== undefined && names.includes(base)) plan.patch = base;
  else {
    const p = highest(names, PATCH);
    if (p !== undefined) plan.patch = p.name;
  }
  return plan;
}

export interface AcrCompanions {
  dirName: string;
  /** The folder's parent: the bucket ACR sorted it into. */
  bucket?: string;
  meta?: unknown;
  cost?: unknown;
  extractStatus?: unknown;
  patchText?: string;
}

/** The summary facts the folder's companions give: instance, model, cost, tokens, exit status, patch, repo. */
export function acrFacts(c: AcrCompanions): SummaryFacts {
  const facts: SummaryFacts = {};
  const id = nonEmpty(dig(c.meta, 'task_id')) ?? nonEmpty(dig(c.meta, 'task_info', 'instance_id')) ?? DIR.exec(c.dirName)?.[1];
  if (id !== undefined) facts.instanceId = id;
  const model = nonEmpty(dig(c.cost, 'model'));
  if (model !== undefined) facts.model = model;
  const cost = num(dig(c.cost, 'total_cost'));
  if (cost !== undefined) facts.costUsd = cost;
  const input = num(dig(c.cost, 'total_input_tokens'));
  const output = num(dig(c.cost, 'total_output_tokens'));
  if (input !== undefined || output !== undefined) {
    facts.tokens = {};
    if (input !== undefined) facts.tokens.input = input;
    if (output !== undefined) facts.tokens.output = output;
  }
  const statuses = arr(dig(c.extractStatus, 'extract_status')).filter((s): s is string => typeof s === 'string');
  const status = statuses.at(-1)?.toLowerCase() ?? (c.bucket !== undefined && ACR_BUCKETS.has(c.bucket) ? c.bucket : undefined);
  if (status !== undefined) facts.exitStatus = status;
  if (c.patchText !== undefined && c.patchText.trim().length > 0) facts.submission = c.patchText;
  const row = obj(dig(c.meta, 'task_info'));
  if (isObj(row)) {
    const repo = nonEmpty(row.repo);
    const commit = nonEmpty(row.base_commit);
    if (repo !== undefined) facts.repo = repo;
    if (commit !== undefined) facts.baseCommit = commit;
  }
  return facts;
}

/** The conversation's summary with what the folder's companions say; the format becomes `autocoderover`. */
export function withAcrFacts(summary: TrajectorySummary, facts: SummaryFacts, notes: readonly string[]): TrajectorySummary {
  const out: TrajectorySummary = { ...summary, ...facts, format: 'autocoderover' };
  const all = [...notes, ...(summary.notes ?? [])];
  if (all.length > 0) out.notes = all;
  return out;
}
