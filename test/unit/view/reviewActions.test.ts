// What the task view's review requests do on the host, without VS Code: each goes through the curation store and
// answers only once the event is in curation/events.jsonl; refusals name what is wrong; a disk that fills up records
// nothing and says so; review mode moves through the queue, submits, skips and undoes back across tasks.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { CurationStore } from '../../../src/app/curationStore';
import type { LogFs } from '../../../src/adapters/fs/reviewLog';
import { ReviewActions } from '../../../src/vscode/curation/reviewActions';
import type { CuratorName } from '../../../src/vscode/curation/reviewActions';
import { reviewDataset, writeT1Runs } from '../review/helpers';

function logLines(root: string): Array<Record<string, unknown>> {
  const f = path.join(root, 'curation/events.jsonl');
  if (!fs.existsSync(f)) return [];
  return fs
    .readFileSync(f, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function setup(o: { curator?: CuratorName; logFs?: LogFs; blind?: boolean } = {}) {
  const root = reviewDataset();
  writeT1Runs(root);
  const store = CurationStore.open(root, o.logFs ? { log: { fs: o.logFs } } : {});
  const changed: Array<string[] | undefined> = [];
  const shown: string[] = [];
  const actions = new ReviewActions({
    store: () => store,
    curator: () => o.curator ?? { ok: true, name: 'alice', source: 'setting' },
    blind: () => o.blind === true,
    changed: (ids) => changed.push(ids),
    showTask: (id) => shown.push(id),
    openEvidence: async () => ({ opened: true }),
  });
  return { root, store, actions, changed, shown };
}

describe('review requests on the host', () => {
  it('a label lands in curation/events.jsonl before it is acknowledged, and the view model shows it', async () => {
    const { root, actions, changed } = setup();
    const r = await actions.requests('t1').label({ attempt: 'a1', spec: 'S2', verdict: 'violated', note: 'no comma', evidence: [{ kind: 'trajectory_step', attempt: 'a1', step: 3 }] });
    assert.ok(r.ok, JSON.stringify(r));
    const lines = logLines(root);
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.id, r.event);
    assert.equal(lines[0]!.curator, 'alice');
    assert.deepEqual(lines[0]!.payload, { attempt: 'a1', evidence: [{ attempt: 'a1', kind: 'trajectory_step', step: 3 }], note: 'no comma', spec: 'S2', verdict: 'violated' });
    assert.equal(r.summary, 'a1 × S2: violated');
    assert.deepEqual(changed.at(-1), ['t1'], 'the tree and the task view refresh that task');
    const v = actions.view('t1');
    assert.equal(v?.cells.find((c) => c.attempt === 'a1' && c.spec === 'S2')?.outcome, 'false_positive');
  });

  it('refusals name what is wrong and record nothing', async () => {
    const { root, actions } = setup();
    const req = actions.requests('t1');
    const unknown = await req.label({ attempt: 'nope', spec: 'S1', verdict: 'satisfied' });
    assert.ok(!unknown.ok && unknown.code === 'unknown_attempt', JSON.stringify(unknown));
    assert.match(unknown.ok ? '' : unknown.message, /no attempt "nope"/);
    const approve = await req.approve({ waivers: [] });
    assert.ok(!approve.ok && approve.code === 'rule');
    assert.deepEqual(approve.ok ? [] : approve.rules, ['every-attempt-judged']);
    const badWaiver = await req.approve({ waivers: [{ rule: 'every-attempt-judged', reason: '  ' }] });
    assert.ok(!badWaiver.ok && badWaiver.code === 'bad_input' && /needs a reason/.test(badWaiver.message));
    const transition = await req.transition({ to: 'approved' });
    assert.ok(!transition.ok && transition.code === 'transition');
    const env = await req.score({ underspecified: 0, fnSeverity: 0, fpSeverity: 0, envDefects: ['cosmic_rays'] as never });
    assert.ok(!env.ok && /cosmic_rays/.test(env.message));
    assert.equal(logLines(root).length, 0);
  });

  it('approval with a waiver of the rule that blocks it is recorded with the waiver', async () => {
    const { root, actions, store } = setup();
    const r = await actions.requests('t1').approve({ waivers: [{ rule: 'every-attempt-judged', reason: 'judged with the probes' }] });
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(store.state.tasks.get('t1')?.status, 'approved');
    const approve = logLines(root).find((l) => l.kind === 'approve');
    assert.deepEqual((approve?.payload as { waivers: unknown }).waivers, [{ reason: 'judged with the probes', rule: 'every-attempt-judged' }]);
  });

  it('a disk that fills up during the append records nothing, says so, and the log stays readable', async () => {
    let full = false;
    const logFs: LogFs = {
      ...fs,
      writeSync: ((...args: Parameters<typeof fs.writeSync>) => {
        if (full) {
          const e = new Error('ENOSPC: no space left on device, write') as NodeJS.ErrnoException;
          e.code = 'ENOSPC';
          throw e;
        }
        return (fs.writeSync as (...a: unknown[]) => number)(...args);
      }) as typeof fs.writeSync,
    };
    const { root, actions } = setup({ logFs });
    assert.ok((await actions.requests('t1').label({ attempt: 'a1', spec: 'S1', verdict: 'satisfied' })).ok);
    full = true;
    const r = await actions.requests('t1').label({ attempt: 'a1', spec: 'S2', verdict: 'violated', note: 'typed with care' });
    assert.ok(!r.ok);
    assert.equal(r.ok ? '' : r.code, 'disk_full');
    assert.match(r.ok ? '' : r.message, /NOT recorded/);
    assert.equal(logLines(root).length, 1, 'only the acknowledged event is in the log');
    assert.equal(CurationStore.open(root).problems().length, 0, 'the log still loads cleanly');
    assert.equal(actions.view('t1')?.cells.find((c) => c.spec === 'S2' && c.attempt === 'a1')?.mine, undefined);
  });

  it('refuses to record without a valid curator name, saying where to set it', async () => {
    const { root, actions } = setup({ curator: { ok: false, message: 'curator name contains the control character U+0007 at position 4 (from the specweave.curator.name setting)' } });
    const r = await actions.requests('t1').label({ attempt: 'a1', spec: 'S1', verdict: 'satisfied' });
    assert.ok(!r.ok && r.code === 'bad_curator');
    assert.match(r.ok ? '' : r.message, /specweave\.curator\.name.*U\+0007/);
    assert.equal(logLines(root).length, 0);
    assert.match(actions.view('t1')?.curatorProblem ?? '', /U\+0007/);
    assert.equal(actions.view('t1')?.viewer, undefined);
  });

  it('undo withdraws the latest action with a new undo event', async () => {
    const { root, actions } = setup();
    const req = actions.requests('t1');
    const l = await req.label({ attempt: 'a2', spec: 'S2', verdict: 'satisfied' });
    assert.ok(l.ok);
    const u = await req.undo({});
    assert.ok(u.ok, JSON.stringify(u));
    const lines = logLines(root);
    assert.deepEqual(lines.map((x) => x.kind), ['label', 'undo']);
    assert.equal((lines[1]!.payload as { event: string }).event, l.event);
    assert.equal(actions.view('t1')?.cells.find((c) => c.attempt === 'a2' && c.spec === 'S2')?.mine, undefined);
    const nothing = await req.undo({});
    assert.ok(!nothing.ok && /Nothing of yours to undo/.test(nothing.message));
  });

  it('review mode: submit and next, skip, the count left, and undo back to the task before', async () => {
    const { actions, shown, store } = setup();
    actions.startReviewMode();
    assert.equal(actions.firstQueued(), 't1');
    assert.deepEqual(actions.view('t1')?.queue, { remaining: 3, done: 0, index: 0 });
    const next = await actions.requests('t1').reviewQueue({ action: 'next', submit: true });
    assert.equal(next.taskId, 't2');
    assert.deepEqual(shown, ['t2']);
    assert.equal(next.remaining, 2);
    assert.ok(store.state.tasks.get('t1')?.submitted.has('alice'));
    assert.equal(actions.view('t2')?.queue?.remaining, 2);
    const skip = await actions.requests('t2').reviewQueue({ action: 'skip' });
    assert.equal(skip.taskId, 't3');
    assert.deepEqual(shown, ['t2', 't3']);
    // Nothing of alice's on t3: z goes back to t2 (skipped, nothing to undo there), then nothing more.
    const back = await actions.requests('t3').undo({});
    assert.ok(!back.ok, 't2 has no event of alice to undo');
    await actions.requests('t2').reviewQueue({ action: 'next' });
    const stop = await actions.requests('t3').reviewQueue({ action: 'stop' });
    assert.equal(stop.remaining, 2);
    assert.equal(actions.reviewMode, false);
    assert.equal(actions.view('t3')?.queue, undefined);
  });

  it('undo in review mode goes back to the task just submitted', async () => {
    const { actions, shown, store } = setup();
    actions.startReviewMode();
    await actions.requests('t1').reviewQueue({ action: 'next', submit: true });
    assert.deepEqual(shown, ['t2']);
    const u = await actions.requests('t2').undo({});
    assert.ok(u.ok, JSON.stringify(u));
    assert.equal(u.ok ? u.taskId : '', 't1');
    assert.deepEqual(shown, ['t2', 't1']);
    assert.equal(store.state.tasks.get('t1')?.submitted.has('alice'), false, 'the submit is withdrawn');
  });
});
