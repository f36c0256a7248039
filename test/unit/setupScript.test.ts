// scripts/setup.sh --docker-optional (what scripts/open-example.sh runs): when the Docker setup fails, the warning
// says which part failed. An engine that answers while only the base image could not be built used to read "no
// Docker engine". Run on a copy of setup.sh beside a stand-in setup-docker.sh that fails, with a stand-in `docker`
// on the PATH whose `docker info` answers or not as the test says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tmpDir } from './helpers/tmp';

const repo = path.resolve(__dirname, '../..');

function setupWithFailingDocker(engineAnswers: boolean) {
  const root = tmpDir('sw-setupsh-');
  fs.mkdirSync(path.join(root, 'scripts'));
  fs.copyFileSync(path.join(repo, 'scripts', 'setup.sh'), path.join(root, 'scripts', 'setup.sh'));
  fs.writeFileSync(path.join(root, 'scripts', 'setup-docker.sh'), 'echo "error: docker build of specweave-base:bookworm failed" >&2\nexit 1\n');
  const bin = path.join(root, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'docker'), `#!/bin/sh\n[ "$1" = info ] && exit ${engineAnswers ? 0 : 1}\nexit 1\n`, { mode: 0o755 });
  const r = spawnSync('bash', [path.join(root, 'scripts', 'setup.sh'), '--no-npm', '--no-vscode', '--docker-optional'], {
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
    encoding: 'utf8',
  });
  return { status: r.status, err: r.stderr };
}

test('an engine that answers while the base image failed: the warning names the image, not a missing engine', () => {
  const r = setupWithFailingDocker(true);
  assert.equal(r.status, 0, 'optional: setup goes on');
  assert.match(r.err, /the Docker engine answers, but the base image specweave-base:bookworm could not be made/);
  assert.doesNotMatch(r.err, /no Docker engine/);
});

test('no engine answering: the warning says so', () => {
  const r = setupWithFailingDocker(false);
  assert.equal(r.status, 0);
  assert.match(r.err, /no Docker engine answers/);
});
