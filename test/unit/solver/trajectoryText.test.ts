// The trajectory's text kept between steps (TrajectoryText) is, after every step of every kind of ending, byte for
// byte the document serialised whole (JSON.stringify(trajectoryDocument(...))), the text runTrial wrote before it
// kept the serialised messages; it reads back through the importer as mini-swe-agent.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ModelReply } from '../../../src/core/solver/agent';
import { DEFAULT_LIMITS, SolverRun, SUBMIT_SENTINEL, TrajectoryText, trajectoryDocument } from '../../../src/core/solver/agent';
import { normalizeTrajectoryText } from '../../../src/core/trajectory/normalize';

const task = { request: 'Fix format_duration rounding. «précision» \u2028 </script>', workdir: '/repo' };
const tool = (command: string, n: number): ModelReply => ({ text: `THOUGHT: ${n} ✓`, toolCalls: [{ id: `call_${n}`, name: 'bash', arguments: JSON.stringify({ command }) }], costUsd: 0.01, promptTokens: 100, completionTokens: 20 });

/** Outputs a command could give: plain, hostile bytes as text, control characters, a lone surrogate, a flood. */
const outputs = ['f.py\n', 'é\u0000\u001b[31mred\u001b[0m\r\n', '\ud800 half a pair', `${'x'.repeat(12_000)}`, '"quoted" \\ back\tslash'];

type End = (run: SolverRun, step: number) => boolean;

/** Drives a run, asserting after every call that the kept text is the whole document's text. Returns the run. */
function drive(limits: Partial<typeof DEFAULT_LIMITS>, end: End, clock = { t: 1_000_000 }): { run: SolverRun; checked: number } {
  const run = new SolverRun(task, { ...DEFAULT_LIMITS, ...limits }, () => clock.t);
  const kept = new TrajectoryText(run);
  let checked = 0;
  const check = (submission = '') => {
    const info = { model: 'scripted/é', submission };
    assert.equal(kept.text(info), JSON.stringify(trajectoryDocument(run, info)), `after ${run.messages.length} messages`);
    checked++;
  };
  check();
  for (let step = 0; step < 100; step++) {
    const a = run.next();
    if (a.kind === 'done') break;
    if (end(run, step)) {
      check();
      continue;
    }
    if (a.kind === 'query') {
      run.onReply(step % 7 === 5 ? { text: 'no command here' } : tool(step % 3 === 0 ? `cat f.py # ${step}` : `echo ${step}`, step));
    } else {
      clock.t += 1500;
      run.onOutput(step % 4, outputs[step % outputs.length] as string);
    }
    check();
  }
  check('diff --git a/f.py b/f.py\n+ é\n');
  return { run, checked };
}

describe('the trajectory text kept between steps', () => {
  const endings: Array<[string, Partial<typeof DEFAULT_LIMITS>, End]> = [
    ['Submitted', {}, (r, s) => (s === 12 ? (r.onReply(tool(`echo ${SUBMIT_SENTINEL}`, s)), r.next(), r.onOutput(0, `${SUBMIT_SENTINEL}\nsubmitted text`), true) : false)],
    ['LimitsExceeded', { stepLimit: 6 }, () => false],
    ['FormatError', { maxFormatErrors: 1 }, () => false],
    ['CostLimitExceeded', { costLimitUsd: 0.03 }, () => false],
    ['TimeLimitExceeded', { wallLimitSec: 8 }, () => false],
    ['Cancelled', {}, (r, s) => (s === 9 ? (r.onCancel(), true) : false)],
    ['ModelError', {}, (r, s) => (s === 4 ? (r.onModelError('HTTP 500 after 3 tries'), true) : false)],
    ['ContainerError', {}, (r, s) => (s === 3 ? (r.onContainerError('the container exited'), true) : false)],
  ];
  for (const [status, limits, end] of endings) {
    it(`is the whole document's text after every step of a trial that ends ${status}`, () => {
      const { run, checked } = drive(limits, end);
      assert.equal(run.exit?.exitStatus, status);
      assert.ok(checked >= 3, `checked ${checked} times`);
      const text = new TrajectoryText(run).text({ model: 'm', submission: '' });
      const r = normalizeTrajectoryText(text, 'trajectory.traj.json');
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(r.trajectory.summary.format, 'mini-swe-agent');
    });
  }
});
