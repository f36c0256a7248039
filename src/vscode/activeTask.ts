// The task the user is on: the task panel that is focused (or was focused last while still visible), and the one
// way for a feature to bring a task to the front. The task panels set it and carry out `show`; the verifier, repair
// and curation read it and ask through it, so none of them needs the panels (and no construction cycle needs a lazy
// closure). No `vscode` here.
import type { Disposable, Listen } from './emitter';
import { Emitter } from './emitter';

/** `open`: reveal the task's panel or open one; `retarget`: show it in the active panel (next/previous). */
export type ShowMode = 'open' | 'retarget';

export class ActiveTask implements Disposable {
  private current: string | undefined;
  private readonly changes = new Emitter<string | undefined>();
  private readonly shows = new Emitter<{ taskId: string; mode: ShowMode }>();
  /** Fires with the new active task id (undefined: no task panel is active). */
  readonly onDidChange: Listen<string | undefined> = this.changes.event;
  /** A feature asked to show a task (the task panels do it). */
  readonly onShow: Listen<{ taskId: string; mode: ShowMode }> = this.shows.event;

  get taskId(): string | undefined {
    return this.current;
  }

  set(taskId: string | undefined): void {
    if (taskId === this.current) return;
    this.current = taskId;
    this.changes.fire(taskId);
  }

  show(taskId: string, mode: ShowMode = 'open'): void {
    this.shows.fire({ taskId, mode });
  }

  dispose(): void {
    this.changes.dispose();
    this.shows.dispose();
  }
}
