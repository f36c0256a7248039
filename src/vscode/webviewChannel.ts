// The host's one webview channel, used by the task view and the curation panels alike: every message from the page
// is validated first; a `ready` is the handshake (it stops the page-load watchdog, then the owner sends its `init`);
// a request goes to a typed handler table and gets exactly one reply, capped in size (an answer too large becomes an
// error reply); other messages go to the owner; nothing over the size cap is ever posted. The message shapes are the
// protocol's (src/protocol); this only carries them. No `vscode` here: tests drive it directly.
import { jsonBytes } from '../core/view/text';
import { errorText } from '../core/errorText';

import { MAX_MESSAGE_BYTES } from '../protocol/messages';
import type { HandlerTable, MethodMap, ReplyMessage, RequestOf } from '../protocol/messages';

/** No message to a webview may be larger than this (the protocol's one cap, for every panel). */
export { MAX_MESSAGE_BYTES };

/** The reply every protocol of ours uses for a request. */
export type WebviewReply = ReplyMessage;
export type { HandlerTable };

/**
 * `Map` is the surface's request map (method -> params, reply); `In` is what the page sends (its requests are
 * `RequestOf<Map>`), `Out` what the host pushes besides replies.
 */
export interface ChannelOptions<Map extends MethodMap<Map>, In extends { type: string }, Out extends { type: string }> {
  /** Names the page in log lines, e.g. `task t1` or `Curation Statistics`. */
  label(): string;
  validate(raw: unknown): { ok: true; message: In } | { ok: false; error: string };
  /** Posts to the page (the webview's postMessage). */
  post(message: Out | WebviewReply): void;
  /**
   * The answer to each request method, typed from the surface's map: a handler returning another reply type does not
   * compile. A handler that throws (or rejects) sends an error reply.
   */
  handlers: HandlerTable<Map>;
  /** The page said `ready` (already validated): the watchdog has been told; send the `init`. */
  ready(message: Extract<In, { type: 'ready' }>): void | Promise<void>;
  /** Any other message from the page. */
  other?(message: Exclude<In, { type: 'request' } | { type: 'ready' }>): void | Promise<void>;
  /** The page-load watchdog of the panel, told when the page says `ready`. */
  watchdog?: { loaded(): void };
  log(line: string): void;
  maxBytes?: number;
}

export class WebviewChannel<Map extends MethodMap<Map>, In extends { type: string }, Out extends { type: string }> {
  private closed = false;
  private finishReplies = false;
  private readonly maxBytes: number;
  /** Largest message posted so far, in bytes (for benchmarks and tests). */
  largestMessage = 0;

  constructor(private readonly o: ChannelOptions<Map, In, Out>) {
    this.maxBytes = o.maxBytes ?? MAX_MESSAGE_BYTES;
  }

  get limit(): number {
    return this.maxBytes;
  }

  /** Handles one raw message from the page. Never throws. */
  async receive(raw: unknown): Promise<void> {
    if (this.closed) return;
    const v = this.o.validate(raw);
    if (!v.ok) {
      this.o.log(`${this.o.label()}: rejected a message from the webview: ${v.error}`);
      const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
      if (typeof id === 'number' && Number.isInteger(id) && id > 0) this.post({ type: 'reply', id, ok: false, error: v.error });
      return;
    }
    const m = v.message;
    try {
      if (m.type === 'request') {
        // Validation let through only a known method with its params' shape; a method name cannot narrow the
        // handler's type from a generic map, so the call goes through the table's common signature.
        const req = m as unknown as RequestOf<Map>;
        const id = req.id;
        const handler = this.o.handlers[req.method] as (params: unknown) => Promise<unknown>;
        let result: unknown;
        try {
          result = await handler(req.params);
        } catch (e) {
          this.post({ type: 'reply', id, ok: false, error: errorText(e) });
          return;
        }
        this.reply(id, result);
      } else if (m.type === 'ready') {
        this.o.watchdog?.loaded();
        await this.o.ready(m as Extract<In, { type: 'ready' }>);
      } else await this.o.other?.(m as Exclude<In, { type: 'request' } | { type: 'ready' }>);
    } catch (e) {
      // Requests answer their own errors; this is a `ready` whose model could not be built, or another message.
      this.o.log(`${this.o.label()}: could not answer the webview's ${m.type}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
  }

  /** Posts a message unless it is over the cap (then it is dropped and logged); true when posted. */
  send(message: Out): boolean {
    return this.post(message);
  }

  /** The size of a message as it would be posted. */
  bytes(message: Out | WebviewReply): number {
    return jsonBytes(message);
  }

  /**
   * No more messages in either direction (the panel closed or shows another task). With `finishReplies` (the same
   * page goes on with a new session, e.g. the task changed on disk), requests already received still get their one
   * reply: a spec edit's own write restarts the session before its handler returns, and the page waits for it.
   */
  close(o: { finishReplies?: boolean } = {}): void {
    this.closed = true;
    this.finishReplies = o.finishReplies === true;
  }

  private reply(id: number, result: unknown): void {
    const msg: WebviewReply = { type: 'reply', id, ok: true, result };
    const bytes = jsonBytes(msg);
    if (bytes > this.maxBytes) {
      this.post({ type: 'reply', id, ok: false, error: `the answer is too large to send (${bytes} bytes)` });
      return;
    }
    this.post(msg, bytes);
  }

  private post(msg: Out | WebviewReply, known?: number): boolean {
    if (this.closed && !(this.finishReplies && msg.type === 'reply')) return false;
    const bytes = known ?? jsonBytes(msg);
    if (bytes > this.maxBytes) {
      this.o.log(`${this.o.label()}: dropped a ${msg.type} message of ${bytes} bytes (limit ${this.maxBytes})`);
      return false;
    }
    this.largestMessage = Math.max(this.largestMessage, bytes);
    this.o.post(msg);
    return true;
  }
}
