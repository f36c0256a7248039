// A chat-completions client over the `openai` package for any OpenAI-compatible endpoint (OpenAI, Azure OpenAI, vLLM,
// Ollama, LM Studio). Streams with usage, reports tokens so far, cancels through an AbortSignal, and retries in its
// own loop (the SDK's retries are off) so every retry is visible: 429 honours retry-after, 5xx and timeouts back off
// a bounded number of times. Parameters an endpoint rejects (JSON-schema mode, max_completion_tokens, stream_options,
// temperature) fall back to what it accepts, remembered per endpoint for the session. Every message is redacted.
import OpenAI from 'openai';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { KeyHint } from './errors';
import { CLI_KEY_HINT, LlmError } from './errors';
import { Redactor } from './redact';

export interface LlmSettings {
  /** Base URL of the OpenAI-compatible API, e.g. https://api.openai.com/v1 or http://localhost:11434/v1. */
  baseUrl: string;
  model: string;
  temperature: number;
  /** Token budget of one request, prompt and reply together. */
  maxTokens: number;
  /** Seconds to wait for the reply to start, and for each further piece of it. */
  timeoutSec: number;
  /** Most bytes of reply content taken (UTF-8); past it reading stops and the request fails. Default 512 KiB. */
  maxReplyBytes?: number;
}

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** 512 KiB: eight times the longest reply the token budget allows (16,384 reply tokens, about 64 KiB of text). */
export const DEFAULT_MAX_REPLY_BYTES = 512 * 1024;
export const DEFAULT_SETTINGS: LlmSettings = { baseUrl: DEFAULT_BASE_URL, model: 'gpt-4o-mini', temperature: 0.2, maxTokens: 32_000, timeoutSec: 120, maxReplyBytes: DEFAULT_MAX_REPLY_BYTES };

/**
 * The response body as the SDK reads it, counted: `onOver` is called (and the body errors) once the bytes in all pass
 * `total`, or the bytes since the last newline pass `line` (an SSE line, or a JSON body, that never ends would
 * otherwise be buffered whole by the SDK before anything could look at it).
 */
export function meteredFetch(limits: { total: number; line: number }, onOver: (bytes: number) => void, inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    const body = res.body;
    if (!body) return res;
    const reader = body.getReader();
    let total = 0;
    let line = 0;
    const counted = new ReadableStream<Uint8Array>({
      async pull(ctl) {
        const { done, value } = await reader.read();
        if (done) {
          ctl.close();
          return;
        }
        total += value.byteLength;
        const nl = value.lastIndexOf(10);
        line = nl >= 0 ? value.byteLength - nl - 1 : line + value.byteLength;
        if (total > limits.total || line > limits.line) {
          onOver(total);
          void reader.cancel().catch(() => undefined);
          ctl.error(new Error('the reply is over the size limit'));
          return;
        }
        ctl.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    return new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

function kib(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';
/** A function call the model asked for (OpenAI's `tool_calls`), its arguments as the raw JSON text it gave. */
export interface ChatToolCall {
  id: string;
  name: string;
  arguments: string;
}
export interface ChatMessage {
  role: ChatRole;
  content: string;
  /** An assistant message's tool calls (a solver's history). */
  toolCalls?: ChatToolCall[];
  /** A `tool` message: the call it answers. */
  toolCallId?: string;
}

export type ResponseFormatMode = 'json_schema' | 'json_object' | 'none';

export interface ChatRequest {
  messages: ChatMessage[];
  /** Ask for JSON matching this schema (JSON-schema mode where the endpoint has it). */
  schema?: { name: string; schema: Record<string, unknown> };
  /** Most tokens the reply may use. */
  maxReplyTokens: number;
  /**
   * Functions the model may call (OpenAI function calling). An endpoint that refuses the parameter has it dropped
   * and remembered, like any other optional parameter: the model then answers in text.
   */
  tools?: Array<{ name: string; description: string; parameters: Record<string, unknown> }>;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Cost the endpoint reported itself (some gateways do). */
  costUsd?: number;
}

/** One try of a request, for the record and for the curator to see what happened. */
export interface TryRecord {
  n: number;
  startedAt: string;
  ms: number;
  outcome: 'ok' | 'rate_limited' | 'server_error' | 'timeout' | 'param_rejected' | 'failed';
  status?: number;
  /** How long we waited before the next try. */
  waitMs?: number;
  message?: string;
}

export interface ChatResult {
  text: string;
  /** The tool calls of the reply (only when the request offered tools and the model called one). */
  toolCalls?: ChatToolCall[];
  finishReason: string;
  usage?: Usage;
  /** The model the endpoint says answered. */
  model: string;
  responseFormat: ResponseFormatMode;
  /** The messages exactly as the successful request sent them (with the schema added when not in JSON-schema mode). */
  sent: ChatMessage[];
  tries: TryRecord[];
  /** From sending the request to the last byte. */
  durationMs: number;
  /** From sending the (successful) request to the first content. */
  firstTokenMs?: number;
}

export interface ChatProgress {
  phase: 'sending' | 'streaming' | 'waiting';
  /** Reply tokens so far (estimated while streaming). */
  tokens: number;
  tryNumber: number;
  message?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (p: ChatProgress) => void;
  /** Redacted log lines: retries, fallbacks, timings. */
  onLog?: (line: string) => void;
}

export interface RetryPolicy {
  /** Tries in all for 429 replies. */
  rateLimitTries: number;
  /** Tries in all for 5xx replies, timeouts and dropped connections. */
  transientTries: number;
  /** First back-off; doubles each try. */
  backoffMs: number;
  /** The longest wait a retry-after may ask for; longer and we stop and say so. */
  maxWaitMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { rateLimitTries: 4, transientTries: 3, backoffMs: 1000, maxWaitMs: 60_000 };

/** What an endpoint was found to reject, so later requests in the session skip straight to what works. */
export class EndpointMemory {
  private readonly byEndpoint = new Map<string, { format: ResponseFormatMode; dropped: Set<string>; tokensParam: 'max_completion_tokens' | 'max_tokens' | 'none' }>();

  get(baseUrl: string, model: string) {
    const key = `${baseUrl.replace(/\/+$/, '')} ${model}`;
    let e = this.byEndpoint.get(key);
    if (!e) this.byEndpoint.set(key, (e = { format: 'json_schema', dropped: new Set(), tokensParam: 'max_completion_tokens' }));
    return e;
  }
}

/** The memory of this process (a VS Code window or one CLI run). */
export const sessionMemory = new EndpointMemory();

export interface LlmClientOptions {
  settings: LlmSettings;
  apiKey?: string;
  redactor?: Redactor;
  keyHint?: KeyHint;
  retry?: Partial<RetryPolicy>;
  memory?: EndpointMemory;
  /** Stream the reply (default true); false sends one request and waits for the whole reply. */
  stream?: boolean;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new LlmError('cancelled', 'cancelled'));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new LlmError('cancelled', 'cancelled'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function causeCodes(e: unknown): string[] {
  const out: string[] = [];
  let cur: unknown = e;
  for (let i = 0; i < 6 && cur; i++) {
    const c = cur as { code?: unknown; cause?: unknown; errors?: unknown[] };
    if (typeof c.code === 'string') out.push(c.code);
    if (Array.isArray(c.errors)) for (const x of c.errors) if (typeof (x as { code?: unknown }).code === 'string') out.push((x as { code: string }).code);
    cur = c.cause;
  }
  return out;
}

/** Milliseconds a 429 asks us to wait: `retry-after-ms`, else `retry-after` in seconds or as an HTTP date. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = headers.get('retry-after');
  if (ra === null || ra.trim() === '') return undefined;
  if (Number.isFinite(Number(ra))) return Math.max(0, Number(ra) * 1000);
  const d = Date.parse(ra);
  return Number.isNaN(d) ? undefined : Math.max(0, d - now);
}

const PARAMS = ['response_format', 'json_schema', 'max_completion_tokens', 'max_tokens', 'stream_options', 'temperature', 'tools'] as const;

/** The request parameter a 400/422 names, if any. */
function rejectedParam(e: APIError): string | undefined {
  const body = e.error as { param?: unknown; message?: unknown } | undefined;
  const named = [e.param, body?.param].find((p): p is string => typeof p === 'string' && p.length > 0);
  const text = `${named ?? ''} ${e.message} ${typeof body?.message === 'string' ? body.message : ''}`;
  return PARAMS.find((p) => text.includes(p));
}

/** The function calls of a whole (non-streamed) reply message. */
function toolCallsOf(list: OpenAI.Chat.ChatCompletionMessageToolCall[] | undefined): ChatToolCall[] | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const out: ChatToolCall[] = [];
  for (const c of list) {
    const f = (c as { function?: { name?: unknown; arguments?: unknown } }).function;
    if (!f || typeof f.name !== 'string') continue;
    out.push({ id: typeof c.id === 'string' ? c.id : '', name: f.name, arguments: typeof f.arguments === 'string' ? f.arguments : '' });
  }
  return out.length > 0 ? out : undefined;
}

export class LlmClient {
  readonly settings: LlmSettings;
  private readonly sdk: OpenAI;
  private readonly redactor: Redactor;
  private readonly keyHint: KeyHint;
  private readonly retry: RetryPolicy;
  private readonly memory: EndpointMemory;
  private readonly streamReplies: boolean;

  constructor(o: LlmClientOptions) {
    this.settings = { ...o.settings, baseUrl: o.settings.baseUrl.replace(/\/+$/, '') };
    this.redactor = o.redactor ?? new Redactor();
    this.redactor.add(o.apiKey);
    this.keyHint = o.keyHint ?? CLI_KEY_HINT;
    this.retry = { ...DEFAULT_RETRY, ...o.retry };
    this.memory = o.memory ?? sessionMemory;
    this.streamReplies = o.stream !== false;
    if (!o.apiKey && this.settings.baseUrl === DEFAULT_BASE_URL) {
      throw new LlmError('no_key', `No API key for ${this.settings.baseUrl}: ${this.keyHint.where}.`);
    }
    // Local servers (Ollama, vLLM, LM Studio) often need no key; the SDK insists on one, so send a placeholder.
    this.sdk = new OpenAI({
      apiKey: o.apiKey || 'no-key',
      baseURL: this.settings.baseUrl,
      maxRetries: 0,
      // Our own timer (reset by every piece of the reply) decides; the SDK's is only a backstop behind it.
      timeout: (this.settings.timeoutSec + 30) * 1000,
      logLevel: 'off',
      dangerouslyAllowBrowser: false,
    });
  }

  private redact(s: string): string {
    return this.redactor.redact(s);
  }

  private log(o: CallOptions, line: string): void {
    o.onLog?.(this.redact(line));
  }

  /** Sends the request, retrying and falling back as needed, and resolves with the whole reply. */
  async chat(req: ChatRequest, o: CallOptions = {}): Promise<ChatResult> {
    const tries: TryRecord[] = [];
    const mem = this.memory.get(this.settings.baseUrl, this.settings.model);
    let rateLimited = 0;
    let transient = 0;
    const t0 = Date.now();
    for (let n = 1; ; n++) {
      if (o.signal?.aborted) throw new LlmError('cancelled', 'Cancelled.');
      const started = Date.now();
      const format: ResponseFormatMode = req.schema ? mem.format : 'none';
      const rec: TryRecord = { n, startedAt: new Date(started).toISOString(), ms: 0, outcome: 'ok' };
      tries.push(rec);
      o.onProgress?.({ phase: 'sending', tokens: 0, tryNumber: n });
      try {
        const r = await this.once(req, format, mem, n, o);
        rec.ms = Date.now() - started;
        this.log(o, `${this.settings.model} at ${this.settings.baseUrl}: reply in ${rec.ms} ms (try ${n}, ${format}${r.usage ? `, ${r.usage.promptTokens}+${r.usage.completionTokens} tokens` : ''})`);
        return { ...r, responseFormat: format, tries, durationMs: Date.now() - t0 };
      } catch (e) {
        rec.ms = Date.now() - started;
        const d = this.classify(e, o);
        rec.outcome = d.outcome;
        if (d.status !== undefined) rec.status = d.status;
        rec.message = d.error.message;
        if (d.outcome === 'param_rejected' && d.param) {
          if (this.fallBack(mem, d.param, format)) {
            this.log(o, `${this.settings.baseUrl} rejected ${d.param}; trying again without it (remembered for this session)`);
            continue;
          }
          throw d.error;
        }
        let wait: number | undefined;
        if (d.outcome === 'rate_limited') {
          rateLimited++;
          if (rateLimited >= this.retry.rateLimitTries) {
            throw new LlmError('rate_limited', `${this.settings.baseUrl} is rate limiting us (429) and still was after ${rateLimited} tries; wait a minute and ask again.`, 429);
          }
          wait = d.retryAfterMs ?? this.retry.backoffMs * 2 ** (rateLimited - 1);
          if (wait > this.retry.maxWaitMs) {
            throw new LlmError('rate_limited', `${this.settings.baseUrl} is rate limiting us (429) and asks us to wait ${Math.ceil(wait / 1000)} s; ask again later.`, 429);
          }
        } else if (d.outcome === 'server_error' || d.outcome === 'timeout') {
          transient++;
          if (transient >= this.retry.transientTries) {
            throw new LlmError(d.error.code, `${d.error.message} (gave up after ${transient} tries)`, d.status);
          }
          wait = this.retry.backoffMs * 2 ** (transient - 1);
        } else throw d.error;
        rec.waitMs = wait;
        const why = d.outcome === 'rate_limited' ? `rate limited (429)${d.retryAfterMs !== undefined ? `, the server asks for ${wait} ms` : ''}` : d.error.message;
        this.log(o, `try ${n} failed: ${why}; retrying in ${(wait / 1000).toFixed(1)} s`);
        o.onProgress?.({ phase: 'waiting', tokens: 0, tryNumber: n, message: `${why}; retrying in ${Math.ceil(wait / 1000)} s` });
        await sleep(wait, o.signal);
      }
    }
  }

  /** Moves to the next fallback for a rejected parameter; false when there is none left. */
  private fallBack(mem: ReturnType<EndpointMemory['get']>, param: string, format: ResponseFormatMode): boolean {
    if (param === 'response_format' || param === 'json_schema') {
      if (format === 'json_schema') mem.format = 'json_object';
      else if (format === 'json_object') mem.format = 'none';
      else return false;
      return true;
    }
    if (param === 'max_completion_tokens') {
      if (mem.tokensParam !== 'max_completion_tokens') return false;
      mem.tokensParam = 'max_tokens';
      return true;
    }
    if (param === 'max_tokens') {
      if (mem.tokensParam !== 'max_tokens') return false;
      mem.tokensParam = 'none';
      return true;
    }
    if (mem.dropped.has(param)) return false;
    mem.dropped.add(param);
    return true;
  }

  private body(req: ChatRequest, format: ResponseFormatMode, mem: ReturnType<EndpointMemory['get']>): Record<string, unknown> {
    const messages: Array<Record<string, unknown> & { role: ChatRole; content: string | null }> = req.messages.map((m) => {
      if (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0) {
        return { role: m.role, content: m.content.length > 0 ? m.content : null, tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) };
      }
      if (m.role === 'tool') return { role: m.role, content: m.content, tool_call_id: m.toolCallId ?? '' };
      return { role: m.role, content: m.content };
    });
    if (req.schema && format !== 'json_schema') {
      // Without JSON-schema mode the schema goes into the instructions; json_object mode also needs the word "JSON".
      const first = messages[0];
      const add = `\n\nReply with one JSON object only (no prose, no code fences) that matches this JSON Schema:\n${JSON.stringify(req.schema.schema)}`;
      if (first && first.role === 'system') first.content = `${first.content ?? ''}${add}`;
      else messages.unshift({ role: 'system', content: add.trim() });
    }
    const body: Record<string, unknown> = { model: this.settings.model, messages };
    if (!mem.dropped.has('temperature')) body.temperature = this.settings.temperature;
    if (mem.tokensParam !== 'none') body[mem.tokensParam] = req.maxReplyTokens;
    if (req.schema && format === 'json_schema') body.response_format = { type: 'json_schema', json_schema: { name: req.schema.name, schema: req.schema.schema, strict: true } };
    else if (req.schema && format === 'json_object') body.response_format = { type: 'json_object' };
    if (req.tools && req.tools.length > 0 && !mem.dropped.has('tools')) body.tools = req.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
    if (this.streamReplies) {
      body.stream = true;
      if (!mem.dropped.has('stream_options')) body.stream_options = { include_usage: true };
    }
    return body;
  }

  /** One request. Throws the SDK's errors (or ours for a cut stream / refusal); `classify` makes sense of them. */
  private async once(req: ChatRequest, format: ResponseFormatMode, mem: ReturnType<EndpointMemory['get']>, n: number, o: CallOptions): Promise<Omit<ChatResult, 'responseFormat' | 'tries' | 'durationMs'>> {
    const body = this.body(req, format, mem);
    const sent = (body.messages as Array<{ role: ChatRole; content: string | null }>).map((m) => ({ role: m.role, content: m.content ?? '' }));
    // One controller per try: the caller's cancel and our idle timer both end it.
    const ctl = new AbortController();
    const state = { idle: false, chars: 0, tooLarge: false };
    const maxBytes = this.settings.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
    const over = () => {
      state.tooLarge = true;
      ctl.abort();
    };
    // The framing (SSE, JSON) around the content is counted too, generously: JSON may escape a character as six bytes,
    // and a stream spends a few hundred bytes of framing on every piece.
    const sdk = this.sdk.withOptions({ fetch: meteredFetch({ total: maxBytes * (this.streamReplies ? 64 : 6) + (1 << 20), line: maxBytes * 6 + (64 << 10) }, over) });
    const onAbort = () => ctl.abort();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    const timeoutMs = this.settings.timeoutSec * 1000;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        state.idle = true;
        ctl.abort();
      }, timeoutMs);
    };
    const sentAt = Date.now();
    arm();
    try {
      if (!this.streamReplies) {
        const r = (await sdk.chat.completions.create(body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, { signal: ctl.signal })) as OpenAI.Chat.ChatCompletion;
        this.checkAbort(state, o, 0);
        const choice = r.choices[0];
        const msg = choice?.message;
        if (Buffer.byteLength(msg?.content ?? '') + Buffer.byteLength(msg?.refusal ?? '') > maxBytes) {
          state.tooLarge = true;
          this.checkAbort(state, o, 0);
        }
        if (msg?.refusal) throw new LlmError('refusal', `The model declined: ${this.redact(msg.refusal)}`);
        const text = msg?.content ?? '';
        const toolCalls = toolCallsOf(msg?.tool_calls);
        if (toolCalls && toolCalls.reduce((b, c) => b + Buffer.byteLength(c.arguments) + c.name.length, 0) > maxBytes) {
          state.tooLarge = true;
          this.checkAbort(state, o, 0);
        }
        o.onProgress?.({ phase: 'streaming', tokens: r.usage?.completion_tokens ?? estimateTokens(text), tryNumber: n });
        return { text, ...(toolCalls ? { toolCalls } : {}), finishReason: choice?.finish_reason ?? 'unknown', ...usageOf(r.usage), model: r.model ?? this.settings.model, firstTokenMs: Date.now() - sentAt, sent };
      }
      const stream = (await sdk.chat.completions.create(body as unknown as OpenAI.Chat.ChatCompletionCreateParamsStreaming, { signal: ctl.signal })) as AsyncIterable<OpenAI.Chat.ChatCompletionChunk>;
      let bytes = 0;
      let text = '';
      let refusal = '';
      /** Tool calls by their index in the reply, pieced together from the deltas. */
      const calls: Array<{ id: string; name: string; arguments: string }> = [];
      let finishReason: string | undefined;
      let usage: OpenAI.CompletionUsage | undefined;
      let model = this.settings.model;
      let firstTokenMs: number | undefined;
      let lastReport = 0;
      try {
        for await (const chunk of stream) {
          arm();
          if (chunk.model) model = chunk.model;
          if (chunk.usage) usage = chunk.usage;
          for (const c of chunk.choices ?? []) {
            const d = c.delta;
            if (d?.content) {
              firstTokenMs ??= Date.now() - sentAt;
              bytes += Buffer.byteLength(d.content);
              text += d.content;
              state.chars = text.length;
            }
            if (d?.refusal) {
              bytes += Buffer.byteLength(d.refusal);
              refusal += d.refusal;
            }
            for (const tc of d?.tool_calls ?? []) {
              const at = Number.isInteger(tc.index) && tc.index >= 0 && tc.index < 64 ? tc.index : calls.length;
              const call = (calls[at] ??= { id: '', name: '', arguments: '' });
              if (tc.id) call.id = tc.id;
              if (tc.function?.name) call.name += tc.function.name;
              if (tc.function?.arguments) {
                bytes += Buffer.byteLength(tc.function.arguments);
                call.arguments += tc.function.arguments;
              }
              firstTokenMs ??= Date.now() - sentAt;
            }
            if (c.finish_reason) finishReason = c.finish_reason;
          }
          if (bytes > maxBytes) {
            // Stop reading: the rest is never taken in, and what came is dropped.
            text = '';
            refusal = '';
            over();
            break;
          }
          const now = Date.now();
          if (now - lastReport >= 100) {
            lastReport = now;
            o.onProgress?.({ phase: 'streaming', tokens: estimateTokens(text), tryNumber: n });
          }
        }
      } catch (e) {
        this.checkAbort(state, o, text.length);
        // An error the server put in the stream is an API error; a broken connection is a cut stream.
        if (e instanceof LlmError || (e instanceof APIError && !(e instanceof APIConnectionError))) throw e;
        // The connection broke after the reply had begun.
        throw new LlmError('stream_cut', `The reply from ${this.settings.baseUrl} was cut off after ${estimateTokens(text)} tokens (${requestErrorText(e)}); ask again.`);
      }
      // The SDK ends the iteration quietly when the request was aborted.
      this.checkAbort(state, o, text.length);
      if (refusal) throw new LlmError('refusal', `The model declined: ${this.redact(refusal)}`);
      if (finishReason === undefined) {
        throw new LlmError('stream_cut', `The reply from ${this.settings.baseUrl} ended before the model finished (after ${estimateTokens(text)} tokens, no end-of-reply marker); ask again.`);
      }
      o.onProgress?.({ phase: 'streaming', tokens: usage?.completion_tokens ?? estimateTokens(text), tryNumber: n });
      const toolCalls = calls.filter((c) => c !== undefined && c.name.length > 0);
      return { text, ...(toolCalls.length > 0 ? { toolCalls } : {}), finishReason, ...usageOf(usage), model, sent, ...(firstTokenMs !== undefined ? { firstTokenMs } : {}) };
    } catch (e) {
      this.checkAbort(state, o, state.chars);
      throw e;
    } finally {
      if (timer) clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
    }
  }

  private checkAbort(state: { idle: boolean; tooLarge?: boolean }, o: CallOptions, chars: number): void {
    if (o.signal?.aborted) throw new LlmError('cancelled', 'Cancelled.');
    if (state.tooLarge) {
      const limit = this.settings.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
      throw new LlmError(
        'too_large',
        `The reply from ${this.settings.baseUrl} is larger than ${kib(limit)} (specweave.repair.maxReplyBytes, or --max-reply-bytes for the CLI); reading stopped there and nothing of it is kept. Ask again (a narrower target or note may help), or raise the limit.`,
      );
    }
    if (state.idle) {
      const what = chars > 0 ? `the reply stalled after ${estimateTokens(chars)} tokens` : 'no reply';
      throw new LlmError('timeout', `${this.settings.baseUrl}: ${what} within ${this.settings.timeoutSec} s (specweave.repair.timeoutSec)`);
    }
  }

  private classify(e: unknown, o: CallOptions): { outcome: TryRecord['outcome']; error: LlmError; status?: number; retryAfterMs?: number; param?: string } {
    const base = this.settings.baseUrl;
    if (e instanceof LlmError) {
      if (e.code === 'timeout') return { outcome: 'timeout', error: e };
      return { outcome: 'failed', error: e };
    }
    if (e instanceof APIUserAbortError || o.signal?.aborted) return { outcome: 'failed', error: new LlmError('cancelled', 'Cancelled.') };
    if (e instanceof APIConnectionTimeoutError) {
      return { outcome: 'timeout', error: new LlmError('timeout', `${base}: no reply within ${this.settings.timeoutSec} s (specweave.repair.timeoutSec)`) };
    }
    if (e instanceof APIConnectionError) {
      const codes = causeCodes(e);
      if (codes.includes('ECONNREFUSED')) {
        return { outcome: 'failed', error: new LlmError('connection', `Cannot connect to ${base}: connection refused. Is the server running, and is the base URL right (specweave.repair.baseUrl, or OPENAI_BASE_URL for the CLI)?`) };
      }
      if (codes.includes('ENOTFOUND') || codes.includes('EAI_AGAIN')) {
        return { outcome: 'failed', error: new LlmError('connection', `Cannot connect to ${base}: the host name does not resolve. Check the base URL (specweave.repair.baseUrl, or OPENAI_BASE_URL for the CLI).`) };
      }
      return { outcome: 'server_error', error: new LlmError('connection', `The connection to ${base} failed (${this.redact(codes[0] ?? e.message)})`) };
    }
    if (e instanceof APIError) {
      const status = e.status;
      const serverSays = this.redact(serverMessage(e));
      if (status === 401 || status === 403) {
        return {
          outcome: 'failed',
          status,
          error: new LlmError('auth', `${base} refused the API key (${status}${serverSays ? `: ${serverSays}` : ''}). The key is wrong or has no access to ${this.settings.model}: ${this.keyHint.where}.`, status),
        };
      }
      if (status === 429) {
        const ra = retryAfterMs(e.headers);
        return { outcome: 'rate_limited', status, error: new LlmError('rate_limited', `rate limited (429)`, 429), ...(ra !== undefined ? { retryAfterMs: ra } : {}) };
      }
      if (status !== undefined && status >= 500) {
        return { outcome: 'server_error', status, error: new LlmError('server', `${base} answered ${status}${serverSays ? ` (${serverSays})` : ''}`, status) };
      }
      if (status === 400 || status === 422) {
        const param = rejectedParam(e);
        if (param) return { outcome: 'param_rejected', status, param, error: new LlmError('request', `${base} rejected the request: ${serverSays}`, status) };
      }
      if (status === undefined) {
        // An error object inside the stream.
        return { outcome: 'failed', error: new LlmError('server', `${base} reported an error in the reply stream: ${serverSays || 'no details'}`) };
      }
      const hint = status === 404 ? ` Is the model name "${this.settings.model}" right (specweave.repair.model, or --model / SPECWEAVE_MODEL for the CLI)?` : '';
      return { outcome: 'failed', status, error: new LlmError('request', `${base} rejected the request (${status}${serverSays ? `: ${serverSays}` : ''}).${hint}`, status) };
    }
    return { outcome: 'failed', error: new LlmError('request', this.redact(`Request to ${base} failed: ${requestErrorText(e)}`)) };
  }
}

function serverMessage(e: APIError): string {
  const body = e.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string') return body.message;
  return e.message.replace(/^\d{3}\s*/, '');
}

function requestErrorText(e: unknown): string {
  if (e instanceof Error) {
    const codes = causeCodes(e);
    return codes.length > 0 ? `${e.message} (${codes.join(', ')})` : e.message;
  }
  return String(e);
}

function usageOf(u: OpenAI.CompletionUsage | undefined | null): { usage?: Usage } {
  if (!u) return {};
  const cost = (u as unknown as { cost?: unknown }).cost;
  return {
    usage: {
      promptTokens: u.prompt_tokens ?? 0,
      completionTokens: u.completion_tokens ?? 0,
      totalTokens: u.total_tokens ?? (u.prompt_tokens ?? 0) + (u.completion_tokens ?? 0),
      ...(typeof cost === 'number' ? { costUsd: cost } : {}),
    },
  };
}

/** Rough reply tokens from characters (about four per token in English and code). */
export function estimateTokens(textOrChars: string | number): number {
  const n = typeof textOrChars === 'number' ? textOrChars : textOrChars.length;
  return Math.ceil(n / 4);
}
