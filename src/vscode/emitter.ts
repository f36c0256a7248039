// A tiny typed event for the host's own services (no `vscode` needed, so they run in unit tests and benchmarks).
// Its `event` has the shape of a `vscode.Event`: a function that takes a listener and returns a disposable.

export interface Disposable {
  dispose(): void;
}

export type Listen<T> = (listener: (e: T) => void) => Disposable;

export class Emitter<T> {
  private readonly listeners = new Set<(e: T) => void>();
  readonly event: Listen<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners.clear();
  }
}
