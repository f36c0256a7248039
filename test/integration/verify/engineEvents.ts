// The engine's own event stream, for tests that wait on a container's life (start, die) instead of polling its
// listing: subscribed before the action, so no event of it can be missed.
import type { Engine } from '../../../src/adapters/docker/engine';

export interface ContainerEvent {
  /** `create`, `start`, `die`, `destroy`... */
  action: string;
  id: string;
  /** The container's labels (and the engine's own attributes: name, image, exitCode). */
  attributes: Record<string, string>;
}

export interface ContainerEvents {
  /**
   * The first event from the subscription on that `match` accepts (one seen earlier included). Fails with `what`
   * after `boundMs` when none came: the bound is only the failure's, the wait ends with the event.
   */
  next(what: string, boundMs: number, match: (e: ContainerEvent) => boolean): Promise<ContainerEvent>;
  /** Ends the subscription; a wait still under way fails saying so. */
  close(): void;
}

/** Subscribes to the container events of the containers carrying every label of `labels` (`key=value`). */
export async function watchContainers(engine: Engine, labels: string[]): Promise<ContainerEvents> {
  const docker = await engine.docker();
  const stream = (await docker.getEvents({ filters: { type: ['container'], label: labels } })) as NodeJS.ReadableStream & { destroy(): void };
  const seen: ContainerEvent[] = [];
  const waiters = new Set<{ match: (e: ContainerEvent) => boolean; done: (e: ContainerEvent) => void }>();
  let failure: Error | undefined;
  const fail = new Set<(e: Error) => void>();
  let rest = '';
  stream.on('data', (chunk: Buffer) => {
    // One JSON object per line; a chunk may end inside one.
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      const raw = JSON.parse(line) as { Action?: string; status?: string; id?: string; Actor?: { ID?: string; Attributes?: Record<string, string> } };
      const e: ContainerEvent = { action: raw.Action ?? raw.status ?? '', id: raw.Actor?.ID ?? raw.id ?? '', attributes: raw.Actor?.Attributes ?? {} };
      seen.push(e);
      for (const w of [...waiters]) if (w.match(e)) w.done(e);
    }
  });
  stream.on('error', (e: Error) => {
    failure = e;
    for (const f of [...fail]) f(e);
  });
  return {
    next: (what, boundMs, match) =>
      new Promise<ContainerEvent>((resolve, reject) => {
        const earlier = seen.find(match);
        if (earlier) return resolve(earlier);
        if (failure) return reject(failure);
        let bound: NodeJS.Timeout | undefined = undefined;
        const onError = (e: Error) => end(() => reject(new Error(`${what}: the engine's event stream failed: ${e.message}`)));
        const w = { match, done: (e: ContainerEvent) => end(() => resolve(e)) };
        const end = (then: () => void) => {
          clearTimeout(bound);
          waiters.delete(w);
          fail.delete(onError);
          then();
        };
        waiters.add(w);
        fail.add(onError);
        bound = setTimeout(() => end(() => reject(new Error(`${what}: not within ${boundMs / 1000} s`))), boundMs);
      }),
    close: () => {
      stream.destroy();
      const closed = new Error('the watch of the engine\'s events was closed first');
      failure ??= closed;
      for (const f of [...fail]) f(closed);
    },
  };
}

/**
 * Waits until the container is no longer running (the engine's wait, condition `not-running`) and returns its state
 * as inspected then; fails with `what` after `boundMs`.
 */
export async function untilNotRunning(engine: Engine, id: string, what: string, boundMs: number): Promise<string> {
  const c = (await engine.docker()).getContainer(id);
  const ac = new AbortController();
  const bound = setTimeout(() => ac.abort(), boundMs);
  try {
    await c.wait({ condition: 'not-running', abortSignal: ac.signal });
  } catch (e) {
    throw new Error(ac.signal.aborted ? `${what}: not within ${boundMs / 1000} s` : `${what}: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    clearTimeout(bound);
  }
  return (await c.inspect()).State.Status;
}
