// Where the tree and the task panel get a task's review status and its attempts' own verifier outcomes. The status
// comes from the curation store (the review log, `CurationStatus`); the verifier feature may plug in `outcomeOf`. The
// solve rates come from the same store (its runs and the imported results).
import * as vscode from 'vscode';
import type { TaskStatus } from '../core/model';
import type { ReviewState } from '../core/review/reducer';
import type { AttemptOutcome } from '../core/view/candidates';
import { runOutcome } from '../core/view/candidates';
import type { TaskVerifierResults } from '../core/review/verdicts';
import type { CurrentFinding } from '../core/findings/current';
import { unconfirmedCount } from '../core/findings/current';
import type { TaskDifficulty } from '../core/solver/difficulty';
import type { TaskReview } from '../core/review/taskReview';

export interface ReviewStatusSource {
  statusOf(taskId: string): TaskStatus;
  /** The outcome of our own verifier runs for an attempt, when there are any. */
  outcomeOf?(taskId: string, attemptId: string): AttemptOutcome | undefined;
  /** How many of the review agent's current findings on the task are unconfirmed candidates. */
  unconfirmedFindingsOf?(taskId: string): number;
  /** The task's solve rates, overall and per model (undefined before the store exists). */
  difficultyOf?(taskId: string): TaskDifficulty | undefined;
  /** The curator's progress on a task that has labels (undefined for one nobody labelled yet, or with no curator). */
  progressOf?(taskId: string): ReviewProgress | undefined;
  /** Fires with the ids of tasks whose status changed, or undefined for all. */
  readonly onDidChange: vscode.Event<string[] | undefined>;
}

/** What the tree shows of a task's review: the viewer's labels of its pairs, the open FP and FN, per attempt too. */
export interface ReviewProgress {
  cells: number;
  /** Pairs the viewer labelled (current labels). */
  mine: number;
  falsePositives: number;
  falseNegatives: number;
  attempts: Record<string, { cells: number; mine: number }>;
}

/** "27/27 judged · 1 FP · 1 FN" (your labels of the pairs, then the outcomes). */
export function progressText(p: Pick<ReviewProgress, 'cells' | 'mine' | 'falsePositives' | 'falseNegatives'>): string {
  return [`${p.mine}/${p.cells} judged`, p.falsePositives > 0 ? `${p.falsePositives} FP` : '', p.falseNegatives > 0 ? `${p.falseNegatives} FN` : ''].filter(Boolean).join(' \u00b7 ');
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

/**
 * Statuses from the review log: a task with no events is a candidate. The curation controller fires `changed` with
 * the tasks whose events changed (appended here, by another window or by the CLI), or undefined for all.
 */
export class CurationStatus implements ReviewStatusSource {
  private readonly emitter = new vscode.EventEmitter<string[] | undefined>();
  readonly onDidChange = this.emitter.event;
  constructor(
    private readonly state: () => ReviewState | undefined,
    /** The store's current findings of a task (empty before the store exists). */
    private readonly findings?: (taskId: string) => readonly CurrentFinding[],
    /** The store's solve rates of a task (its runs and imported results; core/solver/difficulty.ts). */
    private readonly difficulty?: (taskId: string) => TaskDifficulty | undefined,
    /** The store's verifier results of a task: its stored runs, as the task view shows them. */
    private readonly verifier?: (taskId: string) => TaskVerifierResults | undefined,
    /** The store's review of a task for the window's curator (undefined without a store or a curator). */
    private readonly review?: (taskId: string) => TaskReview | undefined,
  ) {}

  progressOf(taskId: string): ReviewProgress | undefined {
    // A task nobody labelled says nothing here (and costs nothing to draw).
    if ((this.state()?.tasks.get(taskId)?.labels.size ?? 0) === 0) return undefined;
    const r = this.review?.(taskId);
    if (!r) return undefined;
    const attempts: ReviewProgress['attempts'] = {};
    for (const c of r.cells) {
      const a = (attempts[c.attempt] ??= { cells: 0, mine: 0 });
      a.cells++;
      if (c.mine) a.mine++;
    }
    return { cells: r.counts.cells, mine: r.counts.mine, falsePositives: r.counts.falsePositives, falseNegatives: r.counts.falseNegatives, attempts };
  }

  /** The outcome of the attempt's latest run of ours (the curation controller fires `changed` when runs land). */
  outcomeOf(taskId: string, attemptId: string): AttemptOutcome | undefined {
    return runOutcome(this.verifier?.(taskId)?.attempts[attemptId]);
  }

  difficultyOf(taskId: string): TaskDifficulty | undefined {
    return this.difficulty?.(taskId);
  }

  statusOf(taskId: string): TaskStatus {
    return this.state()?.tasks.get(taskId)?.status ?? 'candidate';
  }

  unconfirmedFindingsOf(taskId: string): number {
    // No findings event on the task: no patch is hashed.
    if (!this.findings || (this.state()?.tasks.get(taskId)?.findings.length ?? 0) === 0) return 0;
    return unconfirmedCount(this.findings(taskId));
  }

  changed(taskIds: string[] | undefined): void {
    this.emitter.fire(taskIds);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
