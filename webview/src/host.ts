// The webview's side of the request/reply protocol: numbered requests from a counter, exactly one reply per id.
// No DOM here; `post` is the VS Code API's postMessage (or a test double).
import type { HostToWebview, RequestMethod, RequestParams, RequestResult, WebviewToHost } from '../../src/protocol/messages';

type RequestMessage = Extract<WebviewToHost, { type: 'request' }>;
type Reply = Extract<HostToWebview, { type: 'reply' }>;

interface Pending {
  method: RequestMethod;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

export class HostError extends Error {
  constructor(
    readonly method: RequestMethod,
    message: string,
  ) {
    super(`${method}: ${message}`);
  }
}

export class HostConnection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly post: (message: WebviewToHost) => void) {}

  request<M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
    const id = this.nextId++;
    return new Promise<RequestResult<M>>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (value: unknown) => void, reject });
      // The mapped union cannot be narrowed from a generic method name; the shape is right by construction.
      this.post({ type: 'request', id, method, params } as RequestMessage);
    });
  }

  /** Settles the request a reply answers; false for an unknown or already answered id. */
  handleReply(reply: Reply): boolean {
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
