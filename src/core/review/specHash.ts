// The content of a spec that a label was given on, as a short hash: a `revision` event carries it for each spec it
// changed (before and after), so the reducer can tell whether a label's spec is, now, what it was when the label was
// given (src/core/review/reducer.ts). What counts: the text, the category and the dependsOn links (as a set). The
// spec-test map does not: a label judges an attempt against what the spec says, and the tests mapped to it are
// evidence the grid shows as they are now; mapping a test after labelling does not change what was judged.
import { createHash } from 'node:crypto';
import type { Spec } from '../model';
import { canonicalJson } from './events';

/** Hex characters kept: 64 bits tell two texts apart; this is not a signature. */
export const SPEC_HASH_HEX_CHARS = 16;

/** The hash of a spec's content (text, category, dependsOn sorted): equal for equal content, whatever the order of dependsOn. */
export function specContentHash(spec: SpecContent): string {
  const body = canonicalJson({ text: spec.text, category: spec.category, dependsOn: [...new Set(spec.dependsOn ?? [])].sort() });
  return createHash('sha256').update(body).digest('hex').slice(0, SPEC_HASH_HEX_CHARS);
}

/** What of a spec counts as its content (dependsOn may be absent in a raw task.json: no links). */
export type SpecContent = Pick<Spec, 'text' | 'category'> & { dependsOn?: readonly string[] };

export interface SpecHashChange {
  /** Absent: the spec did not exist before. */
  before?: string;
  /** Absent: the spec was deleted. */
  after?: string;
}

/** For a `revision` event: the content hash before and after of each spec in `changed`, from the two revisions' specs. */
export function specHashesBetween(
  before: readonly (SpecContent & { id: string })[],
  after: readonly (SpecContent & { id: string })[],
  changed: readonly string[],
): Record<string, SpecHashChange> {
  const b = new Map(before.map((s) => [s.id, s]));
  const a = new Map(after.map((s) => [s.id, s]));
  const out: Record<string, SpecHashChange> = {};
  for (const id of changed) {
    const x = b.get(id);
    const y = a.get(id);
    // defineProperty: an id such as "__proto__" stays a plain key (an assignment would replace the prototype).
    Object.defineProperty(out, id, { value: { ...(x ? { before: specContentHash(x) } : {}), ...(y ? { after: specContentHash(y) } : {}) }, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
