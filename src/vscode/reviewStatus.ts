// Where the tree and the task panel get a task's review status and its attempts' own verifier outcomes. Until the
// curation and verifier features plug their sources in, every task is a `candidate` and only imported results count.
import * as vscode from 'vscode';
import type { TaskStatus } from '../core/model';
import type { AttemptOutcome } from '../core/view/candidates';

export interface ReviewStatusSource {
  statusOf(taskId: string): TaskStatus;
  /** The outcome of our own verifier runs for an attempt, when there are any. */
  outcomeOf?(taskId: string, attemptId: string): AttemptOutcome | undefined;
  /** Fires with the ids of tasks whose status changed, or undefined for all. */
  readonly onDidChange: vscode.Event<string[] | undefined>;
}

/** The source used until review events exist: nothing has been reviewed yet. */
export class CandidateOnlyStatus implements ReviewStatusSource {
  private readonly emitter = new vscode.EventEmitter<string[] | undefined>();
  readonly onDidChange = this.emitter.event;

  statusOf(): TaskStatus {
    return 'candidate';
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
