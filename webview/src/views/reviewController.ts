// The review part of the task view: the curator's verdicts per (attempt, spec), notes and evidence, suggestions,
// scores, the life cycle and approval, and the keyboard review mode. The host owns every decision: each action is a
// request that answers once the event is on disk; this side keeps the focus, the drafts and what is in flight, so a
// re-render (every `update`) or a failed request loses nothing the curator typed.
import type { CuratorVerdictView, EvidenceLinkView, RequestMethod, RequestParams, ReviewActResult, ReviewView, TaskViewModel } from '../../../src/protocol/messages';
import './review.css';
import type { Ctx } from '../context';
import { oneLine } from '../text';
import { renderReviewBar } from './reviewBar';
import { renderDecisionTab } from './reviewDecision';
import { renderLabelsTab } from './reviewLabels';
import type { Pair, ReviewKeyPress } from './reviewModel';
import { cellOf, firstFocus, keepFocus, nextUnlabelled, pairKey, ReviewDrafts, reviewKeyAction, stepAttempt, stepFocus, unlabelledCount } from './reviewModel';

export const REVIEW_TAB = 'review';
export const DECISION_TAB = 'decision';

/** What the app lends the review views: switching tabs and showing a trajectory step. */
export interface ReviewHooks {
  showTab(id: string): void;
  showStep(column: string, step: number): void;
  /** The open tab of the specs area. */
  currentTab(): string;
}

export class ReviewController {
  readonly drafts = new ReviewDrafts();
  focus: Pair | undefined;
  /** Requests in flight (label keys go on while earlier ones are being written). */
  inFlight = 0;
  showHelp = false;
  /** The field that had the keyboard focus, restored after a re-render, with its selection. */
  private activeField: { id: string; start: number; end: number } | undefined;
  private ctxValue: Ctx | undefined;
  private hooks: ReviewHooks | undefined;
  private taskId = '';
  /** Re-renders the review's own regions in place (set by the tab and bar renders). */
  private readonly renderers = new Map<string, () => void>();
  private advancing = false;

  attach(ctx: Ctx, hooks: ReviewHooks): void {
    this.ctxValue = ctx;
    this.hooks = hooks;
  }

  get ctx(): Ctx {
    if (!this.ctxValue) throw new Error('review view not attached');
    return this.ctxValue;
  }

  get review(): ReviewView | undefined {
    return this.ctxValue?.model().review;
  }

  get hooksOrNone(): ReviewHooks | undefined {
    return this.hooks;
  }

  /** A model arrived: keep drafts of the same task, start over for another, drop sent marks the model now shows. */
  onModel(m: TaskViewModel): void {
    // The app rebuilds every region right after this, in the same turn: a focused field's blur then is no leaving.
    this.markRebuilding();
    const r = m.review;
    if (m.taskId !== this.taskId) {
      this.taskId = m.taskId;
      this.drafts.forTask(m.taskId);
      this.focus = undefined;
      this.activeField = undefined;
      this.advancing = false;
    }
    if (!r) return;
    for (const k of [...this.drafts.sent]) {
      const c = r.cells.find((x) => pairKey(x) === k);
      if (!c || c.mine) this.drafts.sent.delete(k);
    }
    this.focus = keepFocus(r, this.focus);
  }

  /** Tab to open when a task is first shown: the review tab while review mode is on. */
  initialTab(m: TaskViewModel): string | undefined {
    return m.review?.queue ? REVIEW_TAB : undefined;
  }

  // ---- rendering ------------------------------------------------------------------------------------------------

  renderLabels(ctx: Ctx): HTMLElement {
    this.ctxValue = ctx;
    return this.mount('labels', () => renderLabelsTab(this));
  }

  renderDecision(ctx: Ctx): HTMLElement {
    this.ctxValue = ctx;
    return this.mount('decision', () => renderDecisionTab(this));
  }

  /** The bar under the header; null when the task has no review part. */
  renderBar(ctx: Ctx): HTMLElement | null {
    this.ctxValue = ctx;
    if (!ctx.model().review) return null;
    return this.mount('bar', () => renderReviewBar(this));
  }

  /** Builds a region in a holder that can re-render itself in place, and restores the focused field. */
  private mount(name: string, build: () => HTMLElement): HTMLElement {
    const holder = document.createElement('div');
    holder.className = `review-holder review-holder-${name}`;
    const render = () => {
      holder.replaceChildren(build());
      this.restoreField(holder);
    };
    this.renderers.set(name, () => {
      if (holder.isConnected) render();
    });
    render();
    return holder;
  }

  /** True while regions are being rebuilt (this turn): blurs then come from removal, not from the curator. */
  private rebuilding = false;

  private markRebuilding(): void {
    if (this.rebuilding) return;
    this.rebuilding = true;
    queueMicrotask(() => (this.rebuilding = false));
  }

  private rerenderQueued = false;

  /**
   * Re-renders the review regions that are on screen, once per turn however often it is asked: components torn
   * down before their first render trip over themselves (vscode-scrollable's ResizeObserver).
   */
  rerender(): void {
    if (this.rerenderQueued) return;
    this.rerenderQueued = true;
    queueMicrotask(() => {
      this.rerenderQueued = false;
      this.rebuilding = true;
      try {
        for (const r of this.renderers.values()) r();
      } finally {
        this.rebuilding = false;
      }
    });
  }

  /** Registers a text field so the focus and caret survive re-renders. */
  trackField(field: HTMLInputElement | HTMLTextAreaElement, id: string): void {
    field.dataset.field = id;
    const remember = () => {
      this.activeField = { id, start: field.selectionStart ?? field.value.length, end: field.selectionEnd ?? field.value.length };
    };
    field.addEventListener('focus', remember);
    field.addEventListener('input', remember);
    field.addEventListener('keyup', remember);
    field.addEventListener('click', remember);
    field.addEventListener('blur', () => {
      // Removed by a re-render: keep it, the new field takes the focus back. Really left (a click elsewhere, Tab):
      // forget it at once, so the next key is a command again.
      if (!this.rebuilding && this.activeField?.id === id) this.activeField = undefined;
    });
  }

  private restoreField(holder: HTMLElement): void {
    const a = this.activeField;
    if (!a) return;
    // Compared as data, not through a selector: ids hold attempt and spec ids, which may hold anything.
    const f = [...holder.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('[data-field]')].find((x) => x.dataset.field === a.id);
    if (!f) return;
    // After the next frame: the field sits in a split layout's slot, which a fresh component renders only after this
    // turn, and an element not rendered yet cannot take the focus.
    const restore = () => {
      if (!f.isConnected || this.activeField?.id !== a.id) return;
      f.focus({ preventScroll: true });
      try {
        f.setSelectionRange(Math.min(a.start, f.value.length), Math.min(a.end, f.value.length));
      } catch {
        // inputs of some types have no selection
      }
    };
    requestAnimationFrame(() => {
      restore();
      if (document.activeElement !== f) setTimeout(restore, 30);
    });
  }

  blurField(): void {
    this.activeField = undefined;
    const a = document.activeElement;
    if (a instanceof HTMLElement) a.blur();
  }

  // ---- focus ----------------------------------------------------------------------------------------------------

  setFocus(p: Pair | undefined, o: { follow?: boolean } = {}): void {
    const r = this.review;
    if (!r || !p) return;
    this.focus = p;
    // One glance: the attempt's patch and trajectory come forward, the spec lights up in the request.
    if (o.follow !== false) {
      if (this.ctx.state().activeColumn !== p.attempt) this.ctx.actions.activateColumn(p.attempt);
      this.ctx.links.highlight([p.spec]);
    }
    this.rerender();
  }

  // ---- keys -----------------------------------------------------------------------------------------------------

  /** Handles a review key; true when it was one (the app then does nothing else with it). */
  onKey(e: KeyboardEvent, inTextField: boolean): boolean {
    const r = this.review;
    if (!r) return false;
    const tab = this.hooks?.currentTab();
    const reviewMode = r.queue !== undefined;
    if (e.key === 'Escape' && inTextField && this.activeField) {
      this.blurField();
      return true;
    }
    // A text field is being given its focus back after a re-render: a letter typed in between is part of the note,
    // not a command. It is dropped rather than acted on.
    if (!inTextField && this.activeField && (document.activeElement === document.body || document.activeElement === null)) {
      const id = this.activeField.id;
      if (![...document.querySelectorAll<HTMLElement>('[data-field]')].some((x) => x.dataset.field === id)) this.activeField = undefined;
      else if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        return true;
      }
    }
    if (tab !== REVIEW_TAB && !reviewMode) return false;
    const press: ReviewKeyPress = { key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, shiftKey: e.shiftKey, inTextField, reviewMode };
    const a = reviewKeyAction(press);
    if (!a) return false;
    // Enter on a focused button or row means that control, not "submit and next".
    if (a.kind === 'submitNext' && e.target instanceof HTMLElement && e.target.closest('button, vscode-button, [role="button"], [tabindex]:not(body)')) return false;
    e.preventDefault();
    switch (a.kind) {
      case 'verdict':
        this.label(a.verdict);
        break;
      case 'move':
        this.setFocus(stepFocus(r, this.focus, a.delta));
        break;
      case 'attempt':
        this.setFocus(stepAttempt(r, this.focus, a.delta));
        break;
      case 'undo':
        this.undo();
        break;
      case 'note':
        if (tab !== REVIEW_TAB) this.hooks?.showTab(REVIEW_TAB);
        queueMicrotask(() => document.querySelector<HTMLTextAreaElement>('[data-testid="review-note"]')?.focus());
        break;
      case 'help':
        this.showHelp = !this.showHelp;
        this.rerender();
        break;
      case 'skipTask':
        this.queue('skip');
        break;
      case 'submitNext':
        this.queue('next', true);
        break;
    }
    return true;
  }

  // ---- actions ----------------------------------------------------------------------------------------------------

  /**
   * Sends a recording request. The status line says what happened; on failure nothing typed is dropped (drafts stay)
   * and the error shows until the next success.
   */
  async act<M extends RequestMethod>(method: M, params: RequestParams<M>, done: string, onOk?: (r: Extract<ReviewActResult, { ok: true }>) => void): Promise<boolean> {
    this.inFlight++;
    this.rerender();
    try {
      const r = (await this.ctx.host.request(method, params)) as ReviewActResult;
      if (!r.ok) {
        this.ctx.status(`${refusalText(r)}`, true);
        return false;
      }
      this.ctx.status(`${done}: ${oneLine(r.summary, 200)}.`);
      onOk?.(r);
      return true;
    } catch (e) {
      this.ctx.status(`Not recorded: ${e instanceof Error ? e.message : String(e)}`, true);
      return false;
    } finally {
      this.inFlight--;
      this.rerender();
    }
  }

  /** The focused pair's verdict, with its note and evidence; then on to the next unlabelled pair. */
  label(verdict: CuratorVerdictView, pair = this.focus): void {
    const r = this.review;
    if (!r || !pair) return;
    if (!r.viewer) {
      this.ctx.status(r.curatorProblem ? `No curator name: ${r.curatorProblem}` : 'No curator name: set specweave.curator.name.', true);
      return;
    }
    const c = cellOf(r, pair);
    if (!c) return;
    const note = this.drafts.noteOf(c);
    const evidence = this.drafts.evidenceOf(c);
    const key = pairKey(pair);
    this.drafts.sent.add(key);
    const next = nextUnlabelled(r, pair, this.drafts.sent);
    if (next && this.focus && pairKey(this.focus) === key) this.setFocus(next);
    else this.rerender();
    void this.act('label', { attempt: pair.attempt, spec: pair.spec, verdict, ...(note.trim() !== '' ? { note } : {}), evidence }, 'Recorded', () => {
      this.drafts.settled(pair);
      this.maybeAdvance();
    }).then((ok) => {
      if (ok) return;
      // Not on disk: the pair is not labelled; bring the focus back so the curator sees it and can retry.
      this.drafts.sent.delete(key);
      this.setFocus(pair);
    });
  }

  /** Re-records the focused pair's label with the edited note and evidence (its verdict unchanged). */
  saveNote(pair: Pair): void {
    const r = this.review;
    const c = r && cellOf(r, pair);
    if (!c?.mine) {
      this.ctx.status('Choose a verdict first (s, v or u): the note and evidence are recorded with it.', true);
      return;
    }
    const note = this.drafts.noteOf(c);
    void this.act('label', { attempt: pair.attempt, spec: pair.spec, verdict: c.mine.verdict, ...(note.trim() !== '' ? { note } : {}), evidence: this.drafts.evidenceOf(c) }, 'Saved', () => this.drafts.settled(pair));
  }

  /** In review mode, once every pair is labelled and nothing is in flight: submit and go to the next task. */
  private maybeAdvance(): void {
    const r = this.review;
    if (!r?.queue || this.advancing || this.inFlight > 1) return;
    if (unlabelledCount(r, this.drafts.sent) > 0) return;
    this.queue('next', true);
  }

  undo(): void {
    const r = this.review;
    if (!r) return;
    void this.act('undo', {}, 'Undone');
  }

  queue(action: 'next' | 'skip' | 'stop', submit = false): void {
    if (this.advancing && action !== 'stop') return;
    this.advancing = action !== 'stop';
    this.ctx.status(action === 'stop' ? 'Leaving review mode…' : submit ? 'Submitting and moving on…' : 'Moving on…');
    this.ctx.host.request('reviewQueue', { action, ...(submit ? { submit: true } : {}) }).then(
      (r) => {
        // The host shows the next task in this panel (a fresh page); until then, say where things stand.
        if (!r.taskId) this.advancing = false;
        this.ctx.status(r.message ?? (r.taskId ? `Next: ${oneLine(r.taskId, 80)} (${r.remaining} left).` : `${r.remaining} left.`), r.message?.startsWith('Not ') === true);
      },
      (e: unknown) => {
        this.advancing = false;
        this.ctx.status(e instanceof Error ? e.message : String(e), true);
      },
    );
  }

  follow(link: EvidenceLinkView): void {
    switch (link.kind) {
      case 'trajectory_step':
        this.hooks?.showStep(link.attempt, link.step);
        this.ctx.status(`Step ${link.step} of ${oneLine(link.attempt, 80)}.`);
        return;
      case 'spec': {
        this.ctx.links.highlight([link.spec]);
        this.ctx.links.firstRun(link.spec)?.scrollIntoView({ block: 'nearest' });
        const s = this.ctx.model().specs.find((x) => x.id === link.spec);
        this.ctx.status(s ? `${s.id}: ${oneLine(s.text, 200)}` : `Spec ${link.spec} is not in this task.`, !s);
        return;
      }
      default:
        this.ctx.host.request('openEvidence', { link }).then(
          (r) => this.ctx.status(r.message ?? (r.opened ? 'Opened.' : 'Could not open it.'), !r.opened),
          (e: unknown) => this.ctx.status(e instanceof Error ? e.message : String(e), true),
        );
    }
  }

  /** The first pair to focus when none is. */
  ensureFocus(): Pair | undefined {
    const r = this.review;
    if (!r) return undefined;
    this.focus ??= firstFocus(r);
    return this.focus;
  }
}

export function refusalText(r: Extract<ReviewActResult, { ok: false }>): string {
  const what = ['disk_full', 'io', 'locked', 'unavailable'].includes(r.code) ? 'Not recorded' : 'Refused';
  return `${what}: ${oneLine(r.message, 400)}`;
}

/** The one review controller of the page. */
export const reviewController = new ReviewController();
