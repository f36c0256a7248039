// At most one call per interval, the last poke never lost: a burst of pokes makes one call now (or when the interval
// since the last call ends) and one more at the end of the burst. No `vscode` import: unit-tested.

export class Throttle {
  private last = Number.NEGATIVE_INFINITY;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly fn: () => void,
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Asks for a call: at once when the interval since the last one has passed, else once when it has. */
  poke(): void {
    if (this.timer !== undefined) return;
    const wait = this.last + this.intervalMs - this.now();
    if (wait <= 0) this.call();
    else this.timer = setTimeout(() => this.call(), wait);
  }

  /** Calls now (a pending call is made by this one). */
  flush(): void {
    this.call();
  }

  /** Drops a pending call (the caller makes one of its own). */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private call(): void {
    this.cancel();
    this.last = this.now();
    this.fn();
  }
}
