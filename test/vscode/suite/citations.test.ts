// Citations from gutter comments in a real extension host: the lines of an attempt's changed file in a diff editor
// and of a stored run log can be commented on (and only those), Cite gives the task page the hunk or the line with
// the curator's words and says which pair it joined, the words stay in the thread when there is nothing to cite, a
// recorded label's links come back as threads on those lines, and a link to the hunk is copied.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SpecWeaveApi } from '../../../src/vscode/extension';
import { activeTabInput, curatorDatasetDone, extensionId, openCuratorDataset, until } from './helpers';

const CURATOR = 'Citing Tester';

let nextId = 5000;
async function request(a: SpecWeaveApi, taskId: string, method: string, params: unknown): Promise<void> {
  const session = a.panels.sessionOf(taskId);
  assert.ok(session, `a task panel for ${taskId}`);
  await session.receive({ type: 'request', id: nextId++, method, params });
}

describe('citations (gutter comments)', () => {
  let a: SpecWeaveApi;
  let root: string;

  before(async () => {
    ({ a, root } = await openCuratorDataset(CURATOR));
    // A stored verifier run's stdout of attempt a1.
    const dir = path.join(root, 'runs/t1/a1');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'run-7.stdout.log'), 'collecting\ntests/test_hello.py::test_greet FAILED\nE   NameError: greet\n');
    await vscode.commands.executeCommand('specweave.task.open', 't1');
    await until('the webview handshake', () => (a.panels.sessionOf('t1')?.largestMessage ?? 0) > 0, 30_000);
  });

  after(curatorDatasetDone);

  async function a1Diff(): Promise<vscode.TextDocument> {
    assert.deepEqual(await vscode.commands.executeCommand('specweave.diff.open', { taskId: 't1', column: 'a1', path: 'hello.py' }), { opened: 'diff' });
    const input = await until('the diff tab', () => {
      const i = activeTabInput();
      return i instanceof vscode.TabInputTextDiff ? i : undefined;
    });
    return vscode.workspace.openTextDocument(input.modified);
  }

  it("offers the new side of each hunk for comments, and Cite gives the page the hunk with the curator's words", async () => {
    const doc = await a1Diff();
    const ranges = (await a.citations.controller.commentingRangeProvider!.provideCommentingRanges(doc, new vscode.CancellationTokenSource().token)) as vscode.Range[];
    // a1 changes hello.py in one hunk, +1,4: lines 1-4.
    assert.deepEqual(ranges.map((r) => [r.start.line, r.end.line]), [[0, 3]]);

    const thread = a.citations.controller.createCommentThread(doc.uri, new vscode.Range(2, 0, 2, 0), []);
    const out = await vscode.commands.executeCommand<{ ok: boolean; message: string; pair?: { attempt: string; spec: string } }>('specweave.citation.cite', { thread, text: 'greet is added but never exported' });
    assert.equal(out?.ok, true, out?.message);
    assert.equal(out?.pair?.attempt, 'a1', 'the page focuses a pair of the attempt it shows first');
    const spec = out!.pair!.spec;
    assert.match(out!.message, new RegExp(`Cited hunk 0 of hello\\.py \\(a1\\) on a1 × ${spec}`));
    const [info] = a.citations.threadsOf(doc.uri);
    assert.equal(info?.kind, 'draft');
    assert.match(info?.label ?? '', new RegExp(`Cited on a1 × ${spec}: record it with a verdict`));
    assert.match(info?.bodies[0] ?? '', /^greet is added but never exported\n\nCited hunk 0/);

    // The page records the draft with a verdict: the label carries the link, and the thread becomes the recorded one.
    await request(a, 't1', 'label', { attempt: 'a1', spec, verdict: 'violated', note: 'greet is added but never exported', evidence: [{ kind: 'diff_hunk', patch: 'attempt', attempt: 'a1', file: 'hello.py', hunk: 0 }] });
    const recorded = await until('the recorded citation on the hunk', () => {
      const list = a.citations.threadsOf(doc.uri);
      return list.length === 1 && list[0]?.kind === 'recorded' ? list[0] : undefined;
    });
    assert.equal(recorded.line, 0, 'on the first line of the hunk');
    assert.equal(recorded.label, 'Cited by 1 label');
    assert.match(recorded.bodies[0] ?? '', new RegExp(`^violated .*· a1 × ${spec}\\n\\ngreet is added but never exported$`));

    // A link to the hunk, to paste into notes.
    const link = await vscode.commands.executeCommand<string>('specweave.citation.copyLink', thread);
    assert.equal(link, `${vscode.env.uriScheme}://${extensionId}/open?task=t1&patch=attempt&attempt=a1&file=hello.py&hunk=0`);
    assert.equal(await vscode.env.clipboard.readText(), link);
  });

  it('a line outside every hunk cites nothing, and the words typed stay in the thread', async () => {
    const doc = await a1Diff();
    const thread = a.citations.controller.createCommentThread(doc.uri, new vscode.Range(9, 0, 9, 0), []);
    const out = await vscode.commands.executeCommand<{ ok: boolean; message: string }>('specweave.citation.cite', { thread, text: 'keep these words' });
    assert.equal(out?.ok, false);
    const mine = a.citations.threadsOf(doc.uri).find((t) => t.kind === 'failed');
    assert.ok(mine, 'the thread stays');
    assert.equal(mine.label, 'Not cited');
    assert.match(mine.bodies[0] ?? '', /^keep these words\n\nThis line is not part of a hunk/);
    assert.equal(thread.canReply, true, 'the curator can try again from the thread');
    thread.dispose();
  });

  it("a stored run log's lines cite themselves, and a recorded log line shows there", async () => {
    const file = path.join(root, 'runs/t1/a1/run-7.stdout.log');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
    assert.deepEqual(a.citations.linkAt(doc, 1), { taskId: 't1', link: { kind: 'log_line', run: 'run-7', line: 2 } });
    const thread = a.citations.controller.createCommentThread(doc.uri, new vscode.Range(2, 0, 2, 0), []);
    const out = await vscode.commands.executeCommand<{ ok: boolean; message: string; pair?: { attempt: string; spec: string } }>('specweave.citation.cite', { thread, text: '' });
    assert.equal(out?.ok, true, out?.message);
    assert.match(out!.message, /Cited line 3 of run run-7 on /);
    const pair = out!.pair!;
    await request(a, 't1', 'label', { attempt: pair.attempt, spec: pair.spec, verdict: 'violated', evidence: [{ kind: 'log_line', run: 'run-7', line: 3 }] });
    const recorded = await until('the recorded log line', () => a.citations.threadsOf(doc.uri).find((t) => t.kind === 'recorded'));
    assert.equal(recorded.line, 2);
    assert.equal(a.citations.threadsOf(doc.uri).filter((t) => t.kind === 'draft').length, 0, 'the draft made the recorded one; it is not shown twice');
  });

  it('other documents offer no comments: the base side, and a file outside the dataset', async () => {
    const doc = await a1Diff();
    const base = await vscode.workspace.openTextDocument(doc.uri.with({ path: '/t1/@base/hello.py', query: 'kind=base' }));
    const token = new vscode.CancellationTokenSource().token;
    assert.deepEqual(await a.citations.controller.commentingRangeProvider!.provideCommentingRanges(base, token), []);
    const outside = path.join(path.dirname(root), 'elsewhere.log');
    fs.writeFileSync(outside, 'x\n');
    const od = await vscode.workspace.openTextDocument(vscode.Uri.file(outside));
    assert.deepEqual(await a.citations.controller.commentingRangeProvider!.provideCommentingRanges(od, token), []);
  });
});
