// The task header's lines that need no control (the place of the task and its notices): shared by the header
// (views/header.ts) and the page's first region (firstPaint.ts), which runs before the controls are defined.
import { html, nothing, type TemplateResult } from 'lit-html';
import type { TaskViewModel } from '../../../src/protocol/messages';
import { oneLine } from '../text';

/** Where the task is: its repository, base commit and image. */
export function whereLine(m: TaskViewModel): string {
  return [m.repo, m.baseCommit ? `@ ${m.baseCommit.slice(0, 12)}` : '', m.image ? `· ${m.image}` : ''].filter(Boolean).map((x) => oneLine(x, 120)).join(' ');
}

/** The task's notices, at most 20 shown; `testids` false for a copy that is not the view's own (the first region's). */
export function noticesView(m: TaskViewModel, testids = true): TemplateResult | typeof nothing {
  return m.notices.length > 0
    ? html`<div class="notices" data-testid=${testids ? 'notices' : nothing}>
        ${m.notices.slice(0, 20).map((n) => html`<div class="banner" data-testid=${testids ? 'notice' : nothing}>${oneLine(n, 500)}</div>`)}${m.notices.length > 20
          ? html`<div class="muted small">${`${m.notices.length - 20} more notices`}</div>`
          : nothing}
      </div>`
    : nothing;
}
