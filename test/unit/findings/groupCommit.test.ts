// The review agent's group commit: the findings events of pairs that finish together go to the review log in one
// transaction (one lock, one fsync), each caller learning its own event; the duplicate check stays under the lock
// (a pair another writer recorded meanwhile, or the same pair twice in one group, is written once); a failed
// transaction fails every pair of its group and the next group is written; in a batch, every pair's journal entry is
// on disk before the transaction that writes its event.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { CurationStore } from '../../../src/app/curationStore';
import type { ReviewPair } from '../../../src/app/reviewAgent';
import { FindingsRecorder, pairKey, REVIEWER_JOURNAL_DIR, reviewAttempts } from '../../../src/app/reviewAgent';
import type { LogFs } from '../../../src/adapters/fs/reviewLog';
import type { ChatResult, LlmClient } from '../../../src/adapters/llm/client';
import type { FindingsPayload } from '../../../src/core/findings/model';
import { PROMPT_VERSION } from '../../../src/core/findings/prompt';
import { taskState } from '../../../src/core/review/reducer';
import { copyFixture } from '../helpers/tmp';

const pairOf = (store: CurationStore, task: string, attempt: string): ReviewPair => ({ task, revision: store.task(task)?.revision ?? 0, attempt, patchHash: 'ab'.repeat(32), promptVersion: PROMPT_VERSION, model: 'gpt-test' });
const payloadOf = (p: ReviewPair): FindingsPayload => ({ attempt: p.attempt, patchHash: p.patchHash, model: p.model, promptVersion: p.promptVersion, promptHash: 'cd'.repeat(32), findings: [{ spec: 'S1', judgment: 'satisfied', confidence: 0.7, rationale: 'ok', citations: [{ kind: 'test', test: 'T1' }] }], dropped: [] });
const eventsOf = (root: string) => ['t1', 't2', 't3'].flatMap((task) => taskState(CurationStore.open(root).state, task).findings.map((e) => ({ task, ...e })));
const PAIRS = [['t1', 'a1'], ['t1', 'a2'], ['t2', 'b1'], ['t3', 'c1']] as const;

describe('FindingsRecorder', () => {
  it('writes the events of pairs queued in one turn in one transaction, each caller getting its own event', async () => {
    const root = copyFixture('review/ds');
    const store = CurationStore.open(root);
    const rec = new FindingsRecorder(store, 'alice');
    const pairs = PAIRS.map(([t, a]) => pairOf(store, t, a));
    const got = await Promise.all(pairs.map((p) => rec.record(p, payloadOf(p))));
    assert.equal(rec.transactions, 1);
    const events = eventsOf(root);
    assert.equal(events.length, 4);
    assert.deepEqual(got.map((g) => g.eventId), pairs.map((p) => events.find((e) => e.task === p.task && e.payload.attempt === p.attempt)?.event));
    assert.equal(new Set(got.map((g) => g.eventId)).size, 4);
  });

  it('at most maxGroup events a transaction; the rest in the next one', async () => {
    const root = copyFixture('review/ds');
    const store = CurationStore.open(root);
    const rec = new FindingsRecorder(store, 'alice', 3);
    const pairs = PAIRS.map(([t, a]) => pairOf(store, t, a));
    const got = await Promise.all(pairs.map((p) => rec.record(p, payloadOf(p))));
    assert.equal(rec.transactions, 2);
    assert.ok(got.every((g) => g.eventId));
    assert.equal(eventsOf(root).length, 4);
  });

  it('a pair another writer recorded meanwhile, or the same pair twice in a group, is written once', async () => {
    const root = copyFixture('review/ds');
    const store = CurationStore.open(root);
    const other = CurationStore.open(root);
    const p1 = pairOf(store, 't1', 'a1');
    const p2 = pairOf(store, 't2', 'b1');
    // Another process records t1/a1 after this store last read the log.
    const theirs = await new FindingsRecorder(other, 'bob').record(p1, payloadOf(p1));
    assert.ok(theirs.eventId);
    const rec = new FindingsRecorder(store, 'alice');
    const got = await Promise.all([rec.record(p1, payloadOf(p1)), rec.record(p2, payloadOf(p2)), rec.record(p2, payloadOf(p2))]);
    assert.equal(rec.transactions, 1);
    assert.deepEqual(got[0], { already: theirs.eventId });
    assert.ok(got[1]?.eventId);
    assert.deepEqual(got[2], { already: got[1]?.eventId });
    const events = eventsOf(root);
    assert.equal(events.filter((e) => e.task === 't1').length, 1);
    assert.equal(events.filter((e) => e.task === 't2').length, 1);
  });

  it('a failed transaction fails every pair of its group with the log error; the next group is written', async () => {
    const root = copyFixture('review/ds');
    const store = CurationStore.open(root);
    const rec = new FindingsRecorder(store, 'alice');
    const [p1, p2, p3] = PAIRS.map(([t, a]) => pairOf(store, t, a)) as [ReviewPair, ReviewPair, ReviewPair];
    const logFile = store.log.file;
    fs.mkdirSync(path.dirname(logFile), { recursive: true });
    fs.rmSync(logFile, { force: true });
    fs.symlinkSync(path.join(root, 'elsewhere.jsonl'), logFile);
    const r = await Promise.allSettled([rec.record(p1, payloadOf(p1)), rec.record(p2, payloadOf(p2))]);
    assert.deepEqual(r.map((x) => x.status), ['rejected', 'rejected']);
    assert.match(String((r[0] as PromiseRejectedResult).reason), /symlink/);
    assert.ok(!fs.existsSync(path.join(root, 'elsewhere.jsonl')), 'nothing written through the link');
    fs.rmSync(logFile);
    const ok = await rec.record(p3, payloadOf(p3));
    assert.ok(ok.eventId);
    assert.deepEqual(eventsOf(root).map((e) => e.task), [p3.task]);
  });

  it('pairs that finish while a transaction waits for its fsync go in the next one; none is acknowledged before its own fsync', async () => {
    const root = copyFixture('review/ds');
    const held: Array<() => void> = [];
    let fsyncAsked: () => void = () => undefined;
    const gfs = {
      ...fs,
      fsync: ((fd: number, cb: (e: NodeJS.ErrnoException | null) => void) => {
        held.push(() => fs.fsync(fd, cb));
        fsyncAsked();
      }) as LogFs['fsync'],
    } as LogFs;
    const asked = () => new Promise<void>((r) => (fsyncAsked = r));
    const store = CurationStore.open(root, { log: { fs: gfs, fsync: 'async' } });
    const rec = new FindingsRecorder(store, 'alice');
    const pairs = [...PAIRS.map(([t, a]) => pairOf(store, t, a)), { ...pairOf(store, 't1', 'a1'), patchHash: 'ef'.repeat(32) }];
    const acked: string[] = [];
    const record = (p: ReviewPair) => rec.record(p, payloadOf(p)).then((r) => (acked.push(`${p.task}/${p.attempt}/${p.patchHash.slice(0, 2)}`), r));
    let first = asked();
    const all = [record(pairs[0] as ReviewPair)];
    await first;
    // The first pair's transaction waits for its fsync; four more pairs finish meanwhile.
    all.push(...pairs.slice(1).map(record));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(acked, []);
    assert.equal(rec.transactions, 1);
    first = asked();
    (held.shift() as () => void)();
    await first;
    assert.deepEqual(acked, ['t1/a1/ab']);
    assert.equal(rec.transactions, 2);
    (held.shift() as () => void)();
    const got = await Promise.all(all);
    assert.equal(acked.length, 5);
    assert.equal(rec.transactions, 2, 'the four pairs that finished during the first fsync went in one transaction');
    assert.equal(new Set(got.map((g) => g.eventId)).size, 5);
    assert.equal(eventsOf(root).length, 5);
  });
});

/** A client answering every call with one valid finding, after `gate` (so the calls under way end together). */
function fakeClient(gate: Promise<void>): LlmClient {
  const chat = async (req: { messages: Array<{ content: string }> }): Promise<ChatResult> => {
    await gate;
    const attempt = /attempt (\S+)/.exec(req.messages[1]?.content ?? '')?.[1] ?? '?';
    const text = JSON.stringify({ refusal: null, findings: [{ attempt, spec: 'S1', judgment: 'satisfied', confidence: 0.7, rationale: 'ok', citations: [{ kind: 'test', step: null, file: null, hunk: null, test: 'T1', line: null, sentence: null, quote: null }] }] });
    return { text, finishReason: 'stop', usage: { promptTokens: 1000, completionTokens: 100 }, model: 'gpt-4o-mini', responseFormat: 'json_schema', sent: [], tries: [], ms: 1 } as unknown as ChatResult;
  };
  return { chat } as unknown as LlmClient;
}

describe('reviewAttempts with the group commit', () => {
  for (const maxEventsPerWrite of [1, 64]) {
    it(`every pair's journal entry is on disk before its event is written; one event per pair (at most ${maxEventsPerWrite} a write)`, async () => {
      const root = copyFixture('review/ds');
      const store = CurationStore.open(root);
      const record = store.record.bind(store);
      const missing: string[] = [];
      let perWrite = 0;
      store.record = ((prepare) =>
        record((state) => {
          const drafts = prepare(state);
          if (Array.isArray(drafts)) {
            perWrite = Math.max(perWrite, drafts.length);
            for (const d of drafts) {
              if (d.kind !== 'review.findings') continue;
              const p: ReviewPair = { task: d.task, revision: d.revision, attempt: d.payload.attempt, patchHash: d.payload.patchHash, promptVersion: d.payload.promptVersion, model: d.payload.model };
              if (!fs.existsSync(path.join(root, REVIEWER_JOURNAL_DIR, p.task, p.attempt, `${pairKey(p)}.json`))) missing.push(`${p.task}/${p.attempt}`);
            }
          }
          return drafts;
        })) as typeof store.record;
      let open: () => void = () => undefined;
      const gate = new Promise<void>((ok) => (open = ok));
      const settings = { baseUrl: 'http://127.0.0.1:9', model: 'gpt-4o-mini', temperature: 0, maxTokens: 32000, timeoutSec: 5 };
      const run = reviewAttempts({ store, curator: 'alice', settings, client: fakeClient(gate), concurrency: 4, maxEventsPerWrite });
      open();
      const r = await run;
      assert.deepEqual(r.outcomes.map((o) => o.status), ['reviewed', 'reviewed', 'reviewed', 'reviewed'], JSON.stringify(r.outcomes));
      assert.deepEqual(missing, []);
      assert.ok(perWrite <= maxEventsPerWrite);
      assert.ok(r.logWrites >= 1 && r.logWrites <= 4);
      if (maxEventsPerWrite === 1) assert.equal(r.logWrites, 4);
      const events = eventsOf(root);
      assert.equal(events.length, 4);
      assert.deepEqual(new Set(r.outcomes.map((o) => (o.status === 'reviewed' ? o.eventId : ''))), new Set(events.map((e) => e.event)));
      // Run again: every pair is in the log, so none is judged twice.
      const again = await reviewAttempts({ store: CurationStore.open(root), curator: 'alice', settings, client: fakeClient(Promise.resolve()), concurrency: 4 });
      assert.deepEqual(again.outcomes.map((o) => o.status === 'skipped' && o.reason), ['judged', 'judged', 'judged', 'judged']);
      assert.equal(again.logWrites, 0);
    });
  }
});
