// Tiny hand-written validators for review-log payloads: fast enough to run on every line of a 100,000-event log, and
// each failure names the field it is about.

/** A validation failure at a field path such as `payload.evidence[1].step`. */
export interface FieldError {
  field: string;
  message: string;
}

export type Check = (value: unknown, field: string) => FieldError | undefined;

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export const str =
  (opts: { min?: number; max?: number; pattern?: RegExp; what?: string } = {}): Check =>
  (v, field) => {
    if (typeof v !== 'string') return { field, message: `expected a string${opts.what ? ` (${opts.what})` : ''}` };
    if (v.length < (opts.min ?? 0)) return { field, message: opts.min === 1 ? 'must not be empty' : `must be at least ${opts.min} characters` };
    if (opts.max !== undefined && v.length > opts.max) return { field, message: `must be at most ${opts.max} characters` };
    if (opts.pattern && !opts.pattern.test(v)) return { field, message: `"${v}" is not ${opts.what ?? `of the form ${opts.pattern.source}`}` };
    return undefined;
  };

export const int =
  (min: number, max: number): Check =>
  (v, field) => {
    if (typeof v !== 'number' || !Number.isInteger(v)) return { field, message: 'expected an integer' };
    if (v < min || v > max) return { field, message: `${v} is out of range ${min}..${max}` };
    return undefined;
  };

export const oneOf =
  (values: readonly string[]): Check =>
  (v, field) =>
    typeof v === 'string' && values.includes(v) ? undefined : { field, message: `expected one of ${values.join(', ')}; got ${JSON.stringify(v)}` };

export const arrayOf =
  (item: Check, opts: { max?: number; unique?: boolean } = {}): Check =>
  (v, field) => {
    if (!Array.isArray(v)) return { field, message: 'expected a list' };
    if (opts.max !== undefined && v.length > opts.max) return { field, message: `at most ${opts.max} items` };
    for (let i = 0; i < v.length; i++) {
      const e = item(v[i], `${field}[${i}]`);
      if (e) return e;
    }
    if (opts.unique && new Set(v.map((x) => JSON.stringify(x))).size !== v.length) return { field, message: 'items must be unique' };
    return undefined;
  };

/** An object with required and optional fields; unknown fields are allowed so newer writers stay readable. */
export const obj = (required: Record<string, Check>, optional: Record<string, Check> = {}): Check => {
  // Entries once, not a for-in per call: this runs on every line of a 100,000-event log. Children are checked
  // under the parent's field name and the child's key is put into the path only on failure, so the success path
  // builds no strings.
  const at = (e: FieldError, field: string, k: string): FieldError => ({ ...e, field: `${field}.${k}${e.field.slice(field.length)}` });
  const req = Object.entries(required);
  const opt = Object.entries(optional);
  return (v, field) => {
    if (!isRecord(v)) return { field, message: 'expected an object' };
    for (const [k, check] of req) {
      const x = v[k];
      if (x === undefined) return { field: `${field}.${k}`, message: 'is required' };
      const e = check(x, field);
      if (e) return at(e, field, k);
    }
    for (const [k, check] of opt) {
      const x = v[k];
      if (x === undefined) continue;
      const e = check(x, field);
      if (e) return at(e, field, k);
    }
    return undefined;
  };
};

/** The first check that the value's discriminant selects. */
export const tagged =
  (tag: string, variants: Record<string, Check>): Check =>
  (v, field) => {
    if (!isRecord(v)) return { field, message: 'expected an object' };
    const t = v[tag];
    const check = typeof t === 'string' ? variants[t] : undefined;
    if (!check) return { field: `${field}.${tag}`, message: `expected one of ${Object.keys(variants).join(', ')}; got ${JSON.stringify(t)}` };
    return check(v, field);
  };

/** Free text a curator typed: any characters but NUL, bounded so one event stays one sane line. */
export const text = (max = 20_000): Check => str({ max, pattern: /^[^\0]*$/s, what: 'text without NUL characters' });
