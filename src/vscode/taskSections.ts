// Task-view sections by contribution: each feature (the verifier's results, the repair, the review; later the review
// agent) contributes its typed section of a task's view model through one interface, and the panel host merges them
// over the base model with one error policy: a section that fails shows its error in its place (a notice naming the
// section) and is logged once per task and message. A section reads from memory (the open dataset's owner, the
// feature's own state), not from disk, on every push. No section can touch what the base builder set (status,
// specs, tests) except through its own typed fields. No `vscode` here.
import type { ColumnView, CouplingView, ProbesView, RepairView, ResultsView, ReviewView, TaskViewModel, ViewedView } from '../protocol/messages';
import type { Listen } from './emitter';
import { errorText } from '../core/errorText';

/** What a section may add to a task's view model. */
export interface TaskViewSectionPart {
  /** The verifier's result matrices. */
  results?: ResultsView;
  /** Short verdict texts per column id (the verifier's). */
  columnVerdicts?: Readonly<Record<string, NonNullable<ColumnView['verdict']>>>;
  repair?: RepairView;
  review?: ReviewView;
  /** The coupling of the task's specs with the co-flip over the curators' and the verifier's verdicts. */
  coupling?: CouplingView;
  /** What the task's stored probe reports say (the probes feature). */
  probes?: ProbesView;
  /** The viewer's viewed marks (vscode/viewedMarks.ts). */
  viewed?: ViewedView;
}

export interface TaskViewSection {
  /** Names the section in its error notice and the log, e.g. `verifier results`. */
  readonly name: string;
  /** The section of `taskId`, undefined when it has nothing to show. `base` is the model before any section. */
  contribute(taskId: string, base: Readonly<TaskViewModel>): TaskViewSectionPart | undefined;
  /** Fires with the tasks whose section changed (undefined: all of them): their views are pushed again. */
  readonly onDidChange?: Listen<readonly string[] | undefined>;
}

/** Merges the sections into the base model; one failing section does not stop the others. */
export class SectionMerger {
  private readonly logged = new Set<string>();

  constructor(
    private readonly sections: readonly TaskViewSection[],
    private readonly log: (line: string) => void,
  ) {}

  merge(taskId: string, base: TaskViewModel): TaskViewModel {
    let model = base;
    const notices: string[] = [];
    for (const s of this.sections) {
      let part: TaskViewSectionPart | undefined;
      try {
        part = s.contribute(taskId, base);
      } catch (e) {
        const message = errorText(e);
        const key = `${s.name}\u0000${taskId}\u0000${message}`;
        if (!this.logged.has(key)) {
          this.logged.add(key);
          if (this.logged.size > 1000) this.logged.clear();
          this.log(`task ${taskId}: the ${s.name} could not be shown: ${e instanceof Error ? (e.stack ?? message) : message}`);
        }
        notices.push(`The ${s.name} of this task could not be shown: ${message}`);
        continue;
      }
      if (!part) continue;
      const { columnVerdicts, ...fields } = part;
      model = { ...model, ...fields };
      if (columnVerdicts) model = { ...model, columns: model.columns.map((c) => (columnVerdicts[c.id] ? { ...c, verdict: columnVerdicts[c.id] as string } : c)) };
    }
    return notices.length > 0 ? { ...model, notices: [...model.notices, ...notices] } : model;
  }
}
