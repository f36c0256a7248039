// The command handlers: each takes what the tree passes (a node), what a test or another command passes (plain ids),
// or nothing (then it asks, or acts on the active task panel).
import { commandRegistrar } from './reportingCommand';
import * as vscode from 'vscode';
import { notify } from './notify';
import { resolveDatasetPath } from '../adapters/fs/datasetLoader';
import { CANDIDATE_SORTS, EMPTY_FILTER } from '../core/view/candidates';
import type { CandidateFilter, CandidateSort } from '../core/view/candidates';
import { GOLD_PROBE } from '../core/model';
import type { ViewCommand } from '../protocol/messages';
import type { CandidateNode, CandidatesTree } from './candidatesTree';
import { pickFilter, pickFilterText, pickSort } from './candidatesTree';
import { CANDIDATES_VIEW, CMD, VIEW_CONTAINER } from './commandIds';
import type { DatasetService } from './datasetService';
import type { DiffDocuments } from './diffDocuments';
import { patchFileOf } from './diffDocuments';
import type { DisposableStore } from './disposables';
import type { TaskPanels } from './taskPanels';

export interface CommandDeps {
  dataset: DatasetService;
  tree: CandidatesTree;
  treeView: vscode.TreeView<CandidateNode>;
  panels: TaskPanels;
  diffs: DiffDocuments;
  log: vscode.LogOutputChannel;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** A task id from a tree node, a `{ taskId }` object or a plain string. */
function taskIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  return isObj(arg) ? str(arg.taskId) : undefined;
}

export function registerCommands(d: CommandDeps, store: DisposableStore): void {
  const reg = commandRegistrar(store, d.log);
  const forward = (command: ViewCommand) => (): boolean => {
    if (d.panels.forward(command)) return true;
    void notify.info('Open a task first: this command acts on the task view.');
    return false;
  };
  const currentTaskId = (): string | undefined => d.panels.active?.taskId ?? taskIdOf(d.treeView.selection[0]);

  reg(CMD.openDataset, async (arg) => {
    let root: string | undefined = arg instanceof vscode.Uri ? arg.fsPath : str(arg);
    if (!root) {
      const picked = await vscode.window.showOpenDialog({
        canSelectFolders: true,
        canSelectFiles: false,
        canSelectMany: false,
        openLabel: 'Open Dataset',
        title: 'Open a SpecWeave dataset (the folder holding specweave.json)',
        ...(vscode.workspace.workspaceFolders?.[0] ? { defaultUri: vscode.workspace.workspaceFolders[0].uri } : {}),
      });
      root = picked?.[0]?.fsPath;
    }
    if (!root) return false;
    const r = await d.dataset.open(root);
    if (!r.ok) {
      void notify.error(r.message);
      return false;
    }
    void vscode.commands.executeCommand(`workbench.view.extension.${VIEW_CONTAINER}`);
    return true;
  });
  reg(CMD.reloadDataset, () => d.dataset.reload());
  reg(CMD.closeDataset, () => d.dataset.close());
  reg(CMD.showProblems, () => {
    const problems = d.dataset.problems;
    d.log.info(`${problems.length} problem(s) in ${d.dataset.root ?? '(no dataset)'}:`);
    for (const p of problems) {
      const where = `${p.file}${p.line ? `:${p.line}` : ''}${p.field ? ` (${p.field})` : ''}`;
      (p.severity === 'error' ? d.log.error : d.log.warn).call(d.log, `${where}: ${p.message}`);
    }
    d.log.show(true);
    return problems.length;
  });

  reg(CMD.openTask, async (arg) => {
    let taskId = taskIdOf(arg);
    if (!taskId) {
      const ids = d.tree.visibleTaskIds();
      const picked = await vscode.window.showQuickPick(
        ids.slice(0, 20_000).map((id) => ({ label: id, description: d.dataset.task(id)?.title })),
        { title: 'Open task', matchOnDescription: true, ignoreFocusOut: true },
      );
      taskId = picked?.label;
    }
    if (!taskId) return false;
    if (!d.dataset.task(taskId)) throw new Error(`Task ${taskId} is not in the open dataset.`);
    d.panels.open(taskId);
    return true;
  });
  const step = (delta: number) => async (): Promise<string | undefined> => {
    const next = d.tree.neighbor(currentTaskId(), delta);
    if (!next) {
      void notify.info('No task to move to: the Candidates list is empty.');
      return undefined;
    }
    if (d.panels.active) d.panels.retarget(next);
    else d.panels.open(next);
    void d.tree.reveal(next);
    return next;
  };
  reg(CMD.nextTask, step(1));
  reg(CMD.previousTask, step(-1));
  reg(CMD.openTaskFile, async (arg) => {
    const task = d.dataset.task(taskIdOf(arg) ?? currentTaskId() ?? '');
    if (!task || !d.dataset.root) throw new Error('No task selected.');
    await vscode.window.showTextDocument(vscode.Uri.file(resolveDatasetPath(d.dataset.root, task.files.task)), { preview: true });
  });
  reg(CMD.openTestPatch, async (arg) => {
    const taskId = taskIdOf(arg) ?? currentTaskId();
    const task = taskId ? d.dataset.task(taskId) : undefined;
    if (!task || !d.dataset.root) throw new Error('No task selected.');
    const testId = isObj(arg) ? str(arg.testId) : undefined;
    if (testId) return d.diffs.openTest(task.id, testId);
    await vscode.window.showTextDocument(vscode.Uri.file(resolveDatasetPath(d.dataset.root, task.files.testPatch)), { preview: true });
    return { opened: true };
  });

  reg(CMD.nextAttempt, forward('nextAttempt'));
  reg(CMD.previousAttempt, forward('previousAttempt'));
  reg(CMD.nextHit, forward('nextHit'));
  reg(CMD.previousHit, forward('previousHit'));
  reg(CMD.focusSearch, forward('focusSearch'));
  reg(CMD.openPatch, async (arg) => {
    const taskId = taskIdOf(arg);
    const column = isObj(arg) ? str(arg.column) : undefined;
    if (!taskId || !column) throw new Error('Pick an attempt (or the gold patch) in the Candidates tree.');
    return d.diffs.openPatchFile(taskId, column);
  });
  reg(CMD.openTrajectory, async (arg) => {
    const task = d.dataset.task(taskIdOf(arg) ?? '');
    const column = isObj(arg) ? str(arg.column) : undefined;
    const rel = task?.attempts.find((a) => a.id === column)?.trajectoryFile;
    if (!task || !rel || !d.dataset.root) throw new Error('This attempt has no trajectory file.');
    await vscode.window.showTextDocument(vscode.Uri.file(resolveDatasetPath(d.dataset.root, rel)), { preview: true });
  });
  reg(CMD.openDiff, async (arg) => {
    if (isObj(arg) && str(arg.taskId) && str(arg.column) && str(arg.path)) {
      return d.diffs.openDiff(arg.taskId as string, arg.column as string, arg.path as string);
    }
    return forward('openDiff')();
  });
  reg(CMD.compareAttempts, async (arg, otherArg) => {
    if (!isObj(arg) || !str(arg.taskId) || !str(arg.column) || !str(arg.path)) throw new Error('Pick a changed file in the Candidates tree.');
    const taskId = arg.taskId as string;
    const column = arg.column as string;
    const file = arg.path as string;
    const task = d.dataset.task(taskId);
    if (!task) throw new Error(`Task ${taskId} is not in the open dataset.`);
    let other = str(otherArg);
    if (!other) {
      const choices = [...(task.files.goldPatch ? [GOLD_PROBE] : []), ...task.attempts.map((a) => a.id)].filter((c) => c !== column && patchFileOf(task, c));
      if (choices.length === 0) throw new Error(`${taskId} has no other attempt to compare with.`);
      const picked = await vscode.window.showQuickPick(
        choices.map((c) => ({ label: c === GOLD_PROBE ? 'gold patch' : c, value: c, description: task.attempts.find((a) => a.id === c)?.model })),
        { title: `Compare ${file} of ${column === GOLD_PROBE ? 'the gold patch' : column} with…`, ignoreFocusOut: true },
      );
      other = picked?.value;
    }
    if (!other) return undefined;
    return d.diffs.compare(taskId, column, other, file);
  });

  reg(CMD.filter, async (arg) => {
    let f: CandidateFilter | undefined;
    if (isObj(arg)) f = { ...EMPTY_FILTER, ...d.tree.filter, ...(arg as Partial<CandidateFilter>) };
    else f = await pickFilter(d.tree);
    if (f) await d.tree.setFilter(f);
    return d.tree.visibleTaskIds().length;
  });
  reg(CMD.filterText, async (arg) => {
    if (typeof arg === 'string') await d.tree.setFilter({ ...d.tree.filter, text: arg });
    else await pickFilterText(d.tree);
    return d.tree.visibleTaskIds().length;
  });
  // From the statistics: a row or bar names the tasks it counts (by status or spec category); the list shows them.
  reg(CMD.filterBy, async (arg) => {
    const o = isObj(arg) ? arg : {};
    const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    const statuses = strings(o.statuses) as CandidateFilter['statuses'][number][];
    const categories = strings(o.categories);
    const models = strings(o.models);
    const mixedSuccess = o.mixedSuccess === true;
    if (statuses.length === 0 && categories.length === 0 && models.length === 0 && !mixedSuccess) return false;
    await d.tree.setFilter({ ...EMPTY_FILTER, statuses, categories, ...(models.length > 0 ? { models } : {}), ...(mixedSuccess ? { mixedSuccess } : {}) });
    await vscode.commands.executeCommand(`${CANDIDATES_VIEW}.focus`);
    return true;
  });
  reg(CMD.clearFilter, async () => {
    await d.tree.setFilter(EMPTY_FILTER);
    return d.tree.visibleTaskIds().length;
  });
  reg(CMD.showMore, (arg) => d.tree.showMore(arg === 'all'));
  reg(CMD.sort, async (arg) => {
    const s = (CANDIDATE_SORTS as readonly string[]).includes(String(arg)) ? (arg as CandidateSort) : await pickSort(d.tree);
    if (s) await d.tree.setSort(s);
  });
}
