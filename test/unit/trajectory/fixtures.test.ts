// Edge cases on our own small fixtures (test/fixtures/trajectories) and on bytes derived from the samples:
// retry wrapper, history-less SWE-agent, ATIF continuation, Claude Code branches, BOM, CRLF, truncation, malformed
// JSON with its line, unknown formats, a multi-megabyte step, cancellation.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { NormalizedTrajectory } from '../../../src/core/model';
import { listTrajectoryInstances, readTrajectory, summarizeTrajectory } from '../../../src/adapters/fs/trajectoryReader';
import { KNOWN_FORMATS_TEXT } from '../../../src/core/trajectory/detect';
import { buildFromText, normalizeTrajectoryText } from '../../../src/core/trajectory/normalize';

const FIX = path.resolve(__dirname, '../../fixtures/trajectories');
const SAMPLES = path.resolve(__dirname, '../../../../shared/samples/trajectories');
const SWE_1X = path.join(SAMPLES, 'swe-agent/gpt4__swe-agent-test-repo__default_from_url__t-0.00__p-0.95__c-3.00__install-1/6e44b9__sweagenttestrepo-1c2844.traj');
const CLAUDE = path.join(SAMPLES, 'claude-code/entire-checkpoints/08/5de903e0fb/0/full.jsonl');

const editsOf = (t: NormalizedTrajectory): string[] => t.steps.flatMap((s) => (s.edits ?? []).map((e) => `${e.via}: ${e.path}`));

function tempDir(): { dir: string; done: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'specweave-traj-test-'));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

async function read(file: string): Promise<{ t: NormalizedTrajectory; problems: string[] }> {
  const r = await readTrajectory(file, { fileLabel: path.basename(file) });
  assert.ok(r.ok, r.ok ? '' : r.problem.message);
  return { t: r.trajectory, problems: r.problems.map((p) => p.message) };
}

test('SWE-agent retry agent: every attempt in order, the chosen one is not repeated, totals from the top level', async () => {
  const { t, problems } = await read(path.join(FIX, 'swe-agent-retry.traj'));
  const s = t.summary;
  assert.equal(s.format, 'swe-agent-retry');
  assert.deepEqual(problems, []);
  assert.deepEqual(s.byKind, { system: 2, user: 2, thought: 8, tool_call: 6, tool_result: 6, action: 2, observation: 2 });
  assert.equal(t.steps.filter((x) => x.sourceRef?.startsWith('attempts[0].')).length, 14);
  assert.equal(t.steps.filter((x) => x.sourceRef?.startsWith('attempts[1].')).length, 14);
  assert.ok(!t.steps.some((x) => x.sourceRef !== undefined && !x.sourceRef.startsWith('attempts[')), 'the top-level copy of the chosen attempt is skipped');
  assert.ok(!t.steps.some((x) => x.text.includes('DEMONSTRATION')), 'demonstrations are not steps');
  assert.equal(s.costUsd, 2);
  assert.deepEqual(s.tokens, { input: 3000, output: 300 });
  assert.equal(s.instanceId, 'example__calc-7', 'from replay_config given as a JSON string');
  assert.equal(s.model, 'claude-sonnet-4');
  assert.match(s.submission!, /\+ {4}return a \+ b/, 'the chosen attempt\'s patch');
  // Attempt 0's str_replace was not performed; attempt 1's was. The heredoc test file counts in both.
  assert.deepEqual(editsOf(t), ['redirect: /repo/test_calc.py', 'str_replace_editor str_replace: /repo/calc.py', 'redirect: /repo/test_calc.py']);
});

test('SWE-agent without history is read from its trajectory; the windowed edit names the open file', async () => {
  const { t } = await read(path.join(FIX, 'swe-agent-0x-no-history.traj'));
  assert.equal(t.summary.format, 'swe-agent');
  assert.deepEqual(t.summary.byKind, { thought: 3, action: 4, observation: 4 });
  assert.deepEqual(editsOf(t), ['edit: /repo/src/app.py', 'create: tests/test_app.py']);
  assert.equal(t.summary.exitStatus, 'submitted');
});

test('ATIF continuation (Harbor naming) is joined; missing continuation is a warning; from text it is not followed', async () => {
  const { t, problems } = await read(path.join(FIX, 'atif-continued/trajectory.json'));
  assert.deepEqual(problems, []);
  assert.deepEqual(t.summary.byKind, { user: 1, action: 1, observation: 1, system: 1, thought: 2, tool_call: 2, tool_result: 2 });
  assert.ok(!t.steps.some((x) => x.text.startsWith('Summary from previous agent')), 'copied context is left out');
  assert.equal(t.summary.costUsd, 0.006);
  assert.deepEqual(t.summary.tokens, { input: 510, output: 35 });
  assert.deepEqual(editsOf(t), ['redirect: notes.txt', 'str_replace_editor create: /app/done.txt']);
  const summary = await summarizeTrajectory(path.join(FIX, 'atif-continued/trajectory.json'));
  assert.ok(summary.ok);
  assert.deepEqual(summary.summary, t.summary);
  const list = await listTrajectoryInstances(path.join(FIX, 'atif-continued/trajectory.json'));
  assert.ok(list.ok);
  assert.equal(list.instances.length, 1);
  assert.equal(list.instances[0]!.byteRange, undefined);
  assert.deepEqual(list.instances[0]!.summary, t.summary);

  const { dir, done } = tempDir();
  try {
    copyFileSync(path.join(FIX, 'atif-continued/trajectory.json'), path.join(dir, 'trajectory.json'));
    const alone = await readTrajectory(path.join(dir, 'trajectory.json'), { fileLabel: 'tasks/t1/attempts/a1/trajectory.json' });
    assert.ok(alone.ok);
    assert.equal(alone.trajectory.steps.length, 4);
    assert.deepEqual(alone.problems, [
      {
        severity: 'warning',
        file: 'tasks/t1/attempts/a1/trajectory.json',
        field: 'continued_trajectory_ref',
        message: 'the trajectory continues in "trajectory.cont-1.json", which was not found next to it',
      },
    ]);
  } finally {
    done();
  }
  const fromText = normalizeTrajectoryText(readFileSync(path.join(FIX, 'atif-continued/trajectory.json'), 'utf8'), 'x.json');
  assert.ok(fromText.ok);
  assert.match(fromText.problems[0]!.message, /continues in "trajectory.cont-1.json", which is not read from text/);
});

test('Claude Code: a rewind keeps both branches in tree order, sidechains are left out, failed edits dropped', async () => {
  const { t, problems } = await read(path.join(FIX, 'claude-code-branching.jsonl'));
  assert.equal(t.summary.format, 'claude-code');
  assert.deepEqual(problems, [
    'the session branches at 1 point(s) (a rewind or retry); every branch is kept, in parentUuid order',
    '1 sub-agent (isSidechain) line(s) left out of the main conversation',
  ]);
  assert.deepEqual(
    t.steps.map((x) => x.text.slice(0, 20)),
    [
      'Rename foo to bar in',
      "I'll edit lib.py.",
      'Edit /w/lib.py',
      '<tool_use_error>Stri',
      'MultiEdit /w/lib.py',
      'Applied 1 edit to /w',
      "sed -i 's/foo/bar/g'",
      'ok',
      'Renamed.',
      'Other branch: done.',
    ],
  );
  // The Edit failed (is_error); MultiEdit and the sed line did edit.
  assert.deepEqual(editsOf(t), ['MultiEdit: /w/lib.py', 'sed -i: /w/README.md']);
  // msg_1 came in two lines; its usage (the larger of the two) counts once.
  assert.deepEqual(t.steps[1]!.tokens, { input: 115, output: 40 });
  assert.deepEqual(t.summary.tokens, { input: 115 + 116 + 117 + 118 + 119, output: 40 + 30 + 20 + 5 + 2 });
});

test('OpenHands events as JSONL', async () => {
  const { t } = await read(path.join(FIX, 'openhands-events.jsonl'));
  assert.equal(t.summary.format, 'openhands-events');
  assert.deepEqual(t.summary.byKind, { user: 1, thought: 1, action: 3, observation: 2 });
  assert.equal(t.summary.exitStatus, 'finished');
  assert.equal(t.summary.costUsd, 0.25);
  assert.deepEqual(editsOf(t), ['edit create: /ws/hello.py']);
  assert.equal(t.steps[0]!.sourceRef, 'line 1');
});

test('an unknown format, an empty file and a missing file are errors naming the file', async () => {
  const unknown = await readTrajectory(path.join(FIX, 'not-a-trajectory.json'), { fileLabel: 'a/not-a-trajectory.json' });
  assert.deepEqual(unknown, {
    ok: false,
    problem: {
      severity: 'error',
      file: 'a/not-a-trajectory.json',
      message: `not a known trajectory format: a JSON object with keys name, version, items; its first step-like element is a JSON number; ${KNOWN_FORMATS_TEXT}`,
    },
  });
  assert.match((normalizeTrajectoryText('[{"name": "x", "value": 1}]', 'list.json') as { problem: { message: string } }).problem.message, /a JSON array whose first element is a JSON object with keys name, value/);
  assert.match((normalizeTrajectoryText('{"attempts": 3, "steps": "many"}', 'eval.json') as { problem: { message: string } }).problem.message, /^not a known trajectory format: a JSON object with keys attempts, steps;/);
  assert.deepEqual(normalizeTrajectoryText('  \n', 'blank.json'), { ok: false, problem: { severity: 'error', file: 'blank.json', message: 'the file is empty' } });
  const missing = await readTrajectory(path.join(FIX, 'nope.traj'), { fileLabel: 'nope.traj' });
  assert.deepEqual(missing, { ok: false, problem: { severity: 'error', file: 'nope.traj', message: 'the file does not exist' } });
});

test('a UTF-8 BOM and CRLF line endings simply work', async () => {
  const { dir, done } = tempDir();
  try {
    for (const src of [SWE_1X, CLAUDE, path.join(FIX, 'openhands-events.jsonl')]) {
      const text = readFileSync(src, 'utf8');
      const f = path.join(dir, 'bom-crlf-' + path.basename(src));
      writeFileSync(f, '\ufeff' + text.replace(/\n/g, '\r\n'));
      const a = await readTrajectory(src, { fileLabel: 'x' });
      const b = await readTrajectory(f, { fileLabel: 'x' });
      assert.deepEqual(b, a, path.basename(src));
    }
  } finally {
    done();
  }
});

test('a truncated document keeps the steps before the cut and warns with its line', async () => {
  const bytes = readFileSync(SWE_1X);
  const full = normalizeTrajectoryText(bytes.toString('utf8'), 'x');
  assert.ok(full.ok);
  const { dir, done } = tempDir();
  try {
    const f = path.join(dir, 'cut.traj');
    // Cut inside the third element of `trajectory`: the first two are kept.
    let at = bytes.indexOf('"trajectory"');
    for (let k = 0; k < 3; k++) at = bytes.indexOf('"action"', at + 1);
    at += 30;
    writeFileSync(f, bytes.subarray(0, at));
    const r = await readTrajectory(f, { fileLabel: 'cut.traj' });
    assert.ok(r.ok);
    assert.equal(r.problems.length, 1);
    const p = r.problems[0]!;
    assert.equal(p.severity, 'warning');
    assert.equal(p.file, 'cut.traj');
    const lastLine = bytes.subarray(0, at).toString('utf8').split('\n').length;
    assert.equal(p.line, lastLine);
    assert.match(p.message, new RegExp(`^the file ends in the middle of a JSON value at line ${lastLine} \\(truncated\\?\\); kept the \\d+ steps read before it$`));
    assert.deepEqual(
      r.trajectory.steps.map((x) => `${x.kind} ${x.sourceRef}`),
      ['thought trajectory[0]', 'action trajectory[0]', 'observation trajectory[0]', 'thought trajectory[1]', 'action trajectory[1]', 'observation trajectory[1]'],
    );
    assert.ok(full.trajectory.steps.length > 6);
    assert.equal(r.trajectory.summary.submission, undefined, 'info came after the cut');
    // Cut before any step could be read: nothing to show.
    writeFileSync(f, bytes.subarray(0, 40));
    const early = await readTrajectory(f, { fileLabel: 'cut.traj' });
    assert.ok(!early.ok);
    assert.match(early.problem.message, /^the file is truncated at line \d+ before any trajectory step could be read/);
  } finally {
    done();
  }
});

test('a JSONL transcript with a truncated last line and a malformed middle line keeps every good line', async () => {
  const lines = readFileSync(CLAUDE, 'utf8').split('\n');
  const full = await read(CLAUDE);
  // Line 25 is the closing assistant text; break it in the middle.
  const broken = [...lines];
  broken[24] = broken[24]!.slice(0, 200);
  const cut = broken.join('\n').slice(0, -200);
  const r = normalizeTrajectoryText(cut, 'full.jsonl');
  assert.ok(r.ok);
  assert.deepEqual(
    r.problems.map((p) => [p.line, p.message.replace(/\(.*\)/, '(…)')]),
    [
      [25, 'line 25: malformed JSON (…); the line was left out'],
      [28, 'line 28 is cut short (…); it was left out'],
    ],
  );
  assert.equal(r.trajectory.steps.length, full.t.steps.length - 1, 'the closing text is gone (the stop-hook line is no step anyway)');
  assert.equal(r.trajectory.summary.skipped?.['system/stop_hook_summary'], undefined, 'the cut line is not counted as read');
});

test('malformed JSON in a document is an error with the line of the fault', async () => {
  const text = readFileSync(path.join(FIX, 'swe-agent-0x-no-history.traj'), 'utf8').split('\n');
  const line = text.findIndex((l) => l.includes('"create tests/test_app.py\\n"'));
  text[line] = text[line]!.replace('",', '" oops,');
  const r = normalizeTrajectoryText(text.join('\n'), 'bad.traj');
  assert.deepEqual(r, {
    ok: false,
    problem: { severity: 'error', file: 'bad.traj', line: line + 1, message: `malformed JSON at line ${line + 1}: expected ',' or '}', found 'o'` },
  });
});

test('junk after a complete trajectory is a warning, not a failure', () => {
  const text = readFileSync(path.join(FIX, 'swe-agent-0x-no-history.traj'), 'utf8');
  const lines = text.split('\n').length;
  const r = normalizeTrajectoryText(text + '\n}\n', 'junk.traj');
  assert.ok(r.ok);
  assert.equal(r.trajectory.steps.length, 11);
  assert.deepEqual(r.problems.map((p) => [p.line, p.message]), [[lines + 1, `unexpected content after the trajectory at line ${lines + 1} (expected a JSON value, found '}'); ignored`]]);
});

test('a step of several megabytes is read whole from a file', async () => {
  const big = 'x'.repeat(3_000_000) + '"\\\n' + '\u00e9\u4e2d'.repeat(500_000);
  const doc = {
    history: [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'task' },
      { role: 'assistant', content: 'look', thought: 'look', action: 'cat big.log' },
      { role: 'user', content: big },
    ],
    info: { exit_status: 'submitted' },
  };
  const { dir, done } = tempDir();
  try {
    const f = path.join(dir, 'big.traj');
    writeFileSync(f, JSON.stringify(doc, null, 2));
    const { t } = await read(f);
    assert.equal(t.steps.length, 5);
    assert.equal(t.steps[4]!.kind, 'observation');
    assert.equal(t.steps[4]!.text, big);
    const s = await summarizeTrajectory(f);
    assert.ok(s.ok);
    assert.deepEqual(s.summary.byKind, { system: 1, user: 1, thought: 1, action: 1, observation: 1 });
  } finally {
    done();
  }
});

test('summaries keep no step texts; progress is reported; a cancelled read rejects with AbortError', async () => {
  const seen: Array<[number, number]> = [];
  const r = await readTrajectory(SWE_1X, { onProgress: (done, total) => seen.push([done, total]) });
  const size = readFileSync(SWE_1X).length;
  assert.ok(seen.length >= 1);
  assert.deepEqual(seen.at(-1), [size, size]);
  const s = await summarizeTrajectory(SWE_1X);
  assert.ok(r.ok && s.ok);
  assert.deepEqual(s.summary, r.trajectory.summary);
  const lean = buildFromText(readFileSync(SWE_1X, 'utf8'), { fileLabel: 'x', keepText: false });
  assert.ok(lean.ok);
  const steps = lean.instances[0]!.trajectory.steps;
  assert.equal(steps.length, r.trajectory.steps.length);
  assert.ok(steps.every((x) => x.text === '' && (x.toolCalls ?? []).every((c) => c.arguments === '')));
  assert.deepEqual(steps.map((x) => x.edits), r.trajectory.steps.map((x) => x.edits), 'edits are still derived');
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(readTrajectory(SWE_1X, { signal: controller.signal }), { name: 'AbortError' });
  await assert.rejects(listTrajectoryInstances(SWE_1X, { signal: controller.signal }), { name: 'AbortError' });
});
