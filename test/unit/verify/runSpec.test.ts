// The run description (hardening, user, labels, deadlines) and the driver script, run here with the host's sh.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { TESTS_BEGIN_MARKER, driverScript, parsePrelude, shQuote } from '../../../src/adapters/docker/driver';
import type { RunSpecInput } from '../../../src/adapters/docker/runSpec';
import { RunSpecError, containerName, createOptions, describeRun, runUser } from '../../../src/adapters/docker/runSpec';

const input: RunSpecInput = {
  runId: '20260101T000000000Z-abc123',
  taskId: 'task-1',
  attemptId: 'a1',
  image: 'specweave-base:bookworm',
  imageUser: '',
  repoKind: 'git',
  workdir: '/repo/',
  limits: { memoryMb: 512, cpus: 1.5, pids: 128 },
  timeoutSec: 30,
  verifier: { command: 'python3 -m pytest -rA', parser: 'pytest', junitPath: 'out/junit.xml' },
  owner: { pid: 4242, host: 'box' },
  createdAt: 1_700_000_000_000,
};

test('a run is hardened: no network, memory = memory+swap, CPU quota, pid limit, no capabilities, init, our labels', () => {
  const d = describeRun(input);
  assert.deepEqual(d.hostConfig, {
    NetworkMode: 'none',
    Memory: 512 * 1024 * 1024,
    MemorySwap: 512 * 1024 * 1024,
    NanoCpus: 1_500_000_000,
    PidsLimit: 128,
    CapDrop: ['ALL'],
    SecurityOpt: ['no-new-privileges'],
    Init: true,
    AutoRemove: false,
    Privileged: false,
    ReadonlyRootfs: false,
    LogConfig: { Type: 'none', Config: {} },
    Ulimits: [{ Name: 'core', Soft: 0, Hard: 0 }],
  });
  assert.deepEqual(d.labels, {
    'specweave.owned': '1',
    'specweave.run': input.runId,
    'specweave.task': 'task-1',
    'specweave.attempt': 'a1',
    'specweave.pid': '4242',
    'specweave.host': 'box',
    'specweave.created': '1700000000000',
  });
  assert.equal(d.workdir, '/repo');
  assert.equal(d.user, '1000:1000');
  assert.equal(d.clientDeadlineMs, 30_500);
  assert.equal(d.uploadRepo, true);
  const c = createOptions(d);
  assert.equal(c.NetworkDisabled, true);
  assert.equal(c.Tty, false);
  assert.deepEqual(c.Entrypoint, ['/bin/sh']);
  assert.deepEqual(c.Cmd, ['/.specweave/run.sh']);
  assert.equal(c.HostConfig?.AutoRemove, false);
  assert.equal(c.name, 'specweave-20260101T000000000Z-abc123');
});

test('the user: a non-root user unless the image holds the repository', () => {
  assert.deepEqual(runUser('', 'git'), { user: '1000:1000', fileOwner: { uid: 1000, gid: 1000, worldWritable: false } });
  assert.deepEqual(runUser('root', 'git').user, '1000:1000');
  assert.deepEqual(runUser('0:0', 'git').user, '1000:1000');
  assert.deepEqual(runUser('2000:3000', 'git'), { user: '2000:3000', fileOwner: { uid: 2000, gid: 3000, worldWritable: false } });
  assert.deepEqual(runUser('app', 'git'), { user: 'app', fileOwner: { uid: 0, gid: 0, worldWritable: true } });
  assert.deepEqual(runUser('', 'image').user, '');
  assert.equal(describeRun({ ...input, repoKind: 'image' }).uploadRepo, false);
});

test('bad workdirs, timeouts and JUnit paths are refused before anything runs', () => {
  assert.throws(() => describeRun({ ...input, workdir: 'repo' }), RunSpecError);
  assert.throws(() => describeRun({ ...input, workdir: '/a/../etc' }), RunSpecError);
  assert.throws(() => describeRun({ ...input, workdir: '/' }), RunSpecError);
  assert.throws(() => describeRun({ ...input, workdir: '/.specweave' }), RunSpecError);
  assert.throws(() => describeRun({ ...input, timeoutSec: 0 }), RunSpecError);
  assert.throws(() => describeRun({ ...input, verifier: { ...input.verifier, junitPath: '../x.xml' } }), RunSpecError);
  assert.equal(containerName('a/b c'), 'specweave-a-b-c');
});

test('the driver enforces the deadline itself and clears a planted JUnit report', () => {
  const s = describeRun(input).driver;
  assert.match(s, /exec timeout -k 1 30 "\$SH" "\$IN\/command.sh"/);
  assert.match(s, /rm -f -- 'out\/junit.xml'/);
  assert.equal(shQuote("it's"), `'it'\\''s'`);
});

test('parsePrelude reads each patch method and the failure detail', () => {
  const p = parsePrelude(
    '@@SPECWEAVE apply test git-apply\n@@SPECWEAVE detail attempt\ngit apply:\nerror: patch failed\n@@SPECWEAVE apply attempt failed\n',
  );
  assert.deepEqual(p, { test: { method: 'git-apply' }, attempt: { method: 'failed', detail: 'git apply:\nerror: patch failed' } });
  assert.deepEqual(parsePrelude(''), { test: { method: 'not-run' }, attempt: { method: 'not-run' } });
  assert.equal(parsePrelude('@@SPECWEAVE apply test bogus\n').test.method, 'failed');
});

// The driver is POSIX sh with git and patch: run it on the host against a scratch directory.
function hasTools(): boolean {
  return ['git', 'patch', 'timeout'].every((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status === 0);
}

function runDriver(files: Record<string, string>, testPatch: string, attemptPatch: string, command: string, timeoutSec = 10) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-driver-'));
  const work = path.join(dir, 'work');
  const inDir = path.join(dir, 'in');
  fs.mkdirSync(work);
  fs.mkdirSync(inDir);
  for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(work, rel), text);
  fs.writeFileSync(path.join(inDir, 'test.patch'), testPatch);
  fs.writeFileSync(path.join(inDir, 'attempt.patch'), attemptPatch);
  fs.writeFileSync(path.join(inDir, 'command.sh'), command);
  fs.writeFileSync(path.join(inDir, 'run.sh'), driverScript({ workdir: work, timeoutSec, killAfterSec: 1, junitPath: 'junit.xml', inputDir: inDir }));
  const r = spawnSync('sh', [path.join(inDir, 'run.sh')], { encoding: 'utf8' });
  const at = r.stdout.indexOf(TESTS_BEGIN_MARKER);
  const out = { code: r.status, signal: r.signal, prelude: at < 0 ? r.stdout : r.stdout.slice(0, at), tests: at < 0 ? '' : r.stdout.slice(at + TESTS_BEGIN_MARKER.length), work };
  return out;
}

const base = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';
const patchOf = (from: string, to: string) =>
  `--- a/f.txt\n+++ b/f.txt\n@@ -1,7 +1,7 @@\n${from
    .split('\n')
    .slice(0, 7)
    .map((l, i) => (l === to.split('\n')[i] ? ` ${l}` : `-${l}\n+${to.split('\n')[i]}`))
    .join('\n')}\n`;

test('driver: git apply, then the CRLF/fuzz fallback, then a clear failure', () => {
  assert.ok(hasTools(), 'the driver tests need git, patch and timeout on this machine (scripts/setup-docker.sh installs them)');
  const good = patchOf(base, base.replace('four', 'FOUR'));
  const ok = runDriver({ 'f.txt': base, 'junit.xml': 'planted' }, '', good, 'cat f.txt; ls');
  assert.deepEqual(parsePrelude(ok.prelude), { test: { method: 'empty' }, attempt: { method: 'git-apply' } });
  assert.match(ok.tests, /FOUR/);
  assert.doesNotMatch(ok.tests, /junit\.xml/, 'a planted JUnit report is deleted before the tests');

  const crlf = runDriver({ 'f.txt': base }, '', good.replace(/\n/g, '\r\n'), 'cat f.txt');
  assert.deepEqual(parsePrelude(crlf.prelude).attempt, { method: 'patch-fuzz' });
  assert.match(crlf.tests, /FOUR/);

  const fuzzy = runDriver({ 'f.txt': base.replace('one', 'ONE') }, '', good, 'cat f.txt');
  assert.equal(parsePrelude(fuzzy.prelude).attempt.method, 'patch-fuzz');

  const bad = runDriver({ 'f.txt': base }, '', good.replace('-four', '-forty'), 'echo SHOULD-NOT-RUN');
  const p = parsePrelude(bad.prelude);
  assert.equal(p.attempt.method, 'failed');
  assert.match(p.attempt.detail ?? '', /git apply:[\s\S]*patch --fuzz=3:/);
  assert.equal(bad.tests, '');
  assert.notEqual(bad.code, 0);
  assert.equal(fs.readFileSync(path.join(bad.work, 'f.txt'), 'utf8'), base, 'a failed patch leaves the tree as it was');
});

test('driver: the verifier exits with its own code, and timeout(1) stops it', () => {
  assert.ok(hasTools(), 'the driver tests need git, patch and timeout on this machine (scripts/setup-docker.sh installs them)');
  assert.equal(runDriver({ 'f.txt': base }, '', '', 'exit 3').code, 3);
  const t0 = Date.now();
  const slow = runDriver({ 'f.txt': base }, '', '', 'trap "" TERM; while :; do :; done', 1);
  // timeout(1) SIGKILLs its whole process group, itself included: in a container, init reports that as 137.
  assert.ok(slow.code === 137 || slow.signal === 'SIGKILL', `exit ${slow.code} / ${slow.signal}`);
  assert.ok(Date.now() - t0 < 4000);
});
