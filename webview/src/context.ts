// What every view gets: the host connection, the current model and UI state, the spec/run links, and the actions
// that cross regions (a click in one region that shows something in another).
import type { PopOutRegion, TaskViewModel } from '../../src/protocol/messages';
import type { HostConnection } from './host';
import type { UiState } from './state';
import type { SpecLinks } from './views/specLinks';

export interface Actions {
  activateColumn(id: string): void;
  openDiff(column: string, path: string): void;
  compareColumns(left: string, right: string, path: string): void;
  openTest(testId: string): void;
  openPatch(column: string): void;
  /** Opens a region (the specs area on its open tab) in an editor tab of its own beside this one. */
  popOut(region: PopOutRegion): void;
  /** Marks a column, or one file of its patch, viewed or not (the host keeps the mark). */
  setViewed(column: string, path: string | undefined, viewed: boolean): void;
  /** Shows a test in the tests tab. */
  showTest(testId: string): void;
  /** Shows a spec in the specs tab and its first statement in the request. */
  showSpec(specId: string): void;
  selectFile(column: string, path: string): void;
  /** A step was selected in the trajectory (the review's evidence adder shows it as the step to link). */
  stepSelected(column: string, step: number): void;
  /** Whether a step can be cited now (the task has a review with a focused pair), and the pair's words. */
  citeTarget(): string | undefined;
  /** Adds a link to a trajectory step to the focused pair's draft (recorded with its verdict). */
  citeStep(column: string, step: number): void;
}

export interface Ctx {
  host: HostConnection;
  model(): TaskViewModel;
  state(): UiState;
  setState(patch: Partial<UiState>): void;
  links: SpecLinks;
  actions: Actions;
  /** A short message in the status line (results of actions, errors). */
  status(message: string, error?: boolean): void;
  /** Takes a status away if it still says `message` (what was being done is done). */
  clearStatus(message: string): void;
}
