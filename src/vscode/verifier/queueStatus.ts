// The status bar item of the verifier queue: done / running / queued and the ETA while runs are under way, the
// totals of the last batch afterwards. A click shows the queue's actions (the log, cancel all).
import * as vscode from 'vscode';
import type { QueueProgress } from '../../core/verify/queue';

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/** The item's text and tooltip for a queue state. */
export function queueStatusText(p: QueueProgress): { text: string; tooltip: string; busy: boolean } {
  const busy = p.running + p.queued > 0;
  const settled = p.done + p.failed + p.cancelled;
  const extra = [p.failed ? `${p.failed} error${p.failed === 1 ? '' : 's'}` : '', p.cancelled ? `${p.cancelled} cancelled` : ''].filter(Boolean);
  if (busy) {
    const eta = p.etaMs !== undefined ? ` · ~${formatDuration(p.etaMs)}` : '';
    return {
      text: `$(sync~spin) Verifier ${settled}/${p.total} · ${p.running} running · ${p.queued} queued${eta}`,
      tooltip: `SpecWeave verifier: ${p.done} done, ${p.running} running, ${p.queued} queued${extra.length ? `, ${extra.join(', ')}` : ''}${p.etaMs !== undefined ? `; about ${formatDuration(p.etaMs)} left` : ''}. Click to show the log or cancel all runs.`,
      busy,
    };
  }
  return {
    text: `$(beaker) Verifier: ${p.done} done${extra.length ? ` · ${extra.join(' · ')}` : ''}`,
    tooltip: `SpecWeave verifier: idle; the last batch had ${p.done} run(s) done${extra.length ? `, ${extra.join(', ')}` : ''}. Click to show the log.`,
    busy,
  };
}

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

  update(p: QueueProgress): void {
    this.last = p;
    // Hidden until the first run of the window: no verifier, no item.
    if (p.total === 0 && !this.shown) return;
    const s = queueStatusText(p);
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
