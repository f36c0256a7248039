// Where verifier runs execute: the backend names a setting or a flag may give, and which of them are built. Pure.

export const BACKENDS = ['local', 'pool', 'swarm', 'kubernetes'] as const;
export type Backend = (typeof BACKENDS)[number];

/**
 * Reads a backend choice (`where`: the setting or flag it came from, named in the message). Undefined or empty is
 * `local`.
 */
export function parseBackend(value: unknown, where: string): { ok: true; backend: Backend } | { ok: false; message: string } {
  if (value === undefined || value === '') return { ok: true, backend: 'local' };
  if (typeof value !== 'string' || !(BACKENDS as readonly string[]).includes(value)) {
    return { ok: false, message: `${where}: unknown backend ${JSON.stringify(value)}; one of ${BACKENDS.join(', ')}` };
  }
  return { ok: true, backend: value as Backend };
}

/** Where a stored run ran. Records written before backends existed ran on the local engine, node unknown. */
export function runPlace(r: { backend?: string; node?: string; warm?: boolean }): { backend: string; node: string; warm: boolean } {
  return { backend: r.backend ?? 'local', node: r.node ?? '', warm: r.warm === true };
}
