// The solver's container, against the real engine: the repository at its base commit with the history cut (no later
// commit, no other ref, no reflog, no trace of the fix), no network, a per-command timeout that says so, an output
// flood cut to head and tail, the patch taken with git diff (new files included), and nothing left behind.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../../src/adapters/docker/engine';
import { gitArchiveBody } from '../../../src/adapters/docker/repoArchive';
import { runUser } from '../../../src/adapters/docker/runSpec';
import { SolverContainer } from '../../../src/adapters/docker/solverContainer';
import { listOwned } from '../../../src/adapters/docker/sweep';
import { BASE_IMAGE, makeCalcRepo } from '../../fixtures/verify/dataset';
import { assertNoOwnedContainers, requireEngine } from '../verify/engineGuard';

let engine: Engine;
let dir: string;
let base: string;

const git = (args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });

before(async () => {
  engine = await requireEngine();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-solver-repo-'));
  base = makeCalcRepo(dir);
  // The fix, committed after the base and kept on another branch and a tag: none of it may reach the trial.
  fs.writeFileSync(path.join(dir, 'calc.py'), `${fs.readFileSync(path.join(dir, 'calc.py'), 'utf8')}\n# THE-FIX-MARKER\n`);
  git(['commit', '-qam', 'the fix THE-FIX-MARKER']);
  git(['branch', '-q', 'fix-branch']);
  git(['tag', 'v-fix']);
  git(['checkout', '-q', base]);
});

after(async () => {
  if (engine) await assertNoOwnedContainers(engine);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function startTrial(trialId: string): Promise<SolverContainer> {
  const { fileOwner } = runUser('', 'git');
  const repoBody = await gitArchiveBody(dir, base, 'repo', fileOwner);
  return SolverContainer.start(
    engine,
    { trialId, taskId: 'calc', image: BASE_IMAGE, imageUser: '', repoKind: 'git', repoBody, workdir: '/repo', limits: { memoryMb: 512, cpus: 1, pids: 256, diskMb: 256 }, owner: { pid: process.pid, host: os.hostname() } },
    { keepBytes: 4096 },
  );
}

test('a trial sees the base commit only, has no network, and gets its changes back as a patch', async () => {
  const c = await startTrial(`t1-${process.pid}`);
  try {
    const log = await c.exec('git log --all --oneline | wc -l; git for-each-ref | wc -l; git reflog | wc -l; git log --all -p | grep -c THE-FIX-MARKER; true', 30);
    assert.equal(log.exitCode, 0, log.output);
    assert.deepEqual(log.output.trim().split('\n'), ['1', '1', '0', '0'], `one commit, one ref, no reflog, no trace of the fix:\n${log.output}`);
    const net = await c.exec('python3 -c "import socket; socket.create_connection((\'10.0.0.1\', 80), timeout=3)" 2>&1; echo rc=$?; ls /sys/class/net', 30);
    assert.match(net.output, /rc=1/, net.output);
    assert.deepEqual(net.output.trim().split('\n').slice(-1), ['lo'], `only the loopback interface:\n${net.output}`);
    const edit = await c.exec("sed -i 's/return a - b/return a + b/' calc.py && printf 'x = 1\\n' > new_module.py", 30);
    assert.equal(edit.exitCode, 0, edit.output);
    const patch = await c.diff();
    assert.match(patch, /^diff --git a\/calc.py b\/calc.py/m);
    assert.match(patch, /^\+\s+return a \+ b/m);
    assert.match(patch, /^diff --git a\/new_module.py b\/new_module.py/m);
    assert.ok(!patch.includes('THE-FIX-MARKER'));
  } finally {
    await c.remove();
  }
  assert.equal((await listOwned(engine)).filter((x) => x.id === c.id).length, 0, 'the container is gone');
});

test('a command past its timeout is stopped and says so; a flood is cut to head and tail', async () => {
  const c = await startTrial(`t2-${process.pid}`);
  try {
    const slow = await c.exec('echo started; sleep 60; echo never', 2);
    assert.equal(slow.timedOut, true);
    assert.match(slow.output, /started/);
    assert.ok(!slow.output.includes('never'));
    const flood = await c.exec('head -c 5000000 /dev/zero | tr "\\0" a; echo; echo THE-END', 60);
    assert.equal(flood.exitCode, 0);
    assert.ok(flood.cutBytes > 4_000_000, `cut ${flood.cutBytes}`);
    assert.ok(flood.output.length < 10_000, `kept ${flood.output.length} characters`);
    assert.match(flood.output, /bytes cut/);
    assert.match(flood.output, /THE-END\n$/);
    // The container still works after both.
    assert.equal((await c.exec('true', 10)).exitCode, 0);
  } finally {
    await c.remove();
  }
});

test('the history cut also removes a history the image brought: later commits, branches, tags, stashes, reflogs', async () => {
  const c = await startTrial(`t3-${process.pid}`);
  try {
    const id = 'GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@a GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@a';
    const setup = await c.exec(
      [
        'set -e; mkdir /tmp/img && cd /tmp/img && git init -q',
        `echo base > f && git add f && env ${id} git commit -qm base`,
        `echo THE-FIX-MARKER > f && env ${id} git commit -qam fix && git branch fix && git tag v1`,
        `echo wip-THE-FIX-MARKER > g && git add g && env ${id} git stash -q`,
        `git reset -q --hard HEAD~1 && git log --all --oneline | wc -l`,
      ].join('\n'),
      30,
    );
    assert.equal(setup.exitCode, 0, setup.output);
    assert.ok(Number(setup.output.trim()) >= 2, `the image's history has the fix: ${setup.output}`);
    const { cutHistoryScript } = await import('../../../src/adapters/docker/solverContainer');
    const cut = await c.exec(`export ${id}; ${cutHistoryScript('/tmp/img')}`, 60);
    assert.equal(cut.exitCode, 0, cut.output);
    const after = await c.exec('cd /tmp/img && git log --all --oneline | wc -l; git for-each-ref | wc -l; git stash list | wc -l; (git log --all -p; git reflog; cat .git/packed-refs 2>/dev/null) | grep -c THE-FIX-MARKER; cat f', 30);
    assert.deepEqual(after.output.trim().split('\n'), ['1', '1', '0', '0', 'base'], after.output);
  } finally {
    await c.remove();
  }
});

test('kill -9 of the trial\'s owner: its container stops by itself, and the sweep removes it', { timeout: 120_000 }, async () => {
  const { spawn } = await import('node:child_process');
  const { sweepOrphans } = await import('../../../src/adapters/docker/sweep');
  const p = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'trialOwner.ts')], { cwd: path.resolve(__dirname, '../../..'), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  p.stdout.on('data', (d: Buffer) => (out += d.toString()));
  p.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const id = await new Promise<string>((resolve, reject) => {
    p.stdout.on('data', () => {
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(line.trim());
    });
    p.on('close', (code) => reject(new Error(`the owner ended first (${code}): ${err}`)));
  });
  const state = async () => (await listOwned(engine)).find((x) => x.id === id)?.state;
  assert.equal(await state(), 'running');
  p.kill('SIGKILL');
  // The engine's wait answers when the container stops: the event itself, with the test runner's timeout as the bound.
  const docker = await engine.docker();
  await docker.getContainer(id).wait();
  assert.notEqual(await state(), 'running');
  const swept = await sweepOrphans(engine);
  assert.ok(swept.some((s) => id.startsWith(s) || s.startsWith(id.slice(0, 12))), `swept ${swept.join(', ')}`);
  assert.equal(await state(), undefined);
});
