// Resizable two-pane layout (vscode-split-layout). `vertical` puts the panes side by side; one that may stack puts
// them one above the other while the page is narrower than its breakpoint (a narrow editor group), and back.
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
  /** Ends the breakpoint's listener (the layout was replaced). */
  signal?: AbortSignal;
}

export function split(orientation: 'vertical' | 'horizontal', start: HTMLElement, end: HTMLElement, o: SplitOptions): HTMLElement {
  const s = document.createElement('vscode-split-layout');
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
  s.addEventListener('vsc-split-layout-change', (e) => {
    const percent = Math.round(e.detail.positionInPercentage * 10) / 10;
    // Kept as the position to hold when the panes stack or unstack (a dragged handle does not update it).
    s.handlePosition = `${percent}%`;
    o.onResize?.(percent);
  });
  if (orientation === 'vertical' && o.stackBelow !== undefined) {
    const narrow = window.matchMedia(`(max-width: ${o.stackBelow - 0.02}px)`);
    const apply = (): void => {
      const next = narrow.matches ? 'horizontal' : 'vertical';
      if (s.split === next) return;
      // Changing the direction puts the handle at its initial position: keep where it was, in percent.
      const at = s.handlePosition;
      s.split = next;
      if (at) s.handlePosition = at;
      s.classList.toggle('stacked', narrow.matches);
    };
    apply();
    narrow.addEventListener('change', apply, o.signal ? { signal: o.signal } : undefined);
  }
  return s;
}
