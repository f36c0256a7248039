// Files users bring that the trajectory reader does not read are named with the reason, never read as something
// else: an Aider chat history (fixture: test/fixtures/trajectories/unsupported, README names the source), and the
// companions of trajectories in ../shared/samples (predictions, task rows, reports).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { readTrajectory } from '../../../src/adapters/fs/trajectoryReader';
import { KNOWN_FORMATS_TEXT } from '../../../src/core/trajectory/detect';
import { normalizeTrajectoryText } from '../../../src/core/trajectory/normalize';

const FIX = path.resolve(__dirname, '../../fixtures/trajectories');
const SWEBENCH = path.resolve(__dirname, '../../../../shared/samples/swebench');

async function reason(abs: string, label: string): Promise<string> {
  const r = await readTrajectory(abs, { fileLabel: label });
  assert.ok(!r.ok, `${label} must not read as a trajectory`);
  assert.equal(r.problem.file, label);
  assert.equal(r.problem.severity, 'error');
  return r.problem.message;
}

test('an Aider chat history is named as one, with why it is not read', async () => {
  assert.equal(
    await reason(path.join(FIX, 'unsupported/.aider.chat.history.md'), '.aider.chat.history.md'),
    'not a trajectory: an Aider chat history (Markdown): it records no instance, model, cost or patch, and is not read',
  );
  // Any other Markdown or text is simply not JSON.
  assert.match((normalizeTrajectoryText('# Notes\n\nsome text\n', 'notes.md') as { problem: { message: string } }).problem.message, /^not a JSON or JSONL file: expected a JSON value, found '#' at line 1/);
});

test('predictions, task rows and evaluation reports given as trajectories say what they are', async () => {
  const cases: Array<[string, RegExp]> = [
    ['predictions/blacksmith_predictions_swebench_v1.1.0.jsonl', /^not a trajectory: SWE-bench-style predictions \(instance_id, model_patch\): import them with --predictions$/],
    ['predictions/swe-bench_preds_sbl.gold.json', /^not a trajectory: SWE-bench-style predictions/],
    ['instances/swebench-lite_rows.string-encoded.jsonl', /^not a trajectory: SWE-bench-style task rows: import them with --instances$/],
    ['instances/swe-agent_swe-bench-lite-test.list-encoded.json', /^not a trajectory: SWE-bench-style task rows/],
    ['harness_logs/astropy__astropy-12907/composio-langgraph/report.json', /^not a trajectory: an evaluation report \(report\.json\): import it with --reports$/],
  ];
  for (const [rel, re] of cases) assert.match(await reason(path.join(SWEBENCH, rel), rel), re, rel);
});

test('JSON of no known shape is still "not a known trajectory format", with its keys and what is expected', () => {
  const r = normalizeTrajectoryText('{"name": "config", "version": 3}', 'config.json');
  assert.ok(!r.ok);
  assert.equal(r.problem.message, `not a known trajectory format: a JSON object with keys name, version; ${KNOWN_FORMATS_TEXT}`);
});
