// Searching all steps of all attempts of a task: a regular expression or plain text, hits streamed in batches, the
// work cut into short time slices so the extension host stays responsive and a search can be cancelled at once.
import type { SearchHit, StepKindView } from '../../protocol/messages';
import type { PreparedStep } from './steps';
import { errorText } from '../errorText';

export interface SearchQuery {
  pattern: string;
  regex: boolean;
  caseSensitive: boolean;
  kinds?: readonly StepKindView[];
}

export type CompiledSearch = { ok: true; re: RegExp } | { ok: false; error: string };

/** Turns a query into a global RegExp; an empty or invalid pattern is an error text, never an exception. */
export function compileSearch(q: SearchQuery): CompiledSearch {
  if (q.pattern.length === 0) return { ok: false, error: 'Type something to search for.' };
  const source = q.regex ? q.pattern : q.pattern.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  try {
    return { ok: true, re: new RegExp(source, q.caseSensitive ? 'g' : 'gi') };
  } catch (e) {
    const why = errorText(e).replace(/^Invalid regular expression: /, '');
    return { ok: false, error: `Invalid regular expression: ${why}` };
  }
}

export interface SearchSource {
  /** Column ids in display order (attempts with a trajectory). */
  columns: readonly string[];
  /** The column's steps, loaded on first use; undefined when its trajectory cannot be read. */
  load(column: string, signal: AbortSignal): Promise<readonly PreparedStep[] | undefined>;
}

export interface SearchOptions {
  kinds?: readonly StepKindView[];
  signal: AbortSignal;
  /** Receives hits in batches, with the running counts per column. */
  onHits(hits: SearchHit[], counts: Record<string, number>): void;
  /** Hits kept and sent; matches beyond it are only counted. */
  maxHits?: number;
  /** Matches counted before the search stops counting. */
  maxCount?: number;
  /** Hits per batch. */
  maxBatch?: number;
  /** Work done between two yields to the event loop, in milliseconds. */
  sliceMs?: number;
  now?: () => number;
  yieldNow?: () => Promise<void>;
}

export interface SearchOutcome {
  total: number;
  counts: Record<string, number>;
  cancelled: boolean;
  /** Some matches were not sent (more than maxHits) or not counted (more than maxCount). */
  capped: boolean;
}

export const DEFAULT_MAX_HITS = 5000;
export const DEFAULT_MAX_COUNT = 1_000_000;
const EXCERPT_RADIUS = 60;
const EXCERPT_MATCH_CHARS = 200;

const defaultYield = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Runs a search to the end (or until cancelled), calling `onHits` as hits are found. */
export async function runSearch(source: SearchSource, re: RegExp, o: SearchOptions): Promise<SearchOutcome> {
  const maxHits = o.maxHits ?? DEFAULT_MAX_HITS;
  const maxCount = o.maxCount ?? DEFAULT_MAX_COUNT;
  const maxBatch = o.maxBatch ?? 500;
  const sliceMs = o.sliceMs ?? 12;
  const now = o.now ?? (() => performance.now());
  const yieldNow = o.yieldNow ?? defaultYield;
  const kinds = o.kinds && o.kinds.length > 0 ? new Set(o.kinds) : undefined;
  const counts: Record<string, number> = {};
  let total = 0;
  let kept = 0;
  let pending: SearchHit[] = [];
  let capped = false;
  const rx = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);

  const flush = (): void => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    o.onHits(batch, { ...counts });
  };
  let sliceStart = now();
  const maybeYield = async (): Promise<boolean> => {
    if (pending.length >= maxBatch) flush();
    if (now() - sliceStart < sliceMs) return !o.signal.aborted;
    flush();
    await yieldNow();
    sliceStart = now();
    return !o.signal.aborted;
  };

  outer: for (const column of source.columns) {
    if (o.signal.aborted) break;
    counts[column] = 0;
    flush();
    const steps = await source.load(column, o.signal);
    sliceStart = now();
    if (o.signal.aborted) break;
    if (!steps) continue;
    for (const step of steps) {
      if (kinds && !kinds.has(step.kind)) continue;
      for (const part of searchParts(step)) {
        let sinceCheck = 0;
        for (const [at, len] of matchesIn(part.text, rx)) {
          total++;
          counts[column] = (counts[column] ?? 0) + 1;
          if (kept < maxHits) {
            pending.push(hitAt(column, step.index, part, at, len));
            kept++;
          } else capped = true;
          if (total >= maxCount) {
            capped = true;
            break outer;
          }
          // A single 10 MB step can hold a million matches: check the clock inside the step too (the generator keeps
          // its place in the text across the pause: nothing else uses this RegExp).
          if (++sinceCheck >= 1024) {
            sinceCheck = 0;
            if (!(await maybeYield())) break outer;
          }
        }
      }
      if (!(await maybeYield())) break outer;
    }
  }
  flush();
  return { total, counts, cancelled: o.signal.aborted, capped };
}

/** The matches of a global RegExp in a text, as [offset, length]; empty matches are skipped (they mark nothing). */
export function* matchesIn(text: string, rx: RegExp): Generator<[number, number]> {
  rx.lastIndex = 0;
  for (let m = rx.exec(text); m !== null; m = rx.exec(text)) {
    const len = m[0].length;
    if (len === 0) {
      rx.lastIndex++;
      if (rx.lastIndex > text.length) break;
      continue;
    }
    yield [m.index, len];
  }
}

/** A searched part of a step: its text, or one tool call's name or arguments (as the detail shows each apart). */
export interface SearchPart {
  text: string;
  toolCall?: number;
  field?: 'name' | 'arguments';
}

/**
 * The parts of a step a search looks in, each on its own: a match never runs from one part into the next, and its
 * offset is where the detail shows it (the text `getStepText` slices, or the tool call's name or arguments).
 */
export function searchParts(step: Pick<PreparedStep, 'text' | 'toolCalls'>): SearchPart[] {
  const parts: SearchPart[] = [{ text: step.text }];
  (step.toolCalls ?? []).forEach((c, i) => parts.push({ text: c.name, toolCall: i, field: 'name' }, { text: c.arguments, toolCall: i, field: 'arguments' }));
  return parts;
}

/** One line of text around a match, and the match's offset in it (line breaks and tabs become spaces, same length). */
export function excerptAt(text: string, start: number, length: number): { excerpt: string; excerptStart: number } {
  const from = Math.max(0, start - EXCERPT_RADIUS);
  const to = Math.min(text.length, start + Math.min(length, EXCERPT_MATCH_CHARS) + EXCERPT_RADIUS);
  return { excerpt: text.slice(from, to).replace(/[\n\t\r]/g, ' '), excerptStart: start - from };
}

function hitAt(column: string, step: number, part: SearchPart, start: number, length: number): SearchHit {
  return { column, step, start, length, ...excerptAt(part.text, start, length), ...(part.toolCall !== undefined ? { toolCall: part.toolCall, field: part.field! } : {}) };
}
