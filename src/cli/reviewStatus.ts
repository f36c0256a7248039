// The review status of each task, as the CLI shows it in lists: the reduction of the dataset's review log.
import { CurationStore } from '../adapters/fs/curationStore';
import type { Dataset, TaskStatus } from '../core/model';

/** Returns a lookup of each task's life-cycle status; a task nobody has reviewed is a candidate. */
export function reviewStatuses(dataset: Dataset): (taskId: string) => TaskStatus {
  const store = CurationStore.forDataset(dataset, { runs: false, checkStaleRuns: false });
  return (taskId) => store.state.tasks.get(taskId)?.status ?? 'candidate';
}
