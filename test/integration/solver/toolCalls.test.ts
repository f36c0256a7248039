// Function calling in the LLM client, against the real HTTP server of the tests: the solver's bash tool is offered,
// a call comes back whole (non-streamed) and pieced together from deltas (streamed), a history with tool calls and
// tool results is sent in the OpenAI shape, and an endpoint that refuses `tools` has it dropped and remembered, so
// the model answers in text (the solver's fenced-block fallback).
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EndpointMemory, LlmClient } from '../../../src/adapters/llm/client';
import { FakeOpenAI } from '../repair/fakeOpenAI';

let fake: FakeOpenAI;
let base = '';
before(async () => {
  fake = new FakeOpenAI();
  base = await fake.start();
});
after(() => fake.stop());

const BASH = { name: 'bash', description: 'Run one bash command.', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } };
const history = {
  messages: [
    { role: 'system' as const, content: 'solve it' },
    { role: 'user' as const, content: 'fix calc' },
    { role: 'assistant' as const, content: '', toolCalls: [{ id: 'call_1', name: 'bash', arguments: '{"command":"ls"}' }] },
    { role: 'tool' as const, content: '<returncode>0</returncode>', toolCallId: 'call_1' },
  ],
  maxReplyTokens: 500,
  tools: [BASH],
};
const client = (stream: boolean, memory = new EndpointMemory()) => {
  fake.requests.length = 0;
  return new LlmClient({ settings: { baseUrl: base, model: 'm', temperature: 0, maxTokens: 1000, timeoutSec: 5 }, apiKey: 'sk-test', retry: { backoffMs: 10 }, memory, stream });
};
const call = { id: 'call_2', name: 'bash', arguments: JSON.stringify({ command: "sed -i 's/a - b/a + b/' calc.py && python3 -m pytest -q tests" }) };

describe('tool calls', () => {
  for (const stream of [false, true]) {
    it(`${stream ? 'a streamed' : 'a whole'} reply's tool call comes back as it was sent, and the history goes out in the OpenAI shape`, async () => {
      const c = client(stream);
      fake.push({ kind: 'answer', content: 'THOUGHT: fix it.', toolCalls: [call], chunkChars: 7 });
      const r = await c.chat(history);
      assert.deepEqual(r.toolCalls, [call]);
      assert.equal(r.text, 'THOUGHT: fix it.');
      assert.equal(r.finishReason, 'tool_calls');
      const body = fake.requests[0]?.body as { tools?: unknown[]; messages: Array<Record<string, unknown>> };
      assert.deepEqual(body.tools, [{ type: 'function', function: BASH }]);
      assert.deepEqual(body.messages[2], { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] });
      assert.deepEqual(body.messages[3], { role: 'tool', content: '<returncode>0</returncode>', tool_call_id: 'call_1' });
    });
  }

  it('an endpoint that refuses tools has them dropped and remembered; the model then answers in text', async () => {
    const memory = new EndpointMemory();
    const c = client(true, memory);
    fake.push({ kind: 'error', status: 400, message: "Unrecognized request argument supplied: tools", param: 'tools' });
    fake.push({ kind: 'answer', content: '```bash\nls\n```' });
    const r = await c.chat(history);
    assert.equal(r.text, '```bash\nls\n```');
    assert.equal(r.toolCalls, undefined);
    assert.equal(fake.requests.length, 2);
    assert.ok((fake.requests[0]?.body as { tools?: unknown }).tools, 'the first try offered the tools');
    assert.equal((fake.requests[1]?.body as { tools?: unknown }).tools, undefined, 'the retry did not');
    fake.push({ kind: 'answer', content: '```bash\npwd\n```' });
    await client(true, memory).chat(history);
    assert.equal((fake.requests[0]?.body as { tools?: unknown }).tools, undefined, 'the endpoint is remembered');
  });
});
