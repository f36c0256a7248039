// OpenHands issue-resolver output lines (`{issue, instruction, base_commit, git_patch, history, metrics, success,
// ...}`, research §4; fixture: test/fixtures/trajectories/openhands-resolver, whose README names the source).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { listTrajectoryInstances, readTrajectory } from '../../../src/adapters/fs/trajectoryReader';

const FILE = path.resolve(__dirname, '../../fixtures/trajectories/openhands-resolver/output.jsonl');

test('OpenHands resolver output: asdict history without ids, the patch with its CRLF undone, the instance id, success as a claim', async () => {
  const r = await readTrajectory(FILE, { fileLabel: 'output.jsonl' });
  assert.ok(r.ok, r.ok ? '' : r.problem.message);
  const t = r.trajectory;
  const s = t.summary;
  assert.equal(s.format, 'openhands-resolver');
  assert.deepEqual(r.problems.map((p) => p.message), ['the file holds 2 OpenHands resolver instances, one per line; this is the first (acme__widgets-7)']);
  assert.deepEqual(
    t.steps.map((x) => `${x.kind} ${x.sourceRef} ${x.text.split('\n')[0]}`),
    [
      'user history[0] Please fix the following issue for the repository in /workspace.',
      'thought history[1] Let me find it.',
      'action history[1] grep -n count src/m.py',
      'observation history[2] 1:def count(xs):\r',
      "action history[3] sed -i 's/len(xs) - 1/len(xs)/' src/m.py",
      'observation history[4] \r',
      'thought history[5] Check the file.',
      "action history[5] print(open('src/m.py').read())",
      'observation history[6] def count(xs):',
      'action history[7] Fixed.',
    ],
  );
  assert.equal(s.instanceId, 'acme__widgets-7');
  assert.equal(s.repo, 'acme/widgets');
  assert.equal(s.baseCommit, 'abc123def456');
  assert.equal(s.costUsd, 0.012);
  assert.equal(s.exitStatus, 'finished');
  assert.equal(s.submission, 'diff --git a/src/m.py b/src/m.py\nindex 1111111..2222222 100644\n--- a/src/m.py\n+++ b/src/m.py\n@@ -1,2 +1,2 @@\n def count(xs):\n-    return len(xs) - 1\n+    return len(xs)\n');
  assert.deepEqual(s.claimed, { status: 'success', summary: 'The patch changes count() to return len(xs).' });
  assert.deepEqual(s.notes, [
    'git_patch has CRLF line endings (captured through a terminal); read with LF line endings',
    "success: true is the agent's own claim, not a verdict",
  ]);
  assert.equal(s.model, undefined, 'a resolver line names no model');
  assert.deepEqual(
    t.steps.flatMap((x) => (x.edits ?? []).map((e) => `${e.via}: ${e.path}`)),
    ['sed -i: src/m.py'],
  );
});

test('OpenHands resolver: every line is an instance; newer asdict keys, an empty base commit and patch, an error', async () => {
  const listed = await listTrajectoryInstances(FILE);
  assert.ok(listed.ok);
  assert.deepEqual(listed.instances.map((i) => i.instanceId), ['acme__widgets-7', 'acme__widgets-9']);
  const second = listed.instances[1]!;
  const s = second.summary;
  assert.equal(s.format, 'openhands-resolver');
  assert.deepEqual(s.byKind, { user: 1, thought: 2, action: 1, observation: 1 });
  assert.equal(s.exitStatus, 'error: Agent reached maximum iteration in headless mode. Current iteration: 30, max iteration: 30');
  assert.equal(s.baseCommit, undefined, 'base_commit "" says nothing');
  assert.equal(s.submission, undefined);
  assert.deepEqual(s.tokens, { input: 3000, output: 120 });
  assert.deepEqual(s.claimed, { status: 'failure' });
  assert.ok(second.byteRange !== undefined);
});
