// Plain chat-message lists as AutoCodeRover, Agentless, mini-swe-agent v2 (text-based models), LiteLLM and
// OpenHands' completion logs write them (research §3; fixtures: test/fixtures/trajectories/chat-messages, whose
// README names the public sources).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { NormalizedTrajectory } from '../../../src/core/model';
import { listTrajectoryInstances, readTrajectory, summarizeTrajectory } from '../../../src/adapters/fs/trajectoryReader';
import { normalizeTrajectoryText } from '../../../src/core/trajectory/normalize';

const FIX = path.resolve(__dirname, '../../fixtures/trajectories/chat-messages');
const ACR = 'autocoderover/acr-run-1/applicable_patch/acme__widgets-7_2024-04-06_13-51-50';

async function read(rel: string): Promise<{ t: NormalizedTrajectory; problems: string[] }> {
  const r = await readTrajectory(path.join(FIX, rel), { fileLabel: rel });
  assert.ok(r.ok, r.ok ? '' : r.problem.message);
  return { t: r.trajectory, problems: r.problems.map((p) => p.message) };
}

const kinds = (t: NormalizedTrajectory): string[] => t.steps.map((s) => `${s.kind} ${s.sourceRef}`);
const editsOf = (t: NormalizedTrajectory): string[] => t.steps.flatMap((s) => (s.edits ?? []).map((e) => `${e.via}: ${e.path}`));

test('a bare chat-message array (an AutoCodeRover conversation round) is read as chat-messages', async () => {
  const { t, problems } = await read(`${ACR}/conversation_round_1.json`);
  assert.deepEqual(problems, []);
  assert.equal(t.summary.format, 'chat-messages');
  assert.deepEqual(kinds(t), ['system [0]', 'user [1]', 'user [2]', 'thought [3]', 'observation [4]', 'observation [5]']);
  assert.match(t.steps[4]!.text, /^Result of search_method\("count"\)/, 'search results come back as user messages: observations');
});

test('an AutoCodeRover task folder: the largest cumulative round, never concatenated; model, cost, tokens, patch, status from its companions', async () => {
  const { t, problems } = await read(ACR);
  assert.deepEqual(problems, []);
  const s = t.summary;
  assert.equal(s.format, 'autocoderover');
  assert.equal(s.steps, 7, 'conversation_round_2.json alone (rounds 0 and 1 are its prefixes)');
  assert.equal(t.steps[0]!.sourceRef, '[0]');
  assert.equal(s.instanceId, 'acme__widgets-7');
  assert.equal(s.model, 'gpt-4-0125-preview');
  assert.equal(s.costUsd, 0.0584);
  assert.deepEqual(s.tokens, { input: 5120, output: 240 });
  assert.equal(s.exitStatus, 'applicable_patch');
  assert.match(s.submission!, /^diff --git a\/src\/m.py b\/src\/m.py\nindex 1111111\.\.2222222/, "the model's extracted patch, not developer_patch.diff (gold)");
  assert.equal(s.repo, 'acme/widgets');
  assert.equal(s.baseCommit, '91b73692253827a03cfbd98411a5d809b46a776b');
  assert.deepEqual(s.notes, [
    'read conversation_round_2.json, the largest of 3 cumulative conversation round(s)',
    "the patch is extracted_patch_1.diff (developer_patch.diff is the task's gold patch)",
  ]);
  const listed = await listTrajectoryInstances(path.join(FIX, ACR));
  assert.ok(listed.ok);
  assert.deepEqual(listed.instances.map((i) => i.instanceId), ['acme__widgets-7']);
  const run = await readTrajectory(path.join(FIX, 'autocoderover/acr-run-1'), { fileLabel: 'acr-run-1' });
  assert.ok(!run.ok);
  assert.match(run.problem.message, /^it is a folder, not a file \(and not an AutoCodeRover task folder/);
});

test('mini-swe-agent v2 text-based messages: the last mswea_bash_command fence is the action, exit message gives status and patch', async () => {
  for (const rel of ['mini-swe-agent-v2/messages.json', 'mini-swe-agent-v2/acme__widgets-7/acme__widgets-7.traj.json']) {
    const { t, problems } = await read(rel);
    assert.deepEqual(problems, [], rel);
    const s = t.summary;
    assert.equal(s.format, 'mini-swe-agent', rel);
    assert.deepEqual(s.byKind, { system: 1, submission: 1, user: 1, thought: 3, action: 3, observation: 2 }, rel);
    assert.deepEqual(
      t.steps.filter((x) => x.kind === 'action').map((x) => x.text),
      ["grep -n 'def count' -r src", "sed -i 's/len(xs) - 1/len(xs)/' src/m.py", 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff'],
      `${rel}: the explanatory python fence before the action is part of the thought`,
    );
    assert.match(t.steps[2]!.text, /```python\nassert count/);
    assert.equal(s.exitStatus, 'Submitted');
    assert.match(s.submission!, /^diff --git a\/src\/m.py/);
    assert.deepEqual(s.tokens, { input: 4800, output: 95 });
    assert.ok(Math.abs(s.costUsd! - 0.0057) < 1e-12, rel);
    assert.deepEqual(editsOf(t), ['sed -i: src/m.py']);
  }
  const { t } = await read('mini-swe-agent-v2/acme__widgets-7/acme__widgets-7.traj.json');
  assert.equal(t.summary.instanceId, 'acme__widgets-7');
  assert.equal(t.summary.model, 'openai/gpt-5-mini');
  // The XML form of the same action.
  const xml = normalizeTrajectoryText(
    JSON.stringify([
      { role: 'user', content: 'fix it' },
      { role: 'assistant', content: 'THOUGHT: look.\n<mswea_bash_command>ls src</mswea_bash_command>' },
    ]),
    'xml.json',
  );
  assert.ok(xml.ok);
  assert.equal(xml.trajectory.summary.format, 'mini-swe-agent');
  assert.deepEqual(xml.trajectory.steps.map((s) => `${s.kind} ${s.text}`), ['user fix it', 'thought THOUGHT: look.', 'action ls src']);
});

test('Agentless repair output: one instance per line, prompt and response steps, Claude tool blocks, tokens with the cache', async () => {
  const rel = 'agentless/repair_sample_1/output.jsonl';
  const { t, problems } = await read(rel);
  assert.equal(t.summary.format, 'agentless');
  assert.deepEqual(problems, ['the file holds 2 Agentless instances, one per line; this is the first (acme__widgets-7)']);
  assert.deepEqual(kinds(t), ['user traj[0].prompt', 'thought traj[0].response']);
  assert.deepEqual(t.summary.tokens, { input: 900, output: 40 });
  assert.equal(t.summary.submission, undefined, 'the patches are in the predictions files');
  const listed = await listTrajectoryInstances(path.join(FIX, rel));
  assert.ok(listed.ok);
  assert.deepEqual(listed.instances.map((i) => i.instanceId), ['acme__widgets-7', 'acme__widgets-9']);
  const second = listed.instances[1]!;
  assert.deepEqual(second.summary.byKind, { user: 1, thought: 1, tool_call: 1 });
  assert.deepEqual(second.summary.tokens, { input: 2000, output: 55 });
  const loc = await read('agentless/file_level/loc_outputs.jsonl');
  assert.equal(loc.t.summary.format, 'agentless');
  assert.deepEqual(kinds(loc.t), ['user file_traj.prompt', 'thought file_traj.response']);
  const processed = await readTrajectory(path.join(FIX, 'agentless/repair_sample_1/output_0_processed.jsonl'));
  assert.ok(!processed.ok, 'predictions are not a trajectory');
});

test('LiteLLM call log: the last call is the trajectory, cost and tokens summed over the calls', async () => {
  const { t, problems } = await read('litellm/calls.jsonl');
  assert.deepEqual(problems, []);
  const s = t.summary;
  assert.equal(s.format, 'litellm');
  assert.deepEqual(kinds(t), ['system line 2 messages[0]', 'user line 2 messages[1]', 'tool_call line 2 messages[2]', 'tool_result line 2 messages[3]', 'thought line 2 response']);
  assert.equal(t.steps[2]!.text, 'cat src/m.py');
  assert.ok(Math.abs(s.costUsd! - 0.0027) < 1e-12);
  assert.deepEqual(s.tokens, { input: 1900, output: 80 });
  assert.equal(s.model, 'gpt-4o');
  assert.equal(s.exitStatus, 'success');
  assert.deepEqual(s.notes, ["2 logged LLM call(s); the steps are the last call's messages and reply, cost and tokens the sum over the calls"]);
  const summary = await summarizeTrajectory(path.join(FIX, 'litellm/calls.jsonl'));
  assert.ok(summary.ok);
  assert.deepEqual(summary.summary, s);
});

test('an OpenHands llm_completions file: the prompt messages, then the logged response', async () => {
  const { t } = await read('openhands-llm-completions/acme__widgets-7/gpt-4o-1767000000.5.json');
  assert.equal(t.summary.format, 'chat-messages');
  assert.deepEqual(t.steps.map((s) => `${s.kind} ${s.text}`), ['system You are OpenHands agent.', 'user fix count() in src/m.py', 'thought Let me look.', 'tool_call cat src/m.py']);
  assert.equal(t.summary.costUsd, 0.0009);
  assert.equal(t.summary.model, 'gpt-4o-2024-08-06');
  assert.deepEqual(t.summary.tokens, { input: 800, output: 20 });
});

test('chat content in every shape: null with tool calls, Anthropic blocks, tool results in user messages, odd roles', () => {
  const r = normalizeTrajectoryText(
    JSON.stringify([
      { role: 'system', content: [{ type: 'text', text: 'sys' }] },
      { role: 'user', content: [{ type: 'text', text: 'task' }, { type: 'image_url', image_url: { url: 'data:' } }] },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm' }, { type: 'tool_use', id: 't1', name: 'str_replace_editor', input: { command: 'create', path: '/r/a.py', file_text: 'x' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ERROR: no such dir', is_error: true }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'bash', arguments: '{"command":"echo hi > /r/b.txt"}' } }] },
      { role: 'tool', tool_call_id: 'c2', content: 'ok' },
      { role: 'function', name: 'f', content: 'legacy' },
      { role: 'assistant', content: 'done' },
    ]),
    'mixed.json',
  );
  assert.ok(r.ok);
  assert.deepEqual(
    r.trajectory.steps.map((s) => `${s.kind} ${s.text.split('\n')[0]}`),
    ['system sys', 'user task', 'thought hmm', 'tool_call str_replace_editor create /r/a.py', 'tool_result ERROR: no such dir', 'tool_call echo hi > /r/b.txt', 'tool_result ok', 'tool_result legacy', 'thought done'],
  );
  assert.equal(r.trajectory.steps[1]!.text, 'task\n[image]');
  assert.deepEqual(editsOf(r.trajectory), ['redirect: /r/b.txt'], 'the failed create is dropped, the shell edit stays');
});
