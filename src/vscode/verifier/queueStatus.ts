// The status bar item of the verifier queue: done / running / queued and the ETA while runs are under way, the
// totals of the last batch afterwards. A click shows the queue's actions (the log, cancel all).
import * as vscode from 'vscode';
import type { QueueProgress } from '../../core/verify/queue';
import type { NodeCount } from '../../core/verify/queueView';
import { queueStatusText } from '../../core/verify/queueView';

export { formatDuration } from '../../core/verify/queueView';

export class QueueStatusItem implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private shown = false;
  private last: QueueProgress | undefined;

  constructor(command: string) {
    this.item = vscode.window.createStatusBarItem('specweave.verifier.queue', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'SpecWeave Verifier';
    this.item.command = command;
  }

  /** The last state shown (for tests). */
  get state(): { text: string; tooltip: string; visible: boolean } {
    return { text: this.item.text, tooltip: typeof this.item.tooltip === 'string' ? this.item.tooltip : '', visible: this.shown };
  }

  get progress(): QueueProgress | undefined {
    return this.last;
  }

  update(p: QueueProgress, nodes: readonly NodeCount[] = [], perNode = nodes.length > 1): void {
    this.last = p;
    // Hidden until the first run of the window: no verifier, no item.
    if (p.total === 0 && !this.shown) return;
    const s = queueStatusText(p, nodes, perNode);
    this.item.text = s.text;
    this.item.tooltip = s.tooltip;
    this.item.accessibilityInformation = { label: s.tooltip.replace(/\$\([^)]*\)\s*/g, '') };
    if (!this.shown) {
      this.item.show();
      this.shown = true;
    }
  }

  hide(): void {
    this.item.hide();
    this.shown = false;
  }

  dispose(): void {
    this.item.dispose();
  }
}
