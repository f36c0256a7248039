// Codex CLI rollouts of every generation and `codex exec --json` output, in the shapes of real files (research §2;
// fixtures: test/fixtures/trajectories/codex, whose README names the public sources).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { NormalizedTrajectory } from '../../../src/core/model';
import { readTrajectory, summarizeTrajectory } from '../../../src/adapters/fs/trajectoryReader';
import { normalizeTrajectoryText } from '../../../src/core/trajectory/normalize';

const FIX = path.resolve(__dirname, '../../fixtures/trajectories/codex');
const G2 = 'rollout-2025-11-22T21-45-35-019aad50-0000-7000-8000-00000000c0de.jsonl';
const G1 = 'rollout-2025-07-20T15-20-47-5973b6c0-94b8-487b-a530-2aeb6098ae0e.jsonl';
const G0 = 'rollout-2025-05-01-0c0ffee0-1111-4222-8333-444455556666.json';

async function read(name: string): Promise<{ t: NormalizedTrajectory; problems: string[] }> {
  const r = await readTrajectory(path.join(FIX, name), { fileLabel: name });
  assert.ok(r.ok, r.ok ? '' : r.problem.message);
  return { t: r.trajectory, problems: r.problems.map((p) => p.message) };
}

const line = (t: NormalizedTrajectory): string[] => t.steps.map((s) => `${s.kind} ${s.sourceRef} ${s.text.split('\n')[0]}`);
const editsOf = (t: NormalizedTrajectory): string[] => t.steps.flatMap((s) => (s.edits ?? []).map((e) => `${e.via}: ${e.path}`));

test('Codex rollout (session_meta / response_item / event_msg lines): steps once each, model, tokens, exit status', async () => {
  const { t, problems } = await read(G2);
  const s = t.summary;
  assert.equal(s.format, 'codex');
  assert.deepEqual(problems, []);
  assert.deepEqual(line(t), [
    'system line 2 <permissions instructions>',
    'system line 3 # AGENTS.md instructions for /app',
    'system line 4 <environment_context>',
    'user line 5 Fix the off-by-one in count().',
    'thought line 11 **Locating count**',
    "tool_call line 12 grep -n 'def count' -r src",
    'tool_call line 13 cat tests/test_m.py',
    'tool_result line 14 Exit code: 0',
    'tool_result line 15 def test_count():',
    'tool_call line 16 *** Begin Patch',
    'tool_result line 18 Success. Updated the following files:',
    'tool_call line 19 python -m pytest -q',
    'tool_result line 20 Chunk ID: 4f1a',
    'thought line 23 Fixed count(); the test passes.',
    // the second prompt was written as an event first, then as a response item: one user step
    'user line 26 Also run flake8.',
    'tool_call line 28 flake8 src',
    'tool_result line 29 ',
    'tool_call line 30 web_search flake8 E501',
    'system line 32 Summary: fixed count(); ran the tests and flake8.',
  ]);
  assert.deepEqual(s.byKind, { system: 4, user: 2, thought: 2, tool_call: 6, tool_result: 5 });
  assert.equal(s.model, 'gpt-5.1-codex');
  assert.deepEqual(s.tokens, { input: 9000, output: 120 }, 'the last token_count total');
  assert.equal(s.exitStatus, 'aborted: interrupted', 'the last turn was aborted');
  assert.equal(s.repo, 'https://github.com/acme/widgets.git');
  assert.equal(s.baseCommit, 'abc123d');
  assert.equal(s.costUsd, undefined, 'a rollout records no cost');
  assert.equal(s.submission, undefined, 'nor a patch');
  assert.deepEqual(s.skipped, {
    'response_item/ghost_snapshot': 1,
    'response_item/tool_search_call': 1,
    'event_msg/context_compacted': 1,
    'event_msg (repeats a response_item)': 4,
  });
  assert.deepEqual(editsOf(t), ['apply_patch: src/m.py']);
  const call = t.steps.find((x) => x.sourceRef === 'line 13')!;
  assert.deepEqual(call.toolCalls, [{ name: 'shell', id: 'call_2', arguments: '{"command":["bash","-lc","cat tests/test_m.py"],"workdir":"/app","timeout_ms":10000}' }]);
  assert.equal(t.steps.find((x) => x.sourceRef === 'line 15')!.text, 'def test_count():\n    assert count([1, 2]) == 2\n', 'the output inside the JSON-encoded output');
});

test('Codex rollout: an event message with no response item twin is kept; the "paginated" G3 lines read the same', () => {
  const lines = readFileSync(path.join(FIX, G2), 'utf8').trimEnd().split('\n');
  // Without the response item of the first prompt, its event message is the only record of it.
  const without = lines.filter((_, i) => i !== 4);
  const r = normalizeTrajectoryText(without.join('\n'), G2);
  assert.ok(r.ok);
  assert.deepEqual(
    r.trajectory.steps.filter((s) => s.kind === 'user').map((s) => `${s.sourceRef} ${s.text}`),
    ['line 5 Fix the off-by-one in count().', 'line 25 Also run flake8.'],
  );
  const g3 = lines.map((l, i) => {
    const o = JSON.parse(l) as Record<string, unknown>;
    return JSON.stringify({ timestamp: o.timestamp, ordinal: i, type: o.type, payload: o.payload });
  });
  const a = normalizeTrajectoryText(lines.join('\n'), G2);
  const b = normalizeTrajectoryText(g3.join('\n'), G2);
  assert.ok(a.ok && b.ok);
  assert.deepEqual(b.trajectory, a.trajectory);
});

test('Codex G1 (bare header, state markers, bare response items) and G0 (one JSON object) rollouts', async () => {
  const g1 = await read(G1);
  assert.equal(g1.t.summary.format, 'codex');
  assert.deepEqual(g1.problems, []);
  assert.deepEqual(line(g1.t), [
    'user line 3 Fix the off-by-one in count().',
    'tool_call line 5 grep -n count src/m.py',
    'tool_result line 6 3:def count(xs):',
    "tool_call line 7 apply_patch '*** Begin Patch",
    'tool_result line 8 Done!',
    'thought line 10 Fixed count().',
  ]);
  assert.deepEqual(editsOf(g1.t), ['apply_patch: src/m.py']);
  assert.equal(g1.t.summary.baseCommit, 'abc123d');
  assert.deepEqual(g1.t.summary.skipped, { 'record_type/state': 2, 'response_item/reasoning (encrypted only)': 1 });

  const g0 = await read(G0);
  assert.equal(g0.t.summary.format, 'codex');
  assert.deepEqual(line(g0.t), ['user items[0] List the files.', 'tool_call items[1] ls', 'tool_result items[2] a', 'thought items[3] One file: a.']);
  assert.equal(g0.t.summary.model, 'codex-mini-latest');
  const summary = await summarizeTrajectory(path.join(FIX, G0), { fileLabel: G0 });
  assert.ok(summary.ok);
  assert.deepEqual(summary.summary, g0.t.summary);
});

test('codex exec --json output (Harbor codex.txt): commands with their output, file changes, usage', async () => {
  const { t, problems } = await read('codex.txt');
  assert.equal(t.summary.format, 'codex-exec');
  assert.deepEqual(problems, []);
  assert.deepEqual(line(t), [
    'thought line 3 **Looking for count**',
    'tool_call line 5 grep -n count src/m.py',
    'tool_result line 5 3:def count(xs):',
    'tool_call line 6 apply_patch',
    'thought line 7 Fixed count().',
  ]);
  assert.deepEqual(editsOf(t), ['apply_patch: /app/src/m.py']);
  assert.deepEqual(t.summary.tokens, { input: 9000, output: 120 });
  assert.equal(t.summary.exitStatus, 'completed');
  assert.deepEqual(t.summary.skipped, { 'thread.started': 1, 'turn.started': 1, 'item.started': 1 });
});
