// Resizable two-pane layout (vscode-split-layout). `vertical` puts the panes side by side; one that may stack puts
// them one above the other while the page is narrower than its breakpoint (a narrow editor group), and back. Each
// arrangement keeps its own handle position; stacked, the end pane keeps a part of itself in view however far the
// handle is dragged. `showAlone` and `restore` (a region shown alone, then the layout back) go through the split's
// own state, so neither arrangement's position or minimum sizes are lost on the way.
import '@vscode-elements/elements/dist/vscode-split-layout/index.js';

export interface SplitOptions {
  testid: string;
  /** Start pane size in percent. */
  position: number;
  minStart?: string;
  minEnd?: string;
  onResize?: (percent: number) => void;
  /** Side by side only: below this page width (px) the panes stack, and the split gets the class `stacked`. */
  stackBelow?: number;
  /**
   * Stacked only: the start pane's size in percent (its own, not the side-by-side one: a handle dragged while stacked
   * does not move the side-by-side layout, nor the reverse), reported as it is dragged; and how many px of the end
   * pane stay in the visible part of the scrolling parent, whatever the handle (a stacked start pane dragged tall
   * pushed the end pane, the attempt cards, out of sight).
   */
  stacked?: { position: number; onResize?: (percent: number) => void; endInView: number };
  /** Ends the breakpoint's listener (the layout was replaced). */
  signal?: AbortSignal;
}

type SplitElement = HTMLElement & { split: 'vertical' | 'horizontal'; handlePosition: string; minStart?: string; minEnd?: string; initialHandlePosition: string; resetOnDblClick: boolean };

interface SplitControl {
  showAlone(pane: 'start' | 'end' | undefined): void;
}
const controls = new WeakMap<HTMLElement, SplitControl>();

/**
 * Gives one pane the whole split (`start` or `end`, no minimum sizes), or with `undefined` brings back the split as
 * the curator had it in the arrangement it is in now (its position, its minimum sizes).
 */
export function showAlone(el: HTMLElement, pane: 'start' | 'end' | undefined): void {
  controls.get(el)?.showAlone(pane);
}

export function split(orientation: 'vertical' | 'horizontal', start: HTMLElement, end: HTMLElement, o: SplitOptions): HTMLElement {
  const s = document.createElement('vscode-split-layout') as SplitElement;
  s.split = orientation;
  s.initialHandlePosition = `${o.position}%`;
  s.handlePosition = `${o.position}%`;
  s.resetOnDblClick = true;
  if (o.minStart) s.minStart = o.minStart;
  if (o.minEnd) s.minEnd = o.minEnd;
  s.dataset.testid = o.testid;
  s.classList.add('split', `split-${orientation}`);
  start.slot = 'start';
  end.slot = 'end';
  s.append(start, end);
  let stacked = false;
  let alone: 'start' | 'end' | undefined;
  // Where the handle is kept for each arrangement, in percent.
  const at = { sideBySide: `${o.position}%`, stacked: `${o.stacked?.position ?? o.position}%` };
  s.addEventListener('vsc-split-layout-change', (e) => {
    if (alone) return;
    const percent = Math.round(e.detail.positionInPercentage * 10) / 10;
    // Kept as the position to hold when the panes stack or unstack (a dragged handle does not update it).
    s.handlePosition = `${percent}%`;
    if (stacked) {
      at.stacked = `${percent}%`;
      o.stacked?.onResize?.(percent);
    } else {
      at.sideBySide = `${percent}%`;
      o.onResize?.(percent);
    }
  });
  /** Stacked: the end pane's minimum is what keeps `endInView` px of it in the scrolling parent's visible height. */
  const keepEndInView = (): void => {
    if (!stacked || !o.stacked || alone) return;
    const visible = s.parentElement?.clientHeight ?? window.innerHeight;
    const total = s.getBoundingClientRect().height;
    const floor = o.minEnd?.endsWith('px') ? Number.parseFloat(o.minEnd) : 0;
    const min = Math.max(floor, Math.ceil(total - (visible - o.stacked.endInView)));
    if (s.minEnd === `${min}px`) return;
    s.minEnd = `${min}px`;
    // The kept position again, held to the new bound (a view grown back gets the position the curator chose).
    s.handlePosition = at.stacked;
  };
  const restore = (): void => {
    s.minStart = o.minStart ?? '0px';
    s.minEnd = o.minEnd ?? '0px';
    keepEndInView();
    s.handlePosition = stacked ? at.stacked : at.sideBySide;
  };
  controls.set(s, {
    showAlone: (pane) => {
      alone = pane;
      if (pane === undefined) return restore();
      s.minStart = '0px';
      s.minEnd = '0px';
      s.handlePosition = pane === 'start' ? '100%' : '0%';
    },
  });
  if (orientation === 'vertical' && o.stackBelow !== undefined) {
    const narrow = window.matchMedia(`(max-width: ${o.stackBelow - 0.02}px)`);
    const listen = o.signal ? { signal: o.signal } : undefined;
    const apply = (): void => {
      if (stacked === narrow.matches) return;
      stacked = narrow.matches;
      // Changing the direction puts the handle at its initial position: each arrangement gets its own back (a pane
      // shown alone stays alone).
      s.split = stacked ? 'horizontal' : 'vertical';
      s.classList.toggle('stacked', stacked);
      if (alone) s.handlePosition = alone === 'start' ? '100%' : '0%';
      else restore();
    };
    apply();
    narrow.addEventListener('change', apply, listen);
    // The split's height (stacked: at least 1400 px) and the visible part of its parent change with the view.
    const observer = new ResizeObserver(() => keepEndInView());
    observer.observe(s);
    window.addEventListener('resize', keepEndInView, listen);
    o.signal?.addEventListener('abort', () => observer.disconnect(), { once: true });
  }
  return s;
}
