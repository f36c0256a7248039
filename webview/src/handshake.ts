// The page's side of the `ready` handshake: it says `ready` again until the host answers with its first model. A
// `ready` or an `init` can be lost on the way (seen right after a window reload, when VS Code restores a panel),
// and the page would otherwise stay on its loading line for good. The host answers every `ready` with a full `init`,
// so saying it twice is harmless. After a while the page also says that the extension has not answered, and keeps
// trying.

export interface HandshakeOptions {
  /** Posts `ready` (with whatever the page sends with it). */
  sayReady: () => void;
  /** True once the host's first model has arrived. */
  answered: () => boolean;
  /** Shown (once) when the host has been silent for `patienceMs`. */
  onSilent: () => void;
  /** Waits between `ready`s: doubling from `firstMs` up to `maxMs`. */
  firstMs?: number;
  maxMs?: number;
  patienceMs?: number;
}

/** Starts the handshake; returns a function that stops it (the page is going away). */
export function startHandshake(o: HandshakeOptions): () => void {
  const maxMs = o.maxMs ?? 8000;
  const patienceMs = o.patienceMs ?? 15_000;
  let wait = o.firstMs ?? 1000;
  let waited = 0;
  let silentSaid = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = (): void => {
    timer = undefined;
    if (o.answered()) return;
    waited += wait;
    if (!silentSaid && waited >= patienceMs) {
      silentSaid = true;
      o.onSilent();
    }
    o.sayReady();
    wait = Math.min(wait * 2, maxMs);
    timer = setTimeout(tick, wait);
  };
  o.sayReady();
  timer = setTimeout(tick, wait);
  return () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
}
