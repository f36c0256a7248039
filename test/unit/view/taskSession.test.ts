// The host side of a task panel without VS Code: ten attempts with 5 MB trajectories each, a hostile trajectory,
// every message checked against the 1 MB limit.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readTrajectory } from '../../../src/adapters/fs/trajectoryReader';
import { TrajectoryCache } from '../../../src/adapters/fs/trajectoryCache';
import type { CandidateTask } from '../../../src/core/model';
import { buildTaskViewModel } from '../../../src/core/view/taskView';
import type { HostToWebview, SearchHit, StepView } from '../../../src/protocol/messages';
import { MAX_MESSAGE_BYTES, TaskSession } from '../../../src/vscode/taskSession';
import type { EditorActions, TaskSessionOptions } from '../../../src/vscode/taskSession';
import type { SpecEditReply } from '../../../src/protocol/messages';
import { tmpDir } from '../helpers/tmp';
import { writeSweTrajectory } from './bigTrajectory';

const ATTEMPTS = 10;
let dir: string;

const patch = 'diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n';

function task(): CandidateTask {
  return {
    id: 'big',
    title: 'Big task',
    revision: 1,
    repo: { name: 'org/repo', kind: 'image' },
    environment: { image: 'img', workdir: '/repo', limits: { memoryMb: 1, cpus: 1, pids: 1 }, timeoutSec: 1 },
    specs: [{ id: 'S1', text: 'x becomes two', category: 'other', dependsOn: [] }],
    tests: [{ id: 'T1', name: 'tests/test_m.py::test_x', kind: 'fail_to_pass', specs: ['S1'] }],
    verifier: { command: 'pytest', parser: 'pytest' },
    notes: [],
    dir: 'tasks/big',
    files: { task: 'tasks/big/task.json', request: 'tasks/big/request.md', testPatch: 'tasks/big/tests.patch' },
    attempts: Array.from({ length: ATTEMPTS }, (_, i) => ({
      id: `a${i}`,
      model: `m${i}`,
      agent: 'swe-agent',
      dir: `tasks/big/attempts/a${i}`,
      patchFile: `tasks/big/attempts/a${i}/patch.diff`,
      trajectoryFile: `a${i}.traj`,
      recordedResults: [],
    })),
  };
}

before(() => {
  dir = tmpDir('sw-session-');
  for (let i = 0; i < ATTEMPTS; i++) writeSweTrajectory(path.join(dir, `a${i}.traj`), { steps: 3000, bytes: 5_000_000, needleEvery: 50 });
  // A hostile one: a 10 MB observation, a 100,000-character line, ANSI codes, binary bytes, HTML and script.
  const hostile = {
    trajectory: [
      { thought: '<script>window.__pwned = 1</script>', action: '<img src=x onerror="window.__pwned=2">', observation: `\u001b[31mred\u001b[0m ${'B'.repeat(10 * 1024 * 1024)}` },
      { thought: 'x'.repeat(100_000), action: '[click](javascript:alert(1))', observation: `bin:\u0000\u0001\u0002\u00ff\ufffd end` },
    ],
    history: [],
    info: { exit_status: 'submitted' },
  };
  fs.writeFileSync(path.join(dir, 'hostile.traj'), JSON.stringify(hostile));
});

const noActions: EditorActions = {
  openDiff: async () => ({ opened: 'diff' }),
  compareColumns: async () => ({ opened: true }),
  openTest: async () => ({ opened: true }),
  openPatch: async () => ({ opened: true }),
  act: async () => ({ ran: false, message: 'no' }),
};

function session(t: CandidateTask, file: (column: string) => string, actions: EditorActions = noActions, extra: Partial<TaskSessionOptions> = {}) {
  const posted: Array<{ msg: HostToWebview; bytes: number }> = [];
  const waiters = new Set<(msg: HostToWebview) => void>();
  // The cache calls back only after a load, when `s` exists.
  const cache = new TrajectoryCache(readTrajectory, (c) => ({ abs: file(c), label: c }), (c, e) => s.trajectoryLoaded(c, e));
  const s: TaskSession = new TaskSession({
    taskId: t.id,
    post: (msg) => {
      posted.push({ msg, bytes: Buffer.byteLength(JSON.stringify(msg)) });
      for (const w of [...waiters]) w(msg);
    },
    buildModel: (trajectories) =>
      buildTaskViewModel({
        task: t,
        status: 'candidate',
        trusted: true,
        request: { text: '# Big\n\nMake x two.' },
        testPatch: { text: patch.replace(/m\.py/g, 'tests/test_m.py') },
        attemptPatches: new Map(t.attempts.map((a) => [a.id, { text: patch }])),
        trajectories,
      }),
    cache,
    trajectoryColumns: t.attempts.map((a) => a.id),
    actions,
    updateDelayMs: 10,
    ...extra,
  });
  let id = 0;
  const request = async (method: string, params: unknown): Promise<{ ok: boolean; result?: unknown; error?: string }> => {
    const myId = ++id;
    await s.receive({ type: 'request', id: myId, method, params });
    const reply = posted.find((p) => p.msg.type === 'reply' && p.msg.id === myId)?.msg;
    assert.ok(reply && reply.type === 'reply', `no reply to ${method}`);
    return reply.ok ? { ok: true, result: reply.result } : { ok: false, error: reply.error };
  };
  /**
   * The first message in `posted` (one there already included) that `match` accepts: waited for as the session posts,
   * bounded only to fail with `what` when it never comes.
   */
  const message = <M extends HostToWebview>(what: string, match: (m: HostToWebview) => m is M): Promise<M> =>
    new Promise<M>((resolve, reject) => {
      const there = posted.find((p) => match(p.msg))?.msg;
      if (there) return resolve(there as M);
      const w = (msg: HostToWebview) => {
        if (!match(msg)) return;
        clearTimeout(bound);
        waiters.delete(w);
        resolve(msg);
      };
      const bound = setTimeout(() => {
        waiters.delete(w);
        reject(new Error(`${what}: not posted within 60 s`));
      }, 60_000);
      waiters.add(w);
    });
  return { s, posted, request, message };
}

const isType =
  <T extends HostToWebview['type']>(type: T) =>
  (m: HostToWebview): m is Extract<HostToWebview, { type: T }> =>
    m.type === type;

test('first paint: init comes at once, without reading any trajectory, and is small', async () => {
  const { s, posted } = session(task(), (c) => path.join(dir, `${c}.traj`));
  await s.receive({ type: 'ready', protocol: 1 });
  assert.equal(posted[0]?.msg.type, 'init');
  assert.ok((posted[0]?.bytes ?? 0) < 100_000);
  const init = posted[0]?.msg;
  assert.ok(init?.type === 'init');
  assert.equal(init.model.columns.length, ATTEMPTS);
  assert.ok(init.model.columns.every((c) => c.hasTrajectory && c.trajectory === undefined), 'trajectories load lazily');
  s.dispose();
});

test('paging, search and text slices over 10 x 5 MB never post a message over 1 MB', async () => {
  const { s, posted, request, message } = session(task(), (c) => path.join(dir, `${c}.traj`));
  await s.receive({ type: 'ready', protocol: 1 });
  const page = await request('getSteps', { column: 'a3', start: 0, count: 200 });
  assert.ok(page.ok);
  const r = page.result as { steps: StepView[]; total: number };
  assert.equal(r.total, 3000);
  assert.ok(r.steps.length > 0 && r.steps.length <= 200);
  const filtered = await request('getSteps', { column: 'a3', start: 0, count: 50, kinds: ['action'] });
  assert.ok((filtered.result as { steps: StepView[] }).steps.every((st) => st.kind === 'action'));
  const locate = await request('locateStep', { column: 'a3', step: 1500 });
  assert.deepEqual(locate.result, { position: 1500 });

  const started = await request('search', { searchId: 7, pattern: 'needle-\\d+ ', regex: true, caseSensitive: true });
  assert.deepEqual(started.result, { started: true });
  const done = await message('the searchDone', isType('searchDone'));
  const hits = posted.flatMap((p) => (p.msg.type === 'searchHits' ? p.msg.hits : [])) as SearchHit[];
  // 1000 items per file, a needle every 50th: 20 per file; all match.
  assert.equal(done.total, ATTEMPTS * 20);
  assert.equal(hits.length, done.total);
  assert.deepEqual(Object.keys(done.counts).sort(), Array.from({ length: ATTEMPTS }, (_, i) => `a${i}`).sort());
  assert.equal(done.cancelled, false);
  const firstHits = posted.findIndex((p) => p.msg.type === 'searchHits');
  assert.ok(firstHits >= 0 && firstHits < posted.findIndex((p) => p.msg.type === 'searchDone'), 'hits are posted as they are found, before the search is done');
  // Trajectory summaries reach the column headers through an update once loaded (summaries only accumulate: every
  // later update has them too).
  await message(
    'an update with every summary',
    (m): m is Extract<HostToWebview, { type: 'update' }> => m.type === 'update' && m.model.columns.every((c) => c.trajectory?.steps === 3000),
  );

  for (const p of posted) assert.ok(p.bytes <= MAX_MESSAGE_BYTES, `${p.msg.type} of ${p.bytes} bytes`);
  assert.equal(s.largestMessage, Math.max(...posted.map((p) => p.bytes)));
  assert.ok(s.largestMessage < MAX_MESSAGE_BYTES);
  s.dispose();
});

test('a search can be cancelled, a new one replaces the old, and a bad pattern is an error text', async () => {
  const { s, request, message } = session(task(), (c) => path.join(dir, `${c}.traj`));
  await s.receive({ type: 'ready', protocol: 1 });
  await request('search', { searchId: 1, pattern: 'lorem', regex: false, caseSensitive: false });
  const cancel = await request('cancelSearch', { searchId: 1 });
  assert.deepEqual(cancel.result, { cancelled: true });
  // The search ends at its next pause: its searchDone is waited for.
  const done = await message('the cancelled search\'s searchDone', isType('searchDone'));
  assert.ok(done.searchId === 1 && done.cancelled);
  const bad = await request('search', { searchId: 2, pattern: '([a-z', regex: true, caseSensitive: false });
  assert.equal((bad.result as { started: boolean }).started, false);
  assert.match((bad.result as { error: string }).error, /Invalid regular expression/);
  s.dispose();
});

test('invalid messages are refused with an error reply, never acted on', async () => {
  const { s, posted } = session(task(), (c) => path.join(dir, `${c}.traj`));
  await s.receive({ type: 'request', id: 5, method: 'getSteps', params: { column: 'a0', start: -1, count: 5 } });
  await s.receive({ type: 'request', id: 6, method: 'deleteEverything', params: {} });
  await s.receive({ type: 'request', id: 7, method: 'runCommand', params: { command: 'workbench.action.terminal.new', args: [] } });
  await s.receive('<script>');
  assert.deepEqual(
    posted.map((p) => (p.msg.type === 'reply' ? [p.msg.id, p.msg.ok] : p.msg.type)),
    [
      [5, false],
      [6, false],
      [7, false],
    ],
  );
  s.dispose();
});

test('a hostile trajectory comes back as bounded, inert text', async () => {
  const t = task();
  const { s, posted, request } = session(t, () => path.join(dir, 'hostile.traj'));
  await s.receive({ type: 'ready', protocol: 1 });
  const page = await request('getSteps', { column: 'a0', start: 0, count: 10 });
  const steps = (page.result as { steps: StepView[] }).steps;
  assert.equal(steps.length, 6);
  const obs = steps[2] as StepView;
  assert.equal(obs.length, 4 + 10 * 1024 * 1024, 'ANSI codes are gone from the text and its length');
  assert.ok(obs.preview.startsWith('red BBBB'));
  assert.equal(obs.preview.length, 2000);
  assert.equal(steps[0]?.preview, '<script>window.__pwned = 1</script>', 'HTML is text; the webview renders it as text');
  assert.equal(steps[3]?.preview.length, 2000);
  assert.equal(steps[3]?.lines, 1);
  assert.equal(steps[5]?.preview, 'bin:\u00ff\ufffd end', 'control bytes removed');
  const slice = await request('getStepText', { column: 'a0', step: 2, offset: 0, length: 1 << 20 });
  assert.equal((slice.result as { text: string }).text.length, 256 * 1024);
  for (const p of posted) assert.ok(p.bytes <= MAX_MESSAGE_BYTES);
  s.dispose();
});

test('after the first paint the shown column\'s trajectory loads by itself and its summary follows in an update', async () => {
  const { s, posted, message } = session(task(), (c) => path.join(dir, `${c}.traj`));
  await s.receive({ type: 'ready', protocol: 1, state: { taskId: 'big', activeColumn: 'a4' } });
  const update = () => message('an update', isType('update'));
  const u = await update();
  assert.deepEqual(u.model.columns.filter((c) => c.trajectory).map((c) => c.id), ['a4'], 'only the shown column was read');
  posted.length = 0;
  await s.receive({ type: 'uiState', state: { taskId: 'big', activeColumn: 'a7' } });
  const u2 = await update();
  assert.deepEqual(u2.model.columns.filter((c) => c.trajectory).map((c) => c.id), ['a4', 'a7']);
  s.dispose();
});

test('action requests from the page reach the host actions, typed, with the suggestion they name', async () => {
  const calls: Array<[string, string | undefined]> = [];
  const actions: EditorActions = { ...noActions, act: async (action, suggestion) => (calls.push([action, suggestion]), { ran: action !== 'nextTask', message: 'why' }) };
  const { s, request } = session(task(), (c) => path.join(dir, `${c}.traj`), actions);
  assert.deepEqual(await request('nextTask', {}), { ok: true, result: { ran: false, message: 'why' } });
  for (const m of ['previousTask', 'startReviewMode', 'requestRepair'] as const) assert.equal((await request(m, {})).ok, true, m);
  for (const m of ['reviewRepair', 'acceptRepair', 'rejectRepair', 'showRepairPrompt', 'showRepairMatrix'] as const) assert.equal((await request(m, { suggestion: 's-1' })).ok, true, m);
  // Refused before any action runs: a command id, extra params, a repair action without its suggestion.
  assert.equal((await request('runCommand', { command: 'specweave.repair.accept', args: [] })).ok, false);
  assert.equal((await request('nextTask', { command: 'workbench.action.terminal.new' })).ok, false);
  assert.equal((await request('acceptRepair', {})).ok, false);
  assert.deepEqual(calls, [
    ['nextTask', undefined],
    ['previousTask', undefined],
    ['startReviewMode', undefined],
    ['requestRepair', undefined],
    ['reviewRepair', 's-1'],
    ['acceptRepair', 's-1'],
    ['rejectRepair', 's-1'],
    ['showRepairPrompt', 's-1'],
    ['showRepairMatrix', 's-1'],
  ]);
  s.dispose();
});

test('a session restarted while a spec edit is in flight (its own write changed the task) still answers that request, and nothing else', async () => {
  let finish: (r: SpecEditReply) => void = () => undefined;
  let started: () => void = () => undefined;
  const running = new Promise<void>((r) => (started = r));
  const specs = {
    'specs.edit': () => {
      started();
      return new Promise<SpecEditReply>((r) => (finish = r));
    },
    'specs.undo': async (): Promise<SpecEditReply> => ({ ok: false, code: 'nothing_to_undo', message: 'no' }),
  };
  for (const finishReplies of [true, false]) {
    const { s, posted } = session(task(), (c) => path.join(dir, `${c}.traj`), noActions, { specs });
    await s.receive({ type: 'ready', protocol: 1 });
    const answered = s.receive({ type: 'request', id: 5, method: 'specs.edit', params: { revision: 1, op: { op: 'edit', spec: 'S1', text: 'x becomes three' } } });
    await running;
    // What TaskPanels.restart does when the write's reload arrives: the page stays, a new session takes over.
    s.dispose({ finishReplies });
    s.pushUpdate();
    finish({ ok: true, to: 2, changedSpecs: ['S1'] });
    await answered;
    const replies = posted.filter((p) => p.msg.type === 'reply').map((p) => p.msg);
    if (finishReplies) assert.deepEqual(replies, [{ type: 'reply', id: 5, ok: true, result: { ok: true, to: 2, changedSpecs: ['S1'] } }], 'the page gets the reply it waits for');
    else assert.deepEqual(replies, [], 'a closed panel (or another task) gets nothing');
    assert.deepEqual(posted.map((p) => p.msg.type), finishReplies ? ['init', 'reply'] : ['init'], 'no update from the old session');
    // The session's second dispose (its store's) changes nothing.
    s.dispose();
  }
});

test("a citation from an editor: sent after the page's init, answered by its cited, sent again to a page shown anew, failed when the panel closes", async () => {
  const { s, posted } = session(task(), (c) => path.join(dir, `${c}.traj`));
  const link = { kind: 'log_line', run: 'r1', line: 4 } as const;
  const first = s.cite(link, 'the import fails');
  assert.equal(posted.filter((p) => p.msg.type === 'cite').length, 0, 'no page yet: nothing posted');
  await s.receive({ type: 'ready', protocol: 1 });
  const types = posted.map((p) => p.msg.type);
  assert.ok(types.indexOf('cite') > types.indexOf('init'), 'after the init');
  const sent = posted.find((p) => p.msg.type === 'cite')?.msg as Extract<HostToWebview, { type: 'cite' }>;
  assert.deepEqual({ link: sent.link, note: sent.note }, { link, note: 'the import fails' });
  await s.receive({ type: 'cited', citeId: sent.citeId, ok: true, message: 'Cited line 4 of run r1 on a0 × S1.', pair: { attempt: 'a0', spec: 'S1' } });
  assert.deepEqual(await first, { ok: true, message: 'Cited line 4 of run r1 on a0 × S1.', pair: { attempt: 'a0', spec: 'S1' } });

  // Hidden, the panel has no page: the next cite waits, and reaches the page loaded when it is shown.
  s.hidden();
  const second = s.cite({ ...link, line: 5 });
  const before = posted.filter((p) => p.msg.type === 'cite').length;
  assert.equal(before, 1, 'not posted to a hidden panel');
  await s.receive({ type: 'ready', protocol: 1 });
  const again = posted.filter((p) => p.msg.type === 'cite').map((p) => p.msg as Extract<HostToWebview, { type: 'cite' }>);
  assert.equal(again.length, 2);
  assert.equal(again[1]?.link.kind === 'log_line' && again[1].link.line, 5);
  // A malformed answer is refused, and the cite still waits for a real one.
  await s.receive({ type: 'cited', citeId: again[1]!.citeId, ok: 'yes', message: 1 });
  const third = s.cite({ ...link, line: 6 });
  s.dispose();
  assert.deepEqual(await second, { ok: false, message: 'The task view closed before the citation reached it; cite again.' });
  assert.equal((await third).ok, false);
});

test('a session replaced while the page stays (its task changed on disk) hands over the reveal and the cites it still owed', async () => {
  const old = session(task(), (c) => path.join(dir, `${c}.traj`));
  const link = { kind: 'log_line', run: 'r1', line: 4 } as const;
  // Asked before the page said ready: both wait in the old session.
  old.s.reveal('a3', 7);
  const cited = old.s.cite(link, 'see the log');
  const owed = old.s.handOver();
  old.s.dispose({ finishReplies: true });
  const next = session(task(), (c) => path.join(dir, `${c}.traj`));
  next.s.takeOver(owed);
  await next.s.receive({ type: 'ready', protocol: 1 });
  const types = next.posted.map((p) => p.msg.type);
  assert.ok(types.indexOf('reveal') > types.indexOf('init'), `the reveal after the new init: ${types.join(' ')}`);
  const reveal = next.posted.find((p) => p.msg.type === 'reveal')?.msg;
  assert.deepEqual(reveal, { type: 'reveal', column: 'a3', step: 7 });
  const cite = next.posted.find((p) => p.msg.type === 'cite')?.msg as Extract<HostToWebview, { type: 'cite' }>;
  assert.deepEqual({ link: cite.link, note: cite.note }, { link, note: 'see the log' });
  // The old session's dispose did not fail the cite: the page's answer to the new one resolves it.
  await next.s.receive({ type: 'cited', citeId: cite.citeId, ok: true, message: 'Cited line 4 of run r1 on a0 × S1.', pair: { attempt: 'a0', spec: 'S1' } });
  assert.deepEqual(await cited, { ok: true, message: 'Cited line 4 of run r1 on a0 × S1.', pair: { attempt: 'a0', spec: 'S1' } });
  // A cite of the new session does not take the id of one it took over.
  const mine = next.s.cite({ ...link, line: 9 });
  const ids = next.posted.filter((p) => p.msg.type === 'cite').map((p) => (p.msg as Extract<HostToWebview, { type: 'cite' }>).citeId);
  assert.equal(new Set(ids).size, ids.length, `cite ids ${ids.join(', ')}`);
  next.s.dispose();
  assert.equal((await mine).ok, false);
  old.s.dispose();
});
