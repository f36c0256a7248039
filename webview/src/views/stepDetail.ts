// The selected step in full: header, tool calls, edited files (each opens its diff), and the text. Long texts are
// folded to the host's preview; "Show more" fetches the real text in slices. A search hit shows the text around
// the match with the match marked.
import { MAX_TEXT_SLICE, type SearchHit, type StepView } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { clear, el } from '../dom';
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
function editView(e: { path?: string; old: string; new: string }): HTMLElement {
  const box = el('pre', { class: 'code tool-edit', testid: 'tool-edit' });
  if (e.path) box.append(el('div', { class: 'tool-edit-path muted', text: inertText(oneLine(e.path, 300)) }));
  const lines = (s: string) => (s === '' ? [] : s.split('\n')).slice(0, 200);
  for (const l of lines(e.old)) box.append(el('div', { class: 'tool-edit-del', text: inertText(`- ${l}`) }));
  for (const l of lines(e.new)) box.append(el('div', { class: 'tool-edit-add', text: inertText(`+ ${l}`) }));
  return box;
}

export class StepDetail {
  readonly element = el('div', { class: 'step-detail', testid: 'step-detail' });
  private token = 0;
  private column: string | undefined;
  private step: StepView | undefined;
  /** Raw text loaded from offset 0 (undefined while only the preview is shown). */
  private loaded: string | undefined;
  private pre: HTMLElement | undefined;
  private foldLine: HTMLElement | undefined;

  constructor(private readonly ctx: Ctx) {
    this.empty('Select a step to see it in full.');
  }

  get shown(): { column: string | undefined; step: number | undefined } {
    return { column: this.column, step: this.step?.index };
  }

  empty(message: string): void {
    this.token++;
    this.column = undefined;
    this.step = undefined;
    clear(this.element);
    this.element.append(el('p', { class: 'muted', text: message }));
  }

  show(column: string, step: StepView, hit?: SearchHit): void {
    const token = ++this.token;
    this.column = column;
    this.step = step;
    this.loaded = undefined;
    clear(this.element);
    this.element.append(this.header(step));
    if (step.edits && step.edits.length > 0) {
      const edits = el('div', { class: 'step-edits' }, el('span', { class: 'muted', text: 'Edited: ' }));
      for (const path of step.edits.slice(0, 50)) {
        const b = el('button', { class: 'link-button', testid: 'step-edit', data: { path }, text: oneLine(path, 200), title: `Open the diff of ${path} in this attempt` });
        b.addEventListener('click', () => this.ctx.actions.openDiff(column, path));
        edits.append(b);
      }
      this.element.append(edits);
    }
    const calls: Array<{ name: HTMLElement; args: HTMLElement }> = [];
    const atHitFirst = hit && hit.column === column && hit.step === step.index ? hit : undefined;
    (step.toolCalls ?? []).slice(0, 50).forEach((t, i) => {
      const raw = capText(String(t.arguments ?? ''), MAX_ARGS);
      // Arguments that are JSON read better indented; a hit in them is marked at its offset in the text as sent.
      const shown = atHitFirst?.toolCall === i ? raw : (prettyJson(raw) ?? raw);
      const name = el('span', { class: 'tool-name-text', text: oneLine(t.name, 120) });
      const args = el('pre', { class: 'code tool-args', testid: 'tool-args', text: inertText(shown) });
      calls.push({ name, args });
      const edit = editOf(raw);
      this.element.append(el('div', { class: 'tool-call', testid: 'tool-call' }, el('div', { class: 'tool-name' }, '\u2699 ', name), ...(edit ? [editView(edit)] : []), args));
    });
    this.pre = el('pre', { class: 'step-text', testid: 'step-text' });
    this.foldLine = el('div', { class: 'fold-line' });
    this.element.append(this.pre, this.foldLine);
    const atHit = atHitFirst;
    const call = atHit?.toolCall !== undefined ? calls[atHit.toolCall] : undefined;
    if (atHit && call) {
      // The match is in a tool call, shown whole above the text: mark it there (the text below is the step's own).
      this.showPreview();
      this.markToolCall(step, atHit, call);
    } else if (atHit && atHit.toolCall === undefined) void this.showHit(token, column, step, atHit);
    else this.showPreview();
  }

  /** Marks a match in a tool call's name or arguments; arguments longer than the page sent are marked in the excerpt. */
  private markToolCall(step: StepView, hit: SearchHit, call: { name: HTMLElement; args: HTMLElement }): void {
    const t = step.toolCalls?.[hit.toolCall!];
    const field = hit.field === 'name' ? call.name : call.args;
    const full = hit.field === 'name' ? String(t?.name ?? '') : capText(String(t?.arguments ?? ''), MAX_ARGS);
    const inShown = hit.start + hit.length <= full.length && full.slice(hit.start, hit.start + hit.length).length === hit.length;
    if (inShown) this.fillMarked(field, full, hit.start, hit.length, false, false);
    else this.fillMarked(field, hit.excerpt, hit.excerptStart, hit.length, true, true);
  }

  /** Enter on a step: unfold it further. */
  expand(): void {
    if (this.step && this.isFolded()) void this.more();
  }

  private header(s: StepView): HTMLElement {
    const parts = [`Step ${s.index}`, `${formatCount(s.length)} characters`, `${s.lines} lines`];
    if (s.costUsd !== undefined) parts.push(formatCost(s.costUsd));
    if (s.timestamp) parts.push(oneLine(s.timestamp, 40));
    const head = el('div', { class: 'step-header', testid: 'step-detail-header' }, el('span', { class: `step-kind kind-${s.kind}`, text: s.kind }), ` ${parts.join(' \u00b7 ')}`);
    const column = this.column;
    const target = this.ctx.actions.citeTarget();
    if (column !== undefined && target !== undefined) {
      head.append(
        ' ',
        button('Cite', () => this.ctx.actions.citeStep(column, s.index), {
          secondary: true,
          testid: 'step-cite',
          title: oneLine(`Link this step as evidence on ${target} (recorded with its verdict)`, 200),
        }),
      );
    }
    return head;
  }

  private isFolded(): boolean {
    const s = this.step;
    if (!s) return false;
    const have = this.loaded === undefined ? (s.preview ?? '').length : this.loaded.length;
    return have < s.length && have < MAX_DETAIL_CHARS;
  }

  private showPreview(): void {
    const s = this.step;
    if (!s || !this.pre) return;
    this.pre.textContent = inertText(s.preview ?? '');
    this.renderFold();
  }

  private renderFold(): void {
    const s = this.step;
    const line = this.foldLine;
    if (!s || !line) return;
    clear(line);
    const have = this.loaded === undefined ? (s.preview ?? '').length : this.loaded.length;
    if (have >= s.length) return;
    line.append(el('span', { class: 'muted', testid: 'fold-status', text: `Showing ${formatCount(Math.min(have, s.length))} of ${formatCount(s.length)} characters` }));
    if (this.isFolded()) {
      line.append(button('Show more', () => void this.more(), { secondary: true, testid: 'step-expand', title: `Load the next ${formatCount(MAX_TEXT_SLICE)} characters` }));
    } else {
      line.append(el('span', { class: 'muted', text: ` (the detail holds at most ${formatCount(MAX_DETAIL_CHARS)} characters)` }));
    }
  }

  private async more(): Promise<void> {
    const s = this.step;
    const column = this.column;
    if (!s || column === undefined) return;
    const token = this.token;
    const offset = this.loaded?.length ?? 0;
    const length = Math.min(MAX_TEXT_SLICE, s.length - offset, MAX_DETAIL_CHARS - offset);
    if (length <= 0) return;
    this.foldLine?.classList.add('busy');
    try {
      const r = await this.ctx.host.request('getStepText', { column, step: s.index, offset, length });
      if (token !== this.token) return;
      this.loaded = (this.loaded ?? '') + String(r.text ?? '');
      if (this.pre) this.pre.textContent = inertText(this.loaded);
      this.renderFold();
    } catch (e) {
      if (token === this.token) this.ctx.status(`Could not load the step text: ${errorText(e)}`, true);
    } finally {
      this.foldLine?.classList.remove('busy');
    }
  }

  private async showHit(token: number, column: string, s: StepView, hit: SearchHit): Promise<void> {
    const pre = this.pre;
    if (!pre) return;
    // Until the text around the match arrives, the host's excerpt stands in.
    this.fillMarked(pre, hit.excerpt, hit.excerptStart, hit.length, false, false);
    const offset = Math.max(0, hit.start - HIT_CONTEXT);
    const length = Math.max(1, Math.min(MAX_TEXT_SLICE, hit.length + 2 * HIT_CONTEXT));
    try {
      const r = await this.ctx.host.request('getStepText', { column, step: s.index, offset, length });
      if (token !== this.token) return;
      const text = String(r.text ?? '');
      const total = Number.isInteger(r.total) ? r.total : s.length;
      this.fillMarked(pre, text, hit.start - offset, hit.length, offset > 0, offset + text.length < total);
    } catch (e) {
      if (token === this.token) this.ctx.status(`Could not load the text around the hit: ${errorText(e)}`, true);
    }
    if (token !== this.token || !this.foldLine) return;
    clear(this.foldLine);
    this.foldLine.append(
      el('span', { class: 'muted', text: `Match at character ${formatCount(hit.start)} of ${formatCount(s.length)}. ` }),
      button('Show the step from its start', () => this.show(column, s), { secondary: true, testid: 'step-from-start' }),
    );
  }

  private fillMarked(pre: HTMLElement, text: string, start: number, length: number, cutBefore: boolean, cutAfter: boolean): void {
    const { before, match, after } = splitAt(text, start, length);
    clear(pre);
    const mark = el('mark', { class: 'hit-mark', testid: 'hit-mark', text: inertText(match) });
    pre.append(`${cutBefore ? '\u2026' : ''}${inertText(before)}`, mark, `${inertText(after)}${cutAfter ? '\u2026' : ''}`);
    requestAnimationFrame(() => this.reveal(mark));
  }

  /**
   * Scrolls the mark to the middle of each box that scrolls between it and the detail pane (the text or arguments
   * box, then the pane itself), and no further: scrollIntoView would also move the panes around the detail.
   */
  private reveal(mark: HTMLElement): void {
    const pane = this.element.closest<HTMLElement>('.detail-pane');
    const boxes: HTMLElement[] = [];
    for (let n = mark.parentElement; n && n !== pane?.parentElement; n = n.parentElement) if (n.scrollHeight > n.clientHeight + 1) boxes.push(n);
    for (const box of boxes) {
      const r = mark.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      box.scrollTop = Math.max(0, box.scrollTop + (r.top - b.top) - (box.clientHeight - r.height) / 2);
    }
  }
}
