// scripts/test.sh, the README's test command: a failing layer does not hide the later ones; every failure is listed
// under the summary and the exit status still fails. Run on a copy of the script with a stand-in `npm` on the PATH
// whose layers pass or fail as the test says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tmpDir } from './helpers/tmp';

const repo = path.resolve(__dirname, '../..');

function fakeProject(failing: string[]): { root: string; env: NodeJS.ProcessEnv } {
  const root = tmpDir('sw-testsh-');
  fs.mkdirSync(path.join(root, 'scripts'));
  for (const f of ['test.sh', 'failures.mjs']) fs.copyFileSync(path.join(repo, 'scripts', f), path.join(root, 'scripts', f));
  for (const d of ['test/unit', 'test/webview', 'test/integration']) {
    fs.mkdirSync(path.join(root, d), { recursive: true });
    fs.writeFileSync(path.join(root, d, 'x.test.ts'), '');
  }
  const bin = path.join(root, 'bin');
  fs.mkdirSync(bin);
  // `npm run -s NAME`: prints what node's test runner prints, failing the layers named in FAILING.
  fs.writeFileSync(
    path.join(bin, 'npm'),
    [
      '#!/usr/bin/env bash',
      'name="$3"',
      'echo "ran $name" >> "$RAN_LOG"',
      // With BESIDE set, the webview and integration layers each wait until the other has started: run one after
      // the other, they would never end (the test's timeout fails it).
      'if [ -n "${BESIDE:-}" ] && { [ "$name" = test:webview ] || [ "$name" = test:integration ]; }; then',
      // They meet at a FIFO: opening it blocks until the other end is opened too (bounded).
      '  if [ "$name" = test:webview ]; then timeout 20 sh -c \'echo met > "$BESIDE/meet"\'; else timeout 20 cat "$BESIDE/meet" > /dev/null; fi || { echo "the other layer never started beside $name"; exit 9; }',
      'fi',
      'case " $FAILING " in',
      '  *" $name "*)',
      '    printf "✖ failing tests:\\n\\ntest at test/x.test.ts:1:1\\n✖ %s breaks (1ms)\\n  AssertionError: %s went wrong\\n\\nℹ pass 2\\nℹ fail 1\\n" "$name" "$name"',
      '    exit 1 ;;',
      'esac',
      'printf "ℹ pass 3\\nℹ fail 0\\n"',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return { root, env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, FAILING: failing.join(' '), RAN_LOG: path.join(root, 'ran.log') } };
}

function run(failing: string[], args: string[] = [], layers = 'check,build,unit,webview', extraEnv: Record<string, string> = {}) {
  const { root, env } = fakeProject(failing);
  const r = spawnSync('bash', [path.join(root, 'scripts', 'test.sh'), '--only', layers, ...args], { env: { ...env, ...extraEnv }, encoding: 'utf8', timeout: 60_000 });
  const ran = fs.existsSync(env.RAN_LOG as string) ? fs.readFileSync(env.RAN_LOG as string, 'utf8').trim().split('\n') : [];
  return { status: r.status, out: r.stdout, ran };
}

test('a failing layer does not stop the later ones; every failure is listed at the end and the run fails', () => {
  const r = run(['check', 'test:unit']);
  assert.deepEqual(r.ran, ['ran check', 'ran build', 'ran test:unit', 'ran test:webview'], 'every layer ran');
  assert.notEqual(r.status, 0);
  const summary = r.out.slice(r.out.lastIndexOf('=== summary'));
  assert.match(summary, /check\s+FAIL/);
  assert.match(summary, /unit\s+FAIL.*2 passed, 1 failed/);
  assert.match(summary, /webview\s+pass.*3 passed, 0 failed/);
  assert.match(summary, /failed in check:\n.*check breaks[\s\S]*failed in unit:\n.*test:unit breaks/);
  assert.match(summary, /test:unit went wrong/);
  assert.match(summary.trimEnd().split('\n').at(-1) ?? '', /^10 passed, 2 failed$/);
});

test('a clean run exits 0', () => {
  const r = run([]);
  assert.equal(r.status, 0, r.out);
  assert.match(r.out.trimEnd().split('\n').at(-1) ?? '', /^12 passed, 0 failed$/);
});

test('--fail-fast stops at the first failing layer', () => {
  const r = run(['check'], ['--fail-fast']);
  assert.deepEqual(r.ran, ['ran check']);
  assert.notEqual(r.status, 0);
  assert.match(r.out, /unit\s+not run/);
});

test('the webview layer runs beside the integration layer: both at once, its summary line in its place, its failure listed', () => {
  const beside = tmpDir('sw-testsh-beside-');
  spawnSync('mkfifo', [path.join(beside, 'meet')]);
  const r = run(['test:webview'], [], 'webview,integration', { BESIDE: beside });
  assert.notEqual(r.status, 0);
  assert.ok(!/never started beside/.test(r.out), r.out);
  const summary = r.out.slice(r.out.lastIndexOf('=== summary'));
  assert.match(summary, /webview\s+FAIL.*2 passed, 1 failed\n.*integration\s+pass.*3 passed, 0 failed/);
  assert.match(summary, /failed in webview:\n.*test:webview breaks/);
  assert.match(r.out, /=== webview \(ran beside the layers above\) ===\n[\s\S]*test:webview breaks/);
  assert.match(summary.trimEnd().split('\n').at(-1) ?? '', /^5 passed, 1 failed$/);
});
