// The fresh solver trials of a revalidation (issue 14): after the old attempts are re-run on the new revision, N
// trials per model try the new revision from scratch; each lands as a new attempt that exists only on the new
// revision. This file is the record's shape for them, its check on load (a stored record is untrusted: an error names
// the file and the field), and which endings leave the revalidation incomplete. A trial that fails the verifier, or
// gives up, is information about the task; a trial that could not run (the endpoint, the container, the verifier's
// infrastructure, a cancel) is not.

/** One fresh trial as the revalidation record keeps it. */
export interface FreshTrialEntry {
  /** The attempt it landed as (absent when the trial could not start). */
  attempt?: string;
  model: string;
  /** How the trial ended (Submitted, LimitsExceeded, FormatError, ModelError, ...). */
  exitStatus?: string;
  /** The verifier's status on the new revision (passed, failed, ...), `no patch`, or the queue's end (cancelled). */
  verdict?: string;
  runId?: string;
  steps?: number;
  costUsd?: number;
  error?: string;
}

/** Endings that say nothing about the task: the trial (or its verification) did not get to run. */
const INFRA_EXITS = new Set(['Cancelled', 'ModelError', 'ContainerError']);
const INFRA_VERDICTS = new Set(['infra_error', 'failed to run', 'cancelled']);

/** True when the trial did not reach a result: the revalidation is then incomplete. */
export function freshTrialIncomplete(e: FreshTrialEntry): boolean {
  if (e.error !== undefined || e.attempt === undefined) return true;
  if (e.exitStatus !== undefined && INFRA_EXITS.has(e.exitStatus)) return true;
  if (e.verdict === undefined) return true;
  return INFRA_VERDICTS.has(e.verdict);
}

const STRING_FIELDS = ['attempt', 'model', 'exitStatus', 'verdict', 'runId', 'error'] as const;
const NUMBER_FIELDS = ['steps', 'costUsd'] as const;

/**
 * The `fresh` field of a stored revalidation record: undefined when absent (a record from before fresh trials), the
 * entries when well formed, else an error naming the file and the field.
 */
export function parseFreshTrials(value: unknown, file: string): { ok: true; value: FreshTrialEntry[] | undefined } | { ok: false; message: string } {
  if (value === undefined) return { ok: true, value: undefined };
  const bad = (field: string, what: string) => ({ ok: false as const, message: `${file}: field "${field}" ${what}` });
  if (!Array.isArray(value)) return bad('fresh', 'must be a list of fresh trials');
  const out: FreshTrialEntry[] = [];
  for (let i = 0; i < value.length; i++) {
    const x: unknown = value[i];
    const at = `fresh[${i}]`;
    if (typeof x !== 'object' || x === null || Array.isArray(x)) return bad(at, 'must be an object');
    const o = x as Record<string, unknown>;
    for (const k of STRING_FIELDS) {
      if (o[k] !== undefined && typeof o[k] !== 'string') return bad(`${at}.${k}`, 'must be a string');
    }
    for (const k of NUMBER_FIELDS) {
      if (o[k] !== undefined && (typeof o[k] !== 'number' || !Number.isFinite(o[k]))) return bad(`${at}.${k}`, 'must be a number');
    }
    if (typeof o.model !== 'string' || o.model === '') return bad(`${at}.model`, 'is required (the model the trial ran with)');
    const e: FreshTrialEntry = { model: o.model };
    for (const k of STRING_FIELDS) if (k !== 'model' && typeof o[k] === 'string') e[k] = o[k];
    for (const k of NUMBER_FIELDS) if (typeof o[k] === 'number') e[k] = o[k];
    out.push(e);
  }
  return { ok: true, value: out };
}
