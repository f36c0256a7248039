// The solver loop's decisions: one command per turn (tool call or one fenced block), format errors told to the model
// and counted, the sentinel ends the trial, each limit ends it with its named status, output cut to head and tail with
// the cut said, and the trajectory written after any step reads back through the importer as mini-swe-agent.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ModelReply, SolverLimits } from '../../../src/core/solver/agent';
import { DEFAULT_LIMITS, isSubmission, observation, parseAction, SolverRun, SUBMIT_SENTINEL, trajectoryDocument } from '../../../src/core/solver/agent';
import { normalizeTrajectoryText } from '../../../src/core/trajectory/normalize';

const task = { request: 'Fix format_duration rounding.', workdir: '/repo' };
const tool = (command: string, id = 'call_1'): ModelReply => ({ text: '', toolCalls: [{ id, name: 'bash', arguments: JSON.stringify({ command }) }], costUsd: 0.01, promptTokens: 100, completionTokens: 20 });
const fenced = (command: string): ModelReply => ({ text: `THOUGHT: look.\n\n\`\`\`bash\n${command}\n\`\`\``, costUsd: 0.01 });

function clock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_000_000;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

/** Drives a run with scripted replies and command outputs until it is done. */
function drive(run: SolverRun, replies: ModelReply[], outputs: Array<[number, string]>): string[] {
  const commands: string[] = [];
  for (let guard = 0; guard < 100; guard++) {
    const a = run.next();
    if (a.kind === 'done') return commands;
    if (a.kind === 'query') {
      const r = replies.shift();
      if (!r) throw new Error('out of replies');
      run.onReply(r);
    } else {
      commands.push(a.command);
      const [code, out] = outputs.shift() ?? [0, ''];
      run.onOutput(code, out);
    }
  }
  throw new Error('no end');
}

describe('solver loop', () => {
  it('runs one command per turn and ends Submitted on the sentinel; the trajectory imports as mini-swe-agent', () => {
    const c = clock();
    const run = new SolverRun(task, DEFAULT_LIMITS, c.now);
    const cmds = drive(run, [tool('ls'), fenced("sed -i 's/round(/int(/' f.py"), tool(`echo ${SUBMIT_SENTINEL}`, 'call_3')], [[0, 'f.py\n'], [0, ''], [0, `${SUBMIT_SENTINEL}\n`]]);
    assert.deepEqual(cmds, ['ls', "sed -i 's/round(/int(/' f.py", `echo ${SUBMIT_SENTINEL}`]);
    assert.equal(run.exit?.exitStatus, 'Submitted');
    assert.equal(run.stats.steps, 3);
    const doc = trajectoryDocument(run, { model: 'm1', submission: 'diff --git a/f.py b/f.py\n' });
    const r = normalizeTrajectoryText(JSON.stringify(doc), 'trajectory.traj.json');
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.trajectory.summary.format, 'mini-swe-agent');
    const commands = r.trajectory.steps.flatMap((s) => (s.toolCalls ?? []).map((t) => JSON.stringify(t)));
    assert.ok(commands.some((t) => t.includes('ls')), `the tool call is a step: ${commands.join(' | ')}`);
    assert.ok(r.trajectory.steps.some((s) => s.text.includes('f.py')), 'the observation is a step');
  });

  it('a reply without exactly one command is a format error told to the model; three in a row end the trial', () => {
    const run = new SolverRun(task, DEFAULT_LIMITS, clock().now);
    const two = { text: '```bash\nls\n```\n```bash\npwd\n```' };
    drive(run, [{ text: 'I think so.' }, two, { text: '', toolCalls: [{ id: 'x', name: 'python', arguments: '{}' }] }], []);
    assert.equal(run.exit?.exitStatus, 'FormatError');
    const told = run.messages.filter((m) => (m.role === 'user' || m.role === 'tool') && m.content.includes('<format_error>'));
    assert.equal(told.length, 3);
    assert.match(told[1]?.content ?? '', /found 2/);
    assert.match(told[2]?.content ?? '', /no tool named "python"/);
  });

  it('a good reply resets the format-error count', () => {
    const run = new SolverRun(task, { ...DEFAULT_LIMITS, stepLimit: 6 }, clock().now);
    drive(run, [{ text: 'no' }, { text: 'no' }, tool('ls'), { text: 'no' }, { text: 'no' }, tool('pwd')], [[0, ''], [0, '']]);
    assert.equal(run.exit?.exitStatus, 'LimitsExceeded');
  });

  it('each limit ends the trial with its status', () => {
    const limits: SolverLimits = { ...DEFAULT_LIMITS, stepLimit: 2 };
    const steps = new SolverRun(task, limits, clock().now);
    drive(steps, [tool('ls'), tool('ls')], [[0, ''], [0, '']]);
    assert.equal(steps.exit?.exitStatus, 'LimitsExceeded');

    const cost = new SolverRun(task, { ...DEFAULT_LIMITS, costLimitUsd: 0.015 }, clock().now);
    drive(cost, [tool('ls'), tool('ls')], [[0, ''], [0, '']]);
    assert.equal(cost.exit?.exitStatus, 'CostLimitExceeded');
    assert.equal(cost.stats.steps, 2);

    const c = clock();
    const wall = new SolverRun(task, { ...DEFAULT_LIMITS, wallLimitSec: 10 }, c.now);
    assert.equal(wall.next().kind, 'query');
    wall.onReply(tool('sleep 20'));
    assert.equal(wall.next().kind, 'exec');
    c.advance(20_000);
    wall.onOutput(0, '');
    assert.deepEqual(wall.next().kind, 'done');
    assert.equal(wall.exit?.exitStatus, 'TimeLimitExceeded');
  });

  it('cancel, a model error and a dead container end the trial and keep the history readable', () => {
    for (const [end, status] of [
      [(r: SolverRun) => r.onCancel(), 'Cancelled'],
      [(r: SolverRun) => r.onModelError('HTTP 500 after 3 tries'), 'ModelError'],
      [(r: SolverRun) => r.onContainerError('the container exited'), 'ContainerError'],
    ] as const) {
      const run = new SolverRun(task, DEFAULT_LIMITS, clock().now);
      run.next();
      run.onReply(tool('ls'));
      end(run);
      assert.equal(run.next().kind, 'done');
      assert.equal(run.exit?.exitStatus, status);
      const r = normalizeTrajectoryText(JSON.stringify(trajectoryDocument(run, { model: 'm', submission: '' })), 't.traj.json');
      assert.ok(r.ok);
    }
  });

  it('a timed-out command is said to the model; the sentinel after a timeout or a failure does not submit', () => {
    const run = new SolverRun(task, DEFAULT_LIMITS, clock().now);
    run.next();
    run.onReply(tool('python long.py'));
    run.next();
    run.onOutput(null, 'partial', true);
    const last = run.messages[run.messages.length - 1];
    assert.match(last?.content ?? '', /stopped after 60 s/);
    run.next();
    run.onReply(tool(`false; echo ${SUBMIT_SENTINEL}`));
    run.next();
    run.onOutput(1, `${SUBMIT_SENTINEL}\n`);
    assert.equal(run.exit, undefined);
  });

  it('a long output is cut to its head and tail, with the cut said', () => {
    const out = `${'a'.repeat(6000)}MIDDLE${'z'.repeat(6000)}`;
    const o = observation(0, out, { headChars: 100, tailChars: 50 });
    assert.ok(o.length < 600);
    assert.match(o, /11856 characters in the middle were cut/);
    assert.ok(!o.includes('MIDDLE'));
    assert.ok(o.includes(`${'a'.repeat(100)}\n</output_head>`));
    assert.ok(o.includes(`<output_tail>\n${'z'.repeat(50)}`));
  });

  it('parses actions strictly and recognises the sentinel only as the first line', () => {
    assert.deepEqual(parseAction(tool('ls -la')), { ok: true, command: 'ls -la', toolCallId: 'call_1' });
    assert.equal(parseAction({ text: '', toolCalls: [{ id: 'a', name: 'bash', arguments: '{"command":' }] }).ok, false);
    assert.equal(parseAction({ text: '', toolCalls: [{ id: 'a', name: 'bash', arguments: '{"command":"  "}' }] }).ok, false);
    assert.equal(isSubmission(`\n  ${SUBMIT_SENTINEL}\ndiff`), true);
    assert.equal(isSubmission(`ok\n${SUBMIT_SENTINEL}`), false);
    assert.equal(isSubmission(`${SUBMIT_SENTINEL}X`), false);
  });
});
