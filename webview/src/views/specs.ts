// The specs, grouped by category, each with the tests that cover it; specs without a test and tests without a
// spec are flagged. A lit-html template: specs are keyed by id, so a push that changes one spec patches that spec.
// Authoring: "Add spec", per spec "Edit" and "Delete" (with a confirm step), on the spec last hovered or focused
// "Move up"/"Move down" (inside its category) and "Split", checkboxes and "Merge selected", "Undo last spec edit";
// each is one `specs.edit` / `specs.undo` request on the revision shown. While it is written the control says
// "Writing…" and every write control is disabled; a refused write shows its message inline, next to the control,
// and what the curator typed stays; labels made before a spec changed are counted as stale on the spec.
import { html, nothing, type TemplateResult } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import { SPEC_CATEGORY_VIEWS } from '../../../src/protocol/messages';
import type { SpecEditReply, SpecOpView, SpecView, TaskViewModel, TestView } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { inertText, oneLine } from '../text';
import { vsBadge } from '../ui/controls';
import { activateKey, uniqueKeys } from '../ui/template';

const MAX_CHIPS = 12;

interface SpecDraft {
  text: string;
  category: string;
  /** dependsOn as the curator types it: a comma list of spec ids. */
  depends: string;
}

/** One part of a split: its text, category, and which of the spec's tests go to it. `key` keeps its form fields. */
interface SplitPart {
  key: number;
  text: string;
  category: string;
  tests: Set<string>;
}

/**
 * Where a refused write's message (and "Writing…") shows: the add form, the merge form, a spec's edit form or delete
 * step, its move buttons, its split form, or the undo button.
 */
type ErrorPlace = 'add' | 'undo' | 'merge' | `spec:${string}` | `move:${string}` | `split:${string}`;

/** Tests a split form offers per part; the rest of a huge spec's tests stay with the first part. */
const SPLIT_TESTS = 200;

/**
 * The full spec order after moving `id` one place up (-1) or down (+1) among the specs of its category (the list
 * shows specs grouped by category, so that is the move a curator sees), or undefined at the end of its group.
 */
export function movedOrder(specs: ReadonlyArray<Pick<SpecView, 'id' | 'category'>>, id: string, dir: -1 | 1): string[] | undefined {
  const s = specs.find((x) => x.id === id);
  if (!s) return undefined;
  const group = specs.filter((x) => x.category === s.category);
  const other = group[group.indexOf(s) + dir];
  if (!other) return undefined;
  const order = specs.filter((x) => x !== s).map((x) => x.id);
  const at = order.indexOf(other.id) + (dir === 1 ? 1 : 0);
  order.splice(at, 0, s.id);
  return order;
}

/** Spec ids from a comma list, blanks dropped. */
export function dependsList(text: string): string[] {
  return text
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

/** Stale labels per spec id (labels made before the spec changed in a later revision), from the review part. */
function staleBySpec(m: TaskViewModel): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of m.review?.cells ?? []) if (c.stale.length > 0) out.set(c.spec, (out.get(c.spec) ?? 0) + c.stale.length);
  return out;
}

/** The specs tab of one task, with its authoring drafts (kept while a write is refused; made afresh per task). */
export class SpecsView {
  private adding: SpecDraft | undefined;
  private readonly editing = new Map<string, SpecDraft>();
  private confirmDelete: string | undefined;
  private readonly splitting = new Map<string, SplitPart[]>();
  private readonly selected = new Set<string>();
  private merging: { text: string; category: string } | undefined;
  private error: { place: ErrorPlace; message: string } | undefined;
  private busy: ErrorPlace | undefined;
  private partKeys = 0;
  private writes: Promise<void> = Promise.resolve();
  /**
   * The spec last hovered or focused: only it shows "Move up", "Move down" and "Split" (few elements for many specs).
   * They come first in the right-aligned actions, so appearing they move neither "Edit" nor "Delete" under the pointer.
   */
  private current: string | undefined;

  constructor(
    private readonly ctx: Ctx,
    private readonly repaint: () => void,
  ) {}

  template(): TemplateResult {
    return specsTemplate(this.ctx, this);
  }

  /** Sends one spec request; the drafts stay until the host wrote it. */
  async send(place: ErrorPlace, ask: (revision: number) => Promise<SpecEditReply>, done: (r: Extract<SpecEditReply, { ok: true }>) => void): Promise<void> {
    if (this.busy) return;
    this.busy = place;
    this.error = undefined;
    this.repaint();
    let r: SpecEditReply;
    try {
      r = await ask(this.ctx.model().revision);
    } catch (e) {
      r = { ok: false, code: 'io', message: e instanceof Error ? e.message : String(e) };
    }
    this.busy = undefined;
    if (r.ok) {
      done(r);
      this.ctx.status(`Revision ${r.to} written${r.changedSpecs.length > 0 ? `: ${r.changedSpecs.slice(0, 8).join(', ')} changed` : ''}.`);
    } else {
      this.error = { place, message: r.message };
      this.ctx.status(`Not written: ${r.message}`, true);
    }
    this.repaint();
  }

  edit(place: ErrorPlace, op: SpecOpView, done: () => void): void {
    if (this.busy) return;
    this.writes = this.send(place, (revision) => this.ctx.host.request('specs.edit', { revision, op }), done);
  }

  // ---- the parts the template reads and changes ----
  get isBusy(): boolean {
    return this.busy !== undefined;
  }
  busyAt(place: ErrorPlace): boolean {
    return this.busy === place;
  }
  errorAt(place: ErrorPlace): string | undefined {
    return this.error?.place === place ? this.error.message : undefined;
  }
  addDraft(): SpecDraft | undefined {
    return this.adding;
  }
  openAdd(): void {
    this.adding ??= { text: '', category: SPEC_CATEGORY_VIEWS[SPEC_CATEGORY_VIEWS.length - 1] ?? 'other', depends: '' };
    this.repaint();
  }
  closeAdd(): void {
    this.adding = undefined;
    if (this.error?.place === 'add') this.error = undefined;
    this.repaint();
  }
  editDraft(id: string): SpecDraft | undefined {
    return this.editing.get(id);
  }
  openEdit(s: SpecView): void {
    if (!this.editing.has(s.id)) this.editing.set(s.id, { text: s.text, category: s.category, depends: s.dependsOn.join(', ') });
    this.repaint();
  }
  closeEdit(id: string): void {
    this.editing.delete(id);
    if (this.error?.place === `spec:${id}`) this.error = undefined;
    this.repaint();
  }
  get deleting(): string | undefined {
    return this.confirmDelete;
  }
  /** Moves a spec inside its category; the focus stays on the spec's move buttons (a keyboard user goes on pressing). */
  move(id: string, dir: -1 | 1): void {
    const order = movedOrder(this.ctx.model().specs, id, dir);
    if (!order || this.busy) return;
    this.edit(`move:${id}`, { op: 'reorder', order }, () => undefined);
    // After the write the buttons are enabled again (send repaints): give the focus back to the one pressed, or to the
    // other when the spec reached the end of its group.
    void this.afterWrite().then(() => {
      const box = document.querySelector(`[data-testid="spec"][data-spec="${CSS.escape(id)}"]`);
      const want = box?.querySelector<HTMLButtonElement>(`[data-testid="spec-move-${dir === -1 ? 'up' : 'down'}"]`);
      const other = box?.querySelector<HTMLButtonElement>(`[data-testid="spec-move-${dir === -1 ? 'down' : 'up'}"]`);
      (want && !want.disabled ? want : other && !other.disabled ? other : undefined)?.focus();
    });
  }
  /** Resolves once the write in flight (if any) is answered and painted. */
  afterWrite(): Promise<void> {
    return this.writes;
  }

  isCurrent(id: string): boolean {
    return this.current === id;
  }
  setCurrent(id: string): void {
    if (this.current === id) return;
    this.current = id;
    this.repaint();
  }

  splitDraft(id: string): SplitPart[] | undefined {
    return this.splitting.get(id);
  }
  openSplit(s: SpecView): void {
    if (!this.splitting.has(s.id)) {
      this.splitting.set(s.id, [
        { key: this.partKeys++, text: s.text, category: s.category, tests: new Set(s.tests.slice(0, SPLIT_TESTS)) },
        { key: this.partKeys++, text: '', category: s.category, tests: new Set() },
      ]);
    }
    this.repaint();
  }
  addPart(s: SpecView): void {
    this.splitting.get(s.id)?.push({ key: this.partKeys++, text: '', category: s.category, tests: new Set() });
    this.repaint();
  }
  removePart(id: string, key: number): void {
    const parts = this.splitting.get(id);
    if (parts && parts.length > 2) this.splitting.set(id, parts.filter((p) => p.key !== key));
    this.repaint();
  }
  closeSplit(id: string): void {
    this.splitting.delete(id);
    if (this.error?.place === `split:${id}`) this.error = undefined;
    this.repaint();
  }

  isSelected(id: string): boolean {
    return this.selected.has(id);
  }
  select(id: string, on: boolean): void {
    if (on) this.selected.add(id);
    else this.selected.delete(id);
    this.repaint();
  }
  /** The selected specs that still exist, in task order. */
  selection(specs: readonly SpecView[]): SpecView[] {
    return specs.filter((s) => this.selected.has(s.id));
  }
  mergeDraft(): { text: string; category: string } | undefined {
    return this.merging;
  }
  openMerge(specs: readonly SpecView[]): void {
    const chosen = this.selection(specs);
    if (chosen.length < 2) return;
    this.merging ??= { text: chosen.map((s) => s.text.trim()).join(' '), category: chosen[0]!.category };
    this.repaint();
  }
  closeMerge(done: boolean): void {
    this.merging = undefined;
    if (done) this.selected.clear();
    if (this.error?.place === 'merge') this.error = undefined;
    this.repaint();
  }

  askDelete(id: string | undefined): void {
    this.confirmDelete = id;
    if (id === undefined && this.error?.place.startsWith('spec:')) this.error = undefined;
    this.repaint();
  }
}

function specsTemplate(ctx: Ctx, v: SpecsView): TemplateResult {
  const m = ctx.model();
  const stale = staleBySpec(m);
  const tests = new Map(m.tests.map((t) => [t.id, t]));
  const uncovered = m.specs.filter((s) => s.uncovered).length;
  const unmapped = m.tests.filter((t) => t.unmapped);
  const groups = new Map<string, SpecView[]>();
  for (const s of m.specs) {
    const list = groups.get(s.category);
    if (list) list.push(s);
    else groups.set(s.category, [s]);
  }
  return html`<div class="specs" data-testid="specs">
    <div class="summary" data-testid="specs-summary">
      ${`${m.specs.length} specs · ${m.tests.length} tests`}${uncovered > 0 ? html`<span class="flag">${`${uncovered} without a test`}</span>` : nothing}${unmapped.length > 0
        ? html`<span class="flag">${`${unmapped.length} tests without a spec`}</span>`
        : nothing}
    </div>
    ${authoringBar(ctx, v)}
    ${m.specs.length === 0 ? html`<p class="muted">This task has no specs.</p>` : nothing}
    ${repeat(
      [...groups],
      ([category]) => category,
      ([category, specs]) => {
        const bad = specs.filter((s) => s.uncovered).length;
        return html`<vscode-collapsible
          .heading=${oneLine(category, 80)}
          .description=${`${specs.length}${bad ? ` · ${bad} without a test` : ''}`}
          .open=${true}
          data-testid="spec-category"
          data-category=${category}
          ><div class="spec-list">${repeat(
            specs,
            uniqueKeys(specs, (s) => s.id),
            (s) => specItem(ctx, v, s, tests, stale.get(s.id) ?? 0),
          )}</div></vscode-collapsible
        >`;
      },
    )}
    ${unmapped.length > 0
      ? html`<div class="unmapped" data-testid="unmapped-tests">
          <div class="section-title">Tests that cover no spec</div>
          ${repeat(
            unmapped.slice(0, 200),
            uniqueKeys(unmapped.slice(0, 200), (t) => t.id),
            (t) => {
              const show = (): void => ctx.actions.showTest(t.id);
              return html`<span
                class="chip flagged"
                data-testid="unmapped-test"
                data-test=${t.id}
                title=${oneLine(t.name, 500)}
                tabindex="0"
                role="button"
                @click=${show}
                @keydown=${activateKey(show)}
                >${oneLine(t.name, 120)}</span
              >`;
            },
          )}${unmapped.length > 200 ? html`<span class="muted">${` +${unmapped.length - 200} more`}</span>` : nothing}
        </div>`
      : nothing}
  </div>`;
}

const stop = (e: Event): void => e.stopPropagation();
const inputValue = (e: Event): string => (e.currentTarget as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement).value;

function errorLine(message: string | undefined, testid: string): TemplateResult | typeof nothing {
  return message === undefined ? nothing : html`<div class="spec-edit-error error" role="alert" data-testid=${testid}>${inertText(message.length > 4000 ? `${message.slice(0, 4000)}…` : message)}</div>`;
}

function categorySelect(value: string, testid: string, onChange: (c: string) => void): TemplateResult {
  const known = (SPEC_CATEGORY_VIEWS as readonly string[]).includes(value);
  return html`<select class="spec-category-select" data-testid=${testid} @change=${(e: Event) => onChange(inputValue(e))}>
    ${known ? nothing : html`<option .value=${value} .selected=${true}>${oneLine(value, 80)}</option>`}
    ${SPEC_CATEGORY_VIEWS.map((c) => html`<option .value=${c} .selected=${c === value}>${c}</option>`)}
  </select>`;
}

/** The form of a new spec or of a spec's edit: text, category, dependsOn; `save` sends it. */
function draftForm(v: SpecsView, d: SpecDraft, o: { prefix: string; save: () => void; cancel: () => void; saveLabel: string; error: string | undefined }): TemplateResult {
  return html`<div class="spec-form" data-testid=${`${o.prefix}-form`} @click=${stop} @keydown=${stop}>
    <textarea
      class="spec-textarea"
      rows="3"
      maxlength="20000"
      placeholder="What an acceptable patch must do"
      data-testid=${`${o.prefix}-text`}
      .value=${d.text}
      @input=${(e: Event) => (d.text = inputValue(e))}
    ></textarea>
    <div class="spec-form-row">
      <label class="small">Category ${categorySelect(d.category, `${o.prefix}-category`, (c) => (d.category = c))}</label>
      <label class="small"
        >Depends on
        <input
          class="spec-depends"
          type="text"
          placeholder="S1, S2"
          data-testid=${`${o.prefix}-depends`}
          .value=${d.depends}
          @input=${(e: Event) => (d.depends = inputValue(e))}
      /></label>
      <button class="spec-button" data-testid=${`${o.prefix}-save`} ?disabled=${v.isBusy} @click=${o.save}>${o.saveLabel}</button>
      <button class="spec-button secondary" data-testid=${`${o.prefix}-cancel`} @click=${o.cancel}>Cancel</button>
    </div>
    ${errorLine(o.error, `${o.prefix}-error`)}
  </div>`;
}

function authoringBar(ctx: Ctx, v: SpecsView): TemplateResult {
  const d = v.addDraft();
  const undo = (): void => void v.send('undo', (revision) => ctx.host.request('specs.undo', { revision }), () => undefined);
  const save = (): void => {
    if (!d) return;
    const dependsOn = dependsList(d.depends);
    v.edit('add', { op: 'add', text: d.text, category: d.category, ...(dependsOn.length > 0 ? { dependsOn } : {}) }, () => v.closeAdd());
  };
  const specs = ctx.model().specs;
  const chosen = v.selection(specs);
  return html`<div class="spec-authoring" data-testid="spec-authoring">
    <div class="spec-authoring-bar">
      ${d ? nothing : html`<button class="spec-button" data-testid="spec-add" @click=${() => v.openAdd()}>Add spec</button>`}
      <button
        class="spec-button secondary"
        data-testid="spec-merge"
        title="Merge the specs checked in the list into the first of them"
        ?disabled=${v.isBusy || chosen.length < 2}
        @click=${() => v.openMerge(specs)}
      >${chosen.length > 0 ? `Merge selected (${chosen.length})` : 'Merge selected'}</button>
      <button class="spec-button secondary" data-testid="spec-undo" ?disabled=${v.isBusy} @click=${undo}>Undo last spec edit</button>
      ${v.isBusy ? html`<span class="muted small" data-testid="spec-bar-busy">Writing…</span>` : nothing}
    </div>
    ${errorLine(v.errorAt('undo'), 'spec-undo-error')}
    ${d ? draftForm(v, d, { prefix: 'spec-add', save, cancel: () => v.closeAdd(), saveLabel: 'Add', error: v.errorAt('add') }) : nothing}
    ${mergeForm(v, chosen)}
  </div>`;
}

/** "Merge selected": the merged text (prefilled with the texts joined) and category; the first spec keeps its id. */
function mergeForm(v: SpecsView, chosen: readonly SpecView[]): TemplateResult | typeof nothing {
  const d = v.mergeDraft();
  if (!d) return nothing;
  const [keep] = chosen;
  const ids = chosen.map((s) => oneLine(s.id, 60)).join(', ');
  const save = (): void => {
    if (!keep || chosen.length < 2) return;
    v.edit('merge', { op: 'merge', specs: chosen.map((s) => s.id), text: d.text, ...(d.category !== keep.category ? { category: d.category } : {}) }, () => v.closeMerge(true));
  };
  return html`<div class="spec-form" data-testid="spec-merge-form" @keydown=${stop}>
    <div class="small">${keep && chosen.length >= 2
      ? `Merge ${ids} into ${oneLine(keep.id, 60)}: the others are deleted, their tests and dependents move to ${oneLine(keep.id, 60)}.`
      : 'Check two specs or more in the list to merge them.'}</div>
    <textarea class="spec-textarea" rows="3" maxlength="20000" data-testid="spec-merge-text" .value=${d.text} @input=${(e: Event) => (d.text = inputValue(e))}></textarea>
    <div class="spec-form-row">
      <label class="small">Category ${categorySelect(d.category, 'spec-merge-category', (c) => (d.category = c))}</label>
      <button class="spec-button" data-testid="spec-merge-save" ?disabled=${v.isBusy || chosen.length < 2} @click=${save}>Merge</button>
      <button class="spec-button secondary" data-testid="spec-merge-cancel" @click=${() => v.closeMerge(false)}>Cancel</button>
      ${v.busyAt('merge') ? busyNote() : nothing}
    </div>
    ${errorLine(v.errorAt('merge'), 'spec-merge-error')}
  </div>`;
}

const busyNote = (): TemplateResult => html`<span class="muted small" data-testid="spec-busy">Writing…</span>`;

/** "Split": two parts or more, the first prefilled with the spec's text; per part a category and the tests it takes. */
function splitForm(v: SpecsView, s: SpecView, parts: SplitPart[], tests: Map<string, TestView>): TemplateResult {
  const offered = s.tests.slice(0, SPLIT_TESTS);
  const place = `split:${s.id}` as const;
  const save = (): void => {
    const shown = new Set(offered);
    const op: Extract<SpecOpView, { op: 'split' }> = {
      op: 'split',
      spec: s.id,
      parts: parts.map((p, i) => ({
        text: p.text,
        ...(p.category !== s.category ? { category: p.category } : {}),
        // Tests beyond the ones offered stay with the first part.
        tests: s.tests.filter((t) => p.tests.has(t) || (i === 0 && !shown.has(t))),
      })),
    };
    v.edit(place, op, () => v.closeSplit(s.id));
  };
  return html`<div class="spec-form spec-split" data-testid="spec-split-form" @click=${stop} @keydown=${stop}>
    ${repeat(
      parts,
      (p) => p.key,
      (p, i) => html`<fieldset class="spec-split-part" data-testid="spec-split-part" data-part=${i}>
        <legend class="small">${i === 0 ? `Part 1 (keeps ${oneLine(s.id, 60)})` : `Part ${i + 1} (a new spec)`}</legend>
        <textarea
          class="spec-textarea"
          rows="2"
          maxlength="20000"
          placeholder="What this part requires"
          data-testid="spec-split-text"
          .value=${p.text}
          @input=${(e: Event) => (p.text = inputValue(e))}
        ></textarea>
        <div class="spec-form-row">
          <label class="small">Category ${categorySelect(p.category, 'spec-split-category', (c) => (p.category = c))}</label>
          ${offered.map(
            (t) => html`<label class="small" title=${oneLine(tests.get(t)?.name ?? t, 500)}
              ><input
                type="checkbox"
                data-testid="spec-split-test"
                data-test=${t}
                .checked=${p.tests.has(t)}
                @change=${(e: Event) => ((e.currentTarget as HTMLInputElement).checked ? p.tests.add(t) : p.tests.delete(t))}
              />${oneLine(shortName(tests.get(t)?.name ?? t), 60)}</label
            >`,
          )}
          ${parts.length > 2 && i > 0 ? html`<button class="link-button" data-testid="spec-split-remove-part" @click=${() => v.removePart(s.id, p.key)}>Remove</button>` : nothing}
        </div>
      </fieldset>`,
    )}
    ${s.tests.length === 0 ? html`<div class="muted small">This spec has no tests to share out.</div>` : nothing}
    ${s.tests.length > offered.length ? html`<div class="muted small">${`The other ${s.tests.length - offered.length} tests stay with part 1.`}</div>` : nothing}
    <div class="spec-form-row">
      <button class="spec-button secondary" data-testid="spec-split-add-part" @click=${() => v.addPart(s)}>Add part</button>
      <button class="spec-button" data-testid="spec-split-save" ?disabled=${v.isBusy} @click=${save}>Split</button>
      <button class="spec-button secondary" data-testid="spec-split-cancel" @click=${() => v.closeSplit(s.id)}>Cancel</button>
      ${v.busyAt(place) ? busyNote() : nothing}
    </div>
    ${errorLine(v.errorAt(place), 'spec-split-error')}
  </div>`;
}

function specItem(ctx: Ctx, v: SpecsView, s: SpecView, tests: Map<string, TestView>, staleLabels: number): TemplateResult {
  const chip = (id: string): TemplateResult => {
    const t = tests.get(id);
    const show = (e: Event): void => {
      e.stopPropagation();
      ctx.actions.showTest(id);
    };
    return html`<span
      class="chip"
      data-testid="spec-test"
      data-test=${id}
      title=${oneLine(t?.name ?? id, 500)}
      tabindex="0"
      role="button"
      @click=${show}
      @keydown=${activateKey(show)}
      >${oneLine(t ? shortName(t.name) : id, 60)}</span
    >`;
  };
  const draft = v.editDraft(s.id);
  const split = v.splitDraft(s.id);
  const all = ctx.model().specs;
  const canUp = movedOrder(all, s.id, -1) !== undefined;
  const canDown = movedOrder(all, s.id, 1) !== undefined;
  const busyHere = v.busyAt(`move:${s.id}`) || v.busyAt(`spec:${s.id}`);
  return html`<div
    class=${`spec${s.uncovered ? ' uncovered' : ''}${s.stated ? ' stated-spec' : ''}`}
    data-testid="spec"
    data-spec=${s.id}
    data-link-spec=${s.id}
    tabindex="0"
    @click=${() => ctx.actions.showSpec(s.id)}
    @mouseenter=${() => v.setCurrent(s.id)}
    @focusin=${() => v.setCurrent(s.id)}
  >
    <div class="spec-head">
      <input
        type="checkbox"
        class="spec-select"
        data-testid="spec-select"
        aria-label=${`Select ${oneLine(s.id, 60)} to merge`}
        title="Select to merge"
        .checked=${v.isSelected(s.id)}
        @click=${stop}
        @change=${(e: Event) => v.select(s.id, (e.currentTarget as HTMLInputElement).checked)}
      /><span class="spec-id">${oneLine(s.id, 60)}</span>${s.uncovered ? vsBadge('no test', 'flag-uncovered') : nothing}${!s.stated
        ? html`<span class="muted small" data-testid="flag-unstated">not found in the request</span>`
        : nothing}${s.dependsOn.length > 0 ? html`<span class="muted small">${`depends on ${s.dependsOn.slice(0, 8).join(', ')}`}</span>` : nothing}${staleLabels > 0
        ? html`<span class="flag stale-flag" data-testid="spec-stale" title="Labels made before this spec changed: shown in the review, no longer counted">${`${staleLabels} stale label${staleLabels === 1 ? '' : 's'}`}</span>`
        : nothing}
      ${busyHere ? busyNote() : nothing}
      ${v.isCurrent(s.id) || busyHere
        ? html`<button class="link-button" data-testid="spec-move-up" title="Move up in its category" ?disabled=${v.isBusy || !canUp} @click=${(e: Event) => (stop(e), v.move(s.id, -1))}>Move up</button>
            <button class="link-button" data-testid="spec-move-down" title="Move down in its category" ?disabled=${v.isBusy || !canDown} @click=${(e: Event) => (stop(e), v.move(s.id, 1))}>Move down</button>`
        : nothing}
      ${split || !v.isCurrent(s.id) ? nothing : html`<button class="link-button" data-testid="spec-split" @click=${(e: Event) => (stop(e), v.openSplit(s))}>Split</button>`}
      ${draft ? nothing : html`<button class="link-button" data-testid="spec-edit" @click=${(e: Event) => (stop(e), v.openEdit(s))}>Edit</button>`}
      <button class="link-button" data-testid="spec-delete" @click=${(e: Event) => (stop(e), v.askDelete(s.id))}>Delete</button>
    </div>
    ${errorLine(v.errorAt(`move:${s.id}`), 'spec-move-error')}
    ${split ? splitForm(v, s, split, tests) : nothing}
    ${v.deleting === s.id
      ? html`<div class="spec-confirm" data-testid="spec-delete-confirm" @click=${stop}>
          <span>${`Delete ${oneLine(s.id, 60)}? Its labels stay readable in the history.`}</span>
          <button class="spec-button danger" data-testid="spec-delete-yes" ?disabled=${v.isBusy} @click=${() => v.edit(`spec:${s.id}`, { op: 'delete', spec: s.id }, () => v.askDelete(undefined))}>Delete</button>
          <button class="spec-button secondary" data-testid="spec-delete-no" @click=${() => v.askDelete(undefined)}>Keep</button>
          ${errorLine(v.errorAt(`spec:${s.id}`), 'spec-delete-error')}
        </div>`
      : nothing}
    ${draft
      ? draftForm(v, draft, {
          prefix: 'spec-edit',
          saveLabel: 'Save',
          cancel: () => v.closeEdit(s.id),
          error: v.deleting === s.id ? undefined : v.errorAt(`spec:${s.id}`),
          save: () => {
            const dependsOn = dependsList(draft.depends);
            const op: Extract<SpecOpView, { op: 'edit' }> = { op: 'edit', spec: s.id };
            if (draft.text !== s.text) op.text = draft.text;
            if (draft.category !== s.category) op.category = draft.category;
            if (dependsOn.join(',') !== s.dependsOn.join(',')) op.dependsOn = dependsOn;
            v.edit(`spec:${s.id}`, op, () => v.closeEdit(s.id));
          },
        })
      : html`<div class="spec-text">${inertText(s.text.length > 4000 ? `${s.text.slice(0, 4000)}…` : s.text)}</div>`}
    ${s.tests.length > 0
      ? html`<div class="chips">
          ${s.tests.slice(0, MAX_CHIPS).map(chip)}${s.tests.length > MAX_CHIPS ? html`<span class="muted small">${`+${s.tests.length - MAX_CHIPS} more`}</span>` : nothing}
        </div>`
      : nothing}
  </div>`;
}

/** The last part of a test id, which is what tells tests apart (`tests/x.py::TestA::test_b` -> `TestA::test_b`). */
export function shortName(name: string): string {
  const parts = name.split('::');
  return parts.length > 2 ? parts.slice(-2).join('::') : (parts.at(-1) ?? name);
}
