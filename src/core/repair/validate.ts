// Checking a model's reply: is it JSON, does it match the suggestion schema, and does what it proposes make sense for
// this task (known ids, diffs that apply, a change that changes something). Errors are short sentences naming the
// field, fit to be sent back to the model for its one retry and to be shown to the curator.
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import type { CandidateTask, Spec, TestCase } from '../model';
import { applyFilePatch, parsePatch } from '../patch';
import { unsafeRelativePath } from '../paths';
import type { EvidenceLink } from '../review/evidence';
import { evidenceProblem } from '../review/evidence';
import type { CheckedSuggestion, RepairChanges, RequestedTarget, SuggestionEvidence, SuggestionReply } from './suggestion';
import { SUGGESTION_SCHEMA } from './suggestion';
import { notATestFile } from './testPaths';

let compiled: ValidateFunction | undefined;
function schemaValidator(): ValidateFunction {
  compiled ??= new Ajv({ allErrors: true, strict: false }).compile(SUGGESTION_SCHEMA);
  return compiled;
}

export type ParsedReply = { ok: true; reply: SuggestionReply } | { ok: false; kind: 'not_json' | 'schema'; errors: string[] };

/** The JSON object in a model's reply: the whole text, or inside a code fence, or from the first `{` to the last `}`. */
export function replyJsonText(text: string): string {
  const t = text.trim();
  const fence = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(t);
  if (fence) return (fence[1] as string).trim();
  if (t.startsWith('{')) return t;
  const a = t.indexOf('{');
  const b = t.lastIndexOf('}');
  return a >= 0 && b > a ? t.slice(a, b + 1) : t;
}

/** Parses and schema-checks a reply. */
export function parseReply(text: string): ParsedReply {
  let value: unknown;
  try {
    value = JSON.parse(replyJsonText(text));
  } catch (e) {
    const start = text.trim().slice(0, 80).replace(/\s+/g, ' ');
    return { ok: false, kind: 'not_json', errors: [`the reply is not JSON (${(e as Error).message}); it begins "${start}"`] };
  }
  const v = schemaValidator();
  if (!v(value)) {
    const errors = (v.errors ?? [])
      .filter((e) => e.keyword !== 'anyOf')
      .slice(0, 20)
      .map((e) => `${e.instancePath || '(the reply)'}: ${e.message ?? 'is invalid'}${e.params && 'allowedValues' in e.params ? ` (${(e.params.allowedValues as unknown[]).join(', ')})` : ''}${e.params && 'additionalProperty' in e.params ? ` ("${String(e.params.additionalProperty)}")` : ''}`);
    return { ok: false, kind: 'schema', errors: [...new Set(errors)] };
  }
  return { ok: true, reply: value as SuggestionReply };
}

/** Applies a unified diff the model wrote for one file to its current text. */
export function applyModelDiff(current: string, diff: string, path: string): { ok: true; text: string } | { ok: false; message: string } {
  let text = diff.replace(/\r\n/g, '\n');
  if (!/^(diff --git |--- )/m.test(text)) text = `--- a/${path}\n+++ b/${path}\n${text}`;
  const parsed = parsePatch(text, path);
  const fp = parsed.files.find((f) => f.newPath === path || f.oldPath === path) ?? parsed.files[0];
  if (!fp || fp.hunks.length === 0) return { ok: false, message: `the diff for ${path} has no hunks` };
  const r = applyFilePatch(current, fp);
  if (!r.ok) return { ok: false, message: `the diff for ${path} does not apply to the current file: ${r.reason}` };
  return { ok: true, text: r.text };
}

export interface ReplyContext {
  task: CandidateTask;
  requested: RequestedTarget;
  /** Current request.md. */
  request: string;
  /** Current text of test files by repository path (after the test patch); undefined = the file does not exist. */
  testFiles: ReadonlyMap<string, string | undefined>;
  /** The repository paths the task's test patch touches (default: the keys of `testFiles`). */
  testPatchPaths?: readonly string[];
}

/** Targets whose parts a reply may change when the curator asked for `requested`. */
const ALLOWED: Record<Exclude<RequestedTarget, 'auto'>, ReadonlyArray<keyof RepairChanges>> = {
  request: ['request', 'specs'],
  specs: ['specs', 'tests'],
  tests: ['testFiles', 'tests'],
  spec_test_map: ['tests'],
};

const CATEGORY_RE = /^[a-z][a-z0-9-]*$/;

/** Test files a reply names that the context does not hold yet (the caller reads them, then checks). */
export function pathsNamed(reply: SuggestionReply): string[] {
  return (reply.testFiles ?? []).map((f) => f.path);
}

export type CheckResult = { ok: true; suggestion: CheckedSuggestion } | { ok: false; errors: string[] } | { ok: 'refused'; reason: string };

/** Checks a schema-valid reply against the task and turns it into new texts. */
export function checkReply(reply: SuggestionReply, ctx: ReplyContext): CheckResult {
  if (reply.refusal !== null && reply.refusal.trim() !== '') return { ok: 'refused', reason: reply.refusal.trim() };
  const errors: string[] = [];
  const { task } = ctx;
  const changes: RepairChanges = {};

  if (reply.request) {
    const r = reply.request;
    if ((r.content === null) === (r.diff === null)) errors.push('request: give exactly one of content or diff');
    else if (r.content !== null) changes.request = r.content;
    else {
      const a = applyModelDiff(ctx.request, r.diff as string, 'request.md');
      if (a.ok) changes.request = a.text;
      else errors.push(`request.diff: ${a.message}`);
    }
    if (changes.request !== undefined && changes.request === ctx.request) delete changes.request;
    if (changes.request !== undefined && changes.request.trim() === '') errors.push('request: the new request is empty');
  }

  let specs: Spec[] = task.specs;
  if (reply.specs) {
    const ids = new Set<string>();
    reply.specs.forEach((s, i) => {
      if (!s.id.trim()) errors.push(`specs[${i}].id: is empty`);
      else if (ids.has(s.id)) errors.push(`specs[${i}].id: "${s.id}" is used twice`);
      ids.add(s.id);
      if (!s.text.trim()) errors.push(`specs[${i}].text: is empty`);
      if (!CATEGORY_RE.test(s.category)) errors.push(`specs[${i}].category: "${s.category}" is not a kebab-case category`);
    });
    reply.specs.forEach((s, i) =>
      s.dependsOn.forEach((d, j) => {
        if (d === s.id) errors.push(`specs[${i}].dependsOn[${j}]: a spec cannot depend on itself`);
        else if (!ids.has(d)) errors.push(`specs[${i}].dependsOn[${j}]: unknown spec "${d}"`);
      }),
    );
    specs = reply.specs.map((s) => ({ id: s.id, text: s.text, category: s.category, dependsOn: s.dependsOn }));
    if (!sameJson(specs, task.specs)) changes.specs = specs;
  }

  if (reply.specTestMap) {
    const specIds = new Set(specs.map((s) => s.id));
    const ids = new Set<string>();
    const names = new Set<string>();
    reply.specTestMap.forEach((t, i) => {
      if (!t.id.trim()) errors.push(`specTestMap[${i}].id: is empty`);
      else if (ids.has(t.id)) errors.push(`specTestMap[${i}].id: "${t.id}" is used twice`);
      ids.add(t.id);
      if (!t.name.trim()) errors.push(`specTestMap[${i}].name: is empty`);
      else if (names.has(t.name)) errors.push(`specTestMap[${i}].name: "${t.name}" is used twice`);
      names.add(t.name);
      t.specs.forEach((s, j) => {
        if (!specIds.has(s)) errors.push(`specTestMap[${i}].specs[${j}]: unknown spec "${s}"`);
      });
    });
    const tests: TestCase[] = reply.specTestMap.map((t) => ({ id: t.id, name: t.name, kind: t.kind, specs: t.specs }));
    if (!sameJson(tests, task.tests)) changes.tests = tests;
  } else if (changes.specs) {
    // Specs removed by the reply must not stay in the map.
    const specIds = new Set(specs.map((s) => s.id));
    const dangling = task.tests.flatMap((t) => t.specs.filter((s) => !specIds.has(s)).map((s) => `${t.id} -> ${s}`));
    if (dangling.length > 0) errors.push(`specTestMap: is null but tests still map to removed specs (${dangling.join(', ')}); send the new map`);
  }

  if (reply.testFiles) {
    const own = ctx.testPatchPaths ?? [...ctx.testFiles.keys()];
    const seen = new Set<string>();
    const out: Array<{ path: string; text: string }> = [];
    reply.testFiles.forEach((f, i) => {
      const unsafe = unsafeRelativePath(f.path);
      if (unsafe) {
        errors.push(`testFiles[${i}].path: ${unsafe}`);
        return;
      }
      if (seen.has(f.path)) {
        errors.push(`testFiles[${i}].path: "${f.path}" is given twice`);
        return;
      }
      const notTest = notATestFile(f.path, own);
      if (notTest) {
        errors.push(`testFiles[${i}].path: ${notTest}`);
        return;
      }
      seen.add(f.path);
      if ((f.content === null) === (f.diff === null)) {
        errors.push(`testFiles[${i}]: give exactly one of content or diff`);
        return;
      }
      const current = ctx.testFiles.get(f.path);
      let text: string;
      if (f.content !== null) text = f.content;
      else {
        const a = applyModelDiff(current ?? '', f.diff as string, f.path);
        if (!a.ok) {
          errors.push(`testFiles[${i}].diff: ${a.message}`);
          return;
        }
        text = a.text;
      }
      if (text !== current) out.push({ path: f.path, text });
    });
    if (out.length > 0) changes.testFiles = out;
  }

  const evidence: SuggestionEvidence[] = [];
  reply.evidence.forEach((e, i) => {
    const link = toLink(e, task);
    if (typeof link === 'string') {
      errors.push(`evidence[${i}]: ${link}`);
      return;
    }
    const p = evidenceProblem(link, task);
    if (p) errors.push(`evidence[${i}]: ${p}`);
    else evidence.push({ ...link, why: e.why });
  });

  const changed = (Object.keys(changes) as Array<keyof RepairChanges>).filter((k) => changes[k] !== undefined);
  if (changed.length === 0 && errors.length === 0) errors.push('the reply changes nothing: request, specs, specTestMap and testFiles are all null or equal to the current task');
  if (ctx.requested !== 'auto') {
    const allowed = ALLOWED[ctx.requested];
    const outside = changed.filter((k) => !allowed.includes(k));
    if (outside.length > 0) errors.push(`the curator asked for a change to the ${ctx.requested.replace(/_/g, '-')} only, but the reply also changes ${outside.join(', ')}`);
    if (reply.target !== ctx.requested) errors.push(`target: the curator asked for "${ctx.requested}", the reply says "${reply.target}"`);
  } else {
    // The model chose the target: what it changes must still be what that target may change.
    const allowed = ALLOWED[reply.target];
    const outside = changed.filter((k) => !allowed.includes(k));
    if (outside.length > 0) errors.push(`target: a ${reply.target.replace(/_/g, '-')} suggestion may change ${allowed.join(', ')} only, but this one also changes ${outside.join(', ')}`);
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, suggestion: { target: reply.target, summary: reply.summary.trim(), rationale: reply.rationale.trim(), evidence, changes } };
}

function toLink(e: SuggestionReply['evidence'][number], task: CandidateTask): EvidenceLink | string {
  const need = (field: string, v: unknown) => (v === null || v === undefined || v === '' ? `${e.kind} needs ${field}` : undefined);
  switch (e.kind) {
    case 'trajectory_step':
      return need('attempt', e.attempt) ?? need('step', e.step) ?? { kind: e.kind, attempt: e.attempt as string, step: e.step as number };
    case 'test': {
      const miss = need('test', e.test);
      if (miss) return miss;
      // Models name tests by id or by their runner name; links hold ids.
      const t = task.tests.find((x) => x.id === e.test) ?? task.tests.find((x) => x.name === e.test);
      return { kind: e.kind, test: t ? t.id : (e.test as string) };
    }
    case 'log_line':
      return need('run', e.run) ?? need('line', e.line) ?? { kind: e.kind, run: e.run as string, line: Math.max(1, e.line as number), ...(e.stream ? { stream: e.stream } : {}) };
    case 'diff_hunk': {
      const miss = need('patch', e.patch) ?? need('file', e.file) ?? need('hunk', e.hunk);
      if (miss) return miss;
      if (e.patch === 'attempt' && !e.attempt) return 'a diff hunk of an attempt patch needs the attempt';
      return { kind: e.kind, patch: e.patch as 'attempt' | 'gold' | 'tests', ...(e.patch === 'attempt' ? { attempt: e.attempt as string } : {}), file: e.file as string, hunk: e.hunk as number };
    }
    case 'spec':
      return need('spec', e.spec) ?? { kind: e.kind, spec: e.spec as string };
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The message sent back to the model for its one retry. */
export function retryMessage(errors: string[]): string {
  return [
    'Your reply could not be used:',
    ...errors.map((e) => `- ${e}`),
    'Send the whole reply again as one JSON object matching the schema, with these problems fixed.',
  ].join('\n');
}
