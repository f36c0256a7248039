// Accepting a repair with `specweave.repair.freshTrials` inside a real extension host, against the fake OpenAI server
// and the real engine, on a copy of the example dataset: with N = 1, the default endpoint and no key, Accept is refused
// before anything is written (no new revision, no decision in the review log, the dataset unchanged byte for byte);
// with the test endpoint and a key, Accept revalidates and one fresh trial (a scripted solver that applies the
// reference fix and submits) lands as an attempt of the new revision, passes the verifier, is in the stored
// revalidation record and in the task view's Repair model as a fresh row; the task is revalidated and no container
// of this window is left. The settings are reset after.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RevalidationRecord, SuggestionRecord } from '../../../src/adapters/fs/repairStore';
import { applyFilePatch, parsePatch } from '../../../src/core/patch';
import { SUBMIT_SENTINEL } from '../../../src/core/solver/agent';
import type { SpecWeaveApi } from '../../../src/vscode/extension';
import type { AcceptCommandResult, RequestCommandResult } from '../../../src/vscode/repair/repairController';
import { FakeOpenAI } from '../../integration/repair/fakeOpenAI';
import { FN_ATTEMPT, FN_TASK, TEST_FILE, exampleDataset, goodReply, verifyAndLabel } from '../../integration/repair/prepare';
import { api, closeAllEditors, openDataset, projectRoot, until } from './helpers';

const KEY = 'sk-test-SPECWEAVE-FAKE-KEY-repairfresh-5e21c4';
const MODEL = 'gpt-4o-mini';

const tool = (n: number, command: string) => ({ kind: 'answer' as const, content: `THOUGHT: step ${n}`, toolCalls: [{ id: `call_${n}`, name: 'bash', arguments: JSON.stringify({ command }) }], usage: { prompt_tokens: 300, completion_tokens: 30 } });

const applyPatch = (patch: string, base: string): string => {
  const fp = parsePatch(patch).files.find((f) => f.newPath === TEST_FILE);
  const r = fp ? applyFilePatch(base, fp) : undefined;
  if (!r?.ok) throw new Error(`the test patch does not apply to ${TEST_FILE}`);
  return r.text;
};

async function setting(section: string, key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Global);
}

/** Every file under `dir` with a hash of its bytes: what "nothing was written" compares. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out[path.relative(dir, p)] = createHash('sha256').update(fs.readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

// Read as plain JSON: the repair store's reader pulls in a parser the bundled suite cannot load.
const suggestionFile = (root: string, sid: string, name: string): string => path.join(root, 'curation', 'suggestions', FN_TASK, sid, name);
const loadSuggestion = (root: string, sid: string): SuggestionRecord => JSON.parse(fs.readFileSync(suggestionFile(root, sid, 'suggestion.json'), 'utf8')) as SuggestionRecord;
const loadRevalidation = (root: string, sid: string): RevalidationRecord | undefined => {
  const f = suggestionFile(root, sid, 'revalidation.json');
  return fs.existsSync(f) ? (JSON.parse(fs.readFileSync(f, 'utf8')) as RevalidationRecord) : undefined;
};

/** This window's containers of the task (docker's CLI: the bundled suite cannot load the engine adapter's natives). */
function ownContainers(): string {
  const labels = ['specweave.owned', `specweave.pid=${process.pid}`, `specweave.host=${os.hostname()}`, `specweave.task=${FN_TASK}`];
  return execFileSync('docker', ['ps', '-aq', ...labels.flatMap((l) => ['--filter', `label=${l}`])], { encoding: 'utf8' }).trim();
}

describe('repair accept with fresh trials (trusted workspace)', function () {
  this.timeout(600_000);
  let a: SpecWeaveApi;
  let root: string;
  let fake: FakeOpenAI;
  let base = '';
  let sid = '';

  before(async () => {
    a = await api();
    root = exampleDataset(projectRoot());
    verifyAndLabel(projectRoot(), root);
    fake = new FakeOpenAI();
    base = await fake.start();
    await setting('specweave.repair', 'baseUrl', base);
    await setting('specweave.repair', 'model', MODEL);
    await setting('specweave.repair', 'timeoutSec', 60);
    await setting('specweave.solver', 'models', [MODEL]);
    await openDataset(a, root);
    assert.equal(await vscode.commands.executeCommand('specweave.repair.setApiKey', KEY), true);
    fake.push({ kind: 'answer', content: goodReply(root, applyPatch) });
    const r = await vscode.commands.executeCommand<RequestCommandResult>('specweave.repair.request', FN_TASK, 'tests', '');
    assert.equal(r.status, 'ready', r.message);
    sid = r.suggestion ?? '';
    assert.ok(sid);
  });

  after(async () => {
    await closeAllEditors();
    await fake.stop();
    for (const k of ['baseUrl', 'model', 'timeoutSec', 'freshTrials']) await setting('specweave.repair', k, undefined);
    await setting('specweave.solver', 'models', undefined);
    await vscode.commands.executeCommand('specweave.repair.clearApiKey');
    // The settings are as they were for the files after this one.
    assert.equal(vscode.workspace.getConfiguration('specweave.repair').inspect('freshTrials')?.globalValue, undefined);
    fs.rmSync(path.dirname(path.dirname(root)), { recursive: true, force: true });
  });

  it('freshTrials = 1 with the default endpoint and no key: Accept is refused and nothing is written', async () => {
    await vscode.commands.executeCommand('specweave.repair.clearApiKey');
    await setting('specweave.repair', 'baseUrl', undefined);
    await setting('specweave.repair', 'freshTrials', 1);
    const revision = a.dataset.task(FN_TASK)?.revision;
    assert.equal(revision, 1);
    const requests = fake.requests.length;
    const before = tree(root);
    const r = await vscode.commands.executeCommand<AcceptCommandResult>('specweave.repair.accept', FN_TASK, sid);
    assert.equal(r.accepted, false);
    assert.match(r.message ?? '', /no API key for the fresh trials/);
    assert.equal(a.dataset.task(FN_TASK)?.revision, 1, 'no new revision');
    assert.equal(loadSuggestion(root, sid).status, 'ready', 'the suggestion is still undecided');
    assert.equal(loadRevalidation(root, sid), undefined);
    assert.deepEqual(tree(root), before, 'no file of the dataset changed (task, review log, suggestion)');
    assert.equal(fake.requests.length, requests, 'the model was not called');
    const model = a.panels.model(FN_TASK, new Map());
    assert.equal(model.repair?.status, 'ready');
    assert.equal(model.review?.status === 'repaired' || model.review?.status === 'revalidated', false, model.review?.status);
  });

  it('freshTrials = 1 with a key: Accept revalidates, and the fresh trial lands on the new revision, passes, and shows as fresh', async () => {
    await setting('specweave.repair', 'baseUrl', base);
    await setting('specweave.repair', 'freshTrials', 1);
    assert.equal(await vscode.commands.executeCommand('specweave.repair.setApiKey', KEY), true);
    const gold = fs.readFileSync(path.join(root, 'tasks', FN_TASK, 'gold.patch')).toString('base64');
    fake.requests.length = 0;
    fake.push(tool(1, `echo ${gold} | base64 -d | git apply && git status --short`), tool(2, `echo ${SUBMIT_SENTINEL}`));
    const r = await vscode.commands.executeCommand<AcceptCommandResult>('specweave.repair.accept', FN_TASK, sid);
    assert.ok(r.accepted, r.message);
    assert.equal(r.to, 2);
    assert.equal(r.revalidated, true, JSON.stringify(r.matrix?.fresh));
    assert.equal(fake.requests.length, 2, 'two model calls: the fix, then the submission');
    assert.equal(fake.requests.at(-1)?.authorization, `Bearer ${KEY}`);

    // The stored record: one fresh trial, its attempt on revision 2, verified passed.
    const rec = loadRevalidation(root, sid);
    assert.ok(rec, 'the revalidation record is stored');
    assert.equal(rec.toRevision, 2);
    assert.equal(rec.fresh?.length, 1, JSON.stringify(rec.fresh));
    const trial = rec.fresh[0];
    assert.ok(trial?.attempt, JSON.stringify(rec.fresh));
    assert.equal(trial.model, MODEL);
    assert.equal(trial.exitStatus, 'Submitted', JSON.stringify(trial));
    assert.equal(trial.verdict, 'passed', JSON.stringify(trial));
    assert.ok(!rec.runs.some((x) => x.attempt === trial.attempt), 'the trial is not one of the re-run attempts');
    assert.ok(fs.existsSync(path.join(root, 'tasks', FN_TASK, 'attempts', trial.attempt, 'trajectory.traj.json')));
    await until('the task reloaded at revision 2 with the trial', () => {
      const t = a.dataset.task(FN_TASK);
      return t?.revision === 2 && t.attempts.some((x) => x.id === trial.attempt);
    }, 30_000);
    assert.equal(a.dataset.task(FN_TASK)?.attempts.find((x) => x.id === trial.attempt)?.model, MODEL);

    // The task view's Repair model: the before/after matrix keeps the re-run attempts, the trial is its fresh row.
    const model = a.panels.model(FN_TASK, new Map());
    assert.equal(model.repair?.status, 'revalidated');
    assert.equal(model.repair?.toRevision, 2);
    const m = model.repair?.matrix;
    assert.ok(m, 'the matrix is in the task view');
    assert.ok(m.attempts.includes(FN_ATTEMPT));
    assert.ok(!m.attempts.includes(trial.attempt), 'the fresh attempt is not compared as a re-run one');
    assert.equal(m.counts.after.falseNegatives, 0);
    assert.deepEqual(m.fresh?.attempts, [trial.attempt]);
    assert.equal(m.fresh?.attemptStatus?.[trial.attempt]?.after, 'passed');
    assert.deepEqual(m.fresh?.trials?.map((t) => [t.attempt, t.model, t.exitStatus, t.verdict]), [[trial.attempt, MODEL, 'Submitted', 'passed']]);
    const cells = m.fresh?.cells ?? [];
    assert.equal(cells.length, m.specs.length);
    for (const c of cells) {
      assert.equal(c.before.verifier, 'absent', `${c.spec}: nothing before a fresh trial`);
      assert.equal(c.after.verifier, 'pass', `${c.spec} after`);
    }
    assert.equal(model.review?.status, 'revalidated', 'the task is revalidated');
    assert.equal(JSON.stringify(model).includes(KEY), false, 'the task view model');
    assert.equal(ownContainers(), '', 'no container of this window is left');
  });
});
