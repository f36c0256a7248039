// The dataset-wide trajectory search, in a worker thread: it reads each attempt's trajectory (through the same reader
// as the task view, paths checked to stay in the dataset), keeps the prepared steps of recent files, and runs the
// regular expression over every step's text and tool calls, posting hits in small batches. The extension host's
// thread only receives batches, so a slow file or a pathological expression never blocks it; a search that does not
// stop when told (a regular expression stuck in one `exec`) is ended by terminating this worker (src/app/datasetSearch.ts).
import { parentPort } from 'node:worker_threads';
import { stat } from 'node:fs/promises';
import type { SearchPart } from '../../core/view/search';
import { excerptAt, matchesIn, searchParts } from '../../core/view/search';
import { prepareStep } from '../../core/view/steps';
import type { PreparedStep } from '../../core/view/steps';
import type { StepKindView } from '../../protocol/messages';
import { errorText } from '../../core/errorText';
import { readTrajectory } from './trajectoryReader';

/** One attempt's trajectory to search. */
export interface SearchFile {
  taskId: string;
  attempt: string;
  /** Absolute path, already resolved inside the dataset. */
  abs: string;
  /** Dataset-relative path, for messages. */
  label: string;
  datasetRoot: string;
}

export interface DatasetHit {
  taskId: string;
  attempt: string;
  step: number;
  kind: StepKindView;
  start: number;
  length: number;
  /** One line of text around the match (control characters replaced) and the match's offset in it. */
  excerpt: string;
  excerptStart: number;
  toolCall?: number;
  field?: 'name' | 'arguments';
}

export type ToWorker =
  | {
      type: 'search';
      id: number;
      source: string;
      flags: string;
      kinds?: StepKindView[];
      files: SearchFile[];
      maxHits: number;
      /** Int32Array over a SharedArrayBuffer: element 0 is the id of the search to stop. */
      cancel: SharedArrayBuffer;
    }
  | { type: 'forget' };

export type FromWorker =
  | { type: 'hits'; id: number; hits: DatasetHit[]; scanned: number; total: number }
  | { type: 'fileError'; id: number; taskId: string; attempt: string; label: string; error: string }
  /** `read`: files read from disk and prepared for this search (the rest came from the cache, unchanged since). */
  | { type: 'done'; id: number; total: number; kept: number; scanned: number; read: number; files: number; cancelled: boolean; capped: boolean; error?: string };

const BATCH_MS = 25;
const BATCH_HITS = 200;
/** Characters of prepared text kept between searches; the oldest files are dropped beyond it. */
const CACHE_CHARS = 400 * 1024 * 1024;

interface Cached {
  key: string;
  steps: PreparedStep[];
  chars: number;
}
const cache = new Map<string, Cached>();
let cachedChars = 0;

/** The file's prepared steps: from the cache while its size and modification time are what they were, else read. */
async function load(f: SearchFile, onRead: () => void): Promise<PreparedStep[]> {
  const st = await stat(f.abs);
  const key = `${st.size}:${st.mtimeMs}`;
  const hit = cache.get(f.abs);
  if (hit && hit.key === key) {
    cache.delete(f.abs);
    cache.set(f.abs, hit);
    return hit.steps;
  }
  onRead();
  const r = await readTrajectory(f.abs, { fileLabel: f.label, datasetRoot: f.datasetRoot });
  if (!r.ok) throw new Error(r.problem.message);
  const steps = r.trajectory.steps.map(prepareStep);
  const chars = steps.reduce((n, s) => n + s.text.length + (s.toolCalls ?? []).reduce((m, c) => m + c.arguments.length + c.name.length, 0), 0);
  if (hit) cachedChars -= hit.chars;
  cache.delete(f.abs);
  cache.set(f.abs, { key, steps, chars });
  cachedChars += chars;
  for (const [k, v] of cache) {
    if (cachedChars <= CACHE_CHARS || k === f.abs) break;
    cache.delete(k);
    cachedChars -= v.chars;
  }
  return steps;
}

function hitOf(f: SearchFile, s: PreparedStep, part: SearchPart, start: number, length: number): DatasetHit {
  return {
    taskId: f.taskId,
    attempt: f.attempt,
    step: s.index,
    kind: s.kind,
    start,
    length,
    ...excerptAt(part.text, start, length),
    ...(part.toolCall !== undefined ? { toolCall: part.toolCall, field: part.field! } : {}),
  };
}

async function search(m: Extract<ToWorker, { type: 'search' }>): Promise<void> {
  const stop = new Int32Array(m.cancel);
  const cancelled = (): boolean => Atomics.load(stop, 0) === m.id;
  const rx = new RegExp(m.source, m.flags.includes('g') ? m.flags : `${m.flags}g`);
  const kinds = m.kinds && m.kinds.length > 0 ? new Set(m.kinds) : undefined;
  let total = 0;
  let kept = 0;
  let scanned = 0;
  let read = 0;
  let capped = false;
  let pending: DatasetHit[] = [];
  let last = performance.now();
  const post = (msg: FromWorker): void => parentPort!.postMessage(msg);
  const flush = (force: boolean): void => {
    if (pending.length === 0 && !force) return;
    post({ type: 'hits', id: m.id, hits: pending, scanned, total });
    pending = [];
    last = performance.now();
  };
  for (const f of m.files) {
    if (cancelled()) break;
    let steps: PreparedStep[];
    try {
      steps = await load(f, () => read++);
    } catch (e) {
      post({ type: 'fileError', id: m.id, taskId: f.taskId, attempt: f.attempt, label: f.label, error: errorText(e) });
      scanned++;
      continue;
    }
    for (const s of steps) {
      if (kinds && !kinds.has(s.kind)) continue;
      for (const part of searchParts(s)) {
        for (const [at, len] of matchesIn(part.text, rx)) {
          total++;
          if (kept < m.maxHits) {
            pending.push(hitOf(f, s, part, at, len));
            kept++;
          } else capped = true;
        }
      }
    }
    scanned++;
    // The first hits go at once (what the curator waits for); then batches, by count or by time.
    if ((pending.length > 0 && kept === pending.length) || pending.length >= BATCH_HITS || performance.now() - last >= BATCH_MS) flush(true);
  }
  flush(false);
  post({ type: 'done', id: m.id, total, kept, scanned, read, files: m.files.length, cancelled: cancelled(), capped });
}

// One search at a time: the next waits for the one before (which a new search cancels first).
let queue: Promise<void> = Promise.resolve();
parentPort?.on('message', (m: ToWorker) => {
  if (m.type === 'forget') {
    cache.clear();
    cachedChars = 0;
    return;
  }
  queue = queue
    .then(() => search(m))
    .catch((e: unknown) => {
      const done: FromWorker = { type: 'done', id: m.id, total: 0, kept: 0, scanned: 0, read: 0, files: m.files.length, cancelled: false, capped: false, error: errorText(e) };
      parentPort!.postMessage(done);
    });
});
