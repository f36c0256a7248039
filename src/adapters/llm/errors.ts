// What can go wrong talking to a model endpoint, as one error type with a code a UI can act on and a message a
// curator can act on. Messages are redacted before they are built into an LlmError.

export type LlmErrorCode =
  /** No API key configured. */
  | 'no_key'
  /** 401/403: the key is wrong or lacks access. */
  | 'auth'
  /** 429 after the retries allowed. */
  | 'rate_limited'
  /** 5xx after the retries allowed. */
  | 'server'
  /** No answer (or no progress while streaming) within the request timeout, after the retries allowed. */
  | 'timeout'
  /** Nothing listens at the base URL, or the host is unknown. */
  | 'connection'
  /** The reply stream ended or broke before the model finished. */
  | 'stream_cut'
  /** The model declined to answer. */
  | 'refusal'
  /** The reply hit the token limit. */
  | 'length'
  /** The reply passed the size limit (maxReplyBytes); reading stopped there. */
  | 'too_large'
  /** Any other 4xx: model not found, bad parameter... */
  | 'request'
  /** The reply is not JSON, or does not match the suggestion schema, even after one retry. */
  | 'invalid_reply'
  /** The caller cancelled. */
  | 'cancelled';

export class LlmError extends Error {
  constructor(
    readonly code: LlmErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

/** What the key hint says where the key is set: the VS Code command, or the CLI's environment variable. */
export interface KeyHint {
  where: string;
}

export const CLI_KEY_HINT: KeyHint = { where: 'set OPENAI_API_KEY in the environment of the specweave command' };
export const VSCODE_KEY_HINT: KeyHint = { where: 'run "SpecWeave: Set API Key" from the command palette' };
