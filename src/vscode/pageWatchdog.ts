// Watches a webview page load: after the host sets a panel's HTML, the page must say `ready` within a few seconds of
// being visible. VS Code's webviews sometimes never load (the webview's own service worker fails to register, a known
// platform fault: microsoft/vscode#125993 and its duplicates), leaving a blank panel. When that happens the watchdog
// sets the HTML again, which makes VS Code build a fresh frame, a few times; then it gives up and says so (the caller
// offers "Reload Window"). A hidden panel is not expected to load: the clock runs only while the panel is visible.
//
// Type-only imports: the logic runs (and is unit-tested) without the `vscode` module.
import type { Disposable } from 'vscode';

/** The part of a WebviewPanel the watchdog needs. */
export interface WatchedPanel {
  readonly visible: boolean;
  onDidChangeViewState(listener: () => void): Disposable;
}

export interface PageWatchdogOptions {
  panel: WatchedPanel;
  /** Sets the panel's HTML again (with a fresh nonce, so VS Code reloads the frame). */
  reload: () => void;
  /** Names the panel in log lines, e.g. `task view t1`. */
  label: () => string;
  log: { warn(message: string): void; error(message: string): void };
  /** Called once when the last reload did not help either. */
  onGiveUp: () => void;
  /** Visible time a page gets to say `ready` (default 8 s). */
  timeoutMs?: number;
  /** Reloads before giving up (default 2). */
  reloads?: number;
  timers?: { set(fn: () => void, ms: number): unknown; clear(handle: unknown): void };
}

const realTimers = {
  set: (fn: () => void, ms: number): unknown => setTimeout(fn, ms),
  clear: (h: unknown): void => clearTimeout(h as NodeJS.Timeout),
};

export class PageWatchdog implements Disposable {
  private readonly timeoutMs: number;
  private readonly maxReloads: number;
  private readonly timers: NonNullable<PageWatchdogOptions['timers']>;
  private readonly viewState: Disposable;
  private timer: unknown;
  private waiting = false;
  private reloads = 0;
  private disposed = false;
  /** Reloads done since the watchdog was created (tests and logs read it). */
  totalReloads = 0;

  constructor(private readonly o: PageWatchdogOptions) {
    this.timeoutMs = o.timeoutMs ?? 8000;
    this.maxReloads = o.reloads ?? 2;
    this.timers = o.timers ?? realTimers;
    this.viewState = o.panel.onDidChangeViewState(() => this.schedule());
  }

  /** The host has just set the page's HTML: a `ready` is due. */
  arm(): void {
    if (this.disposed) return;
    this.waiting = true;
    this.reloads = 0;
    this.schedule();
  }

  /** The page said `ready`. */
  loaded(): void {
    this.waiting = false;
    this.stop();
  }

  dispose(): void {
    this.disposed = true;
    this.waiting = false;
    this.stop();
    this.viewState.dispose();
  }

  private stop(): void {
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = undefined;
  }

  /** Runs the clock while a `ready` is due and the panel is visible; a hidden panel's clock stops and starts over. */
  private schedule(): void {
    this.stop();
    if (!this.waiting || this.disposed || !this.o.panel.visible) return;
    this.timer = this.timers.set(() => this.expired(), this.timeoutMs);
  }

  private expired(): void {
    this.timer = undefined;
    if (!this.waiting || this.disposed) return;
    if (!this.o.panel.visible) return;
    const seconds = (this.timeoutMs / 1000).toFixed(0);
    if (this.reloads < this.maxReloads) {
      this.reloads++;
      this.totalReloads++;
      this.o.log.warn(`${this.o.label()}: the page did not load within ${seconds} s; loading it again (${this.reloads} of ${this.maxReloads})`);
      this.o.reload();
      this.schedule();
      return;
    }
    this.waiting = false;
    this.o.log.error(`${this.o.label()}: the page did not load after ${this.maxReloads} reloads; VS Code's webview may be broken until the window is reloaded`);
    this.o.onGiveUp();
  }
}
