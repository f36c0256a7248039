// Solve rates in the workbench (issue 14, item 4), inside a real extension host over a real dataset whose attempts
// carry imported results: the Candidates tree says "solved N/M" and gives the rate per model in the tooltip; the
// mixed-success filter keeps the tasks in the band of `specweave.difficulty.band`, follows an edit of the setting and
// falls back to the default band for a value it cannot read; sort by solve rate; the statistics panel's model has the
// funnel imported -> in band -> reviewed -> approved.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CandidateNode } from '../../../src/vscode/candidatesTree';
import type { SpecWeaveApi } from '../../../src/vscode/extension';
import { api, openDataset, tinyDatasetWithClone, until } from './helpers';

const resolved = (ok: boolean) => [{ imported: true, source: 'swebench-report', file: 'report.json', resolved: ok }];

/** t1: a1 (gpt-test) resolved, a2 (other-model) not: 1/2. t2: neither: 0/2. t3: no results. */
function ratedDataset(): string {
  const root = tinyDatasetWithClone().root;
  const t1 = path.join(root, 'tasks/t1');
  const json = fs.readFileSync(path.join(t1, 'task.json'), 'utf8');
  for (const id of ['t2', 't3']) {
    fs.cpSync(t1, path.join(root, 'tasks', id), { recursive: true });
    fs.writeFileSync(path.join(root, 'tasks', id, 'task.json'), json.replace('"id": "t1"', `"id": "${id}"`).replace('Add a greeting', `Greeting ${id}`));
  }
  const write = (task: string, attempt: string, body: object) => fs.writeFileSync(path.join(root, 'tasks', task, 'attempts', attempt, 'attempt.json'), JSON.stringify(body));
  write('t1', 'a1', { model: 'gpt-test', agent: 'swe-agent', recordedResults: resolved(true) });
  write('t1', 'a2', { model: 'other-model', agent: 'mini-swe-agent', patch: 'fix.diff', recordedResults: resolved(false) });
  write('t2', 'a1', { model: 'gpt-test', agent: 'swe-agent', recordedResults: resolved(false) });
  write('t2', 'a2', { model: 'other-model', agent: 'mini-swe-agent', patch: 'fix.diff', recordedResults: resolved(false) });
  return root;
}

describe('Solve rates in the Candidates tree and the statistics', () => {
  let a: SpecWeaveApi;
  const config = () => vscode.workspace.getConfiguration('specweave');

  before(async () => {
    a = await api();
    await openDataset(a, ratedDataset());
    await until('the curation store', () => a.owner.store !== undefined, 15_000);
  });

  after(async () => {
    await config().update('difficulty.band', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('specweave.candidates.clearFilter');
    await vscode.commands.executeCommand('specweave.candidates.sort', 'id');
  });

  const node = (taskId: string): CandidateNode => {
    const n = a.tree.getChildren(a.tree.getChildren()[0]).find((c) => c.kind === 'task' && c.taskId === taskId);
    assert.ok(n, `${taskId} in the tree`);
    return n;
  };
  /** The tooltip's text as the user reads it (appendText escapes markup and writes spaces as &nbsp;). */
  const plain = (m: vscode.MarkdownString) => m.value.replace(/&nbsp;/g, ' ').replace(/\\/g, '').replace(/\s*\n\s*/g, ' ');
  const description = (taskId: string) => a.tree.getTreeItem(node(taskId)).description;

  it('each task row says how many of its attempts with a verdict are solved; the tooltip gives the rate per model', () => {
    assert.equal(description('t1'), 'candidate · 2 specs · 2 tests · 2 attempts · solved 1/2 · Add a greeting');
    assert.equal(description('t2'), 'candidate · 2 specs · 2 tests · 2 attempts · solved 0/2 · Greeting t2');
    assert.equal(description('t3'), 'candidate · 2 specs · 2 tests · 2 attempts · Greeting t3', 'no verdict, no rate');
    const tip = a.tree.resolveTreeItem(a.tree.getTreeItem(node('t1')), node('t1')).tooltip;
    assert.ok(tip instanceof vscode.MarkdownString);
    const text = plain(tip);
    assert.match(text, /Solve rate: 50% \(1\/2\) of the attempts with a verdict · in the band 0\.\.1/);
    assert.match(text, /gpt-test: 100% \(1\/1\)/);
    assert.match(text, /other-model: 0% \(0\/1\)/);
    const t3 = a.tree.resolveTreeItem(a.tree.getTreeItem(node('t3')), node('t3')).tooltip as vscode.MarkdownString;
    assert.match(plain(t3), /no attempt has a verdict yet \(2 without a verdict\)/);
  });

  it('the mixed-success filter keeps the tasks in the band and follows the band setting; a band it cannot read falls back to the default', async () => {
    assert.equal(await vscode.commands.executeCommand('specweave.candidates.filter', { mixedSuccess: true }), 1);
    assert.deepEqual(a.tree.visibleTaskIds(), ['t1']);
    await config().update('difficulty.band', '[0,0.5]', vscode.ConfigurationTarget.Global);
    await until('the inclusive band in the tree', () => a.tree.visibleTaskIds().join() === 't1,t2', 15_000);
    assert.deepEqual(a.tree.band, { low: 0, high: 0.5, inclusive: true });
    await config().update('difficulty.band', '0.9..0.1', vscode.ConfigurationTarget.Global);
    await until('the default band again', () => a.tree.visibleTaskIds().join() === 't1', 15_000);
    assert.deepEqual(a.tree.band, { low: 0, high: 1 });
    const stats = a.curation.curationPanels.model('stats');
    assert.ok(stats.view === 'stats');
    assert.match(stats.stats.solveRates?.bandProblem ?? '', /^specweave\.difficulty\.band "0\.9\.\.0\.1": LOW and HIGH must be shares from 0 to 1/);
    await config().update('difficulty.band', undefined, vscode.ConfigurationTarget.Global);
    await until('the band problem gone', () => {
      const m = a.curation.curationPanels.model('stats');
      return m.view === 'stats' && m.stats.solveRates !== undefined && m.stats.solveRates.bandProblem === undefined;
    }, 15_000);
    assert.equal(await vscode.commands.executeCommand('specweave.candidates.clearFilter'), 3);
  });

  it('sorts by solve rate, lowest first, tasks without a verdict last', async () => {
    await vscode.commands.executeCommand('specweave.candidates.sort', 'solveRate');
    assert.deepEqual(a.tree.visibleTaskIds(), ['t2', 't1', 't3']);
    await vscode.commands.executeCommand('specweave.candidates.sort', 'id');
  });

  it('the statistics panel has the funnel imported -> with verdicts -> in the band -> reviewed -> approved and the rates per model', () => {
    const m = a.curation.curationPanels.model('stats');
    assert.ok(m.view === 'stats');
    const s = m.stats.solveRates;
    assert.ok(s, 'solve rates in the statistics');
    assert.deepEqual(s.funnel, { imported: 3, measured: 2, inBand: 1, reviewed: 0, approved: 0 });
    assert.deepEqual(s.tasks, { unmeasured: 1, neverSolved: 1, inBand: 1, alwaysSolved: 0, otherOutside: 0 });
    assert.deepEqual(
      s.models.map((x) => [x.model, x.solved, x.attempts]),
      [
        ['gpt-test', 1, 2],
        ['other-model', 0, 2],
      ],
    );
  });
});
