// The selected step in full with the rest of its turn around it (its thought, action and observations, one section
// each, the selected one highlighted): header, tool calls, edited files (each opens its diff), and the text. Long
// texts are folded to the host's preview; "Show more" fetches the real text in slices. A search hit shows the text
// around the match with the match marked. A bar on top says the turn and toggles the full-height detail.
import { MAX_TEXT_SLICE, type SearchHit, type StepView } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { clear, el, toggleClass } from '../dom';
import { capText, formatCost, formatCount, inertText, oneLine, splitAt } from '../text';
import { button } from '../ui/controls';
import { errorText } from '../text';

/** Most characters held in the detail: beyond this the text is for the patch/file views, not a <pre>. */
export const MAX_DETAIL_CHARS = 4 * 1024 * 1024;
const HIT_CONTEXT = 1500;
const MAX_ARGS = 20_000;

/** JSON text indented two spaces, or undefined when it is not JSON (or a cut-off piece of it). */
export function prettyJson(text: string): string | undefined {
  const t = text.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return undefined;
  try {
    return JSON.stringify(JSON.parse(t), null, 2);
  } catch {
    return undefined;
  }
}

/** The old and new text of an edit call (`str_replace` and the like: old_str/new_str, old/new), when it is one. */
export function editOf(text: string): { path?: string; old: string; new: string } | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text.trim());
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const old = o.old_str ?? o.old_string ?? o.old;
  const next = o.new_str ?? o.new_string ?? o.new;
  if (typeof old !== 'string' || typeof next !== 'string') return undefined;
  const path = o.path ?? o.file_path ?? o.file;
  return { ...(typeof path === 'string' ? { path } : {}), old, new: next };
}

/** An edit call as a small diff: its old lines, then its new ones (inert text). */
function editView(e: { path?: string; old: string; new: string }, testid: string): HTMLElement {
  const box = el('pre', { class: 'code tool-edit', testid });
  if (e.path) box.append(el('div', { class: 'tool-edit-path muted', text: inertText(oneLine(e.path, 300)) }));
  const lines = (s: string) => (s === '' ? [] : s.split('\n')).slice(0, 200);
  for (const l of lines(e.old)) box.append(el('div', { class: 'tool-edit-del', text: inertText(`- ${l}`) }));
  for (const l of lines(e.new)) box.append(el('div', { class: 'tool-edit-add', text: inertText(`+ ${l}`) }));
  return box;
}

/** What the detail asks of the view around it. */
export interface DetailCallbacks {
  /** The steps of `step`'s turn in order, `step` among them (fetched from the host when not at hand). */
  turnSteps(column: string, step: StepView): Promise<StepView[]>;
  /** Another step of the turn was chosen in the detail. */
  onPick(column: string, step: number): void;
  /** The full-height button. */
  onToggleFull(): void;
}

/** The turn of a step as sent, or undefined when it stands alone (or a host sent something else). */
export function turnOf(s: StepView | undefined): number | undefined {
  const t = s?.turn;
  return Number.isInteger(t) && (t as number) > 0 ? t : undefined;
}

/**
 * One step of the detail. The selected step's section carries the test ids the detail always had (`step-text`,
 * `tool-call`, `fold-status`...); the turn's other steps carry the same ids prefixed `turn-`, so "the step shown" stays
 * one thing to find.
 */
class StepSection {
  readonly element: HTMLElement;
  /** Set when the detail moved on: a slice arriving late is dropped. */
  dead = false;
  /** Raw text loaded from offset 0 (undefined while only the preview is shown). */
  private loaded: string | undefined;
  private readonly pre: HTMLElement;
  private readonly foldLine: HTMLElement;
  private readonly calls: Array<{ name: HTMLElement; args: HTMLElement }> = [];
  private readonly idOf: (name: string) => string;

  constructor(
    private readonly ctx: Ctx,
    readonly column: string,
    readonly step: StepView,
    readonly primary: boolean,
    private readonly cb: { restart(): void; pick(step: number): void },
    hit: SearchHit | undefined,
  ) {
    const id = (name: string) => (primary ? name : `turn-${name}`);
    this.idOf = id;
    this.element = el('section', { class: `turn-step kind-${step.kind}${primary ? ' selected' : ''}`, testid: 'turn-step', data: { step: String(step.index) } });
    this.element.append(this.header(step, id));
    if (step.edits && step.edits.length > 0) {
      const edits = el('div', { class: 'step-edits' }, el('span', { class: 'muted', text: 'Edited: ' }));
      for (const path of step.edits.slice(0, 50)) {
        const b = el('button', { class: 'link-button', testid: id('step-edit'), data: { path }, text: oneLine(path, 200), title: `Open the diff of ${path} in this attempt` });
        b.addEventListener('click', () => this.ctx.actions.openDiff(column, path));
        edits.append(b);
      }
      this.element.append(edits);
    }
    const atHit = hit && hit.column === column && hit.step === step.index ? hit : undefined;
    (step.toolCalls ?? []).slice(0, 50).forEach((t, i) => {
      const raw = capText(String(t.arguments ?? ''), MAX_ARGS);
      // Arguments that are JSON read better indented; a hit in them is marked at its offset in the text as sent.
      const shown = atHit?.toolCall === i ? raw : (prettyJson(raw) ?? raw);
      const name = el('span', { class: 'tool-name-text', text: oneLine(t.name, 120) });
      const args = el('pre', { class: 'code tool-args', testid: id('tool-args'), text: inertText(shown) });
      this.calls.push({ name, args });
      const edit = editOf(raw);
      this.element.append(el('div', { class: 'tool-call', testid: id('tool-call') }, el('div', { class: 'tool-name' }, '\u2699 ', name), ...(edit ? [editView(edit, id('tool-edit'))] : []), args));
    });
    this.pre = el('pre', { class: 'step-text', testid: id('step-text') });
    this.foldLine = el('div', { class: 'fold-line' });
    this.element.append(this.pre, this.foldLine);
    const call = atHit?.toolCall !== undefined ? this.calls[atHit.toolCall] : undefined;
    if (atHit && call) {
      // The match is in a tool call, shown whole above the text: mark it there (the text below is the step's own).
      this.showPreview();
      this.markToolCall(atHit, call);
    } else if (atHit && atHit.toolCall === undefined) void this.showHit(atHit);
    else this.showPreview();
  }

  /** The search-hit mark in this section, if any. */
  get mark(): HTMLElement | null {
    return this.element.querySelector<HTMLElement>('mark.hit-mark');
  }

  /** Enter on a step: unfold it further. */
  expand(): void {
    if (this.isFolded()) void this.more();
  }

  private header(s: StepView, id: (name: string) => string): HTMLElement {
    const parts = [`Step ${s.index}`, `${formatCount(s.length)} characters`, `${s.lines} lines`];
    if (s.costUsd !== undefined) parts.push(formatCost(s.costUsd));
    if (s.timestamp) parts.push(oneLine(s.timestamp, 40));
    const kind = el('span', { class: `step-kind kind-${s.kind}`, text: s.kind });
    const head = el('div', { class: 'step-header', testid: id('step-detail-header') });
    if (this.primary) head.append(kind, ` ${parts.join(' \u00b7 ')}`);
    else {
      // Another step of the turn: its number selects it (in the list too).
      const pick = el('button', { class: 'link-button turn-step-pick', testid: 'turn-step-pick', text: `Step ${s.index}`, title: `Select step ${s.index}` });
      pick.addEventListener('click', () => this.cb.pick(s.index));
      head.append(kind, ' ', pick, ` \u00b7 ${parts.slice(1).join(' \u00b7 ')}`);
    }
    const target = this.ctx.actions.citeTarget();
    if (target !== undefined) {
      head.append(
        ' ',
        button('Cite', () => this.ctx.actions.citeStep(this.column, s.index), {
          secondary: true,
          testid: id('step-cite'),
          title: oneLine(`Link step ${s.index} as evidence on ${target} (recorded with its verdict)`, 200),
        }),
      );
    }
    return head;
  }

  /** Marks a match in a tool call's name or arguments; arguments longer than the page sent are marked in the excerpt. */
  private markToolCall(hit: SearchHit, call: { name: HTMLElement; args: HTMLElement }): void {
    const t = this.step.toolCalls?.[hit.toolCall!];
    const field = hit.field === 'name' ? call.name : call.args;
    const full = hit.field === 'name' ? String(t?.name ?? '') : capText(String(t?.arguments ?? ''), MAX_ARGS);
    const inShown = hit.start + hit.length <= full.length && full.slice(hit.start, hit.start + hit.length).length === hit.length;
    if (inShown) this.fillMarked(field, full, hit.start, hit.length, false, false);
    else this.fillMarked(field, hit.excerpt, hit.excerptStart, hit.length, true, true);
  }

  private isFolded(): boolean {
    const s = this.step;
    const have = this.loaded === undefined ? (s.preview ?? '').length : this.loaded.length;
    return have < s.length && have < MAX_DETAIL_CHARS;
  }

  private showPreview(): void {
    this.pre.textContent = inertText(this.step.preview ?? '');
    this.renderFold();
  }

  private renderFold(): void {
    const s = this.step;
    const line = this.foldLine;
    clear(line);
    const have = this.loaded === undefined ? (s.preview ?? '').length : this.loaded.length;
    if (have >= s.length) return;
    line.append(el('span', { class: 'muted', testid: this.idOf('fold-status'), text: `Showing ${formatCount(Math.min(have, s.length))} of ${formatCount(s.length)} characters` }));
    if (this.isFolded()) {
      line.append(button('Show more', () => void this.more(), { secondary: true, testid: this.idOf('step-expand'), title: `Load the next ${formatCount(MAX_TEXT_SLICE)} characters` }));
    } else {
      line.append(el('span', { class: 'muted', text: ` (the detail holds at most ${formatCount(MAX_DETAIL_CHARS)} characters)` }));
    }
  }

  private async more(): Promise<void> {
    const s = this.step;
    const offset = this.loaded?.length ?? 0;
    const length = Math.min(MAX_TEXT_SLICE, s.length - offset, MAX_DETAIL_CHARS - offset);
    if (length <= 0) return;
    this.foldLine.classList.add('busy');
    try {
      const r = await this.ctx.host.request('getStepText', { column: this.column, step: s.index, offset, length });
      if (this.dead) return;
      this.loaded = (this.loaded ?? '') + String(r.text ?? '');
      this.pre.textContent = inertText(this.loaded);
      this.renderFold();
    } catch (e) {
      if (!this.dead) this.ctx.status(`Could not load the step text: ${errorText(e)}`, true);
    } finally {
      this.foldLine.classList.remove('busy');
    }
  }

  private async showHit(hit: SearchHit): Promise<void> {
    const s = this.step;
    const pre = this.pre;
    // Until the text around the match arrives, the host's excerpt stands in.
    this.fillMarked(pre, hit.excerpt, hit.excerptStart, hit.length, false, false);
    const offset = Math.max(0, hit.start - HIT_CONTEXT);
    const length = Math.max(1, Math.min(MAX_TEXT_SLICE, hit.length + 2 * HIT_CONTEXT));
    try {
      const r = await this.ctx.host.request('getStepText', { column: this.column, step: s.index, offset, length });
      if (this.dead) return;
      const text = String(r.text ?? '');
      const total = Number.isInteger(r.total) ? r.total : s.length;
      this.fillMarked(pre, text, hit.start - offset, hit.length, offset > 0, offset + text.length < total);
    } catch (e) {
      if (!this.dead) this.ctx.status(`Could not load the text around the hit: ${errorText(e)}`, true);
    }
    if (this.dead) return;
    clear(this.foldLine);
    this.foldLine.append(
      el('span', { class: 'muted', text: `Match at character ${formatCount(hit.start)} of ${formatCount(s.length)}. ` }),
      button('Show the step from its start', () => this.cb.restart(), { secondary: true, testid: this.idOf('step-from-start') }),
    );
  }

  private fillMarked(pre: HTMLElement, text: string, start: number, length: number, cutBefore: boolean, cutAfter: boolean): void {
    const { before, match, after } = splitAt(text, start, length);
    clear(pre);
    const mark = el('mark', { class: 'hit-mark', testid: 'hit-mark', text: inertText(match) });
    pre.append(`${cutBefore ? '\u2026' : ''}${inertText(before)}`, mark, `${inertText(after)}${cutAfter ? '\u2026' : ''}`);
    requestAnimationFrame(() => reveal(this.element, mark));
  }
}

/**
 * Scrolls `target` to the middle of each box that scrolls between it and the detail pane (the text or arguments box,
 * the detail's body, the pane itself), and no further: scrollIntoView would also move the panes around the detail.
 * `top` puts it at the top of each box instead (a section, whose start matters more than its middle).
 */
function reveal(from: HTMLElement, target: HTMLElement, top = false): void {
  const pane = from.closest<HTMLElement>('.detail-pane');
  const boxes: HTMLElement[] = [];
  for (let n = target.parentElement; n && n !== pane?.parentElement; n = n.parentElement) if (n.scrollHeight > n.clientHeight + 1) boxes.push(n);
  for (const box of boxes) {
    const r = target.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    const offset = top ? 4 : (box.clientHeight - Math.min(r.height, box.clientHeight)) / 2;
    box.scrollTop = Math.max(0, box.scrollTop + (r.top - b.top) - offset);
  }
}

export class StepDetail {
  readonly element = el('div', { class: 'step-detail turn-detail', testid: 'step-detail' });
  private readonly turnLabel = el('span', { class: 'detail-turn muted', testid: 'detail-turn' });
  private readonly fullButton: HTMLButtonElement;
  private readonly body = el('div', { class: 'turn-body', testid: 'turn-body' });
  private token = 0;
  private column: string | undefined;
  private step: StepView | undefined;
  private sections: StepSection[] = [];

  constructor(
    private readonly ctx: Ctx,
    private readonly cb: DetailCallbacks,
  ) {
    this.fullButton = el('button', { class: 'icon-button detail-full-toggle', testid: 'detail-full', attrs: { 'aria-pressed': 'false' } });
    this.fullButton.addEventListener('click', () => this.cb.onToggleFull());
    this.setFull(false);
    this.element.append(el('div', { class: 'detail-bar' }, this.turnLabel, this.fullButton), this.body);
    this.empty('Select a step to see it in full.');
  }

  get shown(): { column: string | undefined; step: number | undefined } {
    return { column: this.column, step: this.step?.index };
  }

  /** The full-height button's face: what pressing it does next. */
  setFull(on: boolean): void {
    this.fullButton.textContent = on ? '\u2913 Back to the list' : '\u2912 Full height';
    this.fullButton.title = on ? 'Show the step list again (Escape)' : 'Let the detail take the whole trajectories region (Escape returns)';
    this.fullButton.setAttribute('aria-pressed', String(on));
  }

  focusToggle(): void {
    this.fullButton.focus();
  }

  empty(message: string): void {
    this.token++;
    this.column = undefined;
    this.step = undefined;
    this.drop();
    this.turnLabel.textContent = '';
    this.body.append(el('p', { class: 'muted', text: message }));
  }

  show(column: string, step: StepView, hit?: SearchHit): void {
    const token = ++this.token;
    this.column = column;
    this.step = step;
    this.drop();
    const primary = this.section(column, step, true, hit);
    this.body.append(primary.element);
    const turn = turnOf(step);
    this.turnLabel.textContent = turn === undefined ? `Step ${step.index} stands alone` : `Turn ${turn}`;
    if (turn === undefined) return;
    this.cb.turnSteps(column, step).then(
      (steps) => {
        if (token !== this.token) return;
        const at = steps.findIndex((s) => s.index === step.index);
        if (at < 0) return;
        const others = (list: StepView[]) => list.filter((s) => turnOf(s) === turn).map((s) => this.section(column, s, false, undefined));
        const before = others(steps.slice(0, at));
        const after = others(steps.slice(at + 1));
        primary.element.before(...before.map((s) => s.element));
        primary.element.after(...after.map((s) => s.element));
        const all = [...before, primary, ...after];
        this.turnLabel.textContent = `Turn ${turn} \u00b7 ${all.length === 1 ? `step ${step.index}` : `steps ${all[0]!.step.index}\u2013${all.at(-1)!.step.index}`}`;
        toggleClass(this.element, 'in-turn', all.length > 1);
        // The sections above moved the selected one down: bring it (or its hit) back into view.
        requestAnimationFrame(() => {
          if (token !== this.token) return;
          const mark = primary.mark;
          if (mark) reveal(this.element, mark);
          else reveal(this.element, primary.element, true);
        });
      },
      (e: unknown) => {
        if (token === this.token) this.ctx.status(`Could not load the rest of turn ${turn}: ${errorText(e)}`, true);
      },
    );
  }

  /** Enter on a step: unfold it further. */
  expand(): void {
    this.sections.find((s) => s.primary)?.expand();
  }

  private section(column: string, step: StepView, primary: boolean, hit: SearchHit | undefined): StepSection {
    const s = new StepSection(this.ctx, column, step, primary, { restart: () => this.show(column, step), pick: (n) => this.cb.onPick(column, n) }, hit);
    this.sections.push(s);
    return s;
  }

  private drop(): void {
    for (const s of this.sections) s.dead = true;
    this.sections = [];
    toggleClass(this.element, 'in-turn', false);
    clear(this.body);
  }
}
