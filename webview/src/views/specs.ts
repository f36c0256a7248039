// The specs, grouped by category, each with the tests that cover it; specs without a test and tests without a
// spec are flagged. A lit-html template: specs are keyed by id, so a push that changes one spec patches that spec.
// Authoring: "Add spec", per spec "Edit" and "Delete" (with a confirm step), "Undo last spec edit"; each is a
// `specs.edit` / `specs.undo` request on the revision shown. A refused write shows its message inline, next to the
// form, and the text the curator typed stays; labels made before a spec changed are counted as stale on the spec.
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

/** Where a refused write's message shows: the add form, a spec's edit form or delete step, or the undo button. */
type ErrorPlace = 'add' | 'undo' | `spec:${string}`;

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
  private error: { place: ErrorPlace; message: string } | undefined;
  private busy = false;

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
    this.busy = true;
    this.error = undefined;
    this.repaint();
    let r: SpecEditReply;
    try {
      r = await ask(this.ctx.model().revision);
    } catch (e) {
      r = { ok: false, code: 'io', message: e instanceof Error ? e.message : String(e) };
    }
    this.busy = false;
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
    void this.send(place, (revision) => this.ctx.host.request('specs.edit', { revision, op }), done);
  }

  // ---- the parts the template reads and changes ----
  get isBusy(): boolean {
    return this.busy;
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
  return html`<div class="spec-authoring" data-testid="spec-authoring">
    <div class="spec-authoring-bar">
      ${d ? nothing : html`<button class="spec-button" data-testid="spec-add" @click=${() => v.openAdd()}>Add spec</button>`}
      <button class="spec-button secondary" data-testid="spec-undo" ?disabled=${v.isBusy} @click=${undo}>Undo last spec edit</button>
      ${v.isBusy ? html`<span class="muted small" data-testid="spec-busy">Writing…</span>` : nothing}
    </div>
    ${errorLine(v.errorAt('undo'), 'spec-undo-error')}
    ${d ? draftForm(v, d, { prefix: 'spec-add', save, cancel: () => v.closeAdd(), saveLabel: 'Add', error: v.errorAt('add') }) : nothing}
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
  return html`<div
    class=${`spec${s.uncovered ? ' uncovered' : ''}${s.stated ? ' stated-spec' : ''}`}
    data-testid="spec"
    data-spec=${s.id}
    data-link-spec=${s.id}
    tabindex="0"
    @click=${() => ctx.actions.showSpec(s.id)}
  >
    <div class="spec-head">
      <span class="spec-id">${oneLine(s.id, 60)}</span>${s.uncovered ? vsBadge('no test', 'flag-uncovered') : nothing}${!s.stated
        ? html`<span class="muted small" data-testid="flag-unstated">not found in the request</span>`
        : nothing}${s.dependsOn.length > 0 ? html`<span class="muted small">${`depends on ${s.dependsOn.slice(0, 8).join(', ')}`}</span>` : nothing}${staleLabels > 0
        ? html`<span class="flag stale-flag" data-testid="spec-stale" title="Labels made before this spec changed: shown in the review, no longer counted">${`${staleLabels} stale label${staleLabels === 1 ? '' : 's'}`}</span>`
        : nothing}
      <span class="spec-actions">
        ${draft ? nothing : html`<button class="link-button" data-testid="spec-edit" @click=${(e: Event) => (stop(e), v.openEdit(s))}>Edit</button>`}
        <button class="link-button" data-testid="spec-delete" @click=${(e: Event) => (stop(e), v.askDelete(s.id))}>Delete</button>
      </span>
    </div>
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
