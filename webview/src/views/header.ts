// The task's title line, its notices, and the banner of a restricted (untrusted) workspace.
import type { Ctx } from '../context';
import { el } from '../dom';
import { oneLine } from '../text';
import { badge, button } from '../ui/controls';

/** Host commands the header's next/previous task buttons run (the same the keyboard shortcuts run). */
export const TASK_COMMANDS = { next: 'specweave.task.next', previous: 'specweave.task.previous' } as const;

export function renderHeader(ctx: Ctx, statusLine: HTMLElement): HTMLElement {
  const m = ctx.model();
  const run = (command: string) => {
    ctx.host.request('runCommand', { command, args: [] }).then(
      (r) => {
        if (!r.ran) ctx.status(r.message ?? 'Not available.');
      },
      (e: unknown) => ctx.status(e instanceof Error ? e.message : String(e), true),
    );
  };
  const where = [m.repo, m.baseCommit ? `@ ${m.baseCommit.slice(0, 12)}` : '', m.image ? `· ${m.image}` : ''].filter(Boolean).map((x) => oneLine(x, 120)).join(' ');
  const header = el(
    'header',
    { class: 'task-header', testid: 'task-header' },
    el(
      'div',
      { class: 'title-row' },
      el('h1', { class: 'task-title', testid: 'task-title', text: oneLine(m.title || m.taskId, 200), title: m.title }),
      badge(oneLine(m.status, 40), 'task-status'),
      el('span', { class: 'muted small', testid: 'task-id', text: `${oneLine(m.taskId, 120)} · rev ${m.revision}` }),
      el('span', { class: 'spacer' }),
      m.position ? el('span', { class: 'muted small', testid: 'task-position', text: `Task ${m.position.index + 1} of ${m.position.total}` }) : null,
      m.position ? button('\u2039', () => run(TASK_COMMANDS.previous), { secondary: true, testid: 'prev-task', title: 'Previous task' }) : null,
      m.position ? button('\u203a', () => run(TASK_COMMANDS.next), { secondary: true, testid: 'next-task', title: 'Next task' }) : null,
    ),
    el('div', { class: 'muted small where', text: where }),
    statusLine,
  );
  if (m.protocol !== undefined && m.protocol !== 1) {
    header.append(el('div', { class: 'banner warning', testid: 'protocol-mismatch', text: `This view expects protocol 1; the extension sent ${String(m.protocol)}. Reload the window after updating.` }));
  }
  if (!m.trusted) {
    header.append(
      el('div', { class: 'banner warning', testid: 'untrusted-banner', text: `Restricted mode: browsing works; anything that runs code is disabled. ${oneLine(m.untrustedReason ?? '', 300)}` }),
    );
  }
  if (m.notices.length > 0) {
    const list = el('div', { class: 'notices', testid: 'notices' });
    for (const n of m.notices.slice(0, 20)) list.append(el('div', { class: 'banner', testid: 'notice', text: oneLine(n, 500) }));
    if (m.notices.length > 20) list.append(el('div', { class: 'muted small', text: `${m.notices.length - 20} more notices` }));
    header.append(list);
  }
  return header;
}
