// `specweave search`: the example dataset's trajectories searched from the command line (the bundle and its worker,
// as installed), hits grouped by task and attempt, a hostile trajectory's escape sequences printed inert, and a bad
// pattern refused with its reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliArgs, ROOT } from './helpers/cli';

const cli = (...args: string[]) => spawnSync(process.execPath, cliArgs(...args), { encoding: 'utf8', cwd: ROOT, timeout: 60_000 });

test('search lists hits grouped by task and attempt, and counts them all', () => {
  const r = cli('search', path.join(ROOT, 'examples', 'dataset'), 'def ', '--max', '3');
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.match(lines[0]!, /^\S+$/, 'a task id heads its hits');
  assert.match(lines[1]!, /^ {2}\S+ \(\d+\)$/, 'then an attempt with its count');
  assert.match(lines[2]!, /^ {4}step \d+ \(\w+(, tool call \d+ (name|arguments))?\): .*»def «/);
  assert.match(lines.at(-1)!, /^\d+ matches \(3 listed\) in 1 task; (\d+) of \1 trajectories searched$/);
  const json = JSON.parse(cli('search', path.join(ROOT, 'examples', 'dataset'), 'def ', '--json').stdout) as { total: number; listed: number; hits: Array<{ taskId: string }> };
  assert.equal(json.listed, Math.min(json.total, 200));
  assert.ok(new Set(json.hits.map((h) => h.taskId)).size > 1, 'more than one task has hits');
});

test('a hostile trajectory prints inert; an invalid pattern is a usage error naming why', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-cli-search-'));
  try {
    fs.cpSync(path.join(ROOT, 'examples', 'dataset'), root, { recursive: true });
    // One attempt's trajectory replaced by one whose text carries terminal escapes (clear screen, set title, bell).
    const traj = fs.readdirSync(path.join(root, 'tasks', 'format-precision', 'attempts'), { recursive: true, encoding: 'utf8' }).find((f) => /traj|trajectory/.test(f) && f.endsWith('.json'));
    assert.ok(traj, 'the example has a trajectory file');
    fs.writeFileSync(path.join(root, 'tasks', 'format-precision', 'attempts', traj), JSON.stringify({ messages: [{ role: 'system', content: 'x' }, { role: 'user', content: 'NEEDLE \u001b[2J\u001b]0;pwned\u0007 here' }] }));
    const r = cli('search', root, 'NEEDLE');
    assert.ok(r.stdout.includes('»NEEDLE«'), r.stdout + r.stderr);
    assert.equal([...(r.stdout + r.stderr)].some((c) => c === '\u001b' || c === '\u0007'), false, 'no escape byte reaches the terminal');
    const bad = cli('search', root, '(', '--regex');
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /Invalid regular expression/);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
