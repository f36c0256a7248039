// Benchmark task rows into one instance shape: SWE-bench and its relatives (SWE-Gym, SWE-smith, SWE-rebench,
// SWE-bench Multilingual), SWE-bench Pro, Multi-SWE-bench, SWE-bench-Live, SWE-PolyBench, R2E-Gym and Scale-SWE,
// from JSON Lines, a JSON array, one object or a CSV file, in UTF-8 or UTF-16.
import type { Problem } from '../model';
import type { InstanceRow } from './instanceRow';
import { RowFields } from './instanceRow';
import { decodeText, readRecords } from './records';
import type { RecordShape } from './records';
import { flavorOf, readShape } from './rowShapes';

export type { InstanceFlavor, InstanceRow, RowCommand } from './instanceRow';

export interface InstancesResult {
  shape?: RecordShape;
  /** Set when the file was not UTF-8. */
  encoding?: 'utf-16le' | 'utf-16be';
  rows: InstanceRow[];
  problems: Problem[];
}

const ROW_KEYS = ['instance_id', 'problem_statement', 'FAIL_TO_PASS', 'fail_to_pass', 'F2P', 'parsed_commit_content', 'fix_patch', 'f2p_script'];
const looksLikeRow = (v: Record<string, unknown>) => ROW_KEYS.some((k) => k in v) || ('org' in v && 'number' in v);

/** Parses a file of instance rows; a bad row is reported with its line and skipped, the others are kept. */
export function parseInstances(input: string | Uint8Array, file: string): InstancesResult {
  const decoded = typeof input === 'string' ? { text: input } : decodeText(input);
  const rec = readRecords(decoded.text, file, looksLikeRow, 'instance_id');
  const problems = [...rec.problems];
  const rows: InstanceRow[] = [];
  for (const r of rec.records) {
    const row = toRow(r.value as Record<string, unknown>, file, r.line, r.key, problems);
    if (row) rows.push(row);
  }
  return { ...(rec.shape ? { shape: rec.shape } : {}), ...(decoded.encoding ? { encoding: decoded.encoding } : {}), rows, problems };
}

function toRow(v: Record<string, unknown>, file: string, line: number, key: string | undefined, problems: Problem[]): InstanceRow | undefined {
  const f = new RowFields(v, file, line, problems);
  const flavor = flavorOf(v);
  const draft = readShape(flavor, f, key);
  if (!draft) return undefined;
  const row: InstanceRow = { ...draft, file, line };
  const tests = row.failToPass.length + row.passToPass.length;
  if (tests === 0 && !row.problemStatement.trim() && !row.patch?.trim()) {
    const seen = Object.keys(v);
    f.problem(
      '',
      `the row yields an empty task (no tests, no request, no gold patch) from its fields ${seen.slice(0, 12).join(', ')}${seen.length > 12 ? ', ...' : ''}; it is skipped`,
    );
    return undefined;
  }
  if (!row.problemStatement.trim()) f.problem('problem_statement', 'empty problem statement: request.md will be empty', 'warning');
  if (!row.baseCommit && (flavor === 'swe-bench' || flavor === 'swe-bench-pro' || flavor === 'multi-swe-bench')) {
    f.problem('base_commit', 'no base_commit: the repository must come from the image as it is', 'warning');
  }
  return row;
}

/** The same instance in two files: equal when every field matches, the test lists compared as sets. */
export function sameInstance(a: InstanceRow, b: InstanceRow): { same: boolean; differences: string[]; reordered: string[] } {
  const differences: string[] = [];
  const reordered: string[] = [];
  const fields: Array<keyof InstanceRow> = ['repo', 'baseCommit', 'patch', 'testPatch', 'problemStatement', 'hintsText', 'version', 'environmentSetupCommit'];
  for (const f of fields) if ((a[f] ?? '') !== (b[f] ?? '')) differences.push(f);
  for (const f of ['failToPass', 'passToPass'] as const) {
    const x = a[f];
    const y = b[f];
    const sx = new Set(x);
    const sy = new Set(y);
    if (sx.size !== sy.size || [...sx].some((t) => !sy.has(t))) differences.push(f === 'failToPass' ? 'FAIL_TO_PASS' : 'PASS_TO_PASS');
    else if (x.join('\n') !== y.join('\n')) reordered.push(f === 'failToPass' ? 'FAIL_TO_PASS' : 'PASS_TO_PASS');
  }
  return { same: differences.length === 0, differences, reordered };
}

/** `owner` and `name` of a repository name (`owner/name`, or just `name`). */
export function repoParts(repo: string): { owner?: string; name: string } {
  const parts = repo.split('/').filter(Boolean);
  if (parts.length >= 2) return { owner: parts[parts.length - 2], name: parts[parts.length - 1] as string };
  return { name: parts[0] ?? repo };
}
