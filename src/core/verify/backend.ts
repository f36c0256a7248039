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

/** Why a Swarm placement constraint cannot be read (`KEY==VALUE` or `KEY!=VALUE`), or undefined when it can. */
export function constraintProblem(c: string, where: string): string | undefined {
  return /^[A-Za-z0-9_.-]+\s*(==|!=)\s*\S+$/.test(c) ? undefined : `${where} ${JSON.stringify(c)}: a placement constraint reads KEY==VALUE or KEY!=VALUE (node.role==worker)`;
}

/** Why a Kubernetes namespace name cannot be one (a DNS label), or undefined when it can. */
export function namespaceProblem(ns: string, where: string): string | undefined {
  return /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(ns) ? undefined : `${where} ${JSON.stringify(ns)}: a namespace is a DNS label (lowercase letters, digits and dashes, at most 63)`;
}
