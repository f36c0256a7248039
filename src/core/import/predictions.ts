// Predictions in every shape tools write them: JSON Lines, a JSON array, an object keyed by instance id (SWE-agent
// and mini-swe-agent `preds.json`), or one object per instance (SWE-agent `<id>.pred`).
import type { Problem } from '../model';
import { readRecords } from './records';
import type { RecordShape } from './records';

export interface Prediction {
  instanceId: string;
  /** `model_name_or_path`; SWE-agent writes its run name here. */
  model?: string;
  /** The patch text exactly as given; '' when the tool wrote null or nothing. */
  patch: string;
  /** The tool wrote no patch at all (null or missing), as opposed to an empty string. */
  noPatch: boolean;
  file: string;
  line: number;
}

export interface PredictionsResult {
  shape?: RecordShape;
  predictions: Prediction[];
  /** Entries that record a failure instead of a patch (`{instance_id, error}` beside the predictions of a run script). */
  errorEntries: Array<{ instanceId: string; line: number; error: string }>;
  problems: Problem[];
}

const PATCH_KEYS = ['model_patch', 'patch', 'git_patch', 'fix_patch'];
const looksLikePrediction = (v: Record<string, unknown>) => 'instance_id' in v || PATCH_KEYS.some((k) => k in v);
const MAX_ERROR_TEXT = 200;

/** Parses a predictions file; a bad row is reported with its line and skipped. Duplicates keep the first. */
export function parsePredictions(text: string, file: string): PredictionsResult {
  const rec = readRecords(text, file, looksLikePrediction);
  const problems = [...rec.problems];
  const predictions: Prediction[] = [];
  const errorEntries: PredictionsResult['errorEntries'] = [];
  const seen = new Map<string, number>();
  for (const r of rec.records) {
    const v = r.value as Record<string, unknown>;
    // Multi-SWE-bench's `{org, repo, number, fix_patch}` names its instance `{org}__{repo}-{number}` (its rows' id).
    const msb = typeof v.org === 'string' && typeof v.repo === 'string' && (typeof v.number === 'number' || typeof v.number === 'string') ? `${v.org}__${v.repo}-${v.number}` : undefined;
    const id = typeof v.instance_id === 'string' && v.instance_id.trim() ? v.instance_id.trim() : (msb ?? r.key);
    if (!id) {
      problems.push({ severity: 'error', file, line: r.line, field: 'instance_id', message: 'prediction has no instance_id; it is skipped' });
      continue;
    }
    if (r.key !== undefined && id !== r.key) {
      problems.push({ severity: 'warning', file, line: r.line, field: r.key, message: `keyed "${r.key}" but its instance_id is "${id}"; using the instance_id` });
    }
    const patchKey = PATCH_KEYS.find((k) => k in v);
    if (!patchKey && v.error !== undefined && v.error !== null) {
      const text = typeof v.error === 'string' ? v.error : JSON.stringify(v.error);
      errorEntries.push({ instanceId: id, line: r.line, error: text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT)}…` : text });
      continue;
    }
    const raw = patchKey ? v[patchKey] : undefined;
    if (raw !== undefined && raw !== null && typeof raw !== 'string') {
      problems.push({ severity: 'error', file, line: r.line, field: patchKey, message: `${id}: the patch must be a string; the prediction is skipped` });
      continue;
    }
    const model = typeof v.model_name_or_path === 'string' && v.model_name_or_path.trim() ? v.model_name_or_path.trim() : undefined;
    const dupKey = `${id}\u0000${model ?? ''}`;
    const prev = seen.get(dupKey);
    if (prev !== undefined) {
      problems.push({ severity: 'warning', file, line: r.line, message: `${id}: a second prediction by the same model (first at line ${prev}); this one is ignored` });
      continue;
    }
    seen.set(dupKey, r.line);
    predictions.push({
      instanceId: id,
      ...(model !== undefined ? { model } : {}),
      patch: typeof raw === 'string' ? raw : '',
      noPatch: typeof raw !== 'string',
      file,
      line: r.line,
    });
  }
  return { ...(rec.shape ? { shape: rec.shape } : {}), predictions, errorEntries, problems };
}
