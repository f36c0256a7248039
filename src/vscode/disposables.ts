// A bag of disposables that is itself disposable: everything the extension creates goes into one of these, and the
// root store ends in context.subscriptions.
import type * as vscode from 'vscode';

export class DisposableStore implements vscode.Disposable {
  private items: vscode.Disposable[] = [];
  private done = false;

  add<T extends vscode.Disposable>(d: T): T {
    if (this.done) d.dispose();
    else this.items.push(d);
    return d;
  }

  get isDisposed(): boolean {
    return this.done;
  }

  dispose(): void {
    if (this.done) return;
    this.done = true;
    const items = this.items.reverse();
    this.items = [];
    for (const d of items) {
      try {
        d.dispose();
      } catch {
        // one failing dispose must not keep the others alive
      }
    }
  }
}
