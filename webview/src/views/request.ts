// The request, from the host's inert Markdown blocks. Runs that state a spec are marked and linked to it; links
// show where they point and go nowhere.
import type { MdBlock, MdRun } from '../../../src/protocol/messages';
import { el } from '../dom';
import { inertText, oneLine } from '../text';
import type { SpecLinks } from './specLinks';

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

export function renderRequest(blocks: readonly MdBlock[], truncated: boolean, links: SpecLinks): HTMLElement {
  links.resetRuns();
  const root = el('div', { class: 'request md', testid: 'request' });
  const budget = new Budget();
  renderBlocks(root, blocks, links, budget, 0);
  if (blocks.length === 0) root.append(el('p', { class: 'muted', text: 'No request text.' }));
  if (truncated || budget.cut) {
    root.append(el('p', { class: 'notice-inline', testid: 'request-truncated', text: 'The request is longer than shown here; it was cut for display.' }));
  }
  links.bind(root);
  return root;
}

function renderBlocks(parent: HTMLElement, blocks: readonly MdBlock[], links: SpecLinks, budget: Budget, depth: number): void {
  for (const b of blocks) {
    if (!budget.take()) return;
    const node = renderBlock(b, links, budget, depth);
    if (node) parent.append(node);
  }
}

function renderBlock(b: MdBlock, links: SpecLinks, budget: Budget, depth: number): HTMLElement | undefined {
  if (depth > MAX_DEPTH) {
    budget.cut = true;
    return undefined;
  }
  switch (b.kind) {
    case 'heading': {
      const level = Math.min(6, Math.max(1, Math.trunc(Number(b.level) || 1)));
      return runsInto(el(`h${level}` as 'h1', { class: 'md-h' }), b.runs, links, budget);
    }
    case 'paragraph':
      return runsInto(el('p'), b.runs, links, budget);
    case 'code': {
      const text = String(b.text ?? '');
      const shown = text.length > MAX_CODE ? `${text.slice(0, MAX_CODE)}\n…` : text;
      return el('pre', { class: 'code', title: b.lang ? `code: ${b.lang}` : undefined }, el('code', { text: inertText(shown) }));
    }
    case 'list': {
      const list = el(b.ordered ? 'ol' : 'ul');
      for (const item of b.items ?? []) {
        if (!budget.take()) break;
        const li = el('li');
        renderBlocks(li, item, links, budget, depth + 1);
        list.append(li);
      }
      return list;
    }
    case 'quote': {
      const q = el('blockquote');
      renderBlocks(q, b.blocks ?? [], links, budget, depth + 1);
      return q;
    }
    case 'rule':
      return el('hr');
    case 'table': {
      const table = el('table', { class: 'md-table' });
      const head = el('tr');
      for (const cell of b.header ?? []) if (budget.take()) head.append(runsInto(el('th'), cell, links, budget));
      table.append(el('thead', {}, head));
      const body = el('tbody');
      for (const row of b.rows ?? []) {
        if (!budget.take()) break;
        const tr = el('tr');
        for (const cell of row) if (budget.take()) tr.append(runsInto(el('td'), cell, links, budget));
        body.append(tr);
      }
      table.append(body);
      return el('div', { class: 'table-wrap' }, table);
    }
    default:
      return undefined;
  }
}

function runsInto<T extends HTMLElement>(parent: T, runs: readonly MdRun[] | undefined, links: SpecLinks, budget: Budget): T {
  for (const r of runs ?? []) {
    const text = inertText(String(r.text ?? ''));
    const specs = Array.isArray(r.specs) ? r.specs.filter((s) => typeof s === 'string') : [];
    const plain = !r.code && !r.strong && !r.em && r.href === undefined && specs.length === 0;
    if (plain) {
      parent.append(document.createTextNode(text));
      continue;
    }
    if (!budget.take()) {
      parent.append(document.createTextNode(text));
      continue;
    }
    const tag = r.code ? 'code' : r.strong ? 'strong' : r.em ? 'em' : 'span';
    const classes = [r.code && r.strong ? 'strong' : '', (r.code || r.strong) && r.em ? 'em' : ''];
    const node = el(tag, { text });
    if (r.href !== undefined) {
      // Shown, never followed: no <a>, the target is text.
      classes.push('link');
      const href = oneLine(String(r.href), 300);
      node.title = `Link (not followed): ${href}`;
      if (href !== text.trim()) node.append(el('span', { class: 'href', text: ` \u2039${href}\u203a` }));
    }
    if (specs.length > 0) {
      classes.push('stated');
      node.title = `${node.title ? `${node.title}\n` : ''}States ${specs.join(', ')}`;
      links.addRun(node, specs);
    }
    const cls = classes.filter(Boolean).join(' ');
    if (cls) node.className = cls;
    parent.append(node);
  }
  return parent;
}
