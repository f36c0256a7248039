// The Candidates tree: dataset -> tasks -> attempts (and the gold patch) -> changed files. Task rows show their
// counts and review status; filters and sort live in the view title and survive a reload (workspaceState).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readDatasetText } from '../adapters/fs/datasetLoader';
import type { Attempt, CandidateTask, TaskStatus } from '../core/model';
import { TASK_STATUSES } from '../core/model';
import {
  ATTEMPT_OUTCOMES,
  CANDIDATE_SORTS,
  EMPTY_FILTER,
  OUTCOME_LABELS,
  SORT_LABELS,
  attemptOutcome,
  categoryCounts,
  filterAndSort,
  isFiltered,
  modelCounts,
  rateText,
  sanitizeFilter,
  solvedText,
  taskRow,
} from '../core/view/candidates';
import type { AttemptOutcome, CandidateFilter, CandidateSort, DifficultyLookup, TaskRow } from '../core/view/candidates';
import type { SolveBand, TaskDifficulty } from '../core/solver/difficulty';
import { MIXED_SUCCESS, bandText, inBand } from '../core/solver/difficulty';
import { fileChanges } from '../core/view/taskView';
import { GOLD_PROBE } from '../core/model';
import type { FileChangeView } from '../protocol/messages';
import { CMD, CTX, DOC_SCHEME } from './commandIds';
import type { DatasetService } from './datasetService';
import type { ReviewStatusSource } from './reviewStatus';
import { progressText } from './reviewStatus';
import { errorText } from '../core/errorText';

export type CandidateNode =
  | { kind: 'dataset' }
  | { kind: 'task'; taskId: string }
  | { kind: 'attempt'; taskId: string; column: string }
  | { kind: 'changedFile'; taskId: string; column: string; path: string; change: FileChangeView }
  | { kind: 'message'; taskId: string; column: string; text: string }
  /** The rows past the ones shown: a tree of 15,000 rows is slow to refresh, so rows come in pages. */
  | { kind: 'more'; remaining: number };

/** Task rows shown at first and added by each "show more". */
export const ROW_PAGE = 500;

const VIEW_STATE_KEY = 'specweave.candidates.view';

const STATUS_ICONS: Record<TaskStatus, string> = {
  candidate: 'circle-large-outline',
  in_review: 'eye',
  flagged: 'warning',
  needs_repair: 'tools',
  repaired: 'wrench',
  revalidated: 'verified',
  approved: 'pass',
  rejected: 'circle-slash',
};
const OUTCOME_ICONS: Record<AttemptOutcome, vscode.ThemeIcon> = {
  passed: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  notRun: new vscode.ThemeIcon('circle-large-outline'),
};

const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** The viewed marks the attempt and file rows show (vscode/viewedMarks.ts). */
export interface ViewedSource {
  isViewed(taskId: string, column: string, path?: string): boolean;
  set(taskId: string, column: string, path: string | undefined, viewed: boolean): Promise<{ ok: boolean; message?: string }>;
  onDidChange(fn: () => void): vscode.Disposable;
}

/** Where the band of the mixed-success filter comes from (`specweave.difficulty.band`, src/vscode/difficultyBand.ts). */
export interface BandSource {
  readonly band: SolveBand;
  readonly onDidChange: vscode.Event<void>;
}

export class CandidatesTree implements vscode.TreeDataProvider<CandidateNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<CandidateNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private viewed: ViewedSource | undefined;
  private readonly datasetNode: CandidateNode = { kind: 'dataset' };
  private readonly taskNodes = new Map<string, CandidateNode>();
  private rows = new Map<string, TaskRow>();
  /** Solve rates per task, looked up when shown, filtered or sorted on; forgotten with the row. */
  private readonly rates = new Map<string, TaskDifficulty | undefined>();
  private readonly lookup: DifficultyLookup;
  private visible: TaskRow[] | undefined;
  private visibleIndex: Map<string, number> | undefined;
  private filterValue: CandidateFilter;
  private shownLimit = ROW_PAGE;
  private sortValue: CandidateSort;
  private readonly changes = new Map<string, FileChangeView[] | { error: string }>();
  private view: vscode.TreeView<CandidateNode> | undefined;
  private readonly subs: vscode.Disposable[] = [];
  /** Milliseconds the last filter-and-sort took (for the benchmark). */
  lastFilterMs = 0;

  constructor(
    private readonly dataset: DatasetService,
    private readonly statuses: ReviewStatusSource,
    private readonly memento: vscode.Memento,
    private readonly persist: () => boolean,
    private readonly bands?: BandSource,
  ) {
    this.lookup = { band: MIXED_SUCCESS, of: (r) => this.difficultyOf(r.id) };
    const saved = persist() ? memento.get<{ filter?: unknown; sort?: unknown }>(VIEW_STATE_KEY) : undefined;
    this.filterValue = sanitizeFilter(saved?.filter);
    this.sortValue = (CANDIDATE_SORTS as readonly string[]).includes(String(saved?.sort)) ? (saved?.sort as CandidateSort) : 'id';
    this.subs.push(
      dataset.onDidChange((c) => {
        if (c.kind === 'tasks') {
          for (const id of c.taskIds) {
            this.rows.delete(id);
            this.rates.delete(id);
            for (const k of [...this.changes.keys()]) if (k.startsWith(`${id}\u0000`)) this.changes.delete(k);
          }
        } else if (c.kind === 'opened' || c.kind === 'closed') {
          this.rows.clear();
          this.rates.clear();
          this.changes.clear();
          this.taskNodes.clear();
        }
        // 'progress' and 'loaded' only add tasks: their rows are made when first shown.
        this.invalidate();
      }),
      statuses.onDidChange((ids) => {
        if (ids)
          for (const id of ids) {
            this.rows.delete(id);
            this.rates.delete(id);
          }
        else {
          this.rows.clear();
          this.rates.clear();
        }
        this.invalidate();
      }),
    );
    if (bands) this.subs.push(bands.onDidChange(() => this.invalidate()));
    void vscode.commands.executeCommand('setContext', CTX.filtered, isFiltered(this.filterValue));
  }

  attach(view: vscode.TreeView<CandidateNode>): void {
    this.view = view;
    this.updateViewText();
  }

  /**
   * Shows the viewed marks (vscode/viewedMarks.ts) as checkboxes on the attempt and file rows, like a pull request's
   * viewed files; ticking one marks it. Call after `attach`.
   */
  useViewedMarks(v: ViewedSource): void {
    this.viewed = v;
    this.subs.push(v.onDidChange(() => this.invalidate()));
    if (this.view) {
      this.subs.push(
        this.view.onDidChangeCheckboxState((e) => {
          for (const [node, state] of e.items) {
            const viewed = state === vscode.TreeItemCheckboxState.Checked;
            if (node.kind === 'attempt') void v.set(node.taskId, node.column, undefined, viewed);
            else if (node.kind === 'changedFile') void v.set(node.taskId, node.column, node.path, viewed);
          }
        }),
      );
    }
  }

  private viewedBox(taskId: string, column: string, path?: string): vscode.TreeItem['checkboxState'] {
    if (!this.viewed) return undefined;
    const on = this.viewed.isViewed(taskId, column, path);
    return { state: on ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked, tooltip: on ? 'Viewed (untick to mark it not viewed)' : 'Mark as viewed' };
  }

  get filter(): CandidateFilter {
    return this.filterValue;
  }
  get sort(): CandidateSort {
    return this.sortValue;
  }

  async setFilter(f: CandidateFilter): Promise<void> {
    this.filterValue = sanitizeFilter(f);
    this.shownLimit = ROW_PAGE;
    // The tree first; storing the filter and the context key can follow.
    this.invalidate();
    await Promise.all([this.saveViewState(), vscode.commands.executeCommand('setContext', CTX.filtered, isFiltered(this.filterValue))]);
  }

  async setSort(s: CandidateSort): Promise<void> {
    this.sortValue = s;
    this.shownLimit = ROW_PAGE;
    this.invalidate();
    await this.saveViewState();
  }

  /** Shows another page of rows (or, with `all`, every row). */
  showMore(all = false): number {
    this.shownLimit = all ? Number.MAX_SAFE_INTEGER : this.shownLimit + ROW_PAGE;
    this.emitter.fire(this.datasetNode);
    return Math.min(this.shownLimit, this.visibleRows().length);
  }

  /** Ids of the tasks the tree shows, in order (after filter and sort). */
  visibleTaskIds(): string[] {
    return this.visibleRows().map((r) => r.id);
  }

  /** The task `delta` places after `taskId` in the visible list (wrapping), or the first/last when it is not shown. */
  neighbor(taskId: string | undefined, delta: number): string | undefined {
    const rows = this.visibleRows();
    if (rows.length === 0) return undefined;
    const at = taskId === undefined ? undefined : this.visibleIndex?.get(taskId);
    if (at === undefined) return (delta > 0 ? rows[0] : rows[rows.length - 1])?.id;
    return rows[(((at + delta) % rows.length) + rows.length) % rows.length]?.id;
  }

  /** Position of a task in the visible list, for the panel's "3 of 120". */
  position(taskId: string): { index: number; total: number } | undefined {
    const rows = this.visibleRows();
    const at = this.visibleIndex?.get(taskId);
    return at === undefined ? undefined : { index: at, total: rows.length };
  }

  /** The band of the mixed-success filter. */
  get band(): SolveBand {
    return this.bands?.band ?? MIXED_SUCCESS;
  }

  /** A task's solve rates (from the curation store; undefined before it has loaded). */
  difficultyOf(taskId: string): TaskDifficulty | undefined {
    if (this.rates.has(taskId)) return this.rates.get(taskId);
    const d = this.statuses.difficultyOf?.(taskId);
    // Nothing is kept before the store has loaded: the rates appear once it has.
    if (d) this.rates.set(taskId, d);
    return d;
  }

  /** Categories in the loaded tasks, for the filter picker. */
  categories(): Array<{ category: string; tasks: number }> {
    return categoryCounts(this.allRows());
  }

  /** The solver models of the dataset's attempts, most tasks first. */
  models(): Array<{ model: string; tasks: number }> {
    return modelCounts(this.allRows());
  }

  async reveal(taskId: string): Promise<void> {
    const at = this.visibleIndex?.get(taskId);
    if (at !== undefined && at >= this.shownLimit) {
      this.shownLimit = Math.ceil((at + 1) / ROW_PAGE) * ROW_PAGE;
      this.emitter.fire(this.datasetNode);
    }
    const node = this.taskNodes.get(taskId);
    if (!node || !this.view?.visible) return;
    try {
      await this.view.reveal(node, { select: true, focus: false });
    } catch {
      // a filtered-out task cannot be revealed; nothing to do
    }
  }

  getParent(node: CandidateNode): CandidateNode | undefined {
    switch (node.kind) {
      case 'dataset':
        return undefined;
      case 'task':
      case 'more':
        return this.datasetNode;
      case 'attempt':
        return this.taskNode(node.taskId);
      default:
        return { kind: 'attempt', taskId: node.taskId, column: node.column };
    }
  }

  getChildren(node?: CandidateNode): CandidateNode[] {
    if (!node) {
      this.rootShown = this.dataset.root !== undefined;
      return this.dataset.root ? [this.datasetNode] : [];
    }
    switch (node.kind) {
      case 'dataset': {
        const rows = this.visibleRows();
        const shown: CandidateNode[] = rows.slice(0, this.shownLimit).map((r) => this.taskNode(r.id));
        if (rows.length > this.shownLimit) shown.push({ kind: 'more', remaining: rows.length - this.shownLimit });
        return shown;
      }
      case 'task': {
        const task = this.dataset.task(node.taskId);
        if (!task) return [];
        const cols = task.files.goldPatch ? [GOLD_PROBE] : [];
        return [...cols, ...task.attempts.map((a) => a.id)].map((column) => ({ kind: 'attempt', taskId: task.id, column }));
      }
      case 'attempt': {
        const changes = this.fileChangesOf(node.taskId, node.column);
        if ('error' in changes) return [{ kind: 'message', taskId: node.taskId, column: node.column, text: changes.error }];
        return changes.map((change) => ({ kind: 'changedFile', taskId: node.taskId, column: node.column, path: change.path, change }));
      }
      default:
        return [];
    }
  }

  /** Task tooltips are made when hovered: building 15,000 of them on every refresh would slow the tree down. */
  resolveTreeItem(item: vscode.TreeItem, node: CandidateNode): vscode.TreeItem {
    if (node.kind !== 'task') return item;
    const row = this.row(node.taskId);
    if (!row) return item;
    const tip = new vscode.MarkdownString(undefined, false);
    tip.isTrusted = false;
    tip.supportHtml = false;
    tip.appendMarkdown('**').appendText(row.title).appendMarkdown('**\n\n');
    tip.appendText(`${row.status.replace(/_/g, ' ')} · ${plural(row.specs, 'spec')} · ${plural(row.tests, 'test')} · ${plural(row.attempts, 'attempt')}\n\n`);
    if (row.categories.length) tip.appendText(`Categories: ${row.categories.join(', ')}\n\n`);
    if (row.outcomes.length) tip.appendText(`Attempts: ${row.outcomes.map((o) => OUTCOME_LABELS[o]).join(', ')}\n\n`);
    const d = this.difficultyOf(node.taskId);
    if (d) tip.appendText(difficultyTooltip(d, this.band));
    item.tooltip = tip;
    return item;
  }

  getTreeItem(node: CandidateNode): vscode.TreeItem {
    switch (node.kind) {
      case 'dataset': {
        const name = this.dataset.manifest?.name ?? path.basename(this.dataset.root ?? '');
        const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.Expanded);
        item.id = 'dataset';
        const errors = this.dataset.problems.filter((p) => p.severity === 'error').length;
        const n = this.dataset.taskCount;
        item.description = this.dataset.loading
          ? `loading ${n.toLocaleString('en-US')} of ${this.dataset.expectedTasks.toLocaleString('en-US')} tasks…`
          : `${plural(n, 'task')}${errors ? ` · ${plural(errors, 'problem')}` : ''}`;
        item.tooltip = this.dataset.root;
        item.iconPath = new vscode.ThemeIcon(errors ? 'warning' : 'database');
        item.contextValue = 'dataset';
        return item;
      }
      case 'task': {
        const row = this.row(node.taskId);
        const item = new vscode.TreeItem(node.taskId, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `task:${node.taskId}`;
        if (!row) return item;
        const solved = solvedText(this.difficultyOf(node.taskId));
        const progress = this.statuses.progressOf?.(node.taskId);
        item.description = `${row.status.replace(/_/g, ' ')}${progress ? ` · ${progressText(progress)}` : ''}${row.unconfirmedFindings > 0 ? ` · ${plural(row.unconfirmedFindings, 'unconfirmed finding')}` : ''} · ${plural(row.specs, 'spec')} · ${plural(row.tests, 'test')} · ${plural(row.attempts, 'attempt')}${solved ? ` · ${solved}` : ''} · ${row.title}`;
        item.iconPath = new vscode.ThemeIcon(STATUS_ICONS[row.status] ?? 'circle-large-outline');
        item.contextValue = 'task';
        item.command = { command: CMD.openTask, title: 'Open Task', arguments: [node] };
        return item;
      }
      case 'attempt': {
        const task = this.dataset.task(node.taskId);
        const attempt = task?.attempts.find((a) => a.id === node.column);
        const item = new vscode.TreeItem(node.column === GOLD_PROBE ? 'gold patch' : node.column, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `attempt:${node.taskId}:${node.column}`;
        const box = this.viewedBox(node.taskId, node.column);
        if (box) item.checkboxState = box;
        if (node.column === GOLD_PROBE) {
          item.iconPath = new vscode.ThemeIcon('star-full');
          item.contextValue = 'gold';
          item.tooltip = 'The reference solution of the task';
          return item;
        }
        if (attempt && task) {
          const outcome = attemptOutcome(attempt, this.statuses.outcomeOf?.(task.id, attempt.id));
          const judged = this.statuses.progressOf?.(task.id)?.attempts[attempt.id];
          item.description = [attempt.model, attempt.agent, OUTCOME_LABELS[outcome], judged ? `${judged.mine}/${judged.cells} judged` : '', attempt.costUsd !== undefined ? `$${attempt.costUsd.toFixed(2)}` : '']
            .filter(Boolean)
            .join(' · ');
          item.iconPath = OUTCOME_ICONS[outcome];
          item.contextValue = attempt.trajectoryFile ? 'attempt.trajectory' : 'attempt';
          item.tooltip = attemptTooltip(attempt);
        }
        return item;
      }
      case 'changedFile': {
        const c = node.change;
        const item = new vscode.TreeItem(path.posix.basename(c.path), vscode.TreeItemCollapsibleState.None);
        item.id = `file:${node.taskId}:${node.column}:${c.path}`;
        const dir = path.posix.dirname(c.path);
        item.description = `${dir === '.' ? '' : `${dir} · `}+${c.additions} −${c.deletions}${c.status !== 'modified' ? ` · ${c.status}` : ''}`;
        item.resourceUri = vscode.Uri.from({ scheme: DOC_SCHEME, path: `/${c.path}` });
        item.iconPath = vscode.ThemeIcon.File;
        item.tooltip = `${c.path} (${c.status}, +${c.additions} −${c.deletions})`;
        item.contextValue = 'changedFile';
        const box = this.viewedBox(node.taskId, node.column, c.path);
        if (box) item.checkboxState = box;
        item.command = { command: CMD.openDiff, title: 'Open Diff', arguments: [node] };
        return item;
      }
      case 'more': {
        const next = Math.min(ROW_PAGE, node.remaining);
        const item = new vscode.TreeItem(`Show ${next.toLocaleString('en-US')} more…`, vscode.TreeItemCollapsibleState.None);
        item.id = 'more';
        item.description = `${node.remaining.toLocaleString('en-US')} not shown; filter to narrow the list`;
        item.iconPath = new vscode.ThemeIcon('ellipsis');
        item.contextValue = 'more';
        item.command = { command: CMD.showMore, title: 'Show More Candidates' };
        return item;
      }
      case 'message': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon('warning');
        return item;
      }
    }
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.emitter.dispose();
  }

  /** Rows changed (dataset, status, filter or sort): recompute the visible list and refresh the tree. */
  private invalidate(): void {
    this.visible = undefined;
    this.visibleIndex = undefined;
    this.updateViewText();
    // Only the task list changed: refreshing the dataset node keeps VS Code from refetching the root.
    this.emitter.fire(this.dataset.root && this.rootShown ? this.datasetNode : undefined);
  }

  /** Whether the tree has shown the dataset node (before that, only a root refresh makes it appear). */
  private rootShown = false;

  private taskNode(taskId: string): CandidateNode {
    let n = this.taskNodes.get(taskId);
    if (!n) {
      n = { kind: 'task', taskId };
      this.taskNodes.set(taskId, n);
    }
    return n;
  }

  private row(taskId: string): TaskRow | undefined {
    let r = this.rows.get(taskId);
    if (!r) {
      const task = this.dataset.task(taskId);
      if (!task) return undefined;
      r = this.makeRow(task);
      this.rows.set(taskId, r);
    }
    return r;
  }

  private makeRow(task: CandidateTask): TaskRow {
    return taskRow(task, this.statuses.statusOf(task.id), this.statuses.outcomeOf ? (t, a) => this.statuses.outcomeOf?.(t, a) : undefined, this.statuses.unconfirmedFindingsOf?.(task.id) ?? 0);
  }

  private allRows(): TaskRow[] {
    return this.dataset.tasks.map((t) => this.row(t.id) as TaskRow);
  }

  private visibleRows(): TaskRow[] {
    if (!this.visible) {
      const all = this.allRows();
      const t0 = performance.now();
      this.lookup.band = this.band;
      this.visible = filterAndSort(all, this.filterValue, this.sortValue, this.lookup);
      this.lastFilterMs = performance.now() - t0;
      this.visibleIndex = new Map(this.visible.map((r, i) => [r.id, i]));
      for (const id of [...this.taskNodes.keys()]) if (!this.dataset.task(id)) this.taskNodes.delete(id);
    }
    return this.visible;
  }

  private fileChangesOf(taskId: string, column: string): FileChangeView[] | { error: string } {
    const key = `${taskId}\u0000${column}`;
    const known = this.changes.get(key);
    if (known) return known;
    const task = this.dataset.task(taskId);
    const root = this.dataset.root;
    const rel = column === GOLD_PROBE ? task?.files.goldPatch : task?.attempts.find((a) => a.id === column)?.patchFile;
    let out: FileChangeView[] | { error: string };
    if (!task || !root || !rel) out = { error: 'no patch' };
    else {
      try {
        const c = fileChanges(readDatasetText(root, rel), rel);
        out = 'error' in c ? c : c.files.length > 0 ? c.files : { error: 'the patch changes no file' };
      } catch (e) {
        out = { error: errorText(e) };
      }
    }
    this.changes.set(key, out);
    return out;
  }

  private updateViewText(): void {
    if (!this.view) return;
    const total = this.dataset.taskCount;
    if (!this.dataset.root) {
      this.view.description = undefined;
      this.view.message = undefined;
      return;
    }
    const shown = this.visibleRows().length;
    this.view.description = isFiltered(this.filterValue) ? `${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}` : undefined;
    this.view.message =
      total > 0 && shown === 0 ? 'No task matches the filter. Clear it from the view title.' : total === 0 && !this.dataset.loading ? 'The dataset has no tasks yet.' : undefined;
  }

  private async saveViewState(): Promise<void> {
    if (this.persist()) await this.memento.update(VIEW_STATE_KEY, { filter: this.filterValue, sort: this.sortValue });
  }
}

/** The solve rates of a task for its tooltip: overall, whether in the band, and per model, each with its counts. */
function difficultyTooltip(d: TaskDifficulty, band: SolveBand): string {
  const lines: string[] = [];
  if (d.overall.attempts === 0) lines.push('Solve rate: no attempt has a verdict yet');
  else lines.push(`Solve rate: ${rateText(d.overall)} of the attempts with a verdict · ${inBand(d, band) ? 'in' : 'outside'} the band ${bandText(band)}`);
  const extra = [d.unverified > 0 ? `${d.unverified} without a verdict` : '', d.stale > 0 ? `${d.stale} from a run of an older patch or revision` : ''].filter(Boolean);
  if (extra.length) lines.push(`(${extra.join('; ')})`);
  for (const [model, r] of Object.entries(d.byModel).slice(0, 20)) lines.push(`${model || '(no model named)'}: ${rateText(r)}`);
  return lines.join('\n\n');
}

function attemptTooltip(a: Attempt): string {
  const lines = [`${a.id}: ${a.model}${a.agent ? ` (${a.agent})` : ''}`];
  if (a.claimed?.status) lines.push(`claimed: ${a.claimed.status}`);
  for (const r of a.recordedResults) lines.push(`recorded by ${r.source}: ${r.status ?? (r.resolved ? 'resolved' : r.resolved === false ? 'unresolved' : 'unknown')}`);
  return lines.join('\n');
}

// ---- filter and sort pickers ------------------------------------------------------------------------------------

type FilterPick = vscode.QuickPickItem & { facet?: 'status' | 'outcome' | 'category' | 'findings' | 'mixed' | 'model'; value?: string };
/** Solver models offered in the filter pick (the most used first). */
const MAX_MODEL_CHOICES = 100;

/** The multi-select filter picker: statuses, attempt outcomes and spec categories in one list. */
export async function pickFilter(tree: CandidatesTree): Promise<CandidateFilter | undefined> {
  const f = tree.filter;
  const items: FilterPick[] = [
    { label: 'Review status', kind: vscode.QuickPickItemKind.Separator },
    ...TASK_STATUSES.map((s) => ({ label: s.replace(/_/g, ' '), facet: 'status' as const, value: s, picked: f.statuses.includes(s) })),
    { label: 'Attempt outcome', kind: vscode.QuickPickItemKind.Separator },
    ...ATTEMPT_OUTCOMES.map((o) => ({ label: OUTCOME_LABELS[o], description: 'any attempt', facet: 'outcome' as const, value: o, picked: f.outcomes.includes(o) })),
    { label: 'Review agent', kind: vscode.QuickPickItemKind.Separator },
    { label: 'unconfirmed findings', description: 'false-positive or false-negative candidates nobody accepted or dismissed', facet: 'findings' as const, value: 'unconfirmed', picked: f.unconfirmedFindings === true },
    { label: 'Solve rate', kind: vscode.QuickPickItemKind.Separator },
    {
      label: 'mixed success',
      description: `solve rate in the band ${bandText(tree.band)} (setting specweave.difficulty.band)`,
      facet: 'mixed' as const,
      value: 'mixed',
      picked: f.mixedSuccess === true,
    },
    { label: 'Solver model', kind: vscode.QuickPickItemKind.Separator },
    ...tree
      .models()
      .slice(0, MAX_MODEL_CHOICES)
      .map((m) => ({ label: m.model.replace(/\$\(/g, '$\u200b('), description: plural(m.tasks, 'task'), facet: 'model' as const, value: m.model, picked: f.models?.includes(m.model) ?? false })),
    { label: 'Spec category', kind: vscode.QuickPickItemKind.Separator },
    ...tree.categories().map((c) => ({ label: c.category, description: plural(c.tasks, 'task'), facet: 'category' as const, value: c.category, picked: f.categories.includes(c.category) })),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title: 'Filter candidates',
    placeHolder: 'Tasks matching any checked choice of each group are shown',
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  const of = (facet: FilterPick['facet']): string[] => picked.filter((p) => p.facet === facet && p.value).map((p) => p.value as string);
  const { unconfirmedFindings: _was, mixedSuccess: _wasMixed, models: _wasModels, ...rest } = f;
  return {
    ...rest,
    ...(of('model').length > 0 ? { models: of('model') } : {}),
    statuses: of('status') as TaskStatus[],
    outcomes: of('outcome') as AttemptOutcome[],
    categories: of('category'),
    ...(of('findings').length > 0 ? { unconfirmedFindings: true } : {}),
    ...(of('mixed').length > 0 ? { mixedSuccess: true } : {}),
  };
}

/** Live text filter: the tree follows as the user types; Escape restores the previous text. */
export async function pickFilterText(tree: CandidatesTree): Promise<void> {
  const before = tree.filter;
  const box = vscode.window.createInputBox();
  box.title = 'Filter candidates by text';
  box.ignoreFocusOut = true;
  box.prompt = 'Words to find in task id, title, repository, attempt models and agents';
  box.value = before.text;
  let timer: NodeJS.Timeout | undefined;
  let accepted = false;
  await new Promise<void>((resolve) => {
    box.onDidChangeValue((v) => {
      clearTimeout(timer);
      timer = setTimeout(() => void tree.setFilter({ ...tree.filter, text: v }), 80);
    });
    box.onDidAccept(() => {
      accepted = true;
      clearTimeout(timer);
      void tree.setFilter({ ...tree.filter, text: box.value });
      box.hide();
    });
    box.onDidHide(() => {
      clearTimeout(timer);
      if (!accepted) void tree.setFilter({ ...tree.filter, text: before.text });
      box.dispose();
      resolve();
    });
    box.show();
  });
}

export async function pickSort(tree: CandidatesTree): Promise<CandidateSort | undefined> {
  const picked = await vscode.window.showQuickPick(
    CANDIDATE_SORTS.map((s) => ({ label: SORT_LABELS[s], value: s, description: s === tree.sort ? 'current' : undefined })),
    { title: 'Sort candidates by', ignoreFocusOut: true },
  );
  return picked?.value;
}

export { EMPTY_FILTER };
