// The review agent against a real HTTP server speaking chat-completions, on a copy of the example dataset with
// verifier runs stored as the verifier stores them: the known false positive (format-precision, the SWE-agent attempt
// that rounds half to even) becomes a `violated` finding with valid citations and a false-positive candidate; the
// known false negative (total-command, the over-strict message) a `satisfied` finding on a failing spec, a
// false-negative candidate; a fabricated citation drops only its finding; every endpoint fault and bad reply a clear
// failure with no event; a crash between the journal and the log recorded on resume without paying again; and the CLI
// killed with SIGKILL in a 50-task batch, then --resume: no pair judged twice, spend counted once.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { CurationStore } from '../../../src/app/curationStore';
import type { ReviewOutcome } from '../../../src/app/reviewAgent';
import { prepareReview, REVIEWER_JOURNAL_DIR, reviewAttempts, worstCaseUsd } from '../../../src/app/reviewAgent';
import { costOf } from '../../../src/adapters/llm/pricing';
import type { CandidateTask } from '../../../src/core/model';
import { saveRun } from '../../../src/adapters/fs/runStore';
import { EndpointMemory, LlmClient } from '../../../src/adapters/llm/client';
import type { LlmSettings } from '../../../src/adapters/llm/client';
import { Redactor } from '../../../src/adapters/llm/redact';
import { hunksByFile, promptHash, requestSentences } from '../../../src/core/findings/prompt';
import type { GradedTestStatus } from '../../../src/core/verify/runResult';
import { taskState } from '../../../src/core/review/reducer';
import { writeRun } from '../../unit/review/helpers';
import { copyFixture, tmpDir } from '../../unit/helpers/tmp';
import { copyExample } from '../repair/exampleCopy';
import { FakeOpenAI } from '../repair/fakeOpenAI';
import { cliArgs } from '../../unit/helpers/cli';

const KEY = 'sk-test-SPECWEAVE-FAKE-KEY-review-4be1d07a';
let fake: FakeOpenAI;
let base = '';
before(async () => {
  fake = new FakeOpenAI();
  base = await fake.start();
});
beforeEach(() => fake.clear());
after(() => fake.stop());

const settings = (over: Partial<LlmSettings> = {}): LlmSettings => ({ baseUrl: base, model: 'gpt-4o-mini', temperature: 0, maxTokens: 32000, timeoutSec: 5, ...over });
const client = () => new LlmClient({ settings: settings(), apiKey: KEY, redactor: new Redactor([KEY]), retry: { backoffMs: 20, rateLimitTries: 2, transientTries: 2 }, memory: new EndpointMemory() });

/** Stores a run as the verifier does: the record and its stdout. */
async function storeRun(root: string, task: string, attempt: string, tests: Record<string, GradedTestStatus>, stdout: string): Promise<string> {
  const rec = writeRun(root, task, attempt, tests);
  fs.rmSync(path.join(root, 'runs', task, attempt, `${rec.runId}.json`));
  const n = Buffer.byteLength(stdout);
  await saveRun(root, { ...rec, stdout: { totalBytes: n, headBytes: n, tailBytes: 0, cutBytes: 0 } }, { stdout: { head: Buffer.from(stdout), tail: Buffer.alloc(0) }, stderr: { head: Buffer.alloc(0), tail: Buffer.alloc(0) } });
  return rec.runId;
}

const taskFile = (root: string, id: string) => JSON.parse(fs.readFileSync(path.join(root, 'tasks', id, 'task.json'), 'utf8')) as { tests: Array<{ name: string; id: string }> };
const allPass = (root: string, id: string) => Object.fromEntries(taskFile(root, id).tests.map((t) => [t.name, 'PASSED' as GradedTestStatus]));

type C = { kind: string; step?: number; file?: string; hunk?: number; test?: string; line?: number; sentence?: number; quote?: string };
const cite = (c: C) => ({ step: null, file: null, hunk: null, test: null, line: null, sentence: null, quote: null, ...c });
const finding = (attempt: string, spec: string, judgment: string, citations: C[], confidence = 0.8) => ({ attempt, spec, judgment, confidence, rationale: `${spec}: ${judgment}`, citations: citations.map(cite) });
const reply = (...findings: unknown[]) => JSON.stringify({ refusal: null, findings });

const FP_TASK = 'format-precision';
const FP_ATTEMPT = 'sweagent-gpt-4o';
const FN_TASK = 'total-command';
const FN_ATTEMPT = 'claude-code-sonnet-4-5';
const FP_STDOUT = ['============================= test session starts ==============================', 'collected 16 items', '', 'tests/test_format.py::test_precision_rounds_half_up PASSED', '============================== 16 passed in 0.61s =============================='].join('\n');
const FN_STDOUT = [
  '============================= test session starts ==============================',
  'tests/test_cli.py::test_total_reports_bad_line_location FAILED',
  '    def test_total_reports_bad_line_location(tmp_path):',
  ">       assert proc.stderr == \"error: log.txt:3: cannot parse 'abc'\\n\"",
  "E       AssertionError: assert \"durations: log.txt, line 3: cannot parse 'abc'\\n\" == \"error: log.txt:3: cannot parse 'abc'\\n\"",
  '=========================== short test summary info ============================',
  'FAILED tests/test_cli.py::test_total_reports_bad_line_location - AssertionError',
  '========================= 1 failed, 9 passed in 0.70s ==========================',
].join('\n');

/** The example with the runs the verifier gives: the SWE-agent attempt passes all; the claude-code attempt fails TB3. */
async function exampleWithRuns(): Promise<{ root: string; fpRun: string; fnRun: string }> {
  const root = copyExample();
  const fpRun = await storeRun(root, FP_TASK, FP_ATTEMPT, allPass(root, FP_TASK), FP_STDOUT);
  const fnRun = await storeRun(root, FN_TASK, FN_ATTEMPT, { ...allPass(root, FN_TASK), 'tests/test_cli.py::test_total_reports_bad_line_location': 'FAILED' }, FN_STDOUT);
  return { root, fpRun, fnRun };
}

const read = (root: string, task: string, rel: string) => fs.readFileSync(path.join(root, 'tasks', task, rel), 'utf8');
const sentenceWith = (root: string, task: string, words: string) => requestSentences(read(root, task, 'request.md')).findIndex((s) => s.includes(words)) + 1;
const hunkWith = (root: string, task: string, attempt: string, file: string, words: string) => (hunksByFile(read(root, task, `attempts/${attempt}/patch.diff`)).get(file) ?? []).findIndex((h) => h.some((l) => l.includes(words)));

async function review(root: string, o: { tasks: string[]; attempts?: string[]; resume?: boolean }): Promise<ReviewOutcome[]> {
  const r = await reviewAttempts({ store: CurationStore.open(root), curator: 'alice', settings: settings(), apiKey: KEY, client: client(), ...o });
  return r.outcomes;
}
const findingsEvents = (root: string, task: string) => taskState(CurationStore.open(root).state, task).findings;

describe('the review agent on the example dataset', () => {
  it('the half-even attempt of format-precision: a violated finding with valid citations, a false-positive candidate; a fabricated citation and pairs not asked dropped, counted', async () => {
    const { root, fpRun } = await exampleWithRuns();
    const halfUp = sentenceWith(root, FP_TASK, 'halves round up');
    const hunk = hunkWith(root, FP_TASK, FP_ATTEMPT, 'durations/format.py', 'round(seconds / step)');
    assert.ok(halfUp > 0 && hunk >= 0);
    fake.push({
      kind: 'answer',
      usage: { prompt_tokens: 9000, completion_tokens: 600 },
      content: reply(
        finding(FP_ATTEMPT, 'A2', 'violated', [
          { kind: 'diff_hunk', file: 'durations/format.py', hunk, quote: 'rounded = round(seconds / step) * step' },
          { kind: 'trajectory_step', step: 14, quote: "Python's built-in `round()` gives the nearest whole number" },
          { kind: 'request_sentence', sentence: halfUp, quote: 'halves round up' },
          { kind: 'test', test: 'TA1' },
          { kind: 'log_line', line: 5, quote: '16 passed' },
        ]),
        finding(FP_ATTEMPT, 'A1', 'satisfied', [{ kind: 'diff_hunk', file: 'durations/format.py', hunk, quote: 'def format_duration(seconds, precision="s"):' }]),
        finding(FP_ATTEMPT, 'A3', 'satisfied', [{ kind: 'trajectory_step', step: 99, quote: 'carries into hours' }]),
        finding('mini-gpt-5-mini', 'A2', 'satisfied', [{ kind: 'test', test: 'TA1' }]),
        finding(FP_ATTEMPT, 'A42', 'violated', [{ kind: 'test', test: 'TA1' }]),
      ),
    });
    const n0 = fake.requests.length;
    const [o] = await review(root, { tasks: [FP_TASK], attempts: [FP_ATTEMPT] });
    assert.equal(o?.status, 'reviewed', JSON.stringify(o));
    if (o?.status !== 'reviewed') return;
    assert.deepEqual([o.findings, o.candidates, o.dropped, o.dropCounts], [2, { false_positive: 1, false_negative: 0 }, 3, { citation: 1, not_asked: 1, unknown_spec: 1 }]);
    assert.equal(o.costUsd, 0.00171, 'the price table on the reported usage');

    // One call, about this attempt, every spec asked; the key only in the header; the prompt hash is of what was sent.
    assert.equal(fake.requests.length, n0 + 1);
    const sent = fake.requests.at(-1)?.body.messages as Array<{ role: string; content: string }>;
    assert.match(sent[1]?.content ?? '', /# Task format-precision \(revision 1\), attempt sweagent-gpt-4o/);
    assert.doesNotMatch(JSON.stringify(fake.requests.at(-1)?.body), new RegExp(KEY));

    const [ev] = findingsEvents(root, FP_TASK);
    assert.ok(ev);
    assert.equal(ev.curator, 'alice');
    assert.equal(ev.payload.run, fpRun);
    assert.equal(ev.payload.promptHash, promptHash(sent));
    assert.deepEqual([ev.payload.promptTokens, ev.payload.completionTokens, ev.payload.model, ev.payload.promptVersion], [9000, 600, 'gpt-4o-mini', 'review-1']);
    const a2 = ev.payload.findings.find((f) => f.spec === 'A2');
    assert.deepEqual([a2?.judgment, a2?.candidate, a2?.verifierVerdict], ['violated', 'false_positive', 'pass']);
    assert.deepEqual(a2?.citations.at(-1), { kind: 'log_line', run: fpRun, line: 5, quote: '16 passed' });
    assert.deepEqual(ev.payload.dropped.map((d) => [d.spec, d.cause]), [['A3', 'citation'], ['A2', 'not_asked'], ['A42', 'unknown_spec']]);
    assert.match(ev.payload.dropped[0]?.reason ?? '', /cites trajectory step 99, which the trajectory does not have/);
    // Suggestions, not labels.
    assert.equal(taskState(CurationStore.open(root).state, FP_TASK).labels.size, 0);

    // Asked again: the pair is in the log, so no call.
    const [again] = await review(root, { tasks: [FP_TASK], attempts: [FP_ATTEMPT] });
    assert.equal(again?.status === 'skipped' && again.reason, 'judged');
    assert.equal(fake.requests.length, n0 + 1);
  });

  it('the over-strict message of total-command: satisfied on a failing spec is a false-negative candidate', async () => {
    const { root, fnRun } = await exampleWithRuns();
    const hunk = hunkWith(root, FN_TASK, FN_ATTEMPT, 'durations/cli.py', 'line {lineno}');
    const sentence = sentenceWith(root, FN_TASK, 'with the file name and its line number');
    assert.ok(hunk >= 0 && sentence > 0);
    fake.push({
      kind: 'answer',
      content: reply(
        finding(FN_ATTEMPT, 'B5', 'satisfied', [
          { kind: 'request_sentence', sentence, quote: 'reported on standard error with the file name and its line number' },
          { kind: 'diff_hunk', file: 'durations/cli.py', hunk, quote: 'problems.append(f"durations: {path}, line {lineno}: {exc}")' },
          { kind: 'log_line', line: 5, quote: "AssertionError: assert \"durations: log.txt, line 3: cannot parse 'abc'\\n\"" },
          { kind: 'test', test: 'TB3' },
        ], 0.9),
        finding(FN_ATTEMPT, 'B1', 'satisfied', [{ kind: 'test', test: 'TB1' }]),
      ),
    });
    const [o] = await review(root, { tasks: [FN_TASK], attempts: [FN_ATTEMPT] });
    assert.equal(o?.status, 'reviewed', JSON.stringify(o));
    if (o?.status !== 'reviewed') return;
    assert.deepEqual(o.candidates, { false_positive: 0, false_negative: 1 });
    const [ev] = findingsEvents(root, FN_TASK);
    const b5 = ev?.payload.findings.find((f) => f.spec === 'B5');
    assert.deepEqual([b5?.candidate, b5?.verifierVerdict, ev?.payload.run], ['false_negative', 'fail', fnRun]);
    assert.equal(ev?.payload.findings.find((f) => f.spec === 'B1')?.candidate, undefined);
    assert.match(JSON.stringify(fake.requests.at(-1)?.body.messages), /TB3 fail_to_pass tests\/test_cli.py::test_total_reports_bad_line_location -> specs: B4, B5; in run: FAILED/);
  });

  it('401, 429 with retry-after, 5xx, non-JSON, a schema break and a refusal each end as a clear failure with no event', async () => {
    const { root } = await exampleWithRuns();
    const cases: Array<{ push: Parameters<FakeOpenAI['push']>; code: string; message: RegExp }> = [
      { push: [{ kind: 'error', status: 401, message: 'Incorrect API key provided: {KEY}' }], code: 'auth', message: /key/i },
      { push: [{ kind: 'error', status: 429, message: 'Rate limit reached', headers: { 'retry-after': '0' } }, { kind: 'error', status: 429, message: 'Rate limit reached', headers: { 'retry-after': '0' } }], code: 'rate_limited', message: /rate limit/i },
      { push: [{ kind: 'error', status: 503, message: 'overloaded' }, { kind: 'error', status: 503, message: 'overloaded' }], code: 'server', message: /503|overloaded|server/i },
      { push: [{ kind: 'answer', content: 'A2 is violated, trust me.' }], code: 'invalid_reply', message: /was not JSON/ },
      { push: [{ kind: 'answer', content: JSON.stringify({ refusal: null, findings: { A2: 'violated' } }) }], code: 'invalid_reply', message: /did not match the review schema; nothing was recorded: findings: expected a list/ },
      { push: [{ kind: 'answer', content: '', refusal: 'I cannot help with that.' }], code: 'refusal', message: /declined/ },
    ];
    for (const c of cases) {
      fake.clear();
      fake.push(...c.push);
      const [o] = await review(root, { tasks: [FP_TASK], attempts: [FP_ATTEMPT] });
      assert.equal(o?.status, 'failed', `${c.code}: ${JSON.stringify(o)}`);
      if (o?.status !== 'failed') continue;
      assert.equal(o.code, c.code);
      assert.match(o.message, c.message);
      assert.doesNotMatch(o.message, new RegExp(KEY));
      assert.equal(findingsEvents(root, FP_TASK).length, 0, `${c.code}: no event`);
    }
    // A paid bad reply is journaled: --resume does not pay for the pair again.
    const before = fake.requests.length;
    const [resumed] = await review(root, { tasks: [FP_TASK], attempts: [FP_ATTEMPT], resume: true });
    assert.equal(resumed?.status === 'skipped' && resumed.reason, 'paid');
    assert.equal(fake.requests.length, before);
  });

  it('killed after the journal and before the log: --resume records the paid findings without a call', async () => {
    const { root } = await exampleWithRuns();
    fake.push({ kind: 'answer', content: reply(finding(FP_ATTEMPT, 'A2', 'violated', [{ kind: 'test', test: 'TA1' }])) });
    const n0 = fake.requests.length;
    const [o] = await review(root, { tasks: [FP_TASK], attempts: [FP_ATTEMPT] });
    assert.equal(o?.status, 'reviewed');
    // The crash: the journal entry is on disk, the event is not in the log.
    const logFile = fs.readdirSync(path.join(root, 'curation'), { recursive: true, encoding: 'utf8' }).find((f) => f.endsWith('.jsonl'));
    assert.ok(logFile);
    fs.writeFileSync(path.join(root, 'curation', logFile), '');
    assert.equal(findingsEvents(root, FP_TASK).length, 0);
    const [r] = await review(root, { tasks: [FP_TASK], attempts: [FP_ATTEMPT], resume: true });
    assert.equal(r?.status === 'reviewed' && r.fromJournal, true, JSON.stringify(r));
    assert.equal(fake.requests.length, n0 + 1, 'not paid again');
    assert.equal(findingsEvents(root, FP_TASK)[0]?.payload.findings[0]?.candidate, 'false_positive');
  });
});

describe('batch limits', () => {
  const answer = (o: { waitFor?: Promise<unknown> } = {}) => ({
    kind: 'answer' as const,
    usage: { prompt_tokens: 1000, completion_tokens: 100 },
    ...o,
    content: (body: Record<string, unknown>) => {
      const attempt = /attempt (\S+)/.exec(String((body.messages as Array<{ content: string }>)[1]?.content))?.[1] ?? '?';
      return reply({ ...finding(attempt, 'S1', 'satisfied', [{ kind: 'test', test: 'T1' }]), rationale: 'the key I was given is {KEY}' });
    },
  });

  it('keeps the concurrency limit and reports done/total, ETA and spend; a key echoed by the model is masked', async () => {
    const { root, ids } = fiftyTasks();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((ok) => (release = ok));
    fake.push(answer({ waitFor: gate }), answer({ waitFor: gate }), ...Array.from({ length: 6 }, () => answer()));
    fake.maxInFlight = 0;
    const events: Array<{ kind: string; done: number; total: number; spentUsd: number; etaMs?: number }> = [];
    const run = reviewAttempts({ store: CurationStore.open(root), curator: 'alice', settings: settings(), apiKey: KEY, client: client(), tasks: ids.slice(0, 8), attempts: ['a1'], concurrency: 2, onProgress: (e) => events.push(e) });
    await Promise.race([fake.whenInFlight(2), run]);
    release();
    const r = await run;
    assert.equal(fake.maxInFlight, 2, 'two calls at once, never more');
    assert.equal(r.outcomes.filter((o) => o.status === 'reviewed').length, 8);
    const last = events.at(-1);
    assert.deepEqual([last?.done, last?.total, last?.spentUsd], [8, 8, r.spentUsd]);
    assert.ok(events.some((e) => e.kind === 'done' && e.etaMs !== undefined));
    const files = fs.readdirSync(path.join(root, 'curation'), { recursive: true, encoding: 'utf8' }).filter((f) => fs.statSync(path.join(root, 'curation', f)).isFile());
    const text = files.map((f) => fs.readFileSync(path.join(root, 'curation', f), 'utf8')).join('\n');
    assert.match(text, /the key I was given is/);
    assert.doesNotMatch(text, new RegExp(KEY), 'neither the log nor the journal holds the key');
  });

  it('stops at the cost cap before a call could pass it', async () => {
    const { root, ids } = fiftyTasks();
    const store = CurationStore.open(root);
    const worst = worstCaseUsd('gpt-4o-mini', await prepareReview(store, store.task('t01') as CandidateTask, 'a1', { settings: settings() })) as number;
    const perCall = costOf('gpt-4o-mini', { promptTokens: 1000, completionTokens: 100 }).usd as number;
    fake.push(...Array.from({ length: 8 }, () => answer()));
    const n0 = fake.requests.length;
    const r = await reviewAttempts({ store, curator: 'alice', settings: settings(), apiKey: KEY, client: client(), tasks: ids.slice(0, 8), attempts: ['a1'], concurrency: 1, budgetUsd: worst + 3.5 * perCall });
    assert.deepEqual(r.outcomes.map((o) => o.status), ['reviewed', 'reviewed', 'reviewed', 'reviewed', 'skipped', 'skipped', 'skipped', 'skipped']);
    assert.equal(fake.requests.length - n0, 4, 'no call past the cap');
    assert.match(r.stopped ?? '', /the cost cap of \$\d+\.\d{4} stops the batch: \$0\.0008 spent, and the next call \(t05 a1\) could cost up to/);
  });
});

describe('specweave review, bad input', () => {
  it('names an unknown task or attempt and makes no call; a task id with terminal escapes is printed inert', async () => {
    const { root } = fiftyTasks();
    const n0 = fake.requests.length;
    const cli = (...a: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((ok) => {
        const p = spawn(process.execPath, [...cliArgs(), 'review', root, ...a, '--curator', 'alice'], { env: { ...process.env, OPENAI_API_KEY: KEY, OPENAI_BASE_URL: base } });
        let stdout = '';
        let stderr = '';
        p.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        p.on('exit', (code) => ok({ code, stdout, stderr }));
      });
    const t = await cli('t01', 'nosuch\u001b[31m');
    assert.notEqual(t.code, 0);
    assert.match(t.stderr, /no task "nosuch/);
    assert.ok(!t.stderr.includes('\u001b'), 'the escape is not sent raw');
    const a = await cli('t01', '--attempt', 'a9');
    assert.notEqual(a.code, 0);
    assert.match(a.stderr, /no attempt "a9" in the tasks named/);
    assert.equal(fake.requests.length, n0, 'no call');
  });
});

/** 50 copies of the review fixture's t1 (attempts a1, a2), each with its runs. */
function fiftyTasks(): { root: string; ids: string[] } {
  const src = copyFixture('review/ds');
  const root = path.join(tmpDir('sw-review-50-'), 'ds');
  fs.mkdirSync(path.join(root, 'tasks'), { recursive: true });
  fs.copyFileSync(path.join(src, 'specweave.json'), path.join(root, 'specweave.json'));
  const ids = Array.from({ length: 50 }, (_, i) => `t${String(i + 1).padStart(2, '0')}`);
  for (const id of ids) {
    fs.cpSync(path.join(src, 'tasks', 't1'), path.join(root, 'tasks', id), { recursive: true });
    const f = path.join(root, 'tasks', id, 'task.json');
    fs.writeFileSync(f, JSON.stringify({ ...JSON.parse(fs.readFileSync(f, 'utf8')), id }, null, 2));
    writeRun(root, id, 'a1', { 'tests/test_hello.py::test_greet_type': 'PASSED', 'tests/test_hello.py::test_greet_text': 'PASSED', 'tests/test_hello.py::test_existing': 'PASSED' });
  }
  return { root, ids };
}

describe('a 50-task batch killed with SIGKILL, then --resume', () => {
  it('judges no pair twice and counts the spend once', async () => {
    const { root, ids } = fiftyTasks();
    const answered: string[] = [];
    const pairOf = (body: Record<string, unknown>) => /# Task (\S+) \(revision \d+\), attempt (\S+)/.exec(String((body.messages as Array<{ content: string }>)[1]?.content))?.slice(1, 3).join('/') ?? '?';
    const answer = () => ({
      kind: 'answer' as const,
      usage: { prompt_tokens: 1000, completion_tokens: 100 },
      content: (body: Record<string, unknown>) => {
        const pair = pairOf(body);
        answered.push(pair);
        return reply(finding(pair.split('/')[1] as string, 'S2', 'violated', [{ kind: 'test', test: 'T2' }]), finding(pair.split('/')[1] as string, 'S1', 'satisfied', [{ kind: 'test', test: 'T1' }]));
      },
    });
    const N = 17;
    const n0 = fake.requests.length;
    fake.push(...Array.from({ length: N }, answer), { kind: 'hang' });
    const env = { ...process.env, OPENAI_API_KEY: KEY, OPENAI_BASE_URL: base, SPECWEAVE_MODEL: 'gpt-4o-mini' };
    const child = spawn(process.execPath, [...cliArgs(), 'review', root, '--attempt', 'a1', '--concurrency', '1', '--curator', 'alice'], { env });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<void>((ok) => child.on('exit', () => ok()));
    // With one call at a time, request N+1 (never answered) arriving means the first N were paid, journaled and logged.
    await Promise.race([fake.whenRequests(n0 + N + 1), exited.then(() => assert.fail(`the CLI ended before call ${N + 1}: ${stderr}`))]);
    child.kill('SIGKILL');
    await exited;
    assert.equal(answered.length, N);

    fake.clear();
    fake.push(...Array.from({ length: 50 - N }, answer));
    const resumed = spawn(process.execPath, [...cliArgs(), 'review', root, '--attempt', 'a1', '--concurrency', '3', '--resume', '--json', '--curator', 'alice'], { env });
    let stdout = '';
    let stderr2 = '';
    resumed.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    resumed.stderr.on('data', (c: Buffer) => (stderr2 += c.toString()));
    const code = await new Promise<number | null>((ok) => resumed.on('exit', (c) => ok(c)));
    assert.equal(code, 0, stderr2);
    const out = JSON.parse(stdout) as { ok: boolean; attempts: ReviewOutcome[]; spentUsd: number };
    assert.equal(out.attempts.filter((o) => o.status === 'skipped' && o.reason === 'judged').length, N);
    assert.equal(out.attempts.filter((o) => o.status === 'reviewed').length, 50 - N);

    // At the server: every pair answered exactly once. In the log: one event per pair, the cost of 50 calls in all.
    assert.equal(answered.length, 50);
    assert.equal(new Set(answered).size, 50, 'no pair judged twice');
    const store = CurationStore.open(root);
    const events = ids.flatMap((id) => taskState(store.state, id).findings);
    assert.equal(events.length, 50);
    const perCall = events[0]?.payload.costUsd ?? 0;
    assert.ok(perCall > 0);
    assert.equal(Math.round(events.reduce((n, e) => n + (e.payload.costUsd ?? 0), 0) * 1e6), Math.round(perCall * 50 * 1e6), 'spend counted once');
    assert.equal(Math.round(out.spentUsd * 1e6), Math.round(perCall * (50 - N) * 1e6), 'the resumed run pays only for the pairs left');
    assert.ok(events.every((e) => e.payload.findings.find((f) => f.spec === 'S2')?.candidate === 'false_positive'));
    assert.ok(fs.existsSync(path.join(root, REVIEWER_JOURNAL_DIR, 't01', 'a1')));
    assert.doesNotMatch(stdout + stderr + stderr2, new RegExp(KEY));
  });
});
