// The request, from the host's inert Markdown blocks (a lit-html template: an update patches it, so a selection or
// the scroll position in the request survives a push that does not change it). Runs that state a spec are marked
// and linked to it (specLinks.ts); links show where they point and go nowhere.
import { html, nothing, type TemplateResult } from 'lit-html';
import type { MdBlock, MdRun } from '../../../src/protocol/messages';
import { inertText, oneLine } from '../text';
import { statesAttr } from './specLinks';

/** Most elements the request may create; a pathological request is cut rather than freezing the view. */
const MAX_ELEMENTS = 1200;
const MAX_DEPTH = 12;
const MAX_CODE = 200_000;

class Budget {
  used = 0;
  cut = false;
  take(n = 1): boolean {
    if (this.used + n > MAX_ELEMENTS) {
      this.cut = true;
      return false;
    }
    this.used += n;
    return true;
  }
}

type Part = TemplateResult | string | typeof nothing;

export function requestView(blocks: readonly MdBlock[], truncated: boolean): TemplateResult {
  const budget = new Budget();
  const body = renderBlocks(blocks, budget, 0);
  return html`<div class="request md" data-testid="request">
    ${body}${blocks.length === 0 ? html`<p class="muted">No request text.</p>` : nothing}${truncated || budget.cut
      ? html`<p class="notice-inline" data-testid="request-truncated">The request is longer than shown here; it was cut for display.</p>`
      : nothing}
  </div>`;
}

function renderBlocks(blocks: readonly MdBlock[], budget: Budget, depth: number): Part[] {
  const out: Part[] = [];
  for (const b of blocks) {
    if (!budget.take()) break;
    out.push(renderBlock(b, budget, depth));
  }
  return out;
}

function renderBlock(b: MdBlock, budget: Budget, depth: number): Part {
  if (depth > MAX_DEPTH) {
    budget.cut = true;
    return nothing;
  }
  switch (b.kind) {
    case 'heading': {
      const level = Math.min(6, Math.max(1, Math.trunc(Number(b.level) || 1)));
      return heading(level, runs(b.runs, budget));
    }
    case 'paragraph':
      return html`<p>${runs(b.runs, budget)}</p>`;
    case 'code': {
      const text = String(b.text ?? '');
      const shown = text.length > MAX_CODE ? `${text.slice(0, MAX_CODE)}\n…` : text;
      return html`<pre class="code" title=${b.lang ? oneLine(`code: ${b.lang}`, 500) : nothing}><code>${inertText(shown)}</code></pre>`;
    }
    case 'list': {
      const items: Part[] = [];
      for (const item of b.items ?? []) {
        if (!budget.take()) break;
        items.push(html`<li>${renderBlocks(item, budget, depth + 1)}</li>`);
      }
      return b.ordered ? html`<ol>${items}</ol>` : html`<ul>${items}</ul>`;
    }
    case 'quote':
      return html`<blockquote>${renderBlocks(b.blocks ?? [], budget, depth + 1)}</blockquote>`;
    case 'rule':
      return html`<hr />`;
    case 'table': {
      const head: Part[] = [];
      for (const cell of b.header ?? []) if (budget.take()) head.push(html`<th>${runs(cell, budget)}</th>`);
      const rows: Part[] = [];
      for (const row of b.rows ?? []) {
        if (!budget.take()) break;
        const cells: Part[] = [];
        for (const cell of row) if (budget.take()) cells.push(html`<td>${runs(cell, budget)}</td>`);
        rows.push(html`<tr>${cells}</tr>`);
      }
      return html`<div class="table-wrap"><table class="md-table"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`;
    }
    default:
      return nothing;
  }
}

function heading(level: number, body: Part[]): TemplateResult {
  switch (level) {
    case 1:
      return html`<h1 class="md-h">${body}</h1>`;
    case 2:
      return html`<h2 class="md-h">${body}</h2>`;
    case 3:
      return html`<h3 class="md-h">${body}</h3>`;
    case 4:
      return html`<h4 class="md-h">${body}</h4>`;
    case 5:
      return html`<h5 class="md-h">${body}</h5>`;
    default:
      return html`<h6 class="md-h">${body}</h6>`;
  }
}

function runs(list: readonly MdRun[] | undefined, budget: Budget): Part[] {
  const out: Part[] = [];
  for (const r of list ?? []) {
    const text = inertText(String(r.text ?? ''));
    const specs = Array.isArray(r.specs) ? r.specs.filter((s) => typeof s === 'string') : [];
    const plain = !r.code && !r.strong && !r.em && r.href === undefined && specs.length === 0;
    if (plain || !budget.take()) {
      out.push(text);
      continue;
    }
    const classes = [r.code && r.strong ? 'strong' : '', (r.code || r.strong) && r.em ? 'em' : ''];
    let title = '';
    let href: Part = nothing;
    if (r.href !== undefined) {
      // Shown, never followed: no <a>, the target is text.
      classes.push('link');
      const target = oneLine(String(r.href), 300);
      title = `Link (not followed): ${target}`;
      if (target !== text.trim()) href = html`<span class="href">${` \u2039${target}\u203a`}</span>`;
    }
    let states: string | typeof nothing = nothing;
    if (specs.length > 0) {
      classes.push('stated');
      title = `${title ? `${title}\n` : ''}States ${specs.join(', ')}`;
      states = statesAttr(specs);
    }
    const cls = classes.filter(Boolean).join(' ') || nothing;
    const t = title || nothing;
    if (r.code) out.push(html`<code class=${cls} title=${t} data-states=${states}>${text}${href}</code>`);
    else if (r.strong) out.push(html`<strong class=${cls} title=${t} data-states=${states}>${text}${href}</strong>`);
    else if (r.em) out.push(html`<em class=${cls} title=${t} data-states=${states}>${text}${href}</em>`);
    else out.push(html`<span class=${cls} title=${t} data-states=${states}>${text}${href}</span>`);
  }
  return out;
}
