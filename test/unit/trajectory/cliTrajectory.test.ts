// `specweave trajectory FILE`: how a user checks a file before importing it. Runs the real command (in one child
// process per test, through the CLI test runner) on every format we read, the ../shared/samples trajectories, a
// multi-instance file, files we do not read, and hostile text.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const FIX = path.join(ROOT, 'test/fixtures/trajectories');
const SAMPLES = path.resolve(ROOT, '../shared/samples/trajectories');

interface Run {
  code: number;
  out: string;
  err: string;
}

function cli(...batches: string[][]): Run[] {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/unit/review/cliRunner.ts'), JSON.stringify(batches.map((b) => ['trajectory', ...b]))], {
    encoding: 'utf8',
    cwd: ROOT,
    maxBuffer: 64 << 20,
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Run[];
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

test('trajectory FILE shows format, steps by kind, model, cost, tokens, exit status, instance and patch', () => {
  const codex = path.join(FIX, 'codex/rollout-2025-11-22T21-45-35-019aad50-0000-7000-8000-00000000c0de.jsonl');
  const [text, json] = cli([codex], [codex, '--json']);
  assert.equal(text!.code, 0, text!.err);
  assert.match(text!.out, /^format {4}codex \(Codex CLI rollout\)$/m);
  assert.match(text!.out, /^steps {5}19: system 4, user 2, thought 2, tool_call 6, tool_result 5$/m);
  assert.match(text!.out, /^model {5}gpt-5\.1-codex$/m);
  assert.match(text!.out, /^cost {6}\(not recorded\)$/m);
  assert.match(text!.out, /^tokens {4}9000 in, 120 out$/m);
  assert.match(text!.out, /^exit {6}aborted: interrupted$/m);
  assert.match(text!.out, /^repo {6}https:\/\/github\.com\/acme\/widgets\.git @ abc123d$/m);
  assert.match(text!.out, /^patch {5}\(none recorded\)$/m);
  assert.match(text!.out, /^note: skipped 7 line\(s\) that are not conversation steps: /m);
  assert.equal(json!.code, 0);
  const j = JSON.parse(json!.out) as { format: string; summary: { steps: number; model: string; skipped: Record<string, number> }; patch: unknown; problems: unknown[] };
  assert.equal(j.format, 'codex');
  assert.equal(j.summary.steps, 19);
  assert.equal(j.summary.skipped['response_item/ghost_snapshot'], 1);
  assert.equal(j.patch, null);
  assert.deepEqual(j.problems, []);
});

test('trajectory on a file of one instance per line lists them; --instance picks one, --steps and --patch show it', () => {
  const file = path.join(FIX, 'openhands-resolver/output.jsonl');
  const [first, second, none] = cli([file], [file, '--instance', 'acme__widgets-9', '--steps', '--json'], [file, '--instance', 'nope']);
  assert.equal(first!.code, 0, first!.err);
  assert.match(first!.out, /^instance {2}acme__widgets-7$/m);
  assert.match(first!.out, /^patch {5}1 file\(s\), \+1\/-1: src\/m\.py \(\+1\/-1\)$/m);
  assert.match(first!.out, /^claimed {3}success: The patch changes count\(\) to return len\(xs\)\. \(the agent's own claim, not a verdict\)$/m);
  assert.match(first!.out, /^2 instances, one per line/m);
  assert.match(first!.out, /^acme__widgets-9 +5 +error: Agent reached/m);
  const j = JSON.parse(second!.out) as { summary: { instanceId: string; exitStatus: string }; steps: Array<{ kind: string; sourceRef: string }> };
  assert.equal(j.summary.instanceId, 'acme__widgets-9');
  assert.deepEqual(j.steps.map((s) => `${s.kind} ${s.sourceRef}`), ['user history[0]', 'thought history[1]', 'action history[1]', 'observation history[2]', 'thought history[3]']);
  assert.equal(none!.code, 2);
  assert.match(none!.err, /no instance "nope" in .*output\.jsonl \(it holds 2\)/);
});

test('trajectory reads every fixture format and every ../shared/samples trajectory, or says why not (exit 1)', () => {
  const files = [
    ...walk(FIX).filter((f) => !f.endsWith('README.md')),
    path.join(FIX, 'chat-messages/autocoderover/acr-run-1/applicable_patch/acme__widgets-7_2024-04-06_13-51-50'),
    ...walk(SAMPLES),
  ];
  const runs = cli(...files.map((f) => [f, '--json']));
  const formats = new Set<string>();
  runs.forEach((r, i) => {
    const j = JSON.parse(r.out) as { format?: string; error?: { file: string; message: string } };
    if (r.code === 0) formats.add(j.format!);
    else {
      assert.equal(r.code, 1, `${files[i]}: ${r.err}`);
      assert.equal(j.error!.file, files[i]);
      assert.ok(j.error!.message.length > 0);
    }
  });
  assert.deepEqual([...formats].sort(), [
    'agentless',
    'atif',
    'autocoderover',
    'chat-messages',
    'claude-code',
    'codex',
    'codex-exec',
    'litellm',
    'mini-swe-agent',
    'openhands-eval',
    'openhands-events',
    'openhands-resolver',
    'swe-agent',
    'swe-agent-retry',
  ]);
  const [aider] = cli([path.join(FIX, 'unsupported/.aider.chat.history.md')]);
  assert.equal(aider!.code, 1);
  assert.match(aider!.err, /\.aider\.chat\.history\.md: error: not a trajectory: an Aider chat history \(Markdown\)/);
});

test('trajectory prints no raw control or bidi character from the file: ANSI, OSC 52, CR, U+202E all escaped', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'specweave-traj-cli-'));
  try {
    const evil = '\u001b]52;c;ZXZpbA==\u0007\u001b[2J\r\u202eevil';
    const inJson = JSON.stringify(evil).slice(1, -1);
    const lines = readFileSync(path.join(FIX, 'claude-code-parallel/session.jsonl'), 'utf8')
      .replaceAll('claude-sonnet-4-5-20250929', `model${inJson}`)
      .replaceAll('List the tests and count them', `List${inJson}`);
    const file = path.join(dir, `sess\u001b[31mion.jsonl`);
    writeFileSync(file, lines);
    const patchLine = JSON.stringify({ issue: { owner: 'o', repo: `r${evil}`, number: 1 }, instruction: 'x', base_commit: '', git_patch: `diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b${evil}\n`, history: [{ action: 'message', content: evil }], success: false, result_explanation: evil, error: null });
    const resolver = path.join(dir, 'out.jsonl');
    writeFileSync(resolver, patchLine + '\n');
    const runs = cli([file, '--steps'], [resolver, '--steps', '--patch'], [path.join(dir, 'nothing\u202e.json')]);
    for (const r of runs) {
      const all = r.out + r.err;
      // eslint-disable-next-line no-control-regex
      assert.doesNotMatch(all, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/, all);
    }
    assert.equal(runs[0]!.code, 0, runs[0]!.err);
    assert.match(runs[0]!.out, /^ 0 {2}user +line 2 +List\\x1b\]52;c;ZXZpbA==\\x07\\x1b\[2J\\r\\u202eevil$/m);
    assert.match(runs[0]!.out, /^model {5}model\\x1b\]52;c;ZXZpbA==\\x07\\x1b\[2J\\r\\u202eevil$/m);
    assert.match(runs[1]!.out, /^\+b\\x1b\]52;c;ZXZpbA==\\x07\\x1b\[2J\\r\\u202eevil$/m);
    assert.equal(runs[2]!.code, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
