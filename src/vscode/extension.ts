// Composition root of the extension: builds every service by hand, wires them together, and puts every disposable in
// one store that ends in context.subscriptions. No service locator, no globals.
import * as vscode from 'vscode';
import { notify } from './notify';
import { readTrajectory } from '../adapters/fs/trajectoryReader';
import { CandidatesTree } from './candidatesTree';
import type { CandidateNode } from './candidatesTree';
import { CANDIDATES_VIEW, COMMAND_TABLE, CTX, DOC_SCHEME, TASK_PANEL_TYPE, VIEW_CONTAINER, actionCommand } from './commandIds';
import { registerCommands } from './commands';
import { registerDatasetSearch } from './datasetSearchPick';
import { DatasetService } from './datasetService';
import { DiffDocuments } from './diffDocuments';
import { DisposableStore } from './disposables';
import { CurationStatus } from './reviewStatus';
import { DifficultyBand } from './difficultyBand';
import { readSettings } from './settings';
import { TaskPanels } from './taskPanels';
import { requireTrust } from './trust';
import { RepairController } from './repair/repairController';
import { VerifierController } from './verifier/verifierController';
import { PROBE_SCHEME, ProbesController } from './probes/probesController';
import { CurationController, readCurationSettings } from './curation/curationController';
import { ActiveTask } from './activeTask';
import { OpenDataset } from './openDataset';
import { registerDraftSpecs } from './specs/draftCommand';
import { SpecAuthoring } from './specs/authoring';
import { errorText } from '../core/errorText';
import { SolverController } from './solver/solverController';
import { Citations } from './curation/citations';
import { ViewedMarks } from './viewedMarks';
import { openEvidence } from './curation/evidence';

/** What activation returns: the services, for the in-host tests and for later features to build on. */
export interface SpecWeaveApi {
  dataset: DatasetService;
  /** The one owner of the open dataset's state: tasks, the curation store, runs, the curator, one change event. */
  owner: OpenDataset;
  /** The task the user is on. */
  activeTask: ActiveTask;
  tree: CandidatesTree;
  panels: TaskPanels;
  diffs: DiffDocuments;
  /** The trust check every feature that runs code calls first. */
  requireTrust: typeof requireTrust;
  repair: RepairController;
  /** The one verifier queue of the window, its commands, log, status bar item and the task view's results. */
  verifier: VerifierController;
  /** The curation store of the open dataset, review mode, the statistics and adjudication panels, export. */
  curation: CurationController;
  /** The Probes section of the task view and the probe diffs. */
  probes: ProbesController;
  /** Run Fresh Trials: solver trials on the repair endpoint, verified through the verifier's one queue. */
  solver: SolverController;
  /** Gutter comments that cite diff hunks and log lines, and show the recorded citations there. */
  citations: Citations;
  /** The curator's viewed marks on attempts and files. */
  viewed: ViewedMarks;
}

export function activate(context: vscode.ExtensionContext): SpecWeaveApi {
  const store = new DisposableStore();
  context.subscriptions.push(store);

  const log = store.add(vscode.window.createOutputChannel('SpecWeave', { log: true }));
  // The open dataset and its one owner come first; every feature below receives them.
  const dataset = store.add(new DatasetService(context.workspaceState, log));
  const owner = store.add(
    new OpenDataset({
      tasks: dataset,
      settings: () => {
        const c = readCurationSettings();
        return { curatorName: c.curatorName, policy: c.policy };
      },
      log,
      notify: (level, message) => void (level === 'error' ? notify.error(message) : notify.warn(message)),
    }),
  );
  const activeTask = store.add(new ActiveTask());
  // Statuses come from the owner's review log.
  const statuses = store.add(
    new CurationStatus(
      () => owner.store?.state,
      (taskId) => owner.store?.findings(taskId) ?? [],
      (taskId) => owner.store?.difficulty(taskId),
      (taskId) => owner.store?.verifier(taskId),
      (taskId) => (owner.curator.ok ? owner.store?.review(taskId, { viewer: owner.curator.name }) : undefined),
    ),
  );
  // The solve-rate band (specweave.difficulty.band) of the mixed-success filter and the statistics panel.
  const band = store.add(new DifficultyBand((m) => void notify.warn(m)));
  const tree = store.add(new CandidatesTree(dataset, statuses, context.workspaceState, () => readSettings().persistFilters, band));
  const treeView = store.add(vscode.window.createTreeView<CandidateNode>(CANDIDATES_VIEW, { treeDataProvider: tree, showCollapseAll: true, canSelectMany: true }));
  tree.attach(treeView);
  const diffs = store.add(new DiffDocuments(dataset, () => readSettings().gitPath, log));
  // The curator's viewed marks on attempts and files: checkboxes in the tree, ticks in the task view.
  const viewed = store.add(new ViewedMarks({ memento: context.workspaceState, dataset }));
  store.add(dataset.onDidChange((c) => (c.kind === 'tasks' ? viewed.forget(c.taskIds) : c.kind === 'opened' || c.kind === 'closed' ? viewed.forget() : undefined)));
  tree.useViewedMarks(viewed);
  store.add(vscode.workspace.registerTextDocumentContentProvider(DOC_SCHEME, diffs));
  const curation = store.add(new CurationController({ extensionUri: context.extensionUri, owner, activeTask, diffs, statuses, log, band }));

  const verifier = store.add(new VerifierController({ owner, treeView, activeTask, log }));
  // Revalidation runs go through the verifier's one queue (its concurrency limit, status bar item and log).
  const repair = store.add(new RepairController({ secrets: context.secrets, owner, activeTask, log, logUri: context.logUri, verifier }));
  const probes = store.add(new ProbesController({ dataset, log }));
  // Fresh trials verify through the verifier's one queue too.
  const solver = store.add(new SolverController({ secrets: context.secrets, owner, activeTask, log, verifier }));
  store.add(vscode.workspace.registerTextDocumentContentProvider(PROBE_SCHEME, probes));
  const authoring = new SpecAuthoring({ owner, trusted: () => vscode.workspace.isTrusted, log: (line) => log.warn(line) });
  const panels = store.add(
    new TaskPanels({
      sections: [verifier.section, repair.section, curation.section, probes.section, viewed.section],
      setViewed: (taskId, column, file, on) => viewed.set(taskId, column, file, on),
      activeTask,
      review: (taskId) => curation.requests(taskId),
      specs: (taskId) => authoring.requests(taskId),
      openRunLog: (taskId, column, testId) => verifier.openRunLog(taskId, column, testId),
      openProbeDiff: (taskId, report, id) => probes.openDiff(taskId, report, id),
      extensionUri: context.extensionUri,
      dataset,
      tree,
      statuses,
      diffs,
      readTrajectory,
      memento: context.workspaceState,
      log,
      // Each action runs the extension's own command for it; each one that runs code checks trust itself (requireTrust).
      act: async (taskId, action, suggestion) => {
        const [command, args] = actionCommand(action, taskId, suggestion ?? '');
        // A verifier run is queued, not awaited: the page hears the result through its model, as for any run.
        if (action === 'runGold') {
          void vscode.commands.executeCommand(command, ...args).then(undefined, (e: unknown) => log.warn(`task ${taskId}: Run Gold Now failed: ${errorText(e)}`));
          return { ran: true, message: 'The gold patch is queued for the verifier.' };
        }
        await vscode.commands.executeCommand(command, ...args);
        return { ran: true };
      },
    }),
  );
  store.add(vscode.window.registerWebviewPanelSerializer(TASK_PANEL_TYPE, panels));
  const citations = store.add(
    new Citations({
      dataset,
      runLogs: verifier.documents,
      cite: (taskId, link, note) => panels.cite(taskId, link, note),
      review: (taskId) => curation.reviewView(taskId),
      onReviewChange: (fn) => curation.section.onDidChange?.(fn) ?? { dispose() {} },
      extensionId: context.extension.id,
      log,
    }),
  );
  citations.register(store);
  registerCommands({ dataset, tree, treeView, panels, diffs, log }, store);
  registerDatasetSearch(
    { dataset, panels, log, extensionId: context.extension.id, openEvidence: (taskId, link) => openEvidence({ root: dataset.root, task: dataset.task(taskId), diffs }, link) },
    store,
  );
  repair.register(store);
  verifier.register(store);
  curation.register(store);
  solver.register(store);
  registerDraftSpecs({ secrets: context.secrets, owner, activeTask, log }, store);
  // Every command of the one table has a handler now; one that does not is a wiring bug, said once in the log.
  void vscode.commands.getCommands(true).then(
    (all) => {
      const missing = COMMAND_TABLE.filter((c) => !all.includes(c.id)).map((c) => `${c.id} (${c.feature})`);
      if (missing.length > 0) log.error(`commands in the table that no feature registered: ${missing.join(', ')}`);
    },
    (e: unknown) => log.warn(`could not list the registered commands: ${errorText(e)}`),
  );

  const setContext = (key: string, value: unknown): void => void vscode.commands.executeCommand('setContext', key, value);
  setContext(CTX.datasetOpen, false);
  setContext(CTX.taskPanelActive, false);
  store.add(
    dataset.onDidChange((c) => {
      if (c.kind === 'opened' || c.kind === 'closed') setContext(CTX.datasetOpen, dataset.root !== undefined);
      if (c.kind !== 'progress' && c.kind !== 'tasks') setContext(CTX.datasetLoading, dataset.loading);
    }),
  );

  // Finding and loading the dataset happens after activation returns, off the activation path.
  setImmediate(() => {
    void (async () => {
      if (dataset.root) return;
      const settings = readSettings();
      const root = await dataset.detect(settings.datasetPath);
      if (root && !dataset.root) {
        const r = await dataset.open(root);
        if (!r.ok) log.warn(r.message);
        else if (settings.revealOnStartup) await revealOnStartup(treeView, log);
      }
    })().catch((e: unknown) => log.error(`opening the dataset failed: ${errorText(e)}`));
  });
  log.info(`SpecWeave activated (workspace ${vscode.workspace.isTrusted ? 'trusted' : 'in Restricted Mode'}); commands: ${COMMAND_TABLE.length}`);
  return { dataset, owner, activeTask, tree, panels, diffs, requireTrust, repair, verifier, curation, probes, solver, citations, viewed };
}

export function deactivate(): void {}

/**
 * Brings the SpecWeave view forward (the setting `specweave.candidates.revealOnStartup`, which the example's fresh
 * profile sets). The workbench can still be restoring its side bar at this point and put its own view back over
 * ours: so it is asked again, once, when the Candidates view is not visible after the first ask.
 */
async function revealOnStartup(view: vscode.TreeView<CandidateNode>, log: vscode.LogOutputChannel): Promise<void> {
  for (let attempt = 1; attempt <= 2 && !view.visible; attempt++) {
    await vscode.commands.executeCommand(`workbench.view.extension.${VIEW_CONTAINER}`);
    if (view.visible) return;
    // Shown by the next visibility change, or not: the workbench's own restore decides, within its start-up.
    await new Promise<void>((resolve) => {
      const sub = view.onDidChangeVisibility(() => {
        sub.dispose();
        clearTimeout(timer);
        resolve();
      });
      const timer = setTimeout(() => {
        sub.dispose();
        resolve();
      }, 3000);
    });
  }
  if (!view.visible) log.info('the SpecWeave view was asked to come forward at start-up and is not shown (the side bar shows another view)');
}


/** The host command behind each action a task page can ask for (the table's; kept here for the in-host tests). */
export { actionCommand };
