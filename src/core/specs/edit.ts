// Spec authoring as pure operations on a task's specs and tests: add, edit, split, merge, delete, reorder, set
// dependsOn, map tests, toggle one cell. Each returns the new lists and the specs it changed (whose labels become
// stale), or errors naming what was wrong; nothing is half applied. The caller writes the result as a new revision.
import type { Spec, TestCase } from '../model';
import { CATEGORY_PATTERN, SPEC_CATEGORIES, isTaxonomyCategory } from './categories';

/** A test named by its id or by its full name (the runner's name, e.g. a pytest node id). */
export type TestRef = string;

export type SpecOp =
  | { op: 'add'; text: string; category: string; dependsOn?: string[]; tests?: TestRef[]; /** index in the list; default the end */ at?: number }
  | { op: 'edit'; spec: string; text?: string; category?: string; dependsOn?: string[] }
  /** The first part keeps the spec's id (and its labels); each further part becomes a new spec after it. */
  | { op: 'split'; spec: string; parts: Array<{ text: string; category?: string; tests?: TestRef[] }> }
  /** The first id stays and takes `text`; the others are deleted, their tests and dependants move to the first. */
  | { op: 'merge'; specs: string[]; text: string; category?: string }
  | { op: 'delete'; spec: string }
  /** Every spec id, once, in the new order. */
  | { op: 'reorder'; order: string[] }
  | { op: 'depends'; spec: string; dependsOn: string[] }
  | { op: 'map'; spec: string; mode: 'replace' | 'add' | 'remove'; tests: TestRef[] }
  | { op: 'toggle'; spec: string; test: TestRef };

export type SpecOpKind = SpecOp['op'];
export const SPEC_OP_KINDS: readonly SpecOpKind[] = ['add', 'edit', 'split', 'merge', 'delete', 'reorder', 'depends', 'map', 'toggle'];

export type SpecEditErrorCode =
  | 'empty_text'
  | 'duplicate_text'
  | 'unknown_spec'
  | 'unknown_test'
  | 'ambiguous_test'
  | 'cycle'
  | 'self_dependency'
  | 'unknown_category'
  | 'invalid_category'
  | 'invalid_op'
  | 'no_change';

export interface SpecEditError {
  code: SpecEditErrorCode;
  message: string;
}

export interface EditOptions {
  /** Accept a new category outside SPEC_CATEGORIES (it must still be a kebab-case name). */
  allowCategory?: boolean;
}

export type EditResult =
  | {
      ok: true;
      specs: Spec[];
      tests: TestCase[];
      /** Specs whose text, category, dependsOn or tests changed, new ones, and deleted ones; sorted. */
      changedSpecs: string[];
      /** Specs the operation created. */
      created: string[];
      /** Specs the operation deleted. */
      deleted: string[];
      /** E.g. a spec keeping a category outside the taxonomy: kept as it is, never rewritten. */
      warnings: string[];
    }
  | { ok: false; errors: SpecEditError[] };

/** Text compared for duplicates: whitespace runs as one space, case folded. */
export function normalisedText(t: string): string {
  return t.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** The next free id in the task's style: the prefix most of its specs share (A1, A2 -> A3), else S1, S2... */
export function nextSpecId(specs: readonly Spec[], taken: ReadonlySet<string> = new Set()): string {
  const counts = new Map<string, { n: number; max: number }>();
  for (const s of specs) {
    const m = /^([A-Za-z]*)(\d+)$/.exec(s.id);
    if (!m) continue;
    const prefix = m[1] as string;
    const c = counts.get(prefix) ?? { n: 0, max: 0 };
    c.n++;
    c.max = Math.max(c.max, Number(m[2]));
    counts.set(prefix, c);
  }
  let prefix = 'S';
  let best = 0;
  for (const [p, c] of counts) {
    if (c.n <= best) continue;
    prefix = p;
    best = c.n;
  }
  const used = new Set([...specs.map((s) => s.id), ...taken]);
  let n = (counts.get(prefix)?.max ?? 0) + 1;
  while (used.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}

/** Resolves test references (id first, then exact full name); errors name each one that matches none or several. */
export function resolveTests(tests: readonly TestCase[], refs: readonly TestRef[]): { ids: string[]; errors: SpecEditError[] } {
  const byId = new Set(tests.map((t) => t.id));
  const ids: string[] = [];
  const errors: SpecEditError[] = [];
  for (const ref of refs) {
    if (byId.has(ref)) {
      if (!ids.includes(ref)) ids.push(ref);
      continue;
    }
    const named = tests.filter((t) => t.name === ref);
    if (named.length === 1) {
      const id = (named[0] as TestCase).id;
      if (!ids.includes(id)) ids.push(id);
    } else if (named.length === 0) errors.push({ code: 'unknown_test', message: `the task has no test "${ref}" (neither an id nor a full name)` });
    else errors.push({ code: 'ambiguous_test', message: `"${ref}" is the name of ${named.length} tests (${named.map((t) => t.id).join(', ')}); give a test id` });
  }
  return { ids, errors };
}

function copySpecs(specs: readonly Spec[]): Spec[] {
  return specs.map((s) => ({ id: s.id, text: s.text, category: s.category, dependsOn: [...s.dependsOn] }));
}

function copyTests(tests: readonly TestCase[]): TestCase[] {
  return tests.map((t) => ({ id: t.id, name: t.name, kind: t.kind, specs: [...t.specs] }));
}

/** The tests mapped to each spec id. */
function testsBySpec(tests: readonly TestCase[]): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const t of tests) {
    for (const s of t.specs) {
      let l = m.get(s);
      if (!l) m.set(s, (l = []));
      l.push(t.id);
    }
  }
  return m;
}

/**
 * Specs that differ between two versions of a task: text, category, dependsOn or mapped tests changed, or the spec
 * is new or gone. Sorted. Labels given on these before the new revision become stale.
 */
export function changedSpecsBetween(before: { specs: readonly Spec[]; tests: readonly TestCase[] }, after: { specs: readonly Spec[]; tests: readonly TestCase[] }): string[] {
  const tb = testsBySpec(before.tests);
  const ta = testsBySpec(after.tests);
  const key = (s: Spec, m: Map<string, string[]>) => JSON.stringify([s.text, s.category, [...s.dependsOn].sort(), [...(m.get(s.id) ?? [])].sort()]);
  const out = new Set<string>();
  const afterById = new Map(after.specs.map((s) => [s.id, s]));
  for (const s of before.specs) {
    const a = afterById.get(s.id);
    if (!a || key(a, ta) !== key(s, tb)) out.add(s.id);
  }
  const beforeIds = new Set(before.specs.map((s) => s.id));
  for (const s of after.specs) if (!beforeIds.has(s.id)) out.add(s.id);
  return [...out].sort();
}

/** A dependsOn cycle through `start`, as the list of ids walked (start ... start), or undefined. */
function cycleThrough(specs: readonly Spec[], start: string): string[] | undefined {
  const deps = new Map(specs.map((s) => [s.id, s.dependsOn]));
  const seen = new Set<string>();
  const pathIds: string[] = [start];
  const walk = (id: string): string[] | undefined => {
    for (const d of deps.get(id) ?? []) {
      if (d === start) return [...pathIds, start];
      if (seen.has(d) || !deps.has(d)) continue;
      seen.add(d);
      pathIds.push(d);
      const r = walk(d);
      if (r) return r;
      pathIds.pop();
    }
    return undefined;
  };
  return walk(start);
}

interface Work {
  specs: Spec[];
  tests: TestCase[];
  errors: SpecEditError[];
  /** Texts and categories the operation set (checked against the rules); dependsOn lists it set. */
  setTexts: Array<{ id: string; text: string }>;
  setCategories: Array<{ id: string; category: string }>;
  setDepends: string[];
  created: string[];
  deleted: string[];
}

function needSpec(w: Work, id: string, what = 'spec'): Spec | undefined {
  const s = w.specs.find((x) => x.id === id);
  if (!s) w.errors.push({ code: 'unknown_spec', message: `the task has no ${what} "${id}"` });
  return s;
}

function mapTests(w: Work, specId: string, ids: readonly string[], mode: 'replace' | 'add' | 'remove'): void {
  const set = new Set(ids);
  for (const t of w.tests) {
    const has = t.specs.includes(specId);
    const want = mode === 'replace' ? set.has(t.id) : mode === 'add' ? has || set.has(t.id) : has && !set.has(t.id);
    if (want && !has) t.specs.push(specId);
    if (!want && has) t.specs = t.specs.filter((s) => s !== specId);
  }
}

function refsToIds(w: Work, refs: readonly TestRef[] | undefined): string[] {
  if (!refs) return [];
  const r = resolveTests(w.tests, refs);
  w.errors.push(...r.errors);
  return r.ids;
}

function removeSpec(w: Work, id: string, into?: string): void {
  w.specs = w.specs.filter((s) => s.id !== id);
  for (const t of w.tests) {
    if (!t.specs.includes(id)) continue;
    t.specs = t.specs.filter((s) => s !== id);
    if (into !== undefined && !t.specs.includes(into)) t.specs.push(into);
  }
  for (const s of w.specs) {
    if (!s.dependsOn.includes(id)) continue;
    const next = s.dependsOn.filter((d) => d !== id);
    if (into !== undefined && into !== s.id && !next.includes(into)) next.push(into);
    s.dependsOn = next;
  }
  w.deleted.push(id);
}

function apply(w: Work, op: SpecOp): void {
  switch (op.op) {
    case 'add': {
      const id = nextSpecId(w.specs);
      const spec: Spec = { id, text: op.text, category: op.category, dependsOn: [...new Set(op.dependsOn ?? [])] };
      const at = op.at === undefined ? w.specs.length : op.at;
      if (!Number.isInteger(at) || at < 0 || at > w.specs.length) {
        w.errors.push({ code: 'invalid_op', message: `position ${at} is outside 0..${w.specs.length}` });
        return;
      }
      w.specs.splice(at, 0, spec);
      w.created.push(id);
      w.setTexts.push({ id, text: op.text });
      w.setCategories.push({ id, category: op.category });
      w.setDepends.push(id);
      mapTests(w, id, refsToIds(w, op.tests), 'add');
      return;
    }
    case 'edit': {
      const s = needSpec(w, op.spec);
      if (!s) return;
      if (op.text === undefined && op.category === undefined && op.dependsOn === undefined) {
        w.errors.push({ code: 'invalid_op', message: `nothing to edit on spec ${op.spec}: give a text, a category or dependsOn` });
        return;
      }
      if (op.text !== undefined) {
        s.text = op.text;
        w.setTexts.push({ id: s.id, text: op.text });
      }
      if (op.category !== undefined && op.category !== s.category) {
        s.category = op.category;
        w.setCategories.push({ id: s.id, category: op.category });
      }
      if (op.dependsOn !== undefined) {
        s.dependsOn = [...new Set(op.dependsOn)];
        w.setDepends.push(s.id);
      }
      return;
    }
    case 'depends': {
      const s = needSpec(w, op.spec);
      if (!s) return;
      s.dependsOn = [...new Set(op.dependsOn)];
      w.setDepends.push(s.id);
      return;
    }
    case 'split': {
      const s = needSpec(w, op.spec);
      if (!s) return;
      if (op.parts.length < 2) {
        w.errors.push({ code: 'invalid_op', message: `splitting ${op.spec} needs two parts or more; got ${op.parts.length}` });
        return;
      }
      const [first, ...rest] = op.parts as [(typeof op.parts)[number], ...typeof op.parts];
      s.text = first.text;
      w.setTexts.push({ id: s.id, text: first.text });
      if (first.category !== undefined && first.category !== s.category) {
        s.category = first.category;
        w.setCategories.push({ id: s.id, category: first.category });
      }
      if (first.tests) mapTests(w, s.id, refsToIds(w, first.tests), 'replace');
      let at = w.specs.indexOf(s) + 1;
      for (const part of rest) {
        const id = nextSpecId(w.specs);
        const category = part.category ?? s.category;
        w.specs.splice(at++, 0, { id, text: part.text, category, dependsOn: [...s.dependsOn] });
        w.created.push(id);
        w.setTexts.push({ id, text: part.text });
        if (part.category !== undefined) w.setCategories.push({ id, category });
        mapTests(w, id, refsToIds(w, part.tests), 'add');
      }
      return;
    }
    case 'merge': {
      const ids = [...new Set(op.specs)];
      if (ids.length < 2) {
        w.errors.push({ code: 'invalid_op', message: 'merging needs two specs or more' });
        return;
      }
      const found = ids.map((id) => needSpec(w, id));
      if (found.some((s) => !s)) return;
      const [keep, ...gone] = found as [Spec, ...Spec[]];
      const goneIds = new Set(gone.map((g) => g.id));
      const deps = new Set([...keep.dependsOn, ...gone.flatMap((g) => g.dependsOn)]);
      for (const g of gone) removeSpec(w, g.id, keep.id);
      keep.dependsOn = [...deps].filter((d) => d !== keep.id && !goneIds.has(d));
      keep.text = op.text;
      w.setTexts.push({ id: keep.id, text: op.text });
      if (op.category !== undefined && op.category !== keep.category) {
        keep.category = op.category;
        w.setCategories.push({ id: keep.id, category: op.category });
      }
      return;
    }
    case 'delete': {
      if (!needSpec(w, op.spec)) return;
      removeSpec(w, op.spec);
      return;
    }
    case 'reorder': {
      const have = new Set(w.specs.map((s) => s.id));
      const given = new Set(op.order);
      const unknown = op.order.filter((id) => !have.has(id));
      const missing = w.specs.filter((s) => !given.has(s.id)).map((s) => s.id);
      for (const id of unknown) w.errors.push({ code: 'unknown_spec', message: `the task has no spec "${id}"` });
      if (missing.length > 0) w.errors.push({ code: 'invalid_op', message: `the new order leaves out ${missing.join(', ')}: list every spec once` });
      if (given.size !== op.order.length) w.errors.push({ code: 'invalid_op', message: 'the new order names a spec twice: list every spec once' });
      if (w.errors.length > 0) return;
      const byId = new Map(w.specs.map((s) => [s.id, s]));
      w.specs = op.order.map((id) => byId.get(id) as Spec);
      return;
    }
    case 'map': {
      if (!needSpec(w, op.spec)) return;
      mapTests(w, op.spec, refsToIds(w, op.tests), op.mode);
      return;
    }
    case 'toggle': {
      if (!needSpec(w, op.spec)) return;
      const [id] = refsToIds(w, [op.test]);
      if (id === undefined) return;
      const t = w.tests.find((x) => x.id === id) as TestCase;
      t.specs = t.specs.includes(op.spec) ? t.specs.filter((s) => s !== op.spec) : [...t.specs, op.spec];
      return;
    }
    default:
      w.errors.push({ code: 'invalid_op', message: `unknown operation ${JSON.stringify((op as { op?: unknown }).op)}; expected one of ${SPEC_OP_KINDS.join(', ')}` });
  }
}

function checkRules(w: Work, opts: EditOptions): void {
  const setIds = new Set(w.setTexts.map((x) => x.id));
  for (const { id, text } of w.setTexts) {
    if (text.trim() === '') {
      w.errors.push({ code: 'empty_text', message: `the text of spec ${id} is empty` });
      continue;
    }
    const norm = normalisedText(text);
    const twin = w.specs.find((s) => s.id !== id && normalisedText(s.text) === norm && (!setIds.has(s.id) || s.id < id));
    if (twin) w.errors.push({ code: 'duplicate_text', message: `spec ${id} would have the same text as ${twin.id}: "${text.trim().slice(0, 120)}"` });
  }
  for (const { id, category } of w.setCategories) {
    if (!CATEGORY_PATTERN.test(category)) w.errors.push({ code: 'invalid_category', message: `category "${category}" of spec ${id} is not a kebab-case name (${CATEGORY_PATTERN.source})` });
    else if (!isTaxonomyCategory(category) && !opts.allowCategory) {
      w.errors.push({ code: 'unknown_category', message: `category "${category}" of spec ${id} is not in the taxonomy (${SPEC_CATEGORIES.join(', ')}); allow a new one explicitly (--allow-category)` });
    }
  }
  const ids = new Set(w.specs.map((s) => s.id));
  for (const id of new Set(w.setDepends)) {
    const s = w.specs.find((x) => x.id === id);
    if (!s) continue;
    for (const d of s.dependsOn) {
      if (d === id) w.errors.push({ code: 'self_dependency', message: `spec ${id} cannot depend on itself` });
      else if (!ids.has(d)) w.errors.push({ code: 'unknown_spec', message: `spec ${id} depends on "${d}", which the task does not have` });
    }
  }
  // A new cycle must pass through a spec whose dependsOn the operation set (merges rewire others: check them all).
  const starts = w.deleted.length > 0 ? [...ids] : [...new Set(w.setDepends)];
  for (const id of starts) {
    const c = cycleThrough(w.specs, id);
    if (!c) continue;
    w.errors.push({ code: 'cycle', message: `dependsOn would make a cycle: ${c.join(' -> ')}` });
    break;
  }
}

const isStr = (v: unknown): v is string => typeof v === 'string';
const isStrList = (v: unknown): v is string[] => Array.isArray(v) && v.length <= 100_000 && v.every(isStr);

/**
 * Checks that a value from outside (a webview request, a script's JSON) has an operation's shape: the first wrong
 * field is named. The rules (texts, ids, categories) are checked by editSpecs.
 */
export function checkSpecOp(v: unknown): SpecEditError | undefined {
  const bad = (field: string, want: string): SpecEditError => ({ code: 'invalid_op', message: `${field}: expected ${want}` });
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return bad('operation', 'an object');
  const o = v as Record<string, unknown>;
  if (!isStr(o.op) || !(SPEC_OP_KINDS as readonly string[]).includes(o.op)) return { code: 'invalid_op', message: `unknown operation ${JSON.stringify(o.op)}; expected one of ${SPEC_OP_KINDS.join(', ')}` };
  const need = (k: string, kind: 'string' | 'list', optional = false): SpecEditError | undefined => {
    const x = o[k];
    if (x === undefined && optional) return undefined;
    if (kind === 'string' ? !isStr(x) : !isStrList(x)) return bad(`${o.op}.${k}`, kind === 'string' ? 'a string' : 'a list of strings');
    return undefined;
  };
  switch (o.op) {
    case 'add':
      if (o.at !== undefined && (typeof o.at !== 'number' || !Number.isInteger(o.at))) return bad('add.at', 'an integer');
      return need('text', 'string') ?? need('category', 'string') ?? need('dependsOn', 'list', true) ?? need('tests', 'list', true);
    case 'edit':
      return need('spec', 'string') ?? need('text', 'string', true) ?? need('category', 'string', true) ?? need('dependsOn', 'list', true);
    case 'split': {
      const e = need('spec', 'string');
      if (e) return e;
      if (!Array.isArray(o.parts) || o.parts.length > 1000) return bad('split.parts', 'a list of parts');
      for (const [i, p] of (o.parts as unknown[]).entries()) {
        const part = p as Record<string, unknown> | null;
        if (typeof part !== 'object' || part === null || !isStr(part.text)) return bad(`split.parts[${i}].text`, 'a string');
        if (part.category !== undefined && !isStr(part.category)) return bad(`split.parts[${i}].category`, 'a string');
        if (part.tests !== undefined && !isStrList(part.tests)) return bad(`split.parts[${i}].tests`, 'a list of strings');
      }
      return undefined;
    }
    case 'merge':
      return need('specs', 'list') ?? need('text', 'string') ?? need('category', 'string', true);
    case 'delete':
      return need('spec', 'string');
    case 'reorder':
      return need('order', 'list');
    case 'depends':
      return need('spec', 'string') ?? need('dependsOn', 'list');
    case 'map':
      if (!isStr(o.mode) || !['replace', 'add', 'remove'].includes(o.mode)) return bad('map.mode', 'replace, add or remove');
      return need('spec', 'string') ?? need('tests', 'list');
    case 'toggle':
      return need('spec', 'string') ?? need('test', 'string');
  }
  return undefined;
}

/** Applies one operation to a task's specs and tests (neither is changed in place). */
export function editSpecs(specs: readonly Spec[], tests: readonly TestCase[], op: SpecOp, opts: EditOptions = {}): EditResult {
  const shape = checkSpecOp(op);
  if (shape) return { ok: false, errors: [shape] };
  const w: Work = { specs: copySpecs(specs), tests: copyTests(tests), errors: [], setTexts: [], setCategories: [], setDepends: [], created: [], deleted: [] };
  apply(w, op);
  if (w.errors.length === 0) checkRules(w, opts);
  if (w.errors.length > 0) return { ok: false, errors: w.errors };
  const changedSpecs = changedSpecsBetween({ specs, tests }, w);
  const sameOrder = specs.length === w.specs.length && specs.every((s, i) => s.id === w.specs[i]?.id);
  const sameTestOrder = tests.every((t, i) => (w.tests[i] as TestCase).specs.join('\0') === t.specs.join('\0'));
  if (changedSpecs.length === 0 && sameOrder && sameTestOrder) return { ok: false, errors: [{ code: 'no_change', message: 'the specs are the same as before: nothing to write' }] };
  const warnings: string[] = [];
  for (const s of w.specs) if (!isTaxonomyCategory(s.category)) warnings.push(`spec ${s.id} has category "${s.category}", which is not in the taxonomy; kept as it is`);
  return { ok: true, specs: w.specs, tests: w.tests, changedSpecs, created: w.created, deleted: w.deleted, warnings };
}

/** One line on what an operation does, for the history. */
export function describeSpecOp(op: SpecOp): string {
  switch (op.op) {
    case 'add':
      return `add a spec (${op.category})`;
    case 'edit':
      return `edit ${op.spec} (${[op.text !== undefined ? 'text' : '', op.category !== undefined ? 'category' : '', op.dependsOn !== undefined ? 'dependsOn' : ''].filter((x) => x).join(', ')})`;
    case 'split':
      return `split ${op.spec} into ${op.parts.length}`;
    case 'merge':
      return `merge ${op.specs.join(', ')}`;
    case 'delete':
      return `delete ${op.spec}`;
    case 'reorder':
      return 'reorder the specs';
    case 'depends':
      return `set dependsOn of ${op.spec} to ${op.dependsOn.join(', ') || 'none'}`;
    case 'map':
      return `${op.mode} tests of ${op.spec}: ${op.tests.join(', ') || 'none'}`;
    case 'toggle':
      return `toggle ${op.spec} × ${op.test}`;
  }
}
