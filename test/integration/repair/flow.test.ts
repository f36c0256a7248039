// The repair flow on a copy of the example dataset against the fake OpenAI server: a suggestion stored before it is
// shown, the one retry with the problems found, each fault ending in a clear message with nothing lost, and
// accepting as an all-or-nothing new revision (a disk that fails at every step leaves the task as it was).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as nodeFs from 'node:fs';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CurationStore } from '../../../src/app/curationStore';
import { RepairFlowError, acceptSuggestion, rejectSuggestion } from '../../../src/app/repairFlow';
import { listSuggestions, loadSuggestion, readProposed, suggestionFolder } from '../../../src/adapters/fs/repairStore';
import type { LogFs } from '../../../src/adapters/fs/reviewLog';
import type { RevisionFs } from '../../../src/adapters/fs/taskRevision';
import { readRevision } from '../../../src/adapters/fs/taskRevision';
import { EndpointMemory, LlmClient } from '../../../src/adapters/llm/client';
import { Redactor } from '../../../src/adapters/llm/redact';
import { requestSuggestion } from '../../../src/app/repairAgent';
import type { RequestedTarget } from '../../../src/core/repair/suggestion';
import { taskState } from '../../../src/core/review/reducer';
import { FN_ATTEMPT, FN_TASK, LOOSENED, PINNED, TEST_FILE, copyExample, filesContaining, goodReplyDiff, goodReplyWhole, reply } from './exampleCopy';
import { FakeOpenAI } from './fakeOpenAI';
import { cliArgs } from '../../unit/helpers/cli';

const KEY = 'sk-test-SPECWEAVE-FAKE-KEY-flow-91c4e0d2aa';
let fake: FakeOpenAI;
let base = '';

before(async () => {
  fake = new FakeOpenAI();
  base = await fake.start();
});
after(() => fake.stop());

async function ask(root: string, target: RequestedTarget = 'tests', logs: string[] = []) {
  const store = CurationStore.open(root);
  const redactor = new Redactor([KEY]);
  const client = new LlmClient({ settings: { baseUrl: base, model: 'gpt-4o-mini', temperature: 0, maxTokens: 32000, timeoutSec: 5 }, apiKey: KEY, redactor, retry: { backoffMs: 20 }, memory: new EndpointMemory() });
  return requestSuggestion({
    store,
    taskId: FN_TASK,
    target,
    curator: 'alice',
    settings: client.settings,
    apiKey: KEY,
    client,
    redactor,
    onLog: (l) => logs.push(l),
  });
}

/** The CLI in a child process (asynchronous: the fake server answers from this process). */
function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [...cliArgs(), ...args], {
      env: { ...process.env, OPENAI_API_KEY: KEY, OPENAI_BASE_URL: base, SPECWEAVE_MODEL: 'gpt-4o-mini', ...env },
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    p.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function taskFiles(root: string): Record<string, string> {
  const dir = path.join(root, 'tasks', FN_TASK);
  return Object.fromEntries(['task.json', 'request.md', 'tests.patch'].map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
}

function noLeftovers(root: string): void {
  const dir = path.join(root, 'tasks', FN_TASK);
  assert.deepEqual(fs.readdirSync(dir).filter((n) => n.startsWith('.')), [], 'no staging folder or temporary file left');
  assert.ok(!fs.existsSync(path.join(dir, 'revisions')) || fs.readdirSync(path.join(dir, 'revisions')).length === 0, 'no archived revision left');
}

describe('repair flow on the example dataset (fake model)', () => {
  it('stores a good suggestion before it is shown, records the request, and accepting it makes revision 2 with the old one readable', async () => {
    const root = copyExample();
    const before = taskFiles(root);
    fake.push({ kind: 'answer', content: goodReplyWhole(root), usage: { prompt_tokens: 5400, completion_tokens: 900 } });
    const r = await ask(root);
    assert.equal(r.record.status, 'ready');
    const dir = suggestionFolder(root, FN_TASK, r.record.id);
    const stored = loadSuggestion(root, FN_TASK, r.record.id);
    assert.equal(stored.summary, r.record.summary);
    assert.equal(stored.llm.usage?.promptTokens, 5400);
    assert.equal(stored.llm.costSource, 'price-table');
    assert.ok((stored.llm.costUsd ?? 0) > 0);
    assert.deepEqual(stored.files.map((f) => [f.role, f.path]), [['test', TEST_FILE]]);
    assert.match(stored.files[0]?.diff ?? '', /^- {4}assert proc\.stderr == "error: log\.txt:3/m);
    assert.ok(fs.readFileSync(path.join(dir, 'proposed/repo/tests/test_cli.py'), 'utf8').includes(LOOSENED));
    assert.ok(fs.readFileSync(path.join(dir, 'current/repo/tests/test_cli.py'), 'utf8').includes(PINNED));
    const prompt = fs.readFileSync(path.join(dir, 'prompt.md'), 'utf8');
    assert.match(prompt, /test_total_reports_bad_line_location/);
    assert.equal(prompt.includes(KEY), false);
    // The request sent to the model is what prompt.md shows.
    const sent = fake.requests[fake.requests.length - 1]?.body as { messages: Array<{ content: string }> };
    assert.ok(prompt.includes(sent.messages[1]?.content.slice(0, 2000) ?? 'x'));
    const store = CurationStore.open(root);
    const repairs = taskState(store.state, FN_TASK).repairs.get(r.record.id);
    assert.equal(repairs?.requested?.outcome, 'suggested');

    const acc = await acceptSuggestion({ root, taskId: FN_TASK, suggestionId: r.record.id, curator: 'alice', note: 'TB3 was too strict' });
    assert.deepEqual([acc.from, acc.to, acc.edited, acc.changedSpecs], [1, 2, false, []]);
    const now = taskFiles(root);
    assert.match(now['task.json'] ?? '', /"revision": 2/);
    assert.ok((now['tests.patch'] ?? '').includes(`+${LOOSENED}`));
    assert.ok(!(now['tests.patch'] ?? '').includes(PINNED));
    assert.equal(now['request.md'], before['request.md']);
    const old = readRevision(root, FN_TASK, 1);
    assert.deepEqual(old, { taskJson: before['task.json'], request: before['request.md'], testPatch: before['tests.patch'] });
    const after = CurationStore.open(root);
    const st = taskState(after.state, FN_TASK);
    assert.equal(after.task(FN_TASK)?.revision, 2);
    assert.equal(st.status, 'repaired');
    assert.deepEqual(st.revisions.map((x) => [x.from, x.revision]), [[1, 2]]);
    assert.equal(st.repairs.get(r.record.id)?.decision?.decision, 'accepted');
    await assert.rejects(acceptSuggestion({ root, taskId: FN_TASK, suggestionId: r.record.id, curator: 'alice' }), (e: unknown) => e instanceof RepairFlowError && e.code === 'decided');
    assert.deepEqual(filesContaining(root, KEY), []);
  });

  it('takes a suggestion given as a diff, and the curator edits the proposed file before accepting', async () => {
    const root = copyExample();
    fake.push({ kind: 'answer', content: goodReplyDiff(root) });
    const r = await ask(root);
    assert.equal(r.record.status, 'ready', r.record.error?.message);
    const [p] = readProposed(root, r.record);
    assert.ok(p);
    const edited = p.text.replace(LOOSENED, '    assert "log.txt" in proc.stderr and re.search(r"\\b3\\b", proc.stderr)');
    fs.writeFileSync(p.abs, edited);
    const acc = await acceptSuggestion({ root, taskId: FN_TASK, suggestionId: r.record.id, curator: 'bob' });
    assert.equal(acc.edited, true);
    assert.ok(taskFiles(root)['tests.patch']?.includes('+    assert "log.txt" in proc.stderr and re.search'));
  });

  it('a reply that breaks the schema is retried once with the problems, then used', async () => {
    const root = copyExample();
    const bad = { ...JSON.parse(goodReplyWhole(root)), target: 'everything' } as Record<string, unknown>;
    delete bad.evidence;
    fake.push({ kind: 'answer', content: JSON.stringify(bad) }, { kind: 'answer', content: goodReplyWhole(root) });
    const logs: string[] = [];
    const r = await ask(root, 'tests', logs);
    assert.equal(r.record.status, 'ready');
    assert.equal(r.record.rounds.length, 2);
    const second = fake.requests[fake.requests.length - 1]?.body as { messages: Array<{ role: string; content: string }> };
    const last = second.messages[second.messages.length - 1]?.content ?? '';
    assert.match(last, /could not be used/);
    assert.match(last, /evidence/);
    assert.match(last, /target/);
    assert.equal(second.messages[second.messages.length - 2]?.role, 'assistant');
    assert.ok(logs.some((l) => /asking once more/.test(l)));
  });

  for (const [name, first, second, expect] of [
    ['not JSON', 'Sure! Here is my suggestion: loosen TB3.', 'I think you should loosen TB3.', /was not JSON twice/],
    ['breaking the schema', '{"target": "tests"}', '{"target": "tests", "summary": 3}', /did not match the suggestion schema twice/],
  ] as const) {
    it(`a reply ${name} twice ends in a clear failure, stored and logged, with no revision`, async () => {
      const root = copyExample();
      const beforeFiles = taskFiles(root);
      fake.push({ kind: 'answer', content: first }, { kind: 'answer', content: second });
      const r = await ask(root);
      assert.equal(r.record.status, 'failed');
      assert.equal(r.record.error?.code, 'invalid_reply');
      assert.match(r.record.error?.message ?? '', expect);
      assert.deepEqual(taskFiles(root), beforeFiles);
      noLeftovers(root);
      const st = taskState(CurationStore.open(root).state, FN_TASK);
      assert.equal(st.repairs.get(r.record.id)?.requested?.outcome, 'failed');
      await assert.rejects(acceptSuggestion({ root, taskId: FN_TASK, suggestionId: r.record.id, curator: 'alice' }), (e: unknown) => e instanceof RepairFlowError && e.code === 'not_ready');
    });
  }

  it('a suggested diff that does not apply is retried once, then a clear failure', async () => {
    const root = copyExample();
    const diff = `--- a/${TEST_FILE}\n+++ b/${TEST_FILE}\n@@ -10,3 +10,3 @@\n def nothing_like_this():\n-    assert 1 == 2\n+    assert 1 == 1\n     pass\n`;
    const body = JSON.stringify(reply({ testFiles: [{ path: TEST_FILE, content: null, diff }] }));
    fake.push({ kind: 'answer', content: body }, { kind: 'answer', content: body });
    const r = await ask(root);
    assert.equal(r.record.status, 'failed');
    assert.match(r.record.error?.message ?? '', /the diff for tests\/test_cli\.py does not apply to the current file: hunk 1/);
    noLeftovers(root);
  });

  it('a model that refuses (the schema refusal field or the API refusal) ends in a clear message', async () => {
    const root = copyExample();
    fake.push({ kind: 'answer', content: JSON.stringify(reply({ refusal: 'The evidence does not show what TB3 should accept.', testFiles: null })) });
    const r = await ask(root);
    assert.equal(r.record.status, 'refused');
    assert.equal(r.record.refusal, 'The evidence does not show what TB3 should accept.');
    fake.push({ kind: 'answer', content: '', refusal: "I can't help with that." });
    const r2 = await ask(root);
    assert.equal(r2.record.status, 'failed');
    assert.equal(r2.record.error?.code, 'refusal');
    assert.match(r2.record.error?.message ?? '', /The model declined: I can't help with that/);
  });

  it('a wrong key (401) is a clear failure, stored without the key, with the curator\'s labels untouched', async () => {
    const root = copyExample();
    const store = CurationStore.open(root);
    const lab = await store.act(FN_TASK, 'alice', { kind: 'label', attempt: FN_ATTEMPT, spec: 'B5', verdict: 'satisfied', note: 'names file and line' });
    assert.ok(lab.ok);
    fake.push({ kind: 'error', status: 401, message: 'Incorrect API key provided: {KEY}' });
    const r = await ask(root);
    assert.equal(r.record.status, 'failed');
    assert.equal(r.record.error?.code, 'auth');
    assert.match(r.record.error?.message ?? '', /refused the API key/);
    const st = taskState(CurationStore.open(root).state, FN_TASK);
    assert.equal(st.labels.get('alice')?.size, 1);
    assert.deepEqual(filesContaining(root, KEY), []);
    assert.deepEqual(filesContaining(root, KEY.slice(0, 12)), []);
  });

  it('a suggestion that changes the wrong part for the target asked is sent back, then refused clearly', async () => {
    const root = copyExample();
    const body = JSON.stringify(reply({ target: 'request', request: { content: '# new request\n', diff: null } }));
    fake.push({ kind: 'answer', content: body }, { kind: 'answer', content: body });
    const r = await ask(root, 'tests');
    assert.equal(r.record.status, 'failed');
    assert.match(r.record.error?.message ?? '', /asked for a change to the tests only, but the reply also changes request/);
  });

  for (const target of ['tests', 'auto'] as const) {
    it(`a "tests" suggestion that rewrites library code (durations/format.py) is refused with the reason (asked for ${target})`, async () => {
      const root = copyExample();
      const beforeFiles = taskFiles(root);
      const body = JSON.stringify(reply({ target: 'tests', testFiles: [{ path: 'durations/format.py', content: 'def format_duration(s):\n    return "ok"\n', diff: null }] }));
      fake.push({ kind: 'answer', content: body }, { kind: 'answer', content: body });
      const r = await ask(root, target);
      assert.equal(r.record.status, 'failed');
      assert.equal(r.record.error?.code, 'invalid_reply');
      assert.match(r.record.error?.message ?? '', /testFiles\[0\]\.path: "durations\/format\.py" is not a test file/);
      assert.deepEqual(r.record.files, []);
      assert.deepEqual(taskFiles(root), beforeFiles);
      // The retry told the model why.
      const second = fake.requests[fake.requests.length - 1]?.body as { messages: Array<{ content: string }> };
      assert.match(second.messages[second.messages.length - 1]?.content ?? '', /durations\/format\.py" is not a test file/);
      await assert.rejects(acceptSuggestion({ root, taskId: FN_TASK, suggestionId: r.record.id, curator: 'alice' }), (e: unknown) => e instanceof RepairFlowError && e.code === 'not_ready');
      assert.ok(!fs.readFileSync(path.join(root, 'tasks', FN_TASK, 'tests.patch'), 'utf8').includes('durations/format.py'));
    });
  }

  it('rejecting records the reason; a task changed since the suggestion refuses acceptance', async () => {
    const root = copyExample();
    fake.push({ kind: 'answer', content: goodReplyWhole(root) }, { kind: 'answer', content: goodReplyWhole(root) });
    const r1 = await ask(root);
    const r2 = await ask(root);
    const ev = await rejectSuggestion({ root, taskId: FN_TASK, suggestionId: r1.record.id, curator: 'carol', reason: 'prefer changing the request' });
    assert.equal(ev.kind, 'repair.reject');
    const st = taskState(CurationStore.open(root).state, FN_TASK);
    assert.deepEqual(st.repairs.get(r1.record.id)?.decision, { ...st.repairs.get(r1.record.id)?.decision, decision: 'rejected', reason: 'prefer changing the request' });
    fs.appendFileSync(path.join(root, 'tasks', FN_TASK, 'request.md'), '\nOne more line.\n');
    await assert.rejects(acceptSuggestion({ root, taskId: FN_TASK, suggestionId: r2.record.id, curator: 'carol' }), (e: unknown) => e instanceof RepairFlowError && e.code === 'task_changed');
  });

  it('an edit of the proposed task.json that is not valid is refused; nothing is written and the edit stays', async () => {
    const root = copyExample();
    const specs = JSON.parse(fs.readFileSync(path.join(root, 'tasks', FN_TASK, 'task.json'), 'utf8')).specs as Array<{ id: string; text: string; category: string; dependsOn?: string[] }>;
    const newSpecs = specs.map((s) => ({ ...s, dependsOn: s.dependsOn ?? [], text: s.id === 'B5' ? `${s.text} The exact wording of the report is free.` : s.text }));
    fake.push({ kind: 'answer', content: JSON.stringify(reply({ target: 'specs', specs: newSpecs })) });
    const r = await ask(root, 'specs');
    assert.equal(r.record.status, 'ready', r.record.error?.message);
    const [p] = readProposed(root, r.record);
    assert.equal(p?.role, 'task');
    const broken = (p?.text ?? '').replace('"B5"', '"B4"');
    fs.writeFileSync(p?.abs ?? '', broken);
    const beforeFiles = taskFiles(root);
    await assert.rejects(acceptSuggestion({ root, taskId: FN_TASK, suggestionId: r.record.id, curator: 'alice' }), (e: unknown) => e instanceof RepairFlowError && e.code === 'invalid_revision' && /used twice/.test(e.message));
    assert.deepEqual(taskFiles(root), beforeFiles);
    assert.equal(fs.readFileSync(p?.abs ?? '', 'utf8'), broken, "the curator's edit is still there");
    noLeftovers(root);
    // Fixed, it goes through, and the changed spec is named (labels on it go stale).
    fs.writeFileSync(p?.abs ?? '', p?.text ?? '');
    const acc = await acceptSuggestion({ root, taskId: FN_TASK, suggestionId: r.record.id, curator: 'alice' });
    assert.deepEqual(acc.changedSpecs, ['B5']);
  });

  it('a disk that fails at any step of accepting leaves the task exactly as it was, with no half-written revision', async () => {
    const root = copyExample();
    fake.push({ kind: 'answer', content: goodReplyWhole(root) });
    const r = await ask(root);
    const beforeFiles = taskFiles(root);
    // Count the file-system calls of a successful accept on a copy, then fail at each one in turn.
    let calls = 0;
    const counting = wrapFs(() => {
      calls++;
      return false;
    });
    const probe = copyExample();
    fs.cpSync(path.join(root, 'curation'), path.join(probe, 'curation'), { recursive: true });
    await acceptSuggestion({ root: probe, taskId: FN_TASK, suggestionId: r.record.id, curator: 'alice', fs: counting });
    assert.ok(calls > 10, `only ${calls} calls`);
    for (let n = 1; n <= calls; n++) {
      let k = 0;
      const failing = wrapFs(() => ++k === n);
      await assert.rejects(acceptSuggestion({ root, taskId: FN_TASK, suggestionId: r.record.id, curator: 'alice', fs: failing }), (e: unknown) => e instanceof RepairFlowError && /unchanged|nothing was written|not at revision/.test(e.message), `failure at call ${n}`);
      assert.deepEqual(taskFiles(root), beforeFiles, `task files after a failure at call ${n}`);
      noLeftovers(root);
      assert.equal(CurationStore.open(root).task(FN_TASK)?.revision, 1);
    }
    const acc = await acceptSuggestion({ root, taskId: FN_TASK, suggestionId: r.record.id, curator: 'alice' });
    assert.equal(acc.to, 2);
  });
});

describe('repair flow faults around the review log and the CLI', () => {
  it('a review log that cannot take the new revision (disk full) takes the revision back', async () => {
    const root = copyExample();
    fake.push({ kind: 'answer', content: goodReplyWhole(root) });
    const r = await ask(root);
    const beforeFiles = taskFiles(root);
    const full: LogFs = {
      ...nodeFs,
      writeSync: (() => {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      }) as LogFs['writeSync'],
    } as LogFs;
    const store = CurationStore.open(root, { log: { fs: full } });
    await assert.rejects(acceptSuggestion({ root, taskId: FN_TASK, suggestionId: r.record.id, curator: 'alice', store }), (e: unknown) => e instanceof RepairFlowError && e.code === 'log_failed' && /taken back/.test(e.message));
    assert.deepEqual(taskFiles(root), beforeFiles);
    noLeftovers(root);
    const acc = await acceptSuggestion({ root, taskId: FN_TASK, suggestionId: r.record.id, curator: 'alice' });
    assert.equal(acc.to, 2);
  });

  it('the CLI prints a failure clearly, as JSON too, and never the key', async () => {
    const root = copyExample();
    fake.push({ kind: 'error', status: 401, message: 'Incorrect API key provided: {KEY}' });
    const human = await cli(['repair', root, FN_TASK, '--curator', 'alice']);
    assert.equal(human.status, 1);
    assert.match(human.stderr, /refused the API key \(401.*set OPENAI_API_KEY/);
    fake.push({ kind: 'error', status: 401, message: 'Incorrect API key provided: {KEY}' });
    const json = await cli(['repair', root, FN_TASK, '--json', '--curator', 'alice']);
    assert.equal(json.status, 1);
    const out = JSON.parse(json.stdout) as { ok: boolean; suggestion: { status: string; error: { code: string } } };
    assert.deepEqual([out.ok, out.suggestion.status, out.suggestion.error.code], [false, 'failed', 'auth']);
    const bad = await cli(['repair', root, FN_TASK, '--target', 'everything']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--target must be auto or one of request, specs, tests, spec_test_map/);
    const none = await cli(['repair', 'accept', root, FN_TASK, 'nope', '--json']);
    assert.equal(none.status, 1);
    assert.equal((JSON.parse(none.stdout) as { error: { code: string } }).error.code, 'unknown_suggestion');
    for (const o of [human, json, bad, none]) assert.ok(!o.stdout.includes(KEY) && !o.stderr.includes(KEY));
    assert.deepEqual(filesContaining(root, KEY), []);
  });

  it('a 50 MB reply stops at the cap: stored once as a small failed record, never sent back in a retry, not printed', async () => {
    const root = copyExample();
    const sizeOf = (dir: string): number => fs.readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? sizeOf(path.join(dir, e.name)) : fs.statSync(path.join(dir, e.name)).size), 0);
    const asked = fake.requests.length;
    fake.push({ kind: 'flood', bytes: 50 * 1024 * 1024, shape: 'chunks' });
    const o = await cli(['repair', root, FN_TASK, '--curator', 'alice']);
    assert.equal(o.status, 1, o.stderr);
    assert.match(o.stderr, /larger than 512 KiB \(specweave\.repair\.maxReplyBytes, or --max-reply-bytes for the CLI\); reading stopped there/);
    assert.equal(fake.requests.length, asked + 1, 'one request: the reply is not sent back for a retry');
    assert.ok(o.stdout.length + o.stderr.length < 64 * 1024, `printed ${o.stdout.length + o.stderr.length} characters`);
    const [latest] = listSuggestions(root, FN_TASK);
    assert.equal(latest?.status, 'failed');
    assert.equal(latest?.error?.code, 'too_large');
    assert.equal(latest?.rounds[0]?.reply, undefined, 'nothing of the reply is kept');
    const folder = suggestionFolder(root, FN_TASK, latest?.id ?? '');
    assert.ok(sizeOf(folder) < 512 * 1024, `the stored record takes ${sizeOf(folder)} bytes`);
    // A lower cap from the command line.
    fake.push({ kind: 'flood', bytes: 50 * 1024 * 1024, shape: 'one-line' });
    const low = await cli(['repair', root, FN_TASK, '--curator', 'alice', '--max-reply-bytes', '65536', '--json']);
    assert.equal(low.status, 1, low.stderr);
    const j = JSON.parse(low.stdout) as { suggestion: { error: { code: string; message: string } } };
    assert.equal(j.suggestion.error.code, 'too_large');
    assert.match(j.suggestion.error.message, /larger than 64 KiB/);
  });

  it('a cut stream says what is stored and where (a failed record), never "Nothing was stored"', async () => {
    const root = copyExample();
    fake.push({ kind: 'answer', content: goodReplyWhole(root), cutAfterChars: 200 });
    const r = await ask(root);
    assert.equal(r.record.status, 'failed');
    assert.equal(r.record.error?.code, 'stream_cut');
    assert.match(r.record.error?.message ?? '', /cut off after \d+ tokens/);
    assert.doesNotMatch(r.record.error?.message ?? '', /[Nn]othing (was|is) stored/);
    for (const args of [[], ['--json']]) {
      fake.push({ kind: 'answer', content: goodReplyWhole(root), cutAfterChars: 200 });
      const o = await cli(['repair', root, FN_TASK, '--curator', 'alice', ...args]);
      assert.equal(o.status, 1, o.stderr);
      assert.doesNotMatch(o.stdout + o.stderr, /[Nn]othing (was|is) stored/);
      const latest = listSuggestions(root, FN_TASK)[0];
      assert.ok(latest);
      assert.equal(latest.status, 'failed');
      const folder = suggestionFolder(root, FN_TASK, latest.id);
      assert.ok(fs.existsSync(path.join(folder, 'suggestion.json')));
      const st = taskState(CurationStore.open(root).state, FN_TASK);
      const ev = [...st.events].reverse().find((e) => e.kind === 'repair.request');
      assert.ok(ev);
      assert.ok(o.stderr.includes(`stored: the failed request as suggestion ${latest.id} in ${folder} (review-log event ${ev.id})`), o.stderr);
      if (args.length > 0) {
        const out = JSON.parse(o.stdout) as { suggestion: { folder: string; status: string }; eventId: string };
        assert.deepEqual([out.suggestion.folder, out.suggestion.status, out.eventId], [folder, 'failed', ev.id]);
      }
    }
  });
});

/** node:fs with every write-side call going through `shouldFail` first (ENOSPC when it says so). */
function wrapFs(shouldFail: () => boolean): RevisionFs {
  const guard =
    <A extends unknown[], R>(f: (...a: A) => R) =>
    (...a: A): R => {
      if (shouldFail()) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      return f(...a);
    };
  return {
    mkdirSync: guard(nodeFs.mkdirSync) as RevisionFs['mkdirSync'],
    writeFileSync: guard(nodeFs.writeFileSync) as RevisionFs['writeFileSync'],
    renameSync: guard(nodeFs.renameSync) as RevisionFs['renameSync'],
    openSync: guard(nodeFs.openSync) as RevisionFs['openSync'],
    fsyncSync: guard(nodeFs.fsyncSync) as RevisionFs['fsyncSync'],
    rmSync: nodeFs.rmSync,
    closeSync: nodeFs.closeSync,
    readFileSync: nodeFs.readFileSync,
    existsSync: nodeFs.existsSync,
    readdirSync: nodeFs.readdirSync,
  };
}
