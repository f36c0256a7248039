// The review state as a pure reduction of the log: events sorted by (time, id), undone events left out, folded per
// task. The order lines have in the file does not matter, so a log merged by git reduces the same on every machine.
import type { FindingsPayload } from '../findings/model';
import type { CuratorVerdict, TaskStatus } from '../model';
import type { EvidenceLink } from './evidence';
import type { AdjudicatePayload, ApprovePayload, KnownReviewEvent, ReviewEvent, ScorePayload, Waiver } from './events';
import { canonicalJson, compareEvents } from './events';
import { checkTransition, startsReview } from './lifecycle';

export interface EventRef {
  curator: string;
  /** Id of the event. */
  event: string;
  time: string;
  /** Task revision the event was made against. */
  revision: number;
}

export interface LabelRecord extends EventRef {
  attempt: string;
  spec: string;
  verdict: CuratorVerdict;
  note?: string;
  evidence: EvidenceLink[];
  /** The spec's content now differs from what it was at the label's revision: shown but no longer counts. */
  stale: boolean;
}

export interface ScoreRecord extends EventRef {
  score: ScorePayload;
}

export interface ApprovalRecord extends EventRef {
  waivers: Waiver[];
  runs: ApprovePayload['runs'];
  note?: string;
  policy?: string;
}

export interface RejectionRecord extends EventRef {
  reason: string;
}

export interface StatusChange extends EventRef {
  from: TaskStatus;
  to: TaskStatus;
  /** Put in review by the first review act rather than asked for. */
  implicit: boolean;
  /** Kind of the event that caused it. */
  cause: string;
  note?: string;
}

/** A curator's decision on an oracle-probe flag (a `suggestion` event in the log, its stored name). */
export interface FlagDecision extends EventRef {
  flagId: string;
  decision: 'confirmed' | 'dismissed';
  note?: string;
  flag?: { kind: string; message: string; test?: string; spec?: string; attempt?: string };
}

export interface AdjudicationRecord extends EventRef {
  decision: AdjudicatePayload;
}

export interface RevisionRecord extends EventRef {
  from: number;
  changedSpecs: string[];
  note?: string;
  /** Per changed spec, its content hash before and after (absent in events written before the field existed). */
  specHashes?: Record<string, { before?: string; after?: string }>;
}

/** A curator's spec authoring act (a `specs.edit` event). */
export interface SpecEditRecord extends EventRef {
  op: string;
  from: number;
  to: number;
  changedSpecs: string[];
  created: string[];
  deleted: string[];
  summary?: string;
  /** With op `undo`: the spec edit it undid. */
  undoes?: string;
  note?: string;
}

/** One `review.findings` event: the agent's checked findings for one attempt (suggestions, never labels). */
export interface FindingsRecord extends EventRef {
  payload: FindingsPayload;
}

/** A curator's dismissal of one finding: keyed by `findingKey(findingsEvent, spec)`. */
export interface FindingDismissal extends EventRef {
  findings: string;
  spec: string;
  note?: string;
}

export function findingKey(findingsEvent: string, spec: string): string {
  return `${findingsEvent}\u0000${spec}`;
}

/** A repair suggestion's history in the log: asked for, then accepted or rejected. */
export interface RepairRecord {
  suggestion: string;
  requested?: EventRef & { target: string; model: string; outcome: 'suggested' | 'refused' | 'failed'; message?: string };
  decision?: EventRef & ({ decision: 'accepted'; from: number; to: number; edited: boolean } | { decision: 'rejected'; reason: string });
}

/** Something in the log that could not be applied on replay; the event stays in the log and in the history. */
export interface ReplayIssue {
  event: string;
  task: string;
  message: string;
}

export interface TaskReviewState {
  task: string;
  status: TaskStatus;
  transitions: StatusChange[];
  /** Latest effective label per curator, keyed by `cellKey(attempt, spec)`. */
  labels: Map<string, Map<string, LabelRecord>>;
  /** Latest effective score per curator. */
  scores: Map<string, ScoreRecord>;
  /** Curators who submitted their review (blind mode ends for them). */
  submitted: Map<string, EventRef>;
  /** Latest adjudication per target, keyed by `cellKey` for labels and `score:FIELD` for scores. */
  adjudications: Map<string, AdjudicationRecord>;
  /** Latest decision per flag id. */
  flagDecisions: Map<string, FlagDecision>;
  /** Set while the task is approved / rejected. */
  approval?: ApprovalRecord;
  rejection?: RejectionRecord;
  revisions: RevisionRecord[];
  /** Spec authoring acts in log order. */
  specEdits: SpecEditRecord[];
  /** Specs deleted by a spec edit and not brought back since: the revision they were deleted in. */
  deletedSpecs: Map<string, number>;
  /** Repair suggestions by id. */
  repairs: Map<string, RepairRecord>;
  /** The review agent's `review.findings` events in log order (undone ones cannot be: they are not undoable). */
  findings: FindingsRecord[];
  /** Dismissed findings, by `findingKey`. */
  findingDismissals: Map<string, FindingDismissal>;
  /** Every event of the task in log order, undone ones included. */
  events: ReviewEvent[];
  /** Events withdrawn by an effective undo. */
  undone: Set<string>;
  issues: ReplayIssue[];
  /** Events of kinds this version does not know. */
  unknownKinds: number;
}

export interface ReviewState {
  tasks: Map<string, TaskReviewState>;
  /** All events in log order (time, id). */
  events: ReviewEvent[];
  byId: Map<string, ReviewEvent>;
  /** Problems across tasks, e.g. two different events with one id. */
  issues: ReplayIssue[];
  /** Time of the last event, so a writer can keep new events after everything it has seen. */
  lastTime?: string;
}

export function cellKey(attempt: string, spec: string): string {
  return `${attempt}\u0000${spec}`;
}

export function scoreKey(field: string): string {
  return `score:${field}`;
}

/** The state of a task nobody has touched. */
export function emptyTaskState(task: string): TaskReviewState {
  return {
    task,
    status: 'candidate',
    transitions: [],
    labels: new Map(),
    scores: new Map(),
    submitted: new Map(),
    adjudications: new Map(),
    flagDecisions: new Map(),
    revisions: [],
    specEdits: [],
    deletedSpecs: new Map(),
    repairs: new Map(),
    findings: [],
    findingDismissals: new Map(),
    events: [],
    undone: new Set(),
    issues: [],
    unknownKinds: 0,
  };
}

export function emptyState(): ReviewState {
  return { tasks: new Map(), events: [], byId: new Map(), issues: [] };
}

/** Reduces a whole log (in any order) to the review state. */
export function reduceLog(events: readonly ReviewEvent[]): ReviewState {
  return addEvents(emptyState(), events, { inPlace: true });
}

/**
 * The state after more events; only the tasks they touch are reduced again. Leaves `state` as it was, unless
 * `inPlace` (for an owner that holds the only reference: copying a 100,000-event index per append costs).
 */
export function addEvents(state: ReviewState, events: readonly ReviewEvent[], opts: { inPlace?: boolean } = {}): ReviewState {
  if (events.length === 0) return state;
  const inPlace = opts.inPlace === true;
  const byId = inPlace ? state.byId : new Map(state.byId);
  const issues = inPlace ? state.issues : [...state.issues];
  const fresh: ReviewEvent[] = [];
  for (const e of events) {
    const prev = byId.get(e.id);
    if (prev) {
      // git's union merge can bring the same line twice; a different event reusing an id is damage.
      if (canonicalJson(prev) !== canonicalJson(e)) {
        issues.push({ event: e.id, task: e.task, message: `two different events share the id ${e.id}; the later one in log order is ignored` });
      }
      continue;
    }
    byId.set(e.id, e);
    fresh.push(e);
  }
  if (fresh.length === 0) return inPlace ? state : { ...state, byId, issues };
  fresh.sort(compareEvents);
  const last = state.events[state.events.length - 1];
  let all: ReviewEvent[];
  if (inPlace) {
    all = state.events;
    for (const e of fresh) all.push(e);
    if (last && compareEvents(last, fresh[0] as ReviewEvent) > 0) all.sort(compareEvents);
  } else if (!last || compareEvents(last, fresh[0] as ReviewEvent) < 0) all = state.events.concat(fresh);
  else all = state.events.concat(fresh).sort(compareEvents);

  const touched = new Map<string, ReviewEvent[]>();
  for (const e of fresh) {
    let list = touched.get(e.task);
    if (!list) touched.set(e.task, (list = []));
    list.push(e);
  }
  const tasks = inPlace ? state.tasks : new Map(state.tasks);
  for (const [task, added] of touched) {
    const before = tasks.get(task)?.events ?? [];
    const lastOfTask = before[before.length - 1];
    const merged = !lastOfTask || compareEvents(lastOfTask, added[0] as ReviewEvent) < 0 ? before.concat(added) : before.concat(added).sort(compareEvents);
    tasks.set(task, reduceTask(task, merged));
  }
  const lastEvent = all[all.length - 1];
  if (inPlace) {
    if (lastEvent) state.lastTime = lastEvent.time;
    return state;
  }
  return { tasks, events: all, byId, issues, ...(lastEvent ? { lastTime: lastEvent.time } : {}) };
}

/** Ids withdrawn by effective undos. An undo is effective unless it is itself undone; cycles undo nothing. */
export function undoneEvents(events: readonly ReviewEvent[]): Set<string> {
  const undoersOf = new Map<string, string[]>();
  for (const e of events) {
    if (e.kind !== 'undo' || 'unknownKind' in e) continue;
    const target = (e as Extract<KnownReviewEvent, { kind: 'undo' }>).payload.event;
    let list = undoersOf.get(target);
    if (!list) undoersOf.set(target, (list = []));
    list.push(e.id);
  }
  const out = new Set<string>();
  if (undoersOf.size === 0) return out;
  const memo = new Map<string, boolean>();
  const visiting = new Set<string>();
  const effective = (id: string): boolean => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return false;
    visiting.add(id);
    const r = !(undoersOf.get(id) ?? []).some((u) => effective(u));
    visiting.delete(id);
    memo.set(id, r);
    return r;
  };
  for (const e of events) if (!effective(e.id)) out.add(e.id);
  return out;
}

/** Folds one task's events (sorted by time, id) into its state. */
export function reduceTask(task: string, events: ReviewEvent[]): TaskReviewState {
  const st = emptyTaskState(task);
  st.events = events;
  st.undone = undoneEvents(events);
  let ids: Set<string> | undefined;
  const ref = (e: ReviewEvent): EventRef => ({ curator: e.curator, event: e.id, time: e.time, revision: e.revision });
  const issue = (e: ReviewEvent, message: string) => st.issues.push({ event: e.id, task, message });
  const move = (e: ReviewEvent, to: TaskStatus, note?: string): boolean => {
    const t = checkTransition(st.status, to);
    if (!t.ok) {
      issue(e, `${e.kind} by ${e.curator} ignored on replay: ${t.message}`);
      return false;
    }
    if (t.implicitReview) st.transitions.push({ ...ref(e), from: st.status, to: 'in_review', implicit: true, cause: e.kind });
    const from = t.implicitReview ? 'in_review' : st.status;
    st.transitions.push({ ...ref(e), from, to, implicit: false, cause: e.kind, ...(note !== undefined ? { note } : {}) });
    st.status = to;
    if (to !== 'approved') delete st.approval;
    if (to !== 'rejected') delete st.rejection;
    return true;
  };

  for (const e of events) {
    if ('unknownKind' in e) {
      st.unknownKinds++;
      continue;
    }
    if (e.kind === 'undo') {
      ids ??= new Set(events.map((x) => x.id));
      if (!ids.has(e.payload.event)) issue(e, `undo of ${e.payload.event}, which is not an event of task ${task}`);
      continue;
    }
    if (st.undone.has(e.id)) continue;
    if (startsReview(e.kind) && st.status === 'candidate') {
      st.transitions.push({ ...ref(e), from: 'candidate', to: 'in_review', implicit: true, cause: e.kind });
      st.status = 'in_review';
    }
    switch (e.kind) {
      case 'label': {
        const p = e.payload;
        let mine = st.labels.get(e.curator);
        if (!mine) st.labels.set(e.curator, (mine = new Map()));
        // A plain literal: this runs once per label in the log, and spreads cost on a 100,000-event replay.
        const rec: LabelRecord = { curator: e.curator, event: e.id, time: e.time, revision: e.revision, attempt: p.attempt, spec: p.spec, verdict: p.verdict, evidence: p.evidence, stale: false };
        if (p.note !== undefined) rec.note = p.note;
        mine.set(cellKey(p.attempt, p.spec), rec);
        break;
      }
      case 'score':
        st.scores.set(e.curator, { curator: e.curator, event: e.id, time: e.time, revision: e.revision, score: e.payload });
        break;
      case 'submit':
        st.submitted.set(e.curator, ref(e));
        break;
      case 'status':
        if (e.payload.to === 'approved' || e.payload.to === 'rejected') {
          issue(e, `a status event cannot set ${e.payload.to} (only approve / reject can); ignored`);
          break;
        }
        move(e, e.payload.to, e.payload.note);
        break;
      case 'approve':
        if (move(e, 'approved', e.payload.note)) {
          st.approval = {
            ...ref(e),
            waivers: e.payload.waivers,
            runs: e.payload.runs,
            ...(e.payload.note !== undefined ? { note: e.payload.note } : {}),
            ...(e.payload.policy !== undefined ? { policy: e.payload.policy } : {}),
          };
        }
        break;
      case 'reject':
        if (move(e, 'rejected', e.payload.reason)) st.rejection = { ...ref(e), reason: e.payload.reason };
        break;
      case 'suggestion':
        st.flagDecisions.set(e.payload.suggestion, {
          ...ref(e),
          flagId: e.payload.suggestion,
          decision: e.payload.decision,
          ...(e.payload.note !== undefined ? { note: e.payload.note } : {}),
          ...(e.payload.flag !== undefined ? { flag: e.payload.flag } : {}),
        });
        break;
      case 'adjudicate': {
        const p = e.payload;
        st.adjudications.set(p.target === 'label' ? cellKey(p.attempt, p.spec) : scoreKey(p.field), { ...ref(e), decision: p });
        break;
      }
      case 'repair.request': {
        const p = e.payload;
        const r = st.repairs.get(p.suggestion) ?? { suggestion: p.suggestion };
        r.requested = { ...ref(e), target: p.target, model: p.model, outcome: p.outcome, ...(p.message !== undefined ? { message: p.message } : {}) };
        st.repairs.set(p.suggestion, r);
        break;
      }
      case 'repair.accept':
      case 'repair.reject': {
        const p = e.payload;
        const r = st.repairs.get(p.suggestion) ?? { suggestion: p.suggestion };
        r.decision = e.kind === 'repair.accept' ? { ...ref(e), decision: 'accepted', from: e.payload.from, to: e.payload.to, edited: e.payload.edited } : { ...ref(e), decision: 'rejected', reason: e.payload.reason };
        st.repairs.set(p.suggestion, r);
        break;
      }
      case 'specs.edit': {
        const p = e.payload;
        const rec: SpecEditRecord = { ...ref(e), op: p.op, from: p.from, to: p.to, changedSpecs: p.changedSpecs, created: p.created ?? [], deleted: p.deleted ?? [] };
        if (p.summary !== undefined) rec.summary = p.summary;
        if (p.undoes !== undefined) rec.undoes = p.undoes;
        if (p.note !== undefined) rec.note = p.note;
        st.specEdits.push(rec);
        for (const d of rec.deleted) st.deletedSpecs.set(d, p.to);
        for (const c of rec.created) st.deletedSpecs.delete(c);
        break;
      }
      case 'review.findings':
        st.findings.push({ ...ref(e), payload: e.payload });
        break;
      case 'review.dismiss': {
        const p = e.payload;
        st.findingDismissals.set(findingKey(p.findings, p.spec), { ...ref(e), findings: p.findings, spec: p.spec, ...(p.note !== undefined ? { note: p.note } : {}) });
        break;
      }
      case 'revision':
        st.revisions.push({
          ...ref(e),
          from: e.payload.from,
          changedSpecs: e.payload.changedSpecs,
          ...(e.payload.note !== undefined ? { note: e.payload.note } : {}),
          ...(e.payload.specHashes !== undefined ? { specHashes: e.payload.specHashes } : {}),
        });
        break;
    }
  }
  if (st.revisions.length > 0) {
    const bySpec = revisionsBySpec(st.revisions);
    for (const byCurator of st.labels.values()) {
      for (const l of byCurator.values()) l.stale = isStale(l, bySpec.get(l.spec));
    }
  }
  return st;
}

/** One revision's change of one spec: its content hashes, or `undefined` when the event carries none for it. */
interface SpecChange {
  revision: number;
  hashes: { before?: string; after?: string } | undefined;
}

/** The revisions naming each spec in `changedSpecs`, by revision number (log order among equal numbers). */
function revisionsBySpec(revisions: readonly RevisionRecord[]): Map<string, SpecChange[]> {
  const out = new Map<string, SpecChange[]>();
  for (const r of revisions) {
    for (const spec of r.changedSpecs) {
      let list = out.get(spec);
      if (!list) out.set(spec, (list = []));
      const h = r.specHashes && Object.prototype.hasOwnProperty.call(r.specHashes, spec) ? r.specHashes[spec] : undefined;
      list.push({ revision: r.revision, hashes: h });
    }
  }
  for (const list of out.values()) if (list.length > 1) list.sort((a, b) => a.revision - b.revision);
  return out;
}

/**
 * Staleness follows content: a label is stale iff its spec's content at the label's revision (the `before` of the
 * first later revision that changed the spec) differs from its content now (the `after` of the last one); a deleted
 * spec has no content now, so its labels are stale (and stay readable). When a later revision naming the spec has
 * no hash for it (a log written before `specHashes`), the content in between is unknown: stale, the old rule.
 */
function isStale(l: { revision: number }, changes: readonly SpecChange[] | undefined): boolean {
  if (!changes) return false;
  let first: SpecChange['hashes'];
  let last: SpecChange['hashes'];
  let any = false;
  for (const c of changes) {
    if (c.revision <= l.revision) continue;
    if (!c.hashes) return true;
    if (!any) first = c.hashes;
    last = c.hashes;
    any = true;
  }
  if (!any || !first || !last) return false;
  return first.before === undefined || first.before !== last.after;
}

/**
 * Whether something made at `revision` about `spec` is stale by the labels' rule (its spec's content changed since):
 * for records kept beside labels, such as the review agent's findings.
 */
export function staleSince(st: TaskReviewState, spec: string, revision: number): boolean {
  if (st.revisions.length === 0) return false;
  return isStale({ revision }, revisionsBySpec(st.revisions.filter((r) => r.changedSpecs.includes(spec))).get(spec));
}

/** The state of one task, or the untouched state when the log has nothing on it. */
export function taskState(state: ReviewState, task: string): TaskReviewState {
  return state.tasks.get(task) ?? emptyTaskState(task);
}
