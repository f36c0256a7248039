// R2E-Gym rows (HF `R2E-Gym/R2E-Gym-Lite` and relatives): the gold change is not a diff but a `ParsedCommit` (JSON in
// `parsed_commit_content`), rebuilt here the way R2E-Gym's `ParsedCommit.get_patch(test_file=False)` writes it (the
// non-test Python files); the tests are the keys of `expected_output_json`, named as R2E-Gym's log parser names them
// (`TestX.test_y`: the node id without its file), mapped back to the node ids the image's pytest run prints.
import { isObject } from './records';
import { parseTestText } from '../verify/testOutput';

export interface R2eChange {
  patch: string;
  oldCommit: string;
  newCommit?: string;
  /** Files of the commit left out of the gold patch (tests, non-Python files), as R2E-Gym leaves them out. */
  left: string[];
}

/** Why `parsed_commit_content` cannot be used, or the rebuilt change. */
export function r2eChange(parsed: unknown): R2eChange | { error: string } {
  if (!isObject(parsed)) return { error: 'is not a JSON object' };
  if (typeof parsed.old_commit_hash !== 'string' || !parsed.old_commit_hash.trim()) return { error: 'has no old_commit_hash' };
  if (!Array.isArray(parsed.file_diffs)) return { error: 'has no file_diffs list' };
  let patch = '';
  const left: string[] = [];
  for (const [i, d] of parsed.file_diffs.entries()) {
    const r = fileDiffPatch(d);
    if ('error' in r) return { error: `file_diffs[${i}] ${r.error}` };
    if (!r.path.endsWith('.py') || isR2eTestFile(r.path)) left.push(r.path);
    else patch += r.patch;
  }
  return { patch, oldCommit: parsed.old_commit_hash.trim(), ...(typeof parsed.new_commit_hash === 'string' ? { newCommit: parsed.new_commit_hash } : {}), left };
}

/** R2E-Gym's `FileDiff.is_test_file`. */
export function isR2eTestFile(p: string): boolean {
  const parts = p.split('/');
  const base = parts[parts.length - 1] as string;
  return p.endsWith('_test.py') || p.startsWith('test_') || base.startsWith('test_') || parts.some((s) => s === 'tests' || s === 'Tests' || s === 'test' || s === 'Test');
}

const str = (v: unknown): v is string => typeof v === 'string';

function fileDiffPatch(d: unknown): { path: string; patch: string } | { error: string } {
  if (!isObject(d) || !isObject(d.header) || !isObject(d.header.file) || !str(d.header.file.path)) return { error: 'has no header.file.path' };
  const path = d.header.file.path;
  let patch = `diff --git a/${path} b/${path}\n`;
  if (str(d.header.misc_line) && d.header.misc_line) patch += `${d.header.misc_line}\n`;
  if (isObject(d.index_line)) {
    const il = d.index_line;
    if (!str(il.old_commit_hash) || !str(il.new_commit_hash)) return { error: 'has an index_line without its hashes' };
    const mode = str(il.mode) ? il.mode : '';
    patch += `index ${il.old_commit_hash}..${il.new_commit_hash}${mode ? ' ' : ''}${mode}\n`;
  }
  if (d.is_binary_file === true && str(d.binary_line)) patch += `${d.binary_line}\n`;
  if (isObject(d.minus_file) && isObject(d.plus_file) && str(d.minus_file.path) && str(d.plus_file.path)) {
    patch += `--- ${d.minus_file.path}\n+++ ${d.plus_file.path}\n`;
  }
  const hunks = Array.isArray(d.hunks) ? d.hunks : [];
  for (const [k, h] of hunks.entries()) {
    if (!isObject(h) || !isObject(h.descriptor) || !isObject(h.line_group) || !Array.isArray(h.line_group.all_lines)) return { error: `hunks[${k}] is not a hunk` };
    const range = (r: unknown) => (isObject(r) && typeof r.start === 'number' ? (typeof r.length === 'number' ? `${r.start},${r.length}` : `${r.start}`) : undefined);
    const oldR = range(h.descriptor.old_range);
    const newR = range(h.descriptor.new_range);
    if (!oldR || !newR) return { error: `hunks[${k}] has no ranges` };
    const section = str(h.descriptor.section) ? h.descriptor.section : '';
    patch += `@@ -${oldR} +${newR} @@${section ? ` ${section}` : ''}\n`;
    for (const l of h.line_group.all_lines) {
      if (!isObject(l) || !str(l.content)) return { error: `hunks[${k}] has a line without content` };
      const mark = l.type === 'context' ? ' ' : l.type === 'added' ? '+' : l.type === 'deleted' ? '-' : l.type === 'note' ? '\\ ' : undefined;
      if (mark === undefined) return { error: `hunks[${k}] has a line of unknown type ${JSON.stringify(l.type)}` };
      patch += `${mark}${l.content}\n`;
    }
  }
  return { path, patch };
}

export interface R2eTests {
  failToPass: string[];
  passToPass: string[];
  /** Tests R2E-Gym expects not to pass (its reward needs the exact map), by R2E name, with the status expected. */
  notPassing: Record<string, string>;
  notes: string[];
}

/** R2E-Gym's key for a pytest node id: the id without its file, `::` written as `.`. */
function r2eKey(nodeId: string): string {
  return nodeId.split('::').slice(1).join('.');
}

/**
 * The tests of an R2E-Gym row: the keys of `expected_output_json` that must pass, named by the node id of the runs
 * recorded in `execution_result_content` (else rebuilt from the test files' code), fail-to-pass when the run before
 * the fix did not pass them.
 */
export function r2eTests(expected: Record<string, unknown>, execution: Record<string, unknown> | undefined): R2eTests {
  const notes: string[] = [];
  const nodeIds = new Map<string, string[]>();
  const addIds = (log: unknown) => {
    if (!str(log)) return {};
    const tests = parseTestText('pytest', log).tests;
    for (const id of Object.keys(tests)) {
      const k = r2eKey(id);
      const list = nodeIds.get(k) ?? [];
      if (!list.includes(id)) list.push(id);
      nodeIds.set(k, list);
    }
    return tests;
  };
  const before = execution ? addIds(execution.old_commit_res_stdout) : {};
  if (execution) addIds(execution.new_commit_res_stdout);
  const hasBefore = Object.keys(before).length > 0;
  const files = execution && Array.isArray(execution.test_file_names) ? execution.test_file_names.filter(str) : [];
  const codes = execution && Array.isArray(execution.test_file_codes) ? execution.test_file_codes : [];
  const fromCode = (key: string): string | undefined => {
    const bracket = key.indexOf('[');
    const head = bracket < 0 ? key : key.slice(0, bracket);
    const parts = head.split('.');
    const tail = bracket < 0 ? '' : key.slice(bracket);
    const first = parts[0] as string;
    const defines = (code: unknown) => str(code) && new RegExp(`^\\s*(class|def|async def) ${first.replace(/[^\w]/g, '')}\\b`, 'm').test(code);
    const candidates = files.length === 1 ? files : files.filter((_, i) => defines(codes[i]));
    return candidates.length === 1 ? `r2e_tests/${candidates[0]}::${parts.join('::')}${tail}` : undefined;
  };
  const failToPass: string[] = [];
  const passToPass: string[] = [];
  const notPassing: Record<string, string> = {};
  let kept = 0;
  for (const [key, status] of Object.entries(expected)) {
    if (status !== 'PASSED') {
      notPassing[key] = String(status);
      continue;
    }
    const ids = nodeIds.get(key) ?? [];
    const id = ids.length === 1 ? (ids[0] as string) : fromCode(key);
    if (!id) kept++;
    const name = id ?? key;
    const old = id ? before[id] : undefined;
    if (hasBefore && (old === 'PASSED' || old === 'XFAIL' || old === 'XPASS')) passToPass.push(name);
    else failToPass.push(name);
  }
  if (kept > 0) notes.push(`${kept} test(s) of expected_output_json could not be matched to a test file and keep R2E-Gym's name (e.g. TestX.test_y): the runner names them by node id, so they will show as missing.`);
  if (!hasBefore && failToPass.length > 0) {
    notes.push('The row records no run before the fix (execution_result_content): every expected test is listed as FAIL_TO_PASS.');
  }
  const np = Object.keys(notPassing).length;
  if (np > 0) {
    notes.push(
      `${np} test(s) of expected_output_json are expected not to pass (kept in source.r2e_expected_not_passing); R2E-Gym's reward also needs those ` +
        'outcomes, SpecWeave grades only the tests that must pass.',
    );
  }
  return { failToPass, passToPass, notPassing, notes };
}
