// LLM-written probes of a task's tests (issue 13): *alternative solutions*, rewrites of the gold patch meant to keep
// every spec (one the tests reject is false-negative evidence: an over-strict test), and *plausible-wrong variants*,
// rewrites meant to violate one named spec only (one the tests still accept is false-positive evidence: no test checks
// that spec). This file holds the prompts, the reply schema, the deterministic checks of a reply, the failure
// evidence of a run and the two reports. Pure: the caller read the files and ran the patches (docs/probes.md).
import { createHash } from 'node:crypto';
import { parseRecordJson } from '../json';
import type { CandidateTask, Spec, TestCase } from '../model';
import { filePath, notAPatch, parsePatch } from '../patch';
import type { VerifierRunRecord } from '../verify/runResult';
import { failingTests, mutantOutcome } from './mutantReport';

export const LLM_PROBE_KINDS = ['alternatives', 'variants'] as const;
export type LlmProbeKind = (typeof LLM_PROBE_KINDS)[number];

/** Bumped when the prompts' wording or the schema changes: a report says which version wrote its patches. */
export const PATCH_PROMPT_VERSION = 'llm-patches-1';
export const PATCH_SCHEMA_NAME = 'probe_patches';
/** Most patches one reply may hold, and most bytes one patch may have. */
export const MAX_LLM_PATCHES = 20;
export const MAX_PATCH_BYTES = 256 * 1024;

/** The reply schema for strict JSON-schema mode: every property required, nullable where optional. */
export const PATCH_SCHEMA: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  required: ['refusal', 'patches'],
  properties: {
    refusal: { type: ['string', 'null'], description: 'null, or why no patch can be written (then patches is empty)' },
    patches: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['spec', 'summary', 'patch', 'outsideGoldFiles'],
        properties: {
          spec: { type: ['string', 'null'], description: 'variants: the id of the one spec this patch violates; alternatives: null' },
          summary: { type: 'string', description: 'one sentence: how this patch differs from the gold patch' },
          patch: { type: 'string', description: 'a unified diff (git format, a/ and b/ prefixes) against the base files, replacing the gold patch as a whole' },
          outsideGoldFiles: { type: ['string', 'null'], description: 'null, or why the patch must touch a file the gold patch does not' },
        },
      },
    },
  },
};

export interface PromptMessage {
  role: 'system' | 'user';
  content: string;
}

export interface PatchPromptInput {
  kind: LlmProbeKind;
  task: Pick<CandidateTask, 'id' | 'specs' | 'tests'>;
  request: string;
  goldPatch: string;
  /** The base text of each file the gold patch changes (what the patches are written against). */
  baseFiles: ReadonlyArray<{ path: string; text: string }>;
  /** Alternatives: how many to write. */
  count: number;
  /** Variants: the specs to write one violating variant each for. */
  specs?: readonly string[];
  /** Tokens the prompt may use. */
  budgetTokens: number;
}

export interface PatchPrompt {
  messages: PromptMessage[];
  estimatedTokens: number;
  budgetTokens: number;
  /** The parts cut to fit the budget (`request`, `gold_patch`, `base:<path>`). */
  cut: string[];
  /** SHA-256 (hex) of the messages as built. */
  hash: string;
}

const CHARS_PER_TOKEN = 3.5;
const estimate = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN);

const COMMON_RULES = `Rules for every patch:
- A unified diff in git format ("diff --git a/F b/F", "--- a/F", "+++ b/F", "@@ -l,n +l,n @@" hunks) against the BASE files shown, that replaces the gold patch as a whole (it is applied instead of it, to the same base).
- Touch only the files the gold patch touches; if one truly must touch another file, say why in outsideGoldFiles (else null).
- Never touch a test file (tests/, test_*.py, *_test.py, conftest.py, or any file of the test patch): the task's tests are fixed.
- Keep every context line exactly as the base file has it, whitespace included.
Reply with one JSON object: {"refusal": null, "patches": [{"spec": ..., "summary": "...", "patch": "...", "outsideGoldFiles": null}]}.`;

function systemPrompt(kind: LlmProbeKind): string {
  if (kind === 'alternatives') {
    return `You probe the tests of a coding-benchmark task for false negatives. You are shown the request, the specs an acceptable solution must satisfy, the tests with the specs they check, the gold (reference) patch and the base files it changes.
Write different implementations of the same change: each must satisfy EVERY spec, as a careful engineer reading only the request and the specs would write it, but differ from the gold patch in a way the specs allow (other wording of messages the specs do not fix, another algorithm, another structure, another order of checks). A test that rejects such a patch is over-strict.
Set spec to null.
${COMMON_RULES}`;
  }
  return `You probe the tests of a coding-benchmark task for false positives. You are shown the request, the specs an acceptable solution must satisfy, the tests with the specs they check, the gold (reference) patch and the base files it changes.
For each spec named in the user message, write ONE plausible-wrong variant of the gold patch: a patch a hurried engineer could write, that violates THAT spec (on some input the spec speaks about it behaves differently from what the spec says) while keeping every other spec. Do not break the code in other ways (no syntax errors, no crashes). Set spec to the id of the spec the variant violates.
${COMMON_RULES}`;
}

/** Text cut to at most `chars`: its head, then a marker with the lines left out. */
function capText(text: string, chars: number): { text: string; cut: boolean } {
  if (text.length <= chars) return { text, cut: false };
  const head = text.slice(0, Math.max(0, chars));
  const kept = head.lastIndexOf('\n') > 0 ? head.slice(0, head.lastIndexOf('\n') + 1) : head;
  const left = text.slice(kept.length).split('\n').length;
  return { text: `${kept}[... ${left} lines cut ...]\n`, cut: true };
}

function testLine(t: TestCase): string {
  return `${t.id} ${t.kind} ${t.name}${t.specs.length ? ` (specs: ${t.specs.join(', ')})` : ' (no spec)'}`;
}

/** The prompt of an LLM probe. Each part is capped on its own share of the budget; same input, same prompt. */
export function buildPatchPrompt(inp: PatchPromptInput): PatchPrompt {
  const budgetChars = Math.max(2000, Math.floor(inp.budgetTokens * CHARS_PER_TOKEN));
  const system = systemPrompt(inp.kind);
  const specs = inp.task.specs.map((s: Spec) => `${s.id} (${s.category}): ${s.text}`).join('\n') || '(no specs)';
  const tests = inp.task.tests.map(testLine).join('\n') || '(no tests)';
  const fixed = system.length + specs.length + tests.length + 600;
  const room = Math.max(1000, budgetChars - fixed);
  const cut: string[] = [];
  const req = capText(inp.request, Math.floor(room * 0.2));
  if (req.cut) cut.push('request');
  const gold = capText(inp.goldPatch, Math.floor(room * 0.35));
  if (gold.cut) cut.push('gold_patch');
  const perFile = inp.baseFiles.length ? Math.floor((room * 0.45) / inp.baseFiles.length) : 0;
  const bases = inp.baseFiles.map((f) => {
    const c = capText(f.text, perFile);
    if (c.cut) cut.push(`base:${f.path}`);
    return `### BASE ${f.path}\n${c.text}`;
  });
  const ask =
    inp.kind === 'alternatives'
      ? `Write ${inp.count} alternative solution(s), each keeping every spec.`
      : `Write one plausible-wrong variant for each of these specs: ${(inp.specs ?? []).join(', ')}.`;
  const user = [
    `Task ${inp.task.id}.`,
    `## Request\n${req.text}`,
    `## Specs\n${specs}`,
    `## Tests (id kind name, and the specs each checks)\n${tests}`,
    `## Gold patch\n${gold.text}`,
    `## Base files the gold patch changes\n${bases.join('\n') || '(not known: the repository is held in an image)'}`,
    `## Your job\n${ask}`,
  ].join('\n\n');
  const messages: PromptMessage[] = [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
  return { messages, estimatedTokens: estimate(system.length + user.length), budgetTokens: inp.budgetTokens, cut, hash: createHash('sha256').update(JSON.stringify(messages)).digest('hex') };
}

/** A patch of the reply that passed the checks. */
export interface CheckedPatch {
  /** 0-based index in the reply's `patches`. */
  index: number;
  /** `alt-<10 hex>` or `var-<spec>-<10 hex>` (a hash of the patch): the same on every run of the same reply. */
  id: string;
  spec?: string;
  summary: string;
  /** The patch as it will run (hunk counts recounted from their bodies, a final newline added). */
  patch: string;
  files: string[];
  outsideGoldFiles?: string;
  /** What was normalised (hunk headers recounted). */
  notes: string[];
}

/** A patch of the reply that did not pass, and why. */
export interface RejectedPatch {
  index: number;
  spec?: string;
  reason: string;
}

export type PatchReplyCheck =
  | { ok: true; patches: CheckedPatch[]; rejections: RejectedPatch[] }
  | { ok: false; kind: 'not_json' | 'schema' | 'refused' | 'empty' | 'none_survived'; reasons: string[]; rejections: RejectedPatch[] };

export interface PatchCheckContext {
  kind: LlmProbeKind;
  goldPatch: string;
  testPatch: string;
  /** Alternatives: the most patches taken (the number asked for). */
  count: number;
  /** Variants: the specs asked about. */
  specs?: readonly string[];
}

const TEST_PATH_RE = /(^|\/)(tests?|testing)\/|(^|\/)test_[^/]*\.py$|_tests?\.py$|(^|\/)conftest\.py$/;

/** Whether a path is a test file: one the test patch touches, or one that looks like a test by its name. */
export function isTestPath(p: string, testPatchFiles: ReadonlySet<string>): boolean {
  return testPatchFiles.has(p) || TEST_PATH_RE.test(p);
}

function patchFiles(text: string): string[] {
  const out = new Set<string>();
  for (const f of parsePatch(text).files) {
    if (f.oldPath) out.add(f.oldPath);
    if (f.newPath) out.add(f.newPath);
  }
  return [...out];
}

/**
 * Hunk headers recounted from their bodies (models miscount them, and git apply refuses a header that lies); the
 * body is every line after the header up to the next hunk or file header. Returns the patch and how many were fixed.
 */
export function recountHunks(patch: string): { patch: string; fixed: number } {
  const lines = patch.split('\n');
  const out: string[] = [];
  let fixed = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string;
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/.exec(l);
    if (!m) {
      out.push(l);
      continue;
    }
    let oldN = 0;
    let newN = 0;
    let j = i + 1;
    for (; j < lines.length; j++) {
      const b = lines[j] as string;
      if (b.startsWith('@@ ') || b.startsWith('diff --git ') || (b.startsWith('--- ') && (lines[j + 1] ?? '').startsWith('+++ '))) break;
      const c = b[0];
      if (c === ' ') {
        oldN++;
        newN++;
      }
      else if (c === '-') oldN++;
      else if (c === '+') newN++;
      else if (c === '\\') continue;
      else if (b === '' && j === lines.length - 1) break;
      else if (b === '') {
        // a blank context line whose space was stripped
        oldN++;
        newN++;
      }
      else break;
    }
    const header = `@@ -${m[1]},${oldN} +${m[3]},${newN} @@${m[5] ?? ''}`;
    const was = `@@ -${m[1]},${m[2] ?? '1'} +${m[3]},${m[4] ?? '1'} @@${m[5] ?? ''}`;
    if (header !== was) fixed++;
    out.push(header);
    // Blank context lines get their space back, so git apply reads them as context.
    for (let k = i + 1; k < j; k++) out.push(lines[k] === '' ? ' ' : (lines[k] as string));
    i = j - 1;
  }
  return { patch: out.join('\n'), fixed };
}

const normalize = (p: string) => p.replace(/\r\n/g, '\n').replace(/^index .*$/gm, '').replace(/\s+$/gm, '').trim();
const shortHash = (t: string) => createHash('sha256').update(t).digest('hex').slice(0, 10);

function schemaProblems(v: unknown): string[] {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return ['the reply is not a JSON object'];
  const r = v as Record<string, unknown>;
  const out: string[] = [];
  if (!('refusal' in r) || (r.refusal !== null && typeof r.refusal !== 'string')) out.push('refusal: expected a string or null');
  if (!Array.isArray(r.patches)) out.push('patches: expected an array');
  for (const k of Object.keys(r)) if (k !== 'refusal' && k !== 'patches') out.push(`${k}: not a field of the reply`);
  return out;
}

/** Checks a reply: JSON, the schema, then each patch (see docs/probes.md, LLM-written probes). */
export function checkPatchReply(text: string, ctx: PatchCheckContext): PatchReplyCheck {
  const parsed = parseRecordJson(text.trim());
  if (!parsed.ok) return { ok: false, kind: 'not_json', reasons: [`the reply is not JSON (${parsed.message})`], rejections: [] };
  const problems = schemaProblems(parsed.value);
  if (problems.length) return { ok: false, kind: 'schema', reasons: problems, rejections: [] };
  const r = parsed.value as { refusal: string | null; patches: unknown[] };
  if (typeof r.refusal === 'string' && r.refusal.trim() && r.patches.length === 0) return { ok: false, kind: 'refused', reasons: [`the model refused: ${r.refusal.trim()}`], rejections: [] };
  if (r.patches.length === 0) return { ok: false, kind: 'empty', reasons: ['the reply has no patch'], rejections: [] };

  const goldFiles = new Set(patchFiles(ctx.goldPatch));
  const testFiles = new Set(patchFiles(ctx.testPatch));
  const gold = normalize(ctx.goldPatch);
  const asked = new Set(ctx.specs ?? []);
  const seenPatch = new Set<string>();
  const seenSpec = new Set<string>();
  const patches: CheckedPatch[] = [];
  const rejections: RejectedPatch[] = [];
  const limit = ctx.kind === 'alternatives' ? Math.min(ctx.count, MAX_LLM_PATCHES) : Math.min(asked.size, MAX_LLM_PATCHES);

  r.patches.forEach((p, index) => {
    const at = `patches[${index}]`;
    const reject = (reason: string, spec?: string) => rejections.push({ index, ...(spec ? { spec } : {}), reason: `${at}${spec ? ` (${spec})` : ''}: ${reason}` });
    if (typeof p !== 'object' || p === null || Array.isArray(p)) return reject('expected an object');
    const e = p as Record<string, unknown>;
    const extra = Object.keys(e).filter((k) => !['spec', 'summary', 'patch', 'outsideGoldFiles'].includes(k));
    if (extra.length) return reject(`${extra.join(', ')}: not a field of a patch`);
    if (e.spec !== null && typeof e.spec !== 'string') return reject('spec: expected a string or null');
    if (typeof e.summary !== 'string') return reject('summary: expected a string');
    if (typeof e.patch !== 'string') return reject('patch: expected a string');
    if (e.outsideGoldFiles !== null && typeof e.outsideGoldFiles !== 'string') return reject('outsideGoldFiles: expected a string or null');
    const spec = typeof e.spec === 'string' && e.spec.trim() ? e.spec.trim() : undefined;
    if (ctx.kind === 'variants') {
      if (!spec) return reject('spec: a variant names the spec it violates');
      if (!asked.has(spec)) return reject(`spec "${spec}" was not asked about (asked: ${[...asked].join(', ')})`, spec);
      if (seenSpec.has(spec)) return reject('a second variant for the same spec (one per spec was asked for)', spec);
    }
    if (patches.length >= limit) return reject(`more patches than the ${limit} asked for`, spec);
    if (Buffer.byteLength(e.patch, 'utf8') > MAX_PATCH_BYTES) return reject(`the patch is larger than ${MAX_PATCH_BYTES} bytes`, spec);
    if (e.patch.includes('\0')) return reject('the patch contains NUL bytes', spec);
    const recounted = recountHunks(e.patch.replace(/\r\n/g, '\n'));
    let body = recounted.patch;
    if (!body.endsWith('\n')) body += '\n';
    const nap = notAPatch(body, at);
    if (nap || body.trim() === '') return reject(`not a unified diff (${nap ? nap.message : 'it is empty'})`, spec);
    const pp = parsePatch(body, at);
    const bad = pp.problems.find((x) => x.severity === 'error');
    if (bad) return reject(`not a unified diff (${bad.message})`, spec);
    if (pp.files.some((f) => f.hunks.length === 0 && f.status !== 'binary' && f.status !== 'renamed' && f.status !== 'deleted')) return reject('not a unified diff (a file header without any hunk)', spec);
    if (pp.files.some((f) => f.status === 'binary')) return reject('a binary patch', spec);
    const files = [...new Set(pp.files.flatMap((f) => [f.oldPath, f.newPath].filter((x): x is string => !!x)))];
    const unsafe = files.find((f) => f.startsWith('/') || f.split('/').includes('..') || f.includes('\\'));
    if (unsafe !== undefined) return reject(`the path "${unsafe}" leaves the repository`, spec);
    const tests = files.filter((f) => isTestPath(f, testFiles));
    if (tests.length) return reject(`it touches test file(s) ${tests.join(', ')}: the task's tests are fixed`, spec);
    const outside = files.filter((f) => !goldFiles.has(f));
    const why = typeof e.outsideGoldFiles === 'string' ? e.outsideGoldFiles.trim() : '';
    if (outside.length && !why) return reject(`it touches ${outside.join(', ')}, which the gold patch does not, and does not say why (outsideGoldFiles)`, spec);
    const norm = normalize(body);
    if (norm === gold) return reject('it is the gold patch itself', spec);
    if (seenPatch.has(norm)) return reject('the same patch as an earlier one', spec);
    seenPatch.add(norm);
    if (spec) seenSpec.add(spec);
    patches.push({
      index,
      id: ctx.kind === 'alternatives' ? `alt-${shortHash(norm)}` : `var-${spec}-${shortHash(norm)}`,
      ...(ctx.kind === 'variants' && spec ? { spec } : {}),
      summary: e.summary.trim(),
      patch: body,
      files: pp.files.map(filePath),
      ...(outside.length ? { outsideGoldFiles: why } : {}),
      notes: recounted.fixed ? [`${recounted.fixed} hunk header(s) recounted from their bodies`] : [],
    });
  });
  if (patches.length === 0) return { ok: false, kind: 'none_survived', reasons: rejections.map((x) => x.reason), rejections };
  return { ok: true, patches, rejections };
}

/** A log line of a run: 1-based line of its stdout and the text. */
export interface LogLine {
  line: number;
  text: string;
}

const MAX_LOG_LINES = 30;

/**
 * The lines of a pytest log that show why `testName` failed: its section of the failures report (the `>` line, the
 * `E` lines, the `file:line:` locations) and its short-summary line. Empty when the log does not name it.
 */
export function failureLines(log: string, testName: string): LogLine[] {
  const lines = log.split('\n');
  const fn = testName.split('::').pop() ?? testName;
  const out: LogLine[] = [];
  const header = (l: string) => /^_{3,} .+ _{3,}$/.test(l) || /^={3,} .* ={3,}$/.test(l);
  const start = lines.findIndex((l) => header(l) && (l.includes(` ${fn} `) || l.includes(`.${fn} `) || l.includes(`::${fn} `)));
  if (start >= 0) {
    for (let i = start + 1; i < lines.length && !header(lines[i] as string); i++) {
      const l = lines[i] as string;
      if (/^(>|E )/.test(l) || /^\S+\.py:\d+:/.test(l)) out.push({ line: i + 1, text: l });
    }
  }
  lines.forEach((l, i) => {
    if (/^(FAILED|ERROR) /.test(l) && l.includes(testName)) out.push({ line: i + 1, text: l });
  });
  return out.slice(0, MAX_LOG_LINES);
}

/** A listed test a probe patch failed, tied to its specs and to the log lines of the failure. */
export interface FailingTestEvidence {
  /** Task test id. */
  test: string;
  name: string;
  kind: TestCase['kind'];
  status: string;
  specs: string[];
  log: LogLine[];
}

type RunView = Pick<VerifierRunRecord, 'status' | 'reason' | 'apply' | 'grade'>;

/** A probe patch with its run (or the error that kept it from running) and the run's stdout. */
export interface LlmPatchRun {
  patch: CheckedPatch;
  run?: RunView;
  error?: string;
  stdout?: string;
}

export const ALTERNATIVE_OUTCOMES = ['rejected', 'accepted', 'did_not_apply', 'timed_out', 'out_of_memory', 'error'] as const;
/** `rejected`: a listed test failed (false-negative evidence); `accepted`: the tests passed it; the rest are no verdict. */
export type AlternativeOutcome = (typeof ALTERNATIVE_OUTCOMES)[number];
export const VARIANT_OUTCOMES = ['killed', 'survived', 'did_not_apply', 'timed_out', 'out_of_memory', 'error'] as const;
export type VariantOutcome = (typeof VARIANT_OUTCOMES)[number];

/** The model call that wrote the patches (stored beside them: provenance, spend). */
export interface LlmCallRecord {
  model: string;
  answeredBy: string;
  promptVersion: string;
  promptHash: string;
  promptTokens?: number;
  completionTokens?: number;
  costUsd?: number;
  costSource: string;
  tries: number;
}

interface ReportBase {
  format: 1;
  taskId: string;
  taskRevision: number;
  createdAt: string;
  gold: { status: string; reason: string };
  llm: LlmCallRecord;
  /** Patches of the reply the checks refused (never run). */
  invalid: RejectedPatch[];
}

export interface AlternativeResult {
  id: string;
  summary: string;
  files: string[];
  outsideGoldFiles?: string;
  notes: string[];
  outcome: AlternativeOutcome;
  status: string;
  reason: string;
  /** Rejected: the listed tests that failed, with their specs and log lines. */
  failingTests: FailingTestEvidence[];
  /** Rejected: the specs mapped to the failing tests (the specs the over-strict test is meant to check). */
  specs: string[];
  /** Rejected: failing tests mapped to no spec ("test beyond the specs"). */
  beyondSpecs: string[];
  patch: string;
}

export interface AlternativesReport extends ReportBase {
  kind: 'alternatives';
  requested: number;
  counts: Record<AlternativeOutcome, number>;
  alternatives: AlternativeResult[];
}

export interface VariantResult {
  id: string;
  /** The spec the variant is meant to violate. */
  spec: string;
  summary: string;
  files: string[];
  outsideGoldFiles?: string;
  notes: string[];
  outcome: VariantOutcome;
  status: string;
  reason: string;
  failingTests: FailingTestEvidence[];
  /** Killed: specs with a mapped test among the failing ones. */
  killedForSpecs: string[];
  patch: string;
}

export interface SpecVariantCount {
  spec: string;
  variants: number;
  killed: number;
  survived: number;
  /** Variants with no verdict (did not apply, timed out, out of memory, error). */
  other: number;
  /** The spec has no mapped test: nothing checks it by name. */
  untested: boolean;
}

export interface VariantsReport extends ReportBase {
  kind: 'variants';
  requested: string[];
  counts: Record<VariantOutcome, number>;
  specs: SpecVariantCount[];
  variants: VariantResult[];
}

function outcomeOf(r: LlmPatchRun): 'killed' | 'survived' | 'did_not_apply' | 'timed_out' | 'out_of_memory' | 'error' {
  return r.run ? mutantOutcome(r.run) : 'error';
}

function evidence(task: Pick<CandidateTask, 'tests'>, r: LlmPatchRun): FailingTestEvidence[] {
  if (!r.run) return [];
  const byName = new Map(task.tests.map((t) => [t.name, t]));
  return failingTests(r.run).map((name) => {
    const t = byName.get(name);
    return {
      test: t?.id ?? name,
      name,
      kind: t?.kind ?? 'fail_to_pass',
      status: r.run?.grade.tests[name] ?? 'MISSING',
      specs: t?.specs ?? [],
      log: r.stdout ? failureLines(r.stdout, name) : [],
    };
  });
}

const countsOf = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

export interface ReportInput {
  task: Pick<CandidateTask, 'id' | 'revision' | 'specs' | 'tests'>;
  gold: { status: string; reason: string };
  llm: LlmCallRecord;
  invalid: RejectedPatch[];
  runs: LlmPatchRun[];
  now: Date;
}

export function alternativesReport(inp: ReportInput & { requested: number }): AlternativesReport {
  const counts = countsOf(ALTERNATIVE_OUTCOMES);
  const alternatives = inp.runs.map((r): AlternativeResult => {
    const o = outcomeOf(r);
    const outcome: AlternativeOutcome = o === 'killed' ? 'rejected' : o === 'survived' ? 'accepted' : o;
    counts[outcome]++;
    const failing = outcome === 'rejected' ? evidence(inp.task, r) : [];
    return {
      id: r.patch.id,
      summary: r.patch.summary,
      files: r.patch.files,
      ...(r.patch.outsideGoldFiles ? { outsideGoldFiles: r.patch.outsideGoldFiles } : {}),
      notes: r.patch.notes,
      outcome,
      status: r.run?.status ?? 'error',
      reason: r.run?.reason ?? r.error ?? '',
      failingTests: failing,
      specs: [...new Set(failing.flatMap((f) => f.specs))].sort(),
      beyondSpecs: failing.filter((f) => f.specs.length === 0).map((f) => f.test),
      patch: r.patch.patch,
    };
  });
  return { format: 1, kind: 'alternatives', taskId: inp.task.id, taskRevision: inp.task.revision, createdAt: inp.now.toISOString(), gold: inp.gold, llm: inp.llm, requested: inp.requested, counts, invalid: inp.invalid, alternatives };
}

export function variantsReport(inp: ReportInput & { requested: string[] }): VariantsReport {
  const counts = countsOf(VARIANT_OUTCOMES);
  const variants = inp.runs.map((r): VariantResult => {
    const outcome = outcomeOf(r);
    counts[outcome]++;
    const failing = outcome === 'killed' ? evidence(inp.task, r) : [];
    return {
      id: r.patch.id,
      spec: r.patch.spec ?? '',
      summary: r.patch.summary,
      files: r.patch.files,
      ...(r.patch.outsideGoldFiles ? { outsideGoldFiles: r.patch.outsideGoldFiles } : {}),
      notes: r.patch.notes,
      outcome,
      status: r.run?.status ?? 'error',
      reason: r.run?.reason ?? r.error ?? '',
      failingTests: failing,
      killedForSpecs: [...new Set(failing.flatMap((f) => f.specs))].sort(),
      patch: r.patch.patch,
    };
  });
  const tested = new Set(inp.task.tests.flatMap((t) => t.specs));
  const specs = inp.requested.map((spec): SpecVariantCount => {
    const mine = variants.filter((v) => v.spec === spec);
    const killed = mine.filter((v) => v.outcome === 'killed').length;
    const survived = mine.filter((v) => v.outcome === 'survived').length;
    return { spec, variants: mine.length, killed, survived, other: mine.length - killed - survived, untested: !tested.has(spec) };
  });
  return { format: 1, kind: 'variants', taskId: inp.task.id, taskRevision: inp.task.revision, createdAt: inp.now.toISOString(), gold: inp.gold, llm: inp.llm, requested: inp.requested, counts, specs, invalid: inp.invalid, variants };
}

/** The specs a `--variants N` probe asks about: the first N of the task's specs, in task order. */
export function variantSpecs(task: Pick<CandidateTask, 'specs'>, n: number): string[] {
  return task.specs.slice(0, Math.max(0, n)).map((s) => s.id);
}
