// Thin wrappers over the @vscode-elements components this app uses, so swapping the library stays in this folder.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import type { VscodeTextfield } from '@vscode-elements/elements/dist/vscode-textfield/vscode-textfield.js';
import type { VscodeSingleSelect } from '@vscode-elements/elements/dist/vscode-single-select/vscode-single-select.js';
import { html, nothing, type TemplateResult } from 'lit-html';

export interface ButtonOptions {
  testid?: string;
  title?: string;
  secondary?: boolean;
  disabled?: boolean;
}

export function button(label: string, onClick: () => void, o: ButtonOptions = {}): HTMLElement {
  const b = document.createElement('vscode-button');
  b.textContent = label;
  if (o.secondary) b.secondary = true;
  if (o.disabled) b.disabled = true;
  if (o.title) b.title = o.title;
  if (o.testid) b.dataset.testid = o.testid;
  b.addEventListener('click', () => {
    if (!b.disabled) onClick();
  });
  return b;
}

export function setDisabled(b: HTMLElement, disabled: boolean): void {
  (b as HTMLElement & { disabled: boolean }).disabled = disabled;
}

export function badge(text: string, testid?: string, variant: 'default' | 'counter' = 'default'): HTMLElement {
  const b = document.createElement('vscode-badge');
  b.variant = variant;
  b.textContent = text;
  if (testid) b.dataset.testid = testid;
  return b;
}

export interface Checkbox {
  element: HTMLElement;
  checked: boolean;
  setLabel(text: string): void;
}

export function checkbox(label: string, checked: boolean, testid: string, onChange: (checked: boolean) => void): Checkbox {
  const c = document.createElement('vscode-checkbox');
  c.label = label;
  c.checked = checked;
  c.dataset.testid = testid;
  c.addEventListener('change', () => onChange(c.checked));
  return {
    element: c,
    get checked() {
      return c.checked;
    },
    set checked(v: boolean) {
      c.checked = v;
    },
    setLabel: (text) => {
      c.label = text;
    },
  };
}

export interface TextField {
  element: VscodeTextfield;
  value: string;
  focus(): void;
  setInvalid(invalid: boolean, message?: string): void;
  /** Whether the focus is inside this field. */
  hasFocus(): boolean;
}

export function textField(o: { placeholder: string; value: string; testid: string; after?: HTMLElement[]; onInput: (value: string) => void }): TextField {
  const t = document.createElement('vscode-textfield');
  t.placeholder = o.placeholder;
  t.value = o.value;
  t.dataset.testid = o.testid;
  t.setAttribute('aria-label', o.placeholder);
  for (const a of o.after ?? []) {
    a.slot = 'content-after';
    t.append(a);
  }
  t.addEventListener('input', () => o.onInput(t.value));
  return {
    element: t,
    get value() {
      return t.value;
    },
    set value(v: string) {
      t.value = v;
    },
    focus: () => {
      t.focus();
      t.shadowRoot?.querySelector('input')?.select();
    },
    setInvalid: (invalid, message) => {
      t.invalid = invalid;
      t.title = invalid && message ? message : '';
    },
    hasFocus: () => document.activeElement === t || t.matches(':focus-within'),
  };
}

export function collapsible(heading: string, description: string, open: boolean, testid: string, content: HTMLElement): HTMLElement {
  const c = document.createElement('vscode-collapsible');
  c.heading = heading;
  c.description = description;
  c.open = open;
  c.dataset.testid = testid;
  c.append(content);
  return c;
}

export interface Select {
  element: VscodeSingleSelect;
  value: string;
}

export function select(options: ReadonlyArray<{ value: string; label: string }>, value: string | undefined, testid: string, onChange: (value: string) => void): Select {
  const s = document.createElement('vscode-single-select');
  s.dataset.testid = testid;
  for (const o of options) {
    const opt = document.createElement('vscode-option');
    opt.value = o.value;
    opt.textContent = o.label;
    if (o.value === value) opt.selected = true;
    s.append(opt);
  }
  s.addEventListener('change', () => onChange(s.value));
  return {
    element: s,
    get value() {
      return s.value;
    },
    set value(v: string) {
      s.value = v;
    },
  };
}

// ---- the same components as lit-html templates (regions that patch instead of rebuild) ----------------------------

/** A button; a click while it is disabled does nothing. */
export function vsButton(label: string, onClick: () => void, o: ButtonOptions & { chosen?: boolean; hidden?: boolean } = {}): TemplateResult {
  return html`<vscode-button
    class=${o.chosen ? 'chosen' : nothing}
    .secondary=${o.secondary === true}
    .disabled=${o.disabled === true}
    ?hidden=${o.hidden === true}
    title=${o.title ?? nothing}
    data-testid=${o.testid ?? nothing}
    @click=${(e: Event) => {
      if (!(e.currentTarget as HTMLElement & { disabled: boolean }).disabled) onClick();
    }}
    >${label}</vscode-button
  >`;
}

export function vsBadge(text: string, testid?: string, variant: 'default' | 'counter' = 'default'): TemplateResult {
  return html`<vscode-badge .variant=${variant} data-testid=${testid ?? nothing}>${text}</vscode-badge>`;
}

export function vsCheckbox(label: string, checked: boolean, testid: string, onChange: (checked: boolean) => void, disabled = false): TemplateResult {
  return html`<vscode-checkbox
    .label=${label}
    .checked=${checked}
    ?disabled=${disabled}
    data-testid=${testid}
    @change=${(e: Event) => onChange((e.currentTarget as HTMLElement & { checked: boolean }).checked)}
  ></vscode-checkbox>`;
}

/** A single select; `onChange` gets the chosen value. Read it later through `selectValue`. */
export function vsSelect(options: ReadonlyArray<{ value: string; label: string }>, value: string | undefined, testid: string, onChange?: (value: string) => void): TemplateResult {
  return html`<vscode-single-select
    data-testid=${testid}
    @change=${(e: Event) => onChange?.((e.currentTarget as VscodeSingleSelect).value)}
    >${options.map((o) => html`<vscode-option .value=${o.value} .selected=${o.value === value}>${o.label}</vscode-option>`)}</vscode-single-select
  >`;
}

/** The value of a select rendered by `vsSelect` (or of a plain input). */
export function selectValue(node: Element | null | undefined): string {
  return node && 'value' in node ? String((node as { value: unknown }).value ?? '') : '';
}
