// A deadline on every engine call: dockerode's own `timeout` option can leave a call pending forever, while an
// AbortSignal per call rejects on time (see shared/reference/containers.md).

export class DeadlineError extends Error {
  constructor(
    readonly operation: string,
    readonly ms: number,
  ) {
    super(`${operation} did not answer within ${formatMs(ms)}`);
  }
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/**
 * Runs `fn` with a signal that aborts after `ms` (or when `outer` aborts) and rejects with a DeadlineError on time,
 * even if `fn` ignores the signal.
 */
export async function withDeadline<T>(
  operation: string,
  ms: number,
  fn: (signal: AbortSignal) => Promise<T>,
  outer?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onOuter: (() => void) | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Reject before aborting: an aborted call rejects at once with its own error, which must not win the race.
      const err = new DeadlineError(operation, ms);
      reject(err);
      controller.abort(err);
    }, ms);
    if (outer) {
      onOuter = () => {
        const reason: unknown = outer.reason ?? new Error('cancelled');
        reject(reason instanceof Error ? reason : new Error(String(reason)));
        controller.abort(reason);
      };
      if (outer.aborted) onOuter();
      else outer.addEventListener('abort', onOuter, { once: true });
    }
  });
  // The losing promise of the race must never become an unhandled rejection.
  expired.catch(() => undefined);
  try {
    const work = fn(controller.signal);
    work.catch(() => undefined);
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
    if (outer && onOuter) outer.removeEventListener('abort', onOuter);
  }
}
