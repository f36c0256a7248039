// The review agent's current findings (core/findings/current.ts) and what a curator does with one: the latest finding
// per attempt and spec on the attempt's current patch, stale once its spec changed, with its dismissal and who
// accepted it; accepting records the curator's OWN label (the finding's judgment, the finding and its citations as
// evidence), dismissing records a review.dismiss, both through the curation store on a real log.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { CurationStore } from '../../../src/app/curationStore';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import type { CandidateTask } from '../../../src/core/model';
import type { FindingsPayload } from '../../../src/core/findings/model';
import { acceptedLabel, currentFindings, isUnconfirmed, unconfirmedCount } from '../../../src/core/findings/current';
import type { ReviewEvent } from '../../../src/core/review/events';
import { formatEventLine } from '../../../src/core/review/events';
import { reduceLog } from '../../../src/core/review/reducer';
import { buildReviewView, fitReviewView } from '../../../src/core/view/reviewView';
import { ev, reviewDataset } from '../review/helpers';

const H1 = 'a1'.repeat(32);
const H2 = 'b2'.repeat(32);
const OLD = 'c3'.repeat(32);

function findings(attempt: string, patchHash: string, list: Partial<FindingsPayload['findings'][number]>[], extra: Partial<FindingsPayload> = {}): FindingsPayload {
  return {
    attempt,
    patchHash,
    run: 'RUN1',
    model: 'gpt-test',
    promptVersion: 'review-1',
    promptHash: 'dd'.repeat(32),
    findings: list.map((f) => ({ spec: 'S1', judgment: 'violated', confidence: 0.8, rationale: 'why', citations: [], ...f })),
    dropped: [],
    ...extra,
  };
}

function t1(): CandidateTask {
  const ds = loadDataset(reviewDataset());
  return ds.tasks.find((t) => t.id === 't1') as CandidateTask;
}

const hashes = new Map([
  ['a1', H1],
  ['a2', H2],
]);

describe('current findings', () => {
  it('per attempt and spec, the latest finding on the current patch; findings on an older patch are not current', () => {
    const task = t1();
    const first = ev('review.findings', findings('a1', H1, [{ spec: 'S1', judgment: 'satisfied' }, { spec: 'S2', judgment: 'violated', candidate: 'false_positive' }]), { curator: 'agent' });
    const second = ev('review.findings', findings('a1', H1, [{ spec: 'S1', judgment: 'violated', candidate: 'false_positive' }]), { curator: 'agent' });
    const stale = ev('review.findings', findings('a2', OLD, [{ spec: 'S1', judgment: 'violated' }]), { curator: 'agent' });
    const st = reduceLog([first, second, stale]).tasks.get('t1');
    assert.ok(st);
    const cur = currentFindings(task, st, hashes);
    assert.deepEqual(
      cur.map((f) => [f.attempt, f.spec, f.event, f.finding.judgment]),
      [
        ['a1', 'S1', second.id, 'violated'],
        ['a1', 'S2', first.id, 'violated'],
      ],
      'S1 from the later event, S2 still from the first; a2 judged another patch',
    );
    assert.equal(unconfirmedCount(cur), 2);
    assert.equal(currentFindings(task, st, new Map([['a1', H2]])).length, 0, 'a1 patched since: nothing is current');
  });

  it('a dismissal or a label citing the finding confirms it; a spec changed since makes it stale', () => {
    const task = t1();
    const f = ev('review.findings', findings('a1', H1, [{ spec: 'S1', candidate: 'false_positive' }, { spec: 'S2', candidate: 'false_negative', judgment: 'satisfied' }]), { curator: 'agent' });
    const acceptS1 = ev('label', { attempt: 'a1', spec: 'S1', verdict: 'violated', evidence: [{ kind: 'finding', findings: f.id, spec: 'S1' }] }, { curator: 'bob' });
    const dismissS2 = ev('review.dismiss', { findings: f.id, spec: 'S2', note: 'the test is right' }, { curator: 'alice' });
    const st = reduceLog([f, acceptS1, dismissS2]).tasks.get('t1');
    assert.ok(st);
    const [s1, s2] = currentFindings(task, st, hashes);
    assert.deepEqual(s1?.acceptedBy, ['bob']);
    assert.equal(s2?.dismissal?.curator, 'alice');
    assert.ok(s1 && s2 && !isUnconfirmed(s1) && !isUnconfirmed(s2));

    const changed = ev('revision', { from: 1, changedSpecs: ['S1'], specHashes: { S1: { before: 'aaaa', after: 'bbbb' } } }, { revision: 2 });
    const unchanged = ev('revision', { from: 2, changedSpecs: ['S2'], specHashes: { S2: { before: 'cccc', after: 'cccc' } } }, { revision: 3 });
    const f2 = ev('review.findings', findings('a2', H2, [{ spec: 'S1', candidate: 'false_positive' }, { spec: 'S2', candidate: 'false_positive' }]), { curator: 'agent' });
    const st2 = reduceLog([f2, changed, unchanged]).tasks.get('t1');
    assert.ok(st2);
    const cur = currentFindings(task, st2, hashes);
    assert.deepEqual(
      cur.map((x) => [x.spec, x.stale, isUnconfirmed(x)]),
      [
        ['S1', true, false],
        ['S2', false, true],
      ],
      'S1 changed since the finding (stale, as a label would be); S2 was touched but its text is the same',
    );
  });

  it('accepting maps the citations to evidence links, the finding first; request sentences are left out', () => {
    const f = findings('a1', H1, [
      {
        spec: 'S2',
        judgment: 'violated',
        citations: [
          { kind: 'trajectory_step', step: 4, quote: 'round(' },
          { kind: 'diff_hunk', file: 'hello.py', hunk: 0 },
          { kind: 'test', test: 'T2' },
          { kind: 'log_line', run: 'RUN1', line: 12 },
          { kind: 'request_sentence', sentence: 2 },
          { kind: 'test', test: 'T2' },
        ],
      },
    ]);
    const l = acceptedLabel({ attempt: 'a1', spec: 'S2', event: 'EVT00001', finding: f.findings[0]! });
    assert.equal(l.verdict, 'violated');
    assert.deepEqual(l.evidence, [
      { kind: 'finding', findings: 'EVT00001', spec: 'S2' },
      { kind: 'trajectory_step', attempt: 'a1', step: 4 },
      { kind: 'diff_hunk', patch: 'attempt', attempt: 'a1', file: 'hello.py', hunk: 0 },
      { kind: 'test', test: 'T2' },
      { kind: 'log_line', run: 'RUN1', line: 12 },
    ]);
  });

  it('the view shows a finding beside the labels, never as one, rationale cut, others hidden in blind mode', () => {
    const root = reviewDataset();
    const task = loadDataset(root).tasks.find((t) => t.id === 't1') as CandidateTask;
    const f = ev('review.findings', findings('a1', patchHash(root, task, 'a1'), [{ spec: 'S1', rationale: 'x'.repeat(5000), citations: [{ kind: 'request_sentence', sentence: 1, quote: 'returns' }] }]), { curator: 'agent' });
    const bob = ev('label', { attempt: 'a1', spec: 'S1', verdict: 'violated', evidence: [{ kind: 'finding', findings: f.id, spec: 'S1' }] }, { curator: 'bob' });
    append(root, [f, bob]);
    const store = CurationStore.open(root, { runs: false });
    const view = (blind: boolean) => {
      const review = store.review('t1', { viewer: 'alice', blind });
      assert.ok(review);
      return buildReviewView(review, 'adjudicate', { findings: store.findings('t1') });
    };
    const v = view(true);
    assert.equal(v.othersHidden, true);
    const fv = v.findings?.[0];
    assert.ok(fv);
    assert.equal(fv.rationale.length, 2000);
    assert.equal(fv.rationaleCut, true);
    assert.deepEqual(fv.sentences, [1]);
    assert.deepEqual(fv.quotes, ['returns']);
    assert.deepEqual(fv.acceptedBy, [], "blind mode: bob's acceptance is a label, hidden");
    assert.equal(fv.acceptedByYou, false);
    assert.ok(v.cells.every((c) => !c.mine && c.others.length === 0), 'no label comes from the finding, and bob is hidden');
    assert.deepEqual(view(false).findings?.[0]?.acceptedBy, ['bob']);
    // Many long findings still fit the view's budget: the rationales are cut last, and it says so.
    const many = { ...v, findings: Array.from({ length: 400 }, (_, i) => ({ ...fv, spec: `S${i}`, rationale: 'y'.repeat(2000) })) };
    const fit = fitReviewView(many);
    assert.ok(JSON.stringify(fit).length <= 600_000);
    assert.equal(fit.findings?.length, 400, 'no finding is dropped');
    assert.equal(fit.findings?.[0]?.rationaleCut, true);
    assert.match(fit.trimmed ?? '', /rationales are cut to 300 characters/);
  });
});

// ---- through the store, on a real log ---------------------------------------------------------------------------

function append(root: string, events: ReviewEvent[]): void {
  const file = path.join(root, 'curation', 'events.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.appendFileSync(file, events.map((e) => `${formatEventLine(e)}\n`).join(''));
}

function patchHash(root: string, task: CandidateTask, attempt: string): string {
  const rel = task.attempts.find((a) => a.id === attempt)?.patchFile as string;
  return createHash('sha256').update(fs.readFileSync(path.join(root, rel))).digest('hex');
}

describe('accepting and dismissing a finding', () => {
  it('accept records the curator’s own label with the finding as evidence; dismiss records review.dismiss once', async () => {
    const root = reviewDataset();
    const task = loadDataset(root).tasks.find((t) => t.id === 't1') as CandidateTask;
    const h = patchHash(root, task, 'a1');
    const f = ev('review.findings', findings('a1', h, [{ spec: 'S2', judgment: 'violated', candidate: 'false_positive', citations: [{ kind: 'test', test: 'T2' }] }, { spec: 'S1', judgment: 'satisfied' }]), { curator: 'agent', id: 'FINDINGS0001' });
    append(root, [f]);
    const store = CurationStore.open(root);
    assert.equal(store.patchHashes('t1').get('a1'), h, 'the store hashes the patch bytes as the agent does');
    assert.equal(store.findings('t1').length, 2);

    const r = await store.act('t1', 'alice', { kind: 'acceptFinding', findings: 'FINDINGS0001', spec: 'S2' });
    assert.ok(r.ok, r.ok ? '' : r.refusal.message);
    assert.equal(r.event.kind, 'label');
    assert.equal(r.event.curator, 'alice');
    assert.deepEqual(r.event.payload, { attempt: 'a1', spec: 'S2', verdict: 'violated', evidence: [{ kind: 'finding', findings: 'FINDINGS0001', spec: 'S2' }, { kind: 'test', test: 'T2' }] });
    const lines = fs.readFileSync(path.join(root, 'curation', 'events.jsonl'), 'utf8').trim().split('\n');
    assert.match(lines.at(-1) ?? '', /"kind":"label".*"finding"/, 'on disk');
    assert.deepEqual(store.findings('t1').find((x) => x.spec === 'S2')?.acceptedBy, ['alice']);

    const d = await store.act('t1', 'alice', { kind: 'dismissFinding', findings: 'FINDINGS0001', spec: 'S1', note: 'wrong' });
    assert.ok(d.ok);
    assert.equal(d.event.kind, 'review.dismiss');
    const again = await store.act('t1', 'bob', { kind: 'dismissFinding', findings: 'FINDINGS0001', spec: 'S1' });
    assert.ok(!again.ok);
    assert.equal(again.refusal.code, 'decided');
    assert.equal(unconfirmedCount(store.findings('t1')), 0);
  });

  it('refuses a finding on another patch, an unknown one, and a finding link on another pair', async () => {
    const root = reviewDataset();
    append(root, [ev('review.findings', findings('a1', OLD, [{ spec: 'S1' }]), { curator: 'agent', id: 'FINDINGS0002' })]);
    const store = CurationStore.open(root);
    const old = await store.act('t1', 'alice', { kind: 'acceptFinding', findings: 'FINDINGS0002', spec: 'S1' });
    assert.ok(!old.ok);
    assert.match(old.refusal.message, /another patch of a1/);
    const unknown = await store.act('t1', 'alice', { kind: 'acceptFinding', findings: 'NOSUCHEVENT1', spec: 'S1' });
    assert.ok(!unknown.ok);
    assert.equal(unknown.refusal.code, 'unknown_finding');
    const noSpec = await store.act('t1', 'alice', { kind: 'dismissFinding', findings: 'FINDINGS0002', spec: 'S2' });
    assert.ok(!noSpec.ok);
    assert.match(noSpec.refusal.message, /no finding on spec "S2"/);
    const wrongPair = await store.act('t1', 'alice', { kind: 'label', attempt: 'a2', spec: 'S1', verdict: 'violated', evidence: [{ kind: 'finding', findings: 'FINDINGS0002', spec: 'S1' }] });
    assert.ok(!wrongPair.ok);
    assert.match(wrongPair.refusal.message, /is about a1 × S1, not a2 × S1/);
  });
});
