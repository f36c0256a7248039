// The review part of the task view: the curator's verdicts per (attempt, spec), notes and evidence, suggestions,
// scores, the life cycle and approval, and the keyboard review mode. The host owns every decision: each action is a
// request that answers once the event is on disk; this side keeps the focused pair, the drafts and what is in flight,
// so an `update` or a failed request loses nothing the curator typed. It renders nothing: the review views do.
import type { CuratorVerdictView, EvidenceLinkView, RecordingMethod, RequestParams, ReviewActResult, ReviewView, TaskViewModel } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { oneLine } from '../text';
import type { Pair, ReviewKeyPress } from './reviewModel';
import { cellOf, evidenceKey, evidenceText, findingOf, firstFocus, keepFocus, nextUnlabelled, pairKey, REVIEW_TAB, ReviewDrafts, reviewKeyAction, stepAttempt, stepFocus, unlabelledCount } from './reviewModel';
import { doneText, errorText } from '../text';

/** What the app lends the review views: switching tabs and showing a trajectory step. */
export interface ReviewHooks {
  showTab(id: string): void;
  showStep(column: string, step: number): void;
  /** The open tab of the specs area. */
  currentTab(): string;
}

/**
 * One per page, made by the app and passed to the review views. The views render from it with lit-html, so an
 * update patches the DOM: a focused field keeps its focus, caret and selection without any help from here.
 */
export class ReviewController {
  readonly drafts = new ReviewDrafts();
  focus: Pair | undefined;
  /** Requests in flight (label keys go on while earlier ones are being written). */
  inFlight = 0;
  showHelp = false;
  /** The grid shows every spec (the curator asked for it). */
  showAllGrid = false;
  /** Which kind of link the evidence adder shows. */
  adderKind: Exclude<EvidenceLinkView['kind'], 'finding'> = 'trajectory_step';
  /** The diff-hunk adder's patch and file, chosen in turn (the hunks listed are the file's). */
  adderPatch: 'attempt' | 'gold' | 'tests' = 'attempt';
  adderFile = '';
  private taskId = '';
  private advancing = false;
  private renderQueued = false;

  /** `changed` re-renders the review regions on screen (the app patches them). */
  constructor(
    readonly ctx: Ctx,
    readonly hooks: ReviewHooks,
    private readonly changed: () => void,
  ) {}

  get review(): ReviewView | undefined {
    return this.ctx.model().review;
  }

  /** A model arrived: keep drafts of the same task, start over for another, drop sent marks the model now shows. */
  onModel(m: TaskViewModel): void {
    const r = m.review;
    if (m.taskId !== this.taskId) {
      this.taskId = m.taskId;
      this.drafts.forTask(m.taskId);
      this.focus = undefined;
      this.advancing = false;
      this.showAllGrid = false;
    }
    if (!r) return;
    for (const k of [...this.drafts.sent]) {
      const c = r.cells.find((x) => pairKey(x) === k);
      if (!c || c.mine) this.drafts.sent.delete(k);
    }
    this.focus = keepFocus(r, this.focus);
  }

  /** True when this model starts review mode on the task already shown (the app then shows the review tab). */
  enteredReviewMode(previous: TaskViewModel, m: TaskViewModel): boolean {
    return previous.review?.queue === undefined && m.review?.queue !== undefined;
  }

  /** Tab to open when a task is first shown: the review tab while review mode is on. */
  initialTab(m: TaskViewModel): string | undefined {
    return m.review?.queue ? REVIEW_TAB : undefined;
  }

  /** Re-renders the review regions on screen, once per turn however often it is asked. */
  rerender(): void {
    if (this.renderQueued) return;
    this.renderQueued = true;
    queueMicrotask(() => {
      this.renderQueued = false;
      this.changed();
    });
  }

  blurField(): void {
    const a = document.activeElement;
    if (a instanceof HTMLElement) a.blur();
  }

  // ---- focus ----------------------------------------------------------------------------------------------------

  setFocus(p: Pair | undefined, o: { follow?: boolean } = {}): void {
    const r = this.review;
    if (!r || !p) return;
    // Another pair starts its own link with the step kind: a kind chosen for one pair must not carry over to the next.
    if (!this.focus || pairKey(this.focus) !== pairKey(p)) {
      this.adderKind = 'trajectory_step';
      this.adderPatch = 'attempt';
      this.adderFile = '';
    }
    this.focus = p;
    // One glance: the attempt's patch and trajectory come forward, the spec lights up in the request.
    if (o.follow !== false) {
      if (this.ctx.state().activeColumn !== p.attempt) this.ctx.actions.activateColumn(p.attempt);
      this.ctx.links.highlight([p.spec]);
    }
    this.rerender();
  }

  // ---- citing from where the evidence lives ---------------------------------------------------------------------

  /** The pair a Cite would add to, in words; undefined when there is none (no review, or no curator to record it). */
  citeTarget(): string | undefined {
    const r = this.review;
    if (!r || r.viewer === undefined) return undefined;
    const p = this.focus ?? firstFocus(r);
    return p ? `${p.attempt} \u00d7 ${p.spec}` : undefined;
  }

  /**
   * Adds a link to the focused pair's draft; it is recorded with the pair's verdict (or "Save note and evidence").
   * `note`: the curator's words from where they cited (a gutter comment), added to the pair's draft note.
   */
  cite(link: EvidenceLinkView, note?: string): { ok: boolean; message: string; pair?: { attempt: string; spec: string } } {
    const r = this.review;
    const p = this.focus ?? (r ? firstFocus(r) : undefined);
    const say = (ok: boolean, message: string, pair?: { attempt: string; spec: string }) => {
      this.ctx.status(message, !ok);
      return { ok, message, ...(pair ? { pair } : {}) };
    };
    if (!r || !p) return say(false, 'Nothing to cite it for: this task has no review pair.');
    if (r.viewer === undefined) return say(false, 'Set your curator name first: a citation is recorded with your label.');
    this.focus = p;
    const key = pairKey(p);
    const pair = { attempt: p.attempt, spec: p.spec };
    const cell = cellOf(r, p);
    const words = note?.trim();
    if (cell && words) {
      const had = this.drafts.noteOf(cell);
      if (!had.includes(words)) this.drafts.notes.set(key, had ? `${had}\n${words}` : words);
    }
    const links = cell ? this.drafts.evidenceOf(cell) : [];
    if (links.some((x) => evidenceKey(x) === evidenceKey(link))) {
      this.rerender();
      return say(true, `Already cited on ${p.attempt} \u00d7 ${p.spec}.`, pair);
    }
    this.drafts.evidence.set(key, [...links, link]);
    this.rerender();
    return say(true, `Cited ${evidenceText(link)} on ${p.attempt} \u00d7 ${p.spec}${cell?.mine ? ': save to record it' : ': choose a verdict to record it'}.`, pair);
  }

  // ---- keys -----------------------------------------------------------------------------------------------------

  /** Handles a review key; true when it was one (the app then does nothing else with it). */
  onKey(e: KeyboardEvent, inTextField: boolean): boolean {
    const r = this.review;
    if (!r) return false;
    const tab = this.hooks.currentTab();
    const reviewMode = r.queue !== undefined;
    // Esc leaves a review text field (a note, a reason), so the next key is a command again.
    if (e.key === 'Escape' && inTextField && e.target instanceof HTMLElement && e.target.closest('[data-field]')) {
      this.blurField();
      return true;
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
        // Review mode's keys work on every tab, but a verdict is never given to a pair out of sight: the grid comes
        // forward first, and the next press labels.
        if (tab !== REVIEW_TAB) {
          this.hooks.showTab(REVIEW_TAB);
          this.ctx.status('The review grid is shown again: press the key once more to label the focused pair.');
          break;
        }
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
        if (tab !== REVIEW_TAB) this.hooks.showTab(REVIEW_TAB);
        queueMicrotask(() => document.querySelector<HTMLTextAreaElement>('[data-testid="review-note"]')?.focus());
        break;
      case 'acceptFinding':
        this.acceptFinding();
        break;
      case 'dismissFinding':
        this.dismissFinding();
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
  async act<M extends RecordingMethod>(method: M, params: RequestParams<M>, done: string, onOk?: (r: Extract<ReviewActResult, { ok: true }>) => void): Promise<boolean> {
    this.inFlight++;
    this.rerender();
    try {
      const r: ReviewActResult = await this.ctx.host.request(method, params);
      if (!r.ok) {
        this.ctx.status(`${refusalText(r)}`, true);
        return false;
      }
      this.ctx.status(doneText(done, r.summary));
      onOk?.(r);
      return true;
    } catch (e) {
      this.ctx.status(`Not recorded: ${errorText(e)}`, true);
      return false;
    } finally {
      this.inFlight--;
      this.rerender();
    }
  }

  /**
   * Send to repair: the status first, then the repair agent is asked (the host's Request Repair, which asks for the
   * target and a note). The status alone used to change and nothing else happened.
   */
  async sendToRepair(note?: string, onOk?: () => void): Promise<void> {
    const ok = await this.act('transition', { to: 'needs_repair', ...(note ? { note } : {}) }, 'Sent to repair', onOk);
    if (!ok) return;
    this.ctx.status('Sent to repair: asking the repair agent for a suggestion…');
    try {
      const r = await this.ctx.host.request('requestRepair', {});
      if (!r.ran) this.ctx.status(`Sent to repair. The repair agent was not asked: ${r.message ?? 'not available'}. Use Request Repair on the Repair tab when it is.`, true);
    } catch (e) {
      this.ctx.status(`Sent to repair. The repair agent was not asked: ${errorText(e)}`, true);
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

  /**
   * Accepts the review agent's finding on the pair as the viewer's own label: the host records the finding's judgment
   * with the finding and its citations as evidence (and the pair's note draft). Then on, as after a verdict key.
   */
  acceptFinding(pair = this.focus): void {
    const r = this.review;
    if (!r || !pair) return;
    const f = findingOf(r, pair);
    if (!f) {
      this.ctx.status(`No finding of the review agent on ${oneLine(pair.attempt, 60)} × ${oneLine(pair.spec, 40)}.`, true);
      return;
    }
    if (!r.viewer) {
      this.ctx.status(r.curatorProblem ? `No curator name: ${r.curatorProblem}` : 'No curator name: set specweave.curator.name.', true);
      return;
    }
    const c = cellOf(r, pair);
    const note = c ? this.drafts.noteOf(c) : '';
    const key = pairKey(pair);
    this.drafts.sent.add(key);
    const next = nextUnlabelled(r, pair, this.drafts.sent);
    if (next && this.focus && pairKey(this.focus) === key) this.setFocus(next);
    else this.rerender();
    void this.act('acceptFinding', { findings: f.findings, spec: f.spec, ...(note.trim() !== '' ? { note } : {}) }, 'Accepted as your label', () => {
      this.drafts.settled(pair);
      this.maybeAdvance();
    }).then((ok) => {
      if (ok) return;
      this.drafts.sent.delete(key);
      this.setFocus(pair);
    });
  }

  /** Dismisses the review agent's finding on the pair (a review.dismiss event); the focus stays. */
  dismissFinding(pair = this.focus): void {
    const r = this.review;
    if (!r || !pair) return;
    const f = findingOf(r, pair);
    if (!f) {
      this.ctx.status(`No finding of the review agent on ${oneLine(pair.attempt, 60)} × ${oneLine(pair.spec, 40)}.`, true);
      return;
    }
    void this.act('dismissFinding', { findings: f.findings, spec: f.spec }, 'Dismissed');
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
        this.ctx.status(errorText(e), true);
      },
    );
  }

  /** Review mode starts on the host (it picks the queue and shows its first task in this panel). */
  startReviewMode(): void {
    this.ctx.host.request('startReviewMode', {}).then(
      (x) => {
        if (!x.ran) this.ctx.status(x.message ?? 'Review mode is not available.', true);
      },
      (e: unknown) => this.ctx.status(errorText(e), true),
    );
  }

  follow(link: EvidenceLinkView): void {
    switch (link.kind) {
      case 'trajectory_step':
        this.hooks.showStep(link.attempt, link.step);
        this.ctx.status(`Step ${link.step} of ${oneLine(link.attempt, 80)}.`);
        return;
      case 'finding': {
        const f = this.review?.findings?.find((x) => x.findings === link.findings && x.spec === link.spec);
        if (f) this.setFocus({ attempt: f.attempt, spec: f.spec });
        this.ctx.status(f ? `The review agent's finding on ${oneLine(f.attempt, 60)} × ${oneLine(f.spec, 40)}.` : 'That finding is no longer current (the patch or the spec changed since).', !f);
        return;
      }
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
          (e: unknown) => this.ctx.status(errorText(e), true),
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
