// The curation part of the task view model, and the models of the statistics and adjudication panels: plain data
// made from the core's review of a task, its statistics and its disagreements, with long texts cut for display.
import type { CandidateTask } from '../model';
import type { ConsensusPolicy } from '../review/consensus';
import type { CuratorSource } from '../review/curator';
import { filePath, parsePatch } from '../patch';
import type { AgreementFigure } from '../review/agreement';
import { CURATOR_VERDICTS, DIFFICULTIES, ENV_DEFECTS, SEVERITY_FIELDS } from '../review/events';
import type { ScorePayload } from '../review/events';
import type { LabelRecord } from '../review/reducer';
import type { CurrentFinding } from '../findings/current';
import { citationLink } from '../findings/current';
import type { CurationStats } from '../review/stats';
import type { TaskDisagreement, TaskReview } from '../review/taskReview';
import { FN_FLAG_KINDS, FP_FLAG_KINDS } from '../review/verdicts';
import type {
  DisagreementView,
  LabelView,
  ReviewCellView,
  ReviewQueueView,
  FindingView,
  ReviewView,
  ScoresView,
  StatsViewModel,
  SuggestionView,
} from '../../protocol/messages';
import { MAX_FINDING_RATIONALE_VIEW, MAX_HISTORY_VIEW, MAX_NOTE_VIEW, PROTOCOL_VERSION } from '../../protocol/messages';
import { jsonBytes } from './text';

export interface ReviewViewExtras {
  /** Why no curator name is available (then `review.viewer` is unset and recording is off). */
  curatorProblem?: string;
  curatorSource?: CuratorSource;
  queue?: ReviewQueueView;
  /** The task's current findings (core/findings/current.ts). */
  findings?: readonly CurrentFinding[];
}

/**
 * A current finding as the grid shows it. While blind mode hides other curators, who else accepted it is hidden too
 * (an acceptance is a label).
 */
export function findingView(f: CurrentFinding, viewer: string | undefined, othersHidden: boolean): FindingView {
  const links = [];
  const sentences: number[] = [];
  const quotes: string[] = [];
  for (const c of f.finding.citations) {
    const l = citationLink(c, f.attempt);
    if (l) links.push(l);
    else if (c.kind === 'request_sentence') sentences.push(c.sentence);
    if ('quote' in c && c.quote !== undefined && quotes.length < 5) quotes.push(c.quote.length > 300 ? `${c.quote.slice(0, 300)}…` : c.quote);
  }
  const rationale = f.finding.rationale;
  const mine = viewer !== undefined && f.acceptedBy.includes(viewer);
  return {
    attempt: f.attempt,
    spec: f.spec,
    findings: f.event,
    time: f.time,
    model: f.model,
    promptVersion: f.promptVersion,
    judgment: f.finding.judgment,
    confidence: f.finding.confidence,
    ...(f.finding.candidate ? { candidate: f.finding.candidate } : {}),
    rationale: rationale.length > MAX_FINDING_RATIONALE_VIEW ? rationale.slice(0, MAX_FINDING_RATIONALE_VIEW) : rationale,
    ...(rationale.length > MAX_FINDING_RATIONALE_VIEW ? { rationaleCut: true } : {}),
    links: links.slice(0, 50),
    sentences: sentences.slice(0, 50),
    quotes,
    ...(f.stale ? { stale: true } : {}),
    ...(f.dismissal
      ? { dismissed: { curator: f.dismissal.curator, time: f.dismissal.time, ...(f.dismissal.note !== undefined ? { note: cutNote(f.dismissal.note).note ?? '' } : {}) } }
      : {}),
    acceptedByYou: mine,
    acceptedBy: othersHidden ? (mine && viewer !== undefined ? [viewer] : []) : [...f.acceptedBy],
  };
}

function cutNote(note: string | undefined): { note?: string; noteCut?: boolean } {
  if (note === undefined) return {};
  return note.length > MAX_NOTE_VIEW ? { note: note.slice(0, MAX_NOTE_VIEW), noteCut: true } : { note };
}

export function labelView(l: LabelRecord): LabelView {
  return {
    curator: l.curator,
    verdict: l.verdict,
    ...cutNote(l.note),
    evidence: l.evidence,
    event: l.event,
    time: l.time,
    ...(l.stale ? { stale: true } : {}),
  };
}

function scoresView(s: Partial<ScorePayload>): ScoresView {
  return {
    ...(s.underspecified !== undefined ? { underspecified: s.underspecified } : {}),
    ...(s.fnSeverity !== undefined ? { fnSeverity: s.fnSeverity } : {}),
    ...(s.fpSeverity !== undefined ? { fpSeverity: s.fpSeverity } : {}),
    ...(s.envDefects !== undefined ? { envDefects: [...s.envDefects] } : {}),
    ...(s.otherIssues !== undefined ? { otherIssues: cutNote(s.otherIssues).note ?? '' } : {}),
    ...(s.difficulty !== undefined ? { difficulty: s.difficulty } : {}),
    ...(s.note !== undefined ? { note: cutNote(s.note).note ?? '' } : {}),
  };
}

function suspectOf(kind: string): SuggestionView['suspect'] {
  if (FP_FLAG_KINDS.includes(kind)) return 'false_positive';
  if (FN_FLAG_KINDS.includes(kind)) return 'false_negative';
  return undefined;
}

/** The `review` part of a task's view model, from the core's review of the task. */
export function buildReviewView(r: TaskReview, policy: ConsensusPolicy, extras: ReviewViewExtras = {}): ReviewView {
  const cells: ReviewCellView[] = r.cells.map((c) => ({
    attempt: c.attempt,
    spec: c.spec,
    verifier: c.verifier,
    verifierStale: c.verifierStale,
    ...(c.mine ? { mine: labelView(c.mine) } : {}),
    others: c.others.map(labelView),
    stale: c.staleLabels.map(labelView),
    ...(c.final !== undefined ? { final: c.final } : {}),
    from: c.from,
    disagreement: c.disagreement,
    outcome: c.outcome,
  }));
  // The protocol still says `suggestions` for oracle-probe flags (the webview's word, renamed with it).
  const { openFlags, ...countsRest } = r.counts;
  const suggestions: SuggestionView[] = r.flags.map((s) => {
    const suspect = suspectOf(s.kind);
    return {
      id: s.id,
      kind: s.kind,
      message: s.message,
      ...(s.test !== undefined ? { test: s.test } : {}),
      ...(s.spec !== undefined ? { spec: s.spec } : {}),
      ...(s.attempt !== undefined ? { attempt: s.attempt } : {}),
      ...(suspect ? { suspect } : {}),
      open: s.open,
      ...(s.decision
        ? {
            decision: {
              decision: s.decision.decision,
              curator: s.decision.curator,
              time: s.decision.time,
              event: s.decision.event,
              ...(s.decision.note !== undefined ? { note: cutNote(s.decision.note).note ?? '' } : {}),
            },
          }
        : {}),
    };
  });
  const mine = r.scores.mine;
  const history = r.history.slice(-MAX_HISTORY_VIEW).map((h) => ({
    event: h.event.id,
    time: h.event.time,
    curator: h.event.curator,
    kind: h.event.kind,
    summary: h.summary,
    undone: h.undone,
  }));
  return {
    ...(r.viewer !== undefined ? { viewer: r.viewer } : {}),
    ...(extras.curatorProblem !== undefined ? { curatorProblem: extras.curatorProblem } : {}),
    ...(extras.curatorSource !== undefined ? { curatorSource: extras.curatorSource } : {}),
    policy,
    blind: r.blind,
    othersHidden: r.othersHidden,
    viewerSubmitted: r.viewerSubmitted,
    submittedBy: r.submittedBy,
    status: r.status,
    nextStatuses: [...r.nextStatuses],
    attempts: r.attempts.map((a) => ({
      id: a.id,
      model: a.model,
      agent: a.agent,
      ...(a.verifier ? { verifier: { ...a.verifier } } : {}),
      judged: a.judged,
      falsePositives: a.falsePositives,
      falseNegatives: a.falseNegatives,
    })),
    specs: r.specs.map((s) => s.id),
    cells,
    scores: {
      ...(mine ? { mine: { ...scoresView(mine.score), event: mine.event, time: mine.time } } : {}),
      others: r.scores.scores.filter((s) => s.curator !== r.viewer).map((s) => ({ ...scoresView(s.score), curator: s.curator, event: s.event })),
      final: scoresView(r.scores.final),
      from: { ...r.scores.from },
      open: [...r.scores.open],
    },
    suggestions,
    rules: r.rules.map((x) => ({
      id: x.id,
      title: x.title,
      ok: x.ok,
      ...(x.message !== undefined ? { message: x.message } : {}),
      items: x.items.slice(0, 50),
      ...(x.waiver ? { waiver: { rule: x.waiver.rule, reason: x.waiver.reason } } : {}),
    })),
    blockers: r.blockers.map((b) => b.id),
    ...(r.approval
      ? {
          approval: {
            curator: r.approval.curator,
            time: r.approval.time,
            waivers: r.approval.waivers.map((w) => ({ rule: w.rule, reason: w.reason })),
            ...(r.approval.note !== undefined ? { note: r.approval.note } : {}),
          },
        }
      : {}),
    ...(r.rejection ? { rejection: { curator: r.rejection.curator, time: r.rejection.time, reason: r.rejection.reason } } : {}),
    counts: { ...countsRest, openSuggestions: openFlags },
    ...(r.lastUndoable ? { lastUndoable: { event: r.lastUndoable.event, kind: r.lastUndoable.kind, summary: r.lastUndoable.summary } } : {}),
    history,
    historyTotal: r.history.length,
    ...(extras.queue ? { queue: extras.queue } : {}),
    ...(extras.findings && extras.findings.length > 0 ? { findings: extras.findings.map((f) => findingView(f, r.viewer, r.othersHidden)) } : {}),
  };
}

/** Most bytes of JSON the review part of a task view model may take (a message carries at most about 1 MB). */
export const REVIEW_VIEW_BUDGET = 600_000;

/**
 * The review part cut to fit `budget` bytes of JSON: first other curators' notes to 200 characters and their links to
 * 10, then their notes and links dropped, then the history to its last 10 events. The viewer's own labels are never
 * cut (they are what the curator edits). Says what was left out in `trimmed`.
 */
export function fitReviewView(v: ReviewView, budget = REVIEW_VIEW_BUDGET): ReviewView {
  // JSON.stringify is native and cheap next to building the view (under a millisecond for 1,200 labels).
  if (jsonBytes(v) <= budget) return v;
  const others = (f: (l: LabelView) => LabelView): ReviewView => ({ ...v, cells: v.cells.map((c) => ({ ...c, others: c.others.map(f), stale: c.stale.map(f) })) });
  const cut = others((l) => ({ ...l, ...(l.note !== undefined && l.note.length > 200 ? { note: l.note.slice(0, 200), noteCut: true } : {}), evidence: l.evidence.slice(0, 10) }));
  const where = 'see them with specweave log DATASET TASK';
  if (jsonBytes(cut) <= budget) return { ...cut, trimmed: `Other curators' notes are cut to 200 characters and their links to 10 to keep this view small: ${where}.` };
  const bare = { ...others((l) => ({ curator: l.curator, verdict: l.verdict, evidence: [], event: l.event, time: l.time, ...(l.stale ? { stale: true } : {}) })) };
  const trimmed = `Other curators' notes and links are left out to keep this view small: ${where}.`;
  if (jsonBytes(bare) <= budget) return { ...bare, trimmed };
  const short = { ...bare, history: bare.history.slice(-10) };
  const shortText = `${trimmed} Only the last 10 events of the history are shown.`;
  if (!short.findings || jsonBytes(short) <= budget) return { ...short, trimmed: shortText };
  // The review agent's rationales last (they are what a finding says): cut to 300 characters, links to 10.
  const findings = short.findings.map((f) => ({
    ...f,
    ...(f.rationale.length > 300 ? { rationale: f.rationale.slice(0, 300), rationaleCut: true } : {}),
    links: f.links.slice(0, 10),
    quotes: f.quotes.slice(0, 1),
  }));
  return { ...short, findings, trimmed: `${shortText} The review agent's rationales are cut to 300 characters: ${where}.` };
}

/**
 * The task review mode goes to after `current`: the first queue item after it in dataset order, wrapping around;
 * undefined when nothing else is left. `order` is the dataset's task ids in order.
 */
export function nextQueueTask(queue: readonly string[], order: readonly string[], current: string | undefined): string | undefined {
  const others = queue.filter((t) => t !== current);
  if (others.length === 0) return undefined;
  if (current === undefined) return others[0];
  const pos = new Map(order.map((id, i) => [id, i]));
  const at = pos.get(current) ?? -1;
  return others.find((t) => (pos.get(t) ?? -1) > at) ?? others[0];
}

// ---- the statistics panel ---------------------------------------------------------------------------------------

function agreementRow(a: AgreementFigure): StatsViewModel['agreement'][number] {
  return {
    kind: a.kind,
    metric: a.metric,
    curators: a.curators,
    ...(a.alpha !== undefined && Number.isFinite(a.alpha) ? { alpha: a.alpha } : {}),
    items: a.items,
    values: a.values,
    ...(a.kappa !== undefined && Number.isFinite(a.kappa) ? { kappa: a.kappa } : {}),
    ...(a.kappaItems !== undefined ? { kappaItems: a.kappaItems } : {}),
  };
}

/** The statistics panel's model. Throughput keeps the latest 60 days per curator (the chart shows a window). */
export function buildStatsView(s: CurationStats, o: { dataset: string; computedAt: string; computeMs: number }): StatsViewModel {
  const days = [...new Set(s.throughput.map((t) => t.day))].sort().slice(-60);
  const keep = new Set(days);
  return {
    protocol: PROTOCOL_VERSION,
    dataset: o.dataset,
    policy: s.policy,
    funnel: { ...s.funnel },
    byStatus: { ...s.byStatus },
    breakdown: {
      reviewed: s.breakdown.reviewed,
      falsePositivesOnly: s.breakdown.falsePositivesOnly,
      falseNegativesOnly: s.breakdown.falseNegativesOnly,
      both: s.breakdown.both,
      none: s.breakdown.none,
    },
    byCategory: s.byCategory.map((c) => ({ ...c })),
    bySolver: s.bySolver.map((m) => ({ ...m })),
    agreement: s.agreement.map(agreementRow),
    throughput: s.throughput.filter((t) => keep.has(t.day)),
    curators: s.curators.map((c) => ({ ...c })),
    disagreements: { ...s.disagreements },
    suggestions: { ...s.suggestions },
    log: { ...s.log },
    computedAt: o.computedAt,
    computeMs: Math.round(o.computeMs),
  };
}

// ---- the adjudication panel -------------------------------------------------------------------------------------

const SEVERITY_CHOICES = [0, 1, 2, 3];

/** What an adjudication of `field` may choose from. */
export function adjudicationChoices(target: 'label' | 'score', field?: string, values: ReadonlyArray<string | number | string[]> = []): Array<string | number | string[]> {
  if (target === 'label') return [...CURATOR_VERDICTS];
  if (field === 'difficulty') return [...DIFFICULTIES];
  if (field === 'envDefects') {
    // The sets the curators gave, their union and none: the usual answers; anything else via the CLI.
    const seen = new Map<string, string[]>();
    const add = (v: string[]) => seen.set([...v].sort().join('+'), [...v].sort());
    add([]);
    const union = new Set<string>();
    for (const v of values) {
      if (!Array.isArray(v)) continue;
      add(v.filter((x) => (ENV_DEFECTS as readonly string[]).includes(x)));
      for (const x of v) union.add(x);
    }
    add([...union]);
    return [...seen.values()];
  }
  if ((SEVERITY_FIELDS as readonly string[]).includes(field ?? '')) return SEVERITY_CHOICES;
  return [];
}

export function disagreementKey(d: { taskId: string; target: string; attempt?: string; spec?: string; field?: string }): string {
  return d.target === 'label' ? `${d.taskId}\u0000label\u0000${d.attempt ?? ''}\u0000${d.spec ?? ''}` : `${d.taskId}\u0000score\u0000${d.field ?? ''}`;
}

/** Disagreements side by side, open ones first, in task order within each group. */
export function buildDisagreementViews(list: readonly TaskDisagreement[], tasks: ReadonlyMap<string, CandidateTask>): DisagreementView[] {
  const rows = list.map((d): DisagreementView => {
    const task = tasks.get(d.taskId);
    const spec = d.spec !== undefined ? task?.specs.find((s) => s.id === d.spec) : undefined;
    return {
      key: disagreementKey(d),
      taskId: d.taskId,
      taskTitle: task?.title ?? d.taskId,
      target: d.target,
      ...(d.attempt !== undefined ? { attempt: d.attempt } : {}),
      ...(d.spec !== undefined ? { spec: d.spec } : {}),
      ...(spec ? { specText: spec.text.length > 2000 ? `${spec.text.slice(0, 2000)}…` : spec.text } : {}),
      ...(d.field !== undefined ? { field: d.field } : {}),
      ...(d.verifier !== undefined ? { verifier: d.verifier } : {}),
      values: d.values.map((v) => ({ curator: v.curator, value: v.value, event: v.event })),
      open: d.open,
      ...(d.final !== undefined ? { final: d.final } : {}),
      from: d.from,
      choices: adjudicationChoices(d.target, d.field, d.values.map((v) => v.value)),
    };
  });
  // Stable: open first, the core's order (task order) within each.
  return [...rows.filter((r) => r.open), ...rows.filter((r) => !r.open)];
}

/** 1-based lines of hunk `hunk` (0-based) of `file` in a patch text: its `@@` header to its last line; undefined when absent. */
export function hunkLines(patchText: string, file: string, hunk: number): { from: number; to: number } | undefined {
  const parsed = parsePatch(patchText);
  const fp = parsed.files.find((f) => filePath(f) === file || f.oldPath === file);
  const h = fp?.hunks[hunk];
  if (!h) return undefined;
  return { from: h.patchLine, to: h.patchLine + h.lines.length };
}
