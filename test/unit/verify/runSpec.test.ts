// The run description (hardening, user, labels, deadlines) and the driver script, run here with the host's sh.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { HARNESS_REPORT_PATH, TESTS_BEGIN_MARKER, driverScript, parsePrelude, shQuote, testPatchPaths } from '../../../src/adapters/docker/driver';
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
    Ulimits: [
      { Name: 'core', Soft: 0, Hard: 0 },
      { Name: 'fsize', Soft: 2048 * 1024 * 1024, Hard: 2048 * 1024 * 1024 },
    ],
  });
  assert.equal(d.diskLimitBytes, 2048 * 1024 * 1024, 'limits.diskMb defaults to 2 GiB');
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
  // The watchdog's stdin: open while the client is attached, closed by the engine when it goes.
  assert.deepEqual([c.AttachStdin, c.OpenStdin, c.StdinOnce], [true, true, true]);
  assert.match(d.driver, /^exec 3<&0 <\/dev\/null$/m);
  assert.deepEqual(c.Entrypoint, ['/bin/sh']);
  assert.deepEqual(c.Cmd, ['/.specweave/run.sh']);
  assert.equal(c.HostConfig?.AutoRemove, false);
  assert.equal(c.name, 'specweave-20260101T000000000Z-abc123');
  assert.equal(c.HostConfig?.StorageOpt, undefined, 'a storage quota only when asked for (the engine may have none)');
});

test('the disk limit: every file capped at it, a storage quota of upload + limit when the engine has quotas', () => {
  const d = describeRun({ ...input, limits: { ...input.limits, diskMb: 64 } });
  assert.equal(d.diskLimitBytes, 64 * 1024 * 1024);
  assert.deepEqual(d.hostConfig.Ulimits.find((u) => u.Name === 'fsize'), { Name: 'fsize', Soft: 64 * 1024 * 1024, Hard: 64 * 1024 * 1024 });
  assert.deepEqual(createOptions(d, { storageQuotaBytes: 1000 + d.diskLimitBytes }).HostConfig?.StorageOpt, { size: String(1000 + 64 * 1024 * 1024) });
  assert.throws(() => describeRun({ ...input, limits: { ...input.limits, diskMb: 0 } }), /limits.diskMb must be positive/);
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

function runDriver(
  files: Record<string, string>,
  testPatch: string,
  attemptPatch: string,
  command: string,
  timeoutSec = 10,
  extra: { restorePaths?: string[]; harness?: boolean; env?: NodeJS.ProcessEnv } = {},
) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-driver-'));
  const work = path.join(dir, 'work');
  const inDir = path.join(dir, 'in');
  fs.mkdirSync(work);
  fs.mkdirSync(inDir);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(work, rel)), { recursive: true });
    fs.writeFileSync(path.join(work, rel), text);
  }
  fs.writeFileSync(path.join(inDir, 'test.patch'), testPatch);
  fs.writeFileSync(path.join(inDir, 'attempt.patch'), attemptPatch);
  fs.writeFileSync(path.join(inDir, 'command.sh'), command);
  const harnessReportPath = extra.harness ? path.join(dir, 'out', 'junit.xml') : undefined;
  if (harnessReportPath) {
    fs.mkdirSync(path.dirname(harnessReportPath));
    fs.writeFileSync(harnessReportPath, 'planted');
  }
  fs.writeFileSync(
    path.join(inDir, 'run.sh'),
    driverScript({ workdir: work, timeoutSec, killAfterSec: 1, junitPath: 'junit.xml', inputDir: inDir, restorePaths: extra.restorePaths ?? testPatchPaths(testPatch), harnessReportPath }),
  );
  const r = spawnSync('sh', [path.join(inDir, 'run.sh')], { encoding: 'utf8', env: extra.env ?? process.env });
  const at = r.stdout.indexOf(TESTS_BEGIN_MARKER);
  const out = { code: r.status, signal: r.signal, prelude: at < 0 ? r.stdout : r.stdout.slice(0, at), tests: at < 0 ? '' : r.stdout.slice(at + TESTS_BEGIN_MARKER.length), work, dir, harnessReportPath };
  return out;
}

/** `git diff` of `changes` against `files` (both written to a scratch repository). */
function gitDiff(files: Record<string, string>, changes: Record<string, string | null>, symlinks: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-diff-'));
  const git = (args: string[]) => spawnSync('git', ['-C', dir, '-c', 'user.email=x@y', '-c', 'user.name=x', ...args], { encoding: 'utf8' });
  git(['init', '-q']);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  git(['add', '-A']);
  git(['commit', '-q', '-m', 'base', '--allow-empty']);
  for (const [rel, text] of Object.entries(changes)) {
    if (text === null) fs.rmSync(path.join(dir, rel), { recursive: true });
    else {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    }
  }
  for (const [rel, target] of Object.entries(symlinks)) {
    fs.rmSync(path.join(dir, rel), { recursive: true, force: true });
    fs.symlinkSync(target, path.join(dir, rel));
  }
  git(['add', '-A']);
  const d = git(['diff', '--cached', '--no-color', '--binary']).stdout;
  fs.rmSync(dir, { recursive: true, force: true });
  return d;
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
  assert.ok(Date.now() - t0 < 30_000, 'timeout(1) stopped the loop (it never ends by itself)');
});

test('testPatchPaths: both sides of renames, quoted names, new and deleted files, and no header taken from a hunk body', () => {
  const patch = [
    'diff --git a/tests/test_a.py b/tests/test_a.py',
    'index 1..2 100644',
    '--- a/tests/test_a.py',
    '+++ b/tests/test_a.py',
    '@@ -1,2 +1,1 @@',
    '--- a/not/a/header.py (a removed line)',
    ' context',
    'diff --git a/old name.py b/new name.py',
    'similarity index 90%',
    'rename from old name.py',
    'rename to new name.py',
    'diff --git "a/t\\303\\251st \\"q\\".py" "b/t\\303\\251st \\"q\\".py"',
    'new file mode 100644',
    '--- /dev/null',
    '+++ "b/t\\303\\251st \\"q\\".py"',
    '@@ -0,0 +1 @@',
    '+x',
    'diff --git a/gone.py b/gone.py',
    'deleted file mode 100644',
    '--- a/gone.py\t2026-01-01 00:00:00',
    '+++ /dev/null',
    '@@ -1 +0,0 @@',
    '-y',
    '--- a/../escape.py',
    '+++ b/x/../../escape.py',
    '@@ -1 +1 @@',
    '-a',
    '+b',
    '',
  ].join('\n');
  assert.deepEqual(testPatchPaths(patch).sort(), ['gone.py', 'new name.py', 'old name.py', 'tests/test_a.py', 'tést "q".py'].sort());
  assert.deepEqual(testPatchPaths(''), []);
  // A body line pair that reads like a file header counts as one: one path too many is harmless, one too few is not.
  assert.deepEqual(testPatchPaths('--- a/t.py\n+++ b/t.py\n@@ -1,2 +1,2 @@\n--- a/u.py\n+++ b/u.py\n'), ['t.py', 'u.py']);
});

test('driver: the attempt applies first, the files the test patch touches go back to base, then the test patch', () => {
  assert.ok(hasTools(), 'the driver tests need git, patch and timeout on this machine (scripts/setup-docker.sh installs them)');
  const baseFiles = { 'lib.py': 'def f():\n    return 1\n', 'tests/test_lib.py': 'def test_old():\n    assert True\n' };
  const testPatch = gitDiff(baseFiles, {
    'tests/test_lib.py': 'from lib import f\n\n\ndef test_f():\n    assert f() == 2\n',
    'tests/test_new.py': 'def test_new():\n    assert False\n',
  });
  // Made against the base commit: fixes lib.py, neuters the test file the test patch changes, adds the one it adds.
  const attempt = gitDiff(baseFiles, {
    'lib.py': 'def f():\n    return 2\n',
    'tests/test_lib.py': 'def test_f():\n    pass\n',
    'tests/test_new.py': 'def test_new():\n    pass\n',
  });
  const r = runDriver(baseFiles, testPatch, attempt, 'cat tests/test_lib.py tests/test_new.py lib.py');
  assert.deepEqual(
    r.prelude.split('\n').filter((l) => l.startsWith('@@SPECWEAVE')),
    ['@@SPECWEAVE apply attempt git-apply', '@@SPECWEAVE restore 2 file(s) the test patch touches to their base version', '@@SPECWEAVE apply test git-apply'],
  );
  assert.equal(r.tests, 'from lib import f\n\n\ndef test_f():\n    assert f() == 2\ndef test_new():\n    assert False\ndef f():\n    return 2\n');
  assert.deepEqual(parsePrelude(r.prelude), { test: { method: 'git-apply' }, attempt: { method: 'git-apply' } });
});

test('driver: a test folder the attempt turned into a symlink out of the workdir is not written through', () => {
  assert.ok(hasTools(), 'the driver tests need git, patch and timeout on this machine (scripts/setup-docker.sh installs them)');
  const baseFiles = { 'lib.py': 'x = 1\n', 'tests/test_lib.py': 'def test_old():\n    assert True\n' };
  const testPatch = gitDiff(baseFiles, { 'tests/test_lib.py': 'def test_real():\n    assert False\n' });
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-outside-'));
  fs.writeFileSync(path.join(outside, 'test_lib.py'), 'outside, untouched\n');
  const attempt = gitDiff(baseFiles, {}, { tests: outside });
  const r = runDriver(baseFiles, testPatch, attempt, 'ls -la tests; cat tests/test_lib.py');
  assert.equal(parsePrelude(r.prelude).attempt.method, 'git-apply', r.prelude);
  assert.equal(parsePrelude(r.prelude).test.method, 'git-apply', r.prelude);
  assert.match(r.tests, /def test_real/);
  assert.ok(fs.lstatSync(path.join(r.work, 'tests')).isDirectory(), 'the symlink became a folder again');
  assert.equal(fs.readFileSync(path.join(outside, 'test_lib.py'), 'utf8'), 'outside, untouched\n');
  fs.rmSync(outside, { recursive: true, force: true });
});

test('driver: paths with spaces and quotes are restored; a missing test patch restores nothing', () => {
  assert.ok(hasTools(), 'the driver tests need git, patch and timeout on this machine (scripts/setup-docker.sh installs them)');
  const name = "tests/it's a \"test\".py";
  const testPatch = gitDiff({ 'x.py': '' }, { [name]: 'real\n' });
  assert.deepEqual(testPatchPaths(testPatch), [name]);
  const attempt = gitDiff({ 'x.py': '' }, { [name]: 'fake\n' });
  const r = runDriver({ 'x.py': '' }, testPatch, attempt, `cat ${shQuote(name)}`);
  assert.equal(r.tests, 'real\n', r.prelude);
  const none = runDriver({ 'x.py': '' }, '', attempt, `cat ${shQuote(name)}`);
  assert.equal(none.tests, 'fake\n');
  assert.doesNotMatch(none.prelude, /restore/);
});

test('driver: the harness report path is cleared and PYTEST_ADDOPTS asks for it, after what the image sets', () => {
  assert.ok(hasTools(), 'the driver tests need git, patch and timeout on this machine (scripts/setup-docker.sh installs them)');
  const r = runDriver({ 'f.txt': base }, '', '', 'echo "ADDOPTS=$PYTEST_ADDOPTS"', 10, { harness: true, env: { ...process.env, PYTEST_ADDOPTS: '-p no:cacheprovider' } });
  assert.equal(r.tests, `ADDOPTS=-p no:cacheprovider --junitxml=${r.harnessReportPath}\n`);
  assert.ok(r.harnessReportPath && !fs.existsSync(r.harnessReportPath), 'a report planted there is deleted before the tests');
  const plain = runDriver({ 'f.txt': base }, '', '', 'echo "ADDOPTS=$PYTEST_ADDOPTS"', 10, { harness: true, env: { PATH: process.env.PATH } });
  assert.equal(plain.tests, `ADDOPTS=--junitxml=${plain.harnessReportPath}\n`);
  assert.equal(describeRun(input).harnessReportPath, HARNESS_REPORT_PATH);
  assert.equal(describeRun({ ...input, verifier: { command: 'x', parser: 'exitcode' } }).harnessReportPath, undefined);
  assert.doesNotMatch(describeRun({ ...input, verifier: { command: 'x', parser: 'django' } }).driver, /PYTEST_ADDOPTS/);
});

test('driver watchdog: the tests read /dev/null, and EOF on the driver\'s stdin ends the run at once', async () => {
  assert.ok(hasTools(), 'the driver tests need git, patch and timeout on this machine (scripts/setup-docker.sh installs them)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-watchdog-'));
  const work = path.join(dir, 'work');
  fs.mkdirSync(work);
  for (const f of ['test.patch', 'attempt.patch']) fs.writeFileSync(path.join(dir, f), '');
  fs.writeFileSync(path.join(dir, 'command.sh'), 'if read -r line; then echo "read: $line"; else echo "stdin: eof"; fi\nexec sleep 60\n');
  fs.writeFileSync(path.join(dir, 'run.sh'), driverScript({ workdir: work, timeoutSec: 60, killAfterSec: 1, inputDir: dir, watchdog: true }));
  // Its own process group: what the watchdog leaves on a host (no container init to take it down) is killed after.
  const p = spawn('sh', [path.join(dir, 'run.sh')], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let out = '';
  p.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => p.on('exit', (_code, signal) => resolve(signal)));
  try {
    p.stdin.write('not for the tests\n');
    const deadline = Date.now() + 10_000;
    while (!out.includes('stdin: eof') && !out.includes('read:') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.match(out, /stdin: eof/, 'the tests got /dev/null, not the watchdog\'s stdin');
    p.stdin.end();
    const signal = await Promise.race([exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), 10_000))]);
    assert.equal(signal, 'SIGKILL', 'EOF on stdin killed the run (well before its 60 s)');
  } finally {
    if (p.pid) {
      try {
        process.kill(-p.pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
