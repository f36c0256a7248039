// What `specweave import swebench` reports: what it wrote, what it could not match and why, and every problem with
// its file and line. The same object is printed by `--json` (documented in docs/import.md).
import type { Problem, RecordedResult } from '../model';
import type { MergedPrediction, Skipped, Unmatched } from './pairing';

export type ShortResult = Pick<RecordedResult, 'source' | 'file' | 'status' | 'resolved' | 'patchApplied' | 'detail'>;

export interface AttemptSummary {
  id: string;
  model: string;
  agent: string;
  run: string;
  /** Where the patch came from: `file:line` of a prediction, a trajectory's submission, a harness patch.diff. */
  patchFrom: string;
  patchBytes: number;
  /** The patch is wrapped in a Markdown fence (lines of the opening and closing fence); `stripped` with --strip-fences. */
  fence?: { open: number; close: number; stripped: boolean };
  trajectory?: { from: string; format?: string; byteRange?: [number, number] };
  recordedResults: ShortResult[];
  /** Review-worthy facts about the patch (malformed hunks, edited tests, stray files). */
  flags: string[];
}

export interface MergedFile {
  /** The path as given or found the second time. */
  file: string;
  /** The path it was first read under. */
  sameAs: string;
  why: string;
}

export interface TaskSummary {
  id: string;
  instanceId: string;
  /** `written` new, `replaced` an existing folder (--replace), `kept` an existing folder untouched. */
  status: 'written' | 'replaced' | 'kept';
  from: { file: string; line: number };
  repo: { name: string; kind: 'git' | 'image'; path?: string; baseCommit?: string };
  image?: string;
  tests: { failToPass: number; passToPass: number };
  verifier: { command: string; from: 'option' | 'row' | 'default' };
  /** Verdicts an earlier gold validation run recorded for the gold patch (kept in task.json's source.goldResults). */
  gold?: { recordedResults: ShortResult[] };
  attempts: AttemptSummary[];
}

export interface ImportSummary {
  /** Absolute path of the dataset. */
  out: string;
  instanceFiles: Array<{ file: string; shape?: string; rows: number }>;
  predictionFiles: Array<{ file: string; shape?: string; predictions: number }>;
  tasks: TaskSummary[];
  unmatched: Unmatched[];
  /** Inputs deliberately not imported (e.g. a gold prediction equal to the row's own patch). */
  skipped: Skipped[];
  /** Inputs that reached the importer twice and were read or imported once. */
  merged: {
    /** A file reached a second time (another spelling of its path, a symlink, a folder given twice): read once. */
    files: MergedFile[];
    /** A prediction equal to one already imported (instance, model and patch bytes): one attempt. */
    predictions: MergedPrediction[];
  };
  /** Files under --trajectories / --reports that were not recognized as trajectories or reports. */
  ignored: Array<{ file: string; reason: string }>;
  problems: Problem[];
  counts: {
    tasks: number;
    attempts: number;
    recordedResults: number;
    unmatched: number;
    skipped: number;
    /** merged.files + merged.predictions. */
    merged: number;
    errors: number;
    warnings: number;
  };
}
