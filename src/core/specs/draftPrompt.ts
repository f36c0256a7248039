// The spec drafter's prompt: a task's request, test patch, gold patch and test ids, asking for specs (text, category,
// dependsOn), the spec-test map and one citation per spec. Each part is capped on its own; a cut is marked
// "[... N lines cut ...]" where it happened, patches keep their original line numbers (citations name them), and the
// test-patch hunks that define the fail-to-pass tests are kept first. Pure and deterministic: the caller read the files.
import type { CandidateTask, TestCase } from '../model';
import { KNOWN_SPEC_CATEGORIES } from '../model';
import { parseTestName } from '../testSource';

/**
 * The spec taxonomy (docs/drafter.md; ../shared/reference/formats.md): functional semantics split three ways, domain
 * and protocol rules, interface and I/O contracts, control flow and ordering, and the training tasks' state
 * consistency, error handling and compatibility, plus `other`: the dataset format's list, the one authoring offers.
 */
export const SPEC_CATEGORIES = KNOWN_SPEC_CATEGORIES;
export type SpecCategory = (typeof SPEC_CATEGORIES)[number];

export const CITATION_SOURCES = ['request', 'test_patch', 'gold_patch'] as const;
export type CitationSource = (typeof CITATION_SOURCES)[number];

/** Where a drafted spec comes from: a quote of the request, or of a (numbered) line of a patch. */
export interface Citation {
  quote: string;
  source: CitationSource;
  /** 1-based line of the cited text; optional for the request. */
  line?: number;
}

/** The reply, as the schema below describes it. */
export interface DraftReply {
  refusal: string | null;
  specs: Array<{
    id: string;
    text: string;
    category: string;
    dependsOn: string[];
    /** Test ids (or full names) this spec covers. */
    tests: string[];
    citation: { quote: string; source: CitationSource; line: number | null };
  }>;
}

export const DRAFT_SCHEMA_NAME = 'spec_draft';

/** The reply schema for strict JSON-schema mode: every property required, nullable where optional. */
export const DRAFT_SCHEMA: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  required: ['refusal', 'specs'],
  properties: {
    refusal: { type: ['string', 'null'], description: 'null, or why no specs can be drafted (then specs is empty)' },
    specs: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'text', 'category', 'dependsOn', 'tests', 'citation'],
        properties: {
          id: { type: 'string', description: 'S1, S2, ...' },
          text: { type: 'string', description: 'one requirement an acceptable patch must satisfy, testable, in one or two sentences' },
          category: { type: 'string', enum: [...SPEC_CATEGORIES] },
          dependsOn: { type: 'array', items: { type: 'string' }, description: 'ids of specs this one builds on (no cycles)' },
          tests: { type: 'array', items: { type: 'string' }, description: 'ids of the tests (T1, T2, ...) that check this spec' },
          citation: {
            type: 'object',
            additionalProperties: false,
            required: ['quote', 'source', 'line'],
            properties: {
              quote: { type: 'string', description: 'text copied exactly from the cited source (a sentence of the request, or part of one patch line)' },
              source: { type: 'string', enum: [...CITATION_SOURCES] },
              line: { type: ['integer', 'null'], description: 'the line number shown in the prompt (required for test_patch and gold_patch)' },
            },
          },
        },
      },
    },
  },
};

export interface DraftPromptInput {
  task: Pick<CandidateTask, 'id' | 'tests'>;
  request: string;
  testPatch: string;
  goldPatch?: string;
  /** Tokens the prompt may use (the reply's are separate). */
  budgetTokens: number;
}

export interface DraftPromptPart {
  id: 'request' | 'tests' | 'test_patch' | 'gold_patch';
  lines: number;
  linesKept: number;
  chars: number;
}

export interface DraftPrompt {
  messages: Array<{ role: 'system' | 'user'; content: string }>;
  parts: DraftPromptPart[];
  estimatedTokens: number;
  budgetTokens: number;
}

/** Tokens of a text, estimated as the repair prompt does (about 3.5 characters per token). */
export function estimateDraftTokens(text: string): number {
  return Math.ceil(text.length / 3.5);
}

export const cutMarker = (n: number) => `[... ${n} line${n === 1 ? '' : 's'} cut ...]`;

/** Shares of the character budget per part; a part that needs less leaves the rest to the patches. */
const SHARE = { request: 0.2, tests: 0.1, test_patch: 0.4, gold_patch: 0.3 } as const;
const SYSTEM_CHARS = 3000;
const TEST_LINE_CHARS = 400;

const SYSTEM = [
  'You draft specifications for a coding-benchmark task. A spec is one requirement an acceptable patch must satisfy,',
  'stated so a reviewer can check it against a patch: behaviour, not implementation.',
  'Read the request (the issue), the test patch (the tests that judge a patch), the gold patch (a reference solution)',
  'and the test ids. Propose the specs the tests actually check, and map every test to the specs it checks.',
  '',
  'Rules:',
  '- ids S1, S2, ... in order; text non-empty and distinct from every other spec;',
  `- category one of: ${SPEC_CATEGORIES.join(', ')};`,
  '- dependsOn: ids of specs this one builds on; no cycles;',
  '- tests: ids of the listed tests only (T1, T2, ...);',
  '- citation: where the spec comes from. quote = text copied exactly from the source: a sentence of the request',
  '  (source "request", line null), or part of one numbered line of a patch (source "test_patch" or "gold_patch",',
  '  line = the number shown before "|", the quote without that number and without the leading +/-).',
  '  A spec whose quote is not in the cited place is rejected.',
  '- If the task gives nothing to draft from, set refusal and leave specs empty.',
  'Answer with one JSON object matching the schema, nothing else.',
].join('\n');

/** The hunks (lines [start, end)) of a patch: file headers are their own segments, kept with any kept hunk of the file. */
interface Segment {
  start: number;
  end: number;
  header: boolean;
  file: number;
}

function segments(lines: readonly string[]): Segment[] {
  const out: Segment[] = [];
  let file = -1;
  let cur: Segment | undefined;
  const open = (start: number, header: boolean) => {
    if (cur) cur.end = start;
    cur = { start, end: lines.length, header, file };
    out.push(cur);
  };
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string;
    // A file starts at its `diff --git` line, or at `--- `/`+++ ` in a plain unified diff.
    if (l.startsWith('diff --git ') || (l.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ') && !cur?.header)) {
      file++;
      open(i, true);
    } else if (l.startsWith('@@')) open(i, false);
    else if (!cur) open(i, true);
  }
  return out;
}

/** Function names of the fail-to-pass tests, as a test file would define them. */
function f2pNames(tests: readonly TestCase[]): Set<string> {
  const names = new Set<string>();
  for (const t of tests) {
    if (t.kind !== 'fail_to_pass') continue;
    const f = parseTestName(t.name).func;
    if (/^\w+$/.test(f)) names.add(f);
  }
  return names;
}

function definesAny(lines: readonly string[], seg: Segment, names: ReadonlySet<string>): boolean {
  if (names.size === 0) return false;
  for (let i = seg.start; i < seg.end; i++) {
    const m = /^[+ ]\s*(?:async\s+)?(?:def|function|fn|func|it|test)\s*\(?\s*['"]?(\w+)/.exec(lines[i] as string);
    if (m && names.has(m[1] as string)) return true;
  }
  return false;
}

/**
 * A patch with numbered lines, within `maxChars`: file headers of kept hunks always, hunks defining a fail-to-pass
 * test first, then the rest in patch order; gaps are marked. A hunk too big for what is left keeps its head.
 */
export function numberedPatch(text: string, maxChars: number, f2p: ReadonlySet<string> = new Set()): { text: string; lines: number; linesKept: number } {
  const lines = text.length === 0 ? [] : text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  const width = String(lines.length).length;
  const numbered = (i: number) => `${String(i + 1).padStart(width)}| ${lines[i] as string}`;
  const cost = (i: number) => width + 3 + (lines[i] as string).length;
  const segs = segments(lines);
  const keep = new Uint8Array(lines.length);
  let used = 0;
  const take = (seg: Segment): void => {
    for (let i = seg.start; i < seg.end; i++) {
      if (keep[i]) continue;
      const c = cost(i);
      if (used + c > maxChars) return;
      keep[i] = 1;
      used += c;
    }
  };
  const headers = new Map<number, Segment>();
  for (const s of segs) if (s.header && !headers.has(s.file)) headers.set(s.file, s);
  const hunks = segs.filter((s) => !s.header);
  const first = hunks.map((s) => definesAny(lines, s, f2p));
  const order = [...hunks.filter((_, i) => first[i]), ...hunks.filter((_, i) => !first[i])];
  // Headers count first so a kept hunk never loses its file's name.
  for (const s of order) {
    if (used >= maxChars) break;
    const h = headers.get(s.file);
    if (h) take(h);
    take(s);
  }
  if (segs.every((s) => s.header)) for (const s of segs) take(s);
  const out: string[] = [];
  let gap = 0;
  let kept = 0;
  for (let i = 0; i < lines.length; i++) {
    if (keep[i]) {
      if (gap > 0) out.push(cutMarker(gap));
      gap = 0;
      out.push(numbered(i));
      kept++;
    } else gap++;
  }
  if (gap > 0) out.push(cutMarker(gap));
  return { text: out.join('\n'), lines: lines.length, linesKept: kept };
}

/** The request, whole when it fits, else its head with the cut marked. */
function cappedText(text: string, maxChars: number): { text: string; lines: number; linesKept: number } {
  const lines = text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  const out: string[] = [];
  let used = 0;
  for (const l of lines) {
    if (used + l.length + 1 > maxChars) break;
    out.push(l);
    used += l.length + 1;
  }
  const kept = out.length;
  if (kept < lines.length) out.push(cutMarker(lines.length - kept));
  return { text: out.join('\n'), lines: lines.length, linesKept: kept };
}

/** The test list: fail-to-pass first (they say what the task is about), each line capped. */
function testList(tests: readonly TestCase[], maxChars: number): { text: string; lines: number; linesKept: number } {
  const ordered = [...tests.filter((t) => t.kind === 'fail_to_pass'), ...tests.filter((t) => t.kind !== 'fail_to_pass')];
  const out: string[] = [];
  let used = 0;
  for (const t of ordered) {
    const name = t.name.length > TEST_LINE_CHARS ? `${t.name.slice(0, TEST_LINE_CHARS)}…` : t.name;
    const line = `${t.id} ${t.kind} ${name}`;
    if (used + line.length + 1 > maxChars) break;
    out.push(line);
    used += line.length + 1;
  }
  const kept = out.length;
  if (kept < ordered.length) out.push(cutMarker(ordered.length - kept));
  return { text: out.join('\n'), lines: ordered.length, linesKept: kept };
}

/** Builds the drafter's messages within the budget. */
export function buildDraftPrompt(inp: DraftPromptInput): DraftPrompt {
  const chars = Math.max(4000, Math.floor(inp.budgetTokens * 3.5) - SYSTEM_CHARS);
  const gold = inp.goldPatch ?? '';
  // What a part does not need goes to the patches, in their shares' proportion.
  const want = { request: inp.request.length + 200, tests: inp.task.tests.reduce((n, t) => n + Math.min(t.name.length, TEST_LINE_CHARS) + 24, 0), test_patch: inp.testPatch.length * 1.1 + 200, gold_patch: gold.length * 1.1 + 200 };
  const cap: Record<keyof typeof SHARE, number> = { request: 0, tests: 0, test_patch: 0, gold_patch: 0 };
  let spare = 0;
  for (const k of ['request', 'tests'] as const) {
    cap[k] = Math.floor(Math.min(want[k], chars * SHARE[k]));
    spare += chars * SHARE[k] - cap[k];
  }
  const patchShare = SHARE.test_patch + SHARE.gold_patch;
  for (const k of ['test_patch', 'gold_patch'] as const) cap[k] = Math.floor(chars * SHARE[k] + (spare * SHARE[k]) / patchShare);
  // A patch that needs less than its cap leaves the rest to the other.
  const extraTp = Math.max(0, cap.gold_patch - want.gold_patch);
  const extraGp = Math.max(0, cap.test_patch - want.test_patch);
  cap.test_patch += Math.floor(extraTp);
  cap.gold_patch += Math.floor(extraGp);

  const request = cappedText(inp.request, cap.request);
  const tests = testList(inp.task.tests, cap.tests);
  const testPatch = numberedPatch(inp.testPatch, cap.test_patch, f2pNames(inp.task.tests));
  const goldPatch = numberedPatch(gold, cap.gold_patch);
  const user = [
    `# Task ${inp.task.id}`,
    '',
    '## Request',
    request.text.trim() === '' ? '(empty)' : request.text,
    '',
    '## Tests (id, kind, name)',
    tests.text === '' ? '(none)' : tests.text,
    '',
    '## Test patch (numbered lines)',
    testPatch.text === '' ? '(none)' : testPatch.text,
    '',
    '## Gold patch (numbered lines)',
    goldPatch.text === '' ? '(none)' : goldPatch.text,
  ].join('\n');
  const messages: DraftPrompt['messages'] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: user },
  ];
  const part = (id: DraftPromptPart['id'], r: { text: string; lines: number; linesKept: number }): DraftPromptPart => ({ id, lines: r.lines, linesKept: r.linesKept, chars: r.text.length });
  const parts = [part('request', request), part('tests', tests), part('test_patch', testPatch), part('gold_patch', goldPatch)];
  return { messages, parts, estimatedTokens: estimateDraftTokens(SYSTEM) + estimateDraftTokens(user), budgetTokens: inp.budgetTokens };
}
