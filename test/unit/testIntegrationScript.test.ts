// scripts/test-integration.sh, the integration layer: the cluster files run beside the others (at the same time, not
// one run after the other), both reports reach the layer's log, the counts are summed into the one "ℹ pass/fail"
// pair scripts/test.sh reads, and a failure in either run fails the layer and is listed by scripts/failures.mjs.
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
  for (const f of ['test/integration/cluster/swarm.test.ts', 'test/integration/verify/cli.test.ts', 'test/integration/fs/symlinks.test.ts']) {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.writeFileSync(path.join(root, f), '');
  }
  const bin = path.join(root, 'bin');
  fs.mkdirSync(bin);
  // `node --import tsx --test ... FILES`: each run says which files it got and waits until the other run has started
  // (so two runs one after the other would never end: the test would fail on its timeout). FAILING names the files
  // whose run fails.
  fs.writeFileSync(
    path.join(bin, 'node'),
    [
      '#!/usr/bin/env bash',
      'files=("${@:6}")',
      'me=host; other=cluster',
      'case "${files[0]}" in test/integration/cluster/*) me=cluster; other=host ;; esac',
      'touch "$MARKS/$me"',
      'for _ in $(seq 1 400); do [ -e "$MARKS/$other" ] && break; sleep 0.05; done',
      '[ -e "$MARKS/$other" ] || { echo "the $other run never started beside the $me run"; exit 9; }',
      'echo "$me run: ${files[*]}"',
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
  const r = spawnSync('bash', [path.join(root, 'scripts', 'test-integration.sh')], {
    cwd: root,
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, FAILING: failing.join(' '), MARKS: marks },
    encoding: 'utf8',
    timeout: 60_000,
  });
  fs.writeFileSync(path.join(root, 'layer.log'), r.stdout);
  const failures = spawnSync(process.execPath, [path.join(repo, 'scripts', 'failures.mjs'), path.join(root, 'layer.log')], { encoding: 'utf8' }).stdout;
  return { status: r.status, out: r.stdout, failures };
}

test('the cluster files run beside the others; both reports and one count for both', () => {
  const r = run([]);
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /host run: test\/integration\/fs\/symlinks\.test\.ts test\/integration\/verify\/cli\.test\.ts\n/);
  assert.match(r.out, /=== test\/integration\/cluster[^\n]*\n+cluster run: test\/integration\/cluster\/swarm\.test\.ts\n/);
  assert.deepEqual(r.out.trimEnd().split('\n').slice(-2), ['ℹ pass 3', 'ℹ fail 0']);
});

test('a failure in the cluster run alone fails the layer, and is counted and listed', () => {
  const r = run(['test/integration/cluster/swarm.test.ts']);
  assert.notEqual(r.status, 0);
  assert.deepEqual(r.out.trimEnd().split('\n').slice(-2), ['ℹ pass 3', 'ℹ fail 1']);
  assert.match(r.failures, /swarm\.test\.ts breaks/);
  assert.doesNotMatch(r.failures, /cli\.test\.ts breaks/);
});

test('failures in both runs are all listed, each once', () => {
  const r = run(['test/integration/cluster/swarm.test.ts', 'test/integration/fs/symlinks.test.ts']);
  assert.notEqual(r.status, 0);
  assert.equal(r.failures.match(/swarm\.test\.ts breaks/g)?.length, 1, r.failures);
  assert.equal(r.failures.match(/symlinks\.test\.ts breaks/g)?.length, 1, r.failures);
});
