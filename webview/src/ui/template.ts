// Small helpers the lit-html regions share.

/**
 * A key per item for `repeat`: `key(item)`, made unique (hostile data may repeat an id; `repeat` needs distinct keys).
 * Use as `repeat(items, uniqueKeys(items, key), render)`.
 */
export function uniqueKeys<T>(items: readonly T[], key: (item: T) => string): (item: T, index: number) => string {
  const seen = new Map<string, number>();
  const keys = items.map((item) => {
    const k = key(item);
    const n = seen.get(k) ?? 0;
    seen.set(k, n + 1);
    return n === 0 ? k : `${k}\u0000${n}`;
  });
  return (_item, index) => keys[index]!;
}

/** Click and Enter/Space, for elements that act as buttons (`@keydown` of a template). */
export function activateKey(fn: (e: Event) => void): (e: KeyboardEvent) => void {
  return (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      fn(e);
    }
  };
}
