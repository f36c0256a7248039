// The API VS Code injects into a webview, typed with our messages. The harness provides a stand-in.
import type { WebviewToHost } from '../../src/protocol/messages';

export interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** acquireVsCodeApi may be called once per page; this is that call. */
export function vscodeApi(): VsCodeApi {
  return acquireVsCodeApi();
}
