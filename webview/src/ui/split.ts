// Resizable two-pane layout (vscode-split-layout). `vertical` puts the panes side by side.
import '@vscode-elements/elements/dist/vscode-split-layout/index.js';

export interface SplitOptions {
  testid: string;
  /** Start pane size in percent. */
  position: number;
  minStart?: string;
  minEnd?: string;
  onResize?: (percent: number) => void;
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
  if (o.onResize) {
    const cb = o.onResize;
    s.addEventListener('vsc-split-layout-change', (e) => cb(Math.round(e.detail.positionInPercentage * 10) / 10));
  }
  return s;
}
