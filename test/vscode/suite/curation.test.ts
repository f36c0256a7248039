// Curation inside a real extension host: the commands are there; a label sent the way the task view sends it lands
// in curation/events.jsonl and the view model and the tree status follow; another writer's events show up; a curator
// name with control characters is refused; review mode starts on the queue; the statistics panel's webview runs; the
// curated set is exported.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SpecWeaveApi } from '../../../src/vscode/extension';
import { curatorDatasetDone, openCuratorDataset, projectRoot, statsHandshake, until } from './helpers';

const CURATOR = 'In-Host Tester';

function events(root: string): Array<{ kind: string; curator: string; task: string; payload: Record<string, unknown> }> {
  const f = path.join(root, 'curation/events.jsonl');
  if (!fs.existsSync(f)) return [];
  return fs
    .readFileSync(f, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { kind: string; curator: string; task: string; payload: Record<string, unknown> });
}

/** Another process writing to the same log: the CLI. */
function cliLabel(root: string, curator: string, attempt: string, spec: string, verdict: string): void {
  execFileSync(process.execPath, [path.join(projectRoot(), 'dist/cli.js'), 'label', root, 't1', '--attempt', attempt, '--spec', spec, '--verdict', verdict, '--curator', curator], { stdio: 'pipe' });
}

let nextId = 1000;
/** Sends a request exactly as the webview does (the session validates it first) and waits for its effect. */
async function request(a: SpecWeaveApi, taskId: string, method: string, params: unknown): Promise<void> {
  const session = a.panels.sessionOf(taskId);
  assert.ok(session, `a task panel for ${taskId}`);
  await session.receive({ type: 'request', id: nextId++, method, params });
}

describe('curation', () => {
  let a: SpecWeaveApi;
  let root: string;
  const config = () => vscode.workspace.getConfiguration('specweave');

  before(async () => {
    ({ a, root } = await openCuratorDataset(CURATOR));
  });

  after(async () => {
    await vscode.commands.executeCommand('specweave.review.stop');
    await curatorDatasetDone();
  });

  it('registers its commands', async () => {
    const all = await vscode.commands.getCommands(true);
    for (const c of ['specweave.review.start', 'specweave.review.stop', 'specweave.review.undo', 'specweave.stats.show', 'specweave.adjudication.show', 'specweave.curation.export', 'specweave.curator.set']) {
      assert.ok(all.includes(c), c);
    }
  });

  it('a label sent from the task view lands in curation/events.jsonl, and the view model and the status follow', async () => {
    assert.equal(a.panels.model('t1', new Map()).status, 'candidate');
    await vscode.commands.executeCommand('specweave.task.open', 't1');
    await until('the t1 session', () => a.panels.sessionOf('t1'));
    await until('the webview handshake', () => (a.panels.sessionOf('t1')?.largestMessage ?? 0) > 0, 20_000);
    const m0 = a.panels.model('t1', new Map());
    assert.equal(m0.review?.viewer, CURATOR);
    assert.equal(m0.review?.curatorSource, 'setting');
    assert.deepEqual(m0.review?.cells.map((c) => `${c.attempt}×${c.spec}`), ['a1×S1', 'a1×S2', 'a2×S1', 'a2×S2']);
    // The review section carries the task's coupling (docs/coupling.md): its two specs, measured over the store.
    assert.equal(m0.coupling?.specs, 2);
    assert.equal(m0.coupling?.groups.length, m0.coupling?.groupCount ?? -1);

    await request(a, 't1', 'label', { attempt: 'a1', spec: 'S2', verdict: 'violated', note: 'no comma', evidence: [{ kind: 'test', test: 'T1' }] });
    const logged = events(root);
    assert.equal(logged.length, 1, 'on disk by the time the request is answered');
    assert.equal(logged[0]!.kind, 'label');
    assert.equal(logged[0]!.curator, CURATOR);
    assert.deepEqual(logged[0]!.payload, { attempt: 'a1', evidence: [{ kind: 'test', test: 'T1' }], note: 'no comma', spec: 'S2', verdict: 'violated' });
    const m1 = a.panels.model('t1', new Map());
    const cell = m1.review?.cells.find((c) => c.attempt === 'a1' && c.spec === 'S2');
    assert.equal(cell?.mine?.verdict, 'violated');
    assert.equal(cell?.mine?.note, 'no comma');
    assert.equal(m1.status, 'in_review', 'the first label puts the task in review');
    assert.equal(m1.review?.counts.mine, 1);
    // The Candidates tree shows the progress: the task's pairs judged, its attempts' own (issue 16, improvement 5).
    const taskNode = { kind: 'task' as const, taskId: 't1' };
    await until('the progress in the tree', () => /1\/4 judged/.test(String(a.tree.getTreeItem(taskNode).description)));
    assert.match(String(a.tree.getTreeItem({ kind: 'attempt', taskId: 't1', column: 'a1' }).description), /1\/2 judged/);
    assert.match(String(a.tree.getTreeItem({ kind: 'attempt', taskId: 't1', column: 'a2' }).description), /0\/2 judged/);
    // A click in the statistics filters the list the same way (specweave.candidates.filterBy).
    assert.equal(await vscode.commands.executeCommand('specweave.candidates.filterBy', { statuses: ['in_review'] }), true);
    assert.deepEqual(a.tree.visibleTaskIds(), ['t1']);
    assert.equal(await vscode.commands.executeCommand('specweave.candidates.filterBy', { statuses: ['approved'] }), true);
    assert.deepEqual(a.tree.visibleTaskIds(), []);
    // A solver model's row: the tasks that model attempted.
    assert.equal(await vscode.commands.executeCommand('specweave.candidates.filterBy', { models: ['other-model'] }), true);
    assert.deepEqual(a.tree.visibleTaskIds(), ['t1']);
    assert.deepEqual(a.tree.filter.models, ['other-model']);
    assert.equal(await vscode.commands.executeCommand('specweave.candidates.filterBy', { models: ['nobody'] }), true);
    assert.deepEqual(a.tree.visibleTaskIds(), []);
    await vscode.commands.executeCommand('specweave.candidates.clearFilter');
  });

  it('a message the webview should never send is refused and records nothing', async () => {
    const before = events(root).length;
    await request(a, 't1', 'label', { attempt: 'a1', spec: 'S1', verdict: 'maybe' });
    await request(a, 't1', 'label', { attempt: 'a1', spec: 'S1', verdict: 'satisfied', note: 'nul \u0000 inside' });
    await request(a, 't1', 'label', { attempt: 'zz', spec: 'S1', verdict: 'satisfied' });
    assert.equal(events(root).length, before);
  });

  it("another process's events (the CLI) show up without a reload", async () => {
    cliLabel(root, 'bob', 'a2', 'S1', 'satisfied');
    await until(
      "bob's label in the view model",
      () => a.panels.model('t1', new Map()).review?.cells.find((c) => c.attempt === 'a2' && c.spec === 'S1')?.others.some((o) => o.curator === 'bob'),
      10_000,
    );
  });

  it('blind mode hides the other curator until you submit', async () => {
    await config().update('curation.blindMode', true, vscode.ConfigurationTarget.Global);
    try {
      await until('blind', () => a.panels.model('t1', new Map()).review?.othersHidden === true);
      assert.deepEqual(a.panels.model('t1', new Map()).review?.cells.flatMap((c) => c.others), []);
    } finally {
      await config().update('curation.blindMode', undefined, vscode.ConfigurationTarget.Global);
    }
    await until('not blind', () => a.panels.model('t1', new Map()).review?.othersHidden === false);
  });

  it('refuses a curator name with control characters, and records nothing until it is fixed', async () => {
    assert.equal(await vscode.commands.executeCommand('specweave.curator.set', 'bad\tname'), false);
    assert.equal(config().get('curator.name'), CURATOR, 'the setting is unchanged');
    await config().update('curator.name', 'bell\u0007', vscode.ConfigurationTarget.Global);
    try {
      await until('the refusal in the view model', () => /U\+0007/.test(a.panels.model('t1', new Map()).review?.curatorProblem ?? ''));
      assert.equal(a.panels.model('t1', new Map()).review?.viewer, undefined);
      const before = events(root).length;
      await request(a, 't1', 'label', { attempt: 'a1', spec: 'S1', verdict: 'satisfied' });
      assert.equal(events(root).length, before);
    } finally {
      await config().update('curator.name', CURATOR, vscode.ConfigurationTarget.Global);
    }
    await until('the name back', () => a.panels.model('t1', new Map()).review?.viewer === CURATOR);
  });

  it('undo from the command palette withdraws your latest action with an undo event', async () => {
    await vscode.commands.executeCommand('specweave.task.open', 't1');
    await until('t1 active', () => a.panels.active?.taskId === 't1');
    const r = (await vscode.commands.executeCommand('specweave.review.undo')) as { ok: boolean };
    assert.equal(r.ok, true);
    const last = events(root).at(-1);
    assert.equal(last?.kind, 'undo');
    assert.equal(a.panels.model('t1', new Map()).review?.cells.find((c) => c.attempt === 'a1' && c.spec === 'S2')?.mine, undefined);
  });

  it('review mode starts on the first task you have not reviewed and shows the queue', async () => {
    const first = await vscode.commands.executeCommand<string>('specweave.review.start');
    assert.equal(first, 't1');
    await until('t1 in the panel', () => a.panels.active?.taskId === 't1');
    assert.deepEqual(a.panels.model('t1', new Map()).review?.queue, { remaining: 1, done: 0, index: 0 });
    await vscode.commands.executeCommand('specweave.review.stop');
    assert.equal(a.panels.model('t1', new Map()).review?.queue, undefined);
  });

  it("the statistics panel's webview runs and refreshes when the log changes", async () => {
    assert.equal(await vscode.commands.executeCommand('specweave.stats.show'), true);
    assert.ok(a.curation.curationPanels.isOpen('stats'));
    await statsHandshake(a);
    const posted = a.curation.curationPanels.posted.stats;
    const m = a.curation.curationPanels.model('stats');
    assert.equal(m.view, 'stats');
    assert.equal(m.view === 'stats' ? m.stats.funnel.imported : -1, 1);
    // The spec figures come with the curation figures (docs/coupling.md): the one task, its specs per task.
    assert.equal(m.view === 'stats' ? m.stats.specs?.all.tasks : -1, 1);
    assert.equal(m.view === 'stats' ? m.stats.specs?.all.specsPerTask?.mean : -1, m.view === 'stats' ? m.stats.specs?.all.specs : -2);
    // While it is in front, another writer appends: the panel gets a fresh model.
    cliLabel(root, 'bob', 'a1', 'S1', 'satisfied');
    await until('a refreshed statistics model', () => a.curation.curationPanels.posted.stats > posted, 10_000);
    const after = a.curation.curationPanels.model('stats');
    assert.ok(after.view === 'stats' && after.stats.curators.some((c) => c.curator === 'bob'));
    assert.equal(await vscode.commands.executeCommand('specweave.adjudication.show'), true);
    await until('the adjudication webview handshake', () => a.curation.curationPanels.posted.adjudication > 0, 20_000);
  }).timeout(90_000);

  it('exports the curated set: approved tasks only, with every file in the manifest', async () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sw-inhost-export-')), 'curated');
    const none = (await vscode.commands.executeCommand('specweave.curation.export', { out, format: 'specweave' })) as { ok: boolean; tasks: string[] };
    assert.equal(none.ok, true);
    assert.deepEqual(none.tasks, [], 'nothing approved yet');
    await vscode.commands.executeCommand('specweave.task.open', 't1');
    await until('the t1 session', () => a.panels.sessionOf('t1'));
    const blockers = a.panels.model('t1', new Map()).review?.blockers ?? [];
    assert.ok(blockers.length > 0);
    await request(a, 't1', 'approve', { waivers: blockers.map((rule) => ({ rule, reason: `in-host test waives ${rule}` })) });
    assert.equal(a.panels.model('t1', new Map()).status, 'approved');
    const r = (await vscode.commands.executeCommand('specweave.curation.export', { out, format: 'swebench' })) as { ok: boolean; tasks: string[]; files: number };
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.deepEqual(r.tasks, ['t1']);
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')) as { format: string; files: Array<{ path: string }> };
    assert.equal(manifest.format, 'swebench');
    assert.deepEqual(manifest.files.map((f) => f.path).sort(), ['provenance.json', 'tasks.jsonl']);
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  });
});
