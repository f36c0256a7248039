// Small pieces of the LLM adapter and the CLI: how long a 429 asks us to wait, what a suggestion cost, and where the
// CLI takes the endpoint settings from.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseArgs } from '../../../src/cli/args';
import { settingsFrom } from '../../../src/cli/repair';
import { retryAfterMs } from '../../../src/adapters/llm/client';
import { costOf } from '../../../src/adapters/llm/pricing';
import { replyTokens } from '../../../src/app/repairAgent';

describe('LLM adapter pieces', () => {
  it('reads retry-after-ms, retry-after in seconds, and retry-after as an HTTP date', () => {
    assert.equal(retryAfterMs(new Headers({ 'retry-after-ms': '250' })), 250);
    assert.equal(retryAfterMs(new Headers({ 'retry-after': '2' })), 2000);
    const now = Date.parse('2026-12-01T10:00:00Z');
    assert.equal(retryAfterMs(new Headers({ 'retry-after': 'Tue, 01 Dec 2026 10:00:05 GMT' }), now), 5000);
    assert.equal(retryAfterMs(new Headers({ 'retry-after': 'soon' })), undefined);
    assert.equal(retryAfterMs(new Headers()), undefined);
  });

  it('costs a suggestion from the endpoint when it says, else from list prices, else unknown', () => {
    assert.deepEqual(costOf('gpt-4o-mini', { promptTokens: 1_000_000, completionTokens: 1_000_000 }), { usd: 0.75, source: 'price-table' });
    assert.deepEqual(costOf('openai/gpt-4o', { promptTokens: 1000, completionTokens: 0 }), { usd: 0.0025, source: 'price-table' });
    assert.deepEqual(costOf('llama3', { promptTokens: 1, completionTokens: 1, costUsd: 0.01 }), { usd: 0.01, source: 'endpoint' });
    assert.deepEqual(costOf('llama3', { promptTokens: 1, completionTokens: 1 }), { source: 'unknown' });
    assert.deepEqual(costOf('gpt-4o', undefined), { source: 'unknown' });
  });

  it('keeps a quarter of the budget for the reply, within bounds', () => {
    assert.deepEqual([replyTokens(4000), replyTokens(32_000), replyTokens(400_000)], [1024, 8000, 16_384]);
  });

  it('takes the endpoint from flags, then OPENAI_BASE_URL and SPECWEAVE_MODEL, then the defaults', () => {
    const flags = { model: { type: 'string' as const, help: '' }, 'base-url': { type: 'string' as const, help: '' }, temperature: { type: 'string' as const, help: '' }, 'max-tokens': { type: 'string' as const, help: '' }, timeout: { type: 'string' as const, help: '' }, 'max-reply-bytes': { type: 'string' as const, help: '' } };
    assert.deepEqual(settingsFrom(parseArgs([], flags), {}), { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', temperature: 0.2, maxTokens: 32000, timeoutSec: 120, maxReplyBytes: 524288 });
    const env = { OPENAI_BASE_URL: 'http://localhost:11434/v1', SPECWEAVE_MODEL: 'llama3.1' };
    assert.deepEqual(settingsFrom(parseArgs([], flags), env).baseUrl, 'http://localhost:11434/v1');
    assert.deepEqual(settingsFrom(parseArgs(['--model', 'qwen', '--timeout', '30', '--max-reply-bytes', '65536'], flags), env), { baseUrl: 'http://localhost:11434/v1', model: 'qwen', temperature: 0.2, maxTokens: 32000, timeoutSec: 30, maxReplyBytes: 65536 });
    assert.throws(() => settingsFrom(parseArgs(['--max-reply-bytes', '12'], flags), {}), /--max-reply-bytes must be a number from 1024 to 67108864/);
    assert.throws(() => settingsFrom(parseArgs(['--temperature', '7'], flags), {}), /--temperature must be a number from 0 to 2/);
  });
});
