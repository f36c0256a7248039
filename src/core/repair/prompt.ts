// The repair prompt: what the model sees of a task, chosen to fit a token budget. Everything is cut into sections of
// small items with a priority; the failing tests and their source, the curator's findings, the trajectory steps
// around labelled evidence and around the tests involved, and the relevant patch hunks come first, and whatever does
// not fit is left out whole (and reported), rather than the prompt being cut at the end. Pure and fast: the caller
// has read the files.
import type { CandidateTask, SpecVerdict, TrajectoryStep } from '../model';
import type { Hunk } from '../patch';
import { filePath, parsePatch } from '../patch';
import type { EvidenceLink } from '../review/evidence';
import { formatEvidence } from '../review/evidence';
import type { TaskAssessment } from '../review/taskReview';
import type { TaskVerifierResults } from '../review/verdicts';
import { EMPTY_PROBE, GOLD_PROBE } from '../model';
import { findTestSource, parseTestName } from '../testSource';
import type { RequestedTarget } from './suggestion';

export interface PromptInput {
  task: CandidateTask;
  target: RequestedTarget;
  request: string;
  testPatch: string;
  goldPatch?: string;
  /** Attempt patches by attempt id. */
  attemptPatches: ReadonlyMap<string, string>;
  /** Test files after the test patch, by repository path. */
  testFiles: ReadonlyMap<string, string | undefined>;
  /** The curation state of the task (labels, notes, evidence, flags, scores); absent for an unreviewed task. */
  assessment?: TaskAssessment;
  verifier?: TaskVerifierResults;
  /** Output of the run each verdict rests on, by attempt id (gold and empty included). */
  runLogs?: ReadonlyMap<string, { runId: string; text: string }>;
  /** Normalized trajectory steps by attempt id. */
  trajectories?: ReadonlyMap<string, readonly TrajectoryStep[]>;
  /** What the curator adds for this request. */
  note?: string;
  /** Tokens the prompt may use (the reply's are separate). */
  budgetTokens: number;
}

export interface SectionReport {
  id: string;
  title: string;
  /** `full`: every item; `partial`: the most relevant items that fit; `omitted`: none fit, or nothing relevant. */
  included: 'full' | 'partial' | 'omitted';
  tokens: number;
  items: number;
  itemsIncluded: number;
  reason?: string;
}

export interface BuiltPrompt {
  messages: Array<{ role: 'system' | 'user'; content: string }>;
  sections: SectionReport[];
  estimatedTokens: number;
  budgetTokens: number;
  /** Attempts, tests and specs the prompt concentrates on, and why. */
  focus: { attempts: string[]; tests: string[]; specs: string[]; steering: string[] };
}

/** Tokens of a text, estimated (about 3.5 characters per token for English and code mixed). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3.5);
}

/** Tokens kept free for the schema the client adds to the instructions when the endpoint has no JSON-schema mode. */
export const SCHEMA_RESERVE_TOKENS = 1200;

const STEP_CHARS = 900;
const HUNK_LINES = 80;
const LOG_LINES_PER_ATTEMPT = 60;

export const SYSTEM_PROMPT = `You repair candidate tasks of a coding benchmark.

A task gives a solver a request (request.md) for a change to a repository at a base commit. Specs list the requirements an acceptable patch must satisfy. Tests, added to the repository by the task's test patch, check the specs through the spec-test map. Solver attempts (a patch plus the agent's trajectory) were run against the tests by the verifier; the gold patch and the empty patch are run too as probes.
- A false positive: the verifier passes an attempt that violates a spec (the tests are too weak).
- A false negative: the verifier fails an attempt that satisfies every spec (the tests demand something the request and specs do not state, or the environment is broken).

Propose the smallest change to the request, the specs, the tests or the spec-test map that makes the verifier judge the attempts as the curator did, without letting wrong solutions pass or failing correct ones. Prefer fixing the tests when they demand something the request does not ask for; change the request and specs when they leave out something the tests rightly check.

Rules:
- Test files: give each changed file whole in "content", as it should be after the test patch is applied (the current text is shown under "Test files"), or a unified diff against that current text in "diff". Keep every other test unchanged, byte for byte.
- specs and specTestMap, when not null, are the complete new lists (unchanged entries included). Keep ids stable.
- request: the whole new request.md in "content", or a unified diff in "diff".
- Leave a part null when you do not change it.
- evidence: cite what your rationale relies on: trajectory steps ([step N] of an attempt), tests (by id), log lines (run id and line number as shown), diff hunks (patch, file and 0-based hunk index as shown), specs.
- If no responsible change can be made from what you see, set "refusal" to the reason and leave the changes null.
- Reply with the JSON object only.`;

interface Item {
  text: string;
  tokens: number;
}

interface Section {
  id: string;
  title: string;
  /** Higher goes in first. */
  priority: number;
  /** Shown even when over budget (cut in the middle if it must be). */
  required?: boolean;
  /** Position in the prompt. */
  order: number;
  items: Item[];
  /** Reason when the section has no items. */
  empty?: string;
}

function item(text: string): Item {
  return { text, tokens: estimateTokens(text) + 1 };
}

function middleCut(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const half = Math.floor((maxChars - 40) / 2);
  return `${text.slice(0, half)}\n[… ${text.length - 2 * half} characters left out …]\n${text.slice(-half)}`;
}

function fence(text: string, lang = ''): string {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}${lang}\n${text.endsWith('\n') ? text : `${text}\n`}${ticks}`;
}

const FAIL = new Set(['FAILED', 'ERROR', 'MISSING', 'XPASS']);

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What to concentrate on: attempts, specs and tests named by the review, the flags and the failing runs. */
function chooseFocus(inp: PromptInput) {
  const { task, assessment, verifier } = inp;
  const attempts = new Set<string>();
  const specs = new Set<string>();
  const tests = new Set<string>(); // test ids
  const steering: string[] = [];
  const evidence: EvidenceLink[] = [];
  const byName = new Map(task.tests.map((t) => [t.name, t.id]));
  if (assessment) {
    for (const c of assessment.cells) {
      const labelled = c.labels.some((l) => l.note !== undefined || l.evidence.length > 0);
      if (c.outcome === 'false_positive' || c.outcome === 'false_negative' || labelled) {
        attempts.add(c.attempt);
        specs.add(c.spec);
        for (const l of c.labels) evidence.push(...l.evidence);
      }
    }
    if (attempts.size > 0) steering.push('curator labels');
    for (const s of assessment.flags) {
      if (s.decision?.decision === 'dismissed') continue;
      if (s.attempt) attempts.add(s.attempt);
      if (s.spec) specs.add(s.spec);
      const tid = s.test ? byName.get(s.test) : undefined;
      if (tid) tests.add(tid);
    }
    if (assessment.flags.some((f) => f.decision?.decision !== 'dismissed')) steering.push('verifier flags');
    for (const sc of assessment.scores.scores) for (const e of sc.score.evidence ?? []) evidence.push(e);
  }
  for (const e of evidence) {
    if (e.kind === 'test') tests.add(e.test);
    if (e.kind === 'spec') specs.add(e.spec);
    if (e.kind === 'trajectory_step') attempts.add(e.attempt);
  }
  const failing = (attemptId: string): string[] => {
    const v = verifier?.attempts[attemptId];
    if (!v) return [];
    return task.tests.filter((t) => FAIL.has(v.tests[t.name] ?? '')).map((t) => t.id);
  };
  if (attempts.size === 0) {
    // Nothing reviewed yet: the attempts the verifier failed, else all of them.
    for (const a of task.attempts) if (failing(a.id).length > 0) attempts.add(a.id);
    if (attempts.size === 0) for (const a of task.attempts) attempts.add(a.id);
    steering.push('verifier results only (no labels or flags)');
  }
  for (const t of task.tests) if (t.specs.some((s) => specs.has(s))) tests.add(t.id);
  for (const a of [...attempts, GOLD_PROBE]) for (const t of failing(a)) tests.add(t);
  return { attempts: [...attempts], specs: [...specs], tests: [...tests], evidence, failing, steering };
}

export function buildPrompt(inp: PromptInput): BuiltPrompt {
  const { task, verifier } = inp;
  const focus = chooseFocus(inp);
  const testById = new Map(task.tests.map((t) => [t.id, t]));
  const sections: Section[] = [];

  // -- the task, the request, the specs: always
  const header = [
    `Task ${task.id} (revision ${task.revision}): ${task.title}`,
    `Repository ${task.repo.name}${task.repo.baseCommit ? ` at ${task.repo.baseCommit}` : ''}; verifier: \`${task.verifier.command}\` (${task.verifier.parser})`,
    `The curator asks for: ${inp.target === 'auto' ? 'whatever change fits best (request, specs, tests or spec-test map)' : `a change to the ${inp.target.replace(/_/g, '-')}`}.`,
  ];
  if (inp.note && inp.note.trim()) header.push(`The curator's note for this request: ${inp.note.trim()}`);
  sections.push({ id: 'task', title: 'Task', priority: 1000, required: true, order: 0, items: [item(header.join('\n'))] });
  sections.push({ id: 'request', title: 'Request (request.md)', priority: 999, required: true, order: 1, items: [item(fence(inp.request, 'markdown'))] });
  const coverage = new Map<string, string[]>();
  for (const t of task.tests) for (const s of t.specs) coverage.set(s, [...(coverage.get(s) ?? []), t.id]);
  const specLines = task.specs.map((s) => `- ${s.id} [${s.category}]${s.dependsOn.length ? ` (depends on ${s.dependsOn.join(', ')})` : ''}: ${s.text}\n  tests: ${(coverage.get(s.id) ?? []).join(', ') || 'none'}`);
  const testLines = task.tests.map((t) => `- ${t.id} ${t.kind} \`${t.name}\` covers ${t.specs.join(', ') || 'no spec'}`);
  sections.push({ id: 'specs', title: 'Specs and the spec-test map', priority: 998, required: true, order: 2, items: [item(`${specLines.join('\n')}\n\nTests:\n${testLines.join('\n')}`)] });

  // -- the curator's findings
  const review: Item[] = [];
  const a = inp.assessment;
  if (a) {
    const cells = a.cells.filter((c) => c.outcome === 'false_positive' || c.outcome === 'false_negative');
    for (const c of cells) {
      const labels = c.labels.map((l) => `${l.curator}: ${l.verdict}${l.note ? ` — "${l.note}"` : ''}${l.evidence.length ? ` [evidence ${l.evidence.map(formatEvidence).join(', ')}]` : ''}`);
      review.push(item(`- ${c.outcome === 'false_positive' ? 'FALSE POSITIVE' : 'FALSE NEGATIVE'}: attempt ${c.attempt} × spec ${c.spec}: verifier ${c.verifier}, curator ${c.final ?? '?'} (${labels.join('; ')})`));
    }
    for (const c of a.cells) {
      if (cells.includes(c)) continue;
      for (const l of c.labels) {
        if (!l.note && l.evidence.length === 0) continue;
        review.push(item(`- label ${c.attempt} × ${c.spec}: ${l.verdict} by ${l.curator} (verifier ${c.verifier})${l.note ? ` — "${l.note}"` : ''}${l.evidence.length ? ` [evidence ${l.evidence.map(formatEvidence).join(', ')}]` : ''}`));
      }
    }
    for (const s of a.flags) {
      const state = s.decision ? s.decision.decision : 'open';
      if (state === 'dismissed') continue;
      review.push(item(`- verifier flag (${state}) ${s.kind}: ${s.message}${s.decision?.note ? ` — curator: "${s.decision.note}"` : ''}`));
    }
    const sc = a.scores;
    for (const s of sc.scores) {
      const p = s.score;
      review.push(item(`- scores by ${s.curator}: underspecified ${p.underspecified}, tests reject valid solutions ${p.fnSeverity}, tests too weak ${p.fpSeverity}${p.envDefects.length ? `, environment: ${p.envDefects.join(', ')}` : ''}${p.otherIssues ? `, other: ${p.otherIssues}` : ''}${p.note ? ` — "${p.note}"` : ''}`));
    }
    for (const e of a.state.events) {
      if (e.kind === 'status' && 'payload' in e && (e.payload as { note?: string }).note) review.push(item(`- status note: ${(e.payload as { note: string }).note}`));
    }
  }
  sections.push({ id: 'review', title: "The curator's findings", priority: 950, order: 3, items: review, empty: 'no labels, notes or flags yet' });

  // -- verifier results
  const vItems: Item[] = [];
  const runOf = (id: string) => verifier?.attempts[id];
  const verdictLine = (id: string, label: string) => {
    const v = runOf(id);
    if (!v) return `- ${label}: not run`;
    const failing = task.tests.filter((t) => FAIL.has(v.tests[t.name] ?? '')).map((t) => `${t.id} (${v.tests[t.name]})`);
    const specs = Object.entries(v.specs)
      .filter(([, x]) => x !== 'pass')
      .map(([s, x]: [string, SpecVerdict]) => `${s}=${x}`);
    return `- ${label}: ${v.status}${v.stale ? ' (stale)' : ''}, run ${v.runId}; failing: ${failing.join(', ') || 'none'}${specs.length ? `; specs not passing: ${specs.join(', ')}` : ''}`;
  };
  vItems.push(item(verdictLine(GOLD_PROBE, 'gold patch')), item(verdictLine(EMPTY_PROBE, 'empty patch')));
  const ordered = [...focus.attempts, ...task.attempts.map((x) => x.id).filter((x) => !focus.attempts.includes(x))];
  for (const id of ordered) vItems.push(item(verdictLine(id, `attempt ${id}`)));
  sections.push({ id: 'verifier', title: 'Verifier results', priority: 940, order: 4, items: vItems });

  // -- the source of the tests involved
  const parsedTests = parsePatch(inp.testPatch, 'tests.patch');
  const srcItems: Item[] = [];
  for (const tid of focus.tests) {
    const t = testById.get(tid);
    if (!t) continue;
    const src = findTestSource(parsedTests, parseTestName(t.name));
    if (src) srcItems.push(item(`${t.id} — ${src.file}:\n${fence(middleCut(src.text, 6000), 'python')}`));
  }
  sections.push({ id: 'test-sources', title: 'Source of the tests involved', priority: 900, order: 5, items: srcItems, empty: 'no test involved, or its source is not in the test patch' });

  // -- whole test files (needed to return a changed file whole)
  const wantFiles = inp.target === 'tests' || inp.target === 'auto';
  const fileItems: Item[] = [];
  for (const [p, text] of inp.testFiles) if (text !== undefined) fileItems.push(item(`${p} (after the test patch):\n${fence(text)}`));
  sections.push({ id: 'test-files', title: 'Test files', priority: wantFiles ? 880 : 300, order: 6, items: fileItems, empty: 'the test patch adds no text files' });

  // -- failure output of the runs
  const logItems: Item[] = [];
  const funcNames = focus.tests.map((id) => testById.get(id)).filter((t) => t !== undefined).map((t) => parseTestName(t.name).func);
  for (const id of [...focus.attempts, GOLD_PROBE]) {
    const log = inp.runLogs?.get(id);
    if (!log || focus.failing(id).length === 0) continue;
    const excerpt = logExcerpt(log.text, funcNames);
    if (excerpt) logItems.push(item(`${id === GOLD_PROBE ? 'gold patch' : `attempt ${id}`}, run ${log.runId} (stdout, line numbers as stored):\n${fence(excerpt)}`));
  }
  sections.push({ id: 'logs', title: 'Verifier output around the failures', priority: 800, order: 7, items: logItems, empty: 'no failing run with stored output' });

  // -- trajectory steps
  const stepSections = trajectoryItems(inp, focus.attempts, focus.evidence, funcNames);
  for (const s of stepSections) sections.push(s);

  // -- patch hunks
  const hunkItems = (patchText: string | undefined, label: string, evidenceFor: (file: string, hunk: number) => boolean): Item[] => {
    if (!patchText) return [];
    const parsed = parsePatch(patchText);
    const out: Array<{ it: Item; hot: boolean }> = [];
    for (const f of parsed.files) {
      f.hunks.forEach((h: Hunk, i: number) => {
        const body = h.lines.length > HUNK_LINES ? [...h.lines.slice(0, HUNK_LINES), `[… ${h.lines.length - HUNK_LINES} more lines …]`] : h.lines;
        out.push({ it: item(`${label} ${filePath(f)} hunk ${i}:\n${fence(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@ ${h.section}\n${body.join('\n')}`, 'diff')}`), hot: evidenceFor(filePath(f), i) });
      });
    }
    return [...out.filter((x) => x.hot), ...out.filter((x) => !x.hot)].map((x) => x.it);
  };
  const hunkEvidence = (patch: 'gold' | 'attempt', attempt?: string) => (file: string, hunk: number) =>
    focus.evidence.some((e) => e.kind === 'diff_hunk' && e.patch === patch && (patch === 'gold' || e.attempt === attempt) && e.file === file && e.hunk === hunk);
  sections.push({ id: 'patch:gold', title: 'Gold patch', priority: 700, order: 20, items: hunkItems(inp.goldPatch, 'gold', hunkEvidence('gold')), empty: 'no gold patch' });
  task.attempts.forEach((at, i) => {
    const isFocus = focus.attempts.includes(at.id);
    sections.push({
      id: `patch:${at.id}`,
      title: `Patch of attempt ${at.id}`,
      priority: isFocus ? 690 - i : 200 - i,
      order: 21 + i,
      items: hunkItems(inp.attemptPatches.get(at.id), `attempt ${at.id}`, hunkEvidence('attempt', at.id)),
      empty: 'no patch',
    });
  });

  return assemble(inp, sections, focus);
}

function logExcerpt(text: string, funcNames: string[]): string {
  const lines = text.split('\n');
  const re = new RegExp(`(FAILED|ERROR|Error|assert|Traceback|^E\\s${funcNames.length ? `|${funcNames.map(escapeRe).join('|')}` : ''})`);
  const keep = new Set<number>();
  for (let i = 0; i < lines.length && keep.size < LOG_LINES_PER_ATTEMPT * 2; i++) {
    if (re.test(lines[i] as string)) for (let k = Math.max(0, i - 2); k <= Math.min(lines.length - 1, i + 3); k++) keep.add(k);
  }
  const idx = [...keep].sort((x, y) => x - y).slice(0, LOG_LINES_PER_ATTEMPT);
  const out: string[] = [];
  let prev = -2;
  for (const i of idx) {
    if (i !== prev + 1) out.push('…');
    out.push(`${String(i + 1).padStart(5)}| ${(lines[i] as string).slice(0, 300)}`);
    prev = i;
  }
  return out.join('\n');
}

function renderStep(s: TrajectoryStep): string {
  let body = s.text;
  if (s.toolCalls && s.toolCalls.length > 0) body += `\n${s.toolCalls.map((c) => `→ ${c.name}(${middleCut(c.arguments, 400)})`).join('\n')}`;
  return `[step ${s.index}] ${s.kind}: ${middleCut(body, STEP_CHARS)}`;
}

/** Steps of each focus attempt: around labelled evidence first, then around mentions of the tests involved, then the last steps. */
function trajectoryItems(inp: PromptInput, attempts: string[], evidence: EvidenceLink[], keywords: string[]): Section[] {
  const out: Section[] = [];
  const trajs = inp.trajectories;
  if (!trajs) return out;
  const kw = keywords.filter((k) => k.length >= 4);
  const re = kw.length > 0 ? new RegExp(kw.map(escapeRe).join('|')) : undefined;
  attempts.forEach((id, rank) => {
    const steps = trajs.get(id);
    if (!steps || steps.length === 0) return;
    const byIndex = new Map<number, number>();
    steps.forEach((s, i) => byIndex.set(s.index, i));
    const chosen: number[] = [];
    const seen = new Set<number>();
    const take = (pos: number) => {
      if (pos < 0 || pos >= steps.length || seen.has(pos)) return;
      seen.add(pos);
      chosen.push(pos);
    };
    for (const e of evidence) {
      if (e.kind !== 'trajectory_step' || e.attempt !== id) continue;
      const pos = byIndex.get(e.step);
      if (pos === undefined) continue;
      for (const d of [0, -1, 1, -2, 2]) take(pos + d);
    }
    if (re) {
      let hits = 0;
      for (let i = 0; i < steps.length && hits < 12; i++) {
        const s = steps[i] as TrajectoryStep;
        if (s.kind === 'system') continue;
        if (re.test(s.text) || (s.toolCalls !== undefined && s.toolCalls.some((c) => re.test(c.arguments)))) {
          hits++;
          take(i);
          take(i + 1);
        }
      }
    }
    for (let i = Math.max(0, steps.length - 3); i < steps.length; i++) take(i);
    // Items in relevance order for the budget; shown in step order.
    const items = chosen.map((pos) => ({ pos, it: item(renderStep(steps[pos] as TrajectoryStep)) }));
    out.push({
      id: `steps:${id}`,
      title: `Trajectory of attempt ${id} (selected steps of ${steps.length})`,
      priority: 760 - rank,
      order: 10 + rank,
      items: items.map((x) => ({ ...x.it, text: x.it.text, pos: x.pos }) as Item & { pos: number }),
      empty: 'no steps',
    });
  });
  return out;
}

function assemble(inp: PromptInput, sections: Section[], focus: ReturnType<typeof chooseFocus>): BuiltPrompt {
  const system = SYSTEM_PROMPT;
  let left = inp.budgetTokens - estimateTokens(system) - SCHEMA_RESERVE_TOKENS;
  const chosen = new Map<string, Item[]>();
  const reports = new Map<string, SectionReport>();
  for (const s of [...sections].sort((x, y) => y.priority - x.priority)) {
    const head = estimateTokens(`## ${s.title}\n\n`);
    if (s.items.length === 0) {
      reports.set(s.id, { id: s.id, title: s.title, included: 'omitted', tokens: 0, items: 0, itemsIncluded: 0, reason: s.empty ?? 'nothing to show' });
      continue;
    }
    const taken: Item[] = [];
    let used = head;
    for (const it of s.items) {
      if (s.required || used + it.tokens <= left) {
        taken.push(it);
        used += it.tokens;
      } else if (taken.length === 0 && it.tokens > left && left > 400 && (s.items.length === 1 || s.id.startsWith('test-files'))) {
        // One big item (a whole file, a long request) that alone overflows: its head and tail still help.
        const cut = item(middleCut(it.text, Math.floor((left - head) * 3.5) - 80));
        taken.push(cut);
        used += cut.tokens;
      }
    }
    if (taken.length === 0) {
      reports.set(s.id, { id: s.id, title: s.title, included: 'omitted', tokens: 0, items: s.items.length, itemsIncluded: 0, reason: 'over the token budget' });
      continue;
    }
    left -= used;
    chosen.set(s.id, taken);
    const full = taken.length === s.items.length && taken.every((t, i) => t === s.items[i]);
    reports.set(s.id, {
      id: s.id,
      title: s.title,
      included: full ? 'full' : 'partial',
      tokens: used,
      items: s.items.length,
      itemsIncluded: taken.length,
      ...(full ? {} : { reason: 'the most relevant items that fit the token budget' }),
    });
  }
  const parts: string[] = [];
  for (const s of [...sections].sort((x, y) => x.order - y.order)) {
    const taken = chosen.get(s.id);
    if (!taken) continue;
    // Trajectory steps go in step order, whatever order they were chosen in.
    const items = s.id.startsWith('steps:') ? [...(taken as Array<Item & { pos?: number }>)].sort((x, y) => (x.pos ?? 0) - (y.pos ?? 0)) : taken;
    parts.push(`## ${s.title}\n\n${items.map((i) => i.text).join('\n')}`);
  }
  const omitted = [...reports.values()].filter((r) => r.included !== 'full' && r.items > 0);
  if (omitted.length > 0) parts.push(`(Left out to fit the budget: ${omitted.map((r) => `${r.title}${r.included === 'partial' ? ` — ${r.items - r.itemsIncluded} of ${r.items} items` : ''}`).join('; ')}.)`);
  const user = parts.join('\n\n');
  const messages: BuiltPrompt['messages'] = [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
  const ordered = [...sections].sort((x, y) => x.order - y.order).map((s) => reports.get(s.id) as SectionReport);
  return {
    messages,
    sections: ordered,
    estimatedTokens: estimateTokens(system) + estimateTokens(user),
    budgetTokens: inp.budgetTokens,
    focus: { attempts: focus.attempts, tests: focus.tests, specs: focus.specs, steering: focus.steering },
  };
}

/** The prompt as one Markdown document, to show the curator exactly what was sent. */
export function promptDocument(p: { messages: Array<{ role: string; content: string }>; sections?: SectionReport[] }): string {
  const out: string[] = [];
  for (const m of p.messages) out.push(`<!-- ${m.role} message -->\n${m.content}`);
  if (p.sections) {
    out.push(
      `<!-- sections (not sent) -->\n${p.sections.map((s) => `- ${s.title}: ${s.included}${s.items > 0 ? ` (${s.itemsIncluded}/${s.items} items, ~${s.tokens} tokens)` : ''}${s.reason ? ` — ${s.reason}` : ''}`).join('\n')}`,
    );
  }
  return `${out.join('\n\n')}\n`;
}
