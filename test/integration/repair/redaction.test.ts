// The API key never reaches the terminal, the JSON output or a stored file, whatever the endpoint sends back: a real
// loopback server speaking the OpenAI protocol echoes the key whole and in the partial masks servers use (first 8 and
// last 4 characters around `...`, `*` or `…`) in the model's reply, in an error body, and in a message that reflects
// the request's headers. `specweave repair` (text and --json), `repair show` and `log` are run as a curator would
// (once in a child process, else in this process with the output captured where it leaves the CLI).
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { CurationStore } from '../../../src/app/curationStore';
import { listSuggestions } from '../../../src/adapters/fs/repairStore';
import { EndpointMemory, LlmClient } from '../../../src/adapters/llm/client';
import { Redactor } from '../../../src/adapters/llm/redact';
import { requestSuggestion } from '../../../src/app/repairAgent';
import { setOutput } from '../../../src/cli/output';
import { runCli } from '../../../src/cli/run';
import { FN_TASK, TEST_FILE, copyExample, currentTestFile, filesContaining, reply } from './exampleCopy';
import type { FakeReply } from './fakeOpenAI';
import { FakeOpenAI, keyForms } from './fakeOpenAI';
import { cliArgs } from '../../unit/helpers/cli';

const KEY = 'sk-proj-SPECWEAVE-FAKE-KEY-redaction-c0ffee42';
const FORMS = Object.values(keyForms(KEY));
const ALL = Object.keys(keyForms(KEY)).join(' / ');
let fake: FakeOpenAI;
let base = '';

before(async () => {
  fake = new FakeOpenAI();
  base = await fake.start();
});
after(() => fake.stop());

/** The CLI in a child process, as a curator runs it. */
function spawned(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [...cliArgs(), ...args], {
      env: { ...process.env, OPENAI_API_KEY: KEY, OPENAI_BASE_URL: base, SPECWEAVE_MODEL: 'gpt-4o-mini' },
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    p.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The CLI in this process (the fake server answers from here too), its output captured where it leaves the CLI. */
async function cli(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const env = { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: base, SPECWEAVE_MODEL: 'gpt-4o-mini' };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  let stdout = '';
  let stderr = '';
  setOutput({ stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  try {
    return { status: await runCli(args), stdout, stderr };
  } finally {
    setOutput(undefined);
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** No form of the key in what was printed, nor in any file under the dataset. */
function assertNoKey(root: string, printed: string[], what: string): void {
  for (const form of FORMS) {
    for (const p of printed) assert.ok(!p.includes(form), `${what}: "${form}" was printed:\n${p.slice(Math.max(0, p.indexOf(form) - 200), p.indexOf(form) + 100)}`);
    assert.deepEqual(filesContaining(root, form), [], `${what}: "${form}" is in a stored file`);
  }
}

describe('the key echoed by the endpoint is redacted everywhere', () => {
  it('in the content of the reply: summary, rationale, evidence and the proposed test file', async () => {
    const root = copyExample();
    const text = currentTestFile(root).replace('import', `# a comment with ${ALL}\nimport`);
    const content = JSON.stringify(
      reply({
        summary: `Loosen TB3 (key {KEY}, shown as {KEY_DOTS})`,
        rationale: `The endpoint knows ${ALL}.\nAnd once more: {KEY_STARS}`,
        testFiles: [{ path: TEST_FILE, content: text, diff: null }],
        evidence: [{ kind: 'test', attempt: null, step: null, test: 'TB3', run: null, line: null, stream: null, patch: null, file: null, hunk: null, spec: null, why: `pins it; {KEY_ELLIPSIS}` }],
      }),
    );
    fake.push({ kind: 'answer', content });
    const human = await spawned(['repair', root, FN_TASK, '--curator', 'alice']);
    assert.equal(human.status, 0, human.stderr);
    assert.match(human.stdout, /Loosen TB3 \(key \[redacted\], shown as \[redacted\]\)/);
    fake.push({ kind: 'answer', content });
    const json = await cli(['repair', root, FN_TASK, '--curator', 'alice', '--json']);
    assert.equal(json.status, 0, json.stderr);
    const parsed = JSON.parse(json.stdout) as { suggestion: { id: string; summary: string; rationale: string } };
    assert.match(parsed.suggestion.summary, /\[redacted\]/);
    const shown = await cli(['repair', 'show', root, FN_TASK, parsed.suggestion.id]);
    const shownJson = await cli(['repair', 'show', root, FN_TASK, parsed.suggestion.id, '--json']);
    const prompt = await cli(['repair', 'show', root, FN_TASK, parsed.suggestion.id, '--prompt']);
    assertNoKey(root, [human, json, shown, shownJson, prompt].flatMap((o) => [o.stdout, o.stderr]), 'content');
    // What the agent hands to any caller (the VS Code layer shows it) is redacted at the source, not only on print.
    fake.push({ kind: 'answer', content });
    const store = CurationStore.open(root);
    const redactor = new Redactor();
    const settings = { baseUrl: base, model: 'gpt-4o-mini', temperature: 0, maxTokens: 32000, timeoutSec: 10 };
    const r = await requestSuggestion({ store, taskId: FN_TASK, target: 'tests', curator: 'alice', settings, apiKey: KEY, redactor, client: new LlmClient({ settings, apiKey: KEY, redactor, memory: new EndpointMemory() }) });
    assert.equal(r.record.status, 'ready');
    const handed = JSON.stringify([r.record, r.suggestion]);
    for (const form of FORMS) assert.ok(!handed.includes(form), `the outcome holds "${form}"`);
  });

  const faults: Array<[string, FakeReply]> = [
    ['an error body (400)', { kind: 'error', status: 400, message: `bad request for ${ALL}` }],
    ['an error body (401, partly masked as OpenAI does)', { kind: 'error', status: 401, message: 'Incorrect API key provided: {KEY_STARS}. You can find your API key at https://platform.openai.com/account/api-keys.' }],
    ['a message reflecting the request headers', { kind: 'error', status: 404, message: 'no route; you sent {HEADERS}' }],
    ['an error in the stream (a refusal echoing the key)', { kind: 'answer', content: '', refusal: `I will not use ${ALL}` }],
  ];
  for (const [name, r] of faults) {
    it(`in ${name}, printed as text and as JSON and stored`, async () => {
      const root = copyExample();
      fake.push(r);
      const human = await cli(['repair', root, FN_TASK, '--curator', 'alice']);
      assert.equal(human.status, 1, human.stderr);
      fake.push(r);
      const json = await cli(['repair', root, FN_TASK, '--curator', 'alice', '--json']);
      assert.equal(json.status, 1, json.stderr);
      assert.equal((JSON.parse(json.stdout) as { suggestion: { status: string } }).suggestion.status, 'failed');
      const [latest] = listSuggestions(root, FN_TASK);
      assert.ok(latest);
      const shown = await cli(['repair', 'show', root, FN_TASK]);
      const shownOne = await cli(['repair', 'show', root, FN_TASK, latest.id, '--json']);
      const log = await cli(['log', root, FN_TASK, '--json']);
      assertNoKey(root, [human, json, shown, shownOne, log].flatMap((o) => [o.stdout, o.stderr]), name);
    });
  }
});
