// Accepting, rejecting and revalidating a repair suggestion in the extension host, on the open dataset's one curation
// store: no second store is opened (no full dataset load, no second reader of the review log), the accepted task's
// folder is read again alone, and the curator is the owner's, so a name the settings refuse is refused here too,
// naming the setting, before anything is written. The VS Code parts (notifications, progress, the queue) are in
// repairController.ts. No `vscode` here.
import type { CurationStore } from '../../app/curationStore';
import type { AcceptResult, RevalidateResult, RevalidationRunner, RevalidationTrials } from '../../app/repairFlow';
import { acceptSuggestion, rejectSuggestion, revalidate } from '../../app/repairFlow';
import type { ReviewEvent } from '../../core/review/events';

/** The part of the open dataset's owner the decisions need. */
export interface RepairOwner {
  readonly store: CurationStore | undefined;
  /** The curator's name, or throws an error naming the setting. */
  requireCurator(): string;
  refreshTasks(taskIds: readonly string[]): void;
  refreshLog(): boolean;
}

/** Nothing to decide on: no dataset is loaded yet. */
export class StoreNotOpenError extends Error {
  constructor() {
    super('the review log is not open yet: wait for the dataset to finish loading');
  }
}

export class RepairDecisions {
  constructor(private readonly owner: RepairOwner) {}

  private store(): CurationStore {
    const s = this.owner.store;
    if (!s) throw new StoreNotOpenError();
    return s;
  }

  /** The new revision is written and recorded; the task's folder is read again and the log taken in. */
  async accept(taskId: string, suggestionId: string, note?: string): Promise<{ acc: AcceptResult; curator: string }> {
    const curator = this.owner.requireCurator();
    const store = this.store();
    const acc = await acceptSuggestion({ root: store.root, taskId, suggestionId, curator, store, ...(note ? { note } : {}) });
    // Only this task's folder: the task map and the store take the new revision; then the events just appended.
    this.owner.refreshTasks([taskId]);
    this.owner.refreshLog();
    return { acc, curator };
  }

  async reject(taskId: string, suggestionId: string, reason: string): Promise<{ event: ReviewEvent; curator: string }> {
    const curator = this.owner.requireCurator();
    const store = this.store();
    const event = await rejectSuggestion({ root: store.root, taskId, suggestionId, curator, reason, store });
    this.owner.refreshLog();
    return { event, curator };
  }

  /** Runs gold, empty and every attempt on the task's current revision through `runner` (then any fresh trials), on the same store. */
  async revalidate(o: { taskId: string; runner: RevalidationRunner; curator: string; suggestionId?: string; signal?: AbortSignal; freshTrials?: RevalidationTrials }): Promise<RevalidateResult> {
    const store = this.store();
    const r = await revalidate({
      root: store.root,
      taskId: o.taskId,
      runner: o.runner,
      curator: o.curator,
      store,
      ...(o.suggestionId ? { suggestionId: o.suggestionId } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.freshTrials ? { freshTrials: o.freshTrials } : {}),
    });
    this.owner.refreshLog();
    return r;
  }
}
