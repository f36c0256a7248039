// Claude Code sessions as real 2.1.x files have them (research §1): parallel tool calls written one line per block
// with one message.id, results written in the order the tools finished, a compaction with its summary, slash-command
// echoes, and bookkeeping lines. Fixture: test/fixtures/trajectories/claude-code-parallel (README names the source).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { readFileSync } from 'node:fs';
import { readTrajectory } from '../../../src/adapters/fs/trajectoryReader';
import { normalizeTrajectoryText } from '../../../src/core/trajectory/normalize';

const FIX = path.resolve(__dirname, '../../fixtures/trajectories/claude-code-parallel');

test('Claude Code parallel tool calls: one message, every result after the calls, no false branch', async () => {
  const r = await readTrajectory(path.join(FIX, 'session.jsonl'), { fileLabel: 'session.jsonl' });
  assert.ok(r.ok, r.ok ? '' : r.problem.message);
  const t = r.trajectory;
  assert.deepEqual(r.problems.map((p) => p.message), [], 'parallel calls are not a rewind');
  assert.deepEqual(
    t.steps.map((s) => `${s.kind} ${s.sourceRef}`),
    [
      'user line 2',
      'thought line 3',
      'tool_call line 4',
      'tool_call line 5',
      'tool_call line 6',
      // written in the order the tools finished (1, 3, 2); all after the three calls, before the next message
      'tool_result line 8',
      'tool_result line 9',
      'tool_result line 10',
      'thought line 11',
      'user line 14',
      // streamed one at a time: each call's result right after it
      'tool_call line 15',
      'tool_result line 16',
      'tool_call line 17',
      'tool_result line 18',
      'thought line 19',
      // the compaction: boundary, summary, caveat, the /compact echo and its output are not user steps
      'system line 22',
      'system line 23',
      'system line 24',
      'system line 25',
      'system line 26',
      'user line 28',
      'tool_call line 29',
      'tool_result line 30',
      'thought line 31',
    ],
  );
  assert.deepEqual(t.summary.byKind, { user: 3, thought: 4, tool_call: 6, tool_result: 6, system: 5 });
  assert.match(t.steps.find((s) => s.sourceRef === 'line 23')!.text, /^This session is being continued/);
  assert.equal(t.summary.model, 'claude-sonnet-4-5-20250929');
  // msg_A is four lines; its usage (the largest, on its last line) counts once.
  assert.deepEqual(t.steps[1]!.tokens, { input: 960, output: 88 });
  assert.deepEqual(t.summary.tokens, { input: 960 * 6, output: 88 + 12 + 61 + 9 + 30 + 5 });
  assert.deepEqual(t.summary.skipped, {
    'file-history-snapshot': 3,
    'progress/bash_progress': 1,
    'system/turn_duration': 1,
    'system/stop_hook_summary': 1,
    'queue-operation': 1,
    'pr-link': 1,
  });
  assert.deepEqual(t.summary.notes, [
    'skipped 8 line(s) that are not conversation steps: file-history-snapshot 3, progress/bash_progress 1, system/turn_duration 1, system/stop_hook_summary 1, queue-operation 1, pr-link 1',
  ]);
  assert.deepEqual(
    t.steps.flatMap((s) => (s.edits ?? []).map((e) => `${e.via}: ${e.path}`)),
    ['Edit: /w/app/src/m.py'],
  );
});

test('Claude Code: a rewind after parallel calls is still a branch; a result written before its call still follows it', async () => {
  const lines = readFileSync(path.join(FIX, 'session.jsonl'), 'utf8').trimEnd().split('\n');
  // The user rewinds to the first prompt and asks again: a second child of u-01 that is not part of msg_A.
  const retry = JSON.parse(lines[1]!) as Record<string, unknown>;
  retry.parentUuid = 'u-01';
  retry.uuid = 'u-99';
  retry.message = { role: 'user', content: 'Only count them' };
  const answer = JSON.parse(lines[10]!) as { parentUuid: string; uuid: string; message: { id: string; content: unknown[] } };
  answer.parentUuid = 'u-99';
  answer.uuid = 'a-99';
  answer.message.id = 'msg_Z';
  answer.message.content = [{ type: 'text', text: 'Three tests.' }];
  // Move r-01 (line 8) in front of the message whose call it answers.
  const moved = [lines[0]!, lines[1]!, lines[7]!, ...lines.slice(2, 7), ...lines.slice(8), JSON.stringify(retry), JSON.stringify(answer)];
  const r = normalizeTrajectoryText(moved.join('\n') + '\n', 'rewound.jsonl');
  assert.ok(r.ok);
  assert.deepEqual(r.problems.map((p) => p.message), ['the session branches at 1 point(s) (a rewind or retry); every branch is kept, in parentUuid order']);
  const texts = r.trajectory.steps.map((s) => `${s.kind} ${s.text.split('\n')[0]}`);
  assert.deepEqual(texts.slice(0, 9), [
    'user List the tests and count them',
    'thought Three calls at once.',
    'tool_call ls tests',
    'tool_call Grep tests',
    'tool_call Read /w/app/tests/test_b.py',
    'tool_result test_a.py',
    'tool_result      1\tdef test_b():',
    'tool_result tests/test_a.py:2',
    'thought Two files, three tests; test_b fails.',
  ]);
  assert.deepEqual(texts.slice(-2), ['user Only count them', 'thought Three tests.'], 'the other branch comes after the first, in tree order');
});

test('Claude Code: a sub-agent transcript alone (every line isSidechain) is read, not emptied', () => {
  const lines = readFileSync(path.join(FIX, 'session.jsonl'), 'utf8').trimEnd().split('\n').slice(1, 11);
  const side = lines.map((l) => {
    const o = JSON.parse(l) as Record<string, unknown>;
    return JSON.stringify({ ...o, isSidechain: true, agentId: 'a1b2c3' });
  });
  const r = normalizeTrajectoryText(side.join('\n') + '\n', 'agent-a1b2c3.jsonl');
  assert.ok(r.ok);
  assert.deepEqual(r.problems, []);
  assert.equal(r.trajectory.steps.length, 9);
  assert.deepEqual(r.trajectory.summary.notes, [
    'a sub-agent transcript: all 10 conversation line(s) are isSidechain lines',
    'skipped 1 line(s) that are not conversation steps: progress/bash_progress 1',
  ]);
});
