// The planted-defect suite (issue 13, item 3), pure: transforms of a task's Python test patch that plant a known
// defect, and the recall of the probes and the review agent on the planted copies. See docs/calibration.md.
//
// - A planted FALSE POSITIVE drops one assertion from a test mapped to a spec (the test still asserts something):
//   the tests now accept an attempt that breaks what that assertion checked, so gold mutants it was killing survive.
// - A planted FALSE NEGATIVE adds an over-strict assertion: beside a `with pytest.raises(E...)` block, the same call
//   again with `match=` pinned to the exact wording of the gold patch's `raise E("...")`. The gold still passes; a
//   correct attempt worded differently fails, which no spec requires.
// Both edit only added lines of the test patch and keep hunk headers consistent, so the copy's patch applies.
import type { FindingCandidate } from '../findings/model';
import type { CandidateTask } from '../model';
import type { MutationReport } from './mutantReport';
import type { AlternativesReport } from './llmPatches';
import { maskPythonLine } from './pythonLexer';
import type { PyLexState } from './pythonLexer';
import type { FindingsRecord } from '../review/reducer';
import { currentFindings } from '../findings/calibration';

export const PLANT_KINDS = ['false_positive', 'false_negative'] as const;
export type PlantKind = (typeof PLANT_KINDS)[number];

/** One planted defect: what was changed, where, and the spec its test maps to (the ground truth). */
export interface PlantedDefect {
  kind: PlantKind;
  /** The test changed (`TestCase.name`). */
  test: string;
  /** Specs the test maps to. */
  specs: string[];
  file: string;
  /** 1-based line, in the new file of the test patch, of the assertion dropped (FP) or of the first line added (FN). */
  line: number;
  /** The assertion dropped or added, as it reads in the test. */
  assertion: string;
}

export type PlantOutcome = { ok: true; patch: string; defect: PlantedDefect } | { ok: false; reason: string };

interface PatchLine {
  text: string;
  /** '+', '-', ' ' inside a hunk; undefined outside. */
  op?: '+' | '-' | ' ';
  file?: string;
  hunk?: number;
  /** 1-based line in the new file (added and context lines). */
  newLine?: number;
}

interface Hunk {
  header: number;
  file: string;
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  rest: string;
}

const HUNK_RE = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;

/** A test patch split into lines with, for each hunk line, its file, hunk and new-file line number. */
class EditablePatch {
  readonly lines: PatchLine[] = [];
  readonly hunks: Hunk[] = [];
  private readonly eol: string;

  constructor(text: string) {
    this.eol = text.includes('\r\n') ? '\r\n' : '\n';
    const raw = text.split(/\r?\n/);
    if (raw[raw.length - 1] === '') raw.pop();
    let file: string | undefined;
    let hunk = -1;
    let oldLeft = 0;
    let newLeft = 0;
    let newLine = 0;
    for (const t of raw) {
      if (oldLeft > 0 || newLeft > 0) {
        const op = t[0] === '+' || t[0] === '-' || t[0] === ' ' ? t[0] : t === '' ? ' ' : undefined;
        if (op !== undefined) {
          const pl: PatchLine = { text: t, op, hunk };
          if (file !== undefined) pl.file = file;
          if (op !== '-') {
            pl.newLine = newLine++;
            newLeft--;
          }
          if (op !== '+') oldLeft--;
          this.lines.push(pl);
          continue;
        }
        oldLeft = newLeft = 0;
      }
      if (t.startsWith('+++ ')) {
        const p = t.slice(4).replace(/\t.*$/, '');
        file = p === '/dev/null' ? undefined : p.replace(/^b\//, '');
      }
      const m = HUNK_RE.exec(t);
      if (m && file !== undefined) {
        const h: Hunk = { header: this.lines.length, file, oldStart: Number(m[1]), oldCount: m[2] === undefined ? 1 : Number(m[2]), newStart: Number(m[3]), newCount: m[4] === undefined ? 1 : Number(m[4]), rest: m[5] ?? '' };
        hunk = this.hunks.length;
        this.hunks.push(h);
        oldLeft = h.oldCount;
        newLeft = h.newCount;
        newLine = h.newStart;
        this.lines.push({ text: t });
        continue;
      }
      this.lines.push({ text: t });
    }
  }

  /** Removes lines [from, to) (added lines of one hunk) or inserts `added` at `at`, shifting later hunks of the file. */
  splice(at: number, remove: number, added: string[]): void {
    const hi = (remove > 0 ? this.lines[at] : this.lines[at - 1])?.hunk as number;
    const h = this.hunks[hi] as Hunk;
    const delta = added.length - remove;
    this.lines.splice(at, remove, ...added.map((a) => ({ text: `+${a}`, op: '+' as const, file: h.file, hunk: hi })));
    h.newCount += delta;
    for (let k = hi + 1; k < this.hunks.length; k++) {
      const o = this.hunks[k] as Hunk;
      if (o.file === h.file) o.newStart += delta;
    }
    for (const x of this.hunks) if (x.header >= at && x !== h) x.header += delta;
  }

  text(): string {
    const heads = new Map(this.hunks.map((h) => [h.header, h]));
    return (
      this.lines
        .map((l, i) => {
          const h = heads.get(i);
          return h ? `@@ -${h.oldStart},${h.oldCount} +${h.newStart},${h.newCount} @@${h.rest}` : l.text;
        })
        .join(this.eol) + this.eol
    );
  }
}

/** A test function written by added lines of the patch: its body, by patch line index. */
export interface TestBlock {
  /** `file::name` or `file::Class::name`. */
  id: string;
  file: string;
  /** Patch line index of the `def` line; body lines follow up to `end` (exclusive). */
  def: number;
  end: number;
  indent: number;
}

const indentOf = (s: string) => s.length - s.trimStart().length;

const RAISES_RE = /^(\s*)with\s+pytest\.raises\(\s*([A-Za-z_][\w.]*)\s*(?:,\s*match\s*=\s*.+?)?\)\s*:\s*$/;

/** Test functions defined on added lines of a patch (their whole body added too). */
export function addedTests(patch: string): TestBlock[] {
  return blocks(new EditablePatch(patch));
}

function blocks(p: EditablePatch): TestBlock[] {
  const out: TestBlock[] = [];
  let cls: { name: string; file: string } | undefined;
  for (let i = 0; i < p.lines.length; i++) {
    const l = p.lines[i] as PatchLine;
    if (l.op === undefined || l.op === '-' || l.file === undefined) continue;
    const src = l.text.slice(1);
    const c = /^class\s+([A-Za-z_]\w*)/.exec(src);
    if (c) cls = { name: c[1] as string, file: l.file };
    else if (src.trim() !== '' && indentOf(src) === 0 && !src.startsWith('@') && !/^\s*#/.test(src)) cls = undefined;
    const d = /^(\s*)(?:async\s+)?def\s+(test\w*)\s*\(/.exec(src);
    if (!d || l.op !== '+') continue;
    const indent = (d[1] as string).length;
    if (indent > 0 && (!cls || cls.file !== l.file)) continue;
    let end = i + 1;
    while (end < p.lines.length) {
      const b = p.lines[end] as PatchLine;
      if (b.op !== '+' || b.hunk !== l.hunk) break;
      const s = b.text.slice(1);
      if (s.trim() !== '' && indentOf(s) <= indent) break;
      end++;
    }
    while (end > i + 1 && (p.lines[end - 1] as PatchLine).text.slice(1).trim() === '') end--;
    const name = indent > 0 ? `${(cls as { name: string }).name}::${d[2]}` : (d[2] as string);
    out.push({ id: `${l.file}::${name}`, file: l.file, def: i, end, indent });
  }
  return out;
}

/**
 * Assertions of a block: `assert` statements (continuation lines included) and `with pytest.raises(...)` blocks
 * (the with line and its body: the call in it is what raises), as [first line, end) by patch line index.
 */
function assertions(p: EditablePatch, b: TestBlock): Array<{ from: number; to: number }> {
  const out: Array<{ from: number; to: number }> = [];
  let state: PyLexState;
  let i = b.def + 1;
  while (i < b.end) {
    const src = (p.lines[i] as PatchLine).text.slice(1);
    const start = i;
    const isAssert = /^\s*assert\b/.test(src);
    const raises = state === undefined && RAISES_RE.test(src);
    // Follow brackets (strings and comments masked) and backslashes to the end of the statement.
    let depth = 0;
    let j = i;
    for (;;) {
      const line = (p.lines[j] as PatchLine).text.slice(1);
      const m = maskPythonLine(line, state);
      state = m.state;
      for (const ch of m.code) {
        if (ch === '(' || ch === '[' || ch === '{') depth++;
        else if (ch === ')' || ch === ']' || ch === '}') depth--;
      }
      j++;
      if ((depth > 0 || state !== undefined || /\\\s*$/.test(m.code)) && j < b.end) continue;
      break;
    }
    if (raises) {
      const indent = indentOf(src);
      while (j < b.end) {
        const s = (p.lines[j] as PatchLine).text.slice(1);
        if (s.trim() !== '' && indentOf(s) <= indent) break;
        j++;
      }
      while (j > i + 1 && (p.lines[j - 1] as PatchLine).text.slice(1).trim() === '') j--;
    }
    if (isAssert || raises) out.push({ from: start, to: j });
    i = j;
  }
  return out;
}

/** The task's tests with specs, in task order, matched to the patch's added test functions. */
function mappedTests(task: Pick<CandidateTask, 'tests'>, p: EditablePatch): Array<{ block: TestBlock; name: string; specs: string[] }> {
  const byId = new Map(blocks(p).map((b) => [b.id, b]));
  const out: Array<{ block: TestBlock; name: string; specs: string[] }> = [];
  for (const t of task.tests) {
    if (t.specs.length === 0) continue;
    const block = byId.get(t.name.replace(/\[.*\]$/, ''));
    if (block) out.push({ block, name: t.name, specs: [...t.specs] });
  }
  return out;
}

/**
 * Plants a false positive: drops the first assertion (an `assert` statement or a `with pytest.raises` block) of the
 * first spec-mapped test (task order) that has at least two, so the test still asserts something. With `opts.test`,
 * that test, and its only assertion may go (the test then checks nothing: its body becomes `pass`).
 */
export function plantFalsePositive(task: Pick<CandidateTask, 'id' | 'tests'>, testPatch: string, opts: { test?: string } = {}): PlantOutcome {
  const p = new EditablePatch(testPatch);
  const tests = mappedTests(task, p).filter((t) => opts.test === undefined || t.name === opts.test);
  for (const t of tests) {
    const as = assertions(p, t.block);
    if (as.length < (opts.test === undefined ? 2 : 1)) continue;
    const a = as[0] as { from: number; to: number };
    const first = p.lines[a.from] as PatchLine;
    const assertion = p.lines
      .slice(a.from, a.to)
      .map((l) => l.text.slice(1))
      .join('\n');
    // A body left with no statement would not parse: `pass`, at the assertion's indentation.
    let code = 0;
    for (let k = t.block.def + 1; k < t.block.end; k++) if ((k < a.from || k >= a.to) && !/^\s*(#.*)?$/.test((p.lines[k] as PatchLine).text.slice(1))) code++;
    p.splice(a.from, a.to - a.from, code === 0 ? [`${' '.repeat(indentOf(first.text.slice(1)))}pass`] : []);
    return { ok: true, patch: p.text(), defect: { kind: 'false_positive', test: t.name, specs: t.specs, file: t.block.file, line: first.newLine as number, assertion: assertion.trim() } };
  }
  return {
    ok: false,
    reason: opts.test !== undefined ? `test ${opts.test} is not a spec-mapped test with an assertion written by the test patch` : 'no spec-mapped test written by the test patch has two or more assertions to drop one of',
  };
}

/**
 * The constant start of the message the gold patch's added lines raise `exc` with (`raise ValueError(f"... {x}")`
 * gives "..."), when every such raise starts the same way and that start is at least 6 characters; else why not.
 */
export function goldMessagePrefix(goldPatch: string, exc: string): { ok: true; prefix: string } | { ok: false; reason: string } {
  const short = exc.split('.').pop() as string;
  const prefixes = new Set<string>();
  const re = new RegExp(`raise\\s+(?:[\\w.]+\\.)?${short}\\(\\s*([rRbBuUfF]{0,2})(["'])`, 'g');
  for (const line of goldPatch.split(/\r?\n/)) {
    if (!line.startsWith('+') || line.startsWith('+++')) continue;
    for (const m of line.matchAll(re)) {
      const f = /f/i.test(m[1] as string);
      const q = m[2] as string;
      let i = (m.index as number) + m[0].length;
      let s = '';
      while (i < line.length && line[i] !== q && line[i] !== '\\' && !(f && line[i] === '{') && line[i] !== '"' && line[i] !== "'") s += line[i++];
      prefixes.add(s);
    }
  }
  if (prefixes.size === 0) return { ok: false, reason: `the gold patch adds no raise ${short}("...") to take an exact message from` };
  if (prefixes.size > 1) return { ok: false, reason: `the gold patch raises ${short} with ${prefixes.size} different messages: which one the test triggers is not known` };
  const prefix = [...prefixes][0] as string;
  if (prefix.trim().length < 6) return { ok: false, reason: `the gold's ${short} message starts with too little constant text to pin` };
  return { ok: true, prefix };
}

const regexEscape = (s: string) => s.replace(/[.^$*+?()[\]{}|\\]/g, '\\$&');

/**
 * Plants a false negative: after the first `with pytest.raises(E...)` block of a spec-mapped test (task order, or
 * `opts.test`), the same block again with `match=` pinned to the exact constant start of the gold's message for E.
 */
export function plantFalseNegative(task: Pick<CandidateTask, 'id' | 'tests'>, testPatch: string, goldPatch: string, opts: { test?: string } = {}): PlantOutcome {
  const p = new EditablePatch(testPatch);
  const tests = mappedTests(task, p).filter((t) => opts.test === undefined || t.name === opts.test);
  let why = 'no spec-mapped test written by the test patch has a `with pytest.raises(...)` block to pin the message of';
  for (const t of tests) {
    for (let i = t.block.def + 1; i < t.block.end; i++) {
      const src = (p.lines[i] as PatchLine).text.slice(1);
      const m = RAISES_RE.exec(src);
      if (!m) continue;
      const indent = (m[1] as string).length;
      let end = i + 1;
      while (end < t.block.end) {
        const s = (p.lines[end] as PatchLine).text.slice(1);
        if (s.trim() !== '' && indentOf(s) <= indent) break;
        end++;
      }
      if (end === i + 1) continue;
      const g = goldMessagePrefix(goldPatch, m[2] as string);
      if (!g.ok) {
        why = g.reason;
        continue;
      }
      const body = p.lines.slice(i + 1, end).map((l) => l.text.slice(1));
      const added = [`${m[1]}with pytest.raises(${m[2]}, match=r"${regexEscape(g.prefix)}"):`, ...body];
      const at = end;
      const line = ((p.lines[end - 1] as PatchLine).newLine as number) + 1;
      p.splice(at, 0, added);
      return { ok: true, patch: p.text(), defect: { kind: 'false_negative', test: t.name, specs: t.specs, file: t.block.file, line, assertion: added.join('\n').trim() } };
    }
  }
  return { ok: false, reason: why };
}

// ---- recall on the planted copies ----------------------------------------------------------------------------

/** DIR/planted.json: the ground truth of a planted dataset. */
export interface PlantedTruth {
  format: 1;
  /** The dataset the tasks were copied from (absolute path). */
  source: string;
  createdAt: string;
  /** Per planted copy: the copy's task id, the unchanged copy it is compared with, and the defect. */
  planted: Array<PlantedDefect & { copy: string; baseline: string; task: string }>;
  skipped: Array<{ task: string; kind: PlantKind; reason: string }>;
}

export type Detection = 'caught' | 'missed' | 'not_run';

export interface PlantedDetection {
  copy: string;
  kind: PlantKind;
  test: string;
  specs: string[];
  probes: Detection;
  agent: Detection;
  /** Ids of the mutants that survive on the copy and the baseline's planted test killed (FP). */
  survivors: string[];
  /** Ids of the alternative solutions the planted test rejects on the copy and not on the baseline (FN). */
  rejections: string[];
  /** Agent findings of the planted kind on the planted specs: on the copy and on the baseline. */
  agentFindings: { copy: number; baseline: number };
}

export interface RecallFigure {
  caught: number;
  missed: number;
  notRun: number;
  /** caught / (caught + missed); undefined when nothing was measured. */
  recall?: number;
}

export interface PlantedScore {
  detections: PlantedDetection[];
  probes: Record<PlantKind, RecallFigure>;
  agent: Record<PlantKind, RecallFigure>;
}

export interface PlantedEvidence {
  /** Mutation reports by task id (copies and baselines). */
  mutants: ReadonlyMap<string, MutationReport>;
  /** The review agent's `review.findings` events by task id. */
  findings: ReadonlyMap<string, readonly FindingsRecord[]>;
  /** Alternative-solution reports by task id (copies and baselines); absent: FN probes are not run. */
  alternatives?: ReadonlyMap<string, AlternativesReport>;
}

/** Ids of the alternatives of a report that `test` (a task test name) rejected. */
function rejectedBy(r: AlternativesReport, test: string): string[] {
  return r.alternatives.filter((a) => a.outcome === 'rejected' && a.failingTests.some((f) => typeof f === 'object' && f !== null && f.name === test)).map((a) => a.id);
}

function candidatesOn(records: readonly FindingsRecord[] | undefined, specs: readonly string[], kind: FindingCandidate): number {
  if (!records || records.length === 0) return 0;
  let n = 0;
  for (const r of currentFindings(records).current) for (const f of r.payload.findings) if (f.candidate === kind && specs.includes(f.spec)) n++;
  return n;
}

/**
 * What caught each planted defect. Probes, for a planted FP: a gold mutant that survives on the copy and that the
 * planted test killed on the baseline (without a baseline report: any survivor on a planted spec). For a planted FN:
 * an alternative solution the planted test rejects on the copy, unless the same alternative (same id: the same
 * normalised patch) was rejected by that test on the baseline too (the strictness was there before the plant);
 * `not_run` without an alternatives report for the copy. The agent: more current findings of
 * the planted kind (a `false_positive` / `false_negative` candidate) on the planted specs of the copy than of the
 * baseline; `not_run` when the agent has no findings on the copy at all.
 */
export function scorePlanted(truth: PlantedTruth, ev: PlantedEvidence): PlantedScore {
  const fig = (): RecallFigure => ({ caught: 0, missed: 0, notRun: 0 });
  const probes: Record<PlantKind, RecallFigure> = { false_positive: fig(), false_negative: fig() };
  const agent: Record<PlantKind, RecallFigure> = { false_positive: fig(), false_negative: fig() };
  const detections: PlantedDetection[] = [];
  for (const d of truth.planted) {
    let probe: Detection;
    const survivors: string[] = [];
    const rejections: string[] = [];
    if (d.kind === 'false_positive') {
      const copy = ev.mutants.get(d.copy);
      const base = ev.mutants.get(d.baseline);
      if (!copy) probe = 'not_run';
      else {
        const killedByPlanted = base ? new Set(base.mutants.filter((m) => m.outcome === 'killed' && m.failingTests.includes(d.test)).map((m) => m.id)) : undefined;
        for (const m of copy.mutants) {
          if (m.outcome !== 'survived') continue;
          if (killedByPlanted ? killedByPlanted.has(m.id) : copy.specs.some((s) => d.specs.includes(s.spec) && s.survived > 0)) survivors.push(m.id);
        }
        probe = survivors.length > 0 ? 'caught' : 'missed';
      }
    } else {
      const copy = ev.alternatives?.get(d.copy);
      const base = ev.alternatives?.get(d.baseline);
      if (!copy) probe = 'not_run';
      else {
        const before = new Set(base ? rejectedBy(base, d.test) : []);
        for (const id of rejectedBy(copy, d.test)) if (!before.has(id)) rejections.push(id);
        probe = rejections.length > 0 ? 'caught' : 'missed';
      }
    }
    const copyRecords = ev.findings.get(d.copy);
    const agentFindings = { copy: candidatesOn(copyRecords, d.specs, d.kind), baseline: candidatesOn(ev.findings.get(d.baseline), d.specs, d.kind) };
    const a: Detection = !copyRecords || copyRecords.length === 0 ? 'not_run' : agentFindings.copy > agentFindings.baseline ? 'caught' : 'missed';
    for (const [figs, det] of [
      [probes, probe],
      [agent, a],
    ] as const) {
      const f = figs[d.kind];
      if (det === 'caught') f.caught++;
      else if (det === 'missed') f.missed++;
      else if (det === 'not_run') f.notRun++;
    }
    detections.push({ copy: d.copy, kind: d.kind, test: d.test, specs: d.specs, probes: probe, agent: a, survivors, rejections, agentFindings });
  }
  const withRecall = (f: RecallFigure): RecallFigure => (f.caught + f.missed > 0 ? { ...f, recall: f.caught / (f.caught + f.missed) } : f);
  for (const k of PLANT_KINDS) {
    probes[k] = withRecall(probes[k]);
    agent[k] = withRecall(agent[k]);
  }
  return { detections, probes, agent };
}
