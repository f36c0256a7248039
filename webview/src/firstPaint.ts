// The task page's first script (bundled alone to dist/firstPaint.js, a few KB, run as the page is parsed): paints the
// first region, the task's title line and its request, from the first message the page carries (the same `init` the
// app reads after it), then starts the rest of the page's code, the app bundle carried inert in the page, once the
// browser has painted. The app then builds the whole view in place of this one. Text goes in as text only (lit-html
// and the request's own view, as the app renders it); nothing here talks to the host.
import { html, render } from 'lit-html';
import { FIRST_MESSAGE_ID, PAGE_BUNDLE_ID, type TaskViewModel } from '../../src/protocol/messages';
import { oneLine } from './text';
import { noticesView, whereLine } from './views/headerLines';
import { requestView } from './views/request';

const script = document.currentScript as HTMLScriptElement | null;

/** The model the page carries, if it is one of this page's task (the app checks it again). */
function firstModel(): TaskViewModel | undefined {
  const block = document.getElementById(FIRST_MESSAGE_ID);
  if (!block) return undefined;
  try {
    const m = JSON.parse(block.textContent ?? '') as { type?: unknown; model?: { taskId?: unknown; request?: unknown } };
    if (m?.type !== 'init' || typeof m.model !== 'object' || m.model === null) return undefined;
    if (m.model.taskId !== document.body.dataset.taskId || !Array.isArray(m.model.request)) return undefined;
    return m.model as TaskViewModel;
  } catch {
    return undefined;
  }
}

/**
 * The title line and the request region, where the app's layout puts them (a popped-out region's page waits for the
 * app); whether they were drawn.
 */
function paint(m: TaskViewModel): boolean {
  const app = document.getElementById('app');
  if (!app || document.body.dataset.region) return false;
  render(
    html`<div class="first-paint" data-testid="first-paint">
      <header class="task-header">
        <div class="title-row">
          <h1 class="task-title">${oneLine(m.title || m.taskId, 200)}</h1>
          <span class="muted small">${`${oneLine(m.status, 40)} · ${oneLine(m.taskId, 120)} · rev ${m.revision}`}</span>
        </div>
        <div class="muted small where">${whereLine(m)}</div>
        ${noticesView(m, false)}
      </header>
      <main class="regions">
        <section class="region first-paint-request">
          <div class="region-title">Request</div>
          <div class="region-body">${requestView(m.request, m.requestTruncated === true)}</div>
        </section>
      </main>
    </div>`,
    app,
  );
  performance.mark('specweave.firstRegion');
  return true;
}

/** Starts the app bundle: a module script with this page's nonce, made from the inert block's text. */
function startBundle(): void {
  const block = document.getElementById(PAGE_BUNDLE_ID);
  if (!block) return;
  const s = document.createElement('script');
  s.type = 'module';
  s.nonce = script?.nonce ?? '';
  s.textContent = block.textContent;
  block.remove();
  document.body.append(s);
}

/** Draws the first region; whatever the model holds (the app normalizes it, this script does not), false on failure. */
function tryPaint(m: TaskViewModel): boolean {
  try {
    return paint(m);
  } catch {
    document.getElementById('app')?.replaceChildren();
    return false;
  }
}

/**
 * Starts the bundle once its block is in the document: this script runs while the page is parsed, before the parser
 * has reached the block after it (started then, the page would never have started).
 */
function startWhenParsed(): void {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', startBundle, { once: true });
  else startBundle();
}

const m = firstModel();
const drawn = m !== undefined && tryPaint(m);
// After the frame that paints the first region (a requestAnimationFrame callback runs before its frame's paint; the
// task after it, after). Nothing drawn, or a page that is not shown (it paints nothing): as soon as it is parsed.
if (drawn && document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(startWhenParsed, 0));
else startWhenParsed();
