// Which source dataset a task comes from, for statistics by source: read from the `source` its importer wrote.
import type { CandidateTask } from '../model';

/** What a task written by hand (no `source`, or one without an importer) counts under. */
export const HAND_WRITTEN = 'hand-written';

/** Importer names as they are written in `source.importer`, to the dataset they mean when no flavor says more. */
const IMPORTERS: Readonly<Record<string, string>> = { swebench: 'swe-bench', harbor: 'harbor' };

const MAX_NAME = 64;

/**
 * The task's source dataset: `source.flavor` when the importer wrote one (swe-smith, swe-gym, r2e-gym, swe-rebench,
 * ...), else the importer (`swebench` -> `swe-bench`, `harbor`, or another importer's own name), else
 * `hand-written`. Names are trimmed, lower-cased and cut at 64 characters: `source` is hand-editable.
 */
export function sourceDataset(task: Pick<CandidateTask, 'source'>): string {
  const s = task.source;
  if (!s || typeof s !== 'object') return HAND_WRITTEN;
  const flavor = name(s.flavor);
  if (flavor) return flavor;
  const importer = name(s.importer);
  if (importer) return Object.hasOwn(IMPORTERS, importer) ? (IMPORTERS[importer] as string) : importer;
  return HAND_WRITTEN;
}

function name(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const t = v.trim().toLowerCase().slice(0, MAX_NAME);
  return t === '' ? undefined : t;
}
