// The webview's one RPC client, used by the task page and the statistics/adjudication page alike: numbered requests
// from a counter, exactly one reply per id, a size cap on what is sent, and the `ready` handshake with the message
// routing around it. No DOM here beyond the window's message event (`MessageSource`); `post` is the VS Code API's postMessage (or a
// test double).
import type { CurationRequestMap, MethodMap, ParamsOf, ReplyMessage, ReplyOf, RequestMap, RequestOf } from '../../src/protocol/messages';
import { MAX_MESSAGE_BYTES } from '../../src/protocol/messages';
import { startHandshake } from './handshake';

/**
 * No message between host and webview goes over about 1 MB (the host caps what it sends at the same size); a
 * request bigger than that is refused here rather than dropped on the way.
 */
export const MAX_REQUEST_BYTES = MAX_MESSAGE_BYTES;

interface Pending {
  method: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

export class HostError extends Error {
  constructor(
    readonly method: string,
    message: string,
  ) {
    super(`${method}: ${message}`);
  }
}

export class RpcClient<Map extends MethodMap<Map>> {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly post: (message: RequestOf<Map>) => void) {}

  /** Sends one request; resolves to the method's declared reply (`ReplyOf`), rejects with a `HostError`. */
  request<M extends keyof Map & string>(method: M, params: ParamsOf<Map, M>): Promise<ReplyOf<Map, M>> {
    const id = this.nextId++;
    // The mapped union cannot be narrowed from a generic method name; the shape is right by construction.
    const message = { type: 'request', id, method, params } as RequestOf<Map>;
    const bytes = new TextEncoder().encode(JSON.stringify(message)).length;
    if (bytes > MAX_REQUEST_BYTES) return Promise.reject(new HostError(method, `the request is too big to send (${bytes} bytes, at most ${MAX_REQUEST_BYTES})`));
    return new Promise<ReplyOf<Map, M>>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (value: unknown) => void, reject });
      this.post(message);
    });
  }

  /** Settles the request a reply answers; false for an unknown or already answered id. */
  handleReply(reply: ReplyMessage): boolean {
    const p = this.pending.get(reply.id);
    if (!p) return false;
    this.pending.delete(reply.id);
    if (reply.ok) p.resolve(reply.result);
    else p.reject(new HostError(p.method, typeof reply.error === 'string' ? reply.error : 'failed'));
    return true;
  }

  /** Fails every outstanding request (the panel is going away or the task changed under them). */
  rejectAll(reason: string): void {
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new HostError(p.method, reason));
    }
  }

  get outstanding(): number {
    return this.pending.size;
  }
}

export interface ChannelOptions<In extends { type: string }> {
  /** Says `ready` (with whatever the page sends with it). */
  sayReady(): void;
  /** True once the host's first model has arrived. */
  answered(): boolean;
  /** Shown once when the host has been silent for a while. */
  onSilent(): void;
  /** Every host message that is not a reply. */
  onMessage(message: Exclude<In, { type: 'reply' }>): void;
  /** A handler threw: the page says so instead of going blank. */
  onError(type: string, error: unknown): void;
}

/** Where host messages arrive: the page's window (typed here without the DOM library, for the unit tests). */
export interface MessageSource {
  addEventListener(type: 'message', listener: (e: { data: unknown }) => void): void;
  removeEventListener(type: 'message', listener: (e: { data: unknown }) => void): void;
}

/**
 * Connects a page to its host: replies settle the client's requests, every other message goes to `onMessage`, and
 * the page says `ready` until the host answers. Returns a function that stops the handshake and the listener.
 */
export function connect<Map extends MethodMap<Map>, In extends { type: string }>(client: RpcClient<Map>, o: ChannelOptions<In>, source: MessageSource = globalThis as unknown as MessageSource): () => void {
  const listener = (e: { data: unknown }): void => {
    const raw = e.data;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || typeof (raw as { type?: unknown }).type !== 'string') return;
    const msg = raw as In;
    try {
      if (msg.type === 'reply') client.handleReply(msg as unknown as ReplyMessage);
      else o.onMessage(msg as Exclude<In, { type: 'reply' }>);
    } catch (err) {
      o.onError(msg.type, err);
    }
  };
  source.addEventListener('message', listener);
  const stop = startHandshake({ sayReady: o.sayReady, answered: o.answered, onSilent: o.onSilent });
  return () => {
    stop();
    source.removeEventListener('message', listener);
  };
}

/** The task page's client (the task view protocol). */
export class HostConnection extends RpcClient<RequestMap> {}

/** The statistics and adjudication page's client (the curation panel protocol). */
export class PanelConnection extends RpcClient<CurationRequestMap> {}
