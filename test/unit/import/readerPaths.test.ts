// The trajectory reader reads a file of at most one chunk (1 MiB) with one read, and streams a bigger one: an import
// lists tens of thousands of small trajectories. Both paths give the same summary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listTrajectoryInstances, summarizeTrajectory } from '../../../src/adapters/fs/trajectoryReader';
import { tmpDir } from '../helpers/tmp';

function miniTraj(filler: number): string {
  return JSON.stringify({
    info: { model_stats: { instance_cost: 0.5, api_calls: 2 }, config: { model: { model_name: 'openai/gpt-x' } }, mini_version: '1.15.0', exit_status: 'Submitted', submission: 'diff --git a/a b/a\n' },
    messages: [
      { role: 'system', content: 'You fix bugs.' },
      { role: 'user', content: `Fix it.${' pad'.repeat(filler)}` },
      { role: 'assistant', content: '```bash\nls\n```' },
    ],
    trajectory_format: 'mini-swe-agent-1',
    instance_id: 'acme__widgets-1',
  });
}

test('a small and a big trajectory (read whole vs streamed) give the same summary and report progress to the end', async () => {
  const dir = tmpDir();
  const small = path.join(dir, 'small.traj.json');
  const big = path.join(dir, 'big.traj.json');
  fs.writeFileSync(small, miniTraj(10));
  fs.writeFileSync(big, miniTraj(600_000));
  assert.ok(fs.statSync(big).size > 2 * (1 << 20), 'the big file spans several stream chunks');
  const progress: Array<[number, number]> = [];
  const a = await listTrajectoryInstances(small);
  const b = await listTrajectoryInstances(big, { onProgress: (done, total) => progress.push([done, total]) });
  assert.ok(a.ok && b.ok);
  const pick = (r: typeof a) => (r.ok ? r.instances.map((i) => [i.instanceId, i.summary.format, i.summary.model, i.summary.costUsd, i.summary.exitStatus, i.summary.steps]) : []);
  assert.deepEqual(pick(b), pick(a));
  assert.ok(progress.length > 1, 'streamed in chunks');
  assert.deepEqual(progress[progress.length - 1], [fs.statSync(big).size, fs.statSync(big).size]);
  const seen: Array<[number, number]> = [];
  const s = await summarizeTrajectory(small, { onProgress: (done, total) => seen.push([done, total]) });
  assert.ok(s.ok);
  assert.deepEqual(seen, [[fs.statSync(small).size, fs.statSync(small).size]]);
  // Not a file, or gone: the same problems as before, from the stream.
  const missing = await listTrajectoryInstances(path.join(dir, 'nope.json'));
  assert.deepEqual(missing.ok ? '' : missing.problem.message, 'the file does not exist');
  const folder = await listTrajectoryInstances(dir);
  assert.match(folder.ok ? '' : folder.problem.message, /^it is a folder, not a file/);
});
