// A row of tab headers (vscode-tabs) whose content lives outside it: the app renders only the selected tab's
// content, so hidden tabs cost no DOM.
import '@vscode-elements/elements/dist/vscode-tabs/index.js';
import '@vscode-elements/elements/dist/vscode-tab-header/index.js';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import { html, nothing, type TemplateResult } from 'lit-html';
import { live } from 'lit-html/directives/live.js';
import { repeat } from 'lit-html/directives/repeat.js';
import { uniqueKeys } from './template';

export interface TabItem {
  id: string;
  label: string;
  /** Shown as a counter next to the label when set. */
  badge?: string;
  title?: string;
}

export interface Tabs {
  element: HTMLElement;
  select(id: string): void;
  setBadge(id: string, text: string | undefined): void;
}

export function tabs(items: readonly TabItem[], selected: string, testid: string, onSelect: (id: string) => void): Tabs {
  const t = document.createElement('vscode-tabs');
  t.dataset.testid = testid;
  const badges = new Map<string, HTMLElement>();
  items.forEach((item) => {
    const h = document.createElement('vscode-tab-header');
    h.slot = 'header';
    h.dataset.testid = `${testid}-${item.id}`;
    h.dataset.tab = item.id;
    if (item.title) h.title = item.title;
    h.append(document.createTextNode(item.label));
    const b = document.createElement('vscode-badge');
    b.variant = 'tab-header-counter';
    b.slot = 'content-after';
    b.dataset.testid = `${testid}-badge-${item.id}`;
    b.textContent = item.badge ?? '';
    b.hidden = item.badge === undefined;
    h.append(b);
    badges.set(item.id, b);
    t.append(h);
  });
  const index = (id: string) => Math.max(0, items.findIndex((i) => i.id === id));
  t.selectedIndex = index(selected);
  t.addEventListener('vsc-tabs-select', (e) => {
    const item = items[(e as CustomEvent<{ selectedIndex: number }>).detail.selectedIndex];
    if (item) onSelect(item.id);
  });
  return {
    element: t,
    select: (id) => {
      t.selectedIndex = index(id);
    },
    setBadge: (id, text) => {
      const b = badges.get(id);
      if (!b) return;
      b.textContent = text ?? '';
      b.hidden = text === undefined;
    },
  };
}

/**
 * The same row of tab headers as a lit-html template: an update patches the headers (labels, badges, the selected
 * tab) instead of making new ones.
 */
export function vsTabs(items: readonly TabItem[], selected: string, testid: string, onSelect: (id: string) => void): TemplateResult {
  const index = Math.max(0, items.findIndex((i) => i.id === selected));
  return html`<vscode-tabs
    data-testid=${testid}
    .selectedIndex=${live(index)}
    @vsc-tabs-select=${(e: Event) => {
      const item = items[(e as CustomEvent<{ selectedIndex: number }>).detail.selectedIndex];
      if (item) onSelect(item.id);
    }}
    >${repeat(
      items,
      uniqueKeys(items, (i) => i.id),
      (item) =>
        html`<vscode-tab-header slot="header" data-testid=${`${testid}-${item.id}`} data-tab=${item.id} title=${item.title ?? nothing}
          >${item.label}<vscode-badge .variant=${"tab-header-counter"} slot="content-after" data-testid=${`${testid}-badge-${item.id}`} ?hidden=${item.badge === undefined}
            >${item.badge ?? ''}</vscode-badge
          ></vscode-tab-header
        >`,
    )}</vscode-tabs
  >`;
}
