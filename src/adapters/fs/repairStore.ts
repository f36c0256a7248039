// Repair suggestions stored under the dataset, `curation/suggestions/<task>/<id>/`: suggestion.json (what was asked,
// the prompt sent, the model, tokens, cost, timings, the rationale and evidence), prompt.md (the exact messages),
// current/ and proposed/ (each changed file before and after; the curator may edit proposed/ before accepting) and,
// after acceptance, revalidation.json. A suggestion folder appears whole or not at all: it is written under a hidden
// name and renamed into place. Every path goes through datasetPaths: a suggestions folder symlinked out of the
// dataset is neither written nor read, and the file names a record gives cannot leave its folder.
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseRecordJson } from '../../core/json';
import type { ChatMessage, ResponseFormatMode, TryRecord, Usage } from '../llm/client';
import type { LlmErrorCode } from '../llm/errors';
import type { RepairMatrix } from '../../core/repair/matrix';
import type { FreshTrialEntry } from '../../core/repair/fresh';
import { parseFreshTrials } from '../../core/repair/fresh';
import type { SectionReport } from '../../core/repair/prompt';
import type { ProposedFile, ProposedRole } from '../../core/repair/revision';
import type { RepairTarget, RequestedTarget, SuggestionEvidence } from '../../core/repair/suggestion';
import type { DraftRejection } from '../../core/specs/draftCheck';
import type { Citation } from '../../core/specs/draftPrompt';
import { DatasetFileError, ensureFolder, listFolder, readText, writeFileAtomicIn } from './datasetPaths';

export const SUGGESTIONS_DIR = 'curation/suggestions';
const SEGMENT_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export class RepairStoreError extends Error {}

function segment(kind: string, s: string): string {
  if (!SEGMENT_RE.test(s) || s.includes('..')) throw new RepairStoreError(`${kind} "${s}" cannot name a folder under ${SUGGESTIONS_DIR}/`);
  return s;
}

/** A sortable, unique suggestion id: UTC time to the millisecond plus random hex. */
export function newSuggestionId(now = new Date()): string {
  return `${now.toISOString().replace(/[-:]/g, '').replace('.', '')}-${randomBytes(3).toString('hex')}`;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export interface StoredFile {
  role: ProposedRole;
  /** request.md, task.json, or the test file's repository path. */
  path: string;
  /** Suggestion-relative paths of the two sides. */
  current: string;
  proposed: string;
  currentSha256: string;
  /** Of the proposed text as the model suggested it (an edit by the curator changes the file, not this). */
  proposedSha256: string;
  /** Unified diff from current to proposed, as suggested. */
  diff: string;
}

export interface LlmRecord {
  baseUrl: string;
  model: string;
  /** The model name the endpoint answered with. */
  answeredBy?: string;
  temperature: number;
  maxTokens: number;
  maxReplyTokens: number;
  timeoutSec: number;
  responseFormat?: ResponseFormatMode;
  /** Every HTTP try of every round, in order. */
  tries: TryRecord[];
  usage?: Usage;
  costUsd?: number;
  costSource: 'endpoint' | 'price-table' | 'unknown';
  durationMs: number;
  firstTokenMs?: number;
}

export interface RoundRecord {
  /** The messages exactly as sent in this round. */
  messages: ChatMessage[];
  reply?: string;
  finishReason?: string;
  /** What was wrong with the reply (sent back in the next round). */
  errors?: string[];
}

/** What the spec drafter keeps beside its suggestion: each drafted spec's citation, the specs it rejected and why. */
export interface DraftRecord {
  citations: Record<string, Citation>;
  rejections: DraftRejection[];
  notes: string[];
}

export interface SuggestionRecord {
  format: 1;
  /** Who made it: the repair agent (absent, older records) or the spec drafter (docs/drafter.md). */
  provenance?: 'repair' | 'drafter';
  /** The drafter's citations and rejections (provenance `drafter`). */
  draft?: DraftRecord;
  id: string;
  task: string;
  /** Task revision the suggestion was made against. */
  revision: number;
  createdAt: string;
  curator: string;
  status: 'ready' | 'refused' | 'failed';
  requestedTarget: RequestedTarget;
  note?: string;
  target?: RepairTarget;
  summary?: string;
  rationale?: string;
  evidence?: SuggestionEvidence[];
  refusal?: string;
  error?: { code: LlmErrorCode | 'invalid_reply' | 'io'; message: string };
  files: StoredFile[];
  llm: LlmRecord;
  prompt: { file: string; estimatedTokens: number; budgetTokens: number; sections: SectionReport[]; focus: { attempts: string[]; tests: string[]; specs: string[]; steering: string[] } };
  rounds: RoundRecord[];
  /** Hashes of the task's files when the suggestion was made: accepting refuses when they changed since. */
  taskFingerprint: { taskJson: string; request: string; testPatch: string };
  timings: { contextMs: number; promptMs: number; totalMs: number };
}

/** Dataset-relative folder of a task's suggestions. */
export function suggestionsRel(taskId: string): string {
  return `${SUGGESTIONS_DIR}/${segment('task id', taskId)}`;
}

/** Dataset-relative folder of one suggestion. */
export function suggestionRel(taskId: string, id: string): string {
  return `${suggestionsRel(taskId)}/${segment('suggestion id', id)}`;
}

export function suggestionsFolder(root: string, taskId: string): string {
  return path.join(root, suggestionsRel(taskId));
}

export function suggestionFolder(root: string, taskId: string, id: string): string {
  return path.join(root, suggestionRel(taskId, id));
}

/** A file of a stored suggestion (`prompt.md`, `current/...`), read without leaving its folder or the dataset. */
export function readSuggestionFile(root: string, taskId: string, id: string, rel: string): string {
  return readText(root, `${suggestionRel(taskId, id)}/${rel}`);
}

/** Suggestion-relative path of one side of a file. */
export function sidePath(side: 'current' | 'proposed', role: ProposedRole, p: string): string {
  if (role === 'test') {
    const parts = p.split('/').filter((x) => x !== '' && x !== '.');
    if (parts.some((x) => x === '..') || p.startsWith('/')) throw new RepairStoreError(`test file path "${p}" leaves the repository`);
    return `${side}/repo/${parts.join('/')}`;
  }
  return `${side}/${role === 'request' ? 'request.md' : 'task.json'}`;
}

export interface SaveInput {
  record: Omit<SuggestionRecord, 'files'>;
  files: Array<ProposedFile & { diff: string }>;
  promptDoc: string;
  /** Masks secrets in everything written (a last line of defence: nothing here should hold a key). */
  mask?: (text: string) => string;
}

/** Writes a suggestion folder whole, then renames it into place. */
export function saveSuggestion(root: string, inp: SaveInput): SuggestionRecord {
  const mask = inp.mask ?? ((t: string) => t);
  const parentRel = suggestionsRel(inp.record.task);
  const parent = ensureFolder(root, parentRel);
  const tmpName = `.${inp.record.id}.tmp-${process.pid}-${randomBytes(3).toString('hex')}`;
  const tmp = path.join(parent, tmpName);
  try {
    const inTmp = (f: string) => `${parentRel}/${tmpName}/${f}`;
    const files: StoredFile[] = inp.files.map((f) => {
      const cur = sidePath('current', f.role, f.path);
      const pro = sidePath('proposed', f.role, f.path);
      writeFileAtomicIn(root, inTmp(cur), mask(f.current), { fsync: false });
      writeFileAtomicIn(root, inTmp(pro), mask(f.proposed), { fsync: false });
      return { role: f.role, path: f.path, current: cur, proposed: pro, currentSha256: sha256(f.current), proposedSha256: sha256(f.proposed), diff: mask(f.diff) };
    });
    writeFileAtomicIn(root, inTmp('prompt.md'), mask(inp.promptDoc), { fsync: false });
    const record: SuggestionRecord = { ...inp.record, files };
    writeFileAtomicIn(root, inTmp('suggestion.json'), mask(`${JSON.stringify(record, null, 2)}\n`));
    fs.renameSync(tmp, path.join(parent, segment('suggestion id', inp.record.id)));
    return record;
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

export function loadSuggestion(root: string, taskId: string, id: string): SuggestionRecord {
  const file = `${suggestionRel(taskId, id)}/suggestion.json`;
  let text: string;
  try {
    text = readText(root, file);
  } catch (e) {
    if (e instanceof DatasetFileError && e.reason !== 'missing') throw new RepairStoreError(e.message);
    throw new RepairStoreError(`task ${taskId} has no suggestion "${id}" (no ${file})`);
  }
  const parsed = parseRecordJson(text);
  if (!parsed.ok) throw new RepairStoreError(`${file}: ${parsed.message}`);
  const v = parsed.value as SuggestionRecord;
  if (v === null || typeof v !== 'object' || v.format !== 1 || v.id !== id || v.task !== taskId) throw new RepairStoreError(`${file} is not a suggestion record of task ${taskId}`);
  return v;
}

/** A task's suggestions, newest first; unreadable ones are skipped. */
export function listSuggestions(root: string, taskId: string): SuggestionRecord[] {
  let names: string[];
  try {
    names = listFolder(root, suggestionsRel(taskId))
      .map((e) => e.name)
      .filter((n) => SEGMENT_RE.test(n));
  } catch {
    return [];
  }
  const out: SuggestionRecord[] = [];
  for (const n of names.sort().reverse()) {
    try {
      out.push(loadSuggestion(root, taskId, n));
    } catch {
      // not a suggestion folder
    }
  }
  return out;
}

/** The proposed files as they are on disk now (the curator may have edited them), with whether they were edited. */
export function readProposed(root: string, rec: SuggestionRecord): Array<{ role: ProposedRole; path: string; text: string; edited: boolean; abs: string }> {
  const dir = suggestionFolder(root, rec.task, rec.id);
  const rel = suggestionRel(rec.task, rec.id);
  return rec.files.map((f) => {
    const abs = path.join(dir, f.proposed);
    let text: string;
    try {
      text = readText(root, `${rel}/${f.proposed}`);
    } catch (e) {
      throw new RepairStoreError(`the proposed ${f.path} of suggestion ${rec.id} cannot be read: ${(e as Error).message}`);
    }
    return { role: f.role, path: f.path, text, edited: sha256(text) !== f.proposedSha256, abs };
  });
}

export interface RevalidationRecord {
  format: 1;
  suggestion?: string;
  task: string;
  fromRevision: number;
  toRevision: number;
  finishedAt: string;
  runs: Array<{ attempt: string; runId?: string; status: string; error?: string }>;
  matrix: RepairMatrix;
  /** The fresh solver trials run on the new revision (absent in a record of a revalidation without them). */
  fresh?: FreshTrialEntry[];
}

export function saveRevalidation(root: string, rec: RevalidationRecord): string {
  const rel = rec.suggestion ? `${suggestionRel(rec.task, rec.suggestion)}/revalidation.json` : `${suggestionsRel(rec.task)}/revalidation-r${rec.toRevision}.json`;
  writeFileAtomicIn(root, rel, `${JSON.stringify(rec, null, 2)}\n`);
  return path.join(root, rel);
}

/**
 * The stored revalidation of a suggestion; undefined when there is none (or it is not JSON). Its fresh trials are
 * checked: a malformed `fresh` (the record's or the matrix's) throws a RepairStoreError naming the file and field.
 */
export function loadRevalidation(root: string, taskId: string, suggestionId: string): RevalidationRecord | undefined {
  const rel = `${suggestionRel(taskId, suggestionId)}/revalidation.json`;
  let rec: RevalidationRecord;
  try {
    const v = parseRecordJson(readText(root, rel));
    if (!v.ok) return undefined;
    rec = v.value as RevalidationRecord;
  } catch {
    return undefined;
  }
  const file = path.join(root, rel);
  const fresh = parseFreshTrials((rec as { fresh?: unknown }).fresh, file);
  if (!fresh.ok) throw new RepairStoreError(fresh.message);
  const m = (rec as { matrix?: { fresh?: unknown } }).matrix;
  if (m?.fresh !== undefined) {
    const f = m.fresh as Record<string, unknown> | null;
    if (typeof f !== 'object' || f === null || Array.isArray(f)) throw new RepairStoreError(`${file}: field "matrix.fresh" must be an object`);
    const trials = parseFreshTrials(f.trials, file);
    if (!trials.ok) throw new RepairStoreError(trials.message.replace('"fresh', '"matrix.fresh.trials'));
    for (const k of ['trials', 'attempts', 'cells'] as const) {
      if (!Array.isArray(f[k])) throw new RepairStoreError(`${file}: field "matrix.fresh.${k}" must be a list`);
    }
    if (!(f.attempts as unknown[]).every((x) => typeof x === 'string')) throw new RepairStoreError(`${file}: field "matrix.fresh.attempts" must be a list of attempt ids`);
  }
  return rec;
}
