// The one command table of the extension: every command it registers, by id (`specweave.noun.verb`), with the
// feature that registers its handler. Titles, categories and icons are package.json's (`contributes.commands`), which
// contributes exactly these ids (test/unit/vscode/commandTable.test.ts checks both directions, and that every action
// a task page may ask for runs one of them). Each feature registers its handlers through `commandRegistrar`, which
// refuses an id missing here; activation logs any id here that no feature registered. No `vscode` import: unit-tested.
import type { ActionMethod } from '../protocol/messages';

/** The dataset, tree, task view and diff commands (registered by commands.ts). */
export const CMD = {
  openDataset: 'specweave.dataset.open',
  reloadDataset: 'specweave.dataset.reload',
  closeDataset: 'specweave.dataset.close',
  showProblems: 'specweave.dataset.showProblems',
  openTask: 'specweave.task.open',
  nextTask: 'specweave.task.next',
  previousTask: 'specweave.task.previous',
  openTaskFile: 'specweave.task.openFile',
  searchDataset: 'specweave.dataset.search',
  openTaskAt: 'specweave.task.openAt',
  copyTaskLink: 'specweave.task.copyLink',
  openTestPatch: 'specweave.tests.openPatch',
  nextAttempt: 'specweave.attempt.next',
  previousAttempt: 'specweave.attempt.previous',
  openPatch: 'specweave.attempt.openPatch',
  openTrajectory: 'specweave.attempt.openTrajectory',
  openDiff: 'specweave.diff.open',
  compareAttempts: 'specweave.diff.compareAttempts',
  focusSearch: 'specweave.search.focus',
  nextHit: 'specweave.search.nextHit',
  previousHit: 'specweave.search.previousHit',
  filter: 'specweave.candidates.filter',
  filterText: 'specweave.candidates.filterText',
  filterBy: 'specweave.candidates.filterBy',
  clearFilter: 'specweave.candidates.clearFilter',
  sort: 'specweave.candidates.sort',
  showMore: 'specweave.candidates.showMore',
} as const;

/** The curation feature's commands (curation/curationController.ts). */
export const CURATION_CMD = {
  startReview: 'specweave.review.start',
  stopReview: 'specweave.review.stop',
  undo: 'specweave.review.undo',
  showStats: 'specweave.stats.show',
  showAdjudication: 'specweave.adjudication.show',
  exportSet: 'specweave.curation.export',
  setCurator: 'specweave.curator.set',
  /** A gutter comment's Cite (curation/citations.ts). */
  cite: 'specweave.citation.cite',
  copyLineLink: 'specweave.citation.copyLink',
} as const;

/** The repair feature's commands (repair/repairController.ts). */
export const REPAIR_CMD = {
  setApiKey: 'specweave.repair.setApiKey',
  /** The link of a no-key notice that goes on with what it was shown for (llmClients.ts); not in the palette. */
  setApiKeyAndContinue: 'specweave.repair.setApiKeyAndContinue',
  clearApiKey: 'specweave.repair.clearApiKey',
  request: 'specweave.repair.request',
  review: 'specweave.repair.review',
  accept: 'specweave.repair.accept',
  reject: 'specweave.repair.reject',
  showPrompt: 'specweave.repair.showPrompt',
  showMatrix: 'specweave.repair.showMatrix',
} as const;

/** The verifier feature's commands (verifier/verifierController.ts). */
export const VERIFIER_CMD = {
  runAttempt: 'specweave.verifier.runAttempt',
  runGold: 'specweave.verifier.runGold',
  runEmpty: 'specweave.verifier.runEmpty',
  runTask: 'specweave.verifier.runTask',
  runTasks: 'specweave.verifier.runTasks',
  cancelAll: 'specweave.verifier.cancelAll',
  showQueue: 'specweave.verifier.showQueue',
  showLog: 'specweave.verifier.showLog',
  setImage: 'specweave.task.setImage',
} as const;

/** The specs feature's commands (specs/draftCommand.ts). */
export const SPECS_CMD = {
  draft: 'specweave.specs.draft',
} as const;

/** The solver feature's commands (solver/solverController.ts). */
export const SOLVER_CMD = {
  runTrials: 'specweave.solver.runTrials',
} as const;

export type CommandFeature = 'core' | 'curation' | 'repair' | 'verifier' | 'specs' | 'solver';
export type CommandId =
  | (typeof CMD)[keyof typeof CMD]
  | (typeof CURATION_CMD)[keyof typeof CURATION_CMD]
  | (typeof REPAIR_CMD)[keyof typeof REPAIR_CMD]
  | (typeof VERIFIER_CMD)[keyof typeof VERIFIER_CMD]
  | (typeof SPECS_CMD)[keyof typeof SPECS_CMD]
  | (typeof SOLVER_CMD)[keyof typeof SOLVER_CMD];

const rows = (feature: CommandFeature, ids: Record<string, CommandId>) => Object.values(ids).map((id) => ({ id, feature }));
/** Every command, once: its id and the feature that registers its handler (title: package.json). */
export const COMMAND_TABLE: ReadonlyArray<{ id: CommandId; feature: CommandFeature }> = [
  ...rows('core', CMD),
  ...rows('curation', CURATION_CMD),
  ...rows('repair', REPAIR_CMD),
  ...rows('verifier', VERIFIER_CMD),
  ...rows('specs', SPECS_CMD),
  ...rows('solver', SOLVER_CMD),
];
const COMMAND_IDS: ReadonlySet<string> = new Set(COMMAND_TABLE.map((c) => c.id));

/** True for an id of the table. */
export function isCommandId(id: string): id is CommandId {
  return COMMAND_IDS.has(id);
}

/** The host command (and its arguments) behind each action a task page can ask for: the webview names none. */
export function actionCommand(action: ActionMethod, taskId: string, suggestion: string): [CommandId, unknown[]] {
  switch (action) {
    case 'nextTask':
      return [CMD.nextTask, []];
    case 'previousTask':
      return [CMD.previousTask, []];
    case 'startReviewMode':
      return [CURATION_CMD.startReview, []];
    case 'requestRepair':
      return [REPAIR_CMD.request, [taskId]];
    case 'runGold':
      return [VERIFIER_CMD.runGold, [taskId]];
    case 'reviewRepair':
      return [REPAIR_CMD.review, [taskId, suggestion]];
    case 'acceptRepair':
      return [REPAIR_CMD.accept, [taskId, suggestion]];
    case 'rejectRepair':
      return [REPAIR_CMD.reject, [taskId, suggestion]];
    case 'showRepairPrompt':
      return [REPAIR_CMD.showPrompt, [taskId, suggestion]];
    case 'showRepairMatrix':
      return [REPAIR_CMD.showMatrix, [taskId, suggestion]];
  }
}

/** Context keys set by the extension, used in `when` clauses of package.json. */
export const CTX = {
  datasetOpen: 'specweave.datasetOpen',
  datasetLoading: 'specweave.datasetLoading',
  filtered: 'specweave.candidatesFiltered',
  taskPanelActive: 'specweave.taskPanelActive',
} as const;

export const VIEW_CONTAINER = 'specweave';
export const CANDIDATES_VIEW = 'specweave.candidates';
export const TASK_PANEL_TYPE = 'specweave.task';
export const DOC_SCHEME = 'specweave';
