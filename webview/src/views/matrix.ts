// The spec x test matrix: a row per spec, a column per test, a mark where the test covers the spec. Rows of specs
// without a test and columns of tests without a spec are flagged. A lit-html template (rows keyed by spec id).
// Clicking a cell (or Enter/Space on it) toggles that (spec, test) mapping: a `specs.edit` toggle on the revision shown,
// written as a new revision; a refused toggle shows why above the table. Shift-click (or Shift+Enter) on another cell
// of the same row gives every test shown between the last clicked cell and it the state that first cell now has
// (mapped or not): one `map` edit, so one revision and one undo. While a write is out the table says "Writing…" and
// further clicks do nothing.
import { html, nothing, type TemplateResult } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import type { SpecOpView } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { oneLine } from '../text';
import { activateKey, uniqueKeys } from '../ui/template';
import { inertText } from '../text';
import { shortName } from './specs';
import './layout.css';

const cellKey = (spec: string, test: string): string => `${spec}\u0000${test}`;

/** Cells rendered before asking: a task with hundreds of pass-to-pass tests would make a huge table. */
const FIRST_CELLS = 600;

/** The matrix of one task; remembers "show all" until the task changes. */
export class MatrixView {
  private showAll = false;
  private error: string | undefined;
  private busy = false;
  /** The last cell clicked: the start of a shift-click range. */
  private anchor: { spec: string; test: string } | undefined;

  constructor(
    private readonly ctx: Ctx,
    private readonly repaint: () => void,
  ) {}

  /**
   * A click on a cell: toggles it (and makes it the anchor), or with shift gives the range from the anchor of the
   * same row the anchor's state, in one `map` edit; the anchor stays, so further shift-clicks grow or shrink the range.
   */
  private click(e: Event, spec: string, test: string, covers: ReadonlySet<string>, shown: readonly string[]): void {
    if (this.busy) return;
    const a = this.anchor;
    const shift = (e instanceof MouseEvent || e instanceof KeyboardEvent) && e.shiftKey;
    if (shift && a && a.spec === spec && a.test !== test) {
      const i = shown.indexOf(a.test);
      const j = shown.indexOf(test);
      if (i >= 0 && j >= 0) {
        const tests = shown.slice(Math.min(i, j), Math.max(i, j) + 1);
        const want = covers.has(cellKey(spec, a.test));
        const changing = tests.filter((t) => covers.has(cellKey(spec, t)) !== want).length;
        if (changing === 0) {
          this.ctx.status(`${spec}: these ${tests.length} tests are ${want ? 'mapped' : 'unmapped'} already; nothing written.`);
          return;
        }
        void this.write({ op: 'map', spec, mode: want ? 'add' : 'remove', tests }, `${spec}: ${changing} test${changing === 1 ? '' : 's'} ${want ? 'mapped' : 'unmapped'}`);
        return;
      }
    }
    this.anchor = { spec, test };
    void this.write({ op: 'toggle', spec, test }, `${spec} × ${test} toggled`);
  }

  /** Sends one mapping edit through the host; one write at a time. */
  private async write(op: SpecOpView, done: string): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.error = undefined;
    this.repaint();
    try {
      const r = await this.ctx.host.request('specs.edit', { revision: this.ctx.model().revision, op });
      if (r.ok) this.ctx.status(`Revision ${r.to} written: ${done}.`);
      else {
        this.error = r.message;
        this.ctx.status(`Not written: ${r.message}`, true);
      }
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
    this.busy = false;
    this.repaint();
  }

  template(): TemplateResult {
    const ctx = this.ctx;
    const m = ctx.model();
    if (m.specs.length === 0 || m.tests.length === 0) return html`<div class="matrix-wrap" data-testid="matrix"><p class="muted">No specs or no tests: nothing to map.</p></div>`;
    // Tests that cover something first, so the interesting part is inside the first columns.
    const ordered = [...m.tests].sort((a, b) => Number(a.unmapped) - Number(b.unmapped));
    const first = Math.max(10, Math.floor(FIRST_CELLS / m.specs.length));
    const tests = this.showAll ? ordered : ordered.slice(0, first);
    const shown = tests.map((t) => t.id);
    const covers = new Set<string>();
    for (const s of m.specs) for (const t of s.tests) covers.add(cellKey(s.id, t));
    for (const t of m.tests) for (const s of t.specs) covers.add(cellKey(s, t.id));
    return html`<div class=${`matrix-wrap${this.busy ? ' busy' : ''}`} data-testid="matrix" aria-busy=${this.busy ? 'true' : 'false'}>
      <p class="muted small">
        Click a cell to map or unmap that test to that spec; shift-click another cell of the row to give the range the first cell’s state.
        ${this.busy ? html`<span data-testid="matrix-busy">Writing…</span>` : nothing}
      </p>
      ${this.error !== undefined ? html`<div class="spec-edit-error error" role="alert" data-testid="matrix-error">${inertText(this.error.slice(0, 4000))}</div>` : nothing}
      <div class="table-scroll">
        <table class="matrix">
          <thead>
            <tr>
              <th class="corner">spec \\ test</th>
              ${repeat(
                tests,
                uniqueKeys(tests, (t) => t.id),
                (t) => {
                  const full = oneLine(`${t.name}${t.unmapped ? '\n(covers no spec)' : ''}`, 500);
                  return html`<th
                    class=${`test-col${t.unmapped ? ' flagged' : ''}`}
                    data-test=${t.id}
                    title=${full}
                    data-testid="matrix-test"
                    @click=${() => ctx.actions.showTest(t.id)}
                  ><span class="vertical" data-testid="matrix-test-name" title=${full}>${oneLine(shortName(t.name), 40)}</span></th>`;
                },
              )}
            </tr>
          </thead>
          <tbody>
            ${repeat(
              m.specs,
              uniqueKeys(m.specs, (s) => s.id),
              (s) =>
                html`<tr class=${s.uncovered ? 'flagged' : ''} data-spec=${s.id} data-link-spec=${s.id} data-testid="matrix-row">
                  <th class="spec-row-head" title=${oneLine(s.text, 500)} @click=${() => ctx.actions.showSpec(s.id)}>${oneLine(s.id, 40)}</th>${tests.map((t) => {
                    const on = covers.has(cellKey(s.id, t.id));
                    const flip = (e: Event): void => this.click(e, s.id, t.id, covers, shown);
                    return html`<td
                      class=${`matrix-cell${on ? ' on' : ''}`}
                      data-testid="matrix-cell"
                      data-spec=${s.id}
                      data-test=${t.id}
                      data-on=${on ? '1' : '0'}
                      tabindex="0"
                      role="button"
                      aria-pressed=${on ? 'true' : 'false'}
                      title=${oneLine(`${on ? 'Unmap' : 'Map'} ${t.name} ${on ? 'from' : 'to'} ${s.id}`, 500)}
                      @click=${flip}
                      @keydown=${activateKey(flip)}
                    >${on ? '\u25cf' : ''}</td>`;
                  })}
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
      ${!this.showAll && ordered.length > first
        ? html`<button
            class="link-button"
            data-testid="matrix-show-all"
            @click=${() => {
              this.showAll = true;
              this.repaint();
            }}
          >${`Show all ${ordered.length} tests`}</button>`
        : nothing}
    </div>`;
  }
}
