// Checking the review agent's reply, deterministically. The reply must be JSON (the strict parser) with a `findings`
// list; a refusal is a failure. Each finding then stands or falls on its own: it must be about the attempt asked,
// a spec of the task that was asked about and judged once, with a judgment, a confidence from 0 to 1, a rationale and
// at least one citation; every citation must name a place that exists (a trajectory step, a hunk of the attempt's
// diff, a task test, a line of the run's stdout, a request sentence) and its quote, when given, must be in that place
// (whitespace normalised). A finding that fails is dropped with its reason and counted; the rest survive. See
// docs/review-agent.md.
import { parseRecordJson } from '../json';
import type { TestCase, TrajectoryStep } from '../model';
import { replyJsonText } from '../repair/validate';
import type { DropCause, DroppedFinding, Finding, FindingCitation, FindingJudgment } from './model';
import { FINDING_CITATION_KINDS, FINDING_JUDGMENTS } from './model';
import { hunksByFile, requestSentences, stepText } from './prompt';

/** What the agent was shown, to check citations against (the originals: a quote from a part cut in the prompt holds). */
export interface ReviewContext {
  attempt: string;
  /** Every attempt id of the task (a finding for another one is "not asked", for none of them "unknown"). */
  attempts: readonly string[];
  /** Every spec id of the task. */
  specs: readonly string[];
  /** The specs asked about (default: all). */
  asked?: readonly string[];
  tests: readonly Pick<TestCase, 'id' | 'name'>[];
  request: string;
  patch: string;
  /** The run shown, with its stdout. */
  run?: { id: string; stdout: string };
  steps: readonly TrajectoryStep[];
}

export type ReviewCheck =
  | { ok: true; findings: Finding[]; dropped: DroppedFinding[]; counts: Partial<Record<DropCause, number>> }
  | { ok: false; kind: 'not_json' | 'schema' | 'refused'; reasons: string[] };

/** Runs of whitespace as one space, trimmed. */
export const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** The places a reply may cite, indexed once per reply. */
export class CitationIndex {
  private readonly steps = new Map<number, TrajectoryStep>();
  private readonly normalized = new Map<number, string>();
  private readonly hunks: Map<string, string[][]>;
  private readonly sentences: string[];
  private readonly logLines: string[] | undefined;
  private readonly testIds = new Map<string, string>();

  constructor(private readonly ctx: ReviewContext) {
    for (const s of ctx.steps) this.steps.set(s.index, s);
    this.hunks = hunksByFile(ctx.patch);
    this.sentences = requestSentences(ctx.request);
    if (ctx.run) {
      const lines = ctx.run.stdout.replace(/\r\n?/g, '\n').split('\n');
      if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
      this.logLines = lines;
    }
    for (const t of ctx.tests) {
      this.testIds.set(t.id, t.id);
      if (!this.testIds.has(t.name)) this.testIds.set(t.name, t.id);
    }
  }

  /** The checked citation, or why it does not hold. */
  check(raw: unknown): { ok: true; citation: FindingCitation } | { ok: false; reason: string } {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, reason: 'a citation is not an object' };
    const c = raw as Record<string, unknown>;
    const kind = c.kind;
    if (typeof kind !== 'string' || !(FINDING_CITATION_KINDS as readonly string[]).includes(kind)) return { ok: false, reason: `a citation has the unknown kind ${JSON.stringify(kind)?.slice(0, 60)}` };
    const quote = typeof c.quote === 'string' && c.quote.trim() !== '' ? c.quote.slice(0, 2000) : undefined;
    const nat = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
    const quoted = (place: string, where: string) => (quote === undefined || place.includes(norm(quote)) ? undefined : `the quote "${norm(quote).slice(0, 120)}" is not in ${where}`);
    switch (kind) {
      case 'trajectory_step': {
        const step = nat(c.step);
        if (step === undefined) return { ok: false, reason: 'a trajectory_step citation has no step number' };
        const found = this.steps.get(step);
        if (found === undefined) return { ok: false, reason: `cites trajectory step ${step}, which the trajectory does not have` };
        // Normalised on first citation only: a 5 MB trajectory is not copied for a reply citing three steps.
        const text = this.normalized.get(step) ?? norm(stepText(found));
        this.normalized.set(step, text);
        const bad = quoted(text, `trajectory step ${step}`);
        return bad ? { ok: false, reason: bad } : { ok: true, citation: { kind, step, ...(quote !== undefined ? { quote } : {}) } };
      }
      case 'diff_hunk': {
        const file = typeof c.file === 'string' ? c.file.replace(/^[ab]\//, '') : undefined;
        const hunk = nat(c.hunk);
        if (file === undefined || hunk === undefined) return { ok: false, reason: 'a diff_hunk citation needs a file and a hunk number' };
        const hs = this.hunks.get(file);
        if (!hs) return { ok: false, reason: `cites a hunk of ${JSON.stringify(file.slice(0, 200))}, which the attempt's diff does not change` };
        const h = hs[hunk];
        if (!h) return { ok: false, reason: `cites hunk ${hunk} of ${file}, which has ${hs.length} hunk(s) (numbered from 0)` };
        const bad = quote === undefined ? undefined : quoted(`${norm(h.join('\n'))}\n${norm(h.map((l) => l.slice(1)).join('\n'))}`, `hunk ${hunk} of ${file}`);
        return bad ? { ok: false, reason: bad } : { ok: true, citation: { kind, file, hunk, ...(quote !== undefined ? { quote } : {}) } };
      }
      case 'test': {
        const t = typeof c.test === 'string' ? this.testIds.get(c.test) : undefined;
        if (t === undefined) return { ok: false, reason: `cites the test ${JSON.stringify(String(c.test).slice(0, 200))}, which the task does not have` };
        return { ok: true, citation: { kind, test: t } };
      }
      case 'log_line': {
        const line = nat(c.line);
        if (line === undefined || line < 1) return { ok: false, reason: 'a log_line citation needs a line number from 1' };
        if (!this.logLines || !this.ctx.run) return { ok: false, reason: `cites stdout line ${line}, but no verifier run was shown` };
        const text = this.logLines[line - 1];
        if (text === undefined) return { ok: false, reason: `cites stdout line ${line} of run ${this.ctx.run.id}, which has ${this.logLines.length} line(s)` };
        const bad = quoted(norm(text), `stdout line ${line}`);
        return bad ? { ok: false, reason: bad } : { ok: true, citation: { kind, run: this.ctx.run.id, line, ...(quote !== undefined ? { quote } : {}) } };
      }
      default: {
        const sentence = nat(c.sentence);
        if (sentence === undefined || sentence < 1) return { ok: false, reason: 'a request_sentence citation needs a sentence number from 1' };
        const text = this.sentences[sentence - 1];
        if (text === undefined) return { ok: false, reason: `cites request sentence ${sentence}, but the request has ${this.sentences.length}` };
        const bad = quoted(norm(text), `request sentence ${sentence}`);
        return bad ? { ok: false, reason: bad } : { ok: true, citation: { kind: 'request_sentence', sentence, ...(quote !== undefined ? { quote } : {}) } };
      }
    }
  }
}

const clip = (s: string, n = 120) => (s.length > n ? `${s.slice(0, n)}...` : s);

/** Checks a reply against what was asked and shown; see the file comment. */
export function checkReview(text: string, ctx: ReviewContext): ReviewCheck {
  const parsed = parseRecordJson(replyJsonText(text));
  if (!parsed.ok) return { ok: false, kind: 'not_json', reasons: [`the reply is not JSON (${parsed.message}); it begins "${clip(text.trim().replace(/\s+/g, ' '), 80)}"`] };
  const v = parsed.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, kind: 'schema', reasons: ['the reply is not a JSON object'] };
  const r = v as Record<string, unknown>;
  if (typeof r.refusal === 'string' && r.refusal.trim() !== '') return { ok: false, kind: 'refused', reasons: [`the model refused: ${clip(r.refusal, 500)}`] };
  if (r.refusal !== undefined && r.refusal !== null && typeof r.refusal !== 'string') return { ok: false, kind: 'schema', reasons: ['refusal: expected a string or null'] };
  if (!Array.isArray(r.findings)) return { ok: false, kind: 'schema', reasons: ['findings: expected a list of findings'] };
  if (r.findings.length === 0) return { ok: false, kind: 'schema', reasons: ['findings: the reply judged no spec'] };

  const index = new CitationIndex(ctx);
  const asked = new Set(ctx.asked ?? ctx.specs);
  const specs = new Set(ctx.specs);
  const attempts = new Set(ctx.attempts);
  const dropped: DroppedFinding[] = [];
  const counts: Partial<Record<DropCause, number>> = {};
  const drop = (cause: DropCause, reason: string, spec?: string) => {
    counts[cause] = (counts[cause] ?? 0) + 1;
    dropped.push({ ...(spec !== undefined ? { spec } : {}), cause, reason });
  };
  // Specs judged more than once for this attempt: every judgment of them goes (which one is meant cannot be told).
  const seen = new Map<string, number>();
  for (const f of r.findings) {
    const o = f as Record<string, unknown> | null;
    if (o && typeof o === 'object' && o.attempt === ctx.attempt && typeof o.spec === 'string') seen.set(o.spec, (seen.get(o.spec) ?? 0) + 1);
  }
  const kept: Finding[] = [];
  r.findings.forEach((f, i) => {
    const at = `findings[${i}]`;
    if (typeof f !== 'object' || f === null || Array.isArray(f)) return drop('shape', `${at}: not an object`);
    const o = f as Record<string, unknown>;
    const spec = typeof o.spec === 'string' ? o.spec.slice(0, 300) : undefined;
    const name = `${at}${spec !== undefined ? ` (${clip(spec, 60)})` : ''}`;
    if (spec === undefined || spec === '') return drop('shape', `${name}: spec: expected a spec id`);
    if (typeof o.attempt !== 'string' || o.attempt !== ctx.attempt) {
      const a = typeof o.attempt === 'string' ? o.attempt : '';
      return attempts.has(a) ? drop('not_asked', `${name}: judges attempt "${clip(a, 60)}", which this call did not ask about`, spec) : drop('unknown_attempt', `${name}: judges the attempt "${clip(a, 60)}", which the task does not have`, spec);
    }
    if (!specs.has(spec)) return drop('unknown_spec', `${name}: the task has no spec "${clip(spec, 60)}"`, spec);
    if (!asked.has(spec)) return drop('not_asked', `${name}: spec ${spec} was not asked about`, spec);
    if ((seen.get(spec) ?? 0) > 1) return drop('duplicate', `${name}: spec ${spec} is judged ${seen.get(spec)} times in the reply`, spec);
    if (typeof o.judgment !== 'string' || !(FINDING_JUDGMENTS as readonly string[]).includes(o.judgment)) return drop('shape', `${name}: judgment: expected satisfied, violated or unsure`, spec);
    if (typeof o.confidence !== 'number' || !Number.isFinite(o.confidence) || o.confidence < 0 || o.confidence > 1) return drop('shape', `${name}: confidence: expected a number from 0 to 1`, spec);
    if (typeof o.rationale !== 'string' || o.rationale.trim() === '') return drop('shape', `${name}: rationale: expected a text`, spec);
    if (!Array.isArray(o.citations) || o.citations.length === 0) return drop('shape', `${name}: cites nothing (a finding needs at least one citation)`, spec);
    if (o.citations.length > 50) return drop('shape', `${name}: ${o.citations.length} citations (50 at most)`, spec);
    const citations: FindingCitation[] = [];
    for (const c of o.citations) {
      const ck = index.check(c);
      if (!ck.ok) return drop('citation', `${name}: ${ck.reason}`, spec);
      citations.push(ck.citation);
    }
    kept.push({ spec, judgment: o.judgment as FindingJudgment, confidence: o.confidence, rationale: o.rationale.slice(0, 20_000), citations });
  });
  return { ok: true, findings: kept, dropped, counts };
}
