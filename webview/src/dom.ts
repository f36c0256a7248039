// How the element-built views make DOM (the others are lit-html templates with text bindings only): elements by
// name, text by textContent. There is deliberately no way to pass markup, inline styles, event-handler attributes or
// URLs through here.
import { oneLine } from './text';

export type Child = Node | string | null | undefined | false;

export interface Props {
  class?: string;
  text?: string;
  /** Tooltip; cut to one line, shown as text. */
  title?: string;
  testid?: string;
  data?: Record<string, string>;
  role?: string;
  tabIndex?: number;
  ariaLabel?: string;
  /** Other plain attributes; refused if they could carry script, style or a URL. */
  attrs?: Record<string, string>;
  onClick?: (e: MouseEvent) => void;
}

const FORBIDDEN_ATTR = /^(on|style$|href$|src$|srcset$|srcdoc$|action$|formaction$|xlink:|poster$|background$)/i;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (props.class) e.className = props.class;
  if (props.text !== undefined) e.textContent = props.text;
  if (props.title !== undefined) e.title = oneLine(props.title, 500);
  if (props.testid !== undefined) e.dataset.testid = props.testid;
  if (props.data) for (const [k, v] of Object.entries(props.data)) e.dataset[k] = v;
  if (props.role !== undefined) e.setAttribute('role', props.role);
  if (props.tabIndex !== undefined) e.tabIndex = props.tabIndex;
  if (props.ariaLabel !== undefined) e.setAttribute('aria-label', oneLine(props.ariaLabel, 200));
  if (props.attrs) {
    for (const [k, v] of Object.entries(props.attrs)) {
      if (FORBIDDEN_ATTR.test(k)) throw new Error(`attribute ${k} is not allowed`);
      e.setAttribute(k, v);
    }
  }
  if (props.onClick) (e as HTMLElement).addEventListener('click', props.onClick);
  append(e, ...children);
  return e;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/** Sets text only when it changed (rows are updated on every scroll frame), in the node's own text node if it has one. */
export function setText(node: HTMLElement, text: string): void {
  if (node.textContent === text) return;
  const only = node.firstChild;
  if (only && only === node.lastChild && only.nodeType === Node.TEXT_NODE && text !== '') (only as Text).data = text;
  else node.textContent = text;
}

export function toggleClass(node: Element, name: string, on: boolean): void {
  if (node.classList.contains(name) !== on) node.classList.toggle(name, on);
}

/** Runs `fn` for Enter/Space as well as clicks, for elements that act as buttons. */
export function onActivate(node: HTMLElement, fn: (e: Event) => void): void {
  node.addEventListener('click', fn);
  node.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      fn(e);
    }
  });
}
