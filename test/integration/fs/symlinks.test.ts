// Symlinks that lead out of a dataset, made for real: nothing is read through them, nothing is written through them,
// and `validate` names each one. Each case failed on the code before the one path helper (datasetPaths.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CurationStore } from '../../../src/app/curationStore';
import { loadRepairContext } from '../../../src/app/repairContext';
import type { SaveInput } from '../../../src/adapters/fs/repairStore';
import { listSuggestions, saveSuggestion } from '../../../src/adapters/fs/repairStore';
import { listTaskRuns, saveRun } from '../../../src/adapters/fs/runStore';
import { readTrajectory } from '../../../src/adapters/fs/trajectoryReader';
import { formatEventLine } from '../../../src/core/review/events';
import type { ReviewEvent } from '../../../src/core/review/events';
import type { VerifierRunRecord } from '../../../src/core/verify/runResult';
import { tmpDir } from '../../unit/helpers/tmp';
import { appendEvents, cli, labelDraft, outside, tinyDataset, tree } from './helpers';

const labelArgs = (ds: string) => ['label', ds, 't1', '--attempt', 'a1', '--spec', 'S1', '--verdict', 'satisfied', '--curator', 'ada'];

/** An event line for an outside log, as a writer would have made it. */
function eventLine(kind: 'approve' | 'label', n: number): string {
  const e = {
    id: `01KA00000000000000000000${String(n).padStart(2, '0')}`,
    time: `2026-01-01T00:00:0${n}.000Z`,
    curator: 'mallory',
    task: 't1',
    revision: 1,
    kind,
    payload: kind === 'approve' ? { waivers: [], runs: [] } : { attempt: 'a1', spec: 'S1', verdict: 'violated', evidence: [] },
  } as ReviewEvent;
  return formatEventLine(e);
}

test('label refuses to append through curation/ or curation/events.jsonl symlinked out of the dataset', () => {
  for (const which of ['folder', 'file'] as const) {
    const ds = tinyDataset();
    const out = outside();
    const outsideLog = out.file('events.jsonl', `${eventLine('label', 1)}\n`);
    if (which === 'folder') fs.symlinkSync(out.dir, path.join(ds, 'curation'));
    else {
      fs.mkdirSync(path.join(ds, 'curation'));
      fs.symlinkSync(outsideLog, path.join(ds, 'curation/events.jsonl'));
    }
    const before = tree(out.dir);
    const r = cli(labelArgs(ds));
    assert.equal(r.code, 1, `${which}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /curation(\/events\.jsonl)?: is a symlink/, which);
    assert.match(r.stderr, /NOT recorded/, which);
    assert.deepEqual(tree(out.dir), before, `${which}: the outside folder is unchanged`);
  }
});

test('a read-only list neither reads an outside review log nor writes anything, inside or out', () => {
  const ds = tinyDataset();
  const out = outside();
  out.file('events.jsonl', `${eventLine('approve', 1)}\nnot json at all\n`);
  fs.symlinkSync(out.dir, path.join(ds, 'curation'));
  const before = tree(out.dir);
  const r = cli(['list', ds, '--json']);
  assert.deepEqual((JSON.parse(r.stdout) as Array<{ status: string }>).map((t) => t.status), ['candidate'], 'the outside approval is not read');
  assert.match(r.stderr, /^curation: error: is a symlink that leads outside the dataset folder/m);
  assert.deepEqual(tree(out.dir), before, 'no events.rejected.jsonl (or anything) outside');

  // A bad line in a log that is inside: list reports it and writes nothing either.
  const ds2 = tinyDataset();
  fs.mkdirSync(path.join(ds2, 'curation'));
  fs.writeFileSync(path.join(ds2, 'curation/events.jsonl'), 'not json at all\n');
  const inside = tree(ds2);
  const r2 = cli(['list', ds2]);
  assert.match(r2.stderr, /curation\/events\.jsonl:1: error: malformed JSON/);
  assert.deepEqual(tree(ds2), inside, 'list wrote nothing (no events.rejected.jsonl)');
});

function runRecord(runId: string): VerifierRunRecord {
  return {
    format: 1,
    runId,
    taskId: 't1',
    taskRevision: 1,
    attemptId: 'a1',
    repeat: 1,
    status: 'passed',
    inputs: { key: 'k' },
    grade: { resolved: true },
    stdout: { totalBytes: 2, headBytes: 2, tailBytes: 0, cutBytes: 0 },
    stderr: { totalBytes: 0, headBytes: 0, tailBytes: 0, cutBytes: 0 },
  } as unknown as VerifierRunRecord;
}

test("verify's run store writes no run through runs/ or a run folder symlinked out, and reads none from there", async () => {
  for (const link of ['runs', 'runs/t1', 'runs/t1/a1'] as const) {
    const ds = tinyDataset();
    const out = outside();
    // An outside run that says the attempt passed: it must not count.
    out.file('a1/20260101T000000000Z-aaaaaa.json', JSON.stringify(runRecord('20260101T000000000Z-aaaaaa')));
    const target = link === 'runs/t1/a1' ? path.join(out.dir, 'a1') : link === 'runs/t1' ? out.dir : tmpDirWith(out.dir);
    fs.mkdirSync(path.join(ds, path.dirname(link)), { recursive: true });
    fs.symlinkSync(target, path.join(ds, link));
    const before = tree(out.dir);
    await assert.rejects(
      saveRun(ds, runRecord('20260102T000000000Z-bbbbbb'), { stdout: { head: Buffer.from('ok'), tail: Buffer.alloc(0) }, stderr: { head: Buffer.alloc(0), tail: Buffer.alloc(0) } }),
      (e: Error) => new RegExp(`${link.replace(/\//g, '\\/')}: is a symlink`).test(e.message),
      link,
    );
    assert.deepEqual(tree(out.dir), before, `${link}: nothing written outside`);
    assert.equal(listTaskRuns(ds, 't1').get('a1')?.length ?? 0, 0, `${link}: the outside run is not read`);
    const store = CurationStore.open(ds);
    assert.equal(store.verifier('t1')?.attempts.a1?.source === 'run', false, `${link}: no verdict from the outside run`);
  }
});

/** A folder holding `t1` -> dir, for a symlinked runs/ whose task folder is the outside one. */
function tmpDirWith(dir: string): string {
  const d = tmpDir('sw-outside-runs-');
  fs.symlinkSync(dir, path.join(d, 't1'));
  return d;
}

test('repair suggestions are not written through curation/suggestions symlinked out, nor read from there', () => {
  const ds = tinyDataset();
  const out = outside();
  fs.mkdirSync(path.join(ds, 'curation'));
  fs.symlinkSync(out.dir, path.join(ds, 'curation/suggestions'));
  const input = {
    record: { format: 1, id: '20260101T000000000Z-cccccc', task: 't1', revision: 1, status: 'failed', createdAt: '2026-01-01T00:00:00.000Z', curator: 'ada', prompt: { file: 'prompt.md' } },
    files: [],
    promptDoc: 'the prompt',
  } as unknown as SaveInput;
  assert.throws(() => saveSuggestion(ds, input), /curation\/suggestions: is a symlink/);
  assert.deepEqual(tree(out.dir), {}, 'nothing written outside');
  // One planted outside is not listed.
  out.file('t1/20260101T000000000Z-dddddd/suggestion.json', JSON.stringify({ ...input.record, id: '20260101T000000000Z-dddddd', files: [] }));
  assert.deepEqual(listSuggestions(ds, 't1'), []);
});

test('a tasks/ folder symlinked out of the dataset loads no task, and validate names it', () => {
  const ds = tinyDataset();
  const out = outside();
  fs.renameSync(path.join(ds, 'tasks'), path.join(out.dir, 'tasks'));
  fs.symlinkSync(path.join(out.dir, 'tasks'), path.join(ds, 'tasks'));
  const list = cli(['list', ds, '--json']);
  assert.deepEqual(JSON.parse(list.stdout), [], 'the outside tasks are not loaded');
  assert.match(list.stderr, /^tasks: error: is a symlink that leads outside the dataset folder/m);
  assert.equal(list.code, 1);
  const v = cli(['validate', ds]);
  assert.equal(v.code, 1);
  assert.match(v.stdout, /^tasks: error: is a symlink that leads outside the dataset folder/m);
});

/** The tiny dataset with a git clone of its repository and an ATIF trajectory on attempt a1. */
function datasetWithAtif(): { ds: string; attemptDir: string } {
  const ds = tinyDataset();
  const repo = path.join(tmpDir('sw-repo-'), 'hello');
  fs.mkdirSync(path.join(repo, 'tests'), { recursive: true });
  fs.writeFileSync(path.join(repo, 'hello.py'), '"""Greetings."""\n');
  fs.writeFileSync(path.join(repo, 'tests/test_hello.py'), 'def test_existing():\n    assert True\n');
  const git = (...a: string[]) => execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@e', ...a], { encoding: 'utf8' }).trim();
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'base');
  const head = git('rev-parse', 'HEAD');
  const taskFile = path.join(ds, 'tasks/t1/task.json');
  const task = JSON.parse(fs.readFileSync(taskFile, 'utf8')) as { repo: { path: string; baseCommit: string } };
  task.repo.path = repo;
  task.repo.baseCommit = head;
  fs.writeFileSync(taskFile, JSON.stringify(task, null, 2));
  const attemptDir = path.join(ds, 'tasks/t1/attempts/a1');
  fs.writeFileSync(path.join(attemptDir, 'attempt.json'), JSON.stringify({ model: 'gpt-test', agent: 'terminus-2', trajectory: 'trajectory.json' }));
  const fix = path.join(__dirname, '../../fixtures/trajectories/atif-continued/trajectory.json');
  fs.copyFileSync(fix, path.join(attemptDir, 'trajectory.json'));
  return { ds, attemptDir };
}

test('an ATIF continued_trajectory_ref that is a symlink out of the dataset is not followed: not read, not in the repair prompt, an error in validate', async () => {
  const { ds, attemptDir } = datasetWithAtif();
  const out = outside();
  const secret = 'OUTSIDE-SECRET-7f3a';
  const cont = JSON.parse(fs.readFileSync(path.join(__dirname, '../../fixtures/trajectories/atif-continued/trajectory.cont-1.json'), 'utf8')) as { steps: Array<{ message?: string }> };
  for (const s of cont.steps) if (typeof s.message === 'string') s.message = `${secret} ${s.message}`;
  const target = out.file('trajectory.cont-1.json', JSON.stringify(cont));
  fs.symlinkSync(target, path.join(attemptDir, 'trajectory.cont-1.json'));
  const rel = 'tasks/t1/attempts/a1/trajectory.cont-1.json';

  const r = await readTrajectory(path.join(attemptDir, 'trajectory.json'), { fileLabel: 'tasks/t1/attempts/a1/trajectory.json', datasetRoot: ds });
  assert.ok(r.ok);
  assert.ok(!JSON.stringify(r.trajectory.steps).includes(secret), 'the continuation was not read');
  assert.ok(r.problems.some((p) => p.severity === 'error' && p.file === rel && /symlink that leads outside/.test(p.message)), JSON.stringify(r.problems));

  const store = CurationStore.open(ds);
  const ctx = await loadRepairContext(store, 't1');
  assert.ok(ctx.trajectories.has('a1'), 'the trajectory itself is read');
  assert.ok(!JSON.stringify([...ctx.trajectories.values()]).includes(secret), 'its outside continuation does not reach the repair prompt');

  const v = cli(['validate', ds]);
  assert.equal(v.code, 1, v.stdout);
  assert.match(v.stdout, new RegExp(`^${rel.replace(/\//g, '\\/').replace(/\./g, '\\.')}: error: .*symlink.*outside`, 'm'));
  assert.doesNotMatch(v.stdout, /continuation .*ignored|it is ignored/);
});

test('show on a patch.diff symlinked out of the dataset says so, naming the file, without a stack trace', () => {
  const ds = tinyDataset();
  const out = outside();
  const p = path.join(ds, 'tasks/t1/attempts/a1/patch.diff');
  fs.renameSync(p, path.join(out.dir, 'patch.diff'));
  fs.symlinkSync(path.join(out.dir, 'patch.diff'), p);
  const r = cli(['show', ds, 't1']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /^tasks\/t1\/attempts\/a1\/patch\.diff: error: is a symlink that leads outside the dataset folder/m);
  assert.doesNotMatch(r.stderr, /at \w+ \(|DatasetFileError/);
  assert.match(r.stdout, /^a2\s/m, 'the rest of the task is shown');
});

test('validate names every symlink that leads out of the dataset', async () => {
  const ds = tinyDataset();
  await appendEvents(ds, [labelDraft('ada')]);
  const out = outside();
  fs.mkdirSync(path.join(ds, 'runs'));
  fs.symlinkSync(out.dir, path.join(ds, 'runs/t1'));
  fs.symlinkSync(out.dir, path.join(ds, 'curation/suggestions'));
  fs.symlinkSync(out.file('notes.md', 'x'), path.join(ds, 'tasks/t1/notes.md'));
  const v = cli(['validate', ds, '--json']);
  const problems = (JSON.parse(v.stdout) as { problems: Array<{ file: string; severity: string; message: string }> }).problems.filter((p) => /symlink/.test(p.message));
  assert.deepEqual(
    problems.map((p) => [p.file, p.severity]),
    [
      ['curation/suggestions', 'error'],
      ['runs/t1', 'error'],
      ['tasks/t1/notes.md', 'error'],
    ],
  );
});

test('import into a dataset whose tasks/ is symlinked out writes nothing there and says why', () => {
  const ds = tinyDataset();
  const out = outside();
  fs.renameSync(path.join(ds, 'tasks'), path.join(out.dir, 'tasks'));
  fs.symlinkSync(path.join(out.dir, 'tasks'), path.join(ds, 'tasks'));
  const before = tree(out.dir);
  const r = cli(['import', 'swebench', '--instances', path.join(__dirname, '../../fixtures/import/instances-crlf-bom.jsonl'), '--out', ds]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout + r.stderr, /tasks: error: is a symlink; SpecWeave writes nothing through a symlink.*nothing was written/);
  assert.doesNotMatch(r.stderr, /at \w+ \(/);
  assert.deepEqual(tree(out.dir), before);
});
