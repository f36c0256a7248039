// Every command the extension registers, by id (`specweave.noun.verb`). package.json contributes exactly these; the
// in-host suite checks both directions.
export const CMD = {
  openDataset: 'specweave.dataset.open',
  reloadDataset: 'specweave.dataset.reload',
  closeDataset: 'specweave.dataset.close',
  showProblems: 'specweave.dataset.showProblems',
  openTask: 'specweave.task.open',
  nextTask: 'specweave.task.next',
  previousTask: 'specweave.task.previous',
  openTaskFile: 'specweave.task.openFile',
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
  clearFilter: 'specweave.candidates.clearFilter',
  sort: 'specweave.candidates.sort',
  showMore: 'specweave.candidates.showMore',
} as const;

export type CommandId = (typeof CMD)[keyof typeof CMD];

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
