import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import type { CandidateTask } from '../../../src/core/model';
import type { ReviewEvent } from '../../../src/core/review/events';
import type { ReviewIntent } from '../../../src/core/review/intents';
import { prepareEvent } from '../../../src/core/review/intents';
import { reduceLog } from '../../../src/core/review/reducer';
import type { ReviewState } from '../../../src/core/review/reducer';
import { approvalAllowed, evaluateRules } from '../../../src/core/review/rules';
import { listDisagreements, reviewQueue, reviewTask } from '../../../src/core/review/taskReview';
import type { TaskVerifierResults } from '../../../src/core/review/verdicts';
import { deriveOutcome, recordedVerifierResult } from '../../../src/core/review/verdicts';
import { ev, label } from './helpers';
import type { VerifierFlag } from '../../../src/core/review/verdicts';

const ds = loadDataset(path.resolve(__dirname, '../../fixtures/review/ds'));
const task = (id: string) => ds.tasks.find((t) => t.id === id) as CandidateTask;
const t1 = task('t1');

/** t1's verifier story: gold passes; a1 passes S1 and S2; a2 passes S1 and fails S2. */
function t1Verifier(over: Partial<TaskVerifierResults> = {}): TaskVerifierResults {
  const run = (runId: string, resolved: boolean, s2: 'pass' | 'fail') => ({ source: 'run' as const, runId, status: resolved ? ('passed' as const) : ('failed' as const), resolved, specs: { S1: 'pass' as const, S2: s2 }, tests: {}, revision: 1 });
  return { attempts: { gold: run('rg', true, 'pass'), a1: run('r1', true, 'pass'), a2: run('r2', false, 'fail') }, flags: [], ...over };
}

function act(state: ReviewState, intent: ReviewIntent, o: { curator?: string; task?: string; verifier?: TaskVerifierResults; policy?: 'adjudicate' | 'highest-severity' } = {}) {
  const id = o.task ?? 't1';
  return prepareEvent(intent, { task: ds.tasks.find((t) => t.id === id), taskId: id, state, curator: o.curator ?? 'alice', verifier: o.verifier ?? t1Verifier(), ...(o.policy ? { policy: o.policy } : {}) });
}

/** Every (attempt, spec) of t1 labelled by alice the way the verifier sees it (no defect). */
const agreeing = (curator = 'alice'): ReviewEvent[] => [
  label('a1', 'S1', 'satisfied', { curator }),
  label('a1', 'S2', 'satisfied', { curator }),
  label('a2', 'S1', 'satisfied', { curator }),
  label('a2', 'S2', 'violated', { curator }),
];

describe('outcomes', () => {
  it('sets the curator verdict against the verifier verdict', () => {
    assert.equal(deriveOutcome('satisfied', 'pass'), 'true_pass');
    assert.equal(deriveOutcome('violated', 'fail'), 'true_fail');
    assert.equal(deriveOutcome('violated', 'pass'), 'false_positive');
    assert.equal(deriveOutcome('satisfied', 'fail'), 'false_negative');
    assert.equal(deriveOutcome('unsure', 'pass'), 'undecided');
    assert.equal(deriveOutcome(undefined, 'fail'), 'undecided');
    assert.equal(deriveOutcome('violated', 'unknown'), 'undecided');
  });

  it('names the false positive and the false negative of the example task', () => {
    const s = reduceLog([label('a1', 'S1', 'satisfied'), label('a1', 'S2', 'violated'), label('a2', 'S1', 'satisfied'), label('a2', 'S2', 'satisfied')]);
    const r = reviewTask({ task: t1, state: s, verifier: t1Verifier(), viewer: 'alice' });
    const out = Object.fromEntries(r.cells.map((c) => [`${c.attempt}×${c.spec}`, c.outcome]));
    assert.deepEqual(out, { 'a1×S1': 'true_pass', 'a1×S2': 'false_positive', 'a2×S1': 'true_pass', 'a2×S2': 'false_negative' });
    assert.equal(r.counts.falsePositives, 1);
    assert.equal(r.counts.falseNegatives, 1);
    assert.deepEqual(r.attempts.map((a) => [a.id, a.falsePositives, a.falseNegatives]), [['a1', 1, 0], ['a2', 0, 1]]);
    assert.deepEqual(r.specs.map((x) => [x.id, x.tests]), [['S1', ['T1']], ['S2', ['T2']]]);
  });

  it('falls back to imported results: a resolved SWE-bench verdict passes every covered spec', () => {
    const t3 = task('t3');
    const rec = recordedVerifierResult(t3, t3.attempts[0] as CandidateTask['attempts'][number]);
    assert.equal(rec?.source, 'recorded');
    assert.deepEqual(rec?.specs, { S1: 'pass' });
    const r = reviewTask({ task: t3, state: reduceLog([label('c1', 'S1', 'violated', { task: 't3' })]) });
    assert.equal(r.cells[0]?.outcome, 'false_positive');
    assert.equal(r.attempts[0]?.verifier?.source, 'recorded');
  });

  it('uses per-test imported statuses when there are some, and says unknown for an unresolved verdict without them', () => {
    const withTests = { ...t1, attempts: [{ ...(t1.attempts[0] as CandidateTask['attempts'][number]), recordedResults: [{ imported: true as const, source: 'swebench-report', file: 'r.json', resolved: false, failToPass: { success: ['tests/test_hello.py::test_greet_type'], failure: ['tests/test_hello.py::test_greet_text'] } }] }] };
    assert.deepEqual(recordedVerifierResult(withTests, withTests.attempts[0] as CandidateTask['attempts'][number])?.specs, { S1: 'pass', S2: 'fail' });
    const bare = { ...withTests, attempts: [{ ...(withTests.attempts[0] as CandidateTask['attempts'][number]), recordedResults: [{ imported: true as const, source: 'swebench-report', file: 'r.json', resolved: false }] }] };
    assert.deepEqual(recordedVerifierResult(bare, bare.attempts[0] as CandidateTask['attempts'][number])?.specs, { S1: 'unknown', S2: 'unknown' });
  });
});

describe('approval', () => {
  it('approves when every rule holds, recording the verifier runs behind the decision', () => {
    const r = act(reduceLog(agreeing()), { kind: 'approve' });
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.draft.kind, 'approve');
    assert.deepEqual(r.ok && r.draft.kind === 'approve' ? r.draft.payload.runs : [], [
      { attempt: 'a1', run: 'r1' },
      { attempt: 'a2', run: 'r2' },
      { attempt: 'gold', run: 'rg' },
    ]);
  });

  it('refuses while a pair is unjudged, naming the rule and the pairs', () => {
    const r = act(reduceLog(agreeing().slice(0, 2)), { kind: 'approve' });
    assert.ok(!r.ok);
    assert.equal(r.refusal.code, 'rule');
    assert.deepEqual(r.refusal.rules, ['every-attempt-judged']);
    assert.match(r.refusal.message, /every-attempt-judged.*a2 × S1 \(no verdict\), a2 × S2 \(no verdict\)/);
  });

  it('refuses with an open false positive, and with an open false negative, naming each', () => {
    const fp = act(reduceLog([...agreeing(), label('a1', 'S2', 'violated')]), { kind: 'approve' });
    assert.ok(!fp.ok && fp.refusal.rules?.join() === 'no-open-false-positive' && /a1 × S2/.test(fp.refusal.message));
    const fn = act(reduceLog([...agreeing(), label('a2', 'S2', 'satisfied')]), { kind: 'approve' });
    assert.ok(!fn.ok && fn.refusal.rules?.join() === 'no-open-false-negative' && /a2 × S2/.test(fn.refusal.message));
  });

  it('refuses when the gold patch was not verified, is stale, or fails', () => {
    const s = reduceLog(agreeing());
    const none = act(s, { kind: 'approve' }, { verifier: { ...t1Verifier(), attempts: { a1: t1Verifier().attempts.a1!, a2: t1Verifier().attempts.a2! } } });
    assert.ok(!none.ok && none.refusal.rules?.join() === 'gold-passes' && /not been verified/.test(none.refusal.message));
    const v = t1Verifier();
    const stale = act(s, { kind: 'approve' }, { verifier: { ...v, attempts: { ...v.attempts, gold: { ...v.attempts.gold!, stale: true, staleReasons: ['test patch changed'] } } } });
    assert.ok(!stale.ok && /stale \(test patch changed\)/.test(stale.refusal.message));
    const failing = act(s, { kind: 'approve' }, { verifier: { ...v, attempts: { ...v.attempts, gold: { ...v.attempts.gold!, resolved: false, status: 'failed' } } } });
    assert.ok(!failing.ok && /does not pass \(run rg: failed\)/.test(failing.refusal.message));
  });

  it('refuses a task with a spec no test covers, and one without a gold patch', () => {
    const t2 = ds.tasks.find((t) => t.id === 't2');
    const s = reduceLog([label('b1', 'S1', 'satisfied', { task: 't2' }), label('b1', 'S2', 'satisfied', { task: 't2' })]);
    const v: TaskVerifierResults = { attempts: { b1: { source: 'run', runId: 'rb', status: 'passed', resolved: true, specs: { S1: 'pass', S2: 'unknown' }, tests: {}, revision: 1 } }, flags: [] };
    const r = prepareEvent({ kind: 'approve' }, { task: t2, taskId: 't2', state: s, curator: 'alice', verifier: v });
    assert.ok(!r.ok);
    assert.deepEqual(r.refusal.rules, ['gold-passes', 'every-spec-tested']);
    assert.match(r.refusal.message, /no gold patch.*spec without a test: S2/);
  });

  it('accepts a waiver with a reason for the rule that fails, and records it', () => {
    const s = reduceLog([...agreeing(), label('a1', 'S2', 'violated')]);
    const r = act(s, { kind: 'approve', waivers: [{ rule: 'no-open-false-positive', reason: 'the wrong greeting is out of scope' }] });
    assert.ok(r.ok && r.draft.kind === 'approve');
    assert.deepEqual(r.ok && r.draft.kind === 'approve' ? r.draft.payload.waivers : [], [{ rule: 'no-open-false-positive', reason: 'the wrong greeting is out of scope' }]);
    const approved = reduceLog([...s.events, { ...(r.draft as unknown as ReviewEvent), id: 'APPROVE001', time: '2027-01-01T00:00:00.000Z' }]);
    const view = reviewTask({ task: t1, state: approved, verifier: t1Verifier() });
    assert.equal(view.status, 'approved');
    assert.equal(view.rules.find((x) => x.id === 'no-open-false-positive')?.waiver?.reason, 'the wrong greeting is out of scope');
    assert.equal(view.blockers.length, 0);
  });

  it('refuses a task with no specs (a SWE-bench row as imported), with its gold passing and nothing judged', () => {
    // t1 without its specs: every other rule is vacuously true, so the approval rested on nothing at all.
    const bare: CandidateTask = { ...t1, specs: [], specTestMap: [] } as CandidateTask;
    const v = t1Verifier();
    const r = prepareEvent({ kind: 'approve' }, { task: bare, taskId: 't1', state: reduceLog([]), curator: 'alice', verifier: v });
    assert.ok(!r.ok, 'approved a task with no specs');
    assert.deepEqual(r.refusal.rules, ['has-specs', 'every-attempt-judged']);
    assert.match(r.refusal.message, /task t1 has no specs/);
    assert.match(r.refusal.message, /no spec to judge the attempts a1, a2 against/);
    // Waived with reasons, as any rule can be: then it approves, and the waivers are recorded.
    const waived = prepareEvent(
      {
        kind: 'approve',
        waivers: [
          { rule: 'has-specs', reason: 'graded by its tests alone' },
          { rule: 'every-attempt-judged', reason: 'graded by its tests alone' },
        ],
      },
      { task: bare, taskId: 't1', state: reduceLog([]), curator: 'alice', verifier: v },
    );
    assert.ok(waived.ok && waived.draft.kind === 'approve');
  });

  it('refuses a task with specs but no attempt: nothing was judged', () => {
    const none: CandidateTask = { ...t1, attempts: [] } as CandidateTask;
    const v = t1Verifier();
    const r = prepareEvent({ kind: 'approve' }, { task: none, taskId: 't1', state: reduceLog([]), curator: 'alice', verifier: { ...v, attempts: { gold: v.attempts.gold! } } });
    assert.ok(!r.ok);
    assert.deepEqual(r.refusal.rules, ['every-attempt-judged']);
    assert.match(r.refusal.message, /no attempt to judge/);
  });

  it('never approves when no rule was evaluated', () => {
    const none = approvalAllowed([]);
    assert.ok(!none.ok, 'an empty rule set approved');
    assert.match(none.message, /no approval rule was evaluated/);
    const all = evaluateRules({ task: t1, cells: [], verifier: t1Verifier(), confirmedFlags: [] });
    assert.ok(!approvalAllowed(all).ok, 'no (attempt, spec) pair was judged');
  });

  it('refuses waivers of unknown rules or without a reason', () => {
    const s = reduceLog(agreeing());
    const unknown = act(s, { kind: 'approve', waivers: [{ rule: 'be-nice', reason: 'x' }] });
    assert.ok(!unknown.ok && /unknown rule "be-nice"/.test(unknown.refusal.message));
    const noReason = act(s, { kind: 'approve', waivers: [{ rule: 'gold-passes', reason: '  ' }] });
    assert.ok(!noReason.ok && /needs a reason/.test(noReason.refusal.message));
  });
});

describe('intents', () => {
  const s = reduceLog([]);
  it('refuses a label for an attempt or a spec the task does not have, naming it and the known ones', () => {
    const a = act(s, { kind: 'label', attempt: 'a9', spec: 'S1', verdict: 'satisfied' });
    assert.ok(!a.ok && a.refusal.code === 'unknown_attempt' && /no attempt "a9" \(its attempts: a1, a2\)/.test(a.refusal.message));
    const sp = act(s, { kind: 'label', attempt: 'a1', spec: 'S7', verdict: 'satisfied' });
    assert.ok(!sp.ok && sp.refusal.code === 'unknown_spec' && /no spec "S7" \(its specs: S1, S2\)/.test(sp.refusal.message));
    const ev1 = act(s, { kind: 'label', attempt: 'a1', spec: 'S1', verdict: 'satisfied', evidence: [{ kind: 'test', test: 'T9' }] });
    assert.ok(!ev1.ok && /test "T9"/.test(ev1.refusal.message));
    const task9 = act(s, { kind: 'label', attempt: 'a1', spec: 'S1', verdict: 'satisfied' }, { task: 't9' });
    assert.ok(!task9.ok && task9.refusal.code === 'unknown_task');
  });

  it('refuses a curator name with control characters', () => {
    const r = act(s, { kind: 'submit' }, { curator: 'eve\u0000' });
    assert.ok(!r.ok && r.refusal.code === 'bad_curator' && /U\+0000/.test(r.refusal.message));
  });

  it('checks transitions: approved only by approve, and only allowed moves', () => {
    const viaStatus = act(s, { kind: 'status', to: 'approved' });
    assert.ok(!viaStatus.ok && /use `approve`/.test(viaStatus.refusal.message));
    const bad = act(s, { kind: 'status', to: 'revalidated' });
    assert.ok(!bad.ok && bad.refusal.code === 'transition' && /cannot go from candidate to revalidated/.test(bad.refusal.message));
    const ok = act(s, { kind: 'status', to: 'needs_repair' });
    assert.ok(ok.ok && ok.draft.kind === 'status' && ok.draft.payload.from === 'candidate');
  });

  it('refuses to label a decided task until it is reopened', () => {
    const decided = reduceLog([label('a1', 'S1', 'satisfied'), ev('reject', { reason: 'duplicate of t2' })]);
    const r = act(decided, { kind: 'label', attempt: 'a1', spec: 'S2', verdict: 'violated' });
    assert.ok(!r.ok && r.refusal.code === 'decided' && /rejected; reopen it/.test(r.refusal.message));
    assert.ok(act(decided, { kind: 'status', to: 'in_review' }).ok);
  });

  it('undo: refuses an unknown event, one already undone, and one whose removal would break the history', () => {
    const l = label('a1', 'S1', 'satisfied');
    const u = ev('undo', { event: l.id });
    const st = reduceLog([l, u]);
    assert.ok(!act(st, { kind: 'undo', event: 'NOPE0000' }).ok);
    const again = act(st, { kind: 'undo', event: l.id });
    assert.ok(!again.ok && /already undone/.test(again.refusal.message));
    assert.ok(act(st, { kind: 'undo', event: u.id }).ok, 'undoing an undo is a redo');
    const flag = ev('status', { from: 'candidate', to: 'flagged' });
    const repair = ev('status', { from: 'flagged', to: 'needs_repair' });
    const repaired = ev('status', { from: 'needs_repair', to: 'repaired' });
    const chain = reduceLog([flag, repair, repaired]);
    const broken = act(chain, { kind: 'undo', event: repair.id });
    assert.ok(!broken.ok && /would break the task's history/.test(broken.refusal.message));
    assert.ok(act(chain, { kind: 'undo', event: repaired.id }).ok);
  });

  it('refuses a decision on a suggestion the verifier does not raise', () => {
    const r = act(s, { kind: 'suggestion', suggestion: 'gold_fails_test::x', decision: 'confirmed' });
    assert.ok(!r.ok && r.refusal.code === 'unknown_suggestion');
  });
});

describe('several curators', () => {
  const both = [
    ...agreeing('alice'),
    label('a1', 'S1', 'satisfied', { curator: 'bob' }),
    label('a1', 'S2', 'violated', { curator: 'bob' }),
  ];

  it('blind mode hides the others until the viewer submits', () => {
    const s = reduceLog(both);
    const blind = reviewTask({ task: t1, state: s, verifier: t1Verifier(), viewer: 'alice', blind: true });
    assert.equal(blind.othersHidden, true);
    assert.ok(blind.cells.every((c) => c.others.length === 0));
    assert.equal(blind.cells.find((c) => c.attempt === 'a1' && c.spec === 'S2')?.outcome, 'true_pass', 'only her own label counts while blind');
    assert.equal(blind.disagreements.length, 0);
    assert.ok(blind.history.every((h) => h.event.curator === 'alice'));
    const submitted = reduceLog([...both, ev('submit', {}, { curator: 'alice' })]);
    const seen = reviewTask({ task: t1, state: submitted, verifier: t1Verifier(), viewer: 'alice', blind: true });
    assert.equal(seen.othersHidden, false);
    assert.equal(seen.cells.find((c) => c.attempt === 'a1' && c.spec === 'S2')?.others[0]?.curator, 'bob');
    assert.equal(seen.disagreements.length, 1);
    // Bob, who has not submitted, still sees only his own.
    const bob = reviewTask({ task: t1, state: submitted, verifier: t1Verifier(), viewer: 'bob', blind: true });
    assert.ok(bob.cells.every((c) => c.others.length === 0));
    assert.deepEqual(bob.submittedBy, ['alice']);
  });

  it('leaves a disagreement open under adjudication, and settles it by the most severe answer under the Verified policy', () => {
    const s = reduceLog(both);
    const adj = reviewTask({ task: t1, state: s, verifier: t1Verifier() });
    const cell = adj.cells.find((c) => c.attempt === 'a1' && c.spec === 'S2');
    assert.equal(cell?.from, 'disagreement');
    assert.equal(cell?.final, undefined);
    assert.equal(cell?.outcome, 'undecided');
    assert.deepEqual(adj.disagreements.map((d) => [d.attempt, d.spec, d.open]), [['a1', 'S2', true]]);
    assert.match(adj.rules.find((r) => r.id === 'every-attempt-judged')?.message ?? '', /a1 × S2 \(curators disagree\)/);
    const sev = reviewTask({ task: t1, state: s, verifier: t1Verifier(), policy: 'highest-severity' });
    const c2 = sev.cells.find((c) => c.attempt === 'a1' && c.spec === 'S2');
    assert.equal(c2?.final, 'violated');
    assert.equal(c2?.from, 'policy');
    assert.equal(c2?.outcome, 'false_positive');
  });

  it('lists open disagreements across tasks for adjudication, settled ones on request', () => {
    const s = reduceLog([...both, ev('score', { underspecified: 0, fnSeverity: 0, fpSeverity: 0, envDefects: [] }, { task: 't2' })]);
    const open = listDisagreements({ tasks: ds.tasks, state: s, verdicts: { t1: t1Verifier() } });
    assert.deepEqual(open.map((d) => [d.taskId, d.attempt, d.spec, d.values.map((v) => `${v.curator}:${v.value}`).join(' ')]), [['t1', 'a1', 'S2', 'alice:satisfied bob:violated']]);
    const settled = reduceLog([...both, ev('adjudicate', { target: 'label', attempt: 'a1', spec: 'S2', verdict: 'violated' }, { curator: 'carol' })]);
    assert.equal(listDisagreements({ tasks: ds.tasks, state: settled }).length, 0);
    assert.equal(listDisagreements({ tasks: ds.tasks, state: settled, all: true })[0]?.final, 'violated');
  });

  it('records the final decision of an adjudication', () => {
    const s = reduceLog([...both, ev('adjudicate', { target: 'label', attempt: 'a1', spec: 'S2', verdict: 'satisfied' }, { curator: 'carol' })]);
    const r = reviewTask({ task: t1, state: s, verifier: t1Verifier() });
    const cell = r.cells.find((c) => c.attempt === 'a1' && c.spec === 'S2');
    assert.equal(cell?.from, 'adjudicated');
    assert.equal(cell?.final, 'satisfied');
    assert.equal(r.disagreements[0]?.open, false);
    assert.ok(act(s, { kind: 'approve' }).ok);
  });

  it('settles scores: open under adjudication, the highest under the Verified policy', () => {
    const s = reduceLog([
      ev('score', { underspecified: 1, fnSeverity: 0, fpSeverity: 1, envDefects: ['flaky'], difficulty: '<15m' }, { curator: 'alice' }),
      ev('score', { underspecified: 1, fnSeverity: 0, fpSeverity: 3, envDefects: ['dependency_drift'], difficulty: '1-4h' }, { curator: 'bob' }),
    ]);
    const adj = reviewTask({ task: t1, state: s });
    assert.equal(adj.scores.final.underspecified, 1);
    assert.equal(adj.scores.from.underspecified, 'agreement');
    assert.equal(adj.scores.final.fpSeverity, undefined);
    assert.deepEqual(adj.scores.open, ['fpSeverity', 'difficulty', 'envDefects']);
    const sev = reviewTask({ task: t1, state: s, policy: 'highest-severity' });
    assert.equal(sev.scores.final.fpSeverity, 3);
    assert.equal(sev.scores.final.difficulty, '1-4h');
    assert.deepEqual(sev.scores.final.envDefects, ['dependency_drift', 'flaky']);
    const settled = reduceLog([...s.events, ev('adjudicate', { target: 'score', field: 'fpSeverity', value: 2 }, { curator: 'carol' })]);
    assert.equal(reviewTask({ task: t1, state: settled }).scores.final.fpSeverity, 2);
  });
});

describe('suggestions', () => {
  const flag: VerifierFlag = { id: 'empty_passes_fail_to_pass::tests/test_hello.py::test_greet_type', kind: 'empty_passes_fail_to_pass', message: 'T1 passes without any patch', test: 'tests/test_hello.py::test_greet_type' };
  it('are shown open, never count as labels, and block approval only once confirmed', () => {
    const v = t1Verifier({ flags: [flag] });
    const s = reduceLog(agreeing());
    const open = reviewTask({ task: t1, state: s, verifier: v });
    assert.equal(open.flags[0]?.open, true);
    assert.equal(open.counts.falsePositives, 0);
    assert.ok(act(s, { kind: 'approve' }, { verifier: v }).ok);
    const confirm = act(s, { kind: 'suggestion', suggestion: flag.id, decision: 'confirmed' }, { verifier: v });
    assert.ok(confirm.ok);
    const confirmed = reduceLog([...s.events, { ...(confirm.draft as unknown as ReviewEvent), id: 'SUGGEST01', time: '2027-01-01T00:00:00.000Z' }]);
    const r = act(confirmed, { kind: 'approve' }, { verifier: v });
    assert.ok(!r.ok && r.refusal.rules?.join() === 'no-open-false-positive' && /confirmed suggestion: T1 passes/.test(r.refusal.message));
    const dismissed = reduceLog([...s.events, ev('suggestion', { suggestion: flag.id, decision: 'dismissed' })]);
    assert.ok(act(dismissed, { kind: 'approve' }, { verifier: v }).ok);
  });
});

describe('an attempt whose patch touches what grades it', () => {
  // A pytest_runtest_makereport hook in conftest.py: pytest itself reports the failures as passes, so the log, the
  // counts and the harness's report all agree, and the run is `passed`. The flag is what says it; a curator decides.
  const flag: VerifierFlag = { id: 'attempt_edits_test_plugins:a1:', kind: 'attempt_edits_test_plugins', attempt: 'a1', message: 'conftest.py defines pytest_runtest_makereport' };
  it('blocks approval until a curator has decided the flag; confirmed, it is an open false positive', () => {
    const v = t1Verifier({ flags: [flag] });
    const s = reduceLog(agreeing());
    const open = act(s, { kind: 'approve' }, { verifier: v });
    assert.ok(!open.ok, 'approved a task whose passing attempt rewrote how pytest reports');
    assert.deepEqual(open.refusal.rules, ['tampering-decided']);
    assert.match(open.refusal.message, /a1: conftest\.py defines pytest_runtest_makereport/);
    const confirmed = reduceLog([...s.events, ev('suggestion', { suggestion: flag.id, decision: 'confirmed' })]);
    const c = act(confirmed, { kind: 'approve' }, { verifier: v });
    assert.ok(!c.ok && c.refusal.rules?.join() === 'no-open-false-positive', JSON.stringify(!c.ok && c.refusal));
    const dismissed = reduceLog([...s.events, ev('suggestion', { suggestion: flag.id, decision: 'dismissed', note: 'the fixture change is part of the fix' })]);
    assert.ok(act(dismissed, { kind: 'approve' }, { verifier: v }).ok);
  });
});

describe('review queue', () => {
  it('lists what the curator still has to review, with the first cell to focus', () => {
    const s = reduceLog([label('a1', 'S1', 'satisfied'), ev('submit', {}, { task: 't2' }), ev('reject', { reason: 'dup' }, { task: 't3' })]);
    const q = reviewQueue({ tasks: ds.tasks, state: s, viewer: 'alice' });
    assert.equal(q.remaining, 1);
    assert.equal(q.done, 2);
    assert.deepEqual(q.items[0], { taskId: 't1', title: 'Add a greeting', status: 'in_review', cellsLeft: 3, cells: 4, next: { attempt: 'a1', spec: 'S2' } });
    assert.equal(reviewQueue({ tasks: ds.tasks, state: s, viewer: 'bob' }).remaining, 2);
  });
});
