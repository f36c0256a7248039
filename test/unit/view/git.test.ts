import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitShow, isGitClone } from '../../../src/adapters/fs/git';
import { tmpDir } from '../helpers/tmp';

const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, encoding: 'utf8' }).trim();

function repo(): { dir: string; commit: string } {
  const dir = tmpDir('sw-git-');
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src/a.py'), 'x = 1\n');
  fs.writeFileSync(path.join(dir, 'big.txt'), 'y'.repeat(2 * 1024 * 1024));
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  const commit = git(dir, 'rev-parse', 'HEAD');
  fs.writeFileSync(path.join(dir, 'src/a.py'), 'x = 99  # work tree, not the commit\n');
  return { dir, commit };
}

test('reads a file at the commit, not the work tree', async () => {
  const { dir, commit } = repo();
  assert.ok(isGitClone(dir));
  assert.deepEqual(await gitShow(dir, commit, 'src/a.py'), { ok: true, text: 'x = 1\n' });
});

test('says which of clone, commit or path is missing', async () => {
  const { dir, commit } = repo();
  const missing = await gitShow(dir, commit, 'src/nope.py');
  assert.ok(!missing.ok && missing.kind === 'no-path');
  const noCommit = await gitShow(dir, 'f'.repeat(40), 'src/a.py');
  assert.ok(!noCommit.ok && noCommit.kind === 'no-commit', JSON.stringify(noCommit));
  const noClone = await gitShow(path.join(dir, 'nowhere'), commit, 'src/a.py');
  assert.ok(!noClone.ok && noClone.kind === 'no-clone');
});

test('refuses revision expressions, options and paths that leave the repository', async () => {
  const { dir, commit } = repo();
  for (const bad of ['HEAD', '--output=/tmp/x', 'HEAD~1', `${commit}^`]) {
    const r = await gitShow(dir, bad, 'src/a.py');
    assert.ok(!r.ok && r.kind === 'no-commit', bad);
  }
  for (const bad of ['../etc/passwd', '/etc/passwd', 'a\0b', '']) {
    const r = await gitShow(dir, commit, bad);
    assert.ok(!r.ok && r.kind === 'no-path', JSON.stringify(bad));
  }
});

test('caps the size read', async () => {
  const { dir, commit } = repo();
  const r = await gitShow(dir, commit, 'big.txt', { maxBuffer: 1024 * 1024 });
  assert.ok(!r.ok && r.kind === 'too-big');
});
