// `specweave specs draft` usage, in-process: unknown tasks, bad numbers and a missing subcommand are usage errors
// (exit 2) that name what was wrong, before any call; a task with specs is skipped without --force, with no call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setOutput } from '../../../src/cli/output';
import { runCli } from '../../../src/cli/run';
import { copyFixture } from '../helpers/tmp';

async function cli(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const saved = { ...process.env };
  Object.assign(process.env, env);
  setOutput({ stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  try {
    const code = await runCli(args);
    return { code, stdout, stderr };
  } finally {
    setOutput(undefined);
    process.env = saved;
  }
}

const dataset = () => copyFixture('datasets/tiny');

test('specs without a subcommand, or with an unknown one, says which exist', async () => {
  const r = await cli(['specs']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /usage: specweave specs draft\|add\|edit\|rm/);
  const u = await cli(['specs', 'frobnicate']);
  assert.equal(u.code, 2);
  assert.match(u.stderr, /unknown subcommand "frobnicate"/);
});

test('an unknown task and a bad --budget-usd or --concurrency are usage errors, before any call', async () => {
  const root = dataset();
  const r = await cli(['specs', 'draft', root, 'no-such-task', '--curator', 'alice']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /no task "no-such-task" in /);
  const b = await cli(['specs', 'draft', root, '--budget-usd', 'lots', '--curator', 'alice']);
  assert.equal(b.code, 2);
  assert.match(b.stderr, /--budget-usd must be a number from 0 to 1000000, got "lots"/);
  const c = await cli(['specs', 'draft', root, '--concurrency', '0', '--curator', 'alice']);
  assert.equal(c.code, 2);
  assert.match(c.stderr, /--concurrency must be a number from 1 to 64/);
  assert.equal(fs.existsSync(path.join(root, 'curation', 'drafter')), false);
});

test('tasks that have specs are skipped without --force, and no endpoint is contacted', async () => {
  const root = dataset();
  // Nothing listens at this address: a call would fail with a connection error, not a skip.
  const r = await cli(['specs', 'draft', root, '--json', '--curator', 'alice'], { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'sk-unused' });
  const j = JSON.parse(r.stdout) as { ok: boolean; tasks: Array<{ status: string; reason?: string; message: string }>; spentUsd: number };
  assert.ok(j.tasks.length > 0);
  for (const t of j.tasks) {
    assert.equal(t.status, 'skipped');
    assert.equal(t.reason, 'has_specs');
    assert.match(t.message, /spec\(s\) already; --force drafts it anyway/);
  }
  assert.equal(j.spentUsd, 0);
  assert.equal(r.code, 0);
});
