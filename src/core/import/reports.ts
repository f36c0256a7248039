// Evaluation output of SWE-bench and its neighbours, read into recorded results: per-instance `report.json` (wrapped
// in its instance id or not), run-level reports (schema 2 id lists, and the older list-keyed one), a custom
// harness's eval JSON, the harness's `run_instance.log` when no report was written, the Python-repr report OpenHands
// logs, and OpenHands' Markdown summary.
import type { RecordedResult, SuccessFailure } from '../model';
import { isObject } from './records';
import { parsePyLiteral } from './pyLiteral';

/** A recorded result before it is given the file it came from. */
export type Verdict = Omit<RecordedResult, 'file'>;

export interface VerdictEntry {
  /** Undefined when the report does not say (an unwrapped report.json): the caller finds it from the path. */
  instanceId?: string;
  verdict: Verdict;
  /** The solver the report names itself (SWE-smith's `model_name_or_path`). */
  model?: string;
}

export interface CustomPatch {
  instanceId?: string;
  patch: string;
  agent?: string;
  model?: string;
  costUsd?: number;
  tokens?: { input?: number; output?: number };
  status?: string;
  /** The agent's raw output (e.g. Claude Code stream-json), kept as the attempt's trajectory. */
  rawOutput?: string;
}

export type ReportDoc =
  | { kind: 'instance-report'; entries: VerdictEntry[] }
  | { kind: 'run-report'; schema: 'schema-2' | 'id-lists' | 'swesmith' | 'results-summary'; entries: VerdictEntry[]; submitted: number }
  /** A gold validation (SWE-smith `run_validation`): how the tests fared with and without the bug; for the gold probe. */
  | { kind: 'gold-validation'; entries: VerdictEntry[] }
  | { kind: 'custom-eval'; entries: VerdictEntry[] }
  | { kind: 'custom-patch'; patch: CustomPatch }
  | { kind: 'unknown'; reason: string };

const INSTANCE_KEYS = ['patch_is_None', 'patch_exists', 'patch_successfully_applied', 'resolved', 'tests_status'];

function isInstanceReport(v: unknown): boolean {
  if (!isObject(v)) return false;
  if (isTimedOut(v)) return true;
  if (!('tests_status' in v) && !('patch_successfully_applied' in v)) return false;
  return INSTANCE_KEYS.every((k) => !(k in v) || typeof v[k] === 'boolean' || (k === 'tests_status' && isObject(v[k])));
}

/** SWE-smith's report when the run hit its time limit: `{"timed_out": true, "timeout": 60}`. */
const isTimedOut = (v: Record<string, unknown>) => v.timed_out === true && Object.keys(v).every((k) => k === 'timed_out' || k === 'timeout');

function sf(v: unknown): SuccessFailure | undefined {
  if (!isObject(v)) return undefined;
  const list = (x: unknown) => (Array.isArray(x) ? x.filter((t): t is string => typeof t === 'string') : []);
  return { success: list(v.success), failure: list(v.failure) };
}

/**
 * One SWE-bench per-instance report (the value under the instance id) as a verdict. SWE-smith writes the same shape
 * with its model inside and never sets `patch_successfully_applied` (a resolved report says false): there it is not
 * read.
 */
export function instanceVerdict(r: Record<string, unknown>, source: string): Verdict {
  if (isTimedOut(r)) {
    const secs = typeof r.timeout === 'number' && Number.isFinite(r.timeout) ? ` after ${r.timeout} s` : '';
    return { imported: true, source, resolved: false, status: 'error', detail: `timed out${secs}` };
  }
  const applied = typeof r.patch_successfully_applied === 'boolean' && source !== 'swesmith-report' ? r.patch_successfully_applied : undefined;
  const resolved = r.resolved === true;
  const status: Verdict['status'] =
    r.patch_is_None === true || r.patch_exists === false ? 'empty_patch' : applied === false ? 'error' : resolved ? 'resolved' : 'unresolved';
  const ts = isObject(r.tests_status) ? r.tests_status : {};
  const f2p = sf(ts.FAIL_TO_PASS);
  const p2p = sf(ts.PASS_TO_PASS);
  // SWE-bench 5 marks a run the environment broke (`infra_failure`, `infra_failure_reason`): not the patch's fault.
  const infra = r.infra_failure === true ? `infra failure${typeof r.infra_failure_reason === 'string' && r.infra_failure_reason ? `: ${r.infra_failure_reason}` : ''}` : undefined;
  return {
    imported: true,
    source,
    resolved,
    ...(applied !== undefined ? { patchApplied: applied } : {}),
    status,
    ...(infra ? { detail: infra } : {}),
    ...(f2p ? { failToPass: f2p } : {}),
    ...(p2p ? { passToPass: p2p } : {}),
  };
}

/** Recognizes a JSON document found among evaluation output by its content. */
export function classifyReport(value: unknown): ReportDoc {
  if (!isObject(value)) return { kind: 'unknown', reason: 'not a JSON object' };
  if (isInstanceReport(value)) {
    const model = typeof value.model_name_or_path === 'string' && value.model_name_or_path.trim() ? value.model_name_or_path.trim() : undefined;
    // The model inside and the time-out shape are SWE-smith's; SWE-bench writes neither.
    const source = model !== undefined || isTimedOut(value) ? 'swesmith-report' : 'swebench-report';
    return { kind: 'instance-report', entries: [{ verdict: instanceVerdict(value, source), ...(model ? { model } : {}) }] };
  }
  const validation = goldValidation(value);
  if (validation) return validation;
  const smith = swesmithRunReport(value);
  if (smith) return smith;
  const summary = resultsSummary(value);
  if (summary) return summary;
  const counts = countsOnly(value);
  if (counts) return { kind: 'unknown', reason: counts };
  const values = Object.values(value);
  if (values.length > 0 && values.every(isInstanceReport)) {
    return {
      kind: 'instance-report',
      entries: Object.entries(value).map(([id, r]) => ({ instanceId: id, verdict: instanceVerdict(r as Record<string, unknown>, 'swebench-report') })),
    };
  }
  if (Array.isArray(value.resolved_ids) || value.schema_version !== undefined) return runReportV2(value);
  const lists = runReportLists(value);
  if (lists) return lists;
  if (isObject(value.fail_to_pass_results) || isObject(value.pass_to_pass_results)) return customEval(value);
  if (typeof value.patch === 'string' && (typeof value.instance_id === 'string' || typeof value.agent_name === 'string') && !('model_patch' in value)) {
    return { kind: 'custom-patch', patch: customPatch(value) };
  }
  return { kind: 'unknown', reason: 'not a report shape this importer knows' };
}

const ids = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

function runReportV2(v: Record<string, unknown>): ReportDoc {
  const entries: VerdictEntry[] = [];
  const seen = new Set<string>();
  // SWE-bench 5: ids whose run the environment broke stay in unresolved_ids / error_ids; say so on their verdict.
  const infra = new Set(ids(v.infra_failure_ids));
  const reasons = isObject(v.failure_reasons) ? v.failure_reasons : {};
  const detailOf = (id: string) => {
    if (!infra.has(id)) return undefined;
    const why = reasons[id];
    return `infra failure${typeof why === 'string' && why ? `: ${why}` : ''}`;
  };
  const add = (list: unknown, status: NonNullable<Verdict['status']>) => {
    for (const id of ids(list)) {
      if (seen.has(id)) continue;
      seen.add(id);
      const detail = detailOf(id);
      entries.push({
        instanceId: id,
        verdict: { imported: true, source: 'swebench-run-report', status, resolved: status === 'resolved', ...(detail ? { detail } : {}) },
      });
    }
  };
  add(v.resolved_ids, 'resolved');
  add(v.unresolved_ids, 'unresolved');
  add(v.error_ids, 'error');
  add(v.empty_patch_ids, 'empty_patch');
  return { kind: 'run-report', schema: 'schema-2', entries, submitted: ids(v.submitted_ids).length };
}

const TEST_LISTS = ['FAIL_TO_PASS', 'PASS_TO_PASS', 'FAIL_TO_FAIL', 'PASS_TO_FAIL'];
const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/**
 * SWE-smith's validation report (`logs/run_validation/<run>/<id>/report.json`): plain test lists from running the
 * tests with the bug and without it. A valid bug has fail-to-pass tests; without it, the task proves nothing.
 */
function goldValidation(v: Record<string, unknown>): ReportDoc | undefined {
  const keys = Object.keys(v);
  if (!('FAIL_TO_PASS' in v) || !('PASS_TO_PASS' in v) || !keys.every((k) => TEST_LISTS.includes(k) && strings(v[k]))) return undefined;
  const list = (k: string) => (strings(v[k]) ? v[k] : []);
  const f2p = list('FAIL_TO_PASS');
  const p2f = list('PASS_TO_FAIL');
  const valid = f2p.length > 0 && p2f.length === 0;
  const detail = f2p.length === 0 ? 'gold validation: no test fails with the bug and passes without it' : `gold validation: ${f2p.length} fail-to-pass, ${list('PASS_TO_PASS').length} pass-to-pass, ${p2f.length} pass-to-fail`;
  return {
    kind: 'gold-validation',
    entries: [
      {
        verdict: {
          imported: true,
          source: 'swesmith-validation',
          resolved: valid,
          status: valid ? 'resolved' : 'unresolved',
          detail,
          failToPass: { success: f2p, failure: list('FAIL_TO_FAIL') },
          passToPass: { success: list('PASS_TO_PASS'), failure: p2f },
        },
      },
    ],
  };
}

/** SWE-smith's run summary `{resolved, unresolved, total, ids_resolved, ids_unresolved}` (counts and id lists). */
function swesmithRunReport(v: Record<string, unknown>): ReportDoc | undefined {
  if (!strings(v.ids_resolved) || !strings(v.ids_unresolved ?? [])) return undefined;
  const entries: VerdictEntry[] = [];
  const seen = new Set<string>();
  for (const [list, status] of [[v.ids_resolved, 'resolved'], [v.ids_unresolved ?? [], 'unresolved']] as const) {
    for (const id of list as string[]) {
      if (seen.has(id)) continue;
      seen.add(id);
      entries.push({ instanceId: id, verdict: { imported: true, source: 'swesmith-run-report', status, resolved: status === 'resolved' } });
    }
  }
  return { kind: 'run-report', schema: 'swesmith', entries, submitted: typeof v.total === 'number' ? v.total : entries.length };
}

/** A user's `results_summary.json`: `{total, passed, failed, pass_rate, instances: [{instance_id, resolved, patch_applied}]}`. */
function resultsSummary(v: Record<string, unknown>): ReportDoc | undefined {
  if (!Array.isArray(v.instances) || v.instances.length === 0) return undefined;
  const items = v.instances;
  if (!items.every((x) => isObject(x) && typeof x.instance_id === 'string' && typeof x.resolved === 'boolean')) return undefined;
  const entries: VerdictEntry[] = [];
  const seen = new Set<string>();
  for (const x of items as Array<Record<string, unknown>>) {
    const id = x.instance_id as string;
    if (seen.has(id)) continue;
    seen.add(id);
    const applied = typeof x.patch_applied === 'boolean' ? x.patch_applied : undefined;
    const status: Verdict['status'] = x.resolved === true ? 'resolved' : applied === false ? 'error' : 'unresolved';
    entries.push({ instanceId: id, verdict: { imported: true, source: 'results-summary', status, resolved: x.resolved === true, ...(applied !== undefined ? { patchApplied: applied } : {}) } });
  }
  return { kind: 'run-report', schema: 'results-summary', entries, submitted: typeof v.total === 'number' ? v.total : entries.length };
}

/** `resolved_by_repo.json` / `resolved_by_time.json` of SWE-bench experiments: counts, no verdict per instance. */
function countsOnly(v: Record<string, unknown>): string | undefined {
  const values = Object.values(v);
  if (values.length === 0 || !values.every((x) => isObject(x) && typeof x.resolved === 'number' && typeof x.total === 'number')) return undefined;
  const keys = Object.keys(v);
  if (keys.every((k) => /^\d{4}$/.test(k))) return 'resolved counts per year: no verdict per instance';
  if (keys.every((k) => k.includes('/'))) return 'resolved counts per repository: no verdict per instance';
  return 'resolved counts per group: no verdict per instance';
}

// The list-keyed report of SWE-bench's earlier harness and of tools that copied it, and the `results/results.json`
// of SWE-bench experiments (`no_generation`, `no_logs`, `resolved`: unresolved ids are implicit there).
const LIST_KEYS = [
  'patch_is_None', 'patch_exists', 'patch_successfully_applied', 'resolved', 'unresolved', 'no_generation', 'generated',
  'with_logs', 'install_fail', 'reset_failed', 'no_apply', 'applied', 'test_errored', 'test_timeout', 'no_logs',
];

function runReportLists(v: Record<string, unknown>): ReportDoc | undefined {
  const present = LIST_KEYS.filter((k) => k in v);
  if (!('resolved' in v) || present.length < 2 || !present.every((k) => Array.isArray(v[k]))) return undefined;
  const set = (k: string) => new Set(ids(v[k]));
  const resolved = set('resolved');
  const empty = new Set([...set('patch_is_None'), ...set('no_generation')]);
  const noApply = set('no_apply');
  const appliedKey = 'patch_successfully_applied' in v ? 'patch_successfully_applied' : 'applied' in v ? 'applied' : undefined;
  const applied = appliedKey ? set(appliedKey) : undefined;
  const exists = new Set([...set('patch_exists'), ...set('generated')]);
  const errored = new Set([...set('install_fail'), ...set('reset_failed'), ...set('test_errored'), ...set('test_timeout')]);
  const all = new Set<string>();
  for (const k of present) for (const id of ids(v[k])) all.add(id);
  const entries: VerdictEntry[] = [];
  for (const id of all) {
    const patchApplied = noApply.has(id) ? false : applied?.has(id) ? true : applied && exists.has(id) ? false : undefined;
    let status: NonNullable<Verdict['status']>;
    if (resolved.has(id)) status = 'resolved';
    else if (empty.has(id)) status = 'empty_patch';
    else if (patchApplied === false || errored.has(id)) status = 'error';
    else if (set('unresolved').has(id) || patchApplied === true) status = 'unresolved';
    else continue; // generated or logged but never graded: no verdict to record
    entries.push({
      instanceId: id,
      verdict: {
        imported: true,
        source: 'swebench-run-report',
        status,
        resolved: status === 'resolved',
        ...(patchApplied !== undefined ? { patchApplied } : {}),
      },
    });
  }
  return { kind: 'run-report', schema: 'id-lists', entries, submitted: exists.size };
}

function customEval(v: Record<string, unknown>): ReportDoc {
  const results = (x: unknown): SuccessFailure | undefined => {
    if (!isObject(x)) return undefined;
    const out: SuccessFailure = { success: [], failure: [] };
    for (const [test, ok] of Object.entries(x)) (ok === true ? out.success : out.failure).push(test);
    return out;
  };
  const f2p = results(v.fail_to_pass_results);
  const p2p = results(v.pass_to_pass_results);
  const evalStatus = typeof v.eval_status === 'string' ? v.eval_status : undefined;
  const resolved = v.resolved === true;
  const status: Verdict['status'] = evalStatus !== undefined && evalStatus !== 'success' ? 'error' : resolved ? 'resolved' : 'unresolved';
  const verdict: Verdict = {
    imported: true,
    source: 'custom-eval',
    resolved,
    status,
    ...(f2p ? { failToPass: f2p } : {}),
    ...(p2p ? { passToPass: p2p } : {}),
  };
  return { kind: 'custom-eval', entries: [{ ...(typeof v.instance_id === 'string' ? { instanceId: v.instance_id } : {}), verdict }] };
}

function customPatch(v: Record<string, unknown>): CustomPatch {
  const usage = isObject(v.token_usage) ? v.token_usage : undefined;
  const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : undefined);
  const input = num(usage?.input_tokens);
  const output = num(usage?.output_tokens);
  const cost = num(v.total_cost_usd) ?? num(v.cost);
  const model = typeof v.model_name === 'string' && v.model_name ? v.model_name : typeof v.model === 'string' && v.model ? v.model : undefined;
  return {
    patch: v.patch as string,
    ...(typeof v.instance_id === 'string' ? { instanceId: v.instance_id } : {}),
    ...(typeof v.agent_name === 'string' && v.agent_name ? { agent: v.agent_name } : {}),
    ...(model ? { model } : {}),
    ...(cost !== undefined ? { costUsd: cost } : {}),
    ...(input !== undefined || output !== undefined
      ? { tokens: { ...(input !== undefined ? { input: Math.round(input) } : {}), ...(output !== undefined ? { output: Math.round(output) } : {}) } }
      : {}),
    ...(typeof v.status === 'string' ? { status: v.status } : {}),
    ...(typeof v.raw_output === 'string' && v.raw_output ? { rawOutput: v.raw_output } : {}),
  };
}

/** Names a run's metadata gives its solver (OpenHands `llm_config.model`, `agent` + `model`, `model_name_or_path`). */
export function metadataModels(v: unknown): string[] {
  if (!isObject(v)) return [];
  const out: string[] = [];
  const s = (x: unknown) => (typeof x === 'string' && x.trim() ? x.trim() : undefined);
  const llm = isObject(v.llm_config) ? s(v.llm_config.model) : undefined;
  if (llm) out.push(llm);
  const agent = s(v.agent) ?? s(v.agent_class);
  const model = s(v.model) ?? s(v.model_name);
  if (agent && model) out.push(`${agent}/${model}`);
  if (model) out.push(model);
  const mnp = s(v.model_name_or_path);
  if (mnp) out.push(mnp);
  return [...new Set(out)];
}

// ---- logs ---------------------------------------------------------------------------------------------------

export interface HarnessLog {
  instanceId?: string;
  runId?: string;
  /** The harness's model folder (`model_name_or_path` with `/` as `__`). */
  modelDir?: string;
  patchApplied?: boolean;
  /** The first line that says why the patch did not apply. */
  applyError?: string;
}

/** What SWE-bench's `run_instance.log` says about an instance: where it was written and whether its patch applied. */
export function readHarnessLog(text: string): HarnessLog {
  const out: HarnessLog = {};
  const where = /logs\/run_evaluation\/([^/\s]+)\/([^/\s]+)\/([^/\s]+)\//.exec(text);
  if (where) {
    out.runId = where[1] as string;
    out.modelDir = where[2] as string;
    out.instanceId = where[3] as string;
  }
  const created = /Creating container for (\S+?)\.\.\./.exec(text);
  if (!out.instanceId && created) out.instanceId = created[1] as string;
  const failed = text.indexOf('Patch Apply Failed');
  if (failed >= 0) {
    out.patchApplied = false;
    const after = text.slice(failed, failed + 4000).split('\n');
    const why = after.find((l) => /Hunk #\d+ FAILED|^error:|corrupt patch|does not apply|can't find file/.test(l.trim()));
    if (why) out.applyError = why.trim();
  } else if (/>>>>> Applied Patch|APPLY_PATCH_PASS/.test(text)) out.patchApplied = true;
  return out;
}

/** The Python-repr report an OpenHands evaluation log prints (`... report: {'patch_is_None': False, ...}`). */
export function readOpenHandsLog(text: string): { instanceId?: string; entries: VerdictEntry[]; error?: string } {
  const at = text.search(/\breport: \{/);
  const idMatch = /Starting evaluation for instance (\S+?)\.?$/m.exec(text) ?? /^Result for (\S+?):/m.exec(text);
  const instanceId = idMatch ? (idMatch[1] as string) : undefined;
  if (at < 0) {
    if (/APPLY_PATCH_FAIL/.test(text)) {
      return {
        ...(instanceId ? { instanceId } : {}),
        entries: [{ ...(instanceId ? { instanceId } : {}), verdict: { imported: true, source: 'openhands-log', status: 'error', resolved: false, patchApplied: false } }],
      };
    }
    return { ...(instanceId ? { instanceId } : {}), entries: [], error: 'no "report: {...}" line in this log' };
  }
  const start = text.indexOf('{', at);
  const parsed = parsePyLiteral(text, start);
  if (!parsed.ok) return { ...(instanceId ? { instanceId } : {}), entries: [], error: `the report in this log is not a Python literal: ${parsed.message}` };
  const doc = classifyReport(parsed.value);
  if (doc.kind !== 'instance-report') return { ...(instanceId ? { instanceId } : {}), entries: [], error: 'the logged report has no SWE-bench report shape' };
  return {
    ...(instanceId ? { instanceId } : {}),
    entries: doc.entries.map((e) => ({ ...e, ...(e.instanceId ?? instanceId ? { instanceId: e.instanceId ?? instanceId } : {}), verdict: { ...e.verdict, source: 'openhands-log' } })),
  };
}

/** OpenHands' Markdown summary of a SWE-bench evaluation: id lists under "Resolved/Unresolved/Error... Instances". */
export function readOpenHandsSummary(text: string): Extract<ReportDoc, { kind: 'run-report' | 'unknown' }> {
  const entries: VerdictEntry[] = [];
  let status: Verdict['status'] | undefined;
  let any = false;
  for (const line of text.split(/\r?\n/)) {
    const h = /^#+\s*(Resolved|Unresolved|Error|Empty Patch)\s+Instances\s*$/i.exec(line);
    if (h) {
      any = true;
      const k = (h[1] as string).toLowerCase();
      status = k === 'resolved' ? 'resolved' : k === 'unresolved' ? 'unresolved' : k === 'error' ? 'error' : 'empty_patch';
      continue;
    }
    if (/^#/.test(line)) {
      status = undefined;
      continue;
    }
    const item = /^\s*[-*]\s*\[?([A-Za-z0-9_.-]+__[A-Za-z0-9_.-]+)\]?/.exec(line);
    if (item && status) {
      entries.push({ instanceId: item[1] as string, verdict: { imported: true, source: 'openhands-summary', status, resolved: status === 'resolved' } });
    }
  }
  if (!any) return { kind: 'unknown', reason: 'no "Resolved Instances" section' };
  return { kind: 'run-report', schema: 'id-lists', entries, submitted: entries.length };
}

/** Instance ids look like `owner__repo-123` (SWE-bench) or `owner__repo.hash.suffix` (SWE-smith). */
export function looksLikeInstanceId(s: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_.-]*__[A-Za-z0-9_.-]+$/.test(s) && /[-.][A-Za-z0-9]+$/.test(s);
}
