// The spec categories a curator may choose from: the CodeSpecWeave taxonomy (docs/format.md), one id each.
import { KNOWN_SPEC_CATEGORIES } from '../model';

/** The taxonomy's ids, in the order a picker shows them; `other` is the catch-all. */
export const SPEC_CATEGORIES: readonly string[] = KNOWN_SPEC_CATEGORIES;

/** What task.json accepts as a category name at all (schema/task.schema.json). */
export const CATEGORY_PATTERN = /^[a-z][a-z0-9-]*$/;

export function isTaxonomyCategory(c: string): boolean {
  return SPEC_CATEGORIES.includes(c);
}
