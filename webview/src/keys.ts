// Which key does what inside the webview, and how a key handled here is not handled twice: VS Code forwards every
// keydown in a webview to the workbench, so a key the host also binds comes back as a `command` message.
import type { ViewCommand } from '../../src/protocol/messages';

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  /** Focus is in an editable field (typing a search must not move between attempts). */
  inTextField: boolean;
  /** Focus is in the search box. */
  inSearch: boolean;
}

/** The action a key press asks for, if any. */
export function actionForKey(k: KeyPress): ViewCommand | undefined {
  const mod = k.ctrlKey || k.metaKey;
  if (k.key === 'F3') return k.shiftKey ? 'previousHit' : 'nextHit';
  if (mod && !k.altKey && (k.key === 'f' || k.key === 'F')) return 'focusSearch';
  if (k.inSearch && k.key === 'Enter' && !mod && !k.altKey) return k.shiftKey ? 'previousHit' : 'nextHit';
  if (k.inTextField || mod || k.altKey) return undefined;
  switch (k.key) {
    case ']':
      return 'nextAttempt';
    case '[':
      return 'previousAttempt';
    case '/':
      return 'focusSearch';
    case 'd':
      return 'openDiff';
    default:
      return undefined;
  }
}

/**
 * Pairs actions done locally from a key with the same command arriving from the host shortly after, so that one
 * key press acts once. Each local action absorbs at most one host command within `windowMs`.
 */
export class CommandDedupe {
  private readonly recent: Array<{ action: ViewCommand; at: number }> = [];

  constructor(private readonly windowMs = 500) {}

  local(action: ViewCommand, now: number): void {
    this.prune(now);
    this.recent.push({ action, at: now });
  }

  /** True when the host's command should run; false when it echoes a key already handled here. */
  acceptHost(action: ViewCommand, now: number): boolean {
    this.prune(now);
    const i = this.recent.findIndex((r) => r.action === action);
    if (i < 0) return true;
    this.recent.splice(i, 1);
    return false;
  }

  private prune(now: number): void {
    while (this.recent.length > 0 && now - this.recent[0]!.at > this.windowMs) this.recent.shift();
  }
}
