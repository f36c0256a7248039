// The review agent's prompt and the deterministic checks of its reply, on the example's known false positive
// (format-precision, the SWE-agent attempt that rounds half to even): what the prompt shows and cuts, and which
// findings of a reply survive its citations, which are dropped and why.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { readTrajectory } from '../../../src/adapters/fs/trajectoryReader';
import { candidateCounts, crossFindings } from '../../../src/core/findings/cross';
import { buildReviewPrompt, numberedLog, PROMPT_VERSION, requestSentences } from '../../../src/core/findings/prompt';
import type { ReviewContext } from '../../../src/core/findings/reply';
import { checkReview } from '../../../src/core/findings/reply';
import type { CandidateTask, TrajectoryStep } from '../../../src/core/model';

const TASK_DIR = path.resolve(__dirname, '../../../examples/dataset/tasks/format-precision');
const ATTEMPT = 'sweagent-gpt-4o';
const read = (rel: string) => fs.readFileSync(path.join(TASK_DIR, rel), 'utf8');
const taskJson = JSON.parse(read('task.json')) as { specs: Array<{ id: string; text: string; category: string; dependsOn?: string[] }>; tests: Array<{ id: string; name: string; kind: 'fail_to_pass' | 'pass_to_pass'; specs?: string[] }> };
const task: Pick<CandidateTask, 'id' | 'revision' | 'specs' | 'tests'> = {
  id: 'format-precision',
  revision: 1,
  specs: taskJson.specs.map((s) => ({ ...s, dependsOn: s.dependsOn ?? [] })),
  tests: taskJson.tests.map((t) => ({ ...t, specs: t.specs ?? [] })),
};
const request = read('request.md');
const patch = read(`attempts/${ATTEMPT}/patch.diff`);
const stdout = ['============================= test session starts ==============================', 'collected 16 items', '', ...Array.from({ length: 40 }, (_, i) => `tests/test_format.py::test_${i} PASSED`), '============================== 16 passed in 0.50s =============================='].join('\n');
const run = { id: '20261201T100000000-abcdef', status: 'passed', tests: Object.fromEntries(task.tests.map((t) => [t.name, 'PASSED'])), stdout };
let steps: TrajectoryStep[] = [];
const HALF_UP = () => requestSentences(request).findIndex((s) => s.includes('halves round up')) + 1;

before(async () => {
  const r = await readTrajectory(path.join(TASK_DIR, `attempts/${ATTEMPT}/trajectory.traj`));
  assert.ok(r.ok);
  steps = r.trajectory.steps;
});

const ctx = (): ReviewContext => ({ attempt: ATTEMPT, attempts: [ATTEMPT, 'mini-gpt-5-mini', 'openhands-claude-3-5-sonnet'], specs: task.specs.map((s) => s.id), tests: task.tests, request, patch, run, steps });
type C = { kind: string; step?: number; file?: string; hunk?: number; test?: string; line?: number; sentence?: number; quote?: string | null };
const cite = (c: C) => ({ step: null, file: null, hunk: null, test: null, line: null, sentence: null, quote: null, ...c });
const finding = (spec: string, judgment: string, citations: C[], attempt = ATTEMPT) => ({ attempt, spec, judgment, confidence: 0.8, rationale: `about ${spec}`, citations: citations.map(cite) });
const A2 = () =>
  finding('A2', 'violated', [
    { kind: 'diff_hunk', file: 'durations/format.py', hunk: 0, quote: 'rounded = round(seconds / step) * step' },
    { kind: 'trajectory_step', step: 14, quote: "Python's built-in `round()` gives the nearest whole number" },
    { kind: 'request_sentence', sentence: HALF_UP(), quote: 'halves round up' },
    { kind: 'test', test: 'TA1' },
    { kind: 'log_line', line: 44, quote: '16 passed' },
  ]);

describe('requestSentences', () => {
  it('numbers sentences across paragraphs, list items and headings, whitespace as one space', () => {
    assert.deepEqual(requestSentences('# Title\n\nFirst one. Second\n  wraps here!\n- item `a`. Still item\n2. numbered'), ['# Title', 'First one.', 'Second wraps here!', '- item `a`.', 'Still item', '2. numbered']);
    const s = requestSentences(request);
    assert.ok(HALF_UP() > 0);
    assert.match(s[HALF_UP() - 1] as string, /^- The duration is rounded .* halves round up: at minute precision 90 s is `2m`, 150 s is `3m` and 89 s is `1m`\.$/);
  });
});

describe('the review prompt', () => {
  it('shows the numbered request, every spec, the tests with their specs and results, numbered hunks, the run and the steps', () => {
    const p = buildReviewPrompt({ task, attempt: ATTEMPT, request, patch, run, steps });
    const user = p.messages[1]?.content ?? '';
    assert.equal(p.promptVersion, PROMPT_VERSION);
    assert.match(p.promptHash, /^[0-9a-f]{64}$/);
    assert.deepEqual(p.specs, ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8', 'A9']);
    assert.match(user, new RegExp(`\\[${HALF_UP()}\\] - The duration is rounded`));
    assert.match(user, /- A2 \(computation-algorithms\) \[depends on A1\]: The duration is rounded/);
    assert.match(user, /- TA1 fail_to_pass tests\/test_format\.py::test_precision_rounds_half_up -> specs: A1, A2; in run: PASSED/);
    assert.match(user, /#### hunk 0 of durations\/format\.py\n@@ -2,17 \+2,26 @@/);
    assert.match(user, /#### hunk 2 of durations\/cli\.py/);
    assert.match(user, /run 20261201T100000000-abcdef: passed/);
    assert.match(user, /### step 14 \(thought\)\nNow the rounding itself\. Python's built-in `round\(\)`/);
    assert.deepEqual(p.cuts.map((c) => c.part), ['trajectory'], 'only long steps are cut, head and tail');
    assert.match(p.cuts[0]?.message ?? '', /characters cut inside steps/);
    // Same input, same messages, same hash; another attempt, another hash.
    assert.equal(buildReviewPrompt({ task, attempt: ATTEMPT, request, patch, run, steps }).promptHash, p.promptHash);
    assert.notEqual(buildReviewPrompt({ task, attempt: 'x', request, patch, run, steps }).promptHash, p.promptHash);
  });

  it('cuts the older middle steps first and each long step head and tail, and says so', () => {
    const long: TrajectoryStep[] = Array.from({ length: 200 }, (_, i) => ({ index: i, kind: 'observation', text: `step ${i} ${'x'.repeat(i === 150 ? 9000 : 300)} end of ${i}` }));
    const p = buildReviewPrompt({ task, attempt: ATTEMPT, request, patch, steps: long, trajectoryChars: 20_000, stepChars: 1000 });
    const user = p.messages[1]?.content ?? '';
    assert.match(user, /### step 0 \(observation\)/);
    assert.match(user, /### step 1 \(observation\)/);
    assert.match(user, /### step 199 \(observation\)/);
    assert.doesNotMatch(user, /### step 2 \(/);
    const m = /\[\.\.\. steps 2-(\d+) \((\d+) steps\) to fit the budget cut \.\.\.\]/.exec(user);
    assert.ok(m, 'the cut of the middle steps is said');
    assert.match(user, /### step 150 \(observation\)\nstep 150 x+\n\[\.\.\. \d+ characters cut \.\.\.\]\nx+ end of 150/);
    assert.ok(p.cuts.some((c) => c.part === 'trajectory' && /step\(s\) cut/.test(c.message)));
    assert.ok((p.messages[1]?.content.length ?? 0) < 40_000);
    assert.equal(p.cuts.find((c) => c.part === 'log'), undefined);
    assert.match(user, /no verifier run at its current patch/);
  });

  it('keeps the stdout lines around a failure and the summary, numbered as in the file, the rest cut and said', () => {
    const lines = [...Array.from({ length: 500 }, (_, i) => `line ${i + 1} ok`)];
    lines[249] = 'E       AssertionError: assert "2m" == "3m"';
    lines.push('=========== 1 failed, 15 passed in 0.5s ===========');
    const log = numberedLog(lines.join('\n'), 2000);
    assert.match(log.text, /^\[\.\.\. lines 1-\d+ \(\d+ lines\) cut \.\.\.\]/);
    assert.match(log.text, / {2}247\| line 247 ok\n {2}248\| line 248 ok\n {2}249\| line 249 ok\n {2}250\| E {7}AssertionError: assert "2m" == "3m"\n {2}251\| line 251 ok/);
    assert.match(log.text, / {2}501\| =+ 1 failed, 15 passed in 0\.5s =+$/);
    assert.ok(log.kept < log.lines);
  });
});

describe('checking a review reply', () => {
  it('keeps findings whose citations hold and crosses them: violated on passing tests is a false-positive candidate', () => {
    const r = checkReview(JSON.stringify({ refusal: null, findings: [A2(), finding('A1', 'satisfied', [{ kind: 'diff_hunk', file: 'b/durations/format.py', hunk: 0, quote: 'def format_duration(seconds, precision="s"):' }])] }), ctx());
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.dropped, []);
    assert.deepEqual(r.findings.map((f) => f.spec), ['A2', 'A1']);
    assert.deepEqual(r.findings[0]?.citations.at(-1), { kind: 'log_line', run: run.id, line: 44, quote: '16 passed' });
    assert.deepEqual(r.findings[0]?.citations[3], { kind: 'test', test: 'TA1' });
    const crossed = crossFindings(r.findings, { A1: 'pass', A2: 'pass' });
    assert.equal(crossed[0]?.candidate, 'false_positive');
    assert.equal(crossed[0]?.verifierVerdict, 'pass');
    assert.equal(crossed[1]?.candidate, undefined);
    assert.deepEqual(candidateCounts(crossFindings([{ ...crossed[1]!, judgment: 'satisfied' }], { A1: 'fail' })), { false_positive: 0, false_negative: 1 });
    assert.equal(crossFindings(r.findings, undefined)[0]?.verifierVerdict, 'unknown');
  });

  it('drops a finding with one fabricated citation (a step that does not exist, a quote not in its place) and keeps the rest, counted', () => {
    const bad1 = finding('A3', 'satisfied', [{ kind: 'trajectory_step', step: 999 }]);
    const bad2 = finding('A4', 'satisfied', [{ kind: 'diff_hunk', file: 'durations/format.py', hunk: 0, quote: 'math.floor(seconds + 0.5)' }]);
    const bad3 = finding('A5', 'satisfied', [{ kind: 'log_line', line: 4000 }]);
    const bad4 = finding('A6', 'satisfied', [{ kind: 'request_sentence', sentence: 2, quote: 'the seconds are always shown' }]);
    const bad5 = finding('A7', 'satisfied', [{ kind: 'test', test: 'TZ9' }]);
    const bad6 = finding('A8', 'satisfied', [{ kind: 'diff_hunk', file: 'durations/cli.py', hunk: 7 }]);
    const r = checkReview(JSON.stringify({ refusal: null, findings: [A2(), bad1, bad2, bad3, bad4, bad5, bad6] }), ctx());
    assert.ok(r.ok);
    assert.deepEqual(r.findings.map((f) => f.spec), ['A2']);
    assert.deepEqual(r.counts, { citation: 6 });
    assert.deepEqual(
      r.dropped.map((d) => [d.spec, d.reason]),
      [
        ['A3', 'findings[1] (A3): cites trajectory step 999, which the trajectory does not have'],
        ['A4', 'findings[2] (A4): the quote "math.floor(seconds + 0.5)" is not in hunk 0 of durations/format.py'],
        ['A5', `findings[3] (A5): cites stdout line 4000 of run ${run.id}, which has 44 line(s)`],
        ['A6', 'findings[4] (A6): the quote "the seconds are always shown" is not in request sentence 2'],
        ['A7', 'findings[5] (A7): cites the test "TZ9", which the task does not have'],
        ['A8', 'findings[6] (A8): cites hunk 7 of durations/cli.py, which has 3 hunk(s) (numbered from 0)'],
      ],
    );
  });

  it('drops findings for an unknown attempt, another attempt, an unknown spec, a spec not asked, a spec judged twice, or citing nothing', () => {
    const okCite: C[] = [{ kind: 'test', test: 'TA1' }];
    const r = checkReview(
      JSON.stringify({
        refusal: null,
        findings: [finding('A1', 'satisfied', okCite, 'ghost-attempt'), finding('A1', 'satisfied', okCite, 'mini-gpt-5-mini'), finding('Z9', 'violated', okCite), finding('A9', 'satisfied', okCite), finding('A3', 'satisfied', okCite), finding('A3', 'violated', okCite), finding('A4', 'satisfied', []), { ...finding('A5', 'maybe', okCite) }, { ...finding('A6', 'satisfied', okCite), confidence: 1.5 }, finding('A2', 'violated', okCite)],
      }),
      { ...ctx(), asked: ['A1', 'A2', 'A3', 'A4', 'A5', 'A6'] },
    );
    assert.ok(r.ok);
    assert.deepEqual(r.findings.map((f) => f.spec), ['A2']);
    assert.deepEqual(r.counts, { unknown_attempt: 1, not_asked: 2, unknown_spec: 1, duplicate: 2, shape: 3 });
    assert.match(r.dropped[0]?.reason ?? '', /judges the attempt "ghost-attempt", which the task does not have/);
    assert.match(r.dropped[1]?.reason ?? '', /judges attempt "mini-gpt-5-mini", which this call did not ask about/);
    assert.match(r.dropped[4]?.reason ?? '', /spec A3 is judged 2 times/);
    assert.match(r.dropped[6]?.reason ?? '', /cites nothing/);
  });

  it('fails a reply that is not JSON, breaks the schema or refuses; a reply where all are dropped is still a result', () => {
    const notJson = checkReview('Sure! Here are my findings: A2 is violated.', ctx());
    assert.equal(notJson.ok, false);
    if (!notJson.ok) assert.equal(notJson.kind, 'not_json');
    const twice = checkReview('{"refusal": null, "findings": [], "findings": []}', ctx());
    assert.equal(twice.ok === false && twice.kind, 'not_json');
    const schema = checkReview(JSON.stringify({ refusal: null, findings: { A2: 'violated' } }), ctx());
    assert.equal(schema.ok === false && schema.kind, 'schema');
    const refused = checkReview(JSON.stringify({ refusal: 'I cannot judge code.', findings: [] }), ctx());
    assert.equal(refused.ok === false && refused.kind, 'refused');
    const allDropped = checkReview(JSON.stringify({ refusal: null, findings: [finding('A2', 'violated', [{ kind: 'trajectory_step', step: 500 }])] }), ctx());
    assert.ok(allDropped.ok);
    assert.equal(allDropped.findings.length, 0);
    assert.equal(allDropped.dropped.length, 1);
  });
});
