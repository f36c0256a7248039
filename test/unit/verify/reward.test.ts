// Harbor's verifier contract in our verifier: the reward the tests write decides, read from the files after the run;
// the test and gold patches of a Harbor task are unpacked to /tests and /solution instead of applied; the gold probe
// runs the solution script first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { driverScript, parsePrelude } from '../../../src/adapters/docker/driver';
import type { RunSpecInput } from '../../../src/adapters/docker/runSpec';
import { describeRun } from '../../../src/adapters/docker/runSpec';
import { VerifierService, VerifyRequestError } from '../../../src/adapters/docker/verifyService';
import { addedFilesPatch } from '../../../src/core/addedFiles';
import type { CandidateTask } from '../../../src/core/model';
import { judgeRun } from '../../../src/core/verify/judge';
import type { ExecutionOutcome } from '../../../src/core/verify/judge';
import { REWARD_JSON, REWARD_TXT, readReward } from '../../../src/core/verify/parseReward';
import { tmpDir } from '../helpers/tmp';

test('the reward files: one number, a JSON object, both (they must agree), none, empty, not a number', () => {
  const ok = (files: Record<string, string | undefined>) => {
    const r = readReward(files);
    assert.ok(r.ok, r.ok ? '' : r.reason);
    return r;
  };
  assert.equal(ok({ [REWARD_TXT]: '1\n' }).reward, 1);
  assert.equal(ok({ [REWARD_TXT]: ' 0.25 ' }).reward, 0.25);
  const both = ok({ [REWARD_TXT]: '1', [REWARD_JSON]: '{"reward": 1.0, "correctness": 0.5, "note": "x"}' });
  assert.deepEqual(both.rewards, { reward: 1, correctness: 0.5 });
  assert.match(both.notes.join(), /non-numeric field\(s\) note ignored/);
  // Newer Harbor: a reward.json without `reward` takes the scalar from reward.txt.
  assert.deepEqual(ok({ [REWARD_TXT]: '0', [REWARD_JSON]: '{"partial": 0.5}' }).rewards, { partial: 0.5, reward: 0 });
  const bad: Array<[Record<string, string | undefined>, RegExp]> = [
    [{}, /wrote no reward/],
    [{ [REWARD_TXT]: '' }, /reward\.txt is empty/],
    [{ [REWARD_TXT]: 'PASSED' }, /does not hold a number/],
    [{ [REWARD_JSON]: '[1]' }, /must be an object/],
    [{ [REWARD_JSON]: '{"score": 1}' }, /names no "reward"/],
    [{ [REWARD_TXT]: '1', [REWARD_JSON]: '{"reward": 0}' }, /says 1 but .* says reward 0/],
    [{ [REWARD_TXT]: 'nan' }, /not a finite number/],
  ];
  for (const [files, re] of bad) {
    const r = readReward(files);
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.reason, re);
  }
});

const task = {
  specs: [{ id: 'S1', text: 'fixed', category: 'other', dependsOn: [] }],
  tests: [{ id: 'T1', name: 'reward', kind: 'fail_to_pass' as const, specs: ['S1'] }],
  verifier: { parser: 'reward' },
};
const ran = (files: Record<string, string | undefined>, exitCode = 0): ExecutionOutcome => ({
  apply: { test: { method: 'unpacked' }, attempt: { method: 'empty' } },
  exitCode,
  timedOut: false,
  oomKilled: false,
  stdoutText: 'PASSED tests/test_outputs.py::test_fake\n1 passed in 0.1s\n',
  stderrText: '',
  outputFiles: files,
});

test('a reward of 1 resolves whatever the exit code and the log say; 0 fails; a missing reward is invalid', () => {
  const pass = judgeRun(task, ran({ [REWARD_TXT]: '1\n', [REWARD_JSON]: undefined }, 1));
  assert.equal(pass.status, 'passed');
  assert.equal(pass.testsFrom, 'reward');
  assert.deepEqual(pass.grade.tests, { reward: 'PASSED' });
  assert.equal(pass.specs.S1, 'pass');
  assert.match(pass.reason, /reward 1 from \/logs\/verifier\/reward\.txt; the tests exited with code 1/);

  const fail = judgeRun(task, ran({ [REWARD_TXT]: '0\n' }));
  assert.equal(fail.status, 'failed');
  assert.deepEqual(fail.grade.failToPass.failure, ['reward']);

  // The log's PASSED lines are not what grades a reward task: without a reward file nothing is graded.
  const none = judgeRun(task, ran({ [REWARD_TXT]: undefined, [REWARD_JSON]: undefined }));
  assert.equal(none.status, 'invalid');
  assert.match(none.reason, /wrote no reward/);

  // A listed test named like a reward key takes that key's verdict; the rest take the deciding reward's.
  const two = judgeRun(
    { ...task, tests: [...task.tests, { id: 'T2', name: 'style', kind: 'pass_to_pass' as const, specs: [] }, { id: 'T3', name: 'tests/x.py::t', kind: 'pass_to_pass' as const, specs: [] }] },
    ran({ [REWARD_JSON]: '{"reward": 1, "style": 0}' }),
  );
  assert.deepEqual(two.grade.tests, { reward: 'PASSED', style: 'FAILED', 'tests/x.py::t': 'PASSED' });
});

const harborRun: RunSpecInput = {
  runId: '20260101T000000000Z-abc123',
  taskId: 'count-fix',
  attemptId: 'gold',
  image: 'specweave-harbor/count-fix:abc',
  imageUser: '',
  repoKind: 'image',
  workdir: '/app',
  limits: { memoryMb: 512, cpus: 1, pids: 128 },
  timeoutSec: 60,
  verifier: { command: 'bash /tests/test.sh', parser: 'reward', unpackTo: '/', goldCommand: 'bash /solution/solve.sh' },
  unpacked: { test: true, attempt: true },
  preCommand: 'bash /solution/solve.sh',
  owner: { pid: 1, host: 'box' },
  createdAt: 0,
};

test('a reward run reads the reward files back, and the gold probe runs the solution before the tests', () => {
  const d = describeRun(harborRun);
  assert.deepEqual(d.outputFiles, [REWARD_TXT, REWARD_JSON]);
  assert.match(d.driver, /echo "@@SPECWEAVE apply test unpacked"/);
  assert.match(d.driver, /echo "@@SPECWEAVE apply attempt unpacked"/);
  assert.match(d.driver, /rm -f -- '\/logs\/verifier\/reward\.txt'/);
  const lines = d.command.split('\n');
  assert.ok(lines.indexOf('( bash /solution/solve.sh') < lines.indexOf('bash /tests/test.sh'), d.command);
  // Attempts and the empty probe run the tests alone.
  const empty = describeRun({ ...harborRun, attemptId: 'empty', unpacked: { test: true }, preCommand: undefined });
  assert.equal(empty.command, 'bash /tests/test.sh\n');
  assert.ok(empty.driver.includes('&& apply attempt && restore_all "$@" && echo "@@SPECWEAVE apply test unpacked"'), 'the attempt applied, the unpacked tests not touched');
});


test('the driver reports unpacked patches, removes planted reward files and runs the solution first', () => {
  const work = tmpDir();
  const inDir = tmpDir();
  const logs = path.join(tmpDir(), 'logs', 'verifier');
  const reward = path.join(logs, 'reward.txt');
  fs.mkdirSync(logs, { recursive: true });
  fs.writeFileSync(reward, '1\n'); // planted before the tests
  fs.writeFileSync(path.join(inDir, 'test.patch'), '');
  fs.writeFileSync(path.join(inDir, 'attempt.patch'), '');
  const d = describeRun({ ...harborRun, workdir: work });
  fs.writeFileSync(path.join(inDir, 'command.sh'), d.command.replaceAll('bash /solution/solve.sh', 'echo solved > solved.txt').replace('bash /tests/test.sh', `test -f solved.txt && test ! -f ${reward} && echo ok`));
  fs.writeFileSync(path.join(inDir, 'run.sh'), driverScript({ workdir: work, timeoutSec: 20, killAfterSec: 1, inputDir: inDir, unpacked: { test: true, attempt: true }, outputFiles: [reward] }));
  const r = spawnSync('sh', [path.join(inDir, 'run.sh')], { encoding: 'utf8' });
  assert.equal(r.status, 0, JSON.stringify(r.stdout + r.stderr));
  const [prelude, after] = r.stdout.split('@@SPECWEAVE tests-begin@@\n');
  assert.deepEqual(parsePrelude(prelude ?? ''), { test: { method: 'unpacked' }, attempt: { method: 'unpacked' } });
  assert.match(after ?? '', /\[specweave\] the gold probe runs first: echo solved > solved\.txt\n\[specweave\] that step exited with code 0; the verifier command follows\nok\n/);
});

test('unpacking: add-only patches become archive files with their modes; anything else is refused before a run', () => {
  const service = new VerifierService({ datasetRoot: tmpDir(), engine: { host: 'unix:///nonexistent.sock' }, persist: false });
  const task = {
    id: 'count-fix',
    verifier: { command: 'bash /tests/test.sh', parser: 'reward', unpackTo: '/', goldCommand: 'bash /solution/solve.sh' },
  } as unknown as CandidateTask;
  const testPatch = Buffer.from(addedFilesPatch([{ path: 'test.sh', content: Buffer.from('echo 1\n'), executable: true }], 'tests/'));
  const gold = Buffer.from(addedFilesPatch([{ path: 'solve.sh', content: Buffer.from('true\n'), executable: false }], 'solution/'));
  const g = service.unpackedFiles({ task, attemptId: 'gold' }, testPatch, gold);
  assert.deepEqual(g.files.map((f) => [f.name, f.mode, String(f.data)]), [['tests/test.sh', 0o755, 'echo 1\n'], ['solution/solve.sh', 0o644, 'true\n']]);
  assert.equal(g.test && g.attempt, true);
  // Attempts' patches are applied in the workdir as usual.
  const a = service.unpackedFiles({ task, attemptId: 'a1' }, testPatch, Buffer.from('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n'));
  assert.deepEqual([a.files.length, a.test, a.attempt], [1, true, false]);
  const edited = Buffer.from('diff --git a/tests/test.sh b/tests/test.sh\n--- a/tests/test.sh\n+++ b/tests/test.sh\n@@ -1 +1 @@\n-echo 1\n+echo 0\n');
  assert.throws(() => service.unpackedFiles({ task, attemptId: 'empty' }, edited, Buffer.alloc(0)), (e: Error) => e instanceof VerifyRequestError && /test patch cannot be unpacked to \/ \(line 2: this file already exists/.test(e.message));
  const intoDriver = Buffer.from(addedFilesPatch([{ path: 'run.sh', content: Buffer.from('x\n'), executable: true }], '.specweave/'));
  assert.throws(() => service.unpackedFiles({ task, attemptId: 'empty' }, intoDriver, Buffer.alloc(0)), /adds \/\.specweave\/run\.sh, inside the verifier's own/);
  const relative = { ...task, verifier: { ...task.verifier, unpackTo: '/tests/../etc' } } as CandidateTask;
  assert.throws(() => service.unpackedFiles({ task: relative, attemptId: 'empty' }, testPatch, Buffer.alloc(0)), /must be an absolute folder without "\.\."/);
});
