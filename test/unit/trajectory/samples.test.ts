// Every trajectory file in ../shared/samples (real public data), and the Claude Code stream-json embedded in a
// custom eval JSON, loaded through the public API; the assertions are what the samples README says is in them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { NormalizedTrajectory, TrajectoryStep } from '../../../src/core/model';
import { listTrajectoryInstances, readTrajectory, summarizeTrajectory } from '../../../src/adapters/fs/trajectoryReader';
import { buildFromText, firstInstanceResult, normalizeTrajectoryText } from '../../../src/core/trajectory/normalize';

const SAMPLES = path.resolve(__dirname, '../../../../shared/samples');
const TRAJ = path.join(SAMPLES, 'trajectories');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

const rel = (p: string): string => path.relative(TRAJ, p).split(path.sep).join('/');

async function load(relPath: string): Promise<{ t: NormalizedTrajectory; problems: string[] }> {
  const r = await readTrajectory(path.join(TRAJ, relPath), { fileLabel: relPath });
  assert.ok(r.ok, `${relPath}: ${r.ok ? '' : r.problem.message}`);
  return { t: r.trajectory, problems: r.problems.map((p) => p.message) };
}

const editsOf = (t: NormalizedTrajectory): string[] => t.steps.flatMap((s) => (s.edits ?? []).map((e) => `${s.index} ${e.via}: ${e.path}`));

/** Every tool result directly follows its call (or another result of the same call step). */
function assertResultsFollowCalls(steps: TrajectoryStep[]): void {
  for (const s of steps) {
    if (s.kind !== 'tool_result') continue;
    let k = s.index - 1;
    while (k >= 0 && steps[k]!.kind === 'tool_result') k--;
    assert.ok(k >= 0 && (steps[k]!.kind === 'tool_call' || steps[k]!.kind === 'thought'), `tool result ${s.index} (${s.sourceRef}) follows a ${steps[k]?.kind}`);
  }
}

test('every file under samples/trajectories is either normalized or rejected with a message naming it', async () => {
  const files = walk(TRAJ).map(rel).sort();
  assert.equal(files.length, 14);
  const rejected: string[] = [];
  for (const f of files) {
    const r = await readTrajectory(path.join(TRAJ, f), { fileLabel: f });
    if (!r.ok) {
      assert.equal(r.problem.file, f);
      assert.equal(r.problem.severity, 'error');
      rejected.push(f);
    } else {
      assert.ok(r.trajectory.steps.length > 0, f);
      r.trajectory.steps.forEach((s, i) => assert.equal(s.index, i, `${f}: steps are numbered in order`));
    }
  }
  // The companions of trajectories (run metrics, Entire metadata, verifier log) are not trajectories.
  assert.deepEqual(rejected, [
    'atif/openagents-tbench/regex-log/20251211-161750-ba4ddb16/metrics.json',
    'atif/openagents-tbench/regex-log/20251211-161750-ba4ddb16/verifier/output.txt',
    'claude-code/entire-checkpoints/08/5de903e0fb/0/metadata.json',
  ]);
});

test('non-trajectory companions get clear messages', async () => {
  const metrics = await readTrajectory(path.join(TRAJ, 'atif/openagents-tbench/regex-log/20251211-161750-ba4ddb16/metrics.json'), { fileLabel: 'metrics.json' });
  assert.ok(!metrics.ok);
  assert.match(metrics.problem.message, /^not a known trajectory format: a JSON object with keys instruction, success, start_time/);
  const log = await readTrajectory(path.join(TRAJ, 'atif/openagents-tbench/regex-log/20251211-161750-ba4ddb16/verifier/output.txt'));
  assert.ok(!log.ok);
  assert.match(log.problem.message, /^not a JSON or JSONL file: expected a JSON value, found 'd' at line 1/);
  assert.equal(log.problem.line, 1);
});

test('SWE-agent 1.x function calling: tool calls with ids, the submit step history lacks, CRLF inside strings', async () => {
  const f = 'swe-agent/gpt4__swe-agent-test-repo__default_from_url__t-0.00__p-0.95__c-3.00__install-1/6e44b9__sweagenttestrepo-1c2844.traj';
  const { t, problems } = await load(f);
  const s = t.summary;
  assert.equal(s.format, 'swe-agent');
  assert.deepEqual(s.byKind, { system: 1, user: 1, thought: 5, tool_call: 4, tool_result: 4, action: 1, observation: 1 });
  assert.equal(s.steps, 17);
  // The instance id is in replay_config (a dict here), not the file name.
  assert.equal(s.instanceId, 'SWE-agent__test-repo-i1');
  assert.equal(s.model, 'gpt-4o');
  assert.ok(Math.abs(s.costUsd! - 0.01952) < 1e-9);
  assert.deepEqual(s.tokens, { input: 7141, output: 243 });
  assert.equal(s.exitStatus, 'submitted');
  assert.ok(s.submission!.startsWith('\r\ndiff --git a/tests/missing_colon.py'));
  assert.deepEqual(problems, []);
  const firstCall = t.steps.find((x) => x.kind === 'tool_call')!;
  assert.deepEqual(firstCall.toolCalls, [{ id: 'call_fJuazlMUN5fQDQ73G6XSpYpx', name: 'find_file', arguments: '{"file_name":"missing_colon.py"}' }]);
  assert.ok(t.steps.some((x) => x.kind === 'tool_result' && x.text.includes('\r\n')), 'CRLF inside observations is kept');
  // History stops before the final submit; it comes from trajectory[4].
  assert.deepEqual(
    t.steps.slice(-3).map((x) => `${x.kind} ${x.sourceRef}`),
    ['thought trajectory[4]', 'action trajectory[4]', 'observation trajectory[4]'],
  );
  assert.equal(t.steps.at(-2)!.text, 'submit');
  assert.deepEqual(editsOf(t), ['9 edit: /SWE-agent__test-repo/tests/missing_colon.py']);
  assertResultsFollowCalls(t.steps);
});

test('SWE-agent 0.x thought/action: a human demonstration with zero stats, state as a JSON string', async () => {
  const f = 'swe-agent/human_thought__swe-bench-HumanEvalFix-python__lcb__t-0.00__p-0.95__c-4.00__install-0/humanevalfix-python-0.traj';
  const { t } = await load(f);
  const s = t.summary;
  assert.equal(s.format, 'swe-agent');
  assert.deepEqual(s.byKind, { system: 1, user: 1, thought: 5, action: 5, observation: 5 });
  assert.equal(s.costUsd, 0);
  assert.deepEqual(s.tokens, { input: 0, output: 0 });
  assert.equal(s.instanceId, undefined, 'no replay_config: the importer falls back to the file name');
  assert.equal(s.model, undefined);
  assert.equal(s.exitStatus, 'submitted');
  assert.ok(s.submission!.startsWith('\ndiff --git a/main.py b/main.py'));
  assert.deepEqual(t.steps.filter((x) => x.kind === 'action').map((x) => x.text.split('\n')[0]), ['ls -a', 'open main.py', 'edit 15:15', 'python main.py', 'submit']);
  // The windowed editor edits the file the previous observation reported open.
  assert.deepEqual(editsOf(t), ['9 edit: /swe-bench__humanevalfix-python/main.py']);
  // The observation of the final submit is only in trajectory[4].
  assert.equal(t.steps.at(-1)!.sourceRef, 'trajectory[4]');
});

test('mini-swe-agent 1.1 (v2.2.4): tool calls with content null, tool and exit roles, format-error turns', async () => {
  const { t } = await load('mini-swe-agent/v2.2.4_gpt-5-mini/django__django-11119/django__django-11119.traj.json');
  const s = t.summary;
  assert.equal(s.format, 'mini-swe-agent');
  assert.deepEqual(s.byKind, { system: 1, submission: 1, user: 1, tool_call: 9, tool_result: 8, thought: 1, observation: 13 });
  assert.equal(s.instanceId, 'django__django-11119');
  assert.equal(s.model, 'openai/gpt-5-mini');
  assert.ok(Math.abs(s.costUsd! - 0.01050775) < 1e-12);
  assert.equal(s.exitStatus, 'Submitted');
  assert.match(s.submission!, /^diff --git a\/django\/template\/engine.py/);
  assert.match(s.submission!, /diff --git a\/test_render.py/, 'the stray test file is part of the submission');
  // The 13 rejected replies are not stored: only the "No tool calls found" notices are.
  assert.equal(t.steps.filter((x) => x.kind === 'observation' && x.text.startsWith('No tool calls found')).length, 13);
  // The exit message closes the trajectory with the submission.
  assert.equal(t.steps.at(-1)!.kind, 'submission', 'the agent handing in its work is not a system message');
  assert.equal(t.steps.at(-1)!.text, s.submission);
  const first = t.steps.find((x) => x.kind === 'tool_call')!;
  assert.equal(first.text, 'ls -la');
  assert.equal(first.costUsd, 0.00044375);
  assert.deepEqual(first.tokens, { input: 1575, output: 25 });
  assert.match(first.timestamp!, /^2026-03-09T14:24:32\.\d+Z$/);
  assert.deepEqual(editsOf(t).map((e) => e.split(' ').slice(1).join(' ')), ['sed -i: django/template/engine.py', 'redirect: test_render.py']);
  assertResultsFollowCalls(t.steps);
});

test('mini-swe-agent 1 (v1.15.0): text actions in ```bash blocks', async () => {
  const { t } = await load('mini-swe-agent/v1.15.0_gemini-3-pro-preview/django__django-11119/django__django-11119.traj.json');
  const s = t.summary;
  assert.equal(s.format, 'mini-swe-agent');
  assert.deepEqual(s.byKind, { system: 1, user: 1, thought: 31, action: 31, observation: 31 });
  assert.ok(Math.abs(s.costUsd! - 0.3148688) < 1e-9);
  assert.equal(s.model, 'google/gemini-3-pro-preview');
  assert.equal(s.instanceId, 'django__django-11119');
  assert.equal(t.steps.find((x) => x.kind === 'action')!.text, 'ls -R');
  assert.deepEqual(
    editsOf(t).map((e) => e.split(' ').slice(1).join(' ')),
    [
      'redirect: reproduce_issue.py',
      'sed -i: django/template/engine.py',
      'redirect: test_edge_cases.py',
      'sed -i: django/template/engine.py',
      'sed -i: django/template/engine.py',
      'redirect: reproduce_issue.py',
    ],
  );
});

test('OpenHands evaluation output: one instance per line, byte ranges that cut out each line', async () => {
  const file = path.join(TRAJ, 'openhands/multi-swe-bench_CodeActAgent_llama-4-maverick/output.jsonl');
  const list = await listTrajectoryInstances(file, { fileLabel: 'output.jsonl' });
  assert.ok(list.ok);
  assert.deepEqual(
    list.instances.map((i) => i.instanceId),
    ['ponylang__ponyc-4595', 'ponylang__ponyc-4593', 'ponylang__ponyc-4588'],
  );
  const bytes = readFileSync(file);
  for (const inst of list.instances) {
    const [start, end] = inst.byteRange!;
    const line = bytes.subarray(start, end).toString('utf8');
    const parsed = JSON.parse(line) as { instance_id: string; history: unknown[] };
    assert.equal(parsed.instance_id, inst.instanceId);
    // The slice alone, as its own file, normalizes to the same summary.
    const alone = normalizeTrajectoryText(line, 'slice');
    assert.ok(alone.ok);
    assert.deepEqual(alone.trajectory.summary, inst.summary);
    assert.equal(inst.summary.format, 'openhands-eval');
    assert.ok(inst.summary.submission!.startsWith('diff --git'), 'test_result.git_patch is the submission');
    assert.equal(inst.summary.model, 'openai/openrouter-llama-4-maverick');
  }
  assert.deepEqual(list.instances.map((i) => i.summary.steps), [70, 102, 151]);
  assert.equal(list.instances[0]!.summary.exitStatus, 'finished');
  assert.match(list.instances[2]!.summary.exitStatus!, /^error: RuntimeError: Agent reached maximum iteration/);
  assert.equal(list.instances[0]!.summary.costUsd, 0);
  assert.deepEqual(list.instances[0]!.summary.tokens, { input: 565158, output: 2558 });

  // Reading the file as one trajectory gives the first instance and says there are more.
  const { t, problems } = await load('openhands/multi-swe-bench_CodeActAgent_llama-4-maverick/output.jsonl');
  assert.equal(t.summary.instanceId, 'ponylang__ponyc-4595');
  assert.deepEqual(problems, ['the file holds 3 OpenHands instances, one per line; this is the first (ponylang__ponyc-4595)']);
  assert.deepEqual(t.summary.byKind, { system: 1, user: 1, action: 1, observation: 1, thought: 22, tool_call: 22, tool_result: 22 });
  // The issue text keeps its \r\n; event id 3 is missing from every history, which changes nothing.
  assert.match(t.steps.find((x) => x.kind === 'user')!.text, /\r\n/);
  assert.deepEqual(t.steps.slice(2, 4).map((x) => `${x.kind} ${x.sourceRef}`), ['action history[2]', 'observation history[3]']);
  // The first str_replace did not apply (its observation is an ERROR), the second did.
  assert.deepEqual(editsOf(t).map((e) => e.split(' ').slice(1).join(' ')), [
    'edit str_replace: /workspace/ponylang__ponyc__0.1/src/libponyc/ast/parser.c',
    'redirect: /workspace/test.c',
    'redirect: test.pony',
  ]);
  const failed = t.steps.find((x) => x.sourceRef === 'history[26]' && x.kind === 'tool_call')!;
  assert.match(failed.text, /^str_replace .*parser\.c/);
  assert.equal(failed.edits, undefined);
  assert.match(t.steps[failed.index + 1]!.text, /^ERROR:\nNo replacement was performed/);
  assertResultsFollowCalls(t.steps);
});

test('OpenHands UI-exported event list: agent-state events are not steps, edit actions are edits', async () => {
  const { t } = await load('openhands/trajectory-visualizer/demo1.json');
  const s = t.summary;
  assert.equal(s.format, 'openhands-events');
  assert.deepEqual(s.byKind, { user: 1, thought: 5, tool_call: 4, tool_result: 4 });
  assert.equal(s.exitStatus, 'awaiting_user_input');
  assert.equal(s.model, 'claude-3-5-sonnet-20241022');
  assert.deepEqual(editsOf(t).map((e) => e.split(' ').slice(1).join(' ')), ['edit: /workspace/todo-app/index.html', 'edit: /workspace/todo-app/app.js']);
  assert.ok(!t.steps.some((x) => x.text === 'No observation'));
  assert.equal(t.steps[0]!.timestamp, '2025-01-20T20:29:32.262843');
});

test('ATIF v1.5 (OpenHands golden): tool calls, observation results, per-step metrics', async () => {
  const { t } = await load('atif/harbor-golden/openhands/hello-world.trajectory.json');
  const s = t.summary;
  assert.equal(s.format, 'atif');
  assert.deepEqual(s.byKind, { system: 3, user: 1, thought: 2, tool_call: 2, tool_result: 1 });
  assert.equal(s.costUsd, 0.00135);
  assert.deepEqual(s.tokens, { input: 220, output: 80 });
  assert.deepEqual(editsOf(t).map((e) => e.split(' ').slice(1).join(' ')), ['str_replace_editor create: /app/hello.txt']);
  const call = t.steps.find((x) => x.kind === 'tool_call')!;
  assert.equal(call.toolCalls![0]!.id, 'call_fake_1');
  assert.deepEqual(t.steps.find((x) => x.kind === 'thought')!.tokens, { input: 100, output: 50 });
});

test('ATIF continuation: the first file is joined with the continuation next to it, copied context left out', async () => {
  const base = 'atif/harbor-golden/terminus_2/hello-world-context-summarization-linear-history.trajectory';
  const { t, problems } = await load(`${base}.json`);
  assert.deepEqual(problems, []);
  assert.equal(t.summary.format, 'atif');
  // 5 steps of the first file (3 agent turns with observations) + the 4 new agent turns of the continuation.
  assert.deepEqual(t.summary.byKind, { user: 1, action: 7, observation: 7, system: 1 });
  assert.ok(Math.abs(t.summary.costUsd! - (0.00723 + 0.029805)) < 1e-12);
  assert.deepEqual(t.summary.tokens, { input: 2252 + 7802, output: 160 + 1030 });
  assert.equal(t.summary.model, 'openai/gpt-4o');
  assert.deepEqual(editsOf(t).map((e) => e.split(' ').slice(1).join(' ')), ['redirect: test_dir/file1.txt', 'redirect: test_dir/file2.txt', 'redirect: hello.txt']);
  assert.ok(t.steps.some((x) => x.sourceRef === 'steps[4]' && x.text.startsWith('{\n  "analysis": "Based on the handoff')), 'continuation steps follow');
  // Read on its own, the continuation keeps its copied context.
  const cont = await load(`${base}.cont-1.json`);
  assert.deepEqual(cont.t.summary.byKind, { user: 3, thought: 1, action: 4, observation: 4 });
});

test('non-canonical ATIF "1.4": tool results moved after the call that made them, failed Write not an edit', async () => {
  const { t, problems } = await load('atif/openagents-tbench/regex-log/20251211-161750-ba4ddb16/trajectory.json');
  const s = t.summary;
  assert.equal(s.format, 'atif');
  assert.deepEqual(problems, [
    'non-canonical ATIF schema_version "1.4" (expected "ATIF-v1.x")',
    '5 tool result step(s) came before the step that made the call; moved after it',
  ]);
  assert.deepEqual(s.byKind, { user: 1, thought: 3, tool_call: 2, tool_result: 5 });
  assert.equal(s.model, 'claude-sonnet-4-20250514');
  assert.equal(s.tokens!.input, 70);
  assert.equal(s.exitStatus, 'success', 'what the file claims; the verifier never ran');
  assert.deepEqual(
    t.steps.map((x) => `${x.kind} ${x.sourceRef}`),
    [
      'user steps[0]',
      'thought steps[1]',
      'thought steps[6]',
      'tool_call steps[6]',
      'tool_result steps[2]',
      'tool_result steps[3]',
      'tool_result steps[4]',
      'tool_result steps[5]',
      'thought steps[8]',
      'tool_call steps[8]',
      'tool_result steps[7]',
    ],
  );
  // The agent tried /app/regex.txt (EACCES) and wrote /tmp/.../regex.txt instead.
  assert.deepEqual(editsOf(t).map((e) => e.split(' ').slice(1).join(' ')), ['Write: /tmp/tmp.Gtrekx29jH/regex.txt']);
});

test('Claude Code session: order from parentUuid, progress, snapshot and hook-summary lines skipped and counted, usage once per response', async () => {
  const dir = 'claude-code/entire-checkpoints/08/5de903e0fb/0';
  const { t, problems } = await load(`${dir}/full.jsonl`);
  const s = t.summary;
  assert.equal(s.format, 'claude-code');
  assert.deepEqual(problems, []);
  assert.deepEqual(s.byKind, { user: 1, thought: 2, tool_call: 4, tool_result: 4 });
  assert.deepEqual(s.skipped, { 'file-history-snapshot': 2, 'progress/hook_progress': 13, 'system/stop_hook_summary': 1 });
  assert.equal(s.model, 'claude-opus-4-6');
  // Entire's own metadata.json for this checkpoint counts the same tokens and the same touched file.
  const meta = JSON.parse(readFileSync(path.join(TRAJ, dir, 'metadata.json'), 'utf8')) as {
    token_usage: { input_tokens: number; cache_creation_tokens: number; cache_read_tokens: number; output_tokens: number };
    files_touched: string[];
  };
  const u = meta.token_usage;
  assert.deepEqual(s.tokens, { input: u.input_tokens + u.cache_creation_tokens + u.cache_read_tokens, output: u.output_tokens });
  assert.deepEqual(
    editsOf(t).map((e) => path.basename(e.split(': ')[1]!)),
    meta.files_touched,
  );
  assert.deepEqual(
    t.steps.map((x) => `${x.kind} ${x.sourceRef}`),
    [
      'user line 3',
      'thought line 5',
      'tool_call line 6',
      'tool_result line 9',
      'tool_call line 10',
      'tool_result line 14',
      'tool_call line 15',
      'tool_result line 20',
      'tool_call line 21',
      'tool_result line 24',
      'thought line 25',
    ],
  );
  for (const r of t.steps.filter((x) => x.kind === 'tool_result')) {
    const call = t.steps[r.index - 1]!;
    assert.equal(call.kind, 'tool_call');
  }
});

test('Claude Code stream-json embedded in a custom eval JSON, truncated mid-line', () => {
  const file = path.join(SAMPLES, 'swebench/harness_logs/astropy__astropy-12907/claude-code-opus_coding-agent-eval/patches_astropy__astropy-12907.json');
  const raw = (JSON.parse(readFileSync(file, 'utf8')) as { raw_output: string }).raw_output;
  const r = normalizeTrajectoryText(raw, 'patches_astropy__astropy-12907.json#raw_output');
  assert.ok(r.ok);
  assert.equal(r.trajectory.summary.format, 'claude-code');
  assert.deepEqual(r.trajectory.summary.byKind, { tool_call: 2, tool_result: 1 });
  assert.equal(r.trajectory.summary.model, 'claude-opus-4-7');
  assert.equal(r.trajectory.summary.exitStatus, undefined, 'the result line was cut off');
  assert.deepEqual(
    r.problems.map((p) => [p.severity, p.line, p.message]),
    [['warning', 7, 'line 7 is cut short (truncated file?); it was left out']],
  );
  assert.deepEqual(r.trajectory.steps.map((x) => x.toolCalls?.[0]?.name ?? x.kind), ['Bash', 'tool_result', 'Read']);
});

test('every sample reads the same from a file, from text, in any chunking, and summarized', async () => {
  for (const f of walk(TRAJ).map(rel)) {
    const abs = path.join(TRAJ, f);
    const fromFile = await readTrajectory(abs, { fileLabel: f });
    if (!fromFile.ok) continue;
    const bytes = readFileSync(abs);
    const summary = await summarizeTrajectory(abs, { fileLabel: f });
    assert.ok(summary.ok);
    assert.deepEqual(summary.summary, fromFile.trajectory.summary, `${f}: summary`);
    if (f.includes('.trajectory.json')) continue; // the continuation is only followed from a file
    const fromText = normalizeTrajectoryText(bytes.toString('utf8'), f);
    assert.ok(fromText.ok);
    assert.deepEqual(fromText.trajectory, fromFile.trajectory, `${f}: text`);
    const sizes = bytes.length < 60_000 ? [1, 7, 4093] : [4093, 65536];
    for (const size of sizes) {
      const { TrajectoryBuilder } = await import('../../../src/core/trajectory/normalize');
      const b = new TrajectoryBuilder({ fileLabel: f });
      for (let i = 0; i < bytes.length; i += size) b.push(bytes.subarray(i, i + size));
      const chunked = firstInstanceResult(b.end());
      assert.ok(chunked.ok);
      assert.deepEqual(chunked.trajectory, fromFile.trajectory, `${f}: chunks of ${size}`);
    }
  }
});

test('every sample with a UTF-8 BOM and CRLF line endings reads exactly as the original', () => {
  for (const f of walk(TRAJ).map(rel)) {
    const text = readFileSync(path.join(TRAJ, f), 'utf8');
    const original = firstInstanceResult(buildFromText(text, { fileLabel: f }));
    // JSON strings never hold a raw newline, so every LF in the file is structural.
    const variant = firstInstanceResult(buildFromText('\ufeff' + text.replace(/\r?\n/g, '\r\n'), { fileLabel: f }));
    assert.deepEqual(variant, original, f);
  }
});
