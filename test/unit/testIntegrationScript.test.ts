// scripts/test-integration.sh, the integration layer: the cluster files run beside the host-engine files (at the
// same time, not one run after the other), then the engine-free files with DOCKER_HOST pointing at no engine; a file
// in no list goes to the host run; every report reaches the layer's log, the counts are summed into the one
// "ℹ pass/fail" pair scripts/test.sh reads, and a failure in any run fails the layer and is listed by
// scripts/failures.mjs.
// Run on a copy of the scripts with a stand-in `node` on the PATH whose runs pass or fail as the test says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tmpDir } from './helpers/tmp';

const repo = path.resolve(__dirname, '../..');

function run(failing: string[]) {
  const root = tmpDir('sw-testint-');
  fs.mkdirSync(path.join(root, 'scripts'));
  for (const f of ['test-integration.sh', 'failures.mjs']) fs.copyFileSync(path.join(repo, 'scripts', f), path.join(root, 'scripts', f));
  for (const f of ['test/integration/cluster/swarm.test.ts', 'test/integration/verify/cli.test.ts', 'test/integration/fs/symlinks.test.ts', 'test/integration/specs/authoring.test.ts', 'test/integration/newfolder/new.test.ts']) {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.writeFileSync(path.join(root, f), '');
  }
  const bin = path.join(root, 'bin');
  fs.mkdirSync(bin);
  // `node --import tsx --test ... FILES`: each run says which files it got; the host and cluster runs wait for each other
  // (so two runs one after the other would never end: the test would fail on its timeout). FAILING names the files
  // whose run fails.
  fs.writeFileSync(
    path.join(bin, 'node'),
    [
      '#!/usr/bin/env bash',
      'files=("${@:6}")',
      'me=host; other=cluster',
      'case "${files[0]}" in test/integration/cluster/*) me=cluster; other=host ;; test/integration/fs/*|test/integration/specs/*) me=free; other="" ;; esac',
      'touch "$MARKS/$me"',
      // The host and cluster runs meet at a FIFO: opening it blocks until the other end is opened too (bounded).
      'if [ "$me" = host ]; then timeout 20 sh -c \'echo met > "$MARKS/meet"\' || { echo "the $other run never started beside the $me run"; exit 9; }; fi',
      'if [ "$me" = cluster ]; then timeout 20 cat "$MARKS/meet" > /dev/null || { echo "the $other run never started beside the $me run"; exit 9; }; fi',
      '[ "$me" = free ] && [ ! -e "$MARKS/cluster" ] && { echo "the engine-free run started before the cluster run"; exit 9; }',
      'echo "$me run: ${files[*]} (DOCKER_HOST=${DOCKER_HOST:-})"',
      'for f in "${files[@]}"; do',
      '  case " $FAILING " in',
      '    *" $f "*) printf "✖ failing tests:\\n\\ntest at %s:1:1\\n✖ %s breaks (1ms)\\n  AssertionError: %s went wrong\\n\\nℹ pass 1\\nℹ fail 1\\n" "$f" "$f" "$f"; exit 1 ;;',
      '  esac',
      'done',
      'printf "ℹ pass %d\\nℹ fail 0\\n" "${#files[@]}"',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  const marks = path.join(root, 'marks');
  fs.mkdirSync(marks);
  spawnSync('mkfifo', [path.join(marks, 'meet')]);
  const r = spawnSync('bash', [path.join(root, 'scripts', 'test-integration.sh')], {
    cwd: root,
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, FAILING: failing.join(' '), MARKS: marks, DOCKER_HOST: '' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  fs.writeFileSync(path.join(root, 'layer.log'), r.stdout);
  const failures = spawnSync(process.execPath, [path.join(repo, 'scripts', 'failures.mjs'), path.join(root, 'layer.log')], { encoding: 'utf8' }).stdout;
  return { status: r.status, out: r.stdout, failures };
}

test('the cluster files run beside the host files, then the engine-free ones with no engine; every report and one count', () => {
  const r = run([]);
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /host run: test\/integration\/newfolder\/new\.test\.ts test\/integration\/verify\/cli\.test\.ts \(DOCKER_HOST=\)\n/, 'a file in no list runs on the host engine');
  assert.match(r.out, /=== test\/integration\/cluster[^\n]*\n+cluster run: test\/integration\/cluster\/swarm\.test\.ts \(DOCKER_HOST=\)\n/);
  assert.match(r.out, /=== engine-free[^\n]*\n+free run: test\/integration\/fs\/symlinks\.test\.ts test\/integration\/specs\/authoring\.test\.ts \(DOCKER_HOST=unix:\/\/\/nonexistent\/[^)]+\)\n/);
  assert.deepEqual(r.out.trimEnd().split('\n').slice(-2), ['ℹ pass 5', 'ℹ fail 0']);
});

test('a failure in the cluster run alone fails the layer, and is counted and listed', () => {
  const r = run(['test/integration/cluster/swarm.test.ts']);
  assert.notEqual(r.status, 0);
  assert.deepEqual(r.out.trimEnd().split('\n').slice(-2), ['ℹ pass 5', 'ℹ fail 1']);
  assert.match(r.failures, /swarm\.test\.ts breaks/);
  assert.doesNotMatch(r.failures, /cli\.test\.ts breaks/);
});

test('failures in every run are all listed, each once', () => {
  const r = run(['test/integration/cluster/swarm.test.ts', 'test/integration/fs/symlinks.test.ts', 'test/integration/verify/cli.test.ts']);
  assert.notEqual(r.status, 0);
  for (const f of ['swarm', 'symlinks', 'cli']) assert.equal(r.failures.match(new RegExp(`${f}\\.test\\.ts breaks`, 'g'))?.length, 1, r.failures);
});
