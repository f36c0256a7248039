// The review status of each task, as the CLI shows it in lists: the reduction of the dataset's review log.
import { CurationStore } from '../app/curationStore';
import type { Dataset, Problem, TaskStatus } from '../core/model';

/**
 * Returns a lookup of each task's life-cycle status; a task nobody has reviewed is a candidate. The review log's
 * errors (a bad line, a symlinked log) are added to `problems` when given.
 */
export function reviewStatuses(dataset: Dataset, problems?: Problem[]): (taskId: string) => TaskStatus {
  const store = CurationStore.forDataset(dataset, { runs: false, checkStaleRuns: false });
  if (problems) problems.push(...store.problems().filter((p) => p.severity === 'error'));
  return (taskId) => store.state.tasks.get(taskId)?.status ?? 'candidate';
}
