// The task's title line, its notices, and the banner of a restricted (untrusted) workspace (a lit-html template: an
// update patches it).
import { html, nothing, type TemplateResult } from 'lit-html';
import type { Ctx } from '../context';
import { oneLine } from '../text';
import { vsBadge, vsButton } from '../ui/controls';
import { errorText } from '../text';
import { noticesView, whereLine } from './headerLines';

export function header(ctx: Ctx, statusLine: HTMLElement): TemplateResult {
  const m = ctx.model();
  // The host runs the same command the keyboard shortcuts run.
  const run = (action: 'nextTask' | 'previousTask'): void => {
    ctx.host.request(action, {}).then(
      (r) => {
        if (!r.ran) ctx.status(r.message ?? 'Not available.');
      },
      (e: unknown) => ctx.status(errorText(e), true),
    );
  };
  const where = whereLine(m);
  return html`<header class="task-header" data-testid="task-header">
    <div class="title-row">
      <h1 class="task-title" data-testid="task-title" title=${oneLine(m.title, 500)}>${oneLine(m.title || m.taskId, 200)}</h1>${vsBadge(oneLine(m.status, 40), 'task-status')}<span
        class="muted small"
        data-testid="task-id"
        >${`${oneLine(m.taskId, 120)} · rev ${m.revision}`}</span
      ><span class="spacer"></span>${m.position
        ? html`<span class="muted small" data-testid="task-position">${`Task ${m.position.index + 1} of ${m.position.total}`}</span>${vsButton('\u2039', () => run('previousTask'), {
              secondary: true,
              testid: 'prev-task',
              title: 'Previous task',
            })}${vsButton('\u203a', () => run('nextTask'), { secondary: true, testid: 'next-task', title: 'Next task' })}`
        : nothing}
    </div>
    <div class="muted small where">${where}</div>
    ${statusLine}
    ${m.protocol !== undefined && m.protocol !== 1
      ? html`<div class="banner warning" data-testid="protocol-mismatch">${`This view expects protocol 1; the extension sent ${String(m.protocol)}. Reload the window after updating.`}</div>`
      : nothing}
    ${!m.trusted
      ? html`<div class="banner warning" data-testid="untrusted-banner">${`Restricted mode: browsing works; anything that runs code is disabled. ${oneLine(m.untrustedReason ?? '', 300)}`}</div>`
      : nothing}
    ${noticesView(m)}
  </header>`;
}
