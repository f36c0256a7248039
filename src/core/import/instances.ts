// SWE-bench-style task rows and their relatives (SWE-Gym, SWE-smith, SWE-rebench) into one instance shape.
import type { Problem } from '../model';
import { isObject, readRecords } from './records';
import type { RecordShape } from './records';

export type InstanceFlavor = 'swe-bench' | 'swe-smith' | 'swe-rebench';

export interface InstanceRow {
  instanceId: string;
  /** `owner/name` for SWE-bench rows; SWE-smith uses its mirror's name. */
  repo: string;
  baseCommit?: string;
  /** The gold patch (SWE-bench); for SWE-smith rows the patch that introduces the bug. */
  patch?: string;
  testPatch?: string;
  problemStatement: string;
  hintsText?: string;
  createdAt?: string;
  version?: string;
  environmentSetupCommit?: string;
  difficulty?: string;
  failToPass: string[];
  passToPass: string[];
  imageName?: string;
  /** SWE-rebench `install_config.test_cmd`. */
  testCmd?: string;
  flavor: InstanceFlavor;
  file: string;
  line: number;
}

export interface InstancesResult {
  shape?: RecordShape;
  rows: InstanceRow[];
  problems: Problem[];
}

const looksLikeRow = (v: Record<string, unknown>) => 'instance_id' in v || 'problem_statement' in v || 'FAIL_TO_PASS' in v;

/** Parses a file of instance rows; a bad row is reported with its line and skipped, the others are kept. */
export function parseInstances(text: string, file: string): InstancesResult {
  const rec = readRecords(text, file, looksLikeRow);
  const problems = [...rec.problems];
  const rows: InstanceRow[] = [];
  for (const r of rec.records) {
    const row = toRow(r.value as Record<string, unknown>, file, r.line, r.key, problems);
    if (row) rows.push(row);
  }
  return { ...(rec.shape ? { shape: rec.shape } : {}), rows, problems };
}

function toRow(v: Record<string, unknown>, file: string, line: number, key: string | undefined, problems: Problem[]): InstanceRow | undefined {
  const instanceId = typeof v.instance_id === 'string' && v.instance_id.trim() ? v.instance_id.trim() : key;
  const err = (field: string, message: string, severity: Problem['severity'] = 'error') =>
    problems.push({ severity, file, line, field, message: instanceId ? `${instanceId}: ${message}` : message });
  if (!instanceId) {
    err('instance_id', 'row has no instance_id; it is skipped');
    return undefined;
  }
  if (typeof v.repo !== 'string' || !v.repo.trim()) {
    err('repo', 'row has no repo ("owner/name"); it is skipped');
    return undefined;
  }
  const str = (name: string): string | undefined => {
    const x = v[name];
    if (x === undefined || x === null) return undefined;
    if (typeof x === 'string') return x;
    if (typeof x === 'number') return String(x);
    err(name, `expected a string, found ${Array.isArray(x) ? 'a list' : typeof x}; the field is ignored`, 'warning');
    return undefined;
  };
  const tests = (name: 'FAIL_TO_PASS' | 'PASS_TO_PASS'): string[] | undefined => {
    const x = v[name];
    if (x === undefined || x === null) {
      err(name, `no ${name}: the task gets no ${name === 'FAIL_TO_PASS' ? 'fail-to-pass' : 'pass-to-pass'} tests`, 'warning');
      return [];
    }
    let list: unknown = x;
    if (typeof x === 'string') {
      try {
        list = JSON.parse(x);
      } catch {
        err(name, `${name} is a string but not a JSON-encoded list; the row is skipped`);
        return undefined;
      }
    }
    if (!Array.isArray(list) || list.some((t) => typeof t !== 'string')) {
      err(name, `${name} must be a list of test ids (or a JSON-encoded one); the row is skipped`);
      return undefined;
    }
    return list as string[];
  };
  const failToPass = tests('FAIL_TO_PASS');
  const passToPass = tests('PASS_TO_PASS');
  if (!failToPass || !passToPass) return undefined;

  const problemStatement = str('problem_statement') ?? '';
  if (!problemStatement.trim()) err('problem_statement', 'empty problem statement: request.md will be empty', 'warning');
  const install = isObject(v.install_config) ? v.install_config : undefined;
  const testCmd = install && typeof install.test_cmd === 'string' && install.test_cmd.trim() ? install.test_cmd.trim() : undefined;
  const imageName = str('image_name') ?? str('docker_image');
  const testPatch = str('test_patch');
  const flavor: InstanceFlavor = install ? 'swe-rebench' : imageName && testPatch === undefined ? 'swe-smith' : 'swe-bench';
  const baseCommit = str('base_commit');
  if (!baseCommit && flavor === 'swe-bench') err('base_commit', 'no base_commit: the repository must come from the image as it is', 'warning');
  const row: InstanceRow = {
    instanceId,
    repo: (v.repo as string).trim(),
    problemStatement,
    failToPass,
    passToPass,
    flavor,
    file,
    line,
  };
  const optional: Array<[keyof InstanceRow, string | undefined]> = [
    ['baseCommit', baseCommit],
    ['patch', str('patch')],
    ['testPatch', testPatch],
    ['hintsText', str('hints_text')],
    ['createdAt', str('created_at')],
    ['version', str('version')],
    ['environmentSetupCommit', str('environment_setup_commit')],
    ['difficulty', str('difficulty')],
    ['imageName', imageName],
    ['testCmd', testCmd],
  ];
  for (const [k, val] of optional) if (val !== undefined) (row as unknown as Record<string, unknown>)[k] = val;
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
