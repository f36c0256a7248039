// The LLM-written probes against a real HTTP server speaking chat-completions (scripted replies) and the verifier's
// real hardened containers, on a copy of the example dataset: total-command's over-strict TB3 rejects an alternative
// solution that reports bad lines in other, spec-valid words (false-negative evidence tied to TB3, its log lines and
// B4/B5); format-precision's tests let a half-to-even variant meant to violate A2 survive (false-positive evidence for
// A2). Bad replies and endpoint faults run nothing and store no report; the spend is counted and capped.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Engine } from '../../../src/adapters/docker/engine';
import { VerifierService } from '../../../src/adapters/docker/verifyService';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import { EndpointMemory, LlmClient } from '../../../src/adapters/llm/client';
import type { LlmSettings } from '../../../src/adapters/llm/client';
import { costOf } from '../../../src/adapters/llm/pricing';
import { Redactor } from '../../../src/adapters/llm/redact';
import type { LlmProbeOptions } from '../../../src/app/llmProbes';
import { readProbesView } from '../../../src/app/probeReports';
import { llmProbeJournalPath, llmProbeReportPath, ProbeBudget, ProbeOutputs, probeWithLlm } from '../../../src/app/llmProbes';
import type { CandidateTask } from '../../../src/core/model';
import type { AlternativesReport, VariantsReport } from '../../../src/core/probes/llmPatches';
import { setOutput } from '../../../src/cli/output';
import { runCli } from '../../../src/cli/run';
import { halfEven, minuteDefault, notApplying, otherMessage, patchOf, replyWith, taskFile } from '../../unit/probes/llmPatchesFixtures';
import { copyExample, filesContaining } from '../repair/exampleCopy';
import { FakeOpenAI } from '../repair/fakeOpenAI';
import { assertNoOwnedContainers, requireEngine } from '../verify/engineGuard';

const KEY = 'sk-test-SPECWEAVE-FAKE-KEY-probes-51c0e7aa';
let engine: Engine;
let fake: FakeOpenAI;
let base = '';
let root: string;
let tasks: Map<string, CandidateTask>;

before(async () => {
  engine = await requireEngine();
  fake = new FakeOpenAI();
  base = await fake.start();
  root = copyExample();
  tasks = new Map(loadDataset(root).tasks.map((t) => [t.id, t]));
});
beforeEach(() => fake.clear());
after(async () => {
  await fake.stop();
  if (engine) await assertNoOwnedContainers(engine);
});

const settings = (): LlmSettings => ({ baseUrl: base, model: 'gpt-4o-mini', temperature: 0, maxTokens: 32000, timeoutSec: 5 });
const client = () => new LlmClient({ settings: settings(), apiKey: KEY, redactor: new Redactor([KEY]), retry: { backoffMs: 20 }, memory: new EndpointMemory() });
const task = (id: string) => tasks.get(id) as CandidateTask;
const readJson = <T>(rel: string) => JSON.parse(fs.readFileSync(path.join(root, rel), 'utf8')) as T;

function options(over: Partial<LlmProbeOptions> = {}): LlmProbeOptions {
  const outputs = new ProbeOutputs();
  const service = new VerifierService({ datasetRoot: root, engine, concurrency: 2, onOutput: outputs.onOutput });
  return { service, datasetRoot: root, settings: settings(), apiKey: KEY, client: client(), outputs, ...over };
}

describe('alternative solutions of total-command (the over-strict message)', () => {
  it('the spec-valid rewrite is rejected by TB3: false-negative evidence tied to the failing assertion and to B4, B5', async () => {
    fake.push({
      kind: 'answer',
      usage: { prompt_tokens: 4000, completion_tokens: 1500 },
      content: replyWith(
        patchOf(otherMessage(), { summary: 'report bad lines as "durations: FILE, line N: ..."' }),
        patchOf(notApplying(), { summary: 'written against other code' }),
        patchOf(taskFile('total-command', 'tests.patch'), { summary: 'loosen the test' }),
      ),
    });
    const budget = new ProbeBudget(1);
    const r = await probeWithLlm(task('total-command'), 'alternatives', 3, options({ budget }));
    assert.equal(r.status, 'done', JSON.stringify(r));
    if (r.status !== 'done') return;
    const rep = r.report as AlternativesReport;
    assert.equal(rep.gold.status, 'passed', rep.gold.reason);
    assert.deepEqual(rep.counts, { rejected: 1, accepted: 0, did_not_apply: 1, timed_out: 0, out_of_memory: 0, error: 0 }, JSON.stringify(rep.alternatives.map((a) => [a.outcome, a.status, a.reason])));
    assert.deepEqual(rep.invalid.map((x) => x.reason), ["patches[2]: it touches test file(s) tests/test_cli.py: the task's tests are fixed"]);
    const rejected = rep.alternatives.find((a) => a.outcome === 'rejected');
    assert.ok(rejected);
    assert.deepEqual(rejected.failingTests.map((f) => [f.test, f.name, f.specs]), [['TB3', 'tests/test_cli.py::test_total_reports_bad_line_location', ['B4', 'B5']]]);
    assert.deepEqual(rejected.specs, ['B4', 'B5']);
    assert.deepEqual(rejected.beyondSpecs, []);
    const log = rejected.failingTests[0]?.log.map((l) => l.text).join('\n') ?? '';
    assert.match(log, /assert proc\.stderr == "error: log\.txt:3: cannot parse 'abc'\\n"/, 'the failing assertion is among the log lines');
    assert.match(log, /durations: log\.txt, line 3/, "the alternative's own output is shown beside it");
    assert.ok(rejected.failingTests[0]?.log.every((l) => l.line > 0));
    assert.equal(rep.alternatives.find((a) => a.outcome === 'did_not_apply')?.failingTests.length, 0, 'did not apply: never counted as rejected');

    // Stored: the report (each diff kept), the journal of the paid call with the reply; nothing under runs/; no key.
    assert.equal(r.file, llmProbeReportPath('total-command', 'alternatives'));
    assert.deepEqual(readJson<AlternativesReport>(r.file as string), JSON.parse(JSON.stringify(rep)));
    assert.ok(rejected.patch.includes('durations: {path}, line {number}'));
    const journal = readJson<{ reply: string; llm: { promptTokens: number } }>(llmProbeJournalPath('total-command', 'alternatives'));
    assert.equal(journal.llm.promptTokens, 4000);
    assert.ok(journal.reply.includes('durations: {path}, line {number}'));
    assert.equal(fs.existsSync(path.join(root, 'runs')), false);
    assert.deepEqual(filesContaining(path.dirname(root), KEY), []);
    // As the task view reads it: the rejection backs a false-negative finding on B5 (the review agent's candidate on
    // total-command, reviewAgent.test.ts) and on B4, with TB3 as the test that rejected it.
    const support = readProbesView(root, task('total-command')).support ?? [];
    for (const spec of ['B4', 'B5']) {
      const fn = support.find((x) => x.spec === spec)?.falseNegative ?? [];
      assert.deepEqual(fn.map((i) => [i.report, i.id, i.scope, i.tests]), [['alternatives', rejected.id, 'spec', ['tests/test_cli.py::test_total_reports_bad_line_location']]], spec);
    }
    assert.equal(fake.requests.at(-1)?.authorization, `Bearer ${KEY}`);
    assert.doesNotMatch(JSON.stringify(fake.requests.at(-1)?.body), new RegExp(KEY));
    // The prompt carried the specs, the tests with their specs, the gold patch and the base file.
    const sent = JSON.stringify(fake.requests.at(-1)?.body.messages);
    assert.match(sent, /TB3 fail_to_pass tests\/test_cli\.py::test_total_reports_bad_line_location \(specs: B4, B5\)/);
    assert.match(sent, /### BASE durations\/cli\.py/);

    // Spend: what the usage costs at list price, counted once; a cap that cannot hold the next call stops it unsent.
    const cost = costOf('gpt-4o-mini', { promptTokens: 4000, completionTokens: 1500 }).usd as number;
    assert.equal(r.costUsd, cost);
    assert.equal(budget.spentUsd, cost);
    const sentBefore = fake.requests.length;
    const capped = await probeWithLlm(task('total-command'), 'alternatives', 3, options({ budget: new ProbeBudget(cost) }));
    assert.equal(capped.status, 'skipped');
    if (capped.status === 'skipped') assert.match(capped.message, new RegExp(`cost cap of \\$${cost.toFixed(4).replace(".", "\\.")} stops the probe`));
    assert.equal(fake.requests.length, sentBefore, 'no call was made');
  });

  it('a failing test mapped to no spec is flagged "test beyond the specs"', async () => {
    // The same run, graded against a copy of the task whose TB3 maps to no spec.
    const t = task('total-command');
    const bare: CandidateTask = { ...t, tests: t.tests.map((x) => (x.id === 'TB3' ? { ...x, specs: [] } : x)) };
    fake.push({ kind: 'answer', content: replyWith(patchOf(otherMessage())) });
    const r = await probeWithLlm(bare, 'alternatives', 1, options({ persist: false }));
    assert.equal(r.status, 'done', JSON.stringify(r));
    if (r.status !== 'done') return;
    const a = (r.report as AlternativesReport).alternatives[0];
    assert.equal(a?.outcome, 'rejected');
    assert.deepEqual(a?.beyondSpecs, ['TB3']);
    assert.deepEqual(a?.specs, []);
  });
});

describe('plausible-wrong variants of format-precision (the half-even false positive)', () => {
  it('specweave probe --variants 2: the half-even variant meant to violate A2 survives and is reported for A2; the A1 one is killed', async () => {
    fake.push({
      kind: 'answer',
      usage: { prompt_tokens: 5000, completion_tokens: 2000 },
      content: replyWith(patchOf(minuteDefault(), { spec: 'A1', summary: 'default precision minutes' }), patchOf(halfEven(), { spec: 'A2', summary: 'round() halves to even' })),
    });
    let stdout = '';
    let stderr = '';
    setOutput({ stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = KEY;
    let code: number;
    try {
      code = await runCli(['probe', root, 'format-precision', '--variants', '2', '--base-url', base, '--model', 'gpt-4o-mini', '--budget-usd', '1', '--concurrency', '2', '--json']);
    } finally {
      setOutput(undefined);
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
    assert.equal(code, 0, stderr);
    const lines = stdout.trim().split('\n');
    assert.equal(lines.length, 1, stdout);
    const r = JSON.parse(lines[0] as string) as VariantsReport & { file: string };
    assert.equal(r.kind, 'variants');
    assert.equal(r.gold.status, 'passed', r.gold.reason);
    assert.deepEqual(r.requested, ['A1', 'A2']);
    assert.deepEqual(r.specs.map((s) => [s.spec, s.survived, s.killed]), [['A1', 0, 1], ['A2', 1, 0]], JSON.stringify(r.variants.map((v) => [v.spec, v.outcome, v.reason])));
    const survivor = r.variants.find((v) => v.outcome === 'survived');
    assert.equal(survivor?.spec, 'A2');
    assert.ok(survivor?.patch.includes('+    rounded = round(seconds / step) * step'), "the survivor's diff is kept");
    const killed = r.variants.find((v) => v.spec === 'A1');
    assert.ok(killed && killed.failingTests.length > 0 && killed.killedForSpecs.length > 0, JSON.stringify(killed));
    assert.equal(r.file, llmProbeReportPath('format-precision', 'variants'));
    assert.deepEqual(readJson<VariantsReport>(r.file).variants.map((v) => v.id), r.variants.map((v) => v.id));
    assert.doesNotMatch(stdout + stderr, new RegExp(KEY));
  });
});

describe('bad replies and endpoint faults: nothing runs, no report is stored', () => {
  const cases: Array<{ name: string; replies: Parameters<FakeOpenAI['push']>; code: string; message: RegExp }> = [
    { name: 'a reply that is not JSON', replies: [{ kind: 'answer', content: 'Here is a better patch: just change the message.' }], code: 'invalid_reply', message: /was not JSON; nothing was run/ },
    { name: 'a patch that is not a diff', replies: [{ kind: 'answer', content: replyWith(patchOf('change line 46 of cli.py')) }], code: 'invalid_reply', message: /no patch that passed the checks; nothing was run: patches\[0\]: not a unified diff/ },
    { name: 'a patch touching a test file', replies: [{ kind: 'answer', content: replyWith(patchOf(taskFile('total-command', 'tests.patch'))) }], code: 'invalid_reply', message: /touches test file\(s\) tests\/test_cli\.py/ },
    { name: 'a refusal', replies: [{ kind: 'answer', content: JSON.stringify({ refusal: 'I will not write this', patches: [] }) }], code: 'refusal', message: /refused: I will not write this/ },
    { name: "the endpoint's refusal field", replies: [{ kind: 'answer', content: '', refusal: 'no' }], code: 'refusal', message: /declined/ },
    { name: '429 past the retries', replies: Array.from({ length: 4 }, () => ({ kind: 'error' as const, status: 429, message: 'slow down', headers: { 'retry-after': '0' } })), code: 'rate_limited', message: /429|rate/i },
    { name: '5xx three times', replies: [{ kind: 'error', status: 503, message: 'overloaded' }, { kind: 'error', status: 502, message: 'bad gateway' }, { kind: 'error', status: 500, message: `oops {KEY}` }], code: 'server', message: /500|server/i },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const dir = path.join(root, 'probes', 'fractional-units');
      fs.rmSync(dir, { recursive: true, force: true });
      fake.push(...c.replies);
      const logs: string[] = [];
      const r = await probeWithLlm(task('fractional-units'), 'alternatives', 2, options({ onLog: (l) => logs.push(l) }));
      assert.equal(r.status, 'failed', JSON.stringify(r));
      if (r.status !== 'failed') return;
      assert.equal(r.code, c.code);
      assert.match(r.message, c.message);
      assert.equal(fs.existsSync(path.join(root, llmProbeReportPath('fractional-units', 'alternatives'))), false);
      assert.doesNotMatch(JSON.stringify(r) + logs.join('\n'), new RegExp(KEY));
      assert.equal(fake.pending, 0, 'every scripted reply was used');
    });
  }
});
