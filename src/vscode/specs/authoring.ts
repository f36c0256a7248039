// Spec authoring from the task view, without VS Code: the page's `specs.edit` and `specs.undo` requests, checked
// again deeply (checkSpecOp), written as a new task revision through the one all-or-nothing writer
// (src/app/specAuthoring.ts) on the open dataset's curation store, with the owner's curator. Refused in a restricted
// (untrusted) workspace, like every other write of task files. Every failure is a reply value the page shows; after a
// write the owner reads the task's folder again and takes in the log, so the page gets the new model.
import type { CurationStore } from '../../app/curationStore';
import { SpecAuthoringError, applySpecEdit, undoSpecEdit } from '../../app/specAuthoring';
import type { SpecEditResult } from '../../app/specAuthoring';
import { errorText } from '../../core/errorText';
import { checkSpecOp } from '../../core/specs/edit';
import type { HandlerTable, RequestMap, SpecEditReply } from '../../protocol/messages';
import type { CuratorName } from '../openDataset';

/** The requests of spec authoring in the task view's request map. */
export const SPEC_METHODS = ['specs.edit', 'specs.undo'] as const;
export type SpecMethod = (typeof SPEC_METHODS)[number];
export type SpecRequests = Pick<HandlerTable<RequestMap>, SpecMethod>;

/** The part of the open dataset's owner spec authoring needs. */
export interface SpecAuthoringOwner {
  readonly store: CurationStore | undefined;
  readonly curator: CuratorName;
  refreshTasks(taskIds: readonly string[]): void;
  refreshLog(): boolean;
}

export interface SpecAuthoringDeps {
  owner: SpecAuthoringOwner;
  /** False in a restricted (untrusted) workspace. */
  trusted(): boolean;
  log?(line: string): void;
}

/** Why a restricted workspace refuses spec edits (shown in the page). */
export const RESTRICTED_SPEC_EDIT = 'Spec edits write the task files: trust this workspace first (Restricted Mode refuses them).';

export class SpecAuthoring {
  constructor(private readonly d: SpecAuthoringDeps) {}

  /** The handlers of one task view's spec requests. */
  requests(taskId: string): SpecRequests {
    return {
      'specs.edit': (p) => this.run(taskId, p.revision, (base) => {
        const bad = checkSpecOp(p.op);
        if (bad) throw new SpecAuthoringError('invalid_edit', bad.message, [bad]);
        return applySpecEdit({ ...base, op: p.op });
      }),
      'specs.undo': (p) => this.run(taskId, p.revision, (base) => undoSpecEdit(base)),
    };
  }

  private async run(
    taskId: string,
    revision: number,
    write: (base: { root: string; taskId: string; expectedRevision: number; curator: string; store: CurationStore }) => Promise<SpecEditResult>,
  ): Promise<SpecEditReply> {
    if (!this.d.trusted()) return { ok: false, code: 'restricted', message: RESTRICTED_SPEC_EDIT };
    const owner = this.d.owner;
    const store = owner.store;
    if (!store) return { ok: false, code: 'unavailable', message: 'The dataset is still loading: wait for it, then edit the specs.' };
    const c = owner.curator;
    if (!c.ok) return { ok: false, code: 'bad_curator', message: `Set your curator name first (setting specweave.curator.name): ${c.message}` };
    let r: SpecEditResult;
    try {
      r = await write({ root: store.root, taskId, expectedRevision: revision, curator: c.name, store });
    } catch (e) {
      // What is on disk may have moved (a raced revision, a late record): the page gets it either way.
      this.refresh(taskId);
      if (e instanceof SpecAuthoringError) {
        const details = e.details.map((x) => x.message);
        const message = e.code === 'invalid_edit' && details.length > 0 ? details.join('; ') : e.message;
        return { ok: false, code: e.code, message, ...(e.currentRevision !== undefined ? { currentRevision: e.currentRevision } : {}) };
      }
      this.d.log?.(`task ${taskId}: spec edit failed: ${errorText(e)}`);
      return { ok: false, code: 'io', message: `Nothing was written: ${errorText(e)}` };
    }
    this.refresh(taskId);
    return { ok: true, to: r.to, changedSpecs: r.changedSpecs };
  }

  private refresh(taskId: string): void {
    try {
      this.d.owner.refreshTasks([taskId]);
      this.d.owner.refreshLog();
    } catch (e) {
      this.d.log?.(`task ${taskId}: reading the task again failed: ${errorText(e)}`);
    }
  }
}
