// A real HTTP server speaking the OpenAI chat-completions protocol (POST /v1/chat/completions, streaming SSE
// `data: {...}` chunks ending in `data: [DONE]`, or one JSON completion), scripted per test with the replies it should
// give, in order. It records every request so tests can see what was sent (and that the key was only in the header).
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FakeReply =
  /** A model answer: streamed when the request asks for a stream, else one JSON completion. */
  | {
      kind: 'answer';
      /** The reply text, or made from the request's body (a reply that depends on which task was asked about). */
      content: string | ((body: Record<string, unknown>) => string);
      /** Answer only once this settles (to hold requests in flight). */
      waitFor?: Promise<unknown>;
      /** Characters per SSE chunk (default 40). */
      chunkChars?: number;
      /** Pause between chunks. */
      delayMs?: number;
      refusal?: string;
      /** Function calls of the reply (OpenAI `tool_calls`); streamed as deltas, the arguments in pieces. */
      toolCalls?: Array<{ id: string; name: string; arguments: string }>;
      finishReason?: string;
      usage?: { prompt_tokens: number; completion_tokens: number };
      /** Destroy the connection after this many characters of content. */
      cutAfterChars?: number;
      /** End the stream cleanly but without a finish reason or [DONE]. */
      endEarly?: boolean;
      /** Stop sending after this many characters and keep the connection open (a stalled stream). */
      stallAfterChars?: number;
    }
  /** An HTTP error with a JSON body. */
  | { kind: 'error'; status: number; message: string; param?: string; headers?: Record<string, string> }
  /** Accept the request and never answer. */
  | { kind: 'hang' }
  /**
   * A reply of `bytes` bytes of content, written as fast as the client reads it (backpressure respected, so what the
   * server managed to write shows how far the client read): in ordinary SSE chunks, in one SSE line that never ends,
   * or as one JSON completion (non-streamed).
   */
  | { kind: 'flood'; bytes: number; shape: 'chunks' | 'one-line' | 'whole' };

/** How a flood went: bytes the server wrote, of how many, and whether the client hung up before the end. */
export interface FloodReport {
  written: number;
  total: number;
  clientClosed: boolean;
}

/** The key as servers echo it whole or partly masked (first 8 and last 4 characters), by placeholder. */
export function keyForms(key: string): Record<string, string> {
  const [head, tail] = [key.slice(0, 8), key.slice(-4)];
  return { '{KEY}': key, '{KEY_DOTS}': `${head}...${tail}`, '{KEY_STARS}': `${head}${'*'.repeat(24)}${tail}`, '{KEY_ELLIPSIS}': `${head}\u2026${tail}` };
}

/**
 * Fills placeholders with what the request carried, as an echoing server would: `{KEY}` and its masked forms from the
 * Authorization header, `{HEADERS}` with every request header (a server that reflects them in its message).
 */
function echo(text: string, headers: http.IncomingHttpHeaders): string {
  const key = (headers.authorization ?? '').replace(/^Bearer /, '');
  let out = text.replace(/\{HEADERS\}/g, JSON.stringify(headers));
  for (const [k, v] of Object.entries(keyForms(key))) out = out.split(k).join(v);
  return out;
}

export interface SeenRequest {
  body: Record<string, unknown>;
  authorization: string | undefined;
  at: number;
}

export class FakeOpenAI {
  readonly requests: SeenRequest[] = [];
  private script: FakeReply[] = [];
  private server: http.Server | undefined;
  private readonly sockets = new Set<Socket>();
  /** Answer 400 to JSON-schema mode (and to json_object too when 'json_object'), like endpoints without it. */
  rejectFormat: 'none' | 'json_schema' | 'json_object' = 'none';
  /** Echo this key in 401 messages, as OpenAI does (partly masked there; whole here, to test redaction). */
  baseUrl = '';
  /** Settles with the report of each flood reply, in order. */
  readonly floods: Array<Promise<FloodReport>> = [];
  /** Chat requests whose response has not closed yet, and the most there ever were at once. */
  inFlight = 0;
  maxInFlight = 0;
  private readonly inFlightWaiters: Array<{ n: number; resolve: () => void }> = [];

  private readonly requestWaiters: Array<{ n: number; resolve: () => void }> = [];

  /** Resolves once `n` chat requests in all have arrived. */
  whenRequests(n: number): Promise<void> {
    if (this.requests.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.requestWaiters.push({ n, resolve }));
  }

  /** Drops the replies not given yet. */
  clear(): void {
    this.script.length = 0;
  }

  /** Resolves once `n` requests are in flight at the same time. */
  whenInFlight(n: number): Promise<void> {
    if (this.inFlight >= n) return Promise.resolve();
    return new Promise((resolve) => this.inFlightWaiters.push({ n, resolve }));
  }

  push(...replies: FakeReply[]): this {
    this.script.push(...replies);
    return this;
  }

  get pending(): number {
    return this.script.length;
  }

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => (this.server as http.Server).listen(0, '127.0.0.1', r));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        res.writeHead(400).end('{"error":{"message":"bad json"}}');
        return;
      }
      this.requests.push({ body, authorization: req.headers.authorization, at: Date.now() });
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      res.once('close', () => this.inFlight--);
      for (const w of this.requestWaiters.splice(0)) {
        if (this.requests.length >= w.n) w.resolve();
        else this.requestWaiters.push(w);
      }
      for (const w of this.inFlightWaiters.splice(0)) {
        if (this.inFlight >= w.n) w.resolve();
        else this.inFlightWaiters.push(w);
      }
      const format = (body.response_format as { type?: string } | undefined)?.type;
      if (format && (format === this.rejectFormat || (this.rejectFormat === 'json_object' && format === 'json_schema'))) {
        this.json(res, 400, { error: { message: `response_format ${format} is not supported by this server`, type: 'invalid_request_error', param: 'response_format' } });
        return;
      }
      const reply = this.script.shift();
      if (!reply) {
        this.json(res, 500, { error: { message: 'the fake server has no scripted reply left' } });
        return;
      }
      if (reply.kind === 'hang') return;
      if (reply.kind === 'flood') {
        this.floods.push(this.flood(res, body, reply));
        return;
      }
      const fill = (text: string) => echo(text, req.headers);
      if (reply.kind === 'error') {
        const msg = fill(reply.message);
        this.json(res, reply.status, { error: { message: msg, type: 'error', ...(reply.param ? { param: reply.param } : {}) } }, reply.headers);
        return;
      }
      const filled = { ...reply, content: fill(typeof reply.content === 'function' ? reply.content(body) : reply.content), ...(reply.refusal !== undefined ? { refusal: fill(reply.refusal) } : {}) };
      const answer = () => (body.stream === true ? this.stream(res, body, filled) : this.complete(res, body, filled));
      // Errors of an answer are the connection's: the client sees them.
      if (reply.waitFor) void reply.waitFor.then(answer, answer);
      else void answer();
    });
  }

  private async flood(res: http.ServerResponse, body: Record<string, unknown>, r: Extract<FakeReply, { kind: 'flood' }>): Promise<FloodReport> {
    const report: FloodReport = { written: 0, total: r.bytes, clientClosed: false };
    let closed = false;
    res.on('close', () => (closed = true));
    const put = async (text: string): Promise<boolean> => {
      if (closed || res.destroyed) return false;
      const ok = res.write(text);
      report.written += Buffer.byteLength(text);
      if (!ok) await new Promise<void>((go) => {
        res.once('drain', go);
        res.once('close', go);
      });
      return !closed && !res.destroyed;
    };
    const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: String(body.model) };
    const piece = 'a'.repeat(8192);
    let content = 0;
    if (r.shape === 'whole') {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (await put(`{"id":"chatcmpl-fake","object":"chat.completion","model":"${String(body.model)}","choices":[{"index":0,"message":{"role":"assistant","content":"`)) {
        while (content < r.bytes && (await put(piece))) content += piece.length;
      }
      if (!closed) await put('"},"finish_reason":"stop"}]}');
    } else {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      if (r.shape === 'one-line') {
        // One chunk whose content string is still open: the line never ends while the flood lasts.
        if (await put(`data: {"id":"chatcmpl-fake","object":"chat.completion.chunk","model":"${String(body.model)}","choices":[{"index":0,"delta":{"content":"`)) {
          while (content < r.bytes && (await put(piece))) content += piece.length;
        }
        if (!closed) await put('"},"finish_reason":null}]}\n\n');
      } else {
        while (content < r.bytes && (await put(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`))) content += piece.length;
      }
      if (!closed) await put(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`);
    }
    report.clientClosed = closed;
    if (!closed) res.end();
    return report;
  }

  private json(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
  }

  private complete(res: http.ServerResponse, body: Record<string, unknown>, r: Extract<FakeReply, { kind: 'answer' }> & { content: string }): void {
    const usage = r.usage ?? { prompt_tokens: 1000, completion_tokens: Math.ceil(r.content.length / 4) };
    this.json(res, 200, {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: String(body.model),
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: r.refusal ? null : r.toolCalls && r.content === '' ? null : r.content,
            refusal: r.refusal ?? null,
            ...(r.toolCalls ? { tool_calls: r.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) } : {}),
          },
          finish_reason: r.finishReason ?? (r.toolCalls ? 'tool_calls' : 'stop'),
        },
      ],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    });
  }

  private async stream(res: http.ServerResponse, body: Record<string, unknown>, r: Extract<FakeReply, { kind: 'answer' }> & { content: string }): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: String(body.model) };
    const send = (v: unknown) => res.write(`data: ${JSON.stringify(v)}\n\n`);
    const wait = (ms: number) => new Promise((ok) => setTimeout(ok, ms));
    send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
    if (r.refusal) {
      send({ ...base, choices: [{ index: 0, delta: { refusal: r.refusal }, finish_reason: null }] });
      send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
      res.end('data: [DONE]\n\n');
      return;
    }
    const step = r.chunkChars ?? 40;
    for (let i = 0; i < r.content.length; i += step) {
      if (r.cutAfterChars !== undefined && i >= r.cutAfterChars) {
        // Let the client take the response and the first pieces before the connection drops.
        await wait(100);
        res.socket?.destroy();
        return;
      }
      if (r.stallAfterChars !== undefined && i >= r.stallAfterChars) return;
      send({ ...base, choices: [{ index: 0, delta: { content: r.content.slice(i, i + step) }, finish_reason: null }] });
      if (r.delayMs) await wait(r.delayMs);
      if (res.destroyed) return;
    }
    for (const [index, c] of (r.toolCalls ?? []).entries()) {
      send({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }, finish_reason: null }] });
      for (let i = 0; i < c.arguments.length; i += step) send({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: c.arguments.slice(i, i + step) } }] }, finish_reason: null }] });
    }
    if (r.endEarly) {
      res.end();
      return;
    }
    send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: r.finishReason ?? (r.toolCalls ? 'tool_calls' : 'stop') }] });
    const opts = body.stream_options as { include_usage?: boolean } | undefined;
    if (opts?.include_usage) {
      const usage = r.usage ?? { prompt_tokens: 1000, completion_tokens: Math.ceil(r.content.length / 4) };
      send({ ...base, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } });
    }
    res.end('data: [DONE]\n\n');
  }
}
