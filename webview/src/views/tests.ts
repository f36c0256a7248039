// The tests: kind, the specs each covers, its source from the test patch, and a jump to it in the patch. A lit-html
// template (tests keyed by id): a push patches the tests that changed, an opened source stays open.
import { html, nothing, type TemplateResult } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import type { TestView } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { capText, oneLine } from '../text';
import { vsBadge } from '../ui/controls';
import { activateKey, uniqueKeys } from '../ui/template';

/** Tests rendered per "show more": a task with hundreds of pass-to-pass tests stays a small DOM. */
const CHUNK = 50;
const MAX_SOURCE = 20_000;

/** The tests of one task; remembers how many are shown and which one was asked for, until the task changes. */
export class TestsView {
  private shown = CHUNK;
  private focused: string | undefined;

  constructor(
    private readonly ctx: Ctx,
    private readonly repaint: () => void,
  ) {}

  /** Shows `testId` (another region asked): listed, marked, its source open, scrolled into view once painted. */
  focus(testId: string | undefined, content: () => HTMLElement | null): void {
    this.focused = testId;
    const i = testId === undefined ? -1 : this.ctx.model().tests.findIndex((t) => t.id === testId);
    if (i >= this.shown) this.shown = i + 1;
    this.repaint();
    if (i < 0) return;
    const item = [...(content()?.querySelectorAll<HTMLElement>('[data-testid="test"]') ?? [])][i];
    if (!item) return;
    const details = item.querySelector('details');
    if (details) details.open = true;
    requestAnimationFrame(() => item.scrollIntoView({ block: 'nearest' }));
  }

  template(): TemplateResult {
    const ctx = this.ctx;
    const m = ctx.model();
    const list = m.tests.slice(0, this.shown);
    const left = m.tests.length - list.length;
    return html`<div class="tests" data-testid="tests">
      ${m.tests.length === 0 ? html`<p class="muted">This task has no tests.</p>` : nothing}
      <div class="test-list">${repeat(
        list,
        uniqueKeys(list, (t) => t.id),
        (t) => testItem(ctx, t, t.id === this.focused),
      )}</div>
      <button
        class="link-button"
        data-testid="tests-show-more"
        ?hidden=${left <= 0}
        @click=${() => {
          this.shown += CHUNK;
          this.repaint();
        }}
      >${`Show ${Math.min(CHUNK, left)} more of ${left}`}</button>
    </div>`;
  }
}

function testItem(ctx: Ctx, t: TestView, focused: boolean): TemplateResult {
  const chip = (id: string): TemplateResult => {
    const show = (): void => ctx.actions.showSpec(id);
    return html`<span class="chip" data-testid="test-spec" data-spec=${id} data-link-spec=${id} tabindex="0" role="button" @click=${show} @keydown=${activateKey(show)}
      >${oneLine(id, 40)}</span
    >`;
  };
  return html`<div class=${`test${t.unmapped ? ' unmapped' : ''}${focused ? ' focused' : ''}`} data-testid="test" data-test=${t.id}>
    <div class="test-head">
      <span class="test-name" title=${oneLine(t.name, 500)}>${oneLine(t.name, 300)}</span>${vsBadge(t.kind === 'fail_to_pass' ? 'fail→pass' : 'pass→pass', 'test-kind')}${t.unmapped
        ? vsBadge('no spec', 'flag-unmapped')
        : nothing}<button
        class="link-button"
        data-testid="open-test"
        title="Open the test patch at this test"
        @click=${(e: Event) => {
          e.stopPropagation();
          ctx.actions.openTest(t.id);
        }}
      >Open in test patch</button>
    </div>
    ${t.specs.length > 0 ? html`<div class="chips">${t.specs.slice(0, 20).map(chip)}</div>` : nothing}
    ${t.source
      ? html`<details class="test-source">
          <summary>${`${oneLine(t.source.file, 200)}:${t.source.patchLine}`}</summary>
          <pre class="code" data-testid="test-source">${capText(t.source.text, MAX_SOURCE)}</pre>
        </details>`
      : html`<div class="muted small">Source not found in the test patch.</div>`}
  </div>`;
}
