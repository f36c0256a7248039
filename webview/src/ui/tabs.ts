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

/** The row of tab headers, a lit-html template: an update patches the headers (labels, badges, the selected tab). */
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
