// The specs, grouped by category, each with the tests that cover it; specs without a test and tests without a
// spec are flagged. A lit-html template: specs are keyed by id, so a push that changes one spec patches that spec.
import { html, nothing, type TemplateResult } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import type { SpecView, TestView } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { inertText, oneLine } from '../text';
import { vsBadge } from '../ui/controls';
import { activateKey, uniqueKeys } from '../ui/template';

const MAX_CHIPS = 12;

export function specsView(ctx: Ctx): TemplateResult {
  const m = ctx.model();
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
            (s) => specItem(ctx, s, tests),
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

function specItem(ctx: Ctx, s: SpecView, tests: Map<string, TestView>): TemplateResult {
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
        : nothing}${s.dependsOn.length > 0 ? html`<span class="muted small">${`depends on ${s.dependsOn.slice(0, 8).join(', ')}`}</span>` : nothing}
    </div>
    <div class="spec-text">${inertText(s.text.length > 4000 ? `${s.text.slice(0, 4000)}…` : s.text)}</div>
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
