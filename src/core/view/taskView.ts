// The task view model: everything the task panel shows at first paint, built from a candidate task and the texts of
// its files. Trajectories are not read here: they are loaded on demand and summarised later.
import type { Attempt, CandidateTask, RecordedResult, SpecVerdict, TaskStatus } from '../model';
import { GOLD_PROBE } from '../model';
import { notAPatch, parsePatch } from '../patch';
import type { Hunk, ParsedPatch } from '../patch';
import { filePath } from '../patch';
import { COUPLING_VIEW_LIMITS, MAX_HUNK_HEADERS, PROTOCOL_VERSION } from '../../protocol/messages';
import type { ColumnView, CouplingEdgeView, CouplingView, FileChangeView, SpecView, TaskViewModel, TestView, TrajectoryInfoView } from '../../protocol/messages';
import type { ConsensusPolicy } from '../review/consensus';
import type { TaskReviewState } from '../review/reducer';
import type { TaskVerifierResults } from '../review/verdicts';
import { withRecordedFallback } from '../review/verdicts';
import { measuredVerdicts, taskCoupling } from '../specs/coupling';
import type { CouplingOptions } from '../specs/coupling';
import { renderRequest } from './markdown';
import { findTestSource, parseTestName } from '../testSource';
import { truncate } from './text';

/**
 * What an attempt claims of itself: its exit status and its summary, once when they say the same thing (mini-swe-agent
 * records "Submitted" as both, which read "Submitted: Submitted").
 */
export function claimText(c: { status?: string; summary?: string }): string {
  const status = c.status?.trim() ?? '';
  const summary = c.summary?.trim() ?? '';
  const same = (x: string, y: string) => x.toLowerCase().replace(/[\s.!:]+$/, '') === y.toLowerCase().replace(/[\s.!:]+$/, '');
  if (!status || !summary || same(status, summary)) return status || summary;
  return `${status}: ${summary}`;
}


/** Characters of test source kept for all tests together; beyond it tests show without source. */
export const MAX_TEST_SOURCE_TOTAL = 200_000;
const MAX_TEST_SOURCE = 20_000;

/** A file's text, or why it could not be read. */
export type TextOrError = { text: string } | { error: string };

export interface TaskViewInputs {
  task: CandidateTask;
  /** Review status (`candidate` until the task has review events). */
  status: TaskStatus;
  trusted: boolean;
  untrustedReason?: string;
  request: TextOrError;
  testPatch: TextOrError;
  gold?: TextOrError;
  /** Attempt id -> its patch text. */
  attemptPatches: ReadonlyMap<string, TextOrError>;
  /** Attempt id -> trajectory summary, once loaded. */
  trajectories?: ReadonlyMap<string, TrajectoryInfoView | { error: string }>;
  notices?: string[];
  position?: { index: number; total: number };
  /**
   * What the coupling's co-flip reads (the review state and the verifier's results); without it the base model's
   * coupling reads the imported results only. The curation section gives the full one (vscode/taskSections.ts).
   */
  coupling?: TaskCouplingInputs;
}

/** What the coupling of one task is measured from besides the task itself (docs/coupling.md). */
export interface TaskCouplingInputs {
  state?: TaskReviewState;
  verifier?: TaskVerifierResults;
  policy?: ConsensusPolicy;
  options?: Omit<CouplingOptions, 'graph'>;
}

/**
 * The coupling part of the task view: the figure and its evidence computed by `taskCoupling` from the specs, their
 * `dependsOn` links, the spec-test map and the per-attempt verdicts `measuredVerdicts` gives (the curators' settled
 * verdicts, else the verifier's, else the imported results); the graph bounded by `COUPLING_VIEW_LIMITS`, edges
 * heaviest first.
 */
export function buildCouplingView(task: CandidateTask, inp: TaskCouplingInputs = {}): CouplingView {
  const verdicts: Array<Record<string, SpecVerdict>> = measuredVerdicts(task, inp.state, withRecordedFallback(task, inp.verifier), inp.policy ?? 'adjudicate');
  const c = taskCoupling({ specs: task.specs, tests: task.tests, verdicts }, { ...inp.options, graph: true });
  const L = COUPLING_VIEW_LIMITS;
  const cut = (id: string): string => truncate(id, L.idChars);
  const order = new Map(c.nodes.map((n, i) => [n.id, i]));
  const edges = [...c.edges].sort((x, y) => y.weight - x.weight || (order.get(x.a) as number) - (order.get(y.a) as number) || (order.get(x.b) as number) - (order.get(y.b) as number));
  const shown: CouplingEdgeView[] = [];
  let edgeChars = 0;
  for (const e of edges) {
    if (shown.length >= L.edges) break;
    const v: CouplingEdgeView = { a: cut(e.a), b: cut(e.b), weight: e.weight };
    let chars = v.a.length + v.b.length;
    const st = e.evidence.sharedTests;
    if (st) {
      const tests = st.tests.slice(0, L.tests).map(cut);
      for (const t of tests) chars += t.length;
      v.sharedTests = { tests, more: st.tests.length - tests.length, jaccard: st.jaccard };
    }
    if (edgeChars + chars > L.edgeChars) break;
    edgeChars += chars;
    if (e.evidence.declared) v.declared = e.evidence.declared;
    if (e.evidence.coFlip) v.coFlip = { ...e.evidence.coFlip };
    shown.push(v);
  }
  let groupChars = 0;
  const groups: CouplingView['groups'] = [];
  for (const g of c.groups) {
    if (groups.length >= L.groups || groupChars >= L.groupChars) break;
    const specs: string[] = [];
    for (const sid of g) {
      if (specs.length >= L.groupSpecs || groupChars >= L.groupChars) break;
      const id = cut(sid);
      groupChars += id.length;
      specs.push(id);
    }
    groups.push({ specs, more: g.length - specs.length });
  }
  return {
    figure: c.coupling,
    specs: c.specs,
    pairs: c.pairs,
    coupledPairs: c.coupledPairs,
    byEvidence: { ...c.byEvidence },
    measuredPairs: c.measuredPairs,
    attempts: verdicts.length,
    groupCount: c.groupCount,
    groups,
    nodes: c.nodes.slice(0, L.nodes).map((n) => ({ id: cut(n.id), group: n.group, degree: n.degree, tests: n.tests })),
    nodesOmitted: Math.max(0, c.nodes.length - L.nodes),
    edges: shown,
    edgesOmitted: edges.length - shown.length,
  };
}

/** A hunk's header as the patch has it, its section cut short: what a curator recognises a hunk by. */
export function hunkHeader(h: Hunk): string {
  const section = h.section.trim();
  return `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@${section ? ` ${truncate(section, 80)}` : ''}`;
}

/** Per-file change counts of a patch text, or the reason it is not a patch. */
export function fileChanges(text: string, file: string): { files: FileChangeView[]; parsed: ParsedPatch } | { error: string } {
  const bad = notAPatch(text, file);
  if (bad) return { error: bad.message };
  const parsed = parsePatch(text, file);
  return {
    parsed,
    files: parsed.files.map((f) => ({ path: filePath(f), status: f.status, additions: f.additions, deletions: f.deletions, hunks: f.hunks.slice(0, MAX_HUNK_HEADERS).map(hunkHeader) })),
  };
}

/** Short verdict text from recorded (imported) results: the last one wins. */
export function recordedVerdict(results: readonly RecordedResult[]): string | undefined {
  const r = results[results.length - 1];
  if (!r) return undefined;
  const what = r.status ?? (r.resolved === true ? 'resolved' : r.resolved === false ? 'unresolved' : r.patchApplied === false ? 'patch did not apply' : undefined);
  return what ? `${what.replace(/_/g, ' ')} (imported)` : undefined;
}

function columnOf(a: Attempt, patch: TextOrError | undefined, traj: TrajectoryInfoView | { error: string } | undefined): ColumnView {
  const col: ColumnView = {
    id: a.id,
    label: a.id,
    ...(a.model ? { model: a.model } : {}),
    ...(a.agent ? { agent: a.agent } : {}),
    ...(a.costUsd !== undefined ? { costUsd: a.costUsd } : {}),
    ...(a.claimed?.status || a.claimed?.summary ? { claimed: truncate(claimText(a.claimed), 500) } : {}),
    files: [],
    hasTrajectory: a.trajectoryFile !== undefined,
  };
  fillFiles(col, patch, a.patchFile ?? a.dir);
  if (traj && 'error' in traj) col.trajectoryError = traj.error;
  else if (traj) col.trajectory = traj;
  const verdict = recordedVerdict(a.recordedResults);
  if (verdict) col.verdict = verdict;
  return col;
}

function fillFiles(col: ColumnView, patch: TextOrError | undefined, file: string): void {
  if (!patch) {
    col.patchError = 'no patch';
    return;
  }
  if ('error' in patch) {
    col.patchError = patch.error;
    return;
  }
  const changes = fileChanges(patch.text, file);
  if ('error' in changes) col.patchError = changes.error;
  else col.files = changes.files;
}

export function buildTaskViewModel(inp: TaskViewInputs): TaskViewModel {
  const { task } = inp;
  const notices = [...(inp.notices ?? [])];
  const rendered =
    'text' in inp.request ? renderRequest(inp.request.text, task.specs) : (notices.push(`Request: ${inp.request.error}`), undefined);

  const coveredBy = new Map<string, string[]>();
  for (const t of task.tests) for (const s of t.specs) coveredBy.set(s, [...(coveredBy.get(s) ?? []), t.id]);
  const specs: SpecView[] = task.specs.map((s) => ({
    id: s.id,
    text: s.text,
    category: s.category,
    dependsOn: s.dependsOn,
    tests: coveredBy.get(s.id) ?? [],
    uncovered: !coveredBy.has(s.id),
    stated: rendered?.stated.has(s.id) ?? false,
  }));

  let testPatch: ParsedPatch | undefined;
  if ('text' in inp.testPatch) {
    const changes = fileChanges(inp.testPatch.text, task.files.testPatch);
    if ('error' in changes) notices.push(`Test patch: ${changes.error}`);
    else testPatch = changes.parsed;
  } else notices.push(`Test patch: ${inp.testPatch.error}`);
  let sourceBudget = MAX_TEST_SOURCE_TOTAL;
  const tests: TestView[] = task.tests.map((t) => {
    const view: TestView = { id: t.id, name: truncate(t.name, 1000), kind: t.kind, specs: t.specs, unmapped: t.specs.length === 0 };
    if (testPatch && sourceBudget > 0) {
      const src = findTestSource(testPatch, parseTestName(t.name));
      if (src) {
        const text = truncate(src.text, Math.min(MAX_TEST_SOURCE, sourceBudget));
        sourceBudget -= text.length;
        view.source = { file: src.file, patchLine: src.patchLine, text };
      }
    }
    return view;
  });

  const columns: ColumnView[] = [];
  if (inp.gold) {
    const gold: ColumnView = { id: GOLD_PROBE, label: 'Gold patch', files: [], hasTrajectory: false };
    fillFiles(gold, inp.gold, task.files.goldPatch ?? task.dir);
    columns.push(gold);
  }
  for (const a of task.attempts) columns.push(columnOf(a, inp.attemptPatches.get(a.id), inp.trajectories?.get(a.id)));

  const repo = task.repo;
  return {
    protocol: PROTOCOL_VERSION,
    taskId: task.id,
    title: task.title,
    revision: task.revision,
    status: inp.status,
    repo: repo.name,
    ...(repo.baseCommit ? { baseCommit: repo.baseCommit } : {}),
    image: task.environment.image,
    trusted: inp.trusted,
    ...(inp.untrustedReason ? { untrustedReason: inp.untrustedReason } : {}),
    request: rendered?.blocks ?? [],
    ...(rendered?.truncated ? { requestTruncated: true } : {}),
    specs,
    tests,
    columns,
    notices,
    ...(inp.position ? { position: inp.position } : {}),
    coupling: buildCouplingView(task, inp.coupling),
  };
}

/** The trajectory summary shown in a column header. */
export function trajectoryInfo(summary: { format: string; steps: number; byKind: Partial<Record<string, number>>; costUsd?: number; exitStatus?: string }): TrajectoryInfoView {
  const byKind: Record<string, number> = {};
  for (const [k, v] of Object.entries(summary.byKind)) if (v !== undefined) byKind[k] = v;
  return {
    format: summary.format,
    steps: summary.steps,
    byKind,
    ...(summary.costUsd !== undefined ? { costUsd: summary.costUsd } : {}),
    ...(summary.exitStatus !== undefined ? { exitStatus: truncate(summary.exitStatus, 200) } : {}),
  };
}
