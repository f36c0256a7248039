// The review agent's prompt (issue 13): one call judges ONE attempt against EVERY spec of its task. It shows the
// request with its sentences numbered, the specs, the tests with the spec-test map, the attempt's diff with each
// file's hunks numbered from 0, the latest verifier run of the attempt at its current patch (status, per-test results,
// stdout lines numbered from 1 with the lines around failures and the summary kept) and the trajectory's steps (each
// cut head and tail, the whole within a character budget, older middle steps cut first). Every cut is said. Pure:
// the app layer reads the files and the trajectory; same input, same messages, same hash. See docs/review-agent.md.
import { createHash } from 'node:crypto';
import type { CandidateTask, TrajectoryStep } from '../model';
import type { FilePatch } from '../patch';
import { filePath, parsePatch } from '../patch';

/** Bumped whenever the wording, the layout or the reply schema changes: calibration is per version. */
export const PROMPT_VERSION = 'review-1';

/**
 * The request's sentences, 1-based in citations: blank lines, list items, headings and code fences start a new one;
 * inside a paragraph a sentence ends at `.`, `!` or `?` before whitespace and a capital, digit, quote or bracket.
 * Whitespace runs are one space. The webview and the CLI cite by this split.
 */
export function requestSentences(text: string): string[] {
  const out: string[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let cur: string[] = [];
  const flush = () => {
    const t = cur.join(' ').replace(/\s+/g, ' ').trim();
    cur = [];
    if (!t) return;
    for (const s of t.split(/(?<=[.!?])\s+(?=[A-Z0-9`"'(*[_])/)) if (s.trim()) out.push(s.trim());
  };
  for (const l of lines) {
    if (l.trim() === '') {
      flush();
      continue;
    }
    if (/^\s*(?:[-*+]\s|\d+[.)]\s|#{1,6}\s|```|>\s?)/.test(l)) flush();
    cur.push(l);
  }
  flush();
  return out;
}

/** A step as shown and as quoted against: its text, then its tool calls. */
export function stepText(s: TrajectoryStep): string {
  const calls = (s.toolCalls ?? []).map((c) => `${c.name}(${c.arguments})`);
  return [s.text, ...calls].filter((x) => x !== '').join('\n');
}

/** The hunks of each file of a patch, in patch order (a file named twice has its hunks in sequence). */
export function hunksByFile(patch: string): Map<string, string[][]> {
  const out = new Map<string, string[][]>();
  for (const f of parsePatch(patch, 'patch').files as FilePatch[]) {
    const p = filePath(f);
    const list = out.get(p) ?? [];
    for (const h of f.hunks) list.push([`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@${h.section ? ` ${h.section}` : ''}`, ...h.lines]);
    out.set(p, list);
  }
  return out;
}

/** The latest verifier run of the attempt at its current patch, as the prompt shows it. */
export interface ShownRun {
  id: string;
  status: string;
  /** Test name to its status in the run. */
  tests: Record<string, string>;
  stdout: string;
}

export interface ReviewPromptInput {
  task: Pick<CandidateTask, 'id' | 'revision' | 'specs' | 'tests'>;
  attempt: string;
  request: string;
  patch: string;
  run?: ShownRun;
  steps: readonly TrajectoryStep[];
  /** Characters for the trajectory in all (default 60,000). */
  trajectoryChars?: number;
  /** Characters per step, head and tail kept (default 1,500). */
  stepChars?: number;
  /** Characters for the diff (default 40,000). */
  diffChars?: number;
  /** Characters for the stdout (default 16,000). */
  logChars?: number;
  /** Characters for the request (default 16,000). */
  requestChars?: number;
}

export interface ReviewPromptCut {
  part: 'request' | 'diff' | 'log' | 'trajectory';
  message: string;
}

export interface ReviewPrompt {
  messages: Array<{ role: 'system' | 'user'; content: string }>;
  promptVersion: string;
  /** SHA-256 (hex) of the exact messages (JSON of the role/content list). */
  promptHash: string;
  estimatedTokens: number;
  cuts: ReviewPromptCut[];
  /** The specs asked about, in task order. */
  specs: string[];
}

export const REVIEW_SCHEMA_NAME = 'attempt_review';

/** The reply schema for strict JSON-schema mode: every property required, nullable where it does not apply. */
export const REVIEW_SCHEMA: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  required: ['refusal', 'findings'],
  properties: {
    refusal: { type: ['string', 'null'], description: 'null, or why the attempt cannot be judged (then findings is empty)' },
    findings: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['attempt', 'spec', 'judgment', 'confidence', 'rationale', 'citations'],
        properties: {
          attempt: { type: 'string', description: 'the attempt id judged' },
          spec: { type: 'string', description: 'the spec id judged' },
          judgment: { type: 'string', enum: ['satisfied', 'violated', 'unsure'] },
          confidence: { type: 'number', description: '0 to 1' },
          rationale: { type: 'string' },
          citations: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['kind', 'step', 'file', 'hunk', 'test', 'line', 'sentence', 'quote'],
              properties: {
                kind: { type: 'string', enum: ['trajectory_step', 'diff_hunk', 'test', 'log_line', 'request_sentence'] },
                step: { type: ['integer', 'null'], description: 'trajectory_step: the step number shown' },
                file: { type: ['string', 'null'], description: 'diff_hunk: the file path shown' },
                hunk: { type: ['integer', 'null'], description: 'diff_hunk: the hunk number shown (0-based)' },
                test: { type: ['string', 'null'], description: 'test: the test id' },
                line: { type: ['integer', 'null'], description: 'log_line: the stdout line number shown' },
                sentence: { type: ['integer', 'null'], description: 'request_sentence: the sentence number shown' },
                quote: { type: ['string', 'null'], description: 'exact words of the cited place, or null' },
              },
            },
          },
        },
      },
    },
  },
};

const SYSTEM = [
  'You review one attempt at a coding task: a patch a solver wrote, and the steps it took. For EVERY spec of the task,',
  'judge whether the attempt satisfies it ("satisfied"), violates it ("violated"), or cannot be told ("unsure"), with a',
  'confidence from 0 to 1 and a short rationale. Judge the behaviour of the patch against the spec and the request, not',
  'whether the tests pass: the tests may be too weak or too strict, and that is what this review looks for.',
  'Every finding cites the places it rests on, by the numbers shown: trajectory_step (step), diff_hunk (file and hunk),',
  'test (test id), log_line (stdout line), request_sentence (sentence). A quote, where given, must be exact words of the',
  'cited place. A citation to something not shown drops the finding. Set the fields a kind does not use to null.',
  'Answer with one JSON object: {"refusal": null, "findings": [{"attempt", "spec", "judgment", "confidence", "rationale",',
  '"citations": [{"kind", "step", "file", "hunk", "test", "line", "sentence", "quote"}]}]}, one finding per spec.',
].join('\n');

const cutMarker = (what: string) => `[... ${what} cut ...]`;

/** Head and tail of a text within `max` characters, the cut said. */
export function headTail(text: string, max: number): { text: string; cut: number } {
  if (text.length <= max) return { text, cut: 0 };
  const keep = Math.max(0, max - 40);
  const head = Math.ceil(keep * 0.6);
  const tail = keep - head;
  const cut = text.length - head - tail;
  return { text: `${text.slice(0, head)}\n${cutMarker(`${cut} characters`)}\n${tail > 0 ? text.slice(text.length - tail) : ''}`, cut };
}

const FAILURE_RE = /\b(FAILED|FAIL|ERROR|Error|Traceback|assert|Exception)\b|^E\s/;
const SUMMARY_RE = /^=+ .* =+$|short test summary|\b\d+ (passed|failed|error)/;

/** Stdout lines numbered from 1: the lines around failures (3 each side), the summary lines and the last 15 kept. */
export function numberedLog(stdout: string, maxChars: number): { text: string; lines: number; kept: number } {
  const lines = stdout.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const n = lines.length;
  const keep = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const l = lines[i] as string;
    if (FAILURE_RE.test(l)) for (let j = Math.max(0, i - 3); j <= Math.min(n - 1, i + 3); j++) keep[j] = 1;
    if (SUMMARY_RE.test(l)) keep[i] = 1;
  }
  for (let i = Math.max(0, n - 15); i < n; i++) keep[i] = 1;
  const all = lines.reduce((s, l) => s + l.length + 8, 0);
  if (all <= maxChars) keep.fill(1);
  const out: string[] = [];
  let used = 0;
  let kept = 0;
  let gap = 0;
  const flushGap = (at: number) => {
    if (gap > 0) out.push(cutMarker(`lines ${at - gap + 1}-${at} (${gap} line${gap === 1 ? '' : 's'})`));
    gap = 0;
  };
  for (let i = 0; i < n; i++) {
    const l = (lines[i] as string).length > 500 ? `${(lines[i] as string).slice(0, 500)} [... ${(lines[i] as string).length - 500} characters cut ...]` : (lines[i] as string);
    if (keep[i] && used + l.length + 8 <= maxChars) {
      flushGap(i);
      out.push(`${String(i + 1).padStart(5)}| ${l}`);
      used += l.length + 8;
      kept++;
    } else gap++;
  }
  flushGap(n);
  return { text: out.join('\n'), lines: n, kept };
}

/** The trajectory within `maxChars`: the first two steps, then as many of the latest as fit; the older middle cut. */
export function shownSteps(steps: readonly TrajectoryStep[], maxChars: number, stepChars: number): { text: string; shown: number; cutSteps: number; cutChars: number } {
  // Sizes first, from lengths alone: only the steps kept are rendered (a 5 MB trajectory has thousands).
  const header = (s: TrajectoryStep) => `### step ${s.index} (${s.kind})\n`;
  const rawLen = (s: TrajectoryStep) => s.text.length + (s.toolCalls ?? []).reduce((n, c) => n + c.name.length + c.arguments.length + 3, 0);
  const size = (i: number) => {
    const s = steps[i] as TrajectoryStep;
    const l = rawLen(s);
    return header(s).length + (l <= stepChars ? l : stepChars + 40) + 1;
  };
  const keep = new Uint8Array(steps.length);
  let used = 0;
  for (let i = 0; i < Math.min(2, steps.length); i++) {
    if (used + size(i) > maxChars) break;
    keep[i] = 1;
    used += size(i);
  }
  for (let i = steps.length - 1; i >= 2; i--) {
    if (used + size(i) > maxChars) break;
    keep[i] = 1;
    used += size(i);
  }
  const out: string[] = [];
  let gapFrom = -1;
  let gapN = 0;
  let cutChars = 0;
  let shown = 0;
  const flush = (until: number) => {
    if (gapN > 0) out.push(cutMarker(`steps ${steps[gapFrom]?.index}-${steps[until]?.index} (${gapN} step${gapN === 1 ? '' : 's'}) to fit the budget`));
    gapN = 0;
  };
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i] as TrajectoryStep;
    if (keep[i]) {
      flush(i - 1);
      const t = headTail(stepText(s), stepChars);
      out.push(`${header(s)}${t.text}`);
      cutChars += t.cut;
      shown++;
    } else {
      if (gapN === 0) gapFrom = i;
      gapN++;
    }
  }
  flush(steps.length - 1);
  return { text: out.join('\n'), shown, cutSteps: steps.length - shown, cutChars };
}

/** The attempt's diff, each file's hunks numbered from 0; past `maxChars` the remaining lines are cut, the cut said. */
export function numberedDiff(patch: string, maxChars: number): { text: string; hunks: number; cutLines: number } {
  const out: string[] = [];
  let used = 0;
  let hunks = 0;
  let cutLines = 0;
  for (const [file, hs] of hunksByFile(patch)) {
    out.push(`### file ${file}`);
    hs.forEach((h, i) => {
      hunks++;
      out.push(`#### hunk ${i} of ${file}`);
      for (const l of h) {
        if (used + l.length + 1 > maxChars) {
          cutLines++;
          continue;
        }
        out.push(l);
        used += l.length + 1;
      }
    });
  }
  if (cutLines > 0) out.push(cutMarker(`${cutLines} diff line(s) past the budget`));
  return { text: out.join('\n'), hunks, cutLines };
}

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3.5);
}

/** The messages of one review call, their hash, and what was cut. */
export function buildReviewPrompt(inp: ReviewPromptInput): ReviewPrompt {
  const cuts: ReviewPromptCut[] = [];
  const sentences = requestSentences(inp.request);
  let reqText = sentences.map((s, i) => `[${i + 1}] ${s}`).join('\n');
  const reqMax = inp.requestChars ?? 16_000;
  if (reqText.length > reqMax) {
    const h = headTail(reqText, reqMax);
    reqText = h.text;
    cuts.push({ part: 'request', message: `${h.cut} characters of the request cut` });
  }
  const specLines = inp.task.specs.map((s) => `- ${s.id} (${s.category})${s.dependsOn.length ? ` [depends on ${s.dependsOn.join(', ')}]` : ''}: ${s.text}`);
  const run = inp.run;
  const testLines = inp.task.tests.map((t) => `- ${t.id} ${t.kind} ${t.name} -> specs: ${t.specs.length ? t.specs.join(', ') : '(none)'}${run ? `; in run: ${run.tests[t.name] ?? 'not reported'}` : ''}`);
  const diff = numberedDiff(inp.patch, inp.diffChars ?? 40_000);
  if (diff.cutLines > 0) cuts.push({ part: 'diff', message: `${diff.cutLines} diff line(s) cut` });
  let runText = '(the attempt has no verifier run at its current patch)';
  if (run) {
    const log = numberedLog(run.stdout, inp.logChars ?? 16_000);
    if (log.kept < log.lines) cuts.push({ part: 'log', message: `${log.lines - log.kept} of ${log.lines} stdout line(s) cut` });
    runText = [`run ${run.id}: ${run.status}`, '', '### stdout (numbered lines)', log.text === '' ? '(empty)' : log.text].join('\n');
  }
  const traj = shownSteps(inp.steps, inp.trajectoryChars ?? 60_000, inp.stepChars ?? 1500);
  if (traj.cutSteps > 0) cuts.push({ part: 'trajectory', message: `${traj.cutSteps} of ${inp.steps.length} step(s) cut` });
  if (traj.cutChars > 0) cuts.push({ part: 'trajectory', message: `${traj.cutChars} characters cut inside steps` });
  const user = [
    `# Task ${inp.task.id} (revision ${inp.task.revision}), attempt ${inp.attempt}`,
    '',
    '## Request (numbered sentences)',
    reqText === '' ? '(empty)' : reqText,
    '',
    '## Specs (judge every one)',
    specLines.length ? specLines.join('\n') : '(none)',
    '',
    '## Tests (id, kind, name, specs they check)',
    testLines.length ? testLines.join('\n') : '(none)',
    '',
    `## Diff of attempt ${inp.attempt} (hunks numbered per file from 0)`,
    diff.text === '' ? '(empty patch)' : diff.text,
    '',
    '## Latest verifier run',
    runText,
    '',
    `## Trajectory (${inp.steps.length} steps)`,
    traj.text === '' ? '(no trajectory)' : traj.text,
  ].join('\n');
  const messages: ReviewPrompt['messages'] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: user },
  ];
  return {
    messages,
    promptVersion: PROMPT_VERSION,
    promptHash: promptHash(messages),
    estimatedTokens: estimateTokens(SYSTEM) + estimateTokens(user),
    cuts,
    specs: inp.task.specs.map((s) => s.id),
  };
}

export function promptHash(messages: ReadonlyArray<{ role: string; content: string }>): string {
  return createHash('sha256')
    .update(JSON.stringify(messages.map((m) => ({ role: m.role, content: m.content }))))
    .digest('hex');
}
