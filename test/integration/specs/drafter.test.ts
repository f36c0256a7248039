// The spec drafter against a real HTTP server speaking chat-completions, on real SWE-bench rows imported from
// ../shared/samples: a draft with one rejected citation, accepted into a new revision, an attempt labelled against a
// drafted spec, the task approved; every endpoint fault and bad reply a clear message with nothing written; the
// batch's concurrency limit, cost cap and resume after a crash (a killed CLI) without paying twice.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { after, before, beforeEach, describe, it } from 'node:test';
import { CurationStore } from '../../../src/app/curationStore';
import { importSwebench } from '../../../src/app/importSwebench';
import { acceptSuggestion } from '../../../src/app/repairFlow';
import type { DraftOutcome } from '../../../src/app/specDrafter';
import { draftSpecs, draftTask } from '../../../src/app/specDrafter';
import { listSuggestions, readProposed } from '../../../src/adapters/fs/repairStore';
import { listTrajectoryInstances } from '../../../src/adapters/fs/trajectoryReader';
import { EndpointMemory, LlmClient } from '../../../src/adapters/llm/client';
import type { LlmSettings } from '../../../src/adapters/llm/client';
import { Redactor } from '../../../src/adapters/llm/redact';
import { RULE_IDS } from '../../../src/core/review/rules';
import { tmpDir } from '../../unit/helpers/tmp';
import { FakeOpenAI } from '../repair/fakeOpenAI';
import { cliArgs } from '../../unit/helpers/cli';

const KEY = 'sk-test-SPECWEAVE-FAKE-KEY-drafter-7f3a19c2';
const SWE = path.resolve(__dirname, '../../../../shared/samples/swebench');
const TASK = 'django__django-11119';
let fake: FakeOpenAI;
let base = '';

before(async () => {
  fake = new FakeOpenAI();
  base = await fake.start();
});
// Each test scripts its own replies.
beforeEach(() => fake.clear());
after(() => fake.stop());

/** A dataset imported from the real rows (all three instance files; one predictions file gives django-11119 attempts). */
let imported: string | undefined;
async function dataset(): Promise<string> {
  if (!imported) {
    imported = path.join(tmpDir('sw-drafter-src-'), 'dataset');
    await importSwebench(
      {
        instances: ['swebench-verified_rows.string-encoded.jsonl', 'swebench-lite_rows.string-encoded.jsonl', 'swe-agent_swe-bench-lite-test.list-encoded.json'].map((f) => path.join(SWE, 'instances', f)),
        predictions: [path.join(SWE, 'predictions', 'multi-solver.assembled.jsonl')],
        out: imported,
      },
      { listTrajectoryInstances: (p) => listTrajectoryInstances(p) },
    );
  }
  const copy = path.join(tmpDir('sw-drafter-'), 'dataset');
  fs.cpSync(imported, copy, { recursive: true });
  return copy;
}

const settings = (over: Partial<LlmSettings> = {}): LlmSettings => ({ baseUrl: base, model: 'gpt-4o-mini', temperature: 0, maxTokens: 32000, timeoutSec: 5, ...over });
const client = (s = settings()) => new LlmClient({ settings: s, apiKey: KEY, redactor: new Redactor([KEY]), retry: { backoffMs: 20 }, memory: new EndpointMemory() });

type Spec = { id: string; text: string; category: string; dependsOn: string[]; tests: string[]; citation: { quote: string; source: string; line: number | null } };
const replyOf = (...specs: Spec[]) => JSON.stringify({ refusal: null, specs });

/** The scripted reply for django-11119: S2 cites a sentence the request does not have. */
const S1: Spec = {
  id: 'S1',
  text: 'Engine.render_to_string() renders with the engine\'s autoescape setting: an engine made with autoescape=False does not escape.',
  category: 'interface-io-contracts',
  dependsOn: [],
  tests: ['T1'],
  citation: { quote: 'So if you create en engine with autoescape=False and then call its render_to_string() method, the result will always be autoescaped.', source: 'request', line: null },
};
const S2: Spec = { id: 'S2', text: 'render_to_string() caches compiled templates.', category: 'state-consistency', dependsOn: ['S1'], tests: ['T5'], citation: { quote: 'Templates are cached after the first render.', source: 'request', line: null } };
const S3: Spec = {
  id: 'S3',
  text: 'A Context passed to render_to_string() is used as given.',
  category: 'control-flow-ordering',
  dependsOn: ['S1'],
  tests: ['test_basic_context (template_tests.test_engine.RenderToStringTest)'],
  citation: { quote: 'return t.render(Context(context, autoescape=self.autoescape))', source: 'gold_patch', line: 9 },
};

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

async function draftOne(root: string, logs: string[] = []): Promise<DraftOutcome> {
  const c = client();
  return draftTask({ store: CurationStore.open(root), taskId: TASK, curator: 'alice', settings: c.settings, apiKey: KEY, client: c, onLog: (l) => logs.push(l) });
}

describe('drafting a real SWE-bench row', () => {
  it('drafts specs with one rejected citation; the draft is accepted, an attempt labelled on a drafted spec, the task approved', async () => {
    const root = await dataset();
    const store0 = CurationStore.open(root);
    const before = await store0.act(TASK, 'alice', { kind: 'approve', waivers: RULE_IDS.filter((r) => r !== 'has-specs' && r !== 'every-attempt-judged').map((rule) => ({ rule, reason: 'not verified in this test' })) });
    assert.equal(before.ok, false, 'a spec-less row cannot be approved');
    if (!before.ok) assert.match(JSON.stringify(before.refusal), /has no specs/);

    fake.push({ kind: 'answer', content: replyOf(S1, S2, S3) });
    const logs: string[] = [];
    const r = await draftOne(root, logs);
    assert.equal(r.status, 'drafted', JSON.stringify(r));
    if (r.status !== 'drafted') return;
    assert.equal(r.specs, 2);
    assert.deepEqual(r.rejections.map((x) => x.reason), ['specs[1] (S2): citation.quote: "Templates are cached after the first render." is not in the request']);
    assert.match(logs.join('\n'), /rejected specs\[1\] \(S2\)/);
    // The prompt carried the request, the numbered patches and the test ids.
    const sent = JSON.stringify(fake.requests.at(-1)?.body.messages);
    assert.match(sent, /T1 fail_to_pass test_autoescape_off \(template_tests\.test_engine\.RenderToStringTest\)/);
    assert.match(sent, /9\| \+ {12}return t\.render\(Context\(context, autoescape=self\.autoescape\)\)/);
    assert.doesNotMatch(sent, new RegExp(KEY));

    // Stored as a repair suggestion: provenance, citations and rejections kept, a diff of task.json to review.
    const [stored] = listSuggestions(root, TASK);
    assert.ok(stored);
    assert.equal(stored.provenance, 'drafter');
    assert.equal(stored.status, 'ready');
    assert.deepEqual(Object.keys(stored.draft?.citations ?? {}), ['S1', 'S3']);
    assert.deepEqual(stored.draft?.citations.S3, { quote: S3.citation.quote, source: 'gold_patch', line: 9 });
    assert.equal(stored.draft?.rejections.length, 1);
    assert.deepEqual(stored.files.map((f) => f.path), ['task.json']);
    assert.match(stored.files[0]?.diff ?? '', /\+\s+"id": "S1"/);
    assert.doesNotMatch(stored.files[0]?.diff ?? '', /"S2"/);
    const proposed = readProposed(root, stored)[0];
    assert.ok(proposed);
    const pj = JSON.parse(proposed.text) as { specs: Array<{ id: string; dependsOn?: string[] }>; tests: Array<{ id: string; specs?: string[] }> };
    assert.deepEqual(pj.specs.map((s) => [s.id, s.dependsOn ?? []]), [['S1', []], ['S3', ['S1']]]);
    assert.deepEqual(pj.tests.filter((t) => t.specs).map((t) => [t.id, t.specs]), [['T1', ['S1']], ['T5', ['S3']]]);

    // The curator edits the proposal (as the review allows), then accepts it into revision 2.
    fs.writeFileSync(proposed.abs, proposed.text.replace('is used as given.', 'is rendered as given.'));
    const store = CurationStore.open(root);
    const acc = await acceptSuggestion({ root, taskId: TASK, suggestionId: stored.id, curator: 'alice', store });
    assert.equal(acc.to, 2);
    assert.equal(acc.edited, true);
    assert.deepEqual(acc.changedSpecs, ['S1', 'S3']);
    store.reloadDataset();
    const task = store.task(TASK);
    assert.ok(task);
    assert.deepEqual(task.specs.map((s) => s.text), [S1.text, 'A Context passed to render_to_string() is rendered as given.']);

    // A spec draft is not a repair: the candidate is now in review (not needs_repair -> repaired), ready to label.
    assert.equal(store.review(TASK)?.status, 'in_review');
    // Label every attempt on every drafted spec, then approve (rules needing verifier runs waived).
    for (const a of task.attempts) for (const s of task.specs) {
      const l = await store.act(TASK, 'alice', { kind: 'label', attempt: a.id, spec: s.id, verdict: 'satisfied' });
      assert.equal(l.ok, true, JSON.stringify(l));
    }
    const waivers = RULE_IDS.filter((x) => x !== 'has-specs' && x !== 'every-attempt-judged').map((rule) => ({ rule, reason: 'verifier runs are not part of this test' }));
    const ok = await store.act(TASK, 'alice', { kind: 'approve', waivers });
    assert.equal(ok.ok, true, JSON.stringify(ok));
  });
});

describe('faults: a clear message, nothing written', () => {
  const cases: Array<{ name: string; replies: Parameters<FakeOpenAI['push']>; code: string; message: RegExp; tries?: number }> = [
    { name: '401', replies: [{ kind: 'error', status: 401, message: 'Incorrect API key provided: {KEY_STARS}' }], code: 'auth', message: /401|key/i },
    { name: '429 with retry-after, then an answer that has only a cycle', replies: [{ kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '0' } }, { kind: 'answer', content: replyOf({ ...S1, dependsOn: ['S3'] }, { ...S3, dependsOn: ['S1'] }) }], code: 'invalid_reply', message: /no spec that passed the checks; nothing was written: specs\[0\] \(S1\): dependsOn: closes a cycle S1 -> S3 -> S1/, tries: 2 },
    { name: '5xx three times', replies: [{ kind: 'error', status: 503, message: 'overloaded' }, { kind: 'error', status: 502, message: 'bad gateway' }, { kind: 'error', status: 500, message: 'oops' }], code: 'server', message: /500|server/i, tries: 3 },
    { name: 'a cut stream', replies: [{ kind: 'answer', content: replyOf(S1), cutAfterChars: 80 }], code: 'stream_cut', message: /was cut off after \d+ tokens/ },
    { name: 'a reply that is not JSON', replies: [{ kind: 'answer', content: 'Here are the specs you asked for: S1 the engine...' }], code: 'invalid_reply', message: /was not JSON; nothing was written: the reply is not JSON/ },
    { name: 'a refusal', replies: [{ kind: 'answer', content: JSON.stringify({ refusal: 'the request is unclear', specs: [] }) }], code: 'refusal', message: /the model declined: the request is unclear/ },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const root = await dataset();
      const taskJson = fs.readFileSync(path.join(root, 'tasks', TASK, 'task.json'), 'utf8');
      const n0 = fake.requests.length;
      fake.push(...c.replies);
      const r = await draftOne(root);
      assert.equal(r.status, 'failed', JSON.stringify(r));
      if (r.status !== 'failed') return;
      assert.equal(r.code, c.code, r.message);
      assert.match(r.message, c.message);
      assert.doesNotMatch(r.message, new RegExp(KEY.slice(8, 20)));
      if (c.tries) assert.equal(fake.requests.length - n0, c.tries);
      assert.deepEqual(filesUnder(path.join(root, 'curation', 'suggestions')), [], 'no suggestion stored');
      assert.equal(fs.readFileSync(path.join(root, 'tasks', TASK, 'task.json'), 'utf8'), taskJson, 'the task is unchanged');
      assert.equal(fake.pending, 0);
    });
  }
});

/** A reply for whichever task the request names: one spec citing the first line of that task's request. */
function replyForRequest(root: string) {
  return (body: Record<string, unknown>): string => {
    const user = (body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'user')?.content ?? '';
    const id = /^# Task (\S+)/.exec(user)?.[1] ?? '';
    const first = fs.readFileSync(path.join(root, 'tasks', id, 'request.md'), 'utf8').split('\n')[0] ?? '';
    return replyOf({ id: 'S1', text: `The fix for ${id} holds.`, category: 'domain-protocol-rules', dependsOn: [], tests: ['T1'], citation: { quote: first, source: 'request', line: null } });
  };
}

describe('batch', () => {
  it('honours the concurrency limit (counted in flight by the server) and reports spend as it goes', async () => {
    const root = await dataset();
    const tasks = CurationStore.open(root).dataset.tasks.map((t) => t.id).slice(0, 5);
    assert.equal(tasks.length, 5);
    fake.maxInFlight = 0;
    const two = fake.whenInFlight(2);
    for (let i = 0; i < 5; i++) fake.push({ kind: 'answer', content: replyForRequest(root), waitFor: two });
    const events: string[] = [];
    const c = client();
    const r = await draftSpecs({ store: CurationStore.open(root), tasks, concurrency: 2, curator: 'alice', settings: c.settings, apiKey: KEY, client: c, onProgress: (e) => events.push(`${e.kind} ${e.task ?? ''} ${e.done}/${e.total} $${e.spentUsd}`) });
    assert.deepEqual(r.outcomes.map((o) => o.status), ['drafted', 'drafted', 'drafted', 'drafted', 'drafted'], JSON.stringify(r.outcomes.map((o) => (o.status === 'failed' ? o.message : o.status))));
    assert.equal(fake.maxInFlight, 2);
    assert.ok(r.spentUsd > 0);
    assert.equal(events.filter((e) => e.startsWith('done')).length, 5);
    assert.match(events.at(-1) ?? '', /5\/5 \$0\.\d+/);
  });

  it('the cost cap stops new calls before the spend could pass it, and says so', async () => {
    const root = await dataset();
    const tasks = CurationStore.open(root).dataset.tasks.map((t) => t.id).slice(0, 4);
    for (let i = 0; i < 4; i++) fake.push({ kind: 'answer', content: replyForRequest(root), usage: { prompt_tokens: 20000, completion_tokens: 1000 } });
    const c = client();
    const n0 = fake.requests.length;
    // Each call reports $0.0036 (gpt-4o-mini list prices); its worst case is over $0.0048 (8,000 reply tokens alone).
    const r = await draftSpecs({ store: CurationStore.open(root), tasks, concurrency: 1, budgetUsd: 0.01, curator: 'alice', settings: c.settings, apiKey: KEY, client: c });
    const made = fake.requests.length - n0;
    assert.ok(made >= 1 && made < 4, `calls made: ${made}`);
    assert.match(r.stopped ?? '', /the cost cap of \$0\.0100 stops the batch: \$0\.\d+ spent, and the next call \(\S+\) could cost up to \$0\.\d+/);
    assert.deepEqual(r.outcomes.slice(made).map((o) => o.status === 'skipped' && o.reason), new Array(4 - made).fill('budget'));
    assert.equal(r.spentUsd, Math.round(made * 0.0036 * 1e6) / 1e6);
    assert.ok(r.spentUsd <= 0.01);
    fake.clear();
  });

  it('--resume after a crash (the CLI killed mid-batch) does not call the model again for drafted tasks', async () => {
    const root = await dataset();
    const tasks = CurationStore.open(root).dataset.tasks.map((t) => t.id).slice(0, 3);
    const n0 = fake.requests.length;
    fake.push({ kind: 'answer', content: replyForRequest(root) }, { kind: 'answer', content: replyForRequest(root) }, { kind: 'hang' });
    const child = spawn(process.execPath, [...cliArgs(), 'specs', 'draft', root, ...tasks, '--concurrency', '1', '--curator', 'alice'], {
      env: { ...process.env, OPENAI_API_KEY: KEY, OPENAI_BASE_URL: base, SPECWEAVE_MODEL: 'gpt-4o-mini' },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<void>((ok) => child.on('exit', () => ok()));
    // The third call is under way (it never gets an answer): the first two were paid and stored.
    await Promise.race([fake.whenRequests(n0 + 3), exited.then(() => assert.fail(`the CLI ended before the third call: ${stderr}`))]);
    child.kill('SIGKILL');
    await exited;
    assert.equal(listSuggestions(root, tasks[0] as string).length + listSuggestions(root, tasks[1] as string).length, 2, 'two drafts were stored before the crash');

    const n1 = fake.requests.length;
    fake.push({ kind: 'answer', content: replyForRequest(root) });
    const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((ok) => {
      const p = spawn(process.execPath, [...cliArgs(), 'specs', 'draft', root, ...tasks, '--resume', '--json', '--curator', 'alice'], {
        env: { ...process.env, OPENAI_API_KEY: KEY, OPENAI_BASE_URL: base, SPECWEAVE_MODEL: 'gpt-4o-mini' },
      });
      let so = '';
      let se = '';
      p.stdout.on('data', (c: Buffer) => (so += c.toString()));
      p.stderr.on('data', (c: Buffer) => (se += c.toString()));
      p.on('exit', (code) => ok({ code, stdout: so, stderr: se }));
    });
    assert.equal(out.code, 0, out.stderr);
    assert.equal(fake.requests.length - n1, 1, 'one call: only the task the crash interrupted');
    const j = JSON.parse(out.stdout) as { ok: boolean; tasks: Array<{ task: string; status: string; reason?: string }> };
    assert.deepEqual(j.tasks.map((t) => [t.task, t.status, t.reason ?? '']), [[tasks[0], 'skipped', 'drafted'], [tasks[1], 'skipped', 'drafted'], [tasks[2], 'drafted', '']]);
    assert.doesNotMatch(out.stdout + out.stderr, new RegExp(KEY));
  });
});
