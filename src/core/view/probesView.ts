// The task view's "Probes" part, from the texts of a task's stored probe reports (probes/TASK/*.json, docs/probes.md):
// the mutation score and each surviving mutant, each passing exploit of the cheat probe, each rejected alternative,
// each surviving variant, the full suite's breaks. A report that is not there says so with the CLI line that writes
// it; a report that is not JSON, or lacks a field the view needs, is an error naming the file and the field, never a
// throw. Every text of a report is hostile (a patch, a model's summary, a test name): it is carried as data only.
import type { CandidateTask } from '../model';
import { parseJson } from '../json';
import type {
  ProbeAlternativeView,
  ProbeCountsView,
  ProbeExploitView,
  ProbeMutantView,
  ProbeReportView,
  ProbesView,
  ProbeSupportItemView,
  ProbeSupportView,
  ProbeTestView,
  ProbeVariantView,
} from '../../protocol/messages';
import { MAX_PROBE_SUPPORT_ITEMS } from '../../protocol/messages';

export const PROBE_REPORT_FILES = {
  mutants: 'mutants.json',
  cheats: 'cheats.json',
  alternatives: 'alternatives.json',
  variants: 'variants.json',
  fullSuite: 'full-suite.json',
} as const;
export type ProbeReportName = keyof typeof PROBE_REPORT_FILES;

/** What the reader found for one report: its text, nothing (missing), or why it could not be read. */
export interface ProbeReportText {
  /** Path relative to the dataset root (probes/TASK/mutants.json). */
  file: string;
  text?: string;
  readError?: string;
}

/** At most this many items of one list reach the view (a report is hostile and may be huge). */
export const MAX_PROBE_ITEMS = 200;
const MAX_TEXT = 2000;

/** The CLI line that writes a report; DATASET is left for the user. */
export function probeCommand(taskId: string, name: ProbeReportName): string {
  const flag = { mutants: '--mutants 20', cheats: '--cheat', alternatives: '--alternatives 3', variants: '--variants 3', fullSuite: '--full-suite' }[name];
  return `specweave probe DATASET ${shellWord(taskId)} ${flag}`;
}

function shellWord(s: string): string {
  return /^[A-Za-z0-9._@%+=:,/-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

class FieldError extends Error {}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A reader of one report's fields that names the field it could not use (`mutants[2].line`). */
class Fields {
  constructor(
    private readonly o: Obj,
    private readonly at: string,
  ) {}
  private name(k: string): string {
    return this.at ? `${this.at}.${k}` : k;
  }
  private fail(k: string, want: string): never {
    throw new FieldError(`field ${this.name(k)} ${this.o[k] === undefined ? 'is missing' : 'is not'} ${this.o[k] === undefined ? `(expected ${want})` : want}`);
  }
  str(k: string): string {
    const v = this.o[k];
    if (typeof v !== 'string') this.fail(k, 'a string');
    return v.length > MAX_TEXT ? `${v.slice(0, MAX_TEXT)}…` : v;
  }
  optStr(k: string): string | undefined {
    return this.o[k] === undefined ? undefined : this.str(k);
  }
  num(k: string): number {
    const v = this.o[k];
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(k, 'a number');
    return v;
  }
  bool(k: string): boolean {
    const v = this.o[k];
    if (typeof v !== 'boolean') this.fail(k, 'true or false');
    return v;
  }
  obj(k: string): Fields {
    const v = this.o[k];
    if (!isObj(v)) this.fail(k, 'an object');
    return new Fields(v, this.name(k));
  }
  list(k: string): Fields[] {
    const v = this.o[k];
    if (!Array.isArray(v)) this.fail(k, 'a list');
    return v.slice(0, MAX_PROBE_ITEMS).map((x, i) => {
      if (!isObj(x)) throw new FieldError(`field ${this.name(k)}[${i}] is not an object`);
      return new Fields(x, `${this.name(k)}[${i}]`);
    });
  }
  strs(k: string): string[] {
    const v = this.o[k];
    if (!Array.isArray(v)) this.fail(k, 'a list of strings');
    return v.slice(0, MAX_PROBE_ITEMS).map((x, i) => {
      if (typeof x !== 'string') throw new FieldError(`field ${this.name(k)}[${i}] is not a string`);
      return x.length > MAX_TEXT ? `${x.slice(0, MAX_TEXT)}…` : x;
    });
  }
  isNull(k: string): boolean {
    return this.o[k] === null;
  }
  counts(k: string): ProbeCountsView {
    const c = this.obj(k);
    const raw = this.o[k] as Obj;
    return Object.keys(raw)
      .slice(0, 20)
      .map((outcome) => ({ outcome: outcome.slice(0, 40), count: c.num(outcome) }));
  }
}

type Task = Pick<CandidateTask, 'id' | 'tests'> & Partial<Pick<CandidateTask, 'specs'>>;

/** The Probes part of a task's view model, from what the reader found for each report. */
export function buildProbesView(task: Task, reports: Readonly<Record<ProbeReportName, ProbeReportText>>): ProbesView {
  const view = readReports(task, reports);
  const specs = task.specs ? task.specs.map((s) => s.id) : [...new Set(task.tests.flatMap((t) => t.specs))];
  const support = probeSupport(view, specs);
  return support.length > 0 ? { ...view, support } : view;
}

/**
 * The probe evidence behind a review-agent finding, per spec. A false-positive candidate (the tests pass a patch
 * that violates the spec) is backed by a plausible-wrong variant meant to violate that spec that survived (spec),
 * by gold mutants no listed test killed, and by exploits the verifier let through (task). A false-negative candidate
 * (the tests reject a valid patch) is backed by an alternative solution rejected by a test mapped to that spec (spec),
 * and by one rejected by a test beyond the specs (task). Only specs with evidence are listed.
 */
export function probeSupport(view: Omit<ProbesView, 'support'>, specs: readonly string[]): ProbeSupportView[] {
  const ok = <T extends { state: string }>(r: T): Extract<T, { state: 'ok' }> | undefined => (r.state === 'ok' ? (r as Extract<T, { state: 'ok' }>) : undefined);
  const mutants = ok(view.mutants);
  const cheats = ok(view.cheats);
  const alternatives = ok(view.alternatives);
  const variants = ok(view.variants);
  const taskFp: ProbeSupportItemView[] = [
    ...(mutants?.survivors ?? []).map((m): ProbeSupportItemView => ({ report: 'mutants', id: m.id, text: `gold mutant survived: ${m.operator} at ${m.file}:${m.line}`, tests: [], scope: 'task', hasPatch: m.hasPatch })),
    ...(cheats?.passing ?? []).map((e): ProbeSupportItemView => ({ report: 'cheats', id: e.id, text: `exploit passed the verifier: ${e.title}`, tests: [], scope: 'task', hasPatch: e.hasPatch })),
  ];
  const taskFn = (alternatives?.rejected ?? [])
    .filter((a) => a.beyondSpecs.length > 0)
    .map((a): ProbeSupportItemView => ({ report: 'alternatives', id: a.id, text: `alternative rejected by a test beyond the specs: ${a.summary}`, tests: a.beyondSpecs, scope: 'task', hasPatch: a.hasPatch }));
  const out: ProbeSupportView[] = [];
  for (const spec of specs) {
    const fp = [
      ...(variants?.survivors ?? [])
        .filter((v) => v.spec === spec)
        .map((v): ProbeSupportItemView => ({ report: 'variants', id: v.id, text: `variant meant to violate ${spec} survived: ${v.summary}`, tests: [], scope: 'spec', hasPatch: v.hasPatch })),
      ...taskFp,
    ].slice(0, MAX_PROBE_SUPPORT_ITEMS);
    const fn = [
      ...(alternatives?.rejected ?? [])
        .filter((a) => a.specs.includes(spec))
        .map((a): ProbeSupportItemView => ({
          report: 'alternatives',
          id: a.id,
          text: `alternative rejected by a test of ${spec}: ${a.summary}`,
          tests: a.failingTests.filter((t) => t.specs.includes(spec)).map((t) => t.name),
          scope: 'spec',
          hasPatch: a.hasPatch,
        })),
      ...taskFn.filter((x) => !(alternatives?.rejected ?? []).some((a) => a.id === x.id && a.specs.includes(spec))),
    ].slice(0, MAX_PROBE_SUPPORT_ITEMS);
    if (fp.length > 0 || fn.length > 0) out.push({ spec, falsePositive: fp, falseNegative: fn });
  }
  return out;
}

function readReports(task: Task, reports: Readonly<Record<ProbeReportName, ProbeReportText>>): Omit<ProbesView, 'support'> {
  const specsOf = new Map(task.tests.map((t) => [t.name, t.specs]));
  const testView = (name: string, status?: string): ProbeTestView => ({ name, specs: specsOf.get(name) ?? [], ...(status !== undefined ? { status } : {}) });
  return {
    listedTests: task.tests.slice(0, MAX_PROBE_ITEMS).map((t) => testView(t.name)),
    mutants: one(task, 'mutants', reports.mutants, (r) => ({
      counts: r.counts('counts'),
      score: r.isNull('score') ? null : r.num('score'),
      specs: r.list('specs').map((s) => ({ spec: s.str('spec'), killed: s.num('killed'), survived: s.num('survived'), untested: s.bool('untested') })),
      survivors: r
        .list('mutants')
        .filter((m) => m.str('outcome') === 'survived')
        .map(
          (m): ProbeMutantView => ({ id: m.str('id'), operator: m.str('operator'), file: m.str('file'), line: m.num('line'), before: m.str('before'), after: m.str('after'), hasPatch: m.optStr('patch') !== undefined }),
        ),
    })),
    cheats: one(task, 'cheats', reports.cheats, (r) => {
      const exploits = r.list('exploits');
      return {
        counts: r.counts('counts'),
        stopped: exploits.filter((e) => e.str('outcome') === 'stopped').length,
        passing: exploits
          .filter((e) => e.str('outcome') === 'passed')
          .map(
            (e): ProbeExploitView => ({
              id: e.str('id'),
              title: e.str('title'),
              flags: e.list('flags').map((f) => f.str('kind')),
              status: e.str('status'),
              reason: e.str('reason'),
              hasPatch: e.optStr('patch') !== undefined,
            }),
          ),
      };
    }),
    alternatives: one(task, 'alternatives', reports.alternatives, (r) => ({
      counts: r.counts('counts'),
      rejected: r
        .list('alternatives')
        .filter((a) => a.str('outcome') === 'rejected')
        .map(
          (a): ProbeAlternativeView => ({
            id: a.str('id'),
            summary: a.str('summary'),
            failingTests: a.list('failingTests').map((t) => ({ name: t.str('name'), specs: t.strs('specs'), status: t.str('status') })),
            specs: a.strs('specs'),
            beyondSpecs: a.strs('beyondSpecs'),
            hasPatch: a.optStr('patch') !== undefined,
          }),
        ),
    })),
    variants: one(task, 'variants', reports.variants, (r) => ({
      counts: r.counts('counts'),
      survivors: r
        .list('variants')
        .filter((v) => v.str('outcome') === 'survived')
        .map((v): ProbeVariantView => ({ id: v.str('id'), spec: v.str('spec'), summary: v.str('summary'), hasPatch: v.optStr('patch') !== undefined })),
    })),
    fullSuite: one(task, 'fullSuite', reports.fullSuite, (r) => ({
      command: r.str('command'),
      derived: r.bool('derived'),
      noise: r.strs('noise').length,
      attempts: r.list('attempts').map((a) => ({ attemptId: a.str('attemptId'), status: a.str('status'), reason: a.str('reason'), breaks: a.isNull('breaks') ? null : a.strs('breaks') })),
    })),
  };
}

function one<T>(task: Task, name: ProbeReportName, found: ProbeReportText, read: (r: Fields) => T): ProbeReportView<T> {
  const file = found.file;
  if (found.readError !== undefined) return { state: 'error', file, message: `${file}: ${found.readError}` };
  if (found.text === undefined) return { state: 'missing', file, command: probeCommand(task.id, name) };
  const parsed = parseJson(found.text, file);
  if (!parsed.ok) return { state: 'error', file, message: `${file}${parsed.problem.line ? `:${parsed.problem.line}` : ''}: ${parsed.problem.message}` };
  if (!isObj(parsed.value)) return { state: 'error', file, message: `${file}: not a probe report (expected an object)` };
  try {
    const r = new Fields(parsed.value, '');
    const taskId = r.str('taskId');
    if (taskId !== task.id) return { state: 'error', file, message: `${file}: field taskId is ${JSON.stringify(taskId.slice(0, 80))}, not this task's id` };
    const gold = r.obj('gold');
    return { state: 'ok', file, createdAt: r.str('createdAt'), goldStatus: gold.str('status'), goldReason: gold.str('reason'), ...read(r) };
  } catch (e) {
    if (e instanceof FieldError) return { state: 'error', file, message: `${file}: ${e.message}` };
    throw e;
  }
}

/** The patch of one piece of evidence in a report's text, or why there is none. */
export function probePatchOf(text: string, file: string, report: 'mutants' | 'cheats' | 'alternatives' | 'variants', id: string): { patch: string; label: string } | { error: string } {
  const parsed = parseJson(text, file);
  if (!parsed.ok) return { error: `${file}: ${parsed.problem.message}` };
  const list = isObj(parsed.value) ? parsed.value[{ mutants: 'mutants', cheats: 'exploits', alternatives: 'alternatives', variants: 'variants' }[report]] : undefined;
  if (!Array.isArray(list)) return { error: `${file} has no list of ${report}` };
  const item = list.find((x): x is Obj => isObj(x) && x.id === id);
  if (!item) return { error: `${file} has no entry ${id}` };
  if (typeof item.patch !== 'string') return { error: `${file}: entry ${id} has no patch (the report keeps patches of survivors, passing exploits and LLM-written patches only)` };
  return { patch: item.patch, label: id };
}
