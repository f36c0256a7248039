// The task view's "Probes" section: what a task's stored probe reports say (src/app/probeReports.ts), read once and
// kept in memory per task (a section reads from memory on every push), dropped and pushed again when the dataset's
// one watcher says the task's probes/TASK/*.json changed (a CLI probe run), its folder changed, or the dataset was
// opened, loaded or closed. No `vscode` here, so the unit layer drives it.
import { readProbesView } from '../../app/probeReports';
import type { ProbesView } from '../../protocol/messages';
import type { DatasetChange, DatasetService } from '../datasetService';
import type { Listen } from '../emitter';
import { Emitter } from '../emitter';
import type { TaskViewSection, TaskViewSectionPart } from '../taskSections';

export interface ProbeSectionDataset {
  readonly root: DatasetService['root'];
  task: DatasetService['task'];
  onDidChange: Listen<DatasetChange>;
}

export class ProbeSection implements TaskViewSection {
  readonly name = 'probe reports';
  private readonly cache = new Map<string, ProbesView>();
  private readonly changes = new Emitter<readonly string[] | undefined>();
  readonly onDidChange = this.changes.event;
  private readonly sub: { dispose(): void };

  constructor(private readonly dataset: ProbeSectionDataset) {
    this.sub = dataset.onDidChange((c) => {
      const ids = c.kind === 'tasks' || c.kind === 'probes' ? c.taskIds : undefined;
      if (ids !== undefined && ids !== 'all') {
        for (const id of ids) this.cache.delete(id);
        this.changes.fire(ids);
      } else if (ids === 'all' || c.kind === 'opened' || c.kind === 'closed' || c.kind === 'loaded') {
        this.cache.clear();
        this.changes.fire(undefined);
      }
    });
  }

  contribute(taskId: string): TaskViewSectionPart | undefined {
    const root = this.dataset.root;
    const task = this.dataset.task(taskId);
    if (!root || !task) return undefined;
    let view = this.cache.get(taskId);
    if (!view) {
      view = readProbesView(root, task);
      this.cache.set(taskId, view);
    }
    return { probes: view };
  }

  dispose(): void {
    this.sub.dispose();
    this.changes.dispose();
  }
}
