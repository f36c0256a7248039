// The review log's events: the envelope every line shares, one typed payload per kind, validation per kind, and the
// line format with its checksum. Adding a kind = one entry in `ReviewPayloads` and one in `PAYLOAD_CHECKS`.
import { createHash } from 'node:crypto';
import { parseStrict } from '../jsonStrict';
import type { FindingDismissPayload, FindingsPayload } from '../findings/model';
import { findingDismissCheck, findingsPayloadCheck } from '../findings/model';
import type { CuratorVerdict, TaskStatus } from '../model';
import { TASK_STATUSES } from '../model';
import { curatorNameProblem } from './curator';
import type { EvidenceLink } from './evidence';
import { evidenceCheck } from './evidence';
import type { Check, FieldError } from './validate';
import { arrayOf, int, isRecord, obj, oneOf, str, tagged, text } from './validate';

export const CURATOR_VERDICTS = ['satisfied', 'violated', 'unsure'] as const;
export const ENV_DEFECTS = ['dependency_drift', 'resource_mismatch', 'flaky'] as const;
export type EnvDefect = (typeof ENV_DEFECTS)[number];
/** SWE-bench Verified's difficulty buckets: under 15 minutes, 15 minutes to an hour, 1 to 4 hours, over 4 hours. */
export const DIFFICULTIES = ['<15m', '15m-1h', '1-4h', '>4h'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];
export const SEVERITY_FIELDS = ['underspecified', 'fnSeverity', 'fpSeverity'] as const;
export type SeverityField = (typeof SEVERITY_FIELDS)[number];
/** Score fields that curators can disagree on and an adjudication can settle. */
export const SCORE_FIELDS = [...SEVERITY_FIELDS, 'difficulty', 'envDefects'] as const;
export type ScoreField = (typeof SCORE_FIELDS)[number];

export interface LabelPayload {
  attempt: string;
  spec: string;
  verdict: CuratorVerdict;
  note?: string;
  evidence: EvidenceLink[];
}

/** Per task, in the style of SWE-bench Verified: each severity 0 (none) to 3 (severe). */
export interface ScorePayload {
  underspecified: number;
  /** Tests reject valid solutions (false-negative severity). */
  fnSeverity: number;
  /** Tests too weak, accept wrong solutions (false-positive severity). */
  fpSeverity: number;
  envDefects: EnvDefect[];
  otherIssues?: string;
  difficulty?: Difficulty;
  note?: string;
  evidence?: EvidenceLink[];
}

export interface Waiver {
  /** Id of the approval rule waived (see rules.ts). */
  rule: string;
  reason: string;
}

export interface ApprovePayload {
  waivers: Waiver[];
  note?: string;
  /** The verifier runs the decision rested on (attempt id or gold/empty, run id). */
  runs: Array<{ attempt: string; run: string }>;
  /** The consensus policy in force when approving. */
  policy?: string;
}

export type AdjudicatePayload =
  | { target: 'label'; attempt: string; spec: string; verdict: CuratorVerdict; note?: string }
  | { target: 'score'; field: ScoreField; value: number | Difficulty | EnvDefect[]; note?: string };

/** Everything the log knows how to hold. Other modules add kinds here (e.g. the repair agent's). */
export interface ReviewPayloads {
  label: LabelPayload;
  score: ScorePayload;
  /** The curator has finished their own review of the task: ends their blindness to others' labels. */
  submit: { note?: string };
  /** A life-cycle transition (approved and rejected only through `approve` and `reject`). */
  status: { from: TaskStatus; to: TaskStatus; note?: string };
  approve: ApprovePayload;
  reject: { reason: string };
  /** An oracle-probe flag the curator confirmed (a finding) or dismissed. */
  suggestion: { suggestion: string; decision: 'confirmed' | 'dismissed'; note?: string; flag?: { kind: string; message: string; test?: string; spec?: string; attempt?: string } };
  /** The final decision on a disagreement between curators. */
  adjudicate: AdjudicatePayload;
  /** Withdraws an earlier event (undoing an undo restores it). */
  undo: { event: string; note?: string };
  /**
   * A new revision of the task (written by repair): labels on `changedSpecs` made against an older revision become
   * stale; the envelope's `revision` is the new revision. `specHashes` (written since round 4; absent in older logs)
   * holds, per changed spec, the content hash (core/review/specHash.ts) before and after: with it a label is stale
   * only while its spec's content differs from what it was at the label's revision (an undo makes it current again).
   */
  revision: { from: number; changedSpecs: string[]; note?: string; suggestion?: string; specHashes?: Record<string, { before?: string; after?: string }> };
  /** The repair agent was asked for a suggestion (stored under curation/suggestions/<task>/<suggestion>/). */
  'repair.request': RepairRequestedPayload;
  /** The curator accepted a suggestion (perhaps edited): revision `from` became `to`. */
  'repair.accept': { suggestion: string; from: number; to: number; edited: boolean; changedSpecs: string[]; note?: string };
  'repair.reject': { suggestion: string; reason: string };
  /**
   * A curator's spec authoring (src/app/specAuthoring.ts): revision `from` became `to`, written beside a `revision`
   * event naming the same changed specs. `undo` restores the specs and tests of the revision before the spec edit
   * `undoes` (an event id), as a new revision.
   */
  'specs.edit': SpecEditPayload;
  /**
   * The review agent's checked findings for one attempt (core/findings/model.ts): suggestions, never labels. The
   * envelope's curator is who ran the agent; `revision` the task revision judged.
   */
  'review.findings': FindingsPayload;
  /** A curator dismissed one finding of a `review.findings` event. */
  'review.dismiss': FindingDismissPayload;
}

/** Operations of spec authoring, as recorded in the log (`undo` restores the specs before an earlier one). */
export const SPEC_EDIT_OPS = ['add', 'edit', 'split', 'merge', 'delete', 'reorder', 'depends', 'map', 'toggle', 'undo'] as const;

export interface SpecEditPayload {
  op: (typeof SPEC_EDIT_OPS)[number];
  from: number;
  to: number;
  changedSpecs: string[];
  /** Specs the edit created or deleted (a deleted spec's labels stay readable in history). */
  created?: string[];
  deleted?: string[];
  /** One line on what was done, e.g. "edit B3 (text)". */
  summary?: string;
  /** With op `undo`: the `specs.edit` event undone. */
  undoes?: string;
  note?: string;
}

export interface RepairRequestedPayload {
  suggestion: string;
  /** What the curator asked to change: auto, request, specs, tests or spec_test_map. */
  target: string;
  model: string;
  /** `suggested`: a checked suggestion is stored; `refused` / `failed`: the record says why, nothing to decide. */
  outcome: 'suggested' | 'refused' | 'failed';
  message?: string;
  promptTokens?: number;
  completionTokens?: number;
  costUsd?: number;
}

export type ReviewEventKind = keyof ReviewPayloads;

export interface EventEnvelope {
  /** Time-ordered and random (see eventId.ts): unique without coordination. */
  id: string;
  /** ISO 8601 UTC with milliseconds, `YYYY-MM-DDTHH:MM:SS.sssZ`. */
  time: string;
  curator: string;
  task: string;
  /** The task revision the event was made against. */
  revision: number;
}

export type ReviewEventOf<K extends ReviewEventKind> = EventEnvelope & { kind: K; payload: ReviewPayloads[K] };
export type KnownReviewEvent = { [K in ReviewEventKind]: ReviewEventOf<K> }[ReviewEventKind];
/** A kind written by a newer version: kept (its checksum is good) and shown, but not reduced. */
export type UnknownReviewEvent = EventEnvelope & { kind: string; payload: Record<string, unknown>; unknownKind: true };
export type ReviewEvent = KnownReviewEvent | UnknownReviewEvent;

/** An event before the log gives it an id and a time. */
export type EventDraft = { [K in ReviewEventKind]: { kind: K; task: string; revision: number; curator: string; payload: ReviewPayloads[K] } }[ReviewEventKind];

const id = str({ min: 1, max: 300 });
const verdict = oneOf(CURATOR_VERDICTS);
const severity = int(0, 3);
const status = oneOf(TASK_STATUSES);
const note = text();

const contentHash = str({ min: 8, max: 64, pattern: /^[0-9a-f]+$/, what: 'a content hash (lower-case hex)' });
const hashChange = obj({}, { before: contentHash, after: contentHash });
/** `revision.specHashes`: spec id -> { before?, after? }, at most 10,000 specs. */
const specHashes: Check = (v, field) => {
  if (!isRecord(v)) return { field, message: 'expected an object' };
  const keys = Object.keys(v);
  if (keys.length > 10_000) return { field, message: 'at most 10000 specs' };
  for (const k of keys) {
    if (k.length < 1 || k.length > 300) return { field, message: `${JSON.stringify(k.slice(0, 40))} is not a spec id (1-300 characters)` };
    const e = hashChange(v[k], `${field}.${k}`);
    if (e) return e;
  }
  return undefined;
};

export const PAYLOAD_CHECKS: { [K in ReviewEventKind]: Check } = {
  label: obj({ attempt: id, spec: id, verdict, evidence: arrayOf(evidenceCheck, { max: 200 }) }, { note }),
  score: obj(
    { underspecified: severity, fnSeverity: severity, fpSeverity: severity, envDefects: arrayOf(oneOf(ENV_DEFECTS), { unique: true }) },
    { otherIssues: note, difficulty: oneOf(DIFFICULTIES), note, evidence: arrayOf(evidenceCheck, { max: 200 }) },
  ),
  submit: obj({}, { note }),
  status: obj({ from: status, to: status }, { note }),
  approve: obj(
    {
      waivers: arrayOf(obj({ rule: str({ min: 1, max: 100 }), reason: text(5000) }), { max: 50 }),
      runs: arrayOf(obj({ attempt: id, run: id }), { max: 10_000 }),
    },
    { note, policy: str({ max: 50 }) },
  ),
  reject: obj({ reason: str({ min: 1, max: 20_000 }) }),
  suggestion: obj(
    { suggestion: id, decision: oneOf(['confirmed', 'dismissed']) },
    { note, flag: obj({ kind: str({ min: 1, max: 100 }), message: text(5000) }, { test: id, spec: id, attempt: id }) },
  ),
  adjudicate: tagged('target', {
    label: obj({ attempt: id, spec: id, verdict }, { note }),
    score: (v, field) => {
      const base = obj({ field: oneOf(SCORE_FIELDS) }, { note })(v, field);
      if (base) return base;
      const p = v as { field: ScoreField; value?: unknown };
      const f = `${field}.value`;
      if (p.value === undefined) return { field: f, message: 'is required' };
      if (p.field === 'difficulty') return oneOf(DIFFICULTIES)(p.value, f);
      if (p.field === 'envDefects') return arrayOf(oneOf(ENV_DEFECTS), { unique: true })(p.value, f);
      return severity(p.value, f);
    },
  }),
  undo: obj({ event: id }, { note }),
  revision: obj({ from: int(1, 1_000_000), changedSpecs: arrayOf(id, { max: 10_000 }) }, { note, suggestion: id, specHashes }),
  'repair.request': obj(
    { suggestion: id, target: str({ min: 1, max: 50 }), model: str({ min: 1, max: 300 }), outcome: oneOf(['suggested', 'refused', 'failed']) },
    { message: text(5000), promptTokens: int(0, 100_000_000), completionTokens: int(0, 100_000_000), costUsd: (v, field) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? undefined : { field, message: 'expected a cost in USD' }) },
  ),
  'repair.accept': obj(
    { suggestion: id, from: int(1, 1_000_000), to: int(2, 1_000_001), edited: (v, field) => (typeof v === 'boolean' ? undefined : { field, message: 'expected true or false' }), changedSpecs: arrayOf(id, { max: 10_000 }) },
    { note },
  ),
  'repair.reject': obj({ suggestion: id, reason: str({ min: 1, max: 20_000 }) }),
  'specs.edit': obj(
    { op: oneOf(SPEC_EDIT_OPS), from: int(1, 1_000_000), to: int(2, 1_000_001), changedSpecs: arrayOf(id, { max: 10_000 }) },
    { created: arrayOf(id, { max: 10_000 }), deleted: arrayOf(id, { max: 10_000 }), summary: text(2000), undoes: id, note },
  ),
  'review.findings': findingsPayloadCheck,
  'review.dismiss': findingDismissCheck,
};

export function isKnownKind(kind: string): kind is ReviewEventKind {
  return Object.prototype.hasOwnProperty.call(PAYLOAD_CHECKS, kind);
}

/** `YYYY-MM-DDTHH:MM:SS.sssZ` with plausible ranges: fixed width, so times sort as strings. */
export const TIME_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
const KIND_PATTERN = /^[a-z][a-z0-9_.-]{0,63}$/;
const ID_PATTERN = /^[0-9A-Za-z_-]{8,64}$/;

/** Curator names already checked: a log has few curators and many lines. */
const goodCurators = new Set<string>();

function curatorProblemCached(name: string): string | undefined {
  if (goodCurators.has(name)) return undefined;
  const p = curatorNameProblem(name);
  if (!p && goodCurators.size < 10_000) goodCurators.add(name);
  return p;
}

/** Checks a parsed line and returns the event, or the first problem with the field it is in. */
export function toEvent(raw: unknown): { ok: true; event: ReviewEvent } | { ok: false; error: FieldError } {
  if (!isRecord(raw)) return { ok: false, error: { field: '', message: 'a log line must be a JSON object' } };
  const fail = (field: string, message: string) => ({ ok: false as const, error: { field, message } });
  const { id: eid, time, curator, task, revision, kind, payload } = raw;
  if (typeof eid !== 'string' || !ID_PATTERN.test(eid)) return fail('id', 'expected an event id (8-64 letters, digits, _ or -)');
  if (typeof time !== 'string' || !TIME_PATTERN.test(time)) return fail('time', 'expected an ISO time like 2026-01-31T12:00:00.000Z');
  if (typeof curator !== 'string') return fail('curator', 'expected a string');
  const cp = curatorProblemCached(curator);
  if (cp) return fail('curator', cp);
  if (typeof task !== 'string' || task.length === 0 || task.length > 300) return fail('task', 'expected a task id');
  if (typeof revision !== 'number' || !Number.isInteger(revision) || revision < 1) return fail('revision', 'expected a revision number from 1');
  if (typeof kind !== 'string' || !KIND_PATTERN.test(kind)) return fail('kind', 'expected an event kind');
  if (!isRecord(payload)) return fail('payload', 'expected an object');
  const known = isKnownKind(kind);
  if (known) {
    const err = PAYLOAD_CHECKS[kind](payload, 'payload');
    if (err) return { ok: false, error: err };
  }
  // A fresh object of one shape for every event (fast to reduce); fields added by hand are left behind.
  if (!known) return { ok: true, event: { id: eid, time, curator, task, revision, kind, payload, unknownKind: true } };
  return { ok: true, event: { id: eid, time, curator, task, revision, kind, payload } as KnownReviewEvent };
}

// ---- the line format -------------------------------------------------------------------------------------------

/** Hex characters of SHA-256 kept per line: 64 bits catch any accidental damage; this is not a signature. */
export const SUM_HEX_CHARS = 16;
const SUM_SUFFIX_LENGTH = ',"sum":"'.length + SUM_HEX_CHARS + '"}'.length;

/** JSON with object keys sorted at every level, no whitespace, undefined fields left out. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? 'null' : canonicalJson(x))).join(',')}]`;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
}

/** The checksum of an event: SHA-256 of its canonical JSON without `sum`, first 16 hex characters. */
export function eventSum(canonical: string): string {
  return createHash('sha256').update(canonical).digest('hex').slice(0, SUM_HEX_CHARS);
}

function envelopeAndPayload(e: ReviewEvent): Record<string, unknown> {
  return { id: e.id, time: e.time, curator: e.curator, task: e.task, revision: e.revision, kind: e.kind, payload: e.payload };
}

/** The log line of an event (no newline): its canonical JSON with `sum` added as the last field. */
export function formatEventLine(e: ReviewEvent): string {
  const canonical = canonicalJson(envelopeAndPayload(e));
  return `${canonical.slice(0, -1)},"sum":"${eventSum(canonical)}"}`;
}

export type LineResult =
  | { ok: true; event: ReviewEvent }
  | { ok: false; reason: 'malformed' | 'checksum' | 'invalid'; message: string; field?: string };

/**
 * Parses one log line. A line as we write it is verified without re-serializing; a line reformatted by hand (keys
 * reordered, spaces) still verifies when its content is unchanged.
 */
export function parseEventLine(line: string): LineResult {
  // Strict: a line nested too deep, or naming a member twice (two readers could disagree on which one counts, e.g.
  // two curators), is refused like malformed JSON. The checksum cannot tell: it covers the text as written.
  const parsed = parseStrict(line);
  if (!parsed.ok) return { ok: false, reason: 'malformed', message: parsed.kind === 'syntax' ? `malformed JSON: ${parsed.error.message}` : parsed.message };
  const raw = parsed.value;
  if (!isRecord(raw)) return { ok: false, reason: 'malformed', message: 'a log line must be a JSON object' };
  const sum = raw.sum;
  if (typeof sum !== 'string') return { ok: false, reason: 'checksum', message: 'the line has no "sum" field' };
  const start = line.length - SUM_SUFFIX_LENGTH;
  const fast =
    start > 0 &&
    line.startsWith(',"sum":"', start) &&
    line.endsWith('"}') &&
    createHash('sha256').update(line.slice(0, start)).update('}').digest('hex').startsWith(line.slice(start + 8, start + 8 + SUM_HEX_CHARS));
  if (!fast) {
    const rest: Record<string, unknown> = { ...raw };
    delete rest.sum;
    const expected = eventSum(canonicalJson(rest));
    if (expected !== sum) {
      return { ok: false, reason: 'checksum', message: `checksum mismatch: the line says ${JSON.stringify(sum)}, its content hashes to "${expected}" (edited or damaged)` };
    }
  }
  const ev = toEvent(raw);
  if (!ev.ok) return { ok: false, reason: 'invalid', message: `invalid event: ${ev.error.field}: ${ev.error.message}`, field: ev.error.field };
  return ev;
}

/** Sort order of the log: by time, then id. The reduction depends on nothing else, so line order does not matter. */
export function compareEvents(a: EventEnvelope, b: EventEnvelope): number {
  if (a.time !== b.time) return a.time < b.time ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Event kinds an `undo` may target. */
export function isUndoable(kind: string): boolean {
  // A repair's request and acceptance describe files written to disk; undoing the event would not unwrite them.
  // A spec edit is undone by `specweave specs undo`, which writes a new revision.
  // The agent's findings are its record of a paid call: a curator dismisses one (`review.dismiss`), never unwrites it.
  return kind !== 'revision' && kind !== 'repair.request' && kind !== 'repair.accept' && kind !== 'specs.edit' && kind !== 'review.findings';
}
