// The LLM client against a real HTTP server that speaks the chat-completions protocol: streaming with usage, the
// JSON-schema fallbacks, and every fault a curator could meet, each ending in a clear message without the key.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { LlmSettings } from '../../../src/adapters/llm/client';
import { EndpointMemory, LlmClient } from '../../../src/adapters/llm/client';
import { LlmError, VSCODE_KEY_HINT } from '../../../src/adapters/llm/errors';
import { FakeOpenAI } from './fakeOpenAI';

const KEY = 'sk-test-SPECWEAVE-FAKE-KEY-7f3a9c2e1b5d';
const SCHEMA = { name: 'answer', schema: { type: 'object', additionalProperties: false, required: ['x'], properties: { x: { type: 'integer' } } } };

let fake: FakeOpenAI;
let base = '';

before(async () => {
  fake = new FakeOpenAI();
  base = await fake.start();
});
after(() => fake.stop());

function client(over: Partial<LlmSettings> = {}, o: { stream?: boolean; memory?: EndpointMemory; key?: string } = {}): LlmClient {
  fake.requests.length = 0;
  return new LlmClient({
    settings: { baseUrl: base, model: 'gpt-4o-mini', temperature: 0.2, maxTokens: 8000, timeoutSec: 5, ...over },
    apiKey: o.key ?? KEY,
    retry: { backoffMs: 50 },
    memory: o.memory ?? new EndpointMemory(),
    ...(o.stream !== undefined ? { stream: o.stream } : {}),
  });
}

const ask = { messages: [{ role: 'system' as const, content: 'be brief' }, { role: 'user' as const, content: 'give x' }], schema: SCHEMA, maxReplyTokens: 500 };

async function failure(p: Promise<unknown>): Promise<LlmError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof LlmError, `expected an LlmError, got ${String(e)}`);
    assert.ok(!e.message.includes(KEY) && !e.message.includes(KEY.slice(-8)), `the key leaked into: ${e.message}`);
    return e;
  }
  assert.fail('expected a failure');
}

describe('LLM client against a fake OpenAI-compatible server', () => {
  it('streams the reply with usage, reports tokens so far, and asks in JSON-schema mode with the key only in the header', async () => {
    const c = client();
    fake.push({ kind: 'answer', content: `{"x": 42, "pad": "${'a'.repeat(600)}"}`, chunkChars: 20, delayMs: 2, usage: { prompt_tokens: 321, completion_tokens: 160 } });
    const progress: number[] = [];
    const r = await c.chat(ask, { onProgress: (p) => p.phase === 'streaming' && progress.push(p.tokens) });
    assert.match(r.text, /"x": 42/);
    assert.equal(r.finishReason, 'stop');
    assert.deepEqual(r.usage, { promptTokens: 321, completionTokens: 160, totalTokens: 481 });
    assert.equal(r.responseFormat, 'json_schema');
    assert.ok(progress.length >= 2 && progress[progress.length - 1] === 160, `progress ${progress.join(',')}`);
    const body = fake.requests[0]?.body as Record<string, unknown>;
    assert.deepEqual(body.response_format, { type: 'json_schema', json_schema: { name: 'answer', schema: SCHEMA.schema, strict: true } });
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.equal(body.max_completion_tokens, 500);
    assert.equal(fake.requests[0]?.authorization, `Bearer ${KEY}`);
    assert.ok(!JSON.stringify(body).includes(KEY));
  });

  it('falls back to json_object when JSON-schema mode is rejected, then to instructions, and remembers it for the session', async () => {
    const memory = new EndpointMemory();
    const c = client({}, { memory });
    fake.rejectFormat = 'json_object';
    fake.push({ kind: 'answer', content: '{"x": 1}' }, { kind: 'answer', content: '{"x": 2}' });
    const logs: string[] = [];
    try {
      const r1 = await c.chat(ask, { onLog: (l) => logs.push(l) });
      assert.equal(r1.responseFormat, 'none');
      assert.equal(fake.requests.length, 3, 'json_schema rejected, json_object rejected, plain');
      const plain = fake.requests[2]?.body as { messages: Array<{ content: string }>; response_format?: unknown };
      assert.equal(plain.response_format, undefined);
      assert.match(plain.messages[0]?.content ?? '', /matches this JSON Schema/);
      assert.ok(logs.some((l) => /rejected response_format/.test(l)), logs.join('\n'));
      const r2 = await c.chat(ask);
      assert.equal(r2.responseFormat, 'none');
      assert.equal(fake.requests.length, 4, 'the second request goes straight to what works');
    } finally {
      fake.rejectFormat = 'none';
    }
  });

  it('uses json_object where only JSON-schema mode is missing', async () => {
    const c = client();
    fake.rejectFormat = 'json_schema';
    fake.push({ kind: 'answer', content: '{"x": 3}' });
    try {
      const r = await c.chat(ask);
      assert.equal(r.responseFormat, 'json_object');
      assert.deepEqual((fake.requests[1]?.body as { response_format: unknown }).response_format, { type: 'json_object' });
    } finally {
      fake.rejectFormat = 'none';
    }
  });

  it('works without streaming too', async () => {
    const c = client({}, { stream: false });
    fake.push({ kind: 'answer', content: '{"x": 5}', usage: { prompt_tokens: 10, completion_tokens: 3 } });
    const r = await c.chat(ask);
    assert.equal(r.text, '{"x": 5}');
    assert.equal(r.usage?.completionTokens, 3);
    assert.equal((fake.requests[0]?.body as { stream?: unknown }).stream, undefined);
  });

  it('401: says the key is wrong and how to set it, without the key the server echoed', async () => {
    const c = client();
    fake.push({ kind: 'error', status: 401, message: 'Incorrect API key provided: {KEY}. You can find your API key at https://platform.example/account.' });
    const e = await failure(c.chat(ask));
    assert.equal(e.code, 'auth');
    assert.match(e.message, /refused the API key \(401/);
    assert.match(e.message, /OPENAI_API_KEY/);
    assert.equal(fake.requests.length, 1, 'no retry of a wrong key');
    const vs = new LlmClient({ settings: { baseUrl: base, model: 'm', temperature: 0, maxTokens: 4000, timeoutSec: 5 }, apiKey: KEY, keyHint: VSCODE_KEY_HINT, memory: new EndpointMemory() });
    fake.push({ kind: 'error', status: 403, message: 'key {KEY} has no access' });
    const e2 = await failure(vs.chat(ask));
    assert.match(e2.message, /SpecWeave: Set API Key/);
  });

  it('429: waits as retry-after says, retries visibly, and gives up after a few tries', async () => {
    const c = client();
    fake.push(
      { kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after-ms': '300' } },
      { kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '1' } },
      { kind: 'answer', content: '{"x": 7}' },
    );
    const logs: string[] = [];
    const waits: string[] = [];
    const r = await c.chat(ask, { onLog: (l) => logs.push(l), onProgress: (p) => p.phase === 'waiting' && waits.push(p.message ?? '') });
    assert.equal(r.text, '{"x": 7}');
    assert.equal(r.tries.length, 3);
    assert.deepEqual(r.tries.map((t) => t.outcome), ['rate_limited', 'rate_limited', 'ok']);
    assert.deepEqual(r.tries.map((t) => t.waitMs), [300, 1000, undefined]);
    const at = fake.requests.map((q) => q.at);
    assert.ok((at[1] as number) - (at[0] as number) >= 290, 'retry-after-ms respected');
    assert.ok((at[2] as number) - (at[1] as number) >= 990, 'retry-after (seconds) respected');
    assert.equal(logs.filter((l) => /rate limited \(429\).*retrying in/.test(l)).length, 2, logs.join('\n'));
    assert.equal(waits.length, 2);

    const c2 = client();
    for (let i = 0; i < 6; i++) fake.push({ kind: 'error', status: 429, message: 'no', headers: { 'retry-after-ms': '20' } });
    const e = await failure(c2.chat(ask));
    assert.equal(e.code, 'rate_limited');
    assert.match(e.message, /after 4 tries/);
    assert.equal(fake.requests.length, 4);
    fake.push({ kind: 'error', status: 429, message: 'no', headers: { 'retry-after': '3600' } });
    const e3 = await failure(client().chat(ask));
    assert.match(e3.message, /asks us to wait 3600 s/);
    while (fake.pending > 0) await client().chat(ask).catch(() => undefined);
  });

  it('5xx: retries a bounded number of times with back-off, then says what the server answered', async () => {
    const c = client();
    fake.push({ kind: 'error', status: 503, message: 'overloaded' }, { kind: 'answer', content: '{"x": 8}' });
    const r = await c.chat(ask);
    assert.deepEqual(r.tries.map((t) => [t.outcome, t.status]), [['server_error', 503], ['ok', undefined]]);
    const c2 = client();
    fake.push({ kind: 'error', status: 500, message: 'boom' }, { kind: 'error', status: 500, message: 'boom' }, { kind: 'error', status: 500, message: 'boom' });
    const e = await failure(c2.chat(ask));
    assert.equal(e.code, 'server');
    assert.match(e.message, /answered 500 \(boom\).*gave up after 3 tries/);
    assert.equal(fake.requests.length, 3);
  });

  it('a timeout: no answer within the request timeout, retried, then a clear message', async (t) => {
    const c = client({ timeoutSec: 1 });
    fake.push({ kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' });
    const t0 = Date.now();
    const e = await failure(c.chat(ask));
    assert.equal(e.code, 'timeout');
    assert.match(e.message, /no reply within 1 s.*gave up after 3 tries/);
    // Three tries of 1 s each (a missing request timeout would hang here until the test's own timeout).
    assert.equal(fake.requests.length, 3);
    t.diagnostic(`gave up after ${Date.now() - t0} ms`);
  });

  it('a stream that stalls in the middle times out too', async () => {
    const c = client({ timeoutSec: 1 });
    const content = '{"x": 1, "pad": "' + 'b'.repeat(400) + '"}';
    fake.push({ kind: 'answer', content, stallAfterChars: 120 }, { kind: 'answer', content, stallAfterChars: 120 }, { kind: 'answer', content, stallAfterChars: 120 });
    const e = await failure(c.chat(ask));
    assert.equal(e.code, 'timeout');
    assert.match(e.message, /stalled after \d+ tokens/);
  });

  it('connection refused names the base URL', async () => {
    const port = await new Promise<number>((r) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => r(p));
      });
    });
    const c = new LlmClient({ settings: { baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', temperature: 0, maxTokens: 4000, timeoutSec: 5 }, apiKey: KEY, memory: new EndpointMemory() });
    const e = await failure(c.chat(ask));
    assert.equal(e.code, 'connection');
    assert.match(e.message, new RegExp(`Cannot connect to http://127\\.0\\.0\\.1:${port}/v1: connection refused`));
  });

  it('a stream cut in the middle, or ended without the model finishing, is a clear failure', async () => {
    const content = '{"x": 1, "pad": "' + 'c'.repeat(400) + '"}';
    fake.push({ kind: 'answer', content, cutAfterChars: 200 });
    const e = await failure(client().chat(ask));
    assert.equal(e.code, 'stream_cut');
    assert.match(e.message, /cut off after \d+ tokens/);
    fake.push({ kind: 'answer', content, endEarly: true });
    const e2 = await failure(client().chat(ask));
    assert.equal(e2.code, 'stream_cut');
    assert.match(e2.message, /ended before the model finished/);
  });

  const MB50 = 50 * 1024 * 1024;
  for (const [shape, stream] of [['chunks', true], ['one-line', true], ['whole', false]] as const) {
    it(`a 50 MB reply (${shape}${stream ? '' : ', not streamed'}) stops at the reply cap: read no further, a clear failure, no retry`, async () => {
      const c = client({ maxReplyBytes: 256 * 1024 }, { stream });
      fake.push({ kind: 'flood', bytes: MB50, shape });
      const e = await failure(c.chat(ask));
      assert.equal(e.code, 'too_large');
      assert.match(e.message, /larger than 256 KiB \(specweave\.repair\.maxReplyBytes, or --max-reply-bytes for the CLI\); reading stopped there/);
      assert.equal(fake.requests.length, 1, 'not asked again');
      const report = await fake.floods[fake.floods.length - 1];
      assert.ok(report?.clientClosed, 'the client hung up before the end of the reply');
      // What the server got out is what the client read plus the socket buffers: far from the 50 MB.
      assert.ok((report?.written ?? MB50) < 16 * 1024 * 1024, `the server wrote ${report?.written} bytes`);
    });
  }

  it('a reply under the cap is taken whole', async () => {
    const content = `{"x": 7, "pad": "${'p'.repeat(100_000)}"}`;
    fake.push({ kind: 'answer', content, chunkChars: 4000 });
    const r = await client({ maxReplyBytes: 256 * 1024 }).chat(ask);
    assert.equal(r.text, content);
  });

  it('a refusal from the model is a clear failure', async () => {
    fake.push({ kind: 'answer', content: '', refusal: 'I cannot help with rewriting benchmark tests.' });
    const e = await failure(client().chat(ask));
    assert.equal(e.code, 'refusal');
    assert.match(e.message, /The model declined: I cannot help/);
  });

  it('cancels mid-stream through the AbortSignal', async () => {
    const content = '{"x": 1, "pad": "' + 'd'.repeat(2000) + '"}';
    fake.push({ kind: 'answer', content, chunkChars: 10, delayMs: 20 });
    const ac = new AbortController();
    const c = client();
    const p = c.chat(ask, { signal: ac.signal, onProgress: (x) => x.tokens > 20 && ac.abort() });
    const e = await failure(p);
    assert.equal(e.code, 'cancelled');
  });

  it('refuses to start without a key for the default OpenAI endpoint', () => {
    assert.throws(
      () => new LlmClient({ settings: { baseUrl: 'https://api.openai.com/v1', model: 'm', temperature: 0, maxTokens: 4000, timeoutSec: 5 } }),
      (e: unknown) => e instanceof LlmError && e.code === 'no_key' && /OPENAI_API_KEY/.test(e.message),
    );
  });
});
