// What a curator asks for (label this, approve that) checked against the dataset and the review state, and turned
// into an event draft, or refused with a reason that names what is wrong. The CLI and the extension both go through
// here, so a refusal reads the same everywhere.
import type { CandidateTask, CuratorVerdict, TaskStatus } from '../model';
import { TASK_STATUSES } from '../model';
import type { ConsensusPolicy } from './consensus';
import { curatorNameProblem } from './curator';
import type { EvidenceLink } from './evidence';
import { evidenceProblem } from './evidence';
import type { AdjudicatePayload, EventDraft, ScorePayload, Waiver } from './events';
import { CURATOR_VERDICTS, isUndoable, PAYLOAD_CHECKS } from './events';
import { checkTransition, DECISION_STATUSES } from './lifecycle';
import type { ReviewState } from './reducer';
import { findingKey, reduceTask, taskState, undoneEvents } from './reducer';
import type { TaskReviewState } from './reducer';
import { acceptedLabel } from '../findings/current';
import { approvalAllowed, waiverProblems } from './rules';
import { assessTask } from './taskReview';
import type { TaskVerifierResults } from './verdicts';

export type ReviewIntent =
  | { kind: 'label'; attempt: string; spec: string; verdict: CuratorVerdict; note?: string; evidence?: EvidenceLink[] }
  | ({ kind: 'score' } & ScorePayload)
  | { kind: 'submit'; note?: string }
  | { kind: 'status'; to: TaskStatus; note?: string }
  | { kind: 'approve'; waivers?: Waiver[]; note?: string }
  | { kind: 'reject'; reason: string }
  | { kind: 'suggestion'; suggestion: string; decision: 'confirmed' | 'dismissed'; note?: string }
  | ({ kind: 'adjudicate' } & AdjudicatePayload)
  | { kind: 'undo'; event: string; note?: string }
  /** Records the curator's own label from the review agent's finding on `spec` in event `findings`. */
  | { kind: 'acceptFinding'; findings: string; spec: string; note?: string }
  | { kind: 'dismissFinding'; findings: string; spec: string; note?: string }
  | { kind: 'revision'; from: number; changedSpecs: string[]; note?: string; suggestion?: string };

export type RefusalCode =
  | 'unknown_task'
  | 'unknown_attempt'
  | 'unknown_spec'
  | 'unknown_event'
  | 'unknown_suggestion'
  | 'unknown_finding'
  | 'bad_curator'
  | 'bad_input'
  | 'transition'
  | 'rule'
  | 'decided';

export interface Refusal {
  code: RefusalCode;
  message: string;
  /** For `rule`: the ids of the rules that block approval. */
  rules?: string[];
}

export type PrepareResult = { ok: true; draft: EventDraft } | { ok: false; refusal: Refusal };

export interface IntentContext {
  /** The task the intent is about; undefined when the dataset has no such task. */
  task: CandidateTask | undefined;
  /** The id asked for, for the message when `task` is undefined. */
  taskId: string;
  state: ReviewState;
  verifier?: TaskVerifierResults;
  curator: string;
  policy?: ConsensusPolicy;
  /**
   * SHA-256 (hex) of each attempt's current patch bytes: a finding on another patch is not current and cannot be
   * accepted. Without it the patch is not checked.
   */
  patchHashes?: ReadonlyMap<string, string>;
}

/** The finding on `spec` of the task's `review.findings` event `event`, or why there is none to act on. */
function findingOf(st: TaskReviewState, event: string, spec: string, patchHashes: ReadonlyMap<string, string> | undefined) {
  const rec = st.findings.find((r) => r.event === event);
  if (!rec) return { problem: `task ${st.task} has no review.findings event "${event}"` };
  const finding = rec.payload.findings.find((f) => f.spec === spec);
  if (!finding) return { problem: `review.findings event ${event} has no finding on spec "${spec}"` };
  const hash = patchHashes?.get(rec.payload.attempt);
  if (patchHashes && hash !== rec.payload.patchHash) return { problem: `the finding of ${event} on spec "${spec}" judged another patch of ${rec.payload.attempt} than the current one` };
  return { rec, finding };
}

const refuse = (code: RefusalCode, message: string, rules?: string[]): PrepareResult => ({
  ok: false,
  refusal: { code, message, ...(rules ? { rules } : {}) },
});

function known(kind: string, ids: string[]): string {
  return ids.length === 0 ? `the task has no ${kind}s` : `its ${kind}s: ${ids.slice(0, 20).join(', ')}${ids.length > 20 ? ', …' : ''}`;
}

/** Checks an intent and returns the event draft to append, or the refusal. */
export function prepareEvent(intent: ReviewIntent, ctx: IntentContext): PrepareResult {
  const cp = curatorNameProblem(ctx.curator);
  if (cp) return refuse('bad_curator', cp);
  const task = ctx.task;
  if (!task) return refuse('unknown_task', `the dataset has no task "${ctx.taskId}"`);
  const st = taskState(ctx.state, task.id);
  const decided = st.status === 'approved' || st.status === 'rejected';
  const draft = <K extends EventDraft['kind']>(kind: K, payload: Extract<EventDraft, { kind: K }>['payload']): PrepareResult => {
    const err = PAYLOAD_CHECKS[kind](payload, 'payload');
    if (err) return refuse('bad_input', `${err.field.replace(/^payload\./, '')}: ${err.message}`);
    return { ok: true, draft: { kind, task: task.id, revision: task.revision, curator: ctx.curator, payload } as EventDraft };
  };
  const checkAttemptSpec = (attempt: string, spec: string): PrepareResult | undefined => {
    if (!task.attempts.some((a) => a.id === attempt)) {
      return refuse('unknown_attempt', `task ${task.id} has no attempt "${attempt}" (${known('attempt', task.attempts.map((a) => a.id))})`);
    }
    if (!task.specs.some((s) => s.id === spec)) return refuse('unknown_spec', `task ${task.id} has no spec "${spec}" (${known('spec', task.specs.map((s) => s.id))})`);
    return undefined;
  };
  const notDecided = (): PrepareResult | undefined =>
    decided ? refuse('decided', `task ${task.id} is ${st.status}; reopen it first (specweave status DATASET ${task.id} in_review)`) : undefined;

  switch (intent.kind) {
    case 'label': {
      const bad = notDecided() ?? checkAttemptSpec(intent.attempt, intent.spec);
      if (bad) return bad;
      if (!CURATOR_VERDICTS.includes(intent.verdict)) return refuse('bad_input', `verdict must be one of ${CURATOR_VERDICTS.join(', ')}`);
      const evidence = intent.evidence ?? [];
      for (const l of evidence) {
        const p = evidenceProblem(l, task);
        if (p) return refuse(/attempt/.test(p) ? 'unknown_attempt' : /spec "/.test(p) ? 'unknown_spec' : 'bad_input', p);
        if (l.kind === 'finding') {
          // A label cites a finding of its own pair only (accepting is the way to make one).
          const f = findingOf(st, l.findings, l.spec, undefined);
          if (f.problem !== undefined) return refuse('unknown_finding', f.problem);
          if (f.rec.payload.attempt !== intent.attempt || l.spec !== intent.spec) {
            return refuse('bad_input', `evidence finding:${l.findings}#${l.spec} is about ${f.rec.payload.attempt} × ${l.spec}, not ${intent.attempt} × ${intent.spec}`);
          }
        }
      }
      return draft('label', {
        attempt: intent.attempt,
        spec: intent.spec,
        verdict: intent.verdict,
        ...(intent.note !== undefined && intent.note !== '' ? { note: intent.note } : {}),
        evidence,
      });
    }
    case 'score': {
      const bad = notDecided();
      if (bad) return bad;
      const { kind: _k, ...payload } = intent;
      for (const l of payload.evidence ?? []) {
        const p = evidenceProblem(l, task);
        if (p) return refuse('bad_input', p);
      }
      return draft('score', { ...payload, envDefects: [...new Set(payload.envDefects)].sort() });
    }
    case 'submit': {
      const bad = notDecided();
      if (bad) return bad;
      return draft('submit', intent.note ? { note: intent.note } : {});
    }
    case 'status': {
      if (!TASK_STATUSES.includes(intent.to)) return refuse('bad_input', `unknown status "${intent.to}" (statuses: ${TASK_STATUSES.join(', ')})`);
      if (DECISION_STATUSES.includes(intent.to)) {
        return refuse('transition', `use \`${intent.to === 'approved' ? 'approve' : 'reject'}\` to make a task ${intent.to}: ${intent.to === 'approved' ? 'approval checks the rules' : 'a rejection needs a reason'}`);
      }
      const t = checkTransition(st.status, intent.to);
      if (!t.ok) return refuse('transition', `task ${task.id}: ${t.message}`);
      return draft('status', { from: st.status, to: intent.to, ...(intent.note ? { note: intent.note } : {}) });
    }
    case 'approve': {
      const t = checkTransition(st.status, 'approved');
      if (!t.ok) return refuse('transition', `task ${task.id}: ${t.message}`);
      const waivers = intent.waivers ?? [];
      const wp = waiverProblems(waivers);
      if (wp.length > 0) return refuse('bad_input', wp.join('; '));
      const policy = ctx.policy ?? 'adjudicate';
      const a = assessTask({ task, state: st, ...(ctx.verifier ? { verifier: ctx.verifier } : {}), policy, waivers });
      const allowed = approvalAllowed(a.rules);
      if (!allowed.ok) {
        const how = allowed.blockers.length > 0 ? '. Fix it, or waive it: --waive RULE --reason TEXT' : '';
        return refuse('rule', `cannot approve task ${task.id}: ${allowed.message}${how}`, allowed.blockers.map((r) => r.id));
      }
      const runs = Object.entries(a.verifier.attempts)
        .map(([attempt, v]) => ({ attempt, run: v.runId }))
        .sort((x, y) => (x.attempt < y.attempt ? -1 : x.attempt > y.attempt ? 1 : 0));
      return draft('approve', { waivers, runs, policy, ...(intent.note ? { note: intent.note } : {}) });
    }
    case 'reject': {
      if (intent.reason.trim().length === 0) return refuse('bad_input', 'a rejection needs a reason');
      const t = checkTransition(st.status, 'rejected');
      if (!t.ok) return refuse('transition', `task ${task.id}: ${t.message}`);
      return draft('reject', { reason: intent.reason });
    }
    case 'suggestion': {
      const bad = notDecided();
      if (bad) return bad;
      const flags = ctx.verifier?.flags ?? [];
      const f = flags.find((x) => x.id === intent.suggestion);
      if (!f) return refuse('unknown_suggestion', `task ${task.id} has no current suggestion "${intent.suggestion}" (${known('suggestion', flags.map((x) => x.id))})`);
      const flag = { kind: f.kind, message: f.message, ...(f.test ? { test: f.test } : {}), ...(f.spec ? { spec: f.spec } : {}), ...(f.attempt ? { attempt: f.attempt } : {}) };
      return draft('suggestion', { suggestion: f.id, decision: intent.decision, flag, ...(intent.note ? { note: intent.note } : {}) });
    }
    case 'adjudicate': {
      const bad = notDecided();
      if (bad) return bad;
      const { kind: _k, ...payload } = intent;
      if (payload.target === 'label') {
        const b = checkAttemptSpec(payload.attempt, payload.spec);
        if (b) return b;
      }
      return draft('adjudicate', payload);
    }
    case 'undo': {
      const target = ctx.state.byId.get(intent.event);
      if (!target || target.task !== task.id) return refuse('unknown_event', `task ${task.id} has no event "${intent.event}"`);
      if (!isUndoable(target.kind) || 'unknownKind' in target) return refuse('bad_input', `a ${target.kind} event cannot be undone`);
      const undone = undoneEvents(st.events);
      if (undone.has(target.id)) return refuse('bad_input', `event ${target.id} is already undone`);
      // An undo in the middle of a task's history must leave a history that still replays.
      const probe = { id: 'ZZZZZZZZZZZZZZZZZZZZZZZZZZ', time: '9999-12-31T23:59:59.999Z', curator: ctx.curator, task: task.id, revision: task.revision, kind: 'undo' as const, payload: { event: target.id } };
      const after = reduceTask(task.id, [...st.events, probe]);
      const fresh = after.issues.filter((i) => !st.issues.some((j) => j.event === i.event && j.message === i.message));
      if (fresh.length > 0) return refuse('transition', `undoing ${target.id} would break the task's history: ${fresh.map((i) => i.message).join('; ')}`);
      return draft('undo', { event: target.id, ...(intent.note ? { note: intent.note } : {}) });
    }
    case 'acceptFinding': {
      const bad = notDecided();
      if (bad) return bad;
      const f = findingOf(st, intent.findings, intent.spec, ctx.patchHashes);
      if (f.problem !== undefined) return refuse('unknown_finding', f.problem);
      const checked = checkAttemptSpec(f.rec.payload.attempt, intent.spec);
      if (checked) return checked;
      const l = acceptedLabel({ attempt: f.rec.payload.attempt, spec: intent.spec, event: f.rec.event, finding: f.finding });
      // A citation the task no longer has a place for (an attempt, a test renamed since) is left out, not refused.
      const evidence = l.evidence.filter((x) => evidenceProblem(x, task) === undefined);
      return draft('label', { attempt: l.attempt, spec: l.spec, verdict: l.verdict, ...(intent.note ? { note: intent.note } : {}), evidence });
    }
    case 'dismissFinding': {
      const bad = notDecided();
      if (bad) return bad;
      const f = findingOf(st, intent.findings, intent.spec, undefined);
      if (f.problem !== undefined) return refuse('unknown_finding', f.problem);
      const prior = st.findingDismissals.get(findingKey(intent.findings, intent.spec));
      if (prior) return refuse('decided', `the finding of ${intent.findings} on spec "${intent.spec}" was dismissed already (by ${prior.curator} at ${prior.time})`);
      return draft('review.dismiss', { findings: intent.findings, spec: intent.spec, ...(intent.note ? { note: intent.note } : {}) });
    }
    case 'revision': {
      const { kind: _k, ...payload } = intent;
      if (payload.from >= task.revision) return refuse('bad_input', `revision ${payload.from} is not older than the task's revision ${task.revision}`);
      return draft('revision', payload);
    }
  }
}
