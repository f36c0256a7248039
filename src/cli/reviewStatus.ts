// The review status of each task, as the CLI shows it in lists.
import { ReviewLog } from '../adapters/fs/reviewLog';
import type { Dataset, TaskStatus } from '../core/model';
import { reduceLog } from '../core/review/reducer';

/** Returns a lookup of each task's life-cycle status from the review log; a task nobody has reviewed is a candidate. */
export function reviewStatuses(dataset: Dataset): (taskId: string) => TaskStatus {
  const state = reduceLog(ReviewLog.forDataset(dataset.root).load().events);
  return (taskId) => state.tasks.get(taskId)?.status ?? 'candidate';
}
