// Input hashes and staleness, the run store under the dataset, atomic writes, and which containers are orphans.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { isOrphan } from '../../../src/adapters/docker/sweep';
import { writeFileAtomic, writeFileAtomicSync } from '../../../src/adapters/fs/atomic';
import { findReusable, listRuns, listTaskRuns, newRunId, readRunLog, readRunLogBytes, runFolder, saveRun } from '../../../src/adapters/fs/runStore';
import { canonicalJson, runInputs, staleReasons } from '../../../src/core/verify/inputs';
import { judgeRun } from '../../../src/core/verify/judge';
import type { VerifierRunRecord } from '../../../src/core/verify/runResult';
import { selectRuns } from '../../../src/cli/verify';
import type { CandidateTask } from '../../../src/core/model';

const task: CandidateTask = {
  id: 't1',
  title: 't',
  revision: 1,
  repo: { name: 'r', kind: 'git', path: 'repos/r', baseCommit: 'abc1234' },
  environment: { image: 'img', workdir: '/repo', limits: { memoryMb: 512, cpus: 1, pids: 64 }, timeoutSec: 60 },
  specs: [{ id: 'S1', text: 's', category: 'other', dependsOn: [] }],
  tests: [{ id: 'T1', name: 't.py::a', kind: 'fail_to_pass', specs: ['S1'] }],
  verifier: { command: 'pytest -rA', parser: 'pytest' },
  notes: [],
  dir: 'tasks/t1',
  files: { task: 'tasks/t1/task.json', request: 'tasks/t1/request.md', testPatch: 'tasks/t1/tests.patch', goldPatch: 'tasks/t1/gold.patch' },
  attempts: [{ id: 'a1', model: 'm', agent: 'x', dir: 'tasks/t1/attempts/a1', patchFile: 'tasks/t1/attempts/a1/patch.diff', recordedResults: [] }],
};

test('hashes ignore key order and change with each input; staleness names what changed', () => {
  assert.equal(canonicalJson({ b: 1, a: [{ d: 2, c: undefined }] }), '{"a":[{"d":2}],"b":1}');
  const base = runInputs({ task, testPatch: 'T', attemptPatch: 'A', imageId: 'sha256:1', timeoutSec: 60 });
  assert.equal(base.key, runInputs({ task, testPatch: 'T', attemptPatch: 'A', imageId: 'sha256:1', timeoutSec: 60 }).key);
  const changed = runInputs({
    task: { ...task, verifier: { ...task.verifier, command: 'pytest' }, tests: [{ ...task.tests[0]!, kind: 'pass_to_pass' }] },
    testPatch: 'T',
    attemptPatch: 'A2',
    imageId: 'sha256:2',
    timeoutSec: 30,
  });
  assert.deepEqual(staleReasons(base, changed), [
    'attempt patch',
    'specs or tests',
    'verifier command',
    'environment (workdir, limits, timeout)',
    'image',
  ]);
  assert.deepEqual(staleReasons(base, base), []);
  assert.deepEqual(staleReasons(base, { ...base, key: 'x', imageId: '' }), [], 'an unknown current image is not compared');
});

function record(runId: string, key: string, status: VerifierRunRecord['status'] = 'passed', repeat = 1): VerifierRunRecord {
  const j = judgeRun(task, {
    apply: { test: { method: 'git-apply' }, attempt: { method: 'git-apply' } },
    exitCode: 0,
    timedOut: false,
    oomKilled: false,
    stdoutText: 'PASSED t.py::a\n',
    stderrText: '',
  });
  const inputs = runInputs({ task, testPatch: '', attemptPatch: '', imageId: 'i', timeoutSec: 60 });
  return {
    format: 1,
    runId,
    taskId: 't1',
    taskRevision: 1,
    attemptId: 'a1',
    repeat,
    ...j,
    status,
    image: 'img',
    imageId: 'i',
    apply: { test: { method: 'git-apply' }, attempt: { method: 'git-apply' } },
    driverReport: '',
    exitCode: 0,
    oomKilled: false,
    timedOut: false,
    timeoutSec: 60,
    stdout: { totalBytes: 30, headBytes: 10, tailBytes: 10, cutBytes: 10 },
    stderr: { totalBytes: 0, headBytes: 0, tailBytes: 0, cutBytes: 0 },
    inputs: { ...inputs, key },
    timings: { startedAt: new Date().toISOString(), totalMs: 5 },
  };
}

test('runs are stored under runs/<task>/<attempt>/, listed newest first, reused only when inputs match', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-store-'));
  const logs = { stdout: { head: Buffer.from('0123456789'), tail: Buffer.from([0xff, 0, 1, 2, 3, 4, 5, 6, 7, 0x80]) }, stderr: { head: Buffer.alloc(0), tail: Buffer.alloc(0) } };
  const older = await saveRun(root, record('20260101T000000000Z-aaaaaa', 'k1'), logs);
  await saveRun(root, record('20260102T000000000Z-bbbbbb', 'k2'), logs);
  await saveRun(root, record('20260103T000000000Z-cccccc', 'k1', 'infra_error'), logs);
  assert.equal(older.stdout.file, 'runs/t1/a1/20260101T000000000Z-aaaaaa.stdout.log');
  assert.deepEqual(listRuns(root, 't1', 'a1').map((r) => r.runId.slice(0, 8)), ['20260103', '20260102', '20260101']);
  assert.deepEqual(findReusable(root, 't1', 'a1', 'k1').map((r) => r.runId.slice(0, 8)), ['20260101'], 'infra errors are never reused');
  assert.deepEqual([...listTaskRuns(root, 't1').keys()], ['a1']);
  const bytes = readRunLogBytes(root, older, 'stdout');
  assert.ok(bytes.head.equals(logs.stdout.head) && bytes.tail.equals(logs.stdout.tail), 'stored byte-exact');
  assert.match(readRunLog(root, older, 'stdout'), /^0123456789\n\[\.\.\. 10 bytes cut \.\.\.\]\n/);
  assert.deepEqual(
    fs.readdirSync(path.join(root, 'runs/t1/a1')).filter((n) => n.endsWith('.tmp')),
    [],
    'no temporary files are left',
  );
  fs.writeFileSync(path.join(root, 'runs/t1/a1/zz-broken.json'), '{not json');
  assert.equal(listRuns(root, 't1', 'a1').length, 3, 'a damaged file is skipped');
  assert.throws(() => runFolder('../x', 'a'), /cannot name a folder/);
  assert.match(newRunId(new Date('2026-01-02T03:04:05.678Z')), /^20260102T030405678Z-[0-9a-f]{6}$/);
});

test('atomic writes replace the whole file and create folders', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-atomic-'));
  const f = path.join(dir, 'a', 'b.txt');
  writeFileAtomicSync(f, 'one');
  await writeFileAtomic(f, 'two', { fsync: false });
  assert.equal(fs.readFileSync(f, 'utf8'), 'two');
  assert.deepEqual(fs.readdirSync(path.dirname(f)), ['b.txt']);
});

test('orphans: our containers of dead processes on this host, or of other hosts after a day', () => {
  const labels = (pid: number, host: string, created: number) => ({ 'specweave.pid': String(pid), 'specweave.host': host, 'specweave.created': String(created) });
  const o = { hostName: 'me', now: 100_000_000, isAlive: (pid: number) => pid === 1 };
  assert.equal(isOrphan(labels(1, 'me', 0), o), false);
  assert.equal(isOrphan(labels(2, 'me', 0), o), true);
  assert.equal(isOrphan(labels(2, 'other', 99_000_000), o), false);
  assert.equal(isOrphan(labels(2, 'other', 0), o), true);
  assert.equal(isOrphan(labels(1, 'me', 0), { ...o, all: true }), true);
});

test('CLI selection: attempts bring the probes; --gold/--empty alone run just them', () => {
  const none = { attempts: [], gold: false, empty: false, all: false };
  assert.deepEqual(selectRuns(task, none).attemptIds, ['a1', 'gold', 'empty']);
  assert.deepEqual(selectRuns(task, { ...none, attempts: ['a1'] }).attemptIds, ['a1', 'gold', 'empty']);
  assert.deepEqual(selectRuns(task, { ...none, gold: true }).attemptIds, ['gold']);
  assert.deepEqual(selectRuns(task, { ...none, empty: true }).attemptIds, ['empty']);
  const noGold = { ...task, files: { ...task.files, goldPatch: undefined } };
  const r = selectRuns(noGold, { ...none, gold: true });
  assert.deepEqual(r.attemptIds, []);
  assert.match(r.notes[0] ?? '', /no gold patch/);
});

test('runs graded by the verifier before the hardening of issue 9 (version 1) are stale, never reused', () => {
  const now = runInputs({ task, testPatch: 'T', attemptPatch: 'A', imageId: 'sha256:1', timeoutSec: 60 });
  assert.equal(now.verifierVersion, 2);
  const { key: _key, ...parts } = now;
  const v1 = { ...parts, verifierVersion: 1 };
  const old = { ...v1, key: createHash('sha256').update(canonicalJson(v1)).digest('hex') };
  assert.notEqual(old.key, now.key);
  assert.deepEqual(staleReasons(old, now), ['verifier version']);
});
