// What the task view's review requests do, without VS Code: each one goes through the curation store (checked against
// the log as it is on disk, appended, fsynced) and answers only once the event is on disk, or says why not. Also the
// review part of the task view model and the review-mode queue. The controller (curationController.ts) supplies the
// store, the curator and the editor moves; tests drive this directly.
import type { CurationStore } from '../../app/curationStore';
import { ReviewLogError } from '../../adapters/fs/reviewLog';
import type { TaskStatus } from '../../core/model';
import { DIFFICULTIES, ENV_DEFECTS, SCORE_FIELDS } from '../../core/review/events';
import type { ReviewIntent } from '../../core/review/intents';
import { buildReviewView, fitReviewView, nextQueueTask } from '../../core/view/reviewView';
import type { EvidenceLinkView, RequestMap, ReviewActResult, ReviewView } from '../../protocol/messages';
import type { ReviewRequests } from '../taskSession';
import { errorText } from '../../core/errorText';

/** The curator the view is for, as the open dataset's owner resolved it (one definition, in openDataset.ts). */
import type { CuratorName } from '../openDataset';
export type { CuratorName };

export interface ReviewActionsDeps {
  /** The store of the open dataset, once loaded. */
  store(): CurationStore | undefined;
  curator(): CuratorName;
  blind(): boolean;
  /** After an event is on disk: refresh what shows these tasks (undefined: all). */
  changed(taskIds: string[] | undefined): void;
  /** Shows a task in the task panel the request came from (review mode moves on). */
  showTask(taskId: string): void;
  /** Opens the place of an evidence link the webview cannot show itself. */
  openEvidence(taskId: string, link: EvidenceLinkView): Promise<{ opened: boolean; message?: string }>;
  /** Review mode was switched off from a task view. */
  stopped?(): void;
}

const UNAVAILABLE: ReviewActResult = { ok: false, code: 'unavailable', message: 'The review log is not open yet: wait for the dataset to finish loading.' };

function errorResult(e: unknown): ReviewActResult {
  if (e instanceof ReviewLogError) return { ok: false, code: e.code, message: e.message };
  return { ok: false, code: 'io', message: `Nothing was recorded: ${errorText(e)}` };
}

export class ReviewActions {
  /** Review mode: the keyboard queue of unreviewed tasks is on. */
  private modeOn = false;
  /** Tasks review mode moved away from, newest last, for an undo that goes back. */
  private readonly visited: string[] = [];

  constructor(private readonly d: ReviewActionsDeps) {}

  get reviewMode(): boolean {
    return this.modeOn;
  }

  startReviewMode(): void {
    this.modeOn = true;
    this.visited.length = 0;
  }

  stopReviewMode(): void {
    if (!this.modeOn) return;
    this.modeOn = false;
    this.visited.length = 0;
    this.d.stopped?.();
  }

  /** The first task of the queue (review mode starts there), after `current` when given. */
  firstQueued(current?: string): string | undefined {
    const store = this.d.store();
    const c = this.d.curator();
    if (!store || !c.ok) return undefined;
    const q = store.queue(c.name);
    return nextQueueTask(
      q.items.map((i) => i.taskId),
      store.dataset.tasks.map((t) => t.id),
      current,
    ) ?? (current !== undefined && q.items.some((i) => i.taskId === current) ? current : undefined);
  }

  /** The `review` part of a task's view model; undefined before the store exists or for an unknown task. */
  view(taskId: string): ReviewView | undefined {
    const store = this.d.store();
    if (!store) return undefined;
    const c = this.d.curator();
    const review = store.review(taskId, c.ok ? { viewer: c.name, blind: this.d.blind() } : {});
    if (!review) return undefined;
    let queue: ReviewView['queue'];
    if (this.modeOn && c.ok) {
      const q = store.queue(c.name);
      const index = q.items.findIndex((i) => i.taskId === taskId);
      queue = { remaining: q.remaining, done: q.done, ...(index >= 0 ? { index } : {}) };
    }
    return fitReviewView(
      buildReviewView(review, store.policy, {
        ...(c.ok ? { curatorSource: c.source } : { curatorProblem: c.message }),
        ...(queue ? { queue } : {}),
        findings: store.findings(taskId),
      }),
    );
  }

  /** Records an intent on a task; answers after fsync, with the refusal, or with why nothing was recorded. */
  async act(taskId: string, intent: ReviewIntent): Promise<ReviewActResult> {
    const store = this.d.store();
    if (!store) return UNAVAILABLE;
    const c = this.d.curator();
    if (!c.ok) return { ok: false, code: 'bad_curator', message: `Set your curator name first (setting specweave.curator.name): ${c.message}` };
    let r;
    try {
      r = await store.act(taskId, c.name, intent);
    } catch (e) {
      // Others may have appended meanwhile; what is on disk still shows.
      this.d.changed([taskId]);
      return errorResult(e);
    }
    if (!r.ok) {
      this.d.changed([taskId]);
      return { ok: false, code: r.refusal.code, message: r.refusal.message, ...(r.refusal.rules ? { rules: r.refusal.rules } : {}) };
    }
    this.d.changed([taskId]);
    return { ok: true, event: r.event.id, summary: summaryOf(r.event.kind, r.event.payload as Record<string, unknown>) };
  }

  /** The handlers of one task view's review requests. */
  requests(taskId: string): ReviewRequests {
    return {
      label: (p) =>
        this.act(taskId, {
          kind: 'label',
          attempt: p.attempt,
          spec: p.spec,
          verdict: p.verdict,
          ...(p.note !== undefined && p.note.trim() !== '' ? { note: p.note } : {}),
          ...(p.evidence ? { evidence: p.evidence } : {}),
        }),
      score: (p) => this.score(taskId, p),
      submit: (p) => this.act(taskId, { kind: 'submit', ...(p.note ? { note: p.note } : {}) }),
      transition: (p) => this.act(taskId, { kind: 'status', to: p.to as TaskStatus, ...(p.note ? { note: p.note } : {}) }),
      approve: (p) => this.act(taskId, { kind: 'approve', waivers: p.waivers, ...(p.note ? { note: p.note } : {}) }),
      reject: (p) => this.act(taskId, { kind: 'reject', reason: p.reason }),
      undo: (p) => this.undo(taskId, p.event),
      decideSuggestion: (p) => this.act(taskId, { kind: 'suggestion', suggestion: p.suggestion, decision: p.decision, ...(p.note ? { note: p.note } : {}) }),
      acceptFinding: (p) => this.act(taskId, { kind: 'acceptFinding', findings: p.findings, spec: p.spec, ...(p.note ? { note: p.note } : {}) }),
      dismissFinding: (p) => this.act(taskId, { kind: 'dismissFinding', findings: p.findings, spec: p.spec, ...(p.note ? { note: p.note } : {}) }),
      openEvidence: (p) => this.d.openEvidence(taskId, p.link),
      reviewQueue: (p) => this.queue(taskId, p),
    };
  }

  private score(taskId: string, p: RequestMap['score']['params']): Promise<ReviewActResult> {
    const bad = p.envDefects.find((d) => !(ENV_DEFECTS as readonly string[]).includes(d));
    if (bad !== undefined) return Promise.resolve({ ok: false, code: 'bad_input', message: `unknown environment defect "${bad}" (${ENV_DEFECTS.join(', ')})` });
    if (p.difficulty !== undefined && !(DIFFICULTIES as readonly string[]).includes(p.difficulty)) {
      return Promise.resolve({ ok: false, code: 'bad_input', message: `unknown difficulty "${p.difficulty}" (${DIFFICULTIES.join(', ')})` });
    }
    return this.act(taskId, {
      kind: 'score',
      underspecified: p.underspecified,
      fnSeverity: p.fnSeverity,
      fpSeverity: p.fpSeverity,
      envDefects: p.envDefects,
      ...(p.otherIssues !== undefined && p.otherIssues.trim() !== '' ? { otherIssues: p.otherIssues } : {}),
      ...(p.difficulty !== undefined ? { difficulty: p.difficulty } : {}),
      ...(p.note !== undefined && p.note.trim() !== '' ? { note: p.note } : {}),
    });
  }

  /**
   * Undoes `event`, or the viewer's latest undoable event on the task. In review mode, with nothing to undo on this
   * task, it goes back to the task reviewed before and undoes its latest event there (usually the submit that moved on).
   */
  private async undo(taskId: string, event: string | undefined): Promise<ReviewActResult> {
    if (event !== undefined) return this.act(taskId, { kind: 'undo', event });
    const last = this.view(taskId)?.lastUndoable;
    if (last) return this.act(taskId, { kind: 'undo', event: last.event });
    const previous = this.modeOn ? this.visited.at(-1) : undefined;
    if (previous !== undefined) {
      const before = this.view(previous)?.lastUndoable;
      if (before) {
        const r = await this.act(previous, { kind: 'undo', event: before.event });
        if (r.ok) {
          this.visited.pop();
          this.d.showTask(previous);
          return { ...r, taskId: previous };
        }
        return r;
      }
    }
    return { ok: false, code: 'unknown_event', message: 'Nothing of yours to undo on this task.' };
  }

  private async queue(taskId: string, p: RequestMap['reviewQueue']['params']): Promise<RequestMap['reviewQueue']['result']> {
    if (p.action === 'stop') {
      this.stopReviewMode();
      this.d.changed([taskId]);
      return { remaining: this.remaining() };
    }
    this.modeOn = true;
    let message: string | undefined;
    if (p.action === 'next' && p.submit) {
      const r = await this.act(taskId, { kind: 'submit' });
      if (!r.ok) return { remaining: this.remaining(), message: `Not submitted: ${r.message}` };
      message = `Submitted ${taskId}.`;
    }
    const next = this.firstQueued(taskId);
    const remaining = this.remaining();
    if (next === undefined || next === taskId) {
      this.d.changed([taskId]);
      return { remaining, message: `${message ? `${message} ` : ''}${remaining === 0 ? 'Nothing left to review.' : 'No other task left in the queue.'}` };
    }
    this.visited.push(taskId);
    if (this.visited.length > 100) this.visited.shift();
    this.d.showTask(next);
    return { taskId: next, remaining, ...(message ? { message } : {}) };
  }

  private remaining(): number {
    const store = this.d.store();
    const c = this.d.curator();
    return store && c.ok ? store.queue(c.name).remaining : 0;
  }
}

/** One line about a recorded event for the webview's status line. */
function summaryOf(kind: string, p: Record<string, unknown>): string {
  switch (kind) {
    case 'label':
      return `${String(p.attempt)} × ${String(p.spec)}: ${String(p.verdict)}`;
    case 'score':
      return 'scores saved';
    case 'submit':
      return 'review submitted';
    case 'status':
      return `status ${String(p.from)} → ${String(p.to)}`;
    case 'approve':
      return Array.isArray(p.waivers) && p.waivers.length > 0 ? `approved, waiving ${p.waivers.map((w) => String((w as { rule: unknown }).rule)).join(', ')}` : 'approved';
    case 'reject':
      return 'rejected';
    case 'suggestion':
      return `suggestion ${String(p.decision)}`;
    case 'review.dismiss':
      return `finding on ${String(p.spec)} dismissed`;
    case 'adjudicate':
      return 'decision recorded';
    case 'undo':
      return `undid ${String(p.event)}`;
    default:
      return kind;
  }
}

/** Score fields an adjudication may name (for the adjudication panel). */
export const ADJUDICABLE_FIELDS: readonly string[] = SCORE_FIELDS;
