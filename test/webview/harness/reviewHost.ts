// The review side of the fake host: a small in-page stand-in for the curation store that answers the task view's
// review requests (label, score, transition, approve, reject, undo, suggestions, review mode) the way the real host
// does: validated, one reply each, an `update` with the new model before the reply. It can be told to fail the next
// recording request (disk full) so tests see that nothing typed is lost. Browser code, bundled into the fake host.
import type {
  CuratorVerdictView,
  EvidenceLinkView,
  LabelView,
  OutcomeView,
  ReviewActResult,
  ReviewCellView,
  ReviewView,
  RuleView,
  TaskStatusView,
  TaskViewModel,
  WebviewToHost,
} from '../../../src/protocol/messages';
import { HOSTILE_HTML } from './fixtures';

type Request = Extract<WebviewToHost, { type: 'request' }>;

export const VIEWER = 'alice';

interface Label {
  verdict: CuratorVerdictView;
  note?: string;
  evidence: EvidenceLinkView[];
  event: string;
  time: string;
}

interface Event {
  id: string;
  kind: string;
  summary: string;
  undo?: () => void;
  undone: boolean;
  curator: string;
  time: string;
}

export interface ReviewSim {
  /** The next recording request fails with this code (disk_full, io, locked) and records nothing. */
  failNext: string | undefined;
  /** Every request the review side received, in order. */
  log: Array<{ method: string; params: unknown }>;
  labels: Map<string, Label>;
  status: TaskStatusView;
  submitted: boolean;
  waiverLog: Array<Array<{ rule: string; reason: string }>>;
  queueCalls: Array<{ action: string; submit?: boolean }>;
}

function isTransition(from: TaskStatusView, to: string): to is TaskStatusView {
  return TRANSITIONS[from].some((s) => s === to);
}

const key = (a: string, s: string) => `${a}\u0000${s}`;

function outcomeOf(final: CuratorVerdictView | undefined, verifier: string): OutcomeView {
  if (!final || final === 'unsure' || verifier === 'unknown') return 'undecided';
  if (verifier === 'pass') return final === 'satisfied' ? 'true_pass' : 'false_positive';
  return final === 'violated' ? 'true_fail' : 'false_negative';
}

const TRANSITIONS: Record<TaskStatusView, TaskStatusView[]> = {
  candidate: ['in_review', 'flagged', 'needs_repair'],
  in_review: ['flagged', 'needs_repair'],
  flagged: ['in_review', 'needs_repair'],
  needs_repair: ['in_review', 'repaired'],
  repaired: ['revalidated', 'needs_repair', 'in_review'],
  revalidated: ['in_review', 'flagged', 'needs_repair'],
  approved: ['in_review'],
  rejected: ['in_review'],
};

/**
 * A review simulation over a task model: attempts a1 and a2 against every spec; the verifier's verdicts from the
 * model's results (unknown elsewhere); bob has labelled two pairs (hidden in blind mode until alice submits).
 */
export class FakeReview {
  readonly sim: ReviewSim = { failNext: undefined, log: [], labels: new Map(), status: 'in_review', submitted: false, waiverLog: [], queueCalls: [] };
  private seq = 0;
  private readonly events: Event[] = [];
  private readonly decisions = new Map<string, { decision: 'confirmed' | 'dismissed'; event: string }>();
  private approval: { waivers: Array<{ rule: string; reason: string }> } | undefined;
  private rejection: string | undefined;
  readonly attempts: string[];

  constructor(
    private readonly base: TaskViewModel,
    private readonly o: { blind: boolean; hostile: boolean; queue: boolean; allAttempts?: boolean },
  ) {
    this.attempts = base.columns
      .filter((c) => c.id !== 'gold')
      .slice(0, o.allAttempts ? undefined : 2)
      .map((c) => c.id);
  }

  private get specs(): string[] {
    return this.base.specs.map((s) => s.id);
  }

  private verifier(a: string, s: string): 'pass' | 'fail' | 'unknown' {
    const v = this.base.results?.specs[s]?.[a];
    return v === 'pass' || v === 'fail' ? v : 'unknown';
  }

  private others(): Map<string, LabelView> {
    const h = this.o.hostile ? HOSTILE_HTML : '';
    const bob = this.o.hostile ? `bob${HOSTILE_HTML.slice(0, 40)}` : 'bob';
    const [a1 = 'a1', a2 = 'a2'] = this.attempts;
    const [s1 = 'S1', s2 = 'S2'] = this.specs;
    return new Map([
      [key(a1, s1), { curator: bob, verdict: 'violated', note: this.o.hostile ? `${h}\u202eevil` : 'the nested comma is dropped', evidence: [{ kind: 'test', test: 'T1' }], event: 'E-bob-1', time: '2026-01-01T00:00:00.000Z' }],
      [key(a2, s2), { curator: bob, verdict: 'satisfied', evidence: [], event: 'E-bob-2', time: '2026-01-01T00:00:01.000Z' }],
    ]);
  }

  model(): ReviewView {
    const hidden = this.o.blind && !this.sim.submitted;
    const others = hidden ? new Map<string, LabelView>() : this.others();
    const cells: ReviewCellView[] = [];
    for (const a of this.attempts) {
      for (const s of this.specs) {
        const mine = this.sim.labels.get(key(a, s));
        const other = others.get(key(a, s));
        const verifier = this.verifier(a, s);
        const disagreement = mine !== undefined && other !== undefined && mine.verdict !== other.verdict;
        const final = disagreement ? undefined : (mine?.verdict ?? other?.verdict);
        cells.push({
          attempt: a,
          spec: s,
          verifier,
          verifierStale: a === this.attempts[0],
          ...(mine ? { mine: { curator: VIEWER, verdict: mine.verdict, ...(mine.note ? { note: mine.note } : {}), evidence: mine.evidence, event: mine.event, time: mine.time } } : {}),
          others: other ? [other] : [],
          stale: [],
          ...(final ? { final } : {}),
          from: disagreement ? 'disagreement' : mine && other ? 'agreement' : mine || other ? 'single' : 'none',
          disagreement,
          outcome: outcomeOf(final, verifier),
        });
      }
    }
    const fps = cells.filter((c) => c.outcome === 'false_positive');
    const fns = cells.filter((c) => c.outcome === 'false_negative');
    const unjudged = cells.filter((c) => c.final === undefined || c.final === 'unsure');
    const waived = new Map((this.approval?.waivers ?? []).map((w) => [w.rule, w]));
    const rule = (id: string, title: string, items: string[], what: string): RuleView => ({
      id,
      title,
      ok: items.length === 0,
      ...(items.length > 0 ? { message: `${items.length} ${what}: ${items.slice(0, 5).join(', ')}` } : {}),
      items,
      ...(waived.has(id) ? { waiver: waived.get(id)! } : {}),
    });
    const rules: RuleView[] = [
      rule('gold-passes', 'the gold patch passes', [], ''),
      rule('no-open-false-positive', 'no open false positive', fps.map((c) => `${c.attempt} × ${c.spec}`), 'open false positive(s)'),
      rule('no-open-false-negative', 'no open false negative', fns.map((c) => `${c.attempt} × ${c.spec}`), 'open false negative(s)'),
      rule('every-spec-tested', 'every spec is covered by at least one test', this.base.specs.filter((s) => s.uncovered).map((s) => s.id), 'spec(s) without a test'),
      rule('every-attempt-judged', 'every attempt is judged against every spec', unjudged.map((c) => `${c.attempt} × ${c.spec}`), '(attempt, spec) pair(s) not judged'),
    ];
    const decided = this.sim.status === 'approved' || this.sim.status === 'rejected';
    const blockers = decided ? [] : rules.filter((r) => !r.ok && !r.waiver).map((r) => r.id);
    const flagMsg = this.o.hostile ? `gold fails ${HOSTILE_HTML}` : 'the gold patch fails T3';
    const mineEvents = this.events.filter((e) => e.curator === VIEWER && !e.undone && e.undo);
    const last = mineEvents.at(-1);
    const hostileCurator = this.o.hostile ? `eve${HOSTILE_HTML.slice(0, 30)}` : 'carol';
    return {
      viewer: VIEWER,
      curatorSource: 'setting',
      policy: 'adjudicate',
      blind: this.o.blind,
      othersHidden: hidden,
      viewerSubmitted: this.sim.submitted,
      submittedBy: this.sim.submitted ? [VIEWER] : [],
      status: this.sim.status,
      nextStatuses: TRANSITIONS[this.sim.status] ?? [],
      attempts: this.attempts.map((id) => ({
        id,
        model: id === this.attempts[0] ? 'model-large' : 'model-small',
        agent: 'swe-agent',
        verifier: { source: 'run', runId: `run-${id}`, status: 'done', resolved: id === this.attempts[0], stale: id === this.attempts[0] },
        judged: cells.filter((c) => c.attempt === id && c.final && c.final !== 'unsure').length,
        falsePositives: fps.filter((c) => c.attempt === id).length,
        falseNegatives: fns.filter((c) => c.attempt === id).length,
      })),
      specs: this.specs,
      cells,
      scores: { others: [], final: {}, from: {}, open: [] },
      suggestions: [
        {
          id: 'gold_fails_test:gold:T3',
          kind: 'gold_fails_test',
          message: flagMsg,
          test: 'T3',
          suspect: 'false_negative',
          open: !this.decisions.has('gold_fails_test:gold:T3'),
          ...(this.decisions.has('gold_fails_test:gold:T3') ? { decision: { ...this.decisions.get('gold_fails_test:gold:T3')!, curator: VIEWER, time: '2026-01-02T00:00:00.000Z' } } : {}),
        },
      ],
      rules,
      blockers,
      ...(this.sim.status === 'approved' && this.approval ? { approval: { curator: VIEWER, time: '2026-01-02T00:00:00.000Z', waivers: this.approval.waivers } } : {}),
      ...(this.sim.status === 'rejected' && this.rejection ? { rejection: { curator: VIEWER, time: '2026-01-02T00:00:00.000Z', reason: this.rejection } } : {}),
      counts: {
        cells: cells.length,
        judged: cells.filter((c) => c.final && c.final !== 'unsure').length,
        mine: cells.filter((c) => c.mine).length,
        falsePositives: fps.length,
        falseNegatives: fns.length,
        undecided: cells.filter((c) => c.outcome === 'undecided').length,
        openDisagreements: cells.filter((c) => c.from === 'disagreement').length,
        openSuggestions: this.decisions.has('gold_fails_test:gold:T3') ? 0 : 1,
        staleLabels: 0,
      },
      ...(last ? { lastUndoable: { event: last.id, kind: last.kind, summary: last.summary } } : {}),
      history: [
        { event: 'E-0', time: '2026-01-01T00:00:00.000Z', curator: hostileCurator, kind: 'status', summary: this.o.hostile ? `status note ${HOSTILE_HTML}` : 'status candidate -> in_review', undone: false },
        ...this.events.map((e) => ({ event: e.id, time: e.time, curator: e.curator, kind: e.kind, summary: e.summary, undone: e.undone })),
      ],
      historyTotal: this.events.length + 1,
      ...(this.o.queue ? { queue: { remaining: 3, done: 1, index: 0 } } : {}),
    };
  }

  private record(kind: string, summary: string, undo: () => void): ReviewActResult {
    this.seq++;
    const id = `E${String(this.seq).padStart(3, '0')}`;
    this.events.push({ id, kind, summary, undo, undone: false, curator: VIEWER, time: new Date(Date.UTC(2026, 0, 2, 0, 0, this.seq)).toISOString() });
    return { ok: true, event: id, summary };
  }

  /** Answers a review request, or undefined when the method is not a review one. */
  answer(msg: Request, pushUpdate: () => void): unknown {
    const recording = ['label', 'score', 'submit', 'transition', 'approve', 'reject', 'undo', 'decideSuggestion'];
    if (![...recording, 'openEvidence', 'reviewQueue'].includes(msg.method)) return undefined;
    this.sim.log.push({ method: msg.method, params: msg.params });
    if (recording.includes(msg.method) && this.sim.failNext) {
      const code = this.sim.failNext;
      this.sim.failNext = undefined;
      return { ok: false, code, message: 'curation/events.jsonl: no space left on device: the event was NOT recorded (ENOSPC)' } satisfies ReviewActResult;
    }
    const r = this.act(msg);
    if (r && typeof r === 'object' && 'ok' in r && (r as ReviewActResult).ok) pushUpdate();
    return r;
  }

  private act(msg: Request): unknown {
    switch (msg.method) {
      case 'label': {
        const p = msg.params;
        if (!this.attempts.includes(p.attempt)) return { ok: false, code: 'unknown_attempt', message: `task has no attempt "${p.attempt}"` };
        if (this.sim.status === 'approved' || this.sim.status === 'rejected') return { ok: false, code: 'decided', message: `task is ${this.sim.status}; reopen it first` };
        const k = key(p.attempt, p.spec);
        const before = this.sim.labels.get(k);
        const label: Label = { verdict: p.verdict, ...(p.note ? { note: p.note } : {}), evidence: p.evidence ?? [], event: `L${this.seq + 1}`, time: '2026-01-02T00:00:00.000Z' };
        this.sim.labels.set(k, label);
        return this.record('label', `${p.attempt} × ${p.spec}: ${p.verdict}`, () => (before ? this.sim.labels.set(k, before) : this.sim.labels.delete(k)));
      }
      case 'score':
        return this.record('score', 'scores saved', () => undefined);
      case 'submit': {
        this.sim.submitted = true;
        return this.record('submit', 'review submitted', () => (this.sim.submitted = false));
      }
      case 'transition': {
        const from = this.sim.status;
        const to = msg.params.to;
        // `to` is any string the page sends; only a listed status gets through.
        if (!isTransition(from, to)) return { ok: false, code: 'transition', message: `a task cannot go from ${from} to ${to}` };
        this.sim.status = to;
        return this.record('status', `status ${from} → ${to}`, () => (this.sim.status = from));
      }
      case 'approve': {
        const blockers = this.model().blockers;
        const waived = new Set(msg.params.waivers.map((w) => w.rule));
        const left = blockers.filter((b) => !waived.has(b));
        if (left.length > 0) return { ok: false, code: 'rule', message: `cannot approve: rule ${left.join(', ')} fails. Fix it, or waive it`, rules: left };
        this.sim.waiverLog.push(msg.params.waivers);
        const from = this.sim.status;
        this.approval = { waivers: msg.params.waivers };
        this.sim.status = 'approved';
        return this.record('approve', msg.params.waivers.length > 0 ? `approved, waiving ${msg.params.waivers.map((w) => w.rule).join(', ')}` : 'approved', () => {
          this.sim.status = from;
          this.approval = undefined;
        });
      }
      case 'reject': {
        if (msg.params.reason.trim() === '') return { ok: false, code: 'bad_input', message: 'a rejection needs a reason' };
        const from = this.sim.status;
        this.sim.status = 'rejected';
        this.rejection = msg.params.reason;
        return this.record('reject', 'rejected', () => (this.sim.status = from));
      }
      case 'undo': {
        const last = [...this.events].reverse().find((e) => !e.undone && e.undo && e.curator === VIEWER && e.kind !== 'undo');
        if (!last) return { ok: false, code: 'unknown_event', message: 'Nothing of yours to undo on this task.' };
        last.undo?.();
        last.undone = true;
        return this.record('undo', `undid ${last.id}`, () => undefined);
      }
      case 'decideSuggestion': {
        const id = msg.params.suggestion;
        const r = this.record('suggestion', `suggestion ${msg.params.decision}`, () => this.decisions.delete(id));
        if (r.ok) this.decisions.set(id, { decision: msg.params.decision, event: r.event });
        return r;
      }
      case 'openEvidence':
        return { opened: true, message: `Opened ${msg.params.link.kind}.` };
      case 'reviewQueue':
        this.sim.queueCalls.push({ action: msg.params.action, ...(msg.params.submit ? { submit: true } : {}) });
        if (msg.params.action === 'stop') return { remaining: 3 };
        if (msg.params.submit) this.sim.submitted = true;
        return { taskId: 'next-task', remaining: 2, message: msg.params.submit ? 'Submitted demo.' : undefined };
      default:
        return undefined;
    }
  }
}
