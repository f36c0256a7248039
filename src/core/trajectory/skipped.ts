// Counts what a reader left out because it is not a conversation step (bookkeeping lines, snapshots, duplicates),
// by type, so the summary can say what was skipped instead of dropping it silently.

import type { SummaryFacts } from './steps';

export class SkipCounter {
  private readonly counts = new Map<string, number>();

  add(type: string, n = 1): void {
    // A type name comes from the file: keep it short so a hostile file cannot make the note huge.
    const key = type.length > 80 ? type.slice(0, 80) + '…' : type;
    if (this.counts.size >= 200 && !this.counts.has(key)) {
      this.counts.set('(other types)', (this.counts.get('(other types)') ?? 0) + n);
      return;
    }
    this.counts.set(key, (this.counts.get(key) ?? 0) + n);
  }

  get total(): number {
    let n = 0;
    for (const v of this.counts.values()) n += v;
    return n;
  }

  /** Sets `facts.skipped` and adds one note naming the counts; `what` says what the skipped units are. */
  into(facts: SummaryFacts, what = 'line(s)'): void {
    if (this.counts.size === 0) return;
    facts.skipped = Object.fromEntries(this.counts);
    const list = [...this.counts].map(([k, v]) => `${k} ${v}`).join(', ');
    addNote(facts, `skipped ${this.total} ${what} that are not conversation steps: ${list}`);
  }
}

export function addNote(facts: SummaryFacts, note: string): void {
  (facts.notes ??= []).push(note);
}
