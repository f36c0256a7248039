// Checking the drafter's reply, deterministically: is it JSON, does it have the draft's shape, and per spec: a usable
// id, a text that is neither empty nor a duplicate, a category of the taxonomy, tests the task has, a citation whose
// quote is really there (whitespace normalised; a patch citation on the line it names), dependsOn links that name
// specs and close no cycle. A bad spec is rejected with its reason and the rest go on; when nothing survives the
// draft fails with every reason. Errors are sentences naming the spec and the field, fit to show the curator.
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import { parseRecordJson } from '../json';
import type { Spec, TestCase } from '../model';
import type { Citation, CitationSource, DraftReply } from './draftPrompt';
import { CITATION_SOURCES, DRAFT_SCHEMA, SPEC_CATEGORIES } from './draftPrompt';
import { replyJsonText } from '../repair/validate';

/** A spec of the reply that was not taken, and why. */
export interface DraftRejection {
  /** 0-based position in the reply's specs. */
  index: number;
  id: string;
  text: string;
  reason: string;
}

export interface DraftContext {
  tests: readonly TestCase[];
  request: string;
  testPatch: string;
  goldPatch?: string;
}

export type DraftCheck =
  | {
      ok: true;
      specs: Spec[];
      /** The task's tests with the drafted spec-test map. */
      tests: TestCase[];
      citations: Record<string, Citation>;
      rejections: DraftRejection[];
      /** Things changed to keep a surviving spec (a dependsOn link to a rejected spec dropped). */
      notes: string[];
    }
  | { ok: false; kind: 'not_json' | 'schema' | 'refused' | 'empty' | 'none_survived'; reasons: string[]; rejections: DraftRejection[] };

/** Shorter quotes prove nothing: almost any text holds them. */
export const MIN_QUOTE_CHARS = 8;
const ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

// The structure is checked by the schema with category and source left open: those are checked per spec, so one bad
// category rejects its spec, not the draft.
let compiled: ValidateFunction | undefined;
function shapeValidator(): ValidateFunction {
  if (compiled) return compiled;
  const schema = JSON.parse(JSON.stringify(DRAFT_SCHEMA)) as { properties: { specs: { items: { properties: Record<string, { type?: unknown; enum?: unknown; properties?: Record<string, { enum?: unknown }> }> } } } };
  const props = schema.properties.specs.items.properties;
  delete (props.category as { enum?: unknown }).enum;
  delete ((props.citation as { properties: Record<string, { enum?: unknown }> }).properties.source as { enum?: unknown }).enum;
  compiled = new Ajv({ allErrors: true, strict: false }).compile(schema);
  return compiled;
}

export type ParsedDraft = { ok: true; reply: DraftReply } | { ok: false; kind: 'not_json' | 'schema'; reasons: string[] };

/** Parses and shape-checks a reply. */
export function parseDraftReply(text: string): ParsedDraft {
  const parsed = parseRecordJson(replyJsonText(text));
  if (!parsed.ok) {
    const start = text.trim().slice(0, 80).replace(/\s+/g, ' ');
    return { ok: false, kind: 'not_json', reasons: [`the reply is not JSON (${parsed.message}); it begins "${start}"`] };
  }
  const v = shapeValidator();
  if (!v(parsed.value)) {
    const reasons = (v.errors ?? []).slice(0, 20).map((e) => `${e.instancePath || '(the reply)'}: ${e.message ?? 'is invalid'}${e.params && 'additionalProperty' in e.params ? ` ("${String(e.params.additionalProperty)}")` : ''}`);
    return { ok: false, kind: 'schema', reasons: [...new Set(reasons)] };
  }
  return { ok: true, reply: parsed.value as DraftReply };
}

/** Runs of whitespace as one space, trimmed: a quote may wrap differently than its source. */
export function normalizeSpace(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

const textKey = (s: string) => normalizeSpace(s).toLowerCase().replace(/[.;:!]+$/, '');
const SOURCE_NAME: Record<CitationSource, string> = { request: 'the request', test_patch: 'the test patch', gold_patch: 'the gold patch' };

class Sources {
  private readonly normalized = new Map<CitationSource, string>();
  private readonly lines = new Map<CitationSource, string[]>();
  constructor(private readonly ctx: DraftContext) {}

  text(s: CitationSource): string | undefined {
    return s === 'request' ? this.ctx.request : s === 'test_patch' ? this.ctx.testPatch : this.ctx.goldPatch;
  }

  whole(s: CitationSource): string {
    let n = this.normalized.get(s);
    if (n === undefined) this.normalized.set(s, (n = normalizeSpace(this.text(s) ?? '')));
    return n;
  }

  line(s: CitationSource, n: number): string | undefined {
    let l = this.lines.get(s);
    if (!l) this.lines.set(s, (l = (this.text(s) ?? '').replace(/\r\n/g, '\n').split('\n')));
    return l[n - 1];
  }
}

const excerpt = (s: string) => JSON.stringify(s.length > 100 ? `${s.slice(0, 100)}…` : s);

/** Why a citation does not hold, or undefined when its quote is where it says. */
function citationProblem(c: DraftReply['specs'][number]['citation'], src: Sources): string | undefined {
  if (!(CITATION_SOURCES as readonly string[]).includes(c.source)) return `citation.source: "${c.source}" is not one of ${CITATION_SOURCES.join(', ')}`;
  const quote = normalizeSpace(c.quote);
  if (quote.length < MIN_QUOTE_CHARS) return `citation.quote: ${quote === '' ? 'is empty' : `${excerpt(quote)} is shorter than ${MIN_QUOTE_CHARS} characters, which proves nothing`}`;
  const text = src.text(c.source);
  if (text === undefined || text.trim() === '') return `citation: the task has no ${c.source === 'gold_patch' ? 'gold patch' : c.source === 'test_patch' ? 'test patch' : 'request'} to cite`;
  if (c.source === 'request') {
    if (!src.whole('request').includes(quote)) return `citation.quote: ${excerpt(quote)} is not in the request`;
    return undefined;
  }
  if (c.line === null) return `citation.line: a citation of ${SOURCE_NAME[c.source]} needs the line number`;
  const line = src.line(c.source, c.line);
  if (line === undefined || c.line < 1) return `citation.line: ${SOURCE_NAME[c.source]} has no line ${c.line}`;
  if (!normalizeSpace(line).includes(quote)) return `citation.quote: ${excerpt(quote)} is not on line ${c.line} of ${SOURCE_NAME[c.source]} (it reads ${excerpt(line)})`;
  return undefined;
}

/** Specs of `ids` on a dependsOn cycle, each with the cycle it is on (Tarjan's strongly connected components). */
function cycles(ids: readonly string[], deps: ReadonlyMap<string, readonly string[]>): Map<string, string> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out = new Map<string, string>();
  let n = 0;
  const visit = (v: string): void => {
    index.set(v, n);
    low.set(v, n);
    n++;
    stack.push(v);
    onStack.add(v);
    for (const w of deps.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      const selfLoop = comp.length === 1 && (deps.get(v) ?? []).includes(v);
      if (comp.length > 1 || selfLoop) {
        const order = ids.filter((x) => comp.includes(x));
        const path = `${[...order, order[0]].join(' -> ')}`;
        for (const x of comp) out.set(x, path);
      }
    }
  };
  for (const v of ids) if (!index.has(v)) visit(v);
  return out;
}

/** Checks a reply's text against the task; see the file comment. */
export function checkDraft(replyText: string, ctx: DraftContext): DraftCheck {
  const parsed = parseDraftReply(replyText);
  if (!parsed.ok) return { ok: false, kind: parsed.kind, reasons: parsed.reasons, rejections: [] };
  return checkDraftReply(parsed.reply, ctx);
}

export function checkDraftReply(reply: DraftReply, ctx: DraftContext): DraftCheck {
  if (reply.refusal !== null && reply.refusal.trim() !== '') return { ok: false, kind: 'refused', reasons: [`the model declined: ${reply.refusal.trim()}`], rejections: [] };
  if (reply.specs.length === 0) return { ok: false, kind: 'empty', reasons: ['the reply proposes no specs'], rejections: [] };
  const src = new Sources(ctx);
  const byId = new Map(ctx.tests.map((t) => [t.id, t]));
  const byName = new Map(ctx.tests.map((t) => [t.name, t]));
  const allIds = new Set(reply.specs.map((s) => s.id));
  const rejections: DraftRejection[] = [];
  const seenIds = new Set<string>();
  const seenTexts = new Map<string, string>();
  const kept: Array<{ index: number; spec: Spec; tests: string[]; citation: Citation }> = [];

  reply.specs.forEach((s, index) => {
    const reject = (reason: string) => rejections.push({ index, id: s.id, text: s.text, reason: `specs[${index}] (${s.id || 'no id'}): ${reason}` });
    if (!ID_RE.test(s.id)) return reject(`id: "${s.id}" is not a usable id (letters, digits, . _ -; up to 200)`);
    if (seenIds.has(s.id)) return reject(`id: "${s.id}" is used by an earlier spec`);
    seenIds.add(s.id);
    if (s.text.trim() === '') return reject('text: is empty');
    const key = textKey(s.text);
    const same = seenTexts.get(key);
    if (same !== undefined) return reject(`text: duplicates spec ${same}`);
    if (!(SPEC_CATEGORIES as readonly string[]).includes(s.category)) return reject(`category: "${s.category}" is not in the taxonomy (${SPEC_CATEGORIES.join(', ')})`);
    const tests: string[] = [];
    for (const t of s.tests) {
      const found = byId.get(t) ?? byName.get(t);
      if (!found) return reject(`tests: the task has no test "${t}"`);
      if (!tests.includes(found.id)) tests.push(found.id);
    }
    for (const d of s.dependsOn) {
      if (d === s.id) return reject(`dependsOn: a spec cannot depend on itself (cycle ${s.id} -> ${s.id})`);
      if (!allIds.has(d)) return reject(`dependsOn: there is no spec "${d}"`);
    }
    const problem = citationProblem(s.citation, src);
    if (problem) return reject(problem);
    seenTexts.set(key, s.id);
    const citation: Citation = { quote: s.citation.quote, source: s.citation.source, ...(s.citation.line !== null ? { line: s.citation.line } : {}) };
    kept.push({ index, spec: { id: s.id, text: s.text.trim(), category: s.category, dependsOn: [...new Set(s.dependsOn)] }, tests, citation });
    return undefined;
  });

  // Cycles among the specs that passed; then links to rejected specs go (the spec stays, a note says so).
  const notes: string[] = [];
  const deps = new Map(kept.map((k) => [k.spec.id, k.spec.dependsOn]));
  const onCycle = cycles(kept.map((k) => k.spec.id), deps);
  const survivors = kept.filter((k) => {
    const c = onCycle.get(k.spec.id);
    if (c !== undefined) rejections.push({ index: k.index, id: k.spec.id, text: k.spec.text, reason: `specs[${k.index}] (${k.spec.id}): dependsOn: closes a cycle ${c}` });
    return c === undefined;
  });
  const alive = new Set(survivors.map((k) => k.spec.id));
  for (const k of survivors) {
    const dropped = k.spec.dependsOn.filter((d) => !alive.has(d));
    if (dropped.length > 0) {
      notes.push(`${k.spec.id}: dependsOn ${dropped.join(', ')} dropped (rejected)`);
      k.spec.dependsOn = k.spec.dependsOn.filter((d) => alive.has(d));
    }
  }
  rejections.sort((a, b) => a.index - b.index);
  if (survivors.length === 0) return { ok: false, kind: 'none_survived', reasons: rejections.map((r) => r.reason), rejections };

  const tests: TestCase[] = ctx.tests.map((t) => ({ id: t.id, name: t.name, kind: t.kind, specs: survivors.filter((k) => k.tests.includes(t.id)).map((k) => k.spec.id) }));
  const citations: Record<string, Citation> = {};
  for (const k of survivors) citations[k.spec.id] = k.citation;
  return { ok: true, specs: survivors.map((k) => k.spec), tests, citations, rejections, notes };
}
