// UI state the webview owns (active column, filters, search, scroll, panes), what survives a reload, and how a
// restored state meets a model. The host keeps the protocol's WebviewState part; the rest lives in the VS Code
// webview state (`setState`), which is ours alone.
import type { StepKindView, TaskViewModel, WebviewState } from '../../src/protocol/messages';

export const STEP_KINDS: readonly StepKindView[] = ['system', 'user', 'thought', 'action', 'observation', 'tool_call', 'tool_result', 'submission'];

export interface UiState {
  taskId: string;
  activeColumn: string | undefined;
  /** Step kinds shown; all kinds when every one is on. */
  stepKinds: StepKindView[];
  search: string;
  regex: boolean;
  caseSensitive: boolean;
  /** Tab of the specs/tests area. */
  specsTab: string;
  /** Column the per-file compare button compares against. */
  compareWith: string | undefined;
  /** Per column: selected step index and scroll offset of the step list. */
  selectedStep: Record<string, number>;
  scrollTop: Record<string, number>;
  /** Per column: the file the "open diff" key opens. */
  selectedFile: Record<string, string>;
  /** Split positions in percent, by split name. */
  splits: Record<string, number>;
  /** Attempt cards: compact always (`on`), or only when the full cards do not fit side by side (`auto`). */
  compactAttempts: CompactMode;
}

export type CompactMode = 'auto' | 'on';

interface Persisted extends UiState {
  v: 1;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, max = 1000): string | undefined => (typeof v === 'string' && v.length <= max ? v : undefined);

function numbers(v: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (!isObj(v)) return out;
  for (const [k, n] of Object.entries(v)) if (typeof n === 'number' && Number.isFinite(n) && n >= 0) out[k] = n;
  return out;
}

function strings(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObj(v)) return out;
  for (const [k, s] of Object.entries(v)) if (typeof s === 'string' && s.length <= 4096) out[k] = s;
  return out;
}

function kinds(v: unknown): StepKindView[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const k = v.filter((x): x is StepKindView => STEP_KINDS.includes(x as StepKindView));
  return k.length > 0 ? [...new Set(k)] : undefined;
}

export function defaultState(model: TaskViewModel): UiState {
  return {
    taskId: model.taskId,
    activeColumn: firstTrajectoryColumn(model),
    stepKinds: [...STEP_KINDS],
    search: '',
    regex: false,
    caseSensitive: false,
    specsTab: 'specs',
    compareWith: model.columns[0]?.id,
    selectedStep: {},
    scrollTop: {},
    selectedFile: {},
    splits: {},
    compactAttempts: 'auto',
  };
}

function firstTrajectoryColumn(model: TaskViewModel): string | undefined {
  return (model.columns.find((c) => c.hasTrajectory) ?? model.columns[0])?.id;
}

/**
 * The state to start with for `model`: our own saved state when it is for the same task, with the host's copy of
 * the shared fields on top (the host's is what the user last did, possibly in another panel instance). Search and
 * filter settings carry over to a different task; positions do not.
 */
export function restoreState(model: TaskViewModel, saved: unknown, host: WebviewState | undefined): UiState {
  const s = defaultState(model);
  const local = isObj(saved) && saved.v === 1 ? saved : undefined;
  const sameTask = local !== undefined && local.taskId === model.taskId;
  if (local) {
    s.stepKinds = kinds(local.stepKinds) ?? s.stepKinds;
    s.search = str(local.search) ?? '';
    s.regex = local.regex === true;
    s.caseSensitive = local.caseSensitive === true;
    s.specsTab = str(local.specsTab, 64) ?? s.specsTab;
    s.splits = numbers(local.splits);
    if (local.compactAttempts === 'on') s.compactAttempts = 'on';
    if (sameTask) {
      s.activeColumn = str(local.activeColumn, 256) ?? s.activeColumn;
      s.compareWith = str(local.compareWith, 256) ?? s.compareWith;
      s.selectedStep = numbers(local.selectedStep);
      s.scrollTop = numbers(local.scrollTop);
      s.selectedFile = strings(local.selectedFile);
    }
  }
  if (host && host.taskId === model.taskId) {
    if (host.activeColumn !== undefined) s.activeColumn = host.activeColumn;
    s.stepKinds = kinds(host.stepKinds) ?? s.stepKinds;
    if (host.search !== undefined) s.search = host.search;
    if (host.regex !== undefined) s.regex = host.regex;
    if (host.caseSensitive !== undefined) s.caseSensitive = host.caseSensitive;
  }
  return reconcile(s, model);
}

/** Drops references to columns the model no longer has. */
export function reconcile(s: UiState, model: TaskViewModel): UiState {
  const ids = new Set(model.columns.map((c) => c.id));
  const out = { ...s, taskId: model.taskId };
  if (out.activeColumn === undefined || !ids.has(out.activeColumn)) out.activeColumn = firstTrajectoryColumn(model);
  if (out.compareWith === undefined || !ids.has(out.compareWith)) out.compareWith = model.columns[0]?.id;
  return out;
}

/** The host's part of a saved state, cleaned so that a stale or damaged one cannot get `ready` refused. */
export function savedWebviewState(saved: unknown): WebviewState | undefined {
  if (!isObj(saved) || saved.v !== 1) return undefined;
  const taskId = str(saved.taskId, 256);
  if (taskId === undefined) return undefined;
  const w: WebviewState = { taskId, regex: saved.regex === true, caseSensitive: saved.caseSensitive === true };
  const col = str(saved.activeColumn, 256);
  if (col !== undefined) w.activeColumn = col;
  const k = kinds(saved.stepKinds);
  if (k && k.length < STEP_KINDS.length) w.stepKinds = k;
  const search = str(saved.search, 1000);
  if (search) w.search = search;
  return w;
}

/** The part the host keeps for us. */
export function toWebviewState(s: UiState): WebviewState {
  const w: WebviewState = { taskId: s.taskId, regex: s.regex, caseSensitive: s.caseSensitive };
  if (s.activeColumn !== undefined) w.activeColumn = s.activeColumn;
  if (s.stepKinds.length < STEP_KINDS.length) w.stepKinds = [...s.stepKinds];
  if (s.search !== '') w.search = s.search.slice(0, 1000);
  return w;
}

export function toPersisted(s: UiState): Persisted {
  return { v: 1, ...s };
}

/** The kinds to send with a request: undefined means all (the host need not filter). */
export function kindsParam(s: UiState): StepKindView[] | undefined {
  return s.stepKinds.length < STEP_KINDS.length ? [...s.stepKinds] : undefined;
}
